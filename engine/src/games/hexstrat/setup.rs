//! Hand-built Hexstrat positions, for tests and examples: a documented constructor
//! that checks a described position against the rules' invariants, so tests can set up
//! a combat or a seize directly instead of reaching into the state's fields.
//!
//! ```
//! use agon_engine::games::hexstrat::{Hexstrat, Setup, SquadSetup, Tile, Unit};
//! use agon_engine::State;
//!
//! let setup = Setup {
//!     tiles: vec![("d3", Tile::Forest), ("d4", Tile::Plains)],
//!     squads: vec![
//!         SquadSetup::new(0, Unit::Mech, "d3", 4),
//!         SquadSetup::new(1, Unit::Infantry, "d4", 6),
//!     ],
//!     ..Setup::default()
//! };
//! let mut s = Hexstrat::default().position(&setup).unwrap();
//! // A Mech (attack 4) against Infantry on Plains: 4 units lost, 2 left.
//! s.apply(s.parse_move("M:d4").unwrap());
//! assert_eq!(s.units(1, Unit::Infantry), 2);
//! ```

use crate::game::{Game, Seat, State};
use crate::params::ConfigError;

use super::board::{cell_name, parse_cell, Bitboard, HQ, TILE_CELLS};
use super::moves::{Tile, Unit};
use super::{squad, Hexstrat, HexstratState, NO_CELL};

/// One squad of a hand-built position. Squads a setup leaves out are destroyed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SquadSetup {
    /// Its side.
    pub seat: Seat,
    /// Its type.
    pub unit: Unit,
    /// Its cell, by name (`d3`).
    pub cell: &'static str,
    /// Units left, 1 up to the squad's starting strength under the rules.
    pub units: u8,
    /// Whether it is impeded.
    pub impeded: bool,
    /// Whether it has acted this turn (only squads of the side to move).
    pub acted: bool,
}

impl SquadSetup {
    /// A squad neither impeded nor done for the turn.
    pub const fn new(seat: Seat, unit: Unit, cell: &'static str, units: u8) -> SquadSetup {
        SquadSetup {
            seat,
            unit,
            cell,
            units,
            impeded: false,
            acted: false,
        }
    }

    /// The same squad, impeded.
    pub const fn impeded(mut self) -> SquadSetup {
        self.impeded = true;
        self
    }

    /// The same squad, having acted this turn.
    pub const fn acted(mut self) -> SquadSetup {
        self.acted = true;
        self
    }
}

/// A hand-built position: the face-up tiles (the rest of the bag stays face down), the
/// squads, the side to move, the seize counts and the turns already played.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Setup {
    /// Face-up tiles by cell name; each comes out of the rules' bag.
    pub tiles: Vec<(&'static str, Tile)>,
    /// The squads on the board; a squad left out is destroyed.
    pub squads: Vec<SquadSetup>,
    /// The seat to act.
    pub to_move: Seat,
    /// Seize counts per seat: 0, or 1 up to one below the rules' winning count (2 in
    /// the rulebook) for an Infantry standing on the enemy Headquarters.
    pub seize: [u8; 2],
    /// Turns already completed (both sides together), below the rules' cap.
    pub turns: u32,
}

