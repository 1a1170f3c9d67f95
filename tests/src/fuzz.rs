//! What one fuzz case does, shared by the coverage-guided targets under `fuzz/` (run
//! with `cargo fuzz` where a nightly toolchain is) and the bounded mutation test in the
//! normal suite (`tests/mutations/main.rs`, stable Rust): each takes arbitrary bytes and
//! panics only when Tuft breaks a promise.
//!
//! [`Mutator`] makes the normal suite's inputs: a counter-based mix of byte edits and,
//! for graph text, numbers swapped for the values that once broke things.

use tuft_graph::{Domain, Evaluator};

/// A strand file's bytes, as they are, resealed (the declared length, every payload's
/// CRC and the trailer CRC made right, so that a mutation reaches the directory, the
/// field shapes and the value checks behind the CRCs), and behind a valid magic (so
/// that arbitrary bytes reach past the first eight): decoding never panics, what
/// decodes is no larger than the file allows (payloads are disjoint, and a strand's
/// root and rank are stored a strand, at least 6 bytes), every value it gives lies
/// inside what a scatter writes, and it encodes back to a file that decodes to the
/// same sets (and, quantised, to one whose second trip is byte-identical).
pub fn strand_file(data: &[u8]) {
    decoded(data);
    decoded(&resealed(data));
    decoded(&resealed(&with_magic(data)));
}

/// `bytes` behind the strand file's magic: the magic replaces the first eight bytes
/// where there are eight, and comes before them otherwise.
#[must_use]
pub fn with_magic(bytes: &[u8]) -> Vec<u8> {
    let magic = tuft_strands::file::MAGIC;
    let mut out = magic.to_vec();
    out.extend_from_slice(bytes.get(magic.len()..).unwrap_or(bytes));
    out
}

/// `bytes` with its declared length, every payload's CRC and its trailer CRC made
/// right (unchanged when too short to hold a header and a trailer).
#[must_use]
pub fn resealed(bytes: &[u8]) -> Vec<u8> {
    let mut out = bytes.to_vec();
    if out.len() < tuft_strands::file::HEADER_LEN + tuft_strands::file::TRAILER_LEN {
        return out;
    }
    let n = out.len() as u64;
    out[24..32].copy_from_slice(&n.to_le_bytes());
    seal_trailer(&mut out);
    // Each directory entry ends with its payload's offset, length and CRC: where the
    // directory reads, find those twenty bytes and write the payload's own CRC there.
    let Ok(dir) = tuft_strands::file::read_directory(&out) else {
        return out;
    };
    let Some(dir_end) = dir.layers.iter().map(|l| l.payload_offset).min() else {
        return out;
    };
    let dir_end = usize::try_from(dir_end).unwrap_or(out.len()).min(out.len());
    for layer in &dir.layers {
        let (start, len) = (layer.payload_offset as usize, layer.payload_len as usize);
        let crc = tuft_strands::crc::crc32(&out[start..start + len]);
        let mut entry = Vec::with_capacity(20);
        entry.extend_from_slice(&layer.payload_offset.to_le_bytes());
        entry.extend_from_slice(&layer.payload_len.to_le_bytes());
        entry.extend_from_slice(&layer.crc.to_le_bytes());
        if let Some(at) = out[..dir_end].windows(20).position(|w| w == entry) {
            out[at + 16..at + 20].copy_from_slice(&crc.to_le_bytes());
        }
    }
    seal_trailer(&mut out);
    out
}

fn seal_trailer(out: &mut [u8]) {
    let body = out.len() - 4;
    let crc = tuft_strands::crc::crc32(&out[..body]);
    out[body..].copy_from_slice(&crc.to_le_bytes());
}

