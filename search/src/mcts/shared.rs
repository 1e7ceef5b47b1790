//! The lock-free tree of tree parallelism: the same search as [`super::tree`], with
//! every statistic an atomic so that threads select, expand and back up at once,
//! without a lock.
//!
//! # Layout
//!
//! The tree is one arena of [`Entry`]s, preallocated in fixed segments (each allocated
//! on first use and never moved) and handed out by a bump counter, a chunk of 1,024
//! entries at a time to each thread ([`arena`]), so that a search allocates nothing per
//! node, an index stays valid, and threads neither share the counter's cache line at
//! every expansion nor write their new nodes into each other's lines. An entry is both a node and the
//! edge that leads to it: the children of a node are one consecutive run of entries,
//! allotted the second time an iteration passes through the node (when the
//! single-threaded tree generates moves), each holding its move (`Move::pack`), its
//! chance weight (cumulative) and its statistics, so that UCT selection scans one
//! contiguous array of 32-byte entries, two to a cache line. The root is entry 0.
//!
//! A child is *unborn* until an iteration first reaches it. A decision node's moves are
//! shuffled when its children are allotted, so that claiming the next untried child
//! (compare-and-swap of the node's claimed count) draws an untried move uniformly, as
//! the single-threaded tree does; a chance outcome's child is claimed by
//! compare-and-swap of its actor from unborn to reserved. The claimer fills the child
//! in and publishes it by storing its actor (release); a thread that meets a reserved
//! child, or a node whose children another thread is allotting, evaluates the position
//! reached instead of waiting. No thread ever waits for another.
//!
//! # Statistics and virtual loss
//!
//! A node's `visits` count the iterations *started* through it, added during selection
//! (one `fetch_add`); its `total` sums, per completed iteration, the reward plus the
//! sign of the parent's seat (+1 seat 0, -1 seat 1), added during backup (one more
//! `fetch_add`). With `N` visits and `B` that sum, the mean for the parent's seat with
//! the iterations still in flight counted as losses is `(s·B - N) / N`. That is
//! virtual loss: UCT sees each iteration in flight below a node as a visit that lost
//! for the seat choosing it, so that the other threads spread out; and there is no
//! virtual-loss count to add and then remove (which would be a third locked
//! instruction per node and iteration). All these are
//! relaxed: each is a sum whose order does not matter, and a selection that reads a
//! slightly stale sibling only steers a little differently. At a hot node (32 visits
//! or more per thread) a thread holds both additions back ([`pending`]) and adds them
//! every 32 iterations and when it stops, reading its own held-back ones with the
//! tree's: another thread's view of the node then lacks fewer iterations than it
//! shows, and the top nodes' cache lines, which every selection reads, stop moving
//! between cores at every
//! iteration. A node's actor, proof and
//! proof length share one word, set once by compare-and-swap. The root counts only
//! completed iterations: every iteration passes it, so a virtual loss there would steer
//! nothing. A progress report taken while iterations are in flight counts those as
//! losses; the final tree, written after all threads stopped, is exact.
//!
//! # Memory bound
//!
//! The arena holds at most `max_nodes` entries ([`super::MctsConfig::max_nodes`]: the
//! `tree` parameter in MiB over [`super::NODE_BYTES`]), so it uses at most
//! `max_nodes × 32` bytes, half the budget the single-threaded tree is given for as
//! many nodes, while it also stores the moves no iteration has tried. When a node's
//! children do not fit, the node stays a leaf, valued without expanding, for the rest
//! of the search, and [`SharedTree::full`] says so; children already allotted are still
//! created when first reached, since they cost nothing more.
//!
//! # Scaling
//!
//! Threads share no lock, but they share cache lines: every selection reads the
//! children of the nodes near the root, and iterations that pass a node that is not
//! hot write it at once; the threads also claim iterations from one counter (8 at a
//! time). Games whose iterations are very cheap and whose threads follow few lines
//! (Connect Four) scale least. Measurements: `docs/decisions.md`,
//! `experiments/tree-parallel-scaling.sh` and `experiments/tree-parallel-threads.sh`.
//!
//! # Conversion
//!
//! The tree is converted ([`convert`]) from [`Tree`](super::tree::Tree) at the start of
//! a search, so that tree reuse is the single-threaded one. At its end only what the
//! move choice reads is converted back (the root's children and each one's principal
//! variation, as for a progress report), so that the choice is the single-threaded
//! one; the agent keeps the lock-free tree, and the next search converts the subtree
//! it reuses when it starts, not the whole tree when this one ends (copying it all back
//! was a noticeable share of a long search). Proofs are propagated by the
//! single-threaded rules ([`proof`]).
//!
//! # One thread
//!
//! On one core the lock-free tree runs about as fast as the single-threaded tree, so
//! that what more threads gain is what they add. Three things keep it there: each step
//! of a path keeps its entry rather than looking it up in the arena again;
//! `best_child` is a function of its own, whose scan keeps its values in registers;
//! and the held-back deltas are read only below hot nodes.

