//! What a node's fields are made of: plain cells for a tree that one thread searches
//! ([`Plain`]), atomics for the tree that the threads of tree parallelism search at
//! once ([`Atomic`]), so that one tree's code serves both.
//!
//! # The contract
//!
//! Every field of a node is a [`Word`] (or the move, total and guidance cells of a
//! [`Stats`]), read and written through `&self`. With [`Plain`] these are [`Cell`]s:
//! the tree is `Send` but not `Sync`, so only the thread that holds it reads or writes
//! it, and a compare-and-swap always succeeds unless the value differs. With
//! [`Atomic`] they are atomics, and the orderings the tree asks for are those it
//! needs:
//!
//! - a node's `state` word (actor, proof, proof length) is stored with `Release` when
//!   the node is born or proven and loaded with `Acquire`, so that a thread that sees
//!   a node born also sees what its creator wrote into it before (its guidance, its
//!   first visit);
//! - a node's `children` index is stored with `Release` once its run of children is
//!   written, and loaded with `Acquire`, so that the moves and weights of the run are
//!   seen whole;
//! - statistics (visits, total) are sums whose order does not matter, updated by
//!   relaxed read-modify-writes: no iteration is lost, and a selection that reads a
//!   slightly stale sibling only steers a little differently (see [`Atomic`]).
//!
//! # Statistics
//!
//! [`Plain`] counts a visit when an iteration completes and sums its rewards (seat 0's
//! view) in an `f64`. [`Atomic`] counts a visit when an iteration *starts* through a
//! node, which is virtual loss: see [`Atomic`].

use std::cell::Cell;
use std::marker::PhantomData;
use std::sync::atomic::{AtomicI64, AtomicU32, Ordering};

use agon_engine::Move;

use super::pending::Pending;
use super::Node;

/// A 32-bit field of a node: a [`Cell`] or an [`AtomicU32`] (see the module docs).
pub(crate) trait Word: Send {
    /// A word holding `value`.
    fn new(value: u32) -> Self;
    /// The value, read with `order` (`Relaxed` or `Acquire`).
    fn load(&self, order: Ordering) -> u32;
    /// Writes `value` with `order` (`Relaxed` or `Release`).
    fn store(&self, value: u32, order: Ordering);
    /// Replaces `current` by `new` if it is still the value (`success` ordering; a
    /// failure is relaxed); the value found otherwise.
    fn swap_if(&self, current: u32, new: u32, success: Ordering) -> Result<u32, u32>;
    /// Adds `value` (relaxed).
    fn add(&self, value: u32);
}

impl Word for Cell<u32> {
    #[inline]
    fn new(value: u32) -> Self {
        Cell::new(value)
    }

    #[inline]
    fn load(&self, _: Ordering) -> u32 {
        self.get()
    }

    #[inline]
    fn store(&self, value: u32, _: Ordering) {
        self.set(value);
    }

    #[inline]
    fn swap_if(&self, current: u32, new: u32, _: Ordering) -> Result<u32, u32> {
        let found = self.get();
        if found == current {
            self.set(new);
            Ok(found)
        } else {
            Err(found)
        }
    }

    #[inline]
    fn add(&self, value: u32) {
        self.set(self.get() + value);
    }
}

impl Word for AtomicU32 {
    #[inline]
    fn new(value: u32) -> Self {
        AtomicU32::new(value)
    }

    #[inline]
    fn load(&self, order: Ordering) -> u32 {
        AtomicU32::load(self, order)
    }

    #[inline]
    fn store(&self, value: u32, order: Ordering) {
        AtomicU32::store(self, value, order);
    }

    #[inline]
    fn swap_if(&self, current: u32, new: u32, success: Ordering) -> Result<u32, u32> {
        self.compare_exchange(current, new, success, Ordering::Relaxed)
    }

    #[inline]
    fn add(&self, value: u32) {
        self.fetch_add(value, Ordering::Relaxed);
    }
}

/// The move that leads to a node. Written only while no other thread can read the
/// node (before its parent's run is published), or by the one thread of a
/// [`Plain`] tree.
pub(crate) trait MoveCell<M>: Send {
    fn new(mv: M) -> Self;
    fn get(&self) -> M;
    fn set(&self, mv: M);
}

impl<M: Move> MoveCell<M> for Cell<M> {
    #[inline]
    fn new(mv: M) -> Self {
        Cell::new(mv)
    }

    #[inline]
    fn get(&self) -> M {
        Cell::get(self)
    }

    #[inline]
    fn set(&self, mv: M) {
        Cell::set(self, mv);
    }
}

