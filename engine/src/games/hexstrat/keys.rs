//! Hexstrat's Zobrist keys, one table: squad cells (6 × 37), squad units (6 × 7
//! counts), impeded and acted flags (6 each), face-up tiles (3 types × 37 cells), the bag
//! (3 types × 36 counts), seize counts (2 × 4), seat 1 to move, the pending reveal's
//! squad (6) and cell (37), and the cap's draw.

use super::board::CELLS;
use super::moves::Tile;
use super::{SEIZE_WINS, SQUADS, TILES};
use crate::game::Seat;
use crate::zobrist;

const POS_KEYS: usize = 0;
const HP_KEYS: usize = POS_KEYS + SQUADS * CELLS;
pub(super) const IMPEDED_KEYS: usize = HP_KEYS + SQUADS * 7;
pub(super) const ACTED_KEYS: usize = IMPEDED_KEYS + SQUADS;
const TILE_KEYS: usize = ACTED_KEYS + SQUADS;
const BAG_KEYS: usize = TILE_KEYS + 3 * CELLS;
const SEIZE_KEYS: usize = BAG_KEYS + 3 * (TILES as usize + 1);
pub(super) const SEAT1_KEY: usize = SEIZE_KEYS + 2 * (SEIZE_WINS as usize + 1);
const PENDING_SQUAD_KEYS: usize = SEAT1_KEY + 1;
const PENDING_CELL_KEYS: usize = PENDING_SQUAD_KEYS + SQUADS;
pub(super) const CAPPED_KEY: usize = PENDING_CELL_KEYS + CELLS;
const KEY_COUNT: usize = CAPPED_KEY + 1;
pub(super) static KEYS: [u64; KEY_COUNT] = zobrist::keys(0x4E85_7A70);

#[inline]
pub(super) fn pos_key(sq: usize, cell: u8) -> u64 {
    KEYS[POS_KEYS + sq * CELLS + cell as usize]
}

#[inline]
pub(super) fn hp_key(sq: usize, hp: u8) -> u64 {
    KEYS[HP_KEYS + sq * 7 + hp as usize]
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
    KEYS[SEIZE_KEYS + seat * (SEIZE_WINS as usize + 1) + count as usize]
}

#[inline]
pub(super) fn pending_key(sq: u8, cell: u8) -> u64 {
    KEYS[PENDING_SQUAD_KEYS + sq as usize] ^ KEYS[PENDING_CELL_KEYS + cell as usize]
}
