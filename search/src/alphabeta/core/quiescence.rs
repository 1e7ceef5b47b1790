//! Quiescence search: the part of a node's search below the horizon.

use agon_engine::{Deterministic, Evaluator, Outcome, Seat, Turn};

use super::{Core, QUIESCENCE_PLIES};
use crate::score::{clamp_eval, terminal, MAX_PLY};

impl<S: Deterministic, E: Evaluator<S>> Core<S, E> {
    /// Quiescence search below the horizon: the side to move may stand pat on the
    /// evaluator's score or play a noisy move, searched the same way, so that the horizon
    /// never falls in the middle of an exchange. Its value is the minimax value of that
    /// tree (stand-pat or noisy moves at every node), which the differential tests
    /// compute plainly. `depth` counts the noisy moves still allowed (at most
    /// [`QUIESCENCE_PLIES`]); at 0 the node stands pat. Nothing
    /// here is stored in the table.
    pub(super) fn quiesce(
        &mut self,
        state: &mut S,
        depth: u32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        let Turn::Seat(mover) = state.turn() else {
            unreachable!("quiescence is called on decision nodes of a deterministic game")
        };
        self.plies[ply].pv.clear();
        self.heuristic_leaves += 1;
        let stand_pat = clamp_eval(self.eval.evaluate(state, mover));
        if stand_pat >= beta || depth == 0 || ply >= MAX_PLY - 1 {
            return stand_pat;
        }
        // Moves are generated only where one may be noisy or win at once.
        let noisy = self.eval.may_have_noisy_moves(state);
        let quiet_wins =
            self.options.quiet_wins && depth == QUIESCENCE_PLIES && state.may_win_now();
        if !noisy && !quiet_wins {
            return stand_pat;
        }
        alpha = alpha.max(stand_pat);
        let mut best = stand_pat;
        let mut moves = std::mem::take(&mut self.plies[ply].moves);
        moves.clear();
        state.legal_moves(&mut moves);
        if quiet_wins {
            let win = self.quiet_win(state, mover, ply, &moves);
            // A stopped search's value is never read (0, as everywhere below).
            if let Some(score) = if self.stopped { Some(0) } else { win } {
                self.plies[ply].moves = moves;
                return score;
            }
        }
        for i in 0..moves.len() {
            let m = moves[i];
            if !self.eval.is_noisy(state, m) {
                continue;
            }
            let undo = self.eval.apply(state, m);
            let score = if self.visit() {
                0
            } else {
                self.child(state, mover, depth - 1, ply, alpha, beta, true)
            };
            self.eval.undo(state, undo);
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.plies[ply].moves = moves;
        if self.stopped {
            0
        } else {
            best
        }
    }

    /// The score of a win at once for `mover`, if one of the quiet `moves` of `state`
    /// (at `ply`) wins the game (see
    /// [`AlphaBetaConfig::quiet_wins`](crate::alphabeta::AlphaBetaConfig::quiet_wins)):
    /// only the moves the game cannot rule out are played to see.
    fn quiet_win(
        &mut self,
        state: &mut S,
        mover: Seat,
        ply: usize,
        moves: &[S::Move],
    ) -> Option<i32> {
        // The deferred-move buffer of this ply is free: only a main-search node uses it.
        let mut candidates = std::mem::take(&mut self.plies[ply].deferred);
        candidates.clear();
        candidates.extend(
            moves
                .iter()
                .copied()
                .filter(|&m| !self.eval.is_noisy(state, m)),
        );
        state.retain_possible_wins(&mut candidates);
        let mut win = None;
        for &m in &candidates {
            let undo = self.eval.apply(state, m);
            let end = if self.visit() { None } else { state.end() };
            self.eval.undo(state, undo);
            if self.stopped {
                break;
            }
            if let Some(end) = end.filter(|end| end.outcome == Outcome::Win(mover)) {
                if end.by_history {
                    self.history_ends += 1;
                }
                win = Some(terminal(end.outcome, mover, ply + 1));
                break;
            }
        }
        self.plies[ply].deferred = candidates;
        win
    }
}
