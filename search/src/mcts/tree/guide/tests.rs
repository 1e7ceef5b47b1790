//! Guidance: `v_τ` is the minimax of the stored heuristics over the tree grown, and a
//! large bias makes selection follow the heuristic.

use agon_engine::games::connect4::{Connect4, Connect4Eval};
use agon_engine::testing::coin_nim::{CoinNim, CoinNimMove, CoinNimState};
use agon_engine::{Evaluator, Game, Seat, State};
use rand::SeedableRng;

use super::super::{sign, Buffers, Leaf, Node, Plain, Proof, Settings, Tree, CHANCE};
use super::{decode, encode, Guide};
use crate::agent::AgentRng;
use crate::mcts::rollout::eval_leaf;

/// A Coin Nim evaluator with many distinct values (a hash of the position), so that a
/// wrong sign, a max taken for the wrong seat or an unweighted mean shows.
#[derive(Clone, Copy, Debug)]
struct Scattered;

impl Evaluator<CoinNimState> for Scattered {
    fn heuristic(&self, s: &CoinNimState, seat: Seat) -> i32 {
        let v = (s.hash() % 181) as i32 - 90;
        if seat == 0 {
            v
        } else {
            -v
        }
    }

    fn bounds(&self) -> (i32, i32) {
        (-100, 100)
    }
}

fn settings(solver: bool, guide: Guide) -> Settings {
    Settings {
        c: 1.4,
        solver,
        guide,
    }
}

/// A tree of `iterations` iterations from `root` (leaves valued -1, 0, 1 in turn),
/// calling `visit` with the tree and the path after each.
fn grow<S: State, E: Evaluator<S>>(
    root: &S,
    iterations: u32,
    set: &Settings,
    eval: &E,
    mut visit: impl FnMut(&Tree<S, Plain>, &[u32]),
) -> Tree<S, Plain> {
    let mut tree = Tree::default();
    tree.reset(root, 1 << 20);
    let mut rng = AgentRng::seed_from_u64(3);
    let mut buffers = Buffers::new(1);
    let mut indices = Vec::new();
    for i in 0..iterations {
        let mut state = root.clone();
        let mut path = Vec::new();
        let reward = match tree.select(&mut state, &mut rng, &mut path, &mut buffers, set, eval) {
            Leaf::Exact(r) => r,
            // Alternating rewards, so that means differ from the heuristic.
            Leaf::Evaluate => f64::from(i % 3) - 1.0,
        };
        tree.backup(&path, reward, set, &mut buffers);
        indices.clear();
        indices.extend(path.iter().map(|step| step.index));
        visit(&tree, &indices);
    }
    tree
}

/// What the test saw of the tree's shapes.
#[derive(Default)]
struct Seen {
    /// Chance nodes with both outcomes born (weights 1 and 2).
    both_outcomes: u32,
    /// Decision nodes whose parent chance node's parent decision is the same seat's.
    same_seat_again: u32,
    /// Nodes whose `v_τ` moved away from their own heuristic.
    moved: u32,
}

/// Brute-force minimax of the stored heuristics below `node`: a leaf's heuristic, the
/// best child for a decision's seat, the probability-weighted mean of a chance node's
/// born outcomes; with the solver, a proven node's reward. Checks every node's `v_τ`
/// against it on the way.
fn brute(
    tree: &Tree<CoinNimState, Plain>,
    node: u32,
    solver: bool,
    above: Option<Seat>,
    seen: &mut Seen,
) -> f64 {
    let n = tree.describe(node);
    let children: Vec<u32> = tree.children(node).map(|(i, _)| i).collect();
    let value = if solver && n.proof != Proof::Unknown {
        n.proof.reward()
    } else if children.is_empty() {
        decode(n.heuristic)
    } else if let Some(seat) = n.seat() {
        if above == Some(seat) {
            seen.same_seat_again += 1;
        }
        let s = sign(seat);
        let best = children
            .iter()
            .map(|&c| s * brute(tree, c, solver, Some(seat), seen))
            .fold(f64::NEG_INFINITY, f64::max);
        s * best
    } else {
        assert_eq!(n.actor, CHANCE);
        seen.both_outcomes += u32::from(children.len() == 2);
        let (mut sum, mut weights) = (0.0, 0.0);
        for &c in &children {
            let weight = match tree.describe(c).mv {
                CoinNimMove::Heads => 1.0,
                CoinNimMove::Tails => 2.0,
                CoinNimMove::Take(_) => unreachable!("a chance node's child is a coin"),
            };
            sum += weight * brute(tree, c, solver, above, seen);
            weights += weight;
        }
        sum / weights
    };
    if node != 0 && children.is_empty() {
        assert_eq!(n.minimax, n.heuristic, "a leaf's v_τ is its heuristic");
    }
    if (decode(n.minimax) - decode(n.heuristic)).abs() > 0.01 {
        seen.moved += 1;
    }
    // Each fixed-point rounding is at most 2⁻¹⁶; a few dozen levels stay far below 10⁻³.
    let stored = decode(n.minimax);
    assert!(
        (stored - value).abs() < 1e-3,
        "node {node}: v_τ {stored} against minimax {value}"
    );
    value
}

