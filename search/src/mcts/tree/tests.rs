//! The arena's layout (a chance node's run of children, a run that does not fit,
//! re-rooting), and tree parallelism's shared tree: no update lost, a full arena, and
//! tree reuse between searches.

use agon_engine::games::connect4::{Connect4, Connect4Eval, Connect4State};
use agon_engine::games::pig::{Pig, PigEval, PigMove, PigState};
use agon_engine::{Game, Move, State, Turn};
use rand::seq::IndexedRandom;
use rand::SeedableRng;

use super::{Atomic, Buffers, Guide, Leaf, Node, Plain, Settings, Stats, Tree, CHANCE, OVER};
use crate::agent::AgentRng;
use crate::budget::{Budget, Clock};
use crate::mcts::driver::Job;
use crate::mcts::parallel::tree_parallel;
use crate::mcts::rollout::Rollout;
use crate::mcts::REUSE_PLIES;

fn settings(solver: bool) -> Settings {
    Settings {
        c: 1.4,
        solver,
        guide: Guide::default(),
    }
}

/// A one-thread tree of `iterations` iterations from `root`, each leaf valued 0.
fn grown(root: &PigState, iterations: u32, max_nodes: usize) -> Tree<PigState, Plain> {
    let mut tree = Tree::default();
    tree.reset(root, max_nodes);
    let mut rng = AgentRng::seed_from_u64(9);
    let mut buffers = Buffers::new(1);
    for _ in 0..iterations {
        let mut state = *root;
        let mut path = Vec::new();
        let set = settings(false);
        let reward = match tree.select(
            &mut state,
            &mut rng,
            &mut path,
            &mut buffers,
            &set,
            &PigEval::default(),
        ) {
            Leaf::Exact(r) => r,
            Leaf::Evaluate => 0.0,
        };
        tree.backup(&path, reward, &set, &mut buffers);
    }
    tree
}

/// Checks every chance node below `node` (whose position is `at`): its run holds one
/// child per outcome, in outcome order, born exactly where an iteration arrived, and
/// its visits are those of its born children plus the iterations that ended at it.
fn check_runs(tree: &Tree<PigState, Plain>, node: u32, at: &PigState) {
    let n = tree.node(node);
    if n.actor() == CHANCE && n.len() > 0 {
        let mut outcomes = Vec::new();
        at.chance_outcomes(&mut outcomes);
        assert_eq!(n.len(), outcomes.len());
        let equal = outcomes.iter().all(|&(_, w)| w == outcomes[0].1);
        let uniform = n.shape.get() >> 16 == 1;
        assert_eq!(uniform, equal, "equally likely outcomes are marked");
        let start = n.children.get();
        for (k, &(outcome, _)) in outcomes.iter().enumerate() {
            let slot = tree.node(start + k as u32);
            assert_eq!(slot.mv(), outcome, "slot {k} holds its outcome");
            assert_eq!(
                slot.actor() == super::UNBORN,
                slot.visits.get() == 0,
                "born when reached"
            );
        }
        let below: u32 = tree.children(node).map(|(_, c)| c.visits).sum();
        let visits = n.visits.get();
        assert!(
            below <= visits && visits - below <= 1,
            "{below} of {visits}"
        );
    }
    for (child, c) in tree.children(node) {
        assert!(c.actor < super::UNBORN, "children() skips unborn slots");
        let mut next = *at;
        next.apply(c.mv);
        check_runs(tree, child, &next);
    }
}

#[test]
fn a_chance_node_keeps_one_child_per_outcome_born_when_first_drawn() {
    let start = Pig::new(20, 6, 1000).unwrap().initial_state();
    let tree = grown(&start, 3000, 1 << 20);
    check_runs(&tree, 0, &start);
    assert!(!tree.is_full());
    // A chance root too.
    let mut rolled = start;
    rolled.apply(PigMove::Roll);
    assert_eq!(rolled.turn(), Turn::Chance);
    let tree = grown(&rolled, 500, 1 << 20);
    assert_eq!(
        tree.children(0).count(),
        6,
        "every face drawn in 500 iterations"
    );
    check_runs(&tree, 0, &rolled);
}

