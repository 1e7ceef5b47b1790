//! APV's picture: the hexagon of 61 cells with North's home (row 9) at the top, each
//! side's units (seven in the rulebook) in its own ink and one shape per unit type, and the pending future
//! orders as arrows.

use std::fmt;

use crate::game::Seat;
use crate::picture::{
    text, Cell, CellShape, Depict, Ground, Ink, Key, Mark, Picture, Piece, PieceShape, Symbol,
};

use super::board::{cell_name, CELLS, GEO};
use super::{ApvMove, ApvState, Finish, Unit, SIDES};

/// Each side's ink: North (seat 0) moves first, as White does.
const INKS: [Ink; 2] = [Ink::White, Ink::Black];

/// The height of a row of pointy-top hexagons 1 across their flats: √3 / 2.
const ROW_HEIGHT: f32 = 0.866_025_4;

/// The outline of each unit type: the Pivot (the unit to protect) a star, the sliding
/// Axis a disc, the Veil a square and the Turned Veil the same square turned, a diamond.
const fn shape(unit: Unit) -> PieceShape {
    match unit {
        Unit::Pivot => PieceShape::Star,
        Unit::Axis => PieceShape::Disc,
        Unit::Veil => PieceShape::Square,
        Unit::Turned => PieceShape::Diamond,
    }
}

/// The cells in index order, named as the notation names them. Axial `(q, r)` has its
/// centre at `x = q + r / 2`, `y = r · √3 / 2`: rows of constant `r` run left to right,
/// row 1 (`r` = −4, South's home) at the bottom, so the six neighbours of a cell are
/// exactly the six cells whose centres lie 1 away.
fn cells() -> Vec<Cell> {
    (0..CELLS)
        .map(|c| {
            let (q, r) = (f32::from(GEO.q[c]), f32::from(GEO.r[c]));
            Cell {
                x: q + r / 2.0,
                y: r * ROW_HEIGHT,
                shape: CellShape::HexPointy,
                name: cell_name(c),
                ground: Ground::Plain,
            }
        })
        .collect()
}

/// Every symbol an APV picture of these rules can draw: each unit type of each side,
/// and each side's order arrow when orders exist (`delay` being the `order_delay`).
fn legend(orders: bool, delay: u8) -> Vec<Key> {
    let mut keys = Vec::new();
    for (seat, (&ink, side)) in INKS.iter().zip(SIDES).enumerate() {
        for unit in Unit::ALL {
            let meaning = format!("{side} {} (seat {seat})", unit.name());
            keys.push(Key::piece(shape(unit), ink, false, meaning));
        }
    }
    if orders {
        for (&ink, side) in INKS.iter().zip(SIDES) {
            let when = if delay == 1 {
                "at the start of its next turn"
            } else {
                "when its wait runs out (see the notes)"
            };
            keys.push(Key::new(
                Symbol::Arrow(ink),
                format!("{side}'s pending order: fires {when}"),
            ));
        }
    }
    keys
}

impl ApvState {
    /// The line saying whose decision it is and of what kind, or how the game ended.
    fn status_note(&self) -> String {
        let side = |s: Seat| format!("{} (seat {s})", SIDES[s]);
        let mover = side(self.to_move);
        match (self.end, self.just_moved()) {
            (Some(Finish::Win(w)), _) => {
                format!("{} wins: {}'s Pivot is shut in", side(w), SIDES[1 - w])
            }
            (Some(Finish::BothImmobilised), _) => {
                "draw: both Pivots were shut in at once".to_string()
            }
            (Some(Finish::Cap), _) => format!("draw: all {} turns played", self.turns),
            (None, None) => format!("{mover} to make its primary move"),
            (None, Some(_)) if !self.may_issue_order() => {
                format!("{mover} to decide its order: no-order is its only choice")
            }
            (None, Some(moved)) => format!(
                "{mover} to issue an order or no-order (not for the unit on {}, which just moved)",
                cell_name(moved)
            ),
        }
    }

