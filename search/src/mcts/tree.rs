//! The MCTS tree: an arena of nodes with UCT selection, expansion, backup, the
//! MCTS-Solver's proofs, evaluator guidance ([`guide`]) and tree reuse ([`reroot`]),
//! for one thread or for the threads of tree parallelism searching it at once: its
//! nodes' fields are plain cells or atomics ([`Stats`]), the code the same.
//!
//! # Layout
//!
//! Nodes live in one arena ([`arena`]) and refer to each other by `u32` index, with no
//! per-node allocation. The root is always index 0. A node is both a position and the
//! edge that leads to it: the children of a node are one run of consecutive nodes,
//! allotted the second time an iteration passes through it (a leaf that is never
//! revisited never pays for its moves), one per legal move or chance outcome, each
//! holding its move and (below a chance node) its cumulative weight. So selection
//! scans one contiguous array, whose children are all requested from memory at once.
//!
//! A child is *unborn* until an iteration first reaches it. A decision node's first
//! `claimed` children are those tried: an expansion claims the next one. With one
//! thread ([`Plain`]) it then draws one of the untried moves uniformly at random and
//! swaps it into the claimed slot; with many ([`Atomic`]) the moves were shuffled when
//! the run was allotted, and a slot is claimed by compare-and-swap of the count, so
//! that each thread tries a different move. Children are scanned newest first (the
//! last claimed slot first), so that ties go to the most recently tried move. A chance
//! node's child is born the first time its outcome is drawn (claimed by
//! compare-and-swap of its actor from unborn to reserved). A thread that meets a
//! reserved child, or a node whose run another thread is allotting, evaluates the
//! position reached instead of waiting: no thread ever waits for another.
//!
//! A chance node whose outcomes are equally likely (a die) is marked so, and a draw
//! below their number picks the slot without reading weights.
//!
//! # Values
//!
//! Every node sums the rewards of the iterations through it from **seat 0's** view, in
//! [-1, 1] ([`Stats`] says how, with virtual loss in a shared tree). A decision node of
//! seat `p` reads its children's means with the sign of `p`, so two consecutive
//! decisions of one seat (Invector's pie swap, a Pig turn) need no special case: the
//! sign follows the seat, never the ply parity.
//!
//! # Proofs (MCTS-Solver, Winands, Björnsson and Saito 2008)
//!
//! A finished game is proven by its outcome. With the solver on, after an iteration
//! reaches a proven node, backup tries to prove each node above it, stopping at the
//! first that stays unproven ([`proof`]): a decision node of seat `p` is proven a win
//! for `p` as soon as one child is; once all its moves have children and all are
//! proven, it takes the best of their results for `p` (so a node whose moves all lose
//! is a loss, and draws are proven too). A chance node is proven only when every
//! outcome has a child and all are proven with the same result; otherwise its value
//! stays a mean. Proven nodes are not descended into: an iteration that reaches one
//! backs up its exact reward. Each proof records the length in plies of the line that
//! proves it (shortest known win, longest loss), reported as `Value::Win(n)` /
//! `Value::Loss(n)`: the length of the line found, not necessarily the game's
//! shortest. A node's actor, proof and proof length share one word, so that a proof
//! is set by one compare-and-swap.
//!
//! # Memory bound
//!
//! The arena holds at most `max_nodes` nodes ([`super::MctsConfig::max_nodes`]: the
//! `tree` parameter in MiB over [`super::NODE_BYTES`]), untried moves' nodes included.
//! When a node's children do not fit, the node stays a leaf, valued without
//! expanding, for the rest of the search, and [`Tree::is_full`] says so; children
//! already allotted are still born when first reached, since they cost nothing more.

use std::sync::atomic::{AtomicBool, Ordering};

use agon_engine::{Evaluator, Move, Outcome, Seat, State, Turn};
use rand::seq::SliceRandom;

use super::uct_counts::UctCounts;
use crate::agent::AgentRng;
use crate::draws::Frugal;
use arena::{Arena, Chunk};
pub(crate) use guide::Guide;
pub(crate) use pending::FLUSH_EVERY;
pub(crate) use stats::{Atomic, Plain, Stats};
use stats::{GuideCell, MoveCell, Word};

