//! Reading the strand file: a cursor that reports truncation, the directory's checks,
//! and each layer's payload turned back into a [`StrandSet`].

use super::encode::aligned;
use super::encoding::{self, Encoding, Values};
use super::{
    ALIGN, FieldInfo, FileError, HEADER_LEN, Kind, LayerInfo, MAGIC, Scheme, StrandFile,
    TRAILER_LEN, VERSION, malformed,
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
    fn f32(&mut self, what: &'static str) -> Result<f32, FileError> {
        Ok(f32::from_bits(self.u32(what)?))
    }
    fn name(&mut self, what: &'static str) -> Result<String, FileError> {
        let len = self.u16(what)? as usize;
        let bytes = self.take(len, what)?;
        String::from_utf8(bytes.to_vec()).map_err(|_| malformed(format!("{what}: not UTF-8")))
    }
}

/// A file's header and directory.
#[derive(Clone, Debug, PartialEq)]
pub struct Directory {
    /// 1 or 2.
    pub version: u16,
    /// How the fields are stored.
    pub scheme: Scheme,
    /// The size of one repeat of the material, in metres.
    pub repeat_m: f32,
    /// The layers, in file order.
    pub layers: Vec<LayerInfo>,
}

impl Directory {
    /// Whether payloads and field arrays are padded to [`ALIGN`] (version 2 on).
    #[must_use]
    pub fn aligned(&self) -> bool {
        self.version >= 2
    }
}

/// One field's encoding and its parameters, read from the directory.
fn read_encoding(
    r: &mut Reader<'_>,
    layer: &str,
    field: &str,
    components: u8,
    kind: Kind,
) -> Result<Encoding, FileError> {
    let code = r.u8("a field encoding")?;
    let c = usize::from(components);
    let encoding = match code {
        0 => Encoding::Raw,
        1 => Encoding::Constant(
            (0..c)
                .map(|_| r.u32("a constant value"))
                .collect::<Result<_, _>>()?,
        ),
        2 => {
            let mut ranges = Vec::with_capacity(c);
            for _ in 0..c {
                let (low, high) = (r.f32("a range")?, r.f32("a range")?);
                if !(low.is_finite() && high.is_finite() && low <= high) {
                    return Err(FileError::BadRange {
                        layer: layer.to_owned(),
                        field: field.to_owned(),
                        low,
                        high,
                    });
                }
                ranges.push((low, high));
            }
            Encoding::Unorm16(ranges)
        }
        3 => Encoding::Rank16,
        4 => Encoding::Srgb8,
        5 => Encoding::U16,
        code => {
            return Err(FileError::UnknownEncoding {
                layer: layer.to_owned(),
                field: field.to_owned(),
                code,
            });
        }
    };
    if !encoding.holds(kind) {
        return Err(malformed(format!(
            "layer {layer:?}: field {field:?} holds {kind:?} values, which {} cannot encode",
            encoding.name()
        )));
    }
    if matches!(encoding, Encoding::Constant(_)) && matches!(field, "rank" | "root_uv") {
        return Err(malformed(format!(
            "layer {layer:?}: field {field:?} must be stored a strand, not as a constant"
        )));
    }
    Ok(encoding)
}

