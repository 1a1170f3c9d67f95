//! The surface's macro tint over flat ground, computed alike by the surface and by the
//! far strands from the first layer's lattice values.
//!
//! A strand's own colour takes its root's tint. Past its blend it shows the surface its
//! ray meets, which at a grazing view lies metres from the root, often in another patch;
//! read with the root's tint, the blend and the relief it leaves for disagreed wherever
//! the patches change, and the surface's vertices (2 m apart on the field) followed a
//! 3 m patch field only roughly. A map of the tint itself would need texels a few
//! centimetres apart to follow the field's second octave (1.5 m features, sharpened by
//! the stretch). So on flat ground the shaders evaluate the patch field itself, as
//! `tuft_strands::macro_variation` does, reading only the lattice values, which this
//! module lays out: at texel (i, j), for each octave, the values at its lattice point
//! (origin + i, y, origin + j) and (…, y + 1, …) for the one lattice layer `y` height 0
//! falls in (`ground_tint` in `common.wgsl`; [`GroundTint::patch`] is the same sum).
//! The shaders read the field where the ray crosses the canopy's middle height, not at
//! the ground: seen from the side, the strands over a ground point stand on roots
//! nearer the eye, and read at the ground the far lawn's patches stood a parallax away
//! from the near strands' (BENCHMARKS.md, "The tint of the patch behind a far strand").

use glam::Vec3;
use tuft_strands::macro_variation::MacroVariation;

/// The most texels along a side of the lattice map: every adapter wgpu knows holds a
/// 2D texture of 2048.
pub(crate) const MAX_SIDE: u32 = 2048;

/// The first layer's patch lattice over a square of flat ground centred on the origin.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct GroundTint {
    /// The first layer's tint at a full patch (linear RGB).
    pub(crate) tint: [f32; 3],
    /// Its patch size, metres (as the field divides by it).
    pub(crate) scale_m: f32,
    /// Per octave, the lattice point (x, z) texel (0, 0) holds.
    pub(crate) origin: [[i64; 2]; 2],
    /// Texels along each side.
    pub(crate) side: u32,
    /// Row by row (z), each by x: octave 0 at layers `y`, `y + 1`, then octave 1's.
    pub(crate) texels: Vec<[f32; 4]>,
}

impl GroundTint {
    /// The lattice of `variation` over a square of `span_m` metres at height 0; `None`
    /// where it tints nothing, or its lattice is too fine for a map of [`MAX_SIDE`]
    /// (patches under about 0.26 m on the field), where the surface's vertices and each
    /// strand's root carry the tint as they do on every other surface.
    pub(crate) fn of(span_m: f32, variation: &MacroVariation) -> Option<Self> {
        if variation.tint == [1.0; 3] || variation.is_off() {
            return None;
        }
        let corner = Vec3::new(-span_m / 2.0, 0.0, -span_m / 2.0);
        let far = Vec3::new(span_m / 2.0, 0.0, span_m / 2.0);
        let mut origin = [[0i64; 2]; 2];
        let mut layer = [0i64; 2];
        let mut side = 2u32;
        for octave in 0..2 {
            let low = variation.lattice_point(octave, corner).floor();
            let high = variation.lattice_point(octave, far).floor();
            origin[octave] = [low.x as i64, low.z as i64];
            layer[octave] = low.y as i64;
            let cells = (high.x - low.x).max(high.z - low.z) + 2.0;
            // A span or scale that is not finite leaves `cells` NaN: no map either.
            if cells.is_nan() || cells > MAX_SIDE as f32 {
                return None;
            }
            side = side.max(cells as u32);
        }
        let rows = tuft_strands::par::map("tuft ground tint", (0..side).collect(), |j| {
            (0..side)
                .map(|i| {
                    let value = |octave: usize, dy: i64| {
                        let [x, z] = origin[octave];
                        variation.lattice_value(
                            octave,
                            [x + i64::from(i), layer[octave] + dy, z + i64::from(j)],
                        )
                    };
                    [value(0, 0), value(0, 1), value(1, 0), value(1, 1)]
                })
                .collect::<Vec<_>>()
        });
        Some(Self {
            tint: variation.tint,
            scale_m: variation.scale_m.max(0.1),
            origin,
            side,
            texels: rows.concat(),
        })
    }

