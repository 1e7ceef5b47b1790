//! Hexstrat's move generation: the decisions of the side to move, and why a given
//! decision or outcome is not legal (the checks behind `try_apply` and the notation).

use crate::bits::Cells;

use super::board::{self, CELLS, NEIGHBOURS};
use super::moves::{HexMove, Tile, Unit};
use super::{squad, HexstratState};

impl HexstratState {
    /// Appends the decisions of the side to move (the game goes on, no reveal pending).
    pub(super) fn generate(&self, out: &mut Vec<HexMove>) {
        let seat = self.to_move;
        let own = self.occupied(seat);
        let enemy = self.occupied(1 - seat);
        // A Mech may step onto a face-up Mountain only to attack a squad there.
        let empty_mountains = self.face_up[Tile::Mountain as usize] & !enemy;
        for unit in Unit::ALL {
            let sq = squad(seat, unit);
            if self.hp[sq] == 0 || self.acted & 1 << sq != 0 {
                continue;
            }
            if self.impeded & 1 << sq != 0 {
                out.push(HexMove::Recover(unit));
                continue;
            }
            let mut targets = NEIGHBOURS[self.cell[sq] as usize] & !own;
            if unit == Unit::Mech {
                targets &= !empty_mountains;
            }
            for to in Cells(targets) {
                let defenders = self.squads_on(1 - seat, to);
                if defenders.count_ones() >= 2 {
                    for target in Unit::ALL {
                        if defenders & 1 << squad(1 - seat, target) != 0 {
                            out.push(HexMove::Go {
                                squad: unit,
                                to: to as u8,
                                target: Some(target),
                            });
                        }
                    }
                } else {
                    out.push(HexMove::Go {
                        squad: unit,
                        to: to as u8,
                        target: None,
                    });
                }
            }
        }
        out.push(HexMove::End);
    }

    /// Why `m` is not a legal decision or outcome here, or `None` if it is. The checks
    /// behind `try_apply`, `apply`'s debug check and the notation's errors.
    pub(super) fn illegal_because(&self, m: HexMove) -> Option<String> {
        if self.result.is_some() {
            return Some("the game is over".into());
        }
        if let Some((sq, c)) = self.pending {
            let HexMove::Reveal(t) = m else {
                return Some(format!(
                    "the tile on {} is being revealed for seat {}'s {}: expected a reveal \
                     outcome (plains, forest or mountain)",
                    board::cell_name(c as usize),
                    sq / 3,
                    Unit::from_index(sq as usize % 3).name()
                ));
            };
            return (self.bag[t as usize] == 0)
                .then(|| format!("no {} tile is left face down", t.word()));
        }
        let seat = self.to_move;
        let (unit, acting) = match m {
            HexMove::End => return None,
            HexMove::Reveal(_) => {
                return Some(format!(
                    "no reveal is pending: seat {seat} decides (a squad action or end)"
                ))
            }
            HexMove::Recover(u) => (u, None),
            HexMove::Go {
                squad: u,
                to,
                target,
            } => (u, Some((to as usize, target))),
        };
        let sq = squad(seat, unit);
        if self.hp[sq] == 0 {
            return Some(format!("seat {seat}'s {} has been destroyed", unit.name()));
        }
        if self.acted & 1 << sq != 0 {
            return Some(format!(
                "seat {seat}'s {} has already acted this turn",
                unit.name()
            ));
        }
        let impeded = self.impeded & 1 << sq != 0;
        let Some((to, target)) = acting else {
            return (!impeded).then(|| format!("seat {seat}'s {} is not impeded", unit.name()));
        };
        if impeded {
            return Some(format!(
                "seat {seat}'s {} is impeded: its only action is {}:recover",
                unit.name(),
                unit.letter()
            ));
        }
        let from = self.cell[sq] as usize;
        if to >= CELLS || NEIGHBOURS[from] & 1 << to == 0 {
            return Some(format!(
                "{} is not adjacent to the {} on {}",
                if to < CELLS {
                    board::cell_name(to)
                } else {
                    "that cell".into()
                },
                unit.name(),
                board::cell_name(from)
            ));
        }
        let friends = self.squads_on(seat, to);
        if friends != 0 {
            let other = Unit::from_index(friends.trailing_zeros() as usize % 3);
            return Some(format!(
                "{} holds seat {seat}'s own {}",
                board::cell_name(to),
                other.name()
            ));
        }
        let defenders = self.squads_on(1 - seat, to);
        let name = board::cell_name(to);
        match (defenders.count_ones(), target) {
            (0, Some(_)) => Some(format!("{name} holds no enemy squad to name as a target")),
            (1, Some(_)) => Some(format!(
                "{name} holds a single enemy squad: write the attack without a target"
            )),
            (n, None) if n >= 2 => Some(format!(
                "{name} holds {n} enemy squads: name the one attacked, e.g. {}:{name}/{}",
                unit.letter(),
                Unit::from_index(defenders.trailing_zeros() as usize % 3).letter()
            )),
            (_, Some(t)) if defenders & 1 << squad(1 - seat, t) == 0 => {
                Some(format!("{name} holds no enemy {}", t.name()))
            }
            (0, None)
                if unit == Unit::Mech && self.face_up[Tile::Mountain as usize] & 1 << to != 0 =>
            {
                Some(format!(
                    "{name} is a Mountain: a Mech may step onto one only to attack"
                ))
            }
            _ => None,
        }
    }
}