use std::marker::PhantomData;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU32, Ordering};

use agon_engine::{Move, Seat, State, Turn};
use rand::seq::SliceRandom;
use rand::Rng;

use super::tree::{Leaf, Proof, Settings, CHANCE, NONE, OVER};
use super::uct_counts::UctCounts;
use crate::agent::AgentRng;

mod arena;
mod convert;
mod pending;
mod proof;

use arena::{Arena, Chunk};
use pending::Pending;
pub(crate) use pending::FLUSH_EVERY;

/// `actor` of an entry that no iteration has reached yet.
const UNBORN: u8 = 4;
/// `actor` of a chance outcome's child while the thread that claimed it fills it in.
const RESERVED: u8 = 5;
/// `children` of a node whose children a thread is allotting.
const ALLOTTING: u32 = u32::MAX - 1;
/// `children` of a node whose children did not fit in the arena.
const NO_ROOM: u32 = u32::MAX - 2;
/// Entries per arena segment; a node's children never straddle two.
const SEGMENT: usize = 1 << 14;
/// Entries a thread takes from the arena at a time ([`Chunk`]); divides [`SEGMENT`].
const CHUNK: usize = 1 << 10;

/// One in the fixed point of [`Entry::total`]: a term lies in [-2, 2], so a node's sum
/// stays within `i64` for all `u32` visit counts, at a resolution of 2⁻²⁹.
const ONE: i64 = 1 << 29;

/// `reward` in [`ONE`]'s fixed point (truncated: the error, under 2⁻²⁹, is far below
/// any difference UCT can tell).
fn fixed(reward: f64) -> i64 {
    (reward * ONE as f64) as i64
}

/// The sign of a reward for the seat choosing among a node's children: +1 for seat 0,
/// -1 for seat 1, 0 below a chance node (which chooses by weight, without virtual loss).
fn sign(parent_actor: u8) -> i64 {
    match parent_actor {
        0 => 1,
        1 => -1,
        _ => 0,
    }
}

/// An entry's `state` word: actor in the high byte, plies in the middle 16 bits,
/// [`Proof`] code in the low byte, so that they are read together and a proof is set by
/// one compare-and-swap.
fn state_word(actor: u8, proof: Proof, plies: u16) -> u32 {
    u32::from(actor) << 24 | pack(proof, plies)
}

/// The actor of a `state` word.
fn actor_in(state: u32) -> u8 {
    (state >> 24) as u8
}

/// One node and the edge to it (see the module docs; [`Node`](super::tree::Node) has the same facts). 32
/// bytes, aligned so that two share a cache line and none straddles two.
#[repr(align(32))]
struct Entry {
    /// `B = W + s·C` in fixed point ([`ONE`]): `W` the sum of the completed iterations'
    /// rewards (seat 0's view), `C` their number and `s` the [`sign`] of the parent's
    /// seat. A backup adds `reward + s`, one `fetch_add`; with `N` = [`Entry::visits`]
    /// the mean with in-flight iterations counted as losses (virtual loss) is
    /// `(B - s·N) / N`, without a separate count to add and remove.
    total: AtomicI64,
    /// Iterations started through this node (completed and in flight); the root's
    /// counts only completed ones.
    visits: AtomicU32,
    /// Actor, proof and plies ([`state_word`]).
    state: AtomicU32,
    /// The move or outcome that leads here, packed; written before the parent's
    /// children are published.
    mv: AtomicU32,
    /// The cumulative weight of this outcome among its siblings (chance children).
    weight: AtomicU32,
    /// The index of the first child, or [`NONE`], [`ALLOTTING`], [`NO_ROOM`].
    children: AtomicU32,
    /// Children claimed (decision nodes) in the high 16 bits, children in the low 16
    /// (set before `children` is published).
    shape: AtomicU32,
}

