//! Search speed: fixed-depth `ab` searches from fixed Invector positions, and
//! fixed-iteration `mcts` searches (one thread, solver and reuse off, as in the
//! OpenSpiel comparison) from the Connect Four start, a Connect Four middle game and
//! the Pig start and a Hexstrat middle game; and fixed-depth `star2` searches of the
//! Hexstrat start and middle game.
//!
//! Run with `cargo bench -p agon-benches --bench search`. Each benchmark's throughput
//! is the search's node count (identical on every run: the search is deterministic at a
//! fixed depth), so criterion reports nodes per second directly. A fresh agent (and so
//! an empty table) is built for every search.

// criterion_group! and criterion_main! generate undocumented items.
#![allow(missing_docs)]

use agon_benches::{
    hexstrat_state, InvectorPosition, HEXSTRAT_MIDGAME, MIDGAME_8X7, START_5X4, START_8X7,
};
use agon_engine::games::connect4::{Connect4, Connect4Eval};
use agon_engine::games::hexstrat::HexstratEval;
use agon_engine::games::invector::InvectorEval;
use agon_engine::games::pig::{Pig, PigEval};
use agon_engine::{play_moves, Evaluator, Game, State, ZeroSumTwoPlayer};
use agon_search::alphabeta::{AlphaBeta, AlphaBetaConfig};
use agon_search::{
    Agent, AgentRng, Budget, ChanceMode, Expectimax, ExpectimaxConfig, Mcts, MctsConfig,
};
use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use rand::SeedableRng;

/// (position, depth)
const POSITIONS: &[(InvectorPosition, u32)] = &[(START_8X7, 5), (MIDGAME_8X7, 6), (START_5X4, 9)];

fn bench_ab(c: &mut Criterion) {
    let mut group = c.benchmark_group("invector-ab");
    group.sample_size(10);
    for &(position, depth) in POSITIONS {
        let state = position.state();
        let name = position.name;
        let config = AlphaBetaConfig {
            budget: Budget {
                depth: Some(depth),
                ..Budget::default()
            },
            ..AlphaBetaConfig::default()
        };
        let search = |state| {
            let mut agent = AlphaBeta::new(InvectorEval, config, "ab");
            agent.search(state, &mut AgentRng::seed_from_u64(1), &mut |_| {})
        };
        group.throughput(Throughput::Elements(search(&state).nodes));
        group.bench_function(format!("{name}-d{depth}"), |b| {
            b.iter(|| search(black_box(&state)))
        });
    }
    group.finish();
}

/// Iterations per MCTS search: enough for the tree to reach a realistic depth.
const MCTS_ITERATIONS: u64 = 20_000;

/// One MCTS search of `state`; throughput is iterations.
fn bench_one_mcts<S: State + ZeroSumTwoPlayer, E: Evaluator<S>>(
    group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    name: &str,
    state: S,
    eval: E,
) {
    let config = MctsConfig {
        iterations: Some(MCTS_ITERATIONS),
        solver: false,
        reuse: false,
        ..MctsConfig::default()
    };
    group.throughput(Throughput::Elements(MCTS_ITERATIONS));
    group.bench_function(name, |b| {
        b.iter(|| {
            let mut agent = Mcts::new(eval.clone(), config, "mcts");
            agent.search(
                black_box(&state),
                &mut AgentRng::seed_from_u64(1),
                &mut |_| {},
            )
        })
    });
}

fn bench_mcts(c: &mut Criterion) {
    let mut group = c.benchmark_group("mcts");
    group.sample_size(10);
    let start = Connect4.initial_state();
    let mut midgame = start.clone();
    play_moves(&mut midgame, "d d c e d c e c").expect("a legal line");
    bench_one_mcts(&mut group, "connect4-start", start, Connect4Eval);
    bench_one_mcts(&mut group, "connect4-midgame", midgame, Connect4Eval);
    bench_one_mcts(
        &mut group,
        "pig-start",
        Pig::default().initial_state(),
        PigEval,
    );
    bench_one_mcts(
        &mut group,
        "hexstrat-midgame",
        hexstrat_state(HEXSTRAT_MIDGAME),
        HexstratEval,
    );
    group.finish();
}

/// Fixed-depth Star2 searches of Hexstrat (chance nodes at every reveal); throughput is
/// the search's node count, the same on every run.
fn bench_hexstrat_star2(c: &mut Criterion) {
    let mut group = c.benchmark_group("hexstrat-star2");
    group.sample_size(10);
    for (name, moves, depth) in [("start", "", 4), ("midgame", HEXSTRAT_MIDGAME, 5)] {
        let state = hexstrat_state(moves);
        let config = ExpectimaxConfig {
            budget: Budget {
                depth: Some(depth),
                ..Budget::default()
            },
            hash_mb: 16,
            mode: ChanceMode::Star2,
        };
        let search = |state| {
            let mut agent = Expectimax::new(HexstratEval, config, "star2");
            agent.search(state, &mut AgentRng::seed_from_u64(1), &mut |_| {})
        };
        group.throughput(Throughput::Elements(search(&state).nodes));
        group.bench_function(format!("{name}-d{depth}"), |b| {
            b.iter(|| search(black_box(&state)))
        });
    }
    group.finish();
}

criterion_group!(benches, bench_ab, bench_mcts, bench_hexstrat_star2);
criterion_main!(benches);
