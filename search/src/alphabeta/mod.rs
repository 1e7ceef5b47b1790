//! The `ab` agent: negamax alpha-beta with iterative deepening, principal variation
//! search, aspiration windows, killer/history ordering, quiescence, anticipation of
//! immediate losses and a shared
//! transposition table, on one thread or several (Lazy SMP), for deterministic zero-sum
//! two-seat games.
//!
//! The search core ([`core`]) is shared with the exact solver ([`crate::solve`]); the
//! two differ only in options and in how they report. [`crate::heuristics`] holds what
//! the search learns about move order, [`smp`] runs threads over one table.
//!
//! # Seats, not plies, decide the sign
//!
//! A turn may be several consecutive decisions by one seat (Invector's pie-rule swap is
//! followed by a move of the seat that moved first; a game may grant an extra move). A
//! node's score is from the view of the seat to move there, and a child's score is
//! negated only when the child's mover differs from the parent's. A finished child is
//! scored from the parent mover's view directly from [`agon_engine::State::outcome`].
//!
//! # Proven results
//!
//! The core counts heuristic leaves (horizon evaluations, quiescence nodes, and table
//! cut-offs on results that themselves depended on heuristic leaves). A subtree searched
//! without meeting any is exact for the whole game: its table entry is marked proven,
//! valid at every depth, and an iteration that meets none ends the deepening, since
//! deeper iterations would find the same. A mate score at the root also ends it if it is
//! near enough: a win in `n ≤ d` plies found by a depth-`d` search is a forced win, and
//! the fastest one, because a faster one lies within the horizon too (and symmetrically
//! for the slowest loss). A mate further than `d` plies can only come from a proven
//! table entry or quiescence and may be beaten by a faster line beyond the horizon, so
//! the deepening goes on.
//!
//! # Repetition rules
//!
//! A game may end a line because a position repeats (Romgon's threefold rule). The
//! history that counts repetitions is not part of a position's hash, so the value of a
//! subtree that met such an end ([`agon_engine::State::ended_by_history`]) belongs to
//! the path, not the position: the search never stores it. Since one agent keeps its
//! table for a whole game, this is what stops a repetition met in one move's search from
//! deciding the same position reached another way later. What a table cannot see (the
//! graph-history interaction that every engine with a table and a repetition rule has):
//! an entry stored where no repetition was within reach, probed on a path where one is.
//! The search then misses that repetition at that node, as chess engines do with their
//! repetition draws; `tests/repetition.rs` shows both.
//!
//! # Budgets
//!
//! Iterations deepen one ply at a time up to the depth limit (one thread alone; see
//! below for several). A node or time limit abandons the iteration in progress: the
//! agent plays the best move of the last completed iteration, or, if even the first did
//! not complete, the best root move searched so far (or the table's move, or the first
//! legal move). With several threads
//! ([`smp`]) the node and time budgets bind the main thread, and its helpers stop when
//! it does; a depth budget binds them all, and the first thread to complete its last
//! iteration ends the search. The result is then the deepest iteration any thread
//! completed (helpers skip depths, so one may be deeper than the main thread's), and
//! the nodes are those of all threads.

mod busy;
pub(crate) mod core;
mod lane;
mod smp;
mod transpositions;

use agon_engine::{Deterministic, Evaluator, State};

use crate::agent::{Agent, SearchContext, SearchResult};
use crate::budget::Budget;
use crate::table_pool::OutOfMemory;
use crate::tt::DEFAULT_HASH_MB;
pub use core::{MAX_DEPTH, QUIESCENCE_PLIES};
pub(crate) use smp::Searcher;

/// The depth `ab` searches when given no budget: on the default Invector board (8×7,
/// about 100 moves a node) four plies take well under a second, quick enough for
/// tournaments of many games, and deep enough to see a capture and its recapture twice.
pub const DEFAULT_DEPTH: u32 = 4;

