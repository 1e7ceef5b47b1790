//! What the chance searches score at their leaves: a finished game's outcome, and a
//! decision node at the horizon by the evaluator or by playouts ([`Horizon`]).

use std::ops::Add;

use agon_engine::luck::chacha_key;
use agon_engine::{Evaluator, State, Turn};
use rand::SeedableRng;

use super::{Expectimax, Horizon, QUIESCENCE_PLIES};
use crate::agent::AgentRng;
use crate::exact::Exact;
use crate::playout::{play_out, Policy};

impl<S: State, E: Evaluator<S>> Expectimax<S, E> {
    /// The value of a decision node at the horizon, as [`Horizon`] says; `state` is
    /// restored.
    pub(super) fn horizon(
        &mut self,
        state: &mut S,
        ply: usize,
        alpha: Exact,
        beta: Exact,
    ) -> Exact {
        self.heuristic_leaves += 1;
        let (count, plies) = match self.horizon {
            Horizon::Evaluate => return self.leaf(state),
            Horizon::Quiescence => return self.quiescence_horizon(state, ply, alpha, beta),
            Horizon::Playouts { count, plies } => (count, plies),
        };
        let mut rng = AgentRng::from_seed(chacha_key([self.salt, state.hash(), 0, 0]));
        let mut sum = 0i128;
        let policy = Policy {
            greedy: true,
            plies,
        };
        for i in 0..count {
            let mut dice = AgentRng::from_seed(chacha_key([self.salt, 0, u64::from(i), 1]));
            let undos = Some(&mut self.undos);
            play_out(
                state,
                &self.eval,
                policy,
                &mut rng,
                Some(&mut dice),
                &mut self.scratch,
                undos,
            );
            // Outcomes and evaluations are whole numbers.
            sum += self.leaf(state).num();
            while let Some(undo) = self.undos.pop() {
                state.undo(undo);
            }
        }
        let count = i128::from(count);
        Exact::int((2 * sum + count).div_euclid(2 * count) as i64)
    }

    /// [`Horizon::Quiescence`] at a horizon node within `alpha..beta`: the table's
    /// bounds at remaining depth 0 if they decide it, else the quiescence search, whose
    /// bounds the table then keeps.
    fn quiescence_horizon(
        &mut self,
        state: &mut S,
        ply: usize,
        alpha: Exact,
        beta: Exact,
    ) -> Exact {
        let key = state.hash();
        let (mut alpha, mut beta) = (alpha, beta);
        if let (Some(b), _) = self.probe(key, 0) {
            if let Some(v) = self.table_cutoff(b, &mut alpha, &mut beta) {
                return v;
            }
        }
        let v = self.quiesce(state, ply, alpha, beta, QUIESCENCE_PLIES);
        if self.stopped {
            return Exact::ZERO;
        }
        let (lo, hi) = self.proven_bounds(v, alpha, beta);
        self.store(key, 0, lo, hi, None);
        v
    }

    /// [`Horizon::Quiescence`]'s value of `state` (`ply` plies from the root, `left`
    /// quiescence plies to go) within `alpha..beta`, fail-soft; `state` is restored.
    fn quiesce(
        &mut self,
        state: &mut S,
        ply: usize,
        alpha: Exact,
        beta: Exact,
        left: u32,
    ) -> Exact {
        let mover = match state.turn() {
            Turn::Over => return self.leaf(state),
            Turn::Chance => return self.quiesce_chance(state, ply, left),
            Turn::Seat(mover) => mover,
        };
        let stand = self.leaf(state);
        if left == 0 || !self.eval.may_have_noisy_moves(state) {
            return stand;
        }
        let maximise = mover == self.view;
        let (mut alpha, mut beta) = (alpha, beta);
        if maximise {
            alpha = alpha.max(stand);
        } else {
            beta = beta.min(stand);
        }
        if alpha >= beta {
            return stand;
        }
        self.ensure_ply(ply);
        let mut moves = std::mem::take(&mut self.plies[ply].moves);
        moves.clear();
        state.legal_moves(&mut moves);
        moves.retain(|&m| self.eval.is_noisy(state, m));
        let mut best = stand;
        for &m in &moves {
            let undo = self.eval.apply(state, m);
            let value = if self.visit() {
                Exact::ZERO
            } else {
                self.quiesce(state, ply + 1, alpha, beta, left - 1)
            };
            self.eval.undo(state, undo);
            if self.stopped {
                break;
            }
            if maximise {
                best = best.max(value);
                alpha = alpha.max(value);
            } else {
                best = best.min(value);
                beta = beta.min(value);
            }
            if alpha >= beta {
                break;
            }
        }
        self.plies[ply].moves = moves;
        best
    }

    /// A chance node inside a quiescence search: the mean of its outcomes' quiescence
    /// values, each searched with the full window.
    fn quiesce_chance(&mut self, state: &mut S, ply: usize, left: u32) -> Exact {
        self.ensure_ply(ply);
        let mut outcomes = std::mem::take(&mut self.plies[ply].outcomes);
        outcomes.clear();
        state.chance_outcomes(&mut outcomes);
        let mut sum = Exact::ZERO;
        let mut total = 0i128;
        for &(o, w) in &outcomes {
            let undo = self.eval.apply(state, o);
            let value = if self.visit() {
                Exact::ZERO
            } else {
                let (lower, upper) = (self.lower, self.upper);
                self.quiesce(state, ply + 1, lower, upper, left)
            };
            self.eval.undo(state, undo);
            if self.stopped {
                break;
            }
            sum = sum.add(value.mul_int(i128::from(w)));
            total += i128::from(w);
        }
        self.plies[ply].outcomes = outcomes;
        if self.stopped {
            return Exact::ZERO;
        }
        let mean = sum.div_int(total);
        self.max_den = self.max_den.max(mean.den());
        mean
    }

    /// The value of a finished game, or the evaluator's score of any other node.
    #[inline]
    pub(super) fn leaf(&self, state: &S) -> Exact {
        match state.outcome() {
            Some(outcome) => match outcome.score(self.view) {
                0 => Exact::ZERO,
                r if r > 0 => self.upper,
                _ => self.lower,
            },
            None => Exact::int(i64::from(self.eval.evaluate(state, self.view))),
        }
    }
}
