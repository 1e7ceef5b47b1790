//! The `ab` agent: negamax alpha-beta with iterative deepening and a transposition
//! table, for deterministic zero-sum two-seat games.
//!
//! The search core (the private `Core`) is shared with the exact solver
//! ([`crate::solve`]); the two differ only in options and in how they report.
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
//! The core counts heuristic leaves (horizon evaluations, and table cut-offs on results
//! that themselves depended on heuristic leaves). A subtree searched without meeting any
//! is exact for the whole game: its table entry is marked proven, valid at every
//! depth, and an iteration that meets none ends the deepening, since deeper iterations
//! would find the same. A mate score at the root also ends it if it is near enough: a
//! win in `n ≤ d` plies found by a depth-`d` search is a forced win, and the fastest
//! one, because a faster one lies within the horizon too (and symmetrically for the
//! slowest loss). A mate further than `d` plies can only come from a proven table entry
//! and may be beaten by a faster line beyond the horizon, so the deepening goes on.
//!
//! # Budgets
//!
//! Iterations deepen one ply at a time up to the depth limit. A node or time limit
//! abandons the iteration in progress: the agent plays the best move of the last
//! completed iteration, or, if even the first did not complete, the best root move
//! searched so far (or the table's move, or the first legal move).

use std::sync::Arc;

use agon_engine::{Deterministic, Evaluator, Move, State, Turn, ZeroSumTwoPlayer};

use crate::agent::{Agent, AgentRng, AgentStats, SearchInfo, SearchResult, Value};
use crate::budget::{Budget, Clock};
use crate::ordering::move_to_front;
use crate::score::{
    clamp_eval, finished_value, from_table, is_mate, terminal, to_table, value_of, INFINITY, MATE,
    MAX_PLY,
};
use crate::tt::{Bound, TranspositionTable, TtEntry, DEFAULT_HASH_MB};

/// The depth `ab` searches when given no budget: on the default Invector board (8×7,
/// about 100 moves a node) four plies take well under a second, quick enough for
/// tournaments of many games, and deep enough to see a capture and its recapture twice.
pub const DEFAULT_DEPTH: u32 = 4;

/// The deepest iteration any search runs: the table stores depths in a `u8`, and the
/// search's per-ply arrays have [`MAX_PLY`] entries.
pub const MAX_DEPTH: u32 = u8::MAX as u32;
const _: () = assert!((MAX_DEPTH as usize) < MAX_PLY);

/// How an `ab` agent searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AlphaBetaConfig {
    /// When to stop. With no limit at all the search deepens until the value is proven
    /// or [`MAX_DEPTH`] is reached.
    pub budget: Budget,
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// For differential tests: cut off on table entries only when they were searched to
    /// exactly the remaining depth (and never mark entries proven). The same position
    /// recurs at other depths, and a deeper result, while better, differs from what a
    /// plain fixed-depth minimax computes; in this mode `ab` at fixed depth returns
    /// exactly the plain-minimax value. Slower; not for play.
    pub exact_depth_cutoffs: bool,
}

impl Default for AlphaBetaConfig {
    /// Depth [`DEFAULT_DEPTH`], a [`DEFAULT_HASH_MB`] table, normal cut-offs.
    fn default() -> Self {
        AlphaBetaConfig {
            budget: Budget {
                depth: Some(DEFAULT_DEPTH),
                ..Budget::default()
            },
            hash_mb: DEFAULT_HASH_MB,
            exact_depth_cutoffs: false,
        }
    }
}

/// Negamax alpha-beta with iterative deepening, a transposition table (bounds, best
/// move, proven results, mate distances) and table-move-first ordering.
///
/// Values are from the side to move's view: [`Value::Score`] for a heuristic score
/// (evaluator units, clamped to [`crate::score::EVAL_LIMIT`]), [`Value::Win`] /
/// [`Value::Loss`] for a mate score and [`Value::Draw`] for a proven draw. The table
/// persists from one search to the next (one agent plays one game).
#[derive(Debug)]
pub struct AlphaBeta<S: State, E> {
    label: String,
    budget: Budget,
    core: Core<S, E>,
    stats: AgentStats,
}

