//! Reading the strand file: a cursor that reports truncation, the directory's checks,
//! and each layer's payload turned back into a [`StrandSet`].

use super::{
    FieldInfo, FileError, HEADER_LEN, Kind, LayerInfo, MAGIC, StrandFile, TRAILER_LEN, VERSION,
    malformed,
};
use crate::crc::crc32;
use crate::set::StrandSet;
use crate::shape::Groom;

/// A cursor over bytes that reports truncation instead of panicking.
struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize, what: &'static str) -> Result<&'a [u8], FileError> {
        let have = self.bytes.len() - self.pos;
        if n > have {
            return Err(FileError::Truncated {
                what,
                need: n as u64,
                have: have as u64,
            });
        }
        let s = &self.bytes[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }
    fn u8(&mut self, what: &'static str) -> Result<u8, FileError> {
        Ok(self.take(1, what)?[0])
    }
    fn u16(&mut self, what: &'static str) -> Result<u16, FileError> {
        Ok(u16::from_le_bytes(
            self.take(2, what)?.try_into().expect("two bytes"),
        ))
    }
    fn u32(&mut self, what: &'static str) -> Result<u32, FileError> {
        Ok(u32::from_le_bytes(
            self.take(4, what)?.try_into().expect("four bytes"),
        ))
    }
    fn u64(&mut self, what: &'static str) -> Result<u64, FileError> {
        Ok(u64::from_le_bytes(
            self.take(8, what)?.try_into().expect("eight bytes"),
        ))
    }
    fn name(&mut self, what: &'static str) -> Result<String, FileError> {
        let len = self.u16(what)? as usize;
        let bytes = self.take(len, what)?;
        String::from_utf8(bytes.to_vec()).map_err(|_| malformed(format!("{what}: not UTF-8")))
    }
}

/// The header and directory, checked for structure, length and the trailer CRC but
/// with payloads not yet read.
///
/// # Errors
/// See [`FileError`].
pub fn read_directory(bytes: &[u8]) -> Result<(f32, Vec<LayerInfo>), FileError> {
    let mut r = Reader { bytes, pos: 0 };
    if r.take(8, "the magic")? != MAGIC {
        return Err(FileError::BadMagic);
    }
    let version = r.u16("the version")?;
    if version > VERSION {
        return Err(FileError::FutureVersion(version));
    }
    if version == 0 {
        return Err(FileError::BadVersion);
    }
    let scheme = r.u16("the scheme")?;
    if scheme != 0 {
        return Err(FileError::UnknownScheme(scheme));
    }
    let n_layers = r.u32("the layer count")?;
    let repeat_m = f32::from_le_bytes(r.take(4, "the repeat size")?.try_into().expect("four"));
    let reserved = r.u32("the reserved word")?;
    let declared = r.u64("the file length")?;
    if declared != bytes.len() as u64 {
        return Err(FileError::LengthMismatch {
            declared,
            actual: bytes.len() as u64,
        });
    }
    if bytes.len() < HEADER_LEN + TRAILER_LEN {
        return Err(FileError::Truncated {
            what: "the trailer",
            need: (HEADER_LEN + TRAILER_LEN) as u64,
            have: bytes.len() as u64,
        });
    }
    let body = bytes.len() - TRAILER_LEN;
    let stored = u32::from_le_bytes(bytes[body..].try_into().expect("four bytes"));
    let computed = crc32(&bytes[..body]);
    if stored != computed {
        return Err(FileError::TrailerCrc { stored, computed });
    }
    if reserved != 0 {
        return Err(malformed(format!(
            "header: reserved word is {reserved}, not 0"
        )));
    }
    if !(repeat_m.is_finite() && repeat_m > 0.0) {
        return Err(malformed(format!(
            "header: repeat size {repeat_m} is not a positive length"
        )));
    }
    let mut r = Reader {
        bytes: &bytes[..body],
        pos: HEADER_LEN,
    };
    // A directory entry takes at least this many bytes (empty names, no fields), so a
    // layer count the directory area cannot hold is refused before anything is read.
    const MIN_ENTRY: u64 = 2 + 4 + 2 + 8 + 8 + 4;
    let dir_room = (body - HEADER_LEN) as u64;
    if u64::from(n_layers) * MIN_ENTRY > dir_room {
        return Err(malformed(format!(
            "header: {n_layers} layers cannot fit in a directory of at most {dir_room} bytes"
        )));
    }
    let mut layers = Vec::with_capacity(n_layers as usize);
    for _ in 0..n_layers {
        let name = r.name("a layer name")?;
        let n_strands = r.u32("a strand count")?;
        let n_fields = r.u16("a field count")?;
        let mut fields = Vec::with_capacity(usize::from(n_fields).min(64));
        let mut per_strand: u64 = 0;
        for _ in 0..n_fields {
            let field = r.name("a field name")?;
            let components = r.u8("a component count")?;
            let kind = match r.u8("a field kind")? {
                0 => Kind::F32,
                1 => Kind::U32,
                k => {
                    return Err(malformed(format!(
                        "layer {name:?}: field {field:?} has kind {k}"
                    )));
                }
            };
            if !(1..=4).contains(&components) {
                return Err(malformed(format!(
                    "layer {name:?}: field {field:?} has {components} components (1..4)"
                )));
            }
            per_strand += u64::from(components) * 4;
            fields.push(FieldInfo {
                name: field,
                components,
                kind,
            });
        }
        let payload_offset = r.u64("a payload offset")?;
        let payload_len = r.u64("a payload length")?;
        let crc = r.u32("a payload CRC")?;
        if n_strands > 0 && per_strand == 0 {
            return Err(malformed(format!(
                "layer {name:?}: {n_strands} strands but no fields to hold them"
            )));
        }
        let expected = u64::from(n_strands) * per_strand;
        if payload_len != expected {
            return Err(malformed(format!(
                "layer {name:?}: payload is {payload_len} bytes but {n_strands} strands of \
                 {per_strand} bytes need {expected}"
            )));
        }
        layers.push(LayerInfo {
            name,
            n_strands,
            fields,
            payload_offset,
            payload_len,
            crc,
        });
    }
    let dir_end = r.pos as u64;
    for layer in &layers {
        let end = layer.payload_offset.checked_add(layer.payload_len);
        if layer.payload_offset < dir_end || end.is_none_or(|e| e > body as u64) {
            return Err(malformed(format!(
                "layer {:?}: payload at {}..+{} lies outside the payload area {dir_end}..{body}",
                layer.name, layer.payload_offset, layer.payload_len
            )));
        }
    }
    // Payloads may not share bytes: otherwise a small file could name one payload from
    // many entries and ask the decoder for far more memory than its own length.
    let mut by_offset: Vec<&LayerInfo> = layers.iter().filter(|l| l.payload_len > 0).collect();
    by_offset.sort_by_key(|l| l.payload_offset);
    for pair in by_offset.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        if a.payload_offset + a.payload_len > b.payload_offset {
            return Err(malformed(format!(
                "layers {:?} and {:?}: payloads at {}..+{} and {}..+{} overlap",
                a.name, b.name, a.payload_offset, a.payload_len, b.payload_offset, b.payload_len
            )));
        }
    }
    Ok((repeat_m, layers))
}

