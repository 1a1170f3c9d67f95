//! The counting sort the engine deals items with: into numbered buckets in one array,
//! each bucket keeping the items' order (placement's and the atlas's root bins, card
//! grouping by clump).

/// `items` dealt into `buckets` buckets by `bucket_of` (each below `buckets`), stably:
/// the dealt items, and for each bucket `b` where its run starts, `start[b]..start[b + 1]`.
/// The items are walked twice (counted, then placed); fewer than 2³² of them, as the
/// strand indices that name them are 32-bit.
pub fn deal<T: Copy + Default>(
    items: impl Iterator<Item = T> + Clone,
    buckets: usize,
    bucket_of: impl Fn(&T) -> usize,
) -> (Vec<u32>, Vec<T>) {
    let start = starts(items.clone(), buckets, &bucket_of);
    let mut dealt = vec![T::default(); start[buckets] as usize];
    place(items, &start, bucket_of, &mut dealt);
    (start, dealt)
}

/// Where each bucket's run starts (and, last, the count).
fn starts<T>(
    items: impl Iterator<Item = T>,
    buckets: usize,
    bucket_of: impl Fn(&T) -> usize,
) -> Vec<u32> {
    let mut start = vec![0u32; buckets + 1];
    for item in items {
        start[bucket_of(&item) + 1] += 1;
    }
    for b in 0..buckets {
        start[b + 1] += start[b];
    }
    start
}

/// Each item at the next free place of its bucket's run.
fn place<T>(
    items: impl Iterator<Item = T>,
    start: &[u32],
    bucket_of: impl Fn(&T) -> usize,
    out: &mut [T],
) {
    let mut fill = start.to_vec();
    for item in items {
        let b = bucket_of(&item);
        out[fill[b] as usize] = item;
        fill[b] += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_land_in_their_buckets_in_their_order() {
        let items: Vec<(u32, u32)> = (0..1000u32)
            .map(|i| (i.wrapping_mul(7919) % 13, i))
            .collect();
        let (start, dealt) = deal(items.iter().copied(), 13, |&(b, _)| b as usize);
        assert_eq!(start.len(), 14);
        assert_eq!(start[13] as usize, items.len());
        for b in 0..13 {
            let run = &dealt[start[b] as usize..start[b + 1] as usize];
            let want: Vec<_> = items
                .iter()
                .copied()
                .filter(|&(k, _)| k as usize == b)
                .collect();
            assert_eq!(run, &want[..], "bucket {b}");
        }
        let (start, dealt) = deal(std::iter::empty::<u32>(), 4, |&x| x as usize);
        assert_eq!((start, dealt), (vec![0; 5], Vec::new()));
    }
}
