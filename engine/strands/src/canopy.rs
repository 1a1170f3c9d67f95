//! The canopy as a low ray sees it: a material's strands summed into height slices, so
//! that a surface far away can show what its strands show from any elevation.
//!
//! From above, a lawn is the crowns and the soil between them (the relief splat). From a
//! walker's eye the same lawn is seen from the side: a ray that meets the ground at
//! elevation θ runs `cot θ` metres sideways for each metre it descends through the
//! canopy, and meets the sides of the strands standing there long before it reaches the
//! soil. Each slice of the canopy holds the strands' side area standing in it per square
//! metre of ground (a ribbon turned every way shows `2/π` of its width, a tube all of
//! it), the area it shows from above, and the mean colour and place along the strand of
//! what stands there. Descending from the top, slice `k` stops a share `1 − e^(−τ_k)` of
//! what is left of the ray, with `τ_k = side_k · cot θ + top_k`; what reaches the ground
//! sees the surface's maps. The surface shader and the blend of far strands toward it
//! read the same figures, so the far levels answer the elevation as the strands do.

use crate::StrandSet;
use crate::mesh::{Profile, Shape};
use glam::Vec3;
use serde::{Deserialize, Serialize};

/// Height slices of a canopy, top first.
pub const SLICES: usize = 16;

/// Points along each strand the slices are measured at (segments between them).
const STEPS: usize = 16;

/// The most strands of a layer the canopy is measured on.
pub const SAMPLE: usize = 8_192;

/// One height slice.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Slice {
    /// Strand side area standing in the slice per square metre of ground, seen from a
    /// horizontal ray of any direction (m² per m²).
    pub side: f32,
    /// Strand area the slice shows from straight above per square metre of ground.
    pub top: f32,
    /// The mean linear colour of the strand parts in the slice, weighted by area.
    pub color: [f32; 3],
    /// Their mean place along their strands, 0 at the root to 1 at the tip.
    pub along: f32,
    /// How far, on average, their faces turn up toward the sky: the sine of their
    /// angle from the vertical (0 upright, 1 lying flat).
    pub up: f32,
}

/// A material's strands as height slices over the ground.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Canopy {
    /// The height the slices divide evenly, metres.
    pub height_m: f32,
    /// The slices, top first.
    pub slices: [Slice; SLICES],
}

/// The share of a flat ribbon's width a horizontal ray sees, averaged over the ribbon's
/// turn about its axis: `E|cos φ| = 2/π`.
const RIBBON_SIDE: f32 = std::f32::consts::FRAC_2_PI;

impl Canopy {
    /// The canopy of a material whose layers are `layers` (each set over one repeat of
    /// `repeat_m` metres, meshed as its profile says). Empty or degenerate input gives
    /// an empty canopy, through which every ray reaches the ground. A layer of more than
    /// [`SAMPLE`] strands is measured on every k-th strand by rank (ranks are random, so
    /// a stride is a fair sample), its sums scaled up by the share it skipped: a scene
    /// sums its canopy for every edit's first frame.
    #[must_use]
    pub fn of(layers: &[(&StrandSet, Profile)], repeat_m: f32) -> Self {
        Self::sampled(layers, repeat_m, SAMPLE)
    }

