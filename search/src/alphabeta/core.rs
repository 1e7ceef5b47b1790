//! One thread's alpha-beta search: iterative deepening over a negamax with principal
//! variation search, aspiration windows, table/killer/history ordering and quiescence,
//! sharing a transposition table with other threads.
//!
//! The search of a node goes in numbered steps (see [`Core::negamax`]); the module docs
//! of [`crate::alphabeta`] explain seats, proven results and budgets.

mod quiescence;

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Arc;

use agon_engine::{Deterministic, Evaluator, Move, Seat, State, Turn};

use super::busy::{Busy, DEFER_FROM_DEPTH};
use super::lane::{CacheLine, Lane};
use super::transpositions::{child_cutoff, from_table_move, principal_variation, table_key, Node};
use super::{
    null_reduction, CoreOptions, FUTILITY_MARGIN, FUTILITY_TO_DEPTH, LMP_MOVES,
    LMP_MOVES_PER_PLY_SQUARED, LMP_TO_DEPTH, LMR_FROM_DEPTH, LMR_FULL_MOVES, NULL_FROM_DEPTH,
    RAZOR_MARGIN, RAZOR_TO_DEPTH,
};
use crate::agent::{SearchInfo, SearchResult, Value};
use crate::budget::{Budget, Clock};
use crate::heuristics::{select_next, Heuristics, CONCEDES_SCORE, NOISY_SCORE, TT_MOVE_SCORE};
use crate::ordering::{fallback_move, move_to_front};
use crate::score::{
    clamp_eval, finished_value, from_table, is_mate, terminal, to_table, value_of, INFINITY, MATE,
    MAX_PLY,
};
use crate::tt::{Bound, TranspositionTable, TtEntry};

/// The deepest iteration any search runs: the table stores depths in a `u8`, and the
/// search's per-ply arrays have [`MAX_PLY`] entries.
pub const MAX_DEPTH: u32 = u8::MAX as u32;
const _: () = assert!((MAX_DEPTH as usize) < MAX_PLY);

/// The first iteration searched with an aspiration window: the shallow ones are too
/// cheap to gain from it and their scores swing too much to predict the next.
const ASPIRATION_FROM_DEPTH: u32 = 4;

/// How many noisy moves quiescence plays beyond the horizon, at most. Without a cap it
/// follows every sequence of noisy moves to its end, and in a game where every capture
/// gains material (Invector: a capture never costs the capturer a stone) standing pat
/// rarely cuts, so the sequences multiply: from the 5×4 start a depth-2 search took a
/// minute uncapped. Four plies resolve a capture, its recapture and the next pair.
pub const QUIESCENCE_PLIES: u32 = 4;

/// The reused buffers of one ply of the search.
#[derive(Clone, Debug)]
struct Ply<M> {
    /// Legal moves of the node at this ply, taken out while the node is searched and
    /// given back after, so that no node allocates.
    moves: Vec<M>,
    /// Ordering scores of `moves`, index for index.
    scores: Vec<i32>,
    /// The principal variation from the node at this ply (a triangular PV table).
    pv: Vec<M>,
    /// Moves put off because another thread is searching them (see [`super::busy`]).
    deferred: Vec<M>,
    /// Whether the node at this ply was reached by a pass (null-move pruning never
    /// passes twice in a row: two passes would search the same position again).
    after_pass: bool,
    /// Whether the node at this ply continues its mover's turn: the move that reached
    /// it was made by the same seat (see [`super::Pruning::follow_ups`]).
    follow_up: bool,
}

