//! Fixed positions shared by the criterion benches in `benches/` (perft and search) and
//! by `agon bench`, so that both measure the same positions and a figure names its
//! position unambiguously.

use std::marker::PhantomData;

use agon_engine::games::apv::Apv;
use agon_engine::games::hexstrat::{Hexstrat, HexstratState};
use agon_engine::games::invector::{Invector, InvectorState};
use agon_engine::games::romgon::Romgon;
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

/// A benchmark position of a game under its default rules: a line of moves from the
/// start.
#[derive(Debug)]
pub struct DefaultRulesPosition<G> {
    /// Short name used in benchmark ids.
    pub name: &'static str,
    /// Moves from the start, in notation.
    pub moves: &'static str,
    game: PhantomData<fn() -> G>,
}

// Not derived: the derives would require `G: Clone + Copy`, which positions don't need.
impl<G> Clone for DefaultRulesPosition<G> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<G> Copy for DefaultRulesPosition<G> {}

impl<G: Game + Default> DefaultRulesPosition<G> {
    /// A position named `name`, `moves` from the start.
    pub const fn new(name: &'static str, moves: &'static str) -> Self {
        DefaultRulesPosition {
            name,
            moves,
            game: PhantomData,
        }
    }

    /// The position itself.
    pub fn state(&self) -> G::State {
        let mut state = G::default().initial_state();
        play_moves(&mut state, self.moves).expect("benchmark lines are legal");
        state
    }
}

/// A benchmark position of APV.
pub type ApvPosition = DefaultRulesPosition<Apv>;

/// The start of APV.
pub const APV_START: ApvPosition = ApvPosition::new("apv-start", "");

/// An APV middle game after eight full turns of random play: North to make its primary
/// move (its order b8-a8 has just fired), South's order pending; orders fire, fizzle and
/// end games below it (it is a line of `engine/tests/data/apv.perft`).
pub const APV_MIDGAME: ApvPosition = ApvPosition::new(
    "apv-midgame",
    "e7-c8 order:d8-h4 f3-f5 order:d2-b4 d7-b9 order:h4-h2 d3-d5 \
     order:b4-d2 h2-b8 order:c8-d6 f5-h3 order:f2-g2 d6-c5 order:b8-a8 g2-f3 order:d2-a5",
);

/// A benchmark position of Romgon.
pub type RomgonPosition = DefaultRulesPosition<Romgon>;

/// The start of Romgon.
pub const ROMGON_START: RomgonPosition = RomgonPosition::new("start", "");

/// A Romgon middle game after 13 actions of a random playout (seed 5), White to move:
/// both sides' triangles and hexagons out, a black triangle on the dead zone's edge, and
/// deadlocks within three plies (it is a line of the perft data file).
pub const ROMGON_MIDGAME: RomgonPosition = RomgonPosition::new(
    "midgame",
    "t1-6>2-6@SW T1-0>2-1@SW t2-6>3-7@E C2-0>1-0 t5-6>5-5@NW H4-0>3-2@E t5-5>4-5@W \
     H3-2>4-0@E h2-7>2-6@E T2-1@NE t4-5>3-5@SE T2-1@E s0-5>1-5",
);
/// A 3Will middle game: the first turns of a seeded random playout (stacking hits and
/// misses, passes), White to roll. Perft, search and `agon bench` use it.
pub const THREEWILL_MIDGAME: &str =
    "3 pass 2 f7*e7 miss 2 pass 3 d7*e7 hit 6 b2-a1 1 e7-e6 4 f2-g3 6 b7-b8 3 e2*d2 hit";

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
