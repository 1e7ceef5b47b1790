//! The chance agents `expectimax`, `star1` and `star2`: depth-limited expectimax and
//! Ballard's *-minimax pruning of it, for zero-sum two-seat games with or without chance.
//!
//! # Values
//!
//! Every node's value is an [`Exact`] fraction from one fixed *view* seat for the whole
//! search: the root's mover (seat 0 at a chance root). Decision nodes of the view seat
//! maximise, those of the other seat minimise, so a turn of several consecutive
//! decisions by one seat needs no special case. A chance node is the weighted mean
//! `Σ wᵢ·vᵢ / Σ wᵢ` of its outcomes, exact: the search never rounds, and the value is
//! turned into an `f64` only when reported. Finished games score the evaluator's upper
//! bound `U` for a win of the view seat, its lower bound `L` for a loss and 0 for a draw;
//! the horizon scores `evaluate(state, view)`, or what [`Horizon`] says instead (the
//! mean of playouts, or a quiescence search). Every value thus lies in `[L, U]`.
//!
//! # Depth
//!
//! A decision is one ply of depth; a chance node is not: it is always expanded, and its
//! outcomes are searched at the same remaining depth. A decision node with no depth left
//! is a leaf.
//!
//! # Pruning (Ballard 1983, "The *-minimax search procedure for trees containing chance
//! nodes"; Hauk, Buro and Schaeffer 2004, "Rediscovering *-Minimax Search")
//!
//! Decision nodes do alpha-beta (fail-soft) in every mode but plain `expectimax`, which
//! prunes nothing. At a chance node searched with window `(α, β)`, each outcome `i` of
//! weight `wᵢ` (total `W`) has known bounds `loᵢ ≤ vᵢ ≤ hiᵢ`, at first `L` and `U`.
//! Before outcome `i` is searched, the others contribute at most `Hᵢ = Σ_{j≠i} wⱼ·hiⱼ`
//! and at least `Lᵢ = Σ_{j≠i} wⱼ·loⱼ` (searched outcomes with their exact values), so the
//! node fails low if `vᵢ ≤ (α·W − Hᵢ)/wᵢ` and high if `vᵢ ≥ (β·W − Lᵢ)/wᵢ`: outcome `i`
//! is searched with exactly that window, and a value outside it ends the node with the
//! bound `(Hᵢ + wᵢ·vᵢ)/W` or `(Lᵢ + wᵢ·vᵢ)/W` (Star1).
//!
//! Star2 adds a probing phase first: for each outcome that leads to a decision node, the
//! search looks at that node's first move only (the table's move first). At a node of
//! the view seat (a max node) its value, unless it failed low, is a lower bound `loᵢ`; at
//! the other seat's node, unless it failed high, an upper bound `hiᵢ`. Ballard's Star2
//! assumes regular trees whose chance outcomes all lead to max (or all to min) nodes and
//! probes for a β cut-off only; here an outcome may lead to either seat's decision (a
//! Pig roll of 1 passes the turn), so each probe tightens whichever bound it can, and the
//! node cuts off as soon as `Σ wᵢ·loᵢ ≥ β·W` or `Σ wᵢ·hiᵢ ≤ α·W`. The Star1 phase then
//! starts from the probed bounds. A probe's window is Star1's window for that outcome,
//! and a probe is skipped when its bound cannot cut: lower bounds only serve if `β ≤ U`,
//! upper bounds only if `α ≥ L` (without this, probing at the root's chance nodes, whose
//! window is unbounded, cost more than it saved). The full search re-finds a probed
//! move's value in the table instead of searching it again.
//!
//! Pruning only ever skips work whose result cannot matter, so at a fixed depth all three
//! agents return the same [`Exact`] root value (`tests/expectimax.rs` checks it against
//! a separate plain expectimax).
//!
//! # Move order
//!
//! At a decision node the table's move goes first, then the rest by the evaluator's
//! [`Evaluator::move_hint`], highest first (the generator's order among equal hints).
//! With `history` ([`ExpectimaxConfig::history`], `history=true`), as in `ab`, noisy
//! moves come next, and moves of equal hint are ranked by killers (quiet moves that cut
//! off at the same ply) and then by the history table (quiet moves weighted by the
//! depth of their cut-offs), both learnt in the current search. Order never changes a
//! value, only how soon Star1/Star2 cut off: on 3Will, whose evaluator hints locking
//! steps, attempts on blockers and forward steps first, the hints save a quarter of the
//! nodes of a depth-4 search.
//!
//! # Transposition table
//!
//! A fixed-size [`ChanceTable`] of `hash` MiB, allocated when the agent is built (or,
//! on a thread that reuses tables, taken over cleared from a dropped agent): per
//! position the remaining depth, exact bounds `[lo, hi]` known at that depth and the best
//! move. Its bounds are used only at exactly the remaining depth they were searched to
//! (a deeper value would be a different number from fixed-depth expectimax, breaking
//! exactness); its move orders the decision node at any depth. Each search starts a new
//! table generation (values are relative to the view seat, so bounds of an earlier
//! search are not used, but its moves are) and the iterations share it.
//!
//! # Budgets
//!
//! Iterative deepening one decision ply at a time up to the depth limit, one
//! [`SearchInfo`] per completed iteration. A node or time limit abandons the iteration
//! in progress; the agent plays the best move of the last completed iteration, or the
//! best root move found so far in the unfinished one, or the first legal move.
//! Deepening also ends after an iteration that met no horizon evaluation and no table
//! cut-off (its value is the exact game value, which deeper iterations would repeat),
//! and before values become too fine for `i128` fractions (`MAX_DENOMINATOR`).

