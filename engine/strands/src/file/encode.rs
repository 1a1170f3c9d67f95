//! Writing the strand file: each layer's fields in the scheme's encodings, the
//! directory, the padding that aligns every array, and the CRCs.

use super::encoding::{self, Encoding, Values};
use super::{ALIGN, HEADER_LEN, Kind, MAGIC, Scheme, StrandFile, TRAILER_LEN, VERSION};
use crate::crc::crc32;
use crate::set::StrandSet;
use bytemuck::cast_slice;

/// The fields this writer writes, with their shapes.
pub(super) const WRITTEN: [(&str, u8, Kind); 14] = [
    ("root_uv", 2, Kind::F32),
    ("rank", 1, Kind::F32),
    ("clump", 1, Kind::U32),
    ("length", 1, Kind::F32),
    ("width", 1, Kind::F32),
    ("lean", 2, Kind::F32),
    ("bend", 1, Kind::F32),
    ("root_color", 3, Kind::F32),
    ("tip_color", 3, Kind::F32),
    ("tip_pull", 2, Kind::F32),
    ("id", 1, Kind::U32),
    ("curl", 2, Kind::F32),
    ("frizz", 1, Kind::F32),
    ("taper", 2, Kind::F32),
];

/// A field as this writer writes it: name, components and values.
struct Field {
    name: &'static str,
    components: u8,
    values: Values,
}

/// Every field of `set`, in the order this writer writes them.
fn fields(set: &StrandSet) -> Vec<Field> {
    let f = |name, components, v: &[f32]| Field {
        name,
        components,
        values: Values::F32(v.to_vec()),
    };
    let u = |name, v: &[u32]| Field {
        name,
        components: 1,
        values: Values::U32(v.to_vec()),
    };
    vec![
        f("root_uv", 2, cast_slice(&set.root_uv)),
        f("rank", 1, &set.rank),
        u("clump", &set.clump),
        f("length", 1, &set.length),
        f("width", 1, &set.width),
        f("lean", 2, cast_slice(&set.lean)),
        f("bend", 1, &set.bend),
        f("root_color", 3, cast_slice(&set.root_color)),
        f("tip_color", 3, cast_slice(&set.tip_color)),
        f("tip_pull", 2, cast_slice(&set.tip_pull)),
        u("id", &set.id),
        f("curl", 2, cast_slice(&set.curl)),
        f("frizz", 1, &set.frizz),
        f("taper", 2, cast_slice(&set.taper)),
    ]
}

/// `n` rounded up to a multiple of [`ALIGN`].
pub(super) fn aligned(n: u64) -> u64 {
    n.div_ceil(ALIGN) * ALIGN
}

fn pad(out: &mut Vec<u8>) {
    out.resize(aligned(out.len() as u64) as usize, 0);
}

fn put_name(out: &mut Vec<u8>, name: &str) {
    let bytes = name.as_bytes();
    let len = bytes.len().min(u16::MAX as usize);
    out.extend_from_slice(&(len as u16).to_le_bytes());
    out.extend_from_slice(&bytes[..len]);
}

/// One layer's directory entry up to its payload's place, and its payload.
fn layer(name: &str, set: &StrandSet, scheme: Scheme) -> (Vec<u8>, Vec<u8>) {
    let mut entry = Vec::new();
    let mut payload = Vec::new();
    put_name(&mut entry, name);
    entry.extend_from_slice(&(set.len() as u32).to_le_bytes());
    let fields = fields(set);
    entry.extend_from_slice(&(fields.len() as u16).to_le_bytes());
    for field in &fields {
        let c = usize::from(field.components);
        let encoding = match scheme {
            Scheme::Stored => Encoding::Raw,
            Scheme::Quantised => encoding::choose(field.name, c, &field.values),
        };
        put_name(&mut entry, field.name);
        entry.push(field.components);
        entry.push(match field.values {
            Values::F32(_) => Kind::F32.code(),
            Values::U32(_) => Kind::U32.code(),
        });
        entry.push(encoding.code());
        match &encoding {
            Encoding::Constant(bits) => bits
                .iter()
                .for_each(|b| entry.extend_from_slice(&b.to_le_bytes())),
            Encoding::Unorm16(ranges) => ranges.iter().for_each(|(lo, hi)| {
                entry.extend_from_slice(&lo.to_le_bytes());
                entry.extend_from_slice(&hi.to_le_bytes());
            }),
            _ => {}
        }
        encoding::put(&mut payload, &encoding, c, &field.values);
        pad(&mut payload);
    }
    (entry, payload)
}

/// Encodes `file` in scheme 0, stored: it decodes bit-identical. Layer and field names
/// longer than 65535 bytes are cut.
///
/// # Panics
/// If a set's arrays disagree in length ([`StrandSet::is_consistent`]).
#[must_use]
pub fn encode(file: &StrandFile) -> Vec<u8> {
    encode_with(file, Scheme::Stored)
}

/// Encodes `file` in `scheme`.
///
/// # Panics
/// If a set's arrays disagree in length ([`StrandSet::is_consistent`]).
#[must_use]
pub fn encode_with(file: &StrandFile, scheme: Scheme) -> Vec<u8> {
    let layers: Vec<(Vec<u8>, Vec<u8>)> = file
        .layers
        .iter()
        .map(|(name, set)| {
            assert!(
                set.is_consistent(),
                "every strand array has one entry per strand"
            );
            layer(name, set, scheme)
        })
        .collect();
    // Each entry ends with offset (8), length (8) and CRC (4).
    let dir_len: usize = layers.iter().map(|(entry, _)| entry.len() + 20).sum();
    let mut offset = aligned((HEADER_LEN + dir_len) as u64);
    let payload_bytes: u64 = layers.iter().map(|(_, p)| p.len() as u64).sum();
    let total = offset + payload_bytes + TRAILER_LEN as u64;
    let mut out = Vec::with_capacity(total as usize);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&scheme.code().to_le_bytes());
    out.extend_from_slice(&(file.layers.len() as u32).to_le_bytes());
    out.extend_from_slice(&file.repeat_m.to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes());
    out.extend_from_slice(&total.to_le_bytes());
    for (entry, payload) in &layers {
        out.extend_from_slice(entry);
        out.extend_from_slice(&offset.to_le_bytes());
        out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
        out.extend_from_slice(&crc32(payload).to_le_bytes());
        offset += payload.len() as u64;
    }
    pad(&mut out);
    for (_, payload) in &layers {
        out.extend_from_slice(payload);
    }
    debug_assert_eq!(out.len() as u64 + TRAILER_LEN as u64, total);
    let crc = crc32(&out);
    out.extend_from_slice(&crc.to_le_bytes());
    out
}
