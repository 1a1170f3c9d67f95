//! Noise at scattered points in AVX2 instructions, eight points a register: what
//! `noise_lanes` computes, step for step. The compiler left the arrays' cell wrap and
//! corner lookups there mostly one lane at a time (a conversion, a compare and a load
//! each); here each is one instruction for the eight, the corners are gathered from the
//! lattice's table, and the gradients are picked by a permute. The operations are the
//! one-point functions' in their order (no fused multiply-adds; every clamp and choice
//! keeps their NaN behaviour), so the numbers are the same to the bit (tested with
//! `noise_lanes`). Only lattices with a table come here.

use super::noise_basis::{GRADIENT_NORM, GX, GY, Kind, LANES, Layer};
use std::arch::x86_64::{
    __m256, __m256i, _CMP_GE_OQ, _CMP_GT_OQ, _CMP_LT_OQ, _CMP_UNORD_Q, _mm256_add_epi32,
    _mm256_add_ps, _mm256_and_si256, _mm256_andnot_si256, _mm256_blendv_ps, _mm256_castps_si256,
    _mm256_cmp_ps, _mm256_cmpgt_epi32, _mm256_cvtepi32_ps, _mm256_cvttps_epi32, _mm256_div_ps,
    _mm256_i32gather_epi32, _mm256_loadu_ps, _mm256_max_ps, _mm256_min_ps, _mm256_movemask_epi8,
    _mm256_mul_ps, _mm256_mullo_epi32, _mm256_permutevar8x32_ps, _mm256_set1_epi32, _mm256_set1_ps,
    _mm256_srli_epi32, _mm256_storeu_ps, _mm256_sub_ps,
};

/// Fills `out` as `noise_lanes::points` does, `tables` being each layer's lattice's
/// table; a block whose cells fall outside a table (coordinates past 2²⁴ cells) goes to
/// `portable`, which answers it as before.
#[target_feature(enable = "avx2")]
pub(super) fn points(
    kind: &Kind,
    layers: &[Layer],
    tables: &[&[u32]],
    us: &[f32],
    vs: &[f32],
    out: &mut [f32],
    portable: impl Fn(&[f32], &[f32], &mut [f32]),
) {
    let mut at = 0;
    while at < out.len() {
        let m = (out.len() - at).min(LANES);
        let (us, vs) = (&us[at..at + m], &vs[at..at + m]);
        let (mut u, mut v) = ([0.0f32; LANES], [0.0f32; LANES]);
        u[..m].copy_from_slice(us);
        v[..m].copy_from_slice(vs);
        match block(kind, layers, tables, load(&u), load(&v)) {
            Some(noise) => {
                let mut done = [0.0f32; LANES];
                // SAFETY: the array is eight floats, written unaligned.
                #[allow(unsafe_code)]
                unsafe {
                    _mm256_storeu_ps(done.as_mut_ptr(), noise);
                }
                out[at..at + m].copy_from_slice(&done[..m]);
            }
            None => portable(us, vs, &mut out[at..at + m]),
        }
        at += m;
    }
}

/// Eight floats in one register.
#[target_feature(enable = "avx2")]
fn load(x: &[f32; LANES]) -> __m256 {
    // SAFETY: the array is eight floats, read unaligned.
    #[allow(unsafe_code)]
    unsafe {
        _mm256_loadu_ps(x.as_ptr())
    }
}