/// The header and directory, checked for structure, length, alignment, padding and the
/// trailer CRC but with payloads not yet read.
///
/// # Errors
/// See [`FileError`].
pub fn read_directory(bytes: &[u8]) -> Result<Directory, FileError> {
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
    let scheme_code = r.u16("the scheme")?;
    let scheme = Scheme::from_code(scheme_code)
        .filter(|s| version >= 2 || *s == Scheme::Stored)
        .ok_or(FileError::UnknownScheme(scheme_code))?;
    let n_layers = r.u32("the layer count")?;
    let repeat_m = r.f32("the repeat size")?;
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
    let padded = version >= 2;
    let mut layers = Vec::with_capacity(n_layers as usize);
    for _ in 0..n_layers {
        let name = r.name("a layer name")?;
        let n_strands = r.u32("a strand count")?;
        let n_fields = r.u16("a field count")?;
        let mut fields = Vec::with_capacity(usize::from(n_fields).min(64));
        let mut expected: u64 = 0;
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
            let encoding = if padded {
                read_encoding(&mut r, &name, &field, components, kind)?
            } else {
                Encoding::Raw
            };
            if scheme == Scheme::Stored && encoding != Encoding::Raw {
                return Err(malformed(format!(
                    "layer {name:?}: field {field:?} is {} in a stored (scheme 0) file",
                    encoding.name()
                )));
            }
            let bytes = u64::from(n_strands) * u64::from(components) * encoding.value_bytes();
            expected += if padded { aligned(bytes) } else { bytes };
            fields.push(FieldInfo {
                name: field,
                components,
                kind,
                encoding,
            });
        }
        let payload_offset = r.u64("a payload offset")?;
        let payload_len = r.u64("a payload length")?;
        let crc = r.u32("a payload CRC")?;
        if n_strands > 0 && expected == 0 {
            return Err(malformed(format!(
                "layer {name:?}: {n_strands} strands but no stored fields to hold them"
            )));
        }
        if payload_len != expected {
            return Err(malformed(format!(
                "layer {name:?}: payload is {payload_len} bytes but {n_strands} strands of \
                 its fields need {expected}"
            )));
        }
        if padded && payload_offset % ALIGN != 0 {
            return Err(FileError::Misaligned {
                layer: name,
                offset: payload_offset,
            });
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
    if padded {
        // Every byte of the payload area no payload holds is padding, and zero.
        let mut at = dir_end;
        for l in by_offset {
            zeros(
                &bytes[at as usize..l.payload_offset as usize],
                "before a payload",
            )?;
            at = l.payload_offset + l.payload_len;
        }
        zeros(&bytes[at as usize..body], "after the last payload")?;
    }
    Ok(Directory {
        version,
        scheme,
        repeat_m,
        layers,
    })
}

fn zeros(padding: &[u8], where_: &str) -> Result<(), FileError> {
    match padding.iter().position(|&b| b != 0) {
        None => Ok(()),
        Some(i) => Err(malformed(format!(
            "padding {where_}: byte {i} of {} is {:#04x}, not zero",
            padding.len(),
            padding[i]
        ))),
    }
}

/// Decodes a strand file.
///
/// # Errors
/// See [`FileError`].
pub fn decode(bytes: &[u8]) -> Result<StrandFile, FileError> {
    let dir = read_directory(bytes)?;
    let mut layers = Vec::with_capacity(dir.layers.len());
    for info in &dir.layers {
        let payload = payload(info, bytes);
        let computed = crc32(payload);
        if computed != info.crc {
            return Err(FileError::PayloadCrc {
                layer: info.name.clone(),
                stored: info.crc,
                computed,
            });
        }
        let set = layer_set(info, &split_fields(&dir, info, payload)?)?;
        // Every value inside the ranges a scatter writes: a damaged file that kept its
        // CRCs must not draw as invisible strands or smears.
        if let Some(problem) = set.problem(dir.repeat_m) {
            return Err(FileError::Field {
                layer: info.name.clone(),
                problem,
            });
        }
        layers.push((info.name.clone(), set));
    }
    Ok(StrandFile {
        repeat_m: dir.repeat_m,
        layers,
    })
}

/// A layer's payload (the directory has checked it lies inside `bytes`).
fn payload<'a>(info: &LayerInfo, bytes: &'a [u8]) -> &'a [u8] {
    let start = info.payload_offset as usize;
    &bytes[start..start + info.payload_len as usize]
}

/// Each field of a layer's payload with its stored bytes, its padding checked zero.
fn split_fields<'a>(
    dir: &Directory,
    info: &'a LayerInfo,
    payload: &'a [u8],
) -> Result<Vec<(&'a FieldInfo, &'a [u8])>, FileError> {
    let n = u64::from(info.n_strands);
    let mut at = 0;
    let mut out = Vec::with_capacity(info.fields.len());
    for f in &info.fields {
        let len = (n * u64::from(f.components) * f.encoding.value_bytes()) as usize;
        let padded = if dir.aligned() {
            aligned(len as u64) as usize
        } else {
            len
        };
        zeros(
            &payload[at + len..at + padded],
            &format!("after field {:?} of layer {:?}", f.name, info.name),
        )?;
        out.push((f, &payload[at..at + len]));
        at += padded;
    }
    Ok(out)
}

