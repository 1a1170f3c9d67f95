//! Noise: value, gradient and fractal (fBm) lattice noise that tiles over the repeat.

use crate::field::Field;
use crate::node::NodeCtx;
use crate::node::{
    Category, KindInfo, NodeKind, OutputDesc, ParamDesc, ParamKind, Params, PortDesc,
};
use crate::nodes::fast_floor;
use crate::nodes::lattice::Lattice;
#[cfg(test)]
use crate::nodes::noise_basis::GRADIENT_NORM;
use crate::nodes::noise_basis::{Kind, Layer};
use crate::nodes::noise_lanes;
use crate::nodes::{SEED_PARAM, count_param};
use crate::value::PortType;
use rayon::prelude::*;
use tuft_strands::hash::unit_f32_32;

/// Lattice noise. The lattice coordinates are wrapped modulo the scale before hashing, so
/// a whole-number scale tiles exactly; every fBm octave doubles the scale, so it tiles too.
pub struct Noise;

const PARAMS: &[ParamDesc] = &[
    ParamDesc {
        name: "kind",
        doc: "value: smooth random values; gradient: Perlin-style; fbm: octaves of gradient",
        kind: ParamKind::Choice {
            options: &["value", "gradient", "fbm"],
            default: "fbm",
        },
    },
    count_param(
        "scale",
        "Lattice cells per repeat; a whole number tiles",
        4.0,
    ),
    SEED_PARAM,
    ParamDesc {
        name: "octaves",
        doc: "fBm: how many octaves, each at twice the scale",
        kind: ParamKind::Int {
            min: 1,
            max: 10,
            default: 4,
        },
    },
    ParamDesc {
        name: "gain",
        doc: "fBm: amplitude of each octave relative to the one before",
        kind: ParamKind::Float {
            min: 0.0,
            max: 1.0,
            default: 0.5,
        },
    },
];

/// What the library says of this kind.
static INFO: KindInfo = KindInfo {
    name: "Noise",
    doc: "Tiling lattice noise (value, gradient or fBm) in [0,1]",
    category: Category::Generator,
    params: PARAMS,
};

impl NodeKind for Noise {
    fn headline(&self) -> Option<&'static str> {
        Some("kind")
    }
    fn info(&self) -> &'static KindInfo {
        &INFO
    }
    fn inputs(&self, _: &Params<'_>) -> Vec<PortDesc> {
        Vec::new()
    }
    fn outputs(&self, _: &Params<'_>) -> Vec<OutputDesc> {
        vec![OutputDesc::new("out", PortType::Float, "Noise in [0,1]")]
    }
    fn repeat_count(&self) -> Option<&'static str> {
        Some("scale")
    }
    fn limits(&self, p: &Params<'_>) -> Vec<String> {
        // fBm's finest octave has the largest lattice: scale × 2^(octaves − 1).
        let octaves = if p.choice("kind") == "fbm" {
            p.int("octaves").clamp(1, 10) as u32
        } else {
            1
        };
        crate::limits::count_problems("scale", p.float("scale"), octaves)
    }
    fn eval(&self, p: &Params<'_>, ctx: &NodeCtx<'_>) -> Vec<Field> {
        let scale = p.float("scale");
        let seed = p.int("seed") as u32;
        let octaves = p.int("octaves").clamp(1, 10) as u32;
        let gain = p.float("gain");
        let d = ctx.domain();
        let (kind, layers) = noise_layers(p.choice("kind"), scale, seed, octaves, gain);
        if let Some((us, vs)) = d.axes() {
            return vec![grid_noise(&kind, layers, us, &vs)];
        }
        // Scattered points (strand roots): eight at a time (`noise_lanes`).
        let mut data = vec![0.0f32; d.len()];
        data.par_chunks_mut(POINTS_PER_TASK)
            .enumerate()
            .for_each(|(c, out)| {
                let from = c * POINTS_PER_TASK;
                let (us, vs) = (&d.u[from..from + out.len()], &d.v[from..from + out.len()]);
                noise_lanes::points(&kind, &layers, us, vs, out);
            });
        vec![Field {
            ty: PortType::Float,
            data,
        }]
    }
}

/// Points one task evaluates.
const POINTS_PER_TASK: usize = 4096;

