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

/// Names every thread of the rayon pool (which evaluates graphs for the workers) and
/// makes it run at a lower priority than the UI thread. Call before anything uses the
/// pool.
pub fn lower_worker_priority() {
    let _ = rayon::ThreadPoolBuilder::new()
        .thread_name(|i| format!("tuft-eval-{i}"))
        .start_handler(|_| lower_this_threads_priority(Priority::Below))
        .build_global();
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
}