mod arena;
pub(crate) mod guide;
mod pending;
mod proof;
mod reroot;
mod stats;

/// "No node": a node whose children are not allotted.
pub(crate) const NONE: u32 = u32::MAX;
/// `children` of a node whose children a thread is allotting.
const ALLOTTING: u32 = u32::MAX - 1;
/// `children` of a node whose children did not fit in the arena.
pub(super) const NO_ROOM: u32 = u32::MAX - 2;
/// `actor` of a chance node (a decision node holds its seat, 0 or 1).
pub(super) const CHANCE: u8 = 2;
/// `actor` of a finished game.
pub(super) const OVER: u8 = 3;
/// `actor` of a node that no iteration has reached yet.
pub(super) const UNBORN: u8 = 4;
/// `actor` of a chance outcome's node while the thread that claimed it fills it in.
const RESERVED: u8 = 5;

/// What is proven about a node, from the game's point of view (not a seat's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Proof {
    /// Nothing: the node's value is the mean of its rewards.
    Unknown,
    /// Seat 0 wins with best play.
    Seat0Wins,
    /// Seat 1 wins with best play.
    Seat1Wins,
    /// A draw with best play.
    Draw,
}

impl Proof {
    /// The proof of a finished game.
    pub(super) fn of(outcome: Outcome) -> Proof {
        match outcome {
            Outcome::Win(0) => Proof::Seat0Wins,
            Outcome::Win(_) => Proof::Seat1Wins,
            Outcome::Draw => Proof::Draw,
        }
    }

    /// The reward of a proven result from seat 0's view (0 for `Unknown`, never asked).
    pub(crate) fn reward(self) -> f64 {
        match self {
            Proof::Seat0Wins => 1.0,
            Proof::Seat1Wins => -1.0,
            Proof::Draw | Proof::Unknown => 0.0,
        }
    }

    /// The result for `seat`: 1 win, 0 draw, -1 loss (`None` if unproven).
    pub(crate) fn for_seat(self, seat: Seat) -> Option<i8> {
        match self {
            Proof::Unknown => None,
            Proof::Draw => Some(0),
            Proof::Seat0Wins => Some(if seat == 0 { 1 } else { -1 }),
            Proof::Seat1Wins => Some(if seat == 1 { 1 } else { -1 }),
        }
    }

    /// The proof's code in a node's `state` word (0 for `Unknown`).
    fn code(self) -> u32 {
        match self {
            Proof::Unknown => 0,
            Proof::Seat0Wins => 1,
            Proof::Seat1Wins => 2,
            Proof::Draw => 3,
        }
    }

    /// The proof of a code.
    fn from_code(code: u32) -> Proof {
        match code {
            0 => Proof::Unknown,
            1 => Proof::Seat0Wins,
            2 => Proof::Seat1Wins,
            _ => Proof::Draw,
        }
    }
}

/// A node's `state` word: actor in the high byte, proof length in the middle 16 bits,
/// [`Proof`] code in the low byte, so that they are read together and a proof is set
/// by one compare-and-swap.
fn state_word(actor: u8, proof: Proof, plies: u16) -> u32 {
    u32::from(actor) << 24 | u32::from(plies) << 8 | proof.code()
}

/// The actor of a `state` word.
fn actor_in(word: u32) -> u8 {
    (word >> 24) as u8
}

/// The proof and proof length of a `state` word.
fn proof_in(word: u32) -> (Proof, u16) {
    (Proof::from_code(word & 0xff), (word >> 8) as u16)
}

