//! Runs that survive: `agon tournament --resume` after a `kill -9` of a real run, after a
//! torn write, and the refusal of folders that are not this run (exit 2, nothing
//! changed). Every check compares file bytes with an uninterrupted run's.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::common;
use common::runs::{assert_same_run, lines, quick, read, stopped_copy};
use common::{agon, scratch, stdout_without_speed};

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

/// 40 games of alpha-beta (depth 3) against greedy on Invector's 8×7 board: tens of
/// milliseconds a game, slow enough to be killed midway. `extra` must name `--threads`.
fn slow_run(out: &str, extra: &[&str]) -> Vec<String> {
    let mut args: Vec<String> = [
        "tournament",
        "--game",
        "invector",
        "--agents",
        "ab:depth=3",
        "greedy",
        "--games",
        "40",
        "--seed",
        "3",
        "--out",
        out,
    ]
    .map(String::from)
    .to_vec();
    args.extend(extra.iter().map(|s| s.to_string()));
    args
}

/// Runs [`slow_run`]`(out, extra)` to its end.
fn slow(out: &str, extra: &[&str]) -> Output {
    agon(
        &slow_run(out, extra)
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    )
}

/// The uninterrupted [`slow`] run at two threads, into `dir`/reference: the folder and
/// the run's output.
fn slow_reference(dir: &Path) -> (PathBuf, Output) {
    let reference = dir.join("reference");
    let whole = slow(reference.to_str().unwrap(), &["--threads", "2"]);
    assert_eq!(whole.status.code(), Some(0), "{}", text(&whole.stderr));
    (reference, whole)
}

/// Starts the run `args` (into `folder`) in the background, its input and output
/// discarded, paused by the writer's test hook (`AGON_TEST_PAUSE`) after its `rows`th
/// game row until the file `go` exists; returns it once games.csv holds those rows.
/// Panics if the run ends first or 120 seconds pass.
fn spawn_paused(args: &[String], folder: &Path, rows: usize, go: &Path) -> Child {
    let mut child = Command::new(env!("CARGO_BIN_EXE_agon"))
        .args(args)
        .env("AGON_TEST_PAUSE", format!("{rows}:{}", go.display()))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("agon starts");
    let deadline = Instant::now() + Duration::from_secs(120);
    let games = folder.join("games.csv");
    while complete_rows(&games) < rows {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the run ended before its pause"
        );
        assert!(Instant::now() < deadline, "the run did not reach its pause");
        std::thread::sleep(Duration::from_millis(2));
    }
    child
}

/// Complete rows of a games.csv (header excluded) right now.
fn complete_rows(path: &Path) -> usize {
    std::fs::read(path)
        .map(|b| b.iter().filter(|&&c| c == b'\n').count().saturating_sub(1))
        .unwrap_or(0)
}

