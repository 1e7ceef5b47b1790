//! APV's dense action ids ([`DenseActions`]) and the bound on a game's length.

use crate::actions::{ActionSpace, DenseActions};

use super::board::{CELLS, DIRECTIONS, GEO};
use super::moves::{ApvMove, MoveKind};
use super::Apv;

/// The farthest a unit can travel along one direction: an Axis from one end of the
/// hexagon's longest line (9 cells) to the other.
const MAX_DISTANCE: u32 = 8;

/// The shapes a displacement can have: `MAX_DISTANCE` distances along each of the six
/// directions, then the six "diagonal" jumps.
const SHAPES: u32 = 6 * MAX_DISTANCE + 6;

/// Ids of one kind of unit move: a shape from each cell.
const UNIT_MOVES: u32 = CELLS as u32 * SHAPES;

/// The shape of the displacement from `from` to `to`: `8·d + k − 1` for `k` cells along
/// direction `d` (d0 … d5 as in the rules), `48 + i` for the diagonal jump `d_i +
/// d_(i+1)`. Every unit move has one of these shapes.
fn shape(from: usize, to: usize) -> u32 {
    let dq = i32::from(GEO.q[to]) - i32::from(GEO.q[from]);
    let dr = i32::from(GEO.r[to]) - i32::from(GEO.r[from]);
    let along = (0..6).find_map(|d| {
        let (a, b) = DIRECTIONS[d];
        let k = if a != 0 { dq / a } else { dr / b };
        (k > 0 && (dq, dr) == (k * a, k * b)).then(|| 8 * d as u32 + k as u32 - 1)
    });
    along.unwrap_or_else(|| {
        let diagonal = (0..6).find(|&i| {
            let ((a, b), (c, e)) = (DIRECTIONS[i], DIRECTIONS[(i + 1) % 6]);
            (dq, dr) == (a + c, b + e)
        });
        6 * MAX_DISTANCE + diagonal.expect("a unit moves along a line or by a diagonal jump") as u32
    })
}

impl DenseActions for Apv {
    /// With orders, 6,589 decisions: a primary move's id is `54·from + shape`, an
    /// order's `3,294 + 54·from + shape`, and `no-order` is 6,588; without orders only
    /// the 3,294 primary moves. `from` is the unit's cell (0 … 60, row by row from `e1`),
    /// and the shape `8·d + k − 1` for a move of `k` cells along direction `d` (Pivot,
    /// Veil and Axis moves), `48 + i` for the diagonal jump `d_i + d_(i+1)` (a Turned
    /// Veil's).
    ///
    /// The length bound is `2·max_turns` plies with orders and `max_turns` without. A
    /// turn is at most two decisions (the primary move and the order decision; the fired
    /// order is no decision), exactly one without orders. The cap ends the game at the
    /// end of the turn that completes `max_turns` turns, and every other end comes
    /// sooner: after a primary move (which cuts that turn short) or after a fired order
    /// (before the turn's first decision). A game drawn by the cap reaches the bound.
    fn action_space(&self) -> ActionSpace {
        let per_turn = if self.orders { 2 } else { 1 };
        ActionSpace {
            decisions: if self.orders {
                2 * UNIT_MOVES + 1
            } else {
                UNIT_MOVES
            },
            chance_outcomes: 0,
            max_game_length: per_turn * self.max_turns,
            // Every ply is a decision: there is no chance.
            max_decisions: per_turn * self.max_turns,
        }
    }

    fn action_id(&self, m: ApvMove) -> u32 {
        let unit_move = || SHAPES * u32::from(m.from) + shape(m.from.into(), m.to.into());
        match m.kind {
            MoveKind::Primary => unit_move(),
            MoveKind::Order => UNIT_MOVES + unit_move(),
            MoveKind::NoOrder => 2 * UNIT_MOVES,
        }
    }
}
