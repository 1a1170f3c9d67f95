//! Counter-based hashing: every random number in Tuft is a pure function of
//! `(seed, index, channel)`.
//!
//! No generator state crosses strands or texels, so the order in which a parallel loop
//! visits them cannot change a result, and the same inputs give bit-identical outputs on
//! any machine and any thread count.

/// Hash channels: what each random number of a strand is for.
pub mod channel {
    /// Jitter of the root inside its lattice cell, along u.
    pub const JITTER_U: u32 = 0;
    /// Jitter of the root inside its lattice cell, along v.
    pub const JITTER_V: u32 = 1;
    /// Compared with the density field.
    pub const DENSITY: u32 = 2;
    /// The rank.
    pub const RANK: u32 = 3;
    /// Length variation.
    pub const LENGTH: u32 = 4;
    /// Lean variation: angle.
    pub const LEAN_ANGLE: u32 = 5;
    /// Lean variation: radius.
    pub const LEAN_RADIUS: u32 = 6;
    /// Colour variation.
    pub const COLOR: u32 = 7;
    /// Card orientation and atlas cell (used by the card level).
    pub const CARD: u32 = 8;
    /// Surface-area thinning on distorted UV maps.
    pub const AREA: u32 = 9;
    /// The way an upright strand faces.
    pub const FACING: u32 = 10;
    /// Where a strand's curl starts round its axis.
    pub const CURL: u32 = 11;
    /// A strand's frizz: four numbers from here on (two frequencies, two phases).
    pub const FRIZZ: u32 = 12;
    /// The lattice values of a layer's macro variation.
    pub const MACRO: u32 = 16;
    /// Whether a strand narrower than a card atlas texel covers the texel it crosses.
    pub const ATLAS: u32 = 17;
}

/// The SplitMix64 finaliser: a bijective 64-bit mix with full avalanche.
#[inline]
#[must_use]
pub const fn mix64(mut x: u64) -> u64 {
    x ^= x >> 30;
    x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x ^= x >> 27;
    x = x.wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// A 32-bit finaliser (the "lowbias32" constants): cheaper than [`mix64`] for the
/// per-texel lattice lookups of noise generators.
#[inline]
#[must_use]
pub const fn mix32(mut x: u32) -> u32 {
    x ^= x >> 16;
    x = x.wrapping_mul(0x21f0_aaad);
    x ^= x >> 15;
    x = x.wrapping_mul(0x735a_2d97);
    x ^ (x >> 15)
}

/// The hash of one `(seed, index, channel)` triple.
///
/// `channel` names what the number is for (density, rank, length, …), so the numbers a
/// strand draws for different purposes are independent.
#[inline]
#[must_use]
pub const fn hash(seed: u64, index: u64, channel: u32) -> u64 {
    hash_in(stream(seed, channel), index)
}

/// The part of [`hash`] that depends only on `(seed, channel)`: loops over many indices
/// work it out once and call [`hash_in`].
#[inline]
#[must_use]
pub const fn stream(seed: u64, channel: u32) -> u64 {
    mix64(seed ^ (channel as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15))
}

/// `hash(seed, index, channel)` given `stream(seed, channel)`.
#[inline]
#[must_use]
pub const fn hash_in(stream: u64, index: u64) -> u64 {
    mix64(index.wrapping_add(stream))
}

/// The hash of an integer lattice cell, for noise and Voronoi generators.
#[inline]
#[must_use]
pub const fn hash_cell(seed: u32, x: u32, y: u32) -> u32 {
    mix32(mix32(seed ^ x.wrapping_mul(0x9e37_79b9)) ^ y.wrapping_mul(0x85eb_ca6b))
}

/// Maps the top 24 bits of a 64-bit hash to an `f32` in `[0, 1)`; the result is exactly
/// representable and never rounds up to 1.
#[inline]
#[must_use]
pub fn unit_f32(h: u64) -> f32 {
    (h >> 40) as f32 * (1.0 / 16_777_216.0)
}

/// Maps the top 24 bits of a 32-bit hash to an `f32` in `[0, 1)`.
#[inline]
#[must_use]
pub fn unit_f32_32(h: u32) -> f32 {
    (h >> 8) as f32 * (1.0 / 16_777_216.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unit_values_stay_below_one() {
        assert!(unit_f32(u64::MAX) < 1.0);
        assert!(unit_f32_32(u32::MAX) < 1.0);
        assert_eq!(unit_f32(0), 0.0);
    }

    #[test]
    fn channels_are_independent_streams() {
        // The same index on two channels must not give the same number.
        let same = (0..1000)
            .filter(|&i| hash(7, i, 0) == hash(7, i, 1))
            .count();
        assert_eq!(same, 0);
    }

    #[test]
    fn a_precomputed_stream_gives_the_same_hash() {
        for (seed, index, channel) in [(0, 0, 0), (7, 99, 3), (u64::MAX, 12345, 9)] {
            assert_eq!(
                hash(seed, index, channel),
                hash_in(stream(seed, channel), index)
            );
        }
    }

    #[test]
    fn unit_hash_is_roughly_uniform() {
        let n = 100_000u64;
        let mut bins = [0u32; 10];
        for i in 0..n {
            bins[(unit_f32(hash(1, i, 3)) * 10.0) as usize] += 1;
        }
        for (b, &count) in bins.iter().enumerate() {
            let expected = n as f64 / 10.0;
            let dev = (f64::from(count) - expected).abs() / expected;
            assert!(
                dev < 0.03,
                "bin {b} holds {count}, expected about {expected}"
            );
        }
    }

    #[test]
    fn cell_hash_differs_between_neighbours() {
        let mut seen = std::collections::HashSet::new();
        for x in 0..64 {
            for y in 0..64 {
                seen.insert(hash_cell(3, x, y));
            }
        }
        assert_eq!(seen.len(), 64 * 64);
    }
}
