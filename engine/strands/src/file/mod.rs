//! The strand file, version 1: every strand layer of a material in one binary file.
//!
//! The codec works on byte slices and never does I/O. All numbers are little-endian.
//!
//! ```text
//! header   8  magic "TUFTSTRD"
//!          2  u16 version = 1
//!          2  u16 scheme: 0 = stored (f32/u32 as is)
//!          4  u32 layer count L
//!          4  f32 repeat size (metres)
//!          4  u32 reserved, 0
//!          8  u64 total file length in bytes
//! directory, L entries:
//!          2+n  u16 byte length + UTF-8 layer name
//!          4    u32 strand count N
//!          2    u16 field count F
//!          F × (2+m  u16 + UTF-8 field name, 1  u8 components (1..4), 1  u8 kind: 0 f32, 1 u32)
//!          8    u64 payload offset from the file start
//!          8    u64 payload length in bytes
//!          4    u32 CRC-32 (IEEE) of the payload
//! payloads, field-major: for each field in directory order, N × components values
//! trailer  4  u32 CRC-32 (IEEE) of every byte before it
//! ```
//!
//! Every layer has at least `root_uv` (2 × f32, in `[0, 1)`), `rank` (1 × f32, in
//! `[0, 1)`, ascending), `clump` (1 × u32), `length` and `width` (1 × f32 each, metres).
//! This writer adds `lean`, `bend`, `root_color`, `tip_color`, `tip_pull`, `id` and the
//! groom: `curl` (2 × f32: radius as a fraction of the length, turns), `frizz` (1 × f32,
//! a fraction of the length) and `taper` (2 × f32: tip width as a fraction of the root
//! width, exponent). A reader fills those with neutral values when a file lacks them (a
//! file written before grooming reads as ungroomed strands), and skips fields it does
//! not know.
//!
//! Reading checks, in order: the header's size, magic, version and scheme; the declared
//! length against the actual one (a truncated file says so); the trailer CRC (any flipped
//! bit); the directory's bounds and shapes; each payload's CRC; the required fields; the
//! ranks' order and the roots' range. Every failure is a [`FileError`], never a panic.

mod decode;

pub use decode::{decode, field_ranges, read_directory};

use crate::crc::crc32;
use crate::set::StrandSet;

/// The file's first eight bytes.
pub const MAGIC: &[u8; 8] = b"TUFTSTRD";
/// The version this build writes and the newest it reads.
pub const VERSION: u16 = 1;
/// Bytes in the fixed header.
pub const HEADER_LEN: usize = 32;
/// Bytes in the trailer.
pub const TRAILER_LEN: usize = 4;

/// The numeric kind of a field's values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// IEEE-754 single precision.
    F32,
    /// Unsigned 32-bit integer.
    U32,
}

impl Kind {
    fn code(self) -> u8 {
        match self {
            Self::F32 => 0,
            Self::U32 => 1,
        }
    }
}

/// A field as the directory describes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldInfo {
    /// The field's name.
    pub name: String,
    /// Values per strand, 1..=4.
    pub components: u8,
    /// f32 or u32.
    pub kind: Kind,
}

/// A layer as the directory describes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayerInfo {
    /// The layer's name.
    pub name: String,
    /// How many strands.
    pub n_strands: u32,
    /// Its fields, in payload order.
    pub fields: Vec<FieldInfo>,
    /// Where its payload starts.
    pub payload_offset: u64,
    /// Its payload's length in bytes.
    pub payload_len: u64,
    /// The CRC-32 the directory records for the payload.
    pub crc: u32,
}

/// A decoded strand file.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct StrandFile {
    /// The size of one repeat of the material, in metres.
    pub repeat_m: f32,
    /// The layers, by name, in file order.
    pub layers: Vec<(String, StrandSet)>,
}

