//! Hexstrat's Zobrist keys, one table: squad cells (6 × 37), squad units (6 × 7
//! counts), impeded and acted flags (6 each), face-up tiles (3 types × 37 cells), the bag
//! (3 types × 36 counts), seize counts (2 × 4), seat 1 to move, the pending reveal's
//! squad (6) and cell (37), and the cap's draw; then the keys the designer's knobs
//! need: squad units above the rulebook's 6 (6 × 6 counts, 7 to 12), seize counts above
//! its 3 (2 × 6 counts, 4 to 9), and seat 0's shortened first turn.
//!
//! The knobs' keys follow the rulebook's so that the rulebook's keys, drawn first from
//! the same seed, keep their values: the rulebook game hashes as it did before the
//! knobs (its initial hash is pinned), and a unit or seize count reads its key from the
//! first block while it is within the rulebook's range.

use super::board::CELLS;
use super::knobs::Knobs;
use super::moves::Tile;
use super::{SEIZE_WINS, SQUADS, TILES};
use crate::game::Seat;
use crate::zobrist;

const POS_KEYS: usize = 0;
const HP_KEYS: usize = POS_KEYS + SQUADS * CELLS;
pub(super) const IMPEDED_KEYS: usize = HP_KEYS + SQUADS * HP_COUNTS;
pub(super) const ACTED_KEYS: usize = IMPEDED_KEYS + SQUADS;
const TILE_KEYS: usize = ACTED_KEYS + SQUADS;
const BAG_KEYS: usize = TILE_KEYS + 3 * CELLS;
const SEIZE_KEYS: usize = BAG_KEYS + 3 * (TILES as usize + 1);
pub(super) const SEAT1_KEY: usize = SEIZE_KEYS + 2 * SEIZE_COUNTS;
const PENDING_SQUAD_KEYS: usize = SEAT1_KEY + 1;
const PENDING_CELL_KEYS: usize = PENDING_SQUAD_KEYS + SQUADS;
pub(super) const CAPPED_KEY: usize = PENDING_CELL_KEYS + CELLS;
/// Units counts a squad may hold in the first block: 0 to the rulebook's largest, 6.
const HP_COUNTS: usize = 7;
/// Units counts above the first block's: 7 to [`Knobs::MAX_UNITS`].
const EXTRA_HP_COUNTS: usize = Knobs::MAX_UNITS as usize + 1 - HP_COUNTS;
const EXTRA_HP_KEYS: usize = CAPPED_KEY + 1;
/// Seize counts in the first block: 0 to the rulebook's winning count.
const SEIZE_COUNTS: usize = SEIZE_WINS as usize + 1;
/// Seize counts above the first block's: 4 to [`Knobs::MAX_SEIZE_TURNS`].
const EXTRA_SEIZE_COUNTS: usize = Knobs::MAX_SEIZE_TURNS as usize + 1 - SEIZE_COUNTS;
const EXTRA_SEIZE_KEYS: usize = EXTRA_HP_KEYS + SQUADS * EXTRA_HP_COUNTS;
/// Seat 0's first turn, under rules that cut it short.
pub(super) const OPENING_KEY: usize = EXTRA_SEIZE_KEYS + 2 * EXTRA_SEIZE_COUNTS;
const KEY_COUNT: usize = OPENING_KEY + 1;
pub(super) static KEYS: [u64; KEY_COUNT] = zobrist::keys(0x4E85_7A70);

#[inline]
pub(super) fn pos_key(sq: usize, cell: u8) -> u64 {
    KEYS[POS_KEYS + sq * CELLS + cell as usize]
}

#[inline]
pub(super) fn hp_key(sq: usize, hp: u8) -> u64 {
    let hp = hp as usize;
    if hp < HP_COUNTS {
        KEYS[HP_KEYS + sq * HP_COUNTS + hp]
    } else {
        KEYS[EXTRA_HP_KEYS + sq * EXTRA_HP_COUNTS + hp - HP_COUNTS]
    }
}

#[inline]
pub(super) fn tile_key(cell: usize, tile: Tile) -> u64 {
    KEYS[TILE_KEYS + tile as usize * CELLS + cell]
}

#[inline]
pub(super) fn bag_key(tile: usize, count: u8) -> u64 {
    KEYS[BAG_KEYS + tile * (TILES as usize + 1) + count as usize]
}

#[inline]
pub(super) fn seize_key(seat: Seat, count: u8) -> u64 {
    let count = count as usize;
    if count < SEIZE_COUNTS {
        KEYS[SEIZE_KEYS + seat * SEIZE_COUNTS + count]
    } else {
        KEYS[EXTRA_SEIZE_KEYS + seat * EXTRA_SEIZE_COUNTS + count - SEIZE_COUNTS]
    }
}

#[inline]
pub(super) fn pending_key(sq: u8, cell: u8) -> u64 {
    KEYS[PENDING_SQUAD_KEYS + sq as usize] ^ KEYS[PENDING_CELL_KEYS + cell as usize]
}
