//! What a network sees of a position: a game's encoding.
//!
//! An encoding has two parts, both seen from one seat (the *view*):
//!
//! - **Binary features** on a grid: each [`Plane`] says one thing about a cell ("one of
//!   my Triangles stands here", "this tile is revealed as forest"), and a feature is one
//!   plane at one cell, numbered `plane × cells + cell`. A position switches on few of
//!   them, so they are handed out sparse, as the sorted list of the active ones. Planes
//!   name owners relative to the view ("mine", "theirs"), so that one network serves
//!   both seats.
//! - **Scalars**: small whole numbers the rules need beside the board (a die, a score, a
//!   counter, the tiles left in a bag, whose turn it is), each between 0 and its
//!   declared maximum, so a reader can scale it to `0..=1` without knowing the game.
//!
//! The description ([`Encoding`]) is data: its planes and scalars with their meanings,
//! the grid's size, and an identifier that changes whenever the meaning of a feature
//! does, so that a network trained on one encoding is refused by another. The learned
//! evaluators read the sparse features through an accumulator updated move by move
//! ([`Encode::feature_changes`], the changes a move makes before it is made, in the
//! manner of NNUE's "dirty pieces"), and the Python bindings turn the same description
//! into dense tensors.
//!
//! An encoding shows only what a player may know: a game with hidden information
//! encodes what is public (Hexstrat's revealed tiles and the counts left in its bag,
//! never the bag's order). [`crate::testing::check_encoding`] checks the contract along
//! random games.

use crate::game::{Seat, State};

/// One plane of binary features: a statement about a cell of the grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plane {
    /// Short name, unique within the encoding (`my-triangle`).
    pub name: &'static str,
    /// What an active feature of this plane says, in a sentence.
    pub meaning: &'static str,
}

/// One scalar: a whole number from 0 to `max`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scalar {
    /// Short name, unique within the encoding (`my-score`).
    pub name: &'static str,
    /// What it counts, in a sentence.
    pub meaning: &'static str,
    /// Its largest value (its smallest is 0).
    pub max: i32,
}

/// The description of a game's encoding under its parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Encoding {
    /// Names the game, the encoding's version and every parameter that changes a
    /// feature's meaning or number (`connect4/1`, `invector/1:8x7`): equal identifiers,
    /// equal meanings.
    pub id: String,
    /// Rows of the grid each plane covers.
    pub rows: u32,
    /// Columns of the grid. A board that is not a rectangle (a hex board) is laid on the
    /// smallest grid that holds it; cells off the board are never active.
    pub cols: u32,
    /// The planes, in feature order.
    pub planes: Vec<Plane>,
    /// The scalars, in order.
    pub scalars: Vec<Scalar>,
}

impl Encoding {
    /// Cells of one plane: `rows × cols`.
    pub fn cells(&self) -> u32 {
        self.rows * self.cols
    }

    /// Binary features in all: `planes × cells`. Every feature index is below it.
    pub fn features(&self) -> u32 {
        self.planes.len() as u32 * self.cells()
    }

    /// The feature of `plane` (its index in [`Encoding::planes`]) at grid `row`, `col`.
    pub fn feature(&self, plane: usize, row: u32, col: u32) -> u32 {
        debug_assert!(plane < self.planes.len() && row < self.rows && col < self.cols);
        plane as u32 * self.cells() + row * self.cols + col
    }
}

/// The features a move switches off and on, for one view.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FeatureChanges {
    /// Features active before the move and not after.
    pub off: Vec<u32>,
    /// Features active after the move and not before.
    pub on: Vec<u32>,
}

impl FeatureChanges {
    /// Empties both lists, keeping their memory.
    pub fn clear(&mut self) {
        self.off.clear();
        self.on.clear();
    }
}

/// A game state a network can read: the capability of a game with an encoding.
///
/// Contract, checked by [`crate::testing::check_encoding`] along random games:
/// - [`Encode::encoding`] is the same at every state of a game;
/// - [`Encode::features`] appends distinct feature indices below
///   [`Encoding::features`], in increasing order, and the same for equal states;
/// - [`Encode::scalars`] appends one value per declared scalar, each within `0..=max`;
/// - [`Encode::feature_changes`], asked before a legal move or chance outcome is
///   applied, gives exactly the difference between the features before and after it:
///   `off` were active and are not, `on` were not and are, nothing else changed. Undoing
///   the move reverses it (`on` off again, `off` on again);
/// - only what a player may know is encoded.
pub trait Encode: State {
    /// The encoding's description under this game's parameters.
    fn encoding(&self) -> Encoding;

    /// Appends the active binary features as `view` sees the position, in increasing
    /// order.
    fn features(&self, view: Seat, out: &mut Vec<u32>);

    /// Appends the scalars as `view` sees the position, in declared order.
    fn scalars(&self, view: Seat, out: &mut Vec<i32>);

    /// Appends to `changes` the features that `m` (legal here) switches off and on for
    /// `view`, without applying it: worked out from what the move itself touches, so
    /// that a learned evaluator updates its accumulator by a few columns a move.
    fn feature_changes(&self, m: Self::Move, view: Seat, changes: &mut FeatureChanges);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features_are_numbered_plane_by_plane_row_by_row() {
        let p = Plane {
            name: "p",
            meaning: "",
        };
        let e = Encoding {
            id: "t/1".into(),
            rows: 2,
            cols: 3,
            planes: vec![p, p],
            scalars: vec![],
        };
        assert_eq!((e.cells(), e.features()), (6, 12));
        assert_eq!(e.feature(0, 0, 0), 0);
        assert_eq!(e.feature(0, 1, 2), 5);
        assert_eq!(e.feature(1, 0, 1), 7);
    }
}
