//! 3Will notation, as the rules write it: faces `1`…`6`, throws `hit`/`miss`, steps
//! `c2-c3` (plain), `c2*c3` (stacking attempt, also `a4*h5` across a side edge) and
//! `a4~h5` (leap), `pass`, `free`, `done`, the challenge's `pick:e8` and its reveal
//! `stands` or `twin:c5`. A square names its top agent; `/2` appended names its held
//! agent (`pick:e8/2`, `twin:c5/2`).

use crate::game::{MoveError, State, Turn};

use super::board::{colour_of, locked};
use super::moves::{StepKind, ThreeWillMove};
use super::{Phase, ThreeWillState};

/// The name of square `sq` (`a1` … `h8`).
pub fn square(sq: u8) -> String {
    format!("{}{}", (b'a' + sq % 8) as char, sq / 8 + 1)
}

/// `sq`, with `/2` when it names the held agent.
pub fn agent(sq: u8, held: bool) -> String {
    if held {
        format!("{}/2", square(sq))
    } else {
        square(sq)
    }
}

/// Prints a move in notation.
pub fn format_move(m: ThreeWillMove) -> String {
    match m {
        ThreeWillMove::Face(f) => f.to_string(),
        ThreeWillMove::Hit => "hit".into(),
        ThreeWillMove::Miss => "miss".into(),
        ThreeWillMove::Pass => "pass".into(),
        ThreeWillMove::Free => "free".into(),
        ThreeWillMove::Done => "done".into(),
        ThreeWillMove::Stands => "stands".into(),
        ThreeWillMove::Pick { sq, held } => format!("pick:{}", agent(sq, held)),
        ThreeWillMove::Twin { sq, held } => format!("twin:{}", agent(sq, held)),
        ThreeWillMove::Step { from, to, kind } => {
            let sep = match kind {
                StepKind::Plain => '-',
                StepKind::Stack => '*',
                StepKind::Leap => '~',
            };
            format!("{}{sep}{}", square(from), square(to))
        }
    }
}

/// Reads a square name `a1` … `h8`.
fn read_square(text: &str) -> Option<u8> {
    let b = text.as_bytes();
    if b.len() != 2 || !(b'a'..=b'h').contains(&b[0]) || !(b'1'..=b'8').contains(&b[1]) {
        return None;
    }
    Some((b[1] - b'1') * 8 + (b[0] - b'a'))
}

/// Reads `e8` or `e8/2`.
fn read_agent(text: &str) -> Option<(u8, bool)> {
    match text.strip_suffix("/2") {
        Some(sq) => read_square(sq).map(|s| (s, true)),
        None => read_square(text).map(|s| (s, false)),
    }
}

const EXPECTED: &str = "expected a face 1..6, hit, miss, a step such as c2-c3, c2*c3 or a4~h5, \
pass, free, done, pick:<square>[/2], stands or twin:<square>[/2]";

/// Reads `text` as some move, before any check against the position.
fn read(text: &str) -> Result<ThreeWillMove, String> {
    let m = match text {
        "1" | "2" | "3" | "4" | "5" | "6" => ThreeWillMove::Face(text.as_bytes()[0] - b'0'),
        "hit" => ThreeWillMove::Hit,
        "miss" => ThreeWillMove::Miss,
        "pass" => ThreeWillMove::Pass,
        "free" => ThreeWillMove::Free,
        "done" => ThreeWillMove::Done,
        "stands" => ThreeWillMove::Stands,
        _ => {
            if let Some(rest) = text.strip_prefix("pick:") {
                let (sq, held) = read_agent(rest).ok_or_else(|| {
                    format!("{rest:?} is not a square a1..h8 (with /2 for a held agent)")
                })?;
                return Ok(ThreeWillMove::Pick { sq, held });
            }
            if let Some(rest) = text.strip_prefix("twin:") {
                let (sq, held) = read_agent(rest).ok_or_else(|| {
                    format!("{rest:?} is not a square a1..h8 (with /2 for a held agent)")
                })?;
                return Ok(ThreeWillMove::Twin { sq, held });
            }
            let Some(i) = text.find(['-', '*', '~']) else {
                return Err(EXPECTED.into());
            };
            let kind = match text.as_bytes()[i] {
                b'-' => StepKind::Plain,
                b'*' => StepKind::Stack,
                _ => StepKind::Leap,
            };
            let (a, b) = (&text[..i], &text[i + 1..]);
            let from = read_square(a).ok_or_else(|| format!("{a:?} is not a square a1..h8"))?;
            let to = read_square(b).ok_or_else(|| format!("{b:?} is not a square a1..h8"))?;
            ThreeWillMove::Step { from, to, kind }
        }
    };
    Ok(m)
}