/// The alpha-beta search core: one thread's search state plus the table it shares.
/// Aligned to [`CacheLine`]'s size, so that the counters one Lazy SMP thread writes at
/// every node never share a cache line with another thread's.
#[derive(Debug)]
#[repr(align(128))]
pub(crate) struct Core<S: State, E> {
    eval: E,
    tt: Arc<TranspositionTable>,
    options: CoreOptions,
    /// Set by the thread that owns the search when it is done; helper threads of a Lazy
    /// SMP search stop at once when they see it.
    stop: Arc<CacheLine<AtomicBool>>,
    /// The children the threads of a Lazy SMP search are searching now (`None` alone).
    busy: Option<Arc<Busy>>,
    /// Half the width of the first aspiration window, in evaluator units.
    aspiration_delta: i32,
    /// One entry per ply, `MAX_PLY + 1` in all (a node at ply `p` writes the PV at
    /// `p` from the one at `p + 1`).
    plies: Vec<Ply<S::Move>>,
    heuristics: Heuristics,
    /// The children's keys at the node [`child_cutoff`] looks at (a reused buffer).
    child_keys: Vec<(u64, bool)>,
    /// Nodes visited in this search: the root plus every state reached by a move.
    nodes: u64,
    /// Probes that found the position.
    tt_hits: u64,
    /// Heuristic leaves met so far (see the module docs on proven results).
    heuristic_leaves: u64,
    /// Finished games met so far that a repetition rule ended
    /// ([`State::ended_by_history`]): a node whose subtree met one is not stored in the
    /// table, since its value depends on the path to it.
    history_ends: u64,
    /// The budget's clock of the search that last ran (or runs), started by `run`.
    clock: Clock,
    /// Set when the budget ran out; the search then unwinds, ignoring every score.
    stopped: bool,
    /// The best root move completed in the current iteration.
    root_best: Option<S::Move>,
    /// The last root move of the current iteration whose search raised alpha: better
    /// than every move searched before it, by a score that is exact or a lower bound
    /// (unlike `root_best`, whose score may be an upper bound after a fail-low).
    root_raised: Option<S::Move>,
    /// This thread's place among the threads of the search that last ran (or runs).
    lane: Lane,
    /// The depth of the iteration being searched (the check extension's paths are at
    /// most twice as long).
    iteration_depth: u32,
}

impl<S: Deterministic, E: Evaluator<S>> Core<S, E> {
    /// A core searching with `eval`, sharing table `tt`, stop flag `stop` and, as one of
    /// several threads, the record `busy` of the children being searched.
    pub(crate) fn new(
        eval: E,
        tt: Arc<TranspositionTable>,
        stop: Arc<CacheLine<AtomicBool>>,
        busy: Option<Arc<Busy>>,
        options: CoreOptions,
    ) -> Self {
        // A two-hundredth of the evaluator's range: for Invector (±20,000, 100 a stone)
        // one stone, for Connect Four (±1,000) half an open three.
        let (low, high) = eval.bounds();
        let aspiration_delta = ((high as i64 - low as i64) / 400).clamp(1, 1 << 16) as i32;
        Core {
            eval,
            tt,
            options,
            stop,
            busy,
            aspiration_delta,
            plies: (0..=MAX_PLY)
                .map(|_| Ply {
                    moves: Vec::new(),
                    scores: Vec::new(),
                    pv: Vec::new(),
                    deferred: Vec::new(),
                    after_pass: false,
                    follow_up: false,
                })
                .collect(),
            heuristics: Heuristics::new(MAX_PLY + 1),
            child_keys: Vec::new(),
            nodes: 0,
            tt_hits: 0,
            heuristic_leaves: 0,
            history_ends: 0,
            clock: Clock::start(&Budget::default()),
            stopped: false,
            root_best: None,
            root_raised: None,
            lane: Lane::alone(),
            iteration_depth: 0,
        }
    }

