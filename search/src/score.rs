//! Search scores: integers from the side to move's view, with mate-distance values for
//! proven wins and losses.
//!
//! A heuristic score lies in `-EVAL_LIMIT..=EVAL_LIMIT` (evaluations are clamped into
//! it). A win `n` plies from the root scores `MATE - n`, a loss `-(MATE - n)`, so that
//! a faster win and a slower loss score higher; every such score has magnitude at least
//! [`MATE_MIN`], above every heuristic score. Scores fit in an `i16`, which is how the
//! transposition table stores them.
//!
//! Mate scores are relative to the root of a search. The table stores them relative to
//! the node instead ([`to_table`]), since the same position can be reached at other
//! plies, and [`from_table`] converts back on a probe.

use agon_engine::Outcome;

use crate::agent::Value;

/// The score of a win at the root itself (`0` plies away). Chosen below `i16::MAX`
/// (32,767) so that every score, plus the one-point margins the search adds, fits the
/// table's 16-bit value.
pub const MATE: i32 = 32_000;

/// Plies a search can look ahead: the size of its per-ply arrays. Depths are stored in
/// the table as a `u8`, so no search is deeper than 255 plies and every ply index is
/// below 256.
pub const MAX_PLY: usize = 256;

/// The smallest magnitude of a mate score: a win or loss found at the deepest ply.
pub const MATE_MIN: i32 = MATE - MAX_PLY as i32;

/// The largest magnitude of a heuristic score; evaluations are clamped to
/// `-EVAL_LIMIT..=EVAL_LIMIT` so that no heuristic score is mistaken for a mate.
pub const EVAL_LIMIT: i32 = MATE_MIN - 1;

/// A bound beyond every score, for the initial search window.
pub const INFINITY: i32 = MATE + 1;

/// Whether `score` is a proven win or loss.
#[inline]
pub const fn is_mate(score: i32) -> bool {
    score >= MATE_MIN || score <= -MATE_MIN
}

/// A heuristic evaluation clamped into the heuristic range.
#[inline]
pub fn clamp_eval(value: i32) -> i32 {
    value.clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

/// The score from `seat`'s view of a game that ended with `outcome`, `ply` plies from
/// the root.
#[inline]
pub fn terminal(outcome: Outcome, seat: agon_engine::Seat, ply: usize) -> i32 {
    match outcome.score(seat) {
        0 => 0,
        r if r > 0 => MATE - ply as i32,
        _ => -(MATE - ply as i32),
    }
}

/// The value reported at a finished game, from `seat`'s view: a win or loss in zero
/// plies, or a draw.
pub fn finished_value(outcome: Outcome, seat: agon_engine::Seat) -> Value {
    match outcome.score(seat) {
        0 => Value::Draw,
        r if r > 0 => Value::Win(0),
        _ => Value::Loss(0),
    }
}

/// A root-relative score `ply` plies from the root, made relative to that node for the
/// table. Heuristic scores are unchanged.
#[inline]
pub fn to_table(score: i32, ply: usize) -> i32 {
    if score >= MATE_MIN {
        score + ply as i32
    } else if score <= -MATE_MIN {
        score - ply as i32
    } else {
        score
    }
}

/// The inverse of [`to_table`]: a node-relative score read at `ply`, made relative to
/// the root.
#[inline]
pub fn from_table(score: i32, ply: usize) -> i32 {
    if score >= MATE_MIN {
        score - ply as i32
    } else if score <= -MATE_MIN {
        score + ply as i32
    } else {
        score
    }
}

/// The [`Value`] agents report for a root score. `proven` says that the score is exact
/// for the whole game (every leaf behind it was a finished game), which makes a zero a
/// proven draw; a mate score is a proven win or loss on its own.
pub fn value_of(score: i32, proven: bool) -> Value {
    if score >= MATE_MIN {
        Value::Win((MATE - score) as u32)
    } else if score <= -MATE_MIN {
        Value::Loss((MATE + score) as u32)
    } else if proven && score == 0 {
        Value::Draw
    } else {
        Value::Score(f64::from(score))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_round_trip_keeps_distances_relative_to_the_node() {
        // A win 7 plies from the root found at ply 3 is a win in 4 from that node.
        let root = MATE - 7;
        assert_eq!(to_table(root, 3), MATE - 4);
        assert_eq!(from_table(MATE - 4, 5), MATE - 9);
        for s in [
            -MATE + 2,
            -MATE_MIN,
            -5,
            0,
            17,
            EVAL_LIMIT,
            MATE_MIN,
            MATE - 1,
        ] {
            for ply in [0, 1, 9] {
                assert_eq!(from_table(to_table(s, ply), ply), s);
            }
        }
        assert!(i16::try_from(to_table(MATE - 1, 1)).is_ok());
    }

    #[test]
    fn values_say_what_is_proven() {
        assert_eq!(value_of(MATE - 5, false), Value::Win(5));
        assert_eq!(value_of(-(MATE - 4), false), Value::Loss(4));
        assert_eq!(value_of(0, true), Value::Draw);
        assert_eq!(value_of(0, false), Value::Score(0.0));
        assert_eq!(value_of(-12, true), Value::Score(-12.0));
        assert_eq!(clamp_eval(1_000_000), EVAL_LIMIT);
        assert!(!is_mate(EVAL_LIMIT) && is_mate(MATE_MIN));
    }
}
