//! Invector's dense action ids ([`DenseActions`]) and the bound on a game's length.

use crate::actions::{ActionSpace, DenseActions};

use super::board::Geometry;
use super::moves::{InvectorMove, MoveKind};
use super::Invector;

/// The direction from `from` to its orthogonal neighbour `to` on a board `width` wide:
/// 0 north (up a row), 1 east, 2 south, 3 west.
fn direction(width: usize, from: usize, to: usize) -> u32 {
    let (fx, fy) = (from % width, from / width);
    let (tx, ty) = (to % width, to / width);
    if ty > fy {
        0
    } else if tx > fx {
        1
    } else if ty < fy {
        2
    } else {
        3
    }
}

impl DenseActions for Invector {
    /// `8·W·H + 1` decisions, plus one with the pie rule (450 on the default 8 × 7
    /// board): a capture's id is `4·from + direction` and a step's `4·W·H + 4·from +
    /// direction` (`from` the moving stone's cell `y·W + x`, the direction 0 north, 1
    /// east, 2 south, 3 west); `pass` is `8·W·H` and `swap` `8·W·H + 1`.
    ///
    /// The length bound is `2·D + N − 1` plies, plus one with the pie rule, where `N =
    /// W·H` is the number of stones at the start and `D` the sum of every cell's distance
    /// to the centre (the stones' total distance at the start): 416 on the default board
    /// (`D` = 180). Let `S` be the stones' total distance to the centre. A step lowers `S`
    /// by exactly one (neighbours' distances differ by at most one) and a capture from a
    /// cell at distance `d` lowers it by `d` (the captured stone's distance leaves with
    /// it, the capturer takes that distance over), so `S` never rises and there are at
    /// most `D` steps. Each capture removes a stone and the winner keeps one: at most
    /// `N − 1` captures. A pass is always followed by a step, so there are no more
    /// passes than steps: the passer has no capture, so no stone of its opponent touches
    /// one of its own and the opponent has no capture either; the game goes on (only a
    /// capture ends it; a swap is the second decision, and the first is a capture on the
    /// full board); and the opponent is not stuck too (each side's stone nearest the
    /// centre would have to stand on a centre pit, since a nearer neighbour would be
    /// empty or an enemy, and the two centre pits are neighbours). A game has at most one
    /// swap.
    fn action_space(&self) -> ActionSpace {
        let geo = Geometry::get(self.width, self.height);
        let cells = (self.width * self.height) as u32;
        let distance: u32 = geo.distance[..geo.cells()]
            .iter()
            .map(|&d| u32::from(d))
            .sum();
        ActionSpace {
            decisions: 8 * cells + 1 + u32::from(self.pie),
            chance_outcomes: 0,
            max_game_length: 2 * distance + cells - 1 + u32::from(self.pie),
        }
    }

    fn action_id(&self, m: InvectorMove) -> u32 {
        let cells = (self.width * self.height) as u32;
        let (from, to) = (usize::from(m.from), usize::from(m.to));
        let piece = || 4 * from as u32 + direction(self.width, from, to);
        match m.kind {
            MoveKind::Capture => piece(),
            MoveKind::Step => 4 * cells + piece(),
            MoveKind::Pass => 8 * cells,
            MoveKind::Swap => 8 * cells + 1,
        }
    }
}