    /// Iterative deepening from `state` within `budget`, calling `info` after every
    /// completed iteration. `lane` says which depths this thread searches (alone: every
    /// one from 1; a Lazy SMP thread: see [`Lane`]), and a Lazy SMP thread abandons an
    /// iteration as soon as another completes one as deep. The result is always that of
    /// the last completed iteration, never of one cut short.
    pub(crate) fn run(
        &mut self,
        state: &S,
        budget: &Budget,
        lane: Lane,
        info: &mut dyn FnMut(&SearchInfo<S::Move>),
    ) -> SearchResult<S::Move> {
        self.clock = Clock::start(budget);
        self.lane = lane;
        self.nodes = 1;
        self.tt_hits = 0;
        self.heuristic_leaves = 0;
        self.history_ends = 0;
        self.stopped = false;
        self.heuristics.clear();
        let Turn::Seat(mover) = state.turn() else {
            return self.finished_or_chance(state);
        };
        let max_depth = budget.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        for ply in &mut self.plies[..=max_depth as usize] {
            ply.moves.reserve(state.max_moves());
            ply.scores.reserve(state.max_moves());
        }
        let mut root = state.clone();
        // (depth, score, proven, pv) of the last completed iteration.
        let mut completed: Option<(u32, i32, bool, Vec<S::Move>)> = None;
        let jump = self.options.exhaustive_after;
        let mut depth = self.lane.next_depth(0, max_depth, jump);
        loop {
            let leaves_before = self.heuristic_leaves;
            self.root_best = None;
            self.root_raised = None;
            self.lane.begin(depth);
            self.iteration_depth = depth;
            let guess = completed.as_ref().map(|c| c.1);
            let score = self.search_root(&mut root, depth, guess);
            if self.stopped && self.lane.resumes(max_depth) {
                self.stopped = false;
                let done = completed.as_ref().map_or(0, |c| c.0);
                depth = self.lane.next_depth(done, max_depth, jump);
                continue;
            } else if self.stopped {
                break;
            }
            let proven = mate_within(score, depth) || self.heuristic_leaves == leaves_before;
            let mut pv = principal_variation(&self.tt, &self.options, &self.plies[0].pv, state);
            if pv.is_empty() {
                // The root failed low (every move lost, as `wdl` proofs of a loss do):
                // no move raised alpha, so none made the line; play the best of them.
                pv.extend(self.root_best);
            }
            info(&SearchInfo {
                depth,
                value: value_of(score, proven),
                nodes: self.nodes,
                time: self.clock.elapsed(),
                pv: pv.clone(),
            });
            completed = Some((depth, score, proven, pv));
            self.lane.completed(depth, proven);
            if proven || depth == max_depth || self.clock.time_is_up() {
                break;
            }
            depth = self.lane.next_depth(depth, max_depth, jump);
        }
        let (depth, score, proven, pv) = match completed {
            // An iteration cut short (`stopped`) that found a better move: play it (its
            // line below the first move is unknown, and the value stays the completed
            // one's).
            Some((depth, score, proven, pv)) => match self.root_raised {
                Some(m)
                    if self.options.partial_iterations
                        && self.stopped
                        && pv.first() != Some(&m) =>
                {
                    (depth, score, proven, vec![m])
                }
                _ => (depth, score, proven, pv),
            },
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
            time: self.clock.elapsed(),
            pv,
            tt_hits: self.tt_hits,
            memory_full: false,
        }
    }

    /// One iteration at the root: with aspiration windows, a narrow window around the
    /// previous iteration's score `guess`, widened (doubling on the side that failed)
    /// until the score falls inside; otherwise the full window. Either way the score is
    /// exact, since fail-soft alpha-beta is exact strictly inside its window.
    fn search_root(&mut self, root: &mut S, depth: u32, guess: Option<i32>) -> i32 {
        let exhaustive = self.options.exhaustive_after.is_some_and(|d| depth > d);
        if self.options.result_only && exhaustive {
            return self.negamax(root, depth, 0, -1, 1);
        }
        let guess = match guess {
            Some(g)
                if self.options.enhancements.aspiration
                    && depth >= ASPIRATION_FROM_DEPTH
                    && !is_mate(g) =>
            {
                g
            }
            _ => return self.negamax(root, depth, 0, -INFINITY, INFINITY),
        };
        let mut delta = self.aspiration_delta;
        let (mut alpha, mut beta) = (guess - delta, guess + delta);
        loop {
            let score = self.negamax(root, depth, 0, alpha, beta);
            if self.stopped {
                return score;
            }
            delta = delta.saturating_mul(4);
            if score <= alpha {
                alpha = widen(guess, -delta);
            } else if score >= beta {
                beta = widen(guess, delta);
            } else {
                return score;
            }
            if alpha <= -INFINITY && beta >= INFINITY {
                return self.negamax(root, depth, 0, -INFINITY, INFINITY);
            }
        }
    }

    /// The result at a node where nobody decides: no move, and the outcome (seat 0's
    /// view) or, at a chance node (unreachable for a deterministic game), nothing known.
    fn finished_or_chance(&self, state: &S) -> SearchResult<S::Move> {
        let value = state
            .outcome()
            .map_or(Value::Score(0.0), |outcome| finished_value(outcome, 0));
        SearchResult {
            best: None,
            value,
            depth: 0,
            nodes: self.nodes,
            time: self.clock.elapsed(),
            pv: Vec::new(),
            tt_hits: 0,
            memory_full: false,
        }
    }

