//! Search speed: fixed-depth `ab` searches from fixed Invector, APV and Romgon positions, and
//! fixed-iteration `mcts` searches (one thread, solver and reuse off, as in the
//! OpenSpiel comparison) from the Connect Four start, a Connect Four middle game and
//! the Pig start and a 3Will middle game; fixed-depth `star2` on 3Will.
//!
//! The same `ab` searches of Invector and Romgon with the committed learned evaluators
//! (`network-ab`) measure what a network costs a node: compare each with its `invector-ab`
//! or `romgon-ab` line (the node counts differ, since the values differ).
//!
//! Run with `cargo bench -p agon-benches --bench search`. Each benchmark's throughput
//! is the search's node count (identical on every run: the search is deterministic at a
//! fixed depth), so criterion reports nodes per second directly. A fresh agent (and so
//! an empty table) is built for every search.

// criterion_group! and criterion_main! generate undocumented items.
#![allow(missing_docs)]

use agon_benches::hexstrat_state;
use agon_benches::{
    DefaultRulesPosition, InvectorPosition, APV_MIDGAME, APV_START, MIDGAME_8X7, ROMGON_MIDGAME,
    ROMGON_START, START_5X4, START_8X7,
};
use agon_engine::games::apv::ApvEval;
use agon_engine::games::connect4::{Connect4, Connect4Eval};
use agon_engine::games::hexstrat::{self, HexstratEval};
use agon_engine::games::invector::InvectorEval;
use agon_engine::games::pig::{Pig, PigEval};
use agon_engine::games::romgon::RomgonEval;
use agon_engine::games::threewill::{self, ThreeWill, ThreeWillEval};
use agon_engine::network::{NetEval, Network};
use agon_engine::{play_moves, Deterministic, Encode, Evaluator, Game, State};
use agon_search::alphabeta::{AlphaBeta, AlphaBetaConfig};
use agon_search::{
    Agent, AgentRng, Budget, ChanceMode, Expectimax, ExpectimaxConfig, Mcts, MctsConfig,
    SearchContext,
};
use criterion::measurement::WallTime;
use criterion::{
    black_box, criterion_group, criterion_main, BenchmarkGroup, Criterion, Throughput,
};
use rand::SeedableRng;
use std::sync::Arc;

/// A budget of exactly `depth` plies.
fn depth_budget(depth: u32) -> Budget {
    Budget {
        depth: Some(depth),
        ..Budget::default()
    }
}

/// Benchmarks as `name` one search of `state` by a fresh agent from `agent` (so an empty
/// table every time); throughput is the search's node count, the same on every run.
fn bench_fresh_search<S: State, A: Agent<S>>(
    group: &mut BenchmarkGroup<'_, WallTime>,
    name: String,
    state: &S,
    agent: impl Fn() -> A,
) {
    let search = |state| {
        agent().search(
            state,
            SearchContext::new(&mut AgentRng::seed_from_u64(1), &mut |_| {}),
        )
    };
    group.throughput(Throughput::Elements(search(state).nodes));
    group.bench_function(name, |b| b.iter(|| search(black_box(state))));
}

/// (position, depth)
const POSITIONS: &[(InvectorPosition, u32)] = &[(START_8X7, 5), (MIDGAME_8X7, 6), (START_5X4, 9)];

fn bench_ab(c: &mut Criterion) {
    let mut group = c.benchmark_group("invector-ab");
    group.sample_size(10);
    for &(position, depth) in POSITIONS {
        let state = position.state();
        let name = position.name;
        let config = AlphaBetaConfig {
            budget: depth_budget(depth),
            ..AlphaBetaConfig::default()
        };
        bench_fresh_search(&mut group, format!("{name}-d{depth}"), &state, || {
            AlphaBeta::new(InvectorEval::default(), config)
        });
    }
    group.finish();
}

/// Fixed-depth `ab` searches of `positions` (position, depth) of a game under its
/// default rules, in the criterion group `group_name`; throughput is nodes.
fn bench_default_rules_ab<G, E>(
    c: &mut Criterion,
    group_name: &str,
    positions: &[(DefaultRulesPosition<G>, u32)],
    eval: E,
) where
    G: Game + Default,
    G::State: Deterministic,
    E: Evaluator<G::State>,
{
    let mut group = c.benchmark_group(group_name);
    group.sample_size(10);
    for &(position, depth) in positions {
        let state = position.state();
        let config = AlphaBetaConfig {
            budget: depth_budget(depth),
            ..AlphaBetaConfig::default()
        };
        let name = format!("{}-d{depth}", position.name);
        bench_fresh_search(&mut group, name, &state, || {
            AlphaBeta::new(eval.clone(), config)
        });
    }
    group.finish();
}

fn bench_apv_ab(c: &mut Criterion) {
    bench_default_rules_ab(
        c,
        "apv-ab",
        &[(APV_START, 7), (APV_MIDGAME, 6)],
        ApvEval::default(),
    );
}

fn bench_romgon_ab(c: &mut Criterion) {
    let positions = [(ROMGON_START, 6), (ROMGON_MIDGAME, 6)];
    bench_default_rules_ab(c, "romgon-ab", &positions, RomgonEval::default());
}

