//! Hexstrat move generation checked against counts and against an independent
//! generator.
//!
//! - Every line of `tests/data/hexstrat.perft` is checked against the engine's
//!   [`agon_engine::perft::perft`] (the `deep` lines only with `-- --ignored`), and
//!   against the naive reference generator of `tests/naive_hexstrat/`, which derived the
//!   `naive` counts. Every decision and every reveal outcome is a ply; weights are not
//!   counted.
//! - The naive generator reproduces the rules spec's test vectors.
//! - The mid-game lines of the file are chosen so that combat (with strike-backs and
//!   destroyed squads), advances, impeded squads, blocked Mechs and seize counts happen
//!   below them; a test walks the naive tree below each to prove it.
//! - Engine and naive generator agree at every node of seeded playouts under several
//!   rule sets (same turn, same legal moves as notation, same reveal outcomes and
//!   weights, same result and end reason), and in a proptest over move-index sequences.
//! - The comparisons are sensitive: the naive generator with a deliberately broken rule
//!   ([`naive_hexstrat::Mutation`]) disagrees with the data file or the engine.
//!
//! `naive_fill` (ignored) writes the data file with every count recomputed by the naive
//! generator; that is how the file's `naive` counts were made.

use crate::common;
use crate::naive_hexstrat;

use agon_engine::games::hexstrat::{Hexstrat, HexstratState, Tile};
use agon_engine::perft::{divide as engine_divide, perft as engine_perft};
use agon_engine::{Game, Outcome, State, Turn};
use common::lockstep::{self, Lockstep};
use common::{naive_counts, PerftLine};
use naive_hexstrat::{Mutation, NaiveTurn, Position};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// One count of the data file.
type Entry = PerftLine<Hexstrat>;

/// The spec's test vectors: perft(1..=4) from the start.
const SPEC_VECTORS: [u64; 4] = [19, 73, 679, 3397];

/// The naive start for `game`'s rules.
fn naive_start(game: &Hexstrat, mutation: Mutation) -> Position {
    let bag = Tile::ALL.map(|t| game.tiles(t) as i32);
    Position::start(bag, game.max_rounds() as i32, mutation)
}

/// The naive position of a data-file line.
fn naive_position(e: &Entry, mutation: Mutation) -> Result<Position, String> {
    let mut p = naive_start(&e.game, mutation);
    p.play(&e.moves)?;
    Ok(p)
}

/// Where engine and naive generator differ below `entry`'s position.
fn explain(entry: &Entry) -> String {
    let state = entry.engine_state();
    let naive = naive_position(entry, Mutation::None).expect("naive accepts the line");
    common::divide_differences(&state, entry.depth, naive.divide(entry.depth))
}

/// Lines whose naive count under `mutation` differs from the file's.
fn check_naive(entries: &[Entry], mutation: Mutation) -> Vec<String> {
    naive_counts::check(entries, |e| {
        naive_position(e, mutation).map(|p| p.perft(e.depth))
    })
}

#[test]
fn data_file_is_well_formed_and_covers_what_is_required() {
    let entries = load();
    assert!(entries.iter().all(|e| e.count.is_some()), "a ? placeholder");
    let from_start = |depth: u32, deep: bool| {
        entries.iter().any(|e| {
            e.game == Hexstrat::default()
                && e.moves.is_empty()
                && e.depth == depth
                && e.deep == deep
        })
    };
    assert!(
        from_start(5, false) && from_start(6, false),
        "default start, quick"
    );
    assert!(from_start(7, true), "default start, deep");
    // Other rule sets: bags without some tile type, and a short cap.
    let variants: Vec<&Entry> = entries
        .iter()
        .filter(|e| e.game != Hexstrat::default())
        .collect();
    assert!(variants.len() >= 6, "{} variant lines", variants.len());
    assert!(variants.iter().any(|e| e.game.max_rounds() <= 2));
    assert!(variants.iter().any(|e| e.game.tiles(Tile::Mountain) == 35));
    // Mid-game positions, each with a count of at least depth 3 below it.
    let midgames = entries
        .iter()
        .filter(|e| e.moves.split_whitespace().count() >= 20)
        .count();
    assert!(midgames >= 8, "{midgames} mid-game lines");
    assert!(
        entries.iter().any(|e| e.count == Some(0)),
        "a finished game"
    );
}

