//! Reuse of table memory between the agents one thread builds, one after another.
//!
//! A table of a gigabyte costs far more to allocate and zero than a cheap agent spends
//! on a whole game, and a tournament builds two agents for every game. A thread that
//! calls [`reuse_tables_on_this_thread`] (the tournament's workers do) keeps the table
//! memory of the agents it drops and hands it to the next table of the same size it
//! builds. The tables clear reused memory themselves, so that a reused table answers
//! every probe exactly as a newly zeroed one would ([`crate::tt`] and
//! [`crate::expectimax::table`] say how in O(1)): what a thread ran before never changes
//! what it runs next.
//!
//! # Memory
//!
//! A thread keeps what its dropped agents left, no more: when a table finds nothing of
//! its size kept, everything kept is freed before it allocates (the next game uses other
//! sizes, say in a new pairing). Kept memory only ever comes from tables in use, and
//! every allocation starts from an empty pool, so a thread never holds more table memory
//! than it once had in use at one time: for a tournament worker, the tables of the two
//! seats of one game (the Lazy SMP threads of an agent share its one table). Threads that
//! never call [`reuse_tables_on_this_thread`] free every table when its agent is dropped,
//! as usual.
//!
//! The kept memory belongs to the thread: it is freed when the thread ends.

use std::any::Any;
use std::cell::{Cell, RefCell};
use std::ops::{Deref, DerefMut};

/// Clears between two real zero-fills (see the module docs on epochs), at most: a table
/// reused for game after game is zeroed once every 256 games, a cost spread so thin that
/// it is not worth more epochs, and a path that runs that often stays well tested.
pub const EPOCHS: u64 = 256;

thread_local! {
    /// Whether this thread keeps dropped tables for reuse.
    static REUSE: Cell<bool> = const { Cell::new(false) };
    /// The table memory kept for reuse on this thread.
    static KEPT: RefCell<Vec<Box<dyn Any>>> = const { RefCell::new(Vec::new()) };
    /// Table memory allocated (not reused) on this thread.
    static ALLOCATED: Cell<u64> = const { Cell::new(0) };
}

/// From now until it ends, this thread keeps the memory of the tables it drops for the
/// next tables of the same size it builds (see the module docs). The tournament calls it
/// on each worker thread.
pub fn reuse_tables_on_this_thread() {
    REUSE.with(|r| r.set(true));
}

/// How many tables this thread has allocated memory for so far (reused memory not
/// counted): the transposition tables of `ab` and `solve` and the chance agents' tables.
/// For tests and diagnostics: it shows what reuse saves.
pub fn tables_allocated_on_this_thread() -> u64 {
    ALLOCATED.with(Cell::get)
}

/// Memory kept on this thread that `fits`, taken out of the pool (the caller clears it);
/// otherwise `allocate()`, counted if it succeeds, after everything kept is freed. The
/// `bool` says whether the memory was reused.
pub(crate) fn reuse_or_allocate<T: Any, E>(
    fits: impl Fn(&T) -> bool,
    allocate: impl FnOnce() -> Result<T, E>,
) -> Result<(T, bool), E> {
    let kept = KEPT.with(|kept| {
        let mut kept = kept.borrow_mut();
        let found = kept
            .iter()
            .position(|k| k.downcast_ref::<T>().is_some_and(&fits));
        match found {
            Some(i) => kept.swap_remove(i).downcast::<T>().ok().map(|t| *t),
            None => {
                // Free the memory before allocating more (see the module docs).
                kept.clear();
                None
            }
        }
    });
    match kept {
        Some(memory) => Ok((memory, true)),
        None => {
            let memory = allocate()?;
            ALLOCATED.with(|a| a.set(a.get() + 1));
            Ok((memory, false))
        }
    }
}

/// A table's memory could not be allocated: the machine (or the process's limit) has
/// not this much to give. Building a table reports it rather than aborting the process.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot allocate {} MiB for a table", .bytes.div_ceil(1 << 20))]
pub struct OutOfMemory {
    /// The bytes asked for.
    pub bytes: usize,
}

/// Gives back the memory of a dropped table: kept if this thread reuses tables, freed
/// otherwise (and when the thread is ending).
pub(crate) fn give_back<T: Any>(memory: T) {
    if REUSE.with(Cell::get) {
        // During the thread's teardown the pool may be gone: the memory is then freed.
        let _ = KEPT.try_with(|kept| kept.borrow_mut().push(Box::new(memory)));
    }
}

