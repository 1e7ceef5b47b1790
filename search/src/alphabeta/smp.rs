//! Lazy SMP: several threads search the same position, sharing one transposition table.
//!
//! Every thread runs its own iterative deepening; helpers start one ply deeper on odd
//! thread numbers, so the threads spread over two depths. They cooperate only through
//! the table: an entry one thread stores saves another the subtree, and a helper that
//! runs ahead leaves deeper results and better moves for the main thread's next
//! iteration. The main thread alone obeys the budget, reports, and decides; when it is
//! done it raises the shared stop flag and the helpers unwind at once.
//!
//! With one thread this is the plain single-threaded search, exactly reproducible. With
//! more, which thread stores what first depends on timing, so results may differ from
//! run to run (more threads reach deeper in the same time, measured in the closing
//! notes of issue 3).

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Arc;

use agon_engine::{Deterministic, Evaluator};

use super::core::{Core, CoreOptions, MAX_DEPTH};
use crate::agent::{SearchInfo, SearchResult};
use crate::budget::Budget;
use crate::tt::TranspositionTable;

/// A main search thread plus `threads - 1` helpers over one shared table.
#[derive(Debug)]
pub(crate) struct Searcher<S: agon_engine::State, E> {
    tt: Arc<TranspositionTable>,
    stop: Arc<AtomicBool>,
    main: Core<S, E>,
    helpers: Vec<Core<S, E>>,
}

impl<S: Deterministic, E: Evaluator<S>> Searcher<S, E> {
    /// A searcher with a `hash_mb` MiB table and `threads` threads (at least one).
    pub(crate) fn new(eval: E, hash_mb: usize, threads: usize, options: CoreOptions) -> Self {
        let tt = Arc::new(TranspositionTable::new(hash_mb));
        let stop = Arc::new(AtomicBool::new(false));
        let core = || Core::new(eval.clone(), Arc::clone(&tt), Arc::clone(&stop), options);
        Searcher {
            main: core(),
            helpers: (1..threads.max(1)).map(|_| core()).collect(),
            tt: Arc::clone(&tt),
            stop: Arc::clone(&stop),
        }
    }

    /// Searches `state` within `budget` on every thread; returns the main thread's
    /// result with the nodes of all threads added up.
    pub(crate) fn run(
        &mut self,
        state: &S,
        budget: &Budget,
        info: &mut dyn FnMut(&SearchInfo<S::Move>),
    ) -> SearchResult<S::Move> {
        self.tt.new_search();
        self.stop.store(false, Relaxed);
        if self.helpers.is_empty() {
            return self.main.run(state, budget, 1, info);
        }
        let helper_budget = Budget {
            depth: Some(budget.depth.unwrap_or(MAX_DEPTH)),
            ..Budget::default()
        };
        let (main, helpers, stop) = (&mut self.main, &mut self.helpers, &self.stop);
        let mut result = std::thread::scope(|scope| {
            for (i, helper) in helpers.iter_mut().enumerate() {
                let first_depth = 1 + (i as u32 + 1) % 2;
                scope.spawn(move || helper.run(state, &helper_budget, first_depth, &mut |_| {}));
            }
            let result = main.run(state, budget, 1, info);
            stop.store(true, Relaxed);
            result
        });
        result.nodes += self.helpers.iter().map(Core::nodes).sum::<u64>();
        result
    }
}