#[test]
fn data_file_spec_lines_are_the_spec_vectors() {
    let entries = load();
    for (d, &count) in SPEC_VECTORS.iter().enumerate() {
        let depth = d as u32 + 1;
        let line = entries
            .iter()
            .find(|e| e.game == Hexstrat::default() && e.moves.is_empty() && e.depth == depth)
            .unwrap_or_else(|| panic!("depth {depth} missing"));
        assert_eq!(line.count, Some(count), "{}", line.label());
        assert_eq!(line.source, "spec", "{}", line.label());
    }
}

common::suite::perft_suite! {
    game: Hexstrat, file: "hexstrat.perft", sources: ["spec", "naive"],
    explain: |e| format!("divide:{}", explain(e)),
    naive: |e| naive_position(e, Mutation::None).map(|p| p.perft(e.depth)),
    engine_deep: "deep perft: a few seconds",
    naive_deep: "naive perft of every line: about ten seconds",
    fill: "generator of the data file's naive counts: about ten seconds",
}

#[test]
fn naive_reproduces_the_spec_vectors() {
    let start = naive_start(&Hexstrat::default(), Mutation::None);
    for (d, &count) in SPEC_VECTORS.iter().enumerate() {
        assert_eq!(start.perft(d as u32 + 1), count, "depth {}", d + 1);
    }
    // perft(1): three squads onto the six face-down neighbours of d2, and `end`.
    let first = start.moves();
    assert_eq!(first.len(), 3 * 6 + 1);
    assert_eq!(first.last().map(String::as_str), Some("end"));
}

