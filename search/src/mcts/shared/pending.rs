//! A thread's held-back additions to the statistics of the most visited nodes.

use super::super::tree::NONE;
use super::PENDING_SLOTS;

/// One node's statistics that a thread has not yet added to the tree.
#[derive(Clone, Copy, Debug)]
pub(super) struct Delta {
    /// The node, or [`NONE`] for a free slot.
    pub(super) index: u32,
    pub(super) visits: u32,
    pub(super) total: i64,
}

/// No delta: a free slot.
pub(super) const NO_DELTA: Delta = Delta {
    index: NONE,
    visits: 0,
    total: 0,
};

/// A thread's deltas to the statistics of the most visited nodes, added to the tree
/// every [`FLUSH_EVERY`] iterations and when the thread stops.
///
/// Every iteration passes through the top of the tree, and there the threads mostly
/// follow the same line: when each added to those nodes at once, the cache lines of
/// the top nodes and their siblings, which every selection reads, went from core to
/// core at every iteration. Held back a few iterations, the other threads read them
/// from their own caches. A thread reads its own deltas with the tree's (so its
/// choices see its own results at once); the others see them at its next flush, which
/// at a node of a thousand visits or more moves a mean by a few hundredths at most. A
/// node whose slot another node holds is added to at once.
#[derive(Debug)]
pub(crate) struct Pending {
    pub(super) slots: [Delta; PENDING_SLOTS],
}

impl Default for Pending {
    fn default() -> Self {
        Pending {
            slots: [NO_DELTA; PENDING_SLOTS],
        }
    }
}

impl Pending {
    /// The deltas of node `index` (zero if it has none).
    #[inline]
    pub(super) fn of(&self, index: u32) -> (u32, i64) {
        let d = &self.slots[index as usize % PENDING_SLOTS];
        if d.index == index {
            (d.visits, d.total)
        } else {
            (0, 0)
        }
    }

    /// The slot of node `index`, claimed if free; `None` if another node holds it.
    #[inline]
    pub(super) fn slot(&mut self, index: u32) -> Option<&mut Delta> {
        let d = &mut self.slots[index as usize % PENDING_SLOTS];
        if d.index == NONE {
            d.index = index;
        }
        (d.index == index).then_some(d)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slot_holds_one_node_until_cleared() {
        let mut pending = Pending::default();
        assert_eq!(pending.of(3), (0, 0), "nothing held");
        let d = pending.slot(3).expect("a free slot");
        d.visits += 2;
        d.total -= 5;
        assert_eq!(pending.of(3), (2, -5));
        // Node 3 + 64 maps to the same slot, which node 3 holds.
        let other = 3 + PENDING_SLOTS as u32;
        assert!(pending.slot(other).is_none());
        assert_eq!(pending.of(other), (0, 0));
        pending.slot(3).unwrap().visits += 1;
        assert_eq!(pending.of(3), (3, -5), "the same slot again");
        pending.slots[3] = NO_DELTA;
        assert!(pending.slot(other).is_some(), "free once cleared");
    }
}
