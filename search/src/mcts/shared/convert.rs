//! Conversion between the lock-free tree and the single-threaded [`Tree`], at the start
//! and end of a search (and, for the principal variation only, at progress reports),
//! so that the move choice and tree reuse are the single-threaded ones.

use std::marker::PhantomData;
use std::sync::atomic::{AtomicBool, Ordering};

use agon_engine::{Move, State};
use rand::seq::SliceRandom;

use super::super::choose::most_visited_child;
use super::super::tree::{
    append_child, find_new_root, Node, Tree, BLOCK_MOVES, CHANCE, NONE, UNEXPANDED,
};
use super::{
    actor_in, fixed, sign, state_word, unpack, Arena, Chunk, Entry, SharedTree, NO_ROOM, ONE,
};
use crate::agent::AgentRng;

impl<M: Move> SharedTree<M> {
    /// A copy of `tree` in a shared tree of at most `max_nodes` entries (the untried
    /// moves of each node shuffled with `rng`). Subtrees that do not fit are dropped.
    pub(crate) fn from_tree<S: State<Move = M>>(
        tree: &Tree<S>,
        max_nodes: usize,
        rng: &mut AgentRng,
    ) -> Self {
        let shared = SharedTree {
            arena: Arena::new(max_nodes),
            full: AtomicBool::new(false),
            moves: PhantomData,
        };
        let root = shared.arena.alloc(1).expect("room for the root");
        shared.import(tree.root(), root, CHANCE);
        let mut entries = Vec::new();
        let mut chunk = Chunk::default();
        let mut children: Vec<(u32, u32)> = Vec::new();
        let mut work = vec![(0u32, root)];
        while let Some((old, new)) = work.pop() {
            let n = &tree.nodes[old as usize];
            if n.num_moves == UNEXPANDED {
                continue;
            }
            entries.clear();
            if n.actor == CHANCE {
                // The outcomes are the block's slots, in order.
                let slots = &tree.nodes[n.first_child as usize..][..usize::from(n.num_moves)];
                let weights = (0..slots.len()).map(|k| tree.cumulative_weight(n, k));
                entries.extend(slots.iter().map(|slot| slot.mv).zip(weights));
            } else {
                let range = n.moves as usize..n.moves as usize + n.num_moves as usize;
                // The first `tried` moves are those with a child.
                entries.extend(tree.moves[range].iter().map(|&m| (m, 0)));
                entries[n.tried as usize..].shuffle(rng);
            }
            let start = shared.allot(shared.arena.get(new), &entries, n.tried, &mut chunk);
            if start == NO_ROOM {
                continue;
            }
            children.clear();
            children.extend(tree.children(old).map(|(i, c)| (c.mv.pack(), i)));
            children.sort_unstable();
            for (k, &(mv, _)) in entries.iter().enumerate() {
                if let Ok(found) = children.binary_search_by_key(&mv.pack(), |&(m, _)| m) {
                    let (child, copy) = (children[found].1, start + k as u32);
                    shared.import(&tree.nodes[child as usize], copy, n.actor);
                    work.push((child, copy));
                }
            }
        }
        shared
    }

    /// Copies `node` (no iteration in flight), a child of an `parent_actor` node,
    /// into entry `index`.
    fn import(&self, node: &Node<M>, index: u32, parent_actor: u8) {
        let e = self.arena.get(index);
        let completed = i64::from(node.visits);
        e.total.store(
            fixed(node.total) + sign(parent_actor) * completed * ONE,
            Ordering::Relaxed,
        );
        e.visits.store(node.visits, Ordering::Relaxed);
        e.mv.store(node.mv.pack(), Ordering::Relaxed);
        let state = state_word(node.actor, node.proof, node.plies);
        e.state.store(state, Ordering::Release);
    }

    /// Writes this tree into `tree`'s nodes and move arenas (its root position is kept).
    #[cfg(test)]
    pub(crate) fn write_into<S: State<Move = M>>(&self, tree: &mut Tree<S>) {
        self.export(tree, 0, CHANCE, true);
    }

    /// Writes into `tree` what the move choice and a progress report read: the children
    /// of the root and, below each of them, the line of most visited children with
    /// their siblings, so that the choice and principal variation are those of the
    /// whole tree while the copy stays proportional to the lines' length, not the
    /// tree's size.
    pub(crate) fn write_variation_into<S: State<Move = M>>(&self, tree: &mut Tree<S>) {
        self.export(tree, 0, CHANCE, false);
    }

    /// Writes into `tree`, whose root position is this tree's, the subtree of the node
    /// for `state` if there is one within `max_plies` plies of the root (found by
    /// [`find_new_root`], as in the single-threaded tree), with `state` as the root
    /// position; else empties
    /// `tree`. Returns whether a subtree was written.
    ///
    /// This is how tree reuse reads a tree-parallel search: the copy back into a
    /// [`Tree`] is made when the next search starts, and of the part it keeps only, not
    /// of the whole tree when the search ends (for a search of 400,000 iterations on
    /// Connect Four, that copy took 8% of its time).
    pub(crate) fn write_reused_into<S: State<Move = M>>(
        &self,
        tree: &mut Tree<S>,
        state: &S,
        max_plies: u32,
    ) -> bool {
        // A node is its index and its parent's actor, which gives the sign of its total.
        let children = |(index, _): (u32, u8)| {
            let e = self.arena.get(index);
            let start = e.children.load(Ordering::Acquire);
            let actor = actor_in(e.state.load(Ordering::Relaxed));
            let run = if start < NO_ROOM {
                self.arena.run(start, e.len())
            } else {
                &[]
            };
            let born = run.iter().enumerate().filter(|(_, c)| c.born());
            born.map(move |(k, c)| ((start + k as u32, actor), c.mv()))
        };
        // The root's total has no sign: its parent is taken as a chance node.
        let found = tree
            .root_state()
            .and_then(|old| find_new_root((0, CHANCE), old, state, max_plies, &children));
        match found {
            Some((index, parent_actor)) => {
                self.export(tree, index, parent_actor, true);
                tree.set_root_state(state);
                true
            }
            None => {
                tree.nodes.clear();
                false
            }
        }
    }

