//! Tree reuse between moves: finding the new root among the old root's descendants,
//! and keeping only its subtree.

use std::sync::atomic::Ordering;

use agon_engine::State;

use super::arena::Arena;
use super::stats::{GuideCell, Stats, Word};
use super::{Tree, NO_ROOM};

/// The descendant of `root` (whose position is `from`) whose position equals `target`
/// (by hash, then `==`), if there is one within `max_plies` plies, with its parent
/// (`root` for the root itself), with `children(node)` listing a node's children and
/// the moves that lead to them.
fn find_new_root<S, I>(
    root: u32,
    from: &S,
    target: &S,
    max_plies: u32,
    children: &impl Fn(u32) -> I,
) -> Option<(u32, u32)>
where
    S: State,
    I: Iterator<Item = (u32, S::Move)>,
{
    let plies = target.ply().checked_sub(from.ply())?;
    if plies > max_plies {
        return None;
    }
    find(root, root, &mut from.clone(), plies, target, children)
}

/// The descendant of `node` (whose position is `at`, whose parent is `parent`) exactly
/// `plies` plies down whose position equals `target`, with its parent.
fn find<S, I>(
    node: u32,
    parent: u32,
    at: &mut S,
    plies: u32,
    target: &S,
    children: &impl Fn(u32) -> I,
) -> Option<(u32, u32)>
where
    S: State,
    I: Iterator<Item = (u32, S::Move)>,
{
    if plies == 0 {
        return (at.hash() == target.hash() && *at == *target).then_some((node, parent));
    }
    for (child, mv) in children(node) {
        let undo = at.apply(mv);
        let found = find(child, node, at, plies - 1, target, children);
        at.undo(undo);
        if found.is_some() {
            return found;
        }
    }
    None
}

impl<S: State, St: Stats> Tree<S, St> {
    /// Makes `state` the root, keeping the subtree of the old root's descendant equal to
    /// it if there is one within `max_plies` plies (compared by hash, then `==`).
    /// Returns whether a subtree was kept. No search may be running on the tree (the
    /// `&mut` says so).
    pub(crate) fn advance_to(&mut self, state: &S, max_plies: u32) -> bool {
        let Some(old) = self.root_state.as_ref() else {
            return false;
        };
        let children = |node| self.children(node).map(|(child, c)| (child, c.mv));
        let Some((found, parent)) = find_new_root(0, old, state, max_plies, &children) else {
            return false;
        };
        if found != 0 {
            let parent_actor = self.node(parent).actor();
            self.reroot(found, parent_actor);
        }
        self.full.store(false, Ordering::Relaxed);
        self.root_state = Some(state.clone());
        true
    }

    /// Keeps only the subtree under `new_root` (a child of a `parent_actor` node),
    /// copied into the spare arena (root at index 0), which then becomes the tree's,
    /// its root's statistics made a root's ([`Stats::make_root`]). A node whose
    /// children did not fit may try again.
    fn reroot(&mut self, new_root: u32, parent_actor: u8) {
        let arena = std::mem::replace(&mut self.arena, Arena::none());
        let mut spare = std::mem::replace(&mut self.spare, Arena::none());
        if spare.capacity() == arena.capacity() {
            spare.clear();
        } else {
            spare = Arena::new(arena.capacity(), arena.get(0).mv());
        }
        let root = spare.alloc(1).expect("room for the root");
        self.work.clear();
        self.work.push((new_root, root));
        while let Some((old, new)) = self.work.pop() {
            let (from, to) = (arena.get(old), spare.get(new));
            to.rewrite(from.mv(), from.weight.load(Ordering::Relaxed));
            St::copy_total(&from.total, &to.total);
            to.visits
                .store(from.visits.load(Ordering::Relaxed), Ordering::Relaxed);
            to.state
                .store(from.state.load(Ordering::Relaxed), Ordering::Relaxed);
            to.shape
                .store(from.shape.load(Ordering::Relaxed), Ordering::Relaxed);
            let (heuristic, minimax) = from.guide.get();
            to.guide.set(heuristic, minimax);
            let start = from.children.load(Ordering::Relaxed);
            if start >= NO_ROOM {
                to.shape.store(0, Ordering::Relaxed);
                continue;
            }
            // The run of children, copied whole (unborn ones included), as one run.
            let len = from.len();
            let Some(copy) = spare.alloc(len) else {
                // Runs fall differently on segment bounds: what does not fit is dropped.
                to.shape.store(0, Ordering::Relaxed);
                continue;
            };
            to.children.store(copy, Ordering::Relaxed);
            for k in 0..len as u32 {
                self.work.push((start + k, copy + k));
            }
        }
        St::make_root(spare.get(root), parent_actor);
        self.spare = arena;
        self.arena = spare;
    }
}
