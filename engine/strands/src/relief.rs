//! The relief splat: a strand set seen from directly above, accumulated into planes a
//! surface shader can read.
//!
//! Each strand's centreline is sampled along its horizontal reach; every sample deposits
//! the area the strand covers there (its width times its step, at least its own width
//! square for an upright strand) bilinearly into the texels around it, wrapping at the
//! edges of the repeat, so the planes tile.
//!
//! | plane | meaning |
//! | --- | --- |
//! | `mass` | summed covered fraction of each texel (grows with every strand) |
//! | `coverage` | `1 − e^(−mass)`: the union of independent strands, always below 1 |
//! | `occlusion` | summed covered fraction weighted by the height it stands at (metres) |
//! | `height` | the highest strand point over the texel (metres): the canopy |
//! | `color` | linear RGB seen from above, weighted toward the crown |

use crate::mesh::Shape;
use crate::num::{fast_floor, wrap_index};
use crate::set::StrandSet;
use crate::shape::facing;

/// The planes of one splat, each `resolution²`, row-major, v growing down the rows.
#[derive(Clone, Debug, PartialEq)]
pub struct Relief {
    /// Texels per side.
    pub resolution: usize,
    /// `1 − e^(−mass)`, in `[0, 1)`.
    pub coverage: Vec<f32>,
    /// Summed covered fraction.
    pub mass: Vec<f32>,
    /// Summed covered fraction × height (metres).
    pub occlusion: Vec<f32>,
    /// Canopy height (metres).
    pub height: Vec<f32>,
    /// Linear RGB seen from above (black where nothing stands).
    pub color: Vec<[f32; 3]>,
}

/// The work is split into this many fixed chunks of strands, summed in order, so the
/// result does not depend on how many threads ran.
const CHUNKS: usize = 4;

/// What one chunk accumulates per texel, in one 32-byte record so a deposit touches one
/// cache line: mass, occlusion, height, colour × weight (3), weight, padding; and which
/// rows it touched (a chunk's strands stand in one band of rows, so the merge skips the
/// rest, which hold zeros).
///
/// A row is written with zeros before anything reads it ([`Accum::touch`]): the texels
/// come zeroed from the system untouched, and a page read first maps the shared zero
/// page, which the first write then replaces with a TLB flush on every core running the
/// process — an interrupt to the UI thread each 4 KiB (BENCHMARKS.md, Editor).
struct Accum {
    texels: Vec<[f32; 8]>,
    rows: Vec<bool>,
}

const MASS: usize = 0;
const OCCLUSION: usize = 1;
const HEIGHT: usize = 2;
const COLOR: usize = 3;
const WEIGHT: usize = 6;

impl Accum {
    fn new(res: usize) -> Self {
        Self {
            texels: vec![[0.0; 8]; res * res],
            rows: vec![false; res],
        }
    }

    /// Marks row `y` touched, writing its zeros the first time.
    fn touch(&mut self, y: usize) {
        if !self.rows[y] {
            self.rows[y] = true;
            let res = self.rows.len();
            self.texels[y * res..(y + 1) * res].fill([0.0; 8]);
        }
    }
}

/// Rows of texels a job of the merge and the planes takes.
const BAND_ROWS: usize = 32;

