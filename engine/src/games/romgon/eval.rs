//! A heuristic evaluator for Romgon.
//!
//! Per side, from its own view:
//! - **material**, in the rulebook's order of value: hexagon > triangle > square >
//!   circle (the Rhombus is never material: losing it ends the game);
//! - **race**: how few Rhombus moves (on an empty board) separate the Rhombus from its
//!   goal — the game is a race to the enemy base;
//! - **safety**: a penalty when the Rhombus stands attacked, and a bonus per Rhombus
//!   target cell the enemy does not attack (room to escape a deadlock);
//! - **mobility**: the pattern targets of all pieces (ignoring the self-attack rule).
//!
//! The score is the difference of the two sides'. Captures are noisy, for quiescence.

use std::sync::OnceLock;

use crate::bits::Cells;
use crate::declare_weights;
use crate::game::Seat;
use crate::weights::{Terms, WeightedEval};

use super::board::{Bitboard, Board, Colour, Geometry, Kind, Piece, CELLS, KINDS};
use super::moves::{targets, ActionKind, RomgonMove};
use super::RomgonState;

declare_weights! {
    /// The weights of [`RomgonEval`].
    pub struct RomgonWeights {
        /// material: one square
        square: i32 = 300, 0..=3000;
        /// material: one triangle
        triangle: i32 = 400, 0..=4000;
        /// material: one circle
        circle: i32 = 200, 0..=2000;
        /// material: one hexagon
        hexagon: i32 = 500, 0..=5000;
        /// per Rhombus move saved on the way to the goal (within the race horizon)
        race: i32 = 70, 0..=700;
        /// penalty for a Rhombus standing attacked
        check: i32 = 120, 0..=1200;
        /// per Rhombus target cell not attacked by the enemy
        room: i32 = 12, 0..=120;
        /// per pattern target of any piece
        mobility: i32 = 3, 0..=30;
    }
}

/// Rhombus moves counted at most (farther is as bad as this): a horizon of the race
/// term, not a weight.
const RACE_HORIZON: i32 = 8;
/// The most pieces a side has: two squares, two triangles, a circle, a Rhombus and a
/// hexagon (what [`super::Romgon::position`] accepts).
const MOST_PIECES: i32 = 7;
/// The least score of a won game, kept whatever the weights (search results and MCTS
/// leaf values are scaled by it, so the default weights play as they always did).
pub const WIN: i32 = 10_000;

/// Material, race, Rhombus safety and mobility, from a seat's point of view.
pub type RomgonEval = WeightedEval<RomgonTerms>;

/// What [`RomgonEval`] precomputes from its weights.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RomgonTerms {
    /// Material by type (`Kind as usize`): square, triangle, circle, Rhombus (never
    /// material: losing it ends the game), hexagon.
    material: [i32; 5],
}

/// Rhombus moves from each cell to each goal on an empty board, `[colour][cell]`.
fn race_table() -> &'static [[u8; CELLS]; 2] {
    static TABLE: OnceLock<[[u8; CELLS]; 2]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let g = Geometry::get();
        let mut table = [[u8::MAX; CELLS]; 2];
        for colour in [Colour::Black, Colour::White] {
            let goal = colour.goal();
            let row = &mut table[colour as usize];
            // Breadth-first from the goal: the patterns are symmetric.
            let mut frontier: Bitboard = 1 << goal;
            let mut seen = frontier;
            let mut d = 0u8;
            while frontier != 0 {
                let mut next = 0;
                for p in Cells(frontier) {
                    row[p] = d;
                    next |= g.rhombus[p] | g.rhombus_diagonal[p];
                }
                frontier = next & !seen;
                seen |= next;
                d += 1;
            }
        }
        table
    })
}

/// Every cell attacked by `colour`'s pieces.
fn attack_map(g: &Geometry, board: &Board, colour: Colour) -> Bitboard {
    let mut map = 0;
    for kind in [Kind::Square, Kind::Triangle, Kind::Circle, Kind::Hexagon] {
        for p in Cells(board.pieces(colour, kind)) {
            let orient = board.orient_at(kind, p);
            map |= match kind {
                Kind::Square => g.square[p],
                Kind::Triangle => g.triangle[usize::from(orient)][p],
                Kind::Hexagon => g.hexagon[usize::from(orient)][p],
                _ => g.ring_reach(p, board.occupied()),
            };
        }
    }
    map
}

