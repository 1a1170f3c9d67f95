//! The strand file: every strand layer of a material in one binary file. This build
//! writes version 2 and reads versions 1 and 2.
//!
//! The codec works on byte slices and never does I/O. All numbers are little-endian.
//!
//! ```text
//! header   8  magic "TUFTSTRD"
//!          2  u16 version = 2
//!          2  u16 scheme: 0 = stored (every field raw), 1 = quantised (any encoding)
//!          4  u32 layer count L
//!          4  f32 repeat size (metres)
//!          4  u32 reserved, 0
//!          8  u64 total file length in bytes
//! directory, L entries:
//!          2+n  u16 byte length + UTF-8 layer name
//!          4    u32 strand count N
//!          2    u16 field count F
//!          F × (2+m  u16 + UTF-8 field name,
//!               1    u8 components (1..4),
//!               1    u8 kind of the values: 0 f32, 1 u32,
//!               1    u8 encoding (see `encoding`), then the encoding's parameters:
//!                    constant: components × 4 (the value's bits);
//!                    unorm16: components × (f32 low, f32 high); the others: none)
//!          8    u64 payload offset from the file start, a multiple of 16
//!          8    u64 payload length in bytes
//!          4    u32 CRC-32 (IEEE) of the payload
//! zeros up to the first payload
//! payloads, field-major: for each field in directory order, N × components values in
//!          its encoding, then zeros up to a multiple of 16 bytes
//! trailer  4  u32 CRC-32 (IEEE) of every byte before it
//! ```
//!
//! Every field's array starts 16-byte aligned, so a game that maps the file can view a
//! scheme-0 array in place (`bytemuck::cast_slice`); the padding is zero and covered by
//! both CRCs. Version 1 is the same without the encoding byte (every field raw) and
//! without padding: payloads follow the directory and each other directly.
//!
//! Every layer has at least `root_uv` (2 × f32, in `[0, 1)`), `rank` (1 × f32, in
//! `[0, 1)`, ascending), `clump` (1 × u32), `length` and `width` (1 × f32 each, metres).
//! This writer adds `lean`, `bend`, `root_color`, `tip_color`, `tip_pull`, `id` and the
//! groom: `curl` (2 × f32: radius as a fraction of the length, turns), `frizz` (1 × f32,
//! a fraction of the length) and `taper` (2 × f32: tip width as a fraction of the root
//! width, exponent). A reader fills those with neutral values when a file lacks them (a
//! file written before grooming reads as ungroomed strands), and skips fields it does
//! not know. `rank` and `root_uv` are stored a strand (never constant), so a strand
//! costs at least 6 bytes of file and no file decodes to more than its length allows.
//!
//! Scheme 1 stores each field in the encoding [`encoding::choose`] picks, each with a
//! stated error bound: a set read from a scheme-1 file is not bit-identical to the one
//! written, and meshes built from it differ by at most those bounds. A writer that
//! wants its other outputs to agree with the file builds them from the decoded set.
//!
//! Reading checks, in order: the header's size, magic, version and scheme; the declared
//! length against the actual one (a truncated file says so); the trailer CRC (any flipped
//! bit); the directory's bounds, shapes, encodings, ranges and alignment; the padding;
//! each payload's CRC; the required fields; the ranks' order and the roots' range. Every
//! failure is a [`FileError`], never a panic.

mod decode;
mod encode;
pub mod encoding;

pub use decode::{Directory, decode, field_ranges, read_directory};
pub use encode::{encode, encode_with};
pub use encoding::Encoding;

use crate::set::StrandSet;

/// The file's first eight bytes.
pub const MAGIC: &[u8; 8] = b"TUFTSTRD";
/// The largest strand file read whole ([`crate::read::read_file`]): a graph's limit on
/// candidates in all layers, at the 92 bytes of a stored strand, is 772 MB.
pub const MAX_FILE_BYTES: u64 = 1 << 30;
/// The version this build writes and the newest it reads.
pub const VERSION: u16 = 2;
/// Bytes in the fixed header.
pub const HEADER_LEN: usize = 32;
/// Bytes in the trailer.
pub const TRAILER_LEN: usize = 4;
/// Every payload and every field's array starts at a multiple of this (version 2).
pub const ALIGN: u64 = 16;

/// How the writer stores the fields.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Scheme {
    /// Every field as it is in memory (f32, u32): decodes bit-identical.
    #[default]
    Stored,
    /// Each field quantised within a stated bound ([`encoding`]).
    Quantised,
}

impl Scheme {
    /// The names the command line and the manifest use, in code order.
    pub const NAMES: [&'static str; 2] = ["stored", "quantised"];

    /// Its number in the header.
    #[must_use]
    pub fn code(self) -> u16 {
        match self {
            Self::Stored => 0,
            Self::Quantised => 1,
        }
    }

    /// The scheme numbered `code`.
    #[must_use]
    pub fn from_code(code: u16) -> Option<Self> {
        match code {
            0 => Some(Self::Stored),
            1 => Some(Self::Quantised),
            _ => None,
        }
    }

    /// Its name.
    #[must_use]
    pub fn name(self) -> &'static str {
        Self::NAMES[usize::from(self.code())]
    }

    /// The scheme called `name`.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Self> {
        Self::NAMES
            .iter()
            .position(|n| *n == name)
            .and_then(|i| Self::from_code(i as u16))
    }
}

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
#[derive(Clone, Debug, PartialEq)]
pub struct FieldInfo {
    /// The field's name.
    pub name: String,
    /// Values per strand, 1..=4.
    pub components: u8,
    /// f32 or u32.
    pub kind: Kind,
    /// How its values are stored (version 1: always raw).
    pub encoding: Encoding,
}

/// A layer as the directory describes it.
#[derive(Clone, Debug, PartialEq)]
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
    #[error("unknown storage scheme {0} (this build reads 0, stored, and 1, quantised)")]
    UnknownScheme(u16),
    /// A field's encoding byte names no encoding this build knows.
    #[error("layer {layer:?}: field {field:?} has encoding {code}, which this build does not know")]
    UnknownEncoding {
        /// The layer.
        layer: String,
        /// The field.
        field: String,
        /// The byte.
        code: u8,
    },
    /// A field's quantisation range is not finite or runs backwards.
    #[error(
        "layer {layer:?}: field {field:?} has the range [{low}, {high}], which is not a finite, ordered range"
    )]
    BadRange {
        /// The layer.
        layer: String,
        /// The field.
        field: String,
        /// The range's low end.
        low: f32,
        /// The range's high end.
        high: f32,
    },
    /// A payload that does not start on a 16-byte boundary.
    #[error("layer {layer:?}: payload offset {offset} is not a multiple of 16")]
    Misaligned {
        /// The layer.
        layer: String,
        /// The offset.
        offset: u64,
    },
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

/// The fields every layer must have.
pub const REQUIRED: [&str; 5] = ["root_uv", "rank", "clump", "length", "width"];

#[cfg(test)]
mod tests;
