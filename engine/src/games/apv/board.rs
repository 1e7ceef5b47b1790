//! APV's hexagon of 61 cells on 64-bit bitboards, and the move tables of its four unit
//! types, all built at compile time.
//!
//! A cell is an axial coordinate `(q, r)` with `|q|, |r|, |q + r| ≤ 4`. Cells are
//! numbered row by row, `r` from −4 to +4 and `q` ascending within a row, so cell
//! indices `0..61` are bits of one `u64` ([`Bitboard`]). With that numbering the
//! directions d0 = (+1, 0), d4 = (−1, +1) and d5 = (0, +1) always lead to a higher index
//! and d1, d2, d3 to a lower one, which is what Axis slides rely on to find the nearest
//! blocker with one bit scan.

/// A set of cells: bit `i` is cell `i`.
pub type Bitboard = u64;

/// Number of cells.
pub const CELLS: usize = 61;

/// Every cell of the board.
pub const FULL: Bitboard = (1 << CELLS) - 1;

/// The six directions `(dq, dr)`, d0 … d5, in the spec's order.
pub const DIRECTIONS: [(i32, i32); 6] = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)];

/// Whether moving in direction `d` raises the cell index (see the module docs).
const ASCENDING: [bool; 6] = [true, false, false, false, true, true];

/// "No cell" in the `u8` tables.
pub const NONE: u8 = u8::MAX;

/// The geometry tables; one static instance, [`GEO`].
#[derive(Debug)]
pub struct Geometry {
    /// `q` of each cell.
    pub q: [i8; CELLS],
    /// `r` of each cell.
    pub r: [i8; CELLS],
    /// Cell index of `(q, r)` at `[q + 4][r + 4]`, or [`NONE`] off the board.
    pub index: [[u8; 9]; 9],
    /// The on-board neighbours of each cell (a Pivot's steps).
    pub neighbours: [Bitboard; CELLS],
    /// The cells `p + 2·d_i` on the board (a Veil's jumps).
    pub veil: [Bitboard; CELLS],
    /// The cells `p + d_i + d_(i+1)` on the board (a Turned Veil's jumps).
    pub turned: [Bitboard; CELLS],
    /// The cells from `p` onwards in direction `d`, `p` excluded, up to the edge (an
    /// Axis's slide over an empty board).
    pub ray: [[Bitboard; 6]; CELLS],
}

impl Geometry {
    /// The cell at `(q, r)`, if it is on the board.
    #[inline]
    pub const fn cell(&self, q: i32, r: i32) -> Option<usize> {
        if q < -4 || q > 4 || r < -4 || r > 4 {
            return None;
        }
        let i = self.index[(q + 4) as usize][(r + 4) as usize];
        if i == NONE {
            None
        } else {
            Some(i as usize)
        }
    }

    /// The cells an Axis on `from` can slide to, with `occupied` blocking.
    #[inline]
    pub fn axis_targets(&self, from: usize, occupied: Bitboard) -> Bitboard {
        let mut out = 0;
        for d in 0..6 {
            out |= self.slide(from, d, occupied);
        }
        out
    }

    /// The empty cells an Axis on `from` reaches in direction `d` before the first
    /// occupied one.
    #[inline]
    pub fn slide(&self, from: usize, d: usize, occupied: Bitboard) -> Bitboard {
        let ray = self.ray[from][d];
        let blockers = ray & occupied;
        if blockers == 0 {
            return ray;
        }
        let first = if ASCENDING[d] {
            blockers.trailing_zeros()
        } else {
            63 - blockers.leading_zeros()
        } as usize;
        ray & !(self.ray[first][d] | 1 << first)
    }

    /// The direction from `from` to `to` if they lie on one straight line, and the cells
    /// strictly between them.
    pub fn line(&self, from: usize, to: usize) -> Option<(usize, Bitboard)> {
        (0..6).find_map(|d| {
            (self.ray[from][d] & 1 << to != 0)
                .then(|| (d, self.ray[from][d] & !(self.ray[to][d] | 1 << to)))
        })
    }
}

