//! The 3Will board: 64 squares, each holding a stack of at most two agents, and the
//! geometry the rules need (directives, objective rows, locks, the stacking protocol).
//!
//! A square is one byte: bits 0–1 are the top agent's colour, bits 2–3 the held
//! (lower) agent's colour, each [`EMPTY`], [`WHITE`] or [`BLACK`]. A held agent without
//! a top agent never occurs. Squares are numbered `y * 8 + x` (a1 = 0, h8 = 63).

/// No agent.
pub const EMPTY: u8 = 0;
/// A White agent (seat 0).
pub const WHITE: u8 = 1;
/// A Black agent (seat 1).
pub const BLACK: u8 = 2;

/// Board width and height.
pub const SIZE: i8 = 8;

/// The colour seat `seat` plays: White for seat 0, Black for seat 1.
#[inline]
pub const fn colour_of(seat: usize) -> u8 {
    seat as u8 + 1
}

/// The other colour.
#[inline]
pub const fn enemy(colour: u8) -> u8 {
    3 - colour
}

/// The objective row (`y`) of `colour`: row 8 for White, row 1 for Black.
#[inline]
pub const fn objective_row(colour: u8) -> u8 {
    if colour == WHITE {
        7
    } else {
        0
    }
}

/// Whether an agent of `colour` standing on `sq` is locked: it stands on its own
/// objective row. `EMPTY` is never locked.
#[inline]
pub const fn locked(colour: u8, sq: u8) -> bool {
    colour != EMPTY && sq / 8 == objective_row(colour)
}

/// The steps (dx, dy) of die face `face` (1..=6) for White; Black's are the negation.
/// Face 6 is "back", a choice of three steps; every other face is one step.
pub const fn white_steps(face: u8) -> &'static [(i8, i8)] {
    match face {
        1 => &[(0, 1)],
        2 => &[(1, 0)],
        3 => &[(-1, 0)],
        4 => &[(1, 1)],
        5 => &[(-1, 1)],
        _ => &[(0, -1), (-1, -1), (1, -1)],
    }
}

/// Bit 0 of every byte.
const LOW_BITS: u64 = 0x0101_0101_0101_0101;

/// Where the two low bits of each byte of `word` equal `colour`: bit 0 of each such
/// byte set, every other bit clear (eight 2-bit comparisons at once).
#[inline]
const fn bytes_equal(word: u64, colour: u8) -> u64 {
    let diff = (word & (LOW_BITS * 3)) ^ (LOW_BITS * colour as u64);
    !(diff | diff >> 1) & LOW_BITS
}

/// One row's squares of one colour (see [`Board::row_masks`]): bit `8x` is set for
/// column `x`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RowMasks {
    /// Squares whose top agent has the colour.
    pub tops: u64,
    /// Squares whose held agent has the colour.
    pub helds: u64,
}

/// The stacks of all 64 squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    cells: [u8; 64],
}

impl Board {
    /// An empty board.
    pub const fn empty() -> Board {
        Board { cells: [0; 64] }
    }

    /// The starting board with `agents` (1..=8) a side: White on row 2, Black on row
    /// 7, each on the middle columns (from column `(8 − agents) / 2`; all eight in the
    /// rulebook game). Black's columns are White's turned half a turn, so the start is
    /// its own image under the half turn with the colours swapped, as every rule is.
    pub fn start(agents: u8) -> Board {
        debug_assert!((1..=8).contains(&agents), "{agents} agents");
        let mut b = Board::empty();
        let first = usize::from((8 - agents) / 2);
        for x in first..first + usize::from(agents) {
            b.cells[8 + x] = WHITE;
            b.cells[48 + 7 - x] = BLACK;
        }
        b
    }

    /// The byte of `sq` (top colour in bits 0–1, held colour in bits 2–3).
    #[inline]
    pub fn cell(&self, sq: u8) -> u8 {
        self.cells[sq as usize]
    }

    /// Sets the byte of `sq`.
    #[inline]
    pub fn set_cell(&mut self, sq: u8, cell: u8) {
        self.cells[sq as usize] = cell;
    }

    /// The top agent's colour of `sq` (`EMPTY` for an empty square).
    #[inline]
    pub fn top(&self, sq: u8) -> u8 {
        self.cells[sq as usize] & 3
    }

    /// The held agent's colour of `sq` (`EMPTY` if the square holds fewer than two).
    #[inline]
    pub fn held(&self, sq: u8) -> u8 {
        self.cells[sq as usize] >> 2
    }

    /// The eight cells of row `y` as one word: square `y * 8 + x` in byte `x`.
    #[inline]
    fn row_word(&self, y: u8) -> u64 {
        let at = y as usize * 8;
        let mut bytes = [0u8; 8];
        bytes.copy_from_slice(&self.cells[at..at + 8]);
        u64::from_le_bytes(bytes)
    }

    /// Row `y`'s squares, as a byte mask (bit `8x` for column `x`): where the top agent
    /// is `colour`, and where the held agent is.
    #[inline]
    pub fn row_masks(&self, y: u8, colour: u8) -> RowMasks {
        let word = self.row_word(y);
        RowMasks {
            tops: bytes_equal(word, colour),
            helds: bytes_equal(word >> 2, colour),
        }
    }

    /// Agents of `colour` locked on their objective row, held ones included.
    pub fn locked_count(&self, colour: u8) -> u32 {
        let m = self.row_masks(objective_row(colour), colour);
        m.tops.count_ones() + m.helds.count_ones()
    }

    /// Whether `colour` has an active agent: a top of that colour that is not locked.
    pub fn has_active(&self, colour: u8) -> bool {
        (0..8u8).any(|y| y != objective_row(colour) && self.row_masks(y, colour).tops != 0)
    }

    /// Whether `colour` meets a victory condition: at least `locks_to_win` of its agents
    /// locked (three in the rulebook game), or no active enemy agent left.
    pub fn meets_victory(&self, colour: u8, locks_to_win: u32) -> bool {
        self.locked_count(colour) >= locks_to_win || !self.has_active(enemy(colour))
    }

    /// A plain move or leap: the top of `from` moves to the empty `to`, carrying its
    /// held agent unless that one is locked (then it stays on `from`, alone).
    pub fn move_stack(&mut self, from: u8, to: u8) {
        let c = self.cell(from);
        let (top, held) = (c & 3, c >> 2);
        if held != EMPTY && locked(held, from) {
            self.set_cell(to, top);
            self.set_cell(from, held);
        } else {
            self.set_cell(to, c);
            self.set_cell(from, EMPTY);
        }
    }

    /// The stacking protocol after a hit: the top of `from` goes on top of `to`; if
    /// `to` then holds three agents, its lowest unlocked one (the bottom, or the middle
    /// when the bottom is locked) goes to the bottom of `from`.
    pub fn stack(&mut self, from: u8, to: u8) {
        let s = self.cell(from);
        let (mover, rest) = (s & 3, s >> 2);
        let t = self.cell(to);
        let (ttop, tbot) = (t & 3, t >> 2);
        if tbot == EMPTY {
            self.set_cell(to, mover | ttop << 2);
            self.set_cell(from, rest);
        } else {
            let (ejected, kept) = if locked(tbot, to) {
                (ttop, tbot)
            } else {
                (tbot, ttop)
            };
            self.set_cell(to, mover | kept << 2);
            let source = if rest == EMPTY {
                ejected
            } else {
                rest | ejected << 2
            };
            self.set_cell(from, source);
        }
    }
}