impl Default for Entry {
    fn default() -> Self {
        Entry {
            total: AtomicI64::new(0),
            visits: AtomicU32::new(0),
            state: AtomicU32::new(u32::from(UNBORN) << 24),
            mv: AtomicU32::new(0),
            weight: AtomicU32::new(0),
            children: AtomicU32::new(NONE),
            shape: AtomicU32::new(0),
        }
    }
}

impl Entry {
    /// Whether an iteration has created this node.
    fn born(&self) -> bool {
        actor_in(self.state.load(Ordering::Acquire)) < UNBORN
    }

    /// How many children (valid once `children` is an index).
    fn len(&self) -> usize {
        (self.shape.load(Ordering::Relaxed) & 0xffff) as usize
    }

    /// Adds `visits` and `total` to the statistics (relaxed: sums whose order does not
    /// matter), skipping a zero.
    #[inline]
    fn add(&self, visits: u32, total: i64) {
        if visits > 0 {
            self.visits.fetch_add(visits, Ordering::Relaxed);
        }
        if total != 0 {
            self.total.fetch_add(total, Ordering::Relaxed);
        }
    }

    /// The move that leads here.
    fn mv<M: Move>(&self) -> M {
        M::unpack(self.mv.load(Ordering::Relaxed)).expect("a move packed by this tree")
    }
}

fn pack(proof: Proof, plies: u16) -> u32 {
    let code = match proof {
        Proof::Unknown => 0,
        Proof::Seat0Wins => 1,
        Proof::Seat1Wins => 2,
        Proof::Draw => 3,
    };
    code | u32::from(plies) << 8
}

fn unpack(packed: u32) -> (Proof, u16) {
    let proof = match packed & 0xff {
        0 => Proof::Unknown,
        1 => Proof::Seat0Wins,
        2 => Proof::Seat1Wins,
        _ => Proof::Draw,
    };
    (proof, (packed >> 8) as u16)
}

/// The actor and proof of a new node for `state`.
fn actor_of<S: State>(state: &S) -> (u8, Proof) {
    match state.turn() {
        Turn::Seat(s) => (s as u8, Proof::Unknown),
        Turn::Chance => (CHANCE, Proof::Unknown),
        Turn::Over => {
            let outcome = state.outcome().expect("a finished game has an outcome");
            (OVER, Proof::of(outcome))
        }
    }
}

/// A node on a selection's path: its entry, its index and its actor, kept so that
/// neither the next step of selection nor backup looks the node up in the arena (a
/// segment's lookup per node was 5% of a Connect Four search) or reads its actor again.
#[derive(Clone, Copy)]
pub(crate) struct Step<'a> {
    entry: &'a Entry,
    index: u32,
    actor: u8,
}

/// The lock-free tree (see the module docs) of a game whose moves are `M`.
pub(crate) struct SharedTree<M> {
    arena: Arena,
    full: AtomicBool,
    moves: PhantomData<M>,
}

impl<M> std::fmt::Debug for SharedTree<M> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SharedTree")
            .field("full", &self.full)
            .finish_non_exhaustive()
    }
}

/// What one thread keeps between iterations.
pub(crate) struct Buffers<M> {
    /// Legal moves, listed.
    moves: Vec<M>,
    /// Entries to allot: move and cumulative weight.
    entries: Vec<(M, u32)>,
    /// UCT's factors of visit counts.
    counts: UctCounts,
    /// The thread's run of arena entries.
    chunk: Chunk,
    /// The thread's deltas to the most visited nodes.
    pending: Pending,
}

impl<M> Buffers<M> {
    /// Empty buffers for one of `threads` threads.
    pub(crate) fn new(threads: usize) -> Self {
        Buffers {
            moves: Vec::new(),
            entries: Vec::new(),
            counts: UctCounts::default(),
            chunk: Chunk::default(),
            pending: Pending::new(threads),
        }
    }
}

impl<M: Move> SharedTree<M> {
    /// Whether the arena filled up, so that some leaves were valued without expanding.
    pub(crate) fn full(&self) -> bool {
        self.full.load(Ordering::Relaxed)
    }

    /// What is proven about the root.
    pub(crate) fn root_proof(&self) -> Proof {
        unpack(self.arena.get(0).state.load(Ordering::Acquire)).0
    }

