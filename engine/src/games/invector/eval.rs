//! A heuristic evaluator for Invector.
//!
//! The game ends only when a side loses its last stone, so material dominates. Next
//! come captures available (the side with more captures on the board can trade on its
//! own terms), and spare tempo: a stone far from the centre still has steps to make,
//! which matters when a side would otherwise have to break a standoff.
//!
//! It declares no move noisy, so alpha-beta runs no quiescence search on Invector:
//! captures are most of the moves of a middle game (dozens a node on 8×7), and every
//! capture gains a stone, so standing pat rarely cuts; with captures noisy a depth-4
//! search of the 8×7 start took 264 million nodes (four minutes) even with quiescence
//! capped at four plies. Tests that exercise quiescence on Invector wrap this evaluator
//! with one that declares captures noisy.

use crate::bits::Cells;
use crate::eval::Evaluator;
use crate::game::Seat;

use super::board::DIRECTIONS;
use super::{Colour, InvectorState};

/// Weight of one stone of material.
pub const STONE: i32 = 100;
/// Weight of one available capture (mobility that can change material).
pub const CAPTURE: i32 = 6;
/// Weight of one step of distance still to walk (spare tempo).
pub const TEMPO: i32 = 1;
/// Score of a won game; larger than any heuristic score can be (128 stones × 100 plus
/// 512 captures × 6 plus 128 × 30 distance steps stay below it).
pub const WIN: i32 = 20_000;

/// Material, capture mobility and tempo, from a seat's point of view.
#[derive(Clone, Copy, Debug, Default)]
pub struct InvectorEval;

impl InvectorEval {
    /// Score of `colour`'s stones alone (material, captures, tempo).
    fn side_score(s: &InvectorState, colour: Colour) -> i32 {
        let g = s.geometry();
        let own = s.stones(colour);
        let enemy = s.stones(colour.other());
        let captures: u32 = DIRECTIONS
            .iter()
            .map(|&d| (g.shift(own, d) & enemy).count_ones())
            .sum();
        let tempo: i32 = Cells(own).map(|p| i32::from(g.distance[p])).sum();
        own.count_ones() as i32 * STONE + captures as i32 * CAPTURE + tempo * TEMPO
    }
}

impl Evaluator<InvectorState> for InvectorEval {
    fn heuristic(&self, s: &InvectorState, seat: Seat) -> i32 {
        let mine = s.colour_of(seat);
        Self::side_score(s, mine) - Self::side_score(s, mine.other())
    }

    fn bounds(&self) -> (i32, i32) {
        (-WIN, WIN)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::invector::Invector;
    use crate::{Game, State};

    #[test]
    fn symmetric_and_material_first() {
        let mut s = Invector::new(5, 4, true).unwrap().initial_state();
        let e = InvectorEval;
        assert_eq!(e.evaluate(&s, 0), -e.evaluate(&s, 1));
        s.apply(s.parse_move("c3xd3").unwrap());
        // Black is a stone up.
        assert!(
            e.evaluate(&s, 0) >= STONE - 4 * CAPTURE,
            "{}",
            e.evaluate(&s, 0)
        );
        assert_eq!(e.evaluate(&s, 0), -e.evaluate(&s, 1));
    }
}
