//! Invector's picture: the rectangle of pits at its true size, black and white stones,
//! the two centre pits shaded.

use std::fmt;

use crate::game::State;
use crate::picture::{
    text, Cell, CellShape, Depict, Ground, Ink, Key, Picture, Piece, PieceShape, Symbol,
};

use super::{notation, Colour, InvectorMove, InvectorState};

/// The centre pits' ground: terrain 0, the only one the game has.
const CENTRE: Ground = Ground::Terrain(0);

/// The ink of a colour's stones (the stones keep their colour through a pie swap; the
/// seats change colour instead).
fn ink(colour: Colour) -> Ink {
    match colour {
        Colour::Black => Ink::Black,
        Colour::White => Ink::White,
    }
}

impl fmt::Display for InvectorState {
    /// The position's picture drawn as text with its legend ([`text::display`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        text::display(&self.picture(), f)
    }
}

impl Depict for InvectorState {
    /// Cells row by row from `a1` (cell `y * width + x`, as the engine numbers them),
    /// named as the notation names them; a stone is a disc in its colour's ink. The
    /// rules have no other per-cell fact, so nothing is labelled.
    fn picture(&self) -> Picture {
        let g = self.geometry();
        let mut cells = Vec::with_capacity(g.cells());
        let mut pieces = Vec::new();
        for p in 0..g.cells() {
            cells.push(Cell {
                x: (p % g.width) as f32,
                y: (p / g.width) as f32,
                shape: CellShape::Square,
                name: notation::cell_name(g, p),
                ground: if g.centre.contains(&p) {
                    CENTRE
                } else {
                    Ground::Plain
                },
            });
            for colour in [Colour::Black, Colour::White] {
                if self.stones(colour) & 1u128 << p != 0 {
                    pieces.push(Piece::new(p, PieceShape::Disc, ink(colour)));
                }
            }
        }
        Picture {
            cells,
            pieces,
            marks: Vec::new(),
            notes: self.notes(),
            legend: legend(self.pie),
        }
    }
}

impl InvectorState {
    /// `"black (seat 0)"`: a colour with the seat that plays it now.
    fn who(&self, colour: Colour) -> String {
        format!("{} (seat {})", colour.name(), self.seat_of(colour))
    }

    /// Each colour's seat and stones, then whose decision it is or how the game ended,
    /// whether the seats swapped, and the turned knobs that rule play.
    fn notes(&self) -> Vec<String> {
        let mut notes: Vec<String> = [Colour::Black, Colour::White]
            .into_iter()
            .map(|c| format!("stones of {}: {}", self.who(c), self.stones(c).count_ones()))
            .collect();
        let status = match self.winner {
            Some(winner) => {
                let colour = self.colour_of(winner);
                let left = match self.stones(colour.other()).count_ones() {
                    0 => "no stones".to_string(),
                    1 => "1 stone".to_string(),
                    n => format!("{n} stones"),
                };
                format!(
                    "{} wins: {} has {left} left",
                    self.who(colour),
                    colour.other().name()
                )
            }
            None => {
                let mover = self.who(self.colour_to_move());
                let mut moves = Vec::new();
                self.legal_moves(&mut moves);
                if self.swap_available() {
                    format!("{mover} to move, or to swap colours (pie rule)")
                } else if moves == [InvectorMove::PASS] {
                    format!("{mover} must pass: no capture and no step")
                } else {
                    format!("{mover} to move: capture, or step towards the centre")
                }
            }
        };
        notes.push(status);
        if self.swapped {
            notes.push("the seats swapped colours (pie rule)".to_string());
        }
        // The knobs that change the rules in play, once turned from the rulebook's.
        if self.knobs.lose_at > 0 {
            notes.push(format!(
                "a side left with {} stones or fewer loses",
                self.knobs.lose_at
            ));
        }
        if self.knobs.stride > 1 {
            notes.push(format!(
                "a step slides up to {} pits towards the centre",
                self.knobs.stride
            ));
        }
        notes
    }
}

/// Both colours' stones and the centre pits; the same for every position of a game
/// (`pie`: whether the rules offer the swap).
fn legend(pie: bool) -> Vec<Key> {
    let stone = |colour: Colour, meaning: &str| {
        let symbol = Symbol::Piece {
            shape: PieceShape::Disc,
            ink: ink(colour),
            facing: false,
        };
        Key::new(symbol, format!("{} stone {meaning}", colour.name()))
    };
    vec![
        stone(Colour::Black, "(moves first)"),
        stone(
            Colour::White,
            if pie {
                "(may swap colours on its first turn)"
            } else {
                "(moves second)"
            },
        ),
        Key::new(
            Symbol::Ground(CENTRE),
            "centre pit (steps lead towards the nearer one)",
        ),
    ]
}
