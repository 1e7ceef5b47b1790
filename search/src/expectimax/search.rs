//! The recursive search of the chance agents: decision nodes (alpha-beta unless plain
//! expectimax), chance nodes (the weighted mean, with Star1's windows and Star2's
//! probing phase), the table's probes and stores, and node counting against the budget.
//! The module docs of [`super`] state the values, the pruning and the table's use.

use std::ops::{Add, Sub};

use agon_engine::{Evaluator, Move, Seat, State, Turn};

use super::{ChanceMode, Expectimax};
use crate::exact::Exact;
use crate::heuristics::NOISY_SCORE;
use crate::ordering::{move_to_front, order_by_hints, sort_by_keys};
use crate::score::MAX_PLY;

/// Chance windows are rounded outwards to multiples of `1 / WINDOW_GRID`: a wider
/// window only prunes less, and a cut-off test against the rounded bound implies the
/// exact one, so values stay exact while window denominators stay small (2²⁰: finer
/// than any difference pruning could exploit in evaluator units).
const WINDOW_GRID: i128 = 1 << 20;

/// The reused buffers of one ply of the search.
#[derive(Clone, Debug)]
pub(super) struct Ply<M> {
    /// Legal moves of the decision node at this ply.
    pub(super) moves: Vec<M>,
    /// Outcomes of the chance node at this ply, with their weights.
    pub(super) outcomes: Vec<(M, u32)>,
    /// Per outcome, the bounds `(lo, hi)` known on its value (Star1/Star2).
    bounds: Vec<(Exact, Exact)>,
    /// The evaluator's move hints of `moves`, while they are ordered.
    hints: Vec<u8>,
    /// Ordering scores of `moves` with killers and history, while they are ordered.
    scores: Vec<i32>,
}

impl<M> Ply<M> {
    fn new() -> Self {
        Ply {
            moves: Vec::new(),
            outcomes: Vec::new(),
            bounds: Vec::new(),
            hints: Vec::new(),
            scores: Vec::new(),
        }
    }
}

impl<S: State, E: Evaluator<S>> Expectimax<S, E> {
    /// Makes sure the buffers of `ply` exist (allocates only the first time a search
    /// reaches that ply).
    #[inline]
    pub(super) fn ensure_ply(&mut self, ply: usize) {
        while self.plies.len() <= ply {
            self.plies.push(Ply::new());
        }
    }

    /// Counts one more node, unless the budget is spent: then sets `stopped`. Returns
    /// `stopped`.
    #[inline]
    pub(super) fn visit(&mut self) -> bool {
        if self.clock.out_of_budget(self.nodes) {
            self.stopped = true;
        } else {
            self.nodes += 1;
        }
        self.stopped
    }

    /// The table's bounds for `key` at exactly `depth`, and its move at any depth.
    #[inline]
    pub(super) fn probe(&mut self, key: u64, depth: u32) -> (Option<(Exact, Exact)>, Option<u32>) {
        match self.table.probe(key) {
            Some(e) => {
                self.tt_hits += 1;
                let bounds = e.bounds.filter(|_| u32::from(e.depth) == depth);
                (bounds, e.mv)
            }
            None => (None, None),
        }
    }

    /// Records bounds `[lo, hi]` for `key` at `depth` (intersected with what the table
    /// knew at that depth) and its best move.
    #[inline]
    pub(super) fn store(&mut self, key: u64, depth: u32, lo: Exact, hi: Exact, mv: Option<u32>) {
        // Depths never exceed MAX_DEPTH = 255.
        debug_assert!(depth <= crate::alphabeta::MAX_DEPTH);
        self.table.store(key, depth as u8, lo, hi, mv);
    }

    /// What table bounds `[lo, hi]` at the right depth say about a node searched within
    /// `alpha..beta`: its value if they decide it, else `None` after narrowing the
    /// window to them (Star1/Star2 only). Narrowing is sound with fail-soft values: a
    /// value returned at or below a raised `alpha = lo` is an upper bound that is also
    /// at least `lo`, so it is exact (and likewise at `beta`).
    #[inline]
    pub(super) fn table_cutoff(
        &mut self,
        (lo, hi): (Exact, Exact),
        alpha: &mut Exact,
        beta: &mut Exact,
    ) -> Option<Exact> {
        if lo == hi {
            self.heuristic_leaves += 1;
            return Some(lo);
        }
        if self.mode == ChanceMode::Expectimax {
            return None;
        }
        if lo >= *beta {
            self.heuristic_leaves += 1;
            return Some(lo);
        }
        if hi <= *alpha {
            self.heuristic_leaves += 1;
            return Some(hi);
        }
        *alpha = (*alpha).max(lo);
        *beta = (*beta).min(hi);
        None
    }

