//! [`Lane`]: one thread's place in an alpha-beta search (which iteration depths it
//! searches, what it learns of the other threads' progress), and [`CacheLine`], the
//! padding that keeps values every thread reads apart. The single-threaded search runs
//! one lane alone; Lazy SMP ([`super::smp`]) deals one to each thread.

use std::sync::atomic::{AtomicU32, Ordering::Relaxed};
use std::sync::Arc;

/// A value alone in its cache lines (128 bytes: two lines, since x86 processors fetch
/// lines in pairs). The flags every thread reads at every node live in one, so that no
/// write to a neighbouring value makes each of those reads a cache miss (false
/// sharing); that costs nothing on one core and can take most of the speed of several.
#[derive(Debug, Default)]
#[repr(align(128))]
pub(crate) struct CacheLine<T>(pub(crate) T);

impl<T> std::ops::Deref for CacheLine<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}

/// One thread's place in a search: which iteration depths it searches, what it learns
/// of the others' progress, and what it completed. Alone, it is the plain deepening one
/// ply at a time.
#[derive(Clone, Debug)]
pub(crate) struct Lane {
    /// 0 for the main thread, `1..` for the helpers.
    thread: usize,
    /// The deepest iteration any thread of the search has completed; `None` alone.
    deepest: Option<Arc<CacheLine<AtomicU32>>>,
    /// The depth of the iteration in progress.
    iteration: u32,
    /// Set when the iteration in progress was found superseded: another thread has
    /// completed one at least as deep, so this one is abandoned and the deepening goes
    /// on.
    superseded: bool,
    /// Whether the last completed iteration proved the value (which ends the deepening).
    settled: bool,
}

impl Lane {
    /// The only thread of a search.
    pub(crate) fn alone() -> Self {
        Lane {
            thread: 0,
            deepest: None,
            iteration: 0,
            superseded: false,
            settled: false,
        }
    }

    /// Thread `thread` (0: the main one) of a search whose deepest completed
    /// iteration is kept in `deepest`.
    pub(super) fn new(thread: usize, deepest: Arc<CacheLine<AtomicU32>>) -> Self {
        Lane {
            thread,
            deepest: Some(deepest),
            ..Lane::alone()
        }
    }

    /// Starts an iteration of `depth`.
    pub(crate) fn begin(&mut self, depth: u32) {
        (self.iteration, self.superseded) = (depth, false);
    }

    /// Whether some other thread has completed an iteration as deep as the one in
    /// progress (never, alone): this one is then wasted work, to be abandoned.
    #[inline]
    pub(crate) fn superseded(&mut self) -> bool {
        self.superseded |= self
            .deepest
            .as_ref()
            .is_some_and(|deepest| deepest.load(Relaxed) >= self.iteration);
        self.superseded
    }

    /// Whether a stopped iteration goes on with the next: it was only superseded, and
    /// it was not the last (then the thread that completed the last ends the search).
    pub(crate) fn resumes(&mut self, max_depth: u32) -> bool {
        std::mem::take(&mut self.superseded) && self.iteration < max_depth
    }

    /// Records that this thread completed an iteration of `depth`, `proven` or not,
    /// and tells the other threads.
    pub(crate) fn completed(&mut self, depth: u32, proven: bool) {
        self.settled = proven;
        if let Some(deepest) = &self.deepest {
            deepest.fetch_max(depth, Relaxed);
        }
    }

    /// Whether the last iteration this thread completed proved the value: it holds at
    /// every depth, so it outranks any deeper unproven iteration of another thread.
    pub(crate) fn settled(&self) -> bool {
        self.settled
    }

    /// The depth of this thread's next iteration after one of `done` (0 before the
    /// first), at most `max_depth`. Deepening goes one depth at a time, but from `jump`
    /// (the solver's last heuristic iteration) straight to `max_depth`, its exhaustive
    /// iteration, and no skip passes over that jump. Every thread continues from the
    /// deepest iteration anyone completed; a helper then skips the depths of its skipped
    /// blocks (never `max_depth`).
    pub(crate) fn next_depth(&self, done: u32, max_depth: u32, jump: Option<u32>) -> u32 {
        let step = |d: u32| if jump == Some(d) { max_depth } else { d + 1 };
        let others = self.deepest.as_ref().map_or(0, |d| d.load(Relaxed));
        let mut depth = step(done.max(others));
        while depth < max_depth && skips(self.thread, depth) {
            depth = step(depth);
        }
        depth.clamp(1, max_depth)
    }
}

/// Whether helper `thread` skips iterations of `depth` (the main thread, 0, never
/// does). Helpers are dealt skip patterns in turn, 20 of them repeating: blocks of 1
/// depth in the 2 phases, of 2 depths in 4 phases, 3 in 6, then 4 in 8. With block
/// size `b` and phase `p` a helper searches `b` consecutive depths and skips the next
/// `b`, shifted by `p`.
pub(super) fn skips(thread: usize, depth: u32) -> bool {
    if thread == 0 {
        return false;
    }
    let mut pattern = (thread - 1) % 20;
    let mut block = 1;
    while pattern >= 2 * block {
        pattern -= 2 * block;
        block += 1;
    }
    let phase = pattern;
    ((depth as usize + phase) / block) % 2 == 1
}
