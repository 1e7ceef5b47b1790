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

use crate::common;
use crate::naive_connect4;

use agon_engine::games::connect4::Connect4;
use agon_engine::perft::divide;
use agon_engine::Game;
use common::{naive_counts, PerftLine};
use naive_connect4::Naive;

/// The published counts from the start, depths 1 to 8, typed in again here so that an
/// edit of the data file cannot silently change them.
const KNOWN: [u64; 8] = [7, 49, 343, 2401, 16807, 117_649, 823_536, 5_673_234];

/// One count of the data file.
type Line = PerftLine<Connect4>;

/// The naive position of a line; panics if the naive generator refuses its moves.
fn naive(line: &Line) -> Naive {
    Naive::play(&line.moves).unwrap_or_else(|e| panic!("{}: naive: {e}", line.label()))
}

/// Engine and naive divides side by side where they differ (empty if they agree).
fn explain(line: &Line) -> String {
    let state = line.engine_state();
    let engine = naive_counts::engine_divide(&state, line.depth);
    naive_counts::divide_mismatch(&engine, &naive(line).divide(line.depth))
}

/// Lines whose naive count differs from the file's.
fn check_naive(lines: &[Line]) -> Vec<String> {
    naive_counts::check(lines, |l| Ok(naive(l).perft(l.depth)))
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

common::suite::perft_suite! {
    game: Connect4, file: "connect4.perft", sources: ["known", "naive"],
    explain: explain, naive: |l| Ok(naive(l).perft(l.depth)),
    engine_deep: "deep perft: about 35 seconds",
    naive_deep: "naive perft of every line: several minutes",
    fill: "generator of the data file's naive counts: several minutes",
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