    /// The bounds `(lo, hi)` that a fail-soft `value` searched within `alpha..beta`
    /// proves: an upper bound at or below `alpha`, a lower bound at or above `beta`,
    /// else the exact value.
    #[inline]
    pub(super) fn proven_bounds(&self, value: Exact, alpha: Exact, beta: Exact) -> (Exact, Exact) {
        if value <= alpha {
            (self.lower, value)
        } else if value >= beta {
            (value, self.upper)
        } else {
            (value, value)
        }
    }

    /// The value of `state` (`ply` plies from the root, `depth` decision plies left)
    /// from the view seat, within the window `alpha..beta` (fail-soft: a value at or
    /// below `alpha` is an upper bound, at or above `beta` a lower bound, else exact).
    /// Plain expectimax ignores the window and is always exact.
    pub(super) fn search(
        &mut self,
        state: &mut S,
        depth: u32,
        ply: usize,
        alpha: Exact,
        beta: Exact,
    ) -> Exact {
        match state.turn() {
            Turn::Over => self.leaf(state),
            Turn::Chance => self.chance(state, depth, ply, alpha, beta),
            Turn::Seat(_) if depth == 0 => self.horizon(state, ply, alpha, beta),
            Turn::Seat(mover) => self.decision(state, mover, depth, ply, alpha, beta),
        }
    }

    /// The value of the node that `m` (a move or an outcome) leads to, `ply` plies from
    /// the root, as [`Expectimax::search`] gives it; the node counts as visited, and once
    /// the budget is spent the value is 0 and `stopped` is set. `state` is restored.
    #[inline]
    fn search_after(
        &mut self,
        state: &mut S,
        m: S::Move,
        depth: u32,
        ply: usize,
        (alpha, beta): (Exact, Exact),
    ) -> Exact {
        let undo = self.eval.apply(state, m);
        let value = if self.visit() {
            Exact::ZERO
        } else {
            self.search(state, depth, ply, alpha, beta)
        };
        self.eval.undo(state, undo);
        value
    }

    /// The legal moves of the decision node `state` at `ply`, in the buffer of that ply
    /// (the caller gives it back): the table's move `tt_move` first, then the rest by
    /// the evaluator's hints.
    fn ordered_moves(&mut self, state: &S, ply: usize, tt_move: Option<u32>) -> Vec<S::Move> {
        self.ensure_ply(ply);
        let mut moves = std::mem::take(&mut self.plies[ply].moves);
        moves.clear();
        state.legal_moves(&mut moves);
        debug_assert!(!moves.is_empty(), "a decision node without legal moves");
        let mover = match state.turn() {
            Turn::Seat(seat) if self.learns_order(ply) => Some(seat),
            _ => None,
        };
        if let Some(mover) = mover {
            self.order_by_history(state, mover, ply, &mut moves);
        } else {
            order_by_hints(&self.eval, state, &mut moves, &mut self.plies[ply].hints);
        }
        if let Some(code) = tt_move {
            move_to_front(&mut moves, code);
        }
        moves
    }

    /// Whether decision nodes at `ply` order their moves by killers and history, and
    /// record their cut-offs: with `history`, at every ply the tables have room for.
    #[inline]
    fn learns_order(&self, ply: usize) -> bool {
        self.history && ply <= MAX_PLY
    }

    /// Orders `moves` (of `mover`, at `ply`) as `ab` does after its table move: noisy
    /// moves first, then the quiet ones by hint, killer rank and history, highest first,
    /// the generator's order among equals.
    fn order_by_history(&mut self, state: &S, mover: Seat, ply: usize, moves: &mut [S::Move]) {
        let scores = &mut self.plies[ply].scores;
        scores.clear();
        scores.extend(moves.iter().map(|&m| {
            if self.eval.is_noisy(state, m) {
                NOISY_SCORE
            } else {
                let hint = self.eval.move_hint(state, m);
                self.heuristics
                    .quiet_score(hint, mover, ply, m.pack(), true, true)
            }
        }));
        sort_by_keys(moves, scores);
    }

