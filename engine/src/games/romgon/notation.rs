//! Romgon notation.
//!
//! - A move: `<P><from>><to>`, with `x` appended for a capture and, for a
//!   non-capturing triangle or hexagon move, `@<o>` with its final orientation:
//!   `t5-6>5-5@W`, `R3-0>3-2`, `C2-0>0-5x`.
//! - A rotation only: `<P><cell>@<o>`, e.g. `H4-0@SE`.
//!
//! `P` is `S T C R H`, upper case for White and lower case for Black; cells are
//! `row-column` from 0. A triangle faces `E SE SW W NW NE`; a hexagon's axis is written
//! by its first direction, `E` (E–W), `SE` (SE–NW) or `SW` (SW–NE). Parsing also reads
//! a triangle or hexagon move without `@` as keeping its orientation; printing always
//! writes it. Every refusal names the problem.

use crate::game::MoveError;

use super::board::{bit, cell, cell_name, Board, Colour, Kind, Piece, DIRECTION_NAMES, ROW_LEN};
use super::moves::{self, final_orientations, ActionKind, RomgonMove};
use super::RomgonState;

/// Hexagon axis names, index = axis.
const AXIS_NAMES: [&str; 3] = ["E", "SE", "SW"];

/// The letter of a piece: upper case White, lower case Black.
pub fn letter(colour: Colour, kind: Kind) -> char {
    match colour {
        Colour::White => kind.letter(),
        Colour::Black => kind.letter().to_ascii_lowercase(),
    }
}

/// The name of orientation `o` of a `kind` piece (empty for types without one, `?` for
/// a value the type does not have: a move value from another position may carry one).
pub fn orientation_name(kind: Kind, o: u8) -> &'static str {
    let names: &[&'static str] = match kind {
        Kind::Triangle => &DIRECTION_NAMES,
        Kind::Hexagon => &AXIS_NAMES,
        _ => return "",
    };
    names.get(usize::from(o)).copied().unwrap_or("?")
}

/// Prints an action of the side to move on `board`.
pub fn format_move(board: &Board, m: RomgonMove) -> String {
    let from = usize::from(m.from);
    let Some(piece) = board.piece(from) else {
        // Not an action of this position; print what can be said.
        return format!("?{}>{}", cell_name(from), cell_name(m.to.into()));
    };
    let l = letter(piece.colour, piece.kind);
    let o = orientation_name(piece.kind, m.orient);
    match m.kind {
        ActionKind::Rotate => format!("{l}{}@{o}", cell_name(from)),
        ActionKind::Capture => format!("{l}{}>{}x", cell_name(from), cell_name(m.to.into())),
        ActionKind::Move if o.is_empty() => {
            format!("{l}{}>{}", cell_name(from), cell_name(m.to.into()))
        }
        ActionKind::Move => format!("{l}{}>{}@{o}", cell_name(from), cell_name(m.to.into())),
    }
}

/// Reads a cell name `r-c`; the error says why it is not a cell.
fn parse_cell(text: &str) -> Result<usize, String> {
    let not_a_cell = || format!("{text:?} is not a cell (row-column, like 3-4)");
    let (r, c) = text.split_once('-').ok_or_else(not_a_cell)?;
    let number = |t: &str| -> Option<usize> {
        let canonical = !t.is_empty() && t.len() <= 2 && t.bytes().all(|b| b.is_ascii_digit());
        canonical
            .then(|| t.parse::<usize>().ok())
            .flatten()
            .filter(|n| n.to_string() == t)
    };
    let (Some(r), Some(c)) = (number(r), number(c)) else {
        return Err(not_a_cell());
    };
    if r >= 7 {
        return Err(format!("cell {text} is off the board: rows are 0 to 6"));
    }
    cell(r, c).ok_or_else(|| {
        format!(
            "cell {text} is off the board: row {r} has columns 0 to {}",
            ROW_LEN[r] - 1
        )
    })
}

/// Reads the piece letter at the start of `text`: its colour, type and the rest.
fn parse_letter(text: &str) -> Result<(Colour, Kind, &str), String> {
    let first = text.chars().next();
    match first.and_then(|ch| Kind::from_letter(ch).map(|k| (ch, k))) {
        Some((ch, kind)) => {
            let colour = if ch.is_ascii_uppercase() {
                Colour::White
            } else {
                Colour::Black
            };
            Ok((colour, kind, &text[ch.len_utf8()..]))
        }
        None => Err(
            "expected a piece letter first (S T C R H: upper case White, lower case Black), \
             as in t5-6>5-5@W, C2-0>0-5x or H4-0@SE"
                .into(),
        ),
    }
}

