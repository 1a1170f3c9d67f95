//! The limits: everything a material may ask for, stated once, with the memory each
//! implies.
//!
//! Validation reports a graph beyond any of them as an error naming the node or layer,
//! the figure and the limit ([`crate::Code::Limit`], [`crate::Code::Budget`]), and the
//! work itself refuses to start beyond them: evaluation zeroes a node whose lattice is too
//! fine, the scatter refuses a layer ([`layer_problems`]), the bake refuses the whole
//! graph ([`crate::validate::limits::graph_problems`]). The rule this holds: a graph that validates clean bakes
//! within [`BAKE_MEMORY_BYTES`] (measured in `BENCHMARKS.md`, section "Limits").
//!
//! | what | limit | memory it implies |
//! | --- | --- | --- |
//! | repeat | [`REPEAT_M`] | — |
//! | nodes | [`MAX_NODES`] | the editor draws and looks up every node each frame |
//! | strand layers | [`MAX_LAYERS`] | — |
//! | candidates per layer | [`MAX_CANDIDATES`] | ~[`SCATTER_BYTES_PER_CANDIDATE`] each while scattering |
//! | candidates in all layers | [`MAX_TOTAL_CANDIDATES`] | sets at 72 bytes a strand |
//! | vertices of a layer's finest level | [`MAX_LEVEL_VERTICES`] | 64 bytes each, and again in the glTF |
//! | strands laid flat over the repeat | [`MAX_COVER`] times | the relief splat's work per level |
//! | levels per layer | [`MAX_LEVELS`] | one mesh each |
//! | a level's widening, `(layer_keep × keep)^(−widen_p)` | [`MAX_WIDEN`] times | a level's splat from above at most 16 times level 0's |
//! | strand length, width | [`MAX_LENGTH_REPEATS`], [`MAX_WIDTH_REPEATS`] of the repeat | bounds the card atlas's work |
//! | a generator's lattice | [`MAX_LATTICE`] cells per side | tables of at most 16 MB |
//! | map resolution | [`MAX_MAP_RESOLUTION`]² | 40 bytes a texel while baking |
//! | an Image node's file | [`MAX_IMAGE_SIDE`]², [`MAX_IMAGE_FILE_BYTES`] | 20 bytes a texel, held while in use |
//! | every picture a graph reads | [`MAX_IMAGE_TEXELS`] texels | 20 bytes a texel (1 GB) |
//! | frame side, pixels | [`MAX_FRAME_SIDE`], [`MAX_FRAME_PIXELS`] | 16 bytes a pixel (4× MSAA colour and depth) |
//! | files per bake | [`MAX_BAKE_FILES`] | — |

use crate::layer::StrandLayer;
use std::ops::RangeInclusive;

/// The repeat's size in metres. Below a centimetre a surface holds more repeats than
/// any budget can plant; above a kilometre nothing is a material any more.
pub const REPEAT_M: RangeInclusive<f32> = 0.01..=1000.0;
/// Nodes in one graph. The editor's canvas does work per node, and per node and wire,
/// every frame: a chain of 250 nodes takes 6.7 ms of the UI thread a frame, 1,000 take
/// 42 ms and 4,096 take 281 ms (`BENCHMARKS.md`, "Editor"), growing faster than the
/// count. A file with more is not opened, and an edit that would pass it is not made.
pub const MAX_NODES: usize = 4096;
/// Strand layers in one material.
pub const MAX_LAYERS: usize = 16;
/// Candidates of one layer (a lattice of 2048 × 2048; the lawn's blades have 440²).
pub const MAX_CANDIDATES: u64 = 2048 * 2048;
/// Candidates of all layers together.
pub const MAX_TOTAL_CANDIDATES: u64 = 8 * 1024 * 1024;
/// Bytes the scatter holds per candidate at its peak: the candidates' roots, clumps and
/// survivor flags, the density field, and the survivors' keys and fields.
pub const SCATTER_BYTES_PER_CANDIDATE: u64 = 160;
/// Vertices of one layer's finest level if every candidate grew (a candidate count times
/// the profile's vertices per strand): 16 million vertices are 1 GB at 64 bytes, and
/// the level's glTF about as much again.
pub const MAX_LEVEL_VERTICES: u64 = 16 * 1024 * 1024;
/// How many times a layer's strands, laid flat, would cover the repeat (Σ length ×
/// width over the repeat's area, estimated from the fields). Splatting a level from
/// above costs this many times the relief's texels; the lawn's blades cover it about
/// 11 times, the fur's undercoat 2.6 times.
pub const MAX_COVER: f32 = 500.0;
/// Rank-cut levels of one layer.
pub const MAX_LEVELS: usize = 8;
/// The most a level widens its strands (checked with the levels' other ranges, where
/// the runtime crate checks a baked set's).
pub use tuft_strands::levels::MAX_WIDEN;
/// A strand's length and width, in repeats (the runtime crate checks a baked set's
/// strands against the same bounds).
pub use tuft_strands::set::{MAX_LENGTH_REPEATS, MAX_WIDTH_REPEATS};
/// The longest and the widest a strand may be on a repeat of `repeat_m` metres (NaN
/// bounds for a NaN repeat, which `min`/`max` take quietly).
#[must_use]
pub fn strand_bounds(repeat_m: f32) -> (f32, f32) {
    (MAX_LENGTH_REPEATS * repeat_m, MAX_WIDTH_REPEATS * repeat_m)
}