    /// One selection, as [`super::tree::Tree::select`] but with virtual loss: descends from the root,
    /// applying each move to `state` and recording the nodes in `path`, until it
    /// creates a node, meets a finished game or a proven node, or cannot expand. Each
    /// node's actor is recorded with it, so that backup need not read it again.
    pub(crate) fn select<'a, S: State<Move = M>>(
        &'a self,
        state: &mut S,
        rng: &mut AgentRng,
        path: &mut Vec<Step<'a>>,
        buffers: &mut Buffers<M>,
        set: &Settings,
    ) -> Leaf {
        let mut node = 0u32;
        let mut n = self.arena.get(0);
        loop {
            if node != 0 {
                // The root counts only completed iterations: every iteration passes
                // through it, so a virtual loss there would steer nothing.
                let hot = buffers.pending.is_hot(n.visits.load(Ordering::Relaxed));
                add(&mut buffers.pending, node, n, hot, 1, 0);
            }
            let word = n.state.load(Ordering::Acquire);
            let actor = actor_in(word);
            path.push(Step {
                entry: n,
                index: node,
                actor,
            });
            if actor == OVER || (set.solver && word & 0xff != 0) {
                return Leaf::Exact(unpack(word).0.reward());
            }
            let Some((start, children)) = self.children(n, state, actor, rng, buffers) else {
                return Leaf::Evaluate;
            };
            let Some(last) = children.last() else {
                return Leaf::Evaluate;
            };
            if actor == CHANCE {
                let pick = rng.random_range(0..last.weight.load(Ordering::Relaxed));
                let k = children
                    .iter()
                    .position(|c| pick < c.weight.load(Ordering::Relaxed))
                    .expect("pick < total");
                let child = &children[k];
                state.apply(child.mv());
                let unborn = u32::from(UNBORN) << 24;
                match actor_in(child.state.load(Ordering::Acquire)) {
                    UNBORN => {
                        let reserved = u32::from(RESERVED) << 24;
                        let claimed = child.state.compare_exchange(
                            unborn,
                            reserved,
                            Ordering::Acquire,
                            Ordering::Relaxed,
                        );
                        if claimed.is_err() {
                            return Leaf::Evaluate;
                        }
                        return Self::create(start + k as u32, child, state, path);
                    }
                    RESERVED => return Leaf::Evaluate,
                    _ => {
                        node = start + k as u32;
                        n = child;
                    }
                }
            } else {
                let mut shape = n.shape.load(Ordering::Relaxed);
                while shape >> 16 < shape & 0xffff {
                    let claim = n.shape.compare_exchange_weak(
                        shape,
                        shape + (1 << 16),
                        Ordering::Relaxed,
                        Ordering::Relaxed,
                    );
                    match claim {
                        Ok(_) => {
                            let k = shape >> 16;
                            let child = &children[k as usize];
                            state.apply(child.mv());
                            return Self::create(start + k, child, state, path);
                        }
                        Err(now) => shape = now,
                    }
                }
                let tried = &children[..(shape >> 16) as usize];
                let Some(k) = Self::best_child(node, n, start, tried, actor as Seat, set, buffers)
                else {
                    return Leaf::Evaluate;
                };
                state.apply(children[k].mv());
                node = start + k as u32;
                n = &children[k];
            }
        }
    }

    /// The first index and the entries of `n`'s children, allotted now if this is the
    /// first time; `None` if they did not fit or another thread is allotting them.
    fn children<'a, S: State<Move = M>>(
        &'a self,
        n: &Entry,
        state: &S,
        actor: u8,
        rng: &mut AgentRng,
        buffers: &mut Buffers<M>,
    ) -> Option<(u32, &'a [Entry])> {
        let mut start = n.children.load(Ordering::Acquire);
        if start == NONE {
            let claimed =
                n.children
                    .compare_exchange(NONE, ALLOTTING, Ordering::Acquire, Ordering::Relaxed);
            if claimed.is_err() {
                return None;
            }
            let Buffers {
                moves,
                entries,
                chunk,
                ..
            } = buffers;
            entries.clear();
            if actor == CHANCE {
                state.chance_outcomes(entries);
                let mut cumulative = 0u32;
                for entry in entries.iter_mut() {
                    cumulative = cumulative
                        .checked_add(entry.1)
                        .expect("chance weights sum below 2^32");
                    entry.1 = cumulative;
                }
            } else {
                moves.clear();
                state.legal_moves(moves);
                moves.shuffle(rng);
                entries.extend(moves.iter().map(|&m| (m, 0)));
            }
            start = self.allot(n, entries, 0, chunk);
        }
        (start < NO_ROOM).then(|| (start, self.arena.run(start, n.len())))
    }

    /// Allots `n`'s children, one per entry (move, cumulative weight), the first
    /// `tried` of them claimed, and publishes them; returns their first index, or
    /// [`NO_ROOM`] (then the arena is full).
    fn allot(&self, n: &Entry, entries: &[(M, u32)], tried: u16, chunk: &mut Chunk) -> u32 {
        let len = u16::try_from(entries.len())
            .ok()
            .filter(|&len| len < u16::MAX)
            .expect("fewer than 65535 moves at a node");
        let Some(start) = self.arena.alloc_in(chunk, entries.len()) else {
            self.full.store(true, Ordering::Relaxed);
            n.children.store(NO_ROOM, Ordering::Release);
            return NO_ROOM;
        };
        for (e, &(mv, weight)) in self.arena.run(start, entries.len()).iter().zip(entries) {
            e.mv.store(mv.pack(), Ordering::Relaxed);
            e.weight.store(weight, Ordering::Relaxed);
        }
        n.shape
            .store(u32::from(tried) << 16 | u32::from(len), Ordering::Relaxed);
        n.children.store(start, Ordering::Release);
        start
    }

    /// Creates the claimed child `index` (entry `e`) for `state`, with this iteration
    /// started through it, and ends the selection there.
    fn create<'a, S: State>(index: u32, e: &'a Entry, state: &S, path: &mut Vec<Step<'a>>) -> Leaf {
        let (actor, proof) = actor_of(state);
        e.visits.store(1, Ordering::Relaxed);
        e.state
            .store(state_word(actor, proof, 0), Ordering::Release);
        path.push(Step {
            entry: e,
            index,
            actor,
        });
        if actor == OVER {
            Leaf::Exact(proof.reward())
        } else {
            Leaf::Evaluate
        }
    }

    /// The index among `tried` (the claimed children of `n`, seat `seat` to move) of the
    /// child with the highest UCT score, as the single-threaded tree's `best_child`; `None` if none is
    /// born yet. With `N` a child's visits (in flight included) and `B` its
    /// [`Entry::total`], its mean for `seat` with in-flight iterations lost is
    /// `(s·B - N) / N = s·B / N - 1`; the `- 1`, common to all, is left out. The
    /// visit counts' factors come from the thread's `counts`. Not inlined: inlined into
    /// the iteration loop, the scan spilled its values to the stack (in its own
    /// function, 14% more iterations a second on Connect Four, with the deltas read only
    /// below hot nodes).
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    fn best_child(
        node: u32,
        n: &Entry,
        start: u32,
        tried: &[Entry],
        seat: Seat,
        set: &Settings,
        buffers: &mut Buffers<M>,
    ) -> Option<usize> {
        let Buffers {
            counts, pending, ..
        } = buffers;
        let tree_visits = n.visits.load(Ordering::Relaxed);
        // A node that is not hot has never been held back by any thread, so its count
        // is exact and covers its children's, none of which can have been held back
        // either, and the scan reads no deltas. The root counts only completed
        // iterations, so its children may be hot before it.
        if node == 0 || pending.is_hot(tree_visits) {
            let parent_visits = tree_visits + pending.of(node).0;
            Self::scan(tried, parent_visits, seat, set, counts, |k| {
                pending.of(start + k as u32)
            })
        } else {
            Self::scan(tried, tree_visits, seat, set, counts, |_| (0, 0))
        }
    }

    /// [`Self::best_child`] among `tried`, whose parent has `parent_visits`, with `own(k)`
    /// the thread's held-back visits and total of child `k`.
    #[inline(always)]
    fn scan(
        tried: &[Entry],
        parent_visits: u32,
        seat: Seat,
        set: &Settings,
        counts: &mut UctCounts,
        own: impl Fn(usize) -> (u32, i64),
    ) -> Option<usize> {
        let explore_scale = set.c * counts.parent(parent_visits);
        let s = if seat == 0 { 1.0 } else { -1.0 } / ONE as f64;
        // The proof code of a loss for `seat`, compared without unpacking each child's.
        let lost = (1..=3).find(|&code| unpack(code).0.for_seat(seat) == Some(-1));
        let (mut best, mut fallback) = (None, None);
        let mut best_score = f64::NEG_INFINITY;
        for (k, c) in tried.iter().enumerate() {
            let word = c.state.load(Ordering::Acquire);
            if actor_in(word) >= UNBORN {
                continue;
            }
            fallback.get_or_insert(k);
            if set.solver && Some(word & 0xff) == lost {
                continue;
            }
            let (own_visits, own_total) = own(k);
            let visits = c.visits.load(Ordering::Relaxed) + own_visits;
            let score = if visits == 0 {
                f64::INFINITY
            } else {
                let f = counts.child(visits);
                let total = (c.total.load(Ordering::Relaxed) + own_total) as f64;
                s * total * f.inverse + explore_scale * f.inverse_sqrt
            };
            if score > best_score {
                best_score = score;
                best = Some(k);
            }
        }
        best.or(fallback)
    }

    /// Adds `reward` (seat 0's view) to every node of `path`, each with the sign of its
    /// parent's seat (see [`Entry::total`]), and with the solver on propagates a proof
    /// upwards from the leaf.
    /// Hot nodes ([`Pending::is_hot`]) are added to through the thread's [`Pending`]
    /// deltas in `buffers`.
    pub(crate) fn backup(
        &self,
        path: &[Step<'_>],
        reward: f64,
        set: &Settings,
        buffers: &mut Buffers<M>,
    ) {
        let leaf = path.last().expect("a path holds the root").entry;
        let leaf_proof = leaf.state.load(Ordering::Acquire) & 0xff;
        let mut proving = set.solver && leaf_proof != 0;
        let reward = fixed(reward);
        for (i, step) in path.iter().enumerate().rev() {
            let (n, index) = (step.entry, step.index);
            let term = match i.checked_sub(1) {
                Some(parent) => reward + sign(path[parent].actor) * ONE,
                None => reward,
            };
            // The root counts its completed iterations here (none in flight).
            let visit = u32::from(i == 0);
            let hot = i == 0 || buffers.pending.is_hot(n.visits.load(Ordering::Relaxed));
            add(&mut buffers.pending, index, n, hot, visit, term);
            if proving && i + 1 < path.len() {
                proving = self.try_prove(n, n.state.load(Ordering::Acquire));
            }
        }
    }

    /// Adds the thread's [`Pending`] deltas in `buffers` to the tree and clears them.
    pub(crate) fn flush(&self, buffers: &mut Buffers<M>) {
        buffers
            .pending
            .drain(|d| self.arena.get(d.index).add(d.visits, d.total));
    }
}

