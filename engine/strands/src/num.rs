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
