//! The survivors' rank sort: dealt by their ranks' leading bits, then each bucket
//! sorted alone.

use super::Survivor;
use rayon::prelude::*;
use std::mem::MaybeUninit;

/// The rank sort of the survivors. Ranks are spread evenly over `[0, 1)`, so their
/// leading bits deal them into buckets of about 32, in order; each bucket is then
/// sorted alone, in cache: the same order as one sort by key. The deal is two-level, so
/// that every step runs on all cores and writes to few places at once: each run of
/// candidates deals its survivors into at most 256 coarse buckets; each coarse bucket
/// gathers its pieces from every run, deals them into its fine buckets and sorts those.
#[derive(Clone, Copy, Debug)]
pub(super) struct RankOrder {
    /// Coarse buckets, a power of two.
    coarse: usize,
    /// Fine buckets in each coarse one, a power of two.
    fine: usize,
}

impl RankOrder {
    /// The buckets for `n` survivors: about 32 in each fine bucket.
    pub(super) fn for_count(n: usize) -> Self {
        // A power of two, so `rank × buckets` is exact and its floor never reorders ranks.
        let buckets = (n / 32).clamp(1, 1 << 16).next_power_of_two();
        let coarse = buckets.min(256);
        Self {
            coarse,
            fine: buckets / coarse,
        }
    }

    /// `s`'s bucket among all `coarse × fine` (the floor of an exact product).
    fn bucket_of(self, s: &Survivor) -> usize {
        let buckets = self.coarse * self.fine;
        ((s.rank() * buckets as f32) as usize).min(buckets - 1)
    }

    fn coarse_of(self, s: &Survivor) -> usize {
        self.bucket_of(s) / self.fine
    }

    fn fine_of(self, s: &Survivor) -> usize {
        self.bucket_of(s) % self.fine
    }

    /// A run of survivors (in candidate order) dealt into the coarse buckets, on the
    /// calling core: where each bucket starts, and the survivors.
    pub(super) fn run(
        self,
        survivors: impl Iterator<Item = Survivor> + Clone,
    ) -> (Vec<u32>, Vec<Survivor>) {
        tuft_strands::buckets::deal(survivors, self.coarse, |s| self.coarse_of(s))
    }

    /// Every run's dealt survivors (each run's bucket starts and items), in key order.
    pub(super) fn gathered(self, runs: &[(Vec<u32>, Vec<Survivor>)]) -> Vec<Survivor> {
        let sizes: Vec<usize> = (0..self.coarse)
            .map(|b| {
                runs.iter()
                    .map(|(start, _)| (start[b + 1] - start[b]) as usize)
                    .sum()
            })
            .collect();
        // Each part is written whole by the core that sorts it, so the array is never
        // filled with defaults first (a serial pass over all of it).
        let n = sizes.iter().sum();
        let mut out = Vec::with_capacity(n);
        let mut parts: Vec<&mut [MaybeUninit<Survivor>]> = Vec::with_capacity(self.coarse);
        let mut rest = &mut out.spare_capacity_mut()[..n];
        for &size in &sizes {
            let (part, tail) = rest.split_at_mut(size);
            parts.push(part);
            rest = tail;
        }
        parts.into_par_iter().enumerate().for_each_with(
            (Vec::new(), Vec::new()),
            |(pieces, sorted), (b, part)| {
                // The pieces side by side first: the deal then walks one array twice.
                pieces.clear();
                for (start, items) in runs {
                    pieces.extend_from_slice(&items[start[b] as usize..start[b + 1] as usize]);
                }
                sorted.clear();
                sorted.resize(pieces.len(), Survivor::default());
                let starts = tuft_strands::buckets::deal_into(
                    pieces.iter().copied(),
                    self.fine,
                    |s| self.fine_of(s),
                    sorted,
                );
                for w in starts.windows(2) {
                    sorted[w[0] as usize..w[1] as usize].sort_unstable_by_key(|s| s.key);
                }
                // Panics unless the part is exactly as long: it is written whole.
                part.write_copy_of_slice(sorted);
            },
        );
        // SAFETY: the parts cover the first `n` places, and each was written whole above
        // (a part of another length would have panicked before this line).
        #[allow(unsafe_code)]
        unsafe {
            out.set_len(n);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scatter::{BELOW_ONE, RUN, Streams, channel};

    /// `survivors` (in candidate order) sorted by key, as the scatter sorts them: dealt in
    /// runs of [`RUN`], then gathered.
    fn sorted_by_rank(survivors: &[Survivor]) -> Vec<Survivor> {
        let order = RankOrder::for_count(survivors.len());
        let runs: Vec<(Vec<u32>, Vec<Survivor>)> = survivors
            .chunks(RUN)
            .map(|run| order.run(run.iter().copied()))
            .collect();
        order.gathered(&runs)
    }

    #[test]
    fn the_bucketed_rank_sort_is_the_sort_by_key() {
        let streams = Streams::of(5);
        for n in [0, 1, 31, 1000, 100_000] {
            let mut survivors: Vec<Survivor> = (0..n)
                .map(|i| {
                    // Every seventh rank repeats its neighbour's, and a few sit at the
                    // ends of the range, so ties and the last bucket are exercised.
                    let rank = match i % 97 {
                        0 => 0.0,
                        1 => BELOW_ONE,
                        _ => streams.unit(i - usize::from(i % 7 == 0), channel::RANK),
                    };
                    Survivor {
                        key: (u64::from(rank.to_bits()) << 32) | i as u64,
                        root: [i as f32, 0.0],
                        clump: i as u32,
                    }
                })
                .collect();
            let bucketed = sorted_by_rank(&survivors);
            survivors.sort_unstable_by_key(|s| s.key);
            let keys = |v: &[Survivor]| v.iter().map(|s| (s.key, s.clump)).collect::<Vec<_>>();
            assert_eq!(keys(&bucketed), keys(&survivors), "{n} survivors");
        }
    }
}
