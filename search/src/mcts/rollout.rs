//! Leaf evaluation: a uniformly random playout to the end of the game, or the
//! evaluator's score mapped into [-1, 1].

use agon_engine::{Evaluator, Outcome, State, Turn};
use rand::Rng;

use crate::agent::AgentRng;

/// How a new leaf is valued.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rollout {
    /// Play uniformly random decisions (chance outcomes drawn by their weights) to the
    /// end of the game and score its outcome: +1 win, 0 draw, -1 loss.
    Random,
    /// The evaluator's score at the leaf, scaled linearly into [-1, 1]: `v / U`, where
    /// `U` is the upper of the evaluator's symmetric bounds (a finished game scores
    /// `±U`, so exactly ±1, or 0). No playout.
    Eval,
}

/// The reward of a finished game from seat 0's view.
#[inline]
pub(crate) fn outcome_reward(outcome: Outcome) -> f64 {
    f64::from(outcome.score(0))
}

/// The reused buffers of one thread's playouts.
#[derive(Clone, Debug)]
pub(crate) struct Scratch<M> {
    moves: Vec<M>,
    outcomes: Vec<(M, u32)>,
}

impl<M> Scratch<M> {
    /// Empty buffers (they grow to the game's largest move list once).
    pub(crate) fn new() -> Self {
        Scratch {
            moves: Vec::new(),
            outcomes: Vec::new(),
        }
    }
}

/// Plays `state` out to the end with uniformly random decisions and outcomes drawn by
/// their integer weights; returns the reward from seat 0's view. `state` is left at the
/// end of the game.
pub(crate) fn random_playout<S: State>(
    state: &mut S,
    rng: &mut AgentRng,
    scratch: &mut Scratch<S::Move>,
) -> f64 {
    loop {
        match state.turn() {
            Turn::Over => {
                return outcome_reward(state.outcome().expect("a finished game has an outcome"))
            }
            Turn::Seat(_) => {
                scratch.moves.clear();
                state.legal_moves(&mut scratch.moves);
                let pick = rng.random_range(0..scratch.moves.len() as u32) as usize;
                state.apply(scratch.moves[pick]);
            }
            Turn::Chance => {
                scratch.outcomes.clear();
                state.chance_outcomes(&mut scratch.outcomes);
                let total: u64 = scratch.outcomes.iter().map(|&(_, w)| u64::from(w)).sum();
                let mut pick = rng.random_range(0..total);
                let mut chosen = scratch.outcomes[0].0;
                for &(m, w) in &scratch.outcomes {
                    if pick < u64::from(w) {
                        chosen = m;
                        break;
                    }
                    pick -= u64::from(w);
                }
                state.apply(chosen);
            }
        }
    }
}

/// The evaluator's value of `state` from seat 0's view, mapped into [-1, 1] as
/// [`Rollout::Eval`] says; a finished game scores its exact outcome.
pub(crate) fn eval_leaf<S: State, E: Evaluator<S>>(state: &S, eval: &E) -> f64 {
    if let Some(outcome) = state.outcome() {
        return outcome_reward(outcome);
    }
    let upper = f64::from(eval.bounds().1.max(1));
    (f64::from(eval.evaluate(state, 0)) / upper).clamp(-1.0, 1.0)
}

/// Values a new leaf as `mode` says (see [`Rollout`]); `state` may be changed.
#[inline]
pub(crate) fn evaluate<S: State, E: Evaluator<S>>(
    mode: Rollout,
    state: &mut S,
    eval: &E,
    rng: &mut AgentRng,
    scratch: &mut Scratch<S::Move>,
) -> f64 {
    match mode {
        Rollout::Random => random_playout(state, rng, scratch),
        Rollout::Eval => eval_leaf(state, eval),
    }
}
