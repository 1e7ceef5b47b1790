//! A heuristic evaluator for Connect Four.
//!
//! A game is won by completing one of the board's 69 windows (four cells in a line), so
//! the evaluator counts, for each side, the windows it can still complete (no enemy
//! stone in them) by how many of their cells it already holds: three of four is a threat
//! that forces an answer, two of four a threat in the making. Stones in the centre
//! column take part in the most windows (up to 16 cells' worth of lines across the
//! board), so they get a small bonus of their own.

use crate::declare_weights;
use crate::game::Seat;
use crate::weights::{Terms, WeightedEval};

use super::board::{
    self, column_mask, playable, winning_cells, COLUMNS, FULL, WINDOWS, WINDOW_COUNT,
};
use super::{Connect4Move, Connect4State};

declare_weights! {
    /// The weights of [`Connect4Eval`].
    pub struct Connect4Weights {
        /// an open window holding two own stones (and two empty cells)
        two: i32 = 2, 0..=50;
        /// an open window holding three own stones (and one empty cell)
        three: i32 = 10, 0..=200;
        /// one stone in the centre column (d)
        centre: i32 = 3, 0..=50;
    }
}

/// The least score of a won game, kept whatever the weights (search results and MCTS
/// leaf values are scaled by it, so the default weights play as they always did).
pub const WIN: i32 = 1_000;

/// Open windows and centre stones, from a seat's point of view.
pub type Connect4Eval = WeightedEval<Connect4Terms>;

/// The terms of [`Connect4Eval`], which precomputes nothing from its weights.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Connect4Terms;

impl Connect4Eval {
    /// The heuristic score of `own` stones against `enemy` stones, before subtracting
    /// the other side's.
    fn side_score(&self, own: u64, enemy: u64) -> i32 {
        let w = self.weights();
        let mut score = 0;
        for &win in &WINDOWS {
            if win & enemy == 0 {
                score += match (win & own).count_ones() {
                    2 => w.two,
                    3 => w.three,
                    _ => 0,
                };
            }
        }
        score + (own & column_mask(COLUMNS / 2)).count_ones() as i32 * w.centre
    }
}

impl Terms for Connect4Terms {
    type State = Connect4State;
    type Weights = Connect4Weights;

    fn from_weights(_: &Connect4Weights) -> Self {
        Connect4Terms
    }

    /// The win score is [`WIN`] or, for larger weights, one more than the most a side's
    /// score can be: each of the 69 windows counts at most once, with two or three
    /// stones, and at most six centre stones (the other side's score is never negative,
    /// since no weight is).
    fn win(&self, weights: &Connect4Weights) -> i32 {
        let most = WINDOW_COUNT as i32 * weights.two.max(weights.three) + 6 * weights.centre;
        WIN.max(most + 1)
    }

    fn heuristic(eval: &Connect4Eval, s: &Connect4State, seat: Seat) -> i32 {
        let (own, enemy) = (s.stones(seat), s.stones(1 - seat));
        eval.side_score(own, enemy) - eval.side_score(enemy, own)
    }

    /// A drop is noisy if it completes four for either side at its cell: it wins at once,
    /// or it blocks the opponent's immediate win. A horizon just before such a drop sees
    /// a three as a mere threat when the game is already decided.
    fn is_noisy(_: &Connect4Eval, s: &Connect4State, m: Connect4Move) -> bool {
        let column = m.column();
        if s.is_full(column) {
            return false;
        }
        let cell = board::cell(column, s.height(column));
        (s.winning_cells(0) | s.winning_cells(1)) & cell != 0
    }

    /// The number of cells where the mover's stones would complete four after the drop
    /// (threats, playable now or later), four points each, plus up to three points for
    /// nearness to the centre column, which breaks ties between equal threat counts.
    /// Creating threats is what wins Connect Four, so proofs that try those drops first
    /// cut off far sooner (the ordering of Pons' solver).
    fn move_hint(_: &Connect4Eval, s: &Connect4State, m: Connect4Move) -> u8 {
        let column = m.column();
        let cell = board::cell(column, s.height(column));
        let own = s.stones(s.seat_to_move()) | cell;
        let threats = winning_cells(own, s.occupied() | cell).count_ones();
        let centrality = (COLUMNS / 2) as u32 - column.abs_diff(COLUMNS / 2) as u32;
        // At most 42 - 1 empty cells can be threats, so the hint is below 4 * 41 + 4.
        (threats * 4 + centrality) as u8
    }

    /// After the drop, the opponent wins at once if one of its winning cells is
    /// playable: an earlier threat the drop did not block, or the cell the drop makes
    /// playable above itself. Not if the drop itself ends the game.
    fn opponent_wins_next(_: &Connect4Eval, s: &Connect4State, m: Connect4Move) -> bool {
        let column = m.column();
        let cell = board::cell(column, s.height(column));
        let mover = s.seat_to_move();
        let occupied = s.occupied() | cell;
        if s.winning_cells(mover) & cell != 0 || occupied == FULL {
            return false;
        }
        s.winning_cells(1 - mover) & playable(occupied) != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Evaluator;
    use crate::games::connect4::Connect4;
    use crate::{play_moves, Game};

    #[test]
    fn symmetric_and_prefers_the_centre() {
        let e = Connect4Eval::default();
        let start = Connect4.initial_state();
        assert_eq!(e.evaluate(&start, 0), 0);
        let mut centre = start.clone();
        play_moves(&mut centre, "d").unwrap();
        let mut edge = start.clone();
        play_moves(&mut edge, "a").unwrap();
        assert!(e.evaluate(&centre, 0) > e.evaluate(&edge, 0));
        assert_eq!(e.evaluate(&centre, 0), -e.evaluate(&centre, 1));
    }

    #[test]
    fn threats_count_and_wins_are_bounds() {
        let e = Connect4Eval::default();
        let mut s = Connect4.initial_state();
        play_moves(&mut s, "a a b b c").unwrap();
        // Red has three in a row on row 1 with d1 open; yellow only twos.
        assert!(
            e.evaluate(&s, 0) >= e.weights().three,
            "{}",
            e.evaluate(&s, 0)
        );
        play_moves(&mut s, "g d").unwrap();
        assert_eq!(e.evaluate(&s, 0), WIN);
        assert_eq!(e.evaluate(&s, 1), -WIN);
    }

    #[test]
    fn wins_and_blocks_are_noisy() {
        let e = Connect4Eval::default();
        let mut s = Connect4.initial_state();
        play_moves(&mut s, "a a b b c").unwrap();
        // Yellow to move: d1 blocks red's row, every other drop is quiet.
        let noisy: Vec<_> = (0..COLUMNS)
            .filter(|&c| e.is_noisy(&s, Connect4Move::new(c).unwrap()))
            .collect();
        assert_eq!(noisy, vec![3]);
        play_moves(&mut s, "g").unwrap();
        // Red to move: d1 wins; still the only noisy drop.
        assert!(e.is_noisy(&s, Connect4Move::new(3).unwrap()));
        assert!(!e.is_noisy(&s, Connect4Move::new(4).unwrap()));
    }

    #[test]
    fn bounds_hold_at_extreme_weights() {
        crate::testing::extreme_weights::check_evaluator_at_extreme_weights::<_, Connect4Eval>(
            &Connect4.initial_state(),
            200,
            1,
        )
        .unwrap();
    }
}