    /// A legal move when no iteration completed (see [`fallback_move`]).
    fn fallback_move(&self, state: &S) -> S::Move {
        let (key, symmetry) = table_key(&self.options, state);
        let table_move = self.tt.probe(key).and_then(|e| e.mv);
        let table_move = table_move.map(|code| from_table_move(state, code, symmetry));
        fallback_move(state, self.root_best, table_move)
    }

    /// This thread's place in the search that last ran (what it completed).
    pub(crate) fn lane(&self) -> &Lane {
        &self.lane
    }

    /// Counts one more node, unless the budget is spent or the owner of a Lazy SMP search
    /// said stop, or another thread completed an iteration as deep (see [`Lane`]): then
    /// sets `stopped`, so that the search never visits more nodes than its limit.
    /// Returns `stopped`.
    #[inline]
    fn visit(&mut self) -> bool {
        if self.clock.out_of_budget(self.nodes) || self.stop.load(Relaxed) || self.lane.superseded()
        {
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

    /// The score, from `mover`'s view, of the state just reached by one of `mover`'s
    /// moves (already counted as a node), searched `depth` plies deep within
    /// `alpha..beta`: final if the game ended, as is if `mover` moves again, negated
    /// (with the window mirrored) if the other seat moves.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn child(
        &mut self,
        state: &mut S,
        mover: Seat,
        depth: u32,
        ply: usize,
        alpha: i32,
        beta: i32,
        quiescence: bool,
    ) -> i32 {
        match state.turn() {
            Turn::Over => {
                self.plies[ply + 1].pv.clear();
                let end = state.end().expect("a finished game has an end");
                if end.by_history {
                    self.history_ends += 1;
                }
                terminal(end.outcome, mover, ply + 1)
            }
            Turn::Seat(next) if quiescence => {
                if next == mover {
                    self.quiesce(state, depth, ply + 1, alpha, beta)
                } else {
                    -self.quiesce(state, depth, ply + 1, -beta, -alpha)
                }
            }
            Turn::Seat(next) if next == mover => {
                self.plies[ply + 1].follow_up = true;
                self.negamax(state, depth, ply + 1, alpha, beta)
            }
            Turn::Seat(_) => {
                self.plies[ply + 1].follow_up = false;
                -self.negamax(state, depth, ply + 1, -beta, -alpha)
            }
            Turn::Chance => unreachable!("a deterministic game reached a chance node"),
        }
    }

    /// The score of `state` (a decision node, `ply` plies from the root) from its
    /// mover's view, searched `depth` plies deep within the window `alpha..beta`
    /// (fail-soft: a score outside the window is a bound on the true score).
    fn negamax(
        &mut self,
        state: &mut S,
        mut depth: u32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
    ) -> i32 {
        let Turn::Seat(mover) = state.turn() else {
            unreachable!("negamax is called on decision nodes of a deterministic game")
        };
        self.plies[ply].pv.clear();
        let enhancements = self.options.enhancements;

        // 0. Check extension (see [`super::AlphaBetaConfig::check_extension`]).
        if self.options.check_extension
            && ply > 0
            && ply < 2 * self.iteration_depth as usize
            && state.in_check()
        {
            depth += 1;
        }

        // 1. Horizon: the evaluator's score, or quiescence search of the noisy moves.
        if depth == 0 {
            return if enhancements.quiescence {
                self.quiesce(state, QUIESCENCE_PLIES, ply, alpha, beta)
            } else {
                self.heuristic_leaves += 1;
                clamp_eval(self.eval.evaluate(state, mover))
            };
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
        let (key, symmetry) = table_key(&self.options, state);
        let mut tt_move = None;
        if let Some(hit) = self.tt.probe(key) {
            self.tt_hits += 1;
            tt_move = hit.mv.map(|code| from_table_move(state, code, symmetry));
            let deep_enough = if self.options.exact_depth_cutoffs {
                u32::from(hit.depth) == depth
            } else {
                hit.proven || u32::from(hit.depth) >= depth
            };
            if ply > 0 && deep_enough {
                let score = from_table(hit.value, ply);
                // At a PV node (open window) only an exact entry decides: a bound from a
                // null-window probe would cut the principal variation short, and the line
                // can be rebuilt from exact entries only.
                let pv_node = beta > alpha + 1;
                let decides = match hit.bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta && !pv_node,
                    Bound::Upper => score <= alpha && !pv_node,
                };
                if decides {
                    if !hit.proven {
                        self.heuristic_leaves += 1;
                    }
                    return score;
                }
            }
        }

        // Razoring, futility and late-move pruning act only below the root, at
        // null-window nodes whose alpha is no mate.
        let may_skip = ply > 0 && beta == alpha + 1 && !is_mate(alpha);

        // 3b. Razoring: a node near the horizon whose score is far below alpha is
        //     settled by its quiescence search, if that fails low too (see
        //     [`super::Pruning::razoring`]). The score is kept for futility pruning.
        let mut static_score = None;
        if self.options.pruning.razoring && may_skip && depth <= RAZOR_TO_DEPTH {
            let score = clamp_eval(self.eval.evaluate(state, mover));
            static_score = Some(score);
            if score + RAZOR_MARGIN * self.aspiration_delta * depth as i32 <= alpha {
                let settled = if enhancements.quiescence {
                    self.quiesce(state, QUIESCENCE_PLIES, ply, alpha, beta)
                } else {
                    self.heuristic_leaves += 1;
                    score
                };
                if settled <= alpha {
                    return settled;
                }
            }
        }

        // 3c. Null-move pruning: where the node's score is at least beta, pass, and if
        //     the opponent's reduced search still fails high the node does too (see
        //     [`super::Pruning::null_move`]). Applied to the state itself, not through
        //     the evaluator: an incremental evaluator finds its record stale below and
        //     recomputes it, which costs time, never a wrong value.
        if self.options.pruning.null_move
            && may_skip
            && depth >= NULL_FROM_DEPTH
            && !self.plies[ply].after_pass
            && !is_mate(beta)
        {
            let score =
                *static_score.get_or_insert_with(|| clamp_eval(self.eval.evaluate(state, mover)));
            if score >= beta {
                if let Some(undo) = state.null_move() {
                    let reply = if self.visit() {
                        0
                    } else {
                        self.plies[ply + 1].after_pass = true;
                        let reduced = depth - 1 - null_reduction(depth);
                        let reply = self.child(state, mover, reduced, ply, beta - 1, beta, false);
                        self.plies[ply + 1].after_pass = false;
                        reply
                    };
                    state.undo(undo);
                    if self.stopped {
                        return 0;
                    }
                    if reply >= beta {
                        // A mate found after a pass is no proof: the pass is not a move.
                        self.heuristic_leaves += 1;
                        return if is_mate(reply) { beta } else { reply };
                    }
                }
            }
        }

        // 4. Moves, ordered: the table move first; then (with killers or history) noisy
        //    moves, the evaluator's hints with killers and then the history table
        //    breaking ties, and last the moves anticipation knows to lose, picked one at
        //    a time as the search needs them. The others are scored only once the table
        //    move has failed to cut off, which at most nodes with one it does not.
        let anticipate = enhancements.anticipation && depth >= 2;
        let mut moves = std::mem::take(&mut self.plies[ply].moves);
        let mut scores = std::mem::take(&mut self.plies[ply].scores);
        moves.clear();
        state.legal_moves(&mut moves);
        debug_assert!(!moves.is_empty(), "a decision node without legal moves");
        let ranked = enhancements.killers || enhancements.history;
        let tt_first = tt_move.is_some_and(|code| move_to_front(&mut moves, code));
        // Whether `scores` holds the ordering scores of `moves` (from index 1 on when
        // the table move went first).
        let mut scored = false;

        // 4b. Enhanced transposition cut-off: a child whose table entry already proves
        //     the window refuted answers for the node, with no search.
        if self.options.solver_table && ply > 0 && beta == alpha + 1 {
            let node = Node {
                key,
                symmetry,
                mover,
                depth,
                ply,
                beta,
            };
            let keys = &mut self.child_keys;
            if let Some((score, proven)) =
                child_cutoff(&self.tt, &self.options, keys, state, &node, &moves)
            {
                self.plies[ply].moves = moves;
                self.plies[ply].scores = scores;
                self.heuristic_leaves += u64::from(!proven);
                return score;
            }
        }

        // 5. Search every move. Principal variation search: the first move with the full
        //    window, the others with a null window that only asks "better than alpha?",
        //    searched again with the full window when the answer is yes. With
        //    anticipation, a move that lets the opponent win at once is that loss, known
        //    without a search (exact when the reply lies within the horizon). Among
        //    threads, a move after the first whose child another thread is searching now
        //    is put off until the others are done (see [`super::busy`]).
        let leaves_before = self.heuristic_leaves;
        let history_ends_before = self.history_ends;
        let alpha_start = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        let mut deferred = std::mem::take(&mut self.plies[ply].deferred);
        deferred.clear();
        let defers = self.busy.is_some() && depth >= DEFER_FROM_DEPTH;
        let lmr =
            self.options.pruning.lmr && enhancements.pvs && ply > 0 && depth >= LMR_FROM_DEPTH;
        // Futility: whether this node may skip quiet moves (see
        // [`super::Pruning::futility`]), and the score below which a quiet move cannot
        // reach alpha, worked out when a move could first be skipped, so that a node cut
        // off by its first move never asks the evaluator (`None` until then; then `None`
        // inside if nothing is futile). Alpha stays fixed until a cut-off in a
        // null-window node, so the limit holds for the whole node.
        let may_prune_futile =
            self.options.pruning.futility && may_skip && depth <= FUTILITY_TO_DEPTH;
        let mut futility_limit: Option<Option<i32>> = None;
        // Late-move pruning: how many moves this node searches before it skips its late
        // quiet ones (see [`super::Pruning::lmp`]); `None` where it skips none.
        let lmp_after = (self.options.pruning.lmp && may_skip && depth <= LMP_TO_DEPTH)
            .then(|| LMP_MOVES + LMP_MOVES_PER_PLY_SQUARED * (depth * depth) as usize);
        // Follow-up pruning: how many moves a node that continues its mover's turn
        // searches before it skips every later one (see [`super::Pruning::follow_ups`]).
        let follow_ups_after = self
            .options
            .pruning
            .follow_ups
            .filter(|_| may_skip && self.plies[ply].follow_up)
            .map(usize::from);
        // `next` walks `moves`, then `deferred`; `searched` counts the moves done (and
        // skipped). `tail_dropped`: whether the moves after the first skipped one were
        // dropped (see [`Core::drop_skipped_tail`]).
        let (mut next, mut searched, mut tail_dropped) = (0, 0, false);
        // Whether the game leaves open that a move of this node ends it, asked once, at
        // the first skip (`None` until then).
        let mut node_may_end: Option<bool> = None;
        loop {
            let i = next;
            next += 1;
            let m = if i < moves.len() {
                if ranked && !scored && (i > 0 || !tt_first) {
                    self.score_moves(state, mover, ply, tt_first, anticipate, &moves, &mut scores);
                    scored = true;
                }
                if scored {
                    select_next(&mut moves, &mut scores, i);
                }
                moves[i]
            } else if let Some(&m) = deferred.get(i - moves.len()) {
                m
            } else {
                break;
            };
            let concedes = anticipate
                && i < moves.len()
                && if scored {
                    scores[i] == CONCEDES_SCORE
                } else {
                    self.eval.opponent_wins_next(state, m)
                };
            // A quiet move: one of `moves` (not a deferred one, already searched once),
            // not noisy (noisy moves score above every quiet move once scored). Every
            // pruning below acts on quiet moves only.
            let quiet = |core: &Self| {
                i < moves.len()
                    && if scored {
                        scores[i] < NOISY_SCORE
                    } else {
                        !core.eval.is_noisy(state, m)
                    }
            };
            // Late-move reductions apply to quiet moves late in the order, not a killer.
            // The table move is first, so never one of them (`i >= searched`).
            let reducible = lmr
                && searched >= LMR_FULL_MOVES
                && quiet(self)
                && self.heuristics.killer_rank(ply, m.pack()) == 0;
            let futile = may_prune_futile
                && searched > 0
                && !concedes
                && quiet(self)
                && futility_limit
                    .get_or_insert_with(|| {
                        let margin = FUTILITY_MARGIN * self.aspiration_delta * depth as i32;
                        let score = static_score
                            .unwrap_or_else(|| clamp_eval(self.eval.evaluate(state, mover)));
                        let limit = score + margin;
                        (limit <= alpha).then_some(limit)
                    })
                    .is_some();
            let beyond_follow_ups =
                follow_ups_after.is_some_and(|after| searched >= after) && !concedes;
            let late = beyond_follow_ups
                || lmp_after.is_some_and(|after| searched >= after)
                    && !concedes
                    && quiet(self)
                    && self.heuristics.killer_rank(ply, m.pack()) == 0;
            // A skipped move is a heuristic bound (never proven): a futile move is worth
            // at most the node's score plus the margin; a late one is taken to fail low,
            // at most alpha. A move that ends the game is never skipped: the game says
            // which moves cannot (those are not even played), and the others are played
            // to see.
            if futile || late {
                let ends = *node_may_end.get_or_insert_with(|| state.any_move_may_end_game())
                    && state.may_end_game(m)
                    && {
                        let undo = self.eval.apply(state, m);
                        let over = state.turn() == Turn::Over;
                        self.eval.undo(state, undo);
                        over
                    };
                if !ends {
                    self.heuristic_leaves += 1;
                    searched += 1;
                    best = best.max(if futile {
                        futility_limit.flatten().unwrap_or(alpha)
                    } else {
                        alpha
                    });
                    if scored && !tail_dropped {
                        // Every later move is skipped too, with the same bound: drop those
                        // that cannot end the game instead of ordering and skipping them
                        // one by one.
                        tail_dropped = true;
                        let keep_killers = futility_limit.flatten().is_none() && !beyond_follow_ups;
                        let dropped = self.drop_skipped_tail(
                            state,
                            ply,
                            (&mut moves, &mut scores),
                            next,
                            (keep_killers, node_may_end != Some(false)),
                        );
                        self.heuristic_leaves += dropped;
                        searched += dropped as usize;
                    }
                    continue;
                }
            }
            let score = if concedes {
                self.plies[ply + 1].pv.clear();
                -(MATE - ply as i32 - 2)
            } else {
                let undo = self.eval.apply(state, m);
                let child_key = if defers { state.hash() } else { 0 };
                let busy = self.busy.as_deref().filter(|_| defers);
                if busy.is_some_and(|b| searched > 0 && i < moves.len() && b.is_busy(child_key)) {
                    self.eval.undo(state, undo);
                    deferred.push(m);
                    continue;
                }
                if let Some(busy) = busy {
                    busy.mark(child_key);
                }
                let score = if self.visit() {
                    0
                } else if searched == 0 || !enhancements.pvs {
                    self.child(state, mover, depth - 1, ply, alpha, beta, false)
                } else {
                    // A reduced move's null-window search first; the full-depth one only
                    // if that beats alpha.
                    let reduced = reducible.then(|| {
                        let r = lmr_reduction(depth, searched);
                        self.child(state, mover, depth - 1 - r, ply, alpha, alpha + 1, false)
                    });
                    let probe = match reduced {
                        Some(score) if score <= alpha || self.stopped => score,
                        _ => self.child(state, mover, depth - 1, ply, alpha, alpha + 1, false),
                    };
                    if probe > alpha && probe < beta && !self.stopped {
                        self.child(state, mover, depth - 1, ply, alpha, beta, false)
                    } else {
                        probe
                    }
                };
                if let Some(busy) = self.busy.as_deref().filter(|_| defers) {
                    busy.unmark(child_key);
                }
                self.eval.undo(state, undo);
                score
            };
            searched += 1;
            if self.stopped {
                break;
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
                    if ply == 0 {
                        self.root_raised = Some(m);
                    }
                    if score >= beta {
                        if ranked && !concedes && !self.eval.is_noisy(state, m) {
                            self.heuristics.record_cutoff(mover, ply, depth, m.pack());
                        }
                        break;
                    }
                }
            }
        }
        self.plies[ply].moves = moves;
        self.plies[ply].scores = scores;
        self.plies[ply].deferred = deferred;
        if self.stopped {
            return 0;
        }

        // 6. Store: the bound follows from where the score fell against the window.
        //    Nothing is stored if a repetition rule ended a game below: the same
        //    position reached by another path may be worth something else.
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
        if self.history_ends == history_ends_before {
            self.tt.store(
                key,
                TtEntry {
                    mv: mv.map(|m| state.map_move(m, symmetry).pack()),
                    value: to_table(best, ply),
                    depth: depth as u8,
                    bound,
                    proven,
                },
            );
        }
        best
    }

