//! What every end-to-end test of the `agon` binary needs: running it, reading its
//! output, scratch folders, and the check of a refusal (exit code 2, one line).
//!
//! Each test file compiles this module on its own and uses part of it.
#![allow(dead_code)]

pub mod golden;
pub mod runs;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// Runs `agon` with `args` in `dir` (the crate folder if `None`), feeding `stdin` (then
/// end of input).
pub fn agon_in(dir: Option<&Path>, args: &[&str], stdin: &str) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_agon"));
    command
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(dir) = dir {
        command.current_dir(dir);
    }
    let mut child = command.spawn().expect("agon starts");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().expect("agon runs")
}

/// Runs `agon` with `args` in the crate folder, with no input.
pub fn agon(args: &[&str]) -> Output {
    agon_in(None, args, "")
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

/// Standard output without its speed section (wall-clock times, which differ from run
/// to run): the lines from `speed (` up to and including the blank line after them.
/// Panics if there is no such section, so a test that strips it also checks it is there.
pub fn stdout_without_speed(o: &Output) -> String {
    let text = stdout(o);
    let start = text.find("\nspeed (").expect("a speed section") + 1;
    let end = start
        + text[start..]
            .find("\n\n")
            .expect("the end of the speed section")
        + 2;
    format!("{}{}", &text[..start], &text[end..])
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

/// A fresh, empty scratch folder unique to this test file, this test process and
/// `name`.
#[track_caller]
pub fn scratch(name: &str) -> PathBuf {
    // The calling file's name keeps two test modules' folders of the same name apart:
    // they run in one process.
    let caller = Path::new(std::panic::Location::caller().file());
    let module = caller.file_stem().unwrap().to_string_lossy();
    let dir = std::env::temp_dir().join(format!(
        "agon-{}-{module}-{}-{name}",
        env!("CARGO_CRATE_NAME"),
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A path as a command-line argument.
pub fn text(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// Asserts exit code 2, exactly `line` on standard error, nothing on standard output.
pub fn assert_bad(o: &Output, line: &str) {
    assert_eq!(o.status.code(), Some(2), "{}", stderr(o));
    assert_eq!(stderr(o), format!("error: {line}\n"));
    assert_eq!(stdout(o), "");
}

/// Asserts exit code 0 (standard error in the message otherwise).
pub fn ok(o: &Output) {
    assert_eq!(o.status.code(), Some(0), "{}", stderr(o));
}

/// Runs `agon tournament --game GAME --agents AGENTS... --out OUT`, then `extra`.
pub fn tournament_into(game: &str, agents: &[&str], out: &Path, extra: &[&str]) -> Output {
    let mut args = vec!["tournament", "--game", game, "--agents"];
    args.extend_from_slice(agents);
    args.extend_from_slice(&["--out", text(out)]);
    args.extend_from_slice(extra);
    agon(&args)
}

/// Asserts that `agon` with `args` is refused as [`assert_bad`] says.
pub fn assert_bad_input(args: &[&str], line: &str) {
    assert_bad(&agon(args), line);
}

/// Asserts that each of `files` holds the same bytes in folders `a` and `b`.
pub fn assert_same_files(a: &Path, b: &Path, files: &[&str]) {
    for file in files {
        let read = |dir: &Path| std::fs::read(dir.join(file)).unwrap();
        assert_eq!(
            read(a),
            read(b),
            "{file} differs between {} and {}",
            a.display(),
            b.display()
        );
    }
}

/// A small tournament without its output folder: Invector 5×4, alpha-beta at depth 2,
/// greedy and random, 4 games per pairing (12 games, so 6 seat-swapped pairs), seed 11.
pub const SMALL_TOURNAMENT: [&str; 11] = [
    "tournament",
    "--game",
    "invector:width=5,height=4",
    "--agents",
    "ab:depth=2",
    "greedy",
    "random",
    "--games",
    "4",
    "--seed",
    "11",
];

/// The arguments of [`SMALL_TOURNAMENT`] into `out`, then `extra`.
pub fn small_tournament<'a>(out: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = SMALL_TOURNAMENT.to_vec();
    args.extend_from_slice(&["--out", out]);
    args.extend_from_slice(extra);
    args
}
