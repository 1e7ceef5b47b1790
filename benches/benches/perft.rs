//! Move-generation speed: perft from fixed Invector positions.
//!
//! Run with `cargo bench -p agon-benches --bench perft`. Each benchmark's throughput is
//! the perft node count, so criterion reports nodes per second directly.

// criterion_group! and criterion_main! generate undocumented items.
#![allow(missing_docs)]

use agon_engine::games::invector::Invector;
use agon_engine::perft::perft;
use agon_engine::{play_moves, Game};
use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};

/// (name, width, height, moves from the start, depth)
const POSITIONS: &[(&str, usize, usize, &str, u32)] = &[
    ("8x7-start", 8, 7, "", 4),
    ("8x7-midgame", 8, 7, "d4xd5 g4xg5 c5xc6 b5xb6 g1xh1 b1xa1 b2xb3 g2xf2 a3xa4 f7xf6 c7xb7 g6xh6 c1xd1 h3xh4 d2xe2 c2-d2", 5),
    ("5x4-start", 5, 4, "", 6),
];

fn bench_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("invector-perft");
    group.sample_size(10);
    for &(name, w, h, moves, depth) in POSITIONS {
        let mut state = Invector::new(w, h, true)
            .expect("valid size")
            .initial_state();
        play_moves(&mut state, moves).expect("legal line");
        let nodes = perft(&state, depth);
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(format!("{name}-d{depth}"), |b| {
            b.iter(|| perft(black_box(&state), depth))
        });
    }
    group.finish();
}

criterion_group!(benches, bench_perft);
criterion_main!(benches);
