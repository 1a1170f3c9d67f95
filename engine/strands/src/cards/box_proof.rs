//! The atlas as an engine's own mips will see it. A glTF names one image, and an engine
//! builds that image's mip chain itself by a 2×2 box filter: averaged, a strand one
//! texel wide falls under the alpha cutoff within a few levels and the cards thin out
//! with distance. [`box_proof`] redistributes mip 0's alpha so that such a chain keeps
//! mip 0's coverage at every level down to [`MIN_CELL_TEXELS`] a cell: each texel that
//! passes the cutoff still passes, each that fails still fails, and the alpha below and
//! above the cutoff is moved where the coarser levels need it.
//!
//! How: the texels that should pass at level `k` are the same share as at mip 0, the
//! ones with the most alpha there (what Tuft's own chain keeps, [`super::atlas`]). Each
//! texel of each level can reach a range of mean alpha, from its mip-0 texels' ranges
//! (a passing texel anywhere from the cutoff to 1, a failing one from 0 to just below
//! the cutoff); going up, a level's range is its children's mean range cut to its own
//! side of the cutoff. Going down, each texel's mean is shared among its four children
//! as close to their own means as their ranges allow. A level where a texel's range
//! cannot reach its side keeps the range its children allow (and that texel is missed).

/// The smallest cell side, in texels, down to which a box-filtered chain keeps its
/// coverage.
pub const MIN_CELL_TEXELS: u32 = 4;

/// Codes of margin kept between a level's mean and the cutoff, for the rounding of an
/// 8-bit chain built level from level.
const MARGIN: f32 = 0.75;

/// `rgba` (mip 0 of an atlas of `size²` texels and `cells²` cells, RGBA8 with
/// coverage in alpha) with its alpha redistributed so a 2×2 box-filtered chain built
/// from it, alpha-tested at `cutoff`, keeps mip 0's coverage down to
/// [`MIN_CELL_TEXELS`] texels a cell. Colour is unchanged; alpha passes `cutoff` at
/// exactly the texels it passed before.
#[must_use]
pub fn box_proof(rgba: &[u8], size: u32, cells: u32, cutoff: f32) -> Vec<u8> {
    let mut out = rgba.to_vec();
    let n = size as usize;
    let levels = proofed_levels(size, cells);
    let Some(pass) = pass_code(cutoff) else {
        return out;
    };
    // A chain of 2×2 boxes halves a power of two exactly; another size is left alone.
    if levels == 0 || pass == 0 || !size.is_power_of_two() || rgba.len() != 4 * n * n {
        return out;
    }
    let alpha: Vec<f32> = rgba.chunks_exact(4).map(|p| f32::from(p[3])).collect();
    let pass_f = f32::from(pass);
    // Each level's box means, mip 0 first.
    let mut means = vec![alpha];
    for k in 1..=levels {
        let below = &means[k - 1];
        means.push(box_down(below, n >> (k - 1)));
    }
    let share = means[0].iter().filter(|&&a| a >= pass_f).count() as f64 / (n * n) as f64;
    // Each texel's reachable range of mean alpha, mip 0 upward.
    let mut ranges: Vec<Vec<(f32, f32)>> = vec![
        means[0]
            .iter()
            .map(|&a| {
                if a >= pass_f {
                    (pass_f, 255.0)
                } else {
                    (0.0, pass_f - 1.0)
                }
            })
            .collect(),
    ];
    let mut passes = ranges[0]
        .iter()
        .map(|&(lo, _)| lo >= pass_f)
        .collect::<Vec<_>>();
    for k in 1..=levels {
        let side = n >> k;
        passes = passing(&means[k], share, &passes, side);
        let child = &ranges[k - 1];
        let range = (0..side * side)
            .map(|i| {
                let (lo, hi) = children(i, side)
                    .into_iter()
                    .map(|c| child[c])
                    .fold((0.0, 0.0), |(l, h), (cl, ch)| (l + cl / 4.0, h + ch / 4.0));
                let (want_lo, want_hi) = if passes[i] {
                    (lo.max(pass_f + MARGIN - 0.5), hi)
                } else {
                    (lo, hi.min(pass_f - MARGIN - 0.5))
                };
                if want_lo <= want_hi {
                    (want_lo, want_hi)
                } else {
                    (lo, hi)
                }
            })
            .collect();
        ranges.push(range);
    }
    // Each texel's mean, the coarsest level downward.
    let mut target: Vec<f32> = means[levels]
        .iter()
        .zip(&ranges[levels])
        .map(|(&m, &(lo, hi))| m.clamp(lo, hi))
        .collect();
    for k in (1..=levels).rev() {
        let side = n >> k;
        let mut below = vec![0.0f32; 4 * side * side];
        for (i, &t) in target.iter().enumerate() {
            let kids = children(i, side);
            let own = kids.map(|c| means[k - 1][c]);
            let range = kids.map(|c| ranges[k - 1][c]);
            for (c, v) in kids.into_iter().zip(share_out(t, own, range)) {
                below[c] = v;
            }
        }
        target = below;
    }
    for (p, (&t, &(lo, hi))) in out.chunks_exact_mut(4).zip(target.iter().zip(&ranges[0])) {
        p[3] = t.round().clamp(lo, hi) as u8;
    }
    out
}

