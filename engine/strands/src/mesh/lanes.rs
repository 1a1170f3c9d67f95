//! Ribbons meshed eight strands at a time, for CPUs with AVX2 and F16C.
//!
//! Each step of [`super::ribbon_body`] (the centreline, the facing, the normal, the
//! octahedral packing, the quantised positions) runs as a loop over eight strands'
//! arrays, which the compiler turns into one vector instruction per operation. Every
//! lane does the scalar path's operations in its order (no fused multiply-adds, the
//! same selects where it branches), so the bytes are the scalar path's: tested against
//! it in `tests.rs`. Strands with curl or frizz (whose centreline calls sines per point)
//! stay on the scalar path.

use super::packed::{Quantiser, rank_bits, unit_bits};
use super::{MAX_POINTS, PackedVertex, Shape};
use crate::placement::Planted;
use crate::shape::facing;
use std::array::from_fn;
use std::mem::MaybeUninit;

/// Strands meshed together.
pub(super) const LANES: usize = 8;

type Lane = [f32; LANES];

/// `f` applied lane by lane (a plain loop: every step of the kernel inlines into it, and
/// the compiler makes each one vector instruction).
#[inline(always)]
fn each<T: Copy + Default>(f: impl Fn(usize) -> T) -> [T; LANES] {
    let mut out = [T::default(); LANES];
    for (j, o) in out.iter_mut().enumerate() {
        *o = f(j);
    }
    out
}

/// [`each`] for floats.
#[inline(always)]
fn map(f: impl Fn(usize) -> f32) -> Lane {
    each(f)
}

/// [`each`] for each of three axes.
#[inline(always)]
fn map3(f: impl Fn(usize, usize) -> f32) -> [Lane; 3] {
    [map(|j| f(0, j)), map(|j| f(1, j)), map(|j| f(2, j))]
}

/// Eight floats as half floats, with one F16C instruction (the rounding of
/// [`super::f16x4`]).
#[target_feature(enable = "avx2,f16c")]
fn f16x8(x: Lane) -> [u16; LANES] {
    use std::arch::x86_64::{
        _MM_FROUND_TO_NEAREST_INT, _mm_storeu_si128, _mm256_cvtps_ph, _mm256_loadu_ps,
    };
    let mut out = [0u16; LANES];
    // SAFETY: both pointers address eight elements of their arrays.
    #[allow(unsafe_code)]
    unsafe {
        let h = _mm256_cvtps_ph::<_MM_FROUND_TO_NEAREST_INT>(_mm256_loadu_ps(x.as_ptr()));
        _mm_storeu_si128(out.as_mut_ptr().cast(), h);
    }
    out
}

/// [`super::packed::oct_encode`] lane by lane: the normal divided by its own L1 size,
/// the lower half folded over, each coordinate as a 16-bit signed fraction (its bits).
#[target_feature(enable = "avx2")]
#[inline]
fn oct_encode(n: [Lane; 3]) -> [[u16; LANES]; 2] {
    let [x, y, z] = n;
    let l1 = map(|j| x[j].abs() + y[j].abs() + z[j].abs());
    let valid: [bool; LANES] = each(|j| l1[j] > 0.0 && l1[j].is_finite());
    let (x, y, z) = (
        map(|j| x[j] / l1[j]),
        map(|j| y[j] / l1[j]),
        map(|j| z[j] / l1[j]),
    );
    let sign = |v: f32| if v >= 0.0 { 1.0 } else { -1.0 };
    let ex = map(|j| {
        if z[j] >= 0.0 {
            x[j]
        } else {
            (1.0 - y[j].abs()) * sign(x[j])
        }
    });
    let ey = map(|j| {
        if z[j] >= 0.0 {
            y[j]
        } else {
            (1.0 - x[j].abs()) * sign(y[j])
        }
    });
    let q = |e: Lane| -> [u16; LANES] {
        let q = nearest_u16x8(map(|j| e[j].clamp(-1.0, 1.0) * 32_767.0 + 32_767.0));
        each(|j| {
            if valid[j] {
                (q[j] as i32 - 32_767) as i16 as u16
            } else {
                0
            }
        })
    };
    [q(ex), q(ey)]
}

