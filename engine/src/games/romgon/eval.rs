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
use crate::eval::Evaluator;
use crate::game::Seat;

use super::board::{Bitboard, Board, Colour, Geometry, Kind, Piece, CELLS, KINDS};
use super::moves::{targets, ActionKind, RomgonMove};
use super::RomgonState;

/// Material by type (`Kind as usize`): square, triangle, circle, rhombus (none),
/// hexagon.
pub const MATERIAL: [i32; 5] = [300, 400, 200, 0, 500];
/// Per Rhombus move saved on the way to the goal.
pub const RACE: i32 = 70;
/// Rhombus moves counted at most (farther is as bad as this).
const RACE_HORIZON: i32 = 8;
/// Penalty for a Rhombus standing attacked.
pub const CHECK: i32 = 120;
/// Per Rhombus target cell not attacked by the enemy.
pub const ROOM: i32 = 12;
/// Per pattern target of any piece.
pub const MOBILITY: i32 = 3;
/// Score of a won game: above any heuristic score (material at most 2,100, race 560,
/// room 120, mobility about 400 per side).
pub const WIN: i32 = 10_000;

/// Material, race, Rhombus safety and mobility, from a seat's point of view.
#[derive(Clone, Copy, Debug, Default)]
pub struct RomgonEval;

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
    fn side_score(g: &Geometry, board: &Board, colour: Colour) -> i32 {
        let mut score = 0;
        let mut mobility = 0;
        for kind in KINDS {
            for p in Cells(board.pieces(colour, kind)) {
                score += MATERIAL[kind as usize];
                let piece = Piece {
                    colour,
                    kind,
                    orient: board.orient_at(kind, p),
                };
                mobility += targets(g, board, colour, piece, p).count_ones() as i32;
            }
        }
        score += mobility * MOBILITY;
        if let Some(home) = board.rhombus(colour) {
            let moves = i32::from(race_table()[colour as usize][home]).min(RACE_HORIZON);
            score += (RACE_HORIZON - moves) * RACE;
            let enemy_attacks = attack_map(g, board, colour.other());
            if enemy_attacks & 1 << home != 0 {
                score -= CHECK;
            }
            let piece = Piece {
                colour,
                kind: Kind::Rhombus,
                orient: 0,
            };
            let room = targets(g, board, colour, piece, home) & !enemy_attacks;
            score += room.count_ones() as i32 * ROOM;
        }
        score
    }
}

impl Evaluator<RomgonState> for RomgonEval {
    fn heuristic(&self, s: &RomgonState, seat: Seat) -> i32 {
        let g = s.geometry();
        let mine = if seat == 0 {
            Colour::Black
        } else {
            Colour::White
        };
        Self::side_score(g, s.board(), mine) - Self::side_score(g, s.board(), mine.other())
    }

    fn bounds(&self) -> (i32, i32) {
        (-WIN, WIN)
    }

    fn is_noisy(&self, _state: &RomgonState, m: RomgonMove) -> bool {
        m.kind == ActionKind::Capture
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::romgon::Romgon;
    use crate::Game;

    #[test]
    fn symmetric_at_the_start_and_races_count() {
        let s = Romgon::default().initial_state();
        let e = RomgonEval;
        assert_eq!(e.evaluate(&s, 0), -e.evaluate(&s, 1));
        // The setup is symmetric under reflection, so neither side is ahead.
        assert_eq!(e.evaluate(&s, 0), 0);
        let race = race_table();
        assert_eq!(race[0][Colour::Black.goal()], 0);
        assert_eq!(race[1][Colour::White.goal()], 0);
        // From its own base each Rhombus needs the same number of moves.
        assert_eq!(race[0][Colour::Black.base()], race[1][Colour::White.base()]);
    }
}
