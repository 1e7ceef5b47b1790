//! Lazy SMP: several threads search the same position, sharing one transposition table.
//!
//! Every thread runs its own iterative deepening, and they cooperate through the table:
//! an entry one thread stores saves another the subtree, and a thread that runs ahead
//! leaves deeper results and better moves for the others. Threads that all deepened one
//! ply at a time would mostly repeat the main thread's work, and the main thread would
//! still complete every iteration itself, so the threads here differ:
//!
//! - **Helpers skip depths.** Helper `h` searches only some iteration depths: the
//!   helpers are dealt, in turn, blocks of 1, 2, 3 or 4 consecutive depths with
//!   different phases, and each searches a block of depths and skips the next block
//!   (the scheme Stockfish used for years). Helper 1 searches the even depths, helper 2
//!   the odd ones, helper 3 depths 1, 4, 5, 8, 9, ..., so the threads spread over depths
//!   and the helpers run ahead into deeper iterations.
//! - **Nobody repeats a completed depth.** A thread abandons its iteration as soon as
//!   another completes one as deep or deeper, and every thread's next iteration is
//!   deeper than the deepest anyone completed (a helper's then skips on in its pattern).
//! - **The first thread to finish ends the search.** A thread that completes the last
//!   iteration of the budget (or proves the value) stops every other, and the result is
//!   taken from the thread with the deepest completed iteration (a proven one counts as
//!   deepest; ties go to the main thread). Only completed iterations count: a thread
//!   stopped in the middle of one gives the one before, never a half-searched one.
//! - **A move another thread is searching waits.** At a node three or more plies from
//!   the horizon, a thread puts off each move after the first whose child another
//!   thread is searching at that moment, and comes back to it once its other moves
//!   are done ([`super::busy`]): two threads entering a node together would otherwise
//!   search its children in the same order, and where nodes have dozens of moves
//!   (Invector 8×7) the second thread's work would be nearly all repetition.
//! - **No false sharing.** Each thread's search state ([`Core`]) and the flags all
//!   threads read at every node (stop, deepest completed) lie in cache lines of their
//!   own ([`CacheLine`]), so that one thread's writes at every node never turn another's
//!   reads into cache misses.
//!
//! The main thread alone obeys the node and time budgets and reports each of its
//! iterations; if the result comes from a helper's deeper iteration, that is reported
//! last. Reported nodes add up all threads.
//!
//! How it scales, and what each of these choices measured when it was made:
//! `docs/decisions.md`, `experiments/lazy-smp` and `results/thread-scaling`.
//!
//! With one thread this is the plain single-threaded search, exactly reproducible. With
//! more, which thread stores what first depends on timing, so results may differ from
//! run to run (a proven value does not: see `tests/connect4_search.rs`).

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering::Relaxed};
use std::sync::Arc;
use std::time::Instant;

use agon_engine::{Deterministic, Evaluator};

use super::busy::Busy;
use super::core::{Core, MAX_DEPTH};
use super::lane::{CacheLine, Lane};
use super::CoreOptions;
use crate::agent::{SearchInfo, SearchResult};
use crate::budget::Budget;
use crate::table_pool::OutOfMemory;
use crate::tt::TranspositionTable;

/// A main search thread plus `threads - 1` helpers over one shared table.
#[derive(Debug)]
pub(crate) struct Searcher<S: agon_engine::State, E> {
    tt: Arc<TranspositionTable>,
    stop: Arc<CacheLine<AtomicBool>>,
    main: Core<S, E>,
    helpers: Vec<Core<S, E>>,
}

