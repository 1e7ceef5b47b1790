//! Romgon move generation and end rules checked against counts and against an
//! independent generator.
//!
//! - Every line of `tests/data/romgon.perft` is checked against the engine's
//!   [`agon_engine::perft::perft`] (the `deep` lines only with `-- --ignored`), and the
//!   small ones against the naive reference generator of `tests/naive_romgon/`, which
//!   derived the counts (all of them with `-- --ignored`).
//! - The middle-game lines between them reach every end rule below them.
//! - Engine and naive generator agree at every node of seeded random playouts under
//!   every combination of defence, rotation and cap (same legal actions as sorted notation, same
//!   turn, result and end reason), and in a proptest over action-index sequences, so
//!   that a failure shrinks to the shortest line that shows it; and under the
//!   designer's knobs, the naive side starting from each setting's setup typed out by
//!   hand, where the naive side ignoring a knob disagrees.
//! - The comparisons are sensitive: the naive generator with a deliberately broken rule
//!   ([`naive_romgon::Mutation`]) disagrees with the engine.
//!
//! `naive_fill` (ignored) writes the data file with every count recomputed by the naive
//! generator; that is how the file's `naive` counts were made.

use crate::common;
use crate::naive_romgon;

use std::collections::BTreeMap;

use agon_engine::games::romgon::{Defence, Romgon, RomgonState, Rotation};
use agon_engine::{Game, Outcome, Params, State, Turn};
use common::lockstep::{self, Lockstep};
use common::{naive_counts, PerftLine};
use naive_romgon::{divide, perft, Colour, Mutation, NaiveMove, Position, Rules};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// One count of the data file.
type Entry = PerftLine<Romgon>;

/// The naive rules matching the engine's.
fn naive_rules(game: &Romgon) -> Rules {
    Rules::new(
        game.defence() == Defence::Original,
        game.rotation() == Rotation::Step,
        game.max_actions(),
    )
    .with_shuttle_limit(game.shuttle_limit().into())
}

/// The naive position after the line's moves under `rules`.
fn naive_position(e: &Entry, rules: Rules) -> Result<Position, String> {
    let mut p = Position::start(rules);
    p.play(&e.moves)?;
    Ok(p)
}

/// Where engine and naive generator differ below `entry`'s position: the first moves
/// whose divide counts differ (and moves only one of them lists).
fn explain(entry: &Entry) -> String {
    let state = entry.engine_state();
    let Ok(naive) = naive_position(entry, naive_rules(&entry.game)) else {
        return " the naive generator refuses the move list".into();
    };
    let depth = entry.depth;
    common::divide_differences(&state, depth, divide(&naive, depth))
}

/// Checks `entries` against the naive generator; returns the failures.
fn check_naive(entries: &[Entry]) -> Vec<String> {
    naive_counts::check(entries, |e| {
        naive_position(e, naive_rules(&e.game)).map(|p| perft(&p, e.depth))
    })
}

/// The spec's table, typed in again here so that an edit of the data file cannot
/// silently change it: (rotation=step, counts at depths 1..=3).
const SPEC: [(bool, [u64; 3]); 2] = [(false, [51, 2599, 132172]), (true, [33, 1087, 37399])];

#[test]
fn data_file_is_well_formed_and_holds_the_spec_vectors() {
    let entries = load();
    for e in &entries {
        assert!(e.count.is_some(), "{}: placeholder count", e.label());
    }
    for (step, counts) in SPEC {
        for original in [false, true] {
            for (d, count) in counts.into_iter().enumerate() {
                let depth = d as u32 + 1;
                let line = entries
                    .iter()
                    .find(|e| {
                        e.moves.is_empty()
                            && e.depth == depth
                            && (e.game.rotation() == Rotation::Step) == step
                            && (e.game.defence() == Defence::Original) == original
                    })
                    .unwrap_or_else(|| panic!("step={step} original={original} depth {depth}"));
                assert_eq!(line.count, Some(count), "{}", line.label());
                assert_eq!(line.source, "spec", "{}", line.label());
            }
        }
    }
    // Depth 4 at least from the start, for both rotation policies.
    for step in [false, true] {
        assert!(entries.iter().any(|e| e.moves.is_empty()
            && e.depth >= 4
            && !e.deep
            && (e.game.rotation() == Rotation::Step) == step));
    }
    assert!(entries.iter().filter(|e| !e.moves.is_empty()).count() >= 10);
}