/// A move kept as its [`Move::pack`] code.
pub(crate) struct Packed<M>(AtomicU32, PhantomData<fn() -> M>);

impl<M: Move> MoveCell<M> for Packed<M> {
    #[inline]
    fn new(mv: M) -> Self {
        Packed(AtomicU32::new(mv.pack()), PhantomData)
    }

    #[inline]
    fn get(&self) -> M {
        M::unpack(self.0.load(Ordering::Relaxed)).expect("a move packed by this tree")
    }

    #[inline]
    fn set(&self, mv: M) {
        self.0.store(mv.pack(), Ordering::Relaxed);
    }
}

/// A node's stored heuristic and implicit minimax value ([`super::guide`]), both
/// `i16` fixed point, or nothing where guidance is not supported.
pub(crate) trait GuideCell: Send {
    fn new() -> Self;
    /// (heuristic, minimax).
    fn get(&self) -> (i16, i16);
    fn set(&self, heuristic: i16, minimax: i16);
}

impl GuideCell for Cell<u32> {
    #[inline]
    fn new() -> Self {
        Cell::new(0)
    }

    #[inline]
    fn get(&self) -> (i16, i16) {
        let v = Cell::get(self);
        (v as u16 as i16, (v >> 16) as u16 as i16)
    }

    #[inline]
    fn set(&self, heuristic: i16, minimax: i16) {
        Cell::set(
            self,
            u32::from(heuristic as u16) | u32::from(minimax as u16) << 16,
        );
    }
}

impl GuideCell for () {
    fn new() -> Self {}

    fn get(&self) -> (i16, i16) {
        (0, 0)
    }

    fn set(&self, _: i16, _: i16) {}
}

/// A zero-sized field that aligns [`Atomic`]'s nodes to 32 bytes, so that two share a
/// cache line and none straddles two.
#[derive(Clone, Copy, Debug, Default)]
#[repr(align(32))]
pub(crate) struct Align32;

/// How a tree's nodes are stored and their statistics kept (see the module docs).
pub(crate) trait Stats: Sized + Send + 'static {
    /// Whether several threads may search the tree at once: then an expansion's untried
    /// moves are shuffled when its children are allotted, where one thread draws each
    /// when it tries it (the draw a reproducible search has always made).
    const SHARED: bool;
    /// What [`Stats::child_view`]'s totals are multiplied by to be rewards.
    const SCALE: f64;
    type Word: Word;
    type Total: Send;
    type Mv<M: Move>: MoveCell<M>;
    type Guide: GuideCell;
    type Align: Copy + Default + Send;
    /// A thread's held-back statistics ([`Pending`]; nothing for [`Plain`]).
    type Pending: Send;

    /// A zero total.
    fn zero() -> Self::Total;
    /// Sets `total` to zero (no other thread reads it).
    fn clear(total: &Self::Total);
    /// Copies `from` into `to` (no search runs on either).
    fn copy_total(from: &Self::Total, to: &Self::Total);
    /// Makes the statistics of `n`, a child of a `parent_actor` node, those of a root
    /// (no search runs on the tree).
    fn make_root<M: Move>(n: &Node<M, Self>, parent_actor: u8);
    /// The held-back statistics of one of `threads` threads.
    fn pending(threads: usize) -> Self::Pending;
    /// An iteration starts through `n` (index `index`), which is not the root.
    fn enter<M: Move>(n: &Node<M, Self>, index: u32, pending: &mut Self::Pending);
    /// An iteration that started through `n` completes with `reward` (seat 0's view);
    /// `parent_actor` is its parent's actor ([`super::CHANCE`] for the root).
    fn complete<M: Move>(
        n: &Node<M, Self>,
        index: u32,
        root: bool,
        parent_actor: u8,
        reward: f64,
        pending: &mut Self::Pending,
    );
    /// Adds the thread's held-back statistics to the nodes (`node(index)`) and clears
    /// them.
    fn flush<'a, M: Move + 'a>(
        pending: &mut Self::Pending,
        node: impl Fn(u32) -> &'a Node<M, Self>,
    );
    /// Visits and the sum of rewards (seat 0's view) of `n`, a child of a
    /// `parent_actor` node, iterations in flight counted as losses for that parent.
    fn view<M: Move>(n: &Node<M, Self>, parent_actor: u8) -> (u32, f64);
    /// The visits that selection at `n` (index `index`) counts, and whether the
    /// thread's held-back statistics of its children must be read
    /// ([`Stats::child_view_held`]) rather than the nodes alone ([`Stats::child_view`]).
    fn parent_view<M: Move>(n: &Node<M, Self>, index: u32, pending: &Self::Pending) -> (u32, bool);
    /// A child's visits and total for UCT, the total in units of [`Stats::SCALE`] and
    /// from seat 0's view up to a term common to all children of its parent.
    fn child_view<M: Move>(c: &Node<M, Self>) -> (u32, f64);
    /// [`Stats::child_view`] with the thread's held-back statistics of child `index`.
    fn child_view_held<M: Move>(
        c: &Node<M, Self>,
        index: u32,
        pending: &Self::Pending,
    ) -> (u32, f64);
}

