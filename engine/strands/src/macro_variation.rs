//! Macro variation: a layer's strands vary over the ground at a scale of metres, so
//! the repeat of its one tile of strands does not show as a grid on a field.
//!
//! Strand fields stay static (one repeat); what varies across repeats is placement and
//! shading, through one low-frequency field of world position, the *patch* value
//! `n ∈ [0, 1]` ([`MacroVariation::patch`]). Where `n` is 1 the layer is thinnest,
//! shortest and most tinted; where it is 0 it is as authored:
//!
//! - density: a strand is kept where its own hash is under `1 − density · n` (times the
//!   area thinning), so a level's rank cut of the kept strands still nests in the next;
//! - length: a strand is scaled about its root along its centreline by
//!   `1 − length · n` ([`MacroVariation::length_scale`]);
//! - tint: its colour, and the surface's under it, multiplied by `1 + (tint − 1) · n`
//!   ([`MacroVariation::tint_at`]).
//!
//! It is a pure function of world position and the layer's settings, so a game reading
//! a baked set computes the very same numbers from the manifest.

use crate::hash::{channel, hash, mix64, unit_f32};
use glam::Vec3;
use serde::{Deserialize, Serialize};

/// One layer's macro variation. The default varies nothing.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct MacroVariation {
    /// The size of a patch, metres: the field's features are about this far apart.
    pub scale_m: f32,
    /// How much of the layer the sparsest patches drop, in `[0, 1]`.
    pub density: f32,
    /// How much shorter strands are in a full patch, in `[0, 0.9]`.
    pub length: f32,
    /// The colour multiplier of a full patch (linear RGB, each in `[0, 2]`).
    pub tint: [f32; 3],
    /// Which field: layers with the same seed and scale share their patches.
    pub seed: u32,
}

impl Default for MacroVariation {
    fn default() -> Self {
        Self::OFF
    }
}

impl MacroVariation {
    /// No variation at all.
    pub const OFF: Self = Self {
        scale_m: 12.0,
        density: 0.0,
        length: 0.0,
        tint: [1.0; 3],
        seed: 0,
    };

    /// Whether it changes nothing (placement skips the field).
    #[must_use]
    pub fn is_off(&self) -> bool {
        self.density == 0.0 && self.length == 0.0 && self.tint == [1.0; 3]
    }

    /// What is out of range: each a sentence naming the setting and its range.
    #[must_use]
    pub fn problems(&self) -> Vec<String> {
        let mut problems = Vec::new();
        if !(self.scale_m.is_finite() && (0.1..=10_000.0).contains(&self.scale_m)) {
            problems.push(format!(
                "macro.scale_m must be within 0.1..=10000 m, not {}",
                self.scale_m
            ));
        }
        if !(0.0..=1.0).contains(&self.density) {
            problems.push(format!(
                "macro.density must be within 0..=1, not {}",
                self.density
            ));
        }
        if !(0.0..=0.9).contains(&self.length) {
            problems.push(format!(
                "macro.length must be within 0..=0.9, not {}",
                self.length
            ));
        }
        if self.tint.iter().any(|c| !(0.0..=2.0).contains(c)) {
            problems.push(format!(
                "macro.tint must be within 0..=2 in every channel, not {:?}",
                self.tint
            ));
        }
        problems
    }

    /// The patch value at world position `p`, in `[0, 1]`: two octaves of smooth value
    /// noise over a lattice of `scale_m`, its middle stretched so that patches are
    /// distinct (0 where the variation is off). [`Sampler`] gives the same numbers
    /// faster for many nearby points.
    #[must_use]
    pub fn patch(&self, p: Vec3) -> f32 {
        self.sampler().patch(p)
    }

    /// A sampler of [`Self::patch`] that keeps the lattice values of the cells it was
    /// last asked in, for points that come in runs close together (a tile's roots).
    #[must_use]
    pub fn sampler(&self) -> Sampler {
        Sampler {
            variation: *self,
            octaves: [None; 2],
        }
    }

    /// The share of strands kept at patch value `n` (before the area thinning).
    #[must_use]
    pub fn keep(&self, n: f32) -> f32 {
        1.0 - self.density * n
    }

    /// The factor a strand's centreline is scaled by about its root at patch value `n`.
    #[must_use]
    pub fn length_scale(&self, n: f32) -> f32 {
        1.0 - self.length * n
    }