/// Which search enhancements alpha-beta uses. Each changes only how much is searched,
/// never the value at a fixed depth (quiescence excepted: it changes what a leaf is
/// worth, and is compared against minimax with the same quiescence); the differential
/// tests check every combination. All are on by default.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Enhancements {
    /// Principal variation search: null windows after the first move, re-searching
    /// the moves that beat it.
    pub pvs: bool,
    /// Aspiration windows around the previous iteration's score at the root.
    pub aspiration: bool,
    /// Killer moves: two quiet cut-off moves per ply, tried early in sibling nodes.
    pub killers: bool,
    /// The history table: quiet moves ranked by the cut-offs they caused.
    pub history: bool,
    /// Quiescence search of the evaluator's noisy moves below the horizon.
    pub quiescence: bool,
    /// Anticipation: a move after which the opponent can win at once (as the
    /// evaluator's [`Evaluator::opponent_wins_next`] says) is scored as that loss
    /// without being searched, and tried last. Used only where the reply is within the
    /// horizon (two or more plies left), so the fixed-depth value is unchanged.
    pub anticipation: bool,
}

impl Enhancements {
    /// Every enhancement on.
    pub const ALL: Enhancements = Enhancements {
        pvs: true,
        aspiration: true,
        killers: true,
        history: true,
        quiescence: true,
        anticipation: true,
    };

    /// Every enhancement off: plain alpha-beta with the table move first.
    pub const NONE: Enhancements = Enhancements {
        pvs: false,
        aspiration: false,
        killers: false,
        history: false,
        quiescence: false,
        anticipation: false,
    };

    /// All 64 combinations, `NONE` first and `ALL` last.
    pub fn combinations() -> impl Iterator<Item = Enhancements> {
        (0..64u32).map(|bits| Enhancements {
            pvs: bits & 1 != 0,
            aspiration: bits & 2 != 0,
            killers: bits & 4 != 0,
            history: bits & 8 != 0,
            quiescence: bits & 16 != 0,
            anticipation: bits & 32 != 0,
        })
    }
}