#[test]
fn naive_matches_data_file() {
    // The naive generator clones a position per move: the biggest quick lines are left
    // to the ignored test below.
    let quick: Vec<Entry> = load()
        .into_iter()
        .filter(|e| !e.deep && e.count.is_some_and(|c| c <= 1_000_000))
        .collect();
    assert!(quick.len() >= 20, "{} lines", quick.len());
    let failures = check_naive(&quick, Mutation::None);
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

/// Every rule event the mid-game lines must show below them (naive event names).
const MIDGAME_EVENTS: &[&str] = &[
    "attack",
    "struck-back",
    "destroyed",
    "advance",
    "impeded",
    "blocked",
    "seize-start",
    "seize-count",
    "seize",
    "rout",
    "end-turn",
];

#[test]
fn midgame_lines_exercise_combat_advances_impeded_blocked_mechs_and_seizes() {
    let mut seen = Vec::new();
    for e in load()
        .iter()
        .filter(|e| e.moves.split_whitespace().count() >= 20)
    {
        let p = naive_position(e, Mutation::None).unwrap();
        // Within the first three plies (all lines are counted at least that deep).
        let mut here = Vec::new();
        p.events_below(e.depth.min(3), &mut here);
        assert!(
            here.contains(&"attack"),
            "{}: no attack within three plies ({here:?})",
            e.label()
        );
        for ev in here {
            if !seen.contains(&ev) {
                seen.push(ev);
            }
        }
    }
    for ev in MIDGAME_EVENTS {
        assert!(seen.contains(ev), "no mid-game line shows {ev}: {seen:?}");
    }
}

impl Lockstep for Position {
    type State = HexstratState;
    type Choice = String;

    /// Engine and naive agree on the turn, the result and its end reason, the ply, and
    /// the legal moves or reveal outcomes with their weights (as sorted notation). The
    /// choices are the naive ones in the naive order.
    fn compare(&self, state: &HexstratState) -> Result<Vec<String>, String> {
        let turn = match self.turn() {
            NaiveTurn::Seat(s) => Turn::Seat(s),
            NaiveTurn::Chance => Turn::Chance,
            NaiveTurn::Over => Turn::Over,
        };
        lockstep::same_turn(state.turn(), turn)?;
        let outcome = self
            .end
            .map(|end| end.winner.map_or(Outcome::Draw, Outcome::Win));
        lockstep::same_end(state, outcome, self.end.map(|end| end.reason))?;
        if state.ply() as usize != self.plies {
            return Err(format!("ply: engine {}, naive {}", state.ply(), self.plies));
        }
        let mut engine: Vec<String> = Vec::new();
        let mut moves = Vec::new();
        state.legal_moves(&mut moves);
        engine.extend(moves.iter().map(|&m| state.format_move(m)));
        let mut outcomes = Vec::new();
        state.chance_outcomes(&mut outcomes);
        engine.extend(
            outcomes
                .iter()
                .map(|&(m, w)| format!("{}@{w}", state.format_move(m))),
        );
        let choices = self.moves();
        let mut reference: Vec<String> = if self.turn() == NaiveTurn::Chance {
            self.outcomes()
                .into_iter()
                .map(|(m, w)| format!("{m}@{w}"))
                .collect()
        } else {
            choices.clone()
        };
        engine.sort();
        reference.sort();
        if engine != reference {
            return Err(format!(
                "choices differ: engine {engine:?}, naive {reference:?}\n{state}"
            ));
        }
        Ok(choices)
    }

    fn notation(choice: &String) -> &str {
        choice
    }

    fn take(&mut self, choice: &String) {
        self.play_one(choice).expect("a naive choice");
    }
}

/// Plays one game in both implementations from the start of `game` (see
/// [`lockstep::cross_check`]). Returns the nodes compared and the end reason, or the
/// first disagreement with the line that reaches it.
fn cross_check(
    game: &Hexstrat,
    mutation: Mutation,
    pick: impl FnMut(&Position, &[String]) -> Option<usize>,
) -> Result<(u64, Option<String>), String> {
    let naive = naive_start(game, mutation);
    let (nodes, state) =
        lockstep::cross_check(game.initial_state(), naive, &format!("{game:?}"), pick)?;
    Ok((nodes, lockstep::end_word(&state)))
}

/// Sum of the mover's squads' distances to the enemy Headquarters in `p` (smaller is
/// more aggressive), for the biased playouts.
fn march(p: &Position, seat: usize) -> i32 {
    let hq = if seat == 0 { (0, 2) } else { (0, -2) };
    p.squads
        .iter()
        .filter(|s| s.seat == seat)
        .map(|s| {
            let (dq, dr) = (s.q - hq.0, s.r - hq.1);
            (dq.abs() + dr.abs() + (dq + dr).abs()) / 2
        })
        .sum()
}

/// A playout policy that reaches combat and seizes far more often than uniform play:
/// reveal outcomes by weight; a decision is uniform one time in four, otherwise an
/// attack if there is one, else the move that marches furthest (ties at random).
fn aggressive(rng: &mut ChaCha8Rng) -> impl FnMut(&Position, &[String]) -> Option<usize> + '_ {
    move |p, choices| {
        if p.turn() == NaiveTurn::Chance {
            let outcomes = p.outcomes();
            let total: u32 = outcomes.iter().map(|(_, w)| w).sum();
            let mut x = rng.random_range(0..total);
            for (i, (_, w)) in outcomes.iter().enumerate() {
                if x < *w {
                    return Some(i);
                }
                x -= w;
            }
            unreachable!()
        }
        if rng.random_range(0..4) == 0 {
            return Some(rng.random_range(0..choices.len()));
        }
        let children = p.children();
        let attacks: Vec<usize> = (0..children.len())
            .filter(|&i| children[i].2.contains(&"attack"))
            .collect();
        if !attacks.is_empty() {
            return Some(attacks[rng.random_range(0..attacks.len())]);
        }
        let seat = p.to_move;
        let best = children
            .iter()
            .map(|(_, c, _)| march(c, seat))
            .min()
            .expect("a decision node has moves");
        let marching: Vec<usize> = (0..children.len())
            .filter(|&i| march(&children[i].1, seat) == best)
            .collect();
        Some(marching[rng.random_range(0..marching.len())])
    }
}

/// The rule sets of the playouts: the default bag, one-type bags (every Mech reveal of
/// a Mountain bag is blocked, a Forest bag impedes every Mech), mixed small counts, and
/// short caps.
fn rule_sets() -> Vec<Hexstrat> {
    [
        (15, 10, 10, 60),
        (35, 0, 0, 60),
        (0, 35, 0, 60),
        (0, 0, 35, 60),
        (1, 1, 33, 60),
        (33, 1, 1, 5),
        (10, 10, 15, 2),
        (15, 10, 10, 1),
    ]
    .into_iter()
    .map(|(p, f, m, r)| Hexstrat::new(p, f, m, r).unwrap())
    .collect()
}

