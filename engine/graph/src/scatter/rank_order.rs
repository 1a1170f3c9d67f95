//! The survivors' rank sort: a radix sort on their ranks' 24 bits, one byte at a time.
//! The leading byte deals all the survivors into 256 buckets on every core at once
//! (`tuft_strands::buckets::deal_walks`, the runs walked in parts);
//! each bucket (about 1,300 survivors at the sphere benchmark's 345,000) is then sorted
//! by its other two bytes alone, in cache, least significant first.
//!
//! Only the survivors' 8-byte keys move: a survivor's root and clump are read from the
//! candidates' arrays by its key's index as the last pass writes it, in place of moving
//! 24-byte survivors through all three passes (BENCHMARKS.md, Scatter).

use super::{RUN, Survivor};
use rayon::prelude::*;
use std::mem::MaybeUninit;

/// Values of one digit (a byte): the buckets of a pass.
const RADIX: usize = 256;

/// The most parts the leading pass splits the survivors into: each part counts its own
/// digits, so the pass holds `parts × RADIX` counts.
const MAX_PARTS: usize = 16;

/// Ranks are multiples of one step in 2²⁴.
const RANK_STEPS: f32 = 16_777_216.0;

/// A survivor's sort key: its rank's 24 bits over its candidate index. A rank is a
/// [`unit_f32`](tuft_strands::hash::unit_f32) number, a whole multiple of 2⁻²⁴ below 1,
/// so the bits are exact and order like the ranks; the index breaks ties.
#[inline]
pub(super) fn key(rank: f32, index: usize) -> u64 {
    ((rank * RANK_STEPS) as u64) << 32 | index as u64
}

/// The rank a [`key`] was made from.
#[inline]
pub(super) fn rank(key: u64) -> f32 {
    (key >> 32) as u32 as f32 * (1.0 / RANK_STEPS)
}

/// Byte `b` of a key's rank bits (0 the least significant).
#[inline]
fn byte(key: u64, b: u32) -> usize {
    (key >> (32 + 8 * b)) as usize & (RADIX - 1)
}

/// The survivors of `runs` runs sorted by key, where `run(r, keys)` writes run `r`'s
/// survivors' keys at the front of `keys` and says how many, and `survivor` makes a
/// survivor of its key. Each run lists its survivors in candidate order and the runs
/// follow one another, so they arrive in index order; every pass keeps the order of
/// equal digits, so survivors of equal rank stay in index order and the result is the
/// order of the keys as integers.
///
/// Only the 8-byte keys are sorted; each survivor is made as the last pass writes it.
/// Each run's keys are made twice, in cache, rather than kept: once to count their
/// leading bytes and once to deal them.
pub(super) fn sorted(
    runs: usize,
    run: impl Fn(usize, &mut [u64; RUN]) -> usize + Sync,
    survivor: impl Fn(u64) -> Survivor + Sync,
) -> Vec<Survivor> {
    // Runs side by side in at most `MAX_PARTS` parts, each walked by one core.
    let per_part = runs.div_ceil(MAX_PARTS).max(1);
    let parts: Vec<std::ops::Range<usize>> = (0..runs)
        .step_by(per_part)
        .map(|first| first..(first + per_part).min(runs))
        .collect();
    let (start, leading) =
        tuft_strands::buckets::deal_walks(&Runs { parts, run }, RADIX, |&k| byte(k, 2));
    // Each bucket sorted by its two other bytes, into its own part of the result.
    let n = leading.len();
    let mut out = Vec::with_capacity(n);
    let mut buckets = Vec::with_capacity(RADIX);
    let (mut from, mut rest) = (&leading[..], &mut out.spare_capacity_mut()[..n]);
    for w in start.windows(2) {
        let size = (w[1] - w[0]) as usize;
        let (bucket, tail) = from.split_at(size);
        let (part, rest_tail) = std::mem::take(&mut rest).split_at_mut(size);
        buckets.push((bucket, part));
        (from, rest) = (tail, rest_tail);
    }
    buckets
        .into_par_iter()
        .for_each_with(Vec::new(), |scratch, (bucket, part)| {
            sort_bucket(bucket, scratch, part, &survivor);
        });
    // SAFETY: the parts cover the first `n` places, and `sort_bucket` wrote each whole.
    #[allow(unsafe_code)]
    unsafe {
        out.set_len(n);
    }
    out
}