    /// The colour multiplier at patch value `n`.
    #[must_use]
    pub fn tint_at(&self, n: f32) -> [f32; 3] {
        self.tint.map(|t| 1.0 + (t - 1.0) * n)
    }

    /// Where octave `octave` (0 or 1) of the field reads world point `p`, in units of
    /// its lattice: the second octave is [`OCTAVE_SCALE`] times as fine, shifted by
    /// [`OCTAVE_SHIFT`] so that its lattice points fall between the first's.
    #[must_use]
    pub fn lattice_point(&self, octave: usize, p: Vec3) -> Vec3 {
        let q = p / self.scale_m.max(0.1);
        if octave == 0 {
            q
        } else {
            q * OCTAVE_SCALE + Vec3::splat(OCTAVE_SHIFT)
        }
    }

    /// The value octave `octave`'s noise takes at lattice point `key`, in `[0, 1]`: what
    /// it interpolates between (a shader evaluating the field reads these from a map).
    #[must_use]
    pub fn lattice_value(&self, octave: usize, key: [i64; 3]) -> f32 {
        let seed = u64::from(self.seed) ^ octave as u64;
        let [x, y, z] = key;
        let key = mix64(x as u64 ^ mix64(y as u64 ^ mix64(z as u64)));
        unit_f32(hash(seed, key, channel::MACRO))
    }
}

/// How much finer the field's second octave is than its first.
pub const OCTAVE_SCALE: f32 = 2.03;

/// The second octave's shift, in its lattice units.
pub const OCTAVE_SHIFT: f32 = 17.1;

/// [`MacroVariation::patch`] over many points: the same numbers, each octave's eight
/// lattice values hashed once per cell rather than once per point.
#[derive(Clone, Debug)]
pub struct Sampler {
    variation: MacroVariation,
    /// Per octave, the last cell asked and its corner values.
    octaves: [Option<([i64; 3], [f32; 8])>; 2],
}

impl Sampler {
    /// The patch value at world position `p` (see [`MacroVariation::patch`]).
    pub fn patch(&mut self, p: Vec3) -> f32 {
        let v = &self.variation;
        if v.is_off() {
            return 0.0;
        }
        let [first, second] = &mut self.octaves;
        let n = (2.0 * value_noise(v, 0, v.lattice_point(0, p), first)
            + value_noise(v, 1, v.lattice_point(1, p), second))
            / 3.0;
        stretch(n)
    }
}

/// The patch value from the octaves' weighted noise `n`: its middle stretched over
/// `[0, 1]` by a smoothstep from 0.3 to 0.7, so that patches are distinct.
#[must_use]
pub fn stretch(n: f32) -> f32 {
    let x = ((n - 0.3) / 0.4).clamp(0.0, 1.0);
    x * x * (3.0 - 2.0 * x)
}