#[test]
fn v_tau_is_the_minimax_of_the_heuristic_over_the_expanded_tree() {
    let root = CoinNim { stones: 9, cap: 8 }.initial_state();
    for solver in [false, true] {
        let guide = Guide {
            bias: 0.0,
            minimax: 0.5,
        };
        let set = settings(solver, guide);
        let tree = grow(&root, 600, &set, &Scattered, |_, _| {});
        let mut seen = Seen::default();
        brute(&tree, 0, solver, None, &mut seen);
        assert!(seen.both_outcomes >= 5, "{}", seen.both_outcomes);
        assert!(seen.same_seat_again >= 5, "{}", seen.same_seat_again);
        assert!(seen.moved >= 20, "{}", seen.moved);
        if solver {
            assert!((0..tree.len() as u32)
                .map(|i| tree.describe(i))
                .any(|n| n.proof != Proof::Unknown && n.actor < CHANCE));
        }
    }
}

#[test]
fn without_implicit_minimax_v_tau_stays_the_heuristic() {
    let root = CoinNim { stones: 9, cap: 8 }.initial_state();
    let set = settings(
        false,
        Guide {
            bias: 0.5,
            minimax: 0.0,
        },
    );
    let tree = grow(&root, 300, &set, &Scattered, |_, _| {});
    let nodes = || (1..tree.len() as u32).map(|i| tree.describe(i));
    assert!(nodes().all(|n| n.minimax == n.heuristic));
    assert!(nodes().any(|n| n.heuristic != 0));
}

#[test]
fn a_large_bias_selects_by_the_heuristic_first() {
    let root = Connect4.initial_state();
    let set = settings(
        true,
        Guide {
            bias: 1e6,
            minimax: 0.0,
        },
    );
    let mut checked = 0;
    let mut expected: Vec<u32> = Vec::new();
    let mut scores: Vec<(u32, f64)> = Vec::new();
    grow(&root, 60, &set, &Connect4Eval::default(), |tree, path| {
        // The root child this iteration went through must have been one of those with
        // the highest H / (n + 1) before it, once all seven had a child.
        if !expected.is_empty() {
            assert!(
                expected.contains(&path[1]),
                "{} not in {expected:?}",
                path[1]
            );
            checked += 1;
        }
        scores.clear();
        scores.extend(
            tree.children(0)
                .map(|(i, c)| (i, decode(c.heuristic) / (f64::from(c.visits) + 1.0))),
        );
        expected.clear();
        if scores.len() == 7 {
            let best = scores
                .iter()
                .map(|&(_, s)| s)
                .fold(f64::NEG_INFINITY, f64::max);
            expected.extend(
                scores
                    .iter()
                    .filter(|&&(_, s)| s >= best - 1e-12)
                    .map(|&(i, _)| i),
            );
        }
    });
    assert!(checked >= 50);
    // The centre column, the heuristic's favourite, was chosen first.
    let tree = grow(&root, 8, &set, &Connect4Eval::default(), |_, _| {});
    let (_, most) = tree.children(0).max_by_key(|(_, c)| c.visits).unwrap();
    assert_eq!(most.visits, 2);
    assert!(tree.children(0).all(|(_, c)| c.heuristic <= most.heuristic));
    // Each child's heuristic is the evaluator's value of its position, as rollout=eval
    // scales it.
    for (_, c) in tree.children(0) {
        let mut s = root.clone();
        s.apply(c.mv);
        assert_eq!(c.heuristic, encode(eval_leaf(&s, &Connect4Eval::default())));
    }
    assert!(tree.children(0).any(|(_, c)| c.heuristic != 0));
}

#[test]
fn guidance_fits_in_the_node_s_padding() {
    use agon_engine::games::{apv, invector, romgon};
    assert_eq!(
        std::mem::size_of::<Node<invector::InvectorMove, Plain>>(),
        40
    );
    assert_eq!(std::mem::size_of::<Node<apv::ApvMove, Plain>>(), 40);
    assert_eq!(std::mem::size_of::<Node<romgon::RomgonMove, Plain>>(), 40);
}
