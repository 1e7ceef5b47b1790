//! The board's geometry as the rules spec gives it: cells as (row, column), the six
//! directions, the rings and the dead zone, and cell names.

use super::Cell;

/// The six directions as (Δrow, Δx): E SE SW W NW NE.
pub(super) const DIRS: [(i32, i32); 6] = [(0, 2), (1, 1), (1, -1), (0, -2), (-1, -1), (-1, 1)];
/// Triangle facing names.
pub(super) const FACINGS: [&str; 6] = ["E", "SE", "SW", "W", "NW", "NE"];
/// Hexagon axis names.
pub(super) const AXES: [&str; 3] = ["E", "SE", "SW"];

/// The rings as the spec lists them: inner, middle, outer.
pub(super) const RING_TEXT: [&str; 3] = [
    "3-2 4-2 4-3 4-4 4-5 3-6 2-5 2-4 2-3 2-2",
    "2-1 1-1 1-2 1-3 1-4 1-5 2-6 3-7 4-6 5-5 5-4 5-3 5-2 5-1 4-1 3-1",
    "3-0 2-0 1-0 0-0 0-1 0-2 0-3 0-4 0-5 1-6 2-7 3-8 4-7 5-6 6-5 6-4 6-3 6-2 6-1 6-0 5-0 4-0",
];
/// The dead zone.
pub(super) const DEAD: [Cell; 3] = [(3, 3), (3, 4), (3, 5)];

pub(super) fn row_len(r: usize) -> usize {
    9 - (r as i32 - 3).unsigned_abs() as usize
}

/// All cells, row by row.
pub fn all_cells() -> Vec<Cell> {
    let mut v = Vec::new();
    for r in 0..7 {
        for c in 0..row_len(r) {
            v.push((r, c));
        }
    }
    v
}

pub(super) fn xof(cell: Cell) -> i32 {
    2 * cell.1 as i32 + (cell.0 as i32 - 3).abs()
}

/// The cell at row `r`, doubled column `x`, if it exists.
pub(super) fn at(r: i32, x: i32) -> Option<Cell> {
    if !(0..7).contains(&r) {
        return None;
    }
    let twice_c = x - (r - 3).abs();
    if twice_c < 0 || twice_c % 2 != 0 {
        return None;
    }
    let c = (twice_c / 2) as usize;
    (c < row_len(r as usize)).then_some((r as usize, c))
}

/// `cell` displaced by (dr, dx).
pub(super) fn shift(cell: Cell, dr: i32, dx: i32) -> Option<Cell> {
    at(cell.0 as i32 + dr, xof(cell) + dx)
}

pub(super) fn step(cell: Cell, d: usize) -> Option<Cell> {
    shift(cell, DIRS[d].0, DIRS[d].1)
}

/// The rings as cell lists, read once from [`RING_TEXT`].
pub(super) fn rings() -> &'static [Vec<Cell>; 3] {
    static RINGS: std::sync::OnceLock<[Vec<Cell>; 3]> = std::sync::OnceLock::new();
    RINGS.get_or_init(|| {
        RING_TEXT.map(|text| {
            text.split(' ')
                .map(|n| parse_cell(n).expect("ring cell"))
                .collect()
        })
    })
}

/// The ring (0 inner, 1 middle, 2 outer) holding `cell`, and its index there; `None`
/// in the dead zone.
pub(super) fn ring_of(cell: Cell) -> Option<(usize, usize)> {
    rings()
        .iter()
        .enumerate()
        .find_map(|(z, r)| r.iter().position(|&q| q == cell).map(|i| (z, i)))
}

pub(super) fn ring(z: usize) -> &'static [Cell] {
    &rings()[z]
}

/// Reads `r-c`.
pub fn parse_cell(text: &str) -> Option<Cell> {
    let (r, c) = text.split_once('-')?;
    let (r, c): (usize, usize) = (r.parse().ok()?, c.parse().ok()?);
    (r < 7 && c < row_len(r)).then_some((r, c))
}

pub(super) fn name(cell: Cell) -> String {
    format!("{}-{}", cell.0, cell.1)
}
