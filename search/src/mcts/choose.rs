//! The answer of a search: the move to play, its value and the principal variation,
//! from one tree or several (root parallelism sums their root statistics by move).

use agon_engine::{Seat, State};

use super::tree::{Child, Proof, Stats, Tree, CHANCE};
use crate::agent::Value;

/// One root move with its statistics summed over the trees.
#[derive(Clone, Copy, Debug)]
struct RootMove<M> {
    mv: M,
    visits: u64,
    total: f64,
    proof: Proof,
    plies: u16,
    /// The tree and node where this move has the most visits (for the PV).
    tree: usize,
    node: u32,
    node_visits: u32,
}

/// What the search found: the move, its value from the root mover's view (seat 0's at
/// a chance root) and the principal variation.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Choice<M> {
    pub(crate) best: Option<M>,
    pub(crate) value: Value,
    pub(crate) pv: Vec<M>,
}

/// The choice from the roots of `trees` (all searched from the same position), with
/// the solver's proofs taken into account if `solver`.
///
/// Rules: with the solver, a move proven to win is played (the shortest proven line);
/// a proven loss or draw at the root plays a move with that result (the longest loss,
/// the most visited draw) and reports it; otherwise the move with the most visits among
/// those not proven lost (ties: the higher mean), reported as its mean reward.
pub(crate) fn choose<S: State, St: Stats>(trees: &[&Tree<S, St>], solver: bool) -> Choice<S::Move> {
    let root = trees[0].root();
    let Some(seat) = root.seat() else {
        // A chance root: no move, the mean over all trees from seat 0's view.
        let (visits, total) = trees.iter().fold((0u64, 0.0), |(v, t), tree| {
            (v + u64::from(tree.root().visits), t + tree.root().total)
        });
        let mean = if visits == 0 {
            0.0
        } else {
            total / visits as f64
        };
        return Choice {
            best: None,
            value: Value::Reward(mean),
            pv: Vec::new(),
        };
    };
    let moves = merge(trees);
    let mean = |m: &RootMove<S::Move>| {
        if m.visits == 0 {
            0.0
        } else {
            sign(seat) * m.total / m.visits as f64
        }
    };
    let result = |m: &RootMove<S::Move>| m.proof.for_seat(seat);
    let root_proof = trees
        .iter()
        .map(|t| (t.root().proof, t.root().plies))
        .find(|&(p, _)| p != Proof::Unknown);
    let (chosen, value) = if solver && moves.iter().any(|m| result(m) == Some(1)) {
        let win = moves
            .iter()
            .filter(|m| result(m) == Some(1))
            .min_by_key(|m| m.plies)
            .expect("a winning move");
        (win, Value::Win(u32::from(win.plies) + 1))
    } else if let (true, Some((proof, plies))) = (solver, root_proof) {
        let target = proof.for_seat(seat);
        let pick = moves
            .iter()
            .filter(|m| result(m) == target)
            .max_by_key(|m| {
                if target == Some(-1) {
                    u64::from(m.plies)
                } else {
                    m.visits
                }
            })
            .expect("a proven root has a child with its result");
        let value = if target == Some(0) {
            Value::Draw
        } else {
            Value::Loss(u32::from(plies))
        };
        (pick, value)
    } else {
        let open = |m: &&RootMove<S::Move>| !(solver && result(m) == Some(-1));
        let pool: Vec<_> = if moves.iter().any(|m| open(&m)) {
            moves.iter().filter(open).collect()
        } else {
            moves.iter().collect()
        };
        let mut best = pool[0];
        for &m in &pool[1..] {
            if m.visits > best.visits || (m.visits == best.visits && mean(m) > mean(best)) {
                best = m;
            }
        }
        (best, Value::Reward(mean(best)))
    };
    let mut pv = vec![chosen.mv];
    principal_variation(trees[chosen.tree], chosen.node, &mut pv);
    Choice {
        best: Some(chosen.mv),
        value,
        pv,
    }
}

/// The root moves of all trees, statistics summed by move (in the first tree's order,
/// then any move only later trees have).
fn merge<S: State, St: Stats>(trees: &[&Tree<S, St>]) -> Vec<RootMove<S::Move>> {
    let mut moves: Vec<RootMove<S::Move>> = Vec::new();
    for (t, tree) in trees.iter().enumerate() {
        for (index, c) in tree.children(0) {
            let entry = match moves.iter_mut().position(|m| m.mv == c.mv) {
                Some(i) => &mut moves[i],
                None => {
                    moves.push(RootMove {
                        mv: c.mv,
                        visits: 0,
                        total: 0.0,
                        proof: Proof::Unknown,
                        plies: 0,
                        tree: t,
                        node: index,
                        node_visits: 0,
                    });
                    moves.last_mut().expect("just pushed")
                }
            };
            entry.visits += u64::from(c.visits);
            entry.total += c.total;
            // Proofs are exact, so every tree that proved a move agrees on its result.
            if c.proof != Proof::Unknown && entry.proof == Proof::Unknown {
                entry.proof = c.proof;
                entry.plies = c.plies;
            }
            if c.visits > entry.node_visits {
                entry.tree = t;
                entry.node = index;
                entry.node_visits = c.visits;
            }
        }
    }
    moves
}

/// Appends to `pv` the line below `node` that always takes the most visited child,
/// through decision nodes only (a chance node's outcome is not a choice).
fn principal_variation<S: State, St: Stats>(
    tree: &Tree<S, St>,
    mut node: u32,
    pv: &mut Vec<S::Move>,
) {
    while tree.node(node).actor() < CHANCE {
        let Some((child, c)) = most_visited_child(tree, node) else {
            return;
        };
        if c.visits == 0 {
            return;
        }
        pv.push(c.mv);
        node = child;
    }
}

/// The child of `node` that the principal variation takes: the most visited, the last
/// of equals in [`Tree::children`]'s order; `None` if it has none.
pub(super) fn most_visited_child<S: State, St: Stats>(
    tree: &Tree<S, St>,
    node: u32,
) -> Option<(u32, Child<S::Move>)> {
    tree.children(node).max_by_key(|(_, c)| c.visits)
}

/// +1 for seat 0, -1 for seat 1.
fn sign(seat: Seat) -> f64 {
    if seat == 0 {
        1.0
    } else {
        -1.0
    }
}
