//! Leaf evaluation: a uniformly random or a greedy playout (to the end of the game, or
//! cut short and scored by the evaluator), or the evaluator's score mapped into [-1, 1].

use agon_engine::{Evaluator, Outcome, Seat, State, Turn};
use rand::Rng;

use crate::agent::AgentRng;

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

/// Plays `state` out with `policy` choosing the decisions and chance outcomes drawn by
/// their integer weights, until the game ends (its reward) or `plies` plies were played
/// (the evaluator's leaf value); returns the reward from seat 0's view. `state` is left
/// where the playout stopped.
pub(crate) fn playout<S: State, E: Evaluator<S>>(
    state: &mut S,
    eval: &E,
    greedy: bool,
    plies: Option<u32>,
    rng: &mut AgentRng,
    scratch: &mut Scratch<S::Move>,
) -> f64 {
    let mut left = plies.unwrap_or(u32::MAX);
    loop {
        let m = match state.turn() {
            Turn::Over => {
                return outcome_reward(state.outcome().expect("a finished game has an outcome"))
            }
            _ if left == 0 => return eval_leaf(state, eval),
            Turn::Seat(mover) => {
                scratch.moves.clear();
                state.legal_moves(&mut scratch.moves);
                if greedy {
                    greedy_move(state, eval, mover, rng, &scratch.moves)
                } else {
                    scratch.moves[rng.random_range(0..scratch.moves.len() as u32) as usize]
                }
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
                chosen
            }
        };
        state.apply(m);
        left -= 1;
    }
}

/// The move of `moves` (legal at `state`, `mover` to decide) after which `eval` scores
/// the position best from `mover`'s view; among equal scores, one uniformly at random
/// (reservoir sampling: the k-th tie replaces the pick with probability 1/k).
fn greedy_move<S: State, E: Evaluator<S>>(
    state: &mut S,
    eval: &E,
    mover: Seat,
    rng: &mut AgentRng,
    moves: &[S::Move],
) -> S::Move {
    let (mut best, mut pick, mut ties) = (i32::MIN, moves[0], 0u32);
    for &m in moves {
        let undo = state.apply(m);
        let value = eval.evaluate(state, mover);
        state.undo(undo);
        if value > best {
            (best, pick, ties) = (value, m, 1);
        } else if value == best {
            ties += 1;
            if rng.random_range(0..ties) == 0 {
                pick = m;
            }
        }
    }
    pick
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
        Rollout::Random { plies } => playout(state, eval, false, plies, rng, scratch),
        Rollout::Greedy { plies } => playout(state, eval, true, plies, rng, scratch),
        Rollout::Eval => eval_leaf(state, eval),
    }
}

#[cfg(test)]
mod tests {
    use agon_engine::games::connect4::{Connect4, Connect4Eval};
    use agon_engine::{play_moves, Game};
    use rand::SeedableRng;

    use super::*;

    fn rng() -> AgentRng {
        AgentRng::seed_from_u64(7)
    }

    #[test]
    fn a_greedy_decision_takes_the_immediate_win() {
        // Red has three in column a; dropping in `a` wins, and only that move does.
        let mut s = Connect4.initial_state();
        play_moves(&mut s, "a b a b a b").unwrap();
        let mut moves = Vec::new();
        s.legal_moves(&mut moves);
        let before = s.clone();
        let pick = greedy_move(&mut s, &Connect4Eval, 0, &mut rng(), &moves);
        assert_eq!(s, before, "the state is restored");
        assert_eq!(s.format_move(pick), "a");
    }

    #[test]
    fn playouts_stop_at_the_end_or_after_their_plies() {
        let start = Connect4.initial_state();
        let mut scratch = Scratch::new();
        for greedy in [false, true] {
            // No plies: to the end of the game, scored by its outcome.
            let mut s = start.clone();
            let reward = playout(
                &mut s,
                &Connect4Eval,
                greedy,
                None,
                &mut rng(),
                &mut scratch,
            );
            assert!(s.outcome().is_some());
            assert_eq!(reward, outcome_reward(s.outcome().unwrap()));
            // Cut after 5 plies: scored by the evaluator there.
            let mut s = start.clone();
            let v = playout(
                &mut s,
                &Connect4Eval,
                greedy,
                Some(5),
                &mut rng(),
                &mut scratch,
            );
            assert_eq!(s.ply(), 5);
            assert_eq!(v, eval_leaf(&s, &Connect4Eval));
            // No plies left: the leaf itself.
            let mut s = start.clone();
            let v = playout(
                &mut s,
                &Connect4Eval,
                greedy,
                Some(0),
                &mut rng(),
                &mut scratch,
            );
            assert_eq!((s.ply(), v), (0, eval_leaf(&start, &Connect4Eval)));
        }
    }
}
