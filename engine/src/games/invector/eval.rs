//! A heuristic evaluator for Invector.
//!
//! The game ends only when a side loses its last stone, so material dominates. Next
//! come captures available (the side with more captures on the board can trade on its
//! own terms), and spare tempo: a stone far from the centre still has steps to make,
//! which matters when a side would otherwise have to break a standoff.
//!
//! The default weights are fitted by `agon tune` and kept because they beat the
//! hand-set ones in a paired match (`experiments/tuned/README.md`). Tempo's fitted weight is 0; the term stays a weight
//! a file can switch back on, and costs nothing while it is 0.
//!
//! It declares no move noisy, so alpha-beta runs no quiescence search on Invector:
//! captures are most of the moves of a middle game (dozens a node on 8×7), and every
//! capture gains a stone, so standing pat rarely cuts and a quiescence search would
//! explode. Tests that exercise quiescence on Invector wrap this evaluator with one
//! that declares captures noisy.
//!
//! Its move hints order captures before steps, and among each the moves whose stone
//! lands where fewer enemy stones can take it back: a capture by replacement always
//! gains a stone, and the question is whether the opponent recaptures at once. On the
//! solver's proofs this ordering searches markedly fewer nodes than plain captures
//! first (figures, and the variants that searched more, in `docs/decisions.md`).

use crate::bits::Cells;
use crate::declare_weights;
use crate::game::Seat;
use crate::weights::{Terms, WeightedEval};

use super::board::DIRECTIONS;
use super::{Colour, InvectorMove, InvectorState, MoveKind};

declare_weights! {
    /// The weights of [`InvectorEval`].
    pub struct InvectorWeights {
        /// one stone of material
        stone: i32 = 105, 0..=1000;
        /// one available capture (mobility that can change material)
        capture: i32 = 6, 0..=60;
        /// one step of distance still to walk to the nearer centre pit (spare tempo)
        tempo: i32 = 0, 0..=10;
    }
}

/// The least score of a won game, kept whatever the weights (search results and MCTS
/// leaf values are scaled by it, so the default weights play as they always did).
pub const WIN: i32 = 20_000;

/// Material, capture mobility and tempo, from a seat's point of view.
pub type InvectorEval = WeightedEval<InvectorTerms>;

/// The terms of [`InvectorEval`], which precomputes nothing from its weights.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct InvectorTerms;

impl InvectorEval {
    /// Score of `colour`'s stones alone (material, captures, tempo).
    fn side_score(&self, s: &InvectorState, colour: Colour) -> i32 {
        let w = self.weights();
        let g = s.geometry();
        let own = s.stones(colour);
        let enemy = s.stones(colour.other());
        let captures: u32 = DIRECTIONS
            .iter()
            .map(|&d| (g.shift(own, d) & enemy).count_ones())
            .sum();
        let tempo: i32 = if w.tempo == 0 {
            0
        } else {
            Cells(own).map(|p| i32::from(g.distance[p])).sum()
        };
        own.count_ones() as i32 * w.stone + captures as i32 * w.capture + tempo * w.tempo
    }
}

impl Terms for InvectorTerms {
    type State = InvectorState;
    type Weights = InvectorWeights;

    /// No Invector move is noisy ([`Terms::is_noisy`] keeps its default): the
    /// evaluator scores captures as they stand.
    fn may_have_noisy_moves(_: &InvectorEval, _: &InvectorState) -> bool {
        false
    }

    fn from_weights(_: &InvectorWeights) -> Self {
        InvectorTerms
    }

    /// The win score is [`WIN`] or, for larger weights, one more than the most a side's
    /// score can be: at most 128 stones, each with at most four captures (one per
    /// direction) and at most 30 steps from a pit (width + height ≤ 32); the other
    /// side's score is never negative, since no weight is. The defaults give 16,512.
    fn win(&self, weights: &InvectorWeights) -> i32 {
        let most = 128 * (weights.stone + 4 * weights.capture + 30 * weights.tempo);
        WIN.max(most + 1)
    }

    fn heuristic(eval: &InvectorEval, s: &InvectorState, seat: Seat) -> i32 {
        let mine = s.colour_of(seat);
        eval.side_score(s, mine) - eval.side_score(s, mine.other())
    }

    /// Captures (3 to 6) before steps (0 or 1); a capture ranks higher the fewer enemy
    /// stones neighbour its destination once the captured one is gone (at most three:
    /// the fourth neighbour is the cell it came from), a step ranks 1 when no enemy
    /// stone neighbours its destination. `pass` and `swap` rank 0.
    fn move_hint(_: &InvectorEval, s: &InvectorState, m: InvectorMove) -> u8 {
        let enemy = s.stones(s.colour_to_move().other());
        let around = s.geometry().neighbours[usize::from(m.to)];
        match m.kind {
            MoveKind::Capture => {
                let attackers = (around & enemy & !(1u128 << m.to)).count_ones();
                6 - attackers.min(3) as u8
            }
            MoveKind::Step => u8::from(around & enemy == 0),
            MoveKind::Pass | MoveKind::Swap => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Evaluator;
    use crate::games::invector::Invector;
    use crate::{Game, State};

    #[test]
    fn symmetric_and_material_first() {
        let mut s = Invector::new(5, 4, true).unwrap().initial_state();
        let e = InvectorEval::default();
        assert_eq!(e.evaluate(&s, 0), -e.evaluate(&s, 1));
        s.apply(s.parse_move("c3xd3").unwrap());
        // Black is a stone up.
        assert!(
            e.evaluate(&s, 0) >= e.weights().stone - 4 * e.weights().capture,
            "{}",
            e.evaluate(&s, 0)
        );
        assert_eq!(e.evaluate(&s, 0), -e.evaluate(&s, 1));
    }

    /// 5×4 after `c3xd3 c4-c3`, Black to move:
    ///
    /// ```text
    ///  4  O X . X O
    ///  3  X O O X X
    ///  2  O X O X O
    ///  1  X O X O X
    ///     a b c d e
    /// ```
    #[test]
    fn hints_rank_captures_by_their_attackers_and_then_steps() {
        let mut s = Invector::new(5, 4, false).unwrap().initial_state();
        for m in ["c3xd3", "c4-c3"] {
            s.apply(s.parse_move(m).unwrap());
        }
        let hint = |text: &str| InvectorEval::default().move_hint(&s, s.parse_move(text).unwrap());
        // On a2 no White stone is left beside the capturer; on c2 c3 is; on c3 both b3
        // and c2 are.
        assert_eq!(hint("a1xa2"), 6);
        assert_eq!(hint("b2xc2"), 5);
        assert_eq!(hint("d3xc3"), 4);
        // A step onto c4 lands beside c3's White stone.
        assert_eq!(hint("b4-c4"), 0);
        // A safe step: with every White stone but a4's gone, b4-c4 lands beside none.
        let mut quiet = s.clone();
        quiet.stones = [s.stones(Colour::Black), 1u128 << 15];
        assert_eq!(
            InvectorEval::default().move_hint(&quiet, s.parse_move("b4-c4").unwrap()),
            1
        );
    }

    #[test]
    fn bounds_hold_at_extreme_weights() {
        for rules in [Invector::new(5, 4, true).unwrap(), Invector::default()] {
            crate::testing::extreme_weights::check_evaluator_at_extreme_weights::<_, InvectorEval>(
                &rules.initial_state(),
                20,
                1,
            )
            .unwrap();
        }
    }
}
