//! Hexstrat notation: `I:d3` (move or attack), `I:d6/R` (an attack naming its target,
//! only on a cell holding two or more enemy squads), `M:recover`, `end`, and the reveal
//! outcomes `plains`, `forest`, `mountain`.
//!
//! The squad letters are `I` (Infantry), `R` (Rocketeer) and `M` (Mech); the squad is
//! always the side to move's. Parsing reads the text, then checks it against the
//! position, so an error says either what is malformed or why the move is not legal.

use crate::game::MoveError;

use super::board::{cell_name, parse_cell};
use super::moves::{HexMove, Tile, Unit};
use super::HexstratState;

/// Prints a move in notation.
pub fn format_move(m: HexMove) -> String {
    match m {
        HexMove::End => "end".into(),
        HexMove::Reveal(t) => t.word().into(),
        HexMove::Recover(u) => format!("{}:recover", u.letter()),
        HexMove::Go { squad, to, target } => {
            let mut s = format!("{}:{}", squad.letter(), cell_name(usize::from(to)));
            if let Some(t) = target {
                s.push('/');
                s.push(t.letter());
            }
            s
        }
    }
}

/// The squad type written `letter`.
fn unit_of(letter: &str) -> Option<Unit> {
    Unit::ALL
        .into_iter()
        .find(|u| letter.len() == 1 && letter.starts_with(u.letter()))
}

/// Reads `text` as a move, without looking at the position.
fn read(text: &str) -> Result<HexMove, String> {
    if text == "end" {
        return Ok(HexMove::End);
    }
    if let Some(t) = Tile::ALL.into_iter().find(|t| t.word() == text) {
        return Ok(HexMove::Reveal(t));
    }
    let Some((letter, rest)) = text.split_once(':') else {
        return Err("expected a squad action (I:d3, I:d6/R, M:recover), end, \
                    or a reveal (plains, forest, mountain)"
            .into());
    };
    let squad = unit_of(letter)
        .ok_or_else(|| format!("{letter:?} is not a squad: expected I, R or M before ':'"))?;
    if rest == "recover" {
        return Ok(HexMove::Recover(squad));
    }
    let (cell, target) = match rest.split_once('/') {
        None => (rest, None),
        Some((cell, t)) => {
            let target = unit_of(t)
                .ok_or_else(|| format!("{t:?} is not a squad: expected I, R or M after '/'"))?;
            (cell, Some(target))
        }
    };
    let to = parse_cell(cell)? as u8;
    Ok(HexMove::Go { squad, to, target })
}

/// Reads a move and checks that it is legal here, with the reason if it is not.
pub fn parse_move(s: &HexstratState, text: &str) -> Result<HexMove, MoveError> {
    let m = read(text).map_err(|reason| MoveError::new(text, reason))?;
    match s.illegal_because(m) {
        None => Ok(m),
        Some(reason) => Err(MoveError::new(text, reason)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::hexstrat::Hexstrat;
    use crate::{Game, State};

    #[test]
    fn formats_and_reads_every_form() {
        let s = Hexstrat::default().initial_state();
        let m = s.parse_move("I:d3").unwrap();
        assert_eq!(format_move(m), "I:d3");
        assert_eq!(s.parse_move("end").unwrap(), HexMove::End);
        assert_eq!(format_move(HexMove::Reveal(Tile::Forest)), "forest");
        assert_eq!(format_move(HexMove::Recover(Unit::Mech)), "M:recover");
        let attack = HexMove::Go {
            squad: Unit::Infantry,
            to: super::super::board::HQ[1] as u8,
            target: Some(Unit::Rocketeer),
        };
        assert_eq!(format_move(attack), "I:d6/R");
        assert_eq!(read("I:d6/R"), Ok(attack));
    }

    #[test]
    fn malformed_texts_say_what_is_wrong() {
        let s = Hexstrat::default().initial_state();
        let reason = |t: &str| s.parse_move(t).unwrap_err().reason;
        assert!(reason("d3").starts_with("expected a squad action"));
        assert_eq!(
            reason("X:d3"),
            "\"X\" is not a squad: expected I, R or M before ':'"
        );
        assert_eq!(
            reason("I:d6/Q"),
            "\"Q\" is not a squad: expected I, R or M after '/'"
        );
        assert_eq!(reason("I:a1"), "cell a1 is not on the board");
        assert!(reason("I:").contains("is not a cell"));
        assert_eq!(
            reason("forest"),
            "no reveal is pending: seat 0 decides (a squad action or end)"
        );
    }
}
