//! Heuristic evaluation: the game knowledge search uses below its horizon.

use crate::game::{Outcome, Seat, State};

/// A heuristic evaluator for the states `S`.
///
/// Required: [`Evaluator::heuristic`] (the game's knowledge, for unfinished positions)
/// and [`Evaluator::bounds`]. [`Evaluator::evaluate`] scores finished games the same way
/// in every game and asks `heuristic` about the rest; it need not be overridden. The
/// rest is optional knowledge for alpha-beta, with defaults that change nothing:
/// [`Evaluator::is_noisy`] ("no move is noisy": no quiescence) with
/// [`Evaluator::may_have_noisy_moves`] (which only saves work),
/// [`Evaluator::move_hint`] (every quiet move alike),
/// [`Evaluator::opponent_wins_next`] (never known) and [`Evaluator::apply`] /
/// [`Evaluator::undo`] (the state's own).
///
/// Contract: for every unfinished state `s` and seat `p`,
/// `bounds().0 <= heuristic(s, p) <= bounds().1` and
/// `heuristic(s, p) == -heuristic(s, 1 - p)`, so the bounds are symmetric. A finished
/// game evaluates to `bounds().1` for the winner, `bounds().0` for the loser and 0 for a
/// draw, so the bounds contain every terminal score, as *-minimax pruning needs.
///
/// Every game's evaluator is a [`WeightedEval`](crate::weights::WeightedEval) of the
/// game's [`Terms`](crate::weights::Terms), which implements this trait once for all of
/// them; implement it directly only for an evaluator without declared weights (a test's,
/// or a wrapper around another evaluator).
pub trait Evaluator<S: State>: Clone + Send + Sync + 'static {
    /// The value of the unfinished `state` from `seat`'s point of view (higher is better
    /// for `seat`). Works at any unfinished node, including chance nodes, where nobody is
    /// to move. [`Evaluator::evaluate`] never calls it on a finished game.
    fn heuristic(&self, state: &S, seat: Seat) -> i32;

    /// The least and greatest values `evaluate` ever returns.
    fn bounds(&self) -> (i32, i32);

    /// The value of `state` from `seat`'s point of view: for a finished game
    /// `bounds().1` if `seat` won, `bounds().0` if it lost and 0 for a draw; otherwise
    /// [`Evaluator::heuristic`].
    #[inline]
    fn evaluate(&self, state: &S, seat: Seat) -> i32 {
        match state.outcome() {
            None => self.heuristic(state, seat),
            Some(Outcome::Win(w)) if w == seat => self.bounds().1,
            Some(Outcome::Win(_)) => self.bounds().0,
            Some(Outcome::Draw) => 0,
        }
    }

    /// Whether `m` is "noisy" (e.g. a capture) so that quiescence search should look at
    /// it below the horizon.
    fn is_noisy(&self, state: &S, m: S::Move) -> bool {
        let _ = (state, m);
        false
    }

    /// Whether any legal move of `state` may be noisy. `false` is a promise that
    /// [`Evaluator::is_noisy`] answers `false` for every one, so that quiescence search
    /// need not generate them. The default answers `true`; an evaluator that names no
    /// noisy moves in a game overrides it.
    fn may_have_noisy_moves(&self, state: &S) -> bool {
        let _ = state;
        true
    }

    /// A static guess at how good the legal decision `m` is for the side to move, for
    /// ordering only: after the table move and the noisy moves, higher hints are tried
    /// first, and killer moves, then the history table, break ties. It never changes a
    /// search's value, only how fast it is found. The `u8` keeps it below the scores of
    /// the table move and noisy moves.
    fn move_hint(&self, state: &S, m: S::Move) -> u8 {
        let _ = (state, m);
        0
    }

    /// Whether the legal decision `m` hands the opponent a win: after it the game goes
    /// on, the other seat decides, and it has a move that wins at once.
    ///
    /// Contract: `true` only when that is certain (`false` is always allowed). Search
    /// trusts it without looking: it scores such a move as a loss two plies away, which
    /// is exact, since nothing the opponent could do is better for it than winning at
    /// once (Pascal Pons calls this anticipation in his Connect Four solver). Answer
    /// only if it is much cheaper than playing the move and generating the replies.
    fn opponent_wins_next(&self, state: &S, m: S::Move) -> bool {
        let _ = (state, m);
        false
    }

    /// Applies the legal move or chance outcome `m` to `state` for a search that will
    /// evaluate below it: by default just [`State::apply`]. An evaluator that keeps
    /// something up to date along the search's line (a network's accumulators,
    /// [`crate::network::NetEval`]) overrides this and [`Evaluator::undo`] to update it
    /// from what the move changes.
    ///
    /// Contract: values never depend on whether a search applies its moves here or on
    /// the state directly (an evaluator that finds its record stale recomputes it), only
    /// how fast they come; a search that applies a move here undoes it with
    /// [`Evaluator::undo`].
    #[inline]
    fn apply(&mut self, state: &mut S, m: S::Move) -> S::Undo {
        state.apply(m)
    }

    /// Undoes what [`Evaluator::apply`] did: by default just [`State::undo`].
    #[inline]
    fn undo(&mut self, state: &mut S, undo: S::Undo) {
        state.undo(undo);
    }
}