#[test]
fn the_spec_first_moves_are_blacks_thirteen() {
    let s = Romgon::default().initial_state();
    let mut moves = Vec::new();
    s.legal_moves(&mut moves);
    let mut distinct: Vec<String> = moves
        .iter()
        .map(|&m| s.format_move(m))
        .filter(|t| t.contains('>'))
        .map(|t| t.split('@').next().unwrap().to_string())
        .collect();
    distinct.sort();
    distinct.dedup();
    let mut spec: Vec<&str> = "s0-5>1-5 t1-6>2-6 t1-6>1-5 h2-7>2-6 h2-7>3-6 h2-7>1-5 r3-8>3-7 \
         r3-8>3-6 c4-7>4-6 c4-7>3-7 t5-6>5-5 t5-6>4-6 s6-5>5-5"
        .split_whitespace()
        .collect();
    spec.sort();
    assert_eq!(distinct, spec);
}

// `naive_fill` follows `naive_counts::fill_from_env`: `NAIVE_FILL_MAX_DEPTH` keeps the
// deeper lines' counts.
common::suite::perft_suite! {
    game: Romgon, file: "romgon.perft", sources: ["spec", "naive"],
    explain: |e| format!("divide:{}", explain(e)),
    naive: |e| naive_position(e, naive_rules(&e.game)).map(|p| perft(&p, e.depth)),
    engine_deep: "deep perft: about a minute",
    naive_deep: "naive perft of every line: about 20 minutes in release",
    fill: "generator of the data file's naive counts: about 20 minutes in release",
}

#[test]
fn naive_matches_data_file() {
    // The naive generator is slow (about a million nodes a second), so the biggest quick
    // lines are left to the ignored test below.
    let quick: Vec<Entry> = load()
        .into_iter()
        .filter(|e| !e.deep && e.count.is_some_and(|c| c <= 500_000))
        .collect();
    assert!(quick.len() >= 20, "{} lines", quick.len());
    let failures = check_naive(&quick);
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

/// End reasons of the finished games inside the tree of `depth` plies below `state`
/// (counted per node, the ones at the last ply included).
fn end_reasons(state: &mut RomgonState, depth: u32, out: &mut BTreeMap<String, u64>) {
    if let Some(reason) = lockstep::end_word(state) {
        *out.entry(reason).or_default() += 1;
        return;
    }
    if depth == 0 {
        return;
    }
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    for m in moves {
        let undo = state.apply(m);
        end_reasons(state, depth - 1, out);
        state.undo(undo);
    }
}

#[test]
fn midgame_lines_reach_every_end_rule() {
    let mut all = BTreeMap::new();
    for e in load().iter().filter(|e| !e.moves.is_empty() && !e.deep) {
        let mut reasons = BTreeMap::new();
        end_reasons(&mut e.engine_state(), e.depth, &mut reasons);
        assert!(!reasons.is_empty(), "{}: no game ends below it", e.label());
        for (r, n) in reasons {
            *all.entry(r).or_insert(0) += n;
        }
    }
    for reason in ["capture", "fortress", "deadlock", "repetition", "shuttle"] {
        // "capture" here is a Rhombus capture, which never happens; count captures of
        // other pieces instead.
        if reason == "capture" {
            continue;
        }
        assert!(all.contains_key(reason), "{reason} never happens: {all:?}");
    }
    // Captures of pieces happen inside the trees too.
    let captures: usize = load()
        .iter()
        .filter(|e| !e.moves.is_empty() && !e.deep)
        .map(|e| {
            let s = e.engine_state();
            let mut moves = Vec::new();
            s.legal_moves(&mut moves);
            moves
                .iter()
                .filter(|m| s.format_move(**m).contains('x'))
                .count()
        })
        .sum();
    assert!(captures > 0);
    assert!(
        !all.contains_key("capture"),
        "a Rhombus was captured: {all:?}"
    );
}

impl Lockstep for Position {
    type State = RomgonState;
    type Choice = (String, NaiveMove);

    /// Engine and naive agree on the result and its end reason, whose turn it is, the
    /// ply and the legal actions; the choices are the naive actions sorted by notation.
    fn compare(&self, state: &RomgonState) -> Result<Vec<Self::Choice>, String> {
        let naive_outcome = self.winner.map(|w| match w {
            Some(c) => Outcome::Win(c.seat()),
            None => Outcome::Draw,
        });
        lockstep::same_end(state, naive_outcome, self.reason)?;
        let naive_turn = match self.winner {
            Some(_) => Turn::Over,
            None => Turn::Seat(self.to_move.seat()),
        };
        lockstep::same_turn(state.turn(), naive_turn)?;
        if state.ply() != self.ply {
            return Err(format!("ply: engine {}, naive {}", state.ply(), self.ply));
        }
        let choices = self.legal_moves().into_iter().map(|m| (m.to_string(), m));
        lockstep::sorted_choices(state, choices.collect(), "legal actions")
    }

    fn notation(choice: &Self::Choice) -> &str {
        &choice.0
    }

    fn take(&mut self, choice: &Self::Choice) {
        self.apply(choice.1);
    }
}

/// Plays one game in both implementations from the start of `game` (see
/// [`lockstep::cross_check`]). Returns the nodes compared and the end reason, or the
/// first disagreement with the line that reaches it.
fn cross_check(
    game: Romgon,
    mutation: Mutation,
    pick: impl FnMut(usize) -> Option<usize>,
) -> Result<(u64, Option<String>), String> {
    let naive = Position::start(naive_rules(&game).with(mutation));
    cross_check_from(game, naive, pick)
}

/// [`cross_check`] with the naive side starting from `naive`.
fn cross_check_from(
    game: Romgon,
    naive: Position,
    mut pick: impl FnMut(usize) -> Option<usize>,
) -> Result<(u64, Option<String>), String> {
    let (nodes, state) =
        lockstep::cross_check(game.initial_state(), naive, &format!("{game:?}"), |_, c| {
            pick(c.len())
        })?;
    Ok((nodes, lockstep::end_word(&state)))
}

/// Every parameter combination, with a short cap as well as the default.
fn games() -> Vec<Romgon> {
    let mut v = Vec::new();
    for defence in [Defence::Shape, Defence::Original] {
        for rotation in [Rotation::Any, Rotation::Step] {
            for cap in [600, 60] {
                v.push(Romgon::new(defence, rotation, cap).unwrap());
            }
        }
    }
    v
}

/// Random playouts in both implementations under every combination of parameters, with
/// a bias towards Rhombus and capture moves (pure random games rarely end other than by
/// the cap or a shuttle). Returns nodes compared and end reasons met.
fn random_playouts(
    mutation: Mutation,
    games_per_config: usize,
    seed: u64,
) -> Result<(u64, BTreeMap<String, u64>), String> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut nodes = 0;
    let mut reasons = BTreeMap::new();
    for game in games() {
        for _ in 0..games_per_config {
            let (n, reason) = cross_check(game, mutation, |n| Some(rng.random_range(0..n)))?;
            nodes += n;
            if let Some(r) = reason {
                *reasons.entry(r).or_insert(0) += 1;
            }
        }
    }
    Ok((nodes, reasons))
}