/// Splats the strands `0..n` of `set` (a rank prefix: one level), their widths scaled by
/// `width_scale`, over a repeat of `repeat_m` metres at `resolution²`.
#[must_use]
pub fn splat_prefix(
    set: &StrandSet,
    n: usize,
    width_scale: f32,
    repeat_m: f32,
    resolution: usize,
) -> Relief {
    let res = resolution.max(1);
    let texels = res * res;
    let n = n.min(set.len());
    let order = spatial_order(set, n);
    let order = order.as_slice();
    let chunk = n.div_ceil(CHUNKS).max(1);
    let ranges: Vec<(usize, usize)> = (0..CHUNKS)
        .map(|c| ((c * chunk).min(n), ((c + 1) * chunk).min(n)))
        .collect();
    let accums = crate::par::map_with(
        "tuft relief",
        ranges,
        || Vec::with_capacity(BLOCK),
        |block, (a, b)| {
            let mut acc = Accum::new(res);
            // A block's strand records gathered first, in one loop of independent
            // loads: the spatial order visits the set out of order, and read between
            // the deposits every attribute was a cache miss nothing overlapped.
            for part in order[a..b].chunks(BLOCK) {
                block.clear();
                block.extend(
                    part.iter()
                        .map(|&i| (Shape::of(set, i as usize), set.root_uv[i as usize])),
                );
                for (shape, root) in block.iter() {
                    deposit(shape, *root, width_scale, repeat_m, res, &mut acc);
                }
            }
            acc
        },
    );
    // The chunks summed in order, a band of rows a job; a row a chunk never touched
    // holds zeros and is skipped (adding zero, or the height's max with zero, changes
    // no texel: every sum starts at zero and only grows).
    let mut chunks = accums.into_iter();
    let mut total = chunks.next().unwrap_or_else(|| Accum::new(res));
    let rest: Vec<Accum> = chunks.collect();
    let band = BAND_ROWS * res;
    let jobs: Vec<(usize, &mut [[f32; 8]])> = total.texels.chunks_mut(band).enumerate().collect();
    let touched = &total.rows;
    crate::par::for_each("tuft relief", jobs, |(b, rows)| {
        for (r, row) in rows.chunks_mut(res).enumerate() {
            let y = b * BAND_ROWS + r;
            // Zeros written before the first sum reads the row (see `Accum`).
            if !touched[y] && rest.iter().any(|acc| acc.rows[y]) {
                row.fill([0.0; 8]);
            }
            for acc in rest.iter().filter(|acc| acc.rows[y]) {
                for (t, a) in row.iter_mut().zip(&acc.texels[y * res..(y + 1) * res]) {
                    for k in 0..8 {
                        t[k] = if k == HEIGHT {
                            t[k].max(a[k])
                        } else {
                            t[k] + a[k]
                        };
                    }
                }
            }
        }
    });
    let mut relief = Relief {
        resolution: res,
        coverage: vec![0.0; texels],
        mass: vec![0.0; texels],
        occlusion: vec![0.0; texels],
        height: vec![0.0; texels],
        color: vec![[0.0; 3]; texels],
    };
    let jobs: Vec<_> = total
        .texels
        .chunks(band)
        .zip(relief.coverage.chunks_mut(band))
        .zip(relief.mass.chunks_mut(band))
        .zip(relief.occlusion.chunks_mut(band))
        .zip(relief.height.chunks_mut(band))
        .zip(relief.color.chunks_mut(band))
        .collect();
    crate::par::for_each(
        "tuft relief",
        jobs,
        |(((((t, cov), mass), occ), height), color)| {
            for (k, x) in t.iter().enumerate() {
                cov[k] = 1.0 - (-x[MASS]).exp();
                mass[k] = x[MASS];
                occ[k] = x[OCCLUSION];
                height[k] = x[HEIGHT];
                let w = x[WEIGHT];
                color[k] = if w > 0.0 {
                    [x[COLOR] / w, x[COLOR + 1] / w, x[COLOR + 2] / w]
                } else {
                    [0.0; 3]
                };
            }
        },
    );
    relief
}

/// Strands `0..n` ordered by where their roots stand (rows of coarse bins), so each
/// chunk deposits into one band of the planes and consecutive strands hit the same cache
/// lines: in rank order every deposit was a cache miss.
fn spatial_order(set: &StrandSet, n: usize) -> Vec<u32> {
    const BINS: usize = 128;
    let bin = |i: usize| {
        let [u, v] = set.root_uv[i];
        let x = ((u * BINS as f32) as usize).min(BINS - 1);
        let y = ((v * BINS as f32) as usize).min(BINS - 1);
        y * BINS + x
    };
    let mut start = vec![0u32; BINS * BINS + 1];
    for i in 0..n {
        start[bin(i) + 1] += 1;
    }
    for b in 1..start.len() {
        start[b] += start[b - 1];
    }
    let mut order = vec![0u32; n];
    for i in 0..n {
        let b = bin(i);
        order[start[b] as usize] = i as u32;
        start[b] += 1;
    }
    order
}

/// Splats every strand of `set`.
#[must_use]
pub fn splat(set: &StrandSet, repeat_m: f32, resolution: usize) -> Relief {
    splat_prefix(set, set.len(), 1.0, repeat_m, resolution)
}

/// Strands whose records a chunk gathers at a time.
const BLOCK: usize = 1024;