/// The statistics of a tree that one thread searches: completed iterations and the sum
/// of their rewards, seat 0's view, in `f64`.
#[derive(Debug)]
pub(crate) struct Plain;

impl Stats for Plain {
    const SHARED: bool = false;
    const SCALE: f64 = 1.0;
    type Word = Cell<u32>;
    type Total = Cell<f64>;
    type Mv<M: Move> = Cell<M>;
    type Guide = Cell<u32>;
    type Align = ();
    type Pending = ();

    #[inline]
    fn zero() -> Cell<f64> {
        Cell::new(0.0)
    }

    fn clear(total: &Cell<f64>) {
        total.set(0.0);
    }

    fn copy_total(from: &Cell<f64>, to: &Cell<f64>) {
        to.set(from.get());
    }

    fn make_root<M: Move>(_: &Node<M, Self>, _: u8) {}

    fn pending(_: usize) {}

    #[inline]
    fn enter<M: Move>(_: &Node<M, Self>, _: u32, _: &mut ()) {}

    #[inline]
    fn complete<M: Move>(n: &Node<M, Self>, _: u32, _: bool, _: u8, reward: f64, _: &mut ()) {
        n.visits.add(1);
        n.total.set(n.total.get() + reward);
    }

    fn flush<'a, M: Move + 'a>(_: &mut (), _: impl Fn(u32) -> &'a Node<M, Self>) {}

    #[inline]
    fn view<M: Move>(n: &Node<M, Self>, _: u8) -> (u32, f64) {
        (n.visits.get(), n.total.get())
    }

    #[inline]
    fn parent_view<M: Move>(n: &Node<M, Self>, _: u32, _: &()) -> (u32, bool) {
        (n.visits.get(), false)
    }

    #[inline]
    fn child_view<M: Move>(c: &Node<M, Self>) -> (u32, f64) {
        (c.visits.get(), c.total.get())
    }

    #[inline]
    fn child_view_held<M: Move>(c: &Node<M, Self>, _: u32, _: &()) -> (u32, f64) {
        Self::child_view(c)
    }
}

/// One in the fixed point of [`Atomic`]'s totals: a term lies in [-2, 2], so a node's
/// sum stays within `i64` for all `u32` visit counts, at a resolution of 2⁻²⁹.
pub(crate) const ONE: i64 = 1 << 29;

/// The statistics of the tree that the threads of tree parallelism share, with
/// virtual loss.
///
/// A node's visits count the iterations *started* through it, added during selection
/// (one relaxed `fetch_add`); its total `B` sums, per completed iteration, the reward
/// plus the sign `s` of the parent's seat (+1 seat 0, -1 seat 1, 0 below a chance node
/// or at the root), in the fixed point [`ONE`], added during backup (one more). With
/// `N` visits, the mean for the parent's seat with the iterations still in flight
/// counted as losses is `(s·B - N) / N`. That is virtual loss: UCT sees each
/// iteration in flight below a node as a visit that lost for the seat choosing it, so
/// that the other threads spread out, with no virtual-loss count to add and then
/// remove. The root counts only completed iterations: every iteration passes it, so a
/// virtual loss there would steer nothing.
///
/// Relaxed is enough for both sums: each is a sum of terms whose order does not
/// matter, read-modify-writes lose none, and the final tree, read after all threads
/// stopped (the scope's join orders it), is exact. A read while iterations are in
/// flight counts those as losses.
///
/// At a hot node ([`Pending::is_hot`]) a thread holds both additions back and adds
/// them every [`super::pending::FLUSH_EVERY`] iterations and when it stops, reading
/// its own held-back ones with the tree's ([`Pending`]).
#[derive(Debug)]
pub(crate) struct Atomic;

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

/// Adds `visits` and `total` to node `index` (`n`): to the thread's held-back deltas
/// if the node is `hot` and its slot is free or its own, else to the node at once.
/// Only a hot node takes a slot: a cold one would keep it from a hot one until the
/// next flush.
#[inline]
fn add<M: Move>(
    pending: &mut Pending,
    index: u32,
    n: &Node<M, Atomic>,
    hot: bool,
    visits: u32,
    total: i64,
) {
    match if hot { pending.slot(index) } else { None } {
        Some(delta) => {
            delta.visits += visits;
            delta.total += total;
        }
        None => add_now(n, visits, total),
    }
}

/// Adds `visits` and `total` to `n`'s statistics, skipping a zero.
#[inline]
fn add_now<M: Move>(n: &Node<M, Atomic>, visits: u32, total: i64) {
    if visits > 0 {
        n.visits.fetch_add(visits, Ordering::Relaxed);
    }
    if total != 0 {
        n.total.fetch_add(total, Ordering::Relaxed);
    }
}

impl Stats for Atomic {
    const SHARED: bool = true;
    const SCALE: f64 = 1.0 / ONE as f64;
    type Word = AtomicU32;
    type Total = AtomicI64;
    type Mv<M: Move> = Packed<M>;
    type Guide = ();
    type Align = Align32;
    type Pending = Pending;

