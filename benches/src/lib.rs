//! Fixed positions shared by the criterion benches in `benches/` (perft and search), so
//! that both measure the same positions and a figure names its position unambiguously.

use agon_engine::games::invector::{Invector, InvectorState};
use agon_engine::games::romgon::{Romgon, RomgonState};
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

/// A benchmark position of Romgon (default rules): a line of actions from the start.
#[derive(Clone, Copy, Debug)]
pub struct RomgonPosition {
    /// Short name used in benchmark ids.
    pub name: &'static str,
    /// Actions from the start, in notation.
    pub moves: &'static str,
}

impl RomgonPosition {
    /// The position itself.
    pub fn state(&self) -> RomgonState {
        let mut state = Romgon::default().initial_state();
        play_moves(&mut state, self.moves).expect("benchmark lines are legal");
        state
    }
}

/// The start.
pub const ROMGON_START: RomgonPosition = RomgonPosition {
    name: "start",
    moves: "",
};

/// A middle game after 13 actions of a random playout (seed 5), White to move: both
/// sides' triangles and hexagons out, a black triangle on the dead zone's edge, and
/// deadlocks within three plies (it is a line of the perft data file).
pub const ROMGON_MIDGAME: RomgonPosition = RomgonPosition {
    name: "midgame",
    moves: "t1-6>2-6@SW T1-0>2-1@SW t2-6>3-7@E C2-0>1-0 t5-6>5-5@NW H4-0>3-2@E t5-5>4-5@W \
            H3-2>4-0@E h2-7>2-6@E T2-1@NE t4-5>3-5@SE T2-1@E s0-5>1-5",
};
