//! Romgon's picture: the 51 cells in seven rows with row 0 at the top, the two bases
//! in their owners' colours, the Dead zone marked, each piece in its colour with its own
//! shape, and Triangles and Hexagons pointing along their facing or axis.

use std::fmt;

use crate::game::{End, EndReason, Outcome};
use crate::picture::{
    text, Cell, CellShape, Depict, Ground, Ink, Key, Picture, Piece, PieceShape, Symbol,
};

use super::board::{cell_name, row_col, Geometry, Zone, BLACK_BASE, CELLS, KINDS, WHITE_BASE};
use super::{Colour, Kind, RomgonState};

/// The height of a row of pointy-top hexagons 1 across their flats: √3 / 2.
const ROW_HEIGHT: f32 = 0.866_025_4;

/// The ground of the Dead zone, Romgon's only terrain: index 1, the renderer's fixed
/// palette's grey.
const DEAD: Ground = Ground::Terrain(1);

/// The colours, seat by seat: Black (seat 0) moves first.
const COLOURS: [Colour; 2] = [Colour::Black, Colour::White];

/// A colour's ink.
const fn ink(colour: Colour) -> Ink {
    match colour {
        Colour::Black => Ink::Black,
        Colour::White => Ink::White,
    }
}

/// Each type's outline is the shape it is named after; a Circle is a disc and a Rhombus
/// a diamond.
const fn shape(kind: Kind) -> PieceShape {
    match kind {
        Kind::Square => PieceShape::Square,
        Kind::Triangle => PieceShape::Triangle,
        Kind::Circle => PieceShape::Disc,
        Kind::Rhombus => PieceShape::Diamond,
        Kind::Hexagon => PieceShape::Hexagon,
    }
}

/// Direction `d` of the board (E, SE, SW, W, NW, NE: clockwise from east, rows counted
/// downwards) in degrees counter-clockwise from east.
const fn degrees(d: u8) -> u16 {
    (360 - 60 * d as u16) % 360
}

/// The cells in index order, row 0 at the top: cell `r-c` has its centre at
/// `x = (2c + |r − 3|) / 2 − 4`, `y = (3 − r) · √3 / 2`, so cells of one row are 1
/// apart and the rules' neighbours in the next row ±½ across and √3 / 2 up or down.
fn cells() -> Vec<Cell> {
    let geo = Geometry::get();
    (0..CELLS)
        .map(|p| {
            let (r, c) = row_col(p);
            let shift = (r as f32 - 3.0).abs();
            let ground = match p {
                WHITE_BASE => Ground::Zone(Ink::White),
                BLACK_BASE => Ground::Zone(Ink::Black),
                _ if geo.zone[p] == Zone::Dead => DEAD,
                _ => Ground::Plain,
            };
            Cell {
                x: (2.0 * c as f32 + shift) / 2.0 - 4.0,
                y: (3.0 - r as f32) * ROW_HEIGHT,
                shape: CellShape::HexPointy,
                name: cell_name(p),
                ground,
            }
        })
        .collect()
}

/// Every symbol a Romgon picture draws: each type of each colour, the two bases and the
/// Dead zone.
fn legend() -> Vec<Key> {
    let mut keys = Vec::new();
    for (seat, colour) in COLOURS.into_iter().enumerate() {
        let name = colour.name();
        for kind in KINDS {
            let oriented = kind.orientations() > 1;
            let how = match kind {
                Kind::Triangle => ", pointing where it faces",
                Kind::Hexagon => ", pointing along its axis",
                _ => "",
            };
            let meaning = format!("{name} {} (seat {seat}){how}", kind.name());
            keys.push(Key::piece(shape(kind), ink(colour), oriented, meaning));
        }
    }
    for colour in COLOURS {
        keys.push(Key::new(
            Symbol::Ground(Ground::Zone(ink(colour))),
            format!("{}'s base, {}'s goal", colour.name(), colour.other().name()),
        ));
    }
    keys.push(Key::new(
        Symbol::Ground(DEAD),
        "dead zone: circles never enter; a rhombus may step diagonally in and out",
    ));
    keys
}