/// One bucket of the leading pass sorted into `part` by its rank's two other bytes,
/// least significant first, through `scratch`: both bytes counted in one walk, then
/// two deals, the second making each survivor of its key.
///
/// # Panics
/// Unless `part` is exactly as long as `bucket`: every place of it is written.
fn sort_bucket(
    bucket: &[u64],
    scratch: &mut Vec<u64>,
    part: &mut [MaybeUninit<Survivor>],
    survivor: impl Fn(u64) -> Survivor,
) {
    assert_eq!(part.len(), bucket.len(), "a bucket fills its part");
    let mut counts = [[0usize; RADIX]; 2];
    for &k in bucket {
        counts[0][byte(k, 0)] += 1;
        counts[1][byte(k, 1)] += 1;
    }
    // Each count becomes where its byte's run starts.
    let [mut low, mut middle] = counts.map(|count| {
        let mut start = [0; RADIX];
        for d in 1..RADIX {
            start[d] = start[d - 1] + count[d - 1];
        }
        start
    });
    scratch.clear();
    scratch.resize(bucket.len(), 0);
    for &k in bucket {
        let d = byte(k, 0);
        scratch[low[d]] = k;
        low[d] += 1;
    }
    for &k in scratch.iter() {
        let d = byte(k, 1);
        part[middle[d]].write(survivor(k));
        middle[d] += 1;
    }
}

/// The runs in parts (ranges of runs, in order) for the leading pass, and how a run's
/// keys are made.
struct Runs<F> {
    parts: Vec<std::ops::Range<usize>>,
    run: F,
}

impl<F: Fn(usize, &mut [u64; RUN]) -> usize + Sync> tuft_strands::buckets::PartWalk for Runs<F> {
    type Item = u64;

    fn parts(&self) -> usize {
        self.parts.len()
    }

    fn walk(&self, part: usize, mut f: impl FnMut(u64)) {
        let mut keys = [0u64; RUN];
        for r in self.parts[part].clone() {
            let len = (self.run)(r, &mut keys);
            keys[..len].iter().copied().for_each(&mut f);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scatter::{BELOW_ONE, Streams, channel};

    #[test]
    fn a_key_keeps_its_rank_and_index_to_the_bit() {
        let streams = Streams::of(3);
        for i in (0..5000).chain([u32::MAX as usize]) {
            let r = streams.unit(i, channel::RANK);
            let k = key(r, i);
            assert_eq!(rank(k).to_bits(), r.to_bits());
            assert_eq!(k as u32 as usize, i);
        }
        assert_eq!(rank(key(BELOW_ONE, 7)), BELOW_ONE);
        assert!(key(0.5, 9) < key(0.5 + f32::EPSILON / 2.0, 0));
    }

    #[test]
    fn the_radix_sort_is_the_sort_by_key() {
        let streams = Streams::of(5);
        for n in [0, 1, 31, 1000, 100_000] {
            let survivors: Vec<Survivor> = (0..n)
                .map(|i| {
                    // Every seventh rank repeats its neighbour's, and a few sit at the
                    // ends of the range, so ties and both ends of each byte are met.
                    let r = match i % 97 {
                        0 => 0.0,
                        1 => BELOW_ONE,
                        _ => streams.unit(i - usize::from(i % 7 == 0), channel::RANK),
                    };
                    Survivor {
                        key: key(r, i),
                        root: [i as f32, 0.0],
                        clump: i as u32,
                    }
                })
                .collect();
            // In runs as the scatter makes them, empty ones among them; each survivor
            // made again of its key's index, as the scatter makes it of the candidates.
            let runs: Vec<&[Survivor]> = survivors.chunks(RUN).flat_map(|run| [run, &[]]).collect();
            let run = |r: usize, keys: &mut [u64; RUN]| {
                for (key, s) in keys.iter_mut().zip(runs[r]) {
                    *key = s.key;
                }
                runs[r].len()
            };
            let survivor = |key: u64| survivors[key as u32 as usize];
            let mut want = survivors.clone();
            want.sort_unstable_by_key(|s| s.key);
            let fields = |v: &[Survivor]| -> Vec<(u64, u32, u32)> {
                v.iter()
                    .map(|s| (s.key, s.root[0].to_bits(), s.clump))
                    .collect()
            };
            assert_eq!(
                fields(&sorted(runs.len(), run, survivor)),
                fields(&want),
                "{n} survivors"
            );
        }
    }
}
