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
//! `NAIVE_FILL_OUT=/tmp/threewill.perft cargo test -p agon-engine --test engine -- --ignored threewill_perft::naive_fill`.

use crate::common;
use crate::naive_threewill;

use agon_engine::games::threewill::ThreeWill;
use agon_engine::perft::perft;
use agon_engine::{Game, State, Turn};
use common::lockstep::{self, Lockstep};
use common::tree::Tree;
use common::{naive_counts, PerftLine};
use naive_threewill::Naive;
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

type Line = PerftLine<ThreeWill>;

/// The model for a data-file line: its rules, then its moves.
fn naive_of(line: &Line) -> Naive {
    Naive::new(line.game.max_turns())
        .after(&line.moves)
        .unwrap_or_else(|e| panic!("{}: naive: {e}", line.label()))
}

impl Tree for Naive {
    fn children(&self) -> Vec<(String, Naive)> {
        Naive::children(self)
    }
}

/// Engine and model divides, each sorted, side by side where they differ (empty if
/// they agree).
fn explain(line: &Line) -> String {
    let state = line.engine_state();
    let mut engine = naive_counts::engine_divide(&state, line.depth);
    engine.sort();
    let mut reference = naive_of(line).divide(line.depth);
    reference.sort();
    naive_counts::divide_mismatch(&engine, &reference)
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

common::suite::perft_suite! {
    game: ThreeWill, file: "threewill.perft", sources: ["spec", "naive"],
    explain: explain, naive: |l| Ok(naive_of(l).count(l.depth)),
    engine_deep: "deep perft lines",
    fill: "generator of the data file's naive counts",
}

#[test]
fn naive_matches_data_file() {
    let quick: Vec<Line> = load().into_iter().filter(|l| !l.deep).collect();
    let failures = naive_counts::check(&quick, |l| Ok(naive_of(l).count(l.depth)));
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

impl Lockstep for Naive {
    type State = <ThreeWill as Game>::State;
    type Choice = (String, Naive);

    /// Engine and model agree on the decisions or outcomes (as sorted notation) and the
    /// result; the choices are the model's children sorted by notation.
    fn compare(&self, s: &Self::State) -> Result<Vec<Self::Choice>, String> {
        let children = lockstep::sorted_choices(s, Naive::children(self), "moves")?;
        let result = s.outcome().map(|o| match o {
            agon_engine::Outcome::Win(w) => Some(w),
            agon_engine::Outcome::Draw => None,
        });
        if result != self.result() {
            return Err(format!(
                "result: engine {result:?}, naive {:?}",
                self.result()
            ));
        }
        Ok(children)
    }

    fn notation(choice: &Self::Choice) -> &str {
        &choice.0
    }

    fn take(&mut self, choice: &Self::Choice) {
        *self = choice.1.clone();
    }
}

/// Plays one line from the start under `max_turns` (see [`lockstep::cross_check`]),
/// comparing engine and model at every node.
fn cross_check(max_turns: u32, mut pick: impl FnMut(usize) -> Option<usize>) -> Result<(), String> {
    let s = ThreeWill::new(max_turns).unwrap().initial_state();
    let label = format!("max_turns={max_turns}");
    lockstep::cross_check(s, Naive::new(max_turns), &label, |_, c| pick(c.len())).map(|_| ())
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
