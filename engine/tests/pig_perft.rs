//! Pig's paths counted against a data file, hand counts and an independent model.
//!
//! - Every line of `tests/data/pig.perft` is checked against the engine's
//!   [`agon_engine::perft::perft`] (the `deep` lines only with `-- --ignored`) and
//!   against the naive model below, which derived the `naive` counts. Decisions and chance
//!   outcomes are one ply each; chance weights are not counted.
//! - The first plies from the start are counted by hand, and engine and model agree at
//!   every depth up to a bound on several rules, and on divides.
//!
//! `naive_fill` (ignored) writes the data file with every count recomputed by the model.

use crate::common;

use agon_engine::games::pig::Pig;
use agon_engine::perft::perft;
use agon_engine::Game;
use common::tree::Tree;
use common::{naive_counts, PerftLine};

/// One count of the data file.
type Line = PerftLine<Pig>;

/// A model of OpenSpiel's Pig written independently of the engine, for counting paths:
/// the game is over when a banked score reaches the target or after `horizon`
/// decisions; a decision node offers roll (unless score plus turn total reaches the
/// target) and hold; a pending roll offers every face.
#[derive(Clone, Copy)]
struct Naive {
    target: u32,
    die: u32,
    horizon: u32,
    banked: [u32; 2],
    in_hand: u32,
    player: usize,
    pending: bool,
    decisions: u32,
}

impl Naive {
    fn new(target: u32, die: u32, horizon: u32) -> Naive {
        Naive {
            target,
            die,
            horizon,
            banked: [0, 0],
            in_hand: 0,
            player: 0,
            pending: false,
            decisions: 0,
        }
    }

    /// The model for a data-file line: its rules, then its moves.
    fn of(line: &Line) -> Naive {
        let g = line.game;
        Naive::new(g.target(), g.die(), g.horizon())
            .after(&line.moves)
            .unwrap_or_else(|e| panic!("{}: naive: {e}", line.label()))
    }
}

impl Tree for Naive {
    /// Every next position with the move that leads there, written as the rules write
    /// it (`roll`, `hold`, a face `1`..`die`); none once the game is over.
    fn children(&self) -> Vec<(String, Naive)> {
        if self.banked.iter().any(|&b| b >= self.target) || self.decisions >= self.horizon {
            return Vec::new();
        }
        let mut out = Vec::new();
        if self.pending {
            for face in 1..=self.die {
                let mut c = *self;
                c.pending = false;
                if face == 1 {
                    c.in_hand = 0;
                    c.player = 1 - c.player;
                } else {
                    c.in_hand += face;
                }
                out.push((face.to_string(), c));
            }
        } else {
            if self.banked[self.player] + self.in_hand < self.target {
                let mut roll = *self;
                roll.pending = true;
                roll.decisions += 1;
                out.push(("roll".to_string(), roll));
            }
            let mut hold = *self;
            hold.banked[hold.player] += hold.in_hand;
            hold.in_hand = 0;
            hold.player = 1 - hold.player;
            hold.decisions += 1;
            out.push(("hold".to_string(), hold));
        }
        out
    }
}

/// Engine and model divides side by side where they differ (empty if they agree).
fn explain(line: &Line) -> String {
    let state = line.engine_state();
    let engine = naive_counts::engine_divide(&state, line.depth);
    naive_counts::divide_mismatch(&engine, &Naive::of(line).divide(line.depth))
}

/// Lines whose naive count differs from the file's.
fn check_naive(lines: &[Line]) -> Vec<String> {
    naive_counts::check(lines, |l| Ok(Naive::of(l).count(l.depth)))
}

#[test]
fn data_file_is_well_formed_and_covers_what_is_required() {
    let lines = load();
    assert!(lines.iter().all(|l| l.count.is_some()), "a ? placeholder");
    // Default rules and at least four other rule sets, each from the start and from
    // later positions.
    let mut rules: Vec<(u32, u32, u32)> = lines
        .iter()
        .map(|l| (l.game.target(), l.game.die(), l.game.horizon()))
        .collect();
    rules.sort();
    rules.dedup();
    assert!(rules.contains(&(100, 6, 1000)), "{rules:?}");
    assert!(rules.len() >= 5, "{rules:?}");
    for &(t, d, h) in &rules {
        let of = |start: bool| {
            lines.iter().any(|l| {
                (l.game.target(), l.game.die(), l.game.horizon()) == (t, d, h)
                    && l.moves.is_empty() == start
            })
        };
        assert!(of(true) && of(false), "target={t} die={d} horizon={h}");
    }
    // The hand counts are the ones worked out in `hand_counts_from_the_start`.
    let hand: Vec<(String, u32, u64)> = lines
        .iter()
        .filter(|l| l.source == "hand")
        .map(|l| (l.moves.clone(), l.depth, l.expected()))
        .collect();
    assert_eq!(
        hand,
        [
            (String::new(), 1, 2),
            (String::new(), 2, 8),
            (String::new(), 3, 20),
            ("roll 4".to_string(), 2, 8)
        ]
    );
    assert!(lines.iter().any(|l| l.deep), "no deep tier");
}

#[test]
fn hand_counts_from_the_start() {
    let s = Pig::default().initial_state();
    assert_eq!(perft(&s, 0), 1);
    // roll, hold.
    assert_eq!(perft(&s, 1), 2);
    // roll → faces 1..6; hold → seat 1 may roll or hold.
    assert_eq!(perft(&s, 2), 8);
    // roll 1 → seat 1 decides (2); roll 2..6 → seat 0 decides again (5 × 2);
    // hold roll → 6 faces; hold hold → seat 0 decides (2).
    assert_eq!(perft(&s, 3), 2 + 10 + 6 + 2);
}

common::suite::perft_suite! {
    game: Pig, file: "pig.perft", sources: ["hand", "naive"],
    explain: explain, naive: |l| Ok(Naive::of(l).count(l.depth)),
    engine_deep: "deep perft: about 25 seconds",
    naive_deep: "naive perft of every line: about two minutes",
    fill: "generator of the data file's naive counts: about two minutes",
}

#[test]
fn naive_matches_data_file() {
    let quick: Vec<Line> = load().into_iter().filter(|l| !l.deep).collect();
    let failures = check_naive(&quick);
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn engine_and_naive_agree_on_divides() {
    let mut compared = 0;
    for l in load().iter().filter(|l| !l.deep && l.depth > 0) {
        assert_eq!(explain(l), "", "{}", l.label());
        compared += 1;
    }
    assert!(compared >= 10, "{compared} divides compared");
}

#[test]
fn engine_and_naive_agree_at_every_depth() {
    for (target, die, horizon, depth) in [
        (100, 6, 1000, 9),
        (5, 3, 6, 12),
        (4, 2, 1000, 14),
        (3, 20, 4, 8),
        (1, 2, 1, 3),
        (20, 3, 30, 10),
    ] {
        let s = Pig::new(target, die, horizon).unwrap().initial_state();
        let naive = Naive::new(target, die, horizon);
        for d in 0..=depth {
            assert_eq!(
                perft(&s, d),
                naive.count(d),
                "target={target} die={die} horizon={horizon} depth {d}"
            );
        }
    }
}
