//! Leaf evaluation: a uniformly random or a greedy playout (to the end of the game, or
//! cut short and scored by the evaluator), or the evaluator's score mapped into [-1, 1].

use agon_engine::{Evaluator, Outcome, State};

use crate::agent::AgentRng;
pub(crate) use crate::playout::Scratch;
use crate::playout::{play_out, Policy};

/// How a new leaf is valued.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rollout {
    /// Play uniformly random decisions (chance outcomes drawn by their weights) to the
    /// end of the game and score its outcome: +1 win, 0 draw, -1 loss; or, after `plies`
    /// plies if given, score the position as [`Rollout::Eval`] does.
    Random {
        /// Plies after which the playout stops (`None`: the end of the game).
        plies: Option<u32>,
    },
    /// Play greedy decisions: each the move after which the evaluator scores the
    /// position best for the mover (equal scores broken at random), chance outcomes
    /// drawn by their weights; scored as [`Rollout::Random`] is. A heavier playout that
    /// follows a sensible policy, the base policy that rollout search improves on
    /// (Tesauro and Galperin, "On-line policy improvement using Monte-Carlo search",
    /// 1996).
    Greedy {
        /// Plies after which the playout stops (`None`: the end of the game).
        plies: Option<u32>,
    },
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
    let (greedy, plies) = match mode {
        Rollout::Random { plies } => (false, plies),
        Rollout::Greedy { plies } => (true, plies),
        Rollout::Eval => (false, Some(0)),
    };
    let policy = Policy { greedy, plies };
    play_out(state, eval, policy, rng, None, scratch, None);
    eval_leaf(state, eval)
}

#[cfg(test)]
mod tests {
    use agon_engine::games::connect4::{Connect4, Connect4Eval};
    use agon_engine::Game;
    use rand::SeedableRng;

    use super::*;

    #[test]
    fn a_leaf_scores_its_outcome_or_the_evaluator_where_the_playout_stopped() {
        let start = Connect4.initial_state();
        let mut scratch = Scratch::new();
        let modes = [
            Rollout::Random { plies: None },
            Rollout::Greedy { plies: None },
            Rollout::Random { plies: Some(5) },
            Rollout::Greedy { plies: Some(5) },
            Rollout::Eval,
        ];
        for mode in modes {
            let mut s = start.clone();
            let mut rng = AgentRng::seed_from_u64(7);
            let v = evaluate(
                mode,
                &mut s,
                &Connect4Eval::default(),
                &mut rng,
                &mut scratch,
            );
            match s.outcome() {
                Some(outcome) => assert_eq!(v, outcome_reward(outcome), "{mode:?}"),
                None => assert_eq!(v, eval_leaf(&s, &Connect4Eval::default()), "{mode:?}"),
            }
            let plies = match mode {
                Rollout::Random { plies } | Rollout::Greedy { plies } => plies,
                Rollout::Eval => Some(0),
            };
            match plies {
                Some(n) => assert_eq!(s.ply(), n, "{mode:?}"),
                None => assert!(s.outcome().is_some(), "{mode:?}"),
            }
        }
    }
}
