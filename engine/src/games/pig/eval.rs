//! A heuristic evaluator for Pig: the points lead, counting the turn total as the
//! mover's.
//!
//! The turn total is counted in full even though a 1 would lose it. That makes `roll`
//! and `hold` look equal to a static evaluation, and lets a one-roll expectimax find the
//! classic "hold at 20" rule on a d6: rolling on a turn total `t` is worth
//! `(5t + 2 + 3 + 4 + 5 + 6) / 6`, more than holding exactly when `t < 20`.

use crate::eval::Evaluator;
use crate::game::Seat;

use super::PigState;

/// Score of a won game; the heuristic scores stay strictly inside `(-WIN, WIN)`.
pub const WIN: i32 = 1000;
/// Heuristic score of a lead of exactly `target` points (a lead is scaled to the
/// target, so that the same fraction of the race scores the same at any target).
pub const LEAD_OF_TARGET: i64 = 500;

/// Points lead (banked score, plus the turn total for the seat whose turn it is),
/// scaled so that a lead of `target` points is worth `LEAD_OF_TARGET`.
#[derive(Clone, Copy, Debug, Default)]
pub struct PigEval;

impl PigEval {
    /// Points `seat` holds or has in hand.
    fn points(s: &PigState, seat: Seat) -> i64 {
        let in_hand = if s.mover() == seat { s.turn_total() } else { 0 };
        i64::from(s.score(seat) + in_hand)
    }
}

impl Evaluator<PigState> for PigEval {
    fn heuristic(&self, s: &PigState, seat: Seat) -> i32 {
        let lead = Self::points(s, seat) - Self::points(s, 1 - seat);
        // Division truncates towards zero and the clamp is symmetric, so the value for
        // one seat is exactly minus the value for the other. A lead can exceed the
        // target (a turn total of up to `target - 1 + die` before the forced hold), so
        // the clamp keeps heuristic values strictly below a win.
        let scaled = lead * LEAD_OF_TARGET / i64::from(s.rules().target());
        scaled.clamp(-i64::from(WIN - 1), i64::from(WIN - 1)) as i32
    }

    fn bounds(&self) -> (i32, i32) {
        (-WIN, WIN)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::pig::{Pig, PigMove};
    use crate::{Game, State};

    #[test]
    fn lead_counts_the_turn_total_and_is_symmetric() {
        let mut s = Pig::default().initial_state();
        let e = PigEval;
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
        assert_eq!(PigEval.evaluate(&s, 0), WIN - 1);
        assert_eq!(PigEval.evaluate(&s, 1), 1 - WIN);
        s.apply(PigMove::Hold);
        assert_eq!(PigEval.evaluate(&s, 0), WIN);
        assert_eq!(PigEval.evaluate(&s, 1), -WIN);
    }
}