impl<S: Deterministic, E: Evaluator<S>> Searcher<S, E> {
    /// A searcher with a `hash_mb` MiB table and `threads` threads (at least one); fails
    /// if the table cannot be allocated.
    pub(crate) fn new(
        eval: E,
        hash_mb: usize,
        threads: usize,
        options: CoreOptions,
    ) -> Result<Self, OutOfMemory> {
        let tt = Arc::new(TranspositionTable::try_new(hash_mb)?);
        let stop = Arc::new(CacheLine(AtomicBool::new(false)));
        let busy = (threads > 1).then(|| Arc::new(Busy::new()));
        let core = || {
            let (tt, stop, busy) = (Arc::clone(&tt), Arc::clone(&stop), busy.clone());
            Core::new(eval.clone(), tt, stop, busy, options)
        };
        Ok(Searcher {
            main: core(),
            helpers: (1..threads.max(1)).map(|_| core()).collect(),
            tt: Arc::clone(&tt),
            stop: Arc::clone(&stop),
        })
    }

    /// Searches `state` within `budget` on every thread; returns the result of the
    /// thread with the deepest completed iteration (see the module docs) with the nodes
    /// and table hits of all threads added up.
    pub(crate) fn run(
        &mut self,
        state: &S,
        budget: &Budget,
        info: &mut dyn FnMut(&SearchInfo<S::Move>),
    ) -> SearchResult<S::Move> {
        self.tt.new_search();
        self.stop.store(false, Relaxed);
        let start = Instant::now();
        if self.helpers.is_empty() {
            return self.main.run(state, budget, Lane::alone(), info);
        }
        let helper_budget = Budget {
            depth: Some(budget.depth.unwrap_or(MAX_DEPTH)),
            ..Budget::default()
        };
        let deepest = Arc::new(CacheLine(AtomicU32::new(0)));
        let (main, helpers, stop) = (&mut self.main, &mut self.helpers, &self.stop);
        let (main_result, helper_results) = std::thread::scope(|scope| {
            let handles: Vec<_> = helpers
                .iter_mut()
                .enumerate()
                .map(|(i, helper)| {
                    let lane = Lane::new(i + 1, Arc::clone(&deepest));
                    scope.spawn(move || {
                        let result = helper.run(state, &helper_budget, lane, &mut |_| {});
                        // A helper with no budget but depth ends by itself only when
                        // it completed the last iteration or proved the value.
                        stop.store(true, Relaxed);
                        (result, helper.lane().settled())
                    })
                })
                .collect();
            let result = main.run(state, budget, Lane::new(0, Arc::clone(&deepest)), info);
            stop.store(true, Relaxed);
            let helper_results: Vec<_> = handles
                .into_iter()
                .map(|h| h.join().expect("a search thread panicked"))
                .collect();
            (result, helper_results)
        });
        let (mut nodes, mut tt_hits) = (main_result.nodes, main_result.tt_hits);
        let mut best = (main_result, self.main.lane().settled());
        let mut from_helper = false;
        for (result, settled) in helper_results {
            nodes += result.nodes;
            tt_hits += result.tt_hits;
            if (settled, result.depth) > (best.1, best.0.depth) {
                best = (result, settled);
                from_helper = true;
            }
        }
        let mut result = best.0;
        result.nodes = nodes;
        result.tt_hits = tt_hits;
        result.time = start.elapsed();
        if from_helper {
            info(&SearchInfo {
                depth: result.depth,
                value: result.value,
                nodes,
                time: result.time,
                pv: result.pv.clone(),
            });
        }
        result
    }
}

#[cfg(test)]
mod tests {
    use agon_engine::games::connect4::{Connect4, Connect4Eval};
    use agon_engine::Game;

    use super::*;
    use crate::alphabeta::lane::skips;

    /// The depths thread `thread` searches on its own up to `max_depth`, jumping from
    /// `jump` to `max_depth`.
    fn schedule(thread: usize, max_depth: u32, jump: Option<u32>) -> Vec<u32> {
        let lane = Lane::new(thread, Arc::new(CacheLine(AtomicU32::new(0))));
        let mut depths = vec![lane.next_depth(0, max_depth, jump)];
        while *depths.last().unwrap() < max_depth {
            depths.push(lane.next_depth(*depths.last().unwrap(), max_depth, jump));
        }
        depths
    }

