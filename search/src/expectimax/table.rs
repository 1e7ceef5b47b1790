//! The chance searches' transposition table: a fixed-size array of exact bounds by
//! position, for the single-threaded `expectimax`, `star1` and `star2` agents.
//!
//! # Shape
//!
//! A power-of-two number of 64-byte buckets (one cache line), each of two 32-byte
//! entries; a position's key picks its bucket by its low bits. An entry holds the full
//! 64-bit key (a false hit would break the searches' exactness, so nothing short of a
//! Zobrist collision may produce one), the remaining depth, the best move, the search
//! generation that wrote it, and exact bounds `[lo, hi]` in a compact form. The size is
//! fixed when the table is built, so searching never allocates.
//!
//! # Compact exact bounds
//!
//! [`Exact`] values are `i128` fractions; an entry keeps both bounds over one shared
//! denominator in 128 bits: the denominator in [`DEN_BITS`] bits and each numerator in
//! [`NUM_BITS`] signed bits. That holds every bound whose common denominator is below
//! 2⁴⁰ and whose numerators are below 2⁴³ in size: for Pig (bounds ±1000, a d6) values
//! with up to 12 chance events below them. A bound that does not fit is not stored;
//! the entry still records the move, so the deep nodes that lose their bounds keep
//! their move ordering. Nothing is ever rounded: a bound is stored exactly or not at all.
//!
//! # Generations
//!
//! Values are relative to the seat whose view a search takes, so a search may use only
//! the bounds its own generation wrote. [`ChanceTable::new_search`] starts a new
//! generation instead of clearing the table; entries of older generations keep their
//! moves (a move does not depend on the view) and are the first to be replaced. The
//! generation is 16 bits; when it wraps, the table is cleared once, so an entry 65 536
//! searches old can never pass for a current one.
//!
//! # Clearing in O(1)
//!
//! Clearing (`ChanceTable::clear`, which only the tests call: an agent uses one table
//! for one game) empties the table so that it answers exactly
//! as a new one, the way [`crate::tt`] does: a clear starts a new *epoch*, stored in the
//! bucket-index bits of each entry's key (which every key of a bucket shares, so they
//! are free), and an entry of another epoch never matches a key probed now and counts as
//! empty when choosing a victim. The clear that would wrap the epochs zeroes the table
//! for real. The generation starts again at 1, as in a new table.
//!
//! # Replacement
//!
//! A store for a key already in its bucket updates that entry: at the same depth and
//! generation it intersects the bounds, otherwise it overwrites them; a store without
//! a move keeps the move known before. A new key replaces, in this order, an empty
//! entry, an entry of an older generation, then the entry of smaller remaining depth
//! (it cost less to compute), the second slot on a tie.

use crate::exact::{gcd, Exact};
use crate::table_pool::{EpochBuckets, OutOfMemory};

/// Entries per bucket: two 32-byte entries fill one 64-byte cache line.
const ENTRIES_PER_BUCKET: usize = 2;

/// Bits of the shared denominator in the packed bounds.
pub const DEN_BITS: u32 = 40;
/// Signed bits of each numerator in the packed bounds (`2 · 44 + 40 = 128`).
pub const NUM_BITS: u32 = 44;
const _: () = assert!(DEN_BITS + 2 * NUM_BITS == 128);

// Layout of the meta word, low bits first: move code (32), depth (8), has-move flag (1),
// has-bounds flag (1), unused (6), generation (16). Generation 0 marks an empty entry.
const DEPTH_SHIFT: u32 = 32;
const HAS_MOVE: u64 = 1 << 40;
const HAS_BOUNDS: u64 = 1 << 41;
const GEN_SHIFT: u32 = 48;

/// One entry, as stored.
#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    /// The position's full key with the epoch in its bucket-index bits (see the module
    /// docs).
    key: u64,
    /// Move, depth, flags and generation (see the layout above).
    meta: u64,
    /// The bounds over a shared denominator (see the module docs); meaningful only with
    /// the has-bounds flag.
    bounds: u128,
}

const _: () = assert!(std::mem::size_of::<Slot>() == 32);

/// Two entries in one cache line.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(64))]
struct Bucket {
    slots: [Slot; ENTRIES_PER_BUCKET],
}

const _: () = assert!(std::mem::size_of::<Bucket>() == 64);

