//! Hexstrat's dense action ids ([`DenseActions`]): a squad action by its squad, cell
//! and named target, then the recovers and `end`; the reveals by tile type.

use crate::actions::{ActionSpace, DenseActions};

use super::board::CELLS;
use super::moves::{HexMove, Unit};
use super::{Hexstrat, TILES};

/// Moves and attacks: `(squad × 37 + cell) × 4 + target`, target 0..3 for a named
/// Infantry, Rocketeer or Mech and 3 for none.
const GO: u32 = 0;
/// Recovers: `444 + squad`.
const RECOVER: u32 = GO + Unit::ALL.len() as u32 * CELLS as u32 * 4;
/// `end`.
const END: u32 = RECOVER + Unit::ALL.len() as u32;
/// Decisions in all.
const DECISIONS: u32 = END + 1;

impl DenseActions for Hexstrat {
    /// No move is both a decision and a chance outcome.
    ///
    /// Decisions, 448 of them: a move or attack of squad type `squad` (Infantry 0,
    /// Rocketeer 1, Mech 2) onto cell `cell` is `(squad × 37 + cell) × 4 + target`, where
    /// `target` is the named enemy type (0..3) on a cell holding two or more enemy squads
    /// and 3 when none is named (`0..444`); a recover is `444 + squad`, `end` 447.
    /// Chance outcomes, 3: the revealed tile, Plains 0, Forest 1, Mountain 2. Both sizes
    /// are the same for every configuration.
    ///
    /// Length: the game is drawn when its `2 · max_rounds`-th turn ends, and nothing is
    /// played before the first turn. In a turn each of the mover's three squads acts at
    /// most once (a move, an attack or a recover), and the turn ends by itself once every
    /// surviving squad has acted, so `end` comes only after at most two actions: at most
    /// 3 decisions a turn. Only a move onto a face-down cell is followed by a chance node,
    /// one reveal, so at most 3 reveals a turn; and each reveal turns one of the 35
    /// face-down tiles face up for good, so at most 35 in a game. Hence no game is longer
    /// than `6 · max_rounds + min(35, 6 · max_rounds)` plies: 395 by default; and none
    /// has more than `6 · max_rounds` decisions (3 a turn): 360 by default.
    fn action_space(&self) -> ActionSpace {
        let turns = 2 * self.max_rounds();
        ActionSpace {
            decisions: DECISIONS,
            chance_outcomes: 3,
            max_game_length: 3 * turns + TILES.min(3 * turns),
            max_decisions: 3 * turns,
        }
    }

    fn action_id(&self, m: HexMove) -> u32 {
        match m {
            HexMove::Go { squad, to, target } => {
                let target = target.map_or(3, |u| u as u32);
                GO + (squad as u32 * CELLS as u32 + u32::from(to)) * 4 + target
            }
            HexMove::Recover(unit) => RECOVER + unit as u32,
            HexMove::End => END,
            HexMove::Reveal(tile) => tile as u32,
        }
    }
}