#[test]
fn a_run_that_does_not_fit_leaves_its_node_a_leaf_and_the_tree_full() {
    let start = Pig::new(20, 6, 1000).unwrap().initial_state();
    // The root and its two decisions fit; the roll's six outcomes do not.
    let tree = grown(&start, 50, 4);
    assert!(tree.is_full());
    assert!(tree.len() <= 4);
    check_runs(&tree, 0, &start);
    let roomy = grown(&start, 50, 1000);
    assert!(!roomy.is_full());
    assert!(roomy.len() > 4);
}

#[test]
fn re_rooting_at_a_chance_child_keeps_its_run_whole() {
    let start = Pig::new(20, 6, 1000).unwrap().initial_state();
    let mut tree = grown(&start, 3000, 1 << 20);
    // Down the roll: the chance node after it, then its most visited face.
    let (roll, roll_mv) = tree
        .children(0)
        .find(|(_, c)| c.actor == CHANCE)
        .map(|(i, c)| (i, c.mv))
        .expect("a roll was tried");
    let (face, f) = tree.children(roll).max_by_key(|(_, c)| c.visits).unwrap();
    let mut at = start;
    at.apply(roll_mv);
    at.apply(f.mv);
    let kept = tree.describe(face);
    assert!(tree.advance_to(&at, 2));
    assert_eq!(tree.root().visits, kept.visits);
    assert_eq!(tree.root().total, kept.total);
    check_runs(&tree, 0, &at);
    // And at the chance node itself: its run moves with it.
    let mut tree = grown(&start, 3000, 1 << 20);
    let mut at = start;
    at.apply(roll_mv);
    assert!(tree.advance_to(&at, 1));
    assert_eq!(tree.root().actor, CHANCE);
    assert_eq!(tree.children(0).count(), 6);
    check_runs(&tree, 0, &at);
}

/// A tree-parallel search of `iterations` on `threads` threads from `root` into `tree`
/// (reset unless `reuse` keeps a subtree), in an arena of `max_nodes`: the iterations
/// run.
fn search_shared(
    tree: &mut Tree<Connect4State, Atomic>,
    root: &Connect4State,
    iterations: u64,
    threads: u64,
    max_nodes: usize,
    solver: bool,
) -> u64 {
    let clock = Clock::start(&Budget::default());
    let job = Job {
        root,
        eval: &Connect4Eval::default(),
        settings: settings(solver),
        rollout: Rollout::Random { plies: None },
        early_stop: false,
        clock: &clock,
    };
    if !tree.advance_to(root, REUSE_PLIES) {
        tree.reset(root, max_nodes);
    }
    let seeds: Vec<u64> = (0..threads).collect();
    tree_parallel(tree, &job, iterations, &seeds, None).0
}

/// A Connect Four position 30 plies in, not finished: a tree of a few thousand nodes,
/// so that many threads meet on the same nodes.
fn late_position() -> Connect4State {
    let mut rng = AgentRng::seed_from_u64(7);
    let mut moves = Vec::new();
    loop {
        let mut s = Connect4.initial_state();
        while s.ply() < 30 && !matches!(s.turn(), Turn::Over) {
            moves.clear();
            s.legal_moves(&mut moves);
            s.apply(*moves.choose(&mut rng).unwrap());
        }
        if !matches!(s.turn(), Turn::Over) {
            return s;
        }
    }
}

/// Every node's visits cover its children's, and the rewards of the iterations that
/// ended at a node (its total less its children's) are at most one each; a finished
/// game's total is its visits times its reward. Returns the iterations that ended in
/// the subtree of `node` (its visits less its children's, summed).
fn consistent<S: State, St: Stats>(tree: &Tree<S, St>, node: u32, parent_actor: u8) -> u64 {
    let n = tree.child(tree.node(node), parent_actor);
    let below: u32 = tree.children(node).map(|(_, c)| c.visits).sum();
    assert!(below <= n.visits, "{below} > {}", n.visits);
    let below_total: f64 = tree.children(node).map(|(_, c)| c.total).sum();
    let own = f64::from(n.visits - below);
    assert!((n.total - below_total).abs() <= own + 1e-6, "node {node}");
    if n.actor == OVER {
        let exact = f64::from(n.visits) * n.proof.reward();
        assert!((n.total - exact).abs() < 1e-6, "{} != {exact}", n.total);
    }
    let ends: u64 = tree
        .children(node)
        .map(|(child, _)| consistent(tree, child, n.actor))
        .sum();
    ends + u64::from(n.visits - below)
}

