//! Ribbons meshed eight strands at a time, for CPUs with AVX2 and F16C.
//!
//! Each step of [`super::ribbon_body`] (the centreline, the facing, the normal, the
//! octahedral packing, the quantised positions) is one AVX instruction on eight
//! strands' values ([`F8`]): written out, not left to the compiler, which kept the
//! steps that choose between two values (the packing's fold, the fallbacks) as a branch
//! a lane. Every lane does the scalar path's operations in its order (no fused
//! multiply-adds, the same choices where it branches), so the bytes are the scalar
//! path's: tested against it in `tests.rs`. Strands with curl or frizz (whose
//! centreline calls sines per point) stay on the scalar path.

use super::packed::{Quantiser, rank_bits, unit_bits};
use super::{MAX_POINTS, PackedVertex, Shape};
use crate::placement::Planted;
use crate::shape::facing;
use std::arch::x86_64::{
    __m128i, __m256i, _mm_unpackhi_epi16, _mm_unpacklo_epi16, _mm256_and_si256,
    _mm256_cvtepu16_epi32, _mm256_max_ps, _mm256_min_ps, _mm256_or_si256,
    _mm256_permute2x128_si256, _mm256_set_m128i, _mm256_set1_epi32, _mm256_slli_epi32,
    _mm256_storeu_si256, _mm256_sub_epi32, _mm256_unpackhi_epi32, _mm256_unpackhi_epi64,
    _mm256_unpacklo_epi32, _mm256_unpacklo_epi64,
};
use std::array::from_fn;
use std::mem::MaybeUninit;

pub(super) use crate::f8::LANES;
use crate::f8::{F8, V8, each, length_squared, select3};

/// Two 16-bit values a lane, `lo` in the low half of each 32-bit word.
#[target_feature(enable = "avx2")]
fn pair(lo: __m128i, hi: __m128i) -> __m256i {
    _mm256_set_m128i(_mm_unpackhi_epi16(lo, hi), _mm_unpacklo_epi16(lo, hi))
}

/// `lo | hi << 16` in each 32-bit lane (both below 2¹⁶).
#[target_feature(enable = "avx2")]
fn join(lo: __m256i, hi: __m256i) -> __m256i {
    _mm256_or_si256(lo, _mm256_slli_epi32::<16>(hi))
}

/// [`super::packed::oct_encode`] lane by lane: the normal divided by its own L1 size,
/// the lower half folded over, each coordinate as a 16-bit signed fraction (its bits,
/// in the low half of each 32-bit lane).
#[target_feature(enable = "avx2")]
fn oct_encode(n: V8) -> [__m256i; 2] {
    let [x, y, z] = n;
    let l1 = x.abs().add(y.abs()).add(z.abs());
    let valid = l1.positive_finite().bits();
    let (x, y, z) = (x.div(l1), y.div(l1), z.div(l1));
    let zero = F8::splat(0.0);
    let (one, minus) = (F8::splat(1.0), F8::splat(-1.0));
    let sign = |v: F8| F8::select(v.ge(zero), one, minus);
    let upper = z.ge(zero);
    let ex = F8::select(upper, x, one.sub(y.abs()).mul(sign(x)));
    let ey = F8::select(upper, y, one.sub(x.abs()).mul(sign(y)));
    let q = |e: F8| -> __m256i {
        // Where the lane is valid, `e` is finite and the clamp is `min` and `max`.
        let e = F8(_mm256_max_ps(_mm256_min_ps(e.0, one.0), minus.0));
        let steps = F8::splat(32_767.0);
        let q = e.mul(steps).add(steps).nearest_u16();
        let signed = _mm256_sub_epi32(q, _mm256_set1_epi32(32_767));
        _mm256_and_si256(_mm256_and_si256(signed, _mm256_set1_epi32(0xffff)), valid)
    };
    [q(ex), q(ey)]
}