/// What the table knows about one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChanceEntry {
    /// Remaining depth the bounds were searched to.
    pub depth: u8,
    /// Exact bounds `(lo, hi)` on the position's value at `depth`, written by the
    /// current search (`None` if they did not fit, or are from an older search).
    pub bounds: Option<(Exact, Exact)>,
    /// The best move's [`agon_engine::Move::pack`] code, from any search.
    pub mv: Option<u32>,
}

/// A fixed-size table of exact bounds (see the module docs).
#[derive(Debug)]
pub struct ChanceTable {
    /// The buckets, with the epoch of their current entries (see the module docs).
    buckets: EpochBuckets<Bucket>,
    /// The current search's generation, `1..=u16::MAX`.
    generation: u16,
}

/// The bounds packed over their least common denominator, or `None` if they do not
/// fit the field widths.
fn pack_bounds(lo: Exact, hi: Exact) -> Option<u128> {
    let g = gcd(lo.den(), hi.den());
    let den = (lo.den() / g).checked_mul(hi.den())?;
    if den >= 1 << DEN_BITS {
        return None;
    }
    let limit = 1i128 << (NUM_BITS - 1);
    let field = |x: Exact| -> Option<u128> {
        let num = x.num().checked_mul(den / x.den())?;
        (-limit..limit)
            .contains(&num)
            .then_some((num as u128) & ((1 << NUM_BITS) - 1))
    };
    Some(den as u128 | field(lo)? << DEN_BITS | field(hi)? << (DEN_BITS + NUM_BITS))
}

/// The inverse of [`pack_bounds`].
fn unpack_bounds(word: u128) -> (Exact, Exact) {
    let den = (word & ((1 << DEN_BITS) - 1)) as i128;
    // Shift the field to the top and back to sign-extend it.
    let field = |shift: u32| ((word << (128 - shift - NUM_BITS)) as i128) >> (128 - NUM_BITS);
    (
        Exact::new(field(DEN_BITS), den),
        Exact::new(field(DEN_BITS + NUM_BITS), den),
    )
}

impl ChanceTable {
    /// An empty table of at most `mb` MiB (at least one bucket): the largest power of
    /// two of 64-byte buckets that fits. Allocates the whole table now, once, or, on a
    /// thread that reuses tables ([`crate::table_pool::reuse_tables_on_this_thread`]),
    /// clears and reuses the memory of a dropped table of the same size.
    /// Fails, without aborting, if the memory cannot be allocated.
    pub fn new(mb: usize) -> Result<ChanceTable, OutOfMemory> {
        Ok(ChanceTable {
            buckets: EpochBuckets::within_mib(mb)?,
            generation: 1,
        })
    }

    /// Number of entries the table holds when full (the tests check the sizing).
    #[cfg(test)]
    pub fn capacity(&self) -> usize {
        self.buckets.len() * ENTRIES_PER_BUCKET
    }

    /// Empties the table: from now on it answers exactly as a new one, in O(1) except
    /// once every [`crate::table_pool::EPOCHS`] clears, when it zeroes its memory (see the module
    /// docs). An agent uses one table for one game, so only the tests clear it, to check
    /// the shared epoch machinery through this table too.
    #[cfg(test)]
    pub fn clear(&mut self) {
        self.generation = 1;
        self.buckets.clear();
    }

    /// Starts a new search: bounds stored before are no longer returned (their moves
    /// still are).
    pub fn new_search(&mut self) {
        self.generation = match self.generation.checked_add(1) {
            Some(g) => g,
            None => {
                self.buckets.fill(Bucket::default());
                1
            }
        };
    }

