//! The transposition table: a fixed-size, lock-free cache of search results by position.
//!
//! The table is an array of buckets, one 64-byte cache line each, holding four entries.
//! A position's Zobrist key picks its bucket (the key's low bits: the number of buckets
//! is a power of two) and may sit in any of the bucket's four entries, so a probe reads
//! a single cache line.
//!
//! # Lock-free sharing
//!
//! Every method takes `&self`, so threads can share one table (Lazy SMP) with no lock
//! and no `unsafe`. An entry is two `AtomicU64` words: `data` (move, score, depth,
//! bound, proven flag and age packed together) and `check = key ^ data`. A writer stores both words
//! with two independent atomic stores; a reader loads both and accepts the entry for
//! `key` only if `check ^ data == key`. A reader that sees one word from one write and
//! the other from another (a torn entry) gets, for `check = k1 ^ d1` and `data = d2`,
//! `k1 ^ d1 ^ d2`, which equals the key it asks for only if `d1 == d2` (and then the
//! data it reads is the data written for that key) or by a 2⁻⁶⁴ coincidence. So a torn
//! entry is never used, and a matching entry always holds data that was written for
//! that key. The same check also rejects (up to the same odds) entries of other
//! positions that share the bucket: the full 64-bit key is verified.
//!
//! A move read from the table may still belong to another position (two positions with
//! equal keys), so search uses it only after finding it among the legal moves.
//!
//! # Replacement
//!
//! A store for a position already in the bucket updates that entry, except that a
//! bound of the same search that reaches less far (shallower, or heuristic where the
//! old one is proven) does not replace the old one unless it is exact. Otherwise the
//! store replaces the least valuable entry: empty first, then the lowest
//! `depth - AGE_WEIGHT × age`, where age counts the searches since the entry was written
//! ([`TranspositionTable::new_search`]); ties are broken by key bits, so that equally
//! valuable entries are replaced in turn rather than always in the same slot.
//!
//! # Clearing in O(1): epochs
//!
//! A table can be cleared ([`TranspositionTable::clear`]) so that it answers exactly as
//! a newly zeroed one: every entry stored before reads as empty, to probes and to the
//! replacement choice alike. Rather than zeroing every bucket, a clear starts a new
//! *epoch*, which entries carry in the key's bucket-index bits. Those bits of a stored
//! key are redundant (every key in a bucket has the same ones), so the table stores
//! `key ^ epoch` in their place: with the epoch below the number of buckets it changes
//! only those bits. An entry of another epoch in the same bucket then differs from every
//! key probed now in exactly those bits, so it never matches, and its epoch can be read
//! back to treat it as empty when choosing a victim. The epochs run
//! `0..`[`EPOCHS`](crate::table_pool::EPOCHS) (or up to the number of buckets, if fewer); the clear that would wrap them zeroes the
//! table for real and starts again at epoch 0. A clear also resets the search age to a
//! new table's. This is what lets a thread reuse a table's memory for its next agent
//! ([`crate::table_pool`]) with results identical to a fresh table's.
//!
//! Only a whole entry is told apart this way: an entry torn by two threads (see above)
//! in an earlier epoch passes for a current one with the same negligible odds as a torn
//! entry of the current epoch.

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering::Relaxed};

use crate::table_pool::{EpochBuckets, OutOfMemory};

/// The default table size in MiB, written once: [`DEFAULT_HASH_MB`] reads it as a
/// number and the registry's `hash` parameter as its default text (`concat!` expands it).
macro_rules! default_hash_mb {
    () => {
        16
    };
}
pub(crate) use default_hash_mb;

/// Default table size in MiB (`ab`'s and the chance agents' `hash` default): room for a
/// million entries (half a million of the chance agents' larger ones), more than the
/// searches of a tournament move at the default depths visit, and small enough that
/// many workers and seats fit in memory together. Proofs want far more
/// ([`crate::solve::DEFAULT_SOLVE_HASH_MB`]).
pub const DEFAULT_HASH_MB: usize = default_hash_mb!();

/// Largest accepted table size in MiB (16 GiB): a typo guard, not a design limit.
pub const MAX_HASH_MB: usize = 16 * 1024;

/// Entries per bucket: four 16-byte entries fill one 64-byte cache line.
const ENTRIES_PER_BUCKET: usize = 4;