/// Meshes eight strands as ribbons of `points` points onto the end of `mesh`, exactly as
/// [`super::ribbon_body`] meshes each (every strand [`plain`]); `pattern` is the eight
/// strands' indices, counted from the first one's first vertex.
#[target_feature(enable = "avx2,f16c")]
pub(super) fn ribbons(
    mesh: &mut super::TileMesh,
    q: &Quantiser,
    planted: &[Planted; LANES],
    shapes: &[Shape; LANES],
    points: usize,
    pattern: &[u32],
) {
    let p = |f: fn(&Planted) -> glam::Vec3| -> [Lane; 3] {
        let v: [glam::Vec3; LANES] = each(|j| f(&planted[j]));
        [map(|j| v[j].x), map(|j| v[j].y), map(|j| v[j].z)]
    };
    let (pos, tan, bit, nor) = (
        p(|p| p.position),
        p(|p| p.tangent),
        p(|p| p.bitangent),
        p(|p| p.normal),
    );
    // The root's frame applied to (x, y, z), as `super::build_with_on`'s `frame`.
    let frame = |c: usize, x: &Lane, y: &Lane, z: &Lane| -> Lane {
        map(|j| tan[c][j] * x[j] + bit[c][j] * y[j] + nor[c][j] * z[j])
    };

    // The centreline ([`crate::shape::Curve::new`] and `at`).
    let rx = map(|j| shapes[j].reach.x);
    let ry = map(|j| shapes[j].reach.y);
    let length = map(|j| shapes[j].length);
    let height = map(|j| {
        (length[j] * length[j] - (rx[j] * rx[j] + ry[j] * ry[j]))
            .max(0.0)
            .sqrt()
    });
    let bend = map(|j| shapes[j].bend.clamp(0.0, 1.0));
    let last = (points - 1) as f32;
    let mut centre = [[[0.0f32; LANES]; 3]; MAX_POINTS];
    for (k, c) in centre[..points].iter_mut().enumerate() {
        let t = k as f32 / last;
        let s = 1.0 - t;
        let across = map(|j| t * (1.0 - bend[j] + bend[j] * t));
        let (hx, hy) = (map(|j| rx[j] * across[j]), map(|j| ry[j] * across[j]));
        let vz = map(|j| height[j] * (1.0 - s * (1.0 - bend[j] + bend[j] * s)));
        for (axis, out) in c.iter_mut().enumerate() {
            let f = frame(axis, &hx, &hy, &vz);
            *out = map(|j| pos[axis][j] + f[j]);
        }
    }

    // The facing ([`facing`]: across the reach; an upright strand's own way, scalar).
    let reach2 = map(|j| rx[j] * rx[j] + ry[j] * ry[j]);
    let recip = map(|j| 1.0 / reach2[j].sqrt());
    let mut fx = map(|j| -ry[j] * recip[j]);
    let mut fy = map(|j| rx[j] * recip[j]);
    for j in 0..LANES {
        if reach2[j] > 1e-12 {
            continue;
        }
        let f = facing(shapes[j].reach, shapes[j].id);
        (fx[j], fy[j]) = (f.x, f.y);
    }
    let zero = [0.0; LANES];
    let side = [0, 1, 2].map(|c| frame(c, &fx, &fy, &zero));
    let rcp = map(|j| {
        1.0 / (side[0][j] * side[0][j] + side[1][j] * side[1][j] + side[2][j] * side[2][j]).sqrt()
    });
    let usable: [bool; LANES] = each(|j| rcp[j].is_finite() && rcp[j] > 0.0);
    let side = map3(|c, j| {
        if usable[j] {
            side[c][j] * rcp[j]
        } else {
            tan[c][j]
        }
    });

    // The eight strands' vertices are written straight into the buffer's spare room.
    let per_strand = 2 * points;
    let start = mesh.vertices.len();
    mesh.vertices.reserve(LANES * per_strand);
    let out = &mut mesh.vertices.spare_capacity_mut()[..LANES * per_strand];
    let rank: [u32; LANES] = each(|j| u32::from(rank_bits(shapes[j].rank)) << 16);
    // A taper's power is a library call: made only for the strands whose taper has one
    // (a vectorised loop would make it for every lane).
    let powered = shapes.iter().any(|s| s.groom.taper[1] != 1.0);
    for k in 0..points {
        let t = k as f32 / last;
        let tt = t.clamp(0.0, 1.0);
        let mut along = [tt; LANES];
        if powered {
            for (a, s) in along.iter_mut().zip(shapes) {
                let exponent = s.groom.taper[1];
                if exponent != 1.0 {
                    *a = tt.powf(exponent);
                }
            }
        }
        let half = map(|j| {
            let tip = shapes[j].groom.taper[0];
            0.5 * (shapes[j].width * (1.0 - (1.0 - tip) * along[j]))
        });
        let (a, b) = if k + 1 < points {
            (k + 1, k)
        } else {
            (k, k - 1)
        };
        let d = map3(|c, j| centre[a][c][j] - centre[b][c][j]);
        let d2 = map(|j| d[0][j] * d[0][j] + d[1][j] * d[1][j] + d[2][j] * d[2][j]);
        let along = map3(|c, j| if d2[j] > 1e-24 { d[c][j] } else { nor[c][j] });
        let [sx, sy, sz] = &side;
        let [ax, ay, az] = &along;
        let normal = [
            map(|j| sy[j] * az[j] - ay[j] * sz[j]),
            map(|j| sz[j] * ax[j] - az[j] * sx[j]),
            map(|j| sx[j] * ay[j] - ax[j] * sy[j]),
        ];
        let n2 = map(|j| {
            normal[0][j] * normal[0][j] + normal[1][j] * normal[1][j] + normal[2][j] * normal[2][j]
        });
        let a2 = map(|j| ax[j] * ax[j] + ay[j] * ay[j] + az[j] * az[j]);
        let normal = map3(|c, j| {
            if n2[j] > 1e-12 * a2[j] {
                normal[c][j]
            } else {
                nor[c][j]
            }
        });
        let [o0, o1] = oct_encode(normal);
        let across = map3(|c, j| side[c][j] * half[j]);
        let halves = [f16x8(across[0]), f16x8(across[1]), f16x8(across[2])];
        // Each side's position as 16-bit fractions of the frame (`Quantiser::position`).
        let c = &centre[k];
        let ends = [
            [
                nearest_u16x8(framed(q, 0, &c[0], &across[0], false)),
                nearest_u16x8(framed(q, 1, &c[1], &across[1], false)),
                nearest_u16x8(framed(q, 2, &c[2], &across[2], false)),
            ],
            [
                nearest_u16x8(framed(q, 0, &c[0], &across[0], true)),
                nearest_u16x8(framed(q, 1, &c[1], &across[1], true)),
                nearest_u16x8(framed(q, 2, &c[2], &across[2], true)),
            ],
        ];
        let color = [
            f16x8(tint(shapes, 0, t)),
            f16x8(tint(shapes, 1, t)),
            f16x8(tint(shapes, 2, t)),
        ];
        let wind = u32::from(f16x8([t * t; LANES])[0]) << 16;
        let one = u32::from(f16x8([1.0; LANES])[0]) << 16;
        let pair = |lo: &[u16; LANES], hi: &[u16; LANES]| -> [u32; LANES] {
            each(|j| u32::from(lo[j]) | u32::from(hi[j]) << 16)
        };
        let along_bits = u32::from(unit_bits(t));
        let right = [
            each(|j| ends[1][0][j] | ends[1][1][j] << 16),
            each(|j| ends[1][2][j] | rank[j]),
            pair(&halves[0], &halves[1]),
            each(|j| u32::from(halves[2][j]) | wind),
            pair(&o0, &o1),
            [along_bits | 0xffff_0000; LANES],
            pair(&color[0], &color[1]),
            each(|j| u32::from(color[2][j]) | one),
        ];
        // The left side: its own position, the offset's signs flipped (exact), `around` 0.
        let mut left = right;
        left[0] = each(|j| ends[0][0][j] | ends[0][1][j] << 16);
        left[1] = each(|j| ends[0][2][j] | rank[j]);
        left[2] = right[2].map(|w| w ^ 0x8000_8000);
        left[3] = right[3].map(|w| w ^ 0x8000);
        left[5] = [along_bits; LANES];
        transpose_into(&left, out, per_strand, 2 * k);
        transpose_into(&right, out, per_strand, 2 * k + 1);
    }
    // SAFETY: the loop above wrote vertices 2k and 2k + 1 of every strand for every
    // point k: all `LANES × per_strand` after `start`.
    #[allow(unsafe_code)]
    unsafe {
        mesh.vertices.set_len(start + LANES * per_strand);
    }
    mesh.ranks.extend(shapes.iter().map(|s| s.rank));
    let base = start as u32;
    mesh.indices.extend(pattern.iter().map(|&i| base + i));
}

