//! The candidates' random numbers, eight at a time.
//!
//! A candidate's number on a channel is `unit_f32(hash_in(stream, i))`: a SplitMix64
//! finaliser, two 64-bit multiplies. Consecutive candidates' numbers are independent, so
//! a run of them is computed as arrays the compiler turns into vector code: four lanes of
//! 64-bit multiplies with AVX2 (each pieced from 32-bit ones), one at a time on the
//! baseline. The instruction set is chosen at run time (`tuft_strands::simd::level`);
//! every path gives the scalar function's numbers to the bit (tested).

use tuft_strands::hash::{hash_in, mix64, unit_f32};
#[cfg(target_arch = "x86_64")]
use tuft_strands::simd::{Level, level};

/// How many candidates one step of the loop computes.
const LANES: usize = 8;

/// `out[k] = unit_f32(hash_in(stream, first + k))` for every `k`.
pub(super) fn units(stream: u64, first: u64, out: &mut [f32]) {
    #[cfg(target_arch = "x86_64")]
    if level() >= Level::Avx2 {
        // SAFETY: the level is AVX2 only where the CPU has AVX2.
        #[allow(unsafe_code)]
        unsafe {
            units_avx2(stream, first, out);
        }
        return;
    }
    units_portable(stream, first, out);
}

/// [`units_portable`] compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn units_avx2(stream: u64, first: u64, out: &mut [f32]) {
    units_portable(stream, first, out);
}

/// [`units`] on whatever instruction set it is compiled for.
#[inline(always)]
fn units_portable(stream: u64, first: u64, out: &mut [f32]) {
    let mut chunks = out.chunks_exact_mut(LANES);
    let mut i = first;
    for chunk in &mut chunks {
        let mut h = [0u64; LANES];
        for (k, h) in h.iter_mut().enumerate() {
            *h = mix64(i.wrapping_add(k as u64).wrapping_add(stream));
        }
        // The top 24 bits as a float: below 2^24, so the 32-bit conversion is exact and
        // equal to `unit_f32`'s (which vector units have no 64-bit form of on AVX2).
        for (o, h) in chunk.iter_mut().zip(h) {
            *o = ((h >> 40) as u32 as i32) as f32 * (1.0 / 16_777_216.0);
        }
        i = i.wrapping_add(LANES as u64);
    }
    for (k, o) in chunks.into_remainder().iter_mut().enumerate() {
        *o = unit_f32(hash_in(stream, i.wrapping_add(k as u64)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every path this CPU has, against the scalar function, at runs of every length
    /// round a lane multiple and at indices that wrap round 2^64.
    #[test]
    fn every_path_gives_the_scalar_numbers_to_the_bit() {
        type Path = fn(u64, u64, &mut [f32]);
        let mut paths: Vec<(&str, Path)> = vec![("portable", |s, f, o| units_portable(s, f, o))];
        #[cfg(target_arch = "x86_64")]
        {
            if tuft_strands::simd::detected() >= Level::Avx2 {
                // SAFETY: the CPU has AVX2 (checked above).
                #[allow(unsafe_code)]
                paths.push(("avx2", |s, f, o| unsafe { units_avx2(s, f, o) }));
            }
        }
        paths.push(("dispatched", units));
        for (stream, first) in [
            (0, 0),
            (tuft_strands::hash::stream(7, 3), 12_345),
            (u64::MAX, u64::MAX - 20),
            (0x9e37_79b9_7f4a_7c15, 1 << 40),
        ] {
            for len in [0, 1, 7, 8, 9, 63, 1000] {
                let want: Vec<f32> = (0..len)
                    .map(|k| unit_f32(hash_in(stream, first.wrapping_add(k as u64))))
                    .collect();
                for (name, path) in &paths {
                    let mut got = vec![f32::NAN; len];
                    path(stream, first, &mut got);
                    let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                    assert_eq!(bits(&got), bits(&want), "{name}: {len} from {first}");
                }
            }
        }
    }
}