/// The noise `kind` names and the layers it sums: one lattice for value and gradient
/// noise, the octaves for fBm.
fn noise_layers(kind: &str, scale: f32, seed: u32, octaves: u32, gain: f32) -> (Kind, Vec<Layer>) {
    match kind {
        "value" | "gradient" => (
            if kind == "value" {
                Kind::Value
            } else {
                Kind::Gradient
            },
            vec![(1.0, scale, Lattice::new(seed, lattice_period(scale)))],
        ),
        _ => {
            let octaves = Octaves::new(scale, seed, octaves, gain);
            (
                Kind::Fbm { norm: octaves.norm },
                octaves
                    .octaves
                    .into_iter()
                    .map(|(s, amp, lattice)| (amp, s, lattice))
                    .collect(),
            )
        }
    }
}

/// The lattice period used to wrap cell indices: the scale rounded up, so a scale that is
/// not a whole number still evaluates (and visibly fails to meet itself at the edges).
#[inline]
fn lattice_period(scale: f32) -> i64 {
    (scale.ceil() as i64).max(1)
}

#[inline]
fn fade(t: f32) -> f32 {
    t * t * t * (t * (t * 6.0 - 15.0) + 10.0)
}

/// The lattice cell containing `x * scale` (wrapped modulo `period`), the next cell,
/// and the position within the cell.
///
/// The wrap is done in floating point: an integer division per axis and octave would
/// cost more than the rest of the noise.
#[inline]
fn cell(x: f32, scale: f32, period: i64) -> (u32, u32, f32) {
    let xs = x * scale;
    let xf = fast_floor(xs);
    let p = period as f32;
    let mut i0 = xf - fast_floor(xf / p) * p;
    if i0 >= p {
        i0 -= p;
    } else if i0 < 0.0 {
        i0 += p;
    }
    let i0 = i0 as i64;
    let i1 = if i0 + 1 >= period { 0 } else { i0 + 1 };
    (i0 as u32, i1 as u32, xs - xf)
}

/// Smoothly interpolated random values at the lattice points, in `[0, 1]`: the
/// reference `noise_lanes` is tested against.
#[cfg(test)]
#[must_use]
pub fn value_noise(u: f32, v: f32, scale: f32, lattice: &Lattice) -> f32 {
    let period = lattice.period();
    let (x0, x1, fx) = cell(u, scale, period);
    let (y0, y1, fy) = cell(v, scale, period);
    let corners = lattice.corners(x0, x1, y0, y1);
    bilerp(corners.map(unit_f32_32), fade(fx), fade(fy))
}

/// Per-coordinate lattice work along one axis of a grid: the two cells each coordinate
/// falls between, its position in the cell and the faded position.
struct Axis {
    i0: Vec<u32>,
    i1: Vec<u32>,
    t: Vec<f32>,
    faded: Vec<f32>,
}

impl Axis {
    fn new(coords: &[f32], scale: f32, period: i64) -> Self {
        let n = coords.len();
        let mut axis = Self {
            i0: Vec::with_capacity(n),
            i1: Vec::with_capacity(n),
            t: Vec::with_capacity(n),
            faded: Vec::with_capacity(n),
        };
        for &c in coords {
            let (i0, i1, t) = cell(c, scale, period);
            axis.i0.push(i0);
            axis.i1.push(i1);
            axis.t.push(t);
            axis.faded.push(fade(t));
        }
        axis
    }

    /// The runs of consecutive coordinates in one lattice cell: `(first, end, i0, i1)`
    /// (the next cell `i1` follows from `i0`).
    fn runs(&self) -> Vec<(usize, usize, u32, u32)> {
        let mut runs: Vec<(usize, usize, u32, u32)> = Vec::new();
        for (k, (&i0, &i1)) in self.i0.iter().zip(&self.i1).enumerate() {
            match runs.last_mut() {
                Some(run) if run.2 == i0 => run.1 = k + 1,
                _ => runs.push((k, k + 1, i0, i1)),
            }
        }
        runs
    }
}

/// Noise on a grid domain (`us` per column, `vs` per row): the same numbers as the
/// per-point path, with the lattice work of each row and column done once. Along a row,
/// the columns in one lattice cell share its four corners: each such run takes them once
/// and is then a loop of arithmetic over the run's columns, which the compiler
/// vectorises (where a point at a time looked up four hashes and gradients).
fn grid_noise(kind: &Kind, layers: Vec<Layer>, us: &[f32], vs: &[f32]) -> Field {
    let w = us.len();
    let layers = grid_layers(layers, us, vs);
    let mut data = vec![0.0f32; w * vs.len()];
    data.par_chunks_mut(w).enumerate().for_each(|(y, row)| {
        grid_row(kind, &layers, y, row);
    });
    Field {
        ty: PortType::Float,
        data,
    }
}

