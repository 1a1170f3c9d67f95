//! Small numeric helpers for the hot loops of every crate.

/// `x.floor()` without a libm call: the portable x86-64 baseline has no floor
/// instruction, and `floorf` calls dominated the generators' and splat's profiles. Exact
/// for `|x| < 2³¹`; larger inputs are clamped there.
#[inline]
#[must_use]
pub fn fast_floor(x: f32) -> f32 {
    let t = x.clamp(-2_147_483_520.0, 2_147_483_520.0) as i32 as f32;
    if t > x { t - 1.0 } else { t }
}

/// Index `i` wrapped into `0..n`, without a division when `i` is within one `n` of the
/// range (the usual case for wrapped neighbours).
#[inline]
#[must_use]
pub fn wrap_index(i: i64, n: usize) -> usize {
    let n = n as i64;
    let w = if i < 0 {
        i + n
    } else if i >= n {
        i - n
    } else {
        i
    };
    if (0..n).contains(&w) {
        w as usize
    } else {
        i.rem_euclid(n) as usize
    }
}

/// `d` wrapped into `[-½, ½)`: the shortest way round a repeat of length 1.
#[inline]
#[must_use]
pub fn wrap_delta(d: f32) -> f32 {
    d - fast_floor(d + 0.5)
}

/// A value in `[0, 1]` as the nearest of 256 codes (clamped): the one 8-bit conversion.
#[inline]
#[must_use]
pub fn to_unorm8(x: f32) -> u8 {
    (x.clamp(0.0, 1.0) * 255.0 + 0.5) as u8
}

/// `x` clamped to `[0, 65535]` and rounded to the nearest integer (halves up), without
/// the library call `f32::round` is on the x86-64 baseline: meshing packs a dozen values
/// a point through it.
#[inline]
#[must_use]
pub fn nearest_u16(x: f32) -> u16 {
    (x.clamp(0.0, 65_535.0) + 0.5) as u16
}

/// Linear to sRGB-encoded, both in `[0, 1]`.
#[must_use]
pub fn linear_to_srgb(x: f32) -> f32 {
    let x = x.clamp(0.0, 1.0);
    if x <= 0.003_130_8 {
        12.92 * x
    } else {
        1.055 * x.powf(1.0 / 2.4) - 0.055
    }
}

/// `to_unorm8(linear_to_srgb(x))`, the same code for every `x` (NaN and below zero give
/// 0), without the `powf` in most cases: the one encoding of linear values as 8-bit sRGB.
///
/// The code is the number of thresholds at or below `x`, where threshold `k` is the
/// smallest float the slow path sends to code `k` or above (found once, by bisection on
/// the float's bits, which order non-negative floats). A table on the top bits of `x`
/// starts the count within four codes of the answer. The slow path is monotonic in
/// exact arithmetic and its rounding moves a result by a few units in the last place, so
/// only a value within [`SRGB8_GUARD`] bits of a threshold could read differently: those
/// take the slow path itself.
#[inline]
#[must_use]
pub fn linear_to_srgb8(x: f32) -> u8 {
    let t = srgb8_thresholds();
    let bits = x.to_bits();
    // Negative values (and negative zero) have the sign bit; NaN lies above 1.0's bits.
    if bits >= 1.0f32.to_bits() {
        return if x.is_nan() || x.is_sign_negative() {
            0
        } else {
            255
        };
    }
    let code = t.count(bits);
    let below = bits - t.at[usize::from(code)];
    let above = t.at[usize::from(code) + 1] - bits;
    if below < SRGB8_GUARD || above <= SRGB8_GUARD {
        return to_unorm8(linear_to_srgb(x));
    }
    code
}

/// Bits either side of a threshold within which [`linear_to_srgb8`] takes the slow path.
const SRGB8_GUARD: u32 = 64;

/// The float bits below this shift index [`Srgb8Thresholds::start`]: 32 buckets an
/// octave, none holding more than four codes.
const SRGB8_BUCKET_SHIFT: u32 = 18;

/// What [`linear_to_srgb8`] counts against.
struct Srgb8Thresholds {
    /// `at[k]`: the bits of the smallest non-negative float given code `k` or above
    /// (`at[0]` is 0); then four thresholds no float in `[0, 1)` reaches.
    at: [u32; 260],
    /// The code of the lowest float of each bucket of bits.
    start: Vec<u8>,
}

impl Srgb8Thresholds {
    /// How many thresholds lie at or below `bits` (those of a float in `[0, 1)`): the
    /// bucket's first code and the next four thresholds compared at once, without a
    /// branch (a loop's exit was a mispredicted branch a value).
    #[inline]
    fn count(&self, bits: u32) -> u8 {
        let start = self.start[(bits >> SRGB8_BUCKET_SHIFT) as usize];
        let next = &self.at[usize::from(start) + 1..usize::from(start) + 5];
        start + next.iter().map(|&t| u8::from(t <= bits)).sum::<u8>()
    }
}

