//! The designer's knobs of Invector: the rule numbers a designer may turn to rebalance
//! the game, each at the rulebook's value by default, their check against the board,
//! and the starting layout they make.
//!
//! - `lose_at`: a side left with this many stones or fewer after a capture has lost
//!   (the rulebook's 0: capture every stone).
//! - `hole`: every pit nearer the centre than this starts empty (the rulebook's 0: a
//!   full board).
//! - `stride`: a step may slide up to this many pits in a straight line (the
//!   rulebook's 1).
//! - `handicap`: this many of Black's stones are left off the board at the start,
//!   the ones farthest from the centre first (the rulebook's 0). It compensates the
//!   second player, who plays White when the pie rule is off.
//!
//! The knobs change only the start and the numbers the rules read; the geometry (and
//! with it every cell's distance to the centre and the board's symmetries) is the
//! board's own. `hole` and `handicap` shape the start and nothing after it, and the
//! rules stay the same for both colours, so every symmetry of the board still maps a
//! position onto one with the same value for its mover.

use crate::bits::Cells;
use crate::params::ConfigError;

use super::board::{Bitboard, Geometry};

/// The designer's knobs, each at the rulebook's value by [`Default`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct InvectorKnobs {
    /// A side with at most this many stones after a capture has lost.
    pub lose_at: u8,
    /// The pits at a distance below this from the centre start empty.
    pub hole: u8,
    /// The most pits a step may cover, in one straight line, each nearer the centre than
    /// the one before.
    pub stride: u8,
    /// How many Black stones the start leaves out, farthest from the centre first
    /// (ties by the lowest cell, `y·W + x`).
    pub handicap: u8,
}

impl Default for InvectorKnobs {
    /// The rulebook: capture every stone, a full board, one pit a step, no handicap.
    fn default() -> Self {
        InvectorKnobs {
            lose_at: 0,
            hole: 0,
            stride: 1,
            handicap: 0,
        }
    }
}

// The upper ends of the knobs' declared ranges (their `ParamSpec`s' too): larger values
// are refused whatever the board. Within them, `check` refuses what a board cannot hold.

/// The largest `lose_at`: a game won by taking a few stones is still Invector's race;
/// beyond 16 it is decided by the first trades.
pub const LOSE_AT_MAX: u8 = 16;
/// The largest `hole`: the largest distance on any legal board (the corners of 16 × 7,
/// 9 × 14 and their turns), where a hole this wide leaves only the corners' stones.
pub const HOLE_MAX: u8 = 10;
/// The largest `stride`: the longest straight slide towards the centre on any legal
/// board (a row or column of 15 or 16 pits, from its end to its middle).
pub const STRIDE_MAX: u8 = 7;
/// The largest `handicap`.
pub const HANDICAP_MAX: u8 = 16;

impl InvectorKnobs {
    /// The starting stones `[black, white]` on `geo` with these knobs.
    pub(super) fn start(&self, geo: &Geometry) -> [Bitboard; 2] {
        let hole = (0..geo.cells())
            .filter(|&p| geo.distance[p] < self.hole)
            .fold(0u128, |bb, p| bb | 1u128 << p);
        let black = geo.black_start() & !hole;
        let white = geo.full & !geo.black_start() & !hole;
        let mut outermost: Vec<usize> = Cells(black).collect();
        // Farthest first; the sort is stable, so ties keep the lowest cell first.
        outermost.sort_by_key(|&p| std::cmp::Reverse(geo.distance[p]));
        let left_out = outermost
            .iter()
            .take(usize::from(self.handicap))
            .fold(0u128, |bb, &p| bb | 1u128 << p);
        [black & !left_out, white]
    }

    /// Checks the knobs against the board `geo`: each within its declared range, and
    /// each side starting with more stones than `lose_at` (else the game would be over,
    /// or never begin). The error is one line naming the problem and what is valid.
    pub(super) fn check(&self, geo: &Geometry) -> Result<(), ConfigError> {
        let ranges = [
            ("lose_at", self.lose_at, 0, LOSE_AT_MAX),
            ("hole", self.hole, 0, HOLE_MAX),
            ("stride", self.stride, 1, STRIDE_MAX),
            ("handicap", self.handicap, 0, HANDICAP_MAX),
        ];
        for (name, value, min, max) in ranges {
            if !(min..=max).contains(&value) {
                return Err(ConfigError(format!(
                    "invector {name}={value} is not allowed: it must be {min}..{max}"
                )));
            }
        }
        let (w, h) = (geo.width, geo.height);
        // Without the handicap each colour has as many stones as the other: the half
        // turn keeps the distances and exchanges the colours.
        let holed = InvectorKnobs {
            handicap: 0,
            ..*self
        };
        let each = holed.start(geo)[1].count_ones();
        if each == 0 {
            let farthest = geo.distance[..geo.cells()]
                .iter()
                .max()
                .copied()
                .unwrap_or(0);
            return Err(ConfigError(format!(
                "invector {w}x{h} with hole={} starts empty: hole must be 0..{farthest} on this board",
                self.hole
            )));
        }
        if each <= u32::from(self.lose_at) {
            return Err(ConfigError(format!(
                "invector {w}x{h} with hole={} starts each side with {each} stones: lose_at must be 0..{}",
                self.hole,
                each - 1
            )));
        }
        if each - u32::from(self.lose_at) <= u32::from(self.handicap) {
            return Err(ConfigError(format!(
                "invector {w}x{h} with hole={} and lose_at={} starts Black with {each} stones: handicap must be 0..{}",
                self.hole,
                self.lose_at,
                each - u32::from(self.lose_at) - 1
            )));
        }
        Ok(())
    }
}
