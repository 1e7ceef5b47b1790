//! Pig notation: `roll` and `hold` for the decisions, the face's number (`1`…`6` on a
//! d6) for a chance outcome.
//!
//! OpenSpiel calls the second decision `stop` and prints a face as `Roll 4`; Agon prints
//! `hold` and `4` (a move never contains a space), and also reads `stop` as `hold`, so
//! that a line copied from OpenSpiel's decisions can be replayed. A face is written
//! without leading zeros.

use crate::game::{MoveError, State, Turn};

use super::moves::PigMove;
use super::PigState;

/// Prints a move in notation.
pub fn format_move(m: PigMove) -> String {
    match m {
        PigMove::Roll => "roll".into(),
        PigMove::Hold => "hold".into(),
        PigMove::Face(f) => f.to_string(),
    }
}

/// What `text` names, before any check against the position.
enum Parsed {
    Decision(PigMove),
    /// A number written without leading zeros (possibly 0 or too large a face).
    Number(u64),
}

/// Reads `text` as a decision or a number, or says what was expected.
fn read(text: &str, die: u32) -> Result<Parsed, MoveError> {
    match text {
        "roll" => return Ok(Parsed::Decision(PigMove::Roll)),
        "hold" | "stop" => return Ok(Parsed::Decision(PigMove::Hold)),
        _ => {}
    }
    let number = !text.is_empty()
        && text.bytes().all(|b| b.is_ascii_digit())
        && (text == "0" || !text.starts_with('0'));
    if number {
        // A number too long for u64 is certainly no face: read it as "too large".
        return Ok(Parsed::Number(text.parse().unwrap_or(u64::MAX)));
    }
    Err(MoveError::new(
        text,
        format!("expected roll, hold or a face of the die (1..{die})"),
    ))
}

/// Reads a move and checks that it is legal here, with the reason if it is not.
pub fn parse_move(s: &PigState, text: &str) -> Result<PigMove, MoveError> {
    let die = s.rules.die();
    let parsed = read(text, die)?;
    let err = |reason: String| MoveError::new(text, reason);
    match (s.turn(), parsed) {
        (Turn::Over, _) => Err(err("the game is over".into())),
        (Turn::Chance, Parsed::Decision(_)) => Err(err(format!(
            "seat {} has rolled and the die decides now: expected a face 1..{die}",
            s.mover
        ))),
        (Turn::Chance, Parsed::Number(f)) => {
            if (1..=u64::from(die)).contains(&f) {
                Ok(PigMove::Face(f as u8))
            } else {
                Err(err(format!("a {die}-sided die has faces 1..{die}")))
            }
        }
        (Turn::Seat(seat), Parsed::Number(_)) => Err(err(format!(
            "no roll is pending: seat {seat} decides roll or hold"
        ))),
        (Turn::Seat(_), Parsed::Decision(PigMove::Roll)) if s.must_hold() => Err(err(format!(
            "seat {} must hold: score {} plus turn total {} reaches the target {}",
            s.mover,
            s.scores[s.mover],
            s.turn_total,
            s.rules.target()
        ))),
        (Turn::Seat(_), Parsed::Decision(m)) => Ok(m),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::pig::Pig;
    use crate::Game;

    #[test]
    fn errors_say_what_is_wrong() {
        let mut s = Pig::default().initial_state();
        let reason = |s: &PigState, t: &str| s.parse_move(t).unwrap_err().reason;
        assert_eq!(
            reason(&s, "pass"),
            "expected roll, hold or a face of the die (1..6)"
        );
        assert_eq!(
            reason(&s, "4"),
            "no roll is pending: seat 0 decides roll or hold"
        );
        assert_eq!(s.parse_move("stop").unwrap(), PigMove::Hold);
        s.apply(PigMove::Roll);
        assert_eq!(reason(&s, "7"), "a 6-sided die has faces 1..6");
        assert_eq!(reason(&s, "0"), "a 6-sided die has faces 1..6");
        assert_eq!(
            reason(&s, "04"),
            "expected roll, hold or a face of the die (1..6)"
        );
        assert_eq!(
            reason(&s, "99999999999999999999999"),
            "a 6-sided die has faces 1..6"
        );
        assert_eq!(
            reason(&s, "hold"),
            "seat 0 has rolled and the die decides now: expected a face 1..6"
        );
        assert_eq!(s.parse_move("6").unwrap(), PigMove::Face(6));
        assert_eq!(format_move(PigMove::Face(6)), "6");
    }
}
