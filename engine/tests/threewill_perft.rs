//! 3Will move generation checked against counts and against an independent model.
//!
//! - Every line of `tests/data/threewill.perft` is checked against the engine's
//!   [`agon_engine::perft::perft`] (the `deep` lines only with `-- --ignored`) and
//!   against the naive model of `tests/naive_threewill/`, which derived the `naive`
//!   counts; the `spec` counts are the rules' test vectors. Every decision, roll, throw
//!   and reveal is one ply; chance weights are not counted.
//! - Engine and model agree at every node of seeded random playouts (same decisions or
//!   outcomes as sorted notation, same seat to move, same result), and along any line
//!   of a proptest over move indices, so a failure shrinks to the shortest line.
//!
//! `naive_fill` (ignored) writes the data file with every count recomputed by the model:
//! `NAIVE_FILL_OUT=/tmp/threewill.perft cargo test -p agon-engine --test threewill_perft -- --ignored naive_fill`.

mod common;
mod naive_threewill;

use agon_engine::games::threewill::ThreeWill;
use agon_engine::perft::{divide, perft};
use agon_engine::{Game, State, Turn};
use common::PerftLine;
use naive_threewill::Naive;
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const DATA: &str = include_str!("data/threewill.perft");

type Line = PerftLine<ThreeWill>;

fn load() -> Vec<Line> {
    common::read("threewill.perft", DATA, &["spec", "naive"])
}

fn naive_of(line: &Line) -> Naive {
    Naive::new(line.game.max_turns())
        .play(&line.moves)
        .unwrap_or_else(|e| panic!("{}: naive: {e}", line.label()))
}

fn naive_divide(n: &Naive, depth: u32) -> Vec<(String, u64)> {
    let mut v: Vec<(String, u64)> = n
        .children()
        .into_iter()
        .map(|(m, c)| (m, c.count(depth.saturating_sub(1))))
        .collect();
    v.sort();
    v
}

/// Engine and model divides side by side where they differ (empty if they agree).
fn explain(line: &Line) -> String {
    let state = line.engine_state();
    let mut engine: Vec<(String, u64)> = divide(&state, line.depth)
        .into_iter()
        .map(|(m, n)| (state.format_move(m), n))
        .collect();
    engine.sort();
    let reference = naive_divide(&naive_of(line), line.depth);
    if engine == reference {
        String::new()
    } else {
        format!("divide: engine {engine:?}, naive {reference:?}")
    }
}

#[test]
fn spec_vectors_are_in_the_file() {
    let spec: Vec<(u32, u64)> = load()
        .iter()
        .filter(|l| l.source == "spec")
        .map(|l| (l.depth, l.expected()))
        .collect();
    assert_eq!(spec, [(1, 6), (2, 60), (3, 304), (4, 2928)]);
}

#[test]
fn engine_matches_data_file() {
    common::assert_engine_tier(&load(), false, explain);
}

#[test]
#[ignore = "deep perft lines"]
fn engine_matches_data_file_deep() {
    common::assert_engine_tier(&load(), true, explain);
}