/// The buckets of a table (a power of two of them) and the epoch their current entries
/// carry: the memory, its sizing, the bucket index and the O(1) clear that [`crate::tt`]
/// and [`crate::expectimax::table`] share (the tt module docs explain epochs). Taken
/// from this thread's pool where it can be, and given back to it when dropped. Derefs to
/// the buckets.
#[derive(Debug)]
pub(crate) struct EpochBuckets<B: Default + 'static> {
    buckets: Box<[B]>,
    /// The current epoch, below [`EpochBuckets::epochs`].
    epoch: u64,
}

/// [`EpochBuckets`] as the pool keeps them (without the `Drop` that gives them back).
struct Kept<B> {
    buckets: Box<[B]>,
    epoch: u64,
}

impl<B: Default + 'static> EpochBuckets<B> {
    /// `len` empty buckets (`len` a power of two): the memory of a dropped table of this
    /// size kept on this thread, cleared, or else newly allocated and zeroed memory;
    /// fails, without aborting, if that memory cannot be allocated.
    pub(crate) fn new(len: usize) -> Result<Self, OutOfMemory> {
        debug_assert!(len.is_power_of_two());
        let (kept, reused) = reuse_or_allocate(
            |k: &Kept<B>| k.buckets.len() == len,
            || {
                let out_of_memory = OutOfMemory {
                    bytes: len.saturating_mul(std::mem::size_of::<B>()),
                };
                let mut buckets = Vec::new();
                buckets.try_reserve_exact(len).map_err(|_| out_of_memory)?;
                buckets.resize_with(len, B::default);
                Ok(Kept {
                    buckets: buckets.into_boxed_slice(),
                    epoch: 0,
                })
            },
        )?;
        let mut memory = EpochBuckets {
            buckets: kept.buckets,
            epoch: kept.epoch,
        };
        if reused {
            memory.clear();
        }
        Ok(memory)
    }

    /// The buckets of a table of at most `mb` MiB: the largest power of two of them that
    /// fits, at least one (as [`EpochBuckets::new`] takes them). Both tables size
    /// themselves here, so a `hash` option means the same memory for either.
    pub(crate) fn within_mib(mb: usize) -> Result<Self, OutOfMemory> {
        let bytes = mb.saturating_mul(1 << 20);
        let fit = (bytes / std::mem::size_of::<B>()).max(1);
        Self::new(1usize << (usize::BITS - 1 - fit.leading_zeros()))
    }

    /// The bucket of `key`: its low bits (the number of buckets is a power of two).
    #[inline]
    pub(crate) fn index(&self, key: u64) -> usize {
        key as usize & (self.buckets.len() - 1)
    }

    /// Whether a slot that holds `stored` (a [`EpochBuckets::tag`] of some key) in the
    /// bucket of a key whose tag now is `tag` was written in an earlier epoch: its
    /// bucket-index bits differ, as they never do between keys of one bucket and epoch.
    /// Such a slot counts as empty.
    #[inline]
    pub(crate) fn of_earlier_epoch(&self, stored: u64, tag: u64) -> bool {
        (stored ^ tag) & (self.buckets.len() as u64 - 1) != 0
    }

    /// The current epoch.
    #[cfg(test)]
    pub(crate) fn epoch(&self) -> u64 {
        self.epoch
    }

    /// How many epochs the buckets tell apart: [`EPOCHS`], or fewer with fewer buckets
    /// (the epoch lives in the bucket-index bits of a stored key).
    pub(crate) fn epochs(&self) -> u64 {
        (self.buckets.len() as u64).min(EPOCHS)
    }

    /// Starts a new epoch, so that every entry stored before counts as empty; the clear
    /// that would wrap the epochs zeroes the buckets instead.
    pub(crate) fn clear(&mut self) {
        self.epoch += 1;
        if self.epoch == self.epochs() {
            self.zero();
        }
    }

    /// Zeroes every bucket and starts again at epoch 0.
    pub(crate) fn zero(&mut self) {
        self.buckets.fill_with(B::default);
        self.epoch = 0;
    }

    /// What a slot stores in place of `key` in this epoch: the key with the epoch in its
    /// bucket-index bits.
    #[inline]
    pub(crate) fn tag(&self, key: u64) -> u64 {
        key ^ self.epoch
    }
}

impl<B: Default + 'static> Deref for EpochBuckets<B> {
    type Target = [B];

    #[inline]
    fn deref(&self) -> &[B] {
        &self.buckets
    }
}

impl<B: Default + 'static> DerefMut for EpochBuckets<B> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [B] {
        &mut self.buckets
    }
}

impl<B: Default + 'static> Drop for EpochBuckets<B> {
    /// Gives the memory to the pool, which keeps it for the thread's next table of this
    /// size if the thread reuses tables.
    fn drop(&mut self) {
        give_back(Kept {
            buckets: std::mem::take(&mut self.buckets),
            epoch: self.epoch,
        });
    }
}

