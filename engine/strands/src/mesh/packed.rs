//! The strand vertex as a tile stores and a GPU draws it: 32 bytes.
//!
//! Meshing computes each vertex in floats ([`StrandVertex`]) and stores it packed
//! ([`PackedVertex`]): the position as 16-bit integers over its tile's [`Frame`], the
//! offset across the strand, the wind weight and the colour as half floats, the normal
//! as an octahedral pair of 16-bit integers, the texture coordinates and the rank as
//! 16-bit fractions. Half the bytes of the floats are meshed, uploaded and read per
//! drawn vertex; the shaders decode exactly what [`PackedVertex::unpack`] does.

use super::StrandVertex;
use crate::num::nearest_u16;
use bytemuck::{Pod, Zeroable};
use glam::{Vec2, Vec3};

/// The largest 16-bit position step, as a fraction of the frame's extent.
const STEPS: f32 = 65_535.0;

/// The box a tile's packed positions are fractions of: `origin + q / 65535 · extent`
/// for each 16-bit `q`. A position is within half a step of what was packed,
/// `extent / 131070` on each axis (0.008 mm over a metre).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Frame {
    /// The box's low corner, metres.
    pub origin: [f32; 3],
    /// The box's size on each axis, metres (never below a micrometre).
    pub extent: [f32; 3],
}

impl Frame {
    /// The box from `lo` to `hi` grown by `margin` on every side.
    #[must_use]
    pub fn around(lo: Vec3, hi: Vec3, margin: f32) -> Self {
        let margin = if margin.is_finite() {
            margin.max(0.0)
        } else {
            0.0
        };
        let (lo, hi) = (lo - Vec3::splat(margin), hi + Vec3::splat(margin));
        let finite = lo.is_finite() && hi.is_finite() && hi.cmpge(lo).all();
        let (lo, hi) = if finite {
            (lo, hi)
        } else {
            (Vec3::ZERO, Vec3::ZERO)
        };
        Self {
            origin: lo.to_array(),
            extent: (hi - lo).max(Vec3::splat(1e-6)).to_array(),
        }
    }

    /// The box around `points`, exactly.
    #[must_use]
    pub fn of(points: impl IntoIterator<Item = Vec3>) -> Self {
        let (lo, hi) = bounds(points);
        Self::around(lo, hi, 0.0)
    }

    /// The decoded position of `q`.
    #[must_use]
    pub fn decode(&self, q: [u16; 3]) -> Vec3 {
        Vec3::from(self.origin)
            + Vec3::new(f32::from(q[0]), f32::from(q[1]), f32::from(q[2])) / STEPS
                * Vec3::from(self.extent)
    }

    /// The largest distance a packed position may lie from the one packed, on each axis
    /// (half a step), for positions inside the box.
    #[must_use]
    pub fn tolerance(&self) -> Vec3 {
        Vec3::from(self.extent) / (2.0 * STEPS)
    }
}

/// The low and high corners of `points` (no points: low above high, which
/// [`Frame::around`] takes as an empty box).
pub(crate) fn bounds(points: impl IntoIterator<Item = Vec3>) -> (Vec3, Vec3) {
    points.into_iter().fold(
        (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY)),
        |(lo, hi), p| (lo.min(p), hi.max(p)),
    )
}

/// Packs positions into one [`Frame`]: the division done once.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Quantiser {
    pub(crate) origin: Vec3,
    pub(crate) scale: Vec3,
}

impl Quantiser {
    pub(crate) fn new(frame: &Frame) -> Self {
        Self {
            origin: Vec3::from(frame.origin),
            scale: Vec3::splat(STEPS) / Vec3::from(frame.extent).max(Vec3::splat(1e-6)),
        }
    }

    /// `p` as 16-bit fractions of the frame (clamped to the box).
    #[inline]
    pub(crate) fn position(&self, p: Vec3) -> [u16; 3] {
        let q = (p - self.origin) * self.scale;
        [nearest_u16(q.x), nearest_u16(q.y), nearest_u16(q.z)]
    }
}

/// One vertex as stored and drawn. Field order and sizes are the GPU layout
/// (`#[repr(C)]`, 32 bytes); see [`PackedVertex::unpack`] for the decoding.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Pod, Zeroable)]
pub struct PackedVertex {
    /// x, y, z as 16-bit fractions of the tile's [`Frame`]; w: the rank, `⌊rank · 65536⌋`
    /// (so a decoded rank is never above the true one and a level cut keeps its side).
    pub position: [u16; 4],
    /// The offset across as half floats (x, y, z); w: the wind weight.
    pub across: [u16; 4],
    /// The unit normal, octahedral, as two 16-bit signed fractions.
    pub normal: [i16; 2],
    /// `(along, around)` as 16-bit fractions.
    pub uv: [u16; 2],
    /// Linear RGB as half floats (a card's tint may pass 1); w: 1.
    pub color: [u16; 4],
}