/// Bits of the age field: searches are told apart modulo 16, ample to tell recent
/// entries from stale ones (an entry 16 searches old reads as fresh again, which costs
/// only a little table efficiency, never correctness).
const AGE_BITS: u32 = 4;
const AGE_MASK: u8 = (1 << AGE_BITS) - 1;

/// How many plies of depth one search of age is worth when choosing a victim: an entry
/// from the previous search must be 4 plies deeper than a current one to survive it, so
/// deep results outlive a move or two (the next search reaches the same positions) but
/// not a whole game.
const AGE_WEIGHT: i32 = 4;

// Layout of the data word, low bits first: move code (32 bits), score as i16 (16),
// depth (8), bound (2: 0 marks an empty entry), has-move flag (1), proven flag (1),
// age (4). 64 in all.
const VALUE_SHIFT: u32 = 32;
const DEPTH_SHIFT: u32 = 48;
const BOUND_SHIFT: u32 = 56;
const HAS_MOVE_SHIFT: u32 = 58;
const PROVEN_SHIFT: u32 = 59;
const AGE_SHIFT: u32 = 60;

/// What a stored score says about the true value of its position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bound {
    /// The true value is at most the score (the search failed low).
    Upper,
    /// The true value is at least the score (the search failed high: a cut-off).
    Lower,
    /// The score is the value at the stored depth.
    Exact,
}

impl Bound {
    const fn code(self) -> u64 {
        match self {
            Bound::Upper => 1,
            Bound::Lower => 2,
            Bound::Exact => 3,
        }
    }

    const fn from_code(code: u64) -> Option<Bound> {
        match code {
            1 => Some(Bound::Upper),
            2 => Some(Bound::Lower),
            3 => Some(Bound::Exact),
            _ => None,
        }
    }
}

/// One search result for a position, as stored and as read back.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TtEntry {
    /// The best move found, as [`agon_engine::Move::pack`] gives it (`None` if the
    /// search found none, e.g. every move failed low at the first try).
    pub mv: Option<u32>,
    /// The score, node-relative (see [`crate::score::to_table`]); must fit in an `i16`.
    pub value: i32,
    /// Remaining depth the score was searched to. Also the entry's worth when the
    /// table must choose what to replace: a deeper search cost more to redo.
    pub depth: u8,
    /// How the score bounds the true value.
    pub bound: Bound,
    /// The subtree behind the score was searched to finished games only (no heuristic
    /// leaf), so the bound holds for the game itself, at every depth.
    pub proven: bool,
}

impl TtEntry {
    /// How far the entry's bound reaches: its depth, or beyond every depth if proven.
    fn validity(&self) -> u32 {
        if self.proven {
            u32::from(u8::MAX) + 1
        } else {
            u32::from(self.depth)
        }
    }

    fn pack(&self, age: u8) -> u64 {
        debug_assert!(
            i16::try_from(self.value).is_ok(),
            "score {} does not fit the table",
            self.value
        );
        let (has_move, code) = match self.mv {
            Some(code) => (1, u64::from(code)),
            None => (0, 0),
        };
        code | (u64::from(self.value as i16 as u16) << VALUE_SHIFT)
            | (u64::from(self.depth) << DEPTH_SHIFT)
            | (self.bound.code() << BOUND_SHIFT)
            | (has_move << HAS_MOVE_SHIFT)
            | (u64::from(self.proven) << PROVEN_SHIFT)
            | (u64::from(age & AGE_MASK) << AGE_SHIFT)
    }

    /// The entry in `data` and its age, or `None` for an empty entry.
    fn unpack(data: u64) -> Option<(TtEntry, u8)> {
        let bound = Bound::from_code((data >> BOUND_SHIFT) & 3)?;
        let has_move = (data >> HAS_MOVE_SHIFT) & 1 == 1;
        let entry = TtEntry {
            mv: has_move.then_some(data as u32),
            value: i32::from((data >> VALUE_SHIFT) as u16 as i16),
            depth: (data >> DEPTH_SHIFT) as u8,
            bound,
            proven: (data >> PROVEN_SHIFT) & 1 == 1,
        };
        Some((entry, (data >> AGE_SHIFT) as u8 & AGE_MASK))
    }
}

/// One entry: see the module docs for why two words.
#[derive(Debug, Default)]
struct Slot {
    /// `key ^ data`.
    check: AtomicU64,
    data: AtomicU64,
}

