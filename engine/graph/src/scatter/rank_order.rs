//! The rank order: a keyed shuffle of a layer's candidates, so that the set comes out
//! sorted by rank without a sort.
//!
//! A rank is a place in a pseudo-random permutation of the candidates, over their
//! count: candidate `order.candidate(p)` has rank `p / count`. The scatter walks the
//! places in order and makes each place's candidate there, so every array after it is
//! written front to back and nothing is sorted or gathered (the radix sort on hashed
//! ranks this replaced spent most of its time reading survivors out of order:
//! BENCHMARKS.md, Scatter). The permutation depends on the seed and the candidate count
//! alone: a density edit keeps every survivor's rank, and a level (a rank prefix) keeps
//! an exact share of the candidates, spread over the repeat as a random pick would be.
//!
//! The permutation is a bijection of `b`-bit integers (`2ᵇ` the least power of two not
//! below the count): three rounds of an xor with the value shifted down by half its
//! width, a multiply by an odd constant and a keyed add, each invertible modulo `2ᵇ`;
//! a value past the count is sent through again until it falls inside ("cycle
//! walking"), which keeps the bijection on `0..count` and takes under two rounds on
//! average, the count being over half of `2ᵇ`.

use tuft_strands::hash::{channel, hash};

/// Odd multipliers of the three rounds (from well-tested 32-bit integer hashes).
const MULTIPLIERS: [u32; 3] = [0x7feb_352d, 0x846c_a68b, 0x9e37_79b1];

/// A keyed permutation of a layer's candidates: the candidate at each place of the rank
/// order.
#[derive(Clone, Copy, Debug)]
pub(super) struct Order {
    count: u32,
    mask: u32,
    shift: u32,
    keys: [u32; 4],
}

impl Order {
    /// The order of `count` candidates under `seed`.
    ///
    /// # Panics
    /// Where `count` passes `u32::MAX` (the layer limits keep it under 2²³).
    pub(super) fn new(seed: u64, count: usize) -> Self {
        let count = u32::try_from(count).expect("candidates are counted in 32 bits");
        let bits = (u32::BITS - count.saturating_sub(1).leading_zeros()).max(1);
        let mask = u32::MAX >> (u32::BITS - bits);
        let (a, b) = (hash(seed, 0, channel::RANK), hash(seed, 1, channel::RANK));
        Self {
            count,
            mask,
            shift: bits.div_ceil(2),
            keys: [a as u32, (a >> 32) as u32, b as u32, (b >> 32) as u32],
        }
    }

    /// One pass of the `b`-bit bijection.
    #[inline(always)]
    fn mix(&self, x: u32) -> u32 {
        let (m, s) = (self.mask, self.shift);
        let mut x = (x ^ self.keys[0]) & m;
        for (c, k) in MULTIPLIERS.into_iter().zip(&self.keys[1..]) {
            x ^= x >> s;
            x = x.wrapping_mul(c).wrapping_add(*k) & m;
        }
        x ^ (x >> s)
    }

    /// The candidate at place `p` (below the count): one at a time, the reference
    /// [`Order::candidates`] is tested against.
    #[cfg(test)]
    pub(super) fn candidate(&self, p: u32) -> u32 {
        let mut x = self.mix(p);
        while x >= self.count {
            x = self.mix(x);
        }
        x
    }

    /// The candidates at places `first..first + out.len()` into `out`: every place's
    /// first two passes in loops the compiler runs on lanes, then the few still past the
    /// count (under a quarter of the places, on average) one at a time.
    #[inline(always)]
    pub(super) fn candidates(&self, first: u32, out: &mut [u32]) {
        for (k, o) in out.iter_mut().enumerate() {
            *o = self.mix(first + k as u32);
        }
        for o in out.iter_mut() {
            let x = *o;
            *o = if x >= self.count { self.mix(x) } else { x };
        }
        for o in out.iter_mut() {
            while *o >= self.count {
                *o = self.mix(*o);
            }
        }
    }

    /// The rank of place `p`: its share of the places before it, exactly ordered like
    /// the places and below 1.
    pub(super) fn rank(&self, p: u32) -> f32 {
        (p as f32 / self.count as f32).min(super::BELOW_ONE)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_candidate_has_one_place() {
        for count in [1, 2, 3, 4, 5, 49, 1000, 4097, 300 * 300] {
            for seed in [0, 7] {
                let order = Order::new(seed, count);
                let mut seen = vec![false; count];
                for p in 0..count as u32 {
                    let c = order.candidate(p) as usize;
                    assert!(!seen[c], "count {count}: candidate {c} twice");
                    seen[c] = true;
                }
            }
        }
    }

    #[test]
    fn a_run_of_places_is_each_place_in_turn() {
        let order = Order::new(3, 627 * 627);
        for first in [0u32, 1, 2047, 392_000] {
            let mut run = [0u32; 1129];
            let len = run.len().min(627 * 627 - first as usize);
            // Through the lanes' dispatch: the path the scatter runs on this CPU.
            super::super::lanes::places(&order, first, &mut run[..len]);
            for (k, &c) in run[..len].iter().enumerate() {
                assert_eq!(c, order.candidate(first + k as u32), "place {first} + {k}");
            }
        }
    }

    #[test]
    fn ranks_follow_places_and_stay_below_one() {
        let order = Order::new(1, 2048 * 2048);
        let ranks: Vec<f32> = (0..2048 * 2048)
            .step_by(4093)
            .map(|p| order.rank(p))
            .collect();
        assert!(ranks.is_sorted() && ranks[0] == 0.0);
        assert!(order.rank(2048 * 2048 - 1) < 1.0);
        let order = Order::new(1, 10);
        assert_eq!(order.rank(5), 0.5);
    }

    /// The variance of the first quarter's count over blocks of an `n × n` lattice,
    /// over what picking a quarter at random gives (about 1): a shuffle that kept any of
    /// the lattice's order reads far from it (rows first far above, an even stride
    /// below).
    fn spread(candidate: impl Fn(u32) -> u32, n: u32, block: u32) -> f64 {
        let count = n * n;
        let quarter = count / 4;
        let side = n.div_ceil(block);
        let mut hits = vec![0u32; (side * side) as usize];
        let mut cells = vec![0u32; hits.len()];
        for i in 0..count {
            cells[((i / n / block) * side + (i % n) / block) as usize] += 1;
        }
        for p in 0..quarter {
            let i = candidate(p);
            hits[((i / n / block) * side + (i % n) / block) as usize] += 1;
        }
        let share = f64::from(quarter) / f64::from(count);
        let chi: f64 = hits
            .iter()
            .zip(&cells)
            .map(|(&h, &c)| {
                let expected = f64::from(c) * share;
                (f64::from(h) - expected).powi(2) / expected
            })
            .sum();
        // A random quarter's counts vary by (1 − ¼) of a Poisson count's.
        chi / hits.len() as f64 / (1.0 - share)
    }

    #[test]
    fn a_rank_prefix_spreads_over_the_lattice_as_a_random_pick_does() {
        for (n, seed) in [(300, 0), (440, 5), (627, 9)] {
            let order = Order::new(seed, (n * n) as usize);
            let s = spread(|p| order.candidate(p), n, 20);
            assert!((0.7..1.3).contains(&s), "lattice {n}: {s:.3}");
        }
        // The controls: the lattice's own order, rows first, and a stride through it.
        let rows = spread(|p| p, 300, 20);
        let stride = spread(|p| (u64::from(p) * 7919 % 90_000) as u32, 300, 20);
        assert!(rows > 10.0 && stride < 0.7, "{rows:.3}, {stride:.3}");
    }
}
