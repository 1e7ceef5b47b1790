//! APV notation: `d8-a8` (a primary move), `order:d7-d5` (a future order), `no-order`.
//!
//! Cells are a letter `a`–`i` for `q` and a digit `1`–`9` for `r`. Reading ignores case
//! and surrounding spaces; anything that is not a legal decision now is refused with the
//! reason (wrong phase, off the board, not one's own unit, not how that unit moves, a
//! blocked slide, an occupied destination, the unit that just moved, Limited Orders, an
//! order that still waits).

use crate::bits::Cells;
use crate::game::MoveError;

use super::board::{cell_name, GEO};
use super::moves::{ApvMove, MoveKind, Unit};
use super::{ApvState, SIDES};

/// Prints a decision.
pub fn format_move(m: ApvMove) -> String {
    let pair = || format!("{}-{}", cell_name(m.from.into()), cell_name(m.to.into()));
    match m.kind {
        MoveKind::Primary => pair(),
        MoveKind::Order => format!("order:{}", pair()),
        MoveKind::NoOrder => "no-order".into(),
    }
}

/// Reads a cell name (already lower case); the error says why it is not a cell.
fn parse_cell(text: &str) -> Result<usize, String> {
    let b = text.as_bytes();
    if b.len() != 2 || !(b'a'..=b'i').contains(&b[0]) || !(b'1'..=b'9').contains(&b[1]) {
        return Err(format!(
            "{text:?} is not a cell (a letter a-i then a digit 1-9, like e9)"
        ));
    }
    let (q, r) = (
        i32::from(b[0]) - i32::from(b'e'),
        i32::from(b[1]) - i32::from(b'5'),
    );
    GEO.cell(q, r)
        .ok_or_else(|| format!("{text} is off the board (the hexagon has no such corner cell)"))
}

/// Why `unit` on `from` cannot move to `to` (both cells on the board), or `None` if it
/// can.
fn why_not(s: &ApvState, unit: Unit, from: usize, to: usize) -> Option<String> {
    let (f, t) = (cell_name(from), cell_name(to));
    if from == to {
        return Some(format!("{f}-{t} does not move the unit"));
    }
    let shape = match unit {
        Unit::Pivot => GEO.neighbours[from],
        Unit::Axis => GEO.line(from, to).map_or(0, |_| 1 << to),
        Unit::Veil => GEO.veil[from],
        Unit::Turned => GEO.turned[from],
    };
    if shape & 1 << to == 0 {
        let how = match unit {
            Unit::Pivot => "a Pivot steps to one of its six neighbours",
            Unit::Axis => "an Axis slides along one of the six directions",
            Unit::Veil => "a Veil jumps exactly two cells along one of the six directions",
            Unit::Turned => {
                "a Turned Veil jumps to one of its six diagonal cells (like e7 to g6 or d6)"
            }
        };
        return Some(format!("{how}, and {t} is not one of those from {f}"));
    }
    let occupied = s.occupied();
    if occupied & 1 << to != 0 {
        let owner = if s.side_units(0) & 1 << to != 0 { 0 } else { 1 };
        return Some(format!("{t} is occupied by a {} unit", SIDES[owner]));
    }
    if unit == Unit::Axis {
        let (_, between) = GEO.line(from, to).expect("checked above");
        if let Some(block) = Cells(between & occupied).next() {
            return Some(format!(
                "the Axis's path from {f} to {t} is blocked at {}",
                cell_name(block)
            ));
        }
    }
    None
}

