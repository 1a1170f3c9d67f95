//! How a field's values are stored: the encodings of version 2, their bytes, their
//! error bounds, and the choice scheme 1 makes for each field.
//!
//! | code | encoding  | bytes a value | parameters in the directory      | error bound                      |
//! |------|-----------|---------------|----------------------------------|----------------------------------|
//! | 0    | raw       | 4             | none                             | exact                            |
//! | 1    | constant  | 0             | one 4-byte value a component     | exact                            |
//! | 2    | unorm16   | 2             | f32 low, f32 high a component    | (high − low) / 131070            |
//! | 3    | rank16    | 2             | none                             | 0 ≤ r − r′ < 2⁻¹⁶, cuts at k·2⁻¹⁶ kept |
//! | 4    | srgb8     | 1             | none                             | ½ code of 255 in sRGB            |
//! | 5    | u16       | 2             | none                             | exact                            |
//!
//! `unorm16` decodes `low + (high − low) · q / 65535`, clamped to `[low, high]`, so a value
//! never leaves the range it was written from (a root stays inside its repeat); the
//! bound adds an f32 rounding of the result. `rank16` stores `⌊r · 65536⌋` and decodes
//! `q / 65536`: the order is kept (ties may appear, never inversions) and, for every keep
//! `k` that is a multiple of 2⁻¹⁶ (1, ¼ and 1⁄16 among them), `r < k` exactly when
//! `r′ < k`, so a level cut keeps the same strands. `srgb8` stores linear colours in
//! `[0, 1]` as 8-bit sRGB codes.

use super::Kind;
use crate::num::{linear_to_srgb8, srgb8_to_linear};

/// How one field's values are stored.
#[derive(Clone, Debug, PartialEq)]
pub enum Encoding {
    /// As they are: f32 or u32, four bytes a value.
    Raw,
    /// One value a component for every strand, held in the directory as its bits.
    Constant(Vec<u32>),
    /// 16-bit unsigned normalised over a range a component (low, high).
    Unorm16(Vec<(f32, f32)>),
    /// A rank in `[0, 1)` as `⌊r · 65536⌋`.
    Rank16,
    /// A linear colour component in `[0, 1]` as an 8-bit sRGB code.
    Srgb8,
    /// An integer below 65536 in two bytes.
    U16,
}

impl Encoding {
    /// The byte that names the encoding in the directory.
    #[must_use]
    pub fn code(&self) -> u8 {
        match self {
            Self::Raw => 0,
            Self::Constant(_) => 1,
            Self::Unorm16(_) => 2,
            Self::Rank16 => 3,
            Self::Srgb8 => 4,
            Self::U16 => 5,
        }
    }

    /// Its name, as `tuft inspect` shows it.
    #[must_use]
    pub fn name(&self) -> &'static str {
        match self {
            Self::Raw => "raw",
            Self::Constant(_) => "constant",
            Self::Unorm16(_) => "unorm16",
            Self::Rank16 => "rank16",
            Self::Srgb8 => "srgb8",
            Self::U16 => "u16",
        }
    }

    /// Bytes one value takes in the payload.
    #[must_use]
    pub fn value_bytes(&self) -> u64 {
        match self {
            Self::Raw => 4,
            Self::Constant(_) => 0,
            Self::Unorm16(_) | Self::Rank16 | Self::U16 => 2,
            Self::Srgb8 => 1,
        }
    }

    /// Whether the encoding can hold values of `kind`.
    #[must_use]
    pub fn holds(&self, kind: Kind) -> bool {
        match self {
            Self::Raw | Self::Constant(_) => true,
            Self::Unorm16(_) | Self::Rank16 | Self::Srgb8 => kind == Kind::F32,
            Self::U16 => kind == Kind::U32,
        }
    }
}

/// A field's values, flattened (strand-major within the field: `c` values a strand).
#[derive(Clone, Debug, PartialEq)]
pub enum Values {
    /// Floating-point values.
    F32(Vec<f32>),
    /// Integer values.
    U32(Vec<u32>),
}

/// The encoding scheme 1 chooses for a field's values (`c` components a strand): a
/// constant where every strand agrees; otherwise `rank16` for the rank, `srgb8` for
/// colours in `[0, 1]`, `u16` for integers that fit, and `unorm16` over the values' own
/// range for the rest. Values that are not finite stay raw.
#[must_use]
pub fn choose(name: &str, c: usize, values: &Values) -> Encoding {
    let stored_per_strand = matches!(name, "rank" | "root_uv");
    match values {
        Values::U32(v) => {
            if !stored_per_strand && !v.is_empty() && v.chunks_exact(c).all(|s| s == &v[..c]) {
                Encoding::Constant(v[..c].to_vec())
            } else if v.iter().all(|&x| x <= u32::from(u16::MAX)) {
                Encoding::U16
            } else {
                Encoding::Raw
            }
        }
        Values::F32(v) => {
            if v.iter().any(|x| !x.is_finite()) {
                return Encoding::Raw;
            }
            let same = |s: &[f32]| {
                s.iter()
                    .zip(&v[..c])
                    .all(|(a, b)| a.to_bits() == b.to_bits())
            };
            if !stored_per_strand && !v.is_empty() && v.chunks_exact(c).all(same) {
                return Encoding::Constant(v[..c].iter().map(|x| x.to_bits()).collect());
            }
            if name == "rank" {
                return Encoding::Rank16;
            }
            if name.ends_with("_color") && v.iter().all(|x| (0.0..=1.0).contains(x)) {
                return Encoding::Srgb8;
            }
            let mut ranges = vec![(f32::INFINITY, f32::NEG_INFINITY); c];
            for s in v.chunks_exact(c) {
                for (r, &x) in ranges.iter_mut().zip(s) {
                    *r = (r.0.min(x), r.1.max(x));
                }
            }
            if v.is_empty() {
                ranges = vec![(0.0, 0.0); c];
            }
            Encoding::Unorm16(ranges)
        }
    }
}