mod horizon;
mod search;
pub mod table;

use std::ops::{Add, Sub};

use agon_engine::{Evaluator, Seat, State, Turn};
use rand::Rng;

use crate::agent::{Agent, SearchContext, SearchInfo, SearchResult, Value};
use crate::budget::{Budget, Clock};
use crate::exact::Exact;
use crate::heuristics::Heuristics;
use crate::ordering::fallback_move;
use crate::playout::Scratch;
use crate::score::MAX_PLY;
use crate::table_pool::OutOfMemory;
use crate::tt::DEFAULT_HASH_MB;
use search::Ply;
use table::ChanceTable;

/// The depth the chance agents search when given no budget: on Pig (two decisions and
/// six outcomes a turn step) four decision plies are a few thousand nodes, quick enough
/// for tournaments of many games.
pub const DEFAULT_DEPTH: u32 = 4;

/// Which of the three chance searches to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChanceMode {
    /// Plain expectimax: every node of the depth-limited tree (`expectimax`).
    Expectimax,
    /// Alpha-beta at decision nodes and Ballard's Star1 at chance nodes (`star1`).
    Star1,
    /// Star1 plus Ballard's probing phase at chance nodes (`star2`).
    Star2,
}

/// How a chance agent searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExpectimaxConfig {
    /// When to stop. With no limit at all the search deepens to the registry's maximum
    /// depth, [`crate::alphabeta::MAX_DEPTH`].
    pub budget: Budget,
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// Plain expectimax, Star1 or Star2.
    pub mode: ChanceMode,
    /// How a decision node at the horizon is valued.
    pub horizon: Horizon,
    /// Whether decision nodes order their moves by killers and the history table too
    /// (see the module docs on move order); off, the table's move and the evaluator's
    /// hints alone.
    pub history: bool,
}

/// How the chance searches value a decision node at the horizon (finished games always
/// score their outcome).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Horizon {
    /// The evaluator's score.
    Evaluate,
    /// The mean, rounded half up to an integer, of `count` greedy playouts from the
    /// node, each scored where it stopped: its outcome (the evaluator's bounds or 0), or
    /// after `plies` plies the evaluator's score. Two kinds of ChaCha8 generator, keyed
    /// by four little-endian words, serve them; `salt` is the agent generator's next
    /// `u64`, drawn at the start of each search:
    /// - greedy tie-breaks: one generator for the node's playouts in turn, key
    ///   `salt, hash, 0, 0` (the node's hash);
    /// - chance: playout `i` draws each outcome by weight, with one
    ///   `random_range(0..total weight)`, from the generator keyed `salt, 0, i, 1`.
    ///
    /// The chance generators do not depend on the node, so the playouts of sibling
    /// nodes meet the same dice in the same order until their chance events differ in
    /// kind: common random numbers, which make the comparison of two moves less noisy
    /// than independent playouts would. Within a search the value is a function of the
    /// position, as pruning and the table need: Star1 and Star2 still return exactly
    /// plain expectimax's value, and a transposition gets the same value however it
    /// was reached.
    ///
    /// This is rollout search below a shallow tree (Tesauro and Galperin's on-line
    /// policy improvement): the playouts see far past the horizon, for the price of
    /// noise in each value. Playout plies are not counted as nodes: a `nodes` budget
    /// limits the tree, each of whose horizon nodes then costs `count` playouts.
    Playouts {
        /// Playouts per horizon node (at least 1).
        count: u32,
        /// Plies after which a playout stops (`None`: the end of the game).
        plies: Option<u32>,
    },
    /// A quiescence search below the horizon: the side to move may stand on the
    /// evaluator's score or play one of its noisy moves ([`Evaluator::is_noisy`]:
    /// Hexstrat's winning attacks), and so on below each, at most [`QUIESCENCE_PLIES`]
    /// plies deep; a chance node inside is the weighted mean of its outcomes. The
    /// value is the minimax value of that tree, a function of the position alone, so
    /// Star1 and Star2 still return exactly plain expectimax's value over it. It is
    /// searched within the node's window (fail-soft, as every decision node), and its
    /// bounds are kept in the table at remaining depth 0, where transpositions of a
    /// turn's actions find them. Its nodes count as nodes.
    ///
    /// Without it a depth-limited search sees an exchange only as far as its depth:
    /// at a Hexstrat horizon whose side to move can strike first, the evaluator alone
    /// cannot say what the strike costs.
    Quiescence,
}

