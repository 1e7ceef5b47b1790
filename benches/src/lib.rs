//! Fixed positions shared by the criterion benches in `benches/` (perft and search) and
//! by `agon bench`, so
//! that both measure the same positions and a figure names its position unambiguously.

use agon_engine::games::apv::{Apv, ApvState};
use agon_engine::games::invector::{Invector, InvectorState};
use agon_engine::{play_moves, Game};

/// A benchmark position of Invector: a board and a line of moves from the start.
#[derive(Clone, Copy, Debug)]
pub struct InvectorPosition {
    /// Short name used in benchmark ids.
    pub name: &'static str,
    /// Board width.
    pub width: usize,
    /// Board height.
    pub height: usize,
    /// Moves from the start, in notation.
    pub moves: &'static str,
}

impl InvectorPosition {
    /// The position itself (pie rule on, the default rules).
    pub fn state(&self) -> InvectorState {
        let mut state = Invector::new(self.width, self.height, true)
            .expect("benchmark board sizes are valid")
            .initial_state();
        play_moves(&mut state, self.moves).expect("benchmark lines are legal");
        state
    }
}

/// The start of the default 8×7 board.
pub const START_8X7: InvectorPosition = InvectorPosition {
    name: "8x7-start",
    width: 8,
    height: 7,
    moves: "",
};

/// A middle game on 8×7 after 16 random plies (seed 7): 41 stones, empty pits on both
/// sides of the centre, so steps and captures mix.
pub const MIDGAME_8X7: InvectorPosition = InvectorPosition {
    name: "8x7-midgame",
    width: 8,
    height: 7,
    moves: "d4xd5 g4xg5 c5xc6 b5xb6 g1xh1 b1xa1 b2xb3 g2xf2 a3xa4 f7xf6 c7xb7 g6xh6 c1xd1 h3xh4 d2xe2 c2-d2",
};

/// The start of the 5×4 board of the rule sheet's figure.
pub const START_5X4: InvectorPosition = InvectorPosition {
    name: "5x4-start",
    width: 5,
    height: 4,
    moves: "",
};

/// A benchmark position of APV under the default rules: a line of moves from the start.
#[derive(Clone, Copy, Debug)]
pub struct ApvPosition {
    /// Short name used in benchmark ids.
    pub name: &'static str,
    /// Moves from the start, in notation.
    pub moves: &'static str,
}

impl ApvPosition {
    /// The position itself.
    pub fn state(&self) -> ApvState {
        let mut state = Apv::default().initial_state();
        play_moves(&mut state, self.moves).expect("benchmark lines are legal");
        state
    }
}

/// The start of APV.
pub const APV_START: ApvPosition = ApvPosition {
    name: "apv-start",
    moves: "",
};

/// An APV middle game after eight full turns of random play: North to make its primary
/// move (its order b8-a8 has just fired), South's order pending; orders fire, fizzle and
/// end games below it (it is a line of `engine/tests/data/apv.perft`).
pub const APV_MIDGAME: ApvPosition = ApvPosition {
    name: "apv-midgame",
    moves: "e7-c8 order:d8-h4 f3-f5 order:d2-b4 d7-b9 order:h4-h2 d3-d5 \
     order:b4-d2 h2-b8 order:c8-d6 f5-h3 order:f2-g2 d6-c5 order:b8-a8 g2-f3 order:d2-a5",
};
