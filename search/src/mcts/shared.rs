//! The lock-free tree of tree parallelism: the same search as [`super::tree`], with
//! every statistic an atomic so that threads select, expand and back up at once.
//!
//! # Layout
//!
//! Nodes live in an [`Arena`]: fixed-size segments allocated on first use, indexed by
//! a bump counter (`AtomicUsize`), so an index handed out stays valid and the memory is
//! bounded by the capacity given at creation. A node's legal moves (or chance outcomes
//! with cumulative weights) are generated once, the first time an iteration passes
//! through it, into the node's own slice of slots published through a `OnceLock` (a
//! thread arriving meanwhile waits for it), so that a visit finds them with one check;
//! a counter bounds the slots handed out. Decision moves are shuffled when
//! generated, so that claiming the next untried slot (`tried.fetch_add`) draws an
//! untried move uniformly, as the single-threaded tree does. Each slot holds its child's
//! index; a thread claims the creation of a child by compare-and-swap from [`NONE`] to
//! [`RESERVED`], and a thread that finds a chance outcome reserved by another passes
//! through (evaluates the position without expanding).
//!
//! # Full arena
//!
//! When the node arena or the slot budget is full, selection stops expanding: the position reached is
//! evaluated without a node, and [`SharedTree::full`] says so.
//!
//! The tree is converted from and to [`Tree`] at the start and end of a search, so
//! that the move choice, the progress reports and tree reuse are the single-threaded
//! ones.

use std::sync::atomic::{
    AtomicBool, AtomicI64, AtomicU32, AtomicU64, AtomicU8, AtomicUsize, Ordering,
};
use std::sync::OnceLock;

use agon_engine::{Seat, State, Turn};
use rand::seq::SliceRandom;
use rand::Rng;

use super::tree::{Leaf, Node, Proof, Settings, Tree, CHANCE, NONE, OVER, UNEXPANDED};
use crate::agent::AgentRng;

/// A slot's child while the thread that claimed it creates the node.
const RESERVED: u32 = u32::MAX - 1;
/// Items per arena segment.
const SEGMENT: usize = 1 << 12;
/// Move slots per node of capacity: enough for the games here, whose trees hold far
/// more leaves than expanded nodes.
const SLOTS_PER_NODE: usize = 4;

/// Fixed-capacity storage, allocated a segment at a time and never moved.
struct Arena<T> {
    segments: Box<[OnceLock<Box<[T]>>]>,
    capacity: usize,
    next: AtomicUsize,
}

impl<T: Default> Arena<T> {
    fn new(capacity: usize) -> Self {
        Arena {
            segments: (0..capacity.div_ceil(SEGMENT))
                .map(|_| OnceLock::new())
                .collect(),
            capacity,
            next: AtomicUsize::new(0),
        }
    }

    /// The start of `n` fresh consecutive items, or `None` if they do not fit.
    fn alloc(&self, n: usize) -> Option<u32> {
        let start = self.next.fetch_add(n, Ordering::Relaxed);
        (start + n <= self.capacity).then_some(start as u32)
    }

    fn get(&self, index: u32) -> &T {
        let i = index as usize;
        let segment =
            self.segments[i / SEGMENT].get_or_init(|| (0..SEGMENT).map(|_| T::default()).collect());
        &segment[i % SEGMENT]
    }
}

/// The fixed-point scale of [`SharedNode::total`]: rewards lie in [-1, 1], so a node's
/// sum stays within `i64` for all `u32` visit counts, at a resolution of 2⁻³⁰.
const SCALE: f64 = (1u64 << 30) as f64;

/// `reward` in [`SCALE`]'s fixed point.
fn fixed(reward: f64) -> i64 {
    (reward * SCALE).round() as i64
}

/// One backed-up visit in [`SharedNode::counts`]: visits up by one, virtual loss down
/// by one (no borrow, since the iteration added that virtual loss).
const VISIT_LESS_VLOSS: u64 = (1 << 32) - 1;

