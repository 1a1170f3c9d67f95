//! One thread's devices at work in a process at a time.
//!
//! Mesa's software OpenGL (llvmpipe, as Debian 12 ships it, the adapter wgpu finds on a
//! machine without a GPU) shares one screen between every context of a process, and two
//! contexts working at once corrupt its heap: a frame read back on one thread while a
//! timestamp query is freed on another dies with SIGSEGV inside `swrast_dri.so`. An
//! [`Offscreen`](crate::Offscreen) holds a [`DeviceTurn`] for its whole life, so a
//! process opening devices on several threads (a test suite) uses them one thread after
//! another. Anything else that opens a device beside it (an egui test harness) takes one too.

use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::ThreadId;

/// The thread holding the turn and how many turns it holds, and the wake-up for threads
/// waiting for it.
static HELD: Mutex<Option<(ThreadId, usize)>> = Mutex::new(None);
static FREED: Condvar = Condvar::new();

/// The right to have a device open; other threads wait until every turn their holder
/// took has dropped.
///
/// The thread that takes a turn holds it: the turns it takes while holding one are
/// granted at once (a test with two editors open), and another thread waits.
#[derive(Debug)]
pub struct DeviceTurn {
    _private: (),
}

/// The state, whatever a panic on another thread left: each update below is one store.
fn held() -> MutexGuard<'static, Option<(ThreadId, usize)>> {
    tuft_strands::par::lock(&HELD)
}

impl DeviceTurn {
    /// Waits until no other thread holds a turn in this process, then holds one.
    pub fn take() -> Self {
        let me = std::thread::current().id();
        let mut held = FREED
            .wait_while(held(), |h| h.is_some_and(|(owner, _)| owner != me))
            .unwrap_or_else(PoisonError::into_inner);
        let count = held.map_or(0, |(_, count)| count);
        *held = Some((me, count + 1));
        Self { _private: () }
    }
}

impl Drop for DeviceTurn {
    fn drop(&mut self) {
        let mut held = held();
        *held = match *held {
            Some((owner, count)) if count > 1 => Some((owner, count - 1)),
            _ => None,
        };
        if held.is_none() {
            FREED.notify_all();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn a_thread_holding_a_turn_takes_more_and_lets_go_with_the_last() {
        let me = std::thread::current().id();
        let first = DeviceTurn::take();
        let second = DeviceTurn::take();
        assert_eq!(*held(), Some((me, 2)));
        drop(first);
        assert_eq!(*held(), Some((me, 1)));
        drop(second);
        // Another test's thread may take it the moment it is free.
        assert!(held().is_none_or(|(owner, _)| owner != me));
    }

    #[test]
    fn threads_hold_turns_one_at_a_time() {
        let inside = AtomicUsize::new(0);
        let most = AtomicUsize::new(0);
        std::thread::scope(|scope| {
            for i in 0..4 {
                let worker = std::thread::Builder::new().name(format!("turn taker {i}"));
                worker
                    .spawn_scoped(scope, || {
                        for _ in 0..50 {
                            let _turn = DeviceTurn::take();
                            let now = inside.fetch_add(1, Ordering::SeqCst) + 1;
                            most.fetch_max(now, Ordering::SeqCst);
                            std::thread::yield_now();
                            inside.fetch_sub(1, Ordering::SeqCst);
                        }
                    })
                    .expect("a thread");
            }
        });
        assert_eq!(most.load(Ordering::SeqCst), 1);
    }
}
