//! Romgon's board: 51 hexagonal cells in 7 centred rows, their geometry, zones and the
//! movement pattern of every piece as per-cell bitboards, and the [`Board`] of pieces.
//!
//! Cell `r-c` (row `r` from the top, column `c` from the left) is bit
//! `ROW_START[r] + c`, so a `u64` holds any set of cells. Geometry uses the doubled
//! column `x = 2c + |r - 3|`: two cells are neighbours when they share a row with
//! `|Δx| = 2` or sit in neighbouring rows with `|Δx| = 1`. Everything here depends only
//! on the board, so it is built once ([`Geometry::get`]) and shared by every state.

use crate::bits::Cells;
use std::sync::OnceLock;

/// A set of cells, bit `i` for cell `i`.
pub type Bitboard = u64;

/// Number of cells.
pub const CELLS: usize = 51;

/// Cells per row: `9 - |r - 3|`.
pub const ROW_LEN: [usize; 7] = [6, 7, 8, 9, 8, 7, 6];

/// Index of each row's first cell.
pub const ROW_START: [usize; 7] = [0, 6, 13, 21, 30, 38, 45];

/// The six directions, clockwise from east, as (Δrow, Δx). Direction `d`'s opposite is
/// `(d + 3) % 6`.
pub const DIRECTIONS: [(i32, i32); 6] = [(0, 2), (1, 1), (1, -1), (0, -2), (-1, -1), (-1, 1)];

/// Names of the six directions, index for index with [`DIRECTIONS`].
pub const DIRECTION_NAMES: [&str; 6] = ["E", "SE", "SW", "W", "NW", "NE"];

/// Direction indices.
pub const E: usize = 0;
/// South-east.
pub const SE: usize = 1;
/// South-west.
pub const SW: usize = 2;
/// West.
pub const W: usize = 3;
/// North-west.
pub const NW: usize = 4;
/// North-east.
pub const NE: usize = 5;

/// White's base (3-0), which is Black's goal.
pub const WHITE_BASE: usize = ROW_START[3];
/// Black's base (3-8), which is White's goal.
pub const BLACK_BASE: usize = ROW_START[3] + 8;

/// A zone: the rings around the centre strip. Circles slide along the three rings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Zone {
    /// The ten cells around the centre strip.
    Inner = 0,
    /// The sixteen cells of the next ring.
    Middle = 1,
    /// The twenty-two cells of the board's edge.
    Outer = 2,
    /// The three centre cells 3-3, 3-4 and 3-5.
    Dead = 3,
}

/// The rings in cyclic order (consecutive cells adjacent, last next to first), as the
/// rules list them; index `Zone as usize`.
const RINGS: [&str; 3] = [
    "3-2 4-2 4-3 4-4 4-5 3-6 2-5 2-4 2-3 2-2",
    "2-1 1-1 1-2 1-3 1-4 1-5 2-6 3-7 4-6 5-5 5-4 5-3 5-2 5-1 4-1 3-1",
    "3-0 2-0 1-0 0-0 0-1 0-2 0-3 0-4 0-5 1-6 2-7 3-8 4-7 5-6 6-5 6-4 6-3 6-2 6-1 6-0 5-0 4-0",
];

/// Unordered cell pairs over which some non-capturing move of each piece type can go,
/// per colour: the size of the shuttle counters' index space (checked when the geometry
/// is built).
pub const SHUTTLE_PAIRS: usize = 1_033;

/// The cell `r-c`, if it exists.
pub fn cell(r: usize, c: usize) -> Option<usize> {
    (r < 7 && c < ROW_LEN[r]).then(|| ROW_START[r] + c)
}

/// Row and column of a cell.
pub fn row_col(cell: usize) -> (usize, usize) {
    let r = ROW_START
        .iter()
        .rposition(|&s| s <= cell)
        .expect("row 0 starts at 0");
    (r, cell - ROW_START[r])
}

/// The cell's name, `r-c`.
pub fn cell_name(cell: usize) -> String {
    let (r, c) = row_col(cell);
    format!("{r}-{c}")
}