#[test]
fn a_run_killed_midway_resumes_to_the_uninterrupted_files() {
    let dir = scratch("kill");
    let (reference, whole) = slow_reference(&dir);

    // Kill a real run with SIGKILL while its writer is paused after its third game.
    let killed = dir.join("killed");
    let killed_text = killed.to_str().unwrap().to_string();
    let args = slow_run(&killed_text, &["--threads", "2"]);
    let mut child = spawn_paused(&args, &killed, 3, &dir.join("never"));
    child.kill().unwrap(); // SIGKILL on Unix
    child.wait().unwrap();
    assert_eq!(complete_rows(&killed.join("games.csv")), 3);
    assert!(!killed.join("summary.csv").exists());

    // Without --resume the unfinished run is refused and left alone.
    let games_before = read(&killed.join("games.csv"));
    let refused = slow(&killed_text, &["--threads", "2"]);
    assert_eq!(refused.status.code(), Some(2));
    // A row the kill left half-written is not counted.
    let found = complete_rows(&killed.join("games.csv"));
    assert_eq!(
        text(&refused.stderr),
        format!(
            "error: output folder \"{killed_text}\" holds this run unfinished ({found} of 40 \
             games); pass --resume to continue it, or choose another --out\n"
        )
    );
    assert_eq!(read(&killed.join("games.csv")), games_before);

    // Simulate a torn write on top of whatever the kill left: half of a row.
    let mut games = read(&killed.join("games.csv"));
    let torn = b"41,20,0,ab:depth=3,hash=16".to_vec();
    let whole_rows = games.iter().rposition(|&c| c == b'\n').unwrap() + 1;
    let mut expected_partial = games[whole_rows..].to_vec();
    expected_partial.extend_from_slice(&torn);
    games.extend_from_slice(&torn);
    std::fs::write(killed.join("games.csv"), &games).unwrap();
    let torn_line = lines(&killed.join("games.csv")).len();

    let resumed = slow(&killed_text, &["--resume", "--threads", "1"]);
    let err = text(&resumed.stderr);
    assert_eq!(resumed.status.code(), Some(0), "{err}");
    assert!(
        err.contains(&format!(
            "note: {killed_text}/games.csv line {torn_line}: half-written row (no line end, {} \
             bytes); moved {} bytes to {killed_text}/games.csv.partial (every complete row is \
             kept)\n",
            expected_partial.len(),
            expected_partial.len()
        )),
        "{err}"
    );
    assert!(
        err.contains(&format!("resuming {killed_text} at game {found} of 40\n")),
        "{err}"
    );
    assert_eq!(read(&killed.join("games.csv.partial")), expected_partial);
    assert_same_run(&killed, &reference);
    // The printed result is the uninterrupted run's too (thinking times apart).
    let reference_text = reference.to_str().unwrap();
    assert_eq!(
        stdout_without_speed(&resumed).replace(&killed_text, reference_text),
        stdout_without_speed(&whole)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A change to the lines of a games.csv.
type Edit = fn(&mut Vec<String>);

#[test]
fn resume_cuts_what_runs_ahead_and_refuses_foreign_rows() {
    let dir = scratch("foreign");
    let reference = dir.join("reference");
    let first = quick(reference.to_str().unwrap(), &[]);
    assert_eq!(first.status.code(), Some(0), "{}", text(&first.stderr));

    // --resume on a finished run prints it again and changes nothing.
    let again = quick(reference.to_str().unwrap(), &["--resume"]);
    assert_eq!(again.status.code(), Some(0));
    assert!(text(&again.stdout).contains("already holds this finished run"));

    // Five games done, timings.csv twelve rows ahead: the extra timings are saved aside
    // and the games played again.
    let stopped = dir.join("stopped");
    let stopped_text = stopped.to_str().unwrap();
    stopped_copy(&reference, &stopped, 5);
    let ahead: String = lines(&reference.join("timings.csv"))[6..]
        .iter()
        .map(|l| format!("{l}\n"))
        .collect();
    let resumed = quick(stopped_text, &["--resume"]);
    assert_eq!(resumed.status.code(), Some(0), "{}", text(&resumed.stderr));
    assert!(
        text(&resumed.stderr).starts_with(&format!(
            "note: {stopped_text}/timings.csv line 7: rows from game 5 on, past games.csv's \
             last game (games.csv is the source of truth; those games are played again); moved {} bytes to \
             {stopped_text}/timings.csv.partial\nresuming {stopped_text} at game 5 of 12\n",
            ahead.len()
        )),
        "{}",
        text(&resumed.stderr)
    );
    assert_eq!(text(&read(&stopped.join("timings.csv.partial"))), ahead);
    assert_same_run(&stopped, &reference);

    // Foreign rows: refused with the file, the line and what is wrong; nothing changed.
    let cases: [(&str, Edit); 4] = [
        (
            "line 3 holds game 2 where game 1 belongs",
            |l: &mut Vec<String>| l.swap(2, 3),
        ),
        (
            "line 2 seats greedy against random in pair 0 of pairing 0, not this run's game 0",
            |l: &mut Vec<String>| l[1] = l[1].replace("ab:depth=2,greedy", "greedy,random"),
        ),
        (
            "line 1 is not this build's header",
            |l: &mut Vec<String>| l[0] = l[0].replace(",note", ""),
        ),
        (
            "line 3 is not a row (not written as this build writes it)",
            |l: &mut Vec<String>| l[2] = l[2].replacen(",0,", ",00,", 1),
        ),
    ];
    for (i, (what, edit)) in cases.into_iter().enumerate() {
        let bad = dir.join(format!("bad{i}"));
        let bad_text = bad.to_str().unwrap();
        stopped_copy(&reference, &bad, 5);
        let mut rows = lines(&bad.join("games.csv"));
        edit(&mut rows);
        let bytes: String = rows.iter().map(|l| format!("{l}\n")).collect();
        std::fs::write(bad.join("games.csv"), &bytes).unwrap();
        let timings = read(&bad.join("timings.csv"));
        for extra in [&[][..], &["--resume"][..]] {
            let o = quick(bad_text, extra);
            assert_eq!(o.status.code(), Some(2), "{what}: {}", text(&o.stderr));
            assert_eq!(
                text(&o.stderr),
                format!(
                    "error: {bad_text}/games.csv {what}: this folder does not hold this run \
                     as this build writes it; nothing was changed\n"
                )
            );
            assert_eq!(text(&read(&bad.join("games.csv"))), bytes);
            assert_eq!(read(&bad.join("timings.csv")), timings);
            assert!(!bad.join("games.csv.partial").exists());
        }
    }

    // Another commit of the same toolkit version may continue the run, with a warning;
    // another toolkit version may not.
    let rebuilt = dir.join("rebuilt");
    let rebuilt_text = rebuilt.to_str().unwrap();
    stopped_copy(&reference, &rebuilt, 5);
    let meta = text(&read(&rebuilt.join("meta.csv")));
    let commit_line = meta.lines().find(|l| l.starts_with("commit,")).unwrap();
    let this_commit = commit_line.strip_prefix("commit,").unwrap().to_string();
    let edited = meta.replace(commit_line, "commit,feedbeef");
    std::fs::write(rebuilt.join("meta.csv"), &edited).unwrap();
    let older = edited.replace("toolkit,agon ", "toolkit,agon 0.0.9-was-");
    let o = quick(rebuilt_text, &["--resume"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains(&format!(
        "warning: {rebuilt_text} was started by commit feedbeef, this build is commit \
         {this_commit}; continuing, as the toolkit version (agon "
    )));
    assert!(text(&o.stderr).contains(&format!(
        ") is the same, and recording the builds that wrote its rows in its meta.csv \
         (builds feedbeef {this_commit})\n"
    )));
    assert_same_run(&rebuilt, &reference);
    // Both builds are recorded in meta.csv (the rest of it as it was) and named by the
    // report and the page.
    assert_eq!(
        text(&read(&rebuilt.join("meta.csv"))),
        edited.replace(
            "commit,feedbeef\n",
            &format!("commit,feedbeef\nbuilds,feedbeef {this_commit}\n")
        )
    );
    let named = format!(
        "written by 2 builds: feedbeef, {this_commit} (the commits that wrote its rows, in \
         order; it was continued by another build than the one that started it)\n"
    );
    let report = agon(&["report", rebuilt_text]);
    assert_eq!(report.status.code(), Some(0), "{}", text(&report.stderr));
    assert!(text(&report.stdout).contains(&format!(", seed 11\n{named}")));
    let page = text(&read(&rebuilt.join("report.html")));
    assert!(
        page.contains(&format!("feedbeef, {this_commit}")),
        "the page names both"
    );
    let versioned = dir.join("versioned");
    stopped_copy(&reference, &versioned, 5);
    std::fs::write(versioned.join("meta.csv"), &older).unwrap();
    let o = quick(versioned.to_str().unwrap(), &["--resume"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("holds a different run (toolkit \"agon 0.0.9-was-"),
        "{}",
        text(&o.stderr)
    );

    // --resume on a new folder starts the run.
    let fresh = dir.join("fresh");
    let o = quick(fresh.to_str().unwrap(), &["--resume"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert_same_run(&fresh, &reference);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Column `column` of the games.csv row `line`, under `header`.
fn field(header: &str, line: &str, column: &str) -> String {
    let at = header.split(',').position(|n| n == column).unwrap();
    let record = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(line.as_bytes())
        .records()
        .next()
        .unwrap()
        .unwrap();
    record[at].to_string()
}

/// The games.csv row `line` with column `column` set to `value`, written back as CSV.
fn with_field(header: &str, line: &str, column: &str, value: &str) -> String {
    let at = header.split(',').position(|n| n == column).unwrap();
    let record = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(line.as_bytes())
        .records()
        .next()
        .unwrap()
        .unwrap();
    let mut fields: Vec<String> = record.iter().map(String::from).collect();
    fields[at] = value.to_string();
    let mut w = csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(Vec::new());
    w.write_record(&fields).unwrap();
    text(&w.into_inner().unwrap()).trim_end().to_string()
}

/// The digest results/README.md defines for a row of the [`quick`] run: FNV-1a (64 bits)
/// of the run's identity lines, then the row without its line end and its digest field.
fn digest_of(line: &str) -> String {
    let key = format!(
        "toolkit=agon {}\ngame=invector:height=4,pie=true,width=5\n\
         agents=ab:depth=2,hash=16,threads=1 greedy random\ngames per pairing=4\nseed=11\n\
         sprt=none\nrandom opening=0\nopenings file=\nopenings file contents (hash)=\n",
        env!("CARGO_PKG_VERSION")
    );
    let content = line.rsplit_once(',').unwrap().0;
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in key.bytes().chain(content.bytes()) {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{hash:016x}")
}

#[test]
fn edited_rows_are_refused_by_their_digest_or_by_the_replay_of_their_moves() {
    let dir = scratch("edited");
    let reference = dir.join("reference");
    let first = quick(reference.to_str().unwrap(), &[]);
    assert_eq!(first.status.code(), Some(0), "{}", text(&first.stderr));
    let rows = lines(&reference.join("games.csv"));
    let header = rows[0].clone();
    // The digest is what results/README.md says it is.
    for row in &rows[1..] {
        assert_eq!(field(&header, row, "digest"), digest_of(row), "{row}");
    }
    let line = rows[2].clone();
    let (winner, plies, moves) = (
        field(&header, &line, "winner"),
        field(&header, &line, "plies"),
        field(&header, &line, "moves"),
    );
    let flipped = if winner == "0" { "1" } else { "0" };
    let plies_more = (plies.parse::<u32>().unwrap() + 1).to_string();
    let digest_error = "line 3 has a digest that does not match its content and this run (the \
                        row was changed after it was written, or comes from another run)"
        .to_string();
    let cases = [
        (
            with_field(&header, &line, "winner", flipped),
            digest_error.clone(),
        ),
        (
            with_field(&header, &line, "moves", moves.rsplit_once(' ').unwrap().0),
            digest_error.clone(),
        ),
        (
            with_field(&header, &line, "plies", &plies_more),
            digest_error,
        ),
        // An edit whose digest was made again: the replay of the moves still disagrees.
        {
            let edited = with_field(&header, &line, "plies", &plies_more);
            (
                with_field(&header, &edited, "digest", &digest_of(&edited)),
                format!(
                    "line 3 has plies \"{plies_more}\", but its moves replayed give \"{plies}\""
                ),
            )
        },
    ];
    for (i, (edited, what)) in cases.into_iter().enumerate() {
        let bad = dir.join(format!("bad{i}"));
        let bad_text = bad.to_str().unwrap();
        stopped_copy(&reference, &bad, 5);
        let mut kept = lines(&bad.join("games.csv"));
        kept[2] = edited;
        let bytes: String = kept.iter().map(|l| format!("{l}\n")).collect();
        std::fs::write(bad.join("games.csv"), &bytes).unwrap();
        let o = quick(bad_text, &["--resume"]);
        assert_eq!(
            text(&o.stderr),
            format!(
                "error: {bad_text}/games.csv {what}: this folder does not hold this run as \
                 this build writes it; nothing was changed\n"
            )
        );
        assert_eq!(o.status.code(), Some(2));
        assert_eq!(text(&read(&bad.join("games.csv"))), bytes);
        assert!(!bad.join("games.csv.partial").exists());
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_second_process_in_a_running_folder_is_refused_naming_the_first_ones_pid() {
    let dir = scratch("two");
    let (reference, _) = slow_reference(&dir);

    // Start a run with --resume, paused after its first game (so it holds the folder's
    // lock), then the same command again; then let the first go on.
    let shared = dir.join("shared");
    let shared_text = shared.to_str().unwrap().to_string();
    let args = slow_run(&shared_text, &["--resume", "--threads", "1"]);
    let go = dir.join("go");
    let mut child = spawn_paused(&args, &shared, 1, &go);
    let second = agon(&args.iter().map(String::as_str).collect::<Vec<_>>());
    let pid = child.id();
    assert_eq!(
        read(&shared.join("agon.lock")),
        format!("{pid}\n").into_bytes()
    );
    std::fs::write(&go, "").unwrap();
    let status = child.wait().unwrap();
    assert_eq!(
        text(&second.stderr),
        format!(
            "error: run folder \"{shared_text}\" is in use by another agon process (pid {pid}); \
             wait for it to end, or choose another folder\n"
        )
    );
    assert_eq!(second.status.code(), Some(2));
    assert_eq!(text(&second.stdout), "");
    // The first run was not disturbed: its files are the uninterrupted run's.
    assert!(status.success());
    assert_same_run(&shared, &reference);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_misspelt_meta_key_or_an_older_format_is_refused_and_a_lone_meta_tmp_resumes() {
    let dir = scratch("meta");
    let reference = dir.join("reference");
    let first = quick(reference.to_str().unwrap(), &[]);
    assert_eq!(first.status.code(), Some(0), "{}", text(&first.stderr));
    let meta = text(&read(&reference.join("meta.csv")));

    // A misspelt key would be ignored and its setting lost: refused, naming its line.
    let typo = dir.join("typo");
    let typo_text = typo.to_str().unwrap();
    stopped_copy(&reference, &typo, 5);
    assert!(meta.contains("\nrandom_opening,0\n"));
    let line = meta.lines().position(|l| l == "random_opening,0").unwrap() + 1;
    std::fs::write(
        typo.join("meta.csv"),
        meta.replace("\nrandom_opening,", "\nraNdom_opening,"),
    )
    .unwrap();
    let games = read(&typo.join("games.csv"));
    let o = quick(typo_text, &["--resume"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert_eq!(
        text(&o.stderr),
        format!(
            "error: output folder \"{typo_text}\" holds a meta.csv this build cannot read \
             ({typo_text}/meta.csv line {line}: unknown key \"raNdom_opening\" (valid: format, \
             toolkit, commit, builds, game, agent, eval_hash, program, games_per_pairing, seed, random_opening, opening_draw, openings, \
             openings_hash, opening_check, threads, command, anchor, shard, sprt)); correct it, or choose \
             another --out\n"
        )
    );
    assert_eq!(read(&typo.join("games.csv")), games);
    // A missing key likewise.
    std::fs::write(
        typo.join("meta.csv"),
        meta.replace("\nrandom_opening,0\n", "\n"),
    )
    .unwrap();
    let o = quick(typo_text, &["--resume"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains(&format!(
            "({typo_text}/meta.csv has no \"random_opening\" row)"
        )),
        "{}",
        text(&o.stderr)
    );

    // A folder of the older format is not continued.
    let older = dir.join("older");
    let older_text = older.to_str().unwrap();
    stopped_copy(&reference, &older, 5);
    std::fs::write(
        older.join("meta.csv"),
        meta.replace("format,3\n", "format,2\n"),
    )
    .unwrap();
    let o = quick(older_text, &["--resume"]);
    assert_eq!(
        text(&o.stderr),
        format!(
            "error: output folder \"{older_text}\" holds a run written by an older agon \
             (format 2; this build writes format 3), which this build cannot continue or \
             rewrite; choose another --out (agon report still reads it)\n"
        )
    );
    assert_eq!(o.status.code(), Some(2));

    // A stop while meta.csv was being written leaves only its temporary file (and the
    // lock file): the run starts as in a new folder.
    let torn = dir.join("torn");
    std::fs::create_dir_all(&torn).unwrap();
    std::fs::write(torn.join("meta.csv.tmp"), &meta[..meta.len() / 2]).unwrap();
    std::fs::write(torn.join("agon.lock"), "12345\n").unwrap();
    let o = quick(torn.to_str().unwrap(), &["--resume"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert_same_run(&torn, &reference);
    assert!(!torn.join("meta.csv.tmp").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}