impl RomgonEval {
    /// `colour`'s side of the score.
    fn side_score(&self, g: &Geometry, board: &Board, colour: Colour) -> i32 {
        let w = self.weights();
        let mut score = 0;
        let mut mobility = 0;
        for kind in KINDS {
            for p in Cells(board.pieces(colour, kind)) {
                score += self.terms().material[kind as usize];
                let piece = Piece {
                    colour,
                    kind,
                    orient: board.orient_at(kind, p),
                };
                mobility += targets(g, board, colour, piece, p).count_ones() as i32;
            }
        }
        score += mobility * w.mobility;
        if let Some(home) = board.rhombus(colour) {
            let moves = i32::from(race_table()[colour as usize][home]).min(RACE_HORIZON);
            score += (RACE_HORIZON - moves) * w.race;
            let enemy_attacks = attack_map(g, board, colour.other());
            if enemy_attacks & 1 << home != 0 {
                score -= w.check;
            }
            let piece = Piece {
                colour,
                kind: Kind::Rhombus,
                orient: 0,
            };
            let room = targets(g, board, colour, piece, home) & !enemy_attacks;
            score += room.count_ones() as i32 * w.room;
        }
        score
    }
}

impl Terms for RomgonTerms {
    type State = RomgonState;
    type Weights = RomgonWeights;

    fn from_weights(weights: &RomgonWeights) -> Self {
        let mut material = [0; 5];
        material[Kind::Square as usize] = weights.square;
        material[Kind::Triangle as usize] = weights.triangle;
        material[Kind::Circle as usize] = weights.circle;
        material[Kind::Hexagon as usize] = weights.hexagon;
        RomgonTerms { material }
    }

    /// The win score is [`WIN`] or, for larger weights, one more than the most a
    /// difference of two sides' scores can be. A side's score is its gains less at most
    /// `check`, with no weight negative. Its gains are at most its material (two
    /// squares, two triangles, a circle and a hexagon), `RACE_HORIZON · race`, and
    /// `mobility` and `room` per target cell: each of its at most seven pieces has at
    /// most `CELLS - 7` targets (cells not its own side's), and the Rhombus's room is
    /// some of its targets. A difference is at most the most gains plus `check` (4,232
    /// with the defaults).
    fn win(&self, w: &RomgonWeights) -> i32 {
        let most_targets = CELLS as i32 - MOST_PIECES;
        let gains = 2 * (w.square + w.triangle)
            + w.circle
            + w.hexagon
            + RACE_HORIZON * w.race
            + most_targets * (MOST_PIECES * w.mobility + w.room);
        WIN.max(gains + w.check + 1)
    }

    fn heuristic(eval: &RomgonEval, s: &RomgonState, seat: Seat) -> i32 {
        let g = s.geometry();
        let mine = if seat == 0 {
            Colour::Black
        } else {
            Colour::White
        };
        eval.side_score(g, s.board(), mine) - eval.side_score(g, s.board(), mine.other())
    }

    fn is_noisy(_: &RomgonEval, _state: &RomgonState, m: RomgonMove) -> bool {
        m.kind == ActionKind::Capture
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Evaluator;
    use crate::games::romgon::Romgon;
    use crate::Game;

    #[test]
    fn symmetric_at_the_start_and_races_count() {
        let s = Romgon::default().initial_state();
        let e = RomgonEval::default();
        assert_eq!(e.evaluate(&s, 0), -e.evaluate(&s, 1));
        // The setup is symmetric under reflection, so neither side is ahead.
        assert_eq!(e.evaluate(&s, 0), 0);
        let race = race_table();
        assert_eq!(race[0][Colour::Black.goal()], 0);
        assert_eq!(race[1][Colour::White.goal()], 0);
        // From its own base each Rhombus needs the same number of moves.
        assert_eq!(race[0][Colour::Black.base()], race[1][Colour::White.base()]);
    }

    #[test]
    fn bounds_hold_at_extreme_weights() {
        crate::testing::extreme_weights::check_evaluator_at_extreme_weights::<_, RomgonEval>(
            &Romgon::default().initial_state(),
            50,
            1,
        )
        .unwrap();
    }
}
