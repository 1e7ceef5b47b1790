//! End-to-end tests of outside programs: the `ext:` agent in tournaments (Agon's own
//! `agon serve` as the program, faulty programs that forfeit, bad specs), `agon serve`
//! driven by hand, and the Python example bots of `examples/`.

mod common;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::{agon_in, assert_bad_input, ok, scratch, stderr, stdout, text, tournament_into};

/// The `agon` binary under test.
const AGON: &str = env!("CARGO_BIN_EXE_agon");

/// The rows of games.csv in `dir` as maps from column to value.
fn games(dir: &Path) -> Vec<std::collections::HashMap<String, String>> {
    let mut reader = csv::Reader::from_path(dir.join("games.csv")).unwrap();
    let header = reader.headers().unwrap().clone();
    reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            header
                .iter()
                .zip(r.iter())
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect()
        })
        .collect()
}

/// The label of the winner of a games.csv row; `None` for a draw.
fn winner(row: &std::collections::HashMap<String, String>) -> Option<&str> {
    match row["winner"].as_str() {
        "" => None,
        seat => Some(row[&format!("agent{seat}")].as_str()),
    }
}

/// An executable shell script `name` in `dir` with `body` after its `#!/bin/sh` line.
fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}")).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    path
}

/// A shell loop that answers the handshake and runs `on_go` at each `go`.
fn engine_loop(on_go: &str) -> String {
    format!(
        "while read -r line; do\n  case \"$line\" in\n    ugi) echo ugiok ;;\n    \
         isready) echo readyok ;;\n    go*) {on_go} ;;\n    quit) exit 0 ;;\n  esac\ndone\n"
    )
}

#[test]
fn agons_client_plays_agons_server_and_the_same_seed_gives_the_same_games() {
    let dir = scratch("served");
    let server = format!("ext:cmd={AGON},args=serve --agent greedy,name=served");
    let mut runs = Vec::new();
    for run in ["one", "two"] {
        let out = dir.join(run);
        let o = tournament_into(
            "connect4",
            &[&server, "random"],
            &out,
            &["--games", "6", "--seed", "5", "--threads", "2"],
        );
        ok(&o);
        runs.push(out);
    }
    let rows = games(&runs[0]);
    assert_eq!(rows.len(), 6);
    for row in &rows {
        assert_ne!(row["end_reason"], "forfeit", "{row:?}");
        assert_eq!(row["note"], "", "{row:?}");
        assert!(
            row["agent0"] == "served" || row["agent1"] == "served",
            "{row:?}"
        );
    }
    // Greedy wins most games against random; the served agent really plays.
    let served_wins = rows.iter().filter(|r| winner(r) == Some("served")).count();
    assert!(served_wins >= 4, "{rows:?}");
    common::assert_same_files(&runs[0], &runs[1], &["games.csv"]);

    // meta.csv records the program's digest and path, one row per agent.
    let meta = std::fs::read_to_string(runs[0].join("meta.csv")).unwrap();
    let path = std::fs::canonicalize(AGON).unwrap();
    let program = meta
        .lines()
        .find(|l| l.starts_with("program,") && l.len() > "program,".len())
        .unwrap_or_else(|| panic!("{meta}"));
    let value = program.trim_start_matches("program,");
    let (digest, recorded) = value.split_once(' ').unwrap();
    assert_eq!(digest.len(), 16, "{value}");
    assert!(digest.bytes().all(|b| b.is_ascii_hexdigit()), "{value}");
    assert_eq!(Path::new(recorded), path);
    assert!(meta.contains("\nprogram,\n"), "{meta}");
    // The server's standard error goes to a log per seat.
    assert!(runs[0].join("ext-served-seat0.log").is_file());
    assert!(runs[0].join("ext-served-seat1.log").is_file());
}

