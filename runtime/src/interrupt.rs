//! Interrupting one long move generation. A search or a perft reads its stop flag and its clock
//! between nodes; a single node of a game with long multi-leg riders on a large board can take
//! seconds to generate its moves (every path of every piece, then the legality test of each move).
//! The protocol threads register their stop flag here ([`watching`]) and the search its deadline
//! ([`until`]); the interpreter's legal move generation then cuts itself short once either is
//! reached, keeping what [`Generation`] promises.
//!
//! A cut generation still returns only legal moves, and at least one whenever the position has one
//! (so the search always has a move to answer with, and an outcome test never sees a stalemate that
//! is not there), but maybe not all of them. Whoever raised the stop discards what it computed after
//! it, so nothing else notices. Only the outermost generation of a thread is cut (not one that a
//! condition runs inside another), and never an attack test.

use std::cell::{Cell, RefCell};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

thread_local! {
    /// The stop flag this thread's work watches.
    static STOP: RefCell<Option<Arc<AtomicBool>>> = const { RefCell::new(None) };
    /// The deadline this thread's work watches.
    static DEADLINE: Cell<Option<Instant>> = const { Cell::new(None) };
    /// Calls of [`requested`] left before the clock is read again.
    static COUNTDOWN: Cell<u32> = const { Cell::new(0) };
    /// Whether the walks of an interruptible generation are running (they stop once requested).
    static ARMED: Cell<bool> = const { Cell::new(false) };
    /// How many legal move generations are running on this thread (they nest through conditions).
    static DEPTH: Cell<u32> = const { Cell::new(0) };
    /// Before this instant a stop is not acted on ([`after`]).
    static NOT_BEFORE: Cell<Option<Instant>> = const { Cell::new(None) };
    /// Whether a stop has been seen since the outermost generation began: once seen, it holds.
    static SEEN: Cell<bool> = const { Cell::new(false) };
}

/// How many calls of [`requested`] share one reading of the clock.
const CLOCK_EVERY: u32 = 32;

/// Runs `f` with `stop` watched: a legal move generation running inside it on this thread ends
/// early once the flag is raised.
pub fn watching<R>(stop: Arc<AtomicBool>, f: impl FnOnce() -> R) -> R {
    struct Restore(Option<Arc<AtomicBool>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let previous = self.0.take();
            STOP.with(|s| *s.borrow_mut() = previous);
        }
    }
    let _restore = Restore(STOP.with(|s| s.borrow_mut().replace(stop)));
    f()
}

/// Runs `f` with `deadline` watched (when given): a legal move generation running inside it on this
/// thread ends early once it has passed.
pub fn until<R>(deadline: Option<Instant>, f: impl FnOnce() -> R) -> R {
    struct Restore(Option<Instant>);
    impl Drop for Restore {
        fn drop(&mut self) {
            DEADLINE.with(|d| d.set(self.0));
        }
    }
    let _restore = Restore(DEADLINE.with(|d| d.replace(deadline)));
    f()
}

/// Runs `f` so that a generation in it is cut only after `delay` has passed: the search's root
/// moves, which a quick game generates in full (well ordered, the best answer when stopped at once),
/// while a slow one still answers a stop within the delay.
pub fn after<R>(delay: Duration, f: impl FnOnce() -> R) -> R {
    struct Restore(Option<Instant>);
    impl Drop for Restore {
        fn drop(&mut self) {
            NOT_BEFORE.with(|d| d.set(self.0));
        }
    }
    let _restore = Restore(NOT_BEFORE.with(|d| d.replace(Instant::now().checked_add(delay))));
    f()
}

/// Whether the watched stop flag is raised or the watched deadline has passed (the clock is read
/// every [`CLOCK_EVERY`] calls), or either was seen since the outermost generation began.
fn requested() -> bool {
    if SEEN.with(Cell::get) {
        return true;
    }
    if NOT_BEFORE
        .with(Cell::get)
        .is_some_and(|t| Instant::now() < t)
    {
        return false;
    }
    let seen = seen_now();
    if seen {
        SEEN.with(|s| s.set(true));
    }
    seen
}

/// Whether the watched stop flag is raised or the watched deadline has passed.
fn seen_now() -> bool {
    let raised = STOP.with(|s| {
        s.borrow()
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
    });
    if raised {
        return true;
    }
    let Some(deadline) = DEADLINE.with(Cell::get) else {
        return false;
    };
    let left = COUNTDOWN.with(Cell::get);
    if left > 0 {
        COUNTDOWN.with(|c| c.set(left - 1));
        return false;
    }
    COUNTDOWN.with(|c| c.set(CLOCK_EVERY));
    Instant::now() >= deadline
}

/// Whether a walk of an interruptible generation should stop: it is armed and a stop is requested.
pub(crate) fn interrupted() -> bool {
    ARMED.with(Cell::get) && requested()
}

/// One legal move generation, for as long as it runs: interruptible when it is the thread's
/// outermost one and a stop flag or a deadline is watched.
pub(crate) struct Generation {
    interruptible: bool,
    armed_before: bool,
}

impl Generation {
    /// Begins a generation; `allowed`: whether this one may be cut at all (a game where a capture is
    /// compulsory needs every pseudo-legal move to know whether one is a capture).
    pub(crate) fn begin(allowed: bool) -> Generation {
        let depth = DEPTH.with(|d| {
            d.set(d.get() + 1);
            d.get()
        });
        let watched = STOP.with(|s| s.borrow().is_some()) || DEADLINE.with(Cell::get).is_some();
        if depth == 1 {
            SEEN.with(|s| s.set(false));
        }
        Generation {
            interruptible: allowed && depth == 1 && watched,
            // A nested generation's walks are never cut.
            armed_before: ARMED.with(|a| a.replace(false)),
        }
    }

    /// Arms (or disarms) the walks of this generation: while armed, they end once a stop is requested.
    pub(crate) fn arm(&self, on: bool) {
        ARMED.with(|a| a.set(on && self.interruptible));
    }

    /// Whether this generation may end early now.
    pub(crate) fn stopped(&self) -> bool {
        self.interruptible && requested()
    }
}

impl Drop for Generation {
    fn drop(&mut self) {
        DEPTH.with(|d| d.set(d.get().saturating_sub(1)));
        ARMED.with(|a| a.set(self.armed_before));
    }
}
