//! `solve` against a plain memoised search: values, distances and the moves played.

use crate::common;

use agon_engine::State;
use agon_search::{Agent, AgentRng, Budget, SearchContext, Value};
use common::*;
use rand::SeedableRng;

#[test]
fn solve_equals_memoised_search_on_bonus_nim() {
    let mut positions = Vec::new();
    for pile in 1..=30u8 {
        for cap in [1u8, 2, 3, 5, 8, 13, 40] {
            positions.push(BonusNim::new(pile, cap));
        }
    }
    for seed in 0..100 {
        let mut r = rng(seed);
        let start = BonusNim::new(10 + (seed % 25) as u8, 4 + (seed % 20) as u8);
        positions.push(random_position(&start, (seed % 6) as usize, &mut r));
    }
    cross_check(&positions, BonusNimEval);
}

#[test]
fn solve_equals_memoised_search_on_tic_tac_toe() {
    let mut positions = vec![TicTacToe::default()];
    for seed in 0..150 {
        let mut r = rng(500 + seed);
        positions.push(random_position(
            &TicTacToe::default(),
            (seed % 8) as usize,
            &mut r,
        ));
    }
    cross_check(&positions, TicTacToeEval);
    let r = solver(TicTacToeEval).search(
        &TicTacToe::default(),
        SearchContext::new(&mut AgentRng::seed_from_u64(0), &mut |_| {}),
    );
    assert_eq!(r.value, Value::Draw);
}

#[test]
fn two_threads_prove_the_same_values_distances_and_moves() {
    let mut games = vec![TicTacToe::default()];
    let mut piles = Vec::new();
    for seed in 0..60 {
        let mut r = rng(700 + seed);
        games.push(random_position(
            &TicTacToe::default(),
            (seed % 6) as usize,
            &mut r,
        ));
        let start = BonusNim::new(10 + (seed % 25) as u8, 4 + (seed % 20) as u8);
        piles.push(random_position(&start, (seed % 4) as usize, &mut r));
    }
    cross_check_threads(&games, TicTacToeEval, 2);
    cross_check_threads(&piles, BonusNimEval, 2);
}

#[test]
fn a_budget_may_stop_the_proof_and_says_so() {
    let s = BonusNim::new(200, 250);
    for budget in [
        Budget {
            nodes: Some(1),
            ..Budget::default()
        },
        Budget {
            nodes: Some(3_000),
            ..Budget::default()
        },
    ] {
        let mut agent = solver_with(BonusNimEval, budget);
        let mut infos = 0;
        let r = agent.search(
            &s,
            SearchContext::new(&mut AgentRng::seed_from_u64(0), &mut |i| {
                assert!(!i.value.is_proven());
                infos += 1;
            }),
        );
        assert!(
            matches!(r.value, Value::Score(_)),
            "{budget:?}: {:?}",
            r.value
        );
        assert!(!r.value.is_proven());
        assert_eq!(infos, r.depth as usize);
        assert!(s.clone().try_apply(r.best.unwrap()).is_ok());
    }
    // A time budget stops it too (proven or not, a legal move comes back in time).
    let budget = Budget {
        time: Some(std::time::Duration::from_millis(20)),
        ..Budget::default()
    };
    let mut agent = solver_with(BonusNimEval, budget);
    let r = agent.search(
        &s,
        SearchContext::new(&mut AgentRng::seed_from_u64(0), &mut |_| {}),
    );
    assert!(r.time < std::time::Duration::from_secs(2));
    assert!(s.clone().try_apply(r.best.unwrap()).is_ok());
}

#[test]
fn a_proof_within_budget_is_reported_as_proven() {
    // Small enough to prove within the budget.
    let s = BonusNim::new(9, 30);
    let budget = Budget {
        nodes: Some(1_000_000),
        ..Budget::default()
    };
    let mut agent = solver_with(BonusNimEval, budget);
    let r = agent.search(
        &s,
        SearchContext::new(&mut AgentRng::seed_from_u64(0), &mut |_| {}),
    );
    let expected = Memo::new().value(&mut s.clone());
    assert!(r.value.is_proven());
    assert_eq!(value_score(r.value), expected);
}
