//! Eight `f32` lanes in AVX instructions, for the kernels that work on eight strands at
//! once (meshing ribbons, framing roots). Each operation is one instruction and none is
//! fused, so a lane computes exactly what the scalar code it mirrors computes, written
//! in the same order.

use std::arch::x86_64::{
    __m128i, __m256, __m256i, _CMP_GE_OQ, _CMP_GT_OQ, _CMP_LT_OQ, _MM_FROUND_TO_NEAREST_INT,
    _mm256_add_ps, _mm256_and_ps, _mm256_andnot_ps, _mm256_blendv_ps, _mm256_castps_si256,
    _mm256_cmp_ps, _mm256_cvtps_ph, _mm256_cvttps_epi32, _mm256_div_ps, _mm256_loadu_ps,
    _mm256_max_ps, _mm256_min_ps, _mm256_movemask_ps, _mm256_mul_ps, _mm256_set1_ps,
    _mm256_sqrt_ps, _mm256_storeu_ps, _mm256_sub_ps, _mm256_xor_ps,
};

/// Lanes: how many strands a kernel works on at once.
pub(crate) const LANES: usize = 8;

type Lane = [f32; LANES];

/// `f` applied lane by lane: gathers from the records.
#[inline(always)]
pub(crate) fn each<T: Copy + Default>(f: impl Fn(usize) -> T) -> [T; LANES] {
    let mut out = [T::default(); LANES];
    for (j, o) in out.iter_mut().enumerate() {
        *o = f(j);
    }
    out
}

/// Eight floats, one strand's in each lane; each operation is one instruction.
#[derive(Clone, Copy)]
pub(crate) struct F8(pub(crate) __m256);

/// Eight lanes' answers to a comparison: all ones where true.
#[derive(Clone, Copy)]
pub(crate) struct Mask(pub(crate) __m256);

impl F8 {
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(crate) fn splat(x: f32) -> Self {
        Self(_mm256_set1_ps(x))
    }

    /// Lane `j` is `f(j)`.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(crate) fn of(f: impl Fn(usize) -> f32) -> Self {
        let x: Lane = each(f);
        // SAFETY: the pointer addresses the array's eight floats.
        #[allow(unsafe_code)]
        Self(unsafe { _mm256_loadu_ps(x.as_ptr()) })
    }

    #[inline]
    #[target_feature(enable = "avx2")]
    pub(crate) fn lanes(self) -> Lane {
        let mut out = [0.0; LANES];
        // SAFETY: the pointer addresses the array's eight floats.
        #[allow(unsafe_code)]
        unsafe {
            _mm256_storeu_ps(out.as_mut_ptr(), self.0);
        }
        out
    }

    #[inline]
    #[target_feature(enable = "avx2")]
    pub(crate) fn add(self, o: Self) -> Self {
        Self(_mm256_add_ps(self.0, o.0))
    }

    #[inline]
    #[target_feature(enable = "avx2")]
    pub(crate) fn sub(self, o: Self) -> Self {
        Self(_mm256_sub_ps(self.0, o.0))
    }

    #[inline]
    #[target_feature(enable = "avx2")]
    pub(crate) fn mul(self, o: Self) -> Self {
        Self(_mm256_mul_ps(self.0, o.0))
    }

    #[inline]
    #[target_feature(enable = "avx2")]
    pub(crate) fn div(self, o: Self) -> Self {
        Self(_mm256_div_ps(self.0, o.0))
    }

    #[inline]
    #[target_feature(enable = "avx2")]
    pub(crate) fn sqrt(self) -> Self {
        Self(_mm256_sqrt_ps(self.0))
    }

    /// `-self`: the sign bit flipped (a zero's too).
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(crate) fn neg(self) -> Self {
        Self(_mm256_xor_ps(self.0, _mm256_set1_ps(-0.0)))
    }

    /// `f32::abs`: the sign bit cleared.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(crate) fn abs(self) -> Self {
        Self(_mm256_andnot_ps(_mm256_set1_ps(-0.0), self.0))
    }

    /// `f32::max(self, 0.0)`: a NaN lane gives 0, as `maxps` gives its second operand.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(crate) fn max0(self) -> Self {
        Self(_mm256_max_ps(self.0, _mm256_set1_ps(0.0)))
    }

    /// `f32::clamp(self, lo, hi)` as written in the scalar path: a NaN lane stays NaN.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(crate) fn clamp(self, lo: f32, hi: f32) -> Self {
        let (lo, hi) = (Self::splat(lo), Self::splat(hi));
        let x = Self::select(self.lt(lo), lo, self);
        Self::select(x.gt(hi), hi, x)
    }

    #[inline]
    #[target_feature(enable = "avx2")]
    pub(crate) fn gt(self, o: Self) -> Mask {
        Mask(_mm256_cmp_ps::<_CMP_GT_OQ>(self.0, o.0))
    }

    #[inline]
    #[target_feature(enable = "avx2")]
    pub(crate) fn ge(self, o: Self) -> Mask {
        Mask(_mm256_cmp_ps::<_CMP_GE_OQ>(self.0, o.0))
    }

    #[inline]
    #[target_feature(enable = "avx2")]
    pub(crate) fn lt(self, o: Self) -> Mask {
        Mask(_mm256_cmp_ps::<_CMP_LT_OQ>(self.0, o.0))
    }

    /// `a` where `m` holds, `b` elsewhere.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(crate) fn select(m: Mask, a: Self, b: Self) -> Self {
        Self(_mm256_blendv_ps(b.0, a.0, m.0))
    }

    /// Positive, finite lanes: `x > 0 && x.is_finite()`.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(crate) fn positive_finite(self) -> Mask {
        self.gt(Self::splat(0.0))
            .and(self.lt(Self::splat(f32::INFINITY)))
    }

    /// As half floats, each in the low half of a 16-bit lane (F16C's rounding, that of
    /// [`super::f16x4`]).
    #[inline]
    #[target_feature(enable = "avx2,f16c")]
    pub(crate) fn f16(self) -> __m128i {
        _mm256_cvtps_ph::<_MM_FROUND_TO_NEAREST_INT>(self.0)
    }

    /// [`crate::num::nearest_u16`] in each 32-bit lane: the clamp and the half added,
    /// then truncated (a NaN, which the scalar clamp keeps and `maxps` replaces by zero,
    /// comes out 0 either way).
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(crate) fn nearest_u16(self) -> __m256i {
        let v = _mm256_min_ps(self.max0().0, _mm256_set1_ps(65_535.0));
        _mm256_cvttps_epi32(_mm256_add_ps(v, _mm256_set1_ps(0.5)))
    }
}

impl Mask {
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(crate) fn and(self, o: Self) -> Self {
        Self(_mm256_and_ps(self.0, o.0))
    }

    /// Bit `j` set where lane `j` holds.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(crate) fn bitmask(self) -> u32 {
        _mm256_movemask_ps(self.0) as u32
    }

    #[inline]
    #[target_feature(enable = "avx2")]
    pub(crate) fn bits(self) -> __m256i {
        _mm256_castps_si256(self.0)
    }
}

/// A point or direction of eight strands.
pub(crate) type V8 = [F8; 3];

/// `a · a`, summed in the scalar path's order.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn length_squared(a: V8) -> F8 {
    a[0].mul(a[0]).add(a[1].mul(a[1])).add(a[2].mul(a[2]))
}

/// `a` where `m` holds, `b` elsewhere, on each axis.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn select3(m: Mask, a: V8, b: V8) -> V8 {
    [
        F8::select(m, a[0], b[0]),
        F8::select(m, a[1], b[1]),
        F8::select(m, a[2], b[2]),
    ]
}
