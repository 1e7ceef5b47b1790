//! The arena of the lock-free tree: fixed-capacity storage of [`Entry`]s, allocated a
//! segment at a time and never moved, handed out to each thread a [`Block`] at a time
//! (see the parent module's Layout and Scaling).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

use super::{Entry, NO_ROOM};

/// Entries per arena segment; a node's children never straddle two.
const SEGMENT: usize = 1 << 14;
/// Entries a thread takes from the arena at once, to allot its nodes' children from
/// ([`Block`]); a divisor of [`SEGMENT`].
pub(super) const BLOCK: usize = 512;
/// The longest run of children allotted from a thread's block; a longer one is taken
/// from the arena directly, so that a block's unused tail (wasted when a run does not
/// fit) stays under a sixteenth of it.
pub(super) const BLOCK_RUN: usize = BLOCK / 16;
/// The bytes of a cache line.
const LINE: usize = 64;

/// A value alone in its cache lines (128 bytes: some cores fetch lines in adjacent
/// pairs), so that a word written often shares no line with words read often.
#[repr(align(128))]
pub(super) struct Padded<T>(T);

/// Fixed-capacity storage of entries, allocated a segment at a time and never moved.
pub(super) struct Arena {
    /// Read by every access; never written once a segment is allocated.
    segments: Box<[OnceLock<Box<[Entry]>>]>,
    capacity: usize,
    /// The first entry not yet handed out: written at each claim, so kept off the line
    /// of the fields above.
    next: Padded<AtomicUsize>,
}

/// The entries a thread has claimed from the arena and not yet allotted: `next..end`.
#[derive(Default)]
pub(super) struct Block {
    next: u32,
    end: u32,
}

impl Arena {
    pub(super) fn new(capacity: usize) -> Self {
        let capacity = capacity.clamp(1, NO_ROOM as usize);
        Arena {
            segments: (0..capacity.div_ceil(SEGMENT))
                .map(|_| OnceLock::new())
                .collect(),
            capacity,
            next: Padded(AtomicUsize::new(0)),
        }
    }

    /// The start of `n` fresh consecutive entries in one segment, or `None` if they do
    /// not fit: from `block` if they fit there, else from a new block of [`BLOCK`]
    /// entries claimed for it (the old block's tail is left unused), else (a run longer
    /// than [`BLOCK_RUN`], or the arena's last entries) claimed directly.
    pub(super) fn alloc(&self, n: usize, block: &mut Block) -> Option<u32> {
        if n <= (block.end - block.next) as usize {
            let start = block.next;
            block.next += n as u32;
            return Some(start);
        }
        if n <= BLOCK_RUN {
            if let Some(start) = self.claim(BLOCK) {
                *block = Block {
                    next: start + n as u32,
                    end: start + BLOCK as u32,
                };
                return Some(start);
            }
        }
        self.claim(n)
    }

    /// The root's entry, the first one, alone in its cache line: the entry after it is
    /// left unused if it shares the line, so that the lines the threads write (the
    /// root's children first) leave the root's, which every iteration reads, alone.
    pub(super) fn claim_root(&self) -> u32 {
        let root = self.claim(1).expect("room for the root");
        if std::ptr::from_ref(self.get(root)) as usize % LINE == 0 {
            let _ = self.claim(1);
        }
        root
    }

    /// The start of `n` fresh consecutive entries in one segment taken from the shared
    /// counter, or `None` if they do not fit.
    fn claim(&self, n: usize) -> Option<u32> {
        if n > SEGMENT {
            return None;
        }
        let next = &self.next.0;
        let mut next_free = next.load(Ordering::Relaxed);
        loop {
            let start = if next_free % SEGMENT + n > SEGMENT {
                next_free.next_multiple_of(SEGMENT)
            } else {
                next_free
            };
            if start + n > self.capacity {
                return None;
            }
            match next.compare_exchange_weak(
                next_free,
                start + n,
                Ordering::Relaxed,
                Ordering::Relaxed,
            ) {
                Ok(_) => return Some(start as u32),
                Err(now) => next_free = now,
            }
        }
    }

    /// The entries from `start` to the end of its segment.
    #[inline]
    fn segment(&self, start: u32) -> &[Entry] {
        let i = start as usize;
        let first = i / SEGMENT * SEGMENT;
        let segment = self.segments[i / SEGMENT].get_or_init(|| {
            (0..SEGMENT.min(self.capacity - first))
                .map(|_| Entry::default())
                .collect()
        });
        &segment[i - first..]
    }

    #[inline]
    pub(super) fn get(&self, index: u32) -> &Entry {
        &self.segment(index)[0]
    }

    /// The `len` entries from `start` (allotted together, so in one segment).
    #[inline]
    pub(super) fn run(&self, start: u32, len: usize) -> &[Entry] {
        &self.segment(start)[..len]
    }
}

#[cfg(test)]
mod tests {
    use super::{Arena, Block, BLOCK, LINE};

    #[test]
    fn the_root_is_alone_in_its_cache_line() {
        let arena = Arena::new(1000);
        let root = arena.claim_root();
        let children = arena.alloc(7, &mut Block::default()).unwrap();
        let line = |i: u32| std::ptr::from_ref(arena.get(i)) as usize / LINE;
        assert_eq!(root, 0);
        assert_ne!(line(root), line(children));
    }

    #[test]
    fn blocks_hand_out_disjoint_runs_until_the_arena_is_nearly_full() {
        // Two threads' blocks, runs of 7 alternately, until neither fits.
        let capacity = 3 * BLOCK + 100;
        let arena = Arena::new(capacity);
        let mut blocks = [Block::default(), Block::default()];
        let mut owner = vec![None; capacity];
        let mut handed = 0;
        let mut fitted = true;
        while fitted {
            fitted = false;
            for (thread, block) in blocks.iter_mut().enumerate() {
                let Some(start) = arena.alloc(7, block) else {
                    continue;
                };
                for slot in &mut owner[start as usize..start as usize + 7] {
                    assert_eq!(*slot, None, "entry {start} handed out twice");
                    *slot = Some(thread);
                }
                handed += 7;
                fitted = true;
            }
        }
        // What goes unused: each block's tail, shorter than a run, and the arena's own
        // last entries.
        let blocks_claimed = capacity / BLOCK + 2;
        assert!(
            handed + 7 * (blocks_claimed + 2) >= capacity,
            "{handed} of {capacity}"
        );
        // The runs of each block are consecutive: a block is one thread's.
        assert!(owner[..BLOCK - 7].iter().all(|&o| o == owner[0]));
    }
}