/// Deposits the strand `shape` standing at `root` into `acc`.
fn deposit(
    shape: &Shape,
    root: [f32; 2],
    width_scale: f32,
    repeat_m: f32,
    res: usize,
    acc: &mut Accum,
) {
    let texel_m = repeat_m / res as f32;
    let texel_area = texel_m * texel_m;
    let length = shape.length;
    let width = shape.width * width_scale;
    if !(length > 0.0 && width > 0.0) {
        return;
    }
    let r = shape.reach;
    let curve = shape.curve();
    let extent = r.length();
    // Half-texel steps along the reach; an upright strand is one sample.
    let samples = ((extent / (0.5 * texel_m)).ceil() as usize).clamp(1, 256);
    let step = extent / samples as f32;
    let (rc, tc) = (shape.root_color, shape.tip_color);
    let side = facing(r, shape.id);
    // A strand wider than a texel spreads across its width, one sub-sample per texel.
    let across = ((width / texel_m).ceil() as usize).clamp(1, 64);
    for s in 0..samples {
        let t = (s as f32 + 0.5) / samples as f32;
        let centre = curve.at(t);
        let w = shape.groom.width_at(width, t);
        // Seen from above a strand covers its width times its horizontal step; an upright
        // one still shows a sliver a quarter of its (unwidened) width thick.
        let area = w * step.max(0.25 * shape.width / samples as f32);
        let a = area / texel_area / across as f32;
        for j in 0..across {
            let offset = side * (w * ((j as f32 + 0.5) / across as f32 - 0.5));
            let p = centre + offset.extend(0.0);
            let crown = p.z + 0.1 * length;
            let color = [
                rc[0] + (tc[0] - rc[0]) * t,
                rc[1] + (tc[1] - rc[1]) * t,
                rc[2] + (tc[2] - rc[2]) * t,
            ];
            // Texel coordinates: texel x covers [x, x+1) texel widths, centre at x + ½.
            let fx = (root[0] * repeat_m + p.x) / texel_m - 0.5;
            let fy = (root[1] * repeat_m + p.y) / texel_m - 0.5;
            let (x0, y0) = (fast_floor(fx), fast_floor(fy));
            let (wx, wy) = (fx - x0, fy - y0);
            let xi = wrap_index(x0 as i64, res);
            let yi = wrap_index(y0 as i64, res);
            let xn = if xi + 1 == res { 0 } else { xi + 1 };
            let yn = if yi + 1 == res { 0 } else { yi + 1 };
            acc.touch(yi);
            acc.touch(yn);
            let corners = [
                (xi, yi, (1.0 - wx) * (1.0 - wy)),
                (xn, yi, wx * (1.0 - wy)),
                (xi, yn, (1.0 - wx) * wy),
                (xn, yn, wx * wy),
            ];
            for (x, y, k) in corners {
                if k <= 0.0 {
                    continue;
                }
                let texel = &mut acc.texels[y * res + x];
                let ak = a * k;
                let cw = ak * crown;
                texel[MASS] += ak;
                texel[OCCLUSION] += ak * p.z;
                texel[HEIGHT] = texel[HEIGHT].max(p.z);
                texel[COLOR] += cw * color[0];
                texel[COLOR + 1] += cw * color[1];
                texel[COLOR + 2] += cw * color[2];
                texel[WEIGHT] += cw;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn random_set(n: usize, seed: u64) -> StrandSet {
        crate::testing::random_set(n, seed, 1)
    }

    #[test]
    fn coverage_stays_below_one_and_mass_grows_with_strands() {
        let set = random_set(20_000, 1);
        let few = splat_prefix(&set, 2_000, 1.0, 1.0, 64);
        let many = splat(&set, 1.0, 64);
        assert!(many.coverage.iter().all(|&c| (0.0..1.0).contains(&c)));
        let sum = |v: &[f32]| v.iter().map(|&x| f64::from(x)).sum::<f64>();
        assert!(sum(&many.mass) > 5.0 * sum(&few.mass));
        assert!(sum(&many.occlusion) > 5.0 * sum(&few.occlusion));
        assert!(sum(&many.coverage) > sum(&few.coverage));
    }

    #[test]
    fn the_planes_tile() {
        let set = random_set(5_000, 2);
        let r = splat(&set, 0.5, 64);
        // A strand straddling the edge lands on both sides: the mass near the left and
        // right edges is comparable to the mass in the middle columns.
        let col = |x: usize| (0..64).map(|y| r.mass[y * 64 + x]).sum::<f32>();
        let (edge, middle) = (col(0) + col(63), col(31) + col(32));
        assert!((edge - middle).abs() < 0.35 * middle, "{edge} vs {middle}");
    }

    #[test]
    fn splatting_is_repeatable_bit_for_bit() {
        // Chunks are fixed and summed in order, whichever thread finishes first.
        let set = random_set(3_000, 3);
        assert_eq!(splat(&set, 1.0, 32), splat(&set, 1.0, 32));
    }
}