/// One node (see [`Node`] for the meaning of the fields).
struct SharedNode<M> {
    /// The sum of rewards, fixed point ([`SCALE`]), so that a backup is one `fetch_add`.
    total: AtomicI64,
    /// Visits in the high 32 bits, virtual loss in the low 32, so that a backup updates
    /// both with one `fetch_add` and a selection reads both with one load.
    counts: AtomicU64,
    /// Slots with a claimed child (decision nodes).
    tried: AtomicU32,
    /// [`Proof`] code in the low byte, plies above it, so both change at once.
    proof: AtomicU32,
    actor: AtomicU8,
    /// The node's slots, published at once; empty if the slot budget had no room.
    slots: OnceLock<Box<[Slot<M>]>>,
}

impl<M> Default for SharedNode<M> {
    fn default() -> Self {
        SharedNode {
            total: AtomicI64::new(0),
            counts: AtomicU64::new(0),
            tried: AtomicU32::new(0),
            proof: AtomicU32::new(0),
            actor: AtomicU8::new(0),
            slots: OnceLock::new(),
        }
    }
}

/// A move or outcome (with its cumulative weight) and its child.
struct Slot<M> {
    mv: (M, u32),
    child: AtomicU32,
}

impl<M> Slot<M> {
    fn new(mv: (M, u32)) -> Self {
        Slot {
            mv,
            child: AtomicU32::new(NONE),
        }
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

/// The lock-free tree (see the module docs). The root is node 0.
pub(crate) struct SharedTree<M> {
    nodes: Arena<SharedNode<M>>,
    /// Slots handed out, bounded by `slot_capacity`.
    slots_used: AtomicUsize,
    slot_capacity: usize,
    full: AtomicBool,
    /// The root's `mv` (never read, kept for the exported root).
    root_mv: M,
}

impl<M: agon_engine::Move> SharedTree<M> {
    /// A copy of `tree` in a shared tree of at most `max_nodes` nodes (the untried
    /// moves of each node shuffled with `rng`). `tree` must fit.
    pub(crate) fn from_tree<S: State<Move = M>>(
        tree: &Tree<S>,
        max_nodes: usize,
        rng: &mut AgentRng,
    ) -> Self {
        let shared = SharedTree {
            nodes: Arena::new(max_nodes.max(tree.nodes.len())),
            slots_used: AtomicUsize::new(0),
            slot_capacity: max_nodes.saturating_mul(SLOTS_PER_NODE),
            full: AtomicBool::new(false),
            root_mv: tree.root().mv,
        };
        let mut work = vec![(0u32, shared.nodes.alloc(1).expect("room for the root"))];
        while let Some((old, new)) = work.pop() {
            let n = &tree.nodes[old as usize];
            let s = shared.nodes.get(new);
            s.total.store(fixed(n.total), Ordering::Relaxed);
            s.counts.store(
                u64::from(n.visits) << 32 | u64::from(n.vloss),
                Ordering::Relaxed,
            );
            s.proof.store(pack(n.proof, n.plies), Ordering::Relaxed);
            s.actor.store(n.actor, Ordering::Relaxed);
            s.tried.store(u32::from(n.tried), Ordering::Relaxed);
            if n.num_moves == UNEXPANDED {
                continue;
            }
            let range = n.moves as usize..n.moves as usize + n.num_moves as usize;
            let mut entries: Vec<(M, u32)> = if n.actor == CHANCE {
                tree.outcomes[range].to_vec()
            } else {
                tree.moves[range].iter().map(|&m| (m, 0)).collect()
            };
            if n.actor != CHANCE {
                entries[n.tried as usize..].shuffle(rng);
            }
            let slots = shared.new_slots(&entries);
            for slot in slots.iter() {
                if let Some((child, _)) = tree.children(old).find(|(_, c)| c.mv == slot.mv.0) {
                    let copy = shared.nodes.alloc(1).expect("the old tree fits");
                    slot.child.store(copy, Ordering::Relaxed);
                    work.push((child, copy));
                }
            }
            let _ = s.slots.set(slots);
        }
        shared
    }

    /// Whether an arena filled up, so that some leaves were evaluated without a node.
    pub(crate) fn full(&self) -> bool {
        self.full.load(Ordering::Relaxed)
    }

    /// What is proven about the root.
    pub(crate) fn root_proof(&self) -> Proof {
        unpack(self.nodes.get(0).proof.load(Ordering::Acquire)).0
    }

    /// Writes this tree into `tree`'s nodes and move arenas (its root position is kept).
    pub(crate) fn write_into<S: State<Move = M>>(&self, tree: &mut Tree<S>) {
        self.export(tree, true);
    }

    /// Writes into `tree` what a progress report reads: the children of the root and,
    /// below each node written, the children of its most visited child, so that the
    /// report's choice and principal variation are those of the whole tree while the
    /// copy stays proportional to the variation's length, not the tree's size.
    pub(crate) fn write_variation_into<S: State<Move = M>>(&self, tree: &mut Tree<S>) {
        self.export(tree, false);
    }

    /// [`Self::write_into`] if `whole`, else [`Self::write_variation_into`].
    fn export<S: State<Move = M>>(&self, tree: &mut Tree<S>, whole: bool) {
        tree.nodes.clear();
        tree.moves.clear();
        tree.outcomes.clear();
        tree.nodes.push(self.export_node(0, self.root_mv));
        let mut work = vec![(0u32, 0u32)];
        while let Some((shared_index, index)) = work.pop() {
            let s = self.nodes.get(shared_index);
            let Some(slots) = s.slots.get().filter(|slots| !slots.is_empty()) else {
                continue;
            };
            let count = slots.len() as u16;
            let entries: Vec<((M, u32), u32)> = slots
                .iter()
                .map(|slot| (slot.mv, slot.child.load(Ordering::Acquire)))
                .collect();
            let real = |c: u32| c != NONE && c != RESERVED;
            let chance = s.actor.load(Ordering::Relaxed) == CHANCE;
            let ordered: Vec<_> = if chance {
                entries
            } else {
                let (with, without): (Vec<_>, Vec<_>) =
                    entries.into_iter().partition(|&(_, c)| real(c));
                with.into_iter().chain(without).collect()
            };
            let arena_start = if chance {
                tree.outcomes.len()
            } else {
                tree.moves.len()
            };
            let mut tried = 0u16;
            let mut previous = NONE;
            let mut most_visited: Option<(u32, u32, u32)> = None;
            for &(entry, child) in &ordered {
                if chance {
                    tree.outcomes.push(entry);
                } else {
                    tree.moves.push(entry.0);
                }
                if !real(child) {
                    continue;
                }
                tried += 1;
                let copy = tree.nodes.len() as u32;
                tree.nodes.push(self.export_node(child, entry.0));
                if previous == NONE {
                    tree.nodes[index as usize].first_child = copy;
                } else {
                    tree.nodes[previous as usize].next_sibling = copy;
                }
                previous = copy;
                if whole {
                    work.push((child, copy));
                } else {
                    let visits = tree.nodes[copy as usize].visits;
                    if !matches!(most_visited, Some((_, _, v)) if v > visits) {
                        most_visited = Some((child, copy, visits));
                    }
                }
            }
            work.extend(most_visited.map(|(child, copy, _)| (child, copy)));
            let n = &mut tree.nodes[index as usize];
            n.moves = arena_start as u32;
            n.num_moves = count;
            n.tried = tried;
        }
    }

    fn export_node(&self, index: u32, mv: M) -> Node<M> {
        let s = self.nodes.get(index);
        let (proof, plies) = unpack(s.proof.load(Ordering::Acquire));
        let counts = s.counts.load(Ordering::Relaxed);
        Node {
            total: s.total.load(Ordering::Relaxed) as f64 / SCALE,
            visits: (counts >> 32) as u32,
            vloss: counts as u32,
            first_child: NONE,
            next_sibling: NONE,
            moves: 0,
            num_moves: UNEXPANDED,
            tried: 0,
            plies,
            actor: s.actor.load(Ordering::Relaxed),
            proof,
            mv,
        }
    }

    /// One selection, as [`Tree::select`] with virtual loss: descends from the root,
    /// applying each move to `state` and recording the nodes in `path`, until it
    /// creates a node, meets a finished game or a proven node, or cannot expand.
    pub(crate) fn select<S: State<Move = M>>(
        &self,
        state: &mut S,
        rng: &mut AgentRng,
        path: &mut Vec<u32>,
        buffers: &mut (Vec<M>, Vec<(M, u32)>),
        set: &Settings,
    ) -> Leaf {
        let mut node = 0u32;
        loop {
            path.push(node);
            let n = self.nodes.get(node);
            if node != 0 {
                // The root takes no virtual loss: every iteration passes through it, so
                // it would steer nothing and only make the threads contend for it.
                n.counts.fetch_add(1, Ordering::Relaxed);
            }
            let actor = n.actor.load(Ordering::Relaxed);
            let (proof, _) = unpack(n.proof.load(Ordering::Acquire));
            if actor == OVER || (set.solver && proof != Proof::Unknown) {
                return Leaf::Exact(proof.reward());
            }
            let slots = n
                .slots
                .get_or_init(|| self.generate(state, actor, rng, buffers));
            let Some(last) = slots.last() else {
                return Leaf::Evaluate;
            };
            let room = !self.full();
            if actor == CHANCE {
                let pick = rng.random_range(0..last.mv.1);
                let slot = slots
                    .iter()
                    .find(|slot| pick < slot.mv.1)
                    .expect("pick < total");
                state.apply(slot.mv.0);
                let child = &slot.child;
                match child.load(Ordering::Acquire) {
                    NONE if room => {
                        if child
                            .compare_exchange(NONE, RESERVED, Ordering::Relaxed, Ordering::Relaxed)
                            .is_err()
                        {
                            return Leaf::Evaluate;
                        }
                        return self.expanded(slot, state, path);
                    }
                    NONE | RESERVED => return Leaf::Evaluate,
                    c => node = c,
                }
            } else {
                let count = slots.len() as u32;
                if room && n.tried.load(Ordering::Relaxed) < count {
                    let k = n.tried.fetch_add(1, Ordering::Relaxed);
                    if k < count {
                        let slot = &slots[k as usize];
                        slot.child.store(RESERVED, Ordering::Relaxed);
                        state.apply(slot.mv.0);
                        return self.expanded(slot, state, path);
                    }
                }
                let tried = n.tried.load(Ordering::Relaxed).min(count) as usize;
                let Some(slot) = self.best_child(n, &slots[..tried], actor as Seat, set) else {
                    return Leaf::Evaluate;
                };
                state.apply(slot.mv.0);
                node = slot.child.load(Ordering::Acquire);
            }
        }
    }

    /// Slots for `entries`, or none if the slot budget has no room for them.
    fn new_slots(&self, entries: &[(M, u32)]) -> Box<[Slot<M>]> {
        let used = self.slots_used.fetch_add(entries.len(), Ordering::Relaxed);
        if used + entries.len() > self.slot_capacity {
            self.full.store(true, Ordering::Relaxed);
            return Box::new([]);
        }
        entries.iter().map(|&entry| Slot::new(entry)).collect()
    }

    /// The slots of a node whose position is `state`, generated and published.
    fn generate<S: State<Move = M>>(
        &self,
        state: &S,
        actor: u8,
        rng: &mut AgentRng,
        (moves, outcomes): &mut (Vec<M>, Vec<(M, u32)>),
    ) -> Box<[Slot<M>]> {
        outcomes.clear();
        if actor == CHANCE {
            state.chance_outcomes(outcomes);
            let mut cumulative = 0u32;
            for entry in outcomes.iter_mut() {
                cumulative = cumulative
                    .checked_add(entry.1)
                    .expect("chance weights sum below 2^32");
                entry.1 = cumulative;
            }
        } else {
            moves.clear();
            state.legal_moves(moves);
            moves.shuffle(rng);
            outcomes.extend(moves.iter().map(|&m| (m, 0)));
        }
        assert!(outcomes.len() < 65535, "fewer than 65535 moves at a node");
        self.new_slots(outcomes)
    }

    /// Creates the child of the reserved `slot` for `state` and ends the selection there.
    fn expanded<S: State<Move = M>>(&self, slot: &Slot<M>, state: &S, path: &mut Vec<u32>) -> Leaf {
        let child = &slot.child;
        let Some(index) = self.nodes.alloc(1) else {
            self.full.store(true, Ordering::Relaxed);
            child.store(NONE, Ordering::Relaxed);
            return Leaf::Evaluate;
        };
        let n = self.nodes.get(index);
        let (actor, proof) = match state.turn() {
            Turn::Seat(s) => (s as u8, Proof::Unknown),
            Turn::Chance => (CHANCE, Proof::Unknown),
            Turn::Over => {
                let outcome = state.outcome().expect("a finished game has an outcome");
                (OVER, Proof::of(outcome))
            }
        };
        n.actor.store(actor, Ordering::Relaxed);
        n.proof.store(pack(proof, 0), Ordering::Relaxed);
        n.counts.store(1, Ordering::Relaxed);
        child.store(index, Ordering::Release);
        path.push(index);
        if actor == OVER {
            Leaf::Exact(proof.reward())
        } else {
            Leaf::Evaluate
        }
    }

    /// The slot among `tried` (the tried slots of `n`, seat `seat` to move) with the
    /// highest UCT score, as [`Tree`]'s `best_child`; `None` if none has a child yet.
    fn best_child<'a>(
        &self,
        n: &SharedNode<M>,
        tried: &'a [Slot<M>],
        seat: Seat,
        set: &Settings,
    ) -> Option<&'a Slot<M>> {
        let parent = n.counts.load(Ordering::Relaxed);
        let parent_visits = f64::from((parent >> 32) as u32 + parent as u32);
        let log_n = parent_visits.max(1.0).ln();
        let s = if seat == 0 { 1.0 } else { -1.0 };
        // The proof code of a loss for `seat`, compared without unpacking each child's.
        let lost = (1..=3).find(|&code| unpack(code).0.for_seat(seat) == Some(-1));
        let (mut best, mut fallback) = (None, None);
        let mut best_score = f64::NEG_INFINITY;
        for slot in tried {
            let child = slot.child.load(Ordering::Acquire);
            if child == NONE || child == RESERVED {
                continue;
            }
            fallback.get_or_insert(slot);
            let c = self.nodes.get(child);
            if set.solver && Some(c.proof.load(Ordering::Acquire) & 0xff) == lost {
                continue;
            }
            let counts = c.counts.load(Ordering::Relaxed);
            let vloss = counts as u32;
            let visits = (counts >> 32) as u32 + vloss;
            let score = if visits == 0 {
                f64::INFINITY
            } else {
                let per_visit = 1.0 / f64::from(visits);
                let total = c.total.load(Ordering::Relaxed) as f64 / SCALE;
                (s * total - f64::from(vloss)) * per_visit + set.c * (log_n * per_visit).sqrt()
            };
            if score > best_score {
                best_score = score;
                best = Some(slot);
            }
        }
        best.or(fallback)
    }

