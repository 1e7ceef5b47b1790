//! [`Stop`], a request from another thread to end a run between games, and
//! [`Stopped`], the error of a run that ended so. A leaf of the crate, like the
//! bad-input error.
//!
//! The binary needs neither: Ctrl-C ends its process, and since a run's files are
//! flushed game by game and a torn last row is cut on resume, `--resume` continues the
//! run as if it had not been stopped. A front end that runs commands inside a process
//! that must live on (the Python bindings, on Ctrl-C) requests a [`Stop`] instead: the
//! run starts no further game, writes the games that finish in index order as always,
//! leaves out what marks a run finished (summary.csv and the files written with it),
//! and returns [`Stopped`]; the folder is then exactly that of a killed run, and
//! `--resume` continues it to the files of an uninterrupted run.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// A request to stop, shared by its clones: one is given to the command
/// ([`crate::run_until`]), another kept by whoever may ask it to stop. Only runs of
/// games answer it (`tournament`, `run`, `balance` and `agon` alone,
/// [`crate::stops_between_games`]); every other command runs to its end.
#[derive(Clone, Debug, Default)]
pub struct Stop(Arc<AtomicBool>);

impl Stop {
    /// A request not yet made.
    pub fn new() -> Stop {
        Stop::default()
    }

    /// Asks every holder of a clone to stop: a run starts no game after this.
    pub fn request(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether [`Stop::request`] was called on this request or a clone of it.
    pub fn requested(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// The error of a run that a [`Stop`] ended before its last game: `played` of its
/// `total` games are in its folder (in a study, of the run being played), and the same
/// command with `--resume` continues it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "stopped on request after {played} of {total} games; the games played are kept in \
     the run's folder, and the same command with --resume continues it"
)]
pub struct Stopped {
    /// Games in the run's folder (those played before the stop, a resumed run's earlier
    /// games included).
    pub played: u64,
    /// Games the run (or its shard) plans.
    pub total: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_reaches_every_clone() {
        let stop = Stop::new();
        let held = stop.clone();
        assert!(!held.requested());
        stop.request();
        assert!(held.requested() && stop.requested());
        assert!(!Stop::new().requested());
    }
}