/// How far below the horizon [`Horizon::Quiescence`] looks: two turns of three
/// Hexstrat attacks. A noisy move need not bring the game nearer its end, so the
/// depth needs a cap.
pub const QUIESCENCE_PLIES: u32 = 6;

impl Default for ExpectimaxConfig {
    /// Star2 at depth [`DEFAULT_DEPTH`] with a [`DEFAULT_HASH_MB`] table.
    fn default() -> Self {
        ExpectimaxConfig {
            budget: Budget {
                depth: Some(DEFAULT_DEPTH),
                ..Budget::default()
            },
            hash_mb: DEFAULT_HASH_MB,
            mode: ChanceMode::Star2,
            horizon: Horizon::Evaluate,
            history: false,
        }
    }
}

/// Deepening stops once a completed iteration produced a value whose denominator
/// exceeds this (2⁴⁰), before the next iteration multiplies denominators further:
/// then sums stay below 2¹²⁷ (numerators ≤ 2³¹ · denominators, least common
/// denominators ≤ 2⁸⁰) and comparisons too, so [`Exact`] never overflows.
const MAX_DENOMINATOR: i128 = 1 << 40;

/// Expectimax, Star1 or Star2 with iterative deepening and an exact-depth table (see
/// the module docs). Values are [`Value::Score`], from the side to move's view (seat
/// 0's at a chance node); [`Expectimax::exact_value`] gives the same value as an exact
/// fraction.
#[derive(Debug)]
pub struct Expectimax<S: State, E> {
    budget: Budget,
    mode: ChanceMode,
    horizon: Horizon,
    /// [`ExpectimaxConfig::history`].
    history: bool,
    /// Killers and history learnt in this search (used only with `history`).
    heuristics: Heuristics,
    eval: E,
    table: ChanceTable,
    /// The key of this search's playout generators ([`Horizon::Playouts`]).
    salt: u64,
    /// Playout buffers: moves and outcomes, and the undo tokens that take a playout back.
    scratch: Scratch<S::Move>,
    undos: Vec<S::Undo>,
    /// Per-ply buffers, grown when a search first reaches a ply (chance nodes make the
    /// number of plies exceed the depth by a game-dependent amount).
    plies: Vec<Ply<S::Move>>,
    /// The seat whose view every value of the current search takes.
    view: Seat,
    /// The evaluator's bounds, `L` and `U`.
    lower: Exact,
    upper: Exact,
    /// Nodes visited in this search: the root plus every state reached by a move or an
    /// outcome (probes included).
    nodes: u64,
    tt_hits: u64,
    /// The budget's clock of the search that last ran (or runs), started by `run`.
    clock: Clock,
    /// Set when the budget ran out; the search then unwinds, ignoring every value.
    stopped: bool,
    /// Horizon evaluations and table cut-offs in this search: an iteration that adds
    /// none computed the exact game value, which deeper iterations would repeat.
    heuristic_leaves: u64,
    /// The largest denominator of a chance node's value in this search.
    max_den: i128,
    /// The best root move of the iteration in progress so far.
    root_best: Option<S::Move>,
    /// The exact root value of the last completed iteration of the last search.
    exact: Option<Exact>,
}

impl<S: State, E: Evaluator<S>> Expectimax<S, E> {
    /// A new agent that searches with `eval` as `config` says. Panics if its table
    /// cannot be allocated; [`Expectimax::try_new`] reports it.
    pub fn new(eval: E, config: ExpectimaxConfig) -> Self {
        Expectimax::try_new(eval, config).unwrap_or_else(|e| panic!("{e}"))
    }