    fn sampled(layers: &[(&StrandSet, Profile)], repeat_m: f32, most: usize) -> Self {
        let area = f64::from(repeat_m) * f64::from(repeat_m);
        if !(area.is_finite() && area > 0.0) {
            return Self::default();
        }
        // Each sampled strand's centreline points, once, with its shape.
        let sampled: Vec<Sampled> =
            crate::par::map("tuft canopy", layers.to_vec(), |(set, profile)| {
                let n = set.len();
                let stride = n.div_ceil(most.max(1)).max(1);
                let strands: Vec<_> = (0..n)
                    .step_by(stride)
                    .map(|i| {
                        let shape = Shape::of(set, i);
                        let curve = shape.curve();
                        let points = std::array::from_fn(|s| curve.at(s as f32 / STEPS as f32));
                        (shape, points)
                    })
                    .collect();
                let scale = n as f64 / strands.len().max(1) as f64;
                let facing = match profile {
                    Profile::Ribbon { .. } => RIBBON_SIDE,
                    Profile::Tube { .. } => 1.0,
                };
                Sampled {
                    scale,
                    facing,
                    strands,
                }
            });
        let height_m = sampled
            .iter()
            .flat_map(|layer| &layer.strands)
            .filter(|(shape, _)| shape.length > 0.0 && shape.width > 0.0)
            .flat_map(|(_, points)| points.iter().map(|p| p.z))
            .filter(|z| z.is_finite())
            .fold(0.0f32, f32::max);
        if !(height_m.is_finite() && height_m > 0.0) {
            return Self::default();
        }
        // Per slice: side, top, colour × area (3), along × area, area, up × area.
        let mut sums = [[0.0f64; 8]; SLICES];
        for layer in &sampled {
            let mut part = [[0.0f64; 8]; SLICES];
            for (shape, points) in &layer.strands {
                add_strand(shape, points, layer.facing, height_m, &mut part);
            }
            for (s, p) in sums.iter_mut().zip(part) {
                for (a, b) in s.iter_mut().zip(p) {
                    *a += b * layer.scale;
                }
            }
        }
        let mut slices = [Slice::default(); SLICES];
        for (slice, s) in slices.iter_mut().zip(sums) {
            let weight = s[6];
            *slice = Slice {
                side: (s[0] / area) as f32,
                top: (s[1] / area) as f32,
                color: if weight > 0.0 {
                    [
                        (s[2] / weight) as f32,
                        (s[3] / weight) as f32,
                        (s[4] / weight) as f32,
                    ]
                } else {
                    [0.0; 3]
                },
                along: if weight > 0.0 {
                    (s[5] / weight) as f32
                } else {
                    0.0
                },
                up: if weight > 0.0 {
                    (s[7] / weight) as f32
                } else {
                    0.0
                },
            };
        }
        Self { height_m, slices }
    }

    /// What a ray meeting the ground at an elevation whose cotangent is `cot` sees: the
    /// share each slice stops (top first) and the share that reaches the ground. The
    /// shares sum to 1. The shaders do the same sum (`seen_through_canopy`).
    #[must_use]
    pub fn seen(&self, cot: f32) -> ([f32; SLICES], f32) {
        let cot = if cot.is_finite() { cot.max(0.0) } else { 0.0 };
        let mut through = 1.0f32;
        let mut shares = [0.0; SLICES];
        for (share, slice) in shares.iter_mut().zip(&self.slices) {
            let passes = (-(slice.side * cot + slice.top)).exp();
            *share = through * (1.0 - passes);
            through *= passes;
        }
        (shares, through)
    }
}

/// One layer's strands as the canopy measures them.
struct Sampled {
    /// How many strands of the layer each sampled one stands for.
    scale: f64,
    /// The share of a strand's width a horizontal ray sees.
    facing: f32,
    /// The sampled strands and their centreline points.
    strands: Vec<(Shape, [Vec3; STEPS + 1])>,
}