/// `values` (`c` a strand) in `encoding`, appended to `out`.
///
/// # Panics
/// If the encoding cannot hold the values (a writer's bug: [`choose`] never picks one).
pub fn put(out: &mut Vec<u8>, encoding: &Encoding, c: usize, values: &Values) {
    match (encoding, values) {
        (Encoding::Raw, Values::F32(v)) => v
            .iter()
            .for_each(|x| out.extend_from_slice(&x.to_le_bytes())),
        (Encoding::Raw, Values::U32(v)) => v
            .iter()
            .for_each(|x| out.extend_from_slice(&x.to_le_bytes())),
        (Encoding::Constant(_), _) => {}
        (Encoding::Unorm16(ranges), Values::F32(v)) => {
            for (k, &x) in v.iter().enumerate() {
                let (lo, hi) = ranges[k % c];
                let t = if hi > lo { (x - lo) / (hi - lo) } else { 0.0 };
                let q = (t * 65535.0 + 0.5).clamp(0.0, 65535.0) as u16;
                out.extend_from_slice(&q.to_le_bytes());
            }
        }
        (Encoding::Rank16, Values::F32(v)) => {
            for &r in v {
                let q = (f64::from(r) * 65536.0).floor().clamp(0.0, 65535.0) as u16;
                out.extend_from_slice(&q.to_le_bytes());
            }
        }
        (Encoding::Srgb8, Values::F32(v)) => {
            out.extend(v.iter().map(|&x| linear_to_srgb8(x)));
        }
        (Encoding::U16, Values::U32(v)) => v.iter().for_each(|&x| {
            let x = u16::try_from(x).expect("u16 is chosen only for values that fit");
            out.extend_from_slice(&x.to_le_bytes());
        }),
        (e, _) => panic!("encoding {} cannot hold these values", e.name()),
    }
}

