//! Invector's board geometry on 128-bit bitboards: cells, neighbour shifts, centre pits
//! and the distance-to-centre masks that step generation needs.
//!
//! A cell `(x, y)` is bit `y * W + x`. Every legal size has `W·H ≤ 128`, so one `u128`
//! holds a side's stones. Geometry depends only on the size, so it is built once per
//! size and shared (`&'static`) by every state of that size.

use std::sync::{Mutex, OnceLock};

use super::symmetry::Images;

/// A set of cells.
pub type Bitboard = u128;

/// The four orthogonal directions, in generation order.
pub const DIRECTIONS: [Direction; 4] = [
    Direction::North,
    Direction::East,
    Direction::South,
    Direction::West,
];

/// An orthogonal direction on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Up a row (+W).
    North,
    /// Right a column (+1).
    East,
    /// Down a row (−W).
    South,
    /// Left a column (−1).
    West,
}

/// Everything about a board size that does not change during a game.
#[derive(Debug)]
pub struct Geometry {
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// All cells of the board.
    pub full: Bitboard,
    /// Cells not in the last column (their east neighbour exists).
    not_east_edge: Bitboard,
    /// Cells not in the first column (their west neighbour exists).
    not_west_edge: Bitboard,
    /// The two centre pits.
    pub centre: [usize; 2],
    /// D(p): Manhattan distance of each cell to the nearer centre pit.
    pub distance: [u8; 128],
    /// For each direction, the cells whose neighbour that way is one step closer to the
    /// centre (so a stone there may step that way onto an empty cell).
    closer: [Bitboard; 4],
    /// Orthogonal neighbours of each cell.
    pub neighbours: [Bitboard; 128],
    /// Where the board's symmetries take each cell.
    pub images: Images,
}

impl Geometry {
    /// The shared geometry of a `width × height` board. The size must already be valid
    /// (`Invector::new` checks it).
    pub fn get(width: usize, height: usize) -> &'static Geometry {
        // One slot per size 1..=16 × 1..=16; each geometry is built once and leaked on
        // purpose, so that states can hold a plain `&'static` (at most 256 small tables).
        static CACHE: OnceLock<Mutex<Vec<Option<&'static Geometry>>>> = OnceLock::new();
        let cache = CACHE.get_or_init(|| Mutex::new(vec![None; 16 * 16]));
        let mut slots = cache.lock().expect("geometry cache poisoned");
        let slot = &mut slots[(width - 1) * 16 + (height - 1)];
        slot.get_or_insert_with(|| Box::leak(Box::new(Geometry::build(width, height))))
    }

    fn build(width: usize, height: usize) -> Geometry {
        let cells = width * height;
        let full = if cells == 128 {
            u128::MAX
        } else {
            (1u128 << cells) - 1
        };
        let column = |x: usize| (0..height).fold(0u128, |bb, y| bb | 1u128 << (y * width + x));
        let centre = if width % 2 == 0 {
            let y = (height - 1) / 2;
            [y * width + width / 2 - 1, y * width + width / 2]
        } else {
            let x = (width - 1) / 2;
            [(height / 2 - 1) * width + x, (height / 2) * width + x]
        };
        let mut g = Geometry {
            width,
            height,
            full,
            not_east_edge: full & !column(width - 1),
            not_west_edge: full & !column(0),
            centre,
            distance: [0; 128],
            closer: [0; 4],
            neighbours: [0; 128],
            images: Images::new(width, height, &super::KEYS[..256]),
        };
        let manhattan = |a: usize, b: usize| {
            ((a % width).abs_diff(b % width) + (a / width).abs_diff(b / width)) as u8
        };
        for p in 0..cells {
            g.distance[p] = manhattan(p, centre[0]).min(manhattan(p, centre[1]));
        }
        for p in 0..cells {
            let bit = 1u128 << p;
            for (i, &d) in DIRECTIONS.iter().enumerate() {
                let n = g.shift(bit, d);
                if n != 0 {
                    g.neighbours[p] |= n;
                    if g.distance[n.trailing_zeros() as usize] < g.distance[p] {
                        g.closer[i] |= bit;
                    }
                }
            }
        }
        g
    }

    /// Number of cells.
    #[inline]
    pub fn cells(&self) -> usize {
        self.width * self.height
    }

    /// Moves every cell of `bb` one step in direction `d`, dropping those that leave
    /// the board.
    #[inline]
    pub fn shift(&self, bb: Bitboard, d: Direction) -> Bitboard {
        match d {
            Direction::North => (bb << self.width) & self.full,
            Direction::East => (bb & self.not_east_edge) << 1,
            Direction::South => bb >> self.width,
            Direction::West => (bb & self.not_west_edge) >> 1,
        }
    }

    /// How a cell index changes when moving in direction `d`.
    #[inline]
    pub fn offset(&self, d: Direction) -> isize {
        match d {
            Direction::North => self.width as isize,
            Direction::East => 1,
            Direction::South => -(self.width as isize),
            Direction::West => -1,
        }
    }

    /// Cells from which a step in direction `d` gets closer to the centre.
    #[inline]
    pub fn closer(&self, d: Direction) -> Bitboard {
        self.closer[d as usize]
    }

    /// The checkerboard of Black's starting cells (x + y even; a1 is Black).
    pub fn black_start(&self) -> Bitboard {
        (0..self.cells())
            .filter(|&p| (p % self.width + p / self.width) % 2 == 0)
            .fold(0, |bb, p| bb | 1u128 << p)
    }
}