/// Smooth (quintic) value noise in `[0, 1]` at `q` (lattice units), between octave
/// `octave`'s lattice values; `cell` holds the last cell's corner values and is
/// refilled when `q` leaves it.
fn value_noise(
    v: &MacroVariation,
    octave: usize,
    q: Vec3,
    cell: &mut Option<([i64; 3], [f32; 8])>,
) -> f32 {
    let floor = q.floor();
    let f = q - floor;
    let w = f * f * f * (f * (f * 6.0 - Vec3::splat(15.0)) + Vec3::splat(10.0));
    let key = floor.to_array().map(|c| c as i64);
    let corners = match cell {
        Some((k, corners)) if *k == key => *corners,
        _ => {
            let [x0, y0, z0] = key;
            let at = |i: i64| {
                let (dx, dy, dz) = (i & 1, (i >> 1) & 1, i >> 2);
                v.lattice_value(octave, [x0 + dx, y0 + dy, z0 + dz])
            };
            let corners = [0, 1, 2, 3, 4, 5, 6, 7].map(at);
            *cell = Some((key, corners));
            corners
        }
    };
    let lerp = |a: f32, b: f32, t: f32| a + (b - a) * t;
    // Corner `i` is at (i & 1, i >> 1 & 1, i >> 2).
    let x00 = lerp(corners[0], corners[1], w.x);
    let x10 = lerp(corners[2], corners[3], w.x);
    let x01 = lerp(corners[4], corners[5], w.x);
    let x11 = lerp(corners[6], corners[7], w.x);
    lerp(lerp(x00, x10, w.y), lerp(x01, x11, w.y), w.z)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lawn_like() -> MacroVariation {
        MacroVariation {
            scale_m: 10.0,
            density: 0.5,
            length: 0.3,
            tint: [1.2, 1.05, 0.7],
            seed: 3,
        }
    }

    #[test]
    fn off_varies_nothing() {
        let off = MacroVariation::OFF;
        assert!(off.is_off() && off.problems().is_empty());
        for p in [Vec3::ZERO, Vec3::new(31.7, 0.0, -90.2)] {
            let n = off.patch(p);
            assert_eq!(n, 0.0);
            assert_eq!(off.keep(n), 1.0);
            assert_eq!(off.length_scale(n), 1.0);
            assert_eq!(off.tint_at(n), [1.0; 3]);
        }
    }

    #[test]
    fn the_patches_span_the_range_vary_slowly_and_depend_on_the_seed() {
        let v = lawn_like();
        let samples: Vec<f32> = (0..4096)
            .map(|k| v.patch(Vec3::new((k % 64) as f32 * 2.0, 0.0, (k / 64) as f32 * 2.0)))
            .collect();
        assert!(samples.iter().all(|n| (0.0..=1.0).contains(n)));
        let bare = samples.iter().filter(|&&n| n == 0.0).count();
        let full = samples.iter().filter(|&&n| n == 1.0).count();
        assert!(bare > 200 && full > 200, "{bare} bare, {full} full");
        // Low frequency: 10 cm apart, the value hardly moves.
        for k in 0..200 {
            let p = Vec3::new(k as f32 * 1.37, 0.3, k as f32 * -0.71);
            assert!((v.patch(p) - v.patch(p + Vec3::X * 0.1)).abs() < 0.06);
        }
        let other = MacroVariation { seed: 4, ..v };
        let differ = (0..64)
            .filter(|&k| {
                let p = Vec3::new(k as f32 * 3.1, 0.0, 0.0);
                (v.patch(p) - other.patch(p)).abs() > 0.1
            })
            .count();
        assert!(differ > 10);
    }

    #[test]
    fn the_numbers_are_the_ones_a_game_computes() {
        // Test vectors: a game that reimplements the function checks itself on these,
        // and a change to the function (which would move every baked set's patches)
        // fails here first.
        let v = lawn_like();
        for (p, n) in [
            ([12.5, 0.0, -40.25], 0.817_362_3),
            ([0.0, 0.0, 0.0], 0.680_471_36),
            ([3.0, 1.0, 77.0], 0.265_967_58),
            ([-50.0, 0.0, 5.5], 0.613_037_4),
            ([100.0, 0.0, 100.0], 1.0),
        ] {
            let got = v.patch(Vec3::from(p));
            assert!((got - n).abs() < 1e-6, "{p:?}: {got}, not {n}");
        }
        let n = 0.817_362_3;
        assert!((v.keep(n) - (1.0 - 0.5 * n)).abs() < 1e-7);
        assert!((v.length_scale(1.0) - 0.7).abs() < 1e-7);
        assert_eq!(v.tint_at(0.0), [1.0; 3]);
        assert_eq!(v.tint_at(1.0), [1.2, 1.05, 0.7]);
    }

    #[test]
    fn a_sampler_gives_the_same_numbers_as_the_function() {
        let v = lawn_like();
        let mut sampler = v.sampler();
        // Runs of close points (the cache hit) and jumps across cells and octaves.
        for k in 0..5000 {
            let p = Vec3::new(
                (k % 97) as f32 * 0.013 + (k / 500) as f32 * 23.7,
                (k % 7) as f32 * 0.4 - 1.0,
                (k % 131) as f32 * -0.021 - (k / 1000) as f32 * 51.3,
            );
            assert_eq!(sampler.patch(p).to_bits(), v.patch(p).to_bits(), "{p}");
        }
        assert_eq!(MacroVariation::OFF.sampler().patch(Vec3::ONE), 0.0);
    }

    #[test]
    fn settings_out_of_range_are_named() {
        let bad = MacroVariation {
            scale_m: f32::NAN,
            density: 1.5,
            length: -0.1,
            tint: [3.0, 1.0, 1.0],
            seed: 0,
        };
        let problems = bad.problems().join("\n");
        for name in ["scale_m", "density", "length", "tint"] {
            assert!(problems.contains(name), "{problems}");
        }
    }
}