/// Why bytes are not a valid strand file.
#[derive(Debug, PartialEq, thiserror::Error)]
pub enum FileError {
    /// Fewer bytes than the structure needs.
    #[error("truncated: {what} needs {need} bytes but only {have} remain")]
    Truncated {
        /// The part being read.
        what: &'static str,
        /// Bytes it needs.
        need: u64,
        /// Bytes there are.
        have: u64,
    },
    /// The first eight bytes are not `TUFTSTRD`.
    #[error("not a strand file (the first bytes are not \"TUFTSTRD\")")]
    BadMagic,
    /// Written by a newer build.
    #[error("strand file version {0} is newer than this build reads ({VERSION})")]
    FutureVersion(u16),
    /// Version 0 was never written.
    #[error("strand file version 0 does not exist")]
    BadVersion,
    /// A storage scheme this build does not know.
    #[error("unknown storage scheme {0} (this build reads scheme 0, stored)")]
    UnknownScheme(u16),
    /// The header's length disagrees with the bytes.
    #[error("the header says the file is {declared} bytes but it is {actual}{}", if actual < declared { " (truncated)" } else { "" })]
    LengthMismatch {
        /// What the header says.
        declared: u64,
        /// What there is.
        actual: u64,
    },
    /// The file's bytes are damaged.
    #[error(
        "the file is corrupted: trailer CRC {stored:#010x} but the bytes give {computed:#010x}"
    )]
    TrailerCrc {
        /// The CRC stored in the trailer.
        stored: u32,
        /// The CRC of the bytes.
        computed: u32,
    },
    /// One layer's payload is damaged.
    #[error("layer {layer:?}: payload CRC {stored:#010x} but the bytes give {computed:#010x}")]
    PayloadCrc {
        /// The layer.
        layer: String,
        /// The CRC in the directory.
        stored: u32,
        /// The CRC of the payload.
        computed: u32,
    },
    /// The header or directory holds an impossible value.
    #[error("malformed {0}")]
    Malformed(String),
    /// A required field is missing or has the wrong shape.
    #[error("layer {layer:?}: {problem}")]
    Field {
        /// The layer.
        layer: String,
        /// What is wrong.
        problem: String,
    },
}

fn malformed(s: impl Into<String>) -> FileError {
    FileError::Malformed(s.into())
}