impl Slot {
    /// Both words, as one reader sees them (possibly torn).
    fn load(&self) -> (u64, u64) {
        (self.check.load(Relaxed), self.data.load(Relaxed))
    }

    fn store(&self, key: u64, data: u64) {
        self.check.store(key ^ data, Relaxed);
        self.data.store(data, Relaxed);
    }
}

/// Four entries in one cache line.
#[derive(Debug, Default)]
#[repr(C, align(64))]
struct Bucket {
    slots: [Slot; ENTRIES_PER_BUCKET],
}

const _: () = assert!(std::mem::size_of::<Bucket>() == 64);

/// A fixed-size table of search results shared by reference (see the module docs).
#[derive(Debug)]
pub struct TranspositionTable {
    /// The buckets, with the epoch of their current entries (see the module docs).
    buckets: EpochBuckets<Bucket>,
    /// The current search's age, `0..16`.
    age: AtomicU8,
}

impl TranspositionTable {
    /// An empty table of at most `mb` MiB (at least one bucket): the largest power of two
    /// of 64-byte buckets that fits. On a thread that reuses tables
    /// ([`crate::table_pool::reuse_tables_on_this_thread`]) the memory of a dropped table
    /// of the same size is cleared and reused; otherwise it is allocated and zeroed now.
    ///
    /// Panics if the memory cannot be allocated; [`TranspositionTable::try_new`] reports it.
    pub fn new(mb: usize) -> TranspositionTable {
        TranspositionTable::try_new(mb).unwrap_or_else(|e| panic!("{e}"))
    }

    /// [`TranspositionTable::new`], or [`OutOfMemory`] if the memory cannot be allocated
    /// (the process goes on).
    pub fn try_new(mb: usize) -> Result<TranspositionTable, OutOfMemory> {
        Ok(TranspositionTable {
            buckets: EpochBuckets::within_mib(mb)?,
            age: AtomicU8::new(0),
        })
    }

    /// Number of entries the table holds when full.
    pub fn capacity(&self) -> usize {
        self.buckets.len() * ENTRIES_PER_BUCKET
    }

    /// Empties the table: from now on it answers exactly as a new one (every entry
    /// stored before is gone, the search age starts again), in O(1) except once every
    /// [`EPOCHS`](crate::table_pool::EPOCHS) clears, when it zeroes its memory (see the
    /// module docs).
    pub fn clear(&mut self) {
        *self.age.get_mut() = 0;
        self.buckets.clear();
    }

    /// Starts a new search: entries written from now on are younger than all others.
    pub fn new_search(&self) {
        let next = (self.age.load(Relaxed) + 1) & AGE_MASK;
        self.age.store(next, Relaxed);
    }

    fn bucket(&self, key: u64) -> &Bucket {
        &self.buckets[self.buckets.index(key)]
    }