    /// Drops the moves of `moves[from..]` (ordering scores in `scores`, not yet
    /// searched) that late-move, futility or follow-up pruning would skip, and returns how
    /// many. Called at a node whose moves are ordered, once it has skipped a move: every
    /// move after it is quiet, and is skipped too with the same bound (a futility limit
    /// holds for the whole node, late-move pruning skips every later quiet move but a
    /// killer, and follow-up pruning every later move), except a move that ends the game.
    /// So a move is kept only if the game says it may end the game, or if it is a killer
    /// (with `keep_killers`, where late-move pruning alone skips). A move that lets the opponent win at once is
    /// dropped too: its loss cannot raise a score that a skip has already raised to
    /// its bound. The kept moves stay in their order, for the loop to order as usual.
    /// `may_end`: whether the game leaves open that a move of the node ends it; where
    /// not, no move is asked.
    fn drop_skipped_tail(
        &self,
        state: &S,
        ply: usize,
        (moves, scores): (&mut Vec<S::Move>, &mut Vec<i32>),
        from: usize,
        (keep_killers, may_end): (bool, bool),
    ) -> u64 {
        let mut kept = from;
        for j in from..moves.len() {
            let m = moves[j];
            let keep = scores[j] != CONCEDES_SCORE
                && (may_end && state.may_end_game(m)
                    || keep_killers && self.heuristics.killer_rank(ply, m.pack()) > 0);
            if keep {
                moves.swap(kept, j);
                scores.swap(kept, j);
                kept += 1;
            }
        }
        let dropped = moves.len() - kept;
        moves.truncate(kept);
        scores.truncate(kept);
        dropped as u64
    }