/// Adds `visits` and `total` to node `index` (entry `n`): to the thread's held-back
/// deltas in `pending` if the node is `hot` and its slot is free or its own, else to
/// the tree at once. Only a hot node takes a slot: a cold one would keep it from a hot
/// one until the next flush.
#[inline]
fn add(pending: &mut Pending, index: u32, n: &Entry, hot: bool, visits: u32, total: i64) {
    let held = if hot { pending.slot(index) } else { None };
    match held {
        Some(delta) => {
            delta.visits += visits;
            delta.total += total;
        }
        None => n.add(visits, total),
    }
}

#[cfg(test)]
mod tests {
    use agon_engine::games::connect4::{Connect4, Connect4Eval, Connect4Move, Connect4State};
    use agon_engine::{Game, Move, State, Turn};
    use rand::seq::IndexedRandom;
    use rand::SeedableRng;

    use super::super::choose::{choose, most_visited_child};
    use super::super::driver::Job;
    use super::super::parallel::tree_parallel;
    use super::super::rollout::Rollout;
    use super::super::tree::{Guide, Node, Settings, Tree, OVER};
    use super::{Entry, SharedTree};
    use crate::agent::AgentRng;
    use crate::budget::{Budget, Clock};
    use crate::mcts::REUSE_PLIES;

