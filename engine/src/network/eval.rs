//! [`NetEval`]: a [`Network`] as a search's evaluator, its accumulators following the
//! search's line.

use std::cell::RefCell;
use std::marker::PhantomData;
use std::sync::Arc;

use super::{Network, NetworkError, MAX_LOGIT, QA, QB, SCORE_PER_LOGIT};
use crate::encoding::{Encode, Encoding, FeatureChanges};
use crate::eval::Evaluator;
use crate::game::{Seat, Turn};

/// Buffers an evaluation borrows when it has no accumulator of its own for the
/// position (one set per thread, reused: nothing is allocated per node once warm).
#[derive(Default)]
struct Scratch {
    features: Vec<u32>,
    scalars: Vec<i32>,
    accs: Vec<i32>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// Sums afresh both seats' accumulators of `state` into `accs` (seat 0's view, then
/// seat 1's), with `features` as scratch.
fn refresh_views<S: Encode>(net: &Network, state: &S, features: &mut Vec<u32>, accs: &mut [i32]) {
    for (view, acc) in accs.chunks_exact_mut(net.shape().hidden).enumerate() {
        features.clear();
        state.features(view as Seat, features);
        net.refresh(features, acc);
    }
}

/// A network evaluating positions of `S` on top of a `base` evaluator (the game's
/// linear one, whose value is one of the network's inputs), which also answers what a
/// network does not: which moves are noisy, move-ordering hints and moves that hand the
/// opponent a win.
///
/// The value is the network's logit for the seat to move (seat 0 at a chance node) in
/// units of 1/[`SCORE_PER_LOGIT`], clamped to ±[`MAX_LOGIT`] logits, and its negation
/// for the other seat, so that it is exactly zero-sum as [`Evaluator`] requires.
///
/// Accumulators: a search that applies moves through [`Evaluator::apply`] keeps a stack
/// here, one entry (both seats' accumulators) per ply of its line, each updated from
/// its parent by the columns [`Encode::feature_changes`] names and tagged with the
/// position's hash. An evaluation whose position is the top entry's reads it; any other
/// (a search that applied moves on the state directly, MCTS's leaves) sums its features
/// afresh. Either way the value is the same.
#[derive(Clone, Debug)]
pub struct NetEval<S, L> {
    net: Arc<Network>,
    base: L,
    /// `2 × hidden` per entry: seat 0's view, then seat 1's.
    accs: Vec<i32>,
    /// The hash of each entry's position.
    keys: Vec<u64>,
    /// Entries in use.
    depth: usize,
    changes: FeatureChanges,
    /// The features of a position whose accumulators are summed afresh.
    features: Vec<u32>,
    _state: PhantomData<fn(&S)>,
}

impl<S: Encode, L: Evaluator<S>> NetEval<S, L> {
    /// The evaluator of `net` on positions of `encoding`'s game, with `base` for move
    /// knowledge; refuses a network made for another encoding.
    pub fn new(net: Arc<Network>, base: L, encoding: &Encoding) -> Result<Self, NetworkError> {
        net.check_encoding(encoding)?;
        Ok(NetEval {
            net,
            base,
            accs: Vec::new(),
            keys: Vec::new(),
            depth: 0,
            changes: FeatureChanges::default(),
            features: Vec::new(),
            _state: PhantomData,
        })
    }

    /// Whether the top of the accumulator stack is `state`'s, so that an evaluation
    /// reads it instead of summing afresh.
    #[cfg(test)]
    pub(super) fn follows(&self, state: &S) -> bool {
        self.depth > 0 && self.keys[self.depth - 1] == state.hash()
    }

    /// The seat whose view the network takes at `state`.
    fn viewer(state: &S) -> Seat {
        match state.turn() {
            Turn::Seat(seat) => seat,
            Turn::Chance | Turn::Over => 0,
        }
    }