impl<S: Deterministic + ZeroSumTwoPlayer, E: Evaluator<S>> AlphaBeta<S, E> {
    /// A new agent that searches with `eval` as `config` says, named `label`.
    pub fn new(eval: E, config: AlphaBetaConfig, label: impl Into<String>) -> Self {
        let options = CoreOptions {
            exact_depth_cutoffs: config.exact_depth_cutoffs,
            exhaustive_after: None,
        };
        AlphaBeta {
            label: label.into(),
            budget: config.budget,
            core: Core::new(eval, config.hash_mb, options),
            stats: AgentStats::default(),
        }
    }
}

impl<S: Deterministic + ZeroSumTwoPlayer, E: Evaluator<S>> Agent<S> for AlphaBeta<S, E> {
    fn name(&self) -> &str {
        &self.label
    }

    fn search(
        &mut self,
        state: &S,
        _rng: &mut AgentRng,
        info: &mut dyn FnMut(&SearchInfo<S::Move>),
    ) -> SearchResult<S::Move> {
        let result = self.core.run(state, &self.budget, info);
        self.stats.record(&result);
        result
    }

    fn stats(&self) -> AgentStats {
        self.stats
    }
}

/// Options that tell the alpha-beta agents apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct CoreOptions {
    /// See [`AlphaBetaConfig::exact_depth_cutoffs`].
    pub(crate) exact_depth_cutoffs: bool,
    /// After completing an iteration of this depth, jump to the deepest one (the
    /// solver: a few cheap iterations give a move, a heuristic value and ordering to
    /// fall back on, then one exhaustive iteration proves).
    pub(crate) exhaustive_after: Option<u32>,
}

/// The reused buffers of one ply of the search.
#[derive(Clone, Debug)]
struct Ply<M> {
    /// Legal moves of the node at this ply, taken out while the node is searched and
    /// given back after, so that no node allocates.
    moves: Vec<M>,
    /// The principal variation from the node at this ply (a triangular PV table).
    pv: Vec<M>,
}

/// The alpha-beta search core: one thread's search state plus the table it uses.
///
/// The table sits behind an `Arc` and is used only through `&self`, so that helper
/// threads can later share it.
#[derive(Debug)]
pub(crate) struct Core<S: State, E> {
    eval: E,
    tt: Arc<TranspositionTable>,
    options: CoreOptions,
    /// One entry per ply, `MAX_PLY + 1` in all (a node at ply `p` writes the PV at
    /// `p` from the one at `p + 1`).
    plies: Vec<Ply<S::Move>>,
    /// Nodes visited in this search: the root plus every state reached by a move.
    nodes: u64,
    /// Probes that found the position.
    tt_hits: u64,
    /// Heuristic leaves met so far (see the module docs on proven results).
    heuristic_leaves: u64,
    /// Set when the budget ran out; the search then unwinds, ignoring every score.
    stopped: bool,
    /// The best root move completed in the current iteration.
    root_best: Option<S::Move>,
}

impl<S: Deterministic + ZeroSumTwoPlayer, E: Evaluator<S>> Core<S, E> {
    pub(crate) fn new(eval: E, hash_mb: usize, options: CoreOptions) -> Self {
        Core {
            eval,
            tt: Arc::new(TranspositionTable::new(hash_mb)),
            options,
            plies: (0..=MAX_PLY)
                .map(|_| Ply {
                    moves: Vec::new(),
                    pv: Vec::new(),
                })
                .collect(),
            nodes: 0,
            tt_hits: 0,
            heuristic_leaves: 0,
            stopped: false,
            root_best: None,
        }
    }