#[test]
fn a_changed_program_is_another_run() {
    let dir = scratch("changed");
    let bot = script(&dir, "bot.sh", &engine_loop("echo bestmove d"));
    let spec = format!("ext:cmd={}", text(&bot));
    let out = dir.join("run");
    ok(&tournament_into(
        "connect4",
        &[&spec, "random"],
        &out,
        &["--games", "2"],
    ));
    std::fs::write(
        &bot,
        format!("#!/bin/sh\n# edited\n{}", engine_loop("echo bestmove d")),
    )
    .unwrap();
    let o = tournament_into(
        "connect4",
        &[&spec, "random"],
        &out,
        &["--games", "2", "--resume"],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("outside programs (digest and path)"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_faulty_program_forfeits_its_games_with_the_reason_and_the_run_goes_on() {
    let dir = scratch("faults");
    let cases = [
        (
            script(&dir, "exits.sh", "exit 3\n"),
            "exited (exit status: 3)",
        ),
        (
            script(&dir, "hangs.sh", &engine_loop(":")),
            "timed out after 300ms while thinking",
        ),
        (
            script(&dir, "illegal.sh", &engine_loop("echo bestmove z9")),
            "answered the illegal move \"z9\"",
        ),
    ];
    for (program, reason) in cases {
        let out = dir.join(program.file_stem().unwrap());
        let spec = format!("ext:cmd={},timeout=300ms,name=bot", text(&program));
        let o = tournament_into(
            "connect4",
            &[&spec, "random"],
            &out,
            &["--games", "2", "--seed", "3"],
        );
        ok(&o);
        let rows = games(&out);
        assert_eq!(rows.len(), 2, "{reason}");
        for row in &rows {
            assert_eq!(row["end_reason"], "forfeit", "{row:?}");
            let seat = if row["agent0"] == "bot" { "0" } else { "1" };
            assert_ne!(row["winner"], seat, "{row:?}");
            assert!(
                row["note"].starts_with(&format!("seat {seat} (bot) ")),
                "{row:?}"
            );
            assert!(row["note"].contains(reason), "{reason}: {row:?}");
        }
    }
}

#[test]
fn an_ext_spec_without_a_program_is_refused_before_any_game() {
    let dir = scratch("bad-specs");
    let out = dir.join("run");
    let o = tournament_into("connect4", &["ext:name=x", "random"], &out, &[]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        "error: agent ext: missing cmd=PATH (the program to run; valid parameters: args, \
         cmd, depth, dir, name, nodes, timeout)\n"
    );
    assert_bad_input(
        &[
            "tournament",
            "--game",
            "connect4",
            "--agents",
            "ext:cmd=./no/such/bot",
            "random",
            "--out",
            text(&out),
        ],
        "agent ext: cmd=./no/such/bot is not an executable file",
    );
    assert!(!out.exists(), "nothing is written for a refused run");
}

#[test]
fn play_and_analyse_tell_an_outside_program_the_line_of_moves() {
    let server = format!("ext:cmd={AGON},args=serve --agent greedy --game connect4,depth=1");
    let o = agon_in(
        None,
        &["play", "--game", "connect4", "--agents", &server, "random"],
        "",
    );
    ok(&o);
    assert!(stdout(&o).contains("game over after"), "{}", stdout(&o));
    // Three red stones in column a: greedy, told the line, takes the win in a.
    let o = agon_in(
        None,
        &[
            "analyse",
            "--game",
            "connect4",
            "--moves",
            "a b a b a b",
            "--agent",
            &server,
        ],
        "",
    );
    ok(&o);
    assert!(stdout(&o).contains("\nbestmove a "), "{}", stdout(&o));
    // An outside program is never asked at a chance node.
    let o = agon_in(
        None,
        &[
            "analyse",
            "--game",
            "pig",
            "--moves",
            "roll",
            "--agent",
            &format!("ext:cmd={AGON},args=serve --agent random"),
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

#[test]
fn serve_answers_a_session_by_the_protocol() {
    let session = "ugi\nisready\nsetoption name seed value 7\nuginewgame\n\
                   position startpos moves d d d d d d\nnonsense command\ngo depth 2\n\
                   position startpos\ngo nodes 50\nquit\n";
    let o = agon_in(
        None,
        &["serve", "--agent", "ab", "--game", "connect4"],
        session,
    );
    ok(&o);
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("id name agon "), "{out}");
    assert!(
        lines.contains(&"ugiok") && lines.contains(&"readyok"),
        "{out}"
    );
    let best: Vec<&str> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("bestmove "))
        .collect();
    assert_eq!(best.len(), 2, "{out}");
    // Each answer follows the info line of its search.
    for (i, line) in lines.iter().enumerate() {
        if line.starts_with("bestmove ") {
            assert!(lines[i - 1].starts_with("info depth "), "{out}");
        }
    }
    // Column d is full after six stones: any other column is legal.
    assert!(["a", "b", "c", "e", "f", "g"].contains(&best[0]), "{out}");
    assert!(("a"..="g").contains(&best[1]), "{out}");

    // Without a game, go says why and answers no move.
    let o = agon_in(None, &["serve", "--agent", "random"], "go\nquit\n");
    ok(&o);
    assert_eq!(
        stdout(&o),
        "info string error: no game: send setoption name game value <game spec>\n\
         bestmove (none)\n"
    );
}

#[test]
fn the_python_example_bots_play_a_tournament_with_agons_greedy() {
    if Command::new("python3").arg("--version").output().is_err() {
        assert!(
            std::env::var_os("CI").is_none(),
            "python3 is needed for the example bots in CI"
        );
        eprintln!("skipped: python3 is not installed (the example bots need it)");
        return;
    }
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
    let bot = |name: &str| {
        format!(
            "ext:cmd=python3,args={},name=py-{name}",
            text(&examples.join(format!("{name}_bot.py")))
        )
    };
    let out = scratch("python").join("run");
    let o = tournament_into(
        "connect4",
        &[&bot("random"), &bot("greedy"), "greedy"],
        &out,
        &["--games", "4", "--seed", "2"],
    );
    ok(&o);
    let rows = games(&out);
    assert_eq!(rows.len(), 12);
    for row in &rows {
        assert_ne!(row["end_reason"], "forfeit", "{row:?}");
    }
    // The one-ply bot takes an immediate win and blocks an immediate loss, so it beats
    // the random bot in most games.
    let greedy_wins = rows
        .iter()
        .filter(|r| r["pairing"] == "0")
        .filter(|r| winner(r) == Some("py-greedy"))
        .count();
    assert!(greedy_wins >= 3, "{rows:?}");
}
