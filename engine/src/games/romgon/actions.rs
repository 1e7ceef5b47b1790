//! Romgon's dense action ids ([`DenseActions`]) and the bound on a game's length.

use crate::actions::{ActionSpace, DenseActions};

use super::board::CELLS;
use super::moves::{ActionKind, RomgonMove};
use super::Romgon;

/// Cells, as ids count them.
const N: u32 = CELLS as u32;

/// The six facings (a Triangle's; a Hexagon's three axes are the first three).
const ORIENTATIONS: u32 = 6;

impl DenseActions for Romgon {
    /// 18,207 decisions (`7 · 51²`), in two blocks. A non-capturing move or a turn in
    /// place is `6·(51·from + to) + orientation`, with `to = from` for a turn in place
    /// (a move never has it) and the final facing or axis (0 for a piece without one);
    /// a capture is `6 · 51² + 51·from + to`. Cells are numbered row by row from `0-0`
    /// (`3-0` is 21, `3-8` is 29). A Circle's slide reaches any cell of its ring, so the
    /// numbering keeps every pair of cells.
    ///
    /// The length bound is `max_actions` plies: a ply is one action, and the game is
    /// drawn after the action that makes `max_actions`, if no other rule ended it first.
    /// A game drawn by the cap reaches it. Every ply is a decision (there is no chance).
    fn action_space(&self) -> ActionSpace {
        ActionSpace {
            decisions: (ORIENTATIONS + 1) * N * N,
            chance_outcomes: 0,
            max_game_length: self.max_actions,
            max_decisions: self.max_actions,
        }
    }

    fn action_id(&self, m: RomgonMove) -> u32 {
        let (from, to) = (u32::from(m.from), u32::from(m.to));
        match m.kind {
            ActionKind::Move | ActionKind::Rotate => {
                ORIENTATIONS * (N * from + to) + u32::from(m.orient)
            }
            ActionKind::Capture => ORIENTATIONS * N * N + N * from + to,
        }
    }
}
