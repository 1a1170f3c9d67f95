//! The canopy as a low ray sees it: a material's strands summed into height slices, so
//! that a surface far away can show what its strands show from any elevation.
//!
//! From above, a lawn is the crowns and the soil between them (the relief splat). From a
//! walker's eye the same lawn is seen from the side: a ray that meets the ground at
//! elevation θ runs `cot θ` metres sideways for each metre it descends through the
//! canopy, and meets the sides of the strands standing there long before it reaches the
//! soil. Each slice of the canopy holds the strands' face area standing in it per square
//! metre of ground, split by how far the faces turn up toward the sky (a few tilt
//! classes; a ribbon faces across its lean, a tube all ways about its axis), and the
//! mean colour of what stands there. Which way the faces turn about the vertical is
//! counted for each class over the whole canopy: a lawn combed by a lean field shows the
//! eye and the sun other faces from one side than from the other. A face shows a ray the
//! share `|n·v|` of its area; descending from the top, slice `k` stops a share
//! `1 − e^(−τ_k)` of what is left of the ray, with `τ_k` its faces' shown area over the
//! sine of the ray's elevation, and what reaches the ground sees the surface's maps. The
//! surface shader and the blend of far strands toward it read the same figures, and
//! light each class's faces as the strands' own shading lights the faces the ray sees,
//! so the far levels answer the elevation, the azimuth and the sun as the strands do.

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

/// Tilt classes of the strands' faces, by the height `u` of their normal: class `c`
/// holds `c/TILTS ≤ u < (c + 1)/TILTS`.
pub const TILTS: usize = 4;

/// Directions about the vertical the faces' normals are counted in: bin `i` is centred
/// on `i/AZIMUTHS` of a turn from the surface's u axis toward its v axis.
pub const AZIMUTHS: usize = 16;

/// Turns about its axis a tube's faces are measured at (over half a turn: a face and
/// its opposite show the same).
const TUBE_TURNS: usize = 8;

/// One height slice.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Slice {
    /// Strand face area standing in the slice per square metre of ground (one side of
    /// each face), in each tilt class (m² per m²).
    pub area: [f32; TILTS],
    /// The mean linear colour of each class's faces, weighted by area.
    pub color: [[f32; 3]; TILTS],
    /// The mean of their colour times their place along their strands (0 at the root,
    /// 1 at the tip), weighted by area: with `color` it gives the mean of colour times
    /// any light that grows linearly along the strand (the shaders' `canopy_depth`),
    /// which a mean colour lit at the mean place does not (tips are lighter and lit
    /// more).
    pub color_along: [[f32; 3]; TILTS],
}

/// A material's strands as height slices over the ground.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Canopy {
    /// The height the slices divide evenly, metres.
    pub height_m: f32,
    /// The slices, top first.
    pub slices: [Slice; SLICES],
    /// Each tilt class's mean normal height over the whole canopy, weighted by area.
    pub tilt: [f32; TILTS],
    /// Each tilt class's share of face area whose normal (turned up) points into each
    /// azimuth bin; each class's shares sum to 1.
    pub azimuth: [[f32; AZIMUTHS]; TILTS],
}