    /// A decision node with `depth ≥ 1`: max for the view seat, min for the other.
    fn decision(
        &mut self,
        state: &mut S,
        mover: Seat,
        depth: u32,
        ply: usize,
        mut alpha: Exact,
        mut beta: Exact,
    ) -> Exact {
        let prune = self.mode != ChanceMode::Expectimax;
        let maximise = mover == self.view;

        // 1. Table: bounds at this exact depth decide or narrow the window (never at
        //    the root, which must find a move); the move orders the node at any depth.
        let key = state.hash();
        let (bounds, tt_move) = self.probe(key, depth);
        if let (Some(b), true) = (bounds, ply > 0) {
            if let Some(v) = self.table_cutoff(b, &mut alpha, &mut beta) {
                return v;
            }
        }

        // 2. Moves, table move first, then by the evaluator's hints.
        let moves = self.ordered_moves(state, ply, tt_move);

        // 3. Search every move (alpha-beta cut-offs unless plain expectimax).
        let (alpha_start, beta_start) = (alpha, beta);
        let mut best: Option<(Exact, S::Move)> = None;
        for i in 0..moves.len() {
            let m = moves[i];
            let value = self.search_after(state, m, depth - 1, ply + 1, (alpha, beta));
            if self.stopped {
                self.plies[ply].moves = moves;
                return Exact::ZERO;
            }
            let better = match best {
                None => true,
                Some((b, _)) if maximise => value > b,
                Some((b, _)) => value < b,
            };
            if better {
                best = Some((value, m));
                if ply == 0 {
                    self.root_best = Some(m);
                }
            }
            if prune {
                if maximise {
                    alpha = alpha.max(value);
                } else {
                    beta = beta.min(value);
                }
                if alpha >= beta {
                    if self.learns_order(ply) && !self.eval.is_noisy(state, m) {
                        self.heuristics.record_cutoff(mover, ply, depth, m.pack());
                    }
                    break;
                }
            }
        }
        self.plies[ply].moves = moves;
        let (value, best_move) = best.expect("at least one move");

        // 4. Store what the value proves, as bounds at this depth.
        let (lo, hi) = self.proven_bounds(value, alpha_start, beta_start);
        let refuted = if maximise {
            value <= alpha_start
        } else {
            value >= beta_start
        };
        let mv = (!refuted).then(|| best_move.pack());
        self.store(key, depth, lo, hi, mv);
        value
    }

    /// A chance node: the weighted mean of its outcomes, pruned by Star1/Star2.
    fn chance(
        &mut self,
        state: &mut S,
        depth: u32,
        ply: usize,
        mut alpha: Exact,
        mut beta: Exact,
    ) -> Exact {
        // 1. Table.
        let key = state.hash();
        let prune = self.mode != ChanceMode::Expectimax;
        if let (Some(b), _) = self.probe(key, depth) {
            if let Some(v) = self.table_cutoff(b, &mut alpha, &mut beta) {
                return v;
            }
        }

        // 2. Outcomes and their starting bounds.
        self.ensure_ply(ply);
        let mut outcomes = std::mem::take(&mut self.plies[ply].outcomes);
        let mut bounds = std::mem::take(&mut self.plies[ply].bounds);
        outcomes.clear();
        state.chance_outcomes(&mut outcomes);
        debug_assert!(!outcomes.is_empty(), "a chance node without outcomes");
        let total: i128 = outcomes.iter().map(|&(_, w)| i128::from(w)).sum();
        bounds.clear();
        bounds.resize(outcomes.len(), (self.lower, self.upper));
        // Σ wᵢ·loᵢ and Σ wᵢ·hiᵢ over all outcomes.
        let mut sum_lo = self.lower.mul_int(total);
        let mut sum_hi = self.upper.mul_int(total);
        let (alpha_w, beta_w) = (alpha.mul_int(total), beta.mul_int(total));

        let result = 'node: {
            // 3. Star2's probing phase, when the window leaves a cut-off possible: lower
            //    bounds (from max nodes) serve only if β ≤ U, upper bounds (from min
            //    nodes) only if α ≥ L.
            let wanted = (beta <= self.upper, alpha >= self.lower);
            if self.mode == ChanceMode::Star2 && (wanted.0 || wanted.1) {
                for i in 0..outcomes.len() {
                    let (o, w) = outcomes[i];
                    let w = i128::from(w);
                    let (lo, hi) = bounds[i];
                    let others_lo = sum_lo.sub(lo.mul_int(w));
                    let others_hi = sum_hi.sub(hi.mul_int(w));
                    let a = alpha_w.sub(others_hi).div_int(w).floor_to(WINDOW_GRID);
                    let b = beta_w.sub(others_lo).div_int(w).ceil_to(WINDOW_GRID);
                    let undo = self.eval.apply(state, o);
                    let probed = if self.visit() {
                        (lo, hi)
                    } else {
                        self.probe_child(state, depth, ply + 1, (a, b), wanted)
                    };
                    self.eval.undo(state, undo);
                    if self.stopped {
                        break 'node Exact::ZERO;
                    }
                    bounds[i] = probed;
                    sum_lo = others_lo.add(probed.0.mul_int(w));
                    sum_hi = others_hi.add(probed.1.mul_int(w));
                    if sum_lo >= beta_w {
                        break 'node sum_lo.div_int(total);
                    }
                    if sum_hi <= alpha_w {
                        break 'node sum_hi.div_int(total);
                    }
                }
            }

            // 4. Search each outcome within Star1's window (plain: the full window),
            //    except those a probe already knows exactly (a finished game or the
            //    horizon right after the outcome): searching them again would only
            //    count their node twice.
            for i in 0..outcomes.len() {
                let (o, w) = outcomes[i];
                let w = i128::from(w);
                let (lo, hi) = bounds[i];
                if lo == hi {
                    continue;
                }
                let others_lo = sum_lo.sub(lo.mul_int(w));
                let others_hi = sum_hi.sub(hi.mul_int(w));
                let (a, b) = if prune {
                    (
                        alpha_w.sub(others_hi).div_int(w).floor_to(WINDOW_GRID),
                        beta_w.sub(others_lo).div_int(w).ceil_to(WINDOW_GRID),
                    )
                } else {
                    (alpha, beta)
                };
                let value = self.search_after(state, o, depth, ply + 1, (a, b));
                if self.stopped {
                    break 'node Exact::ZERO;
                }
                let weighted = value.mul_int(w);
                if prune && value <= a {
                    break 'node others_hi.add(weighted).div_int(total);
                }
                if prune && value >= b {
                    break 'node others_lo.add(weighted).div_int(total);
                }
                bounds[i] = (value, value);
                sum_lo = others_lo.add(weighted);
                sum_hi = others_hi.add(weighted);
            }
            debug_assert_eq!(sum_lo, sum_hi, "every outcome searched exactly");
            sum_lo.div_int(total)
        };
        self.plies[ply].outcomes = outcomes;
        self.plies[ply].bounds = bounds;
        if self.stopped {
            return Exact::ZERO;
        }

