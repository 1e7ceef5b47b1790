//! Invector move generation checked against counts and against an independent generator.
//!
//! - Every line of `tests/data/invector.perft` is checked against the engine's
//!   [`agon_engine::perft::perft`] (the `deep` lines only with `-- --ignored`), and against
//!   the naive reference generator of `tests/naive_invector/`, which derived the counts.
//! - The naive generator reproduces the rules spec's test vectors.
//! - Engine and naive generator agree at every node of seeded random playouts on many
//!   board sizes (same legal moves as sorted notation, same turn, winner and sides), and
//!   in a proptest over move-index sequences, so that a failure shrinks to the shortest
//!   line that shows it.
//! - The comparisons are sensitive: the naive generator with a deliberately broken rule
//!   ([`naive_invector::Mutation`]) disagrees with the data file and with the engine.
//!
//! `naive_fill` (ignored) writes the data file with every count recomputed by the naive
//! generator; that is how the file's `naive` counts were made.

use crate::common;
use crate::naive_invector;

use agon_engine::games::invector::{Invector, InvectorState};
use agon_engine::perft::perft as engine_perft;
use agon_engine::{play_moves, Game, Outcome, State, Turn};
use common::lockstep::{self, Lockstep};
use common::{naive_counts, PerftLine};
use naive_invector::{divide, perft, Mutation, NaiveMove, NaiveTurn, Position, Rules};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// One count of the data file.
type Entry = PerftLine<Invector>;

/// The line's board: width, height, pie.
fn board(e: &Entry) -> (usize, usize, bool) {
    (e.game.width(), e.game.height(), e.game.pie())
}

/// The naive rules of `game`.
fn naive_rules(game: &Invector) -> Rules {
    Rules::new(game.width(), game.height(), game.pie()).expect("a legal size")
}

/// The naive position after the line's moves under its rules broken by `mutation`.
fn naive_position(e: &Entry, mutation: Mutation) -> Result<Position, String> {
    let mut p = naive_rules(&e.game).with(mutation).start();
    p.play(&e.moves)?;
    Ok(p)
}

/// Where engine and naive generator differ below `entry`'s position: the first moves
/// whose divide counts differ (and moves only one of them lists).
fn explain(entry: &Entry) -> String {
    let state = entry.engine_state();
    let naive =
        naive_position(entry, Mutation::None).expect("the naive generator accepts the move list");
    let depth = entry.depth;
    common::divide_differences(&state, depth, divide(&naive, depth))
}

/// Checks `entries` against the naive generator under `mutation`; returns the failures.
fn check_naive(entries: &[Entry], mutation: Mutation) -> Vec<String> {
    naive_counts::check(entries, |e| {
        naive_position(e, mutation).map(|p| perft(&p, e.depth))
    })
}

#[test]
fn data_file_is_well_formed_and_covers_what_is_required() {
    let entries = load();
    assert!(entries.len() >= 100, "{} lines", entries.len());
    for e in &entries {
        assert!(e.count.is_some(), "{}: placeholder count", e.label());
    }
    let has = |w, h, pie, depth, deep: bool| {
        entries.iter().any(|e| {
            (board(e), e.depth, e.deep) == ((w, h, pie), depth, deep) && e.moves.is_empty()
        })
    };
    for pie in [true, false] {
        assert!(has(5, 4, pie, 5, false), "5x4 pie={pie} depth 5");
        assert!(has(8, 7, pie, 4, false), "8x7 pie={pie} depth 4");
        assert!(has(8, 7, pie, 5, true), "8x7 pie={pie} depth 5 (deep)");
        assert!(has(5, 4, pie, 6, true), "5x4 pie={pie} depth 6 (deep)");
    }
    // The spec's vectors are all there, marked as such.
    let spec: Vec<_> = entries.iter().filter(|e| e.source == "spec").collect();
    assert_eq!(spec.len(), 12);
    // Odd x even and even x odd boards, with and without moves played.
    assert!(entries
        .iter()
        .any(|e| e.game.width() % 2 == 1 && !e.moves.is_empty()));
    assert!(entries
        .iter()
        .any(|e| e.game.width() % 2 == 0 && !e.moves.is_empty()));
    assert!(entries.iter().any(|e| e.moves.contains("swap")));
    assert!(entries.iter().any(|e| e.moves.contains("pass")));
    assert!(entries.iter().any(|e| e.count == Some(0)));
}

#[test]
fn data_file_spec_lines_are_the_spec_vectors() {
    // The rule text's table of perft counts, typed in again here so that an edit of the
    // data file cannot silently change it.
    let table: [(usize, usize, bool, [u64; 3]); 4] = [
        (5, 4, true, [31, 854, 19066]),
        (4, 3, true, [17, 238, 2334]),
        (8, 7, true, [97, 9032, 783436]),
        (8, 7, false, [97, 8935, 774501]),
    ];
    let entries = load();
    for (w, h, pie, counts) in table {
        for (d, count) in counts.into_iter().enumerate() {
            let depth = d as u32 + 1;
            let line = entries
                .iter()
                .find(|e| (board(e), e.depth) == ((w, h, pie), depth) && e.moves.is_empty())
                .unwrap_or_else(|| panic!("{w}x{h} pie={pie} depth {depth} missing"));
            assert_eq!(line.count, Some(count), "{}", line.label());
            assert_eq!(line.source, "spec", "{}", line.label());
        }
    }
}