/// The layers with the lattice work of the grid's columns and rows.
fn grid_layers(layers: Vec<Layer>, us: &[f32], vs: &[f32]) -> Vec<GridLayer> {
    layers
        .into_iter()
        .map(|(amp, s, lattice)| {
            let p = lattice.period();
            let columns = Axis::new(us, s, p);
            GridLayer {
                amp,
                runs: columns.runs(),
                columns,
                rows: Axis::new(vs, s, p),
                lattice,
            }
        })
        .collect()
}

/// One layer of grid noise: its amplitude, lattice, the lattice work of each column and
/// row, and the columns' runs of cells ([`Axis::runs`]).
struct GridLayer {
    amp: f32,
    lattice: Lattice,
    columns: Axis,
    rows: Axis,
    runs: Vec<(usize, usize, u32, u32)>,
}

/// Row `y` of grid noise, every layer summed and finished, into `row`.
fn grid_row(kind: &Kind, layers: &[GridLayer], y: usize, row: &mut [f32]) {
    #[cfg(target_arch = "x86_64")]
    if tuft_strands::simd::level() >= tuft_strands::simd::Level::Avx2 {
        // SAFETY: the level is AVX2 or above only where the CPU has AVX2.
        #[allow(unsafe_code)]
        unsafe {
            grid_row_avx2(kind, layers, y, row);
        }
        return;
    }
    grid_row_portable(kind, layers, y, row);
}

/// [`grid_row_portable`] compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn grid_row_avx2(kind: &Kind, layers: &[GridLayer], y: usize, row: &mut [f32]) {
    grid_row_portable(kind, layers, y, row);
}

/// [`grid_row`] on the baseline instruction set: each value the one-point functions'
/// operations in their order, so every instruction set gives the same bits.
#[inline(always)]
fn grid_row_portable(kind: &Kind, layers: &[GridLayer], y: usize, row: &mut [f32]) {
    // The row's zeros written before the layers' sums read them: fresh zeroed memory
    // read first costs a TLB flush on every core when first written (see
    // `tuft_strands::relief`'s `Accum`).
    row.fill(0.0);
    for layer in layers {
        let amp = layer.amp;
        let ay = &layer.rows;
        let (y0, y1, ty, sy) = (ay.i0[y], ay.i1[y], ay.t[y], ay.faded[y]);
        for &(first, end, x0, x1) in &layer.runs {
            let corners = layer.lattice.corners(x0, x1, y0, y1);
            let out = &mut row[first..end];
            let tx = &layer.columns.t[first..end];
            let sx = &layer.columns.faded[first..end];
            if matches!(kind, Kind::Value) {
                let c = corners.map(unit_f32_32);
                for k in 0..out.len() {
                    out[k] += amp * bilerp(c, sx[k], sy);
                }
            } else {
                let g = corners.map(|h| GRADIENTS[(h >> 29) as usize]);
                for k in 0..out.len() {
                    out[k] += amp * gradient_of(g, tx[k], ty, sx[k], sy);
                }
            }
        }
    }
    for out in row.iter_mut() {
        *out = noise_lanes::finish(kind, *out);
    }
}

#[inline(always)]
fn bilerp([a, b, c, e]: [f32; 4], sx: f32, sy: f32) -> f32 {
    let top = a + (b - a) * sx;
    let bottom = c + (e - c) * sx;
    top + (bottom - top) * sy
}

/// Gradient noise from the four corner hashes, the position in the cell and its fade.
#[cfg(test)]
#[inline]
fn gradient_corners(h: [u32; 4], fx: f32, fy: f32, sx: f32, sy: f32) -> f32 {
    gradient_of(h.map(|h| GRADIENTS[(h >> 29) as usize]), fx, fy, sx, sy)
}

/// Gradient noise from the four corners' gradients, the position in the cell and its
/// fade.
#[inline(always)]
fn gradient_of(g: [[f32; 2]; 4], fx: f32, fy: f32, sx: f32, sy: f32) -> f32 {
    let dot = |g: [f32; 2], dx: f32, dy: f32| g[0] * dx + g[1] * dy;
    bilerp(
        [
            dot(g[0], fx, fy),
            dot(g[1], fx - 1.0, fy),
            dot(g[2], fx, fy - 1.0),
            dot(g[3], fx - 1.0, fy - 1.0),
        ],
        sx,
        sy,
    )
}