/// The fields this writer writes, with their shapes.
const WRITTEN: [(&str, u8, Kind); 14] = [
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

/// The fields every layer must have.
pub const REQUIRED: [&str; 5] = ["root_uv", "rank", "clump", "length", "width"];

fn put_name(out: &mut Vec<u8>, name: &str) {
    let bytes = name.as_bytes();
    let len = bytes.len().min(u16::MAX as usize);
    out.extend_from_slice(&(len as u16).to_le_bytes());
    out.extend_from_slice(&bytes[..len]);
}

fn payload(set: &StrandSet) -> Vec<u8> {
    let mut out = Vec::with_capacity(set.len() * crate::set::BYTES_PER_STRAND);
    let f = |out: &mut Vec<u8>, xs: &mut dyn Iterator<Item = f32>| {
        for x in xs {
            out.extend_from_slice(&x.to_le_bytes());
        }
    };
    f(&mut out, &mut set.root_uv.iter().flatten().copied());
    f(&mut out, &mut set.rank.iter().copied());
    for c in &set.clump {
        out.extend_from_slice(&c.to_le_bytes());
    }
    f(&mut out, &mut set.length.iter().copied());
    f(&mut out, &mut set.width.iter().copied());
    f(&mut out, &mut set.lean.iter().flatten().copied());
    f(&mut out, &mut set.bend.iter().copied());
    f(&mut out, &mut set.root_color.iter().flatten().copied());
    f(&mut out, &mut set.tip_color.iter().flatten().copied());
    f(&mut out, &mut set.tip_pull.iter().flatten().copied());
    for i in &set.id {
        out.extend_from_slice(&i.to_le_bytes());
    }
    f(&mut out, &mut set.curl.iter().flatten().copied());
    f(&mut out, &mut set.frizz.iter().copied());
    f(&mut out, &mut set.taper.iter().flatten().copied());
    out
}

/// Encodes `file`. Layer and field names longer than 65535 bytes are cut.
///
/// # Panics
/// If a set's arrays disagree in length ([`StrandSet::is_consistent`]).
#[must_use]
pub fn encode(file: &StrandFile) -> Vec<u8> {
    let payloads: Vec<Vec<u8>> = file
        .layers
        .iter()
        .map(|(_, set)| {
            assert!(
                set.is_consistent(),
                "every strand array has one entry per strand"
            );
            payload(set)
        })
        .collect();
    let mut dir = Vec::new();
    let dir_len: usize = file
        .layers
        .iter()
        .map(|(name, _)| {
            2 + name.len().min(u16::MAX as usize)
                + 4
                + 2
                + WRITTEN
                    .iter()
                    .map(|(n, _, _)| 2 + n.len() + 2)
                    .sum::<usize>()
                + 8
                + 8
                + 4
        })
        .sum();
    let mut offset = (HEADER_LEN + dir_len) as u64;
    for ((name, set), bytes) in file.layers.iter().zip(&payloads) {
        put_name(&mut dir, name);
        dir.extend_from_slice(&(set.len() as u32).to_le_bytes());
        dir.extend_from_slice(&(WRITTEN.len() as u16).to_le_bytes());
        for (field, components, kind) in WRITTEN {
            put_name(&mut dir, field);
            dir.push(components);
            dir.push(kind.code());
        }
        dir.extend_from_slice(&offset.to_le_bytes());
        dir.extend_from_slice(&(bytes.len() as u64).to_le_bytes());
        dir.extend_from_slice(&crc32(bytes).to_le_bytes());
        offset += bytes.len() as u64;
    }
    debug_assert_eq!(dir.len(), dir_len);
    let total = offset + TRAILER_LEN as u64;
    let mut out = Vec::with_capacity(total as usize);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    out.extend_from_slice(&(file.layers.len() as u32).to_le_bytes());
    out.extend_from_slice(&file.repeat_m.to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes());
    out.extend_from_slice(&total.to_le_bytes());
    out.extend_from_slice(&dir);
    for bytes in &payloads {
        out.extend_from_slice(bytes);
    }
    let crc = crc32(&out);
    out.extend_from_slice(&crc.to_le_bytes());
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn small_set(n: usize) -> StrandSet {
        let mut s = StrandSet::with_capacity(n);
        for i in 0..n {
            let t = i as f32 / n as f32;
            s.root_uv.push([t, 1.0 - t - 1e-3]);
            s.rank.push(t);
            s.clump.push(i as u32 / 3);
            s.length.push(0.05 + t * 0.01);
            s.width.push(0.003);
            s.lean.push([0.1, -0.2]);
            s.bend.push(0.3);
            s.root_color.push([0.1, 0.2, 0.05]);
            s.tip_color.push([0.3, 0.4, 0.1]);
            s.tip_pull.push([0.001, 0.0]);
            s.id.push(i as u32 * 7);
            s.curl.push([0.1, 2.0 + t]);
            s.frizz.push(0.05 * t);
            s.taper.push([0.2, 1.0 + t]);
        }
        s
    }

    fn small_file() -> StrandFile {
        StrandFile {
            repeat_m: 2.0,
            layers: vec![
                ("blades".into(), small_set(5)),
                ("fibres".into(), small_set(3)),
            ],
        }
    }

    #[test]
    fn a_file_round_trips_and_has_the_documented_layout() {
        let file = small_file();
        let bytes = encode(&file);
        assert_eq!(&bytes[..8], MAGIC);
        assert_eq!(u16::from_le_bytes([bytes[8], bytes[9]]), 1);
        assert_eq!(u32::from_le_bytes(bytes[12..16].try_into().unwrap()), 2);
        assert_eq!(f32::from_le_bytes(bytes[16..20].try_into().unwrap()), 2.0);
        assert_eq!(
            u64::from_le_bytes(bytes[24..32].try_into().unwrap()),
            bytes.len() as u64
        );
        let trailer = u32::from_le_bytes(bytes[bytes.len() - 4..].try_into().unwrap());
        assert_eq!(trailer, crc32(&bytes[..bytes.len() - 4]));
        assert_eq!(decode(&bytes).unwrap(), file);
    }

    #[test]
    fn every_truncation_is_an_error() {
        let bytes = encode(&small_file());
        for len in 0..bytes.len() {
            assert!(decode(&bytes[..len]).is_err(), "truncated to {len} bytes");
        }
    }

    #[test]
    fn every_single_bit_flip_is_an_error() {
        let bytes = encode(&small_file());
        for bit in 0..bytes.len() * 8 {
            let mut damaged = bytes.clone();
            damaged[bit / 8] ^= 1 << (bit % 8);
            assert!(decode(&damaged).is_err(), "bit {bit} flipped");
        }
    }

    /// Rewrites a file's trailer after tampering, so the checks behind it are reached.
    fn reseal(bytes: &mut [u8]) {
        let body = bytes.len() - 4;
        let crc = crc32(&bytes[..body]);
        bytes[body..].copy_from_slice(&crc.to_le_bytes());
    }

    #[test]
    fn future_versions_and_damaged_payloads_say_so() {
        let mut bytes = encode(&small_file());
        bytes[8] = 2;
        reseal(&mut bytes);
        assert_eq!(decode(&bytes), Err(FileError::FutureVersion(2)));
        let mut bytes = encode(&small_file());
        let n = bytes.len();
        bytes[n - 10] ^= 0x40; // inside the last payload
        reseal(&mut bytes);
        assert!(matches!(decode(&bytes), Err(FileError::PayloadCrc { .. })));
    }

    #[test]
    fn a_missing_required_field_is_named() {
        // A layer written without "rank": rename the field in the directory.
        let mut bytes = encode(&small_file());
        let at = bytes.windows(4).position(|w| w == b"rank").unwrap();
        bytes[at..at + 4].copy_from_slice(b"rang");
        reseal(&mut bytes);
        let err = decode(&bytes).unwrap_err();
        assert!(err.to_string().contains("\"rank\" is missing"), "{err}");
    }

    #[test]
    fn a_file_written_before_grooming_reads_as_ungroomed_strands() {
        // The groom fields renamed to names no reader knows: a file of the fields the
        // writer wrote before them (unknown fields are skipped).
        let file = small_file();
        let mut bytes = encode(&file);
        for (from, to) in [
            (&b"curl"[..], &b"xurl"[..]),
            (b"frizz", b"xrizz"),
            (b"taper", b"xaper"),
        ] {
            while let Some(at) = bytes.windows(from.len()).position(|w| w == from) {
                bytes[at..at + from.len()].copy_from_slice(to);
            }
        }
        reseal(&mut bytes);
        let read = decode(&bytes).unwrap();
        for ((_, old), (_, new)) in read.layers.iter().zip(&file.layers) {
            assert!(old.is_consistent());
            for i in 0..old.len() {
                assert_eq!(old.groom(i), crate::shape::Groom::NEUTRAL);
            }
            assert_eq!(old.length, new.length, "the rest reads as written");
        }
        // And the groom round-trips when present.
        assert_eq!(decode(&encode(&file)).unwrap(), file);
    }

    #[test]
    fn a_payload_length_that_disagrees_with_the_directory_is_refused() {
        let mut bytes = encode(&small_file());
        let (_, infos) = read_directory(&bytes).unwrap();
        // The first layer's payload length field sits 12 bytes before its CRC... find it
        // by value and bump it.
        let needle = infos[0].payload_len.to_le_bytes();
        let at = bytes.windows(8).position(|w| w == needle).unwrap();
        bytes[at..at + 8].copy_from_slice(&(infos[0].payload_len + 4).to_le_bytes());
        reseal(&mut bytes);
        let err = decode(&bytes).unwrap_err();
        assert!(matches!(err, FileError::Malformed(_)), "{err}");
    }

    /// The bytes of a file whose layers all name the first layer's payload: before
    /// payloads had to be disjoint, a 4.6 MB file of this shape asked for over 6 GB.
    pub(crate) fn aliased_payloads(n_layers: usize) -> Vec<u8> {
        let set = small_set(64);
        let file = StrandFile {
            repeat_m: 1.0,
            layers: (0..n_layers)
                .map(|i| (format!("l{i}"), set.clone()))
                .collect(),
        };
        let mut bytes = encode(&file);
        let (_, infos) = read_directory(&bytes).unwrap();
        for info in &infos[1..] {
            let needle = info.payload_offset.to_le_bytes();
            let at = bytes.windows(8).position(|w| w == needle).unwrap();
            bytes[at..at + 8].copy_from_slice(&infos[0].payload_offset.to_le_bytes());
        }
        reseal(&mut bytes);
        bytes
    }

    #[test]
    fn payloads_named_by_two_entries_are_refused() {
        let bytes = aliased_payloads(3);
        let err = decode(&bytes).unwrap_err();
        assert!(
            matches!(&err, FileError::Malformed(m) if m.contains("overlap")),
            "{err}"
        );
        // The same file with its payloads where the writer put them decodes.
        let set = small_set(64);
        let file = StrandFile {
            repeat_m: 1.0,
            layers: (0..3).map(|i| (format!("l{i}"), set.clone())).collect(),
        };
        assert_eq!(decode(&encode(&file)).unwrap(), file);
    }

    #[test]
    fn a_layer_count_the_file_cannot_hold_is_refused_before_reading() {
        let mut bytes = encode(&small_file());
        bytes[12..16].copy_from_slice(&u32::MAX.to_le_bytes());
        reseal(&mut bytes);
        let err = decode(&bytes).unwrap_err();
        assert!(
            matches!(&err, FileError::Malformed(m) if m.contains("cannot fit")),
            "{err}"
        );
    }

    #[test]
    fn mutations_behind_a_valid_crc_reach_every_check() {
        // A control for the property test above: the same kind of edit, made
        // deterministically, must be refused for many different reasons, or the
        // mutations would be testing the CRC alone.
        let base = encode(&small_file());
        let mut reasons = std::collections::BTreeSet::new();
        for i in 0..4000u64 {
            let mut bytes = base.clone();
            let h = crate::hash::hash(7, i, 0);
            let at = 12 + (h % (base.len() as u64 - 16)) as usize;
            if (24..32).contains(&at) {
                continue;
            }
            bytes[at] ^= 1 << ((h >> 32) % 8);
            reseal(&mut bytes);
            match decode(&bytes) {
                Ok(_) => {}
                Err(FileError::Malformed(m)) => {
                    reasons.insert(format!("malformed {}", m.split(':').next().unwrap_or("")));
                }
                Err(FileError::Field { problem, .. }) => {
                    reasons.insert(format!("field {}", &problem[..problem.len().min(12)]));
                }
                Err(e) => {
                    reasons.insert(format!("{:?}", std::mem::discriminant(&e)));
                }
            }
        }
        assert!(reasons.len() >= 12, "{reasons:#?}");
    }

    prop_compose! {
        fn arb_set()(n in 0usize..40, seed in any::<u32>()) -> StrandSet {
            let mut s = StrandSet::with_capacity(n);
            let mut ranks: Vec<f32> = (0..n)
                .map(|i| crate::hash::unit_f32(crate::hash::hash(u64::from(seed), i as u64, 0)))
                .collect();
            ranks.sort_by(f32::total_cmp);
            for (i, r) in ranks.into_iter().enumerate() {
                let h = |c| crate::hash::unit_f32(crate::hash::hash(u64::from(seed), i as u64, c));
                s.root_uv.push([h(1), h(2)]);
                s.rank.push(r);
                s.clump.push((h(3) * 1000.0) as u32);
                s.length.push(h(4) * 0.2);
                s.width.push(h(5) * 0.01);
                s.lean.push([h(6) - 0.5, h(7) - 0.5]);
                s.bend.push(h(8));
                s.root_color.push([h(9), h(10), h(11)]);
                s.tip_color.push([h(12), h(13), h(14)]);
                s.tip_pull.push([h(15) * 0.01, h(16) * 0.01]);
                s.id.push(i as u32);
                s.curl.push([h(17) * 0.2, h(18) * 4.0]);
                s.frizz.push(h(19) * 0.1);
                s.taper.push([h(20), 0.5 + h(21)]);
            }
            s
        }
    }

    proptest! {
        #[test]
        fn any_set_round_trips(sets in proptest::collection::vec(arb_set(), 0..4), repeat in 0.01f32..100.0) {
            let file = StrandFile {
                repeat_m: repeat,
                layers: sets.into_iter().enumerate().map(|(i, s)| (format!("layer {i} ✓"), s)).collect(),
            };
            prop_assert_eq!(decode(&encode(&file)).unwrap(), file);
        }

        #[test]
        fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..256)) {
            let _ = decode(&bytes);
        }

        /// Mutations behind a recomputed length and trailer CRC reach the directory
        /// parser and the field checks, which random bytes never get past the magic to.
        #[test]
        fn mutations_behind_a_valid_crc_never_panic(
            edits in proptest::collection::vec((any::<u16>(), any::<u8>()), 1..6),
        ) {
            let mut bytes = encode(&small_file());
            let n = bytes.len();
            for (at, value) in edits {
                // Most edits land in the header and directory, where the structure is.
                let at = usize::from(at) % if value & 1 == 0 { 200.min(n - 4) } else { n - 4 };
                if (8..12).contains(&at) || (24..32).contains(&at) {
                    continue; // keep the magic's neighbours, version and length honest
                }
                bytes[at] = value;
            }
            reseal(&mut bytes);
            if let Ok(file) = decode(&bytes) {
                let values: usize = file.layers.iter().map(|(_, s)| s.len() * 20).sum();
                prop_assert!(values * 4 <= 4 * n + 1024, "{values} values from {n} bytes");
            }
        }
    }
}
