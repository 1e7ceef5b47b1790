//! What the chance searches score at their leaves: a finished game's outcome, and a
//! decision node at the horizon by the evaluator or by playouts ([`Horizon`]).

use agon_engine::luck::chacha_key;
use agon_engine::{Evaluator, State};
use rand::SeedableRng;

use super::{Expectimax, Horizon};
use crate::agent::AgentRng;
use crate::exact::Exact;
use crate::playout::{play_out, Policy};

impl<S: State, E: Evaluator<S>> Expectimax<S, E> {
    /// The value of a decision node at the horizon, as [`Horizon`] says; `state` is
    /// restored.
    pub(super) fn horizon(&mut self, state: &mut S) -> Exact {
        self.heuristic_leaves += 1;
        let Horizon::Playouts { count, plies } = self.horizon else {
            return self.leaf(state);
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
