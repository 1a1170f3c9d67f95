//! Where a material's canopy stands thick and where thin: its strands' face area over
//! the repeat, as a share of the mean, on a small grid that tiles as the material does.
//!
//! The canopy ([`crate::canopy`]) is the material's strands summed over the whole
//! repeat, so a surface far away shows every place as the mean place. A lawn whose
//! density follows a noise has bald patches and thick tufts, and `e^(−τ)` is convex:
//! the mean of what reaches the ground through thin and thick places is more than what
//! reaches it through the mean. The shaders scale each place's canopy by its cover,
//! read at the mip level of the ray's own run through the canopy (a low ray crosses
//! many places, and sees their mean), so far away the bald patches still show the soil
//! they show near, in the same places.

use crate::StrandSet;
use crate::num::to_unorm8;

/// Strands a texel holds on average before the grid is smoothed: the grid is as fine as
/// this allows, so that the count's own randomness (which the canopy's `e^(−τ)` already
/// stands for) stays a small part of the cover.
const PER_TEXEL: usize = 32;

/// The finest grid, texels a side.
pub const MAX_SIZE: u32 = 128;

/// The most a texel's cover may be, as a share of the mean; the 8-bit texels the
/// shaders read hold the cover over this (`COVER_MAX` in `common.wgsl`).
pub const MAX_RATIO: f32 = 4.0;

/// A material's cover: per texel of the repeat (row by row, v down the rows), the face
/// area of the strands standing there over the mean.
#[derive(Clone, Debug, PartialEq)]
pub struct Cover {
    /// Texels a side, a power of two.
    pub size: u32,
    /// `size²` shares, in `[0, MAX_RATIO]`; their mean is 1 unless some were held at
    /// the top.
    pub ratio: Vec<f32>,
}

impl Default for Cover {
    fn default() -> Self {
        Self::uniform()
    }
}

impl Cover {
    /// The same cover everywhere.
    #[must_use]
    pub fn uniform() -> Self {
        Self {
            size: 1,
            ratio: vec![1.0],
        }
    }

    /// The cover of a material whose layers are `layers`, each set over one repeat of
    /// `repeat_m` metres. Each strand adds its face area (its length times its mean
    /// width) at the middle of its reach (half its lean and tip pull from the root),
    /// shared bilinearly among the four nearest texels, and the grid is smoothed by a
    /// tent over its neighbours. No strands, or no area, give the uniform cover.
    #[must_use]
    pub fn of(layers: &[&StrandSet], repeat_m: f32) -> Self {
        let strands: usize = layers.iter().map(|s| s.len()).sum();
        if !(repeat_m.is_finite() && repeat_m > 0.0) || strands == 0 {
            return Self::uniform();
        }
        let fit = ((strands / PER_TEXEL) as f64).sqrt() as u32;
        let size = if fit < 2 {
            1
        } else {
            (1u32 << (u32::BITS - 1 - fit.leading_zeros())).min(MAX_SIZE)
        };
        let n = size as usize;
        let mut grid = vec![0.0f64; n * n];
        for set in layers {
            for i in 0..set.len() {
                let (length, width) = (set.length[i], set.width[i]);
                let tip = set.taper[i][0].clamp(0.0, 1.0);
                let area = length * width * 0.5 * (1.0 + tip);
                let reach = |c: usize| {
                    set.root_uv[i][c]
                        + 0.5 * (set.lean[i][c] * length + set.tip_pull[i][c]) / repeat_m
                };
                let (u, v) = (reach(0), reach(1));
                if !(area.is_finite() && area > 0.0 && u.is_finite() && v.is_finite()) {
                    continue;
                }
                splat(&mut grid, n, u, v, f64::from(area));
            }
        }
        let grid = tent_columns(&tent_rows(&grid, n), n);
        let mean = grid.iter().sum::<f64>() / grid.len() as f64;
        if !(mean.is_finite() && mean > 0.0) {
            return Self::uniform();
        }
        Self {
            size,
            ratio: grid
                .iter()
                .map(|a| ((a / mean) as f32).clamp(0.0, MAX_RATIO))
                .collect(),
        }
    }

    /// The cover at `uv` (in repeats; it tiles), at the nearest texel.
    #[must_use]
    pub fn at(&self, uv: [f32; 2]) -> f32 {
        let n = self.size as usize;
        let texel = |x: f32| ((x.rem_euclid(1.0) * n as f32) as usize).min(n - 1);
        self.ratio[texel(uv[1]) * n + texel(uv[0])]
    }

    /// The texels as the shaders read them: RGBA8, the cover over [`MAX_RATIO`] in
    /// every colour channel.
    #[must_use]
    pub fn texels(&self) -> Vec<[u8; 4]> {
        self.ratio
            .iter()
            .map(|r| {
                let c = to_unorm8(r / MAX_RATIO);
                [c, c, c, 255]
            })
            .collect()
    }
}

