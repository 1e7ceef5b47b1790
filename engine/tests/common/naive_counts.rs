//! A naive reference model's counts against a perft data file: the per-line check,
//! the one-line-at-a-time deep check, the generator that fills the file in, and the
//! engine's and the model's divides side by side.

use std::time::Instant;

use agon_engine::perft::divide;
use agon_engine::{Game, State};

use super::PerftLine;

/// The lines of `lines` whose count by `count` (the model's perft of the line, or why
/// the model cannot reach the line's position) differs from the file's, one message each.
pub fn check<G: Game>(
    lines: &[PerftLine<G>],
    count: impl Fn(&PerftLine<G>) -> Result<u64, String>,
) -> Vec<String> {
    let mut failures = Vec::new();
    for l in lines {
        let expected = l.expected();
        match count(l) {
            Ok(got) if got == expected => {}
            Ok(got) => failures.push(format!("{}: naive {got}, file {expected}", l.label())),
            Err(why) => failures.push(format!("{}: {why}", l.label())),
        }
    }
    failures
}

/// Checks every line of `lines` with [`check`], one at a time, stopping at the first
/// failure and printing each line's time as it passes (for the slow, ignored runs).
pub fn assert_each<G: Game>(
    lines: &[PerftLine<G>],
    count: impl Fn(&PerftLine<G>) -> Result<u64, String>,
) {
    for l in lines {
        let t = Instant::now();
        let failures = check(std::slice::from_ref(l), &count);
        assert!(failures.is_empty(), "\n{}", failures.join("\n"));
        eprintln!("{} ok in {:.1?}", l.label(), t.elapsed());
    }
}

/// Writes the data file `text` with every count of `lines` recomputed by `count` (the
/// other fields unchanged) to the path in the environment variable `NAIVE_FILL_OUT`; a
/// `?` count is how a new line asks for its count, and a recorded count that `count`
/// does not reproduce, or a line it cannot count, stops it. With `NAIVE_FILL_MISSING`
/// set only the `?` lines are computed, and with `NAIVE_FILL_MAX_DEPTH` set the deeper
/// lines keep their counts.
pub fn fill_from_env<G: Game>(
    text: &str,
    lines: &[PerftLine<G>],
    count: impl Fn(&PerftLine<G>) -> Result<u64, String>,
) {
    let path = std::env::var("NAIVE_FILL_OUT")
        .expect("set NAIVE_FILL_OUT to the path of the file to write");
    let missing_only = std::env::var("NAIVE_FILL_MISSING").is_ok();
    let max_depth: u32 = std::env::var("NAIVE_FILL_MAX_DEPTH")
        .ok()
        .map_or(u32::MAX, |d| d.parse().expect("a depth"));
    let chosen: Vec<PerftLine<G>> = lines
        .iter()
        .filter(|l| l.depth <= max_depth)
        .cloned()
        .collect();
    let out = super::refill(text, &chosen, |l| {
        if let (true, Some(c)) = (missing_only, l.count) {
            return c;
        }
        let t = Instant::now();
        let n = count(l).unwrap_or_else(|why| panic!("{}: {why}", l.label()));
        eprintln!("{} = {n} in {:.1?}", l.label(), t.elapsed());
        n
    });
    std::fs::write(&path, out).unwrap();
}

/// The engine's divide of `state` at `depth`, each move in its notation, in the
/// engine's order.
pub fn engine_divide<S: State>(state: &S, depth: u32) -> Vec<(String, u64)> {
    divide(state, depth)
        .into_iter()
        .map(|(m, n)| (state.format_move(m), n))
        .collect()
}

/// The two divides side by side where they differ, in the order given (empty if they
/// are equal).
pub fn divide_mismatch(engine: &[(String, u64)], naive: &[(String, u64)]) -> String {
    if engine == naive {
        String::new()
    } else {
        format!("divide: engine {engine:?}, naive {naive:?}")
    }
}
