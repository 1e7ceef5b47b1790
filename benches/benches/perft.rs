//! Move-generation speed: perft from fixed Invector and Hexstrat positions (Hexstrat's
//! reveal outcomes count as plies, as everywhere).
//!
//! Run with `cargo bench -p agon-benches --bench perft`. Each benchmark's throughput is
//! the perft node count, so criterion reports nodes per second directly.

// criterion_group! and criterion_main! generate undocumented items.
#![allow(missing_docs)]

use agon_benches::{
    hexstrat_state, InvectorPosition, HEXSTRAT_MIDGAME, MIDGAME_8X7, START_5X4, START_8X7,
};
use agon_engine::perft::perft;
use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};

/// (position, depth)
const POSITIONS: &[(InvectorPosition, u32)] = &[(START_8X7, 4), (MIDGAME_8X7, 5), (START_5X4, 6)];

fn bench_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("invector-perft");
    group.sample_size(10);
    for &(position, depth) in POSITIONS {
        let state = position.state();
        let name = position.name;
        let nodes = perft(&state, depth);
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(format!("{name}-d{depth}"), |b| {
            b.iter(|| perft(black_box(&state), depth))
        });
    }
    group.finish();
}

fn bench_hexstrat_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("hexstrat-perft");
    group.sample_size(10);
    for (name, moves, depth) in [("start", "", 7), ("midgame", HEXSTRAT_MIDGAME, 6)] {
        let state = hexstrat_state(moves);
        group.throughput(Throughput::Elements(perft(&state, depth)));
        group.bench_function(format!("{name}-d{depth}"), |b| {
            b.iter(|| perft(black_box(&state), depth))
        });
    }
    group.finish();
}

criterion_group!(benches, bench_perft, bench_hexstrat_perft);
criterion_main!(benches);