/// The noise of eight points, or `None` where a cell falls outside its table.
#[target_feature(enable = "avx2")]
fn block(kind: &Kind, layers: &[Layer], tables: &[&[u32]], u: __m256, v: __m256) -> Option<__m256> {
    let mut sum = _mm256_set1_ps(0.0);
    for (k, ((amp, scale, lattice), table)) in layers.iter().zip(tables).enumerate() {
        let period = lattice.period();
        let (x, y) = (cells(u, *scale, period)?, cells(v, *scale, period)?);
        let h = corners(table, period, &x, &y);
        let n = match kind {
            Kind::Value => value(&h, &x, &y),
            Kind::Gradient | Kind::Fbm { .. } => gradient(&h, &x, &y),
        };
        let term = _mm256_mul_ps(_mm256_set1_ps(*amp), n);
        sum = if k == 0 {
            term
        } else {
            _mm256_add_ps(sum, term)
        };
    }
    // `noise_lanes::finish`: the kind's offset and factor, then the clamp to [0, 1].
    let half = _mm256_set1_ps(0.5);
    let n = match kind {
        Kind::Value => sum,
        Kind::Gradient => _mm256_add_ps(half, _mm256_mul_ps(sum, _mm256_set1_ps(GRADIENT_NORM))),
        Kind::Fbm { norm } => _mm256_add_ps(
            half,
            _mm256_div_ps(
                _mm256_mul_ps(_mm256_set1_ps(1.5 * GRADIENT_NORM), sum),
                _mm256_set1_ps(*norm),
            ),
        ),
    };
    Some(clamp(n, 0.0, 1.0))
}

/// `f32::clamp` on eight lanes: a NaN stays NaN (the maximum and minimum instructions
/// answer their second operand when either is NaN).
#[target_feature(enable = "avx2")]
fn clamp(x: __m256, lo: f32, hi: f32) -> __m256 {
    _mm256_min_ps(_mm256_set1_ps(hi), _mm256_max_ps(_mm256_set1_ps(lo), x))
}

/// `fast_floor` on eight lanes.
#[target_feature(enable = "avx2")]
fn floor(x: __m256) -> __m256 {
    let c = clamp(x, -2_147_483_520.0, 2_147_483_520.0);
    // `as i32` makes a NaN 0, where the instruction makes it i32::MIN.
    let nan = _mm256_castps_si256(_mm256_cmp_ps::<_CMP_UNORD_Q>(c, c));
    let t = _mm256_cvtepi32_ps(_mm256_andnot_si256(nan, _mm256_cvttps_epi32(c)));
    let above = _mm256_cmp_ps::<_CMP_GT_OQ>(t, x);
    _mm256_blendv_ps(t, _mm256_sub_ps(t, _mm256_set1_ps(1.0)), above)
}

/// Each lane's cell along one axis: the wrapped cell, the next one, the position inside.
struct Cells {
    i0: __m256i,
    i1: __m256i,
    t: __m256,
}

/// `noise_lanes`' cells of eight coordinates, or `None` where one falls outside
/// `0..period` (only past 2²⁴ cells, where the float wrap is no longer exact).
#[target_feature(enable = "avx2")]
fn cells(x: __m256, scale: f32, period: i64) -> Option<Cells> {
    let p = _mm256_set1_ps(period as f32);
    let xs = _mm256_mul_ps(x, _mm256_set1_ps(scale));
    let xf = floor(xs);
    let mut i0 = _mm256_sub_ps(xf, _mm256_mul_ps(floor(_mm256_div_ps(xf, p)), p));
    i0 = _mm256_blendv_ps(i0, _mm256_sub_ps(i0, p), _mm256_cmp_ps::<_CMP_GE_OQ>(i0, p));
    i0 = _mm256_blendv_ps(
        i0,
        _mm256_add_ps(i0, p),
        _mm256_cmp_ps::<_CMP_LT_OQ>(i0, _mm256_set1_ps(0.0)),
    );
    let i0 = _mm256_cvttps_epi32(i0);
    // A table has at most 2²² cells, so its period and every index fit an i32.
    let period = _mm256_set1_epi32(period as i32);
    let inside = _mm256_and_si256(
        _mm256_cmpgt_epi32(period, i0),
        _mm256_cmpgt_epi32(i0, _mm256_set1_epi32(-1)),
    );
    if _mm256_movemask_epi8(inside) != -1 {
        return None;
    }
    let next = _mm256_add_epi32(i0, _mm256_set1_epi32(1));
    Some(Cells {
        i0,
        i1: _mm256_and_si256(_mm256_cmpgt_epi32(period, next), next),
        t: _mm256_sub_ps(xs, xf),
    })
}