    /// A tree-parallel search of `iterations` on `threads` threads from `root`, in an
    /// arena of `max_nodes`: the tree, iterations and whether the arena filled.
    fn search(
        root: &Connect4State,
        iterations: u64,
        threads: u64,
        max_nodes: usize,
        solver: bool,
    ) -> (Tree<Connect4State>, u64, bool) {
        let (shared, run) = search_shared(root, iterations, threads, max_nodes, solver);
        let mut tree = Tree::default();
        tree.reset(root);
        shared.write_into(&mut tree);
        (tree, run, shared.full())
    }

    /// [`search`]'s lock-free tree itself, with the iterations run.
    fn search_shared(
        root: &Connect4State,
        iterations: u64,
        threads: u64,
        max_nodes: usize,
        solver: bool,
    ) -> (SharedTree<Connect4Move>, u64) {
        let clock = Clock::start(&Budget::default());
        let job = Job {
            root,
            eval: &Connect4Eval::default(),
            settings: Settings {
                c: 1.4,
                solver,
                max_nodes,
                guide: Guide::default(),
            },
            rollout: Rollout::Random { plies: None },
            clock: &clock,
        };
        let mut tree = Tree::default();
        tree.reset(root);
        let seeds: Vec<u64> = (0..threads).collect();
        let (shared, run, _) = tree_parallel(&mut tree, &job, iterations, &seeds, None);
        (shared, run)
    }

