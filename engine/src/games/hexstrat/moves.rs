//! Hexstrat's moves (squad actions, `end`, and the reveal outcomes), with the unit and
//! tile types they name.

use crate::game::Move;

use super::board::CELLS;

/// A unit type; each side has exactly one squad of each, so the type also names the
/// squad of the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Unit {
    /// Infantry (`I`): 6 units; the only type that can seize.
    Infantry = 0,
    /// Rocketeer (`R`): 6 units.
    Rocketeer = 1,
    /// Mech (`M`): 4 units; never enters a Mountain.
    Mech = 2,
}

impl Unit {
    /// The three types in index order.
    pub const ALL: [Unit; 3] = [Unit::Infantry, Unit::Rocketeer, Unit::Mech];

    /// The type with index `i` (`0..3`).
    #[inline]
    pub const fn from_index(i: usize) -> Unit {
        Unit::ALL[i]
    }

    /// The letter of the notation: `I`, `R`, `M`.
    pub const fn letter(self) -> char {
        match self {
            Unit::Infantry => 'I',
            Unit::Rocketeer => 'R',
            Unit::Mech => 'M',
        }
    }

    /// The type's name, as error messages write it.
    pub const fn name(self) -> &'static str {
        match self {
            Unit::Infantry => "Infantry",
            Unit::Rocketeer => "Rocketeer",
            Unit::Mech => "Mech",
        }
    }

    /// Units a squad of this type starts with.
    pub const fn start_units(self) -> u8 {
        match self {
            Unit::Infantry | Unit::Rocketeer => 6,
            Unit::Mech => 4,
        }
    }
}

/// A land tile type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Tile {
    /// No bonus, no entry effect.
    Plains = 0,
    /// +1 defence; a Mech that enters is impeded.
    Forest = 1,
    /// +1 attack and +1 defence; a Mech never enters.
    Mountain = 2,
}

impl Tile {
    /// The three types in index order (the order of the bag and of chance outcomes).
    pub const ALL: [Tile; 3] = [Tile::Plains, Tile::Forest, Tile::Mountain];

    /// The word of the notation: `plains`, `forest`, `mountain`.
    pub const fn word(self) -> &'static str {
        match self {
            Tile::Plains => "plains",
            Tile::Forest => "forest",
            Tile::Mountain => "mountain",
        }
    }
}

/// A decision of the side to move, or a reveal outcome.
///
/// A move or attack names the squad (by its type) and the cell; `target` is given only
/// when the cell holds two or more enemy squads, exactly as the notation writes it
/// (`I:d6/R`), so that every move has one form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum HexMove {
    /// The squad moves to, or attacks, the adjacent cell `to`. Notation `I:d3`,
    /// `I:d6/R`.
    Go {
        /// The acting squad.
        squad: Unit,
        /// The cell entered or attacked.
        to: u8,
        /// The enemy squad attacked, named only on a cell holding two or more.
        target: Option<Unit>,
    },
    /// The impeded squad clears its impeded state. Notation `I:recover`.
    Recover(Unit),
    /// The side's remaining squads take no action this turn. Notation `end`.
    End,
    /// The face-down tile turns out to be this type. Notation `plains`, `forest`,
    /// `mountain`.
    Reveal(Tile),
}

/// Codes of [`HexMove::pack`]: `end` 0, recover 1–3, reveals 4–6, then moves from 8.
const RECOVER_CODE: u32 = 1;
const REVEAL_CODE: u32 = 4;
const GO_CODE: u32 = 8;

impl Move for HexMove {
    /// `end` is 0, `recover` 1 + unit, a reveal 4 + tile, a move
    /// `8 + ((unit · 37 + cell) · 4 + target)` with target 3 for none.
    fn pack(self) -> u32 {
        match self {
            HexMove::End => 0,
            HexMove::Recover(u) => RECOVER_CODE + u as u32,
            HexMove::Reveal(t) => REVEAL_CODE + t as u32,
            HexMove::Go { squad, to, target } => {
                let t = target.map_or(3, |u| u as u32);
                GO_CODE + ((squad as u32 * CELLS as u32 + u32::from(to)) * 4 + t)
            }
        }
    }

    fn unpack(code: u32) -> Option<Self> {
        match code {
            0 => Some(HexMove::End),
            1..=3 => Some(HexMove::Recover(Unit::from_index(
                (code - RECOVER_CODE) as usize,
            ))),
            4..=6 => Some(HexMove::Reveal(Tile::ALL[(code - REVEAL_CODE) as usize])),
            c if c >= GO_CODE && c < GO_CODE + 3 * CELLS as u32 * 4 => {
                let c = c - GO_CODE;
                let t = c % 4;
                let cell = (c / 4) % CELLS as u32;
                let unit = c / 4 / CELLS as u32;
                Some(HexMove::Go {
                    squad: Unit::from_index(unit as usize),
                    to: cell as u8,
                    target: (t < 3).then(|| Unit::from_index(t as usize)),
                })
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pack_round_trips_and_codes_are_unique() {
        let mut all = vec![HexMove::End];
        for u in Unit::ALL {
            all.push(HexMove::Recover(u));
            for to in 0..CELLS as u8 {
                all.push(HexMove::Go {
                    squad: u,
                    to,
                    target: None,
                });
                for t in Unit::ALL {
                    all.push(HexMove::Go {
                        squad: u,
                        to,
                        target: Some(t),
                    });
                }
            }
        }
        all.extend(Tile::ALL.map(HexMove::Reveal));
        let mut codes: Vec<u32> = all.iter().map(|m| m.pack()).collect();
        for m in &all {
            assert_eq!(HexMove::unpack(m.pack()), Some(*m));
        }
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), all.len());
        assert_eq!(HexMove::unpack(7), None);
        assert_eq!(HexMove::unpack(GO_CODE + 3 * 37 * 4), None);
    }
}