/// A learned evaluator from the committed network `bytes` over the linear `base`, for
/// positions like `state`.
fn network<S: Encode, L: Evaluator<S>>(bytes: &[u8], base: L, state: &S) -> NetEval<S, L> {
    let net = Network::from_bytes(bytes).expect("a committed network reads");
    NetEval::new(Arc::new(net), base, &state.encoding()).expect("it reads this game")
}

/// Fixed-depth `ab` searches of `positions` (state, name, depth) with the network
/// `bytes` over the linear `base`, into `group`.
fn bench_network<S: Deterministic + Encode, L: Evaluator<S>>(
    group: &mut BenchmarkGroup<'_, WallTime>,
    bytes: &[u8],
    base: L,
    positions: &[(S, String, u32)],
) {
    for (state, name, depth) in positions {
        let eval = network(bytes, base.clone(), state);
        let config = AlphaBetaConfig {
            budget: depth_budget(*depth),
            ..AlphaBetaConfig::default()
        };
        bench_fresh_search(group, format!("{name}-d{depth}"), state, || {
            AlphaBeta::new(eval.clone(), config)
        });
    }
}

fn bench_network_ab(c: &mut Criterion) {
    let mut group = c.benchmark_group("network-ab");
    group.sample_size(10);
    let invector = [(START_8X7, 5), (MIDGAME_8X7, 6)]
        .map(|(p, d)| (p.state(), format!("invector-{}", p.name), d));
    bench_network(
        &mut group,
        include_bytes!("../../results/networks/invector.net"),
        InvectorEval::default(),
        &invector,
    );
    let romgon = [(ROMGON_START, 6), (ROMGON_MIDGAME, 6)]
        .map(|(p, d)| (p.state(), format!("romgon-{}", p.name), d));
    bench_network(
        &mut group,
        include_bytes!("../../results/networks/romgon.net"),
        RomgonEval::default(),
        &romgon,
    );
    group.finish();
}

/// Iterations per MCTS search: enough for the tree to reach a realistic depth.
const MCTS_ITERATIONS: u64 = 20_000;

/// One MCTS search of `state`; throughput is iterations.
fn bench_one_mcts<S: State, E: Evaluator<S>>(
    group: &mut BenchmarkGroup<'_, WallTime>,
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
            let mut agent = Mcts::new(eval.clone(), config);
            agent.search(
                black_box(&state),
                SearchContext::new(&mut AgentRng::seed_from_u64(1), &mut |_| {}),
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
    bench_one_mcts(&mut group, "connect4-start", start, Connect4Eval::default());
    bench_one_mcts(
        &mut group,
        "connect4-midgame",
        midgame,
        Connect4Eval::default(),
    );
    bench_one_mcts(
        &mut group,
        "pig-start",
        Pig::default().initial_state(),
        PigEval::default(),
    );
    bench_one_mcts(
        &mut group,
        "threewill-midgame",
        threewill_midgame(),
        ThreeWillEval::default(),
    );
    bench_one_mcts(
        &mut group,
        "hexstrat-midgame",
        hexstrat_state(hexstrat::MIDGAME),
        HexstratEval::default(),
    );
    group.finish();
}

/// The 3Will middle game of the perft bench and `agon bench`.
fn threewill_midgame() -> <ThreeWill as Game>::State {
    let mut s = ThreeWill::default().initial_state();
    play_moves(&mut s, threewill::MIDGAME).expect("a legal line");
    s
}

/// Fixed-depth Star2 on 3Will (chance nodes are not depth steps); throughput is nodes.
fn bench_star2(c: &mut Criterion) {
    let mut group = c.benchmark_group("threewill-star2");
    group.sample_size(10);
    for (name, state) in [
        ("start", ThreeWill::default().initial_state()),
        ("midgame", threewill_midgame()),
    ] {
        let config = ExpectimaxConfig {
            budget: depth_budget(3),
            mode: ChanceMode::Star2,
            ..ExpectimaxConfig::default()
        };
        bench_fresh_search(&mut group, format!("{name}-d3"), &state, || {
            Expectimax::new(ThreeWillEval::default(), config)
        });
    }
    group.finish();
}

/// Fixed-depth Star2 searches of Hexstrat (chance nodes at every reveal); throughput is
/// the search's node count, the same on every run.
fn bench_hexstrat_star2(c: &mut Criterion) {
    let mut group = c.benchmark_group("hexstrat-star2");
    group.sample_size(10);
    for (name, moves, depth) in [("start", "", 4), ("midgame", hexstrat::MIDGAME, 5)] {
        let state = hexstrat_state(moves);
        let config = ExpectimaxConfig {
            budget: depth_budget(depth),
            hash_mb: 16,
            mode: ChanceMode::Star2,
            ..ExpectimaxConfig::default()
        };
        bench_fresh_search(&mut group, format!("{name}-d{depth}"), &state, || {
            Expectimax::new(HexstratEval::default(), config)
        });
    }
    group.finish();
}

criterion_group!(
    benches,
    bench_ab,
    bench_apv_ab,
    bench_romgon_ab,
    bench_network_ab,
    bench_mcts,
    bench_star2,
    bench_hexstrat_star2
);
criterion_main!(benches);