/// Adds `area` at `(u, v)` (in repeats, tiling) to the `n × n` grid, shared among the
/// four texels whose centres surround it.
fn splat(grid: &mut [f64], n: usize, u: f32, v: f32, area: f64) {
    let x = f64::from(u.rem_euclid(1.0)) * n as f64 - 0.5;
    let y = f64::from(v.rem_euclid(1.0)) * n as f64 - 0.5;
    let (x0, y0) = (x.floor(), y.floor());
    let (fx, fy) = (x - x0, y - y0);
    let wrap = |a: f64| (a as i64).rem_euclid(n as i64) as usize;
    for (dy, wy) in [(0.0, 1.0 - fy), (1.0, fy)] {
        for (dx, wx) in [(0.0, 1.0 - fx), (1.0, fx)] {
            grid[wrap(y0 + dy) * n + wrap(x0 + dx)] += area * wx * wy;
        }
    }
}

/// The `n × n` grid smoothed along its rows by the tent `[1, 2, 1] / 4`, tiling.
fn tent_rows(grid: &[f64], n: usize) -> Vec<f64> {
    (0..n * n)
        .map(|i| {
            let (row, x) = (i / n * n, i % n);
            0.25 * grid[row + (x + n - 1) % n] + 0.5 * grid[i] + 0.25 * grid[row + (x + 1) % n]
        })
        .collect()
}

/// The `n × n` grid smoothed along its columns by the tent `[1, 2, 1] / 4`, tiling.
fn tent_columns(grid: &[f64], n: usize) -> Vec<f64> {
    (0..n * n)
        .map(|i| {
            let (y, x) = (i / n, i % n);
            0.25 * grid[(y + n - 1) % n * n + x] + 0.5 * grid[i] + 0.25 * grid[(y + 1) % n * n + x]
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A set of `n` strands whose roots are kept only where `keep(u, v)` holds.
    fn set_where(n: usize, keep: impl Fn(f32, f32) -> bool) -> StrandSet {
        let set = crate::testing::random_set(n, 3, 1);
        let kept: Vec<u32> = (0..set.len())
            .filter(|&i| keep(set.root_uv[i][0], set.root_uv[i][1]))
            .map(|i| i as u32)
            .collect();
        set.permuted(&kept)
    }

    #[test]
    fn a_bald_half_reads_bare_and_the_other_half_twice_the_mean() {
        // Roots on the left half only, strands upright: the left half holds all the
        // area, twice the mean, and the right half none, away from the seams the tent
        // smooths.
        let mut set = set_where(40_000, |u, _| u < 0.5);
        set.lean.fill([0.0; 2]);
        set.tip_pull.fill([0.0; 2]);
        let cover = Cover::of(&[&set], 1.0);
        assert!(cover.size >= 16, "{}", cover.size);
        for v in [0.1, 0.5, 0.9] {
            let (thick, bare) = (cover.at([0.25, v]), cover.at([0.75, v]));
            assert!((thick - 2.0).abs() < 0.3, "{v}: {thick}");
            assert!(bare < 0.01, "{v}: {bare}");
        }
        let mean = cover.ratio.iter().sum::<f32>() / cover.ratio.len() as f32;
        assert!((mean - 1.0).abs() < 1e-3, "{mean}");
    }

    #[test]
    fn strands_count_where_they_lean_to() {
        // The same roots leaning half a repeat (lean 5 lengths of 0.05 m over a 0.5 m
        // repeat): their area stands a quarter repeat on, the middle of their reach.
        let mut set = set_where(40_000, |u, _| u < 0.25);
        set.tip_pull.fill([0.0; 2]);
        set.length.fill(0.05);
        set.lean.fill([2.5, 0.0]);
        let cover = Cover::of(&[&set], 0.5);
        assert!(cover.at([0.25, 0.5]) > 3.0, "{}", cover.at([0.25, 0.5]));
        assert!(cover.at([0.75, 0.5]) < 0.01, "{}", cover.at([0.75, 0.5]));
    }

    #[test]
    fn an_even_lawn_is_about_the_mean_everywhere() {
        let set = crate::testing::random_set(60_000, 3, 1);
        let cover = Cover::of(&[&set], 1.0);
        let (lo, hi) = cover
            .ratio
            .iter()
            .fold((f32::MAX, 0.0f32), |(lo, hi), &r| (lo.min(r), hi.max(r)));
        // 32 strands a texel, then the tent: the count's own scatter stays small.
        assert!(lo > 0.5 && hi < 1.6, "{lo} {hi}");
    }

    #[test]
    fn nothing_or_nonsense_gives_the_uniform_cover() {
        let empty = crate::testing::random_set(0, 1, 1);
        assert_eq!(Cover::of(&[], 1.0), Cover::uniform());
        assert_eq!(Cover::of(&[&empty], 1.0), Cover::uniform());
        let set = crate::testing::random_set(1_000, 1, 1);
        assert_eq!(Cover::of(&[&set], f32::NAN), Cover::uniform());
        assert_eq!(Cover::of(&[&set], 0.0), Cover::uniform());
        let mut nan = set.clone();
        nan.length.fill(f32::NAN);
        assert_eq!(Cover::of(&[&nan], 1.0), Cover::uniform());
        // A few strands make a coarse grid, never an empty one.
        let few = Cover::of(&[&crate::testing::random_set(10, 1, 1)], 1.0);
        assert_eq!((few.size, few.ratio.len()), (1, 1));
        assert_eq!(Cover::uniform().texels(), vec![[64, 64, 64, 255]]);
    }
}