/// Meshes eight strands as ribbons of `points` points onto the end of `mesh`, exactly as
/// [`super::ribbon_body`] meshes each (every strand [`plain`]).
///
/// [`plain`]: crate::shape::Groom::is_plain
#[target_feature(enable = "avx2,f16c")]
pub(super) fn ribbons(
    mesh: &mut super::TileMesh,
    q: &Quantiser,
    planted: &[Planted; LANES],
    shapes: [&Shape; LANES],
    points: usize,
) {
    let p = |f: fn(&Planted) -> glam::Vec3| -> V8 {
        let v: [glam::Vec3; LANES] = each(|j| f(&planted[j]));
        [F8::of(|j| v[j].x), F8::of(|j| v[j].y), F8::of(|j| v[j].z)]
    };
    let (pos, tan, bit, nor) = (
        p(|p| p.position),
        p(|p| p.tangent),
        p(|p| p.bitangent),
        p(|p| p.normal),
    );
    // The root's frame applied to (x, y, z), as `super::build_with_on`'s `frame`.
    let frame = |x: F8, y: F8, z: F8| -> V8 {
        from_fn(|c| tan[c].mul(x).add(bit[c].mul(y)).add(nor[c].mul(z)))
    };

    // The centreline ([`crate::shape::Curve::new`] and `at`).
    let rx = F8::of(|j| shapes[j].reach.x);
    let ry = F8::of(|j| shapes[j].reach.y);
    let length = F8::of(|j| shapes[j].length);
    let reach2 = rx.mul(rx).add(ry.mul(ry));
    let height = length.mul(length).sub(reach2).max0().sqrt();
    let bend = F8::of(|j| shapes[j].bend).clamp(0.0, 1.0);
    let one = F8::splat(1.0);
    let straight = one.sub(bend);
    let last = (points - 1) as f32;
    let mut centre = [[F8::splat(0.0); 3]; MAX_POINTS];
    for (k, c) in centre[..points].iter_mut().enumerate() {
        let t = k as f32 / last;
        let (tv, s) = (F8::splat(t), F8::splat(1.0 - t));
        let across = tv.mul(straight.add(bend.mul(tv)));
        let (hx, hy) = (rx.mul(across), ry.mul(across));
        let vz = height.mul(one.sub(s.mul(straight.add(bend.mul(s)))));
        let f = frame(hx, hy, vz);
        *c = from_fn(|axis| pos[axis].add(f[axis]));
    }

    // The facing ([`facing`]: across the reach; an upright strand's own way, scalar).
    let recip = one.div(reach2.sqrt());
    let (mut fx, mut fy) = (ry.neg().mul(recip).lanes(), rx.mul(recip).lanes());
    let leaning = reach2.lanes();
    for j in 0..LANES {
        if leaning[j] > 1e-12 {
            continue;
        }
        let f = facing(shapes[j].reach, shapes[j].id);
        (fx[j], fy[j]) = (f.x, f.y);
    }
    let side = frame(F8::of(|j| fx[j]), F8::of(|j| fy[j]), F8::splat(0.0));
    let rcp = one.div(length_squared(side).sqrt());
    let usable = rcp.positive_finite();
    let side = select3(usable, side.map(|s| s.mul(rcp)), tan);

    // The eight strands' vertices (one a centreline point) are written straight into
    // the buffer's spare room.
    let start = mesh.vertices.len();
    mesh.vertices.reserve(LANES * points);
    let out = &mut mesh.vertices.spare_capacity_mut()[..LANES * points];
    let rank = _mm256_slli_epi32::<16>(_mm256_cvtepu16_epi32(pack16(each(|j| {
        rank_bits(shapes[j].rank)
    }))));
    let width = F8::of(|j| shapes[j].width);
    let narrowing = one.sub(F8::of(|j| shapes[j].groom.taper[0]));
    let root_color: V8 = from_fn(|c| F8::of(|j| shapes[j].root_color[c]));
    let tip_color: V8 = from_fn(|c| F8::of(|j| shapes[j].tip_color[c]));
    let f16_one = _mm256_cvtepu16_epi32(F8::splat(1.0).f16());
    let color_w = _mm256_slli_epi32::<16>(f16_one);
    // A taper's power is a library call: made only for the strands whose taper has one
    // (a vectorised loop would make it for every lane).
    let powered = shapes.iter().any(|s| s.groom.taper[1] != 1.0);
    let (half, tiny, small) = (F8::splat(0.5), F8::splat(1e-24), F8::splat(1e-12));
    let origin: V8 = from_fn(|axis| F8::splat(q.origin[axis]));
    let scale: V8 = from_fn(|axis| F8::splat(q.scale[axis]));
    for k in 0..points {
        let t = k as f32 / last;
        let tt = t.clamp(0.0, 1.0);
        let along = if powered {
            F8::of(|j| {
                let exponent = shapes[j].groom.taper[1];
                if exponent == 1.0 {
                    tt
                } else {
                    tt.powf(exponent)
                }
            })
        } else {
            F8::splat(tt)
        };
        let half_width = half.mul(width.mul(one.sub(narrowing.mul(along))));
        let (a, b) = if k + 1 < points {
            (k + 1, k)
        } else {
            (k, k - 1)
        };
        let d: V8 = from_fn(|c| centre[a][c].sub(centre[b][c]));
        let along = select3(length_squared(d).gt(tiny), d, nor);
        let [sx, sy, sz] = side;
        let [ax, ay, az] = along;
        let normal = [
            sy.mul(az).sub(ay.mul(sz)),
            sz.mul(ax).sub(az.mul(sx)),
            sx.mul(ay).sub(ax.mul(sy)),
        ];
        let crosses = length_squared(normal).gt(small.mul(length_squared(along)));
        let [o0, o1] = oct_encode(select3(crosses, normal, nor));
        let across = side.map(|s| s.mul(half_width));
        // The centreline point as 16-bit fractions of the frame (`Quantiser::position`).
        let c = &centre[k];
        let at: [__m256i; 3] =
            from_fn(|axis| c[axis].sub(origin[axis]).mul(scale[axis]).nearest_u16());
        let tint: [__m128i; 3] = from_fn(|c| {
            let r = root_color[c];
            r.add(tip_color[c].sub(r).mul(F8::splat(t))).f16()
        });
        let wind = _mm256_slli_epi32::<16>(_mm256_cvtepu16_epi32(F8::splat(t * t).f16()));
        let along_bits = u32::from(unit_bits(t));
        let vertex = [
            join(at[0], at[1]),
            _mm256_or_si256(at[2], rank),
            pair(across[0].f16(), across[1].f16()),
            _mm256_or_si256(_mm256_cvtepu16_epi32(across[2].f16()), wind),
            join(o0, o1),
            _mm256_set1_epi32(along_bits as i32),
            pair(tint[0], tint[1]),
            _mm256_or_si256(_mm256_cvtepu16_epi32(tint[2]), color_w),
        ];
        transpose_into(vertex, out, points, k);
    }
    // SAFETY: the loop above wrote vertex k of every strand for every point k: all
    // `LANES × points` after `start`.
    #[allow(unsafe_code)]
    unsafe {
        mesh.vertices.set_len(start + LANES * points);
    }
    mesh.ranks.extend(shapes.iter().map(|s| s.rank));
}

