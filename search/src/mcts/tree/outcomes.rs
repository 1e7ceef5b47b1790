//! A chance node's outcomes in the arena: kept with cumulative weights, or not at all
//! when they are equally likely ([`UNIFORM`]).

use agon_engine::State;

use super::{Node, Tree, UNIFORM};

impl<S: State> Tree<S> {
    /// What a chance node's `moves` is for its outcomes, the arena's entries from
    /// `start` on (cumulative weights): `start`, or [`UNIFORM`] (and the entries
    /// dropped) if they are equally likely.
    pub(crate) fn keep_outcomes(&mut self, start: usize) -> usize {
        let entries = &self.outcomes[start..];
        let count = entries.len() as u32;
        let total = entries.last().map_or(0, |&(_, cumulative)| cumulative);
        let uniform = (1..)
            .zip(entries)
            .all(|(k, &(_, c))| c == total / count * k);
        if uniform {
            self.outcomes.truncate(start);
            UNIFORM as usize
        } else {
            start
        }
    }

    /// The cumulative weight of outcomes `0..=k` of chance node `n`.
    pub(crate) fn cumulative_weight(&self, n: &Node<S::Move>, k: usize) -> u32 {
        if n.moves == UNIFORM {
            k as u32 + 1
        } else {
            self.outcomes[n.moves as usize + k].1
        }
    }
}