/// The `n × c` values `bytes` holds in `encoding` (the caller has checked the length and
/// that the encoding holds `kind`).
#[must_use]
pub fn get(bytes: &[u8], encoding: &Encoding, kind: Kind, n: usize, c: usize) -> Values {
    let u16s = || {
        bytes
            .chunks_exact(2)
            .map(|b| u16::from_le_bytes([b[0], b[1]]))
    };
    match (encoding, kind) {
        (Encoding::Raw, Kind::F32) => Values::F32(
            bytes
                .chunks_exact(4)
                .map(|b| f32::from_le_bytes(b.try_into().expect("four bytes")))
                .collect(),
        ),
        (Encoding::Raw, Kind::U32) => Values::U32(
            bytes
                .chunks_exact(4)
                .map(|b| u32::from_le_bytes(b.try_into().expect("four bytes")))
                .collect(),
        ),
        (Encoding::Constant(bits), Kind::F32) => Values::F32(
            bits.iter()
                .map(|&b| f32::from_bits(b))
                .cycle()
                .take(n * c)
                .collect(),
        ),
        (Encoding::Constant(bits), Kind::U32) => {
            Values::U32(bits.iter().copied().cycle().take(n * c).collect())
        }
        (Encoding::Unorm16(ranges), _) => Values::F32(
            u16s()
                .enumerate()
                .map(|(k, q)| {
                    let (lo, hi) = ranges[k % c];
                    if q == u16::MAX {
                        hi // exactly, so a second trip finds the same range
                    } else {
                        (lo + (hi - lo) * (f32::from(q) / 65535.0)).clamp(lo, hi)
                    }
                })
                .collect(),
        ),
        (Encoding::Rank16, _) => Values::F32(u16s().map(|q| f32::from(q) / 65536.0).collect()),
        (Encoding::Srgb8, _) => Values::F32(bytes.iter().map(|&q| srgb8_to_linear(q)).collect()),
        (Encoding::U16, _) => Values::U32(u16s().map(u32::from).collect()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(name: &str, c: usize, v: &Values) -> (Encoding, Values) {
        let e = choose(name, c, v);
        let mut bytes = Vec::new();
        put(&mut bytes, &e, c, v);
        let n = match v {
            Values::F32(x) => x.len() / c,
            Values::U32(x) => x.len() / c,
        };
        assert_eq!(bytes.len() as u64, e.value_bytes() * (n * c) as u64);
        let kind = match v {
            Values::F32(_) => Kind::F32,
            Values::U32(_) => Kind::U32,
        };
        let back = get(&bytes, &e, kind, n, c);
        (e, back)
    }

    fn floats(n: usize, f: impl Fn(usize) -> f32) -> Vec<f32> {
        (0..n).map(f).collect()
    }

    #[test]
    fn unorm16_stays_within_its_bound_and_its_range() {
        let v = floats(5000, |i| {
            0.0346 + 0.0783 * crate::hash::unit_f32(crate::hash::hash(3, i as u64, 0))
        });
        let (e, back) = round_trip("length", 1, &Values::F32(v.clone()));
        let Encoding::Unorm16(r) = &e else {
            panic!("{e:?}")
        };
        let (lo, hi) = r[0];
        let bound = (hi - lo) / 131_070.0 + f32::EPSILON * hi;
        let Values::F32(back) = back else { panic!() };
        let worst = v
            .iter()
            .zip(&back)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f32::max);
        assert!(worst <= bound, "{worst} > {bound}");
        assert!(worst > bound / 4.0, "the values are quantised: {worst}");
        assert!(back.iter().all(|x| (lo..=hi).contains(x)));
    }

    #[test]
    fn roots_just_below_one_stay_inside_the_repeat() {
        let v = vec![0.0, 0.999_999_9, 0.5, 0.999_97];
        let (_, back) = round_trip("root_uv", 2, &Values::F32(v));
        let Values::F32(back) = back else { panic!() };
        assert!(back.iter().all(|x| (0.0..1.0).contains(x)), "{back:?}");
    }

    #[test]
    fn rank16_keeps_the_order_and_every_cut_on_its_grid() {
        let mut v = floats(20_000, |i| {
            crate::hash::unit_f32(crate::hash::hash(9, i as u64, 0))
        });
        v.sort_by(f32::total_cmp);
        let (e, back) = round_trip("rank", 1, &Values::F32(v.clone()));
        assert_eq!(e, Encoding::Rank16);
        let Values::F32(back) = back else { panic!() };
        assert!(back.windows(2).all(|w| w[0] <= w[1]));
        for (a, b) in v.iter().zip(&back) {
            assert!(*b <= *a && a - b < 1.0 / 65536.0, "{a} → {b}");
        }
        for keep in [1.0, 0.25, 0.0625, 0.5, 0.123_456_79, 3.0 / 65536.0] {
            let k = (keep * 65536.0_f32).floor() / 65536.0;
            let cut = |r: &[f32]| r.partition_point(|&x| x < k);
            assert_eq!(cut(&v), cut(&back), "keep {k}");
        }
    }

    #[test]
    fn srgb8_is_within_half_a_code() {
        let v = floats(3000, |i| i as f32 / 2999.0);
        let (e, back) = round_trip("tip_color", 3, &Values::F32(v.clone()));
        assert_eq!(e, Encoding::Srgb8);
        let Values::F32(back) = back else { panic!() };
        for (a, b) in v.iter().zip(&back) {
            let srgb = crate::num::linear_to_srgb;
            let d = (srgb(*a) - srgb(*b)).abs() * 255.0;
            assert!(d <= 0.5 + 1e-3, "{a} → {b}: {d} codes");
        }
        // A colour outside [0, 1] is not forced into a code.
        let (e, _) = round_trip("tip_color", 3, &Values::F32(vec![0.2, 1.5, 0.1]));
        assert!(matches!(e, Encoding::Constant(_)));
        let (e, _) = round_trip("tip_color", 1, &Values::F32(vec![0.2, 1.5, 0.1]));
        assert!(matches!(e, Encoding::Unorm16(_)), "{e:?}");
    }

    #[test]
    fn constants_integers_and_non_finite_values_are_exact() {
        let (e, back) = round_trip("width", 1, &Values::F32(vec![0.0035; 7]));
        assert_eq!(e, Encoding::Constant(vec![0.0035f32.to_bits()]));
        assert_eq!(back, Values::F32(vec![0.0035; 7]));
        let ids: Vec<u32> = (0..100).map(|i| i * 600).collect();
        let (e, back) = round_trip("clump", 1, &Values::U32(ids.clone()));
        assert_eq!((e, back), (Encoding::U16, Values::U32(ids)));
        let big = vec![1, 70_000, 3];
        let (e, back) = round_trip("id", 1, &Values::U32(big.clone()));
        assert_eq!((e, back), (Encoding::Raw, Values::U32(big)));
        let odd = vec![1.0, f32::NAN, 2.0];
        let (e, _) = round_trip("bend", 1, &Values::F32(odd));
        assert_eq!(e, Encoding::Raw);
        // A root or a rank is never a constant, even in a layer of one strand.
        let (e, _) = round_trip("rank", 1, &Values::F32(vec![0.5]));
        assert_eq!(e, Encoding::Rank16);
    }
}