#[test]
fn naive_matches_data_file() {
    let mut failures = Vec::new();
    for l in load().iter().filter(|l| !l.deep) {
        let got = naive_of(l).count(l.depth);
        if got != l.expected() {
            failures.push(format!("{}: naive {got}, file {}", l.label(), l.expected()));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

/// Compares engine and model at one node; `Err` says how they differ.
fn compare(s: &<ThreeWill as Game>::State, n: &Naive) -> Result<(), String> {
    let mut engine: Vec<String> = Vec::new();
    match s.turn() {
        Turn::Chance => {
            let mut o = Vec::new();
            s.chance_outcomes(&mut o);
            engine.extend(o.iter().map(|&(m, _)| s.format_move(m)));
        }
        _ => {
            let mut v = Vec::new();
            s.legal_moves(&mut v);
            engine.extend(v.iter().map(|&m| s.format_move(m)));
        }
    }
    engine.sort();
    let mut naive: Vec<String> = n.children().into_iter().map(|(m, _)| m).collect();
    naive.sort();
    if engine != naive {
        return Err(format!("moves: engine {engine:?}, naive {naive:?}"));
    }
    let result = s.outcome().map(|o| match o {
        agon_engine::Outcome::Win(w) => Some(w),
        agon_engine::Outcome::Draw => None,
    });
    if result != n.result() {
        return Err(format!("result: engine {result:?}, naive {:?}", n.result()));
    }
    Ok(())
}

/// Plays one line choosing the `pick(len)`-th child at each node (or until `pick`
/// returns `None` or the game ends), comparing engine and model at every node.
fn cross_check(max_turns: u32, mut pick: impl FnMut(usize) -> Option<usize>) -> Result<(), String> {
    let mut s = ThreeWill::new(max_turns).unwrap().initial_state();
    let mut n = Naive::new(max_turns);
    let mut line: Vec<String> = Vec::new();
    loop {
        compare(&s, &n).map_err(|e| format!("after [{}]: {e}", line.join(" ")))?;
        let mut children = n.children();
        if children.is_empty() {
            return Ok(());
        }
        children.sort_by(|a, b| a.0.cmp(&b.0));
        let Some(i) = pick(children.len()) else {
            return Ok(());
        };
        let (text, next) = children.swap_remove(i % children.len());
        let m = s.parse_move(&text).map_err(|e| e.to_string())?;
        s.apply(m);
        n = next;
        line.push(text);
    }
}

#[test]
fn engine_and_naive_agree_on_random_playouts() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for game in 0..40 {
        // Short caps end some games by the cap, long ones by a victory.
        let cap = if game % 4 == 0 { 12 } else { 400 };
        cross_check(cap, |len| Some(rng.random_range(0..len)))
            .unwrap_or_else(|e| panic!("game {game}: {e}"));
    }
}

#[test]
fn engine_and_naive_agree_on_divides() {
    for l in load().iter().filter(|l| !l.deep && l.depth > 0) {
        assert_eq!(explain(l), "", "{}", l.label());
    }
}

#[test]
fn perft_zero_is_one() {
    assert_eq!(perft(&ThreeWill::default().initial_state(), 0), 1);
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 64,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Engine and model agree along any line; a failure shrinks to the shortest line.
    #[test]
    fn engine_and_naive_agree_along_any_line(
        picks in proptest::collection::vec(any::<u16>(), 0..400),
    ) {
        let mut it = picks.iter();
        let result = cross_check(400, |_| it.next().map(|&i| usize::from(i)));
        prop_assert!(result.is_ok(), "{}", result.unwrap_err());
    }
}

/// Writes the data file with every count recomputed by the model to `NAIVE_FILL_OUT`.
#[test]
#[ignore = "generator of the data file's naive counts"]
fn naive_fill() {
    let path = std::env::var("NAIVE_FILL_OUT")
        .expect("set NAIVE_FILL_OUT to the path of the file to write");
    let out = common::refill(DATA, &load(), |l| {
        let n = naive_of(l).count(l.depth);
        eprintln!("{} = {n}", l.label());
        n
    });
    std::fs::write(&path, out).unwrap();
}

/// What happens somewhere in a subtree: a `free`, a leap, an ejection (a hit onto a
/// two-agent stack), a challenge pick.
#[derive(Default, Debug)]
struct Seen {
    free: bool,
    leap: bool,
    ejection: bool,
    pick: bool,
}

fn walk(s: &<ThreeWill as Game>::State, depth: u32, seen: &mut Seen) {
    use agon_engine::games::threewill::{Phase, StepKind, ThreeWillMove};
    if depth == 0 {
        return;
    }
    let mut moves: Vec<ThreeWillMove> = Vec::new();
    match s.turn() {
        Turn::Over => return,
        Turn::Chance => {
            let mut o = Vec::new();
            s.chance_outcomes(&mut o);
            moves.extend(o.iter().map(|&(m, _)| m));
        }
        Turn::Seat(_) => s.legal_moves(&mut moves),
    }
    for m in moves {
        match (s.phase(), m) {
            (_, ThreeWillMove::Free) => seen.free = true,
            (
                _,
                ThreeWillMove::Step {
                    kind: StepKind::Leap,
                    ..
                },
            ) => seen.leap = true,
            (Phase::Throw { to, .. }, ThreeWillMove::Hit) if s.board().held(to) != 0 => {
                seen.ejection = true
            }
            (_, ThreeWillMove::Pick { .. }) => seen.pick = true,
            _ => {}
        }
        let mut c = *s;
        c.apply(m);
        walk(&c, depth - 1, seen);
    }
}

#[test]
fn mid_game_lines_reach_free_operations_leaps_ejections_and_a_challenge() {
    let mut all = Seen::default();
    for l in load().iter().filter(|l| !l.moves.is_empty()) {
        walk(&l.engine_state(), l.depth, &mut all);
    }
    assert!(all.free && all.leap && all.ejection && all.pick, "{all:?}");
}