    /// The patch value at ground point (`x`, `z`), summed as the shaders sum it.
    #[cfg(test)]
    pub(crate) fn patch(&self, x: f32, z: f32) -> f32 {
        let q = Vec3::new(x, 0.0, z) / self.scale_m;
        let points = [
            q,
            q * tuft_strands::macro_variation::OCTAVE_SCALE
                + Vec3::splat(tuft_strands::macro_variation::OCTAVE_SHIFT),
        ];
        let noise = |octave: usize| {
            let p = points[octave];
            let cell = p.floor();
            let f = p - cell;
            let w = f * f * f * (f * (f * 6.0 - Vec3::splat(15.0)) + Vec3::splat(10.0));
            let last = i64::from(self.side) - 1;
            let texel = |di: i64, dj: i64| {
                let i = (cell.x as i64 - self.origin[octave][0] + di).clamp(0, last) as usize;
                let j = (cell.z as i64 - self.origin[octave][1] + dj).clamp(0, last) as usize;
                let t = self.texels[j * self.side as usize + i];
                [t[2 * octave], t[2 * octave + 1]]
            };
            let ([a0, a1], [b0, b1], [c0, c1], [d0, d1]) =
                (texel(0, 0), texel(1, 0), texel(0, 1), texel(1, 1));
            let lerp = |a: f32, b: f32, t: f32| a + (b - a) * t;
            let (x00, x10) = (lerp(a0, b0, w.x), lerp(a1, b1, w.x));
            let (x01, x11) = (lerp(c0, d0, w.x), lerp(c1, d1, w.x));
            lerp(lerp(x00, x10, w.y), lerp(x01, x11, w.y), w.z)
        };
        tuft_strands::macro_variation::stretch((2.0 * noise(0) + noise(1)) / 3.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lawn_like() -> MacroVariation {
        MacroVariation {
            scale_m: 3.0,
            tint: [0.4, 0.47, 0.4],
            seed: 7,
            ..MacroVariation::OFF
        }
    }

    #[test]
    fn the_lattice_gives_the_patch_a_root_takes_wherever_it_stands() {
        let variation = lawn_like();
        let map = GroundTint::of(256.0, &variation).expect("a tinted field has a map");
        // 256 m of the finer octave's 1.48 m cells, and the two lattice points past.
        assert_eq!(map.side, 175);
        let mut worst = 0.0f32;
        for k in 0..4000 {
            // Points over the whole field, by a low-discrepancy walk.
            let x = ((k as f32 * 0.618_034).fract() - 0.5) * 255.0;
            let z = ((k as f32 * 0.754_878).fract() - 0.5) * 255.0;
            let exact = variation.patch(Vec3::new(x, 0.0, z));
            worst = worst.max((exact - map.patch(x, z)).abs());
        }
        assert!(worst < 1e-5, "worst {worst}");
    }

    #[test]
    fn ground_without_a_tint_needs_no_lattice() {
        assert_eq!(GroundTint::of(256.0, &MacroVariation::OFF), None);
        let untinted = MacroVariation {
            density: 0.5,
            tint: [1.0; 3],
            ..lawn_like()
        };
        assert_eq!(GroundTint::of(256.0, &untinted), None);
    }

    #[test]
    fn a_lattice_too_fine_for_a_map_is_left_to_the_vertices() {
        let fine = MacroVariation {
            scale_m: 0.2,
            ..lawn_like()
        };
        assert_eq!(GroundTint::of(256.0, &fine), None);
        let coarse_enough = MacroVariation {
            scale_m: 0.3,
            ..lawn_like()
        };
        let map = GroundTint::of(256.0, &coarse_enough).expect("a map");
        assert!(map.side <= MAX_SIDE);
    }
}