/// One node and the edge to it (see the module docs): 40 bytes with [`Plain`] cells
/// and a move of at most 8 bytes, 32 (two to a cache line) with [`Atomic`] ones.
pub(crate) struct Node<M: Move, St: Stats> {
    /// The sum of rewards ([`Stats`]).
    total: St::Total,
    /// Visits ([`Stats`]).
    visits: St::Word,
    /// Actor, proof and proof length ([`state_word`]).
    state: St::Word,
    /// The index of the first child, or [`NONE`], [`ALLOTTING`], [`NO_ROOM`].
    children: St::Word,
    /// How many children there are in the low 16 bits (set before `children` is
    /// published); in the high 16, a decision node's claimed children, a chance
    /// node's 1 if its outcomes are equally likely.
    shape: St::Word,
    /// The cumulative weight of this outcome among its siblings (a chance node's
    /// children; 1, 2, ... for equally likely outcomes).
    weight: St::Word,
    /// The move or outcome that leads here (meaningless at the root).
    mv: St::Mv<M>,
    /// The stored heuristic and `v_τ` ([`guide`]).
    guide: St::Guide,
    _align: St::Align,
}

impl<M: Move, St: Stats> Node<M, St> {
    /// An unborn node reached by `mv`, without children.
    fn blank(mv: M) -> Self {
        Node {
            total: St::zero(),
            visits: St::Word::new(0),
            state: St::Word::new(state_word(UNBORN, Proof::Unknown, 0)),
            children: St::Word::new(NONE),
            shape: St::Word::new(0),
            weight: St::Word::new(0),
            mv: St::Mv::<M>::new(mv),
            guide: St::Guide::new(),
            _align: St::Align::default(),
        }
    }

    /// Makes this node an unborn one reached by `mv`, `weight` its cumulative weight,
    /// before its parent's run is published (no other thread reads it).
    fn rewrite(&self, mv: M, weight: u32) {
        St::clear(&self.total);
        self.visits.store(0, Ordering::Relaxed);
        self.state
            .store(state_word(UNBORN, Proof::Unknown, 0), Ordering::Relaxed);
        self.children.store(NONE, Ordering::Relaxed);
        self.shape.store(0, Ordering::Relaxed);
        self.weight.store(weight, Ordering::Relaxed);
        self.mv.set(mv);
        self.guide.set(0, 0);
    }

    /// The actor: a seat (0 or 1), [`CHANCE`], [`OVER`] or [`UNBORN`] (or reserved).
    pub(crate) fn actor(&self) -> u8 {
        actor_in(self.state.load(Ordering::Acquire))
    }

    /// The move or outcome that leads here.
    pub(crate) fn mv(&self) -> M {
        self.mv.get()
    }

    /// How many children (valid once `children` is an index).
    fn len(&self) -> usize {
        (self.shape.load(Ordering::Relaxed) & 0xffff) as usize
    }
}

/// A node's children: consecutive nodes of the arena.
type Run<M, St> = [Node<M, St>];

/// +1 for seat 0, -1 for seat 1: turns a seat-0 reward into `seat`'s.
#[inline]
fn sign(seat: Seat) -> f64 {
    if seat == 0 {
        1.0
    } else {
        -1.0
    }
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

/// The fixed settings that selection and backup need.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Settings {
    /// UCT exploration constant.
    pub(crate) c: f64,
    /// Whether proofs propagate and steer selection.
    pub(crate) solver: bool,
    /// Evaluator guidance: progressive bias and implicit minimax backups ([`guide`]).
    pub(crate) guide: Guide,
}

/// Where an iteration's selection ended.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Leaf {
    /// A finished game or a proven node: this exact reward (seat 0's view).
    Exact(f64),
    /// A new node (or one the full arena could not expand): evaluate the state reached.
    Evaluate,
}

/// A node on a selection's path: the node, its index and its actor, kept so that
/// neither the next step of selection nor backup looks the node up in the arena again
/// or reads its actor again.
pub(crate) struct Step<'a, M: Move, St: Stats> {
    node: &'a Node<M, St>,
    pub(crate) index: u32,
    actor: u8,
}

impl<'a, M: Move, St: Stats> Step<'a, M, St> {
    /// The node.
    pub(crate) fn node(&self) -> &'a Node<M, St> {
        self.node
    }
}

/// What one thread keeps between iterations (and a tree keeps for its first thread
/// between searches, so that a warmed-up agent allocates nothing).
pub(crate) struct Buffers<M: Move, St: Stats> {
    /// Legal moves, listed.
    moves: Vec<M>,
    /// Children to allot: move and cumulative weight.
    entries: Vec<(M, u32)>,
    /// UCT's factors of visit counts.
    counts: UctCounts,
    /// The thread's run of arena nodes (a shared tree's).
    chunk: Chunk,
    /// The thread's held-back statistics (a shared tree's).
    pending: St::Pending,
}

