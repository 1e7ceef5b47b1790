//! End-to-end tests of outside programs: the `ext:` agent in tournaments (Agon's own
//! `agon serve` as the program, faulty programs that forfeit, bad specs), `agon serve`
//! driven by hand, and the Python example bots of `examples/`.
//!
//! The hostile programs (floods, endless lines, helpers left behind, bytes that are not
//! UTF-8) are the shell scripts of `tests/fixtures/hostile/`, each described in its
//! first lines.

use crate::common;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

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
        // No move, and the reason the program gave (its last error line) in the note.
        (
            script(
                &dir,
                "none.sh",
                &engine_loop(
                    "echo 'info string error: first'; echo 'info string error: no move today'; \
                     echo 'bestmove (none)'",
                ),
            ),
            "answered no move: no move today",
        ),
        (
            script(&dir, "bare_none.sh", &engine_loop("echo 'bestmove (none)'")),
            "answered no move (bestmove (none))",
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
         cmd, depth, dir, movetime, name, nodes, timeout)\n"
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
fn serve_after_a_refused_game_plays_no_game_until_one_is_set() {
    // The game set before (by --game, then by setoption) is not played once the
    // controller has asked for another, even a refused one.
    let session = "setoption name game value nosuchgame\ngo\n\
                   setoption name game value connect4\nsetoption name game value pig:die=1\n\
                   position startpos\ngo\nsetoption name game value connect4\ngo depth 1\nquit\n";
    let o = agon_in(
        None,
        &["serve", "--agent", "ab", "--game", "connect4"],
        session,
    );
    ok(&o);
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    let no_game = "info string error: no game: send setoption name game value <game spec>";
    assert_eq!(lines[1..4], [no_game, "bestmove (none)", lines[3]], "{out}");
    assert!(
        lines[0].starts_with("info string error: unknown game"),
        "{out}"
    );
    assert!(lines[3].starts_with("info string error: "), "{out}");
    assert_eq!(lines[4..6], [no_game, "bestmove (none)"], "{out}");
    assert!(lines[6].starts_with("info depth 1 "), "{out}");
    assert!(lines[7].starts_with("bestmove "), "{out}");
    assert_eq!(lines.len(), 8, "{out}");
}

#[test]
fn a_served_agent_with_its_own_budget_plays_as_in_process() {
    // Without a limit in the ext spec, a plain `go` leaves the served agent its own
    // depth: the games are those of the same agent in process, move for move.
    let dir = scratch("own-budget");
    let served = format!("ext:cmd={AGON},args=serve --agent ab:depth=4,name=ab:depth=4");
    let mut moves = Vec::new();
    for (run, agent) in [("served", served.as_str()), ("in-process", "ab:depth=4")] {
        let out = dir.join(run);
        ok(&tournament_into(
            "connect4",
            &[agent, "random"],
            &out,
            &["--games", "4", "--seed", "9"],
        ));
        let rows = games(&out);
        assert_eq!(rows.len(), 4);
        for row in &rows {
            assert_ne!(row["end_reason"], "forfeit", "{row:?}");
        }
        moves.push(rows.iter().map(|r| r["moves"].clone()).collect::<Vec<_>>());
    }
    assert_eq!(moves[0], moves[1]);
}