/// The unit normal of a face of normal height `u` turned into azimuth bin `i`: x and y
/// along the surface's u and v axes, z up.
#[must_use]
fn face_normal(u: f32, i: usize) -> Vec3 {
    let phi = i as f32 / AZIMUTHS as f32 * std::f32::consts::TAU;
    let r = (1.0 - u * u).max(0.0).sqrt();
    Vec3::new(r * phi.cos(), r * phi.sin(), u)
}

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
                Sampled {
                    scale,
                    tube: matches!(profile, Profile::Tube { .. }),
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
        let mut sums = [Sums::default(); SLICES];
        for layer in &sampled {
            let mut part = [Sums::default(); SLICES];
            for (shape, points) in &layer.strands {
                add_strand(shape, points, layer.tube, height_m, &mut part);
            }
            for (s, p) in sums.iter_mut().zip(&part) {
                s.add(p, layer.scale);
            }
        }
        let mut slices = [Slice::default(); SLICES];
        let (mut class_area, mut class_up) = ([0.0f64; TILTS], [0.0f64; TILTS]);
        let mut azimuth = [[0.0f64; AZIMUTHS]; TILTS];
        for (slice, s) in slices.iter_mut().zip(&sums) {
            let mean = |c: usize, x: [f64; 3]| {
                let w = s.area[c];
                x.map(|x| if w > 0.0 { (x / w) as f32 } else { 0.0 })
            };
            *slice = Slice {
                area: s.area.map(|a| (a / area) as f32),
                color: std::array::from_fn(|c| mean(c, s.color[c])),
                color_along: std::array::from_fn(|c| mean(c, s.color_along[c])),
            };
            for c in 0..TILTS {
                class_area[c] += s.area[c];
                class_up[c] += s.up[c];
                for (a, b) in azimuth[c].iter_mut().zip(s.azimuth[c]) {
                    *a += b;
                }
            }
        }
        // A class with no faces turns every way.
        let azimuth = azimuth.map(|bins| {
            let total: f64 = bins.iter().sum();
            bins.map(|b| {
                if total > 0.0 {
                    (b / total) as f32
                } else {
                    1.0 / AZIMUTHS as f32
                }
            })
        });
        // A class with no faces keeps its middle, which no sum reads.
        let tilt = std::array::from_fn(|c| {
            if class_area[c] > 0.0 {
                (class_up[c] / class_area[c]) as f32
            } else {
                (c as f32 + 0.5) / TILTS as f32
            }
        });
        Self {
            height_m,
            slices,
            tilt,
            azimuth,
        }
    }

    /// The share of its area a face of tilt class `c` shows a ray toward `eye` (unit;
    /// x, y along the surface, z up), over the class's azimuths.
    fn shown(&self, c: usize, eye: Vec3) -> f32 {
        self.azimuth[c]
            .iter()
            .enumerate()
            .map(|(i, share)| share * face_normal(self.tilt[c], i).dot(eye).abs())
            .sum()
    }

    /// The share of its area a face of each tilt class shows a ray toward `eye`.
    fn shown_all(&self, eye: Vec3) -> [f32; TILTS] {
        std::array::from_fn(|c| self.shown(c, eye))
    }

    /// The area the faces of slice `k` show a ray whose classes show `shown`, per square
    /// metre of ground.
    fn shown_by(&self, k: usize, shown: &[f32; TILTS]) -> f32 {
        self.slices[k]
            .area
            .iter()
            .zip(shown)
            .map(|(a, s)| a * s)
            .sum()
    }

    /// Strand side area standing in slice `k` per square metre of ground, as a
    /// horizontal ray sees it, averaged over the ray's directions.
    #[must_use]
    pub fn side(&self, k: usize) -> f32 {
        (0..AZIMUTHS)
            .map(|i| self.shown_by(k, &self.shown_all(face_normal(0.0, i))))
            .sum::<f32>()
            / AZIMUTHS as f32
    }

    /// What a ray meeting the ground from direction `eye` (toward the eye; x, y along
    /// the surface's u and v axes, z up) sees, where the surface curves with mean
    /// curvature `curvature` (1 / radius; 0 flat, above 0 convex): the share each slice
    /// stops (top first) and the share that reaches the ground. The shares sum to 1.
    /// The shaders do the same sum (`canopy_seen`), each slice's area scaled by the
    /// place's [`crate::cover::Cover`] as well.
    ///
    /// On a convex surface the strands fan out: at height `h` the ground they cover has
    /// grown by `(1 + κh)²`, and a ray leaving the ground at elevation `e` climbs
    /// steeper, `cos e_h = cos e / (1 + κh)` (its distance from the centre times the
    /// cosine holds), so even a ray that grazes the ground crosses the canopy in a
    /// finite run, as at a sphere's outline. Concave ground packs them closer.
    #[must_use]
    pub fn seen(&self, eye: Vec3, curvature: f32) -> ([f32; SLICES], f32) {
        let eye = eye.normalize_or(Vec3::Z);
        // The ray's elevation, its sine kept off 0 as the shaders keep it.
        let cos = (1.0 - eye.z.clamp(0.0, 1.0).powi(2)).sqrt();
        let curvature = self.curvature_held(curvature);
        let shown = self.shown_all(eye);
        let mut through = 1.0f32;
        let mut shares = [0.0; SLICES];
        for (k, share) in shares.iter_mut().enumerate() {
            let grow = 1.0 + curvature * self.slice_height(k);
            let c = cos / grow;
            let sin = (1.0 - c * c).max(0.0).sqrt().max(1e-3);
            let passes = (-self.shown_by(k, &shown) / (grow * grow * sin)).exp();
            *share = through * (1.0 - passes);
            through *= passes;
        }
        (shares, through)
    }

    /// The height of slice `k`'s middle over the ground, metres.
    fn slice_height(&self, k: usize) -> f32 {
        self.height_m * (1.0 - (k as f32 + 0.5) / SLICES as f32)
    }

    /// `curvature` kept where the canopy's top is at most twice as far from the centre
    /// of curvature as its ground and a concave one at least half as far (the shaders
    /// keep it so: a mesh's sharp edges read as tight curves).
    fn curvature_held(&self, curvature: f32) -> f32 {
        if !(self.height_m > 0.0 && curvature.is_finite()) {
            return 0.0;
        }
        curvature.clamp(-0.5 / self.height_m, 1.0 / self.height_m)
    }
}