/// A lean beyond which a strand lies flat anyway, and the largest colour channel.
pub use tuft_strands::set::{MAX_COLOR, MAX_LEAN};
/// Lattice cells per side of the repeat for the generators (Noise's finest octave,
/// Voronoi), so a lattice's table and its index arithmetic stay bounded.
pub const MAX_LATTICE: u64 = 1 << 16;
/// A baked map's side in texels.
pub const MAX_MAP_RESOLUTION: usize = 8192;
/// An Image node's file's side in texels: 4096 over a 2 m repeat is half a millimetre
/// a texel, finer than any strand; the decoded picture holds 20 bytes a texel (320 MB).
pub const MAX_IMAGE_SIDE: usize = 4096;
/// An Image node's file in bytes, read before it is decoded (a 4096² 16-bit RGBA PNG
/// stored without compression is 128 MB).
pub const MAX_IMAGE_FILE_BYTES: u64 = 256 << 20;
/// The texels of every picture one graph reads, together: three of the largest, or a
/// dozen of 2048². Decoded pictures hold 20 bytes a texel, so this keeps a graph's
/// pictures to 1 GB however many Image nodes it has (seventeen pictures of 4096² would
/// hold 5.7 GB).
pub const MAX_IMAGE_TEXELS: u64 = 3 * (MAX_IMAGE_SIDE as u64) * (MAX_IMAGE_SIDE as u64);
/// An offscreen frame's side in pixels (also bounded by the adapter's own limit).
pub const MAX_FRAME_SIDE: u32 = 8192;
/// An offscreen frame's pixels: 8K UHD (7680 × 4320). A software adapter holds the
/// multisampled frame in memory, about 40 bytes a pixel with its readback: 1.3 GB here,
/// where 8192² took 2.8 GB.
pub const MAX_FRAME_PIXELS: u64 = 7680 * 4320;
/// Files one bake may write.
pub const MAX_BAKE_FILES: usize = 1024;
/// The peak memory of a bake of any graph inside these limits (see BENCHMARKS.md).
pub const BAKE_MEMORY_BYTES: u64 = 12 << 30;

/// What `layer` asks for beyond the limits, in words that follow the layer's name
/// ("strands.blades: …", "strand layer \"blades\": …"); empty when nothing.
#[must_use]
pub fn layer_problems(layer: &StrandLayer) -> Vec<String> {
    let mut problems = Vec::new();
    let candidates = layer.n_candidates();
    if candidates > MAX_CANDIDATES {
        problems.push(format!(
            "it asks for {candidates} candidates (lattice {}²); the most a layer may have \
             is {MAX_CANDIDATES} ({} MB while scattering)",
            layer.lattice,
            (MAX_CANDIDATES * SCATTER_BYTES_PER_CANDIDATE) >> 20
        ));
    }
    let per_strand = layer.profile.clamped().vertices_per_strand() as u64;
    let vertices = candidates.saturating_mul(per_strand);
    if vertices > MAX_LEVEL_VERTICES {
        problems.push(format!(
            "its finest level could hold {vertices} vertices ({candidates} \
             candidates × {per_strand} per strand, {} MB); the most is {MAX_LEVEL_VERTICES}: \
             lower the lattice or the profile's segments",
            (vertices * 64) >> 20
        ));
    }
    let levels = layer.levels.keep.len();
    if levels > MAX_LEVELS {
        problems.push(format!("it has {levels} levels; the most is {MAX_LEVELS}"));
    }
    problems
}

/// Whether a lattice of `cells` per side of the repeat is within [`MAX_LATTICE`];
/// `what` names the figure in the message (`"scale 70000"`).
#[must_use]
pub fn lattice_problem(cells: f64, what: &str) -> Option<String> {
    (cells.is_nan() || cells > MAX_LATTICE as f64).then(|| {
        format!(
            "{what} asks for a lattice of {} cells per side; the most is {MAX_LATTICE}",
            figure(cells)
        )
    })
}

/// What a generator's count parameter `name` (a scale, a number of periods) of `value`
/// asks for beyond [`MAX_LATTICE`], where its finest lattice is `value` doubled for
/// each of `octaves` beyond the first.
#[must_use]
pub fn count_problems(name: &str, value: f32, octaves: u32) -> Vec<String> {
    let value = f64::from(value);
    let finest = value.abs().ceil() * f64::from(1u32 << (octaves.clamp(1, 31) - 1));
    let what = if octaves > 1 {
        format!("{name} {} with {octaves} octaves", figure(value))
    } else {
        format!("{name} {}", figure(value))
    };
    lattice_problem(finest, &what).into_iter().collect()
}

/// A figure for a message: whole numbers as they are up to a billion, larger ones (the
/// ones that break limits) in scientific notation.
#[must_use]
pub fn figure(x: f64) -> String {
    if x.abs() < 1e9 {
        format!("{}", (x * 1e6).round() / 1e6)
    } else {
        format!("{x:.3e}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lattice_past_the_limit_is_named_and_nan_is_refused() {
        assert!(lattice_problem(65536.0, "scale").is_none());
        let p = lattice_problem(4_294_967_296.0, "scale 4294967296").unwrap();
        assert!(p.contains("4294967296") && p.contains("65536"), "{p}");
        assert!(lattice_problem(f64::NAN, "scale").is_some());
        assert!(lattice_problem(f64::INFINITY, "scale").is_some());
    }
}
