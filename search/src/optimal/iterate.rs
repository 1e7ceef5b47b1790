//! Values of a finite game graph by value iteration: the graph's strongly connected
//! components in an order where every component comes after those its moves lead to,
//! then Gauss–Seidel sweeps over each component until the largest change is below
//! [`TOLERANCE`].
//!
//! Solving one component at a time, children's components first, makes the acyclic
//! parts of a game exact in one pass and confines the sweeps to the cycles (in Pig, the
//! positions with the same two banked scores, joined by rolls of 1 and holds of
//! nothing): each sweep then costs only the component's own edges. Within a component
//! the nodes are swept from the last discovered to the first, which in a breadth-first
//! numbering puts a node's further children (Pig's larger turn totals) before it, so a
//! sweep mostly reads values already updated in that sweep.

/// What a node of the graph is, with the seat whose view its value takes: every value
/// is seat 0's expected score (+1 a win, −1 a loss, 0 a draw).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Node {
    /// Seat 0 decides: the largest child value.
    Max,
    /// Seat 1 decides: the smallest child value (the largest from its own view).
    Min,
    /// A chance event: the children's mean, weighted by their integer weights.
    Chance,
    /// A finished game: this value, fixed.
    End(f64),
}

/// The game graph in compressed rows: node `v`'s children are
/// `child[first[v]..first[v + 1]]` with the weights `weight[..]` at the same places
/// (weights count only at chance nodes).
#[derive(Debug, Default)]
pub(super) struct Graph {
    /// Each node's kind.
    pub nodes: Vec<Node>,
    /// Where each node's children begin; one more entry than nodes.
    pub first: Vec<usize>,
    /// Child ids, node by node.
    pub child: Vec<u32>,
    /// The chance weight of each child (1 at decision nodes).
    pub weight: Vec<u32>,
}

/// A sweep changes no value by more than this when iteration stops. Values lie in
/// [−1, 1], so this is about ten thousand times the rounding error of a mean of a few
/// children, and far below any difference that could change a choice of move.
pub const TOLERANCE: f64 = 1e-12;

/// The most sweeps one component may take. Pig's components settle in a few dozen
/// (each cycle back to a turn total of 0 needs a roll of 1 by both players); a
/// component still changing after this many is one where value iteration does not
/// converge usefully, and is reported rather than iterated for ever.
pub const MAX_SWEEPS: u32 = 100_000;

/// Value iteration did not settle within [`MAX_SWEEPS`] sweeps of one component.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct NoConvergence {
    /// Nodes in the component that did not settle.
    pub component: usize,
}

impl Graph {
    /// Node `v`'s value from its children's `values`.
    #[inline]
    fn value(&self, v: usize, values: &[f64]) -> f64 {
        let edges = self.first[v]..self.first[v + 1];
        let children = self.child[edges.clone()]
            .iter()
            .map(|&c| values[c as usize]);
        match self.nodes[v] {
            Node::End(value) => value,
            Node::Max => children.fold(f64::NEG_INFINITY, f64::max),
            Node::Min => children.fold(f64::INFINITY, f64::min),
            Node::Chance => {
                let (mut sum, mut total) = (0.0, 0u64);
                for (value, &w) in children.zip(&self.weight[edges]) {
                    sum += f64::from(w) * value;
                    total += u64::from(w);
                }
                sum / total as f64
            }
        }
    }

    /// Every node's value (seat 0's expected score), and the number of sweeps made in
    /// all; or the first component that did not settle.
    pub fn solve(&self) -> Result<(Vec<f64>, u64), NoConvergence> {
        let mut values = vec![0.0; self.nodes.len()];
        let mut sweeps = 0;
        for mut component in self.components() {
            let cyclic = component.len() > 1 || {
                let v = component[0] as usize;
                self.child[self.first[v]..self.first[v + 1]].contains(&component[0])
            };
            if !cyclic {
                let v = component[0] as usize;
                values[v] = self.value(v, &values);
                continue;
            }
            component.sort_unstable_by(|a, b| b.cmp(a));
            let mut settled = false;
            for _ in 0..MAX_SWEEPS {
                sweeps += 1;
                let mut change: f64 = 0.0;
                for &v in &component {
                    let value = self.value(v as usize, &values);
                    change = change.max((value - values[v as usize]).abs());
                    values[v as usize] = value;
                }
                if change < TOLERANCE {
                    settled = true;
                    break;
                }
            }
            if !settled {
                return Err(NoConvergence {
                    component: component.len(),
                });
            }
        }
        Ok((values, sweeps))
    }

