//! APV's text views of a position: a compact [`Debug`](fmt::Debug) (bitboards in hex) and
//! the board drawing of [`Display`](fmt::Display).

use std::fmt;

use super::board::{self, GEO, NONE};
use super::{ApvState, Finish, SIDES};

impl fmt::Debug for ApvState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ApvState")
            .field("rules", &self.rules)
            .field("units", &self.units.map(|s| s.map(|b| format!("{b:#x}"))))
            .field("orders", &self.orders)
            .field("to_move", &self.to_move)
            .field("moved", &self.moved)
            .field("issued", &self.issued)
            .field("end", &self.end)
            .field("turns", &self.turns)
            .field("ply", &self.ply)
            .field("turn_start", &self.turn_start)
            .field("hash", &format_args!("{:#x}", self.hash))
            .finish()
    }
}

impl fmt::Display for ApvState {
    /// The hexagon with row 9 (North's home) at the top, each row indented so that
    /// neighbours touch: North's units in upper case, South's in lower case (`P` Pivot,
    /// `A` Axis, `V` Veil, `T` Turned Veil), `.` empty. Then the pending orders and who
    /// is to decide what.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in (-4..=4).rev() {
            let cells: Vec<usize> = (-4..=4).filter_map(|q| GEO.cell(q, r)).collect();
            write!(
                f,
                "{} {:indent$}",
                r + 5,
                "",
                indent = r.unsigned_abs() as usize
            )?;
            for &c in &cells {
                let ch = match (self.unit_at(0, c), self.unit_at(1, c)) {
                    (Some(u), _) => u.letter(),
                    (_, Some(u)) => u.letter().to_ascii_lowercase(),
                    _ => '.',
                };
                write!(f, " {ch}")?;
            }
            let first = board::cell_name(cells[0]);
            let last = board::cell_name(cells[cells.len() - 1]);
            writeln!(
                f,
                "{:pad$}   {first}..{last}",
                "",
                pad = r.unsigned_abs() as usize
            )?;
        }
        for side in 0..2 {
            if let Some(o) = self.orders[side] {
                writeln!(
                    f,
                    "{} has ordered {}-{}",
                    SIDES[side],
                    board::cell_name(o.from.into()),
                    board::cell_name(o.to.into())
                )?;
            }
        }
        write!(f, "turn {}: ", self.turns + 1)?;
        match self.end {
            Some(Finish::Win(w)) => write!(
                f,
                "seat {w} ({}) wins: the other Pivot is shut in",
                SIDES[w]
            ),
            Some(Finish::BothImmobilised) => write!(f, "draw: both Pivots are shut in"),
            Some(Finish::Cap) => write!(f, "draw: {} turns played", self.turns),
            None if self.moved == NONE => write!(
                f,
                "{} (seat {}) to make its primary move",
                SIDES[self.to_move], self.to_move
            ),
            None => write!(
                f,
                "{} (seat {}) to decide its order (not for {}{})",
                SIDES[self.to_move],
                self.to_move,
                board::cell_name(self.moved.into()),
                if self.may_issue_order() {
                    ""
                } else {
                    "; limited orders: no-order only"
                }
            ),
        }
    }
}
