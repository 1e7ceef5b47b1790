//! End-to-end tests of the soundness check of random openings: `agon openings` writes a
//! book whose every line the checker judges sound (and whose refused draws it judges
//! decided), the book plays as `--openings`, a tournament's `--opening-check` replaces
//! exactly the decided openings and is part of the run's identity, and bad input is
//! refused with one line.

use std::path::Path;

use crate::common;
use common::{agon, assert_bad_input, ok, scratch, stdout, text, tournament_into};

/// The checker of Connect Four's default check, and its window.
const CHECKER: &str = "ab:depth=8,hash=1";
const WINDOW: f64 = 60.0;

/// The value `agon analyse` with the default checker gives the Connect Four position
/// after `line`: `Some(score)` for an estimate, `None` for a proven result.
fn checker_value(line: &str) -> Option<f64> {
    let out = agon(&[
        "analyse", "--game", "connect4", "--moves", line, "--agent", CHECKER,
    ]);
    ok(&out);
    let text = stdout(&out);
    let last = text.lines().last().unwrap().to_string();
    let value = last.split(" value ").nth(1).unwrap();
    let first = value.split(' ').next().unwrap();
    first.parse().ok()
}

/// The move lists of a book, with the value comment of each line if any.
fn book_lines(path: &Path) -> Vec<(String, Option<String>)> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| match l.split_once("  # ") {
            Some((moves, value)) => (moves.to_string(), Some(value.to_string())),
            None => (l.to_string(), None),
        })
        .collect()
}

#[test]
fn a_book_holds_only_sound_openings_and_plays_as_an_openings_file() {
    let dir = scratch("opening-book");
    let book = dir.join("c4.book");
    let args = |out: &Path, check: &str| {
        agon(&[
            "openings",
            "--game",
            "connect4",
            "--plies",
            "4",
            "--count",
            "30",
            "--seed",
            "3",
            "--opening-check",
            check,
            "--out",
            text(out),
        ])
    };
    let written = args(&book, "default");
    ok(&written);
    assert_eq!(
        stdout(&written),
        format!(
            "wrote 30 openings of 4 decisions of connect4 into {}\nthe check \
             (ab:depth=8,hash=1,threads=1 within 60) refused 3 of the 33 different openings \
             it judged\n",
            book.display()
        )
    );
    let checked = book_lines(&book);
    assert_eq!(checked.len(), 30);
    let mut distinct: Vec<&String> = checked.iter().map(|(m, _)| m).collect();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), 30, "no two lines alike");
    // Every line's comment is the checker's value there, within the window.
    for (moves, value) in &checked {
        assert_eq!(moves.split(' ').count(), 4);
        let found = checker_value(moves).unwrap_or_else(|| panic!("{moves} is decided"));
        assert_eq!(
            value.as_deref(),
            Some(format!("{found}").as_str()),
            "{moves}"
        );
        assert!(found.abs() <= WINDOW, "{moves}: {found}");
    }
    // Without the check the same seed deals the same draws, the three refused among
    // them: each one the checker finds decided or far from even.
    let unchecked_path = dir.join("unchecked.book");
    ok(&args(&unchecked_path, "none"));
    let unchecked = book_lines(&unchecked_path);
    assert!(unchecked.iter().all(|(_, value)| value.is_none()));
    let refused: Vec<&String> = unchecked
        .iter()
        .map(|(m, _)| m)
        .filter(|m| !checked.iter().any(|(c, _)| c == *m))
        .collect();
    assert!(!refused.is_empty(), "some draws were refused");
    for moves in refused {
        assert!(
            checker_value(moves).is_none_or(|v| v.abs() > WINDOW),
            "{moves} was refused but is sound"
        );
    }
    // The book plays as an openings file, its comments ignored.
    let run = dir.join("run");
    ok(&tournament_into(
        "connect4",
        &["ab:depth=2", "greedy"],
        &run,
        &["--games", "4", "--openings", text(&book)],
    ));
    let games = std::fs::read_to_string(run.join("games.csv")).unwrap();
    assert!(games.contains(&format!(",4,{} ", checked[0].0)), "{games}");
    // A book is never replaced.
    let before = std::fs::read(&book).unwrap();
    assert_bad_input(
        &[
            "openings",
            "--game",
            "connect4",
            "--count",
            "3",
            "--out",
            text(&book),
        ],
        &format!(
            "--out \"{}\" exists; choose another file or remove it (a book is never replaced)",
            book.display()
        ),
    );
    assert_eq!(std::fs::read(&book).unwrap(), before);
}

