//! The one way tuft-strands and tuft-render split work over the cores: a worker a core,
//! each taking the next item as it finishes the last (so uneven items or a busy core
//! balance out), the results handed back in the items' order. Every item is
//! independent, so what a split computes does not depend on how many cores there are.
//!
//! The workers are the program's one thread pool where it installed one ([`set_pool`]:
//! the editor and the command line hand over the pool the graph evaluates on, so a bake
//! that meshes beside its maps never runs two pools' worth of threads on the cores);
//! otherwise named, scoped threads started for the split.

/// Threads a split uses when set ([`set_threads`]); 0: one a core.
static THREADS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// A pool of worker threads the splits run on: the program's own, installed once by
/// [`set_pool`].
pub trait Pool: Sync {
    /// How many threads the pool runs at once.
    fn threads(&self) -> usize;

    /// Whether the calling thread is one of the pool's.
    fn owns_this_thread(&self) -> bool;

    /// Runs `helper` on `helpers` of the pool's threads while the caller runs `own`, and
    /// returns once every one has returned; a panic in any is resumed on the caller after
    /// the others have finished.
    fn run(&self, helpers: usize, helper: &(dyn Fn() + Sync), own: &mut dyn FnMut());
}

/// The pool [`set_pool`] installed.
static POOL: std::sync::OnceLock<&'static dyn Pool> = std::sync::OnceLock::new();

/// Makes every split from now on run on `pool`; the first pool installed stays (a
/// program has one).
pub fn set_pool(pool: &'static dyn Pool) {
    let _ = POOL.set(pool);
}

/// The pool a split started on this thread runs on: the installed one, unless this is
/// one of its threads. A pool thread waiting for its helpers runs other jobs of the pool
/// meanwhile, and one of those could wait for what the waiting thread holds (a
/// `OnceLock` it is filling: a card tile's dressing), so a split inside a split starts
/// scoped threads instead.
fn pool() -> Option<&'static dyn Pool> {
    POOL.get().copied().filter(|p| !p.owns_this_thread())
}

/// The mutex's guard, whether or not a thread panicked holding it: the one way Tuft takes
/// a lock (clippy.toml refuses the others), so a panicked worker never poisons the rest.
#[allow(clippy::disallowed_methods)] // the one place that locks
pub fn lock<T>(m: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// How many threads a split uses: the installed pool's, else the available cores (1
/// when that is unknown), or what [`set_threads`] said.
#[must_use]
pub fn threads() -> usize {
    match THREADS.load(std::sync::atomic::Ordering::Relaxed) {
        0 => POOL.get().map_or_else(
            || std::thread::available_parallelism().map_or(1, std::num::NonZero::get),
            |p| p.threads().max(1),
        ),
        n => n,
    }
}

/// Makes every split from now on use `n` threads (`None`: one a core again). What a
/// split computes never depends on it; tests hold that by varying it, and a program
/// that wants cores left free for other work can say so.
pub fn set_threads(n: Option<usize>) {
    THREADS.store(
        n.map_or(0, |n| n.max(1)),
        std::sync::atomic::Ordering::Relaxed,
    );
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
    if let Some(pool) = pool() {
        let job = std::sync::Mutex::new(Some(a));
        let done = std::sync::Mutex::new(None);
        let mut b = Some(b);
        let mut got = None;
        pool.run(
            1,
            &|| {
                let a = lock(&job).take();
                if let Some(a) = a {
                    *lock(&done) = Some(a());
                }
            },
            &mut || got = b.take().map(|b| b()),
        );
        let a = done
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .expect("the pool ran the job");
        return (a, got.expect("the caller ran its job"));
    }
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
    if threads == 1 {
        let mut s = state();
        return items.into_iter().map(|item| f(&mut s, item)).collect();
    }
    // Each thread takes the next item when it is done with its last: a core slowed by
    // other work, or dealt the costly items, never leaves the others waiting on it.
    let queue = std::sync::Mutex::new(items.into_iter().enumerate());
    let run = || -> Vec<(usize, R)> {
        let mut s = state();
        let mut done = Vec::new();
        loop {
            // The lock is held for the take alone, never while `f` runs.
            let next = lock(&queue).next();
            let Some((k, item)) = next else {
                return done;
            };
            done.push((k, f(&mut s, item)));
        }
    };
    if let Some(pool) = pool() {
        let parts = std::sync::Mutex::new(Vec::with_capacity(threads));
        let work = || {
            let part = run();
            lock(&parts).push(part);
        };
        pool.run(threads - 1, &work, &mut || work());
        let parts = parts
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        return in_order(n, parts);
    }
    let parts: Vec<Vec<(usize, R)>> = std::thread::scope(|scope| {
        let run = &run;
        // A thread that cannot be started leaves its share to the others and the caller.
        let handles: Vec<_> = (1..threads)
            .filter_map(|_| {
                std::thread::Builder::new()
                    .name(name.to_owned())
                    .spawn_scoped(scope, run)
                    .ok()
            })
            .collect();
        let mut parts = vec![run()];
        for handle in handles {
            parts.push(
                handle
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            );
        }
        parts
    });
    in_order(n, parts)
}

/// The `n` results the workers handed back, each with its item's index, in the items'
/// order.
fn in_order<R>(n: usize, parts: Vec<Vec<(usize, R)>>) -> Vec<R> {
    let mut out: Vec<Option<R>> = std::iter::repeat_with(|| None).take(n).collect();
    for (k, r) in parts.into_iter().flatten() {
        out[k] = Some(r);
    }
    out.into_iter()
        .map(|r| r.expect("every item was taken once"))
        .collect()
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
        // A thread's items count 1, 2, 3, …: every thread that took any took a first
        // (at most one first a thread; a state made afresh for each item would make
        // all fifty firsts), and fewer items reach each count than the one below.
        let reaching = |c: usize| seen.iter().filter(|&&s| s == c).count();
        assert!((1..=threads().min(50)).contains(&reaching(1)), "{seen:?}");
        assert!((1..50).all(|c| reaching(c + 1) <= reaching(c)), "{seen:?}");
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
