//! Connect Four's picture: the upright 7 × 6 grid, red and yellow stones.

use std::fmt;

use crate::game::{Outcome, State, Turn};
use crate::picture::{
    text, Cell, CellShape, Depict, Ground, Ink, Key, Picture, Piece, PieceShape, Symbol,
};

use super::board::{COLUMNS, ROWS, STRIDE};
use super::{notation, Connect4State, SIDES};

/// Each seat's ink: red moves first.
const INKS: [Ink; 2] = [Ink::Red, Ink::Yellow];

impl fmt::Display for Connect4State {
    /// The position's picture drawn as text with its legend ([`text::display`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        text::display(&self.picture(), f)
    }
}

impl Depict for Connect4State {
    /// Cells column by column from `a1`, named as the notation names a column (`a`..`g`)
    /// followed by the row; a stone is a disc of its side's colour.
    fn picture(&self) -> Picture {
        let mut cells = Vec::with_capacity(COLUMNS * ROWS);
        let mut pieces = Vec::new();
        for column in 0..COLUMNS {
            for row in 0..ROWS {
                let bit = 1u64 << (column * STRIDE + row);
                let index = cells.len();
                cells.push(Cell {
                    x: column as f32,
                    y: row as f32,
                    shape: CellShape::Square,
                    name: format!("{}{}", notation::column_letter(column), row + 1),
                    ground: Ground::Plain,
                });
                for (seat, ink) in INKS.iter().enumerate() {
                    if self.stones[seat] & bit != 0 {
                        pieces.push(Piece::new(index, PieceShape::Disc, *ink));
                    }
                }
            }
        }
        let status = match self.turn() {
            Turn::Seat(s) => format!("{} (seat {s}) to drop a stone", SIDES[s]),
            _ => match self.outcome() {
                Some(Outcome::Win(s)) => format!("{} (seat {s}) wins: four in a row", SIDES[s]),
                _ => "draw: the board is full".to_string(),
            },
        };
        let legend = INKS
            .iter()
            .zip(SIDES)
            .enumerate()
            .map(|(seat, (&ink, side))| {
                let symbol = Symbol::Piece {
                    shape: PieceShape::Disc,
                    ink,
                    facing: false,
                };
                Key::new(symbol, format!("{side} stone (seat {seat})"))
            })
            .collect();
        Picture {
            cells,
            pieces,
            marks: Vec::new(),
            notes: vec![status],
            legend,
        }
    }
}