/// Eight unit gradient directions.
const GRADIENTS: [[f32; 2]; 8] = [
    [1.0, 0.0],
    [-1.0, 0.0],
    [0.0, 1.0],
    [0.0, -1.0],
    [
        std::f32::consts::FRAC_1_SQRT_2,
        std::f32::consts::FRAC_1_SQRT_2,
    ],
    [
        -std::f32::consts::FRAC_1_SQRT_2,
        std::f32::consts::FRAC_1_SQRT_2,
    ],
    [
        std::f32::consts::FRAC_1_SQRT_2,
        -std::f32::consts::FRAC_1_SQRT_2,
    ],
    [
        -std::f32::consts::FRAC_1_SQRT_2,
        -std::f32::consts::FRAC_1_SQRT_2,
    ],
];

/// Perlin-style gradient noise, centred on zero, within about ±√½: the reference
/// `noise_lanes` is tested against.
#[cfg(test)]
#[must_use]
pub fn gradient_noise(u: f32, v: f32, scale: f32, lattice: &Lattice) -> f32 {
    let period = lattice.period();
    let (x0, x1, fx) = cell(u, scale, period);
    let (y0, y1, fy) = cell(v, scale, period);
    let corners = lattice.corners(x0, x1, y0, y1);
    gradient_corners(corners, fx, fy, fade(fx), fade(fy))
}

/// Octaves of gradient noise, each at twice the scale and `gain` times the amplitude.
pub struct Octaves {
    octaves: Vec<(f32, f32, Lattice)>,
    norm: f32,
}

impl Octaves {
    /// `count` octaves starting at `scale`.
    #[must_use]
    pub fn new(scale: f32, seed: u32, count: u32, gain: f32) -> Self {
        let mut octaves = Vec::with_capacity(count as usize);
        let (mut amp, mut s, mut norm) = (1.0f32, scale, 0.0f32);
        for o in 0..count {
            let lattice =
                Lattice::new(seed.wrapping_add(o.wrapping_mul(0x9e37)), lattice_period(s));
            octaves.push((s, amp, lattice));
            norm += amp;
            amp *= gain;
            s *= 2.0;
        }
        Self {
            octaves,
            norm: norm.max(1e-6),
        }
    }

    /// The sum at `(u, v)`, normalised into about `[0, 1]`: the reference `noise_lanes`
    /// is tested against.
    #[cfg(test)]
    #[must_use]
    pub fn fbm(&self, u: f32, v: f32) -> f32 {
        let sum: f32 = self
            .octaves
            .iter()
            .map(|(s, amp, lattice)| amp * gradient_noise(u, v, *s, lattice))
            .sum();
        // Summed octaves partly cancel; 1.5 restores roughly one octave's contrast.
        0.5 + 1.5 * GRADIENT_NORM * sum / self.norm
    }
}

#[cfg(test)]
mod tests {
    use crate::node::ParamValue;
    use crate::nodes::testing::*;
    use crate::period::Period;

    fn noise(
        kind: &str,
        scale: f32,
        seed: i64,
    ) -> (crate::graph::MaterialGraph, crate::link::NodeId) {
        single(
            "Noise",
            &[
                ("kind", ParamValue::Choice(kind.into())),
                ("scale", ParamValue::Float(scale)),
                ("seed", ParamValue::Int(seed)),
            ],
            &[],
        )
    }

    #[test]
    fn points_eight_at_a_time_are_the_one_point_functions_to_the_bit() {
        use super::noise_lanes::{points, points_portable};
        use super::{
            GRADIENT_NORM, Lattice, Octaves, gradient_noise, lattice_period, noise_layers,
            value_noise,
        };
        // Points inside and outside the repeat, on cell edges, and a NaN; 1001 of them
        // so the last block is partial.
        let mut state = 0x2545_f491u32;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            (state as f32 / u32::MAX as f32) * 6.0 - 2.0
        };
        let mut us: Vec<f32> = (0..1001).map(|_| next()).collect();
        let vs: Vec<f32> = (0..1001).map(|_| next()).collect();
        us[0] = 0.25;
        us[1] = 1.0;
        us[2] = -0.0;
        us[3] = f32::NAN;
        // Scales from one cell to past the tabulated lattices (hashed per lookup).
        for (scale, seed) in [(1.0, 1), (3.7, 9), (40.0, 2), (3000.0, 5)] {
            let lattice = || Lattice::new(seed, lattice_period(scale));
            let octaves = Octaves::new(scale, seed, 4, 0.5);
            type OnePoint<'a> = &'a dyn Fn(f32, f32) -> f32;
            let cases: [(&str, OnePoint<'_>); 3] = [
                ("value", &|u, v| {
                    value_noise(u, v, scale, &lattice()).clamp(0.0, 1.0)
                }),
                ("gradient", &|u, v| {
                    (0.5 + gradient_noise(u, v, scale, &lattice()) * GRADIENT_NORM).clamp(0.0, 1.0)
                }),
                ("fbm", &|u, v| octaves.fbm(u, v).clamp(0.0, 1.0)),
            ];
            for (name, one) in &cases {
                let (kind, layers) = noise_layers(name, scale, seed, 4, 0.5);
                let (mut fast, mut portable) = (vec![0.0; us.len()], vec![0.0; us.len()]);
                points(&kind, &layers, &us, &vs, &mut fast);
                points_portable(&kind, &layers, &us, &vs, &mut portable);
                for i in 0..us.len() {
                    let want = one(us[i], vs[i]);
                    assert_eq!(fast[i].to_bits(), want.to_bits(), "scale {scale} point {i}");
                    assert_eq!(
                        portable[i].to_bits(),
                        want.to_bits(),
                        "scale {scale} point {i}"
                    );
                }
            }
        }
    }

