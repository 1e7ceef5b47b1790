//! Heuristic evaluation: the game knowledge search uses below its horizon.

use crate::game::{Seat, State};

/// A heuristic evaluator for the states `S`.
///
/// Required: [`Evaluator::evaluate`] and [`Evaluator::bounds`]. [`Evaluator::is_noisy`]
/// defaults to "no move is noisy" (no quiescence).
///
/// Contract: for every state `s` and seat `p`,
/// `bounds().0 <= evaluate(s, p) <= bounds().1`, and for a two-seat zero-sum game
/// `evaluate(s, p) == -evaluate(s, 1 - p)`, so the bounds are symmetric. A finished game
/// evaluates to `bounds().1` for the winner, `bounds().0` for the loser and 0 for a
/// draw, so the bounds contain every terminal score, as *-minimax pruning needs.
pub trait Evaluator<S: State>: Clone + Send + Sync + 'static {
    /// The value of `state` from `seat`'s point of view (higher is better for `seat`).
    /// Works at any node, including chance nodes, where nobody is to move.
    fn evaluate(&self, state: &S, seat: Seat) -> i32;

    /// The least and greatest values `evaluate` ever returns.
    fn bounds(&self) -> (i32, i32);

    /// Whether `m` is "noisy" (e.g. a capture) so that quiescence search should look at
    /// it below the horizon.
    fn is_noisy(&self, state: &S, m: S::Move) -> bool {
        let _ = (state, m);
        false
    }
}