/// The cell at row `r` and doubled column `x`, if on the board.
fn at(r: i32, x: i32) -> Option<usize> {
    if !(0..7).contains(&r) {
        return None;
    }
    let shift = (r - 3).abs();
    let c2 = x - shift;
    if c2 < 0 || c2 % 2 != 0 {
        return None;
    }
    cell(r as usize, (c2 / 2) as usize)
}

/// Row and doubled column of a cell.
fn rx(cell: usize) -> (i32, i32) {
    let (r, c) = row_col(cell);
    (r as i32, 2 * c as i32 + (r as i32 - 3).abs())
}

/// The single-cell bitboard of `cell`.
#[inline]
pub const fn bit(cell: usize) -> Bitboard {
    1 << cell
}

/// Everything about the board that never changes.
#[derive(Debug)]
pub struct Geometry {
    /// The neighbour of each cell in each direction, `NONE` off the board.
    pub step: [[u8; 6]; CELLS],
    /// All six neighbours.
    pub neighbours: [Bitboard; CELLS],
    /// Square targets: the NE, NW, SE and SW neighbours. Symmetric, so also the cells
    /// from which a square attacks.
    pub square: [Bitboard; CELLS],
    /// Triangle targets by facing: the neighbours in directions `f - 1`, `f`, `f + 1`.
    pub triangle: [[Bitboard; CELLS]; 6],
    /// The reverse: the cells from which a triangle facing `f` attacks the cell.
    pub triangle_from: [[Bitboard; CELLS]; 6],
    /// Hexagon targets by axis: the two axis neighbours and the four cells reached by an
    /// axis step then a step one direction either side. Symmetric.
    pub hexagon: [[Bitboard; CELLS]; 3],
    /// Rhombus pattern targets (may capture): one or two cells along the row, and the
    /// cells two rows away with the same doubled column. Symmetric.
    pub rhombus: [Bitboard; CELLS],
    /// Rhombus diagonal targets (movement only): from a dead cell its NE, NW, SE, SW
    /// neighbours; from any cell the dead cells among those neighbours.
    pub rhombus_diagonal: [Bitboard; CELLS],
    /// Each cell's zone.
    pub zone: [Zone; CELLS],
    /// Cells of each zone, `Zone as usize`.
    pub zone_cells: [Bitboard; 4],
    /// The three rings in cyclic order.
    pub rings: [Vec<u8>; 3],
    /// Position of each ring cell in its ring's order (unused for dead cells).
    pub ring_index: [u8; CELLS],
    /// Circle zone changes: the neighbours on the neighbouring rings (never Dead).
    pub zone_change: [Bitboard; CELLS],
    /// For each piece type (`Kind as usize`) and ordered pair `from * CELLS + to`, the
    /// index of the unordered pair among those that type's non-capturing moves can use,
    /// or `u16::MAX`. Indices of all types together run over `0..SHUTTLE_PAIRS`.
    pub shuttle_pair: Vec<u16>,
    /// Hex distance between two cells, `a * CELLS + b`.
    pub distance: Vec<u8>,
}

/// No neighbour that way.
pub const NONE: u8 = u8::MAX;