    #[test]
    fn whole_number_scales_tile_exactly() {
        for kind in ["value", "gradient", "fbm"] {
            for scale in [1.0, 3.0, 8.0] {
                let (g, id) = noise(kind, scale, 5);
                assert!(edge_gap(&g, id, "out", 64) < 1e-5, "{kind} at {scale}");
                assert_eq!(period(&g, id), Period::Tiles(scale as u32));
            }
        }
    }

    #[test]
    fn a_fractional_scale_breaks_the_seam_and_says_why() {
        for kind in ["value", "gradient", "fbm"] {
            let (g, id) = noise(kind, 2.5, 1);
            assert!(edge_gap(&g, id, "out", 64) > 0.01, "{kind}");
            let p = period(&g, id);
            assert!(!p.tiles());
            assert!(p.describe().contains("2.5"), "{}", p.describe());
        }
    }

    #[test]
    fn values_stay_in_unit_range_and_vary() {
        for kind in ["value", "gradient", "fbm"] {
            let (g, id) = noise(kind, 4.0, 9);
            let (lo, hi) = grid(&g, id, "out", 64).range();
            assert!(lo >= 0.0 && hi <= 1.0, "{kind}: {lo}..{hi}");
            assert!(hi - lo > 0.4, "{kind} is too flat: {lo}..{hi}");
        }
    }

    #[test]
    fn grid_and_point_evaluation_agree_to_the_bit() {
        use crate::field::Domain;
        use crate::link::OutRef;
        // Cells wider than a texel, a fractional scale, cells narrower than a texel (runs
        // of one column) and a scale past the tabulated lattices; a whole grid, an uneven
        // one and a band of rows.
        for kind in ["value", "gradient", "fbm"] {
            for scale in [3.0, 2.5, 100.0, 3000.0] {
                let (g, id) = noise(kind, scale, 4);
                let ev = crate::eval::Evaluator::new(&g);
                for domain in [
                    Domain::grid(24, 24),
                    Domain::grid(37, 5),
                    Domain::grid_rows(40, 40, 7, 3),
                ] {
                    let on_grid = ev.eval_output(&OutRef::new(id, "out"), &domain).unwrap();
                    let pts: Vec<[f32; 2]> = (0..domain.len())
                        .map(|i| [domain.u[i], domain.v[i]])
                        .collect();
                    let at_points = at(&g, id, "out", &pts);
                    let bits = |f: &crate::field::Field| {
                        f.data.iter().map(|x| x.to_bits()).collect::<Vec<_>>()
                    };
                    assert_eq!(bits(&on_grid), bits(&at_points), "{kind} at {scale}");
                }
                // The baseline instruction set gives the same rows.
                let uneven = Domain::grid(37, 5);
                let (us, vs) = uneven.axes().unwrap();
                let (kind, layers) = super::noise_layers(kind, scale, 4, 4, 0.5);
                let layers = super::grid_layers(layers, us, &vs);
                for y in 0..vs.len() {
                    let (mut fast, mut portable) = (vec![0.0; us.len()], vec![0.0; us.len()]);
                    super::grid_row(&kind, &layers, y, &mut fast);
                    super::grid_row_portable(&kind, &layers, y, &mut portable);
                    let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                    assert_eq!(bits(&fast), bits(&portable), "row {y} at {scale}");
                }
            }
        }
    }

    #[test]
    fn seeds_pick_different_patterns_and_repeat_exactly() {
        let (g1, a) = noise("fbm", 4.0, 1);
        let (g2, b) = noise("fbm", 4.0, 2);
        let f1 = grid(&g1, a, "out", 32);
        assert_ne!(f1, grid(&g2, b, "out", 32));
        assert_eq!(f1, grid(&g1, a, "out", 32));
    }
}
