//! The one way tuft-strands and tuft-render split work over the cores: one named, scoped
//! thread a core, the items dealt round-robin (neighbouring items, often alike in cost,
//! land on different cores), the results handed back in the items' order. Every item is
//! independent, so what a split computes does not depend on how many cores there are.

/// How many threads a split uses: the available cores (1 when that is unknown).
#[must_use]
pub fn threads() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
}

/// `f` applied to every item on [`threads`] threads called `name`; the results in the
/// items' order. A panic in `f` is resumed on the caller.
pub fn map<T: Send, R: Send>(name: &str, items: Vec<T>, f: impl Fn(T) -> R + Sync) -> Vec<R> {
    map_with(name, items, || (), |(), item| f(item))
}

/// `f` applied to every item, as [`map`], without results.
pub fn for_each<T: Send>(name: &str, items: Vec<T>, f: impl Fn(T) + Sync) {
    map(name, items, f);
}

/// `a` on a thread called `name` beside `b` on the calling thread (or after it, when no
/// thread can be started): two different jobs at once. A panic in either is resumed on
/// the caller.
pub fn join<A: Send, B, FA: FnOnce() -> A + Send>(
    name: &str,
    a: FA,
    b: impl FnOnce() -> B,
) -> (A, B) {
    std::thread::scope(|scope| {
        // The job goes over a channel once the thread runs: a failed spawn drops its
        // closure, and the job with it, unless it is still here.
        let (sender, receiver) = std::sync::mpsc::channel::<FA>();
        let spawned = std::thread::Builder::new()
            .name(name.to_owned())
            .spawn_scoped(scope, move || receiver.recv().ok().map(|a| a()));
        match spawned {
            Ok(handle) => {
                let _ = sender.send(a);
                let b = b();
                let a = handle
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
                    .expect("the job was sent before the join");
                (a, b)
            }
            Err(_) => {
                let b = b();
                (a(), b)
            }
        }
    })
}

/// As [`map`], each thread with a state of its own made by `state` (scratch buffers
/// reused from item to item).
pub fn map_with<T: Send, R: Send, S>(
    name: &str,
    items: Vec<T>,
    state: impl Fn() -> S + Sync,
    f: impl Fn(&mut S, T) -> R + Sync,
) -> Vec<R> {
    let n = items.len();
    let threads = threads().min(n).max(1);
    let run = |part: Vec<T>| -> Vec<R> {
        let mut s = state();
        part.into_iter().map(|item| f(&mut s, item)).collect()
    };
    if threads == 1 {
        return run(items);
    }
    let mut parts: Vec<Vec<T>> = (0..threads)
        .map(|_| Vec::with_capacity(n.div_ceil(threads)))
        .collect();
    for (k, item) in items.into_iter().enumerate() {
        parts[k % threads].push(item);
    }
    let results: Vec<Vec<R>> = std::thread::scope(|scope| {
        let run = &run;
        let mut inline = Vec::new();
        let mut handles = Vec::new();
        for (k, part) in parts.into_iter().enumerate() {
            if k == 0 {
                // The calling thread takes the first part itself.
                inline.push((k, part));
                continue;
            }
            // The part goes over a channel once the thread runs: a thread that cannot
            // be started leaves its part to the caller (a failed spawn drops its closure).
            let (sender, receiver) = std::sync::mpsc::channel::<Vec<T>>();
            let spawned = std::thread::Builder::new()
                .name(name.to_owned())
                .spawn_scoped(scope, move || receiver.recv().map(run).unwrap_or_default());
            match spawned {
                Ok(handle) => {
                    let _ = sender.send(part);
                    handles.push((k, handle));
                }
                Err(_) => inline.push((k, part)),
            }
        }
        let mut out: Vec<(usize, Vec<R>)> =
            inline.into_iter().map(|(k, part)| (k, run(part))).collect();
        for (k, handle) in handles {
            let done = handle
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            out.push((k, done));
        }
        out.sort_by_key(|(k, _)| *k);
        out.into_iter().map(|(_, r)| r).collect()
    });
    // Item `k` went to part `k % threads`, as its `k / threads`-th.
    let mut iters: Vec<_> = results.into_iter().map(Vec::into_iter).collect();
    (0..n).filter_map(|k| iters[k % threads].next()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_back_in_the_items_order() {
        for n in [0, 1, 2, 3, 7, 100] {
            let items: Vec<usize> = (0..n).collect();
            assert_eq!(
                map("test", items, |k| k * 3),
                (0..n).map(|k| k * 3).collect::<Vec<_>>()
            );
        }
    }

    #[test]
    fn each_thread_keeps_its_state_from_item_to_item() {
        // Each thread counts the items it took; the counts add up to the items.
        let seen = map_with(
            "test",
            vec![(); 50],
            || 0usize,
            |count, ()| {
                *count += 1;
                *count
            },
        );
        let threads = threads().min(50);
        let firsts = seen.iter().filter(|&&c| c == 1).count();
        assert_eq!(firsts, threads);
    }

    #[test]
    fn mutable_items_are_filled_in_place() {
        let mut values = vec![0u32; 1000];
        let chunks: Vec<(usize, &mut [u32])> = values.chunks_mut(64).enumerate().collect();
        for_each("test", chunks, |(c, part)| {
            for (k, v) in part.iter_mut().enumerate() {
                *v = (c * 64 + k) as u32;
            }
        });
        assert!(values.iter().enumerate().all(|(k, &v)| v as usize == k));
    }

    #[test]
    #[should_panic(expected = "item 5")]
    fn a_panic_in_an_item_reaches_the_caller() {
        map("test", (0..10).collect(), |k: usize| {
            assert!(k != 5, "item {k}");
            k
        });
    }

    #[test]
    fn join_runs_both_and_returns_both() {
        let data = [1, 2, 3];
        let (a, b) = join("test", || data.iter().sum::<i32>(), || data.len());
        assert_eq!((a, b), (6, 3));
    }
}