#[test]
fn shared_statistics_sum_to_the_iterations_run() {
    let mut tree = Tree::default();
    let run = search_shared(
        &mut tree,
        &Connect4.initial_state(),
        40_000,
        8,
        1 << 20,
        true,
    );
    assert_eq!(run, 40_000);
    assert!(!tree.is_full());
    assert_eq!(u64::from(tree.root().visits), run);
    // Every iteration ends at exactly one node: nothing lost, nothing counted twice.
    assert_eq!(consistent(&tree, 0, CHANCE), run);
}

#[test]
fn many_threads_on_a_small_shared_tree_lose_no_update() {
    // Without the solver nothing stops the search, so 16 threads keep meeting on the
    // same few thousand nodes, whose finished games have exact totals.
    let root = late_position();
    let mut tree = Tree::default();
    let run = search_shared(&mut tree, &root, 60_000, 16, 1 << 20, false);
    assert_eq!(run, 60_000);
    assert_eq!(u64::from(tree.root().visits), run);
    assert_eq!(consistent(&tree, 0, CHANCE), run);
    let over = (0..tree.len() as u32)
        .filter(|&i| tree.node(i).actor() == OVER)
        .count();
    assert!(over > 10);
}

#[test]
fn a_full_shared_arena_stops_expanding() {
    let mut tree = Tree::default();
    let run = search_shared(&mut tree, &Connect4.initial_state(), 5_000, 2, 100, true);
    assert!(tree.is_full());
    assert_eq!(run, 5_000);
    assert!(tree.len() <= 100);
    assert_eq!(u64::from(tree.root().visits), run);
    assert_eq!(consistent(&tree, 0, CHANCE), run);
}

/// The subtree at `node` written out: each node's move, visits, total and proof,
/// children in move order, so that two trees holding the same nodes in different
/// arena orders read the same.
fn canonical<S: State, St: Stats>(tree: &Tree<S, St>, node: u32, parent_actor: u8) -> String {
    let n = tree.child(tree.node(node), parent_actor);
    let mut children: Vec<_> = tree.children(node).collect();
    children.sort_by_key(|(_, c)| c.mv.pack());
    let below: Vec<String> = children
        .iter()
        .map(|&(c, _)| canonical(tree, c, n.actor))
        .collect();
    format!(
        "({} {} {:.9} {:?} [{}])",
        n.mv.pack(),
        n.visits,
        n.total,
        n.proof,
        below.join(" ")
    )
}

#[test]
fn a_shared_tree_re_roots_between_searches_and_searches_on() {
    let root = Connect4.initial_state();
    let mut tree = Tree::default();
    search_shared(&mut tree, &root, 20_000, 2, 1 << 20, true);
    // Two plies down the most visited moves, so that the subtree is large however the
    // two threads happened to share the work.
    let mut target = root.clone();
    let (mut node, mut parent_actor) = (0, CHANCE);
    for _ in 0..2 {
        let (child, c) = tree.children(node).max_by_key(|(_, c)| c.visits).unwrap();
        target.apply(c.mv);
        parent_actor = tree.node(node).actor();
        node = child;
    }
    let before = canonical(&tree, node, parent_actor);
    let visits = tree.child(tree.node(node), parent_actor).visits;
    assert!(tree.advance_to(&target, REUSE_PLIES));
    // The same subtree, its root's statistics now those of a root.
    assert_eq!(canonical(&tree, 0, CHANCE), before);
    assert!(visits > 100);
    // The next search starts from the kept subtree.
    let run = search_shared(&mut tree, &target, 5_000, 2, 1 << 20, true);
    assert_eq!(run, 5_000);
    assert_eq!(u64::from(tree.root().visits), u64::from(visits) + run);
    assert_eq!(consistent(&tree, 0, CHANCE), u64::from(visits) + run);
}

#[test]
fn shared_nodes_are_half_a_cache_line() {
    use agon_engine::games::connect4::Connect4Move;
    assert_eq!(std::mem::size_of::<Node<Connect4Move, Atomic>>(), 32);
    assert_eq!(std::mem::align_of::<Node<Connect4Move, Atomic>>(), 32);
}