/// Eight 16-bit values in one register.
#[target_feature(enable = "avx2")]
fn pack16(x: [u16; LANES]) -> __m128i {
    // SAFETY: the array is sixteen bytes, read unaligned.
    #[allow(unsafe_code)]
    unsafe {
        std::ptr::read_unaligned(x.as_ptr().cast())
    }
}

/// Writes vertex `v` of each of the eight strands into `out`, strand `j`'s at
/// `j × per_strand + v`: lane `j` of `words[w]` is word `w` of strand `j`'s vertex (an
/// 8 × 8 transpose of 32-bit words).
#[target_feature(enable = "avx2")]
fn transpose_into(
    r: [__m256i; 8],
    out: &mut [MaybeUninit<PackedVertex>],
    per_strand: usize,
    v: usize,
) {
    assert!(v < per_strand && out.len() >= LANES * per_strand);
    let t: [__m256i; 8] = from_fn(|i| {
        let (a, b) = (r[2 * (i / 2)], r[2 * (i / 2) + 1]);
        if i % 2 == 0 {
            _mm256_unpacklo_epi32(a, b)
        } else {
            _mm256_unpackhi_epi32(a, b)
        }
    });
    // u[0..4] from words 0–3, u[4..8] from words 4–7: strands 0–3 in the low halves.
    let u: [__m256i; 8] = from_fn(|i| {
        let g = 4 * (i / 4);
        let (lo, hi) = (t[g + (i % 4) / 2], t[g + 2 + (i % 4) / 2]);
        if i % 2 == 0 {
            _mm256_unpacklo_epi64(lo, hi)
        } else {
            _mm256_unpackhi_epi64(lo, hi)
        }
    });
    for j in 0..4 {
        let low = _mm256_permute2x128_si256::<0x20>(u[j], u[4 + j]);
        let high = _mm256_permute2x128_si256::<0x31>(u[j], u[4 + j]);
        // A vertex is 32 bytes: one store each.
        // SAFETY: the assert above keeps both vertices inside `out`.
        #[allow(unsafe_code)]
        unsafe {
            _mm256_storeu_si256(out[j * per_strand + v].as_mut_ptr().cast(), low);
            _mm256_storeu_si256(out[(4 + j) * per_strand + v].as_mut_ptr().cast(), high);
        }
    }
}
