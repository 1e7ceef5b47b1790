//! The lock-free tree's storage: a fixed-capacity arena of entries, and each thread's
//! run of it.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

use super::{Entry, CHUNK, NO_ROOM, SEGMENT};

/// Fixed-capacity storage of entries, allocated a segment at a time and never moved.
pub(super) struct Arena {
    segments: Box<[OnceLock<Box<[Entry]>>]>,
    capacity: usize,
    next: AtomicUsize,
}

impl Arena {
    pub(super) fn new(capacity: usize) -> Self {
        let capacity = capacity.clamp(1, NO_ROOM as usize);
        Arena {
            segments: (0..capacity.div_ceil(SEGMENT))
                .map(|_| OnceLock::new())
                .collect(),
            capacity,
            next: AtomicUsize::new(0),
        }
    }

    /// The start of `n` fresh consecutive entries in one segment, or `None` if they do
    /// not fit.
    pub(super) fn alloc(&self, n: usize) -> Option<u32> {
        if n > SEGMENT {
            return None;
        }
        let mut next = self.next.load(Ordering::Relaxed);
        loop {
            let start = if next % SEGMENT + n > SEGMENT {
                next.next_multiple_of(SEGMENT)
            } else {
                next
            };
            if start + n > self.capacity {
                return None;
            }
            match self.next.compare_exchange_weak(
                next,
                start + n,
                Ordering::Relaxed,
                Ordering::Relaxed,
            ) {
                Ok(_) => return Some(start as u32),
                Err(now) => next = now,
            }
        }
    }

    /// The start of `n` fresh consecutive entries in one segment, from `chunk` while it
    /// has room, else from a new chunk of the arena's, or (near the end of the arena)
    /// from the arena directly; `None` if they do not fit.
    pub(super) fn alloc_in(&self, chunk: &mut Chunk, n: usize) -> Option<u32> {
        if chunk.next as usize + n <= chunk.end as usize {
            let start = chunk.next;
            chunk.next += n as u32;
            return Some(start);
        }
        let size = CHUNK.max(n);
        match self.alloc(size) {
            Some(start) => {
                chunk.next = start + n as u32;
                chunk.end = start + size as u32;
                Some(start)
            }
            None => self.alloc(n),
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

/// A thread's current run of arena entries, from which it allots children: threads
/// that took entries from the arena's one counter at every expansion made its cache
/// line travel between cores at every iteration, and wrote their new nodes side by
/// side, in each other's cache lines.
#[derive(Debug, Default)]
pub(crate) struct Chunk {
    next: u32,
    end: u32,
}
