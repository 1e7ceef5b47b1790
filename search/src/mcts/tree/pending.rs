//! A thread's held-back additions to the statistics of the most visited nodes.

use super::NONE;

/// Slots of a thread's deltas (a power of two): enough for the distinct hot nodes that
/// [`FLUSH_EVERY`] iterations pass, at 16 bytes each.
const SLOTS: usize = 512;
/// Visits per thread from which a node is hot ([`Pending::is_hot`]).
const HOT_PER_THREAD: u32 = 32;
/// Iterations between a thread's flushes of its deltas.
pub(crate) const FLUSH_EVERY: u64 = 32;

/// One node's statistics that a thread has not yet added to the tree.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Delta {
    /// The node, or [`NONE`] for a free slot.
    pub(crate) index: u32,
    pub(crate) visits: u32,
    pub(crate) total: i64,
}

/// No delta: a free slot.
const NO_DELTA: Delta = Delta {
    index: NONE,
    visits: 0,
    total: 0,
};

/// A thread's deltas to the statistics of the hot nodes, added to the tree every
/// [`FLUSH_EVERY`] iterations and when the thread stops.
///
/// Every iteration passes through the top of the tree, and there the threads mostly
/// follow the same line: when each added to those nodes at once, the cache lines of
/// the top nodes and their siblings, which every selection reads, went from core to
/// core at every iteration. Held back a few iterations, the other threads read them
/// from their own caches. A thread reads its own deltas with the tree's (so its
/// choices see its own results at once, virtual loss included); the others see them at
/// its next flush.
///
/// A node is hot from [`HOT_PER_THREAD`] visits per thread: what the other threads
/// hold back of a hot node (at most [`FLUSH_EVERY`] iterations each) is then fewer
/// iterations than the tree shows, and on Connect Four at 2 threads (hot from 64
/// visits) two cores ran 1.70 times one core's iterations, against 1.60 when nodes
/// were hot from 1,024 visits. A node whose slot another node holds is added to at
/// once.
#[derive(Debug)]
pub(crate) struct Pending {
    /// Visits from which a node is hot.
    hot: u32,
    /// Direct-mapped by node index.
    slots: Vec<Delta>,
    /// The slots claimed since the last flush.
    used: Vec<u16>,
}

impl Pending {
    /// Empty deltas for one of `threads` threads.
    pub(crate) fn new(threads: usize) -> Self {
        Pending {
            hot: HOT_PER_THREAD.saturating_mul(u32::try_from(threads).unwrap_or(u32::MAX)),
            slots: vec![NO_DELTA; SLOTS],
            used: Vec::with_capacity(SLOTS),
        }
    }

    /// Whether a node whose statistics in the tree show `visits` is hot. Every thread
    /// of a search has the same threshold, and the tree's visits never fall, so a node
    /// whose tree visits are below it has never been held back by any thread.
    #[inline]
    pub(crate) fn is_hot(&self, visits: u32) -> bool {
        visits >= self.hot
    }

    /// The deltas of node `index` (zero if it has none).
    #[inline]
    pub(crate) fn of(&self, index: u32) -> (u32, i64) {
        let d = &self.slots[index as usize % SLOTS];
        if d.index == index {
            (d.visits, d.total)
        } else {
            (0, 0)
        }
    }

    /// The slot of node `index`, claimed if free; `None` if another node holds it.
    #[inline]
    pub(crate) fn slot(&mut self, index: u32) -> Option<&mut Delta> {
        let k = index as usize % SLOTS;
        let d = &mut self.slots[k];
        if d.index == NONE {
            d.index = index;
            self.used.push(k as u16);
        }
        (d.index == index).then_some(d)
    }

    /// Empties every claimed slot, passing its delta to `add`.
    pub(crate) fn drain(&mut self, mut add: impl FnMut(&Delta)) {
        for k in self.used.drain(..) {
            let d = &mut self.slots[usize::from(k)];
            add(d);
            *d = NO_DELTA;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slot_holds_one_node_until_drained() {
        let mut pending = Pending::new(2);
        assert!(
            !pending.is_hot(63) && pending.is_hot(64),
            "32 visits a thread"
        );
        assert_eq!(pending.of(3), (0, 0), "nothing held");
        let d = pending.slot(3).expect("a free slot");
        d.visits += 2;
        d.total -= 5;
        assert_eq!(pending.of(3), (2, -5));
        // Node 3 + SLOTS maps to the same slot, which node 3 holds.
        let other = 3 + SLOTS as u32;
        assert!(pending.slot(other).is_none());
        assert_eq!(pending.of(other), (0, 0));
        pending.slot(3).unwrap().visits += 1;
        assert_eq!(pending.of(3), (3, -5), "the same slot again");
        pending.slot(10).unwrap().total += 7;
        let mut drained = Vec::new();
        pending.drain(|d| drained.push((d.index, d.visits, d.total)));
        assert_eq!(drained, [(3, 3, -5), (10, 0, 7)], "each claimed slot once");
        assert_eq!(pending.of(3), (0, 0));
        assert!(pending.slot(other).is_some(), "free once drained");
    }
}