    /// The entry stored for `key`, if any (see the module docs on torn entries).
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        let tag = self.buckets.tag(key);
        self.bucket(key).slots.iter().find_map(|slot| {
            let (check, data) = slot.load();
            if check ^ data == tag {
                TtEntry::unpack(data).map(|(entry, _)| entry)
            } else {
                None
            }
        })
    }

    /// Stores `entry` for `key`, replacing as the module docs describe.
    pub fn store(&self, key: u64, entry: TtEntry) {
        let age = self.age.load(Relaxed);
        let tag = self.buckets.tag(key);
        let bucket = self.bucket(key);
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        // Ties go to the first slot from a starting point taken from key bits that the
        // bucket index does not use, so that equally valuable entries (common in an
        // exhaustive search, where depth follows the ply) are replaced in turn.
        let first = (key >> 62) as usize;
        for k in 0..ENTRIES_PER_BUCKET {
            let i = (first + k) % ENTRIES_PER_BUCKET;
            let slot = &bucket.slots[i];
            let (check, data) = slot.load();
            let old = TtEntry::unpack(data);
            if check ^ data == tag {
                if let Some((old, old_age)) = old {
                    if old_age == age
                        && old.validity() > entry.validity()
                        && entry.bound != Bound::Exact
                    {
                        return;
                    }
                    // A re-search that found no move keeps the move found before.
                    let mv = entry.mv.or(old.mv);
                    slot.store(tag, TtEntry { mv, ..entry }.pack(age));
                    return;
                }
            }
            // An entry of an earlier epoch has other bucket-index bits: it counts as empty.
            let earlier_epoch = self.buckets.of_earlier_epoch(check ^ data, tag);
            let worth = match old {
                None => i32::MIN,
                Some(_) if earlier_epoch => i32::MIN,
                Some((old, old_age)) => {
                    let searches_ago = i32::from(age.wrapping_sub(old_age) & AGE_MASK);
                    i32::from(old.depth) - AGE_WEIGHT * searches_ago
                }
            };
            if worth < victim_worth {
                victim = i;
                victim_worth = worth;
            }
        }
        bucket.slots[victim].store(tag, entry.pack(age));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table_pool::shared_checks::{self, TableUnderTest};

    fn entry(mv: Option<u32>, value: i32, depth: u8, bound: Bound) -> TtEntry {
        TtEntry {
            mv,
            value,
            depth,
            bound,
            proven: false,
        }
    }

    #[test]
    fn sizes_are_powers_of_two_within_the_budget() {
        let t = TranspositionTable::new(1);
        assert_eq!(t.capacity(), (1 << 20) / 16);
        let t = TranspositionTable::new(3);
        assert_eq!(t.capacity(), (2 << 20) / 16);
        assert_eq!(TranspositionTable::new(0).capacity(), ENTRIES_PER_BUCKET);
    }

    #[test]
    fn stored_entries_read_back_exactly() {
        let t = TranspositionTable::new(1);
        let cases = [
            entry(Some(0), 0, 0, Bound::Exact),
            entry(None, -32_000, 7, Bound::Upper),
            entry(Some(u32::MAX), 32_000, u8::MAX, Bound::Lower),
            TtEntry {
                proven: true,
                ..entry(Some(77), -31_000, 3, Bound::Upper)
            },
            entry(Some(12345), -1, 254, Bound::Exact),
        ];
        for (i, e) in cases.iter().enumerate() {
            let key = 0x9E37_79B9_7F4A_7C15u64.wrapping_mul(i as u64 + 1);
            t.store(key, *e);
            assert_eq!(t.probe(key), Some(*e));
            assert_eq!(
                t.probe(key ^ 1 << 40),
                None,
                "another key in the same bucket"
            );
        }
        // Key 0 on an empty (all-zero) entry is not a hit.
        assert_eq!(TranspositionTable::new(1).probe(0), None);
    }

    #[test]
    fn a_torn_entry_is_never_returned() {
        let t = TranspositionTable::new(1);
        let (k1, k2) = (0x1234_5678_9ABC_DEF0u64, 0x0FED_CBA9_8765_4321u64);
        let (e1, e2) = (
            entry(Some(3), 100, 5, Bound::Exact),
            entry(Some(9), -40, 2, Bound::Lower),
        );
        let (d1, d2) = (e1.pack(0), e2.pack(0));
        let slot = &t.bucket(k1).slots[0];
        // The check word of one write with the data word of another, both ways round.
        for (check, data) in [(k1 ^ d1, d2), (k2 ^ d2, d1)] {
            slot.check.store(check, Relaxed);
            slot.data.store(data, Relaxed);
            assert_eq!(t.probe(k1), None);
            assert_eq!(t.probe(k2), None);
        }
        // Whole writes are found again.
        slot.store(k1, d1);
        assert_eq!(t.probe(k1), Some(e1));
    }

    #[test]
    fn concurrent_writers_never_produce_a_wrong_hit() {
        // Each key's value is a function of the key; two writers race on a tiny table
        // (one bucket) while a reader checks that every hit carries its own key's data.
        let t = TranspositionTable::new(0);
        let value_of = |k: u64| (k % 20_000) as i32 - 10_000;
        let keys: Vec<u64> = (1..=64u64)
            .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .collect();
        std::thread::scope(|s| {
            for w in 0..2 {
                let (t, keys) = (&t, &keys);
                s.spawn(move || {
                    for round in 0..20_000 {
                        let k = keys[(round * 7 + w * 13) % keys.len()];
                        let depth = (round % 200) as u8;
                        t.store(k, entry(Some(k as u32), value_of(k), depth, Bound::Exact));
                    }
                });
            }
            let (t, keys) = (&t, &keys);
            s.spawn(move || {
                let mut hits = 0;
                for round in 0..100_000 {
                    let k = keys[round % keys.len()];
                    if let Some(e) = t.probe(k) {
                        assert_eq!((e.mv, e.value), (Some(k as u32), value_of(k)));
                        hits += 1;
                    }
                }
                assert!(hits > 0);
            });
        });
    }

    impl TableUnderTest for TranspositionTable {
        type Probe = Option<TtEntry>;

        fn new(mb: usize) -> Self {
            TranspositionTable::new(mb)
        }

        fn clear(&mut self) {
            TranspositionTable::clear(self);
        }

        fn epoch(&self) -> (u64, u64) {
            (self.buckets.epoch(), self.buckets.epochs())
        }

        fn holds_nothing_for(&self, key: u64) -> bool {
            self.probe(key).is_none()
        }

        /// Eight keys that recur in every round (the same positions in every game) and
        /// eight of this round, all in buckets 0, 1 and 5 so that replacement runs.
        fn round_keys(round: u64) -> Vec<u64> {
            (0..16u64)
                .map(|i| {
                    let high = if i < 8 { i + 1 } else { (round << 8) + i };
                    [0, 1, 5][i as usize % 3] | high.wrapping_mul(0x9E37_79B9_7F4A_7C15) << 20
                })
                .collect()
        }

        /// Three searches at assorted depths and bounds.
        fn play_round(&mut self, round: u64) -> Vec<Option<TtEntry>> {
            let keys = Self::round_keys(round);
            for search in 0..3u64 {
                self.new_search();
                for (i, &k) in keys.iter().enumerate() {
                    let depth = ((i as u64 * 7 + search * 3 + round) % 11) as u8;
                    let bound = [Bound::Upper, Bound::Lower, Bound::Exact][i % 3];
                    self.store(k, entry(Some(i as u32), i as i32 - 8, depth, bound));
                }
            }
            keys.iter().map(|&k| self.probe(k)).collect()
        }
    }

    #[test]
    fn a_cleared_table_answers_as_a_new_one_across_the_epoch_wrap() {
        // One bucket (every clear zeroes it) and 16,384 buckets (256 epochs).
        shared_checks::a_cleared_table_answers_as_a_new_one::<TranspositionTable>(&[0, 1]);
    }

    #[test]
    fn a_thread_that_reuses_tables_allocates_each_size_once() {
        shared_checks::a_thread_that_reuses_tables_allocates_each_size_once::<TranspositionTable>(
            &[1, 2],
        );
    }

    #[test]
    fn replacement_prefers_empty_then_shallow_then_old() {
        let t = TranspositionTable::new(0); // one bucket: every key collides
        let e = |depth| entry(None, 0, depth, Bound::Exact);
        for (k, d) in [(1, 9), (2, 3), (3, 6), (4, 8)] {
            t.store(k, e(d));
        }
        t.store(5, e(1)); // replaces key 2, the shallowest
        assert_eq!(t.probe(2), None);
        assert!([1, 3, 4, 5].iter().all(|&k| t.probe(k).is_some()));
        t.new_search();
        t.new_search();
        t.store(6, e(0)); // key 5 is now worth 1 - 8: replaced before key 3 (6 - 8)
        assert_eq!(t.probe(5), None);
        // Same key: a shallower bound of the same search does not replace a deeper one,
        // an exact result does, and a move found before is kept.
        t.store(7, entry(Some(4), 10, 5, Bound::Lower));
        assert!(t.probe(7).is_some());
        t.store(7, entry(None, 11, 2, Bound::Lower));
        assert_eq!(t.probe(7).map(|e| e.depth), Some(5));
        t.store(7, entry(None, 12, 2, Bound::Exact));
        assert_eq!(t.probe(7), Some(entry(Some(4), 12, 2, Bound::Exact)));
        // A proven bound reaches further than any depth, both ways.
        let proven = TtEntry {
            proven: true,
            ..entry(Some(1), 30, 1, Bound::Lower)
        };
        t.store(7, proven);
        assert_eq!(t.probe(7), Some(proven));
        t.store(7, entry(None, 13, 9, Bound::Upper));
        assert_eq!(t.probe(7), Some(proven));
        // Among entries of equal worth the victim is not always the same slot, so that
        // a bucket of equally deep entries keeps turning over.
        let t = TranspositionTable::new(0);
        let key = |k: u64| k.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        for k in 0..4 {
            t.store(key(k), e(10));
        }
        for k in 4..40 {
            t.store(key(k), e(10));
        }
        assert!(
            (0..4).all(|k| t.probe(key(k)).is_none()),
            "every old entry was replaced"
        );
    }
}