common::suite::perft_suite! {
    game: Invector, file: "invector.perft", sources: ["spec", "naive"],
    explain: |e| format!("divide:{}", explain(e)),
    naive: |e| naive_position(e, Mutation::None).map(|p| perft(&p, e.depth)),
    engine_deep: "deep perft: about 4 minutes",
    naive_deep: "naive perft of every line: about 10 minutes",
    fill: "generator of the data file's naive counts: about 10 minutes",
}

#[test]
fn naive_reproduces_the_spec_vectors() {
    let table: [(usize, usize, bool, [u64; 3]); 4] = [
        (5, 4, true, [31, 854, 19066]),
        (4, 3, true, [17, 238, 2334]),
        (8, 7, true, [97, 9032, 783436]),
        (8, 7, false, [97, 8935, 774501]),
    ];
    for (w, h, pie, counts) in table {
        let start = Rules::new(w, h, pie).unwrap().start();
        // perft(1) from the full board is the number of adjacent pairs.
        assert_eq!(counts[0], ((w - 1) * h + w * (h - 1)) as u64);
        for (d, count) in counts.into_iter().enumerate() {
            let depth = d as u32 + 1;
            assert_eq!(
                perft(&start, depth),
                count,
                "{w}x{h} pie={pie} depth {depth}"
            );
        }
        let d = divide(&start, 2);
        assert_eq!(d.iter().map(|(_, n)| n).sum::<u64>(), counts[1]);
    }
}

#[test]
fn naive_matches_data_file() {
    // The naive generator is slow, so the biggest quick lines are left to the ignored
    // test below; these still cover every board and position of the file.
    let quick: Vec<Entry> = load()
        .into_iter()
        .filter(|e| !e.deep && e.count.is_some_and(|c| c <= 20_000_000))
        .collect();
    let failures = check_naive(&quick, Mutation::None);
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

impl Lockstep for Position {
    type State = InvectorState;
    type Choice = (String, NaiveMove);

    /// Engine and naive agree on whose turn it is, the result, the sides, the ply and
    /// the legal moves; the choices are the naive legal moves sorted by notation.
    fn compare(&self, state: &InvectorState) -> Result<Vec<Self::Choice>, String> {
        let turn = match self.turn() {
            NaiveTurn::Seat(s) => Turn::Seat(s),
            NaiveTurn::Over => Turn::Over,
        };
        lockstep::same_turn(state.turn(), turn)?;
        let winner = self.winner();
        lockstep::same_end(
            state,
            winner.map(Outcome::Win),
            winner.map(|_| "elimination"),
        )?;
        for seat in 0..2 {
            if state.side(seat) != self.colour_of(seat).name() {
                return Err(format!(
                    "seat {seat} plays {} for the engine, {} for naive",
                    state.side(seat),
                    self.colour_of(seat).name()
                ));
            }
        }
        if state.ply() as usize != self.plies() {
            return Err(format!(
                "ply: engine {}, naive {}",
                state.ply(),
                self.plies()
            ));
        }
        let choices = self.legal_moves().into_iter().map(|m| (m.to_string(), m));
        lockstep::sorted_choices(state, choices.collect(), "legal moves")
    }

    fn notation(choice: &Self::Choice) -> &str {
        &choice.0
    }

    fn take(&mut self, choice: &Self::Choice) {
        self.apply(choice.1);
    }
}

/// Plays one game in both implementations from the start of `rules`' board (see
/// [`lockstep::cross_check`]); returns the number of nodes compared.
fn cross_check(rules: Rules, mut pick: impl FnMut(usize) -> Option<usize>) -> Result<u64, String> {
    let game = Invector::new(rules.width, rules.height, rules.pie)
        .map_err(|e| format!("engine refuses {}: {e}", rules.label()))?;
    lockstep::cross_check(
        game.initial_state(),
        rules.start(),
        &rules.label(),
        |_, c| pick(c.len()),
    )
    .map(|(nodes, _)| nodes)
}

/// Every board shape worth a look: tiny, odd x even, even x odd, one row or column, the
/// widest and tallest, and the most cells (126).
const SIZES: &[(usize, usize)] = &[
    (1, 2),
    (2, 1),
    (3, 2),
    (2, 3),
    (1, 4),
    (4, 1),
    (4, 3),
    (3, 4),
    (5, 4),
    (4, 5),
    (6, 5),
    (5, 6),
    (7, 6),
    (6, 7),
    (8, 7),
    (7, 8),
    (1, 16),
    (16, 1),
    (16, 7),
    (7, 16),
    (15, 8),
    (9, 14),
    (14, 9),
    (11, 10),
];

/// Random playouts in both implementations on every size in [`SIZES`], pie on and off.
fn random_playouts(mutation: Mutation, games_per_config: usize, seed: u64) -> Result<u64, String> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut nodes = 0;
    for &(w, h) in SIZES {
        for pie in [true, false] {
            let rules = Rules::new(w, h, pie).unwrap().with(mutation);
            // Fewer games on big boards: they are long, and small ones need many
            // games to reach every corner of their short trees.
            let games = (games_per_config * 20 / (w * h)).clamp(8, 400);
            for _ in 0..games {
                nodes += cross_check(rules, |n| Some(rng.random_range(0..n)))?;
            }
        }
    }
    Ok(nodes)
}