/// Reads a decision and checks that it is legal for the side to move, with a reason if
/// not.
pub fn parse_move(s: &ApvState, text: &str) -> Result<ApvMove, MoveError> {
    let err = |reason: String| MoveError::new(text, reason);
    if s.end.is_some() {
        return Err(err("the game is over".into()));
    }
    let side = s.to_move;
    let lower = text.trim().to_ascii_lowercase();
    let ordering = s.just_moved();
    if lower == "no-order" {
        return match ordering {
            Some(_) => Ok(ApvMove::NO_ORDER),
            None => Err(err(format!(
                "{} must make its primary move first (like d8-a8); the order decision comes after it",
                SIDES[side]
            ))),
        };
    }
    let (kind, pair) = match lower.strip_prefix("order:") {
        Some(pair) => (MoveKind::Order, pair),
        None => (MoveKind::Primary, lower.as_str()),
    };
    let Some((from, to)) = pair.split_once('-') else {
        return Err(err(
            "expected a primary move like d8-a8, an order like order:d7-d5, or no-order".into(),
        ));
    };
    let from = parse_cell(from).map_err(err)?;
    let to = parse_cell(to).map_err(err)?;
    match (kind, ordering) {
        (MoveKind::Order, None) => {
            return Err(err(format!(
                "{} must make its primary move first; an order is issued after it",
                SIDES[side]
            )))
        }
        (MoveKind::Primary, Some(_)) => {
            return Err(err(format!(
            "{} has made its primary move; now it decides its order: order:<from>-<to> or no-order",
            SIDES[side]
        )))
        }
        _ => {}
    }
    if let (MoveKind::Order, Some(o)) = (kind, s.order(side)) {
        return Err(err(format!(
            "{}'s order {}-{} still waits, and a side has one pending order at most, so \
             no-order is its only choice",
            SIDES[side],
            cell_name(o.from.into()),
            cell_name(o.to.into())
        )));
    }
    if kind == MoveKind::Order && !s.may_issue_order() {
        return Err(err(format!(
            "limited orders: {} issued an order in its previous turn, so no-order is its only choice",
            SIDES[side]
        )));
    }
    let Some(unit) = s.unit_at(side, from) else {
        return Err(err(if s.unit_at(1 - side, from).is_some() {
            format!(
                "{} holds a {} unit, not a {} one",
                cell_name(from),
                SIDES[1 - side],
                SIDES[side]
            )
        } else {
            format!("{} is empty", cell_name(from))
        }));
    };
    if kind == MoveKind::Order && ordering == Some(from) {
        return Err(err(format!(
            "the {} on {} just made the primary move; an order must name another unit",
            unit.name(),
            cell_name(from)
        )));
    }
    if let Some(reason) = why_not(s, unit, from, to) {
        return Err(err(reason));
    }
    let m = ApvMove::new(kind, from, to);
    debug_assert!(s.is_legal(m), "{m:?}");
    Ok(m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::apv::Apv;
    use crate::{Game, State};

    #[test]
    fn errors_say_what_is_wrong() {
        let s = Apv::default().initial_state();
        let reason = |t: &str| s.parse_move(t).unwrap_err().reason;
        assert_eq!(
            reason("d8"),
            "expected a primary move like d8-a8, an order like order:d7-d5, or no-order"
        );
        assert_eq!(
            reason("a1-a2"),
            "a1 is off the board (the hexagon has no such corner cell)"
        );
        assert_eq!(
            reason("j1-a2"),
            "\"j1\" is not a cell (a letter a-i then a digit 1-9, like e9)"
        );
        assert_eq!(reason("d5-d4"), "d5 is empty");
        assert_eq!(reason("d2-d4"), "d2 holds a south unit, not a north one");
        assert_eq!(reason("e8-e7"), "a Turned Veil jumps to one of its six diagonal cells (like e7 to g6 or d6), and e7 is not one of those from e8");
        assert_eq!(
            reason("d8-d6"),
            "the Axis's path from d8 to d6 is blocked at d7"
        );
        assert_eq!(reason("e9-e8"), "e8 is occupied by a north unit");
        assert!(reason("order:d7-d5").contains("primary move first"));
        assert!(reason("no-order").contains("primary move first"));
        assert_eq!(
            s.parse_move("  D8-A8 ").unwrap(),
            ApvMove::new(
                MoveKind::Primary,
                GEO.cell(-1, 3).unwrap(),
                GEO.cell(-4, 3).unwrap()
            )
        );
        assert_eq!(s.format_move(s.parse_move("D8-a8").unwrap()), "d8-a8");
    }
}