/// The four corners' hashes of every lane, gathered from the table: (x0,y0), (x1,y0),
/// (x0,y1), (x1,y1).
#[target_feature(enable = "avx2")]
fn corners(table: &[u32], period: i64, x: &Cells, y: &Cells) -> [__m256i; 4] {
    let p = _mm256_set1_epi32(period as i32);
    let (y0, y1) = (_mm256_mullo_epi32(y.i0, p), _mm256_mullo_epi32(y.i1, p));
    [(y0, x.i0), (y0, x.i1), (y1, x.i0), (y1, x.i1)].map(|(row, col)| {
        // SAFETY: both cells are inside `0..period` (checked by `cells`), so the index
        // is inside the period² table.
        #[allow(unsafe_code)]
        unsafe {
            _mm256_i32gather_epi32::<4>(table.as_ptr().cast(), _mm256_add_epi32(row, col))
        }
    })
}

/// `noise.rs`' fade on eight lanes.
#[target_feature(enable = "avx2")]
fn fade(t: __m256) -> __m256 {
    let s = |x: f32| _mm256_set1_ps(x);
    let cube = _mm256_mul_ps(_mm256_mul_ps(t, t), t);
    let inner = _mm256_sub_ps(_mm256_mul_ps(t, s(6.0)), s(15.0));
    _mm256_mul_ps(cube, _mm256_add_ps(_mm256_mul_ps(t, inner), s(10.0)))
}

/// `noise.rs`' bilinear blend on eight lanes.
#[target_feature(enable = "avx2")]
fn bilerp([a, b, c, e]: [__m256; 4], sx: __m256, sy: __m256) -> __m256 {
    let top = _mm256_add_ps(a, _mm256_mul_ps(_mm256_sub_ps(b, a), sx));
    let bottom = _mm256_add_ps(c, _mm256_mul_ps(_mm256_sub_ps(e, c), sx));
    _mm256_add_ps(top, _mm256_mul_ps(_mm256_sub_ps(bottom, top), sy))
}

/// Value noise: the corners' hashes as numbers in `[0, 1)`, blended.
#[target_feature(enable = "avx2")]
fn value(h: &[__m256i; 4], x: &Cells, y: &Cells) -> __m256 {
    // `unit_f32_32`: the top 24 bits, which an i32 conversion takes exactly.
    let unit = h.map(|h| {
        _mm256_mul_ps(
            _mm256_cvtepi32_ps(_mm256_srli_epi32::<8>(h)),
            _mm256_set1_ps(1.0 / 16_777_216.0),
        )
    });
    bilerp(unit, fade(x.t), fade(y.t))
}

/// Gradient noise: each corner's gradient (its hash's top three bits) dotted with the
/// offset to the point, blended.
#[target_feature(enable = "avx2")]
fn gradient(h: &[__m256i; 4], x: &Cells, y: &Cells) -> __m256 {
    let (gx, gy) = (load(&GX), load(&GY));
    let one = _mm256_set1_ps(1.0);
    let (fx, fy) = (x.t, y.t);
    let (fx1, fy1) = (_mm256_sub_ps(fx, one), _mm256_sub_ps(fy, one));
    let dot = |h: __m256i, dx: __m256, dy: __m256| {
        let k = _mm256_srli_epi32::<29>(h);
        _mm256_add_ps(
            _mm256_mul_ps(_mm256_permutevar8x32_ps(gx, k), dx),
            _mm256_mul_ps(_mm256_permutevar8x32_ps(gy, k), dy),
        )
    };
    bilerp(
        [
            dot(h[0], fx, fy),
            dot(h[1], fx1, fy),
            dot(h[2], fx, fy1),
            dot(h[3], fx1, fy1),
        ],
        fade(fx),
        fade(fy),
    )
}
