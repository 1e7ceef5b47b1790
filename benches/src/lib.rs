//! Fixed positions of the criterion benches in `benches/` (perft and search). Their
//! middle games are the games' own (`agon_engine::games::<game>::MIDGAME`), which `agon
//! bench` searches too, so that both measure the same positions and a figure names its
//! position unambiguously.

use std::marker::PhantomData;

use agon_engine::games::apv::{self, Apv};
use agon_engine::games::hexstrat::{Hexstrat, HexstratState};
use agon_engine::games::invector::{self, Invector, InvectorState};
use agon_engine::games::romgon::{self, Romgon};
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

/// Invector's middle game on 8×7 ([`invector::MIDGAME`]).
pub const MIDGAME_8X7: InvectorPosition = InvectorPosition {
    name: "8x7-midgame",
    width: 8,
    height: 7,
    moves: invector::MIDGAME,
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

/// APV's middle game ([`apv::MIDGAME`]).
pub const APV_MIDGAME: ApvPosition = ApvPosition::new("apv-midgame", apv::MIDGAME);

/// A benchmark position of Romgon.
pub type RomgonPosition = DefaultRulesPosition<Romgon>;

/// The start of Romgon.
pub const ROMGON_START: RomgonPosition = RomgonPosition::new("start", "");

/// Romgon's middle game ([`romgon::MIDGAME`]).
pub const ROMGON_MIDGAME: RomgonPosition = RomgonPosition::new("midgame", romgon::MIDGAME);

/// The Hexstrat position after `moves` from the start (default rules).
pub fn hexstrat_state(moves: &str) -> HexstratState {
    let mut state = Hexstrat::default().initial_state();
    play_moves(&mut state, moves).expect("benchmark lines are legal");
    state
}
