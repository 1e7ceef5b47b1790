//! [`Unforeseen`]: a game exactly as it is, but without its forecast of the moves that
//! cannot end it ([`State::may_end_game`] left at the default, "maybe"), so that a
//! search which trusts a game's forecast can be compared with one that plays every
//! move to see. [`UnforeseenEval`] scores it with the game's own evaluator.

use std::fmt;

use agon_engine::{
    End, Evaluator, FastPlayout, LengthCap, MoveError, NullMove, PieRule, Seat, State, Symmetries,
    Symmetry, Turn,
};

/// The position `.0`, with no forecast of which moves cannot end the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unforeseen<S>(pub S);

impl<S: fmt::Display> fmt::Display for Unforeseen<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl<S: State> State for Unforeseen<S> {
    type Chance = S::Chance;
    type Move = S::Move;
    type Undo = S::Undo;

    fn turn(&self) -> Turn {
        self.0.turn()
    }
    fn legal_moves(&self, out: &mut Vec<S::Move>) {
        self.0.legal_moves(out);
    }
    fn chance_outcomes(&self, out: &mut Vec<(S::Move, u32)>) {
        self.0.chance_outcomes(out);
    }
    fn max_moves(&self) -> usize {
        self.0.max_moves()
    }
    fn apply(&mut self, m: S::Move) -> S::Undo {
        self.0.apply(m)
    }
    fn undo(&mut self, undo: S::Undo) {
        self.0.undo(undo);
    }
    fn try_apply(&mut self, m: S::Move) -> Result<S::Undo, MoveError> {
        self.0.try_apply(m)
    }
    fn hash(&self) -> u64 {
        self.0.hash()
    }
    fn recompute_hash(&self) -> u64 {
        self.0.recompute_hash()
    }
    fn end(&self) -> Option<End> {
        self.0.end()
    }
    fn side(&self, seat: Seat) -> &'static str {
        self.0.side(seat)
    }
    fn ply(&self) -> u32 {
        self.0.ply()
    }
    fn turns(&self) -> u32 {
        self.0.turns()
    }
    fn format_move(&self, m: S::Move) -> String {
        self.0.format_move(m)
    }
    fn parse_move(&self, text: &str) -> Result<S::Move, MoveError> {
        self.0.parse_move(text)
    }
}

impl<S: State> FastPlayout for Unforeseen<S> {}

impl<S: State> Symmetries for Unforeseen<S> {
    fn canonical_key(&self) -> (u64, Symmetry) {
        self.0.canonical_key()
    }
    fn map_move(&self, m: <Self as State>::Move, symmetry: Symmetry) -> <Self as State>::Move {
        self.0.map_move(m, symmetry)
    }
}

impl<S: State> PieRule for Unforeseen<S> {
    fn is_pie_swap(&self, m: <Self as State>::Move) -> bool {
        self.0.is_pie_swap(m)
    }
}

impl<S: State> NullMove for Unforeseen<S> {
    fn null_move(&mut self) -> Option<<Self as State>::Undo> {
        self.0.null_move()
    }
}

impl<S: State> LengthCap for Unforeseen<S> {
    fn cap_reset(&self) -> Self {
        Unforeseen(self.0.cap_reset())
    }
}

/// The evaluator `.0` of the wrapped game, answering every question as it does.
#[derive(Clone, Debug)]
pub struct UnforeseenEval<E>(pub E);

impl<S: State, E: Evaluator<S>> Evaluator<Unforeseen<S>> for UnforeseenEval<E> {
    fn heuristic(&self, state: &Unforeseen<S>, seat: Seat) -> i32 {
        self.0.heuristic(&state.0, seat)
    }
    fn bounds(&self) -> (i32, i32) {
        self.0.bounds()
    }
    fn evaluate(&self, state: &Unforeseen<S>, seat: Seat) -> i32 {
        self.0.evaluate(&state.0, seat)
    }
    fn is_noisy(&self, state: &Unforeseen<S>, m: S::Move) -> bool {
        self.0.is_noisy(&state.0, m)
    }
    fn may_have_noisy_moves(&self, state: &Unforeseen<S>) -> bool {
        self.0.may_have_noisy_moves(&state.0)
    }
    fn move_hint(&self, state: &Unforeseen<S>, m: S::Move) -> u8 {
        self.0.move_hint(&state.0, m)
    }
    fn opponent_wins_next(&self, state: &Unforeseen<S>, m: S::Move) -> bool {
        self.0.opponent_wins_next(&state.0, m)
    }
}