        self.max_den = self.max_den.max(result.den());

        // 5. Store.
        let (lo, hi) = if result <= alpha && prune {
            (self.lower, result)
        } else if result >= beta && prune {
            (result, self.upper)
        } else {
            (result, result)
        };
        self.store(key, depth, lo, hi, None);
        result
    }

    /// Star2's probe of the node an outcome led to (`depth` decision plies left): bounds
    /// `(lo, hi)` on its value from its first move only, searched within `window` (see
    /// the module docs); `(L, U)` when it has nothing cheap to offer (a chance node) or
    /// only a bound that `wanted` (lower, upper) says cannot help.
    fn probe_child(
        &mut self,
        state: &mut S,
        depth: u32,
        ply: usize,
        (alpha, beta): (Exact, Exact),
        wanted: (bool, bool),
    ) -> (Exact, Exact) {
        let mover = match state.turn() {
            Turn::Over => {
                let v = self.leaf(state);
                return (v, v);
            }
            Turn::Seat(_) if depth == 0 => {
                let v = self.horizon(state, ply, alpha, beta);
                return self.proven_bounds(v, alpha, beta);
            }
            Turn::Chance => return (self.lower, self.upper),
            Turn::Seat(mover) => mover,
        };
        let maximise = mover == self.view;
        if !(if maximise { wanted.0 } else { wanted.1 }) {
            return (self.lower, self.upper);
        }
        // 1. The table's bounds at this depth, if any, are the probe.
        let (bounds, tt_move) = self.probe(state.hash(), depth);
        if let Some(b) = bounds {
            self.heuristic_leaves += 1;
            return b;
        }
        // 2. The first move (table move first).
        let moves = self.ordered_moves(state, ply, tt_move);
        let m = moves[0];
        self.plies[ply].moves = moves;
        let value = self.search_after(state, m, depth - 1, ply + 1, (alpha, beta));
        // 3. A max node is worth at least any move's exact or lower-bound value; a min
        //    node at most any move's exact or upper-bound value.
        if maximise {
            if value > alpha {
                return (value, self.upper);
            }
        } else if value < beta {
            return (self.lower, value);
        }
        (self.lower, self.upper)
    }
}
