//! Every game that `agon games` lists, in every command: perft, analyse, play, tournament
//! and bench, plus the refusals worth pinning per game.
//!
//! The commands and their expected outputs are a transcript per game,
//! `golden/games/<name>.txt`: free text up to the first case, then cases, each a line
//! `$ <arguments>` (split at spaces; `'...'` keeps spaces; `{out}` is a fresh output
//! folder, `{last}` the one the latest case with `{out}` wrote) followed by the command's output as [`render`] writes it. The test reruns
//! every case and compares the whole transcript byte for byte; with
//! `AGON_UPDATE_GOLDEN=1` it writes the actual outputs under the same commands instead
//! (see `common/golden.rs`). A game added to `agon` without a transcript fails here.

use std::path::Path;
use std::process::Output;

use crate::common;
use common::golden::check_golden;
use common::{agon, scratch, stderr, stdout, stdout_without_speed, text};

/// The commands every game's transcript must run at least once.
const COMMANDS: [&str; 7] = [
    "perft",
    "analyse",
    "play",
    "tournament",
    "bench",
    "show",
    "replay",
];

/// The games `agon games` lists: the first word of each paragraph that has lines below
/// its heading (the closing `spec: ...` line is a paragraph of one line).
fn listed_games() -> Vec<String> {
    let o = agon(&["games"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    stdout(&o)
        .split("\n\n")
        .filter(|paragraph| paragraph.trim_end().lines().count() > 1)
        .map(|paragraph| paragraph.split(':').next().unwrap().to_string())
        .collect()
}

/// The arguments of a `$` line: words split at spaces, `'...'` one word with its spaces.
fn arguments(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut rest = line.trim();
    while !rest.is_empty() {
        let (word, after) = match rest.strip_prefix('\'') {
            Some(quoted) => quoted.split_once('\'').expect("a closing quote"),
            None => rest.split_once(' ').unwrap_or((rest, "")),
        };
        words.push(word.to_string());
        rest = after.trim_start();
    }
    words
}

/// The `$` line of `args` (the inverse of [`arguments`]).
fn command_line(args: &[String]) -> String {
    let words: Vec<String> = args
        .iter()
        .map(|a| {
            if a.contains(' ') || a.is_empty() {
                format!("'{a}'")
            } else {
                a.clone()
            }
        })
        .collect();
    format!("$ {}\n", words.join(" "))
}

/// `words` with the number after each of `names` replaced by `*` (timings).
fn mask_numbers_after(line: &str, names: &[&str]) -> String {
    let mut words: Vec<&str> = line.split(' ').collect();
    for i in 1..words.len() {
        if names.contains(&words[i - 1]) && words[i].parse::<f64>().is_ok() {
            words[i] = "*";
        }
    }
    words.join(" ")
}

/// What a transcript records of a command's output: for a refusal, `exit N` and standard
/// error (then standard output, if any); otherwise, per command, all that is
/// reproducible: perft's and analyse's standard output (analyse's timings masked), the
/// first and last line of a played game, a tournament's printed report (speed section
/// cut, the folder as `{out}`) and its games.csv, bench's game, position, agent and nodes
/// per line (of a playout line, its game), a drawn position whole, and a replay's start,
/// first ply and end.
fn render(args: &[String], o: &Output, out: &Path) -> String {
    let code = o.status.code();
    if code != Some(0) {
        let mut text = format!("exit {}\n{}", code.unwrap_or(-1), stderr(o));
        if !o.stdout.is_empty() {
            text += &format!("stdout:\n{}", stdout(o));
        }
        return text;
    }
    let lines = |text: String, line: &dyn Fn(&str) -> String| -> String {
        text.lines().map(|l| line(l) + "\n").collect()
    };
    match args[0].as_str() {
        "perft" => {
            assert!(stderr(o).starts_with("nps "), "{args:?}: {}", stderr(o));
            let text = stdout(o);
            if args.iter().any(|a| a == "--divide") {
                assert_divide_sums_to_the_total(&text);
            }
            text
        }
        "analyse" => lines(stdout(o), &|l| mask_numbers_after(l, &["time_ms", "nps"])),
        "show" => stdout(o),
        "replay" => {
            // The start, the first ply and the end: each ply is a block ending in a
            // blank line.
            let text = stdout(o);
            let blocks: Vec<&str> = text.split_inclusive("\n\n").collect();
            let last = blocks[blocks.len() - 1];
            format!("{}{}...\n{last}", blocks[0], blocks[1])
        }
        "play" => {
            let text = stdout(o);
            let all: Vec<&str> = text.lines().collect();
            format!("{}\n...\n{}\n", all[0], all[all.len() - 1])
        }
        "tournament" => format!(
            "{}games.csv:\n{}",
            stdout_without_speed(o).replace(text(out), "{out}"),
            std::fs::read_to_string(out.join("games.csv")).unwrap()
        ),
        "bench" => lines(stdout(o), &|l| {
            // A playout line's numbers are timings: only its game is kept.
            let words = if l.starts_with("playout ") { 2 } else { 4 };
            l.split_whitespace()
                .take(words)
                .collect::<Vec<_>>()
                .join(" ")
        }),
        other => panic!("{args:?}: no rendering for command {other:?}"),
    }
}

/// perft --divide: the counts below each move add up to the total on the last line.
fn assert_divide_sums_to_the_total(text: &str) {
    let lines: Vec<&str> = text.lines().collect();
    let count = |line: &str| line.rsplit(' ').next().unwrap().parse::<u64>().unwrap();
    let (last, moves) = lines.split_last().unwrap();
    assert!(last.starts_with("perft "), "{text}");
    assert_eq!(
        moves.iter().map(|l| count(l)).sum::<u64>(),
        count(last),
        "{text}"
    );
}

/// Runs every case of `game`'s transcript and checks (or updates) the file.
fn check_game(game: &str) -> Result<(), String> {
    let name = format!("games/{game}.txt");
    let path = common::golden::golden_path(&name);
    let file = std::fs::read_to_string(&path)
        .map_err(|e| format!("{game}: no transcript {}: {e}", path.display()))?;
    let (preamble, cases) = match file.find("\n$ ") {
        Some(at) => file.split_at(at + 1),
        None if file.starts_with("$ ") => ("", file.as_str()),
        None => (file.as_str(), ""),
    };
    let dir = scratch(game);
    let mut actual = preamble.to_string();
    let mut commands = Vec::new();
    let mut last_run = dir.join("none");
    for (i, line) in cases
        .lines()
        .filter_map(|l| l.strip_prefix("$ "))
        .enumerate()
    {
        let args = arguments(line);
        let out = dir.join(format!("out{i}"));
        let run: Vec<&str> = args
            .iter()
            .map(|a| match a.as_str() {
                "{out}" => text(&out),
                "{last}" => text(&last_run),
                _ => a.as_str(),
            })
            .collect();
        actual += &command_line(&args);
        actual += &render(&args, &agon(&run), &out).replace(text(&last_run), "{last}");
        if args.iter().any(|a| a == "{out}") {
            last_run = out;
        }
        commands.push(args[0].clone());
    }
    std::fs::remove_dir_all(&dir).unwrap();
    for command in COMMANDS {
        if !commands.iter().any(|c| c == command) {
            return Err(format!("{}: no `{command}` case", path.display()));
        }
    }
    check_golden(&name, &actual, &[])
}

#[test]
fn every_listed_game_runs_every_command_as_its_transcript_says() {
    let games = listed_games();
    assert!(games.len() >= 7, "{games:?}");
    // No transcript of a game that is not listed (one named wrongly would never run).
    let folder = common::golden::golden_path("games");
    for entry in std::fs::read_dir(&folder).unwrap() {
        let file = entry.unwrap().file_name().into_string().unwrap();
        let game = file.strip_suffix(".txt").unwrap_or(&file);
        assert!(
            games.iter().any(|g| g == game),
            "{}: {file} is not a listed game's transcript ({games:?})",
            folder.display()
        );
    }
    let failures: Vec<String> = std::thread::scope(|scope| {
        let runs: Vec<_> = games
            .iter()
            .map(|game| scope.spawn(move || check_game(game)))
            .collect();
        runs.into_iter()
            .filter_map(|run| run.join().unwrap().err())
            .collect()
    });
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
