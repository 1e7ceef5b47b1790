//! `agon balance --search`: a race of rule variants, its folder of ordinary round runs,
//! search.csv recomputable from their games, the same bytes at any thread count, a
//! finished race reported unchanged, an interrupted one resumed to the same bytes, the
//! exact values of an exact agent, and bad input refused in one line with nothing
//! written.

use std::path::Path;
use std::process::Output;

use crate::common;
use common::{agon, assert_bad, assert_same_files, ok, scratch, stdout, text};

/// The race of these tests without its output folder: Pig with a two-faced die to 10,
/// seat 1's bonus 0, 4 or 8, raced at level 4 (`optimal`), 40 games a round, 480 games at
/// most, checks of 20 games, seed 2.
const RACE_ARGS: [&str; 16] = [
    "balance",
    "--game",
    "pig:target=10,die=2",
    "--search",
    "bonus=0,4,8",
    "--level",
    "4",
    "--round",
    "40",
    "--budget",
    "480",
    "--games",
    "20",
    "--seed",
    "2",
    "--threads",
];

/// [`RACE_ARGS`] with `threads` into `out`, then `extra`.
fn race(out: &Path, threads: &str, extra: &[&str]) -> Output {
    agon(&[&RACE_ARGS[..], &[threads, "--out", text(out)], extra].concat())
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The files that make a race's result: its identity, tidy file and chart, and the
/// games of each run.
fn race_files(dir: &Path) -> Vec<String> {
    let mut files = vec!["study.csv".into(), "search.csv".into(), "race.svg".into()];
    for c in ["c01", "c02", "c03"] {
        for r in 1..=6 {
            let games = format!("{c}/round-{r:02}/games.csv");
            if dir.join(&games).is_file() {
                files.push(games);
            }
        }
    }
    files.push("check/L3/games.csv".into());
    files
}

fn assert_same_race(a: &Path, b: &Path) {
    let files = race_files(a);
    assert_eq!(files, race_files(b));
    let files: Vec<&str> = files.iter().map(String::as_str).collect();
    assert_same_files(a, b, &files);
}

/// The fields of search.csv's rows (its values hold no quoted comma but the spec's).
fn rows(search: &str) -> Vec<Vec<String>> {
    let mut reader = csv::Reader::from_reader(search.as_bytes());
    reader
        .records()
        .map(|r| r.unwrap().iter().map(str::to_string).collect())
        .collect()
}

#[test]
fn a_race_is_rounds_of_ordinary_runs_and_search_csv_follows_from_their_games() {
    let dir = scratch("race");
    let done = race(&dir, "2", &[]);
    ok(&done);
    let printed = stdout(&done);
    let lines: Vec<&str> = printed.lines().collect();
    assert_eq!(
        lines[..5],
        [
            "race at L4 (optimal) over 3 candidates, 40 games a round: intervals at 99.7222% \
             each, so that all of them hold with 95% confidence (3 candidates x 6 rounds at \
             most)",
            "stopped after 5 rounds and 440 games: another round would pass the budget of 480 \
             games, with 2 candidates still in the race",
            "fairest: pig:die=2,horizon=1000,target=10 seat 0 scores 57.0% [46.5, 67.5] at L4 \
             after 200 games; also within reach: c02 (bonus=4) 29.0% [19.4, 38.6]",
            "edge: the fairest takes the lowest value tried of bonus (0), which is the knob's \
             own limit",
            "exact (the level's agent is exact): the fairest's seat 0 scores 53.30%, inside its \
             interval",
        ]
    );
    assert!(
        printed.contains("c03   bonus=8 ") && printed.contains("out after round 1 (exact 6.06%)"),
        "{printed}"
    );
    // A two-faced die to 10 often plays the same short game twice: warned as a study warns.
    assert!(
        printed.contains(
            "\nwarning: games repeat (distinct games: 173 of 200 for c02, 18 of 40 for c03), \
             so the intervals are too narrow"
        ),
        "{printed}"
    );
    assert!(printed.ends_with(&format!(
        "wrote race.svg, search.csv in {}\n",
        dir.display()
    )));

    let search = read(&dir.join("search.csv"));
    assert!(search.starts_with(
        "candidate,spec,level,round,games,seat0_score,seat0_score_low,seat0_score_high,\
         seat0_win_rate,seat0_win_rate_low,seat0_win_rate_high,confidence,draw_rate,\
         cap_draws_rate,mean_turns,exact_seat0_score,status,left_round\n"
    ));
    let rows = rows(&search);
    // Round 1 for three candidates, rounds 2 to 5 for two, and the check.
    assert_eq!(rows.len(), 3 + 4 * 2 + 1);
    let out: Vec<&Vec<String>> = rows.iter().filter(|r| r[0] == "c03").collect();
    assert_eq!(out.len(), 1);
    assert_eq!((out[0][16].as_str(), out[0][17].as_str()), ("out", "1"));
    let last = &rows[rows.len() - 3..];
    assert_eq!(
        last.iter()
            .map(|r| (r[0].as_str(), r[2].as_str(), r[3].as_str(), r[16].as_str()))
            .collect::<Vec<_>>(),
        [
            ("c01", "L4", "5", "fairest"),
            ("c02", "L4", "5", "within reach"),
            ("c01", "L3", "check", "check"),
        ]
    );
    // The fairest's cumulative figures are its five rounds' games, counted here.
    let mut score = 0.0;
    let mut games = 0;
    for r in 1..=5 {
        let played = read(&dir.join(format!("c01/round-{r:02}/games.csv")));
        for line in played.lines().skip(1) {
            games += 1;
            score += match line.split(',').nth(7).unwrap() {
                "1" => 1.0,
                "0.5" => 0.5,
                _ => 0.0,
            };
        }
    }
    assert_eq!(games, 200);
    assert_eq!(last[0][4], "200");
    assert_eq!(last[0][5], format!("{:.6}", score / 200.0));
    assert_eq!(last[0][11], "0.997222");
    assert_eq!(last[0][15], "0.532987");
    // Each round is a slice of the candidate's one long run: shard r of 6.
    let meta = read(&dir.join("c02/round-03/meta.csv"));
    assert!(meta.contains("shard,3/6"), "{meta}");
    assert!(read(&dir.join("race.svg")).contains("c01 FAIREST"));
}

#[test]
fn any_thread_count_gives_the_same_race_and_a_finished_race_is_reported_unchanged() {
    let (one, two) = (scratch("one"), scratch("two"));
    ok(&race(&one, "1", &[]));
    ok(&race(&two, "2", &[]));
    assert_same_race(&one, &two);
    let first = stdout(&race(&two, "1", &[]));
    assert!(
        first.starts_with(&format!(
            "{} already holds this finished race; its results:\n\nrace at L4",
            two.display()
        )),
        "{first}"
    );
    assert!(!first.contains("wrote "));
    assert_same_race(&one, &two);
}

#[test]
fn an_interrupted_race_resumes_to_the_same_files() {
    let (whole, stopped) = (scratch("whole"), scratch("stopped"));
    ok(&race(&whole, "2", &[]));
    ok(&race(&stopped, "2", &[]));
    // Stopped in round 4: c02's round 4 not begun, round 5 and the check never reached.
    std::fs::remove_file(stopped.join("search.csv")).unwrap();
    for gone in ["c02/round-04", "c01/round-05", "c02/round-05", "check"] {
        std::fs::remove_dir_all(stopped.join(gone)).unwrap();
    }
    assert_bad(
        &race(&stopped, "2", &[]),
        &format!(
            "output folder \"{}\" holds this race unfinished; pass --resume to continue it, or \
             choose another --out",
            stopped.display()
        ),
    );
    ok(&race(&stopped, "2", &["--resume"]));
    assert_same_race(&whole, &stopped);
    // Another race in the same folder is refused, naming the first difference.
    let other = agon(
        &[
            &RACE_ARGS[..4],
            &["bonus=0,4", "--level", "4", "--out", text(&stopped)],
        ]
        .concat(),
    );
    assert_bad(
        &other,
        &format!(
            "output folder \"{}\" holds a different study (search \"bonus=0,4,8\" there, \
             \"bonus=0,4\" here); choose another --out or remove it",
            stopped.display()
        ),
    );
}

#[test]
fn bad_searches_are_one_line_and_write_nothing() {
    let dir = scratch("bad").join("race");
    let out = text(&dir);
    let bad = |extra: &[&str], line: &str| {
        let mut all = vec!["balance", "--out", out, "--game", "pig:target=10"];
        all.extend_from_slice(extra);
        assert_bad(&agon(&all), line);
        assert!(!dir.exists(), "{extra:?} wrote {}", dir.display());
    };
    bad(
        &["--search", "bonus=0,10", "--level", "4"],
        "game \"pig:bonus=10,die=6,horizon=1000,target=10\": pig bonus=10 is not allowed with \
         target=10: expected 0..9",
    );
    bad(
        &["--search", "bonus=0,1000", "--level", "4"],
        "--search \"bonus=0,1000\": game \"pig:bonus=1000\": bonus=1000 is not valid: expected \
         integer 0..999",
    );
    bad(
        &["--search", "bonsu=0,1", "--level", "4"],
        "--search \"bonsu=0,1\": game \"pig:bonsu=0\": unknown parameter \"bonsu\" (valid: \
         bonus, die, horizon, target)",
    );
    bad(
        &["--search", "bonus=0,1", "--level", "9"],
        "--level: \"9\" is not a level of the pig ladder (valid: 1 to 4)",
    );
    bad(
        &["--search", "bonus=0,1", "--level", "4", "--round", "3"],
        "--round must be even and at least 2 (games 2k and 2k+1 form a pair), got 3",
    );
    bad(
        &["--search", "bonus=0,1", "--level", "4", "--budget", "10"],
        "--budget 10 is less than one round of two candidates (200 games); raise it or lower \
         --round",
    );
    bad(
        &["--search", "bonus=0,1", "--level", "4", "--width", "0"],
        "--width 0 is not valid: expected points of score above 0, at most 100",
    );
    bad(
        &["--search", "bonus=0,1", "--level", "4", "--shard", "1/2"],
        "--shard cannot split a --search: each round's candidates depend on the rounds before \
         it; run the race on one machine (--threads 0 uses every core)",
    );
}

#[test]
fn games_that_repeat_are_reported() {
    // Invector 4×3 from its first position, depth 1 against itself: every game of a
    // candidate is the same game.
    let dir = scratch("repeats");
    let done = agon(&[
        "balance",
        "--game",
        "invector:width=4,height=3",
        "--search",
        "handicap=0,1",
        "--level",
        "2",
        "--random-opening",
        "0",
        "--round",
        "4",
        "--budget",
        "16",
        "--games",
        "2",
        "--out",
        text(&dir),
    ]);
    ok(&done);
    assert!(
        stdout(&done).contains(
            "\nwarning: games repeat (distinct games: 1 of 8 for c01, 1 of 8 for c02), so the \
             intervals are too narrow (vary the start with --random-opening or --openings, or \
             give the agents noise)\n"
        ),
        "{}",
        stdout(&done)
    );
}
