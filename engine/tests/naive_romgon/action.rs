//! An action of the naive Romgon and its notation.

use std::fmt;

use super::board::{name, AXES, FACINGS};
use super::{Cell, Colour, Kind, Piece};

/// One action.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NaiveMove {
    /// To an empty cell; `orient` for a triangle or hexagon.
    Move {
        /// Letter of the piece, as printed.
        letter: char,
        /// From.
        from: Cell,
        /// To.
        to: Cell,
        /// Final orientation of a triangle or hexagon, with its kind.
        orient: Option<(Kind, usize)>,
    },
    /// Onto an enemy piece.
    Capture {
        /// Letter of the piece, as printed.
        letter: char,
        /// From.
        from: Cell,
        /// To.
        to: Cell,
        /// Only with the `TurnAfterCapture` mutation: a new orientation.
        orient: Option<(Kind, usize)>,
    },
    /// Turning in place.
    Rotate {
        /// Letter.
        letter: char,
        /// Where.
        at: Cell,
        /// New orientation, with the kind.
        orient: (Kind, usize),
    },
}

pub(super) fn orient_name((kind, o): (Kind, usize)) -> &'static str {
    if kind == Kind::T {
        FACINGS[o]
    } else {
        AXES[o]
    }
}

impl fmt::Display for NaiveMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            NaiveMove::Move {
                letter,
                from,
                to,
                orient,
            } => {
                write!(f, "{letter}{}>{}", name(from), name(to))?;
                if let Some(o) = orient {
                    write!(f, "@{}", orient_name(o))?;
                }
                Ok(())
            }
            NaiveMove::Capture {
                letter,
                from,
                to,
                orient,
            } => {
                write!(f, "{letter}{}>{}x", name(from), name(to))?;
                if let Some(o) = orient {
                    write!(f, "@{}", orient_name(o))?;
                }
                Ok(())
            }
            NaiveMove::Rotate { letter, at, orient } => {
                write!(f, "{letter}{}@{}", name(at), orient_name(orient))
            }
        }
    }
}

pub(super) fn letter(p: Piece) -> char {
    let l = match p.kind {
        Kind::S => 'S',
        Kind::T => 'T',
        Kind::C => 'C',
        Kind::R => 'R',
        Kind::H => 'H',
    };
    if p.colour == Colour::Black {
        l.to_ascii_lowercase()
    } else {
        l
    }
}