impl PackedVertex {
    /// `v` packed into `frame`.
    #[must_use]
    pub fn pack(v: &StrandVertex, frame: &Frame) -> Self {
        Self::pack_with(v, &Quantiser::new(frame))
    }

    /// `v` packed by `q`.
    #[inline]
    pub(crate) fn pack_with(v: &StrandVertex, q: &Quantiser) -> Self {
        let p = q.position(Vec3::from(v.position));
        Self {
            position: [p[0], p[1], p[2], rank_bits(v.rank)],
            across: f16x4([v.across[0], v.across[1], v.across[2], v.wind]),
            normal: oct_encode(Vec3::from(v.normal)),
            uv: v.uv.map(unit_bits),
            color: color_bits(v.color),
        }
    }

    /// The vertex in floats, as the shaders decode it.
    #[must_use]
    pub fn unpack(&self, frame: &Frame) -> StrandVertex {
        let [x, y, z, rank] = self.position;
        let [ax, ay, az, wind] = self.across.map(f16_value);
        let [r, g, b, _] = self.color.map(f16_value);
        StrandVertex {
            position: frame.decode([x, y, z]).to_array(),
            across: [ax, ay, az],
            normal: oct_decode(self.normal).to_array(),
            uv: self.uv.map(|u| f32::from(u) / STEPS),
            color: [r, g, b],
            wind,
            rank: rank_value(rank),
        }
    }

    /// One side of a ribbon's centreline point stored as this vertex (a paired
    /// [`super::TileMesh`]): the right side (`right`, `around` 1) at `position + across`,
    /// the left (`around` 0) at `position − across` with its `across` reversed. The
    /// shaders draw a paired vertex's sides exactly so.
    #[must_use]
    pub fn side(&self, frame: &Frame, right: bool) -> StrandVertex {
        side_of(self.unpack(frame), right)
    }
}

/// Side `right` of `centre`, a ribbon's centreline point unpacked ([`PackedVertex::side`]).
pub(crate) fn side_of(centre: StrandVertex, right: bool) -> StrandVertex {
    let mut v = centre;
    let sign = if right { 1.0 } else { -1.0 };
    for k in 0..3 {
        v.across[k] *= sign;
        v.position[k] += v.across[k];
    }
    v.uv[1] = if right { 1.0 } else { 0.0 };
    v
}

/// A value in `[0, 1]` as a 16-bit fraction, to the nearest step.
#[inline]
pub(crate) fn unit_bits(x: f32) -> u16 {
    nearest_u16(x.clamp(0.0, 1.0) * STEPS)
}

/// A rank in `[0, 1)` as `⌊rank · 65536⌋`: never decoded above itself.
#[inline]
pub(crate) fn rank_bits(rank: f32) -> u16 {
    (rank.clamp(0.0, 1.0) * 65_536.0).min(STEPS) as u16
}

/// What [`rank_bits`] stands for (the shaders' `position.w · 65535 / 65536`).
#[must_use]
pub fn rank_value(bits: u16) -> f32 {
    f32::from(bits) / 65_536.0
}

/// A colour as half floats, 1 in the fourth place.
#[inline]
pub(crate) fn color_bits(c: [f32; 3]) -> [u16; 4] {
    f16x4([c[0], c[1], c[2], 1.0])
}

/// `x` as an IEEE half float, rounded to the nearest (ties to even); past the largest
/// half float, infinity; NaN stays NaN. Branch-light: below the smallest normal half the
/// float unit does the rounding (adding a magic number that puts the half's bits at the
/// bottom), above it an integer add of half a step, plus one where the kept bit is odd.
#[inline]
#[must_use]
pub fn f16_bits(x: f32) -> u16 {
    const INFINITY: u32 = 0xff << 23;
    const HALF_MAX: u32 = (127 + 16) << 23;
    const SUBNORMAL_MAGIC: u32 = ((127 - 15) + (23 - 10) + 1) << 23;
    let bits = x.to_bits();
    let sign = ((bits >> 16) & 0x8000) as u16;
    let f = bits & 0x7fff_ffff;
    let h = if f >= HALF_MAX {
        if f > INFINITY { 0x7e00 } else { 0x7c00 }
    } else if f < (113 << 23) {
        let magic = f32::from_bits(SUBNORMAL_MAGIC);
        (f32::from_bits(f) + magic).to_bits() - SUBNORMAL_MAGIC
    } else {
        let odd = (f >> 13) & 1;
        (f.wrapping_add((15u32.wrapping_sub(127) << 23).wrapping_add(0xfff)) + odd) >> 13
    };
    sign | h as u16
}