fn srgb8_thresholds() -> &'static Srgb8Thresholds {
    static TABLE: std::sync::OnceLock<Srgb8Thresholds> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let slow = |bits: u32| to_unorm8(linear_to_srgb(f32::from_bits(bits)));
        let one = 1.0f32.to_bits();
        let at: [u32; 260] = std::array::from_fn(|k| {
            if k > 255 {
                return u32::MAX;
            }
            // The first bits in `0..=one` whose code reaches `k` (1.0 gives 255).
            let (mut lo, mut hi) = (0u32, one);
            while lo < hi {
                let mid = lo + (hi - lo) / 2;
                if usize::from(slow(mid)) >= k {
                    hi = mid;
                } else {
                    lo = mid + 1;
                }
            }
            lo
        });
        let buckets = (one >> SRGB8_BUCKET_SHIFT) as usize + 1;
        let start = (0..buckets)
            .map(|b| {
                let first = (b as u32) << SRGB8_BUCKET_SHIFT;
                at[..256].iter().rposition(|&t| t <= first).unwrap_or(0) as u8
            })
            .collect();
        Srgb8Thresholds { at, start }
    })
}

/// sRGB-encoded to linear, both in `[0, 1]`.
#[must_use]
pub fn srgb_to_linear(c: f32) -> f32 {
    let c = c.clamp(0.0, 1.0);
    if c <= 0.040_45 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

/// An 8-bit sRGB code as a linear value in `[0, 1]`, through a 256-entry table built
/// once: the one decoding of 8-bit sRGB.
#[must_use]
pub fn srgb8_to_linear(code: u8) -> f32 {
    static TABLE: std::sync::OnceLock<[f32; 256]> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| std::array::from_fn(|k| srgb_to_linear(k as f32 / 255.0)))
        [usize::from(code)]
}

/// The median of the finite `values` (the upper one of an even count); `None` when
/// there are none.
#[must_use]
pub fn median(values: impl IntoIterator<Item = f32>) -> Option<f32> {
    let mut v: Vec<f32> = values.into_iter().filter(|x| x.is_finite()).collect();
    if v.is_empty() {
        return None;
    }
    let mid = v.len() / 2;
    Some(*v.select_nth_unstable_by(mid, f32::total_cmp).1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fast_floor_matches_floor() {
        for x in [
            -3.5f32,
            -3.0,
            -0.2,
            -0.0,
            0.0,
            0.2,
            0.999_999,
            1.0,
            7.5,
            1e6 + 0.5,
            -1e6 - 0.5,
        ] {
            assert_eq!(fast_floor(x), x.floor(), "{x}");
        }
    }

    #[test]
    fn srgb8_matches_the_slow_encoding() {
        let slow = |x: f32| to_unorm8(linear_to_srgb(x));
        // Every float within a few thousand of each threshold (where the count and the
        // guard meet), a sweep of every 251st float in [0, 1], and the odd values.
        let t = srgb8_thresholds();
        let near = t.at[..256]
            .iter()
            .flat_map(|&b| b.saturating_sub(4096)..b + 4096);
        let sweep = (0..=1.0f32.to_bits()).step_by(251);
        for bits in near.chain(sweep) {
            let x = f32::from_bits(bits);
            assert_eq!(linear_to_srgb8(x), slow(x), "{x:e} ({bits:#x})");
            // The count alone is right outside the guard, as the encoding assumes.
            let p = t.at[..256].partition_point(|&b| b <= bits);
            let guarded = [p.saturating_sub(1), p.min(255)]
                .iter()
                .any(|&k| t.at[k].abs_diff(bits) <= SRGB8_GUARD);
            if bits < 1.0f32.to_bits() && !guarded {
                assert_eq!(t.count(bits), slow(x), "{x:e} ({bits:#x})");
            }
        }
        for x in [
            f32::NAN,
            -f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            -0.0,
            0.0,
            -1e-30,
            f32::MIN_POSITIVE,
            1.0,
            1.0 + f32::EPSILON,
            7.0,
            f32::MAX,
        ] {
            assert_eq!(linear_to_srgb8(x), slow(x), "{x:e}");
        }
        // Each threshold is the first float of its code.
        for k in 1..256 {
            let first = t.at[k];
            assert!(usize::from(slow(f32::from_bits(first))) >= k, "{k}");
            assert!(usize::from(slow(f32::from_bits(first - 1))) < k, "{k}");
        }
        // No bucket holds a fifth threshold above its start: the count compares four.
        for (b, &start) in t.start.iter().enumerate() {
            let last = (((b + 1) << SRGB8_BUCKET_SHIFT) - 1) as u32;
            let fifth =
                t.at.get(usize::from(start) + 5)
                    .copied()
                    .unwrap_or(u32::MAX);
            assert!(fifth > last, "bucket {b}");
        }
    }

    #[test]
    fn wrap_index_matches_rem_euclid() {
        for i in -40..40 {
            for n in 1..9 {
                assert_eq!(
                    wrap_index(i, n),
                    i.rem_euclid(n as i64) as usize,
                    "{i} mod {n}"
                );
            }
        }
    }
}