/// The ordinal word of a shuttle limit (2..=9): "fifth" for the rulebook's 5.
fn ordinal(n: u8) -> &'static str {
    const WORDS: [&str; 8] = [
        "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
    ];
    WORDS[usize::from(n) - 2]
}

impl RomgonState {
    /// How the game ended, in words.
    fn end_note(&self, end: End) -> String {
        let Outcome::Win(w) = end.outcome else {
            return format!("draw: all {} actions played", self.rules.max_actions());
        };
        let (winner, loser) = (COLOURS[w], COLOURS[w].other());
        let why = match end.reason {
            EndReason::Rule("fortress") => {
                format!("its rhombus reached {}'s base", loser.name())
            }
            EndReason::Rule("capture") => format!("it captured {}'s rhombus", loser.name()),
            EndReason::Rule("deadlock") => format!(
                "{}'s rhombus is attacked and has no safe move (deadlock)",
                loser.name()
            ),
            EndReason::Rule("repetition") => format!(
                "{} made the same position a third time (repetition)",
                loser.name()
            ),
            EndReason::Rule("shuttle") => format!(
                "{} moved one piece type between the same two cells a {} time (shuttle)",
                loser.name(),
                ordinal(self.rules.shuttle_limit())
            ),
            EndReason::Rule("draglock") => {
                format!("{} has no legal action (draglock)", loser.name())
            }
            other => other.word().to_string(),
        };
        format!("{} (seat {w}) wins: {why}", winner.name())
    }

    /// Lines for the dangers a player watches: an attacked Rhombus, a position seen
    /// before, shuttle counters one move short of losing.
    fn warnings(&self) -> Vec<String> {
        let board = &self.core.board;
        let mut notes = Vec::new();
        for colour in COLOURS {
            if let Some(p) = board.rhombus(colour) {
                if board.attacked(self.geo, p, colour.other()) {
                    notes.push(format!(
                        "{}'s rhombus on {} is attacked",
                        colour.name(),
                        cell_name(p)
                    ));
                }
            }
        }
        let seen = self.occurrences();
        if seen > 1 {
            notes.push(format!(
                "this position has occurred {seen} times; a third time loses for the side that makes it"
            ));
        }
        let last = self.rules.shuttle_limit() - 1;
        for colour in COLOURS {
            for kind in KINDS {
                for a in 0..CELLS {
                    for b in a + 1..CELLS {
                        if self.shuttle_count(colour, kind, a, b) == Some(last) {
                            notes.push(format!(
                                "one more {} {} move between {} and {} loses (shuttle)",
                                colour.name(),
                                kind.name(),
                                cell_name(a),
                                cell_name(b)
                            ));
                        }
                    }
                }
            }
        }
        notes
    }
}

impl fmt::Display for RomgonState {
    /// The position's picture drawn as text with its legend ([`text::display`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        text::display(&self.picture(), f)
    }
}

impl Depict for RomgonState {
    /// Cells in index order (row by row from `0-0`); one piece per occupied cell, a
    /// Triangle facing its facing and a Hexagon the first direction of its axis; notes
    /// for the decision or the end, the dangers on the board and the action count.
    fn picture(&self) -> Picture {
        let board = &self.core.board;
        let pieces = (0..CELLS)
            .filter_map(|p| {
                let piece = board.piece(p)?;
                let drawn = Piece::new(p, shape(piece.kind), ink(piece.colour));
                Some(if piece.kind.orientations() > 1 {
                    drawn.facing(degrees(piece.orient))
                } else {
                    drawn
                })
            })
            .collect();
        let notes = match self.core.end {
            Some(end) => vec![self.end_note(end)],
            None => {
                let mover = self.core.to_move;
                let mut notes = vec![format!(
                    "{} (seat {}) to act: move a piece, or turn a triangle or hexagon in place",
                    mover.name(),
                    mover as usize
                )];
                notes.extend(self.warnings());
                notes.push(format!(
                    "action {} of {}",
                    self.core.ply + 1,
                    self.rules.max_actions()
                ));
                notes
            }
        };
        Picture {
            cells: cells(),
            pieces,
            marks: Vec::new(),
            notes,
            legend: legend(),
        }
    }
}
