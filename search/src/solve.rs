//! The `solve` agent: an exact solver for deterministic zero-sum two-seat games.
//!
//! It is the alpha-beta core of [`crate::alphabeta`] run to the end of the game. A few
//! cheap heuristic iterations (up to [`PREVIEW_DEPTH`] plies, scored by the evaluator
//! at their horizon) give a move, a heuristic value and an ordering of the first plies
//! to fall back on; then one exhaustive iteration
//! ([`MAX_DEPTH`](crate::alphabeta::MAX_DEPTH) plies) follows every line to a finished
//! game. A root score is proven when it is a mate score within the depth searched (a
//! forced win or loss, at its exact distance) or when no heuristic leaf stood behind
//! it (every line was followed to a finished game: this is how draws get proven).
//! Proven results are marked so in the table and hold at every depth.
//!
//! By default (`wdl`, on) the exhaustive iteration searches only the window around a
//! draw: it settles win, draw or loss, and a reported `Win(n)` / `Loss(n)` is then a
//! win or loss within `n` plies rather than the exact distance. That is the game's
//! result, what the Connect Four first-move facts and Invector's solved boards need, in
//! far fewer nodes than the exact distance; `wdl=false` asks for the exact distance.
//!
//! Its table stores each position once for all its symmetric images (under
//! [`Symmetries::canonical_key`](agon_engine::Symmetries::canonical_key): Invector's
//! mirrors and half turn, and which seat plays which colour), and before searching the moves of a null-window node it looks up
//! every child for one whose entry already refutes the window (enhanced transposition
//! cut-offs). `ab` does neither, so that its searches at a fixed depth stay as they
//! were.
//!
//! Scores count plies, so with exact distances it plays the fastest win and the
//! slowest loss (with `wdl`, some win and some loss), and reports
//! `Value::Win(plies)`, `Value::Loss(plies)` or `Value::Draw` from the side to move's
//! view. Under a node or time budget it may stop before the proof: it then plays the
//! best move of its deepest completed iteration and reports that iteration's heuristic
//! score as `Value::Score`, which [`crate::Value::is_proven`] tells apart. Games with
//! chance cannot be solved by it: the `Deterministic` bound refuses them at compile
//! time.
//!
//! # Why this shape
//!
//! - One exhaustive iteration follows the preview, rather than deepening one ply at a
//!   time up to the proof: the entries of the iterations in between are never deep
//!   enough to cut off the exhaustive search.
//! - A proof spends most of its time in table probes (misses in a table far larger
//!   than the caches), so what pays is searching fewer nodes: a large table of its own
//!   ([`DEFAULT_SOLVE_HASH_MB`]), symmetric images stored once, enhanced cut-offs whose
//!   children's keys are computed first and probed together so that the misses
//!   overlap, and the result alone by default.
//!
//! The measurements behind each choice are recorded in `docs/decisions.md`.
//!
//! ```compile_fail
//! // Coin Nim has chance nodes: a solver for it does not compile.
//! use agon_engine::testing::coin_nim::{CoinNimEval, CoinNimState};
//! use agon_search::solve::{SolveConfig, Solver};
//! let solver: Solver<CoinNimState, _> = Solver::new(CoinNimEval::default(), SolveConfig::default());
//! ```

use agon_engine::{Deterministic, Evaluator, State};

use crate::agent::{Agent, SearchContext, SearchInfo, SearchResult, Value};
use crate::alphabeta::{AlphaBeta, CoreOptions, Enhancements, Pruning};
use crate::budget::Budget;
use crate::table_pool::OutOfMemory;

/// Depth of the last heuristic iteration before the exhaustive one: the same as `ab`'s
/// default depth, cheap on every board the toolkit plays, so the solver always has a
/// reasonable move when a budget stops it before the proof.
pub const PREVIEW_DEPTH: u32 = crate::alphabeta::DEFAULT_DEPTH;

/// The solver's default table size in MiB, written once (as [`default_hash_mb`](crate::tt)
/// is): [`DEFAULT_SOLVE_HASH_MB`] and the registry's `hash` default text for `solve`.
macro_rules! default_solve_hash_mb {
    () => {
        512
    };
}
pub(crate) use default_solve_hash_mb;