/// Reads the orientation name `text` of a `kind` piece.
fn parse_orientation(kind: Kind, text: &str) -> Result<u8, String> {
    let names: &[&str] = match kind {
        Kind::Triangle => &DIRECTION_NAMES,
        Kind::Hexagon => &AXIS_NAMES,
        _ => return Err(format!("a {} has no orientation: drop the @", kind.name())),
    };
    names
        .iter()
        .position(|&n| n == text)
        .map(|o| o as u8)
        .ok_or_else(|| {
            let what = if kind == Kind::Triangle {
                "triangle facing"
            } else {
                "hexagon axis"
            };
            format!("{text:?} is not a {what} (one of {})", names.join(" "))
        })
}

/// Reads one piece of a test-support setup, `<P><cell>[@<o>]` (see
/// [`super::Romgon::position`]).
pub fn parse_piece(token: &str) -> Result<(usize, Piece), String> {
    let err = |why: String| format!("{token}: {why}");
    let (colour, kind, rest) = parse_letter(token).map_err(err)?;
    let (at, orient) = match rest.split_once('@') {
        Some((at, o)) => (at, parse_orientation(kind, o).map_err(err)?),
        None => (rest, 0),
    };
    let p = parse_cell(at).map_err(err)?;
    Ok((
        p,
        Piece {
            colour,
            kind,
            orient,
        },
    ))
}

/// How a piece is described in an error: `black triangle`.
fn describe(piece: Piece) -> String {
    format!("{} {}", piece.colour.name(), piece.kind.name())
}

/// Reads an action and checks that it is legal for the side to move, with the reason
/// if not.
pub fn parse_move(s: &RomgonState, text: &str) -> Result<RomgonMove, MoveError> {
    let err = |reason: String| MoveError::new(text, reason);
    if s.core.end.is_some() {
        return Err(err("the game is over".into()));
    }
    let g = s.geo;
    let board = &s.core.board;
    let mover = s.core.to_move;
    let rotation = s.rules.rotation;

    let (colour, kind, rest) = parse_letter(text).map_err(err)?;
    let (body, orient_text) = match rest.split_once('@') {
        Some((b, o)) => (b, Some(o)),
        None => (rest, None),
    };
    let (from_text, to_text) = match body.split_once('>') {
        Some((f, t)) => (f, Some(t)),
        None => (body, None),
    };
    let from = parse_cell(from_text).map_err(err)?;
    let (to, capture_mark) = match to_text {
        Some(t) => match t.strip_suffix('x') {
            Some(t) => (Some(parse_cell(t).map_err(err)?), true),
            None => (Some(parse_cell(t).map_err(err)?), false),
        },
        None => (None, false),
    };
    let orient = orient_text
        .map(|o| parse_orientation(kind, o))
        .transpose()
        .map_err(err)?;
    if colour != mover {
        return Err(err(format!(
            "{} is a {} piece, but {} is to move",
            letter(colour, kind),
            colour.name(),
            mover.name()
        )));
    }
    let piece = match board.piece(from) {
        Some(p) if p.colour == colour && p.kind == kind => p,
        Some(p) => {
            return Err(err(format!(
                "{} holds a {}, not a {} {}",
                cell_name(from),
                describe(p),
                colour.name(),
                kind.name()
            )))
        }
        None => {
            return Err(err(format!(
                "{} is empty: no {} {} there",
                cell_name(from),
                colour.name(),
                kind.name()
            )))
        }
    };
    let home = board.rhombus(mover);
    let in_check = home.is_some_and(|h| board.attacked(g, h, mover.other()));
    let allowed = final_orientations(kind, piece.orient, rotation);
    let step_error = |o: u8| {
        let turns: Vec<&str> = (0..6u8)
            .filter(|&x| x != piece.orient && allowed & 1 << x != 0)
            .map(|x| orientation_name(kind, x))
            .collect();
        format!(
            "with rotation=step a triangle turns at most one step: from {} only to {} (not {})",
            orientation_name(kind, piece.orient),
            turns.join(" or "),
            orientation_name(kind, o)
        )
    };

    let m = match to {
        None => {
            // A rotation only.
            let Some(o) = orient else {
                return Err(err(
                    "expected > and a target cell for a move, or @ and an orientation for a rotation"
                        .into(),
                ));
            };
            if o == piece.orient {
                return Err(err(format!(
                    "a rotation must change the orientation: the {} on {} already has {}",
                    kind.name(),
                    cell_name(from),
                    orientation_name(kind, o)
                )));
            }
            if allowed & 1 << o == 0 {
                return Err(err(step_error(o)));
            }
            if in_check {
                return Err(err(format!(
                    "{}'s Rhombus on {} is attacked, and a rotation leaves it so",
                    mover.name(),
                    cell_name(home.expect("in check"))
                )));
            }
            RomgonMove::new(ActionKind::Rotate, from, from, o)
        }
        Some(to) => {
            if to == from {
                return Err(err("a move must leave its cell".into()));
            }
            let reach = moves::targets(g, board, mover, piece, from);
            let target = board.piece(to);
            if reach & bit(to) == 0 {
                return Err(err(not_a_target(s, piece, from, to, target)));
            }
            let is_capture = target.is_some();
            if is_capture && !capture_mark {
                return Err(err(format!(
                    "{} holds a {}: a capture is written with x, as in {}x",
                    cell_name(to),
                    describe(target.expect("a capture")),
                    text.split('@').next().unwrap_or(text)
                )));
            }
            if !is_capture && capture_mark {
                return Err(err(format!(
                    "{} is empty: x marks a capture only",
                    cell_name(to)
                )));
            }
            if is_capture && orient.is_some() {
                return Err(err(
                    "a capture keeps the orientation: no @ after a capture".into()
                ));
            }
            let o = orient.unwrap_or(piece.orient);
            if !is_capture && allowed & 1 << o == 0 {
                return Err(err(step_error(o)));
            }
            if !moves::safe_after(
                g,
                s.rules.move_rules(),
                board,
                mover,
                piece,
                from,
                to,
                in_check,
            ) {
                let reason = if kind == Kind::Rhombus && to == mover.goal() {
                    format!(
                        "under Shape Defence a Rhombus may not enter the enemy base {} while it is attacked",
                        cell_name(to)
                    )
                } else if kind == Kind::Rhombus {
                    format!(
                        "{}'s Rhombus would stand attacked on {}",
                        mover.name(),
                        cell_name(to)
                    )
                } else {
                    format!(
                        "{}'s Rhombus on {} would stand attacked after it",
                        mover.name(),
                        cell_name(home.expect("a Rhombus to attack"))
                    )
                };
                return Err(err(reason));
            }
            if is_capture {
                RomgonMove::new(ActionKind::Capture, from, to, 0)
            } else {
                RomgonMove::new(ActionKind::Move, from, to, o)
            }
        }
    };
    if s.is_legal(m) {
        Ok(m)
    } else {
        Err(err("not a legal action in this position".into()))
    }
}