/// The levels below mip 0 whose coverage [`box_proof`] holds: down to
/// [`MIN_CELL_TEXELS`] texels a cell.
#[must_use]
pub fn proofed_levels(size: u32, cells: u32) -> usize {
    let cell = size / cells.max(1);
    (cell / MIN_CELL_TEXELS).checked_ilog2().unwrap_or(0) as usize
}

/// The share of texels passing `cutoff` at each level of the chain an engine builds
/// from `rgba` (`size²` RGBA8 texels) by a 2×2 box filter, each level from the one
/// before, rounded to 8 bits: mip 0 first, `levels` below it (none where `size` is not
/// a power of two, whose chain no 2×2 box halves).
#[must_use]
pub fn box_chain_coverage(rgba: &[u8], size: u32, cutoff: f32, levels: usize) -> Vec<f32> {
    let n = size as usize;
    if rgba.len() != 4 * n * n {
        return Vec::new();
    }
    let levels = if size.is_power_of_two() { levels } else { 0 };
    let pass = pass_code(cutoff).map_or(256, u32::from);
    let mut level: Vec<u32> = rgba.chunks_exact(4).map(|p| u32::from(p[3])).collect();
    let mut side = n;
    let mut out = Vec::with_capacity(levels + 1);
    loop {
        let passing = level.iter().filter(|&&a| a >= pass).count();
        out.push(passing as f32 / level.len().max(1) as f32);
        if out.len() > levels || side < 2 {
            return out;
        }
        let half = side / 2;
        level = (0..half * half)
            .map(|i| (children(i, half).map(|c| level[c]).iter().sum::<u32>() + 2) / 4)
            .collect();
        side = half;
    }
}

/// The smallest 8-bit alpha that passes `cutoff` (`None` where none does).
fn pass_code(cutoff: f32) -> Option<u8> {
    (0..=255u8).find(|&c| f32::from(c) / 255.0 >= cutoff)
}

/// The four texels under texel `i` of a level `side` texels wide, in the level below.
fn children(i: usize, side: usize) -> [usize; 4] {
    let (x, y) = (2 * (i % side), 2 * (i / side));
    let w = 2 * side;
    [
        y * w + x,
        y * w + x + 1,
        (y + 1) * w + x,
        (y + 1) * w + x + 1,
    ]
}

/// The 2×2 means of a level `side` texels wide.
fn box_down(level: &[f32], side: usize) -> Vec<f32> {
    let half = side / 2;
    (0..half * half)
        .map(|i| children(i, half).map(|c| level[c]).iter().sum::<f32>() / 4.0)
        .collect()
}

/// Which texels of a level `side` texels wide pass, given which pass in the level
/// below (`below`): the `share` of them, those whose four children all pass first (their
/// mean cannot fall under the cutoff), then those with a passing child (a mean can reach
/// the cutoff only through one), the largest means first, ties to the first.
fn passing(means: &[f32], share: f64, below: &[bool], side: usize) -> Vec<bool> {
    let want = (share * means.len() as f64).round() as usize;
    // Each texel's rank counted once, not in every comparison of the sort.
    let rank: Vec<u8> = (0..means.len())
        .map(
            |i| match children(i, side).iter().filter(|&&c| below[c]).count() {
                4 => 0,
                0 => 2,
                _ => 1,
            },
        )
        .collect();
    let mut order: Vec<usize> = (0..means.len()).collect();
    order.sort_by(|&a, &b| {
        rank[a]
            .cmp(&rank[b])
            .then(means[b].total_cmp(&means[a]))
            .then(a.cmp(&b))
    });
    let forced = order.iter().take_while(|&&i| rank[i] == 0).count();
    let mut passes = vec![false; means.len()];
    for &i in order.iter().take(want.max(forced)) {
        passes[i] = true;
    }
    passes
}

