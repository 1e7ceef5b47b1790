//! Seeded evaluation noise (`noise=N` of `ab` and `greedy`): variety for agents that
//! would otherwise play every game from the same start alike.
//!
//! A deterministic agent plays a position the same way every time, so a self-play study
//! or a study of a pie-rule game, whose openings must stop before the swap, repeats a
//! handful of games. With noise, each game's agent perturbs its evaluator by a small
//! offset per position:
//!
//! - the offset of position `s` for seat 0 is `mix(s.hash() ^ salt) mod (2N + 1) - N`
//!   evaluator units (mixed by splitmix64's finaliser), and the negation of it for seat
//!   1, so the evaluator stays zero-sum; finished positions get none, and the result is
//!   clamped to the evaluator's bounds, so every [`Evaluator`] contract still holds;
//! - the salt is the first word the agent draws from its random stream, at its first
//!   move ([`Salted`]): the tournament seeds that stream by game and seat, so every game
//!   gets its own noise, reproducibly under the run's seed;
//! - the offset is a function of the position, so a transposition table stays
//!   consistent within a game.
//!
//! `noise=0` or no `noise` builds the plain agent: nothing here is on the path of an
//! agent without noise, so its searches and node counts are unchanged.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Arc;

use agon_engine::zobrist::splitmix64_mix;
use agon_engine::{Evaluator, Seat, State};
use rand::RngCore;

use crate::agent::{Agent, SearchContext, SearchResult};

/// An evaluator plus a seeded offset per position (see the module documentation).
#[derive(Clone, Debug)]
pub struct Noisy<E> {
    inner: E,
    /// The offsets lie in `-amplitude..=amplitude`.
    amplitude: u32,
    /// Shared with the [`Salted`] agent that sets it at its first move.
    salt: Arc<AtomicU64>,
}

impl<E> Noisy<E> {
    /// `inner` with offsets of at most `amplitude` units, salted by `salt`.
    pub fn new(inner: E, amplitude: u32, salt: Arc<AtomicU64>) -> Self {
        Noisy {
            inner,
            amplitude,
            salt,
        }
    }

    /// The offset of the position with hash `hash`, from seat 0's view.
    fn offset(&self, hash: u64) -> i64 {
        let span = 2 * u64::from(self.amplitude) + 1;
        (splitmix64_mix(hash ^ self.salt.load(Relaxed)) % span) as i64 - i64::from(self.amplitude)
    }
}

impl<S: State, E: Evaluator<S>> Evaluator<S> for Noisy<E> {
    /// The inner heuristic plus the offset; finished positions get no offset, since
    /// the provided [`Evaluator::evaluate`] scores them without asking here.
    fn heuristic(&self, state: &S, seat: Seat) -> i32 {
        let value = self.inner.heuristic(state, seat);
        let offset = self.offset(state.hash());
        let offset = if seat == 0 { offset } else { -offset };
        let (low, high) = self.inner.bounds();
        (i64::from(value) + offset).clamp(i64::from(low), i64::from(high)) as i32
    }

    fn bounds(&self) -> (i32, i32) {
        self.inner.bounds()
    }

    fn is_noisy(&self, state: &S, m: S::Move) -> bool {
        self.inner.is_noisy(state, m)
    }

    fn may_have_noisy_moves(&self, state: &S) -> bool {
        self.inner.may_have_noisy_moves(state)
    }

    fn move_hint(&self, state: &S, m: S::Move) -> u8 {
        self.inner.move_hint(state, m)
    }

    fn opponent_wins_next(&self, state: &S, m: S::Move) -> bool {
        self.inner.opponent_wins_next(state, m)
    }

    fn apply(&mut self, state: &mut S, m: S::Move) -> S::Undo {
        self.inner.apply(state, m)
    }

    fn undo(&mut self, state: &mut S, undo: S::Undo) {
        self.inner.undo(state, undo);
    }
}

/// An agent searching with a [`Noisy`] evaluator: at its first search it draws the salt
/// from its random stream (one word), then searches as the inner agent would.
pub struct Salted<S: State> {
    inner: Box<dyn Agent<S>>,
    salt: Arc<AtomicU64>,
    salted: bool,
}

impl<S: State> Salted<S> {
    /// `inner`, whose evaluator is a [`Noisy`] sharing `salt`.
    pub fn new(inner: Box<dyn Agent<S>>, salt: Arc<AtomicU64>) -> Self {
        Salted {
            inner,
            salt,
            salted: false,
        }
    }
}

impl<S: State> Agent<S> for Salted<S> {
    fn search(&mut self, state: &S, ctx: SearchContext<'_, S::Move>) -> SearchResult<S::Move> {
        if !self.salted {
            self.salt.store(ctx.rng.next_u64(), Relaxed);
            self.salted = true;
        }
        self.inner.search(state, ctx)
    }
}

#[cfg(test)]
mod tests {
    use agon_engine::games::invector::{Invector, InvectorEval};
    use agon_engine::Game;

    use super::*;

    #[test]
    fn offsets_are_bounded_zero_sum_and_salted() {
        let state = Invector::new(5, 4, false).unwrap().initial_state();
        let salt = Arc::new(AtomicU64::new(7));
        let noisy = Noisy::new(InvectorEval::default(), 3, Arc::clone(&salt));
        let plain = InvectorEval::default().evaluate(&state, 0);
        let v0 = noisy.evaluate(&state, 0);
        assert_eq!(v0, -noisy.evaluate(&state, 1));
        assert!((v0 - plain).abs() <= 3, "{v0} vs {plain}");
        // Every offset in range over many salts, and all seven of them met.
        let mut seen = std::collections::BTreeSet::new();
        for s in 0..200 {
            salt.store(s, Relaxed);
            let offset = noisy.evaluate(&state, 0) - plain;
            assert!((-3..=3).contains(&offset), "{offset}");
            seen.insert(offset);
        }
        assert_eq!(seen.len(), 7);
        assert_eq!(
            Evaluator::<agon_engine::games::invector::InvectorState>::bounds(&noisy),
            Evaluator::<agon_engine::games::invector::InvectorState>::bounds(
                &InvectorEval::default()
            )
        );
    }
}