/// How many of `inputs`, resealed, decode past every CRC to the checks behind them:
/// either to a file, or to an error that is not about a checksum, a length or the
/// magic. The mutation test holds this above a share, so that resealing keeps
/// reaching the decoder's logic.
#[must_use]
pub fn reaching_past_the_seals(inputs: &[Vec<u8>]) -> usize {
    use tuft_strands::file::FileError;
    inputs
        .iter()
        .filter(|input| {
            !matches!(
                tuft_strands::file::decode(&resealed(input)),
                Err(FileError::PayloadCrc { .. }
                    | FileError::TrailerCrc { .. }
                    | FileError::LengthMismatch { .. }
                    | FileError::BadMagic)
            )
        })
        .count()
}

fn decoded(data: &[u8]) {
    let Ok(file) = tuft_strands::file::decode(data) else {
        return;
    };
    let strands: usize = file.layers.iter().map(|(_, s)| s.len()).sum();
    assert!(
        strands * 6 <= data.len(),
        "{strands} strands decoded from {} bytes",
        data.len()
    );
    for (name, set) in &file.layers {
        assert!(
            set.problem(file.repeat_m).is_none(),
            "{name}: a decoded value lies outside what a scatter writes"
        );
    }
    let again = tuft_strands::file::decode(&tuft_strands::file::encode(&file))
        .expect("a decoded file encodes to one that decodes");
    assert!(again == file, "the round trip changed the sets");
    let quantised = tuft_strands::file::decode(&tuft_strands::file::encode_with(
        &file,
        tuft_strands::file::Scheme::Quantised,
    ))
    .expect("any decoded file quantises to one that decodes");
    let twice = tuft_strands::file::encode_with(&quantised, tuft_strands::file::Scheme::Quantised);
    assert!(
        tuft_strands::file::decode(&twice).as_ref() == Ok(&quantised),
        "a second quantised trip changed the sets"
    );
}

/// Graph text: loading and validating never panic, whatever the text (validation
/// refuses work beyond the limits before doing it).
pub fn graph_text(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(doc) = tuft_graph::io::from_str(text) {
        let _ = tuft_graph::validate(&doc.graph);
    }
}

/// The most candidates [`tiny_eval`] scatters per layer: enough for every code path,
/// few enough for thousands of cases.
const TINY_CANDIDATES: u64 = 96 * 96;

/// Graph text evaluated: the PBR half baked at 8 × 8 and every small layer scattered,
/// without a panic and with finite numbers, whatever the graph holds.
pub fn tiny_eval(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(doc) = tuft_graph::io::from_str(text) else {
        return;
    };
    let graph = &doc.graph;
    if !tuft_graph::validate::limits::graph_problems(graph).is_empty()
        || graph
            .strands
            .values()
            .any(|l| l.n_candidates() > TINY_CANDIDATES)
    {
        return;
    }
    let evaluator = Evaluator::new(graph);
    if let Ok(maps) = tuft_bake::bake_pbr_with(&evaluator, 8, &mut |_| {}) {
        assert!(
            maps.base_color.iter().flatten().all(|c| c.is_finite()),
            "a map holds a NaN"
        );
    }
    for name in graph.strands.keys() {
        if let Ok(set) = evaluator.strand_set(name) {
            assert!(set.is_consistent(), "{name}: arrays disagree");
            assert!(
                set.length.iter().chain(&set.width).all(|x| x.is_finite()),
                "{name}: a length or width is not finite"
            );
        }
    }
    let _ = evaluator.eval_inputs(&[], &Domain::grid(2, 2));
}

