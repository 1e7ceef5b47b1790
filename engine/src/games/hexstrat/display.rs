//! Hexstrat's board drawing: the [`Display`](fmt::Display) of a position.

use std::fmt;

use crate::game::{End, Outcome, State};

use super::board::{self, HQ};
use super::moves::{Tile, Unit};
use super::{squad, HexstratState, SQUADS};

/// The character of a cell's ground in the board drawing.
fn ground_char(s: &HexstratState, cell: usize) -> char {
    if HQ.contains(&cell) {
        'H'
    } else {
        match s.tile(cell) {
            None => '?',
            Some(Tile::Plains) => '.',
            Some(Tile::Forest) => 'f',
            Some(Tile::Mountain) => '^',
        }
    }
}

impl fmt::Display for HexstratState {
    /// The board with row 7 (seat 1's side) at the top, each cell as its name, its
    /// ground (`?` face down, `.` Plains, `f` Forest, `^` Mountain, `H` Headquarters)
    /// and its squad (upper case seat 0, lower case seat 1, then its units; `*2` or
    /// `*3` for several squads on a Headquarters); then the squads, the bag and who
    /// acts.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in (-board::RADIUS..=board::RADIUS).rev() {
            write!(f, "{}", " ".repeat(4 * r.unsigned_abs() as usize))?;
            for q in -board::RADIUS..=board::RADIUS {
                let Some(c) = board::cell_at(q, r) else {
                    continue;
                };
                let here: Vec<usize> = (0..SQUADS)
                    .filter(|&sq| self.hp[sq] > 0 && self.cell[sq] as usize == c)
                    .collect();
                let squad_text = match here.as_slice() {
                    [] => "  ".to_string(),
                    [sq] => {
                        let letter = Unit::from_index(sq % 3).letter();
                        let letter = if sq / 3 == 0 {
                            letter
                        } else {
                            letter.to_ascii_lowercase()
                        };
                        format!("{letter}{}", self.hp[*sq])
                    }
                    many => format!("*{}", many.len()),
                };
                write!(
                    f,
                    "{}{}{}   ",
                    board::cell_name(c),
                    ground_char(self, c),
                    squad_text
                )?;
            }
            writeln!(f)?;
        }
        for seat in 0..2 {
            let squads: Vec<String> = Unit::ALL
                .iter()
                .map(|&unit| {
                    let sq = squad(seat, unit);
                    if self.hp[sq] == 0 {
                        return format!("{} destroyed", unit.letter());
                    }
                    let mut text = format!(
                        "{} {} {}",
                        unit.letter(),
                        board::cell_name(self.cell[sq] as usize),
                        self.hp[sq]
                    );
                    if self.impeded & 1 << sq != 0 {
                        text.push_str(" impeded");
                    }
                    if self.acted & 1 << sq != 0 {
                        text.push_str(" acted");
                    }
                    text
                })
                .collect();
            write!(
                f,
                "seat {seat} ({}): {}",
                self.side(seat),
                squads.join(", ")
            )?;
            if self.seize[seat] != 0 {
                write!(f, "; seize count {}", self.seize[seat])?;
            }
            writeln!(f)?;
        }
        writeln!(
            f,
            "face down: {} plains, {} forest, {} mountain; turn {} of {}",
            self.bag[0],
            self.bag[1],
            self.bag[2],
            self.turns + u16::from(self.result.is_none()),
            self.rules.turn_cap()
        )?;
        match (self.result, self.pending_reveal()) {
            (
                Some(End {
                    outcome: Outcome::Win(w),
                    reason,
                    ..
                }),
                _,
            ) => {
                write!(f, "seat {w} ({}) wins by {reason}", self.side(w))
            }
            (Some(_), _) => write!(f, "draw at the cap"),
            (None, Some((seat, unit, c))) => write!(
                f,
                "revealing {} for seat {seat}'s {}",
                board::cell_name(c),
                unit.name()
            ),
            (None, None) => write!(
                f,
                "seat {} ({}) to act",
                self.to_move,
                self.side(self.to_move)
            ),
        }
    }
}
