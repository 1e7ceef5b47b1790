//! The tree's storage: a fixed-capacity arena of nodes, allocated a segment at a time
//! and never moved, so that an index stays valid and a reference to a node stays good
//! while other threads add nodes; and each thread's run of it ([`Chunk`]).

use std::sync::OnceLock;

use agon_engine::Move;

use super::stats::{Stats, Word};
use super::{Node, NO_ROOM};

/// Nodes per segment; a node's children never straddle two.
const SEGMENT: usize = 1 << 14;
/// Nodes a thread of a shared tree takes from the arena at a time ([`Chunk`]); divides
/// [`SEGMENT`].
const CHUNK: usize = 1 << 10;

/// A segment: its nodes, once filled.
type Segment<M, St> = OnceLock<Box<[Node<M, St>]>>;

/// Fixed-capacity storage of nodes (see the module docs). A segment is filled with
/// blank nodes when first used; a node handed out again after [`Arena::clear`] is
/// rewritten by whoever allots it.
pub(super) struct Arena<M: Move, St: Stats> {
    segments: Box<[Segment<M, St>]>,
    capacity: usize,
    /// The next free index.
    next: St::Word,
    /// The move of a blank node (any move of the game; `None` in an arena of no
    /// capacity, which has no segment to fill).
    blank: Option<M>,
}

impl<M: Move, St: Stats> Arena<M, St> {
    /// An empty arena of at most `capacity` nodes, whose blank nodes hold `blank`.
    pub(super) fn new(capacity: usize, blank: M) -> Self {
        let capacity = capacity.clamp(1, NO_ROOM as usize);
        Arena {
            segments: (0..capacity.div_ceil(SEGMENT))
                .map(|_| OnceLock::new())
                .collect(),
            capacity,
            next: St::Word::new(0),
            blank: Some(blank),
        }
    }

    /// An arena that holds no node (a tree never reset).
    pub(super) fn none() -> Self {
        Arena {
            segments: Box::new([]),
            capacity: 0,
            next: St::Word::new(0),
            blank: None,
        }
    }

    /// At most how many nodes it holds.
    pub(super) fn capacity(&self) -> usize {
        self.capacity
    }

    /// Nodes handed out.
    pub(super) fn len(&self) -> usize {
        self.next.load(std::sync::atomic::Ordering::Relaxed) as usize
    }

    /// Hands out no node any more, keeping the segments for reuse.
    pub(super) fn clear(&mut self) {
        self.next = St::Word::new(0);
    }

    /// The start of `n` consecutive nodes in one segment, or `None` if they do not fit.
    pub(super) fn alloc(&self, n: usize) -> Option<u32> {
        if n > SEGMENT {
            return None;
        }
        let mut next = self.len();
        loop {
            let start = if next % SEGMENT + n > SEGMENT {
                next.next_multiple_of(SEGMENT)
            } else {
                next
            };
            if start + n > self.capacity {
                return None;
            }
            let claim = self.next.swap_if(
                next as u32,
                (start + n) as u32,
                std::sync::atomic::Ordering::Relaxed,
            );
            match claim {
                Ok(_) => return Some(start as u32),
                Err(now) => next = now as usize,
            }
        }
    }

    /// The start of `n` consecutive nodes in one segment, from `chunk` while it has
    /// room, else from a new chunk of the arena's, or (near the end of the arena) from
    /// the arena directly; `None` if they do not fit.
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

    /// The segment of node `i`.
    #[inline]
    fn segment(&self, i: usize) -> &[Node<M, St>] {
        match self.segments[i / SEGMENT].get() {
            Some(segment) => segment,
            None => self.fill(i / SEGMENT),
        }
    }

    /// Segment `k`, filled with blank nodes now if it is not yet.
    #[cold]
    #[inline(never)]
    fn fill(&self, k: usize) -> &[Node<M, St>] {
        let blank = self.blank.expect("an arena with capacity has a blank move");
        self.segments[k].get_or_init(|| {
            (0..SEGMENT.min(self.capacity - k * SEGMENT))
                .map(|_| Node::blank(blank))
                .collect()
        })
    }

    /// Node `index`.
    #[inline]
    pub(super) fn get(&self, index: u32) -> &Node<M, St> {
        let i = index as usize;
        &self.segment(i)[i % SEGMENT]
    }

    /// The `len` nodes from `start` (allotted together, so in one segment).
    #[inline]
    pub(super) fn run(&self, start: u32, len: usize) -> &[Node<M, St>] {
        let i = start as usize;
        let offset = i % SEGMENT;
        &self.segment(i)[offset..offset + len]
    }
}

/// A thread's current run of arena nodes, from which it allots children in a shared
/// tree: threads that took nodes from the arena's one counter at every expansion made
/// its cache line travel between cores at every iteration, and wrote their new nodes
/// side by side, in each other's cache lines.
#[derive(Debug, Default)]
pub(crate) struct Chunk {
    next: u32,
    end: u32,
}