    /// Adds `reward` to every node of `path`, removes the iteration's virtual losses
    /// and with the solver on propagates a proof upwards from the leaf.
    pub(crate) fn backup(&self, path: &[u32], reward: f64, set: &Settings) {
        let leaf = *path.last().expect("a path holds the root");
        let leaf_proof = unpack(self.nodes.get(leaf).proof.load(Ordering::Acquire)).0;
        let mut proving = set.solver && leaf_proof != Proof::Unknown;
        let reward = fixed(reward);
        for (i, &index) in path.iter().enumerate().rev() {
            let n = self.nodes.get(index);
            let visit = if index == 0 {
                1 << 32
            } else {
                VISIT_LESS_VLOSS
            };
            n.counts.fetch_add(visit, Ordering::Relaxed);
            n.total.fetch_add(reward, Ordering::Relaxed);
            if proving && i + 1 < path.len() {
                proving = self.try_prove(index);
            }
        }
    }

    /// Proves `node` from its children's proofs if they allow (the rules of
    /// [`Tree`]'s solver); returns whether it is proven.
    fn try_prove(&self, node: u32) -> bool {
        let n = self.nodes.get(node);
        if unpack(n.proof.load(Ordering::Acquire)).0 != Proof::Unknown {
            return true;
        }
        let Some(slots) = n.slots.get().filter(|slots| !slots.is_empty()) else {
            return false;
        };
        let children: Vec<Option<(Proof, u16)>> = slots
            .iter()
            .map(|slot| {
                let child = slot.child.load(Ordering::Acquire);
                (child != NONE && child != RESERVED)
                    .then(|| unpack(self.nodes.get(child).proof.load(Ordering::Acquire)))
            })
            .collect();
        let complete = children.iter().all(Option::is_some);
        let proven = children
            .iter()
            .flatten()
            .filter(|(p, _)| *p != Proof::Unknown);
        let all_proven = complete && children.iter().flatten().all(|(p, _)| *p != Proof::Unknown);
        let result = match n.actor.load(Ordering::Relaxed) {
            CHANCE => {
                let mut common: Option<(Proof, u16)> = None;
                for &(p, plies) in proven {
                    match common {
                        Some((q, _)) if q != p => return false,
                        _ => common = Some((p, common.map_or(plies, |(_, l)| l.max(plies)))),
                    }
                }
                common.filter(|_| all_proven)
            }
            actor => {
                let seat = actor as Seat;
                let mut best: Option<(i8, u16, Proof)> = None;
                for &(p, plies) in proven {
                    let result = p.for_seat(seat).expect("proven");
                    let better = match best {
                        None => true,
                        Some((r, l, _)) => {
                            result > r
                                || (result == r && result == 1 && plies < l)
                                || (result == r && result < 1 && plies > l)
                        }
                    };
                    if better {
                        best = Some((result, plies, p));
                    }
                }
                match best {
                    Some((1, plies, p)) => Some((p, plies)),
                    Some((_, plies, p)) if all_proven => Some((p, plies)),
                    _ => None,
                }
            }
        };
        let Some((proof, plies)) = result else {
            return false;
        };
        let _ = n.proof.compare_exchange(
            pack(Proof::Unknown, 0),
            pack(proof, plies.saturating_add(1)),
            Ordering::Release,
            Ordering::Relaxed,
        );
        true
    }
}