/// Adds one strand's segments, between its centreline `points`, to the slices they
/// stand in.
fn add_strand(
    shape: &Shape,
    points: &[Vec3; STEPS + 1],
    facing: f32,
    height_m: f32,
    sums: &mut [[f64; 8]; SLICES],
) {
    if !(shape.length > 0.0 && shape.width > 0.0) {
        return;
    }
    for (s, pair) in points.windows(2).enumerate() {
        let (last, p) = (pair[0], pair[1]);
        let mid_t = (s as f32 + 0.5) / STEPS as f32;
        let w = shape.width_at(mid_t);
        let rise = (p.z - last.z).abs();
        let run = (p.truncate() - last.truncate()).length();
        let z = 0.5 * (p.z + last.z);
        if !(z.is_finite() && rise.is_finite() && run.is_finite()) {
            continue;
        }
        // Slice 0 is the top.
        let k = (((height_m - z) / height_m * SLICES as f32) as usize).min(SLICES - 1);
        let side = f64::from(w * rise * facing);
        let top = f64::from(w * run);
        let weight = side + top;
        let c = shape.color_at(mid_t);
        let slot = &mut sums[k];
        slot[0] += side;
        slot[1] += top;
        slot[2] += weight * f64::from(c[0]);
        slot[3] += weight * f64::from(c[1]);
        slot[4] += weight * f64::from(c[2]);
        slot[5] += weight * f64::from(mid_t);
        slot[6] += weight;
        let len = rise.hypot(run);
        if len > 0.0 {
            slot[7] += weight * f64::from(run / len);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const RIBBON: Profile = Profile::Ribbon { segments: 4 };

    #[test]
    fn a_low_ray_meets_the_strands_and_a_high_one_the_ground() {
        let set = crate::testing::random_set(4_000, 3, 1);
        let canopy = Canopy::of(&[(&set, RIBBON)], 1.0);
        assert!(canopy.height_m > 0.03 && canopy.height_m <= 0.07);
        let (_, overhead) = canopy.seen(0.0);
        let (_, grazing) = canopy.seen(30.0);
        assert!(
            overhead > 0.5,
            "from above most of the ground shows: {overhead}"
        );
        assert!(
            grazing < 0.01,
            "from the side the strands hide it: {grazing}"
        );
        // Every share counted once.
        for cot in [0.0, 0.5, 2.0, 30.0] {
            let (shares, ground) = canopy.seen(cot);
            let sum: f32 = shares.iter().sum::<f32>() + ground;
            assert!((sum - 1.0).abs() < 1e-5, "{cot}: {sum}");
        }
        // From the side the top slices stop the ray first: the top quarter of the
        // slices more than the bottom quarter.
        let (shares, _) = canopy.seen(30.0);
        let quarter = SLICES / 4;
        let top: f32 = shares[..quarter].iter().sum();
        let bottom: f32 = shares[SLICES - quarter..].iter().sum();
        assert!(top > bottom, "{shares:?}");
    }

    #[test]
    fn the_slices_carry_the_colour_along_the_strands() {
        let set = crate::testing::random_set(2_000, 4, 1);
        let canopy = Canopy::of(&[(&set, RIBBON)], 0.5);
        let (top, bottom) = (canopy.slices[0], canopy.slices[SLICES - 1]);
        assert!(top.along > bottom.along, "{top:?} {bottom:?}");
        // Side area: about Σ width · height · 2/π over the repeat's area.
        let side: f32 = canopy.slices.iter().map(|s| s.side).sum();
        let expected: f32 = (0..set.len())
            .map(|i| {
                let shape = Shape::of(&set, i);
                let mean_width = (0..16)
                    .map(|k| shape.width_at((k as f32 + 0.5) / 16.0))
                    .sum::<f32>()
                    / 16.0;
                let curve = shape.curve();
                let top = (0..=STEPS)
                    .map(|k| curve.at(k as f32 / STEPS as f32).z)
                    .fold(0.0f32, f32::max);
                mean_width * top * RIBBON_SIDE
            })
            .sum::<f32>()
            / 0.25;
        assert!(
            (side / expected - 1.0).abs() < 0.1,
            "{side} against {expected}"
        );
    }

    #[test]
    fn a_sample_of_a_big_layer_sees_what_the_whole_layer_sees() {
        let set = crate::testing::random_set(4 * SAMPLE + 123, 5, 1);
        let whole = Canopy::sampled(&[(&set, RIBBON)], 4.0, usize::MAX);
        let sample = Canopy::of(&[(&set, RIBBON)], 4.0);
        // The sample's tallest strand is all but the set's.
        assert!((whole.height_m / sample.height_m - 1.0).abs() < 0.01);
        for cot in [0.0, 1.0, 5.0, 30.0] {
            let (a, ga) = whole.seen(cot);
            let (b, gb) = sample.seen(cot);
            assert!((ga - gb).abs() < 0.01, "{cot}: ground {ga} against {gb}");
            for (x, y) in a.iter().zip(&b) {
                assert!((x - y).abs() < 0.01, "{cot}: {a:?} against {b:?}");
            }
        }
        for (x, y) in whole.slices.iter().zip(&sample.slices) {
            for c in 0..3 {
                assert!((x.color[c] - y.color[c]).abs() <= 0.02 * x.color[c].max(0.01));
            }
        }
    }

    #[test]
    fn nothing_to_stand_in_the_way_leaves_the_ground_in_view() {
        let empty = StrandSet::with_capacity(0);
        for canopy in [
            Canopy::of(&[], 1.0),
            Canopy::of(&[(&empty, RIBBON)], 1.0),
            Canopy::of(&[(&crate::testing::random_set(10, 1, 1), RIBBON)], f32::NAN),
        ] {
            assert_eq!(canopy.seen(10.0).1, 1.0);
        }
        assert_eq!(Canopy::default().seen(f32::INFINITY).1, 1.0);
    }
}