impl<M: Move, St: Stats> Buffers<M, St> {
    /// Empty buffers for one of `threads` threads.
    pub(crate) fn new(threads: usize) -> Self {
        Buffers {
            moves: Vec::new(),
            entries: Vec::new(),
            counts: UctCounts::default(),
            chunk: Chunk::default(),
            pending: St::pending(threads),
        }
    }

    /// Readies kept buffers for a search by one of `threads` threads: the run of arena
    /// nodes of an earlier search is not this one's.
    pub(crate) fn start(&mut self, threads: usize) {
        self.chunk = Chunk::default();
        self.pending = St::pending(threads);
    }
}

/// What [`Tree::children`] says of a child: its statistics from seat 0's view (those
/// of a shared tree with the iterations in flight counted as losses).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Child<M> {
    pub(crate) mv: M,
    pub(crate) visits: u32,
    pub(crate) total: f64,
    pub(crate) proof: Proof,
    pub(crate) plies: u16,
    pub(crate) actor: u8,
    /// The stored heuristic and `v_τ` ([`guide`]'s fixed point).
    #[cfg(test)]
    pub(crate) heuristic: i16,
    #[cfg(test)]
    pub(crate) minimax: i16,
}

impl<M> Child<M> {
    /// The seat deciding here, if this is a decision node.
    pub(crate) fn seat(&self) -> Option<Seat> {
        (self.actor < CHANCE).then_some(self.actor as Seat)
    }
}

/// The search tree of one MCTS (see the module docs), of [`Plain`] nodes for one thread
/// or [`Atomic`] ones for many. The arena keeps its segments between searches.
pub(crate) struct Tree<S: State, St: Stats> {
    /// The nodes (none before the first [`Tree::reset`]).
    arena: Arena<S::Move, St>,
    /// The arena that re-rooting copies into, kept to reuse its segments.
    spare: Arena<S::Move, St>,
    /// Whether some node's children did not fit in the arena.
    full: AtomicBool,
    /// The position at the root (`None` before the first search).
    root_state: Option<S>,
    /// The first thread's buffers.
    buffers: Option<Buffers<S::Move, St>>,
    /// A work list for re-rooting, kept to reuse its capacity.
    work: Vec<(u32, u32)>,
}

impl<S: State, St: Stats> Default for Tree<S, St> {
    fn default() -> Self {
        Tree {
            arena: Arena::none(),
            spare: Arena::none(),
            full: AtomicBool::new(false),
            root_state: None,
            buffers: None,
            work: Vec::new(),
        }
    }
}

impl<S: State, St: Stats> std::fmt::Debug for Tree<S, St> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tree")
            .field("nodes", &self.arena.len())
            .field("full", &self.full)
            .finish_non_exhaustive()
    }
}

impl<S: State, St: Stats> Tree<S, St> {
    /// The arena (empty until the tree is [reset](Tree::reset)).
    #[inline]
    fn arena(&self) -> &Arena<S::Move, St> {
        &self.arena
    }

    /// Node `index`.
    #[inline]
    pub(crate) fn node(&self, index: u32) -> &Node<S::Move, St> {
        self.arena().get(index)
    }