    fn zero() -> AtomicI64 {
        AtomicI64::new(0)
    }

    fn clear(total: &AtomicI64) {
        total.store(0, Ordering::Relaxed);
    }

    fn copy_total(from: &AtomicI64, to: &AtomicI64) {
        to.store(from.load(Ordering::Relaxed), Ordering::Relaxed);
    }

    /// A root's total has no sign term (see [`Atomic`]).
    fn make_root<M: Move>(n: &Node<M, Self>, parent_actor: u8) {
        let visits = i64::from(n.visits.load(Ordering::Relaxed));
        n.total
            .fetch_sub(sign(parent_actor) * visits * ONE, Ordering::Relaxed);
    }

    fn pending(threads: usize) -> Pending {
        Pending::new(threads)
    }

    #[inline]
    fn enter<M: Move>(n: &Node<M, Self>, index: u32, pending: &mut Pending) {
        let hot = pending.is_hot(n.visits.load(Ordering::Relaxed));
        add(pending, index, n, hot, 1, 0);
    }

    #[inline]
    fn complete<M: Move>(
        n: &Node<M, Self>,
        index: u32,
        root: bool,
        parent_actor: u8,
        reward: f64,
        pending: &mut Pending,
    ) {
        let term = fixed(reward) + sign(parent_actor) * ONE;
        // The root counts its completed iterations here (none in flight).
        let hot = root || pending.is_hot(n.visits.load(Ordering::Relaxed));
        add(pending, index, n, hot, u32::from(root), term);
    }

    fn flush<'a, M: Move + 'a>(pending: &mut Pending, node: impl Fn(u32) -> &'a Node<M, Self>) {
        pending.drain(|d| add_now(node(d.index), d.visits, d.total));
    }

    fn view<M: Move>(n: &Node<M, Self>, parent_actor: u8) -> (u32, f64) {
        let visits = n.visits.load(Ordering::Relaxed);
        let total = n.total.load(Ordering::Relaxed) - sign(parent_actor) * i64::from(visits) * ONE;
        (visits, total as f64 / ONE as f64)
    }

    #[inline]
    fn parent_view<M: Move>(n: &Node<M, Self>, index: u32, pending: &Pending) -> (u32, bool) {
        let visits = n.visits.load(Ordering::Relaxed);
        // A node that is not hot has never been held back by any thread, so its count
        // is exact and covers its children's, none of which can have been held back
        // either. The root counts only completed iterations, so its children may be
        // hot before it.
        if index == 0 || pending.is_hot(visits) {
            (visits + pending.of(index).0, true)
        } else {
            (visits, false)
        }
    }

    /// With `N` visits (in flight included) and total `B`, the mean for the parent's
    /// seat with in-flight iterations lost is `s·B/N - 1`: the total given is `B`, the
    /// `- 1` common to all children is left out.
    #[inline]
    fn child_view<M: Move>(c: &Node<M, Self>) -> (u32, f64) {
        (
            c.visits.load(Ordering::Relaxed),
            c.total.load(Ordering::Relaxed) as f64,
        )
    }

    #[inline]
    fn child_view_held<M: Move>(c: &Node<M, Self>, index: u32, pending: &Pending) -> (u32, f64) {
        let (visits, total) = pending.of(index);
        (
            c.visits.load(Ordering::Relaxed) + visits,
            (c.total.load(Ordering::Relaxed) + total) as f64,
        )
    }
}