    /// Writes the subtree of entry `top` (a child of a `parent_actor` node) into `tree`,
    /// whole or (unless `whole`) as [`Self::write_variation_into`] says.
    fn export<S: State<Move = M>>(
        &self,
        tree: &mut Tree<S>,
        top: u32,
        parent_actor: u8,
        whole: bool,
    ) {
        tree.nodes.clear();
        tree.moves.clear();
        tree.outcomes.clear();
        tree.nodes.push(self.export_node(top, parent_actor));
        let mut work = vec![(top, 0u32)];
        // Which children are born, read once: other threads may create some meanwhile.
        let mut born = Vec::new();
        // The children written for the node at hand: (copy, entry).
        let mut written: Vec<(u32, u32)> = Vec::new();
        while let Some((shared_index, index)) = work.pop() {
            let s = self.arena.get(shared_index);
            let start = s.children.load(Ordering::Acquire);
            if start >= NO_ROOM {
                continue;
            }
            let children = self.arena.run(start, s.len());
            born.clear();
            born.extend(children.iter().map(Entry::born));
            let parent_actor = actor_in(s.state.load(Ordering::Relaxed));
            let chance = parent_actor == CHANCE;
            let arena_start = if chance {
                let start = tree.outcomes.len();
                for c in children {
                    tree.outcomes
                        .push((c.mv(), c.weight.load(Ordering::Relaxed)));
                }
                tree.keep_outcomes(start)
            } else {
                // Moves with a child first, as the single-threaded tree keeps them.
                for first in [true, false] {
                    let side = children.iter().zip(&born).filter(|&(_, &b)| b == first);
                    tree.moves.extend(side.map(|(c, _)| c.mv::<M>()));
                }
                tree.moves.len() - children.len()
            };
            let mut tried = 0u16;
            let mut previous = NONE;
            written.clear();
            // A chance node's block of child slots (unborn ones included) is in outcome
            // order; a few moves' block in the order of the node's slice, born first.
            let block = chance || children.len() <= usize::from(BLOCK_MOVES);
            if block {
                tree.nodes[index as usize].first_child = tree.nodes.len() as u32;
                if chance {
                    tree.nodes
                        .extend(children.iter().map(|c| Tree::<S>::unborn(c.mv())));
                } else {
                    let slice = &tree.moves[arena_start..];
                    tree.nodes
                        .extend(slice.iter().map(|&m| Tree::<S>::unborn(m)));
                }
            }
            for (k, _) in children.iter().enumerate().filter(|&(k, _)| born[k]) {
                let child = start + k as u32;
                let node = self.export_node(child, parent_actor);
                let first_slot = tree.nodes[index as usize].first_child;
                let copy = if chance {
                    let slot = first_slot + k as u32;
                    tree.nodes[slot as usize] = node;
                    slot
                } else if block {
                    let slot = first_slot + u32::from(tried);
                    tree.nodes[slot as usize] = node;
                    slot
                } else {
                    previous = append_child(&mut tree.nodes, index, previous, node);
                    previous
                };
                tried += 1;
                // Every root move's line: the move chosen need not be the most visited
                // (a proven win), and its principal variation is read from below it.
                if whole || index == 0 {
                    work.push((child, copy));
                } else {
                    written.push((copy, child));
                }
            }
            let n = &mut tree.nodes[index as usize];
            n.moves = arena_start as u32;
            n.num_moves = children.len() as u16;
            n.tried = tried;
            // Below a root move, the line of the most visited child, picked as the
            // principal variation picks it (ties alike), now that the node is complete.
            if !whole && index != 0 {
                if let Some((copy, _)) = most_visited_child(tree, index) {
                    let &(_, child) = written.iter().find(|&&(c, _)| c == copy).expect("written");
                    work.push((child, copy));
                }
            }
        }
    }

    /// The [`Node`] of entry `index`, a child of an `parent_actor` node, without links
    /// or moves; iterations in flight count as completed losses.
    fn export_node(&self, index: u32, parent_actor: u8) -> Node<M> {
        let e = self.arena.get(index);
        let state = e.state.load(Ordering::Acquire);
        let (proof, plies) = unpack(state);
        let visits = e.visits.load(Ordering::Relaxed);
        let total = e.total.load(Ordering::Relaxed) - sign(parent_actor) * i64::from(visits) * ONE;
        Node {
            total: total as f64 / ONE as f64,
            visits,
            plies,
            ..Node::fresh(e.mv(), actor_in(state), proof)
        }
    }
}