#[test]
fn the_python_example_bots_play_a_tournament_with_agons_greedy() {
    // Never skipped: python3 is one of the test command's requirements (the README's),
    // as the documents' tables need it too.
    assert!(
        Command::new("python3").arg("--version").output().is_ok(),
        "python3 is needed for the example bots"
    );
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

/// The hostile program `name` of `tests/fixtures/hostile/`.
fn hostile(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/hostile")
        .join(name)
}

/// The longest any run of a hostile program may take: far beyond what each needs, so
/// that a run that never ends fails the test instead of hanging it.
const BOUND: Duration = Duration::from_secs(120);

/// Runs `agon` with `args`, feeding `stdin`, and stops it if it runs past [`BOUND`]
/// (failing the test). Its output goes through files, so that a flood cannot block it.
fn agon_bounded(args: &[&str], stdin: &[u8]) -> Output {
    static RUNS: AtomicUsize = AtomicUsize::new(0);
    let dir = scratch(&format!("bounded-{}", RUNS.fetch_add(1, Ordering::Relaxed)));
    let files = [dir.join("stdout"), dir.join("stderr")];
    let mut child = Command::new(AGON)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(std::fs::File::create(&files[0]).unwrap())
        .stderr(std::fs::File::create(&files[1]).unwrap())
        .spawn()
        .unwrap();
    // A program may stop reading before the end of its input: a refused write is not
    // this test's concern.
    let _ = child.stdin.take().unwrap().write_all(stdin);
    let began = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if began.elapsed() > BOUND {
            let _ = child.kill();
            let _ = child.wait();
            panic!("agon {args:?} did not end within {BOUND:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let [stdout, stderr] = files.map(|f| std::fs::read(f).unwrap());
    Output {
        status,
        stdout,
        stderr,
    }
}

/// The games.csv rows of a two-game tournament of the program `cmd` (labelled `bot`,
/// with the extra ext parameters `params`) against `random`, run in `out`.
fn bot_games(
    cmd: &Path,
    params: &str,
    out: &Path,
) -> Vec<std::collections::HashMap<String, String>> {
    let spec = format!("ext:cmd={},name=bot{params}", text(cmd));
    let o = agon_bounded(
        &[
            "tournament",
            "--game",
            "connect4",
            "--agents",
            &spec,
            "random",
            "--out",
            text(out),
            "--games",
            "2",
            "--seed",
            "3",
        ],
        b"",
    );
    ok(&o);
    let rows = games(out);
    assert_eq!(rows.len(), 2, "{rows:?}");
    rows
}

/// The seat of `bot` in a games.csv row.
fn bot_seat(row: &std::collections::HashMap<String, String>) -> &'static str {
    if row["agent0"] == "bot" {
        "0"
    } else {
        "1"
    }
}

#[test]
fn a_hostile_program_forfeits_at_its_first_move_with_the_reason_and_the_run_ends() {
    let dir = scratch("hostile");
    let z40 = "z".repeat(40);
    let cases = [
        // Timeouts far beyond what each case needs: the fault is not the clock.
        (
            "flood.sh",
            "wrote more than 4 MiB while thinking".to_string(),
        ),
        (
            "endless_line.sh",
            "wrote a line longer than 64 KiB while thinking".to_string(),
        ),
        (
            "long_move.sh",
            format!("answered the illegal move \"{z40}…\" (1000 bytes)"),
        ),
        (
            "not_utf8_bestmove.sh",
            "answered a bestmove line that is not UTF-8 while thinking".to_string(),
        ),
    ];
    for (name, reason) in cases {
        let program = hostile(name);
        let rows = bot_games(&program, ",timeout=60s", &dir.join(name));
        for row in &rows {
            let seat = bot_seat(row);
            assert_eq!(row["end_reason"], "forfeit", "{row:?}");
            assert_ne!(row["winner"], seat, "{row:?}");
            assert_eq!(
                row["note"],
                format!(
                    "seat {seat} (bot) ext program {:?} {reason}",
                    text(&program)
                ),
            );
        }
    }
}

#[test]
fn lines_a_program_writes_that_are_not_utf8_are_ignored() {
    let dir = scratch("not-utf8");
    for row in bot_games(&hostile("not_utf8_info.sh"), "", &dir) {
        assert_ne!(row["end_reason"], "forfeit", "{row:?}");
        assert_eq!(row["note"], "", "{row:?}");
    }
}

#[test]
fn a_node_count_beyond_the_bound_is_ignored() {
    let dir = scratch("huge-nodes");
    // The program reports 5 nodes, then 2^64 - 1: the last count within the bound is
    // the move's.
    for row in bot_games(&hostile("huge_nodes.sh"), "", &dir) {
        assert_ne!(row["end_reason"], "forfeit", "{row:?}");
        let seat = bot_seat(&row);
        let decisions: u64 = row[&format!("decisions{seat}")].parse().unwrap();
        assert!(decisions > 0, "{row:?}");
        assert_eq!(
            row[&format!("nodes{seat}")],
            (5 * decisions).to_string(),
            "{row:?}"
        );
    }
}

/// Whether process `pid` has ended (it is gone, or a zombie that nobody has reaped yet).
#[cfg(target_os = "linux")]
fn ended(pid: &str) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        // The state follows the command's name in parentheses.
        Ok(stat) => stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with(['Z', 'X'])),
        Err(_) => true,
    }
}

