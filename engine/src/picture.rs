//! Pictures of positions: what a position looks like, as plain data.
//!
//! A game describes one position as a [`Picture`]: the board's cells (where each is, its
//! shape, its coordinate, its ground), the pieces on them, marks (a pending order, a tile
//! about to be revealed) and lines of text for what a board cannot show (cards in hand,
//! the dice, whose decision it is). The picture is the one description of how a position
//! looks: [`text`] draws any game's picture as text (every game's `Display` is that
//! drawing) and the CLI draws it as SVG, so every game is drawn by the same code and a new
//! game only says what is where.
//!
//! Geometry is in board units with `y` pointing **up** (row 1 at the bottom, as the
//! rulebooks draw boards): a square cell is 1 wide; a hexagon is 1 across its flats, so
//! neighbouring hexagons' centres are 1 apart. The renderer scales, flips and frames.

use crate::game::State;

pub mod text;

/// A position as plain data; see the [module documentation](self).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Picture {
    /// The board's cells. Their order, places, shapes and names depend only on the game's
    /// parameters, never on the position, so pictures of one game line up cell by cell.
    pub cells: Vec<Cell>,
    /// The pieces, bottom of a stack first; several pieces on one cell form a stack.
    pub pieces: Vec<Piece>,
    /// Marks drawn over the board.
    pub marks: Vec<Mark>,
    /// Lines of text under the board: hands, dice, scores, whose decision it is, pending
    /// chance. One fact per line, in words a player uses.
    pub notes: Vec<String>,
    /// Every symbol the game can draw, with its meaning. The same for every position of a
    /// game, so a reader learns it once.
    pub legend: Vec<Key>,
}

impl Picture {
    /// The index of the cell named `name` (as the notation writes it), if there is one.
    pub fn cell_named(&self, name: &str) -> Option<usize> {
        self.cells.iter().position(|c| c.name == name)
    }
}

/// One cell of a board.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    /// Centre, in board units (`y` up).
    pub x: f32,
    /// Centre, in board units (`y` up).
    pub y: f32,
    /// Outline.
    pub shape: CellShape,
    /// The coordinate, exactly as the game's notation writes it (`d4`, `e5`).
    pub name: String,
    /// What the cell is: plain, a side's zone, a terrain, a face-down tile.
    pub ground: Ground,
}

/// The outline of a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CellShape {
    /// A unit square.
    Square,
    /// A hexagon with a vertex at the top (rows of hexagons run left to right).
    HexPointy,
    /// A hexagon with a flat top (columns of hexagons run up and down).
    HexFlat,
}

/// What a cell's ground is, which the renderer shows as its fill.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ground {
    /// An ordinary cell.
    Plain,
    /// A cell that belongs to one side (a home row, a goal), drawn in that side's ink.
    Zone(Ink),
    /// A terrain, by its index in the game's list of terrains (the legend names it).
    Terrain(u8),
    /// A face-down tile whose face nobody knows yet.
    Hidden,
}

/// A piece's colour. Games pick the inks their rulebook uses for each side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ink {
    /// White or light pieces.
    White,
    /// Black or dark pieces.
    Black,
    /// Red pieces.
    Red,
    /// Yellow pieces.
    Yellow,
    /// Blue pieces.
    Blue,
    /// Pieces of no side (dice, neutral tokens).
    Neutral,
}

/// A piece's outline. Pieces of different kinds in one game use different shapes, so a
/// picture reads in grey scale too.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PieceShape {
    /// A round stone.
    Disc,
    /// A square.
    Square,
    /// A triangle pointing up (or along its `facing`).
    Triangle,
    /// A diamond.
    Diamond,
    /// A hexagon.
    Hexagon,
    /// A five-pointed star.
    Star,
    /// A ring (a hollow disc).
    Ring,
    /// A die; its label is the face.
    Die,
}

/// One piece on a cell.
#[derive(Clone, Debug, PartialEq)]
pub struct Piece {
    /// Index into [`Picture::cells`].
    pub cell: usize,
    /// Outline.
    pub shape: PieceShape,
    /// Colour.
    pub ink: Ink,
    /// Short text drawn on the piece (a count, a strength, a die face), at most 3
    /// characters.
    pub label: Option<String>,
    /// The direction the piece faces, in degrees counter-clockwise from east (0 = east,
    /// 90 = north); drawn as a pointer. `None` for pieces without an orientation.
    pub facing: Option<u16>,
    /// Drawn faded: a piece that is there but cannot act (held under another, locked).
    /// A game that draws such pieces says when in its legend's [`Symbol::Inactive`] key.
    pub inactive: bool,
}

