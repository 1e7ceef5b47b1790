//! A heuristic evaluator for Pig: the points lead, counting the turn total as the
//! mover's.
//!
//! The turn total is counted in full even though a 1 would lose it. That makes `roll`
//! and `hold` look equal to a static evaluation, and lets a one-roll expectimax find the
//! classic "hold at 20" rule on a d6: rolling on a turn total `t` is worth
//! `(5t + 2 + 3 + 4 + 5 + 6) / 6`, more than holding exactly when `t < 20`.

use crate::declare_weights;
use crate::game::Seat;
use crate::weights::{Terms, WeightedEval};

use super::PigState;

declare_weights! {
    /// The weights of [`PigEval`].
    pub struct PigWeights {
        /// the score of a points lead of exactly the target (a lead is scaled to the target)
        lead_of_target: i32 = 500, 0..=5000;
    }
}

/// The least score of a won game, kept whatever the weights (search results and MCTS
/// leaf values are scaled by it, so the default weights play as they always did); the
/// heuristic scores stay strictly inside `(-win, win)`.
pub const WIN: i32 = 1000;

/// Points lead (banked score, plus the turn total for the seat whose turn it is),
/// scaled so that a lead of `target` points is worth the weight `lead_of_target`.
pub type PigEval = WeightedEval<PigTerms>;

/// The terms of [`PigEval`], which precomputes nothing from its weights.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PigTerms;

impl PigEval {
    /// Points `seat` holds or has in hand.
    fn points(s: &PigState, seat: Seat) -> i64 {
        let in_hand = if s.mover() == seat { s.turn_total() } else { 0 };
        i64::from(s.score(seat) + in_hand)
    }
}

impl Terms for PigTerms {
    type State = PigState;
    type Weights = PigWeights;

    fn from_weights(_: &PigWeights) -> Self {
        PigTerms
    }

    /// The win score is [`WIN`] or, for a larger weight, twice `lead_of_target`. A
    /// side's points are at most `target - 1 + die` (banked points below the target,
    /// then one roll before the forced hold), so while the die has no more faces than
    /// the target (every usual rule set) a lead is below twice the target and its scaled
    /// value below `2 · lead_of_target`: the clamp never cuts it. With a tiny target and
    /// a large die the clamp keeps values inside regardless.
    fn win(&self, weights: &PigWeights) -> i32 {
        WIN.max(2 * weights.lead_of_target)
    }

    fn heuristic(eval: &PigEval, s: &PigState, seat: Seat) -> i32 {
        let lead = PigEval::points(s, seat) - PigEval::points(s, 1 - seat);
        // Division truncates towards zero and the clamp is symmetric, so the value for
        // one seat is exactly minus the value for the other. A lead can exceed the
        // target (a turn total of up to `target - 1 + die` before the forced hold), so
        // the clamp keeps heuristic values strictly below a win.
        let scaled =
            lead * i64::from(eval.weights().lead_of_target) / i64::from(s.rules().target());
        let most = i64::from(eval.win() - 1);
        scaled.clamp(-most, most) as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Evaluator;
    use crate::games::pig::{Pig, PigMove};
    use crate::{Game, State};

    #[test]
    fn lead_counts_the_turn_total_and_is_symmetric() {
        let mut s = Pig::default().initial_state();
        let e = PigEval::default();
        assert_eq!(e.evaluate(&s, 0), 0);
        s.apply(PigMove::Roll);
        s.apply(PigMove::Face(6));
        // 6 points of a 100-point race, for the seat whose turn it is.
        assert_eq!(e.evaluate(&s, 0), 30);
        assert_eq!(e.evaluate(&s, 1), -30);
        s.apply(PigMove::Roll);
        // At the chance node the turn total still counts for the roller.
        assert_eq!(e.evaluate(&s, 0), 30);
        s.apply(PigMove::Face(1));
        assert_eq!(e.evaluate(&s, 0), 0);
    }

    #[test]
    fn small_targets_stay_below_a_win() {
        let mut s = Pig::new(1, 20, 10).unwrap().initial_state();
        s.apply(PigMove::Roll);
        s.apply(PigMove::Face(20));
        assert_eq!(PigEval::default().evaluate(&s, 0), WIN - 1);
        assert_eq!(PigEval::default().evaluate(&s, 1), 1 - WIN);
        s.apply(PigMove::Hold);
        assert_eq!(PigEval::default().evaluate(&s, 0), WIN);
        assert_eq!(PigEval::default().evaluate(&s, 1), -WIN);
    }

    #[test]
    fn bounds_hold_at_extreme_weights() {
        for pig in [Pig::default(), Pig::new(1, 20, 10).unwrap()] {
            crate::testing::extreme_weights::check_evaluator_at_extreme_weights::<_, PigEval>(
                &pig.initial_state(),
                100,
                1,
            )
            .unwrap();
        }
    }
}