/// Biased and uniform playouts in both implementations on every rule set; returns the
/// nodes compared and the end reasons met.
fn playouts(mutation: Mutation, games: usize, seed: u64) -> Result<(u64, Vec<String>), String> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut nodes = 0;
    let mut reasons = Vec::new();
    for game in rule_sets() {
        for g in 0..games {
            let (n, reason) = if g % 4 == 3 {
                let mut r = ChaCha8Rng::seed_from_u64(rng.random());
                cross_check(&game, mutation, |_, c| Some(r.random_range(0..c.len())))?
            } else {
                let mut r = ChaCha8Rng::seed_from_u64(rng.random());
                cross_check(&game, mutation, aggressive(&mut r))?
            };
            nodes += n;
            if let Some(reason) = reason {
                if !reasons.contains(&reason) {
                    reasons.push(reason);
                }
            }
        }
    }
    reasons.sort_unstable();
    Ok((nodes, reasons))
}

#[test]
fn engine_and_naive_agree_on_playouts() {
    let (nodes, reasons) = playouts(Mutation::None, 80, 2024).unwrap_or_else(|e| panic!("{e}"));
    assert!(nodes > 50_000, "only {nodes} nodes compared");
    eprintln!("{nodes} nodes, end reasons {reasons:?}");
    assert_eq!(reasons, ["cap", "rout", "seize"], "{nodes} nodes");
}

#[test]
fn engine_and_naive_agree_on_divides() {
    for e in load()
        .iter()
        .filter(|e| !e.deep && e.count.is_some_and(|c| c <= 100_000))
    {
        assert_eq!(explain(e), "", "{}", e.label());
    }
}

/// For each broken rule: the data file's counts or the node-by-node comparison with the
/// engine notice it (most are caught by both). Shows that such a bug cannot pass.
#[test]
fn a_broken_rule_is_caught() {
    let entries: Vec<Entry> = load()
        .into_iter()
        .filter(|e| !e.deep && e.count.is_some_and(|c| c <= 100_000))
        .collect();
    for mutation in [
        Mutation::NoStrikeBack,
        Mutation::NoAdvance,
        Mutation::MechClimbs,
        Mutation::NoAutomaticEnd,
        Mutation::NoHqImpede,
        Mutation::SeizeAtTwo,
        Mutation::NoTerrainBonus,
        Mutation::FullBag,
    ] {
        let by_file = entries
            .iter()
            .find(|e| !check_naive(std::slice::from_ref(e), mutation).is_empty());
        let Some(bad) = by_file else {
            panic!("{mutation:?}: every count of the data file still matches");
        };
        let err = playouts(mutation, 8, 7)
            .expect_err(&format!("{mutation:?}: playouts agree with the engine"));
        let first = err.lines().next().unwrap_or_default();
        eprintln!("{mutation:?}: caught by {} and by {first}", bad.label());
    }
}

proptest! {
    // No regression files: a failure prints the shrunk line, which belongs in the data
    // file or a named test rather than in a file of seeds.
    #![proptest_config(ProptestConfig {
        cases: 256,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Engine and naive agree along any line; a failure shrinks to the shortest line.
    #[test]
    fn engine_and_naive_agree_along_any_line(
        rules in 0..8usize,
        picks in proptest::collection::vec(any::<u16>(), 0..300),
    ) {
        let game = rule_sets()[rules];
        let mut it = picks.iter();
        let result = cross_check(&game, Mutation::None, |_, _| it.next().map(|&i| usize::from(i)));
        prop_assert!(result.is_ok(), "{}", result.unwrap_err());
    }
}

#[test]
fn the_engine_counts_deeper_from_the_start_consistently_with_divide() {
    let s = Hexstrat::default().initial_state();
    let d = engine_divide(&s, 5);
    assert_eq!(d.len(), 19);
    assert_eq!(d.iter().map(|(_, n)| n).sum::<u64>(), engine_perft(&s, 5));
}