/// The checks that every table built on [`EpochBuckets`] must pass, written once: a
/// cleared table answers as a new one across the epoch wrap, and a thread that reuses
/// tables allocates each size once. Each table's tests call them with its own rounds.
#[cfg(test)]
pub(crate) mod shared_checks {
    use super::*;

    /// A table as the shared checks drive it.
    pub(crate) trait TableUnderTest: Sized {
        /// What a probe answers.
        type Probe: PartialEq + std::fmt::Debug;
        /// An empty table of at most `mb` MiB.
        fn new(mb: usize) -> Self;
        /// Empties the table (the table's own `clear`).
        fn clear(&mut self);
        /// Its buckets' current epoch, and how many epochs they tell apart.
        fn epoch(&self) -> (u64, u64);
        /// Whether a probe of `key` finds nothing.
        fn holds_nothing_for(&self, key: u64) -> bool;
        /// Keys of a game numbered `round`: some recur in every round, some are this
        /// round's, in a few buckets so that replacement runs.
        fn round_keys(round: u64) -> Vec<u64>;
        /// Stores the keys of `round` over a few searches and returns what every one of
        /// them probes afterwards.
        fn play_round(&mut self, round: u64) -> Vec<Self::Probe>;
    }

    /// Over `2 · EPOCHS + 3` games, a table cleared after each answers every probe as a
    /// new one, and no entry outlives a clear, for each size in `mbs`.
    pub(crate) fn a_cleared_table_answers_as_a_new_one<T: TableUnderTest>(mbs: &[usize]) {
        for &mb in mbs {
            let mut reused = T::new(mb);
            let mut stored = Vec::new();
            for round in 0..2 * EPOCHS + 3 {
                let mut fresh = T::new(mb);
                assert_eq!(
                    reused.play_round(round),
                    fresh.play_round(round),
                    "{mb} MiB, round {round}"
                );
                stored.extend(T::round_keys(round));
                reused.clear();
                assert!(
                    stored.iter().all(|&k| reused.holds_nothing_for(k)),
                    "{mb} MiB: an entry outlived clear {round}"
                );
            }
            let (epoch, epochs) = reused.epoch();
            assert_eq!(epoch, 3 % epochs);
        }
    }

    /// On a thread that reuses tables, 20 games that each build one table of every size
    /// in `mbs` (the `j`-th size plays round `round + 1000 · j`) allocate each size once,
    /// and each new table holds nothing of the games before.
    pub(crate) fn a_thread_that_reuses_tables_allocates_each_size_once<T: TableUnderTest>(
        mbs: &[usize],
    ) {
        // Tests run on threads of their own: this one's pool and counter are its own.
        reuse_tables_on_this_thread();
        let before = tables_allocated_on_this_thread();
        let mut stored = Vec::new();
        for round in 0..20 {
            let mut tables: Vec<T> = mbs.iter().map(|&mb| T::new(mb)).collect();
            assert!(stored
                .iter()
                .all(|&k| tables.iter().all(|t| t.holds_nothing_for(k))));
            for (j, t) in (0..).zip(&mut tables) {
                t.play_round(round + 1000 * j);
                stored.extend(T::round_keys(round + 1000 * j));
            }
        }
        assert_eq!(tables_allocated_on_this_thread() - before, mbs.len() as u64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_is_reused_only_where_asked_and_only_at_its_size() {
        // Each test runs on its own thread, so these counters and flags are this test's.
        let take = |len: usize| {
            reuse_or_allocate(|v: &Vec<u8>| v.len() == len, || Ok::<_, ()>(vec![0; len])).unwrap()
        };
        let (a, reused) = take(8);
        assert!(!reused);
        give_back(a);
        assert!(!take(8).1, "not kept before reuse is switched on");
        assert_eq!(tables_allocated_on_this_thread(), 2);

        reuse_tables_on_this_thread();
        let (a, _) = take(8);
        let (b, _) = take(16);
        give_back(a);
        give_back(b);
        assert_eq!(tables_allocated_on_this_thread(), 4);
        let (b, reused) = take(16);
        assert!(reused);
        let (a, reused) = take(8);
        assert!(reused);
        assert_eq!(tables_allocated_on_this_thread(), 4);
        give_back(a);
        give_back(b);
        // A size not kept frees what is kept: the 8 is gone afterwards.
        let (c, reused) = take(32);
        assert!(!reused);
        assert!(KEPT.with(|k| k.borrow().is_empty()));
        give_back(c);
        assert!(!take(8).1);
        assert_eq!(tables_allocated_on_this_thread(), 6);
    }
}