/// Builds every table at compile time.
const fn build() -> Geometry {
    let mut g = Geometry {
        q: [0; CELLS],
        r: [0; CELLS],
        index: [[NONE; 9]; 9],
        neighbours: [0; CELLS],
        veil: [0; CELLS],
        turned: [0; CELLS],
        ray: [[0; 6]; CELLS],
    };
    let mut n = 0;
    let mut r = -4;
    while r <= 4 {
        let mut q = -4;
        while q <= 4 {
            if (q + r) >= -4 && (q + r) <= 4 {
                g.q[n] = q as i8;
                g.r[n] = r as i8;
                g.index[(q + 4) as usize][(r + 4) as usize] = n as u8;
                n += 1;
            }
            q += 1;
        }
        r += 1;
    }
    assert!(n == CELLS);
    let mut c = 0;
    while c < CELLS {
        let (q, r) = (g.q[c] as i32, g.r[c] as i32);
        let mut d = 0;
        while d < 6 {
            let (dq, dr) = DIRECTIONS[d];
            let (eq, er) = DIRECTIONS[(d + 1) % 6];
            if let Some(x) = g.cell(q + dq, r + dr) {
                g.neighbours[c] |= 1 << x;
            }
            if let Some(x) = g.cell(q + 2 * dq, r + 2 * dr) {
                g.veil[c] |= 1 << x;
            }
            if let Some(x) = g.cell(q + dq + eq, r + dr + er) {
                g.turned[c] |= 1 << x;
            }
            let mut k = 1;
            while let Some(x) = g.cell(q + k * dq, r + k * dr) {
                g.ray[c][d] |= 1 << x;
                k += 1;
            }
            d += 1;
        }
        c += 1;
    }
    g
}

/// The board's tables.
pub static GEO: Geometry = build();

/// The name of a cell: a letter for `q` (`a` = −4 … `i` = +4), a digit for `r`
/// (`1` = −4 … `9` = +4), so `(0, 4)` is `e9`.
pub fn cell_name(cell: usize) -> String {
    let (q, r) = (GEO.q[cell], GEO.r[cell]);
    format!(
        "{}{}",
        (b'e' as i8 + q) as u8 as char,
        (b'5' as i8 + r) as u8 as char
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(q: i32, r: i32) -> usize {
        GEO.cell(q, r).unwrap()
    }

    #[test]
    fn names_and_counts() {
        assert_eq!(cell_name(at(0, 4)), "e9");
        assert_eq!(cell_name(at(0, -4)), "e1");
        assert_eq!(cell_name(at(-1, 3)), "d8");
        assert_eq!(cell_name(0), "e1");
        assert_eq!(cell_name(CELLS - 1), "e9");
        assert_eq!(GEO.cell(-4, -4), None);
        assert_eq!(GEO.neighbours[at(0, 0)].count_ones(), 6);
        // A corner of the hexagon has three neighbours, an edge cell four.
        assert_eq!(GEO.neighbours[at(4, 0)].count_ones(), 3);
        assert_eq!(GEO.neighbours[at(4, -2)].count_ones(), 4);
        // The centre reaches 4 cells along every direction.
        for d in 0..6 {
            assert_eq!(GEO.ray[at(0, 0)][d].count_ones(), 4);
        }
    }

    #[test]
    fn slides_stop_before_the_first_unit_both_ways() {
        let c = at(0, 0);
        // Blockers at distance 2 in every direction: one cell left per direction.
        let mut occupied = 0;
        for (dq, dr) in DIRECTIONS {
            occupied |= 1 << at(2 * dq, 2 * dr);
        }
        let t = GEO.axis_targets(c, occupied);
        assert_eq!(t, GEO.neighbours[c]);
        let (d, between) = GEO.line(at(-4, 0), at(4, 0)).unwrap();
        assert_eq!((d, between.count_ones()), (0, 7));
        assert_eq!(GEO.line(at(0, 0), at(1, 1)), None);
    }
}
