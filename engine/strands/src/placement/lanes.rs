//! Placement's steps on lanes, for CPUs with AVX2: roots tested against a triangle four
//! at a time, and framed eight at a time.
//!
//! A triangle's side tests ([`Owner::owns`]) take four roots' `f64` coordinates at once,
//! branch-free; a root on an edge or a corner goes through the scalar rules.
//!
//! Each step of [`Frame::plant`] (the barycentric weights, the blended position and
//! normal, the tangent made perpendicular, the bitangent and its flip) is one AVX
//! instruction on eight roots' values ([`F8`]), each lane doing the scalar path's
//! operations in its order with no fused multiply-adds, so the bytes are the scalar
//! path's. A lane whose tangent falls back (a tangent along the normal, which glam
//! replaces by any perpendicular) is framed again by the scalar path: tested against it
//! below.

use super::bins::Binned;
use super::owner::{Owner, owns, root_in};
use super::{Found, Frame, Planted};
use crate::f8::{F8, LANES, V8, each, length_squared, select3};
use std::arch::x86_64::{
    __m256d, _CMP_EQ_OQ, _CMP_LT_OQ, _mm_setr_ps, _mm256_add_pd, _mm256_cmp_pd, _mm256_cvtps_pd,
    _mm256_movemask_pd, _mm256_mul_pd, _mm256_or_pd, _mm256_set1_pd, _mm256_setzero_pd,
    _mm256_sub_pd, _mm256_xor_pd,
};
use std::array::from_fn;

/// The eight roots `found` (each naming its frame in `frames`) framed as
/// [`Frame::plant`] frames each, with their patch values, pushed onto `out`.
#[target_feature(enable = "avx2")]
pub(super) fn plant(frames: &[Frame], found: [&Found; LANES], out: &mut Vec<Planted>) {
    let frame: [&Frame; LANES] = from_fn(|j| &frames[found[j].frame as usize]);
    let corner =
        |k: usize| -> [F8; 2] { [F8::of(|j| frame[j].uv[k].x), F8::of(|j| frame[j].uv[k].y)] };
    let point = |f: fn(&Frame) -> glam::Vec3| -> V8 {
        let v: [glam::Vec3; LANES] = each(|j| f(frame[j]));
        [F8::of(|j| v[j].x), F8::of(|j| v[j].y), F8::of(|j| v[j].z)]
    };
    let (a, b, c) = (corner(0), corner(1), corner(2));
    let p = [F8::of(|j| found[j].uv.x), F8::of(|j| found[j].uv.y)];

    // The weights (`Frame::weights`: perp dots over the determinant).
    let perp = |u: [F8; 2], v: [F8; 2]| u[0].mul(v[1]).sub(u[1].mul(v[0]));
    let minus = |u: [F8; 2], v: [F8; 2]| [u[0].sub(v[0]), u[1].sub(v[1])];
    let (ba, ca, pa) = (minus(b, a), minus(c, a), minus(p, a));
    let det = perp(ba, ca);
    let w1 = perp(pa, ca).div(det);
    let w2 = perp(ba, pa).div(det);
    let w0 = F8::splat(1.0).sub(w1).sub(w2);
    let blend = |v: [V8; 3]| -> V8 {
        from_fn(|axis| {
            v[0][axis]
                .mul(w0)
                .add(v[1][axis].mul(w1))
                .add(v[2][axis].mul(w2))
        })
    };
    let position = blend([
        point(|f| f.pos[0]),
        point(|f| f.pos[1]),
        point(|f| f.pos[2]),
    ]);
    let raw_normal = blend([
        point(|f| f.nrm[0]),
        point(|f| f.nrm[1]),
        point(|f| f.nrm[2]),
    ]);

    // `normalize_or`: times the reciprocal of the length where that is positive and
    // finite, the fallback elsewhere.
    let one = F8::splat(1.0);
    let reciprocal = |v: V8| one.div(length_squared(v).sqrt());
    let rcp = reciprocal(raw_normal);
    let up = [F8::splat(0.0), one, F8::splat(0.0)];
    let normal = select3(rcp.positive_finite(), raw_normal.map(|x| x.mul(rcp)), up);
    let dot = |u: V8, v: V8| u[0].mul(v[0]).add(u[1].mul(v[1])).add(u[2].mul(v[2]));
    let dp_du = point(|f| f.dp_du);
    let along = dot(normal, dp_du);
    let raw_tangent: V8 = from_fn(|axis| dp_du[axis].sub(normal[axis].mul(along)));
    let rcp = reciprocal(raw_tangent);
    let tangent_usable = rcp.positive_finite();
    let tangent = raw_tangent.map(|x| x.mul(rcp));
    let [nx, ny, nz] = normal;
    let [tx, ty, tz] = tangent;
    let bitangent = [
        ny.mul(tz).sub(ty.mul(nz)),
        nz.mul(tx).sub(tz.mul(nx)),
        nx.mul(ty).sub(tx.mul(ny)),
    ];
    let flip = dot(bitangent, point(|f| f.dp_dv)).lt(F8::splat(0.0));
    let bitangent = select3(flip, bitangent.map(|x| x.neg()), bitangent);

    let lanes = |v: V8| v.map(|x| x.lanes());
    let (position, normal, tangent, bitangent) = (
        lanes(position),
        lanes(normal),
        lanes(tangent),
        lanes(bitangent),
    );
    let usable = tangent_usable.bitmask();
    for (j, f) in found.into_iter().enumerate() {
        if usable & (1 << j) == 0 {
            out.push(fall_back(frame[j], f));
            continue;
        }
        let vec3 = |v: &[[f32; LANES]; 3]| glam::Vec3::new(v[0][j], v[1][j], v[2][j]);
        out.push(Planted {
            strand: f.strand,
            position: vec3(&position),
            normal: vec3(&normal),
            tangent: vec3(&tangent),
            bitangent: vec3(&bitangent),
            uv: f.uv,
            triangle: frame[j].triangle,
            patch: f.patch,
        });
    }
}