/// One layer's strands as the canopy measures them.
struct Sampled {
    /// How many strands of the layer each sampled one stands for.
    scale: f64,
    /// Whether its strands are tubes (faces all ways about the axis) rather than
    /// ribbons (one face, across the lean).
    tube: bool,
    /// The sampled strands and their centreline points.
    strands: Vec<(Shape, [Vec3; STEPS + 1])>,
}

/// One slice's sums while the strands are added, per tilt class.
#[derive(Clone, Copy, Default)]
struct Sums {
    /// Face area.
    area: [f64; TILTS],
    /// Face area times its normal's height.
    up: [f64; TILTS],
    /// Colour times area.
    color: [[f64; 3]; TILTS],
    /// Colour times place along the strand times area.
    color_along: [[f64; 3]; TILTS],
    /// Area by the azimuth its normal (turned up) points to.
    azimuth: [[f64; AZIMUTHS]; TILTS],
}

impl Sums {
    fn add(&mut self, other: &Self, scale: f64) {
        for c in 0..TILTS {
            self.area[c] += other.area[c] * scale;
            self.up[c] += other.up[c] * scale;
            for i in 0..3 {
                self.color[c][i] += other.color[c][i] * scale;
                self.color_along[c][i] += other.color_along[c][i] * scale;
            }
            for (a, b) in self.azimuth[c].iter_mut().zip(other.azimuth[c]) {
                *a += b * scale;
            }
        }
    }

    /// A face of `area` whose unit normal is `n` (either way: it has two sides), of
    /// colour `rgb` at `along`.
    fn face(&mut self, area: f64, n: Vec3, rgb: [f32; 3], along: f32) {
        let n = if n.z < 0.0 { -n } else { n };
        let u = n.z.min(1.0);
        let c = ((u * TILTS as f32) as usize).min(TILTS - 1);
        self.azimuth[c][azimuth_bin(n.x, n.y)] += area;
        self.area[c] += area;
        self.up[c] += area * f64::from(u);
        for ((sum, sum_along), x) in self.color[c]
            .iter_mut()
            .zip(&mut self.color_along[c])
            .zip(rgb)
        {
            *sum += area * f64::from(x);
            *sum_along += area * f64::from(x * along);
        }
    }
}

