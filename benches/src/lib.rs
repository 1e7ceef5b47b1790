//! Fixed positions shared by the criterion benches in `benches/` (perft and search), so
//! that both measure the same positions and a figure names its position unambiguously.

use agon_engine::games::hexstrat::{Hexstrat, HexstratState};
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

/// A Hexstrat middle game (default rules): 39 plies of an aggressive seeded playout, one
/// of the perft data file's lines; seat 0 to act, both sides at full strength near the
/// centre, 13 tiles face up. `agon bench` searches the same position.
pub const HEXSTRAT_MIDGAME: &str = "M:c3 plains R:e1 plains end R:d7 plains end I:d3 plains \
    M:b3 plains R:d2 M:c7 forest end M:c3 I:d4 plains R:d3 I:c6 mountain R:d6 M:recover \
    R:c4 forest M:d3 I:d5 mountain R:e5 forest M:d6 I:b6 plains I:d4 R:c5 mountain M:e2 plains";

/// The Hexstrat position after `moves` from the start (default rules).
pub fn hexstrat_state(moves: &str) -> HexstratState {
    let mut state = Hexstrat::default().initial_state();
    play_moves(&mut state, moves).expect("benchmark lines are legal");
    state
}
