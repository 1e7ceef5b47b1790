//! `ab` on Connect Four: every combination of enhancements against plain minimax on
//! random positions, and Lazy SMP threads against one thread.

use crate::common;

use agon_engine::games::connect4::{Connect4, Connect4Eval, Connect4State};
use agon_engine::{Game, State};
use agon_search::{Agent, AgentRng, AlphaBeta, AlphaBetaConfig, Budget, SearchContext, Value};
use common::*;
use rand::SeedableRng;

/// `count` positions after 0, 3, 6, ... random drops (games that ended are skipped by the
/// differential check).
fn positions(count: u64) -> Vec<Connect4State> {
    let start = Connect4.initial_state();
    (0..count)
        .map(|i| random_position(&start, (3 * i % 36) as usize, &mut rng(500 + i)))
        .collect()
}

#[test]
fn ab_equals_minimax_on_random_connect4_positions() {
    let positions = positions(12);
    let live = positions.iter().filter(|p| p.outcome().is_none()).count();
    assert_eq!(
        differential(&positions, &Connect4Eval::default(), 1..=5),
        64 * 5 * live
    );
}

#[test]
fn lazy_smp_agrees_with_one_thread_on_proven_values() {
    // Positions late enough for a depth-12 search to settle the game: the value is a
    // proven result, which threads cannot change (only how fast it is found).
    let start = Connect4.initial_state();
    let mut checked = 0;
    for seed in 0..8 {
        let s = random_position(&start, 26, &mut rng(seed));
        if s.outcome().is_some() {
            continue;
        }
        let config = |threads| AlphaBetaConfig {
            budget: Budget {
                depth: Some(20),
                ..Budget::default()
            },
            hash_mb: 4,
            threads,
            ..AlphaBetaConfig::default()
        };
        let mut one = AlphaBeta::new(Connect4Eval::default(), config(1));
        let mut two = AlphaBeta::new(Connect4Eval::default(), config(2));
        let mut rng = AgentRng::seed_from_u64(0);
        let a = one.search(&s, SearchContext::new(&mut rng, &mut |_| {}));
        let b = two.search(&s, SearchContext::new(&mut rng, &mut |_| {}));
        assert!(a.value.is_proven(), "{s}: {:?}", a.value);
        assert_eq!(a.value, b.value, "{s}");
        assert!(s.clone().try_apply(b.best.unwrap()).is_ok());
        // The winning (or saving) move of two threads keeps the value.
        if let Value::Win(_) = a.value {
            let mut after = s.clone();
            after.apply(b.best.unwrap());
            let mut check = AlphaBeta::new(Connect4Eval::default(), config(1));
            let r = check.search(&after, SearchContext::new(&mut rng, &mut |_| {}));
            assert!(matches!(r.value, Value::Loss(_)) || after.outcome().is_some());
        }
        checked += 1;
    }
    assert!(checked >= 5, "{checked}");
}

#[test]
fn two_threads_complete_the_requested_depth_and_report_it_last() {
    // Whichever thread completes the budget's depth first ends the search, and the
    // result is a completed iteration: exactly the requested depth unless the value
    // was proven sooner (as one thread would prove it), its line legal, and the last
    // `info` line the result's.
    let start = Connect4.initial_state();
    for seed in 0..6 {
        let s = random_position(&start, 2 * seed as usize, &mut rng(900 + seed));
        if s.outcome().is_some() {
            continue;
        }
        for depth in [7, 10] {
            let config = |threads| AlphaBetaConfig {
                budget: Budget {
                    depth: Some(depth),
                    ..Budget::default()
                },
                hash_mb: 4,
                threads,
                ..AlphaBetaConfig::default()
            };
            let mut rng = AgentRng::seed_from_u64(0);
            let one = AlphaBeta::new(Connect4Eval::default(), config(1))
                .search(&s, SearchContext::new(&mut rng, &mut |_| {}));
            let mut last = None;
            let two = AlphaBeta::new(Connect4Eval::default(), config(2)).search(
                &s,
                SearchContext::new(&mut rng, &mut |i| last = Some(i.clone())),
            );
            if one.value.is_proven() {
                assert_eq!(two.value, one.value, "{s} depth {depth}");
            } else {
                assert_eq!(two.depth, depth, "{s}");
            }
            let last = last.expect("an iteration was reported");
            assert_eq!(
                (last.depth, last.value, &last.pv),
                (two.depth, two.value, &two.pv)
            );
            let mut line = s.clone();
            for &m in &two.pv {
                line.try_apply(m).expect("legal PV");
            }
            assert_eq!(two.best, two.pv.first().copied());
        }
    }
}
