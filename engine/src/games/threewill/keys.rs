//! 3Will's Zobrist keys: one per (square, cell byte), then the seat to move, the
//! challenge flag, each seat's DR and Free counts (0..=8), the phase's parts, and last
//! the Free counts above 8 (only the card knobs make them possible; keeping them at the
//! end leaves every key of the rulebook game where it was).

use crate::game::{Outcome, Seat};
use crate::zobrist;

use super::{Knobs, Phase, MAX_CARDS};

/// The one key table, in the order of the offsets below.
pub(super) static KEYS: [u64; KEY_COUNT] = zobrist::keys(0x3_3111_D1CE);
const CELL_KEYS: usize = 0;
pub(super) const MOVER_KEY: usize = 64 * 16;
pub(super) const CHALLENGE_KEY: usize = MOVER_KEY + 1;
const DR_KEYS: usize = CHALLENGE_KEY + 1;
const FREE_KEYS: usize = DR_KEYS + 2 * LOW_COUNTS;
/// Phase kind (8, and 3 for a finished game: either winner or a draw), face or
/// claimant+free_due (8), source/picked square (128), target (64).
const PHASE_KIND_KEYS: usize = FREE_KEYS + 2 * LOW_COUNTS;
const PHASE_A_KEYS: usize = PHASE_KIND_KEYS + 11;
const PHASE_B_KEYS: usize = PHASE_A_KEYS + 8;
const PHASE_C_KEYS: usize = PHASE_B_KEYS + 128;
/// Free counts 9..=`MAX_CARDS` per seat. A seat's DR cards never exceed the 8 it may
/// be dealt (they only ever leave its hand), so DR counts need no more keys.
const HIGH_FREE_KEYS: usize = PHASE_C_KEYS + 64;
/// The counts each seat has keys for in the first tables.
const LOW_COUNTS: usize = 9;
const HIGH_COUNTS: usize = MAX_CARDS as usize + 1 - LOW_COUNTS;
const KEY_COUNT: usize = HIGH_FREE_KEYS + 2 * HIGH_COUNTS;

#[inline]
pub(super) fn cell_key(sq: u8, cell: u8) -> u64 {
    if cell == 0 {
        0
    } else {
        KEYS[CELL_KEYS + sq as usize * 16 + cell as usize]
    }
}

/// The key of `seat` holding `n` (0..=8) DR cards.
#[inline]
pub(super) fn dr_key(seat: Seat, n: u8) -> u64 {
    debug_assert!(n <= Knobs::MAX_DR_CARDS);
    KEYS[DR_KEYS + seat * LOW_COUNTS + n as usize]
}

/// The key of `seat` holding `n` (0..=`MAX_CARDS`) Free cards.
#[inline]
pub(super) fn free_key(seat: Seat, n: u8) -> u64 {
    let n = n as usize;
    if n < LOW_COUNTS {
        KEYS[FREE_KEYS + seat * LOW_COUNTS + n]
    } else {
        KEYS[HIGH_FREE_KEYS + seat * HIGH_COUNTS + n - LOW_COUNTS]
    }
}

/// The key of a phase (the directive and pending attempt or pick included).
pub(super) fn phase_key(p: Phase) -> u64 {
    let kind = |k: usize| KEYS[PHASE_KIND_KEYS + k];
    let a = |i: usize| KEYS[PHASE_A_KEYS + i];
    let b = |i: usize| KEYS[PHASE_B_KEYS + i];
    let c = |i: usize| KEYS[PHASE_C_KEYS + i];
    let ctx = |claimant: Seat, free_due: bool| a(claimant * 2 + usize::from(free_due));
    match p {
        Phase::Roll { free_op } => kind(usize::from(free_op)),
        Phase::Operate { free_op, face } => kind(2 + usize::from(free_op)) ^ a(face as usize),
        Phase::Throw { from, to } => kind(4) ^ b(from as usize) ^ c(to as usize),
        Phase::FreeChoice => kind(5),
        Phase::Pick { claimant, free_due } => kind(6) ^ ctx(claimant, free_due),
        Phase::Reveal {
            claimant,
            free_due,
            sq,
            held,
        } => kind(7) ^ ctx(claimant, free_due) ^ b(sq as usize * 2 + usize::from(held)),
        // Seat 0 won, seat 1 won, or a draw.
        Phase::Over { end } => kind(match end.outcome {
            Outcome::Win(w) => 8 + w,
            Outcome::Draw => 10,
        }),
    }
}