impl Geometry {
    /// The one shared geometry.
    pub fn get() -> &'static Geometry {
        static GEOMETRY: OnceLock<Geometry> = OnceLock::new();
        GEOMETRY.get_or_init(Geometry::build)
    }

    fn build() -> Geometry {
        let mut g = Geometry {
            step: [[NONE; 6]; CELLS],
            neighbours: [0; CELLS],
            square: [0; CELLS],
            triangle: [[0; CELLS]; 6],
            triangle_from: [[0; CELLS]; 6],
            hexagon: [[0; CELLS]; 3],
            rhombus: [0; CELLS],
            rhombus_diagonal: [0; CELLS],
            zone: [Zone::Dead; CELLS],
            zone_cells: [0; 4],
            rings: [Vec::new(), Vec::new(), Vec::new()],
            ring_index: [0; CELLS],
            zone_change: [0; CELLS],
            shuttle_pair: vec![u16::MAX; 5 * CELLS * CELLS],
            distance: vec![0; CELLS * CELLS],
        };
        for p in 0..CELLS {
            let (r, x) = rx(p);
            for (d, &(dr, dx)) in DIRECTIONS.iter().enumerate() {
                if let Some(q) = at(r + dr, x + dx) {
                    g.step[p][d] = q as u8;
                    g.neighbours[p] |= bit(q);
                }
            }
        }
        // A two-step walk; `None` if either step leaves the board.
        let walk = |g: &Geometry, p: usize, d1: usize, d2: usize| -> Option<usize> {
            let q = g.step[p][d1];
            (q != NONE)
                .then(|| g.step[q as usize][d2])
                .filter(|&t| t != NONE)
                .map(usize::from)
        };
        let nb = |g: &Geometry, p: usize, d: usize| -> Bitboard {
            match g.step[p][d] {
                NONE => 0,
                q => bit(q.into()),
            }
        };
        for p in 0..CELLS {
            g.square[p] = [NE, NW, SE, SW].iter().map(|&d| nb(&g, p, d)).sum();
            for f in 0..6 {
                g.triangle[f][p] = [(f + 5) % 6, f, (f + 1) % 6]
                    .iter()
                    .map(|&d| nb(&g, p, d))
                    .fold(0, |a, b| a | b);
            }
            for a in 0..3 {
                let mut t = 0;
                for e in [a, a + 3] {
                    t |= nb(&g, p, e);
                    for side in [(e + 5) % 6, (e + 1) % 6] {
                        if let Some(q) = walk(&g, p, e, side) {
                            t |= bit(q);
                        }
                    }
                }
                g.hexagon[a][p] = t;
            }
            let mut rh = nb(&g, p, E) | nb(&g, p, W);
            for (d1, d2) in [(E, E), (W, W), (NE, NW), (SE, SW)] {
                if let Some(q) = walk(&g, p, d1, d2) {
                    rh |= bit(q);
                }
            }
            g.rhombus[p] = rh;
        }
        for (z, ring) in RINGS.iter().enumerate() {
            for name in ring.split(' ') {
                let (r, c) = name.split_once('-').expect("ring cells are r-c");
                let p = cell(r.parse().unwrap(), c.parse().unwrap()).expect("ring cell");
                g.ring_index[p] = g.rings[z].len() as u8;
                g.rings[z].push(p as u8);
                g.zone[p] = [Zone::Inner, Zone::Middle, Zone::Outer][z];
            }
        }
        for p in 0..CELLS {
            g.zone_cells[g.zone[p] as usize] |= bit(p);
        }
        let dead = g.zone_cells[Zone::Dead as usize];
        for p in 0..CELLS {
            let diagonal = g.square[p];
            g.rhombus_diagonal[p] = if dead & bit(p) != 0 {
                diagonal
            } else {
                diagonal & dead
            };
            let z = g.zone[p];
            g.zone_change[p] = match z {
                Zone::Dead => 0,
                Zone::Inner => g.neighbours[p] & g.zone_cells[Zone::Middle as usize],
                Zone::Middle => {
                    g.neighbours[p]
                        & (g.zone_cells[Zone::Inner as usize] | g.zone_cells[Zone::Outer as usize])
                }
                Zone::Outer => g.neighbours[p] & g.zone_cells[Zone::Middle as usize],
            };
        }
        for f in 0..6 {
            for p in 0..CELLS {
                for t in Cells(g.triangle[f][p]) {
                    g.triangle_from[f][t] |= bit(p);
                }
            }
        }
        // Hex distance by breadth-first search from every cell.
        for a in 0..CELLS {
            let (mut seen, mut frontier, mut d) = (bit(a), bit(a), 0u8);
            while frontier != 0 {
                let mut next = 0;
                for p in Cells(frontier) {
                    g.distance[a * CELLS + p] = d;
                    next |= g.neighbours[p];
                }
                frontier = next & !seen;
                seen |= next;
                d += 1;
            }
        }
        let mut next_pair = 0u16;
        for kind in 0..5 {
            for a in 0..CELLS {
                for b in Cells(g.moves_of_kind(kind, a) & !(bit(a + 1) - 1)) {
                    g.shuttle_pair[(kind * CELLS + a) * CELLS + b] = next_pair;
                    g.shuttle_pair[(kind * CELLS + b) * CELLS + a] = next_pair;
                    next_pair += 1;
                }
            }
        }
        assert_eq!(usize::from(next_pair), SHUTTLE_PAIRS, "shuttle pair count");
        g
    }

    /// Every cell a piece of type `kind` (`Kind as usize`) on `p` could reach by a
    /// non-capturing move in some position and orientation.
    fn moves_of_kind(&self, kind: usize, p: usize) -> Bitboard {
        match kind {
            0 => self.square[p],
            1 => self.neighbours[p],
            2 if self.zone[p] == Zone::Dead => 0,
            2 => self.zone_cells[self.zone[p] as usize] & !bit(p) | self.zone_change[p],
            3 => self.rhombus[p] | self.rhombus_diagonal[p],
            _ => self.hexagon.iter().map(|h| h[p]).fold(0, |a, b| a | b),
        }
    }

    /// The cells a circle on `p` reaches by sliding along its ring over empty cells,
    /// both ways round, plus the first occupied cell met each way (whoever holds it).
    /// Empty for a dead cell. `occupied` is every piece on the board.
    #[inline]
    pub fn ring_reach(&self, p: usize, occupied: Bitboard) -> Bitboard {
        let zone = self.zone[p];
        if zone == Zone::Dead {
            return 0;
        }
        let ring = &self.rings[zone as usize];
        let n = ring.len();
        let start = usize::from(self.ring_index[p]);
        let mut reach = 0;
        for step in [1, n - 1] {
            let mut i = (start + step) % n;
            while i != start {
                let q = usize::from(ring[i]);
                reach |= bit(q);
                if occupied & bit(q) != 0 {
                    break;
                }
                i = (i + step) % n;
            }
        }
        reach
    }

    /// Whether an enemy circle on `p`'s ring sees `p` along the ring: the first occupied
    /// cell met from `p` in either direction is in `circles`.
    #[inline]
    pub fn ring_attacked(&self, p: usize, occupied: Bitboard, circles: Bitboard) -> bool {
        let zone = self.zone[p];
        if zone == Zone::Dead || circles & self.zone_cells[zone as usize] == 0 {
            return false;
        }
        let ring = &self.rings[zone as usize];
        let n = ring.len();
        let start = usize::from(self.ring_index[p]);
        for step in [1, n - 1] {
            let mut i = (start + step) % n;
            while i != start {
                let q = bit(usize::from(ring[i]));
                if occupied & q != 0 {
                    if circles & q != 0 {
                        return true;
                    }
                    break;
                }
                i = (i + step) % n;
            }
        }
        false
    }
}

