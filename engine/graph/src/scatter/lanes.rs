//! The candidates at a run of places of the rank order, their random numbers, their
//! roots and their clumps, eight at a time.
//!
//! A candidate's number on a channel is `unit_f32(hash_in(stream, i))`: a SplitMix64
//! finaliser, two 64-bit multiplies. A run's candidates are independent of each other,
//! so a run is computed as arrays the compiler turns into vector code: four lanes of
//! 64-bit multiplies with AVX2 (each pieced from 32-bit ones), one at a time on the
//! baseline. The instruction set is chosen at run time (`tuft_strands::simd::level`);
//! every path gives the scalar function's numbers to the bit (tested).

use super::BELOW_ONE;
use super::rank_order::Order;
use tuft_strands::hash::{hash_in, mix64, unit_f32};
#[cfg(target_arch = "x86_64")]
use tuft_strands::simd::{Level, level};

/// How many candidates one step of the loop computes.
const LANES: usize = 8;

/// Calls `$portable($args)` compiled for AVX2 where the CPU has it (through `$avx2`,
/// which wraps it in a function built for AVX2), for the baseline elsewhere.
macro_rules! dispatch {
    ($portable:ident, $avx2:ident, $($arg:expr),*) => {{
        #[cfg(target_arch = "x86_64")]
        if level() >= Level::Avx2 {
            // SAFETY: the level is AVX2 only where the CPU has AVX2.
            #[allow(unsafe_code)]
            unsafe {
                $avx2($($arg),*);
            }
            return;
        }
        $portable($($arg),*);
    }};
}

/// `out[k] = unit_f32(hash_in(stream, ids[k]))` for every `k` (as many ids as numbers).
pub(super) fn units_of(stream: u64, ids: &[u32], out: &mut [f32]) {
    assert_eq!(ids.len(), out.len(), "a number for every id");
    let index = |k: usize| u64::from(ids[k]);
    dispatch!(units_portable, units_avx2, stream, out, index);
}

/// The candidates at places `first..first + out.len()` of `order` into `out`
/// ([`Order::candidates`], whose loops the compiler puts on lanes).
pub(super) fn places(order: &Order, first: u32, out: &mut [u32]) {
    dispatch!(places_portable, places_avx2, order, first, out);
}