fn layer_set(info: &LayerInfo, fields: &[(&FieldInfo, &[u8])]) -> Result<StrandSet, FileError> {
    let layer_err = |problem: String| FileError::Field {
        layer: info.name.clone(),
        problem,
    };
    let n = info.n_strands as usize;
    let find = |name: &str, components: u8, kind: Kind| -> Result<Option<&FieldInfo>, FileError> {
        match fields.iter().find(|(f, _)| f.name == name) {
            None => Ok(None),
            Some((f, _)) if f.components == components && f.kind == kind => Ok(Some(f)),
            Some((f, _)) => Err(layer_err(format!(
                "field {name:?} is {}×{:?} but must be {components}×{kind:?}",
                f.components, f.kind
            ))),
        }
    };
    // Shapes first, so nothing is decoded for a layer that will be refused.
    for (name, components, kind) in super::encode::WRITTEN {
        let found = find(name, components, kind)?;
        if found.is_none() && super::REQUIRED.contains(&name) {
            return Err(layer_err(format!("required field {name:?} is missing")));
        }
    }
    let values = |name: &str| {
        fields
            .iter()
            .find(|(f, _)| f.name == name)
            .map(|(f, b)| encoding::get(b, &f.encoding, f.kind, n, usize::from(f.components)))
    };
    let f32s = |name: &str| match values(name) {
        Some(Values::F32(v)) => Some(v),
        _ => None,
    };
    let u32s = |name: &str| match values(name) {
        Some(Values::U32(v)) => Some(v),
        _ => None,
    };
    let pairs =
        |v: Vec<f32>| -> Vec<[f32; 2]> { v.chunks_exact(2).map(|c| [c[0], c[1]]).collect() };
    let triples =
        |v: Vec<f32>| -> Vec<[f32; 3]> { v.chunks_exact(3).map(|c| [c[0], c[1], c[2]]).collect() };
    let required = "required fields were found above";
    let set = StrandSet {
        root_uv: pairs(f32s("root_uv").expect(required)),
        rank: f32s("rank").expect(required),
        clump: u32s("clump").expect(required),
        length: f32s("length").expect(required),
        width: f32s("width").expect(required),
        lean: f32s("lean").map_or_else(|| vec![[0.0; 2]; n], pairs),
        bend: f32s("bend").unwrap_or_else(|| vec![0.0; n]),
        root_color: f32s("root_color").map_or_else(|| vec![[0.18; 3]; n], triples),
        tip_color: f32s("tip_color").map_or_else(|| vec![[0.18; 3]; n], triples),
        tip_pull: f32s("tip_pull").map_or_else(|| vec![[0.0; 2]; n], pairs),
        id: u32s("id").unwrap_or_else(|| (0..n as u32).collect()),
        // Files written before grooming read as ungroomed strands.
        curl: f32s("curl").map_or_else(|| vec![Groom::NEUTRAL.curl; n], pairs),
        frizz: f32s("frizz").unwrap_or_else(|| vec![Groom::NEUTRAL.frizz; n]),
        taper: f32s("taper").map_or_else(|| vec![Groom::NEUTRAL.taper; n], pairs),
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
    // Every other value is checked against its range by the caller (`StrandSet::problem`).
    Ok(set)
}

/// Smallest and largest value of each component of each field of a layer, decoded,
/// for tools that show a file's content (`tuft inspect`); empty where the payload is
/// not where the directory says.
#[must_use]
pub fn field_ranges(
    dir: &Directory,
    info: &LayerInfo,
    bytes: &[u8],
) -> Vec<(String, Vec<(f64, f64)>)> {
    let end = info.payload_offset.saturating_add(info.payload_len);
    let Some(payload) = usize::try_from(end)
        .ok()
        .and_then(|end| bytes.get(info.payload_offset as usize..end))
    else {
        return Vec::new();
    };
    let Ok(fields) = split_fields(dir, info, payload) else {
        return Vec::new();
    };
    let n = info.n_strands as usize;
    fields
        .into_iter()
        .map(|(f, b)| {
            // A constant field's range is its value: never spread over every strand.
            if let Encoding::Constant(bits) = &f.encoding {
                let value = |b: u32| match f.kind {
                    Kind::F32 => f64::from(f32::from_bits(b)),
                    Kind::U32 => f64::from(b),
                };
                return (
                    f.name.clone(),
                    bits.iter().map(|&b| (value(b), value(b))).collect(),
                );
            }
            let c = usize::from(f.components);
            let values: Vec<f64> = match encoding::get(b, &f.encoding, f.kind, n, c) {
                Values::F32(v) => v.into_iter().map(f64::from).collect(),
                Values::U32(v) => v.into_iter().map(f64::from).collect(),
            };
            let mut ranges = vec![(f64::INFINITY, f64::NEG_INFINITY); c];
            for (k, x) in values.into_iter().enumerate() {
                let r = &mut ranges[k % c];
                *r = (r.0.min(x), r.1.max(x));
            }
            (f.name.clone(), ranges)
        })
        .collect()
}