    /// The value for the viewer from its accumulator, the other seat's and its scalars,
    /// in evaluator units.
    fn score(&self, mine: &[i32], theirs: &[i32], scalars: &[i32], linear: i32) -> i32 {
        let raw = self.net.output(mine, theirs, scalars, linear);
        let limit = i64::from(MAX_LOGIT * SCORE_PER_LOGIT);
        let per = i64::from(QA * QB);
        let scaled = (raw * i64::from(SCORE_PER_LOGIT) + raw.signum() * per / 2) / per;
        scaled.clamp(-limit, limit) as i32
    }
}

impl<S: Encode, L: Evaluator<S>> Evaluator<S> for NetEval<S, L> {
    fn heuristic(&self, state: &S, seat: Seat) -> i32 {
        let viewer = Self::viewer(state);
        let h = self.net.shape().hidden;
        let linear = self.base.heuristic(state, viewer);
        let value = SCRATCH.with(|scratch| {
            let scratch = &mut *scratch.borrow_mut();
            scratch.scalars.clear();
            state.scalars(viewer, &mut scratch.scalars);
            let top = self.depth.checked_sub(1);
            let accs: &[i32] = match top {
                Some(top) if self.keys[top] == state.hash() => &self.accs[top * 2 * h..][..2 * h],
                _ => {
                    scratch.accs.resize(2 * h, 0);
                    refresh_views(&self.net, state, &mut scratch.features, &mut scratch.accs);
                    &scratch.accs
                }
            };
            let (seat0, seat1) = accs.split_at(h);
            let (mine, theirs) = if viewer == 0 {
                (seat0, seat1)
            } else {
                (seat1, seat0)
            };
            self.score(mine, theirs, &scratch.scalars, linear)
        });
        if seat == viewer {
            value
        } else {
            -value
        }
    }

    fn bounds(&self) -> (i32, i32) {
        let win = MAX_LOGIT * SCORE_PER_LOGIT + 1;
        (-win, win)
    }

    fn is_noisy(&self, state: &S, m: S::Move) -> bool {
        self.base.is_noisy(state, m)
    }

    fn may_have_noisy_moves(&self, state: &S) -> bool {
        self.base.may_have_noisy_moves(state)
    }

    fn move_hint(&self, state: &S, m: S::Move) -> u8 {
        self.base.move_hint(state, m)
    }

    fn opponent_wins_next(&self, state: &S, m: S::Move) -> bool {
        self.base.opponent_wins_next(state, m)
    }

    fn apply(&mut self, state: &mut S, m: S::Move) -> S::Undo {
        let width = 2 * self.net.shape().hidden;
        let fresh = self.depth == 0 || self.keys[self.depth - 1] != state.hash();
        if fresh {
            // A line this stack has not followed: start it again at this position.
            self.depth = 1;
            self.accs.resize(self.accs.len().max(width), 0);
            self.keys.resize(self.keys.len().max(1), 0);
            refresh_views(
                &self.net,
                state,
                &mut self.features,
                &mut self.accs[..width],
            );
            self.keys[0] = state.hash();
        }
        let (parent, child) = (self.depth - 1, self.depth);
        if self.keys.len() <= child {
            self.keys.resize(child + 1, 0);
            self.accs.resize((child + 1) * width, 0);
        }
        self.accs
            .copy_within(parent * width..child * width, child * width);
        let acc = &mut self.accs[child * width..][..width];
        for (view, acc) in acc.chunks_exact_mut(width / 2).enumerate() {
            self.changes.clear();
            state.feature_changes(m, view as Seat, &mut self.changes);
            for &f in &self.changes.off {
                self.net.sub_column(f, acc);
            }
            for &f in &self.changes.on {
                self.net.add_column(f, acc);
            }
        }
        let undo = state.apply(m);
        self.keys[child] = state.hash();
        self.depth += 1;
        undo
    }

    fn undo(&mut self, state: &mut S, undo: S::Undo) {
        state.undo(undo);
        self.depth = self.depth.saturating_sub(1);
    }
}
