//! Move-generation speed: perft from fixed Invector, APV, Romgon, 3Will and Hexstrat
//! positions.
//! Move-generation speed: perft from fixed Invector and 3Will positions.
//!
//! Run with `cargo bench -p agon-benches --bench perft`. Each benchmark's throughput is
//! the perft node count, so criterion reports nodes per second directly.

// criterion_group! and criterion_main! generate undocumented items.
#![allow(missing_docs)]

use agon_benches::hexstrat_state;
use agon_benches::{
    DefaultRulesPosition, InvectorPosition, APV_MIDGAME, APV_START, MIDGAME_8X7, ROMGON_MIDGAME,
    ROMGON_START, START_5X4, START_8X7,
};
use agon_engine::games::hexstrat;
use agon_engine::games::threewill::{self, ThreeWill};
use agon_engine::perft::perft;
use agon_engine::{play_moves, Game};
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

/// Perft of `positions` (position, depth) of a game under its default rules, in the
/// criterion group `group_name`; throughput is leaves.
fn bench_default_rules_perft<G: Game + Default>(
    c: &mut Criterion,
    group_name: &str,
    positions: &[(DefaultRulesPosition<G>, u32)],
) {
    let mut group = c.benchmark_group(group_name);
    group.sample_size(10);
    for &(position, depth) in positions {
        let state = position.state();
        let nodes = perft(&state, depth);
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(format!("{}-d{depth}", position.name), |b| {
            b.iter(|| perft(black_box(&state), depth))
        });
    }
    group.finish();
}

/// 3Will perft: every decision and chance outcome is a node, as in the data file.
fn bench_threewill_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("threewill-perft");
    group.sample_size(10);
    let start = ThreeWill::default().initial_state();
    let mut midgame = start;
    play_moves(&mut midgame, threewill::MIDGAME).expect("a legal line");
    for (name, state, depth) in [("start", start, 6), ("midgame", midgame, 6)] {
        let nodes = perft(&state, depth);
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(format!("{name}-d{depth}"), |b| {
            b.iter(|| perft(black_box(&state), depth))
        });
    }
    group.finish();
}

/// APV's perft counts order decisions as plies, so depth 5 from the start is two and a
/// half turns.
fn bench_apv_perft(c: &mut Criterion) {
    bench_default_rules_perft(c, "apv-perft", &[(APV_START, 5), (APV_MIDGAME, 5)]);
}

/// Romgon's trees grow about fifty-fold a ply.
fn bench_romgon_perft(c: &mut Criterion) {
    bench_default_rules_perft(c, "romgon-perft", &[(ROMGON_START, 4), (ROMGON_MIDGAME, 4)]);
}

/// Hexstrat perft: reveal outcomes count as plies, as everywhere.
fn bench_hexstrat_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("hexstrat-perft");
    group.sample_size(10);
    for (name, moves, depth) in [("start", "", 7), ("midgame", hexstrat::MIDGAME, 6)] {
        let state = hexstrat_state(moves);
        group.throughput(Throughput::Elements(perft(&state, depth)));
        group.bench_function(format!("{name}-d{depth}"), |b| {
            b.iter(|| perft(black_box(&state), depth))
        });
    }
    group.finish();
}

criterion_group!(
    benches,
    bench_perft,
    bench_apv_perft,
    bench_romgon_perft,
    bench_threewill_perft,
    bench_hexstrat_perft
);
criterion_main!(benches);