    /// What the table holds for `key`, if anything.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<ChanceEntry> {
        let tag = self.buckets.tag(key);
        let slot = self.buckets[self.buckets.index(key)]
            .slots
            .iter()
            .find(|s| s.key == tag && s.meta >> GEN_SHIFT != 0)?;
        let current = (slot.meta >> GEN_SHIFT) as u16 == self.generation;
        Some(ChanceEntry {
            depth: (slot.meta >> DEPTH_SHIFT) as u8,
            bounds: (current && slot.meta & HAS_BOUNDS != 0).then(|| unpack_bounds(slot.bounds)),
            mv: (slot.meta & HAS_MOVE != 0).then_some(slot.meta as u32),
        })
    }

    /// Records bounds `[lo, hi]` on `key`'s value at remaining `depth` and its best
    /// move, replacing as the module docs describe.
    pub fn store(&mut self, key: u64, depth: u8, lo: Exact, hi: Exact, mv: Option<u32>) {
        let generation = self.generation;
        let tag = self.buckets.tag(key);
        let b = self.buckets.index(key);
        let slots = self.buckets[b].slots;
        let same = slots
            .iter()
            .position(|s| s.key == tag && s.meta >> GEN_SHIFT != 0);
        let (index, (lo, hi), mv) = match same {
            Some(i) => {
                let old = slots[i];
                let old_mv = (old.meta & HAS_MOVE != 0).then_some(old.meta as u32);
                let same_depth = (old.meta >> DEPTH_SHIFT) as u8 == depth
                    && (old.meta >> GEN_SHIFT) as u16 == generation
                    && old.meta & HAS_BOUNDS != 0;
                let bounds = if same_depth {
                    let (old_lo, old_hi) = unpack_bounds(old.bounds);
                    (lo.max(old_lo), hi.min(old_hi))
                } else {
                    (lo, hi)
                };
                (i, bounds, mv.or(old_mv))
            }
            None => {
                // Worth of keeping a slot: empty (or of an earlier epoch, whose
                // bucket-index bits differ) < older generation < shallower.
                let worth = |s: &Slot| {
                    let g = (s.meta >> GEN_SHIFT) as u16;
                    let d = (s.meta >> DEPTH_SHIFT) as u8;
                    match g {
                        0 => 0,
                        _ if self.buckets.of_earlier_epoch(s.key, tag) => 0,
                        g if g != generation => 1,
                        _ => 2 + u32::from(d),
                    }
                };
                let index = if worth(&slots[0]) < worth(&slots[1]) {
                    0
                } else {
                    1
                };
                (index, (lo, hi), mv)
            }
        };
        let packed = pack_bounds(lo, hi);
        let mut meta = u64::from(depth) << DEPTH_SHIFT | u64::from(generation) << GEN_SHIFT;
        if let Some(code) = mv {
            meta |= HAS_MOVE | u64::from(code);
        }
        if packed.is_some() {
            meta |= HAS_BOUNDS;
        }
        self.buckets[b].slots[index] = Slot {
            key: tag,
            meta,
            bounds: packed.unwrap_or(0),
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table_pool::shared_checks::{self, TableUnderTest};

    fn x(num: i128, den: i128) -> Exact {
        Exact::new(num, den)
    }

    #[test]
    fn sizes_are_powers_of_two_within_the_budget() {
        assert_eq!(ChanceTable::new(1).unwrap().capacity(), (1 << 20) / 32);
        assert_eq!(ChanceTable::new(3).unwrap().capacity(), (2 << 20) / 32);
        assert_eq!(ChanceTable::new(0).unwrap().capacity(), ENTRIES_PER_BUCKET);
    }

    #[test]
    fn bounds_pack_exactly_or_not_at_all() {
        let cases = [
            (x(-1000, 1), x(1000, 1)),
            (x(-35, 6), x(-35, 6)),
            (x(7, 36), x(-1, 216)),
            (x(1, (1 << 40) - 1), x(-1, 1)),
            (x(-(1 << 41), 1), x((1 << 41) + 1, 3)),
        ];
        for (lo, hi) in cases {
            assert_eq!(unpack_bounds(pack_bounds(lo, hi).unwrap()), (lo, hi));
        }
        // Denominator 2⁴⁰, a numerator of 2⁴³, a common denominator too large.
        assert_eq!(pack_bounds(x(1, 1 << 40), x(0, 1)), None);
        assert_eq!(pack_bounds(x(1 << 43, 1), x(0, 1)), None);
        assert_eq!(pack_bounds(x(1, 1 << 39), x(1, 3)), None);
    }

    #[test]
    fn stores_read_back_and_intersect_at_the_same_depth() {
        let mut t = ChanceTable::new(1).unwrap();
        let key = 0x9E37_79B9_7F4A_7C15;
        assert_eq!(t.probe(key), None);
        assert_eq!(
            ChanceTable::new(1).unwrap().probe(0),
            None,
            "an empty slot is no hit"
        );
        t.store(key, 3, x(-1000, 1), x(5, 6), Some(1));
        t.store(key, 3, x(-1, 3), x(1000, 1), None);
        let e = t.probe(key).unwrap();
        assert_eq!(e.bounds, Some((x(-1, 3), x(5, 6))));
        assert_eq!((e.depth, e.mv), (3, Some(1)));
        // Another depth overwrites the bounds; a bound that does not fit is left out,
        // the move is kept.
        t.store(key, 4, x(2, 1), x(2, 1), Some(0));
        assert_eq!(t.probe(key).unwrap().bounds, Some((x(2, 1), x(2, 1))));
        t.store(key, 5, x(1, 1 << 41), x(1, 1 << 41), None);
        let e = t.probe(key).unwrap();
        assert_eq!((e.depth, e.bounds, e.mv), (5, None, Some(0)));
        assert_eq!(t.probe(key ^ 1 << 40), None, "another key in the bucket");
    }

    #[test]
    fn a_new_search_keeps_moves_but_not_bounds() {
        let mut t = ChanceTable::new(0).unwrap();
        t.store(1, 2, x(1, 1), x(1, 1), Some(9));
        t.new_search();
        assert_eq!(
            t.probe(1),
            Some(ChanceEntry {
                depth: 2,
                bounds: None,
                mv: Some(9)
            })
        );
        // Wrapping the generation (now 2) clears the table.
        for _ in 0..u16::MAX - 1 {
            t.new_search();
        }
        assert_eq!(t.generation, 1);
        assert_eq!(t.probe(1), None);
    }

    impl TableUnderTest for ChanceTable {
        type Probe = Option<ChanceEntry>;

        fn new(mb: usize) -> Self {
            ChanceTable::new(mb).unwrap()
        }

        fn clear(&mut self) {
            ChanceTable::clear(self);
        }

        fn epoch(&self) -> (u64, u64) {
            (self.buckets.epoch(), self.buckets.epochs())
        }

        fn holds_nothing_for(&self, key: u64) -> bool {
            self.probe(key).is_none()
        }

        /// Six keys that recur in every round and six of this round, all in buckets 0
        /// and 3 so that replacement runs, then three of this round in bucket 7, one for
        /// each search of `play_round`.
        fn round_keys(round: u64) -> Vec<u64> {
            (0..15u64)
                .map(|i| {
                    let high = if i < 6 { i + 1 } else { (round << 8) + i };
                    let bucket = if i < 12 { [0, 3][i as usize % 2] } else { 7 };
                    bucket | high.wrapping_mul(0x9E37_79B9_7F4A_7C15) << 20
                })
                .collect()
        }

        /// Three searches (overlapping windows of the first twelve keys, and one new key
        /// in bucket 7 per search, so that entries of older generations meet new keys).
        fn play_round(&mut self, round: u64) -> Vec<Option<ChanceEntry>> {
            let keys = Self::round_keys(round);
            for search in 0..3 {
                self.new_search();
                let window = (4 * search..4 * search + 6).chain([12 + search]);
                for i in window {
                    let depth = ((i as u64 * 5 + search as u64 * 3 + round) % 7) as u8;
                    let v = x(i as i128 - 6, 1 + search as i128);
                    self.store(keys[i], depth, v, v, (i % 3 != 0).then_some(i as u32));
                }
            }
            keys.iter().map(|&k| self.probe(k)).collect()
        }
    }

    #[test]
    fn a_cleared_table_answers_as_a_new_one_across_the_epoch_wrap() {
        // One bucket (every clear zeroes it) and 32,768 buckets (256 epochs).
        shared_checks::a_cleared_table_answers_as_a_new_one::<ChanceTable>(&[0, 2]);
    }

    #[test]
    fn a_thread_that_reuses_tables_allocates_each_size_once() {
        shared_checks::a_thread_that_reuses_tables_allocates_each_size_once::<ChanceTable>(&[1]);
    }

    #[test]
    fn replacement_prefers_empty_then_old_then_shallow() {
        let mut t = ChanceTable::new(0).unwrap(); // one bucket: every key collides
        let v = x(0, 1);
        t.store(1, 9, v, v, None);
        t.store(2, 3, v, v, None);
        t.store(3, 5, v, v, None); // replaces key 2, the shallower
        assert!(t.probe(2).is_none() && t.probe(1).is_some() && t.probe(3).is_some());
        t.new_search();
        t.store(3, 1, v, v, None); // same key: updated in place
        t.store(4, 0, v, v, None); // key 1 is older: replaced despite its depth
        assert!(t.probe(1).is_none() && t.probe(3).is_some() && t.probe(4).is_some());
    }
}
