//! Romgon's Zobrist keys: pieces by cell and state, the side to move, the result and
//! the shuttle counters' values.

use super::board::{Kind, Piece, CELLS, SHUTTLE_PAIRS};
use super::MAX_SHUTTLE_LIMIT;
use crate::game::Outcome;
use crate::zobrist;

/// The Zobrist keys, all from one table: 51 cells × 24 piece states (per colour:
/// square, circle, rhombus, 6 triangle facings, 3 hexagon axes), then White to move,
/// then the three results (Black wins, White wins, draw), then the shuttle counters'
/// values 1..=5 for each of the `2 × SHUTTLE_PAIRS` counters, then their values 6 up to
/// the largest shuttle limit. The larger values come last so that the keys of the
/// rulebook's values (and so every pinned hash) stayed as they were when the limit was
/// fixed at 5.
const PIECE_STATES: usize = 24;
pub(super) const KEY_SIDE: usize = CELLS * PIECE_STATES;
const KEY_RESULT: usize = KEY_SIDE + 1;
const KEY_COUNTERS: usize = KEY_RESULT + 3;
/// Counter values with a key in the first block: 1..=5 (the rulebook's limit).
const COUNTER_VALUES: usize = 5;
/// The second block: values 6..=MAX_SHUTTLE_LIMIT, which only a raised limit reaches.
const KEY_HIGH_COUNTERS: usize = KEY_COUNTERS + 2 * SHUTTLE_PAIRS * COUNTER_VALUES;
const HIGH_VALUES: usize = MAX_SHUTTLE_LIMIT as usize - COUNTER_VALUES;
const N_KEYS: usize = KEY_HIGH_COUNTERS + 2 * SHUTTLE_PAIRS * HIGH_VALUES;
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

/// The key of counter `id` holding `value` (nothing for 0; `value` is at most
/// `MAX_SHUTTLE_LIMIT`, as the counter that reaches the limit ends the game).
#[inline]
pub(super) fn counter_key(id: usize, value: u8) -> u64 {
    let value = usize::from(value);
    if value == 0 {
        0
    } else if value <= COUNTER_VALUES {
        KEYS[KEY_COUNTERS + id * COUNTER_VALUES + value - 1]
    } else {
        KEYS[KEY_HIGH_COUNTERS + id * HIGH_VALUES + value - COUNTER_VALUES - 1]
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
