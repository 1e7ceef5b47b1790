//! Invector notation: `c3-c4` (step), `c3xd3` (capture), `pass`, `swap`.
//!
//! Columns are letters from `a`, rows numbers from `1` at the bottom. Parsing also
//! accepts `-` for a capture (`c3-d3` when d3 holds an enemy stone), so that every move
//! can be typed the same way; printing always writes `x` for a capture. With a `stride`
//! above 1 a step may name a pit further along its line (`c1-c3`).

use crate::game::{MoveError, State};

use super::board::Geometry;
use super::moves::{self, InvectorMove, MoveKind, SlideFault};
use super::InvectorState;

/// The name of a cell, e.g. `c3`.
pub fn cell_name(g: &Geometry, cell: usize) -> String {
    format!(
        "{}{}",
        (b'a' + (cell % g.width) as u8) as char,
        cell / g.width + 1
    )
}

/// Prints a move in notation.
pub fn format_move(g: &Geometry, m: InvectorMove) -> String {
    match m.kind {
        MoveKind::Pass => "pass".into(),
        MoveKind::Swap => "swap".into(),
        MoveKind::Capture => format!(
            "{}x{}",
            cell_name(g, m.from.into()),
            cell_name(g, m.to.into())
        ),
        MoveKind::Step => format!(
            "{}-{}",
            cell_name(g, m.from.into()),
            cell_name(g, m.to.into())
        ),
    }
}

/// Reads a cell name such as `c3`; the error says why it is not a cell of this board.
fn parse_cell(g: &Geometry, text: &str) -> Result<usize, String> {
    let mut chars = text.chars();
    let letter = chars.next().filter(|c| c.is_ascii_lowercase());
    let digits = chars.as_str();
    // A row number has no leading zero (`c03` is not `c3`); row `0` is read, and is off
    // the board.
    let well_formed = !digits.is_empty()
        && (digits == "0" || !digits.starts_with('0'))
        && digits.bytes().all(|b| b.is_ascii_digit());
    let (Some(letter), true) = (letter, well_formed) else {
        return Err(format!(
            "{text:?} is not a cell (a letter then a row number, like c3)"
        ));
    };
    let x = (letter as u8 - b'a') as usize;
    match digits.parse::<usize>() {
        Ok(row) if x < g.width && (1..=g.height).contains(&row) => Ok((row - 1) * g.width + x),
        _ => Err(format!(
            "cell {text} is off the {}x{} board",
            g.width, g.height
        )),
    }
}