impl Piece {
    /// A piece with no label, no facing, active.
    pub fn new(cell: usize, shape: PieceShape, ink: Ink) -> Self {
        Piece {
            cell,
            shape,
            ink,
            label: None,
            facing: None,
            inactive: false,
        }
    }

    /// The same piece with a label.
    pub fn labelled(mut self, label: impl Into<String>) -> Self {
        self.label = Some(label.into());
        self
    }

    /// The same piece facing `degrees` (counter-clockwise from east).
    pub fn facing(mut self, degrees: u16) -> Self {
        self.facing = Some(degrees);
        self
    }

    /// The same piece, drawn faded.
    pub fn inactive(mut self) -> Self {
        self.inactive = true;
        self
    }
}

/// A mark over the board.
#[derive(Clone, Debug, PartialEq)]
pub enum Mark {
    /// An arrow between two cells (a pending order, a move in progress), in a side's ink.
    Arrow {
        /// Index into [`Picture::cells`].
        from: usize,
        /// Index into [`Picture::cells`].
        to: usize,
        /// Colour.
        ink: Ink,
    },
    /// A ring around a cell where something is about to happen (a tile to reveal, a
    /// throw to roll for).
    Pending {
        /// Index into [`Picture::cells`].
        cell: usize,
    },
}

/// One line of the legend: a symbol and what it means.
#[derive(Clone, Debug, PartialEq)]
pub struct Key {
    /// What is drawn.
    pub symbol: Symbol,
    /// What it means, in a few words (`"white Pivot"`, `"forest"`).
    pub meaning: String,
}

/// A symbol the legend shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Symbol {
    /// A piece of this shape and ink (drawn facing east when `facing` is set).
    Piece {
        /// Outline.
        shape: PieceShape,
        /// Colour.
        ink: Ink,
        /// Whether pieces of this kind carry a facing pointer.
        facing: bool,
    },
    /// A cell with this ground.
    Ground(Ground),
    /// An arrow in this ink.
    Arrow(Ink),
    /// The pending-event ring.
    Pending,
    /// The faded style of an inactive piece ([`Piece::inactive`]); the key's meaning says
    /// which pieces the game draws so (a squad that has acted, an agent held under
    /// another).
    Inactive,
}

impl Key {
    /// A legend line.
    pub fn new(symbol: Symbol, meaning: impl Into<String>) -> Self {
        Key {
            symbol,
            meaning: meaning.into(),
        }
    }

    /// The legend line of a piece kind: pieces of this shape and ink, with a facing
    /// pointer when `facing`.
    pub fn piece(shape: PieceShape, ink: Ink, facing: bool, meaning: impl Into<String>) -> Self {
        Key::new(Symbol::Piece { shape, ink, facing }, meaning)
    }
}

/// A state that can describe itself as a [`Picture`].
///
/// Contract: `picture()` is a pure function of the state; its cells' order, places,
/// shapes and names depend only on the game's parameters (their grounds may change, as a
/// tile is turned face up); every piece's and mark's cell index is in range; every symbol the
/// picture uses has a [`Key`] in its legend (an inactive piece the [`Symbol::Inactive`]
/// key).
pub trait Depict: State {
    /// This position as a picture.
    fn picture(&self) -> Picture;

    /// The chance outcome `m` (legal here, at a chance node) told as an event, in words
    /// a player uses: `"rolled 5"`, `"revealed forest at d4"`. The default is the move's
    /// notation; games with chance say more.
    fn event(&self, m: Self::Move) -> String {
        self.format_move(m)
    }

    /// What playing `m` here set off beyond itself, in words a player uses, given `next`,
    /// the position `m` led to: an effect of the rules that no decision names, such as
    /// APV's pending order that fires, or fizzles, as the turn passes to its side. `None`
    /// when the move did nothing more than its notation says (the default). A replay
    /// tells it with the ply, since a picture of `next` shows only the result.
    fn aftermath(&self, _m: Self::Move, _next: &Self) -> Option<String> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn piece_builders_set_only_their_field() {
        let p = Piece::new(3, PieceShape::Disc, Ink::Red)
            .labelled("2")
            .facing(90);
        assert_eq!(p.cell, 3);
        assert_eq!(p.label.as_deref(), Some("2"));
        assert_eq!(p.facing, Some(90));
        assert!(!p.inactive);
        assert!(p.clone().inactive().inactive);
    }
}