/// The solver's table size in MiB when none is given (its `hash` default). A proof
/// visits far more positions than a move's search, and its speed depends on the table
/// (see the module docs): with exact distances 512 MiB proved Invector 5×4 in 94
/// seconds on a 2-core machine, where 16 MiB took over ten minutes. A fixed size rather than one taken from the
/// machine's memory, so that the same spec searches the same way everywhere; it fits a
/// small machine (two workers with a solver in each seat need 2 GiB) and is allocated
/// once per worker and seat in a tournament ([`crate::table_pool`]). Larger proofs
/// (Connect Four) want larger tables, given with `hash`.
pub const DEFAULT_SOLVE_HASH_MB: usize = default_solve_hash_mb!();

/// How a `solve` agent searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolveConfig {
    /// Node and time limits; with neither it runs until the proof. A depth limit caps
    /// how far it looks (a result further away stays unproven).
    pub budget: Budget,
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// Search threads sharing the table (Lazy SMP); 1 is exactly reproducible.
    pub threads: usize,
    /// Prove only win, draw or loss (much faster, and the default): the exhaustive
    /// iteration searches a window around the draw score, so a reported `Win(n)` /
    /// `Loss(n)` means a win or loss within `n` plies, not necessarily at exactly `n`.
    pub wdl: bool,
}

impl Default for SolveConfig {
    /// No limit, a [`DEFAULT_SOLVE_HASH_MB`] table, one thread, the result only (`wdl`).
    fn default() -> Self {
        SolveConfig {
            budget: Budget::default(),
            hash_mb: DEFAULT_SOLVE_HASH_MB,
            threads: 1,
            wdl: true,
        }
    }
}

/// The exact solver (see the module docs).
#[derive(Debug)]
pub struct Solver<S: State, E> {
    /// Alpha-beta with the solver's options: no aspiration, the exhaustive iteration
    /// after the preview.
    search: AlphaBeta<S, E>,
}

impl<S: Deterministic, E: Evaluator<S>> Solver<S, E> {
    /// A new solver using `eval` below the horizon of unfinished iterations. Panics if
    /// its table cannot be allocated; [`Solver::try_new`] reports it.
    pub fn new(eval: E, config: SolveConfig) -> Self {
        Solver::try_new(eval, config).unwrap_or_else(|e| panic!("{e}"))
    }

    /// [`Solver::new`], or [`OutOfMemory`] if its table cannot be allocated.
    pub fn try_new(eval: E, config: SolveConfig) -> Result<Self, OutOfMemory> {
        // No aspiration windows: the exhaustive iteration's score is a game result, far
        // from the heuristic preview's, so a window around the preview only fails.
        let options = CoreOptions {
            enhancements: Enhancements {
                aspiration: false,
                ..Enhancements::ALL
            },
            pruning: Pruning::NONE,
            partial_iterations: false,
            check_extension: false,
            quiet_wins: false,
            exact_depth_cutoffs: false,
            exhaustive_after: Some(PREVIEW_DEPTH),
            result_only: config.wdl,
            solver_table: true,
        };
        Ok(Solver {
            search: AlphaBeta::with_options(
                eval,
                config.budget,
                config.hash_mb,
                config.threads,
                options,
            )?,
        })
    }
}

impl<S: Deterministic, E: Evaluator<S>> Agent<S> for Solver<S, E> {
    fn search(&mut self, state: &S, ctx: SearchContext<'_, S::Move>) -> SearchResult<S::Move> {
        let SearchContext { rng, info, .. } = ctx;
        let mut report = |i: &SearchInfo<S::Move>| {
            let mut i = i.clone();
            i.depth = reported_depth(i.depth, &i.value, i.pv.len());
            info(&i);
        };
        let mut result = self
            .search
            .search(state, SearchContext::new(rng, &mut report));
        result.depth = reported_depth(result.depth, &result.value, result.pv.len());
        result
    }
}

/// The depth to report for an iteration. The exhaustive iteration runs with the
/// sentinel depth [`MAX_DEPTH`](crate::alphabeta::MAX_DEPTH), which says nothing to a
/// user; a proven result reports the length of its proof instead: the distance of a
/// forced win or loss, or the length of the principal variation of a draw.
fn reported_depth(depth: u32, value: &Value, pv_len: usize) -> u32 {
    if depth < crate::alphabeta::MAX_DEPTH {
        return depth;
    }
    match *value {
        Value::Win(plies) | Value::Loss(plies) => plies,
        _ => pv_len as u32,
    }
}