#[cfg(test)]
mod tests {
    use agon_engine::games::connect4::{Connect4, Connect4Eval, Connect4State};
    use agon_engine::Game;

    use super::super::driver::Job;
    use super::super::parallel::tree_parallel;
    use super::super::rollout::Rollout;
    use super::super::tree::{Node, Settings, Tree};
    use crate::budget::{Budget, Clock};

    /// A tree-parallel search of `iterations` on `threads` threads from the Connect Four
    /// position after `moves`, in an arena of `max_nodes`: the tree, iterations and
    /// whether the arena filled.
    fn search(
        moves: &str,
        iterations: u64,
        threads: u64,
        max_nodes: usize,
    ) -> (Tree<Connect4State>, u64, bool) {
        let mut root = Connect4.initial_state();
        agon_engine::play_moves(&mut root, moves).unwrap();
        let clock = Clock::start(&Budget::default());
        let job = Job {
            root: &root,
            eval: &Connect4Eval,
            settings: Settings {
                c: 1.4,
                solver: true,
                virtual_loss: true,
                max_nodes,
            },
            rollout: Rollout::Random { plies: None },
            clock: &clock,
        };
        let mut tree = Tree::default();
        tree.reset(&root);
        let seeds: Vec<u64> = (0..threads).collect();
        let (run, _, full) = tree_parallel(&mut tree, &job, iterations, &seeds, None);
        (tree, run, full)
    }