/// The azimuth bin nearest the direction `(x, y)`, found by comparing the slope with
/// the bins' edges in its quadrant: the sum adds millions of faces on every edit, and
/// an `atan2` each took `fur/canopy` from 68 to 114 ms (`tuft bench --preset fur`).
fn azimuth_bin(x: f32, y: f32) -> usize {
    const QUARTER: usize = AZIMUTHS / 4;
    // tan of the edges between the bins of a quadrant, 11.25° + k · 22.5°.
    const EDGES: [f32; QUARTER] = [0.198_912_37, 0.668_178_6, 1.496_605_8, 5.027_339_5];
    let (ax, ay) = (x.abs(), y.abs());
    let within = EDGES.iter().take_while(|&&t| ay >= ax * t).count();
    let bin = match (x >= 0.0, y >= 0.0) {
        (true, true) => within,
        (false, true) => 2 * QUARTER - within,
        (false, false) => 2 * QUARTER + within,
        (true, false) => 4 * QUARTER - within,
    };
    bin % AZIMUTHS
}

/// Adds one strand's segments, between its centreline `points`, to the slices they
/// stand in. A ribbon's segment is one face spanning the strand's facing (across its
/// lean, as the mesh builds it); a tube's is faces turned all ways about it, `π/2` of
/// its width times its length in all (what shows a ray of any direction its projected
/// width, as ribbons turned every way about the axis show theirs).
fn add_strand(
    shape: &Shape,
    points: &[Vec3; STEPS + 1],
    tube: bool,
    height_m: f32,
    sums: &mut [Sums; SLICES],
) {
    if !(shape.length > 0.0 && shape.width > 0.0) {
        return;
    }
    let side = crate::shape::facing(shape.reach, shape.id).extend(0.0);
    for (s, pair) in points.windows(2).enumerate() {
        let (last, p) = (pair[0], pair[1]);
        let mid_t = (s as f32 + 0.5) / STEPS as f32;
        let w = shape.width_at(mid_t);
        let step = p - last;
        let len = step.length();
        let z = 0.5 * (p.z + last.z);
        if !(z.is_finite() && len.is_finite() && len > 0.0) {
            continue;
        }
        let along = step / len;
        // Slice 0 is the top.
        let k = (((height_m - z) / height_m * SLICES as f32) as usize).min(SLICES - 1);
        let c = shape.color_at(mid_t);
        let area = f64::from(w * len);
        // The face's span: the facing, square to the segment (the mesh's normal is
        // the facing crossed with the segment).
        let span = (side - along * side.dot(along)).normalize_or(along.any_orthonormal_vector());
        let normal = span.cross(along);
        if tube {
            let each = area * std::f64::consts::FRAC_PI_2 / TUBE_TURNS as f64;
            for i in 0..TUBE_TURNS {
                let turn = (i as f32 + 0.5) / TUBE_TURNS as f32 * std::f32::consts::PI;
                sums[k].face(each, span * turn.cos() + normal * turn.sin(), c, mid_t);
            }
        } else {
            sums[k].face(area, normal, c, mid_t);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const RIBBON: Profile = Profile::Ribbon { segments: 4 };

    /// `set` with every strand leaning by `lean`, nothing else turning it: no pull,
    /// curl or frizz.
    fn combed(mut set: StrandSet, lean: [f32; 2]) -> StrandSet {
        set.lean.fill(lean);
        set.tip_pull.fill([0.0; 2]);
        set.curl.fill([0.0; 2]);
        set.frizz.fill(0.0);
        set
    }

    /// A slice's mean of a per-class figure, weighted by the classes' areas.
    fn mean(slice: &Slice, of: impl Fn(usize) -> [f32; 3]) -> [f32; 3] {
        let total: f32 = slice.area.iter().sum();
        let mut sum = [0.0; 3];
        for c in 0..TILTS {
            for (s, x) in sum.iter_mut().zip(of(c)) {
                *s += slice.area[c] * x / total;
            }
        }
        sum
    }

    #[test]
    fn a_low_ray_meets_the_strands_and_a_high_one_the_ground() {
        let set = crate::testing::random_set(4_000, 3, 1);
        let canopy = Canopy::of(&[(&set, RIBBON)], 1.0);
        assert!(canopy.height_m > 0.03 && canopy.height_m <= 0.07);
        let (_, overhead) = canopy.seen(Vec3::Z, 0.0);
        let (_, grazing) = canopy.seen(Vec3::new(30.0, 0.0, 1.0), 0.0);
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
            let (shares, ground) = canopy.seen(Vec3::new(cot, 0.0, 1.0), 0.0);
            let sum: f32 = shares.iter().sum::<f32>() + ground;
            assert!((sum - 1.0).abs() < 1e-5, "{cot}: {sum}");
        }
        // From the side the top slices stop the ray first: the top quarter of the
        // slices more than the bottom quarter.
        let (shares, _) = canopy.seen(Vec3::new(30.0, 0.0, 1.0), 0.0);
        let quarter = SLICES / 4;
        let top: f32 = shares[..quarter].iter().sum();
        let bottom: f32 = shares[SLICES - quarter..].iter().sum();
        assert!(top > bottom, "{shares:?}");
    }

    #[test]
    fn on_a_convex_surface_the_strands_fan_out_and_a_grazing_ray_crosses_them() {
        let set = crate::testing::random_set(4_000, 3, 1);
        let canopy = Canopy::of(&[(&set, RIBBON)], 1.0);
        let ground = |eye: Vec3, curvature: f32| canopy.seen(eye, curvature).1;
        let radius = |r: f32| 1.0 / r;
        for eye in [Vec3::Z, Vec3::new(1.0, 0.0, 1.0), Vec3::new(3.0, 0.0, 1.0)] {
            let (flat, ball, bowl) = (
                ground(eye, 0.0),
                ground(eye, radius(0.5)),
                ground(eye, -radius(0.5)),
            );
            assert!(ball > flat && flat > bowl, "{eye}: {ball} {flat} {bowl}");
            // Past the canopy's own scale, curvature fades to flat.
            assert!((ground(eye, radius(1e4)) - flat).abs() < 1e-3, "{eye}");
        }
        // A grazing ray over flat ground meets strands for ever; over a sphere of 20 cm
        // (its canopy a quarter of that) it leaves the canopy after a run of about
        // √(2rh) and some of it reaches the ground.
        assert!(ground(Vec3::X, 0.0) < 1e-6);
        let (shares, through) = canopy.seen(Vec3::X, radius(0.2));
        assert!(through > 0.01, "{through}");
        let sum: f32 = shares.iter().sum::<f32>() + through;
        assert!((sum - 1.0).abs() < 1e-5, "{sum}");
        // Curvature past what the canopy's height allows is held there.
        assert_eq!(
            canopy.seen(Vec3::X, 1e9),
            canopy.seen(Vec3::X, 1.0 / canopy.height_m)
        );
        assert_eq!(
            canopy.seen(Vec3::Z, f32::INFINITY),
            canopy.seen(Vec3::Z, 0.0)
        );
    }

    #[test]
    fn the_slices_carry_the_colour_along_the_strands() {
        let set = crate::testing::random_set(2_000, 4, 1);
        let canopy = Canopy::of(&[(&set, RIBBON)], 0.5);
        // The strands grow from a dark root to a light tip: the top slice is the
        // lighter, and what stands there is nearer the tips.
        let (top, bottom) = (&canopy.slices[0], &canopy.slices[SLICES - 1]);
        let green = |slice: &Slice| mean(slice, |c| slice.color[c])[1];
        let along = |slice: &Slice| mean(slice, |c| slice.color_along[c])[1] / green(slice);
        assert!(green(top) > green(bottom), "{top:?} {bottom:?}");
        assert!(
            along(top) > 0.7 && along(bottom) < 0.3,
            "{top:?} {bottom:?}"
        );
        // Side area: about Σ width · height · 2/π over the repeat's area.
        let side: f32 = (0..SLICES).map(|k| canopy.side(k)).sum();
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
                mean_width * top * std::f32::consts::FRAC_2_PI
            })
            .sum::<f32>()
            / 0.25;
        assert!(
            (side / expected - 1.0).abs() < 0.1,
            "{side} against {expected}"
        );
    }

    #[test]
    fn a_lawn_combed_one_way_shows_more_from_behind_its_lean() {
        // Every strand leans toward +u: their faces turn up toward −u, so a ray from
        // the −u side meets their faces flat on and one from +u nearly edge on.
        let set = combed(crate::testing::random_set(2_000, 7, 1), [0.6, 0.0]);
        let canopy = Canopy::of(&[(&set, RIBBON)], 1.0);
        let from = |x: f32| canopy.seen(Vec3::new(x, 0.0, 1.0), 0.0).1;
        assert!(from(-1.0) < from(1.0) * 0.9, "{} {}", from(-1.0), from(1.0));
        // Seen across the lean, either side shows about the same (the faces' azimuths
        // are counted in bins a sixteenth of a turn wide).
        let across = |y: f32| canopy.seen(Vec3::new(0.0, y, 1.0), 0.0).1;
        assert!(
            (across(-1.0) - across(1.0)).abs() < 0.2 * (from(1.0) - from(-1.0)),
            "{} {} against {} {}",
            across(-1.0),
            across(1.0),
            from(-1.0),
            from(1.0)
        );
        // Every class's azimuth shares sum to 1.
        for bins in canopy.azimuth {
            assert!((bins.iter().sum::<f32>() - 1.0).abs() < 1e-4);
        }
    }

    #[test]
    fn a_direction_falls_in_the_bin_of_its_nearest_azimuth() {
        for k in 0..3600 {
            // Off the bins' edges by more than rounding.
            let a = (k as f32 + 0.37) / 3600.0 * std::f32::consts::TAU;
            let (x, y) = (a.cos(), a.sin());
            let turn = y.atan2(x) / std::f32::consts::TAU;
            let want = (turn.rem_euclid(1.0) * AZIMUTHS as f32).round() as usize % AZIMUTHS;
            assert_eq!(azimuth_bin(x, y), want, "{a} rad");
        }
    }

    #[test]
    fn tubes_show_their_width_from_every_side() {
        // Upright tubes: seen from the side each shows its width times its height,
        // and from straight above nothing.
        let mut set = combed(crate::testing::random_set(500, 6, 1), [0.0; 2]);
        set.bend.fill(0.0);
        let tube = Canopy::of(
            &[(
                &set,
                Profile::Tube {
                    sides: 6,
                    segments: 4,
                },
            )],
            1.0,
        );
        let ribbon = Canopy::of(&[(&set, RIBBON)], 1.0);
        let side = |c: &Canopy| (0..SLICES).map(|k| c.side(k)).sum::<f32>();
        let ratio = side(&tube) / side(&ribbon);
        assert!(
            (ratio - std::f32::consts::FRAC_PI_2).abs() < 0.02,
            "a tube shows π/2 times a ribbon turned every way: {ratio}"
        );
        assert!(
            tube.seen(Vec3::Z, 0.0).1 > 0.999,
            "{:?}",
            tube.seen(Vec3::Z, 0.0)
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
            let eye = Vec3::new(cot, 0.0, 1.0);
            let (a, ga) = whole.seen(eye, 0.0);
            let (b, gb) = sample.seen(eye, 0.0);
            assert!((ga - gb).abs() < 0.01, "{cot}: ground {ga} against {gb}");
            for (x, y) in a.iter().zip(&b) {
                assert!((x - y).abs() < 0.01, "{cot}: {a:?} against {b:?}");
            }
        }
        for (x, y) in whole.slices.iter().zip(&sample.slices) {
            let (a, b) = (mean(x, |c| x.color[c]), mean(y, |c| y.color[c]));
            for i in 0..3 {
                assert!((a[i] - b[i]).abs() <= 0.02 * a[i].max(0.01), "{a:?} {b:?}");
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
            assert_eq!(canopy.seen(Vec3::new(10.0, 0.0, 1.0), 0.0).1, 1.0);
        }
        assert_eq!(Canopy::default().seen(Vec3::X, 0.0).1, 1.0);
        assert_eq!(Canopy::default().seen(Vec3::NAN, f32::NAN).1, 1.0);
    }
}
