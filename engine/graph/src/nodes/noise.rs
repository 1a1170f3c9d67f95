//! Noise: value, gradient and fractal (fBm) lattice noise that tiles over the repeat.

use crate::eval::NodeCtx;
use crate::field::{Field, par_field};
use crate::graph::NodeId;
use crate::node::{Category, NodeKind, OutputDesc, ParamDesc, ParamKind, Params, PortDesc};
use crate::period::Period;
use crate::value::PortType;
use tuft_strands::hash::{hash_cell, unit_f32_32};

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
    ParamDesc {
        name: "scale",
        doc: "Lattice cells per repeat; a whole number tiles",
        kind: ParamKind::Float {
            min: 1.0,
            max: 64.0,
            default: 4.0,
        },
    },
    ParamDesc {
        name: "seed",
        doc: "Picks another pattern",
        kind: ParamKind::Int {
            min: 0,
            max: u32::MAX as i64,
            default: 0,
        },
    },
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

impl NodeKind for Noise {
    fn name(&self) -> &'static str {
        "Noise"
    }
    fn doc(&self) -> &'static str {
        "Tiling lattice noise (value, gradient or fBm) in [0,1]"
    }
    fn category(&self) -> Category {
        Category::Generator
    }
    fn params(&self) -> &'static [ParamDesc] {
        PARAMS
    }
    fn inputs(&self, _: &Params<'_>) -> Vec<PortDesc> {
        Vec::new()
    }
    fn outputs(&self, _: &Params<'_>) -> Vec<OutputDesc> {
        vec![OutputDesc::new("out", PortType::Float, "Noise in [0,1]")]
    }
    fn period(&self, p: &Params<'_>, id: NodeId, _: &[Period]) -> Vec<Period> {
        vec![Period::from_scale(id, "scale", p.float("scale"))]
    }
    fn eval(&self, p: &Params<'_>, ctx: &NodeCtx<'_>) -> Vec<Field> {
        let scale = p.float("scale");
        let seed = p.int("seed") as u32;
        let octaves = p.int("octaves").clamp(1, 10) as u32;
        let gain = p.float("gain");
        let d = ctx.domain();
        let kind = p.choice("kind");
        let field = par_field(PortType::Float, d.len(), |i| {
            let (u, v) = (d.u[i], d.v[i]);
            let n = match kind {
                "value" => value_noise(u, v, scale, seed),
                "gradient" => 0.5 + gradient_noise(u, v, scale, seed) * GRADIENT_NORM,
                _ => fbm(u, v, scale, seed, octaves, gain),
            };
            [n.clamp(0.0, 1.0), 0.0, 0.0]
        });
        vec![field]
    }
}

/// Maps the ±√½ range of 2D gradient noise onto ±½.
const GRADIENT_NORM: f32 = std::f32::consts::FRAC_1_SQRT_2;

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

/// The lattice cell containing `x * scale` and the position within it.
#[inline]
fn cell(x: f32, scale: f32, period: i64) -> (u32, u32, f32) {
    let xs = x * scale;
    let xf = xs.floor();
    let i0 = (xf as i64).rem_euclid(period);
    let i1 = (i0 + 1).rem_euclid(period);
    (i0 as u32, i1 as u32, xs - xf)
}

/// Smoothly interpolated random values at the lattice points, in `[0, 1]`.
#[must_use]
pub fn value_noise(u: f32, v: f32, scale: f32, seed: u32) -> f32 {
    let period = lattice_period(scale);
    let (x0, x1, fx) = cell(u, scale, period);
    let (y0, y1, fy) = cell(v, scale, period);
    let h = |x, y| unit_f32_32(hash_cell(seed, x, y));
    let (a, b, c, e) = (h(x0, y0), h(x1, y0), h(x0, y1), h(x1, y1));
    let (sx, sy) = (fade(fx), fade(fy));
    let top = a + (b - a) * sx;
    let bottom = c + (e - c) * sx;
    top + (bottom - top) * sy
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

/// Perlin-style gradient noise, centred on zero, within about ±√½.
#[must_use]
pub fn gradient_noise(u: f32, v: f32, scale: f32, seed: u32) -> f32 {
    let period = lattice_period(scale);
    let (x0, x1, fx) = cell(u, scale, period);
    let (y0, y1, fy) = cell(v, scale, period);
    let dot = |x, y, dx: f32, dy: f32| {
        let g = GRADIENTS[(hash_cell(seed, x, y) >> 29) as usize];
        g[0] * dx + g[1] * dy
    };
    let a = dot(x0, y0, fx, fy);
    let b = dot(x1, y0, fx - 1.0, fy);
    let c = dot(x0, y1, fx, fy - 1.0);
    let e = dot(x1, y1, fx - 1.0, fy - 1.0);
    let (sx, sy) = (fade(fx), fade(fy));
    let top = a + (b - a) * sx;
    let bottom = c + (e - c) * sx;
    top + (bottom - top) * sy
}

/// Octaves of gradient noise, each at twice the scale and `gain` times the amplitude,
/// normalised into `[0, 1]`.
#[must_use]
pub fn fbm(u: f32, v: f32, scale: f32, seed: u32, octaves: u32, gain: f32) -> f32 {
    let mut sum = 0.0;
    let mut norm = 0.0;
    let mut amp = 1.0;
    let mut s = scale;
    for o in 0..octaves {
        sum += amp * gradient_noise(u, v, s, seed.wrapping_add(o.wrapping_mul(0x9e37)));
        norm += amp;
        amp *= gain;
        s *= 2.0;
    }
    // Summed octaves partly cancel; 1.5 restores roughly the single octave's contrast.
    0.5 + 1.5 * GRADIENT_NORM * sum / norm.max(1e-6)
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
    ) -> (crate::graph::MaterialGraph, crate::graph::NodeId) {
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
    fn seeds_pick_different_patterns_and_repeat_exactly() {
        let (g1, a) = noise("fbm", 4.0, 1);
        let (g2, b) = noise("fbm", 4.0, 2);
        let f1 = grid(&g1, a, "out", 32);
        assert_ne!(f1, grid(&g2, b, "out", 32));
        assert_eq!(f1, grid(&g1, a, "out", 32));
    }
}