    /// Iterative deepening from `state` within `budget`, calling `info` after every
    /// completed iteration.
    pub(crate) fn run(
        &mut self,
        state: &S,
        budget: &Budget,
        info: &mut dyn FnMut(&SearchInfo<S::Move>),
    ) -> SearchResult<S::Move> {
        let clock = Clock::start(budget);
        self.tt.new_search();
        self.nodes = 1;
        self.tt_hits = 0;
        self.heuristic_leaves = 0;
        self.stopped = false;
        let Turn::Seat(mover) = state.turn() else {
            return self.finished_or_chance(state, &clock);
        };
        let max_depth = budget.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        for ply in &mut self.plies[..=max_depth as usize] {
            ply.moves.reserve(state.max_moves());
        }
        let mut root = state.clone();
        // (depth, score, proven, pv) of the last completed iteration.
        let mut completed: Option<(u32, i32, bool, Vec<S::Move>)> = None;
        let mut depth = 1;
        loop {
            let leaves_before = self.heuristic_leaves;
            self.root_best = None;
            let score = self.negamax(&mut root, &clock, depth, 0, -INFINITY, INFINITY);
            if self.stopped {
                break;
            }
            let proven = mate_within(score, depth) || self.heuristic_leaves == leaves_before;
            let pv = self.principal_variation(state);
            info(&SearchInfo {
                depth,
                value: value_of(score, proven),
                nodes: self.nodes,
                time: clock.elapsed(),
                pv: pv.clone(),
            });
            completed = Some((depth, score, proven, pv));
            if proven || depth == max_depth || clock.time_is_up() {
                break;
            }
            depth = if self.options.exhaustive_after == Some(depth) {
                max_depth
            } else {
                depth + 1
            };
        }
        let (depth, score, proven, pv) = match completed {
            Some(done) => done,
            None => {
                let fallback = self.fallback_move(state);
                let score = clamp_eval(self.eval.evaluate(state, mover));
                (0, score, false, vec![fallback])
            }
        };
        SearchResult {
            best: pv.first().copied(),
            value: value_of(score, proven),
            depth,
            nodes: self.nodes,
            time: clock.elapsed(),
            pv,
            tt_hits: self.tt_hits,
        }
    }

    /// The result at a node where nobody decides: no move, and the outcome (seat 0's
    /// view) or, at a chance node (unreachable for a deterministic game), nothing known.
    fn finished_or_chance(&self, state: &S, clock: &Clock) -> SearchResult<S::Move> {
        let value = state
            .outcome()
            .map_or(Value::Score(0.0), |outcome| finished_value(outcome, 0));
        SearchResult {
            best: None,
            value,
            depth: 0,
            nodes: self.nodes,
            time: clock.elapsed(),
            pv: Vec::new(),
            tt_hits: 0,
        }
    }

    /// A legal move when no iteration completed: the best root move of the unfinished
    /// one, else the table's move for the root, else the first legal move.
    fn fallback_move(&self, state: &S) -> S::Move {
        if let Some(m) = self.root_best {
            return m;
        }
        let mut moves = Vec::with_capacity(state.max_moves());
        state.legal_moves(&mut moves);
        if let Some(code) = self.tt.probe(state.hash()).and_then(|e| e.mv) {
            move_to_front(&mut moves, code);
        }
        moves[0]
    }

    /// The principal variation of the iteration just completed: the line the search
    /// recorded, extended by exact table entries whose moves are legal (the recorded line
    /// stops where a table cut-off answered for the rest).
    fn principal_variation(&self, root: &S) -> Vec<S::Move> {
        let mut pv = self.plies[0].pv.clone();
        let mut state = root.clone();
        for &m in &pv {
            state.apply(m);
        }
        let mut moves = Vec::with_capacity(state.max_moves());
        while pv.len() < MAX_PLY {
            let Turn::Seat(_) = state.turn() else { break };
            let Some(code) = self
                .tt
                .probe(state.hash())
                .filter(|e| e.bound == Bound::Exact)
                .and_then(|e| e.mv)
            else {
                break;
            };
            moves.clear();
            state.legal_moves(&mut moves);
            let Some(m) = S::Move::unpack(code).filter(|m| moves.contains(m)) else {
                break;
            };
            pv.push(m);
            state.apply(m);
        }
        pv
    }

    /// Counts one more node, unless the budget is spent: then sets `stopped`, so that
    /// the search never visits more nodes than its limit. Returns `stopped`.
    #[inline]
    fn visit(&mut self, clock: &Clock) -> bool {
        if clock.out_of_budget(self.nodes) {
            self.stopped = true;
        } else {
            self.nodes += 1;
        }
        self.stopped
    }

    /// `pv[ply] = m` followed by `pv[ply + 1]`.
    fn update_pv(&mut self, ply: usize, m: S::Move) {
        let (head, tail) = self.plies.split_at_mut(ply + 1);
        let line = &mut head[ply].pv;
        line.clear();
        line.push(m);
        line.extend_from_slice(&tail[0].pv);
    }

