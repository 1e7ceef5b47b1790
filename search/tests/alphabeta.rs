//! `ab` against plain minimax, budgets, and what it reports.

use crate::common;

use agon_engine::State;
use agon_search::{Agent, AgentRng, AlphaBeta, AlphaBetaConfig, Budget, SearchContext, Value};
use common::*;
use rand::SeedableRng;

#[test]
fn ab_equals_minimax_on_bonus_nim() {
    let mut positions = Vec::new();
    for seed in 0..60 {
        let mut r = rng(seed);
        let start = BonusNim::new(8 + (seed % 13) as u8, 6 + (seed % 9) as u8);
        positions.push(random_position(&start, (seed % 5) as usize, &mut r));
    }
    assert_eq!(differential(&positions, &BonusNimEval, 1..=7), 64 * 7 * 60);
}

#[test]
fn ab_equals_minimax_on_tic_tac_toe() {
    let mut positions = Vec::new();
    for seed in 0..80 {
        let mut r = rng(1000 + seed);
        positions.push(random_position(
            &TicTacToe::default(),
            (seed % 7) as usize,
            &mut r,
        ));
    }
    assert_eq!(differential(&positions, &TicTacToeEval, 1..=6), 64 * 6 * 80);
}

#[test]
fn same_seat_decisions_are_not_negated() {
    // Pile 5: take3 keeps the move (pile 2), then take2 wins: a win in 2 plies. A search
    // that negated between the two decisions would see a loss.
    let s = BonusNim::new(5, 10);
    let mut agent = AlphaBeta::new(BonusNimEval, fixed_depth(3));
    let r = agent.search(
        &s,
        SearchContext::new(&mut AgentRng::seed_from_u64(0), &mut |_| {}),
    );
    assert_eq!(r.value, Value::Win(2));
    assert_eq!(r.pv, vec![Take(3), Take(2)]);
}

#[test]
fn plays_the_fastest_win_and_reports_mate_distances() {
    // Pile 5, long cap: take1 leaves 4 for the opponent, a loss for them in 3 plies;
    // take2 leaves 3, a win at once for the opponent; take3 keeps the move with pile 2,
    // then take2 wins. So the fastest win is in 2 plies, by take3 take2.
    let s = BonusNim::new(5, 50);
    let mut agent = AlphaBeta::new(BonusNimEval, AlphaBetaConfig::default());
    let mut infos = Vec::new();
    let r = agent.search(
        &s,
        SearchContext::new(&mut AgentRng::seed_from_u64(0), &mut |i| {
            infos.push(i.clone())
        }),
    );
    assert_eq!(r.value, Value::Win(2));
    assert_eq!(r.best, Some(Take(3)));
    assert_eq!(r.pv, vec![Take(3), Take(2)]);
    // A mate within the depth searched is proven: the deepening stops there.
    assert_eq!(r.depth, 2);
    assert_eq!(infos.last().map(|i| i.value), Some(Value::Win(2)));
}

#[test]
fn a_drawn_game_searched_to_the_end_is_a_proven_draw() {
    let mut agent = AlphaBeta::new(
        TicTacToeEval,
        AlphaBetaConfig {
            budget: Budget::default(),
            hash_mb: 1,
            ..AlphaBetaConfig::default()
        },
    );
    let r = agent.search(
        &TicTacToe::default(),
        SearchContext::new(&mut AgentRng::seed_from_u64(0), &mut |_| {}),
    );
    assert_eq!(r.value, Value::Draw);
    assert_eq!(r.depth, 9);
    // The PV is a whole legal game ending in a draw.
    let mut s = TicTacToe::default();
    for &m in &r.pv {
        s.try_apply(m).expect("PV moves are legal");
    }
    assert_eq!(s.outcome(), Some(agon_engine::Outcome::Draw));
}