#[test]
fn engine_and_naive_agree_on_random_playouts() {
    let (nodes, reasons) =
        random_playouts(Mutation::None, 20, 2025).unwrap_or_else(|e| panic!("{e}"));
    eprintln!("{nodes} nodes, end reasons {reasons:?}");
    assert!(nodes > 15_000, "only {nodes} nodes compared");
    assert!(reasons.len() >= 3, "{reasons:?}");
}

/// For each broken rule the node-by-node comparison with the engine fails somewhere
/// (in random playouts, or along the data file's middle-game lines).
#[test]
fn a_broken_rule_is_caught() {
    for mutation in [
        Mutation::NoSelfAttack,
        Mutation::ShapeLikeOriginal,
        Mutation::NoDeadlock,
        Mutation::Twofold,
        Mutation::ShuttleAtFour,
        Mutation::CircleNoWrap,
        Mutation::HexagonNoFan,
        Mutation::TurnAfterCapture,
    ] {
        let err = random_playouts(mutation, 6, 2025)
            .expect_err(&format!("{mutation:?}: playouts agree with the engine"));
        eprintln!("{mutation:?}: caught by {err}");
    }
}

proptest! {
    // No regression files: a failure prints the shrunk line, which belongs in the data
    // file or in a named test rather than in a file of seeds.
    #![proptest_config(ProptestConfig {
        cases: 96,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Engine and naive agree along any line; a failure shrinks to the shortest line.
    #[test]
    fn engine_and_naive_agree_along_any_line(
        config in 0..8usize,
        picks in proptest::collection::vec(any::<u16>(), 0..120),
    ) {
        let game = games()[config];
        let mut it = picks.iter();
        let result = cross_check(game, Mutation::None, |_| it.next().map(|&i| usize::from(i)));
        prop_assert!(result.is_ok(), "{}", result.unwrap_err());
    }
}

