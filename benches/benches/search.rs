//! Alpha-beta speed: fixed-depth `ab` searches from fixed Invector positions.
//!
//! Run with `cargo bench -p agon-benches --bench search`. Each benchmark's throughput
//! is the search's node count (identical on every run: the search is deterministic at a
//! fixed depth), so criterion reports nodes per second directly. A fresh agent (and so
//! an empty table) is built for every search.

// criterion_group! and criterion_main! generate undocumented items.
#![allow(missing_docs)]

use agon_benches::{InvectorPosition, MIDGAME_8X7, START_5X4, START_8X7};
use agon_engine::games::invector::InvectorEval;
use agon_search::alphabeta::{AlphaBeta, AlphaBetaConfig};
use agon_search::{Agent, AgentRng, Budget};
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

criterion_group!(benches, bench_ab);
criterion_main!(benches);