/// Why `to` is not among the pattern targets of `piece` on `from`.
fn not_a_target(
    s: &RomgonState,
    piece: Piece,
    from: usize,
    to: usize,
    target: Option<Piece>,
) -> String {
    let g = s.geo;
    let (f, t) = (cell_name(from), cell_name(to));
    if let Some(p) = target.filter(|p| p.colour == piece.colour) {
        return format!("{t} holds a friendly {}", p.kind.name());
    }
    match piece.kind {
        Kind::Rhombus if g.rhombus[from] & bit(to) != 0 => {
            "a Rhombus never captures a Rhombus".into()
        }
        Kind::Rhombus if g.rhombus_diagonal[from] & bit(to) != 0 => {
            format!("a diagonal Rhombus move needs an empty cell, and {t} is occupied")
        }
        Kind::Circle if g.zone[to] == super::board::Zone::Dead => {
            "a circle never enters the dead zone".into()
        }
        Kind::Circle if g.zone[to] == g.zone[from] => {
            format!("the ring from {f} to {t} is blocked both ways round")
        }
        Kind::Circle if g.zone_change[from] & bit(to) != 0 => {
            format!("a circle changes zone onto an empty cell only, and {t} is occupied")
        }
        Kind::Triangle => format!(
            "{t} is not in front of the triangle on {f}, which faces {}",
            orientation_name(Kind::Triangle, piece.orient)
        ),
        Kind::Hexagon => format!(
            "{t} is not a target of the hexagon on {f}, whose axis is {}",
            orientation_name(Kind::Hexagon, piece.orient)
        ),
        kind => format!("{t} is not a {} move from {f}", kind.name()),
    }
}

#[cfg(test)]
mod tests {
    use crate::games::romgon::Romgon;
    use crate::{Game, State};

    #[test]
    fn the_spec_examples_print_and_parse() {
        let s = Romgon::default().initial_state();
        for text in ["t5-6>5-5@W", "s6-5>5-5", "h2-7@SE", "r3-8>3-6", "c4-7>3-7"] {
            let m = s.parse_move(text).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(s.format_move(m), text);
        }
        let m = s.parse_move("t5-6>5-5").unwrap();
        assert_eq!(s.format_move(m), "t5-6>5-5@W");
    }
}