/// Valid strand files of two small layers, every field written: seeds for mutations.
/// One a scheme: stored, then quantised.
#[must_use]
pub fn sample_strand_files() -> Vec<Vec<u8>> {
    let layer = |seed: u64, n: u64| {
        let h = |i: u64, c: u32| tuft_strands::hash::unit_f32(tuft_strands::hash::hash(seed, i, c));
        let mut set = tuft_strands::StrandSet::with_capacity(n as usize);
        for i in 0..n {
            set.root_uv.push([h(i, 1), h(i, 2)]);
            set.rank.push(i as f32 / n as f32);
            set.clump.push((i / 4) as u32);
            set.length.push(0.02 + 0.05 * h(i, 3));
            set.width.push(0.003);
            set.lean.push([h(i, 4) - 0.5, h(i, 5) - 0.5]);
            set.bend.push(h(i, 6));
            set.root_color.push([h(i, 7), h(i, 8), h(i, 9)]);
            set.tip_color.push([h(i, 10), h(i, 11), h(i, 12)]);
            set.tip_pull.push([0.0; 2]);
            set.id.push(i as u32);
        }
        set.fill_neutral_groom();
        set
    };
    let file = tuft_strands::file::StrandFile {
        repeat_m: 2.0,
        layers: vec![
            ("blades".into(), layer(1, 24)),
            ("moss".into(), layer(2, 9)),
        ],
    };
    [
        tuft_strands::file::Scheme::Stored,
        tuft_strands::file::Scheme::Quantised,
    ]
    .map(|scheme| tuft_strands::file::encode_with(&file, scheme))
    .to_vec()
}

/// A deterministic stream of mutations of seed inputs.
#[derive(Debug)]
pub struct Mutator {
    seed: u64,
    counter: u64,
}

/// Numbers that once broke something, or sit on an edge.
const NUMBERS: [&str; 12] = [
    "4294967296.0",
    "1e30",
    "-1e30",
    "6000000.0",
    "3.4e38",
    "0.00005",
    "-1",
    "0",
    "1e-30",
    "65537",
    "NaN",
    "inf",
];

impl Mutator {
    /// A stream of mutations numbered from 0 under `seed`.
    #[must_use]
    pub fn new(seed: u64) -> Self {
        Self { seed, counter: 0 }
    }

    fn next(&mut self) -> u64 {
        self.counter += 1;
        tuft_strands::hash::hash(self.seed, self.counter, 0)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    /// `input` with one to four byte edits: a flipped bit, an edge byte, a deleted,
    /// duplicated or inserted run.
    pub fn bytes(&mut self, input: &[u8]) -> Vec<u8> {
        let mut out = input.to_vec();
        for _ in 0..=self.below(4) {
            if out.is_empty() {
                out.push(0);
            }
            let at = self.below(out.len());
            match self.below(6) {
                0 => out[at] ^= 1 << self.below(8),
                1 => out[at] = [0, 0xff, 0x7f, 0x80][self.below(4)],
                2 => {
                    let end = (at + 1 + self.below(16)).min(out.len());
                    out.drain(at..end);
                }
                3 => {
                    let end = (at + 1 + self.below(64)).min(out.len());
                    let run = out[at..end].to_vec();
                    out.splice(at..at, run);
                }
                4 => {
                    let n = self.below(8) + 1;
                    let fill = self.next().to_le_bytes();
                    out.splice(at..at, fill.into_iter().take(n));
                }
                _ => out[at] = out[at].wrapping_add(1),
            }
        }
        out
    }

    /// `text` with one of its numbers replaced by one of [`NUMBERS`], or (one time in
    /// four) a byte edit.
    pub fn graph_text(&mut self, text: &str) -> Vec<u8> {
        if self.below(4) == 0 {
            return self.bytes(text.as_bytes());
        }
        let starts: Vec<usize> = text
            .char_indices()
            .filter(|&(i, c)| {
                c.is_ascii_digit() && (i == 0 || !text.as_bytes()[i - 1].is_ascii_alphanumeric())
            })
            .map(|(i, _)| i)
            .collect();
        if starts.is_empty() {
            return self.bytes(text.as_bytes());
        }
        let start = starts[self.below(starts.len())];
        let end = text[start..]
            .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == 'e' || c == '-'))
            .map_or(text.len(), |n| start + n);
        let number = NUMBERS[self.below(NUMBERS.len())];
        format!("{}{number}{}", &text[..start], &text[end..]).into_bytes()
    }
}