/// A piece type, in the rules' table order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// Moves to its four diagonal neighbours.
    Square = 0,
    /// Has a facing; moves to the three neighbours in front.
    Triangle = 1,
    /// Slides along its ring or changes ring.
    Circle = 2,
    /// The king: reach the enemy base to win.
    Rhombus = 3,
    /// Has an axis; six targets around it.
    Hexagon = 4,
}

/// The five types, index for index with `Kind as usize`.
pub const KINDS: [Kind; 5] = [
    Kind::Square,
    Kind::Triangle,
    Kind::Circle,
    Kind::Rhombus,
    Kind::Hexagon,
];

impl Kind {
    /// The notation letter, upper case (White's).
    pub const fn letter(self) -> char {
        match self {
            Kind::Square => 'S',
            Kind::Triangle => 'T',
            Kind::Circle => 'C',
            Kind::Rhombus => 'R',
            Kind::Hexagon => 'H',
        }
    }

    /// The type with this letter, either case.
    pub fn from_letter(letter: char) -> Option<Kind> {
        KINDS
            .into_iter()
            .find(|k| k.letter() == letter.to_ascii_uppercase())
    }

    /// Lower-case name.
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Square => "square",
            Kind::Triangle => "triangle",
            Kind::Circle => "circle",
            Kind::Rhombus => "rhombus",
            Kind::Hexagon => "hexagon",
        }
    }

    /// How many orientations the type has: 6 facings, 3 axes, or 1 (none).
    pub const fn orientations(self) -> u8 {
        match self {
            Kind::Triangle => 6,
            Kind::Hexagon => 3,
            _ => 1,
        }
    }
}

