//! Pig's picture: no board, so the table as the players see it, one row of four
//! places: each seat's banked score, the turn total at risk, and the die.

use std::fmt;

use crate::game::{Outcome, Seat, State, Turn};
use crate::picture::{
    text, Cell, CellShape, Depict, Ground, Ink, Key, Mark, Picture, Piece, PieceShape, Symbol,
};

use super::{PigMove, PigState};

/// Each seat's ink: red plays first, blue second.
const INKS: [Ink; 2] = [Ink::Red, Ink::Blue];
/// The places on the table, left to right: the seats' scores, the turn total, the die.
const PLACES: [&str; 4] = ["first", "second", "turn", "die"];
/// Index of the turn total's place.
const TURN: usize = 2;
/// Index of the die's place.
const DIE: usize = 3;

/// A number as a label of at most 3 characters: exact below 1000, else in thousands
/// (`1k`); the notes give every number exactly.
fn label(n: u32) -> String {
    if n < 1000 {
        n.to_string()
    } else {
        format!("{}k", n / 1000)
    }
}

impl fmt::Display for PigState {
    /// The position's picture drawn as text with its legend ([`text::display`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        text::display(&self.picture(), f)
    }
}

impl Depict for PigState {
    /// Four square places in a row (`first`, `second`, `turn`, `die`, the seats' side
    /// names first): a banked score is a square in its seat's ink labelled with the
    /// points, the turn total a disc in the mover's ink labelled with the points at
    /// risk, the die a die labelled with the face it shows (blank before the first
    /// roll, after a hold, and while it rolls, when a pending ring is round it).
    fn picture(&self) -> Picture {
        let cells = PLACES
            .iter()
            .enumerate()
            .map(|(i, name)| Cell {
                x: i as f32,
                y: 0.0,
                shape: CellShape::Square,
                name: name.to_string(),
                ground: Ground::Plain,
            })
            .collect();
        let mut pieces: Vec<Piece> = (0..2)
            .map(|seat| {
                Piece::new(seat, PieceShape::Square, INKS[seat]).labelled(label(self.score(seat)))
            })
            .collect();
        let over = self.turn() == Turn::Over;
        if !over {
            let total = Piece::new(TURN, PieceShape::Disc, INKS[self.mover()]);
            pieces.push(total.labelled(label(self.turn_total())));
        }
        let die = Piece::new(DIE, PieceShape::Die, Ink::Neutral);
        pieces.push(match self.die_shows {
            _ if self.rolling() => die,
            0 => die,
            face => die.labelled(face.to_string()),
        });
        let marks = if self.turn() == Turn::Chance {
            vec![Mark::Pending { cell: DIE }]
        } else {
            Vec::new()
        };
        Picture {
            cells,
            pieces,
            marks,
            notes: self.notes(),
            legend: legend(),
        }
    }

    /// `"rolled 5"`, and for a 1 what it costs: `"rolled 1: first loses the turn total
    /// of 7, and the turn passes"`.
    fn event(&self, m: PigMove) -> String {
        match m {
            PigMove::Face(1) => format!(
                "rolled 1: {} loses the turn total of {}, and the turn passes",
                self.side(self.mover()),
                self.turn_total()
            ),
            PigMove::Face(f) => format!(
                "rolled {f}: the turn total is {}",
                self.turn_total() + u32::from(f)
            ),
            _ => self.format_move(m),
        }
    }
}

impl PigState {
    /// `"first (seat 0)"`.
    fn who(&self, seat: Seat) -> String {
        format!("{} (seat {seat})", self.side(seat))
    }

    /// Each seat's score, the turn total, whose decision it is or how the game ended,
    /// and the target with the decisions made.
    fn notes(&self) -> Vec<String> {
        let rules = self.rules();
        let mut notes: Vec<String> = (0..2)
            .map(|s| format!("banked score of {}: {}", self.who(s), self.score(s)))
            .collect();
        let mover = self.who(self.mover());
        match (self.turn(), self.outcome()) {
            (Turn::Over, Some(Outcome::Win(w))) => notes.push(format!(
                "{} wins: a banked score of {} reaches the target",
                self.who(w),
                self.score(w)
            )),
            (Turn::Over, _) => notes.push(format!(
                "draw: {} decisions without reaching the target",
                rules.horizon()
            )),
            (turn, _) => {
                notes.push(format!(
                    "turn total of {mover}: {}, at risk",
                    self.turn_total()
                ));
                notes.push(match turn {
                    Turn::Chance => format!("the die is rolling for {mover}"),
                    _ if self.must_hold() => {
                        format!("{mover} must hold: holding reaches the target")
                    }
                    _ => format!("{mover} to roll or hold"),
                });
            }
        }
        notes.push(format!(
            "target score: {}; die: d{}; decisions made: {} of {}",
            rules.target(),
            rules.die(),
            self.decisions(),
            rules.horizon()
        ));
        notes
    }
}

/// The seats' scores and turn totals, the die and its ring; the same for every position.
fn legend() -> Vec<Key> {
    let seats = (0..2).flat_map(|seat| {
        let side = ["first", "second"][seat];
        [
            (
                PieceShape::Square,
                INKS[seat],
                format!("{side} player's banked score"),
            ),
            (
                PieceShape::Disc,
                INKS[seat],
                format!("{side} player's turn total, at risk"),
            ),
        ]
        .map(|(shape, ink, what)| (shape, ink, format!("{what} (seat {seat})")))
    });
    let die = (
        PieceShape::Die,
        Ink::Neutral,
        "the die, showing the last roll".to_string(),
    );
    seats
        .chain([die])
        .map(|(shape, ink, meaning)| {
            let facing = false;
            Key::new(Symbol::Piece { shape, ink, facing }, meaning)
        })
        .chain([Key::new(Symbol::Pending, "the die is rolling")])
        .collect()
}