    /// Under Limited Orders, while the game goes on, whether Limited Orders lets the
    /// side to move issue an order this turn: it does not when the side issued one in
    /// its previous turn.
    fn limited_orders_note(&self) -> Option<String> {
        if !self.rules.limited_orders || self.end.is_some() {
            return None;
        }
        let side = SIDES[self.to_move];
        Some(if !self.issued[self.to_move] {
            format!("limited orders: {side} may issue an order this turn")
        } else {
            format!(
                "limited orders: {side} may not issue an order this turn, as it issued one in \
                 its previous turn"
            )
        })
    }
}

impl fmt::Display for ApvState {
    /// The position's picture drawn as text with its legend ([`text::display`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        text::display(&self.picture(), f)
    }
}

impl Depict for ApvState {
    /// Cells in index order (row 1 to row 9, `q` ascending); one piece per unit; while
    /// the game goes on, an arrow per pending order (an order left when the game ends
    /// never fires, so it is neither drawn nor listed); notes for the decision, the
    /// orders, whether Limited Orders let the side to move order, and the turn count.
    fn picture(&self) -> Picture {
        let mut pieces = Vec::new();
        for (seat, &ink) in INKS.iter().enumerate() {
            for cell in 0..CELLS {
                if let Some(unit) = self.unit_at(seat, cell) {
                    pieces.push(Piece::new(cell, shape(unit), ink));
                }
            }
        }
        let mut marks = Vec::new();
        let mut notes = vec![self.status_note()];
        for (seat, &ink) in INKS.iter().enumerate() {
            if let Some(order) = self.order(seat).filter(|_| self.end.is_none()) {
                let (from, to) = (usize::from(order.from), usize::from(order.to));
                marks.push(Mark::Arrow { from, to, ink });
                let turn = match self.order_wait(seat) {
                    1 => "next turn",
                    2 => "second turn from now",
                    // MAX_ORDER_DELAY is 3.
                    _ => "third turn from now",
                };
                notes.push(format!(
                    "{} has ordered {}-{}: it fires at the start of {}'s {turn}",
                    SIDES[seat],
                    cell_name(from),
                    cell_name(to),
                    SIDES[seat]
                ));
            }
        }
        notes.extend(self.limited_orders_note());
        if self.end.is_none() {
            notes.push(format!(
                "turn {} of {}",
                self.turns + 1,
                self.rules.max_turns()
            ));
        }
        Picture {
            cells: cells(),
            pieces,
            marks,
            notes,
            legend: legend(self.rules.orders(), self.rules.knobs().order_delay),
        }
    }

    /// The other side's pending order, when the decision `m` passes the turn to it: it
    /// fires (`south's order d3-d5 fires: its Veil moves to d5`) or fizzles, with the
    /// reason (`d5 is taken`, or an Axis's blocked path). Nothing when the turn does not
    /// pass, or the game ends first (the order then never fires).
    fn aftermath(&self, _m: ApvMove, next: &Self) -> Option<String> {
        let side = 1 - self.to_move;
        let order = self.order(side)?;
        if next.order(side) == Some(order) {
            return None;
        }
        let (from, to) = (usize::from(order.from), usize::from(order.to));
        let unit = self
            .unit_at(side, from)
            .expect("an ordered unit stays put until its order fires");
        let named = format!(
            "{}'s order {}-{}",
            SIDES[side],
            cell_name(from),
            cell_name(to)
        );
        Some(if next.unit_at(side, from).is_none() {
            format!(
                "{named} fires: its {} moves to {}",
                unit.name(),
                cell_name(to)
            )
        } else if next.occupied() & 1 << to != 0 {
            format!(
                "{named} fizzles: {} is taken, so nothing moves",
                cell_name(to)
            )
        } else {
            format!(
                "{named} fizzles: the {}'s path is blocked, so nothing moves",
                unit.name()
            )
        })
    }
}
