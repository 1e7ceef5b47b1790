//! Connect Four move generation checked against counts and an independent generator.
//!
//! - Every line of `tests/data/connect4.perft` is checked against the engine's
//!   [`agon_engine::perft::perft`] (the `deep` lines only with `-- --ignored`), and
//!   against the naive generator of `tests/naive_connect4/`, which derived the `naive`
//!   counts and reproduces the published ones (depths 1 to 8 from the start).
//! - Engine and naive generator give the same divide (count per first move) on every
//!   midgame line, and mirror-image first moves have equal subtrees.
//!
//! `naive_fill` (ignored) writes the data file with every count recomputed by the naive
//! generator; that is how the file's `naive` counts were made.

mod common;
mod naive_connect4;

use std::time::Instant;

use agon_engine::games::connect4::Connect4;
use agon_engine::perft::divide;
use agon_engine::{Game, State};
use common::PerftLine;
use naive_connect4::Naive;

const DATA: &str = include_str!("data/connect4.perft");

/// The published counts from the start, depths 1 to 8, typed in again here so that an
/// edit of the data file cannot silently change them.
const KNOWN: [u64; 8] = [7, 49, 343, 2401, 16807, 117_649, 823_536, 5_673_234];

/// One count of the data file.
type Line = PerftLine<Connect4>;

fn load() -> Vec<Line> {
    common::read("connect4.perft", DATA, &["known", "naive"])
}

/// The naive position of a line; panics if the naive generator refuses its moves.
fn naive(line: &Line) -> Naive {
    Naive::play(&line.moves).unwrap_or_else(|e| panic!("{}: naive: {e}", line.label()))
}

/// Engine and naive divides side by side where they differ (empty if they agree).
fn explain(line: &Line) -> String {
    let state = line.engine_state();
    let engine: Vec<(String, u64)> = divide(&state, line.depth)
        .into_iter()
        .map(|(m, n)| (state.format_move(m), n))
        .collect();
    let reference = naive(line).divide(line.depth);
    if engine == reference {
        String::new()
    } else {
        format!("divide: engine {engine:?}, naive {reference:?}")
    }
}

/// Lines whose naive count differs from the file's.
fn check_naive(lines: &[Line]) -> Vec<String> {
    lines
        .iter()
        .filter_map(|l| {
            let got = naive(l).perft(l.depth);
            (got != l.expected())
                .then(|| format!("{}: naive {got}, file {}", l.label(), l.expected()))
        })
        .collect()
}

#[test]
fn data_file_is_well_formed_and_covers_what_is_required() {
    let lines = load();
    assert!(lines.iter().all(|l| l.count.is_some()), "a ? placeholder");
    for (depth, known) in (1..).zip(KNOWN) {
        let line = lines
            .iter()
            .find(|l| l.moves.is_empty() && l.depth == depth)
            .unwrap_or_else(|| panic!("depth {depth} from the start is missing"));
        assert_eq!(line.count, Some(known), "{}", line.label());
        assert_eq!((line.source.as_str(), line.deep), ("known", false));
    }
    let midgame = lines.iter().filter(|l| !l.moves.is_empty()).count();
    assert!(midgame >= 8, "{midgame} midgame lines");
    assert!(lines.iter().any(|l| l.deep), "no deep tier");
    // Some line counts games ending within its depth (fewer paths than moves^depth):
    // the end of a game is exercised, not only drops.
    assert!(lines.iter().any(|l| l.count == Some(0) && l.depth > 0));
}

#[test]
fn engine_matches_data_file() {
    common::assert_engine_tier(&load(), false, explain);
}

#[test]
#[ignore = "deep perft: about 35 seconds"]
fn engine_matches_data_file_deep() {
    common::assert_engine_tier(&load(), true, explain);
}

#[test]
fn naive_matches_data_file() {
    // The naive generator is slow: the largest quick counts are left to the ignored
    // test below.
    let quick: Vec<Line> = load()
        .into_iter()
        .filter(|l| !l.deep && l.expected() <= 1_000_000)
        .collect();
    assert!(quick.len() >= 15, "{} lines", quick.len());
    let failures = check_naive(&quick);
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
#[ignore = "naive perft of every line: several minutes"]
fn naive_matches_data_file_deep() {
    for l in &load() {
        let t = Instant::now();
        let failures = check_naive(std::slice::from_ref(l));
        assert!(failures.is_empty(), "\n{}", failures.join("\n"));
        eprintln!("{} ok in {:.1?}", l.label(), t.elapsed());
    }
}

#[test]
fn engine_and_naive_agree_on_divides() {
    let mut compared = 0;
    for l in load() {
        if l.moves.is_empty() || l.deep || l.depth == 0 {
            continue;
        }
        assert_eq!(explain(&l), "", "{}", l.label());
        compared += 1;
    }
    assert!(compared >= 8, "{compared} divides compared");
}

#[test]
fn mirror_image_first_moves_have_equal_subtrees() {
    let start = Naive::default();
    let d = divide(&Connect4.initial_state(), 5);
    assert_eq!(d.iter().map(|&(_, n)| n).sum::<u64>(), KNOWN[4]);
    for i in 0..3 {
        assert_eq!(d[i].1, d[6 - i].1, "columns {i} and {}", 6 - i);
    }
    assert_eq!(
        start.divide(5).iter().map(|(_, n)| n).sum::<u64>(),
        KNOWN[4]
    );
}

/// Writes the data file with every count recomputed by the naive generator (the other
/// fields unchanged) to the path in the environment variable `NAIVE_FILL_OUT`; a `?`
/// count is how a new line asks for its count, and a recorded count that the naive
/// generator does not reproduce stops it.
#[test]
#[ignore = "generator of the data file's naive counts: several minutes"]
fn naive_fill() {
    let path = std::env::var("NAIVE_FILL_OUT")
        .expect("set NAIVE_FILL_OUT to the path of the file to write");
    let out = common::refill(DATA, &load(), |l| {
        let t = Instant::now();
        let n = naive(l).perft(l.depth);
        eprintln!("{} = {n} in {:.1?}", l.label(), t.elapsed());
        n
    });
    std::fs::write(&path, out).unwrap();
}
