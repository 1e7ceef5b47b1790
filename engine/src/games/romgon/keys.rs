//! Romgon's Zobrist keys: pieces by cell and state, the side to move, the result and
//! the shuttle counters' values.

use super::board::{Kind, Piece, CELLS, SHUTTLE_PAIRS};
use crate::game::Outcome;
use crate::zobrist;

/// The Zobrist keys, all from one table: 51 cells × 24 piece states (per colour:
/// square, circle, rhombus, 6 triangle facings, 3 hexagon axes), then White to move,
/// then the three results (Black wins, White wins, draw), then the shuttle counters'
/// values 1..=5 for each of the `2 × SHUTTLE_PAIRS` counters.
const PIECE_STATES: usize = 24;
pub(super) const KEY_SIDE: usize = CELLS * PIECE_STATES;
const KEY_RESULT: usize = KEY_SIDE + 1;
const KEY_COUNTERS: usize = KEY_RESULT + 3;
/// Counter values with a key: 1..=5 (5 ends the game).
const COUNTER_VALUES: usize = 5;
const N_KEYS: usize = KEY_COUNTERS + 2 * SHUTTLE_PAIRS * COUNTER_VALUES;
pub(super) static KEYS: [u64; N_KEYS] = zobrist::keys(0x0520_6607);

/// The key of `piece` on `p`.
#[inline]
pub(super) fn piece_key(p: usize, piece: Piece) -> u64 {
    let state = match piece.kind {
        Kind::Square => 0,
        Kind::Circle => 1,
        Kind::Rhombus => 2,
        Kind::Triangle => 3 + usize::from(piece.orient),
        Kind::Hexagon => 9 + usize::from(piece.orient),
    };
    KEYS[p * PIECE_STATES + piece.colour as usize * 12 + state]
}

/// The key of counter `id` holding `value` (nothing for 0).
#[inline]
pub(super) fn counter_key(id: usize, value: u8) -> u64 {
    if value == 0 {
        0
    } else {
        KEYS[KEY_COUNTERS + id * COUNTER_VALUES + usize::from(value) - 1]
    }
}

/// The key of a finished game's result.
#[inline]
pub(super) fn result_key(result: Option<Outcome>) -> u64 {
    match result {
        None => 0,
        Some(Outcome::Win(w)) => KEYS[KEY_RESULT + w],
        Some(Outcome::Draw) => KEYS[KEY_RESULT + 2],
    }
}
