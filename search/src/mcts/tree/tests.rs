//! The arena's layout: a chance node's block of child slots, and a block that does not
//! fit.

use agon_engine::games::pig::{Pig, PigEval, PigMove, PigState};
use agon_engine::{Game, State, Turn};
use rand::SeedableRng;

use super::{Guide, Leaf, Settings, Tree, CHANCE, UNBORN, UNIFORM};
use crate::agent::AgentRng;

fn settings(max_nodes: usize) -> Settings {
    Settings {
        c: 1.4,
        solver: false,
        max_nodes,
        guide: Guide::default(),
    }
}

/// A tree of `iterations` iterations from `root`, each leaf valued 0.
fn grown(root: &PigState, iterations: u32, max_nodes: usize) -> Tree<PigState> {
    let mut tree = Tree::default();
    tree.reset(root);
    let mut rng = AgentRng::seed_from_u64(9);
    let mut path = Vec::new();
    for _ in 0..iterations {
        let mut state = *root;
        path.clear();
        let reward = match tree.select(
            &mut state,
            &mut rng,
            &mut path,
            &settings(max_nodes),
            &PigEval::default(),
        ) {
            Leaf::Exact(r) => r,
            Leaf::Evaluate => 0.0,
        };
        tree.backup(&path, reward, &settings(max_nodes));
    }
    tree
}

/// Checks every chance node below `node` (whose position is `at`): its block holds one
/// slot per outcome, in outcome order, born exactly where an iteration arrived, and its
/// visits are those of its born children plus the iterations that ended at it.
fn check_blocks(tree: &Tree<PigState>, node: u32, at: &PigState) {
    let n = tree.nodes[node as usize];
    if n.actor == CHANCE && n.num_moves != super::UNEXPANDED {
        let mut outcomes = Vec::new();
        at.chance_outcomes(&mut outcomes);
        assert_eq!(usize::from(n.num_moves), outcomes.len());
        let equal = outcomes.iter().all(|&(_, w)| w == outcomes[0].1);
        assert_eq!(n.moves == UNIFORM, equal, "equal weights keep no outcomes");
        let mut born = 0;
        for (k, &(outcome, _)) in outcomes.iter().enumerate() {
            let slot = &tree.nodes[n.first_child as usize + k];
            assert_eq!(slot.mv, outcome, "slot {k} holds its outcome");
            assert_eq!(slot.actor == UNBORN, slot.visits == 0, "born when reached");
            born += u16::from(slot.actor != UNBORN);
        }
        assert_eq!(n.tried, born);
        let below: u32 = tree.children(node).map(|(_, c)| c.visits).sum();
        assert!(
            below <= n.visits && n.visits - below <= 1,
            "{below} of {}",
            n.visits
        );
    }
    for (child, c) in tree.children(node) {
        assert_ne!(c.actor, UNBORN, "children() skips unborn slots");
        let mut next = *at;
        next.apply(c.mv);
        check_blocks(tree, child, &next);
    }
}

#[test]
fn a_chance_node_keeps_one_slot_per_outcome_born_when_first_drawn() {
    let start = Pig::new(20, 6, 1000).unwrap().initial_state();
    let tree = grown(&start, 3000, usize::MAX);
    check_blocks(&tree, 0, &start);
    assert!(!tree.is_full(usize::MAX));
    // A chance root too.
    let mut rolled = start;
    rolled.apply(PigMove::Roll);
    assert_eq!(rolled.turn(), Turn::Chance);
    let tree = grown(&rolled, 500, usize::MAX);
    assert_eq!(
        tree.children(0).count(),
        6,
        "every face drawn in 500 iterations"
    );
    check_blocks(&tree, 0, &rolled);
}

#[test]
fn a_block_that_does_not_fit_leaves_its_node_a_leaf_and_the_tree_full() {
    let start = Pig::new(20, 6, 1000).unwrap().initial_state();
    // The root and its two decisions fit; the roll's six slots do not.
    let tree = grown(&start, 50, 4);
    assert!(tree.is_full(4));
    assert!(tree.nodes.len() <= 4);
    check_blocks(&tree, 0, &start);
    let roomy = grown(&start, 50, 1000);
    assert!(!roomy.is_full(1000));
    assert!(roomy.nodes.len() > 4);
}

#[test]
fn re_rooting_at_a_chance_child_keeps_its_block_whole() {
    let start = Pig::new(20, 6, 1000).unwrap().initial_state();
    let mut tree = grown(&start, 3000, usize::MAX);
    // Down the roll: the chance node after it, then its most visited face.
    let (roll, roll_mv) = tree
        .children(0)
        .find(|(_, c)| c.actor == CHANCE)
        .map(|(i, c)| (i, c.mv))
        .expect("a roll was tried");
    let (face, f) = tree.children(roll).max_by_key(|(_, c)| c.visits).unwrap();
    let (face_visits, face_mv) = (f.visits, f.mv);
    let mut at = start;
    at.apply(roll_mv);
    at.apply(face_mv);
    let kept = tree.nodes[face as usize].visits;
    assert!(tree.advance_to(&at, 2));
    assert_eq!(tree.root().visits, kept);
    assert_eq!(face_visits, kept);
    check_blocks(&tree, 0, &at);
    // And at the chance node itself: its block moves with it.
    let mut tree = grown(&start, 3000, usize::MAX);
    let mut at = start;
    at.apply(roll_mv);
    assert!(tree.advance_to(&at, 1));
    assert_eq!(tree.root().actor, CHANCE);
    assert_eq!(tree.children(0).count(), 6);
    check_blocks(&tree, 0, &at);
}