#[inline(always)]
fn places_portable(order: &Order, first: u32, out: &mut [u32]) {
    order.candidates(first, out);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn places_avx2(order: &Order, first: u32, out: &mut [u32]) {
    places_portable(order, first, out);
}

/// Candidates `ids` of an `n × n` lattice jittered in their cells: `(u, v)` in `[0, 1)²`
/// in, each one's root over the repeat out, `((x + u) / n, (row + v) / n)` held below 1
/// (as many ids as numbers).
pub(super) fn jittered(ids: &[u32], n: u32, u: &mut [f32], v: &mut [f32]) {
    assert!(n > 0 && ids.len() == u.len() && ids.len() == v.len());
    dispatch!(jittered_portable, jittered_avx2, ids, n, u, v);
}

#[inline(always)]
fn jittered_portable(ids: &[u32], n: u32, u: &mut [f32], v: &mut [f32]) {
    // Below 2³² / n, so a candidate's product with it over 2³² is its row or one below
    // (a 32-bit multiply to 64 bits, which lanes have; a division they have not).
    let (reciprocal, nf) = (u64::from(u32::MAX / n), n as f32);
    for ((&i, u), v) in ids.iter().zip(u).zip(v) {
        let mut row = ((u64::from(i) * reciprocal) >> 32) as u32;
        let mut x = i - row * n;
        if x >= n {
            (row, x) = (row + 1, x - n);
        }
        *u = ((x as f32 + *u) / nf).min(BELOW_ONE);
        *v = ((row as f32 + *v) / nf).min(BELOW_ONE);
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn jittered_avx2(ids: &[u32], n: u32, u: &mut [f32], v: &mut [f32]) {
    jittered_portable(ids, n, u, v);
}

/// [`units_portable`] compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn units_avx2(stream: u64, out: &mut [f32], index: impl Fn(usize) -> u64) {
    units_portable(stream, out, index);
}

/// [`units_of`] on whatever instruction set it is compiled for.
#[inline(always)]
fn units_portable(stream: u64, out: &mut [f32], index: impl Fn(usize) -> u64) {
    let mut chunks = out.chunks_exact_mut(LANES);
    let mut at = 0;
    for chunk in &mut chunks {
        let mut h = [0u64; LANES];
        for (k, h) in h.iter_mut().enumerate() {
            *h = mix64(index(at + k).wrapping_add(stream));
        }
        // The top 24 bits as a float: below 2^24, so the 32-bit conversion is exact and
        // equal to `unit_f32`'s (which vector units have no 64-bit form of on AVX2).
        for (o, h) in chunk.iter_mut().zip(h) {
            *o = ((h >> 40) as u32 as i32) as f32 * (1.0 / 16_777_216.0);
        }
        at += LANES;
    }
    for (k, o) in chunks.into_remainder().iter_mut().enumerate() {
        *o = unit_f32(hash_in(stream, index(at + k)));
    }
}

/// A point of the unit disk from two uniform numbers in `[0, 1)`: `angle` of a turn,
/// at `√radius` from the centre. The turn's quarter is its top two bits; within it the
/// sine and cosine are Taylor polynomials (to the 11th and 12th power; under 10⁻⁷ off
/// at a quarter turn), so the code has no library call and no branch, and a loop of it
/// runs on lanes giving the same bits as one at a time (no fused multiply-adds either
/// way). The library's `sin_cos` was a call per strand, a tenth of the scatter.
#[inline(always)]
pub(super) fn disk(angle: f32, radius: f32) -> [f32; 2] {
    // A uniform number is below 1 (a NaN or a negative one is taken as 0): four times it
    // is exact, its whole part the quarter, the rest exact too.
    let x = 4.0
        * if angle >= 0.0 {
            angle.min(BELOW_ONE)
        } else {
            0.0
        };
    let quarter = x as u32;
    let t = (x - quarter as f32) * std::f32::consts::FRAC_PI_2;
    let t2 = t * t;
    let sin = t
        * (1.0
            + t2 * (-1.0 / 6.0
                + t2 * (1.0 / 120.0
                    + t2 * (-1.0 / 5040.0 + t2 * (1.0 / 362_880.0 + t2 * (-1.0 / 39_916_800.0))))));
    let cos = 1.0
        + t2 * (-0.5
            + t2 * (1.0 / 24.0
                + t2 * (-1.0 / 720.0
                    + t2 * (1.0 / 40_320.0
                        + t2 * (-1.0 / 3_628_800.0 + t2 * (1.0 / 479_001_600.0))))));
    // A quarter turn on swaps the two and negates the new cosine: sin(t + q·π/2) is
    // (sin, cos, −sin, −cos)[q] of t, and cos(t + q·π/2) is (cos, −sin, −cos, sin)[q].
    let odd = quarter & 1;
    let (s, c) = (
        f32::from_bits(odd * cos.to_bits() + (1 - odd) * sin.to_bits()),
        f32::from_bits(odd * sin.to_bits() + (1 - odd) * cos.to_bits()),
    );
    let sin_sign = (quarter >> 1) << 31;
    let cos_sign = ((quarter ^ (quarter >> 1)) & 1) << 31;
    let r = radius.max(0.0).sqrt();
    [
        f32::from_bits(c.to_bits() ^ cos_sign) * r,
        f32::from_bits(s.to_bits() ^ sin_sign) * r,
    ]
}

/// [`disk`] of every `(angle, radius)` pair into `out`, on lanes where the CPU has AVX2.
pub(super) fn disks(angle: &[f32], radius: &[f32], out: &mut [[f32; 2]]) {
    assert!(angle.len() == out.len() && radius.len() == out.len());
    dispatch!(disks_portable, disks_avx2, angle, radius, out);
}

#[inline(always)]
fn disks_portable(angle: &[f32], radius: &[f32], out: &mut [[f32; 2]]) {
    for ((o, &a), &r) in out.iter_mut().zip(angle).zip(radius) {
        *o = disk(a, r);
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn disks_avx2(angle: &[f32], radius: &[f32], out: &mut [[f32; 2]]) {
    disks_portable(angle, radius, out);
}

/// The clump lattices [`nearest_clumps`] searches on lanes: below 2¹⁵.
#[cfg(target_arch = "x86_64")]
const MAX_LANE_LATTICE: u32 = 1 << 15;

/// `out[k]` is the nearest clump to `(u[k], v[k])` ([`super::nearest_clump`]), for every
/// `k`, of the `m × m` clump `points`.
pub(super) fn nearest_clumps(points: &[[f32; 2]], m: u32, u: &[f32], v: &[f32], out: &mut [u32]) {
    // The lanes index the table with 32-bit integers: `2 m²` fits far past any lattice
    // the limits allow.
    #[cfg(target_arch = "x86_64")]
    if level() >= Level::Avx2 && (1..MAX_LANE_LATTICE).contains(&m) {
        // SAFETY: the level is AVX2 only where the CPU has AVX2.
        #[allow(unsafe_code)]
        unsafe {
            nearest_clumps_avx2(points, m, u, v, out);
        }
        return;
    }
    for ((o, &u), &v) in out.iter_mut().zip(u).zip(v) {
        *o = super::nearest_clump(points, m, u, v);
    }
}

/// [`nearest_clumps`] eight candidates at a time: the nine clump cells around each
/// candidate searched in [`super::nearest_clump`]'s order with its strict comparison,
/// the points gathered from the table, so each lane finds the scalar search's clump.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn nearest_clumps_avx2(points: &[[f32; 2]], m: u32, u: &[f32], v: &[f32], out: &mut [u32]) {
    use std::arch::x86_64::{
        _CMP_GE_OQ, _CMP_LT_OQ, _mm256_add_epi32, _mm256_add_ps, _mm256_and_si256,
        _mm256_blendv_ps, _mm256_castps_si256, _mm256_castsi256_ps, _mm256_cmp_ps,
        _mm256_cmpgt_epi32, _mm256_cvttps_epi32, _mm256_i32gather_ps, _mm256_loadu_ps,
        _mm256_max_ps, _mm256_min_ps, _mm256_mul_ps, _mm256_mullo_epi32, _mm256_set1_epi32,
        _mm256_set1_ps, _mm256_setzero_ps, _mm256_setzero_si256, _mm256_storeu_si256,
        _mm256_sub_epi32, _mm256_sub_ps,
    };
    let cells = m as usize * m as usize;
    assert!(points.len() >= cells && u.len() == out.len() && v.len() == out.len());
    assert!((1..MAX_LANE_LATTICE).contains(&m));
    let flat = points.as_flattened();
    let lanes = out.len() / LANES * LANES;
    // SAFETY: loads and stores address eight elements of `u`, `v` and `out` (below
    // `lanes`); every gathered index is `2 × id` or `2 × id + 1` with `id` a wrapped cell
    // below `m²`, inside `flat`.
    #[allow(unsafe_code)]
    unsafe {
        let mi = _mm256_set1_epi32(m as i32);
        let mf = _mm256_set1_ps(m as f32);
        let top = _mm256_set1_ps((m - 1) as f32);
        let zero = _mm256_setzero_ps();
        let (one, half) = (_mm256_set1_ps(1.0), _mm256_set1_ps(0.5));
        // `i` (within one cell of the lattice) wrapped into `0..m`.
        let wrap = |i| {
            let below = _mm256_cmpgt_epi32(_mm256_setzero_si256(), i);
            let above = _mm256_cmpgt_epi32(i, _mm256_sub_epi32(mi, _mm256_set1_epi32(1)));
            let i = _mm256_add_epi32(i, _mm256_and_si256(below, mi));
            _mm256_sub_epi32(i, _mm256_and_si256(above, mi))
        };
        // `near_delta`: a difference of two points of the repeat, brought within half.
        let near = |d| {
            let e = _mm256_add_ps(d, half);
            let past = _mm256_cmp_ps::<_CMP_GE_OQ>(e, one);
            let before = _mm256_cmp_ps::<_CMP_LT_OQ>(e, zero);
            let d1 = _mm256_blendv_ps(d, _mm256_sub_ps(d, one), past);
            _mm256_blendv_ps(d1, _mm256_add_ps(d, one), before)
        };
        // The cell: `⌊x · m⌋` held to `0..m` (a NaN reads 0, as the scalar cast).
        let cell = |x| {
            let x = _mm256_min_ps(_mm256_max_ps(_mm256_mul_ps(x, mf), zero), top);
            _mm256_cvttps_epi32(x)
        };
        for k in (0..lanes).step_by(LANES) {
            let (uu, vv) = (
                _mm256_loadu_ps(u.as_ptr().add(k)),
                _mm256_loadu_ps(v.as_ptr().add(k)),
            );
            let (cx, cy) = (cell(uu), cell(vv));
            let mut best = _mm256_set1_ps(f32::INFINITY);
            let mut best_id = _mm256_setzero_si256();
            for dy in -1..=1 {
                let row = _mm256_mullo_epi32(wrap(_mm256_add_epi32(cy, _mm256_set1_epi32(dy))), mi);
                for dx in -1..=1 {
                    let id =
                        _mm256_add_epi32(row, wrap(_mm256_add_epi32(cx, _mm256_set1_epi32(dx))));
                    let at = _mm256_add_epi32(id, id);
                    let pu = _mm256_i32gather_ps::<4>(flat.as_ptr(), at);
                    let pv = _mm256_i32gather_ps::<4>(flat.as_ptr().add(1), at);
                    let (du, dv) = (near(_mm256_sub_ps(pu, uu)), near(_mm256_sub_ps(pv, vv)));
                    let d2 = _mm256_add_ps(_mm256_mul_ps(du, du), _mm256_mul_ps(dv, dv));
                    let closer = _mm256_cmp_ps::<_CMP_LT_OQ>(d2, best);
                    best = _mm256_blendv_ps(best, d2, closer);
                    best_id = _mm256_castps_si256(_mm256_blendv_ps(
                        _mm256_castsi256_ps(best_id),
                        _mm256_castsi256_ps(id),
                        closer,
                    ));
                }
            }
            _mm256_storeu_si256(out.as_mut_ptr().add(k).cast(), best_id);
        }
    }
    for k in lanes..out.len() {
        out[k] = super::nearest_clump(points, m, u[k], v[k]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lanes' clumps against the scalar search: lattices of one, two and three cells
    /// (where the wrapped neighbours repeat) and larger, points on the repeat's edges and
    /// corners, runs that are not a lane multiple.
    #[test]
    fn the_lanes_find_the_scalar_search_clumps() {
        for m in [1u32, 2, 3, 7, 64] {
            let points = super::super::clump_points(11, m);
            let mut u = Vec::new();
            let mut v = Vec::new();
            for k in 0..2003u64 {
                let (a, b) = (unit_f32(hash_in(5, k)), unit_f32(hash_in(6, k)));
                let edge = [0.0, BELOW_ONE, 0.5 / m as f32, 1.0 / m as f32];
                u.push(if k % 11 == 0 {
                    edge[(k / 11 % 4) as usize]
                } else {
                    a
                });
                v.push(if k % 13 == 0 {
                    edge[(k / 13 % 4) as usize]
                } else {
                    b
                });
            }
            let want: Vec<u32> = u
                .iter()
                .zip(&v)
                .map(|(&u, &v)| super::super::nearest_clump(&points, m, u, v))
                .collect();
            let mut got = vec![u32::MAX; u.len()];
            nearest_clumps(&points, m, &u, &v, &mut got);
            assert_eq!(got, want, "m = {m}");
        }
    }

    /// The row by a multiply where it is one below (a cell at a row's end or start, the
    /// last cell of the largest lattice a layer may have) against the division, on the dispatched path.
    #[test]
    fn jittered_ids_stand_in_their_division_cells() {
        for n in [1u32, 2, 3, 7, 440, 2047, 2048] {
            let last = n * n - 1;
            let ids: Vec<u32> = (0..n.min(40))
                .flat_map(|row| [row * n, row * n + n - 1])
                .chain([last, last.saturating_sub(1), last / 2, last / 3])
                .chain((0..300).map(|k| (hash_in(u64::from(n), k) % u64::from(n * n)) as u32))
                .collect();
            let (mut u, mut v) = (vec![0.5; ids.len()], vec![0.25; ids.len()]);
            jittered(&ids, n, &mut u, &mut v);
            let nf = n as f32;
            for (k, &i) in ids.iter().enumerate() {
                let (x, row) = ((i % n) as f32, (i / n) as f32);
                let want = [
                    ((x + 0.5) / nf).min(BELOW_ONE),
                    ((row + 0.25) / nf).min(BELOW_ONE),
                ];
                assert_eq!(
                    [u[k], v[k]].map(f32::to_bits),
                    want.map(f32::to_bits),
                    "{n}: {i}"
                );
            }
        }
    }

    /// Every path this CPU has, against the scalar function, at runs of every length
    /// round a lane multiple, at indices that wrap round 2^64 and at scattered ids.
    #[test]
    fn every_path_gives_the_scalar_numbers_to_the_bit() {
        type Path = fn(u64, &mut [f32], &dyn Fn(usize) -> u64);
        let mut paths: Vec<(&str, Path)> =
            vec![("portable", |s, o, index| units_portable(s, o, index))];
        #[cfg(target_arch = "x86_64")]
        {
            if tuft_strands::simd::detected() >= Level::Avx2 {
                // SAFETY: the CPU has AVX2 (checked above).
                #[allow(unsafe_code)]
                paths.push(("avx2", |s, o, index| unsafe { units_avx2(s, o, index) }));
            }
        }
        let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        for (stream, first) in [
            (0, 0),
            (tuft_strands::hash::stream(7, 3), 12_345),
            (u64::MAX, u64::MAX - 20),
            (0x9e37_79b9_7f4a_7c15, 1 << 40),
        ] {
            for len in [0, 1, 7, 8, 9, 63, 1000] {
                let ids: Vec<u32> = (0..len)
                    .map(|k| match k % 5 {
                        0 => u32::MAX - k as u32,
                        _ => hash_in(first, k as u64) as u32,
                    })
                    .collect();
                let consecutive = |k: usize| first.wrapping_add(k as u64);
                let scattered = |k: usize| u64::from(ids[k]);
                for (what, index) in [
                    ("consecutive", &consecutive as &dyn Fn(usize) -> u64),
                    ("scattered", &scattered),
                ] {
                    let want: Vec<f32> = (0..len)
                        .map(|k| unit_f32(hash_in(stream, index(k))))
                        .collect();
                    for (name, path) in &paths {
                        let mut got = vec![f32::NAN; len];
                        path(stream, &mut got, index);
                        assert_eq!(bits(&got), bits(&want), "{name}: {len} {what} from {first}");
                    }
                    if what == "scattered" {
                        let mut got = vec![f32::NAN; len];
                        units_of(stream, &ids, &mut got);
                        assert_eq!(bits(&got), bits(&want), "dispatched: {len}");
                    }
                }
            }
        }
    }

    /// The disk's point is the library's sine and cosine of the turn to within 10⁻⁶,
    /// inside the unit disk, at every quarter's ends; the dispatched run gives the
    /// scalar function's bits.
    #[test]
    fn the_disk_is_the_turns_sine_and_cosine_on_lanes_and_off() {
        let mut angle: Vec<f32> = (0..=64).map(|k| k as f32 / 64.0).collect();
        angle.extend([
            BELOW_ONE,
            0.25 - 1e-8,
            0.5 - 1e-8,
            0.75 + 1e-8,
            f32::NAN,
            -0.5,
        ]);
        angle.extend((0..2000).map(|k| unit_f32(hash_in(8, k))));
        let radius: Vec<f32> = (0..angle.len() as u64)
            .map(|k| match k % 4 {
                0 => 0.0,
                1 => BELOW_ONE,
                _ => unit_f32(hash_in(9, k)),
            })
            .collect();
        let mut got = vec![[f32::NAN; 2]; angle.len()];
        disks(&angle, &radius, &mut got);
        for ((&a, &r), g) in angle.iter().zip(&radius).zip(&got) {
            assert_eq!(g.map(f32::to_bits), disk(a, r).map(f32::to_bits), "{a}");
            let turn = if a >= 0.0 { a.min(BELOW_ONE) } else { 0.0 };
            let (s, c) = (std::f64::consts::TAU * f64::from(turn)).sin_cos();
            let r = f64::from(r).sqrt();
            let want = [c * r, s * r];
            for axis in 0..2 {
                let off = (f64::from(g[axis]) - want[axis]).abs();
                assert!(off < 1e-6, "{a} {r}: {g:?} against {want:?}");
            }
            assert!(g[0] * g[0] + g[1] * g[1] <= 1.0 + 1e-6);
        }
    }
}
