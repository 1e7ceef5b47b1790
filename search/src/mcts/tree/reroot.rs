//! Tree reuse between moves: finding the new root among the old root's descendants,
//! and keeping only its subtree.

use agon_engine::State;

use super::{append_child, Tree, CHANCE, NONE, UNBORN, UNEXPANDED, UNIFORM};

/// The descendant of `root` (whose position is `from`) whose position equals `target`
/// (by hash, then `==`), if there is one within `max_plies` plies, with
/// `children(node)` listing a node's children and the moves that lead to them: how
/// tree reuse finds the new root, in this tree and in the lock-free one.
pub(crate) fn find_new_root<S, N, I>(
    root: N,
    from: &S,
    target: &S,
    max_plies: u32,
    children: &impl Fn(N) -> I,
) -> Option<N>
where
    S: State,
    N: Copy,
    I: Iterator<Item = (N, S::Move)>,
{
    let plies = target.ply().checked_sub(from.ply())?;
    if plies > max_plies {
        return None;
    }
    find(root, &mut from.clone(), plies, target, children)
}

/// The descendant of `node` (whose position is `at`) exactly `plies` plies down whose
/// position equals `target`.
fn find<S, N, I>(
    node: N,
    at: &mut S,
    plies: u32,
    target: &S,
    children: &impl Fn(N) -> I,
) -> Option<N>
where
    S: State,
    N: Copy,
    I: Iterator<Item = (N, S::Move)>,
{
    if plies == 0 {
        return (at.hash() == target.hash() && *at == *target).then_some(node);
    }
    for (child, mv) in children(node) {
        let undo = at.apply(mv);
        let found = find(child, at, plies - 1, target, children);
        at.undo(undo);
        if found.is_some() {
            return found;
        }
    }
    None
}

impl<S: State> Tree<S> {
    /// Makes `state` the root, keeping the subtree of the old root's descendant equal to
    /// it if there is one within `max_plies` plies (compared by hash, then `==`).
    /// Returns whether a subtree was kept.
    pub(crate) fn advance_to(&mut self, state: &S, max_plies: u32) -> bool {
        let Some(old) = self.root_state.as_ref() else {
            return false;
        };
        if self.nodes.is_empty() {
            return false;
        }
        let children = |node| self.children(node).map(|(child, c)| (child, c.mv));
        let Some(found) = find_new_root(0, old, state, max_plies, &children) else {
            return false;
        };
        if found != 0 {
            self.reroot(found);
        }
        self.root_state = Some(state.clone());
        true
    }

    /// Keeps only the subtree under `new_root`, copied into the spare arenas (root at
    /// index 0), which then become the tree's.
    fn reroot(&mut self, new_root: u32) {
        self.spare_nodes.clear();
        self.spare_moves.clear();
        self.spare_outcomes.clear();
        self.work.clear();
        let mut root = self.nodes[new_root as usize];
        root.next_sibling = NONE;
        self.spare_nodes.push(root);
        self.work.push((new_root, 0));
        while let Some((old, new)) = self.work.pop() {
            let node = self.nodes[old as usize];
            if node.num_moves != UNEXPANDED {
                let range = node.moves as usize..node.moves as usize + node.num_moves as usize;
                let start = if node.moves == UNIFORM {
                    UNIFORM as usize
                } else if node.actor == CHANCE {
                    let start = self.spare_outcomes.len();
                    self.spare_outcomes.extend_from_slice(&self.outcomes[range]);
                    start
                } else {
                    let start = self.spare_moves.len();
                    self.spare_moves.extend_from_slice(&self.moves[range]);
                    start
                };
                self.spare_nodes[new as usize].moves = start as u32;
                if node.has_block() {
                    // The block of child slots, copied whole (unborn slots included).
                    let copy = self.spare_nodes.len() as u32;
                    let block = node.first_child as usize
                        ..node.first_child as usize + node.num_moves as usize;
                    self.spare_nodes.extend_from_slice(&self.nodes[block]);
                    self.spare_nodes[new as usize].first_child = copy;
                    for k in 0..u32::from(node.num_moves) {
                        if self.nodes[(node.first_child + k) as usize].actor != UNBORN {
                            self.work.push((node.first_child + k, copy + k));
                        }
                    }
                    continue;
                }
            }
            // Copy a decision node's children in list order, relinking them to their new
            // indices.
            let mut previous = NONE;
            let mut child = node.first_child;
            while child != NONE {
                let mut c = self.nodes[child as usize];
                let next = c.next_sibling;
                c.next_sibling = NONE;
                let copy = append_child(&mut self.spare_nodes, new, previous, c);
                previous = copy;
                self.work.push((child, copy));
                child = next;
            }
        }
        self.refused = false;
        std::mem::swap(&mut self.nodes, &mut self.spare_nodes);
        std::mem::swap(&mut self.moves, &mut self.spare_moves);
        std::mem::swap(&mut self.outcomes, &mut self.spare_outcomes);
    }
}