/// Why the well-formed move `m` is not legal in `s` (which is not over).
fn why_illegal(s: &ThreeWillState, m: ThreeWillMove) -> String {
    let mover = s.mover();
    let side = s.side(mover);
    match (s.phase(), m) {
        (Phase::Roll { .. }, _) => format!("{side} is rolling: expected a face 1..6"),
        (Phase::Throw { .. }, _) => "a stacking throw is pending: expected hit or miss".into(),
        (Phase::Reveal { .. }, ThreeWillMove::Twin { .. }) => {
            "no challenger agent stands there: a twin is one of the challenger's agents".into()
        }
        (Phase::Reveal { .. }, _) => {
            "the challenge card is revealed: expected stands or twin:<square>".into()
        }
        (Phase::FreeChoice, _) => {
            format!("{side} decides after a plain move: expected free or done")
        }
        (Phase::Pick { .. }, ThreeWillMove::Pick { .. }) => {
            "that agent is not in the winning context of the declared victory".into()
        }
        (Phase::Pick { claimant, .. }, _) => format!(
            "{} declared victory: {} picks an agent, pick:<square>[/2]",
            s.side(claimant),
            s.side(1 - claimant)
        ),
        (Phase::Operate { .. }, ThreeWillMove::Pass) => {
            "pass is only allowed when no plain move exists".into()
        }
        (Phase::Operate { free_op, face }, ThreeWillMove::Step { from, kind, .. }) => {
            let c = colour_of(mover);
            let b = s.board();
            if b.top(from) != c || locked(c, from) {
                format!("no active {side} agent on {}", square(from))
            } else if kind == StepKind::Leap && !free_op {
                "a leap is only allowed in a Free operation".into()
            } else if kind == StepKind::Stack && !(s.dr_cards(mover) > 0 || s.bank() > 0) {
                format!(
                    "{side} cannot pay for a stacking attempt: no DR card and the bank is empty"
                )
            } else {
                format!(
                    "not a legal {} under directive {face}{}",
                    match kind {
                        StepKind::Plain => "plain move",
                        StepKind::Stack => "stacking attempt",
                        StepKind::Leap => "leap",
                    },
                    if free_op { " (Free operation)" } else { "" }
                )
            }
        }
        (Phase::Operate { face, .. }, _) => {
            format!("{side} operates under directive {face}: expected a step or pass")
        }
        (Phase::Over { .. }, _) => "the game is over".into(),
    }
}

/// Reads a move and checks that it is legal here, with the reason if it is not.
pub fn parse_move(s: &ThreeWillState, text: &str) -> Result<ThreeWillMove, MoveError> {
    let m = read(text).map_err(|reason| MoveError::new(text, reason))?;
    let legal = match s.turn() {
        Turn::Over => return Err(MoveError::new(text, "the game is over")),
        Turn::Chance => {
            let mut o = Vec::new();
            s.chance_outcomes(&mut o);
            o.iter().any(|&(x, _)| x == m)
        }
        Turn::Seat(_) => {
            let mut v = Vec::new();
            s.legal_moves(&mut v);
            v.contains(&m)
        }
    };
    if legal {
        Ok(m)
    } else {
        Err(MoveError::new(text, why_illegal(s, m)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::threewill::ThreeWill;
    use crate::Game;

    #[test]
    fn errors_say_what_is_wrong() {
        let mut s = ThreeWill::default().initial_state();
        let refusals = |s: &ThreeWillState, cases: &[(&str, &str)]| {
            for &(text, reason) in cases {
                assert_eq!(s.parse_move(text).unwrap_err().reason, reason, "{text}");
            }
        };
        refusals(
            &s,
            &[
                ("c2-c3", "white is rolling: expected a face 1..6"),
                ("7", EXPECTED),
                (
                    "pick:z9",
                    "\"z9\" is not a square a1..h8 (with /2 for a held agent)",
                ),
            ],
        );
        let m = s.parse_move("1").unwrap();
        s.apply(m);
        refusals(
            &s,
            &[
                ("c3-c4", "no active white agent on c3"),
                ("c2-d3", "not a legal plain move under directive 1"),
                ("pass", "pass is only allowed when no plain move exists"),
                ("a2~h3", "a leap is only allowed in a Free operation"),
                ("c2-c", "\"c\" is not a square a1..h8"),
            ],
        );
        let m = s.parse_move("c2-c3").unwrap();
        assert_eq!(format_move(m), "c2-c3");
    }
}