    /// A Connect Four position 30 plies in, not finished: a tree of a few thousand
    /// nodes, so that many threads meet on the same nodes.
    fn late_position() -> Connect4State {
        let mut rng = AgentRng::seed_from_u64(7);
        let mut moves = Vec::new();
        loop {
            let mut s = Connect4.initial_state();
            while s.ply() < 30 && !matches!(s.turn(), Turn::Over) {
                moves.clear();
                s.legal_moves(&mut moves);
                s.apply(*moves.choose(&mut rng).unwrap());
            }
            if !matches!(s.turn(), Turn::Over) {
                return s;
            }
        }
    }

    /// Every node's visits cover its children's, and the
    /// rewards of the iterations that ended at a node (its total less its children's)
    /// are at most one each; a finished game's total is its visits times its reward.
    fn consistent<S: State>(tree: &Tree<S>, node: u32) {
        let n: &Node<S::Move> = &tree.nodes[node as usize];
        let below: u32 = tree.children(node).map(|(_, c)| c.visits).sum();
        assert!(below <= n.visits, "{below} > {}", n.visits);
        let below_total: f64 = tree.children(node).map(|(_, c)| c.total).sum();
        let own = f64::from(n.visits - below);
        assert!((n.total - below_total).abs() <= own + 1e-6, "node {node}");
        if n.actor == OVER {
            let exact = f64::from(n.visits) * n.proof.reward();
            assert!((n.total - exact).abs() < 1e-6, "{} != {exact}", n.total);
        }
        for (child, _) in tree.children(node) {
            consistent(tree, child);
        }
    }

    /// The iterations that ended at each node (its visits less its children's), summed.
    fn ends<S: State>(tree: &Tree<S>) -> u64 {
        (0..tree.nodes.len() as u32)
            .map(|i| {
                let below: u32 = tree.children(i).map(|(_, c)| c.visits).sum();
                u64::from(tree.nodes[i as usize].visits - below)
            })
            .sum()
    }

    #[test]
    fn statistics_sum_to_the_iterations_run() {
        let (tree, run, full) = search(&Connect4.initial_state(), 40_000, 8, 1 << 20, true);
        assert_eq!(run, 40_000);
        assert!(!full);
        assert_eq!(u64::from(tree.root().visits), run);
        consistent(&tree, 0);
        // Every iteration ends at exactly one node: nothing lost, nothing counted twice.
        assert_eq!(ends(&tree), run);
    }

    #[test]
    fn many_threads_on_a_small_tree_lose_no_update() {
        // Without the solver nothing stops the search, so 16 threads keep meeting on
        // the same few thousand nodes, whose finished games have exact totals.
        let root = late_position();
        let (tree, run, _) = search(&root, 60_000, 16, 1 << 20, false);
        assert_eq!(run, 60_000);
        assert_eq!(u64::from(tree.root().visits), run);
        consistent(&tree, 0);
        assert_eq!(ends(&tree), run);
        assert!(tree.nodes.iter().filter(|n| n.actor == OVER).count() > 10);
    }