#[test]
fn depth_budget_reports_each_iteration_and_the_depth() {
    let s = BonusNim::new(60, 200);
    let mut agent = AlphaBeta::new(BonusNimEval, fixed_depth(5));
    let mut depths = Vec::new();
    let r = agent.search(
        &s,
        SearchContext::new(&mut AgentRng::seed_from_u64(0), &mut |i| {
            assert!(!i.pv.is_empty());
            depths.push(i.depth);
        }),
    );
    assert_eq!(depths, vec![1, 2, 3, 4, 5]);
    assert_eq!(r.depth, 5);
    assert_eq!(r.pv.len(), 5, "the PV reaches the horizon");
    assert_eq!(r.pv[0], r.best.unwrap());
    assert!(matches!(r.value, Value::Score(_)));
}

fn node_limited(nodes: u64) -> AlphaBetaConfig {
    AlphaBetaConfig {
        budget: Budget {
            nodes: Some(nodes),
            ..Budget::default()
        },
        hash_mb: 1,
        ..AlphaBetaConfig::default()
    }
}

#[test]
fn a_node_budget_stops_the_search_and_still_returns_a_legal_move() {
    let s = BonusNim::new(120, 250);
    for limit in [1, 2, 5, 100, 5_000] {
        let mut agent = AlphaBeta::new(BonusNimEval, node_limited(limit));
        let r = agent.search(
            &s,
            SearchContext::new(&mut AgentRng::seed_from_u64(0), &mut |_| {}),
        );
        assert!(r.nodes <= limit, "{} nodes > {limit}", r.nodes);
        let m = r.best.expect("a move even when no iteration completed");
        assert!(s.clone().try_apply(m).is_ok());
        assert!(r.depth < 250);
        // Reproducible: a fresh agent with the same budget does the same.
        let mut again = AlphaBeta::new(BonusNimEval, node_limited(limit));
        let r2 = again.search(
            &s,
            SearchContext::new(&mut AgentRng::seed_from_u64(9), &mut |_| {}),
        );
        assert_eq!(
            (r2.best, r2.depth, r2.nodes, r2.pv),
            (r.best, r.depth, r.nodes, r.pv)
        );
    }
}

#[test]
fn a_time_budget_stops_the_search() {
    let s = BonusNim::new(200, 250);
    let config = AlphaBetaConfig {
        budget: Budget {
            time: Some(std::time::Duration::from_millis(30)),
            ..Budget::default()
        },
        hash_mb: 1,
        ..AlphaBetaConfig::default()
    };
    let mut agent = AlphaBeta::new(BonusNimEval, config);
    let r = agent.search(
        &s,
        SearchContext::new(&mut AgentRng::seed_from_u64(0), &mut |_| {}),
    );
    assert!(
        r.time < std::time::Duration::from_secs(2),
        "took {:?}",
        r.time
    );
    assert!(s.clone().try_apply(r.best.unwrap()).is_ok());
    assert!(r.depth >= 1);
}

#[test]
fn the_table_is_used_and_kept_between_searches() {
    let s = TicTacToe::default();
    let mut agent = AlphaBeta::new(TicTacToeEval, fixed_depth(6));
    let mut rng = AgentRng::seed_from_u64(0);
    let first = agent.search(&s, SearchContext::new(&mut rng, &mut |_| {}));
    assert!(first.tt_hits > 0);
    let second = agent.search(&s, SearchContext::new(&mut rng, &mut |_| {}));
    assert_eq!(second.value, first.value);
    assert!(
        second.nodes < first.nodes,
        "{} vs {}",
        second.nodes,
        first.nodes
    );
}

#[test]
fn finished_games_have_no_move() {
    let s = BonusNim::new(0, 5);
    let mut s = s;
    s.winner = Some(1);
    let mut agent = AlphaBeta::new(BonusNimEval, fixed_depth(3));
    let r = agent.search(
        &s,
        SearchContext::new(&mut AgentRng::seed_from_u64(0), &mut |_| {}),
    );
    assert_eq!((r.best, r.value), (None, Value::Loss(0)));
}
