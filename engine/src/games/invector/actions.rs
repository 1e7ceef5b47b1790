//! Invector's dense action ids ([`DenseActions`]) and the bound on a game's length.

use crate::actions::{ActionSpace, DenseActions};
use crate::bits::Cells;

use super::board::Geometry;
use super::moves::{InvectorMove, MoveKind};
use super::Invector;

/// The direction from `from` to `to`, in line with it (a neighbour, or further along a
/// row or column), on a board `width` wide: 0 north (up a row), 1 east, 2 south, 3 west.
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
    /// `4·W·H·(1 + K) + 1` decisions, plus one with the pie rule, where `K` is the
    /// `stride` knob (450 on the default 8 × 7 board, where `K` = 1): a capture's id is
    /// `4·from + direction` and a step's `4·W·H + K·(4·from + direction) + length − 1`
    /// (`from` the moving stone's cell `y·W + x`, the direction 0 north, 1 east, 2 south,
    /// 3 west, the length in pits, 1 to `K`); `pass` is `4·W·H·(1 + K)` and `swap` one
    /// more. At the rulebook's stride every step has length 1 and its id is `4·W·H +
    /// 4·from + direction`.
    ///
    /// The length bound is `2·S + N − 2·L − 1` plies, plus one with the pie rule, where
    /// `N` is the number of stones at the start, `S` their total distance to the centre
    /// and `L` the `lose_at` knob: 416 on the default board (`N` = 56 and `S` = 180 on
    /// the full board, `L` = 0). A step lowers the stones' total distance to the centre
    /// by its length, at least one (each pit on its way is nearer than the last), and a
    /// capture from a cell at distance `d` lowers it by `d` (the captured stone's
    /// distance leaves with it, the capturer takes that distance over), so it never
    /// rises and there are at most `S` steps. Each capture removes a stone, and the game
    /// ends once a side is down to `L` stones, so the last capture leaves the other side
    /// at least `L + 1`: at most `N − 2·L − 1` captures. A pass is always followed by a
    /// step, so there are no more passes than steps: the passer has no capture, so no
    /// stone of its opponent touches one of its own and the opponent has no capture
    /// either; the game goes on (only a capture ends it; a swap is the second decision,
    /// and the first mover always has a move: each of its stones touches an enemy stone
    /// or, with a `hole`, is on the hole's rim next to an empty nearer pit); and the
    /// opponent is not stuck too (each side's stone nearest the centre would have to
    /// stand on a centre pit, since a nearer neighbour would be empty or an enemy, and
    /// the two centre pits are neighbours). A game has at most one swap.
    fn action_space(&self) -> ActionSpace {
        let geo = Geometry::get(self.width, self.height);
        let cells = (self.width * self.height) as u32;
        let stride = u32::from(self.knobs.stride);
        let start = self.knobs.start(geo);
        let stones: u32 = start.iter().map(|bb| bb.count_ones()).sum();
        let distance: u32 = start
            .iter()
            .flat_map(|&bb| Cells(bb))
            .map(|p| u32::from(geo.distance[p]))
            .sum();
        let lose_at = u32::from(self.knobs.lose_at);
        // Every ply is a decision: there is no chance.
        let length = 2 * distance + stones - 2 * lose_at - 1 + u32::from(self.pie);
        ActionSpace {
            decisions: 4 * cells * (1 + stride) + 1 + u32::from(self.pie),
            chance_outcomes: 0,
            max_game_length: length,
            max_decisions: length,
        }
    }

    fn action_id(&self, m: InvectorMove) -> u32 {
        let cells = (self.width * self.height) as u32;
        let stride = u32::from(self.knobs.stride);
        let (from, to) = (usize::from(m.from), usize::from(m.to));
        let piece = || 4 * from as u32 + direction(self.width, from, to);
        match m.kind {
            MoveKind::Capture => piece(),
            MoveKind::Step => {
                let length = ((from % self.width).abs_diff(to % self.width)
                    + (from / self.width).abs_diff(to / self.width))
                    as u32;
                4 * cells + stride * piece() + length - 1
            }
            MoveKind::Pass => 4 * cells * (1 + stride),
            MoveKind::Swap => 4 * cells * (1 + stride) + 1,
        }
    }
}