/// Four floats as half floats, exactly as [`f16_bits`] rounds them: one F16C
/// instruction where [`crate::simd::level`] has it (every x86-64 CPU of the last
/// decade), [`f16_bits`] four times where not. The two agree on every finite value (tested); a NaN may come
/// back with other payload bits.
#[inline]
#[must_use]
pub fn f16x4(x: [f32; 4]) -> [u16; 4] {
    #[cfg(target_arch = "x86_64")]
    if crate::simd::level() >= crate::simd::Level::Avx2 {
        // SAFETY: the level is AVX2 only where the CPU has F16C.
        #[allow(unsafe_code)]
        return unsafe { f16x4_f16c(x) };
    }
    x.map(f16_bits)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "f16c")]
fn f16x4_f16c(x: [f32; 4]) -> [u16; 4] {
    use std::arch::x86_64::{
        _MM_FROUND_TO_NEAREST_INT, _mm_cvtps_ph, _mm_loadu_ps, _mm_storel_epi64,
    };
    let mut out = [0u16; 4];
    // SAFETY: both pointers address four elements of their arrays.
    #[allow(unsafe_code)]
    unsafe {
        let h = _mm_cvtps_ph::<_MM_FROUND_TO_NEAREST_INT>(_mm_loadu_ps(x.as_ptr()));
        _mm_storel_epi64(out.as_mut_ptr().cast(), h);
    }
    out
}

/// The value of IEEE half float `h`: a normal half's bits moved into a float's (no
/// library call; level meshes unpack every vertex through it), a subnormal scaled.
#[must_use]
pub fn f16_value(h: u16) -> f32 {
    let sign = u32::from(h & 0x8000) << 16;
    let e = u32::from((h >> 10) & 0x1f);
    let m = u32::from(h & 0x3ff);
    let magnitude = match e {
        // m · 2⁻²⁴, exactly.
        0 => m as f32 * f32::from_bits((127 - 24) << 23),
        0x1f => f32::from_bits((0xff << 23) | (m << 13)),
        _ => f32::from_bits(((e + 127 - 15) << 23) | (m << 13)),
    };
    f32::from_bits(sign | magnitude.to_bits())
}

/// A direction as an octahedral pair of 16-bit signed fractions (within 0.01° of it
/// once decoded); a zero or non-finite vector packs as +z.
#[must_use]
pub fn oct_encode(n: Vec3) -> [i16; 2] {
    let l1 = n.x.abs() + n.y.abs() + n.z.abs();
    if !(l1 > 0.0 && l1.is_finite()) {
        return [0, 0];
    }
    let n = n / l1;
    let sign = |v: f32| if v >= 0.0 { 1.0 } else { -1.0 };
    let e = if n.z >= 0.0 {
        Vec2::new(n.x, n.y)
    } else {
        Vec2::new((1.0 - n.y.abs()) * sign(n.x), (1.0 - n.x.abs()) * sign(n.y))
    };
    let q =
        |v: f32| (i32::from(nearest_u16(v.clamp(-1.0, 1.0) * 32_767.0 + 32_767.0)) - 32_767) as i16;
    [q(e.x), q(e.y)]
}

