//! `agon tune` end to end: what it prints and writes, the same at any thread count, from
//! self-play or from a run folder, and its refusals of bad input.

use crate::common;
use common::{agon, assert_bad, ok, scratch, stderr, stdout, text, tournament_into};

/// Runs `agon tune --game connect4` on 30 self-play games (seed 3) into `out`, then
/// `extra`.
fn tune_connect4(out: &str, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "tune", "--game", "connect4", "--games", "30", "--seed", "3", "--out", out,
    ];
    args.extend_from_slice(extra);
    agon(&args)
}

/// Whether `text` is a loss with six decimals.
fn is_loss(text: &str) -> bool {
    let (whole, decimals) = text.split_once('.').unwrap_or(("", ""));
    !whole.is_empty()
        && whole.bytes().all(|b| b.is_ascii_digit())
        && decimals.len() == 6
        && decimals.bytes().all(|b| b.is_ascii_digit())
}

#[test]
fn tune_ends_with_the_losses_and_writes_the_same_file_at_any_thread_count() {
    let dir = scratch("threads");
    let (one, two) = (dir.join("one.toml"), dir.join("two.toml"));
    let first = tune_connect4(text(&one), &["--threads", "1"]);
    ok(&first);
    let second = tune_connect4(text(&two), &["--threads", "2"]);
    ok(&second);
    assert_eq!(stdout(&first), stdout(&second));
    let file = std::fs::read_to_string(&one).unwrap();
    assert_eq!(file, std::fs::read_to_string(&two).unwrap());

    let out = stdout(&first);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        "tune connect4: 30 games of ab:depth=2 (random opening 4), seed 3"
    );
    assert!(lines[1].starts_with("positions: "), "{out}");
    assert!(lines[2].starts_with("K: "), "{out}");
    let last = lines.last().unwrap();
    let losses: Vec<&str> = last.strip_prefix("loss ").unwrap().split(" -> ").collect();
    assert!(
        losses.len() == 2 && losses.iter().all(|l| is_loss(l)),
        "{last}"
    );
    // Every weight under its help; nothing else in the folder (no temporary file).
    let names: Vec<&str> = file
        .lines()
        .filter(|l| !l.starts_with("# "))
        .map(|l| l.split(" = ").next().unwrap())
        .collect();
    assert_eq!(names, ["two", "three", "centre"], "{file}");
    assert_eq!(file.lines().count(), 6, "{file}");
    let mut entries: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    entries.sort();
    assert_eq!(entries, ["one.toml", "two.toml"]);
}

#[test]
fn a_bad_start_from_an_eval_file_is_improved_and_the_written_file_reads_back() {
    let dir = scratch("eval");
    let zeros = dir.join("zeros.toml");
    std::fs::write(&zeros, "two = 0\nthree = 0\ncentre = 0\n").unwrap();
    let tuned = dir.join("tuned.toml");
    // The games of the unit test's bad start (60, seed 5): with fewer, a handful of
    // held-out games decides whether any fit generalises.
    let o = agon(&[
        "tune",
        "--game",
        "connect4",
        "--games",
        "60",
        "--seed",
        "5",
        "--out",
        text(&tuned),
        "--eval",
        text(&zeros),
    ]);
    ok(&o);
    let out = stdout(&o);
    let losses: Vec<f64> = out
        .lines()
        .last()
        .unwrap()
        .strip_prefix("loss ")
        .unwrap()
        .split(" -> ")
        .map(|l| l.parse().unwrap())
        .collect();
    assert!(losses[1] < losses[0] - 0.005, "{out}");
    // The fitted file is a start again, and an agent's weights.
    ok(&tune_connect4(
        text(&dir.join("again.toml")),
        &["--eval", text(&tuned)],
    ));
    let agent = format!("ab:depth=2,eval={}", text(&tuned));
    ok(&agon(&["analyse", "--game", "connect4", "--agent", &agent]));
}

#[test]
fn tune_reads_the_games_of_a_run_folder_of_its_game() {
    let dir = scratch("from");
    let run = dir.join("run");
    ok(&tournament_into(
        "connect4",
        &["ab:depth=2", "greedy"],
        &run,
        &["--games", "20", "--random-opening", "2", "--seed", "4"],
    ));
    let weights = dir.join("w.toml");
    let tune_from = |game: &str| {
        agon(&[
            "tune",
            "--game",
            game,
            "--from",
            text(&run),
            "--out",
            text(&weights),
        ])
    };
    let o = tune_from("connect4");
    ok(&o);
    let out = stdout(&o);
    assert!(
        out.starts_with(&format!(
            "tune connect4: 20 games of {}, seed 1\n",
            text(&run)
        )),
        "{out}"
    );
    // Games 4, 9, 14 and 19 are held out.
    assert!(
        out.lines()
            .nth(1)
            .unwrap()
            .ends_with("(from 4 of 20 games)"),
        "{out}"
    );
    assert!(weights.is_file());

    // Another game than the run's is refused, and so is an edited row.
    let o = tune_from("invector");
    assert_bad(
        &o,
        &format!(
            "--game invector:height=7,pie=true,width=8 differs from the game of the run in \
             \"{}\" (connect4); give --game connect4",
            text(&run)
        ),
    );
    let games = run.join("games.csv");
    let csv = std::fs::read_to_string(&games).unwrap();
    std::fs::write(
        &games,
        csv.replacen(",ab:depth=2,greedy,", ",ab:depth=3,greedy,", 1),
    )
    .unwrap();
    let o = tune_from("connect4");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("games.csv line 2 "), "{}", stderr(&o));
}

#[test]
fn bad_tune_input_is_one_line_and_exit_2() {
    let dir = scratch("bad");
    let out = dir.join("w.toml");
    let out = text(&out);
    let refused = |args: &[&str], start: &str| {
        let o = agon(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        let err = stderr(&o);
        assert!(
            err.starts_with(&format!("error: {start}")),
            "{args:?}: {err}"
        );
        assert_eq!(err.lines().count(), 1, "{err}");
        assert_eq!(stdout(&o), "");
    };
    refused(
        &["tune", "--game", "connect4", "--games", "0", "--out", out],
        "--games must be 1 to 1000000, got 0",
    );
    refused(
        &["tune", "--game", "nope", "--out", out],
        "unknown game \"nope\" (valid: ",
    );
    refused(
        &[
            "tune",
            "--game",
            "connect4",
            "--from",
            "/nonexistent/run",
            "--out",
            out,
        ],
        "--from: run folder \"/nonexistent/run\" does not exist",
    );
    refused(
        &[
            "tune",
            "--game",
            "connect4",
            "--from",
            text(&dir),
            "--games",
            "4",
            "--out",
            out,
        ],
        "the argument '--from <DIR>' cannot be used with '--games <N>'",
    );
    refused(
        &["tune", "--game", "connect4", "--out", text(&dir)],
        &format!(
            "--out \"{}\" is a folder; name the weights file to write",
            text(&dir)
        ),
    );
    refused(
        &["tune", "--game", "pig", "--agent", "ab", "--out", out],
        "agent \"ab\" needs a deterministic game: alpha-beta cannot search chance nodes",
    );
    let bad_weights = dir.join("bad.toml");
    std::fs::write(&bad_weights, "twos = 1\n").unwrap();
    refused(
        &[
            "tune",
            "--game",
            "connect4",
            "--eval",
            text(&bad_weights),
            "--out",
            out,
        ],
        &format!(
            "weights file \"{}\": unknown weight \"twos\" (valid: two, three, centre)",
            text(&bad_weights)
        ),
    );
    assert!(!std::path::Path::new(out).exists());
}
