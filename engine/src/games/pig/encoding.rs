//! Pig's encoding: a handful of counters and no board, so no planes at all (a 1 × 1 grid
//! that nothing is drawn on) and six scalars, seen from the view's seat.
//!
//! **Scalars**:
//! - `my-score`, `their-score` (max `target - 1 + die`): the banked points of the view's
//!   seat and of the other seat. A seat below the target may roll only while its score
//!   plus turn total is below the target, so one more face of at most `die` is the most
//!   a hold can take a score past `target - 1`;
//! - `turn-total` (max `target - 1 + die`, by the same argument): the points rolled in
//!   the current turn and not yet banked, which belong to the seat whose turn it is;
//! - `my-turn` (max 1): 1 if the current turn, a decision or a pending roll, is the view
//!   seat's and the game is not over, else 0;
//! - `rolling` (max 1): 1 at a chance node (a roll is pending and the game is not over),
//!   else 0;
//! - `decisions` (max `horizon`): rolls and holds made so far; at `horizon` the game is
//!   drawn, and a position's value depends on how near that is.
//!
//! The identifier is `pig/1:<target>:<die>:<horizon>`: all three set a scalar's maximum.
//! The face the die last showed is a picture's detail, not part of the position, and is
//! left out. Pig has no hidden information.

use super::{PigMove, PigState};
use crate::encoding::{Encode, Encoding, FeatureChanges, Scalar};
use crate::game::{opponent, Seat, State, Turn};

impl Encode for PigState {
    fn encoding(&self) -> Encoding {
        let rules = self.rules;
        // The most a banked score or a turn total can reach (the module doc says why).
        let points = (rules.target - 1 + rules.die) as i32;
        Encoding {
            id: format!("pig/1:{}:{}:{}", rules.target, rules.die, rules.horizon),
            rows: 1,
            cols: 1,
            planes: Vec::new(),
            scalars: vec![
                Scalar {
                    name: "my-score",
                    meaning: "points banked by the view's seat",
                    max: points,
                },
                Scalar {
                    name: "their-score",
                    meaning: "points banked by the other seat",
                    max: points,
                },
                Scalar {
                    name: "turn-total",
                    meaning: "points rolled this turn and not yet banked, the turn's seat's",
                    max: points,
                },
                Scalar {
                    name: "my-turn",
                    meaning: "1 if the current turn (a decision or a pending roll) is the view's seat's, else 0",
                    max: 1,
                },
                Scalar {
                    name: "rolling",
                    meaning: "1 if a roll is pending (a chance node), else 0",
                    max: 1,
                },
                Scalar {
                    name: "decisions",
                    meaning: "rolls and holds made so far; the game is drawn at the horizon",
                    max: rules.horizon as i32,
                },
            ],
        }
    }

    /// Pig has no planes: nothing to append.
    fn features(&self, _: Seat, _: &mut Vec<u32>) {}

    fn scalars(&self, view: Seat, out: &mut Vec<i32>) {
        let turn = self.turn();
        out.extend([
            self.scores[view] as i32,
            self.scores[opponent(view)] as i32,
            self.turn_total as i32,
            i32::from(turn != Turn::Over && self.mover == view),
            i32::from(turn == Turn::Chance),
            self.decisions as i32,
        ]);
    }

    /// No features, so no move changes any: nothing to append, and no copy of the
    /// state to compare.
    fn feature_changes(&self, _: PigMove, _: Seat, _: &mut FeatureChanges) {}
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{play_moves, Game};
    use crate::games::pig::{Pig, MIDGAME};
    use crate::testing::{check_encoding, views};

    #[test]
    fn the_contract_holds_along_random_games() {
        let report = check_encoding(&Pig::default(), 200, 1).unwrap();
        assert!(report.changes > 50_000, "{report:?}");
        assert_eq!(report.most_active, 0);
        // A short horizon (draws) and a large die on a small target, where a winning
        // score reaches the scalars' maximum.
        for rules in [Pig::new(20, 3, 30).unwrap(), Pig::new(1, 20, 1000).unwrap()] {
            let report = check_encoding(&rules, 500, 2).unwrap();
            assert!(report.changes > 2_000, "{report:?}");
        }
    }

    #[test]
    fn the_identifier_names_the_rules() {
        let s = Pig::new(20, 3, 30).unwrap().initial_state();
        let e = s.encoding();
        assert_eq!(e.id, "pig/1:20:3:30");
        let maxima: Vec<i32> = e.scalars.iter().map(|s| s.max).collect();
        assert_eq!(maxima, [22, 22, 22, 1, 1, 30]);
        assert_eq!(e.features(), 0);
    }

    #[test]
    fn scores_are_the_views_or_the_opponents() {
        let mut s = Pig::default().initial_state();
        // Seat 0 banks 9, seat 1 loses its 6 to a 1, seat 0 has 9 at risk again.
        play_moves(&mut s, MIDGAME).unwrap();
        let scalars = |s: &PigState, view: usize| {
            let (features, scalars) = views(s)[view].clone();
            assert!(features.is_empty());
            scalars
        };
        assert_eq!(scalars(&s, 0), [9, 0, 9, 1, 0, 7]);
        assert_eq!(scalars(&s, 1), [0, 9, 9, 0, 0, 7]);
        play_moves(&mut s, "roll").unwrap();
        assert_eq!(scalars(&s, 0), [9, 0, 9, 1, 1, 8]);
        assert_eq!(scalars(&s, 1), [0, 9, 9, 0, 1, 8]);
        // A 1 ends the turn: seat 1 decides with nothing at risk.
        play_moves(&mut s, "1").unwrap();
        assert_eq!(scalars(&s, 0), [9, 0, 0, 0, 0, 8]);
        assert_eq!(scalars(&s, 1), [0, 9, 0, 1, 0, 8]);
    }
}