/// The unit direction of an octahedral pair (`oct_decode` in the shaders).
#[must_use]
pub fn oct_decode(q: [i16; 2]) -> Vec3 {
    let e = Vec2::new(
        (f32::from(q[0]) / 32_767.0).max(-1.0),
        (f32::from(q[1]) / 32_767.0).max(-1.0),
    );
    let mut n = Vec3::new(e.x, e.y, 1.0 - e.x.abs() - e.y.abs());
    let t = (-n.z).max(0.0);
    n.x += if n.x >= 0.0 { -t } else { t };
    n.y += if n.y >= 0.0 { -t } else { t };
    n.normalize()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_packed_vertex_is_thirty_two_bytes() {
        assert_eq!(size_of::<PackedVertex>(), 32);
    }

    #[test]
    fn every_finite_half_float_round_trips_and_order_is_kept() {
        let mut last = f32::NEG_INFINITY;
        // Negative halves from the most negative up, then the positive ones.
        let order = (0x8000..=0xfbffu16).rev().chain(0..=0x7bff);
        for h in order {
            let v = f16_value(h);
            assert_eq!(f16_bits(v), h, "{h:#06x} = {v}");
            assert!(v >= last, "{h:#06x}");
            last = v;
        }
        assert_eq!(f16_bits(1e6), 0x7c00);
        assert_eq!(f16_bits(-1e6), 0xfc00);
        assert!(f16_value(f16_bits(f32::NAN)).is_nan());
        assert_eq!(f16_bits(f32::INFINITY), 0x7c00);
        assert_eq!(f16_bits(65_519.0), 0x7bff);
        assert_eq!(f16_bits(65_520.0), 0x7c00);
        assert_eq!(f16_bits(1e-9), 0);
    }

    #[test]
    fn four_at_once_round_as_one_at_a_time() {
        // Every exponent a float has, with mantissas from a fixed sequence.
        let mut state = 0x9e37_79b9u32;
        for _ in 0..200_000 {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            let x = [0, 1, 2, 3].map(|k| f32::from_bits(state.rotate_left(8 * k)));
            if x.iter().any(|v| v.is_nan()) {
                continue;
            }
            assert_eq!(f16x4(x), x.map(f16_bits), "{x:?}");
        }
        let ties = [
            f16_value(0x3c00) + f16_value(0x0001) * 1024.0 * 0.5,
            65_519.0,
            65_520.0,
            1e-9,
        ];
        assert_eq!(f16x4(ties), ties.map(f16_bits));
    }

    #[test]
    fn a_half_float_is_the_nearest_one() {
        // Every value between two neighbours goes to the nearer, ties to the even one.
        for h in [0x0001u16, 0x03ff, 0x0400, 0x3bff, 0x3c00, 0x4400, 0x7bfe] {
            let (a, b) = (f16_value(h), f16_value(h + 1));
            let mid = 0.5 * (a + b);
            assert_eq!(f16_bits(a + 0.25 * (b - a)), h);
            assert_eq!(f16_bits(a + 0.75 * (b - a)), h + 1);
            assert_eq!(
                f16_bits(mid),
                if h % 2 == 0 { h } else { h + 1 },
                "{h:#06x}"
            );
        }
    }

    #[test]
    fn octahedral_normals_come_back_within_a_hundredth_of_a_degree() {
        // The angle from the cross product: an acos of a dot this near 1 is f32 noise.
        let angle = |n: Vec3| {
            let (n, back) = (n.normalize(), oct_decode(oct_encode(n)));
            n.cross(back).length().atan2(n.dot(back)).to_degrees()
        };
        let mut worst = 0.0f32;
        for i in 0..2000 {
            let (a, b) = (i as f32 * 0.7371, i as f32 * 1.3113);
            worst = worst.max(angle(Vec3::new(
                a.cos() * b.sin(),
                a.sin() * b.sin(),
                b.cos(),
            )));
        }
        for n in [Vec3::X, -Vec3::X, Vec3::Y, -Vec3::Y, Vec3::Z, -Vec3::Z] {
            worst = worst.max(angle(n));
        }
        assert!(worst < 0.01, "{worst}");
        assert_eq!(oct_decode(oct_encode(Vec3::ZERO)), Vec3::Z);
        assert_eq!(oct_decode(oct_encode(Vec3::NAN)), Vec3::Z);
    }

    #[test]
    fn a_vertex_comes_back_within_its_steps() {
        let frame = Frame::around(Vec3::new(-0.5, 0.0, -0.5), Vec3::new(0.5, 0.0, 0.5), 0.3);
        let v = StrandVertex {
            position: [0.123_456, 0.271_828, -0.314_159],
            across: [0.001_234, -0.000_017, 0.000_5],
            normal: Vec3::new(0.3, 0.9, -0.2).normalize().to_array(),
            uv: [0.37, 1.0],
            color: [0.02, 0.5, 3.7],
            wind: 0.1369,
            rank: 0.249_999,
        };
        let back = PackedVertex::pack(&v, &frame).unpack(&frame);
        let tol = frame.tolerance();
        for k in 0..3 {
            assert!((back.position[k] - v.position[k]).abs() <= tol[k] * 1.001);
            // Half floats keep 11 significant bits.
            let rel = |a: f32, b: f32| (a - b).abs() <= b.abs() / 2048.0 + 1e-7;
            assert!(rel(back.across[k], v.across[k]), "{k}: {back:?}");
            assert!(rel(back.color[k], v.color[k]), "{k}: {back:?}");
        }
        assert!((back.wind - v.wind).abs() < 1e-4);
        assert!((back.uv[0] - v.uv[0]).abs() <= 0.5 / STEPS && back.uv[1] == 1.0);
        assert!(back.rank <= v.rank && v.rank - back.rank < 1.0 / 65_536.0);
        // A position outside the frame is held at its edge, not wrapped.
        let far = StrandVertex {
            position: [9.0, -9.0, 0.0],
            ..v
        };
        let back = PackedVertex::pack(&far, &frame).unpack(&frame);
        assert_eq!(back.position[0], frame.origin[0] + frame.extent[0]);
        assert_eq!(back.position[1], frame.origin[1]);
    }
}
