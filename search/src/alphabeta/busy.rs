//! Moves another Lazy SMP thread is searching now, so that a thread arriving at the same
//! node searches the others first (deferral, after Kerrigan's "simplified ABDADA").
//!
//! Lazy SMP's threads share results through the table only once a subtree is finished.
//! Two threads that enter the same node at about the same time therefore search the same
//! children in the same order, and on a wide tree (Invector 8×7 has about 50 moves a
//! node) the second thread's work is almost all repetition: two threads searched twice
//! the nodes of one and reached a depth barely sooner. Here a thread about to search a
//! child worth deferring first asks whether another thread is searching that child
//! now; if so, it searches its other moves first and comes back to the deferred ones
//! last, when the table will most likely hold their results. The first move of a node
//! is never deferred: it is the likeliest to cut off, and searching it first keeps the
//! principal variation search's order.
//!
//! The record is a small direct-mapped table of child keys, written and read with
//! relaxed atomics: a lost or stale mark costs only a repeated or deferred search, never
//! a wrong value, because the mark changes only the order in which a node's moves are
//! searched.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Children nearer the horizon than this are never deferred: their subtrees are too
/// cheap to be worth the mark's cache traffic.
pub(super) const DEFER_FROM_DEPTH: u32 = 3;

/// Slots in the record (a power of two): far more than the marks that can be live at
/// once (threads × plies), so that collisions stay rare.
const SLOTS: usize = 1 << 14;

/// The keys of the children some thread is searching now (see the module docs).
#[derive(Debug)]
pub(crate) struct Busy {
    slots: Box<[AtomicU64]>,
}

impl Busy {
    /// An empty record.
    pub(crate) fn new() -> Self {
        Busy {
            slots: (0..SLOTS).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    fn slot(&self, key: u64) -> &AtomicU64 {
        &self.slots[key as usize & (SLOTS - 1)]
    }

    /// Whether some thread marked the child `key` and has not yet unmarked it.
    #[inline]
    pub(super) fn is_busy(&self, key: u64) -> bool {
        self.slot(key).load(Relaxed) == key
    }

    /// Marks the child `key` as being searched (replacing whatever shared its slot).
    #[inline]
    pub(super) fn mark(&self, key: u64) {
        self.slot(key).store(key, Relaxed);
    }

    /// Clears the mark of the child `key`, unless another key has taken its slot since.
    #[inline]
    pub(super) fn unmark(&self, key: u64) {
        let _ = self.slot(key).compare_exchange(key, 0, Relaxed, Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;

    use agon_engine::games::connect4::{Connect4, Connect4Eval};
    use agon_engine::{play_moves, Game, State};

    use super::*;
    use crate::alphabeta::core::Core;
    use crate::alphabeta::lane::{CacheLine, Lane};
    use crate::alphabeta::CoreOptions;
    use crate::budget::Budget;
    use crate::tt::TranspositionTable;

    #[test]
    fn a_mark_holds_until_unmarked_and_a_colliding_key_takes_its_slot() {
        let busy = Busy::new();
        let (a, b) = (
            0x1234_5678_9abc_0001_u64,
            0x1234_5678_9abc_0001_u64 + SLOTS as u64,
        );
        assert!(!busy.is_busy(a));
        busy.mark(a);
        assert!(busy.is_busy(a) && !busy.is_busy(b), "same slot, other key");
        busy.mark(b);
        assert!(busy.is_busy(b) && !busy.is_busy(a), "the slot went to b");
        busy.unmark(a);
        assert!(busy.is_busy(b), "unmarking a leaves b's mark");
        busy.unmark(b);
        assert!(!busy.is_busy(b));
    }

    #[test]
    fn children_another_thread_is_searching_are_searched_last_not_dropped() {
        // Every child of the root is marked busy, as if other threads were in each:
        // all but the first are put off, and must still be searched (which clears the
        // marks), giving the value and move of a search that put nothing off.
        let search = |busy: Option<Arc<Busy>>, moves: &str| {
            let options = CoreOptions::all_enhancements();
            let tt = Arc::new(TranspositionTable::new(1));
            let stop = Arc::new(CacheLine(AtomicBool::new(false)));
            let mut core = Core::new(Connect4Eval::default(), tt, stop, busy, options);
            let mut state = Connect4.initial_state();
            play_moves(&mut state, moves).unwrap();
            let budget = Budget {
                depth: Some(6),
                ..Budget::default()
            };
            let r = core.run(&state, &budget, Lane::alone(), &mut |_| {});
            (r.value, r.best)
        };
        for moves in ["", "d c e d", "a b c d e f g", "d d d d c"] {
            let mut state = Connect4.initial_state();
            play_moves(&mut state, moves).unwrap();
            let mut children = Vec::new();
            state.legal_moves(&mut children);
            let keys: Vec<u64> = children
                .iter()
                .map(|&m| {
                    let mut child = state.clone();
                    child.apply(m);
                    child.hash()
                })
                .collect();
            let busy = Arc::new(Busy::new());
            keys.iter().for_each(|&key| busy.mark(key));
            let deferring = search(Some(Arc::clone(&busy)), moves);
            assert_eq!(deferring, search(None, moves), "after {moves:?}");
            assert!(
                keys.iter().all(|&key| !busy.is_busy(key)),
                "after {moves:?}"
            );
        }
    }
}