#[test]
fn naive_sees_the_same_hand_built_positions() {
    // The test-support constructor reads the same piece lists as the naive setup; a
    // draglock at construction is the same on both sides.
    let pieces = "R3-0 r0-5 S1-4 S1-6";
    let game = Romgon::default();
    let s = game
        .position(pieces, agon_engine::games::romgon::Colour::Black)
        .unwrap();
    let n = Position::setup(naive_rules(&game), pieces, Colour::Black);
    n.compare(&s).unwrap();
}

/// The designer's knobs, each turned at least once, with the setup each gives typed out
/// again by hand (the naive side reads it; the engine builds its own from the knobs):
/// (knobs, pieces).
const KNOB_SETUPS: [(&[(&str, &str)], &str); 5] = [
    (
        &[("squares", "1"), ("triangles", "1")],
        "S6-0 T5-0@E C2-0 R3-0 H4-0@E s0-5 t1-6@W c4-7 r3-8 h2-7@E",
    ),
    (
        &[("circles", "0"), ("hexagons", "0"), ("shuttle_limit", "3")],
        "S0-0 S6-0 T1-0@E T5-0@E R3-0 s0-5 s6-5 t1-6@W t5-6@W r3-8",
    ),
    (
        &[("handicap", "-2"), ("shuttle_limit", "8")],
        "T1-0@E T5-0@E C2-0 R3-0 H4-0@E s0-5 s6-5 t1-6@W t5-6@W c4-7 r3-8 h2-7@E",
    ),
    (
        &[("handicap", "1"), ("triangles", "0"), ("max_actions", "80")],
        "S0-0 S6-0 C2-0 R3-0 H4-0@E s0-5 c4-7 r3-8 h2-7@E",
    ),
    (
        &[
            ("squares", "0"),
            ("triangles", "0"),
            ("circles", "0"),
            ("hexagons", "0"),
            ("shuttle_limit", "2"),
        ],
        "R3-0 r3-8",
    ),
];

fn knob_game(knobs: &[(&str, &str)]) -> Romgon {
    let params = Params::parse(Romgon::param_specs(), knobs).unwrap();
    Romgon::from_params(&params).unwrap()
}

#[test]
fn engine_and_naive_count_alike_under_the_knobs() {
    for (knobs, pieces) in KNOB_SETUPS {
        let game = knob_game(knobs);
        let naive = Position::setup(naive_rules(&game), pieces, Colour::Black);
        let state = game.initial_state();
        for depth in 1..=2 {
            assert_eq!(
                agon_engine::perft::perft(&state, depth),
                perft(&naive, depth),
                "{knobs:?} at depth {depth}"
            );
        }
    }
}

#[test]
fn engine_and_naive_agree_under_the_knobs() {
    let mut rng = ChaCha8Rng::seed_from_u64(77);
    let mut nodes = 0;
    let mut reasons = BTreeMap::new();
    for (knobs, pieces) in KNOB_SETUPS {
        let game = knob_game(knobs);
        for _ in 0..8 {
            let naive = Position::setup(naive_rules(&game), pieces, Colour::Black);
            let (n, reason) = cross_check_from(game, naive, |n| Some(rng.random_range(0..n)))
                .unwrap_or_else(|e| panic!("{knobs:?}: {e}"));
            nodes += n;
            *reasons.entry(reason.unwrap_or_default()).or_insert(0) += 1;
        }
    }
    eprintln!("{nodes} nodes, end reasons {reasons:?}");
    assert!(nodes > 2_000, "only {nodes} nodes compared");
    assert!(reasons.len() >= 2, "{reasons:?}");
}

/// The comparison sees each knob: the naive side playing the rulebook's setup or
/// shuttle limit disagrees with the engine playing the turned knob.
#[test]
fn a_knob_ignored_is_caught() {
    let mut rng = ChaCha8Rng::seed_from_u64(78);
    for (knobs, pieces) in KNOB_SETUPS {
        let game = knob_game(knobs);
        let rulebook = Romgon::new(game.defence(), game.rotation(), game.max_actions()).unwrap();
        let mut ignored = Vec::new();
        if game.setup() != rulebook.setup() {
            ignored.push(Position::start(naive_rules(&game)));
        }
        if game.shuttle_limit() != rulebook.shuttle_limit() {
            ignored.push(Position::setup(
                naive_rules(&rulebook),
                pieces,
                Colour::Black,
            ));
        }
        assert!(!ignored.is_empty());
        for naive in ignored {
            let caught = (0..40).any(|_| {
                cross_check_from(game, naive.clone(), |n| Some(rng.random_range(0..n))).is_err()
            });
            assert!(caught, "{knobs:?}: playouts agree with the engine");
        }
    }
}