/// Decodes a strand file.
///
/// # Errors
/// See [`FileError`].
pub fn decode(bytes: &[u8]) -> Result<StrandFile, FileError> {
    let (repeat_m, infos) = read_directory(bytes)?;
    let mut layers = Vec::with_capacity(infos.len());
    for info in infos {
        let start = info.payload_offset as usize;
        let payload = &bytes[start..start + info.payload_len as usize];
        let computed = crc32(payload);
        if computed != info.crc {
            return Err(FileError::PayloadCrc {
                layer: info.name,
                stored: info.crc,
                computed,
            });
        }
        let set = layer_set(&info, payload)?;
        layers.push((info.name, set));
    }
    Ok(StrandFile { repeat_m, layers })
}

/// The raw 4-byte words of each field of a layer's payload.
fn split_fields<'a>(info: &'a LayerInfo, payload: &'a [u8]) -> Vec<(&'a FieldInfo, &'a [u8])> {
    let n = info.n_strands as usize;
    let mut at = 0;
    info.fields
        .iter()
        .map(|f| {
            let len = n * usize::from(f.components) * 4;
            let s = &payload[at..at + len];
            at += len;
            (f, s)
        })
        .collect()
}

fn layer_set(info: &LayerInfo, payload: &[u8]) -> Result<StrandSet, FileError> {
    let layer_err = |problem: String| FileError::Field {
        layer: info.name.clone(),
        problem,
    };
    let fields = split_fields(info, payload);
    let find = |name: &str, components: u8, kind: Kind| -> Result<Option<&[u8]>, FileError> {
        match fields.iter().find(|(f, _)| f.name == name) {
            None => Ok(None),
            Some((f, bytes)) if f.components == components && f.kind == kind => Ok(Some(bytes)),
            Some((f, _)) => Err(layer_err(format!(
                "field {name:?} is {}×{:?} but must be {components}×{kind:?}",
                f.components, f.kind
            ))),
        }
    };
    let n = info.n_strands as usize;
    let f32s = |b: &[u8]| -> Vec<f32> {
        b.chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().expect("four bytes")))
            .collect()
    };
    let u32s = |b: &[u8]| -> Vec<u32> {
        b.chunks_exact(4)
            .map(|c| u32::from_le_bytes(c.try_into().expect("four bytes")))
            .collect()
    };
    let required = |name: &str, components: u8, kind: Kind| {
        find(name, components, kind)?
            .ok_or_else(|| layer_err(format!("required field {name:?} is missing")))
    };
    let pairs =
        |v: Vec<f32>| -> Vec<[f32; 2]> { v.chunks_exact(2).map(|c| [c[0], c[1]]).collect() };
    let triples =
        |v: Vec<f32>| -> Vec<[f32; 3]> { v.chunks_exact(3).map(|c| [c[0], c[1], c[2]]).collect() };
    let set = StrandSet {
        root_uv: pairs(f32s(required("root_uv", 2, Kind::F32)?)),
        rank: f32s(required("rank", 1, Kind::F32)?),
        clump: u32s(required("clump", 1, Kind::U32)?),
        length: f32s(required("length", 1, Kind::F32)?),
        width: f32s(required("width", 1, Kind::F32)?),
        lean: find("lean", 2, Kind::F32)?.map_or_else(|| vec![[0.0; 2]; n], |b| pairs(f32s(b))),
        bend: find("bend", 1, Kind::F32)?.map_or_else(|| vec![0.0; n], f32s),
        root_color: find("root_color", 3, Kind::F32)?
            .map_or_else(|| vec![[0.18; 3]; n], |b| triples(f32s(b))),
        tip_color: find("tip_color", 3, Kind::F32)?
            .map_or_else(|| vec![[0.18; 3]; n], |b| triples(f32s(b))),
        tip_pull: find("tip_pull", 2, Kind::F32)?
            .map_or_else(|| vec![[0.0; 2]; n], |b| pairs(f32s(b))),
        id: find("id", 1, Kind::U32)?.map_or_else(|| (0..n as u32).collect(), u32s),
        // Files written before grooming read as ungroomed strands.
        curl: find("curl", 2, Kind::F32)?
            .map_or_else(|| vec![Groom::NEUTRAL.curl; n], |b| pairs(f32s(b))),
        frizz: find("frizz", 1, Kind::F32)?.map_or_else(|| vec![Groom::NEUTRAL.frizz; n], f32s),
        taper: find("taper", 2, Kind::F32)?
            .map_or_else(|| vec![Groom::NEUTRAL.taper; n], |b| pairs(f32s(b))),
    };
    if let Some(i) = set.rank.iter().position(|r| !(0.0..1.0).contains(r)) {
        return Err(layer_err(format!(
            "rank {} of strand {i} is outside [0, 1)",
            set.rank[i]
        )));
    }
    if let Some(i) = set.rank.windows(2).position(|w| w[0] > w[1]) {
        return Err(layer_err(format!(
            "ranks are not ascending at strand {}",
            i + 1
        )));
    }
    if let Some(i) = set
        .root_uv
        .iter()
        .position(|p| !(0.0..1.0).contains(&p[0]) || !(0.0..1.0).contains(&p[1]))
    {
        return Err(layer_err(format!(
            "root_uv {:?} of strand {i} is outside [0, 1)",
            set.root_uv[i]
        )));
    }
    if let Some(i) = set
        .length
        .iter()
        .chain(&set.width)
        .position(|x| !(x.is_finite() && *x >= 0.0))
    {
        return Err(layer_err(format!(
            "length or width {i} is negative or not finite"
        )));
    }
    Ok(set)
}

/// Smallest and largest value of each component of each field of a layer, for tools
/// that show a file's content (`tuft inspect`).
#[must_use]
pub fn field_ranges(info: &LayerInfo, bytes: &[u8]) -> Vec<(String, Vec<(f64, f64)>)> {
    let start = info.payload_offset as usize;
    let end = start + info.payload_len as usize;
    let Some(payload) = bytes.get(start..end) else {
        return Vec::new();
    };
    split_fields(info, payload)
        .into_iter()
        .map(|(f, b)| {
            let c = usize::from(f.components);
            let mut ranges = vec![(f64::INFINITY, f64::NEG_INFINITY); c];
            for (k, word) in b.chunks_exact(4).enumerate() {
                let w: [u8; 4] = word.try_into().expect("four bytes");
                let x = match f.kind {
                    Kind::F32 => f64::from(f32::from_le_bytes(w)),
                    Kind::U32 => f64::from(u32::from_le_bytes(w)),
                };
                let r = &mut ranges[k % c];
                r.0 = r.0.min(x);
                r.1 = r.1.max(x);
            }
            (f.name.clone(), ranges)
        })
        .collect()
}
