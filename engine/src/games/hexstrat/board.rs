//! Hexstrat's board: a hexagon of side 4 (37 cells) in axial coordinates, its cell
//! names, neighbours and distances, all as compile-time tables.
//!
//! A cell is an index `0..37`, numbered row by row: `r` from −3 to +3, and within a row
//! `q` from its least to its greatest value. A set of cells is a [`Bitboard`], bit `i`
//! for cell `i` (37 bits of a `u64`).

/// A set of cells: bit `i` is cell `i`.
pub type Bitboard = u64;

/// Cells on the board.
pub const CELLS: usize = 37;

/// Every cell of the board.
pub const ALL: Bitboard = (1 << CELLS) - 1;

/// The board's radius: `|q|, |r|, |q + r| ≤ RADIUS`.
pub const RADIUS: i8 = 3;

/// The six directions `(dq, dr)`, in the rules' order.
pub const DIRECTIONS: [(i8, i8); 6] = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)];

/// Axial coordinates `(q, r)` of every cell, in index order.
pub const COORDS: [(i8, i8); CELLS] = coords();

const fn coords() -> [(i8, i8); CELLS] {
    let mut out = [(0, 0); CELLS];
    let mut i = 0;
    let mut r = -RADIUS;
    while r <= RADIUS {
        let mut q = -RADIUS;
        while q <= RADIUS {
            if on_board(q, r) {
                out[i] = (q, r);
                i += 1;
            }
            q += 1;
        }
        r += 1;
    }
    assert!(i == CELLS);
    out
}

/// Whether `(q, r)` lies on the board.
pub const fn on_board(q: i8, r: i8) -> bool {
    q >= -RADIUS && q <= RADIUS && r >= -RADIUS && r <= RADIUS && {
        let s = q + r;
        s >= -RADIUS && s <= RADIUS
    }
}

/// The cell at `(q, r)`, or `None` off the board.
pub const fn cell_at(q: i8, r: i8) -> Option<usize> {
    if !on_board(q, r) {
        return None;
    }
    let mut i = 0;
    while i < CELLS {
        if COORDS[i].0 == q && COORDS[i].1 == r {
            return Some(i);
        }
        i += 1;
    }
    None
}

/// The cell at `(q, r)`, which must be on the board (for constants).
const fn cell(q: i8, r: i8) -> usize {
    match cell_at(q, r) {
        Some(c) => c,
        None => panic!("off the board"),
    }
}

/// The Headquarters of each seat: seat 0's at `(0, −2)` (`d2`), seat 1's at `(0, 2)`
/// (`d6`).
pub const HQ: [usize; 2] = [cell(0, -2), cell(0, 2)];

/// The two Headquarters cells.
pub const HQS: Bitboard = 1 << HQ[0] | 1 << HQ[1];

/// The 35 cells that hold a land tile (every cell but the Headquarters).
pub const TILE_CELLS: Bitboard = ALL & !HQS;

/// The neighbours of each cell.
pub const NEIGHBOURS: [Bitboard; CELLS] = neighbours();

const fn neighbours() -> [Bitboard; CELLS] {
    let mut out = [0; CELLS];
    let mut i = 0;
    while i < CELLS {
        let (q, r) = COORDS[i];
        let mut d = 0;
        while d < 6 {
            if let Some(n) = cell_at(q + DIRECTIONS[d].0, r + DIRECTIONS[d].1) {
                out[i] |= 1 << n;
            }
            d += 1;
        }
        i += 1;
    }
    out
}

/// Hex distance between every two cells (steps between neighbours).
pub const DISTANCE: [[u8; CELLS]; CELLS] = distances();

const fn distances() -> [[u8; CELLS]; CELLS] {
    let mut out = [[0; CELLS]; CELLS];
    let mut a = 0;
    while a < CELLS {
        let mut b = 0;
        while b < CELLS {
            let dq = COORDS[a].0 - COORDS[b].0;
            let dr = COORDS[a].1 - COORDS[b].1;
            let ds = dq + dr;
            out[a][b] = ((dq.abs() + dr.abs() + ds.abs()) / 2) as u8;
            b += 1;
        }
        a += 1;
    }
    out
}

/// The name of a cell: a letter for `q` (`a` = −3 … `g` = +3), a number for `r`
/// (`1` = −3 … `7` = +3); `(0, 0)` is `d4`.
pub fn cell_name(cell: usize) -> String {
    let (q, r) = COORDS[cell];
    format!("{}{}", (b'd' as i8 + q) as u8 as char, r + 4)
}

/// Reads a cell name such as `d4`; the error says why it is not a cell of the board.
pub fn parse_cell(text: &str) -> Result<usize, String> {
    let bytes = text.as_bytes();
    let well_formed =
        bytes.len() == 2 && bytes[0].is_ascii_lowercase() && bytes[1].is_ascii_digit();
    if !well_formed {
        return Err(format!(
            "{text:?} is not a cell (a letter a-g then a number 1-7, like d4)"
        ));
    }
    let q = bytes[0] as i8 - b'd' as i8;
    let r = (bytes[1] - b'0') as i8 - 4;
    cell_at(q, r).ok_or_else(|| format!("cell {text} is not on the board"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bits::Cells;

    #[test]
    fn the_board_has_37_cells_and_named_headquarters() {
        assert_eq!(ALL.count_ones(), 37);
        assert_eq!(TILE_CELLS.count_ones(), 35);
        assert_eq!(cell_name(HQ[0]), "d2");
        assert_eq!(cell_name(HQ[1]), "d6");
        assert_eq!(cell_name(cell(0, 0)), "d4");
        assert_eq!(cell_name(0), "d1");
        assert_eq!(cell_name(CELLS - 1), "d7");
        // Three cells between the Headquarters, one behind each.
        assert_eq!(DISTANCE[HQ[0]][HQ[1]], 4);
    }

    #[test]
    fn names_round_trip_and_errors_say_why() {
        for c in 0..CELLS {
            assert_eq!(parse_cell(&cell_name(c)), Ok(c));
        }
        assert_eq!(parse_cell("a1"), Err("cell a1 is not on the board".into()));
        assert_eq!(parse_cell("h4"), Err("cell h4 is not on the board".into()));
        assert_eq!(parse_cell("d0"), Err("cell d0 is not on the board".into()));
        assert!(parse_cell("d44").unwrap_err().contains("is not a cell"));
        assert!(parse_cell("D4").unwrap_err().contains("is not a cell"));
        assert!(parse_cell("").unwrap_err().contains("is not a cell"));
    }

    #[test]
    fn neighbours_are_symmetric_and_at_distance_one() {
        let mut edges = 0;
        for a in 0..CELLS {
            for b in Cells(NEIGHBOURS[a]) {
                assert!(NEIGHBOURS[b] & 1 << a != 0);
                assert_eq!(DISTANCE[a][b], 1);
                edges += 1;
            }
            let n = NEIGHBOURS[a].count_ones();
            assert!((3..=6).contains(&n), "{} has {n} neighbours", cell_name(a));
        }
        // 3 · 4² − 3 · 4 + 1 = 37 cells; 90 edges on a side-4 hexagon.
        assert_eq!(edges / 2, 90);
        assert_eq!(NEIGHBOURS[HQ[0]].count_ones(), 6);
    }
}
