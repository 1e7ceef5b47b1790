//! Move-generation speed: perft from fixed Invector and APV positions.
//!
//! Run with `cargo bench -p agon-benches --bench perft`. Each benchmark's throughput is
//! the perft node count, so criterion reports nodes per second directly.

// criterion_group! and criterion_main! generate undocumented items.
#![allow(missing_docs)]

use agon_benches::{
    ApvPosition, InvectorPosition, APV_MIDGAME, APV_START, MIDGAME_8X7, START_5X4, START_8X7,
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

/// (position, depth): APV's perft counts order decisions as plies, so depth 5 from the
/// start is two and a half turns.
const APV_POSITIONS: &[(ApvPosition, u32)] = &[(APV_START, 5), (APV_MIDGAME, 5)];

fn bench_apv_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("apv-perft");
    group.sample_size(10);
    for &(position, depth) in APV_POSITIONS {
        let state = position.state();
        let nodes = perft(&state, depth);
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(format!("{}-d{depth}", position.name), |b| {
            b.iter(|| perft(black_box(&state), depth))
        });
    }
    group.finish();
}

criterion_group!(benches, bench_perft, bench_apv_perft);
criterion_main!(benches);