impl Hexstrat {
    /// The position `setup` describes under these rules, no reveal pending. Refuses a
    /// position that play could never reach in the ways the rules' invariants forbid:
    /// a squad off the board or on a face-down tile, a Mech on a Mountain, two sides on
    /// one cell, two squads of a side sharing a cell other than their own Headquarters,
    /// more tiles of a type than the bag holds, a side without squads, a seize count
    /// without the Infantry on the enemy Headquarters, a finished turn, or a count or
    /// turn number that would already have ended the game.
    pub fn position(&self, setup: &Setup) -> Result<HexstratState, ConfigError> {
        let bad = |why: String| Err(ConfigError(why));
        let mut s = self.initial_state();
        s.face_up = [0; 3];
        s.bag = self.bag;
        for &(name, tile) in &setup.tiles {
            let c = parse_cell(name).map_err(ConfigError)?;
            if TILE_CELLS & 1 << c == 0 {
                return bad(format!("{name} is a Headquarters and holds no tile"));
            }
            if s.tile(c).is_some() {
                return bad(format!("{name} is given two tiles"));
            }
            let t = tile as usize;
            if s.bag[t] == 0 {
                return bad(format!("the bag holds no more {} tiles", tile.word()));
            }
            s.bag[t] -= 1;
            s.face_up[t] |= 1 << c;
        }
        s.cell = [NO_CELL; 6];
        s.hp = [0; 6];
        s.impeded = 0;
        s.acted = 0;
        let mut cells: [Bitboard; 2] = [0; 2];
        for q in &setup.squads {
            let sq = squad(q.seat, q.unit);
            let what = format!("seat {}'s {}", q.seat, q.unit.name());
            if q.seat > 1 {
                return bad(format!("seat {} does not exist", q.seat));
            }
            if s.hp[sq] != 0 {
                return bad(format!("{what} is given twice"));
            }
            let most = self.knobs.start_units(q.seat, q.unit);
            if !(1..=most).contains(&q.units) {
                return bad(format!("{what} has {} units: expected 1..{most}", q.units));
            }
            let c = parse_cell(q.cell).map_err(ConfigError)?;
            if s.is_face_down(c) {
                return bad(format!("{what} stands on {}, a face-down tile", q.cell));
            }
            if q.unit == Unit::Mech && s.tile(c) == Some(Tile::Mountain) {
                return bad(format!("{what} stands on a Mountain"));
            }
            if cells[1 - q.seat] & 1 << c != 0 {
                return bad(format!("{} holds squads of both sides", q.cell));
            }
            if cells[q.seat] & 1 << c != 0 && c != HQ[q.seat] {
                return bad(format!(
                    "{} holds two squads of seat {} and is not its Headquarters",
                    q.cell, q.seat
                ));
            }
            if q.acted && q.seat != setup.to_move {
                return bad(format!("{what} has acted, but it is not its turn"));
            }
            cells[q.seat] |= 1 << c;
            s.cell[sq] = c as u8;
            s.hp[sq] = q.units;
            s.impeded |= u8::from(q.impeded) << sq;
            s.acted |= u8::from(q.acted) << sq;
        }
        for seat in 0..2 {
            if s.alive(seat) == 0 {
                return bad(format!("seat {seat} has no squads"));
            }
            let count = setup.seize[seat];
            let on_hq = s.squad_cell(seat, Unit::Infantry) == Some(HQ[1 - seat]);
            if count >= self.knobs.seize_turns || (count > 0 && !on_hq) {
                return bad(format!(
                    "seat {seat}'s seize count {count} needs 1..{} and its Infantry on {}",
                    self.knobs.seize_turns - 1,
                    cell_name(HQ[1 - seat])
                ));
            }
        }
        if setup.to_move > 1 {
            return bad(format!("seat {} does not exist", setup.to_move));
        }
        let alive = s.alive(setup.to_move);
        if s.acted & alive == alive {
            return bad("every squad of the side to move has acted: its turn is over".into());
        }
        if setup.turns >= u32::from(self.turn_cap()) {
            return bad(format!(
                "{} turns played reach the cap of {}",
                setup.turns,
                self.turn_cap()
            ));
        }
        s.seize = setup.seize;
        s.to_move = setup.to_move;
        s.turns = setup.turns as u16;
        s.hash = s.recompute_hash();
        Ok(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Game;

    #[test]
    fn the_empty_setup_is_refused_and_the_start_rebuilt() {
        let rules = Hexstrat::default();
        let err = rules.position(&Setup::default()).unwrap_err();
        assert_eq!(err.0, "seat 0 has no squads");
        let mut squads = Vec::new();
        for seat in 0..2 {
            for u in Unit::ALL {
                let hq = if seat == 0 { "d2" } else { "d6" };
                squads.push(SquadSetup::new(seat, u, hq, u.start_units()));
            }
        }
        let s = rules
            .position(&Setup {
                squads,
                ..Setup::default()
            })
            .unwrap();
        assert_eq!(s, rules.initial_state());
        assert_eq!(s.hash(), rules.initial_state().hash());
    }

    #[test]
    fn impossible_positions_are_refused() {
        let rules = Hexstrat::default();
        let base = |squads: Vec<SquadSetup>, tiles: Vec<(&'static str, Tile)>| Setup {
            squads,
            tiles,
            ..Setup::default()
        };
        let i0 = SquadSetup::new(0, Unit::Infantry, "d2", 6);
        let i1 = SquadSetup::new(1, Unit::Infantry, "d6", 6);
        let why = |setup: Setup| rules.position(&setup).unwrap_err().0;
        assert_eq!(
            why(base(
                vec![SquadSetup::new(0, Unit::Infantry, "d3", 6), i1],
                vec![]
            )),
            "seat 0's Infantry stands on d3, a face-down tile"
        );
        assert_eq!(
            why(base(
                vec![SquadSetup::new(0, Unit::Mech, "d3", 4), i1],
                vec![("d3", Tile::Mountain)]
            )),
            "seat 0's Mech stands on a Mountain"
        );
        assert_eq!(
            why(base(
                vec![SquadSetup::new(0, Unit::Mech, "d2", 5), i1],
                vec![]
            )),
            "seat 0's Mech has 5 units: expected 1..4"
        );
        assert_eq!(
            why(base(vec![i0, i1], vec![("d2", Tile::Plains)])),
            "d2 is a Headquarters and holds no tile"
        );
        let mut setup = base(vec![i0, i1], vec![]);
        setup.seize = [1, 0];
        assert!(why(setup).contains("seize count 1"));
        let mut setup = base(vec![i0.acted(), i1], vec![]);
        setup.to_move = 0;
        assert!(why(setup).contains("its turn is over"));
        let no_forest = Hexstrat::new(35, 0, 0, 60).unwrap();
        assert_eq!(
            no_forest
                .position(&base(vec![i0, i1], vec![("d3", Tile::Forest)]))
                .unwrap_err()
                .0,
            "the bag holds no more forest tiles"
        );
    }
}