    #[test]
    fn a_full_arena_stops_expanding() {
        let (tree, run, full) = search(&Connect4.initial_state(), 5_000, 2, 100, true);
        assert!(full);
        assert_eq!(run, 5_000);
        assert!(tree.nodes.len() <= 100);
        assert_eq!(u64::from(tree.root().visits), run);
        consistent(&tree, 0);
        assert_eq!(ends(&tree), run);
    }

    /// The subtree at `node` written out: each node's move, visits, total and proof,
    /// children in move order, so that two trees holding the same nodes in different
    /// arena orders read the same.
    fn canonical<S: State>(tree: &Tree<S>, node: u32) -> String {
        let n = &tree.nodes[node as usize];
        let mut children: Vec<_> = tree.children(node).collect();
        children.sort_by_key(|(_, c)| c.mv.pack());
        let below: Vec<String> = children.iter().map(|&(c, _)| canonical(tree, c)).collect();
        format!(
            "({} {} {:.9} {:?} [{}])",
            n.mv.pack(),
            n.visits,
            n.total,
            n.proof,
            below.join(" ")
        )
    }

    #[test]
    fn reuse_copies_the_subtree_a_whole_copy_would_keep() {
        let root = Connect4.initial_state();
        let (shared, _) = search_shared(&root, 20_000, 2, 1 << 20, true);
        let column = |c: usize| Connect4Move::new(c).unwrap();
        // The target follows the two most visited moves, so that its subtree is large
        // however the two threads happened to share the work.
        let mut full = Tree::default();
        full.reset(&root);
        shared.write_into(&mut full);
        let mut two_plies = root.clone();
        let mut node = 0;
        for _ in 0..2 {
            let (child, c) = most_visited_child(&full, node).unwrap();
            two_plies.apply(c.mv);
            node = child;
        }
        for target in [two_plies, root.clone()] {
            let mut whole = Tree::default();
            whole.reset(&root);
            shared.write_into(&mut whole);
            assert!(whole.advance_to(&target, REUSE_PLIES));
            let mut reused = Tree::default();
            reused.reset(&root);
            shared.write_variation_into(&mut reused);
            assert!(shared.write_reused_into(&mut reused, &target, REUSE_PLIES));
            assert!(
                reused.advance_to(&target, REUSE_PLIES),
                "the root is the target"
            );
            assert!(reused.nodes.len() > 100);
            assert_eq!(reused.nodes.len(), whole.nodes.len());
            assert_eq!(canonical(&reused, 0), canonical(&whole, 0));
        }
        // A position the tree does not hold: nothing is kept.
        let mut elsewhere = root.clone();
        for c in [0, 0, 0, 6, 6, 6] {
            elsewhere.apply(column(c));
        }
        let mut reused = Tree::default();
        reused.reset(&root);
        shared.write_variation_into(&mut reused);
        let held = shared.write_reused_into(&mut reused, &elsewhere, 2);
        assert!(!held);
        assert!(!reused.advance_to(&elsewhere, REUSE_PLIES));
    }

    #[test]
    fn the_variation_gives_the_choice_of_the_whole_tree() {
        // From the start (no proof) and from a late position (proofs near the root).
        for (root, iterations) in [(Connect4.initial_state(), 20_000), (late_position(), 5_000)] {
            let (shared, _) = search_shared(&root, iterations, 2, 1 << 20, true);
            let mut whole = Tree::default();
            whole.reset(&root);
            shared.write_into(&mut whole);
            let mut variation = Tree::default();
            variation.reset(&root);
            shared.write_variation_into(&mut variation);
            assert!(variation.nodes.len() < whole.nodes.len() / 4);
            // Every root move's principal variation is there.
            for (child, _) in whole.children(0) {
                let mv = whole.nodes[child as usize].mv;
                let copy = variation.children(0).find(|(_, c)| c.mv == mv).unwrap().0;
                assert_eq!(line(&whole, child), line(&variation, copy));
            }
            assert_eq!(choose(&[&variation], true), choose(&[&whole], true));
        }
    }

    /// The line below `node` that the principal variation takes, as moves and visits.
    fn line<S: State>(tree: &Tree<S>, mut node: u32) -> Vec<(u32, u32)> {
        let mut line = Vec::new();
        while let Some((child, c)) = most_visited_child(tree, node) {
            line.push((c.mv.pack(), c.visits));
            node = child;
        }
        line
    }

    #[test]
    fn entries_are_half_a_cache_line() {
        assert_eq!(std::mem::size_of::<Entry>(), 32);
    }
}