    /// Nodes in the arena, unborn ones included.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.arena.len()
    }

    /// The root, as [`Tree::children`] describes a child.
    pub(crate) fn root(&self) -> Child<S::Move> {
        self.child(self.node(0), CHANCE)
    }

    /// What is proven about the root.
    pub(crate) fn root_proof(&self) -> Proof {
        proof_in(self.node(0).state.load(Ordering::Acquire)).0
    }

    /// Whether some node's children did not fit in the arena, so that it was valued
    /// without expanding.
    pub(crate) fn is_full(&self) -> bool {
        self.full.load(Ordering::Relaxed)
    }

    /// The first thread's buffers for a search by `threads` threads, taken from the
    /// tree ([`Tree::keep_buffers`] gives them back).
    pub(crate) fn take_buffers(&mut self, threads: usize) -> Buffers<S::Move, St> {
        let mut buffers = self.buffers.take().unwrap_or_else(|| Buffers::new(threads));
        buffers.start(threads);
        buffers
    }

    /// Keeps `buffers` for the next search.
    pub(crate) fn keep_buffers(&mut self, buffers: Buffers<S::Move, St>) {
        self.buffers = Some(buffers);
    }

    /// Empties the tree, makes `state` its root and `max_nodes` its arena's capacity.
    /// `state` must not be finished (the agent never builds a tree for a finished
    /// game).
    pub(crate) fn reset(&mut self, state: &S, max_nodes: usize) {
        let mut arena = std::mem::replace(&mut self.arena, Arena::none());
        if arena.capacity() == max_nodes.clamp(1, NO_ROOM as usize) {
            arena.clear();
        } else {
            // A blank node's move is never read; any move of the game will do, and a
            // position that is not over has at least one decision or outcome.
            let blank = match state.turn() {
                Turn::Chance => {
                    let mut outcomes = Vec::new();
                    state.chance_outcomes(&mut outcomes);
                    outcomes[0].0
                }
                _ => {
                    let mut moves = Vec::new();
                    state.legal_moves(&mut moves);
                    moves[0]
                }
            };
            self.spare = Arena::none();
            arena = Arena::new(max_nodes, blank);
        }
        let root = arena.alloc(1).expect("room for the root");
        let (actor, proof) = actor_of(state);
        let n = arena.get(root);
        n.rewrite(n.mv(), 0);
        n.state
            .store(state_word(actor, proof, 0), Ordering::Release);
        self.arena = arena;
        self.full.store(false, Ordering::Relaxed);
        self.root_state = Some(state.clone());
    }

    /// One selection from the root: descends by UCT (decision nodes) or by sampling
    /// (chance nodes), applying each move to `state` (the root position on entry) and
    /// recording the nodes in `path`, until it creates a node, meets a finished game or
    /// a proven node, or cannot expand (a full arena, or a node another thread is busy
    /// with). In a shared tree every node entered but the root counts a visit at once
    /// (virtual loss, [`Atomic`]).
    pub(crate) fn select<'a, E: Evaluator<S>>(
        &'a self,
        state: &mut S,
        rng: &mut AgentRng,
        path: &mut Vec<Step<'a, S::Move, St>>,
        buffers: &mut Buffers<S::Move, St>,
        set: &Settings,
        eval: &E,
    ) -> Leaf {
        // The selection's draws spend `rng`'s words a few bits at a time, as a
        // playout's do; what is left of the last word is dropped.
        let mut draws = Frugal::new();
        let mut index = 0u32;
        let mut n = self.node(0);
        loop {
            if index != 0 {
                St::enter(n, index, &mut buffers.pending);
            }
            let word = n.state.load(Ordering::Acquire);
            let actor = actor_in(word);
            path.push(Step {
                node: n,
                index,
                actor,
            });
            if actor == OVER || (set.solver && word & 0xff != 0) {
                return Leaf::Exact(proof_in(word).0.reward());
            }
            let Some((start, run)) = self.run(n, state, actor, rng, buffers) else {
                return Leaf::Evaluate;
            };
            if actor == CHANCE {
                let slot = if n.shape.load(Ordering::Relaxed) >> 16 == 1 {
                    draws.below_from_bits(rng, run.len() as u64) as usize
                } else {
                    let total = run[run.len() - 1].weight.load(Ordering::Relaxed);
                    let pick = draws.below_from_bits(rng, u64::from(total)) as u32;
                    run.iter()
                        .position(|c| pick < c.weight.load(Ordering::Relaxed))
                        .expect("pick < total")
                };
                let child = &run[slot];
                state.apply(child.mv());
                let unborn = state_word(UNBORN, Proof::Unknown, 0);
                match actor_in(child.state.load(Ordering::Acquire)) {
                    UNBORN => {
                        let reserved = state_word(RESERVED, Proof::Unknown, 0);
                        if child
                            .state
                            .swap_if(unborn, reserved, Ordering::Acquire)
                            .is_err()
                        {
                            return Leaf::Evaluate;
                        }
                        return self.create(
                            start + slot as u32,
                            child,
                            state,
                            path,
                            buffers,
                            set,
                            eval,
                        );
                    }
                    RESERVED => return Leaf::Evaluate,
                    _ => {
                        index = start + slot as u32;
                        n = child;
                    }
                }
            } else {
                let mut shape = n.shape.load(Ordering::Relaxed);
                while shape >> 16 < shape & 0xffff {
                    match n.shape.swap_if(shape, shape + (1 << 16), Ordering::Relaxed) {
                        Ok(_) => {
                            let k = (shape >> 16) as usize;
                            if !St::SHARED {
                                // One thread draws the move it tries among the untried.
                                let untried = (run.len() - k) as u64;
                                let pick = k + draws.below(rng, untried) as usize;
                                let mv = run[pick].mv();
                                run[pick].mv.set(run[k].mv());
                                run[k].mv.set(mv);
                            }
                            let child = &run[k];
                            state.apply(child.mv());
                            return self.create(
                                start + k as u32,
                                child,
                                state,
                                path,
                                buffers,
                                set,
                                eval,
                            );
                        }
                        Err(now) => shape = now,
                    }
                }
                let tried = &run[..(shape >> 16) as usize];
                let Some(k) = Self::best_child(index, n, start, tried, actor as Seat, set, buffers)
                else {
                    return Leaf::Evaluate;
                };
                state.apply(run[k].mv());
                index = start + k as u32;
                n = &run[k];
            }
        }
    }

    /// The first index and the nodes of `n`'s children, allotted now if this is the
    /// first time; `None` if they did not fit or another thread is allotting them.
    #[inline]
    fn run<'a>(
        &'a self,
        n: &Node<S::Move, St>,
        state: &S,
        actor: u8,
        rng: &mut AgentRng,
        buffers: &mut Buffers<S::Move, St>,
    ) -> Option<(u32, &'a Run<S::Move, St>)> {
        let mut start = n.children.load(Ordering::Acquire);
        if start == NONE {
            if n.children
                .swap_if(NONE, ALLOTTING, Ordering::Acquire)
                .is_err()
            {
                return None;
            }
            start = self.allot(n, state, actor, rng, buffers);
        }
        (start < NO_ROOM).then(|| (start, self.arena().run(start, n.len())))
    }

    /// Allots `n`'s children for `state` (its moves, shuffled in a shared tree, or its
    /// outcomes with their cumulative weights) and publishes them; returns their first
    /// index, or [`NO_ROOM`] (then the tree is full).
    fn allot(
        &self,
        n: &Node<S::Move, St>,
        state: &S,
        actor: u8,
        rng: &mut AgentRng,
        buffers: &mut Buffers<S::Move, St>,
    ) -> u32 {
        let Buffers {
            moves,
            entries,
            chunk,
            ..
        } = buffers;
        entries.clear();
        let mut uniform = false;
        if actor == CHANCE {
            state.chance_outcomes(entries);
            let mut cumulative = 0u32;
            for entry in entries.iter_mut() {
                cumulative = cumulative
                    .checked_add(entry.1)
                    .expect("chance weights sum below 2^32");
                entry.1 = cumulative;
            }
            let count = entries.len() as u32;
            uniform = (1..)
                .zip(entries.iter())
                .all(|(k, &(_, c))| c == cumulative / count * k);
            if uniform {
                for (k, entry) in (1..).zip(entries.iter_mut()) {
                    entry.1 = k;
                }
            }
        } else {
            moves.clear();
            state.legal_moves(moves);
            if St::SHARED {
                moves.shuffle(rng);
            }
            entries.extend(moves.iter().map(|&m| (m, 0)));
        }
        let len = u16::try_from(entries.len())
            .ok()
            .filter(|&len| len < u16::MAX)
            .expect("fewer than 65535 moves at a node");
        let arena = self.arena();
        let start = if St::SHARED {
            arena.alloc_in(chunk, entries.len())
        } else {
            arena.alloc(entries.len())
        };
        let Some(start) = start else {
            self.full.store(true, Ordering::Relaxed);
            n.children.store(NO_ROOM, Ordering::Release);
            return NO_ROOM;
        };
        for (c, &(mv, weight)) in arena.run(start, entries.len()).iter().zip(entries.iter()) {
            c.rewrite(mv, weight);
        }
        n.shape
            .store(u32::from(uniform) << 16 | u32::from(len), Ordering::Relaxed);
        n.children.store(start, Ordering::Release);
        start
    }

    /// Creates the claimed child `index` (`c`) for `state`, with this iteration
    /// started through it, and ends the selection there.
    #[allow(clippy::too_many_arguments)]
    fn create<'a, E: Evaluator<S>>(
        &'a self,
        index: u32,
        c: &'a Node<S::Move, St>,
        state: &S,
        path: &mut Vec<Step<'a, S::Move, St>>,
        buffers: &mut Buffers<S::Move, St>,
        set: &Settings,
        eval: &E,
    ) -> Leaf {
        let (actor, proof) = actor_of(state);
        St::enter(c, index, &mut buffers.pending);
        self.guide_new(c, state, set, eval);
        c.state
            .store(state_word(actor, proof, 0), Ordering::Release);
        path.push(Step {
            node: c,
            index,
            actor,
        });
        if actor == OVER {
            Leaf::Exact(proof.reward())
        } else {
            Leaf::Evaluate
        }
    }

    /// The index among `tried` (the claimed children of node `index`, `n`, seat
    /// `seat` to move; `start` the first one's index) of the child with the highest UCT
    /// score, `mean + c·sqrt(ln N / n)` (with guidance, [`Guide::score`]), its factors
    /// read from the thread's [`UctCounts`]; with the solver on, children proven lost
    /// for `seat` are skipped unless all are; `None` if none is born yet. Children are
    /// scanned newest first, the first of equal scores kept. Not inlined: in its own
    /// function the scan keeps its values in registers, where inlined into the
    /// iteration loop it spilled them.
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    fn best_child(
        index: u32,
        n: &Node<S::Move, St>,
        start: u32,
        tried: &[Node<S::Move, St>],
        seat: Seat,
        set: &Settings,
        buffers: &mut Buffers<S::Move, St>,
    ) -> Option<usize> {
        let Buffers {
            counts, pending, ..
        } = buffers;
        let (parent_visits, held) = St::parent_view(n, index, pending);
        if held {
            Self::scan(tried, parent_visits, seat, set, counts, |k, c| {
                St::child_view_held(c, start + k as u32, pending)
            })
        } else {
            Self::scan(tried, parent_visits, seat, set, counts, |_, c| {
                St::child_view(c)
            })
        }
    }

    /// [`Self::best_child`] among `tried`, whose parent has `parent_visits`, with
    /// `view(k, child)` a child's visits and total ([`Stats::child_view`]).
    #[inline(always)]
    fn scan(
        tried: &[Node<S::Move, St>],
        parent_visits: u32,
        seat: Seat,
        set: &Settings,
        counts: &mut UctCounts,
        view: impl Fn(usize, &Node<S::Move, St>) -> (u32, f64),
    ) -> Option<usize> {
        let s = sign(seat);
        let scaled = s * St::SCALE;
        let explore_scale = set.c * counts.parent(parent_visits);
        // The proof code of a loss for `seat`, compared without unpacking each child's.
        let lost = if seat == 0 {
            Proof::Seat1Wins.code()
        } else {
            Proof::Seat0Wins.code()
        };
        let (mut best, mut fallback) = (None, None);
        let mut best_score = f64::NEG_INFINITY;
        for (k, c) in tried.iter().enumerate().rev() {
            let word = c.state.load(Ordering::Acquire);
            if actor_in(word) >= UNBORN {
                continue;
            }
            fallback.get_or_insert(k);
            if set.solver && word & 0xff == lost {
                continue;
            }
            let (visits, total) = view(k, c);
            let score = if visits == 0 {
                f64::INFINITY
            } else {
                let f = counts.child(visits);
                let explore = explore_scale * f.inverse_sqrt;
                if set.guide.is_on() {
                    let (heuristic, minimax) = c.guide.get();
                    set.guide
                        .score(visits, total * St::SCALE, heuristic, minimax, s, explore)
                } else {
                    scaled * total * f.inverse + explore
                }
            };
            if score > best_score {
                best_score = score;
                best = Some(k);
            }
        }
        // Every child lost: the newest.
        best.or(fallback)
    }

    /// Adds `reward` (seat 0's view) to every node of `path` ([`Stats::complete`]),
    /// with the solver on propagates a proof upwards from the leaf, and with implicit
    /// minimax backups recomputes each node's `v_τ` above the leaf from its children's
    /// (after its proof, which takes precedence).
    pub(crate) fn backup(
        &self,
        path: &[Step<'_, S::Move, St>],
        reward: f64,
        set: &Settings,
        buffers: &mut Buffers<S::Move, St>,
    ) {
        let leaf = path.last().expect("a path holds the root").node;
        let mut proving = set.solver && leaf.state.load(Ordering::Acquire) & 0xff != 0;
        // The `v_τ` the node below had before this backup (`None`: it is new).
        let mut below: Option<i16> = None;
        for (i, step) in path.iter().enumerate().rev() {
            let parent_actor = if i == 0 { CHANCE } else { path[i - 1].actor };
            let n = step.node;
            St::complete(
                n,
                step.index,
                i == 0,
                parent_actor,
                reward,
                &mut buffers.pending,
            );
            if proving && i + 1 < path.len() {
                proving = self.try_prove(n);
            }
            if set.guide.minimax > 0.0 {
                let before = n.guide.get().1;
                let new = n.visits.load(Ordering::Relaxed) == 1;
                if i + 1 < path.len() {
                    self.back_up_minimax(n, path[i + 1].node, below);
                }
                below = (!new).then_some(before);
            }
        }
    }

    /// Adds the thread's held-back statistics in `buffers` to the tree and clears them.
    pub(crate) fn flush(&self, buffers: &mut Buffers<S::Move, St>) {
        let arena = self.arena();
        St::flush(&mut buffers.pending, |index| arena.get(index));
    }

    /// What [`Tree::children`] says of `n`, a child of a `parent_actor` node.
    fn child(&self, n: &Node<S::Move, St>, parent_actor: u8) -> Child<S::Move> {
        let word = n.state.load(Ordering::Acquire);
        let (proof, plies) = proof_in(word);
        let (visits, total) = St::view(n, parent_actor);
        Child {
            mv: n.mv(),
            visits,
            total,
            proof,
            plies,
            actor: actor_in(word),
            #[cfg(test)]
            heuristic: n.guide.get().0,
            #[cfg(test)]
            minimax: n.guide.get().1,
        }
    }

    /// Node `index` as [`Tree::children`] describes a child, its statistics read as a
    /// chance node's child's (exact in a [`Plain`] tree).
    #[cfg(test)]
    pub(crate) fn describe(&self, index: u32) -> Child<S::Move> {
        self.child(self.node(index), CHANCE)
    }

    /// The born children of `node`, with their indices: a decision node's newest first
    /// (the last claimed first), a chance node's in outcome order.
    pub(crate) fn children(&self, node: u32) -> impl Iterator<Item = (u32, Child<S::Move>)> + '_ {
        let n = self.node(node);
        let actor = n.actor();
        let start = n.children.load(Ordering::Acquire);
        let run = if start < NO_ROOM {
            self.arena().run(start, n.len())
        } else {
            &[]
        };
        let chance = actor == CHANCE;
        let claimed = if chance {
            0
        } else {
            ((n.shape.load(Ordering::Relaxed) >> 16) as usize).min(run.len())
        };
        let forward = 0..if chance { run.len() } else { 0 };
        forward
            .chain((0..claimed).rev())
            .filter(move |&k| run[k].actor() < UNBORN)
            .map(move |k| (start + k as u32, self.child(&run[k], actor)))
    }
}

#[cfg(test)]
mod tests;
