//! Connect Four's bitboard layout and four-in-a-row detection.
//!
//! Each column takes 7 bits of a `u64`: its 6 playable rows from the bottom, then one
//! sentinel bit that is always empty. Cell `(column, row)` is bit `7 * column + row`, so
//! the 7 columns use bits 0–48. The sentinel row keeps shifted lines from wrapping: a
//! shift by 1 moves up a column, by 7 across a row, by 8 up a rising diagonal and by 6
//! up a falling one, and a line that would leave the board in any of these directions
//! lands on a sentinel bit (always empty) or above bit 48 (never set), so it can never
//! join stones of two columns or rows that are not neighbours.

/// A set of cells, one bit per cell as the module docs lay out.
pub type Bitboard = u64;

/// Columns on the board (`a` to `g`).
pub const COLUMNS: usize = 7;
/// Playable rows in each column (`1` to `6` from the bottom).
pub const ROWS: usize = 6;
/// Bits per column: the playable rows plus the sentinel.
pub const STRIDE: usize = ROWS + 1;
/// Playable cells.
pub const CELLS: usize = COLUMNS * ROWS;

/// The bit of cell `(column, row)`, both from 0.
#[inline]
pub const fn cell(column: usize, row: usize) -> Bitboard {
    1 << (column * STRIDE + row)
}

/// The bottom cell of every column.
pub const BOTTOM: Bitboard = {
    let mut bb = 0;
    let mut c = 0;
    while c < COLUMNS {
        bb |= cell(c, 0);
        c += 1;
    }
    bb
};

/// Every playable cell (the sentinels excluded).
pub const FULL: Bitboard = BOTTOM * ((1 << ROWS) - 1);

/// The playable cells of `column`.
#[inline]
pub const fn column_mask(column: usize) -> Bitboard {
    ((1 << ROWS) - 1) << (column * STRIDE)
}

/// The top playable cell of `column`: the column is full exactly when it is occupied.
#[inline]
pub const fn top_cell(column: usize) -> Bitboard {
    cell(column, ROWS - 1)
}

/// The four line directions as bit shifts: vertical, horizontal, rising diagonal
/// (towards higher columns and rows), falling diagonal (higher columns, lower rows).
pub const DIRECTIONS: [u32; 4] = [1, STRIDE as u32, STRIDE as u32 + 1, STRIDE as u32 - 1];

/// Whether `stones` contain four in a row in any direction.
///
/// For a shift `s`, `pairs = stones & stones >> s` marks the stones whose neighbour `s`
/// further on is also set; `pairs & pairs >> 2s` then marks the first stone of four in a
/// row.
#[inline]
pub const fn has_four(stones: Bitboard) -> bool {
    let mut i = 0;
    while i < DIRECTIONS.len() {
        let s = DIRECTIONS[i];
        let pairs = stones & (stones >> s);
        if pairs & (pairs >> (2 * s)) != 0 {
            return true;
        }
        i += 1;
    }
    false
}

/// The empty cells where a stone of the side owning `stones` would complete four in a
/// row (whether or not a stone can be dropped there yet), `occupied` being every stone
/// on the board.
///
/// For each line direction `s`, a cell completes four when three of its line
/// neighbours are set in one of the four ways a window can hold it: the three before it,
/// two before and one after, one before and two after, or the three after. Shifting
/// `stones` left by `k * s` marks the cells whose `k`-th neighbour before them is set,
/// right by `k * s` those whose `k`-th neighbour after them is; the sentinel row and
/// the board's ends absorb every shift that would leave a line, as in [`has_four`].
#[inline]
pub const fn winning_cells(stones: Bitboard, occupied: Bitboard) -> Bitboard {
    let mut cells = 0;
    let mut i = 0;
    while i < DIRECTIONS.len() {
        let s = DIRECTIONS[i];
        let (b1, b2, b3) = (stones << s, stones << (2 * s), stones << (3 * s));
        let (a1, a2, a3) = (stones >> s, stones >> (2 * s), stones >> (3 * s));
        cells |= (b1 & b2 & b3) | (b2 & b1 & a1) | (b1 & a1 & a2) | (a1 & a2 & a3);
        i += 1;
    }
    cells & FULL & !occupied
}