/// Four means within their `range`s whose mean is `t`, each as near its `own` mean as
/// the others allow: `own + λ` clamped to its range, `λ` found by bisection.
fn share_out(t: f32, own: [f32; 4], range: [(f32, f32); 4]) -> [f32; 4] {
    let at = |l: f32| std::array::from_fn(|j| (own[j] + l).clamp(range[j].0, range[j].1));
    let mean = |v: [f32; 4]| v.iter().sum::<f32>() / 4.0;
    let (mut lo, mut hi) = (-256.0f32, 256.0f32);
    for _ in 0..32 {
        let mid = 0.5 * (lo + hi);
        if mean(at(mid)) < t {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    at(0.5 * (lo + hi))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{CardSettings, atlas, group};

    /// The coverage of the chains an engine builds from a set's atlas, plain and
    /// proofed, checking that proofing moves no texel across the cutoff nor any colour.
    fn chains(s: &crate::StrandSet) -> (Vec<f32>, Vec<f32>) {
        let settings = CardSettings::default();
        let cards = group(s, 16, 1.0, settings.atlas_cells);
        let a = atlas(s, &cards, 1.0, &settings);
        let levels = proofed_levels(a.size, settings.atlas_cells);
        assert!(levels >= 3, "{levels} levels");
        let cutoff = settings.alpha_cutoff;
        let proofed_rgba = box_proof(&a.color[0], a.size, settings.atlas_cells, cutoff);
        let pass = pass_code(cutoff).unwrap();
        for (p, q) in a.color[0].chunks_exact(4).zip(proofed_rgba.chunks_exact(4)) {
            assert_eq!(p[..3], q[..3]);
            assert_eq!(p[3] >= pass, q[3] >= pass);
        }
        (
            box_chain_coverage(&a.color[0], a.size, cutoff, levels),
            box_chain_coverage(&proofed_rgba, a.size, cutoff, levels),
        )
    }

    #[test]
    fn an_engines_box_filtered_chain_keeps_the_proofed_atlas_covered() {
        let s = crate::testing::random_set(30_000, 4, 16);
        let (plain, proofed) = chains(&s);
        for (k, c) in proofed.iter().enumerate() {
            assert!(
                (c - plain[0]).abs() <= 0.02 * plain[0],
                "level {k}: {proofed:?}"
            );
        }
        // Fewer strands, a texel wide, which a box filter thins away.
        let mut s = crate::testing::random_set(3_000, 4, 16);
        let settings = CardSettings::default();
        let cards = group(&s, 16, 1.0, settings.atlas_cells);
        let window = crate::num::median(cards.iter().map(|c| c.width)).expect("cards");
        let texel = window / (settings.atlas_size / settings.atlas_cells) as f32;
        s.width.iter_mut().for_each(|w| *w = texel);
        let (plain, proofed) = chains(&s);
        let last = plain.len() - 1;
        assert!(
            plain[last] < 0.8 * plain[0],
            "the plain chain thins: {plain:?}"
        );
        for (k, c) in proofed.iter().enumerate() {
            assert!(
                (c - plain[0]).abs() <= 0.02 * plain[0],
                "level {k}: {proofed:?}"
            );
        }
    }

    #[test]
    fn a_cutoff_nothing_passes_or_everything_passes_or_an_odd_size_leaves_the_atlas() {
        let rgba: Vec<u8> = (0..64 * 64 * 4).map(|i| (i * 7 % 256) as u8).collect();
        assert_eq!(box_proof(&rgba, 64, 1, 0.0), rgba);
        assert_eq!(box_proof(&rgba, 64, 1, 1.5), rgba);
        // Too small a cell to hold any level below mip 0.
        assert_eq!(box_proof(&rgba, 64, 16, 0.5), rgba);
        // A side no 2×2 box halves, and an image of another size than it says.
        let odd: Vec<u8> = (0..48 * 48 * 4).map(|i| (i * 7 % 256) as u8).collect();
        assert_eq!(box_proof(&odd, 48, 1, 0.5), odd);
        assert_eq!(box_chain_coverage(&odd, 48, 0.5, 3).len(), 1);
        assert_eq!(box_proof(&rgba, 32, 1, 0.5), rgba);
        assert!(box_chain_coverage(&rgba, 32, 0.5, 3).is_empty());
    }
}