/// Black (seat 0) starts on the right, base 3-8; White (seat 1) on the left, base 3-0.
pub use crate::games::colour::Colour;

/// Romgon's places of each colour.
impl Colour {
    /// This colour's own base (where its Rhombus starts).
    #[inline]
    pub const fn base(self) -> usize {
        match self {
            Colour::Black => BLACK_BASE,
            Colour::White => WHITE_BASE,
        }
    }

    /// The cell this colour's Rhombus must reach: the enemy base.
    #[inline]
    pub const fn goal(self) -> usize {
        self.other().base()
    }
}

/// A piece on a cell: colour, type and orientation (facing 0..6 for a triangle, axis
/// 0..3 for a hexagon, 0 otherwise).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Whose piece.
    pub colour: Colour,
    /// What type.
    pub kind: Kind,
    /// Facing or axis (0 for types without one).
    pub orient: u8,
}

/// The pieces on the board, as bitboards: by colour, by type, and the orientations of
/// triangles (by facing) and hexagons (by axis), both colours together.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Board {
    /// Cells held by each colour (`Colour as usize`).
    pub colour: [Bitboard; 2],
    /// Cells held by each type (`Kind as usize`), both colours.
    pub kind: [Bitboard; 5],
    /// Triangles by facing.
    pub facing: [Bitboard; 6],
    /// Hexagons by axis.
    pub axis: [Bitboard; 3],
}

