//! Forward pruning in `ab` (late-move reductions): what it may change (the value at a
//! fixed depth, how much is searched) and what it may not (a result proven by searching
//! to the end, the agent's behaviour when it is off).

use crate::common;

use agon_engine::games::invector::{Invector, InvectorEval, InvectorState};
use agon_engine::{Game, Params, State, Turn};
use agon_search::registry::build;
use agon_search::{
    Agent, AgentKind, AgentRng, AlphaBeta, AlphaBetaConfig, Budget, Pruning, SearchContext,
    SearchResult,
};
use common::tic_tac_toe::{TicTacToe, TicTacToeEval};
use common::*;
use rand::SeedableRng;

/// `ab` with late-move reductions, within `budget`, with a small table.
fn reducing(budget: Budget) -> AlphaBetaConfig {
    AlphaBetaConfig {
        budget,
        hash_mb: 1,
        pruning: Pruning { lmr: true },
        ..AlphaBetaConfig::default()
    }
}

fn search<S: agon_engine::Deterministic, E: agon_engine::Evaluator<S>>(
    agent: &mut AlphaBeta<S, E>,
    state: &S,
) -> SearchResult<S::Move> {
    agent.search(
        state,
        SearchContext::new(&mut AgentRng::seed_from_u64(0), &mut |_| {}),
    )
}

#[test]
fn reductions_keep_results_searched_to_the_end_exact() {
    // Reductions skip no move, so a search that deepens until it proves the result finds
    // the game's true result (win, draw or loss), and its move keeps it. (The distance
    // may be longer than the fastest: a faster win may sit in a reduced subtree.)
    let mut memo = Memo::new();
    let mut checked = 0;
    for seed in 0..60 {
        let mut r = rng(7_000 + seed);
        let start = random_position(&TicTacToe::default(), (seed % 6) as usize, &mut r);
        let Turn::Seat(mover) = start.turn() else {
            continue;
        };
        let mut agent = AlphaBeta::new(TicTacToeEval, reducing(Budget::default()));
        let result = search(&mut agent, &start);
        assert!(result.value.is_proven(), "{start}: {:?}", result.value);
        let mut s = start.clone();
        let expected = memo.value(&mut s).signum();
        assert_eq!(value_score(result.value).signum(), expected, "{start}");
        let undo = s.apply(result.best.unwrap());
        let after = child_score(&mut s, mover, 1, |c| {
            let v = memo.value(c);
            v - v.signum()
        });
        s.undo(undo);
        assert_eq!(after.signum(), expected, "the move of {start}");
        checked += 1;
    }
    assert!(checked > 50);
}

#[test]
fn reductions_search_fewer_nodes_at_a_fixed_depth_and_stay_reproducible() {
    let start = Invector::default().initial_state();
    let depth = |d| Budget {
        depth: Some(d),
        ..Budget::default()
    };
    let plain = AlphaBetaConfig {
        budget: depth(6),
        hash_mb: 1,
        ..AlphaBetaConfig::default()
    };
    let full = search(&mut AlphaBeta::new(InvectorEval::default(), plain), &start);
    let reduced = search(
        &mut AlphaBeta::new(InvectorEval::default(), reducing(depth(6))),
        &start,
    );
    let again = search(
        &mut AlphaBeta::new(InvectorEval::default(), reducing(depth(6))),
        &start,
    );
    assert_eq!(full.depth, 6);
    assert_eq!(reduced.depth, 6);
    assert!(
        reduced.nodes * 2 < full.nodes,
        "reduced {} nodes, full {}",
        reduced.nodes,
        full.nodes
    );
    assert_eq!(
        (reduced.best, reduced.value, reduced.nodes, reduced.pv),
        (again.best, again.value, again.nodes, again.pv)
    );
}

#[test]
fn an_ab_spec_prunes_only_when_it_says_lmr_true() {
    // Through the registry, as a spec builds it: without `lmr` the search is the one
    // `lmr=false` names (same nodes, same move), and only `lmr=true` reduces.
    let start = Invector::default().initial_state();
    let nodes = |pairs: &[(&str, &str)]| {
        let kind = AgentKind::AlphaBeta;
        let params = Params::parse(kind.info().params, pairs).expect("valid parameters");
        let mut agent =
            build::<InvectorState, _>(kind, &params, InvectorEval::default()).expect("builds");
        let r = agent.search(
            &start,
            SearchContext::new(&mut AgentRng::seed_from_u64(0), &mut |_| {}),
        );
        (r.nodes, r.best)
    };
    let absent = nodes(&[("depth", "5"), ("hash", "1")]);
    let off = nodes(&[("depth", "5"), ("hash", "1"), ("lmr", "false")]);
    let on = nodes(&[("depth", "5"), ("hash", "1"), ("lmr", "true")]);
    assert_eq!(absent, off);
    assert!(on.0 < off.0, "lmr=true {} nodes, off {}", on.0, off.0);
    assert_eq!(AlphaBetaConfig::default().pruning, Pruning::NONE);
}