/// Reads a move and checks that it is legal for the side to move, with a reason if not.
pub fn parse_move(s: &InvectorState, text: &str) -> Result<InvectorMove, MoveError> {
    let err = |reason: String| MoveError::new(text, reason);
    if s.winner.is_some() {
        return Err(err("the game is over".into()));
    }
    let g = s.geo;
    let mover = s.to_move;
    match text {
        "swap" => {
            return if s.swap_available() {
                Ok(InvectorMove::SWAP)
            } else if !s.pie {
                Err(err("the pie rule is off, so there is no swap".into()))
            } else {
                Err(err(
                    "swap is only allowed as White's first decision (the game's second)".into(),
                ))
            };
        }
        "pass" => {
            let mut moves = Vec::new();
            s.piece_moves(&mut moves);
            return if moves.is_empty() {
                Ok(InvectorMove::PASS)
            } else {
                Err(err(format!(
                    "{} has a capture or a step, so it may not pass",
                    mover.name()
                )))
            };
        }
        _ => {}
    }
    let Some(sep) = text.find(['-', 'x']) else {
        return Err(err(
            "expected a step like c3-c4, a capture like c3xd3, pass or swap".into(),
        ));
    };
    let (from, to) = (&text[..sep], &text[sep + 1..]);
    let from = parse_cell(g, from).map_err(err)?;
    let to = parse_cell(g, to).map_err(err)?;
    let (own, enemy) = (s.stones[mover as usize], s.stones[mover.other() as usize]);
    if own & 1u128 << from == 0 {
        return Err(err(format!(
            "{} holds no {} stone",
            cell_name(g, from),
            mover.name()
        )));
    }
    let capture = enemy & 1u128 << to != 0;
    let stride = s.knobs.stride;
    if g.neighbours[from] & 1u128 << to == 0 {
        // Only a step may go further than a neighbour, and only with a longer stride.
        let slide = moves::line(g, from, to).is_some_and(|(_, len)| len <= usize::from(stride));
        if stride == 1 || !slide {
            let within = if stride == 1 {
                String::new()
            } else {
                format!(" nor in line within {stride} pits of it")
            };
            return Err(err(format!(
                "{} is not orthogonally adjacent to {}{within}",
                cell_name(g, to),
                cell_name(g, from)
            )));
        }
        if capture {
            return Err(err(format!(
                "a capture takes an adjacent stone: {} is not adjacent to {}",
                cell_name(g, to),
                cell_name(g, from)
            )));
        }
    }
    if text.as_bytes()[sep] == b'x' && !capture {
        return Err(err(format!(
            "{} holds no {} stone to capture",
            cell_name(g, to),
            mover.other().name()
        )));
    }
    if capture {
        return Ok(InvectorMove::new(MoveKind::Capture, from, to));
    }
    if own & 1u128 << to != 0 {
        return Err(err(format!(
            "{} is occupied by a {} stone",
            cell_name(g, to),
            mover.name()
        )));
    }
    match moves::slide(g, from, to, s.empty(), stride) {
        Ok(()) => {}
        Err(SlideFault::Blocked(cell)) => {
            return Err(err(format!("{} blocks the step", cell_name(g, cell))));
        }
        Err(SlideFault::NotCloser(here, next)) => {
            return Err(err(format!(
                "a step must get closer to the centre: {} is at distance {}, {} at {}",
                cell_name(g, next),
                g.distance[next],
                cell_name(g, here),
                g.distance[here]
            )));
        }
        Err(fault @ (SlideFault::NotInLine | SlideFault::TooFar)) => {
            unreachable!("{fault:?}: the line was checked above")
        }
    }
    let m = InvectorMove::new(MoveKind::Step, from, to);
    debug_assert!({
        let mut v = Vec::new();
        s.legal_moves(&mut v);
        v.contains(&m)
    });
    Ok(m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::invector::Invector;
    use crate::Game;

    #[test]
    fn errors_say_what_is_wrong() {
        let s = Invector::new(5, 4, true).unwrap().initial_state();
        let reason = |t: &str| s.parse_move(t).unwrap_err().reason;
        assert_eq!(
            reason("c3"),
            "expected a step like c3-c4, a capture like c3xd3, pass or swap"
        );
        assert_eq!(reason("f1-e1"), "cell f1 is off the 5x4 board");
        assert_eq!(reason("a0-a1"), "cell a0 is off the 5x4 board");
        assert_eq!(
            reason("c03xd03"),
            "\"c03\" is not a cell (a letter then a row number, like c3)"
        );
        assert_eq!(
            reason("3c-c4"),
            "\"3c\" is not a cell (a letter then a row number, like c3)"
        );
        assert_eq!(reason("b1-c1"), "b1 holds no black stone");
        assert_eq!(reason("a1-c1"), "c1 is not orthogonally adjacent to a1");
        assert_eq!(reason("a1-b2"), "b2 is not orthogonally adjacent to a1");
        assert_eq!(
            reason("pass"),
            "black has a capture or a step, so it may not pass"
        );
        assert_eq!(
            reason("swap"),
            "swap is only allowed as White's first decision (the game's second)"
        );
        assert_eq!(
            s.parse_move("a1-b1").unwrap(),
            InvectorMove::new(MoveKind::Capture, 0, 1)
        );
        assert_eq!(s.format_move(s.parse_move("a1-b1").unwrap()), "a1xb1");
    }
}