/// Axis `c` of a ribbon's side (`centre ± across`) in the quantiser's steps.
#[inline(always)]
fn framed(q: &Quantiser, c: usize, centre: &Lane, across: &Lane, right: bool) -> Lane {
    map(|j| {
        let at = if right {
            centre[j] + across[j]
        } else {
            centre[j] - across[j]
        };
        (at - q.origin[c]) * q.scale[c]
    })
}

/// Channel `c` of the eight strands' colours at `t` (`Shape::color_at`).
#[inline(always)]
fn tint(shapes: &[Shape; LANES], c: usize, t: f32) -> Lane {
    map(|j| {
        let (r, tip) = (shapes[j].root_color[c], shapes[j].tip_color[c]);
        r + (tip - r) * t
    })
}

/// [`crate::num::nearest_u16`] of eight floats, each in the low half of its word: the clamp and the
/// half added in lanes, then truncated (a NaN, which the scalar clamp keeps and the
/// lanes' `max` replaces by zero, comes out 0 either way).
#[target_feature(enable = "avx2")]
fn nearest_u16x8(x: Lane) -> [u32; LANES] {
    use std::arch::x86_64::{
        _mm256_add_ps, _mm256_cvttps_epi32, _mm256_loadu_ps, _mm256_max_ps, _mm256_min_ps,
        _mm256_set1_ps, _mm256_setzero_ps, _mm256_storeu_si256,
    };
    let mut out = [0u32; LANES];
    // SAFETY: both pointers address eight elements of their arrays.
    #[allow(unsafe_code)]
    unsafe {
        let v = _mm256_loadu_ps(x.as_ptr());
        let v = _mm256_min_ps(
            _mm256_max_ps(v, _mm256_setzero_ps()),
            _mm256_set1_ps(65_535.0),
        );
        let v = _mm256_cvttps_epi32(_mm256_add_ps(v, _mm256_set1_ps(0.5)));
        _mm256_storeu_si256(out.as_mut_ptr().cast(), v);
    }
    out
}