/// The cells where the next stone of each column that is not full would land.
#[inline]
pub const fn playable(occupied: Bitboard) -> Bitboard {
    (occupied + BOTTOM) & FULL
}

/// Number of windows: 4-cell segments of a line on the board (24 horizontal, 21
/// vertical, 12 on each diagonal).
pub const WINDOW_COUNT: usize = 69;

/// Every window of four cells in a line, as a bitboard of its four cells. A player can
/// still complete a window only while the opponent has no stone in it.
pub const WINDOWS: [Bitboard; WINDOW_COUNT] = {
    let mut out = [0; WINDOW_COUNT];
    let mut n = 0;
    // (column step, row step) of each direction; the column step is never negative,
    // so only the row range depends on the direction.
    let steps: [(usize, isize); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];
    let mut d = 0;
    while d < steps.len() {
        let (dc, dr) = steps[d];
        let mut c = 0;
        while c + 3 * dc < COLUMNS {
            let mut r = 0;
            while r < ROWS {
                let end = r as isize + 3 * dr;
                if end >= 0 && end < ROWS as isize {
                    let mut w = 0;
                    let mut k = 0;
                    while k < 4 {
                        w |= cell(c + k * dc, (r as isize + k as isize * dr) as usize);
                        k += 1;
                    }
                    out[n] = w;
                    n += 1;
                }
                r += 1;
            }
            c += 1;
        }
        d += 1;
    }
    assert!(n == WINDOW_COUNT, "window count");
    out
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout() {
        assert_eq!(FULL.count_ones() as usize, CELLS);
        assert_eq!(FULL & BOTTOM << ROWS, 0, "sentinels are outside FULL");
        assert_eq!((0..COLUMNS).fold(0, |bb, c| bb | column_mask(c)), FULL);
        let mut all = 0;
        for w in WINDOWS {
            assert_eq!(w.count_ones(), 4);
            assert_eq!(w & !FULL, 0);
            assert!(has_four(w));
            all |= w;
        }
        assert_eq!(all, FULL);
    }

    #[test]
    fn lines_do_not_wrap() {
        // Top of column a and bottom three of column b: consecutive bits, not a line.
        assert!(!has_four(cell(0, 5) | cell(1, 0) | cell(1, 1) | cell(1, 2)));
        // Three at the right edge of row 1 and one at the left of row 2.
        assert!(!has_four(cell(4, 0) | cell(5, 0) | cell(6, 0) | cell(0, 1)));
    }

    #[test]
    fn winning_cells_are_the_empty_cells_that_complete_four() {
        // Random scatters of stones (not necessarily reachable positions: gaps and
        // floating stones test the shifts harder) without four in a row yet, each empty
        // cell checked directly.
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut checked = 0;
        for _ in 0..4_000 {
            let mut own = 0;
            let mut other = 0;
            for column in 0..COLUMNS {
                for row in 0..ROWS {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    match seed % 7 {
                        0 | 1 => own |= cell(column, row),
                        2 | 3 => other |= cell(column, row),
                        _ => {}
                    }
                }
            }
            if has_four(own) {
                continue;
            }
            checked += 1;
            let occupied = own | other;
            let found = winning_cells(own, occupied);
            for column in 0..COLUMNS {
                for row in 0..ROWS {
                    let c = cell(column, row);
                    let expected = occupied & c == 0 && has_four(own | c);
                    assert_eq!(
                        found & c != 0,
                        expected,
                        "{own:#x} {other:#x} {column} {row}"
                    );
                }
            }
        }
        assert!(checked > 1_000, "{checked} scatters");
    }

    #[test]
    fn playable_cells_sit_on_top_of_each_column() {
        let occupied = cell(0, 0) | cell(0, 1) | cell(3, 0) | column_mask(6);
        assert_eq!(
            playable(occupied),
            cell(0, 2) | cell(1, 0) | cell(2, 0) | cell(3, 1) | cell(4, 0) | cell(5, 0)
        );
    }
}
