//! Alpha-beta speed: fixed-depth `ab` searches from fixed Invector positions.
//!
//! Run with `cargo bench -p agon-benches --bench search`. Each benchmark's throughput
//! is the search's node count (identical on every run: the search is deterministic at a
//! fixed depth), so criterion reports nodes per second directly. A fresh agent (and so
//! an empty table) is built for every search.

// criterion_group! and criterion_main! generate undocumented items.
#![allow(missing_docs)]

use agon_engine::games::invector::{Invector, InvectorEval};
use agon_engine::{play_moves, Game};
use agon_search::alphabeta::{AlphaBeta, AlphaBetaConfig};
use agon_search::{Agent, AgentRng, Budget};
use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use rand::SeedableRng;

/// (name, width, height, moves from the start, depth)
const POSITIONS: &[(&str, usize, usize, &str, u32)] = &[
    ("8x7-start", 8, 7, "", 5),
    (
        "8x7-midgame",
        8,
        7,
        "d4xd5 g4xg5 c5xc6 b5xb6 g1xh1 b1xa1 b2xb3 g2xf2 a3xa4 f7xf6 c7xb7 g6xh6 c1xd1 h3xh4 d2xe2 c2-d2",
        6,
    ),
    ("5x4-start", 5, 4, "", 9),
];

fn bench_ab(c: &mut Criterion) {
    let mut group = c.benchmark_group("invector-ab");
    group.sample_size(10);
    for &(name, w, h, moves, depth) in POSITIONS {
        let mut state = Invector::new(w, h, true)
            .expect("valid size")
            .initial_state();
        play_moves(&mut state, moves).expect("legal line");
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

criterion_group!(benches, bench_ab);
criterion_main!(benches);
