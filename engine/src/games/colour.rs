//! The two colours of the games whose sides are black and white (Invector, Romgon).

/// A colour. Black (index 0) moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Colour {
    /// Moves first.
    Black = 0,
    /// Moves second.
    White = 1,
}

impl Colour {
    /// The other colour.
    #[inline]
    pub const fn other(self) -> Colour {
        match self {
            Colour::Black => Colour::White,
            Colour::White => Colour::Black,
        }
    }

    /// Lower-case name, as `side()` reports it.
    pub const fn name(self) -> &'static str {
        match self {
            Colour::Black => "black",
            Colour::White => "white",
        }
    }
}