/// [`Owner::each_owned`] four roots at a time: each edge's side of four roots in `f64`
/// (the scalar path's operations in its order, no fused multiply-adds), the triangle's
/// winding applied by flipping the sign bit (exact), and a root on an edge or a vertex
/// decided by the scalar rules. Returns the roots past the last whole four.
#[target_feature(enable = "avx2")]
pub(super) fn each_owned<'a>(
    owner: &Owner,
    run: &'a [Binned],
    cell: [i32; 2],
    f: &mut impl FnMut(&Binned),
) -> &'a [Binned] {
    let zero = _mm256_setzero_pd();
    // Per edge: its start, its run (`orient`'s differences, the same numbers however
    // often they are taken) and the sign that turns its side into "inside".
    let edges: [[__m256d; 5]; 3] = owner.edges.map(|(s, e, forward)| {
        [
            s.x,
            s.y,
            e.x - s.x,
            e.y - s.y,
            if forward { 0.0 } else { -0.0 },
        ]
        .map(|x| _mm256_set1_pd(x))
    });
    let corner = [f64::from(cell[0]), f64::from(cell[1])].map(|x| _mm256_set1_pd(x));
    let mut fours = run.chunks_exact(4);
    for four in &mut fours {
        let [u, v] = from_fn(|c| {
            let r = _mm_setr_ps(
                four[0].root[c],
                four[1].root[c],
                four[2].root[c],
                four[3].root[c],
            );
            _mm256_add_pd(_mm256_cvtps_pd(r), corner[c])
        });
        let (mut outside, mut on) = (zero, zero);
        for [sx, sy, dx, dy, flip] in edges {
            let side = _mm256_sub_pd(
                _mm256_mul_pd(dx, _mm256_sub_pd(v, sy)),
                _mm256_mul_pd(dy, _mm256_sub_pd(u, sx)),
            );
            let inside = _mm256_xor_pd(side, flip);
            outside = _mm256_or_pd(outside, _mm256_cmp_pd::<_CMP_LT_OQ>(inside, zero));
            on = _mm256_or_pd(on, _mm256_cmp_pd::<_CMP_EQ_OQ>(side, zero));
        }
        let (outside, on) = (_mm256_movemask_pd(outside), _mm256_movemask_pd(on));
        // The roots not outside, lowest first: a loop over the set bits, not a branch a
        // root (whether a root is inside is a coin toss the branch predictor loses).
        let mut inside = !outside & 0b1111;
        while inside != 0 {
            let j = inside.trailing_zeros() as usize;
            inside &= inside - 1;
            let item = &four[j];
            if on >> j & 1 == 0 || owns(owner.tri, root_in(item, cell)) {
                f(item);
            }
        }
    }
    fours.remainder()
}

/// A root whose tangent falls back, framed by the scalar path (which works the fallback
/// out only where it is needed).
#[cold]
#[inline(never)]
fn fall_back(frame: &Frame, f: &Found) -> Planted {
    Planted {
        patch: f.patch,
        ..frame.plant(f.strand, f.uv)
    }
}

#[cfg(test)]
mod tests {
    use super::super::owner::orient;
    use super::*;
    use crate::hash::{hash, unit_f32};
    use glam::{Vec2, Vec3};

