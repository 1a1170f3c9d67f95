//! Autosave on its own timer: a named thread writes the window's newest unsaved work
//! every so often, whether or not the window draws (a window under another one, or
//! minimised, draws no frames, and its work must still reach the disk before a crash).
//!
//! The UI thread hands over what to write ([`Writer::publish`]) whenever the work
//! changes, and asks the record gone when the work is saved ([`Writer::forget`]); every
//! write and removal of a record happens under one lock, so a record just cleared by a
//! save is never written back by a timer that fired in between.

use crate::workers::lock;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;
use tuft_graph::Document;

/// What a record is written from.
#[derive(Clone, Debug)]
pub struct Snapshot {
    /// The record's file (the window's slot).
    pub record: PathBuf,
    /// The document's own file (`None`: never saved).
    pub source: Option<PathBuf>,
    /// What that file held when last opened or saved.
    pub on_disk: Option<u64>,
    /// The unsaved work.
    pub document: Document,
    /// The session's revision it was taken at.
    pub revision: u64,
}

#[derive(Default)]
struct State {
    /// The newest work handed over, not yet written.
    pending: Option<Snapshot>,
    /// The revision last written (0: none).
    written: u64,
    /// How long the timer waits between writes.
    every: Duration,
    /// The last write's failure, until the UI takes it.
    error: Option<String>,
    stop: bool,
}

/// The autosave timer's thread and what it shares with the UI.
#[derive(Debug)]
pub struct Writer {
    shared: Arc<(Mutex<State>, Condvar)>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl std::fmt::Debug for State {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("State")
            .field("written", &self.written)
            .field("every", &self.every)
            .finish_non_exhaustive()
    }
}

impl Writer {
    /// A timer writing every `every`, on a thread named "tuft autosave" (where no thread
    /// can be started, [`Writer::flush`] alone writes).
    #[must_use]
    pub fn start(every: Duration) -> Self {
        let shared = Arc::new((
            Mutex::new(State {
                every,
                ..State::default()
            }),
            Condvar::new(),
        ));
        let theirs = shared.clone();
        let thread = std::thread::Builder::new()
            .name("tuft autosave".to_owned())
            .spawn(move || run(&theirs))
            .ok();
        Self { shared, thread }
    }

    /// Hands over the newest unsaved work; the timer writes it when it next falls due.
    pub fn publish(&self, snapshot: Snapshot) {
        let (state, _) = &*self.shared;
        let mut s = lock(state);
        if s.written != snapshot.revision {
            s.pending = Some(snapshot);
        }
    }

    /// Writes what is pending now (on exit, or when asked).
    pub fn flush(&self) {
        let (state, woken) = &*self.shared;
        write_pending(&mut lock(state));
        woken.notify_all();
    }

    /// Drops what is pending and removes `record`: the work is saved, or was declined.
    pub fn forget(&self, record: &Path) {
        let (state, _) = &*self.shared;
        let mut s = lock(state);
        if s.pending.as_ref().is_some_and(|p| p.record == record) {
            s.pending = None;
        }
        s.written = 0;
        let _ = std::fs::remove_file(record);
    }

    /// The last write's failure, once.
    pub fn take_error(&self) -> Option<String> {
        lock(&self.shared.0).error.take()
    }

    /// How long the timer waits between writes, from now on.
    pub fn set_every(&self, every: Duration) {
        let (state, woken) = &*self.shared;
        lock(state).every = every;
        woken.notify_all();
    }

    /// Waits up to `limit` until revision `revision` has been written; whether it was.
    /// (For tests and scripted runs: the timer itself never waits for anyone.)
    #[must_use]
    pub fn wait_written(&self, revision: u64, limit: Duration) -> bool {
        let (state, woken) = &*self.shared;
        let s = lock(state);
        let (s, _) = woken
            .wait_timeout_while(s, limit, |s| s.written != revision)
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        s.written == revision
    }
}

impl Drop for Writer {
    fn drop(&mut self) {
        let (state, woken) = &*self.shared;
        lock(state).stop = true;
        woken.notify_all();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The timer's loop: wait `every` (or until stopped), write what is pending.
fn run(shared: &(Mutex<State>, Condvar)) {
    let (state, woken) = shared;
    let mut s = lock(state);
    while !s.stop {
        let every = s.every;
        s = woken
            .wait_timeout(s, every)
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .0;
        if s.stop {
            break;
        }
        write_pending(&mut s);
        woken.notify_all();
    }
}

fn write_pending(s: &mut State) {
    let Some(p) = s.pending.take() else {
        return;
    };
    match super::write_record(&p.record, p.source.as_deref(), p.on_disk, &p.document) {
        Ok(()) => s.written = p.revision,
        Err(e) => s.error = Some(format!("{e:#}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn snapshot(record: &Path, name: &str, revision: u64) -> Snapshot {
        Snapshot {
            record: record.to_owned(),
            source: None,
            on_disk: None,
            document: Document::new(tuft_graph::MaterialGraph::new(name)),
            revision,
        }
    }

    #[test]
    fn work_handed_over_is_written_by_the_timer_without_being_asked() {
        let dir = tempfile::tempdir().unwrap();
        let record = dir.path().join("slot.ron");
        let writer = Writer::start(Duration::from_millis(20));
        writer.publish(snapshot(&record, "first", 2));
        assert!(writer.wait_written(2, Duration::from_secs(30)));
        assert!(std::fs::read_to_string(&record).unwrap().contains("first"));
    }

    #[test]
    fn a_record_forgotten_is_not_written_back_by_the_timer() {
        let dir = tempfile::tempdir().unwrap();
        let record = dir.path().join("slot.ron");
        // A timer that will not fire during the test: only flush writes.
        let writer = Writer::start(Duration::from_secs(3600));
        writer.publish(snapshot(&record, "saved since", 5));
        writer.forget(&record);
        writer.flush();
        assert!(!record.exists());
        writer.publish(snapshot(&record, "newer", 6));
        writer.flush();
        assert!(writer.wait_written(6, Duration::ZERO));
        assert!(std::fs::read_to_string(&record).unwrap().contains("newer"));
    }
}