    #[test]
    fn helpers_spread_over_depths_and_all_reach_the_last() {
        assert_eq!(schedule(0, 9, None), (1..=9).collect::<Vec<_>>());
        assert_eq!(schedule(1, 9, None), [2, 4, 6, 8, 9]);
        assert_eq!(schedule(2, 9, None), [1, 3, 5, 7, 9]);
        assert_eq!(schedule(3, 9, None), [1, 4, 5, 8, 9]);
        assert_eq!(schedule(4, 9, None), [3, 4, 7, 8, 9]);
        // Twenty patterns, then the same again.
        assert_eq!(schedule(21, 9, None), schedule(1, 9, None));
        assert_ne!(schedule(20, 9, None), schedule(19, 9, None));
        // Every helper's pattern skips half the depths, none skips them all.
        for thread in 1..=20 {
            let skipped = (1..=40).filter(|&d| skips(thread, d)).count();
            assert!((16..=24).contains(&skipped), "helper {thread}: {skipped}");
        }
    }

    #[test]
    fn no_helper_passes_over_the_solvers_jump_to_the_exhaustive_iteration() {
        for thread in 0..40 {
            let depths = schedule(thread, MAX_DEPTH, Some(4));
            assert_eq!(
                depths.last(),
                Some(&MAX_DEPTH),
                "thread {thread}: {depths:?}"
            );
            assert!(depths.iter().rev().skip(1).all(|&d| d <= 4), "{depths:?}");
        }
        assert_eq!(schedule(0, MAX_DEPTH, Some(4)), [1, 2, 3, 4, MAX_DEPTH]);
    }

    #[test]
    fn threads_continue_from_the_deepest_completed_iteration() {
        let deepest = Arc::new(CacheLine(AtomicU32::new(0)));
        let mut main = Lane::new(0, Arc::clone(&deepest));
        let mut helper = Lane::new(1, Arc::clone(&deepest));
        assert_eq!(main.next_depth(3, 20, None), 4);
        main.begin(9);
        assert!(!main.superseded());
        helper.completed(8, false);
        main.completed(3, true);
        assert_eq!(deepest.load(Relaxed), 8);
        assert!((main.settled(), helper.settled()) == (true, false));
        assert_eq!(main.next_depth(3, 20, None), 9);
        assert_eq!(main.next_depth(3, 8, None), 8);
        // An iteration as deep as one completed is abandoned, and the deepening goes
        // on unless it was the last.
        main.begin(8);
        assert!(main.superseded() && main.resumes(20));
        assert!(!main.resumes(20), "one abandonment, one resumption");
        main.begin(8);
        assert!(main.superseded() && !main.resumes(8));
        // A helper goes on from there, in its own pattern.
        assert_eq!(helper.next_depth(4, 20, None), 10);
        // Alone, one ply at a time, whatever was completed.
        let mut alone = Lane::alone();
        alone.completed(30, false);
        assert_eq!(alone.next_depth(3, 20, None), 4);
        alone.begin(1);
        assert!(!alone.superseded());
    }

    #[test]
    fn a_stopped_thread_completes_no_iteration_and_tells_no_one() {
        // The stop flag is up before the helper starts: its first iteration is cut
        // short, and neither its result nor the shared depth may claim it.
        let tt = Arc::new(TranspositionTable::new(1));
        let stop = Arc::new(CacheLine(AtomicBool::new(true)));
        let options = CoreOptions::all_enhancements();
        let mut core = Core::new(Connect4Eval::default(), tt, stop, None, options);
        let deepest = Arc::new(CacheLine(AtomicU32::new(0)));
        let budget = Budget {
            depth: Some(6),
            ..Budget::default()
        };
        let state = Connect4.initial_state();
        let mut infos = 0;
        let r = core.run(
            &state,
            &budget,
            Lane::new(1, Arc::clone(&deepest)),
            &mut |_| infos += 1,
        );
        assert_eq!((r.depth, infos, core.lane().settled()), (0, 0, false));
        assert_eq!(deepest.load(Relaxed), 0);
        assert!(r.best.is_some());
    }
}