#[cfg(target_os = "linux")]
#[test]
fn the_processes_a_program_started_end_with_it() {
    let dir = scratch("helpers");
    let rows = bot_games(
        &hostile("wrapper.sh"),
        &format!(",dir={}", text(&dir)),
        &dir.join("run"),
    );
    for row in &rows {
        assert_ne!(row["end_reason"], "forfeit", "{row:?}");
    }
    let pids: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "pid"))
        .map(|p| std::fs::read_to_string(p).unwrap().trim().to_string())
        .collect();
    // One wrapper per game, each with its helper.
    assert_eq!(pids.len(), 2, "{pids:?}");
    // The helpers are stopped before agon exits; their reaping by the system may lag.
    let began = Instant::now();
    while !pids.iter().all(|pid| ended(pid)) {
        assert!(
            began.elapsed() < Duration::from_secs(10),
            "helpers {pids:?} still run after the tournament"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn a_programs_standard_error_is_logged_as_its_head_and_tail() {
    let dir = scratch("stderr");
    let out = dir.join("run");
    let rows = bot_games(&hostile("stderr_flood.sh"), "", &out);
    for row in &rows {
        assert_eq!(row["end_reason"], "forfeit", "{row:?}");
    }
    // The program wrote "first line\n", a million `e` and "\nlast line\n": 1000022 bytes,
    // of which the log keeps the first and the last 64 KiB.
    let kept = 64 * 1024;
    let head = format!("first line\n{}", "e".repeat(kept - 11));
    let tail = format!("{}\nlast line\n", "e".repeat(kept - 11));
    let marker = format!(
        "\n[agon: {} bytes of this program's standard error left out]\n",
        1_000_022 - 2 * kept
    );
    for seat in 0..2 {
        let log = std::fs::read_to_string(out.join(format!("ext-bot-seat{seat}.log"))).unwrap();
        assert!(
            log == format!("{head}{marker}{tail}"),
            "seat {seat}: {} bytes",
            log.len()
        );
    }
}

#[test]
fn a_programs_fault_in_analyse_play_or_serve_is_one_line() {
    let program = hostile("exits.sh");
    let spec = format!("ext:cmd={}", text(&program));
    let fault = format!(
        "ext program {:?} exited (exit status: 3) before it was ready",
        text(&program)
    );
    for args in [
        vec!["analyse", "--game", "connect4", "--agent", &spec],
        vec!["play", "--game", "connect4", "--agents", &spec, "random"],
    ] {
        let o = agon_bounded(&args, b"");
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert_eq!(stderr(&o), format!("error: {fault}\n"));
    }
    let o = agon_bounded(
        &["serve", "--agent", &spec, "--game", "connect4"],
        b"go\nquit\n",
    );
    ok(&o);
    assert_eq!(stderr(&o), "");
    assert_eq!(
        stdout(&o),
        format!("info string error: {fault}\nbestmove (none)\n")
    );
}

#[test]
fn serve_ignores_lines_it_cannot_read_and_refuses_limits_out_of_range() {
    let mut session = b"ugi\n\xff\xfe\nisready\n".to_vec();
    // A position line of 1.2 MB, past the bound: ignored, so the position stays the start.
    session.extend(b"position startpos moves ");
    session.extend("d ".repeat(600_000).as_bytes());
    session.extend(
        b"\ngo depth 99999\ngo depth 18446744073709551615\ngo nodes -3\ngo movetime soon\n\
          go depth\ngo depth 1\nquit\n",
    );
    let o = agon_bounded(&["serve", "--agent", "ab", "--game", "connect4"], &session);
    ok(&o);
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().skip_while(|l| *l != "ugiok").collect();
    assert_eq!(
        lines[..lines.len() - 2],
        [
            "ugiok",
            "readyok",
            "info string error: a line longer than 1 MiB is ignored",
            "info string error: go depth 99999 refused: ab takes depth as integer 1..255",
            "bestmove (none)",
            "info string error: go depth 18446744073709551615 refused: ab takes depth as \
             integer 1..255",
            "bestmove (none)",
            "info string error: go nodes -3 refused: ab takes nodes as integer 1..9223372036854775807",
            "bestmove (none)",
            "info string error: go movetime soon refused: a whole number of milliseconds is \
             expected",
            "bestmove (none)",
            "info string error: go depth refused: a value is expected",
            "bestmove (none)",
        ],
        "{out}"
    );
    // `go depth 1` searches the start position.
    assert!(lines[lines.len() - 2].starts_with("info depth 1 "), "{out}");
    assert!(lines[lines.len() - 1].starts_with("bestmove "), "{out}");
}