    /// Fills `scores` with the ordering score of each of `moves` (see step 4 of
    /// [`Core::negamax`]); with `anticipate`, a move that lets the opponent win at once
    /// scores [`CONCEDES_SCORE`]. With `tt_first` the first move is the table move,
    /// already searched: it is given [`TT_MOVE_SCORE`] without asking the evaluator.
    #[allow(clippy::too_many_arguments)]
    fn score_moves(
        &self,
        state: &S,
        mover: Seat,
        ply: usize,
        tt_first: bool,
        anticipate: bool,
        moves: &[S::Move],
        scores: &mut Vec<i32>,
    ) {
        let enhancements = self.options.enhancements;
        scores.clear();
        scores.extend(moves.iter().enumerate().map(|(i, &m)| {
            let code = m.pack();
            if i == 0 && tt_first {
                TT_MOVE_SCORE
            } else if anticipate && self.eval.opponent_wins_next(state, m) {
                CONCEDES_SCORE
            } else if self.eval.is_noisy(state, m) {
                NOISY_SCORE
            } else {
                let hint = self.eval.move_hint(state, m);
                let (killers, history) = (enhancements.killers, enhancements.history);
                self.heuristics
                    .quiet_score(hint, mover, ply, code, killers, history)
            }
        }));
    }
}

