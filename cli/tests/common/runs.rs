//! Run folders the tests build and compare: a quick tournament, a copy of it stopped
//! midway, and a small balance study.

use std::path::Path;
use std::process::Output;

use super::{agon, assert_same_files, small_tournament, text};

/// A quick 12-game tournament (three agents, 4 games per pairing) into `out`, on two
/// threads.
pub fn quick(out: &str, extra: &[&str]) -> Output {
    agon(&small_tournament(
        out,
        &[&["--threads", "2"], extra].concat(),
    ))
}

/// The bytes of `path`, or a panic naming it.
pub fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The lines of the text file `path`.
pub fn lines(path: &Path) -> Vec<String> {
    String::from_utf8(read(path))
        .unwrap()
        .lines()
        .map(String::from)
        .collect()
}

/// Copies the run folder `from` to `to`, keeping the header and first `games` rows of
/// games.csv and every timing row, without summary.csv: as a run stopped after `games`
/// games whose timings.csv ran ahead.
pub fn stopped_copy(from: &Path, to: &Path, games: usize) {
    std::fs::create_dir_all(to).unwrap();
    for file in ["meta.csv", "timings.csv"] {
        std::fs::copy(from.join(file), to.join(file)).unwrap();
    }
    let kept: String = lines(&from.join("games.csv"))[..=games]
        .iter()
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(to.join("games.csv"), kept).unwrap();
}

/// The game-index column of a timings.csv.
fn timing_games(path: &Path) -> Vec<String> {
    lines(path)
        .iter()
        .map(|l| l.split(',').next().unwrap().to_string())
        .collect()
}

/// Asserts that `dir` holds the same games.csv and summary.csv as `reference`, and a
/// timings.csv with a row for the same games in the same order.
pub fn assert_same_run(dir: &Path, reference: &Path) {
    assert_same_files(dir, reference, &["games.csv", "summary.csv"]);
    assert_eq!(
        timing_games(&dir.join("timings.csv")),
        timing_games(&reference.join("timings.csv"))
    );
}

/// The small study of these tests, without its output folder: Invector 4×3 (pie rule
/// on) and its variant without the pie rule, random against greedy, 8 games a run,
/// seed 3.
pub const STUDY_ARGS: [&str; 12] = [
    "balance",
    "--game",
    "invector:width=4,height=3",
    "--agents",
    "random",
    "greedy",
    "--variant",
    "pie=false",
    "--games",
    "8",
    "--seed",
    "3",
];

/// The run folders of [`study`], in the order played.
pub const STUDY_RUNS: [&str; 6] = [
    "base/A1-self",
    "base/A2-self",
    "base/A2-vs-A1",
    "variant-1/A1-self",
    "variant-1/A2-self",
    "variant-1/A2-vs-A1",
];

/// [`STUDY_ARGS`] into `out`, then `extra`.
pub fn study(out: &Path, extra: &[&str]) -> Output {
    agon(&[&STUDY_ARGS[..], &["--out", text(out)], extra].concat())
}
