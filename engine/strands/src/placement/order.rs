//! A tile's planted roots put in rank order: by strand, then by UV where one strand is
//! planted in several repeats of the tile.

use super::Found;

/// The order of `found` by strand, then by UV (`u`, then `v`, as [`f32::total_cmp`]
/// orders them), then by place in `found` (a strand planted at one UV by two triangles
/// of the tile, where UV islands overlap, comes in triangle order): each entry's index
/// in the low half of its key. The keys sort as plain integers (the strand over the
/// index); only runs of one strand planted in several repeats of a tile are sorted again
/// by UV.
pub(super) fn rank_order(found: &[Found]) -> Vec<u64> {
    let mut order: Vec<u64> = found
        .iter()
        .enumerate()
        .map(|(k, f)| (u64::from(f.strand) << 32) | k as u64)
        .collect();
    sort_by_strand(&mut order);
    let uv = |key: &u64| found[*key as u32 as usize].uv;
    let mut start = 0;
    while start < order.len() {
        let strand = order[start] >> 32;
        let mut end = start + 1;
        while end < order.len() && order[end] >> 32 == strand {
            end += 1;
        }
        if end - start > 1 {
            order[start..end].sort_unstable_by(|a, b| {
                let (ua, ub) = (uv(a), uv(b));
                ua.x.total_cmp(&ub.x)
                    .then(ua.y.total_cmp(&ub.y))
                    .then(a.cmp(b))
            });
        }
        start = end;
    }
    order
}

/// Keys of a strand over an index, made with the indices ascending, put in the order
/// of their strands (equal strands keep their indices' order): a stable radix sort on the
/// strands' bits, [`DIGIT`] at a time, in as many passes as the largest strand needs
/// (two for half a million strands). The order is the keys' as integers, what
/// `sort_unstable` gives, in a few passes over the keys instead of a comparison sort's
/// many.
fn sort_by_strand(keys: &mut Vec<u64>) {
    if keys.len() < SMALL {
        keys.sort_unstable();
        return;
    }
    let largest = keys.iter().map(|k| k >> 32).max().unwrap_or(0);
    let bits = u64::BITS - largest.leading_zeros();
    let mut shift = 32;
    while shift < 32 + bits {
        // One stable counting sort a digit: the engine's `buckets::deal`.
        let digit = |k: &u64| (k >> shift) as usize & (RADIX - 1);
        (_, *keys) = crate::buckets::deal(keys.iter().copied(), RADIX, digit);
        shift += DIGIT;
    }
}

/// Bits of a strand sorted in one pass.
const DIGIT: u32 = 11;

/// Values of one digit.
const RADIX: usize = 1 << DIGIT;

/// Below this many keys a comparison sort is as quick as clearing the counts.
const SMALL: usize = 256;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::{hash, unit_f32};
    use glam::Vec2;

    #[test]
    fn rank_order_is_the_order_by_strand_then_uv() {
        // Strands planted once and in up to four repeats (negative cells included),
        // in no order.
        let mut found: Vec<Found> = (0..5000u64)
            .map(|k| {
                let h = |c| unit_f32(hash(9, k, c));
                let repeat = |c| (h(c) * 4.0).floor() - 2.0;
                Found {
                    strand: if k % 3 == 0 {
                        (h(0) * 1500.0) as u32
                    } else {
                        // Strands that take two and three digits, up to the largest.
                        (h(0) * [4.0e6, 4.3e9][k as usize % 2]) as u32
                    },
                    frame: k as u32,
                    uv: Vec2::new(h(1) + repeat(2), h(3) + repeat(4)),
                    patch: 0.0,
                }
            })
            .collect();
        // One strand planted at one UV by thirty triangles (overlapping UV islands):
        // those stay in the order they were found (too many for an insertion sort's
        // stability to decide it).
        for k in 0..30 {
            let at = (k * 157) % found.len();
            let tie = Found {
                strand: 7,
                frame: 10_000 + k as u32,
                uv: Vec2::new(0.5, -1.5),
                patch: 0.0,
            };
            found.insert(at, tie);
        }
        let mut want = found.clone();
        // A stable sort: equal entries keep their order.
        want.sort_by(|a, b| {
            a.strand
                .cmp(&b.strand)
                .then(a.uv.x.total_cmp(&b.uv.x))
                .then(a.uv.y.total_cmp(&b.uv.y))
        });
        let got: Vec<u32> = rank_order(&found)
            .iter()
            .map(|&k| found[k as u32 as usize].frame)
            .collect();
        assert!(want.windows(2).any(|w| w[0].strand == w[1].strand));
        assert_eq!(got, want.iter().map(|f| f.frame).collect::<Vec<_>>());
    }

    #[test]
    fn the_radix_sort_is_the_integer_sort() {
        for n in [0, 1, 255, 256, 3000] {
            for spread in [1u64, 2048, 1 << 22, 1 << 32] {
                let mut keys: Vec<u64> = (0..n as u64)
                    .map(|k| (hash(4, k, 0) % spread) << 32 | k)
                    .collect();
                let mut want = keys.clone();
                want.sort_unstable();
                sort_by_strand(&mut keys);
                assert_eq!(keys, want, "{n} keys, strands below {spread}");
            }
        }
    }
}