    /// The strongly connected components (Tarjan's algorithm without recursion), each
    /// after every component its nodes' children lie in.
    fn components(&self) -> Vec<Vec<u32>> {
        let n = self.nodes.len();
        let mut walk = Tarjan {
            index: vec![UNSEEN; n],
            low: vec![0; n],
            on_stack: vec![false; n],
            stack: Vec::new(),
            path: Vec::new(),
            next_index: 0,
        };
        let mut components = Vec::new();
        for root in 0..n as u32 {
            if walk.index[root as usize] != UNSEEN {
                continue;
            }
            walk.visit(root, self.first[root as usize]);
            while let Some(&mut (v, ref mut edge)) = walk.path.last_mut() {
                let v = v as usize;
                if *edge < self.first[v + 1] {
                    let w = self.child[*edge] as usize;
                    *edge += 1;
                    if walk.index[w] == UNSEEN {
                        walk.visit(w as u32, self.first[w]);
                    } else if walk.on_stack[w] {
                        walk.low[v] = walk.low[v].min(walk.index[w]);
                    }
                    continue;
                }
                walk.path.pop();
                if let Some(&(parent, _)) = walk.path.last() {
                    let parent = parent as usize;
                    walk.low[parent] = walk.low[parent].min(walk.low[v]);
                }
                if walk.low[v] == walk.index[v] {
                    let mut component = Vec::new();
                    loop {
                        let w = walk.stack.pop().expect("v is on the stack");
                        walk.on_stack[w as usize] = false;
                        component.push(w);
                        if w as usize == v {
                            break;
                        }
                    }
                    components.push(component);
                }
            }
        }
        components
    }
}

/// The index of a node Tarjan's walk has not reached.
const UNSEEN: u32 = u32::MAX;

/// The state of Tarjan's walk: each node's discovery index and lowest reachable index,
/// the stack of nodes not yet in a component, and the depth-first path (each node with
/// the next of its edges to follow).
struct Tarjan {
    index: Vec<u32>,
    low: Vec<u32>,
    on_stack: Vec<bool>,
    stack: Vec<u32>,
    path: Vec<(u32, usize)>,
    next_index: u32,
}

impl Tarjan {
    /// Reaches `v`, whose edges begin at `first_edge`.
    fn visit(&mut self, v: u32, first_edge: usize) {
        self.index[v as usize] = self.next_index;
        self.low[v as usize] = self.next_index;
        self.next_index += 1;
        self.stack.push(v);
        self.on_stack[v as usize] = true;
        self.path.push((v, first_edge));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A graph from each node's kind and `(child, weight)` list.
    fn graph(nodes: &[(Node, &[(u32, u32)])]) -> Graph {
        let mut g = Graph::default();
        for (node, children) in nodes {
            g.first.push(g.child.len());
            g.nodes.push(*node);
            for &(c, w) in *children {
                g.child.push(c);
                g.weight.push(w);
            }
        }
        g.first.push(g.child.len());
        g
    }

    #[test]
    fn components_come_after_the_components_they_reach() {
        // 0 → {1, 2}; 1 ↔ 2 (a cycle); 2 → 3; 3 is an end.
        let g = graph(&[
            (Node::Max, &[(1, 1), (2, 1)]),
            (Node::Min, &[(2, 1)]),
            (Node::Max, &[(1, 1), (3, 1)]),
            (Node::End(1.0), &[]),
        ]);
        let mut components = g.components();
        for c in &mut components {
            c.sort_unstable();
        }
        assert_eq!(components, vec![vec![3], vec![1, 2], vec![0]]);
    }

    #[test]
    fn a_cycle_broken_by_chance_settles_at_its_exact_value() {
        // Seat 0 at node 0 may take a sure draw (node 3) or gamble (node 1): a third of
        // the time a win (node 4), otherwise back to node 0. Gambling wins for sure in
        // the limit, so node 0 is worth 1; the iteration must reach it.
        let g = graph(&[
            (Node::Max, &[(3, 1), (1, 1)]),
            (Node::Chance, &[(4, 1), (0, 2)]),
            (Node::End(-1.0), &[]),
            (Node::End(0.0), &[]),
            (Node::End(1.0), &[]),
        ]);
        let (values, sweeps) = g.solve().unwrap();
        assert!((values[0] - 1.0).abs() < 1e-11, "{values:?}");
        assert!((values[1] - 1.0).abs() < 1e-11, "{values:?}");
        assert!(sweeps > 1);
        // With a loss instead of the win, the draw is the better choice.
        let g = graph(&[
            (Node::Max, &[(3, 1), (1, 1)]),
            (Node::Chance, &[(2, 1), (0, 2)]),
            (Node::End(-1.0), &[]),
            (Node::End(0.0), &[]),
        ]);
        let (values, _) = g.solve().unwrap();
        assert_eq!(values[0], 0.0);
        assert!((values[1] - (-1.0 / 3.0)).abs() < 1e-11, "{values:?}");
    }
}