/// Forward pruning: searching less where a move is unlikely to matter. Unlike
/// [`Enhancements`], pruning changes the value a fixed-depth search finds (a reduced or
/// skipped move may hide a better line), so it trades exactness at a depth for depth
/// per node; the differential tests against plain minimax run without it. A subtree
/// searched to its end without meeting a heuristic leaf is exact either way: late-move
/// reductions skip no move, so proven results stay proven. A mate score remains a forced
/// result, but with reductions it need not be the fastest one.
///
/// Futility, late-move and follow-up pruning never skip a move that ends the game. Where
/// the game rules the end out ([`agon_engine::State::may_end_game`], or for a whole node
/// [`agon_engine::State::any_move_may_end_game`]) a skipped move is not even played;
/// otherwise it is played and taken back to see. A node's first skip means every later
/// quiet move is skipped too (after follow-up pruning's first skip, every later move),
/// with the same bound, so the node then drops them at once but those that may end the
/// game (and, for late-move pruning alone, the killers), without ordering them one by
/// one: the same search, for less work.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Pruning {
    /// Late-move reductions: with principal variation search, a quiet move late in the
    /// order (not the table move, a noisy move, a killer, or one of the first
    /// [`LMR_FULL_MOVES`]) at a node with at least [`LMR_FROM_DEPTH`] plies left is
    /// first searched with a null window at a reduced depth, growing with the depth
    /// and the move's place in the order; only a move that then beats alpha is searched
    /// again at full depth.
    pub lmr: bool,
    /// Futility pruning: at a node one or two plies above the horizon, searched with a
    /// null window, a quiet move after the first is skipped when the evaluator's score
    /// of the node plus a margin ([`FUTILITY_MARGIN`] steps per ply left) cannot reach
    /// alpha: such a move would have to gain more than the margin in one or two plies.
    /// A move that ends the game is never skipped.
    /// Skipped moves make the node's value heuristic, so it is never stored as proven.
    pub futility: bool,
    /// Late-move pruning (move-count pruning): at a node one or two plies above the
    /// horizon, searched with a null window, the quiet moves (not noisy, not a killer)
    /// after the first [`LMP_MOVES`] + [`LMP_MOVES_PER_PLY_SQUARED`] × depth² are
    /// skipped, taken to fail low: in a good order a move that late rarely raises
    /// alpha. A move that ends the game is never skipped, and the node is never stored
    /// as proven.
    pub lmp: bool,
    /// Razoring: at a node one or two plies above the horizon, searched with a null
    /// window, whose evaluator's score plus a margin ([`RAZOR_MARGIN`] steps per ply
    /// left) cannot reach alpha, the quiescence search of the node (the evaluator's
    /// score where the game has no noisy moves) is asked first; if it also fails low,
    /// it is the node's value, a heuristic bound, and no move is searched.
    pub razoring: bool,
    /// Null-move pruning: at a null-window node with at least [`NULL_FROM_DEPTH`] plies
    /// left, whose evaluator's score is at least beta, where the game offers a pass
    /// ([`agon_engine::NullMove`]) and the move that reached the node was not one, the
    /// side to move passes and the opponent's reply is searched with a null window
    /// about beta, [`null_reduction`] plies less deep. If even a free move for the
    /// opponent cannot bring the score below beta, the node fails high without searching
    /// its moves, a heuristic bound. Games where having to move hurts (zugzwang) defeat
    /// it, which is why only some games offer the pass.
    pub null_move: bool,
    /// Follow-up pruning: at a null-window node that continues its mover's turn (the
    /// move that reached it was the same seat's: APV's order after its move), only the
    /// first `K` moves in the order are searched and the rest are taken to fail low, at
    /// most alpha, at any depth. Such a decision often changes little that the search
    /// can see (an APV order moves nothing until the side's next turn), so the table's
    /// or the history's first choice stands for all; a node that must prove its value
    /// (a window wider than one) still searches every move. A move that ends the game
    /// is never skipped, and the node is never stored as proven. `None`: off.
    pub follow_ups: Option<u8>,
}

impl Pruning {
    /// No pruning: every move searched to the full depth.
    pub const NONE: Pruning = Pruning {
        lmr: false,
        futility: false,
        lmp: false,
        razoring: false,
        null_move: false,
        follow_ups: None,
    };
}

/// Moves searched at full depth at every node before late-move reductions start.
pub const LMR_FULL_MOVES: usize = 3;

/// The least remaining depth at which a node reduces its late moves: shallower, a
/// reduction would turn a move's search into a bare evaluation.
pub const LMR_FROM_DEPTH: u32 = 3;

/// The deepest remaining depth at which late-move pruning skips moves.
pub const LMP_TO_DEPTH: u32 = 2;

/// Moves every node searches before late-move pruning skips any, besides
/// [`LMP_MOVES_PER_PLY_SQUARED`] for each square of the plies left.
pub const LMP_MOVES: usize = 3;

/// See [`LMP_MOVES`]: one ply left searches 5 moves, two plies 11.
pub const LMP_MOVES_PER_PLY_SQUARED: usize = 2;

/// The deepest remaining depth at which futility pruning skips moves.
pub const FUTILITY_TO_DEPTH: u32 = 2;

/// Futility pruning's margin per ply left, in steps of a 400th of the evaluator's range
/// (the first aspiration window's half-width: one stone on Invector, half an open three
/// on Connect Four).
pub const FUTILITY_MARGIN: i32 = 2;

/// The least remaining depth at which null-move pruning passes: shallower, the reduced
/// search of the reply would be a bare evaluation, which the node's own score already
/// is.
pub const NULL_FROM_DEPTH: u32 = 3;