impl Board {
    /// Every occupied cell.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.colour[0] | self.colour[1]
    }

    /// The pieces of `colour` and `kind`.
    #[inline]
    pub fn pieces(&self, colour: Colour, kind: Kind) -> Bitboard {
        self.colour[colour as usize] & self.kind[kind as usize]
    }

    /// The cell of `colour`'s Rhombus, if it has one.
    #[inline]
    pub fn rhombus(&self, colour: Colour) -> Option<usize> {
        let r = self.pieces(colour, Kind::Rhombus);
        (r != 0).then(|| r.trailing_zeros() as usize)
    }

    /// The type of the piece on `p`, if any.
    #[inline]
    pub fn kind_at(&self, p: usize) -> Option<Kind> {
        let b = bit(p);
        KINDS.into_iter().find(|&k| self.kind[k as usize] & b != 0)
    }

    /// The piece on `p`, if any.
    #[inline]
    pub fn piece(&self, p: usize) -> Option<Piece> {
        let b = bit(p);
        let colour = if self.colour[0] & b != 0 {
            Colour::Black
        } else if self.colour[1] & b != 0 {
            Colour::White
        } else {
            return None;
        };
        let kind = self.kind_at(p).expect("an occupied cell holds a type");
        Some(Piece {
            colour,
            kind,
            orient: self.orient_at(kind, p),
        })
    }

    /// The orientation of a `kind` piece on `p` (0 for types without one).
    #[inline]
    pub fn orient_at(&self, kind: Kind, p: usize) -> u8 {
        let b = bit(p);
        match kind {
            Kind::Triangle => self.facing.iter().position(|&f| f & b != 0).unwrap_or(0) as u8,
            Kind::Hexagon => self.axis.iter().position(|&a| a & b != 0).unwrap_or(0) as u8,
            _ => 0,
        }
    }

    /// Puts `piece` on the empty cell `p`.
    #[inline]
    pub fn put(&mut self, p: usize, piece: Piece) {
        let b = bit(p);
        self.colour[piece.colour as usize] |= b;
        self.kind[piece.kind as usize] |= b;
        match piece.kind {
            Kind::Triangle => self.facing[usize::from(piece.orient)] |= b,
            Kind::Hexagon => self.axis[usize::from(piece.orient)] |= b,
            _ => {}
        }
    }

    /// Removes `piece`, which stands on `p`.
    #[inline]
    pub fn remove(&mut self, p: usize, piece: Piece) {
        let b = !bit(p);
        self.colour[piece.colour as usize] &= b;
        self.kind[piece.kind as usize] &= b;
        match piece.kind {
            Kind::Triangle => self.facing[usize::from(piece.orient)] &= b,
            Kind::Hexagon => self.axis[usize::from(piece.orient)] &= b,
            _ => {}
        }
    }

    /// Whether a piece of `by` attacks `p`: its pattern could capture an enemy piece
    /// standing there (see the rules: geometric, the Rhombus attacks nothing, a circle
    /// along its ring up to the first occupied cell).
    #[inline]
    pub fn attacked(&self, g: &Geometry, p: usize, by: Colour) -> bool {
        let own = self.colour[by as usize];
        if g.square[p] & own & self.kind[Kind::Square as usize] != 0 {
            return true;
        }
        let triangles = own & self.kind[Kind::Triangle as usize];
        if triangles != 0 && (0..6).any(|f| g.triangle_from[f][p] & triangles & self.facing[f] != 0)
        {
            return true;
        }
        let hexagons = own & self.kind[Kind::Hexagon as usize];
        if hexagons != 0 && (0..3).any(|a| g.hexagon[a][p] & hexagons & self.axis[a] != 0) {
            return true;
        }
        let circles = own & self.kind[Kind::Circle as usize];
        circles != 0 && g.ring_attacked(p, self.occupied(), circles)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn named(bb: Bitboard) -> Vec<String> {
        let mut v: Vec<String> = Cells(bb).map(cell_name).collect();
        v.sort();
        v
    }

    fn c(name: &str) -> usize {
        let (r, col) = name.split_once('-').unwrap();
        cell(r.parse().unwrap(), col.parse().unwrap()).unwrap()
    }

    fn sorted(names: &str) -> Vec<String> {
        let mut v: Vec<String> = names.split(' ').map(String::from).collect();
        v.sort();
        v
    }

    #[test]
    fn the_rules_examples() {
        let g = Geometry::get();
        let centre = c("3-4");
        assert_eq!(
            named(g.hexagon[0][centre]),
            sorted("3-3 3-5 2-2 4-2 2-5 4-5")
        );
        assert_eq!(
            named(g.hexagon[1][centre]),
            sorted("4-4 2-3 5-3 4-5 2-2 1-3")
        );
        assert_eq!(
            named(g.hexagon[2][centre]),
            sorted("4-3 2-4 5-3 4-2 1-3 2-5")
        );
        assert_eq!(named(g.rhombus[centre]), sorted("3-3 3-2 3-5 3-6 1-3 5-3"));
        assert_eq!(named(g.rhombus_diagonal[centre]), sorted("2-3 2-4 4-3 4-4"));
        assert_eq!(named(g.rhombus_diagonal[c("2-3")]), sorted("3-3 3-4"));
        assert_eq!(named(g.rhombus_diagonal[c("4-4")]), sorted("3-4 3-5"));
        assert_eq!(
            g.zone_cells
                .iter()
                .map(|z| z.count_ones())
                .collect::<Vec<_>>(),
            [10, 16, 22, 3]
        );
    }

    #[test]
    fn rings_are_cycles_of_neighbours() {
        let g = Geometry::get();
        for ring in &g.rings {
            for i in 0..ring.len() {
                let (a, b) = (ring[i] as usize, ring[(i + 1) % ring.len()] as usize);
                assert!(
                    g.neighbours[a] & bit(b) != 0,
                    "{} {}",
                    cell_name(a),
                    cell_name(b)
                );
            }
        }
    }

    #[test]
    fn cells_round_trip() {
        for p in 0..CELLS {
            let (r, col) = row_col(p);
            assert_eq!(cell(r, col), Some(p));
        }
        assert_eq!(cell_name(WHITE_BASE), "3-0");
        assert_eq!(cell_name(BLACK_BASE), "3-8");
    }
}