    /// The score of `state` (a decision node, `ply` plies from the root) from its
    /// mover's view, searched `depth` plies deep within the window `alpha..beta`
    /// (fail-soft: a score outside the window is a bound on the true score).
    fn negamax(
        &mut self,
        state: &mut S,
        clock: &Clock,
        depth: u32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
    ) -> i32 {
        let Turn::Seat(mover) = state.turn() else {
            unreachable!("negamax is called on decision nodes of a deterministic game")
        };
        self.plies[ply].pv.clear();

        // 1. Horizon: the evaluator's score.
        if depth == 0 {
            self.heuristic_leaves += 1;
            return clamp_eval(self.eval.evaluate(state, mover));
        }

        // 2. Mate-distance pruning: this node is not over, so nothing here can be better
        //    than a win next ply or worse than a loss next ply. Changes no root score.
        if ply > 0 {
            let best_possible = MATE - ply as i32 - 1;
            alpha = alpha.max(-best_possible);
            beta = beta.min(best_possible);
            if alpha >= beta {
                return alpha;
            }
        }

        // 3. Table probe: a cut-off if the entry is deep enough and its bound decides
        //    (never at the root, which must produce a move); otherwise its move first.
        let key = state.hash();
        let mut tt_move = None;
        if let Some(hit) = self.tt.probe(key) {
            self.tt_hits += 1;
            tt_move = hit.mv;
            let deep_enough = if self.options.exact_depth_cutoffs {
                u32::from(hit.depth) == depth
            } else {
                hit.proven || u32::from(hit.depth) >= depth
            };
            if ply > 0 && deep_enough {
                let score = from_table(hit.value, ply);
                let decides = match hit.bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                };
                if decides {
                    if !hit.proven {
                        self.heuristic_leaves += 1;
                    }
                    return score;
                }
            }
        }

        // 4. Moves, table move first.
        let mut moves = std::mem::take(&mut self.plies[ply].moves);
        moves.clear();
        state.legal_moves(&mut moves);
        debug_assert!(!moves.is_empty(), "a decision node without legal moves");
        if let Some(code) = tt_move {
            move_to_front(&mut moves, code);
        }

        // 5. Search every move; the child's score counts for this node's mover as is
        //    when the same seat moves again, negated when the other seat moves.
        let leaves_before = self.heuristic_leaves;
        let alpha_start = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        for i in 0..moves.len() {
            let m = moves[i];
            let undo = state.apply(m);
            let score = if self.visit(clock) {
                0
            } else {
                match state.turn() {
                    Turn::Over => {
                        self.plies[ply + 1].pv.clear();
                        let outcome = state.outcome().expect("a finished game has an outcome");
                        terminal(outcome, mover, ply + 1)
                    }
                    Turn::Seat(next) if next == mover => {
                        self.negamax(state, clock, depth - 1, ply + 1, alpha, beta)
                    }
                    Turn::Seat(_) => -self.negamax(state, clock, depth - 1, ply + 1, -beta, -alpha),
                    Turn::Chance => unreachable!("a deterministic game reached a chance node"),
                }
            };
            state.undo(undo);
            if self.stopped {
                self.plies[ply].moves = moves;
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(m);
                if ply == 0 {
                    self.root_best = Some(m);
                }
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, m);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.plies[ply].moves = moves;

        // 6. Store: the bound follows from where the score fell against the window.
        let bound = if best <= alpha_start {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        // After a fail-low every move was refuted, so no move is known to be best (the
        // table keeps any move stored before).
        let mv = if bound == Bound::Upper {
            None
        } else {
            best_move
        };
        // In exact-depth mode no entry is proven, so that each is used at its depth only.
        let proven = self.heuristic_leaves == leaves_before && !self.options.exact_depth_cutoffs;
        self.tt.store(
            key,
            TtEntry {
                mv: mv.map(Move::pack),
                value: to_table(best, ply),
                depth: depth as u8,
                bound,
                proven,
            },
        );
        best
    }
}

/// Whether `score` is a win or loss at most `depth` plies away. Found by a depth-`depth`
/// iteration, such a score is the exact game value: a faster win (or slower loss)
/// would lie within the horizon too. A mate further away (known from a table entry of
/// an earlier, deeper search) may still be beaten by a line beyond this horizon.
fn mate_within(score: i32, depth: u32) -> bool {
    is_mate(score) && MATE - score.abs() <= depth as i32
}