#[test]
fn bad_books_are_refused_with_one_line() {
    let out = scratch("opening-book-bad").join("x.book");
    let o = text(&out);
    assert_bad_input(
        &[
            "openings", "--game", "connect4", "--plies", "0", "--count", "3", "--out", o,
        ],
        "--plies 0: an opening is 1 to 1000 decisions",
    );
    assert_bad_input(
        &["openings", "--game", "connect4", "--count", "0", "--out", o],
        "--count 0: a book holds 1 to 1000000 lines",
    );
    assert_bad_input(
        &["openings", "--game", "invector", "--count", "3", "--out", o],
        "--plies 4: invector:height=7,pie=true,width=8 has a pie rule, whose swap decision \
         (decision 2) belongs to the players and cannot be in a book line; at most 1 here",
    );
    assert_bad_input(
        &[
            "openings",
            "--game",
            "connect4",
            "--count",
            "3",
            "--opening-window",
            "-2",
            "--out",
            o,
        ],
        "--opening-window -2: the window must be a number at least 0 (the largest checker \
         value counted as balanced)",
    );
    assert!(!out.exists());
}

#[test]
fn a_checked_tournament_replaces_only_the_decided_openings() {
    let dir = scratch("opening-check-run");
    let run = |name: &str, extra: &[&str]| {
        let out = dir.join(name);
        let mut args = vec!["--games", "20", "--seed", "2", "--random-opening", "4"];
        args.extend(extra);
        ok(&tournament_into("connect4", &["ab:depth=2"], &out, &args));
        out
    };
    let checked = run("checked", &["--opening-check", "default", "--threads", "2"]);
    let plain = run("plain", &["--threads", "2"]);
    let meta = std::fs::read_to_string(checked.join("meta.csv")).unwrap();
    assert!(
        meta.contains("\nopening_check,\"ab:depth=8,hash=1,threads=1 within 60\"\n"),
        "{meta}"
    );
    assert!(!std::fs::read_to_string(plain.join("meta.csv"))
        .unwrap()
        .contains("\nopening_check,"));
    // Self-play: game g opens with deal g's opening. Where the two runs differ, the
    // unchecked opening was decided or far from even; where they agree, it was sound.
    let openings = |dir: &Path| -> Vec<String> {
        let mut reader = csv::Reader::from_path(dir.join("games.csv")).unwrap();
        let headers = reader.headers().unwrap().clone();
        let moves = headers.iter().position(|h| h == "moves").unwrap();
        reader
            .records()
            .map(|r| {
                let r = r.unwrap();
                r[moves].split(' ').take(4).collect::<Vec<_>>().join(" ")
            })
            .collect()
    };
    let (a, b) = (openings(&checked), openings(&plain));
    let mut replaced = 0;
    for (kept, drawn) in a.iter().zip(&b) {
        let sound = |line: &str| checker_value(line).is_some_and(|v| v.abs() <= WINDOW);
        assert!(sound(kept), "{kept} was dealt but is not sound");
        if kept != drawn {
            replaced += 1;
            assert!(!sound(drawn), "{drawn} was replaced but is sound");
        }
    }
    assert!(replaced > 0, "seed 2 draws a decided opening among 20");
    // One thread plays the same games.
    let one = run(
        "one-thread",
        &["--opening-check", "default", "--threads", "1"],
    );
    assert_eq!(
        std::fs::read(checked.join("games.csv")).unwrap(),
        std::fs::read(one.join("games.csv")).unwrap()
    );
    // Another check is another run: refused, naming the difference.
    let other = agon(&[
        "tournament",
        "--game",
        "connect4",
        "--agents",
        "ab:depth=2",
        "--games",
        "20",
        "--seed",
        "2",
        "--random-opening",
        "4",
        "--opening-window",
        "30",
        "--resume",
        "--out",
        text(&checked),
    ]);
    assert_eq!(other.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&other.stderr).contains(
            "opening check \"ab:depth=8,hash=1,threads=1 within 60\" there, \
             \"ab:depth=8,hash=1,threads=1 within 30\" here"
        ),
        "{}",
        String::from_utf8_lossy(&other.stderr)
    );
    // A check needs random openings.
    assert_bad_input(
        &[
            "tournament",
            "--game",
            "connect4",
            "--agents",
            "random",
            "--opening-check",
            "default",
            "--out",
            text(&dir.join("none")),
        ],
        "--opening-check and --opening-window judge random openings; add --random-opening K \
         (a line of an openings file is not checked)",
    );
    // A study whose arms have no random openings refuses an explicit check, and says
    // why; `none` is accepted.
    let study = dir.join("study");
    assert_bad_input(
        &[
            "balance",
            "--game",
            "pig",
            "--levels",
            "2,3",
            "--opening-check",
            "default",
            "--out",
            text(&study),
        ],
        "--opening-check and --opening-window judge random openings, and no arm of this \
         study has them (a game with chance starts from its first position by default); \
         add --random-opening K",
    );
    assert!(!study.exists());
}