/// How many plies less than a move's the reply to a pass is searched, at a node `depth`
/// plies from the horizon: 2, and one more per four plies beyond 4, as chess engines
/// reduce more the deeper the node (never so many that the reply is not searched).
pub fn null_reduction(depth: u32) -> u32 {
    (2 + depth.saturating_sub(4) / 4).min(depth - 1)
}

/// The deepest remaining depth at which razoring drops a node to quiescence.
pub const RAZOR_TO_DEPTH: u32 = 2;

/// Razoring's margin per ply left, in the steps of [`FUTILITY_MARGIN`]: wider than
/// futility's, since it gives up on every move of the node at once.
pub const RAZOR_MARGIN: i32 = 3;

impl Default for Enhancements {
    /// [`Enhancements::ALL`].
    fn default() -> Self {
        Enhancements::ALL
    }
}

/// How an `ab` agent searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AlphaBetaConfig {
    /// When to stop. With no limit at all the search deepens until the value is proven
    /// or [`MAX_DEPTH`] is reached.
    pub budget: Budget,
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// Search threads sharing the table (Lazy SMP); 1 is single-threaded and exactly
    /// reproducible.
    pub threads: usize,
    /// The enhancements in use.
    pub enhancements: Enhancements,
    /// The forward pruning in use (none by default).
    pub pruning: Pruning,
    /// When a node or time budget cuts an iteration short, play the best move that
    /// iteration had found if it beat the previous iteration's (a root move whose
    /// search raised alpha), rather than the last completed iteration's move: the
    /// nodes spent on the deeper iteration then count. Off by default, so that a
    /// recorded node-budget agent keeps the search it named.
    pub partial_iterations: bool,
    /// Check extension: a node below the root whose side to move stands in check
    /// ([`agon_engine::State::in_check`]) is searched one ply deeper, on paths no
    /// longer than twice the iteration's depth, so that the horizon never falls between
    /// a threat and its answer. It changes what a fixed depth finds and costs nodes, so
    /// it is off by default; a game with no notion of check is searched as without it.
    pub check_extension: bool,
    /// Quiet wins below the horizon: at a horizon node (the first ply of quiescence)
    /// the side to move also plays each quiet move that wins the game at once, besides
    /// the noisy moves, so that a fixed depth never misses a win (or a loss, seen from
    /// the other side) one move beyond it. Only the moves the game cannot rule out as
    /// wins ([`agon_engine::State::retain_possible_wins`]) are played to see. It costs
    /// time at every horizon node, so it is off by default; a game that rules every
    /// quiet win out cheaply (or has none) pays only for asking.
    pub quiet_wins: bool,
    /// For differential tests: cut off on table entries only when they were searched to
    /// exactly the remaining depth (and never mark entries proven). The same position
    /// recurs at other depths, and a deeper result, while better, differs from what a
    /// plain fixed-depth minimax computes; in this mode `ab` at fixed depth returns
    /// exactly the plain-minimax value. Slower; not for play.
    pub exact_depth_cutoffs: bool,
}

impl Default for AlphaBetaConfig {
    /// Depth [`DEFAULT_DEPTH`], a [`DEFAULT_HASH_MB`] table, one thread, every
    /// enhancement, normal cut-offs.
    fn default() -> Self {
        AlphaBetaConfig {
            budget: Budget {
                depth: Some(DEFAULT_DEPTH),
                ..Budget::default()
            },
            hash_mb: DEFAULT_HASH_MB,
            threads: 1,
            enhancements: Enhancements::ALL,
            pruning: Pruning::NONE,
            partial_iterations: false,
            check_extension: false,
            quiet_wins: false,
            exact_depth_cutoffs: false,
        }
    }
}

