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

/// Items walked in parts: part 0's items, then part 1's, and so on. Walking a part gives
/// the same items in the same order every time ([`deal_walks`] walks each part twice).
pub trait PartWalk: Sync {
    /// What is dealt.
    type Item: Copy + Send;
    /// How many parts there are.
    fn parts(&self) -> usize;
    /// Calls `f` with each item of part `part`, in order.
    fn walk(&self, part: usize, f: impl FnMut(Self::Item));
}

/// [`deal`] of all the items of `items`, part after part, counted and placed on the
/// threads of [`crate::par`]: each part counts its items' buckets, then writes its items
/// at the places those counts give it in every bucket, all parts at once. Part `k`'s
/// places in a bucket follow part `k − 1`'s, so the result is `deal`'s.
///
/// # Panics
/// Where `bucket_of` names a bucket past `buckets`, or a walk gives other items or
/// buckets the second time (a part would write past its places: it stops there instead).
pub fn deal_walks<P: PartWalk>(
    items: &P,
    buckets: usize,
    bucket_of: impl Fn(&P::Item) -> usize + Sync,
) -> (Vec<u32>, Vec<P::Item>) {
    let parts: Vec<usize> = (0..items.parts()).collect();
    let counts = crate::par::map("tuft deal", parts.clone(), |part| {
        let mut count = vec![0u32; buckets];
        items.walk(part, |item| count[bucket_of(&item)] += 1);
        count
    });
    // Bucket by bucket, each part's places follow the part before's: where each part's
    // first and past-its-last places are in every bucket.
    let mut start = vec![0u32; buckets + 1];
    let mut places: Vec<(Vec<u32>, Vec<u32>)> = counts
        .iter()
        .map(|_| (vec![0; buckets], vec![0; buckets]))
        .collect();
    let mut at = 0u32;
    for b in 0..buckets {
        start[b] = at;
        for (count, (first, end)) in counts.iter().zip(&mut places) {
            first[b] = at;
            at += count[b];
            end[b] = at;
        }
    }
    start[buckets] = at;
    let n = at as usize;
    let mut dealt: Vec<P::Item> = Vec::with_capacity(n);
    let out = Places(dealt.spare_capacity_mut().as_mut_ptr());
    let jobs: Vec<_> = parts.into_iter().zip(places).collect();
    let written: usize = crate::par::map("tuft deal", jobs, |(part, (mut fill, end))| {
        let out = &out;
        let mut written = 0;
        items.walk(part, |item| {
            let b = bucket_of(&item);
            assert!(fill[b] < end[b], "a part writes inside its own places");
            // SAFETY: `fill[b]` lies in this part's own places of bucket `b` (checked
            // above), which no other part writes and which lie inside the first `n`.
            #[allow(unsafe_code)]
            unsafe {
                out.0
                    .add(fill[b] as usize)
                    .write(std::mem::MaybeUninit::new(item));
            }
            fill[b] += 1;
            written += 1;
        });
        written
    })
    .into_iter()
    .sum();
    assert_eq!(written, n, "every item is written once");
    // SAFETY: `n` writes, each to its own place among the first `n` (every part writes
    // only inside its own places, each place at most once), so every place is written.
    #[allow(unsafe_code)]
    unsafe {
        dealt.set_len(n);
    }
    (start, dealt)
}

/// [`deal_walks`] of `(0..n).map(item)`, in one part a thread.
pub fn deal_parts<T: Copy + Send + Sync>(
    n: usize,
    item: impl Fn(usize) -> T + Sync,
    buckets: usize,
    bucket_of: impl Fn(&T) -> usize + Sync,
) -> (Vec<u32>, Vec<T>) {
    let per_part = n.div_ceil(crate::par::threads()).max(1);
    deal_walks(&Indexed { n, per_part, item }, buckets, bucket_of)
}

/// The indices `0..n` in runs of `per_part`, each index's item made by `item`.
struct Indexed<F> {
    n: usize,
    per_part: usize,
    item: F,
}

impl<T: Copy + Send, F: Fn(usize) -> T + Sync> PartWalk for Indexed<F> {
    type Item = T;

    fn parts(&self) -> usize {
        self.n.div_ceil(self.per_part)
    }

    fn walk(&self, part: usize, mut f: impl FnMut(T)) {
        let first = part * self.per_part;
        for i in first..(first + self.per_part).min(self.n) {
            f((self.item)(i));
        }
    }
}

/// The places the parts of [`deal_walks`] write, shared between their threads.
struct Places<T>(*mut std::mem::MaybeUninit<T>);

// SAFETY: the parts write disjoint places through the pointer (see `deal_walks`), and
// the vector it points into outlives them.
#[allow(unsafe_code)]
unsafe impl<T: Send> Sync for Places<T> {}

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

    #[test]
    fn dealing_in_parts_deals_as_one_walk() {
        for n in [0usize, 1, 7, 1000, 30_001] {
            let item = |i: usize| (i as u32).wrapping_mul(2_654_435_761) >> 3;
            // More buckets than items, and fewer.
            for buckets in [1, 13, 50_000] {
                let by = |x: &u32| *x as usize % buckets;
                let want = deal((0..n).map(item), buckets, by);
                assert_eq!(deal_parts(n, item, buckets, by), want, "{n} into {buckets}");
            }
        }
    }

    #[test]
    #[should_panic(expected = "a part writes inside its own places")]
    fn a_bucket_that_changes_its_answer_stops_the_deal() {
        let calls = std::sync::atomic::AtomicUsize::new(0);
        deal_parts(
            64,
            |i| i,
            4,
            |&i| {
                // The second look at item 0 names another bucket.
                let call = calls.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                if i == 0 && call >= 64 { 3 } else { i % 2 }
            },
        );
    }
}