/// Writes vertex `v` of each of the eight strands into `out`, strand `j`'s at
/// `j × per_strand + v`: `words[w][j]` is word `w` of strand `j`'s vertex (an 8 × 8
/// transpose of 32-bit words).
#[target_feature(enable = "avx2")]
fn transpose_into(
    words: &[[u32; LANES]; 8],
    out: &mut [MaybeUninit<PackedVertex>],
    per_strand: usize,
    v: usize,
) {
    assert!(v < per_strand && out.len() >= LANES * per_strand);
    use std::arch::x86_64::{
        __m256i, _mm256_loadu_si256, _mm256_permute2x128_si256, _mm256_storeu_si256,
        _mm256_unpackhi_epi32, _mm256_unpackhi_epi64, _mm256_unpacklo_epi32, _mm256_unpacklo_epi64,
    };
    // SAFETY: every pointer addresses eight words of its array.
    #[allow(unsafe_code)]
    unsafe {
        let r: [__m256i; 8] = from_fn(|w| _mm256_loadu_si256(words[w].as_ptr().cast()));
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
            _mm256_storeu_si256(out[j * per_strand + v].as_mut_ptr().cast(), low);
            _mm256_storeu_si256(out[(4 + j) * per_strand + v].as_mut_ptr().cast(), high);
        }
    }
}