    /// Every node's visits cover its children's, and no virtual loss is left.
    fn consistent<M>(tree: &Tree<impl agon_engine::State<Move = M>>, node: u32)
    where
        M: agon_engine::Move,
    {
        let n: &Node<M> = &tree.nodes[node as usize];
        assert_eq!(n.vloss, 0);
        let below: u32 = tree.children(node).map(|(_, c)| c.visits).sum();
        assert!(below <= n.visits, "{below} > {}", n.visits);
        for (child, _) in tree.children(node) {
            consistent(tree, child);
        }
    }

    /// The iterations that ended at each node (its visits less its children's), summed.
    fn ends<S: agon_engine::State>(tree: &Tree<S>) -> u64 {
        (0..tree.nodes.len() as u32)
            .map(|i| {
                let below: u32 = tree.children(i).map(|(_, c)| c.visits).sum();
                u64::from(tree.nodes[i as usize].visits - below)
            })
            .sum()
    }

    #[test]
    fn many_threads_lose_no_update() {
        let (tree, run, full) = search("", 40_000, 8, 1 << 20);
        assert_eq!(run, 40_000);
        assert!(!full);
        assert_eq!(u64::from(tree.root().visits), run);
        consistent(&tree, 0);
        // Every iteration ends at exactly one node: nothing lost, nothing counted twice.
        assert_eq!(ends(&tree), run);
    }

    #[test]
    fn a_full_arena_stops_expanding() {
        let (tree, run, full) = search("", 5_000, 2, 100);
        assert!(full);
        assert_eq!(run, 5_000);
        assert!(tree.nodes.len() <= 100);
        assert_eq!(u64::from(tree.root().visits), run);
        consistent(&tree, 0);
        assert_eq!(ends(&tree), run);
    }
}