#[test]
fn engine_and_naive_agree_on_random_playouts() {
    let nodes = random_playouts(Mutation::None, 100, 2024).unwrap_or_else(|e| panic!("{e}"));
    assert!(nodes > 150_000, "only {nodes} nodes compared");
}

#[test]
fn engine_and_naive_agree_on_divides() {
    // Divide lists side by side, for positions where the per-move counts say more than
    // the total (swap available, after a swap, passes below).
    for (w, h, pie, moves, depth) in [
        (5, 4, true, "", 4),
        (5, 4, true, "c3xd3", 4),
        (5, 4, true, "c3xd3 swap", 4),
        (4, 3, true, "c3xb3 d1xd2 b2xc2 a2xa1 a3-a2 d2xc2", 5),
        (7, 6, false, "", 3),
    ] {
        let mut state = Invector::new(w, h, pie).unwrap().initial_state();
        play_moves(&mut state, moves).unwrap();
        let mut engine = naive_counts::engine_divide(&state, depth);
        let mut naive = Rules::new(w, h, pie).unwrap().start();
        naive.play(moves).unwrap();
        let mut reference = divide(&naive, depth);
        engine.sort();
        reference.sort();
        assert_eq!(
            engine, reference,
            "{w}x{h} pie={pie} [{moves}] depth {depth}"
        );
    }
}

#[test]
fn transposed_boards_have_equal_counts() {
    // Swapping columns and rows maps a W x H board onto H x W: a1 stays a1 and Black,
    // the centre pits map onto each other, so the trees are the same. The engine's
    // shifts for the two are different code paths (row length W vs H).
    for (w, h, depth) in [
        (2, 1, 2),
        (3, 2, 6),
        (4, 3, 5),
        (5, 4, 4),
        (6, 5, 4),
        (8, 7, 3),
        (16, 1, 6),
        (16, 7, 3),
        (14, 9, 3),
    ] {
        for pie in [true, false] {
            let a = engine_perft(&Invector::new(w, h, pie).unwrap().initial_state(), depth);
            let b = engine_perft(&Invector::new(h, w, pie).unwrap().initial_state(), depth);
            assert_eq!(a, b, "{w}x{h} and {h}x{w} pie={pie} depth {depth}");
        }
    }
}

/// For each broken rule: the data file's counts no longer match, and the node-by-node
/// comparison with the engine fails. Shows that neither check would let such a bug pass.
#[test]
fn a_broken_rule_is_caught() {
    let entries: Vec<Entry> = load()
        .into_iter()
        .filter(|e| !e.deep && e.count.is_some_and(|c| c <= 2_000_000))
        .collect();
    for mutation in [
        Mutation::CentreStep,
        Mutation::SwapAfterSwap,
        Mutation::NoForcedPass,
        Mutation::StepSideways,
        Mutation::VerticalCapturesOnly,
        Mutation::NoElimination,
    ] {
        // Perft: some line of the data file disagrees.
        let first_bad = entries
            .iter()
            .find(|e| !check_naive(std::slice::from_ref(e), mutation).is_empty());
        let Some(bad) = first_bad else {
            panic!("{mutation:?}: every count of the data file still matches");
        };
        // Playouts: the engine's moves, turn or result differ somewhere.
        let err = random_playouts(mutation, 100, 2024)
            .expect_err(&format!("{mutation:?}: playouts agree with the engine"));
        eprintln!("{mutation:?}: caught by {} and by {err}", bad.label());
    }
}

/// Board sizes for the proptest: small ones, where short random lines reach the end.
const PROP_SIZES: &[(usize, usize)] = &[
    (3, 2),
    (2, 3),
    (1, 6),
    (4, 3),
    (3, 4),
    (5, 4),
    (4, 5),
    (6, 5),
    (8, 7),
];

proptest! {
    // No regression files: a failure prints the shrunk line, which belongs in the data
    // file or in a named test rather than in a file of seeds.
    #![proptest_config(ProptestConfig {
        cases: 512,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Engine and naive agree along any line; a failure shrinks to the shortest line.
    #[test]
    fn engine_and_naive_agree_along_any_line(
        size in 0..PROP_SIZES.len(),
        pie in any::<bool>(),
        picks in proptest::collection::vec(any::<u16>(), 0..160),
    ) {
        let (w, h) = PROP_SIZES[size];
        let rules = Rules::new(w, h, pie).unwrap();
        let mut it = picks.iter();
        let result = cross_check(rules, |_| it.next().map(|&i| usize::from(i)));
        prop_assert!(result.is_ok(), "{}", result.unwrap_err());
    }
}
