//! What the noise's three paths share (`noise.rs` one point at a time, `noise_lanes.rs`
//! eight at a time, `noise_avx2.rs` in explicit instructions): the lanes, the kinds of
//! noise, a layer, the gradient directions and gradient noise's normalisation.

use crate::nodes::lattice::Lattice;

/// Points evaluated together.
pub(super) const LANES: usize = 8;

/// Which noise, and how its layers are summed.
pub(super) enum Kind {
    /// Smooth random values (one layer).
    Value,
    /// Gradient noise (one layer).
    Gradient,
    /// Octaves of gradient noise, normalised by the amplitudes' sum `norm`.
    Fbm {
        /// The octaves' amplitudes summed.
        norm: f32,
    },
}

/// A layer of noise: amplitude, scale and lattice.
pub(super) type Layer = (f32, f32, Lattice);

/// Maps the ±√½ range of 2D gradient noise onto ±½.
pub(super) const GRADIENT_NORM: f32 = std::f32::consts::FRAC_1_SQRT_2;

/// The gradient directions of `noise.rs`'s `GRADIENTS`, by component.
pub(super) const GX: [f32; 8] = {
    let r = std::f32::consts::FRAC_1_SQRT_2;
    [1.0, -1.0, 0.0, 0.0, r, -r, r, -r]
};
pub(super) const GY: [f32; 8] = {
    let r = std::f32::consts::FRAC_1_SQRT_2;
    [0.0, 0.0, 1.0, -1.0, r, r, -r, -r]
};