/// Negamax alpha-beta with iterative deepening, the enhancements of [`Enhancements`],
/// a transposition table (bounds, best move, proven results, mate distances) and Lazy
/// SMP threads.
///
/// Values are from the side to move's view: [`crate::Value::Score`] for a heuristic
/// score (evaluator units, clamped to [`crate::score::EVAL_LIMIT`]),
/// [`crate::Value::Win`] / [`crate::Value::Loss`] for a mate score and
/// [`crate::Value::Draw`] for a proven draw. The table persists from one search to the
/// next (one agent plays one game).
#[derive(Debug)]
pub struct AlphaBeta<S: State, E> {
    budget: Budget,
    searcher: Searcher<S, E>,
}

impl<S: Deterministic, E: Evaluator<S>> AlphaBeta<S, E> {
    /// A new agent that searches with `eval` as `config` says. Panics if its table
    /// cannot be allocated; [`AlphaBeta::try_new`] reports it.
    pub fn new(eval: E, config: AlphaBetaConfig) -> Self {
        AlphaBeta::try_new(eval, config).unwrap_or_else(|e| panic!("{e}"))
    }

    /// [`AlphaBeta::new`], or [`OutOfMemory`] if its table cannot be allocated.
    pub fn try_new(eval: E, config: AlphaBetaConfig) -> Result<Self, OutOfMemory> {
        let options = CoreOptions {
            enhancements: config.enhancements,
            pruning: config.pruning,
            partial_iterations: config.partial_iterations,
            check_extension: config.check_extension,
            quiet_wins: config.quiet_wins,
            exact_depth_cutoffs: config.exact_depth_cutoffs,
            exhaustive_after: None,
            result_only: false,
            solver_table: false,
        };
        AlphaBeta::with_options(eval, config.budget, config.hash_mb, config.threads, options)
    }

    /// The agent with the core's options as given: the solver is this search run to the
    /// end of the game ([`crate::Solver`]). Fails if its table cannot be allocated.
    pub(crate) fn with_options(
        eval: E,
        budget: Budget,
        hash_mb: usize,
        threads: usize,
        options: CoreOptions,
    ) -> Result<Self, OutOfMemory> {
        Ok(AlphaBeta {
            budget,
            searcher: Searcher::new(eval, hash_mb, threads, options)?,
        })
    }
}

impl<S: Deterministic, E: Evaluator<S>> Agent<S> for AlphaBeta<S, E> {
    fn search(&mut self, state: &S, ctx: SearchContext<'_, S::Move>) -> SearchResult<S::Move> {
        let info = ctx.info;
        self.searcher.run(state, &self.budget, info)
    }
}

/// Options that tell the alpha-beta agents apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct CoreOptions {
    /// The search enhancements in use.
    pub(crate) enhancements: Enhancements,
    /// The forward pruning in use (never the solver's).
    pub(crate) pruning: Pruning,
    /// See [`AlphaBetaConfig::partial_iterations`].
    pub(crate) partial_iterations: bool,
    /// See [`AlphaBetaConfig::check_extension`] (never the solver's).
    pub(crate) check_extension: bool,
    /// See [`AlphaBetaConfig::quiet_wins`] (never the solver's).
    pub(crate) quiet_wins: bool,
    /// See [`AlphaBetaConfig::exact_depth_cutoffs`].
    pub(crate) exact_depth_cutoffs: bool,
    /// After completing an iteration of this depth, jump to the deepest one (the
    /// solver: a few cheap iterations give a move, a heuristic value and ordering to
    /// fall back on, then one exhaustive iteration proves).
    pub(crate) exhaustive_after: Option<u32>,
    /// The solver's `wdl` mode: search the exhaustive iteration with the window
    /// `-1..1` around a draw, which settles win, draw or loss but not the distance (a
    /// win found is a win within the reported plies, not necessarily the fastest).
    pub(crate) result_only: bool,
    /// The solver's table: positions under
    /// [`Symmetries::canonical_key`](agon_engine::Symmetries::canonical_key) and
    /// enhanced transposition cut-offs (see [`transpositions`]). Off for `ab`.
    pub(crate) solver_table: bool,
}
