//! Dense action ids: every decision and every chance outcome of a game numbered in a
//! small fixed range, as OpenSpiel and policy networks number them.
//!
//! A game's moves are rich values with a compact code ([`crate::Move::pack`]) that is
//! unique but sparse (bit fields). Tools outside the engine want instead a fixed,
//! dense numbering that does not depend on the position: decision `k` means the same
//! move wherever it is legal. [`DenseActions`] gives it, per game and configuration, in
//! two separate spaces, one for decisions and one for chance outcomes, with true bounds
//! on a game's length: in plies (chance outcomes included) and in decisions alone (the
//! length OpenSpiel's `max_game_length` means).

use crate::game::{Game, State, Turn};

/// The sizes of a configured game's two id spaces, and two bounds on its length.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ActionSpace {
    /// Decisions are numbered `0..decisions`.
    pub decisions: u32,
    /// Chance outcomes are numbered `0..chance_outcomes` (0 for a game without chance).
    pub chance_outcomes: u32,
    /// No game lasts more plies (decisions and chance outcomes together) than this.
    pub max_game_length: u32,
    /// No game has more decisions (plies where a seat acts) than this: chance outcomes
    /// are not counted, as OpenSpiel counts a game's length. At most `max_game_length`,
    /// and equal to it in a game without chance.
    pub max_decisions: u32,
}

/// A game whose moves have dense ids ([`ActionSpace`]).
///
/// Contract, checked on random games by [`crate::testing::check_action_ids`]:
/// - [`DenseActions::action_id`] depends on the configuration and the move only, and two
///   different moves of one space never share an id;
/// - a decision's id is below `decisions`, a chance outcome's below `chance_outcomes`;
/// - every game ends within `max_game_length` plies, and with at most `max_decisions`
///   decisions among them (the bounds are derived from the rules, and the derivation is
///   stated where each game implements them).
pub trait DenseActions: Game {
    /// The id spaces of this configuration.
    fn action_space(&self) -> ActionSpace;

    /// The id of `m`: in the decision space if `m` is a decision, in the chance space if
    /// it is a chance outcome.
    fn action_id(&self, m: <Self::State as State>::Move) -> u32;
}

/// The legal decision or chance outcome of `state` whose id is `id`, if there is one:
/// the inverse of [`DenseActions::action_id`] at this node.
pub fn move_with_id<G: DenseActions>(
    game: &G,
    state: &G::State,
    id: u32,
) -> Option<<G::State as State>::Move> {
    match state.turn() {
        Turn::Over => None,
        Turn::Chance => {
            let mut outcomes = Vec::new();
            state.chance_outcomes(&mut outcomes);
            outcomes
                .into_iter()
                .map(|(m, _)| m)
                .find(|&m| game.action_id(m) == id)
        }
        Turn::Seat(_) => {
            let mut moves = Vec::new();
            state.legal_moves(&mut moves);
            moves.into_iter().find(|&m| game.action_id(m) == id)
        }
    }
}