    /// Frames of every kind the scalar path branches on, and roots inside, on and
    /// outside them: the lanes give the scalar path's bits.
    #[test]
    fn eight_roots_are_framed_as_the_scalar_path_frames_each() {
        if crate::simd::level() < crate::simd::Level::Avx2 {
            return;
        }
        let h = |k: u64, c: u32| unit_f32(hash(77, k, c)) * 2.0 - 1.0;
        let v3 = |k: u64, c: u32| Vec3::new(h(k, c), h(k, c + 1), h(k, c + 2));
        let frames: Vec<Frame> = (0..64u64)
            .map(|k| {
                let mut frame = Frame {
                    triangle: k as u32,
                    uv: [0, 2, 4].map(|c| Vec2::new(h(k, c), h(k, c + 1))),
                    pos: [10, 13, 16].map(|c| v3(k, c)),
                    nrm: [20, 23, 26].map(|c| v3(k, c)),
                    dp_du: v3(k, 30),
                    dp_dv: v3(k, 33),
                };
                match k % 8 {
                    // Normals that cancel: the normal falls back to +y.
                    1 => frame.nrm = [Vec3::X, -Vec3::X, Vec3::ZERO],
                    // A tangent along the normal: the tangent falls back.
                    2 => {
                        frame.nrm = [Vec3::Z; 3];
                        frame.dp_du = Vec3::Z * 2.0;
                    }
                    // A degenerate UV triangle: infinite or NaN weights.
                    3 => frame.uv = [Vec2::ZERO, Vec2::X, Vec2::X * 2.0],
                    // A NaN corner.
                    4 => frame.pos[1].y = f32::NAN,
                    _ => {}
                }
                frame
            })
            .collect();
        let found: Vec<Found> = (0..4000u64)
            .map(|k| Found {
                strand: k as u32,
                frame: (hash(5, k, 0) % 64) as u32,
                uv: Vec2::new(h(k, 40), h(k, 41)),
                patch: h(k, 42),
            })
            .collect();
        let bits = |p: &Planted| {
            let v = |v: Vec3| v.to_array().map(f32::to_bits);
            (
                p.strand,
                [v(p.position), v(p.normal), v(p.tangent), v(p.bitangent)],
                p.uv.to_array().map(f32::to_bits),
                p.triangle,
                p.patch.to_bits(),
            )
        };
        let mut fallbacks = 0;
        for eight in found.chunks_exact(LANES) {
            let refs: [&Found; LANES] = from_fn(|j| &eight[j]);
            // SAFETY: the level is AVX2 only where the CPU has it.
            #[allow(unsafe_code)]
            let got = {
                let mut out = Vec::new();
                unsafe { plant(&frames, refs, &mut out) };
                out
            };
            for (g, f) in got.iter().zip(eight) {
                let want = Planted {
                    patch: f.patch,
                    ..frames[f.frame as usize].plant(f.strand, f.uv)
                };
                assert_eq!(bits(g), bits(&want), "{f:?}");
                fallbacks += usize::from(want.tangent == want.normal.any_orthonormal_vector());
            }
        }
        assert!(fallbacks > 100, "{fallbacks}");
    }

    /// Roots inside, outside, on the edges and on the corners of triangles of both
    /// windings, NaN roots and roots in other repeats among them, in runs of every
    /// length mod four: the lanes keep exactly the roots the scalar test keeps.
    #[test]
    fn four_roots_are_owned_as_the_scalar_test_owns_each() {
        if crate::simd::level() < crate::simd::Level::Avx2 {
            return;
        }
        use glam::DVec2;
        let q = |i: i32| f64::from(i) * 0.125;
        let items: Vec<Binned> = (0..1000u32)
            .map(|k| {
                // On a grid of sixteenths, so edges and corners are met exactly.
                let grid = |c: u32| ((hash(3, u64::from(k), c) % 20) as f32 - 2.0) / 16.0;
                let root = match k % 50 {
                    0 => [f32::NAN, 0.5],
                    1 => [0.25, f32::NAN],
                    _ => [grid(0), grid(1)],
                };
                Binned {
                    strand: k,
                    id: k,
                    root,
                }
            })
            .collect();
        let mut kinds = [0usize; 3];
        for (a, b, c) in [
            ((0, 0), (8, 0), (0, 8)),
            ((8, 0), (0, 8), (8, 8)),
            ((1, 7), (7, 1), (4, 9)),
        ] {
            for tri in [[a, b, c], [c, b, a]] {
                let owner = Owner::new(tri.map(|(x, y)| DVec2::new(q(x), q(y))));
                for cell in [[0, 0], [1, -1]] {
                    for len in [0, 1, 2, 3, 4, 5, 999, 1000] {
                        let run = &items[..len];
                        let mut got = Vec::new();
                        // SAFETY: the level is AVX2 only where the CPU has it.
                        #[allow(unsafe_code)]
                        let rest =
                            unsafe { each_owned(&owner, run, cell, &mut |i| got.push(i.strand)) };
                        assert_eq!(rest.len(), len % 4);
                        got.extend(
                            rest.iter()
                                .filter(|i| owner.owns(root_in(i, cell)))
                                .map(|i| i.strand),
                        );
                        let want: Vec<u32> = run
                            .iter()
                            .filter(|i| owner.owns(root_in(i, cell)))
                            .map(|i| i.strand)
                            .collect();
                        assert_eq!(got, want, "{tri:?} in {cell:?}, {len} roots");
                    }
                    for i in &items {
                        let p = root_in(i, cell);
                        let strict = owner.edges.iter().all(|&(s, e, _)| orient(s, e, p) != 0.0);
                        let kind = match (owner.owns(p), strict) {
                            (false, _) => 0,
                            (true, true) => 1,
                            (true, false) => 2,
                        };
                        kinds[kind] += 1;
                    }
                }
            }
        }
        // Roots left out, roots owned strictly inside, and roots owned on an edge.
        assert!(kinds.iter().all(|&n| n > 50), "{kinds:?}");
    }
}
