//! Connect Four's move: the column a stone is dropped into.

use crate::game::Move;

use super::board::COLUMNS;

/// Dropping a stone into a column, `0` (`a`) to `6` (`g`). The stone falls to the lowest
/// empty cell of that column.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Connect4Move(u8);

impl Connect4Move {
    /// The drop into `column` (0 is `a`), or `None` if there is no such column.
    #[inline]
    pub const fn new(column: usize) -> Option<Connect4Move> {
        if column < COLUMNS {
            Some(Connect4Move(column as u8))
        } else {
            None
        }
    }

    /// The column, 0 (`a`) to 6 (`g`).
    #[inline]
    pub const fn column(self) -> usize {
        self.0 as usize
    }
}

impl Move for Connect4Move {
    /// The column number.
    fn pack(self) -> u32 {
        u32::from(self.0)
    }

    fn unpack(code: u32) -> Option<Self> {
        Connect4Move::new(usize::try_from(code).ok()?)
    }
}
