//! What the editor's background threads share: their priorities below the UI thread's,
//! the newest-job-wins loop the preview and the thumbnails both run, named threads for
//! one-off work, and a lock that survives a panicked holder. Nothing here knows the
//! editor's window.

use std::sync::Mutex;
use std::sync::mpsc::{Receiver, Sender, channel};

pub use tuft_strands::par::lock;

/// How far below the UI thread a background thread runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Priority {
    /// What an author is waiting for (the preview): below the UI thread, so a rebuild
    /// shares the cores without taking the UI's turns (on two cores, a rebuild's two
    /// pool threads and the UI thread otherwise preempt each other mid-frame).
    Below,
    /// What can wait (the thumbnails): below the preview too, so an edit made while the
    /// last one's thumbnails are drawing gets the cores (the scheduler gives a thread
    /// at the lowest priority about a seventh of a core beside one at `Below`).
    Least,
}

impl Priority {
    /// The Unix `nice` increment from the UI thread's.
    const fn nice(self) -> i32 {
        match self {
            Self::Below => 10,
            Self::Least => 19,
        }
    }
}

/// Lowers the calling thread's scheduling priority (Unix `nice`) to `priority`; the
/// threads it starts inherit it.
pub fn lower_this_threads_priority(priority: Priority) {
    #[cfg(unix)]
    // SAFETY: `nice` only changes this thread's scheduling priority; it touches no memory.
    #[allow(unsafe_code)]
    unsafe {
        let _ = libc::nice(priority.nice());
    }
    #[cfg(not(unix))]
    let _ = priority;
}

/// The program's one thread pool: rayon's, which evaluates graphs, handed to
/// `tuft_strands::par` so that meshing, cards and planting split over the same threads.
struct RayonPool;

impl tuft_strands::par::Pool for RayonPool {
    fn threads(&self) -> usize {
        rayon::current_num_threads()
    }

    fn owns_this_thread(&self) -> bool {
        rayon::current_thread_index().is_some()
    }

    fn run(&self, helpers: usize, helper: &(dyn Fn() + Sync), own: &mut dyn FnMut()) {
        // In place: `own` runs on the caller, which is often no thread of the pool.
        rayon::in_place_scope(|scope| {
            for _ in 0..helpers {
                scope.spawn(|_| helper());
            }
            own();
        });
    }
}

/// Starts the program's one thread pool (rayon's, its threads named `tuft-pool-N`, at
/// `priority` below the calling thread's where given) and makes every split of
/// `tuft_strands::par` run on it. Call before anything uses either.
pub fn start_pool(priority: Option<Priority>) {
    let _ = rayon::ThreadPoolBuilder::new()
        .thread_name(|i| format!("tuft-pool-{i}"))
        .start_handler(move |_| {
            if let Some(priority) = priority {
                lower_this_threads_priority(priority);
            }
        })
        .build_global();
    tuft_strands::par::set_pool(&RayonPool);
}

/// Starts a named worker at `priority` that runs `run` on the jobs sent to the
/// returned sender, skipping every job a newer one has replaced in the queue (only the
/// newest edit is worth the work). It stops when `run` returns `false` (nobody reads
/// its results any more) or the sender is dropped.
pub fn newest_job_worker<J: Send + 'static>(
    name: &str,
    priority: Priority,
    mut run: impl FnMut(J) -> bool + Send + 'static,
) -> Sender<J> {
    let (jobs, rx) = channel::<J>();
    spawn(name, move || {
        lower_this_threads_priority(priority);
        while let Some(job) = newest(&rx) {
            if !run(job) {
                break;
            }
        }
    });
    jobs
}

/// Waits for a job, then takes the newest of those queued.
fn newest<J>(rx: &Receiver<J>) -> Option<J> {
    let mut job = rx.recv().ok()?;
    while let Ok(newer) = rx.try_recv() {
        job = newer;
    }
    Some(job)
}

/// Runs `work` on a new thread called `name` (named so a profiler or a panic message
/// says whose it is). If no thread can be started, the work runs here instead.
pub fn spawn(name: &str, work: impl FnOnce() + Send + 'static) {
    let work = std::sync::Arc::new(Mutex::new(Some(work)));
    let theirs = work.clone();
    let started = std::thread::Builder::new()
        .name(name.to_owned())
        .spawn(move || {
            if let Some(w) = lock(&theirs).take() {
                w();
            }
        })
        .is_ok();
    if !started && let Some(w) = lock(&work).take() {
        w();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_newest_queued_job_is_taken() {
        let (tx, rx) = channel();
        for k in 0..5 {
            tx.send(k).unwrap();
        }
        assert_eq!(newest(&rx), Some(4));
        drop(tx);
        assert_eq!(newest(&rx), None);
    }

    #[test]
    fn a_worker_runs_what_it_is_sent_on_its_named_thread() {
        let (done_tx, done) = channel();
        let jobs = newest_job_worker("tuft test worker", Priority::Least, move |k: u32| {
            let name = std::thread::current().name().map(str::to_owned);
            done_tx.send((k, name)).is_ok()
        });
        jobs.send(7).unwrap();
        let (k, name) = done.recv().unwrap();
        assert_eq!(k, 7);
        assert_eq!(name.as_deref(), Some("tuft test worker"));
    }

    /// Blocks until `n` callers have come (a rendezvous: items that call it were taken
    /// by `n` different threads).
    fn meet(count: &(Mutex<usize>, std::sync::Condvar), n: usize) {
        let mut c = lock(&count.0);
        *c += 1;
        count.1.notify_all();
        while *c < n {
            c = count
                .1
                .wait(c)
                .unwrap_or_else(std::sync::PoisonError::into_inner);
        }
    }

    #[test]
    fn splits_run_on_the_one_pool_and_keep_their_order() {
        use tuft_strands::par;
        start_pool(None);
        assert_eq!(par::threads(), rayon::current_num_threads());
        if par::threads() < 2 {
            return; // One thread: every split runs on the caller.
        }
        // The first two items meet, so two workers took them: the caller and one of the
        // pool's, which the item can tell.
        let count = Default::default();
        let out = par::map("test", (0..100).collect(), |k: usize| {
            if k < 2 {
                meet(&count, 2);
            }
            (k, rayon::current_thread_index().is_some())
        });
        assert!(out.iter().enumerate().all(|(i, &(k, _))| i == k));
        assert!(out[..2].iter().any(|&(_, in_pool)| in_pool), "{out:?}");
        // A split inside a split, on a pool thread, starts threads of its own: a pool
        // thread waiting on its helpers would run other jobs of the pool meanwhile.
        let caller = Mutex::new(None);
        let count = Default::default();
        let names = rayon::scope(|_| {
            *lock(&caller) = Some(std::thread::current().id());
            par::map("test nested", vec![(); 2], |()| {
                meet(&count, 2);
                let this = std::thread::current();
                (Some(this.id()) != *lock(&caller)).then(|| this.name().map(str::to_owned))
            })
        });
        assert!(
            names.contains(&Some(Some("test nested".to_owned()))),
            "{names:?}"
        );
        // Two jobs at once, one of them on the pool; a panic in either reaches the caller.
        let (a, b) = par::join("test", rayon::current_thread_index, || 7);
        assert!(a.is_some() && b == 7);
        let panicked = std::panic::catch_unwind(|| {
            par::map("test", (0..10).collect(), |k: usize| {
                assert!(k != 5, "item {k}");
            });
        });
        assert!(panicked.is_err());
    }
}