/// How many plies late-move reductions take off the search of the `searched`-th move
/// (from 0) of a node `depth` plies from the horizon: `ln(depth) · ln(searched) / 2`, at
/// least one, and never so many that the move is not searched at all. Later moves and
/// deeper nodes are reduced more, as in chess engines, where a move's chance of being
/// best falls quickly with its place in a good order.
fn lmr_reduction(depth: u32, searched: usize) -> u32 {
    let r = (f64::from(depth).ln() * (searched as f64).ln() / 2.0) as u32;
    r.clamp(1, depth - 2)
}

/// `guess + delta`, saturating to ±[`INFINITY`] once it leaves the range of scores.
fn widen(guess: i32, delta: i32) -> i32 {
    guess.saturating_add(delta).clamp(-INFINITY, INFINITY)
}

/// Whether `score` is a win or loss at most `depth` plies away. Found by a depth-`depth`
/// iteration, such a score is the exact game value: a faster win (or slower loss)
/// would lie within the horizon too. A mate further away (known from a table entry of
/// an earlier, deeper search) may still be beaten by a line beyond this horizon.
fn mate_within(score: i32, depth: u32) -> bool {
    is_mate(score) && MATE - score.abs() <= depth as i32
}

#[cfg(test)]
impl CoreOptions {
    /// `ab`'s options with every enhancement, as the tests of the threads' pieces use.
    pub(crate) fn all_enhancements() -> Self {
        CoreOptions {
            enhancements: super::Enhancements::ALL,
            pruning: super::Pruning::NONE,
            partial_iterations: false,
            check_extension: false,
            quiet_wins: false,
            exact_depth_cutoffs: false,
            exhaustive_after: None,
            result_only: false,
            solver_table: false,
        }
    }
}
