//! Roots framed eight at a time, for CPUs with AVX2.
//!
//! Each step of [`Frame::plant`] (the barycentric weights, the blended position and
//! normal, the tangent made perpendicular, the bitangent and its flip) is one AVX
//! instruction on eight roots' values ([`F8`]), each lane doing the scalar path's
//! operations in its order with no fused multiply-adds, so the bytes are the scalar
//! path's. A lane whose tangent falls back (a tangent along the normal, which glam
//! replaces by any perpendicular) is framed again by the scalar path: tested against it
//! below.

use super::{Found, Frame, Planted};
use crate::f8::{F8, LANES, V8, each, length_squared, select3};
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
}