    /// [`Expectimax::new`], or [`OutOfMemory`] if its table cannot be allocated.
    pub fn try_new(eval: E, config: ExpectimaxConfig) -> Result<Self, OutOfMemory> {
        let (lower, upper) = eval.bounds();
        Ok(Expectimax {
            budget: config.budget,
            mode: config.mode,
            horizon: config.horizon,
            history: config.history,
            heuristics: Heuristics::new(if config.history { MAX_PLY + 1 } else { 0 }),
            eval,
            table: ChanceTable::new(config.hash_mb)?,
            salt: 0,
            scratch: Scratch::new(),
            undos: Vec::new(),
            plies: Vec::new(),
            view: 0,
            lower: Exact::int(i64::from(lower)),
            upper: Exact::int(i64::from(upper)),
            nodes: 0,
            tt_hits: 0,
            clock: Clock::start(&Budget::default()),
            stopped: false,
            heuristic_leaves: 0,
            max_den: 1,
            root_best: None,
            exact: None,
        })
    }

    /// The exact value of the last completed iteration of the last search, from the view
    /// that [`SearchResult::value`] reports (`None` if no iteration completed, or at a
    /// finished game).
    pub fn exact_value(&self) -> Option<Exact> {
        self.exact
    }

    /// Iterative deepening from `state` (see the module docs).
    fn run(
        &mut self,
        state: &S,
        info: &mut dyn FnMut(&SearchInfo<S::Move>),
    ) -> SearchResult<S::Move> {
        self.clock = Clock::start(&self.budget);
        self.nodes = 1;
        self.tt_hits = 0;
        self.stopped = false;
        self.exact = None;
        self.heuristic_leaves = 0;
        self.max_den = 1;
        self.table.new_search();
        self.heuristics.clear();
        let (view, decision) = match state.turn() {
            Turn::Seat(s) => (s, true),
            Turn::Chance => (0, false),
            Turn::Over => {
                let outcome = state.outcome().expect("a finished game has an outcome");
                return SearchResult {
                    best: None,
                    value: crate::score::finished_value(outcome, 0),
                    depth: 0,
                    nodes: self.nodes,
                    time: self.clock.elapsed(),
                    pv: Vec::new(),
                    tt_hits: 0,
                    memory_full: false,
                };
            }
        };
        self.view = view;
        let max_depth = self
            .budget
            .depth
            .unwrap_or(crate::alphabeta::MAX_DEPTH)
            .clamp(1, crate::alphabeta::MAX_DEPTH);
        let mut root = state.clone();
        let (below, above) = (self.lower.sub(Exact::int(1)), self.upper.add(Exact::int(1)));
        // (depth, value, best) of the last completed iteration.
        let mut completed: Option<(u32, Exact, Option<S::Move>)> = None;
        for depth in 1..=max_depth {
            self.root_best = None;
            let leaves_before = self.heuristic_leaves;
            let value = self.search(&mut root, depth, 0, below, above);
            if self.stopped {
                break;
            }
            let best = if decision { self.root_best } else { None };
            info(&SearchInfo {
                depth,
                value: Value::Score(value.to_f64()),
                nodes: self.nodes,
                time: self.clock.elapsed(),
                pv: best.into_iter().collect(),
            });
            completed = Some((depth, value, best));
            let exact_game_value = self.heuristic_leaves == leaves_before;
            if exact_game_value || self.max_den > MAX_DENOMINATOR || self.clock.time_is_up() {
                break;
            }
        }
        let (depth, value, best) = match completed {
            Some((depth, value, best)) => {
                self.exact = Some(value);
                (depth, Value::Score(value.to_f64()), best)
            }
            None => {
                let best = decision.then(|| self.fallback_move(state));
                let value = f64::from(self.eval.evaluate(state, view));
                (0, Value::Score(value), best)
            }
        };
        SearchResult {
            best,
            value,
            depth,
            nodes: self.nodes,
            time: self.clock.elapsed(),
            pv: best.into_iter().collect(),
            tt_hits: self.tt_hits,
            memory_full: false,
        }
    }

    /// A legal move when no iteration completed (see [`fallback_move`]).
    fn fallback_move(&self, state: &S) -> S::Move {
        let table_move = self.table.probe(state.hash()).and_then(|e| e.mv);
        fallback_move(state, self.root_best, table_move)
    }
}

impl<S: State, E: Evaluator<S>> Agent<S> for Expectimax<S, E> {
    fn search(&mut self, state: &S, ctx: SearchContext<'_, S::Move>) -> SearchResult<S::Move> {
        let SearchContext { rng, info, .. } = ctx;
        if let Horizon::Playouts { .. } = self.horizon {
            self.salt = rng.random();
        }
        self.run(state, info)
    }
}
