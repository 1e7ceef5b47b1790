//! Committed studies read back: a study whose runs keep their games only compressed
//! (games.csv.gz, as results/balance/ stores them) prints the same results as the plain
//! study, and `agon report` and `agon replay` read such a run, all without changing a
//! byte of the folder; a run that does not hold the games of its plan leaves the study
//! unfinished, refused without --resume (naming the run and what it lacks) and continued
//! with it; a run kept compressed is never continued.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Output;

use flate2::write::GzEncoder;
use flate2::Compression;

use crate::common;
use common::runs::{study, STUDY_RUNS};
use common::{agon, assert_bad, assert_same_files, ok, scratch, stderr, stdout, text};

/// The bytes of `data` as `gzip -9 -n` would store them (no name, no time).
fn gzip(data: &[u8]) -> Vec<u8> {
    let mut encoder = GzEncoder::new(Vec::new(), Compression::best());
    encoder.write_all(data).unwrap();
    encoder.finish().unwrap()
}

/// Copies the folder `from` into `to` as a study is committed: without the lock files,
/// and, when `compress`, each games.csv stored as games.csv.gz instead.
fn copy_study(from: &Path, to: &Path, compress: bool) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap();
        if path.is_dir() {
            copy_study(&path, &to.join(name), compress);
        } else if name == "games.csv" && compress {
            let bytes = std::fs::read(&path).unwrap();
            std::fs::write(to.join("games.csv.gz"), gzip(&bytes)).unwrap();
        } else if name != "agon.lock" {
            std::fs::copy(&path, to.join(name)).unwrap();
        }
    }
}

/// Every file under `dir` (paths relative to it) with its bytes.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut files = BTreeMap::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
            } else {
                let bytes = std::fs::read(&path).unwrap();
                files.insert(path.strip_prefix(dir).unwrap().to_path_buf(), bytes);
            }
        }
    }
    files
}

/// Asserts that `dir` holds exactly the files of `before`, byte for byte.
fn assert_unchanged(dir: &Path, before: &BTreeMap<PathBuf, Vec<u8>>) {
    let after = snapshot(dir);
    let names = |files: &BTreeMap<PathBuf, Vec<u8>>| files.keys().cloned().collect::<Vec<_>>();
    assert_eq!(names(&after), names(before), "{}", dir.display());
    for (file, bytes) in before {
        assert!(after[file] == *bytes, "{} changed", file.display());
    }
}

/// A finished study in a new scratch folder `name`, with its output as printed again on
/// its finished folder.
fn finished_study(name: &str) -> (PathBuf, Output) {
    let dir = scratch(name);
    ok(&study(&dir, &[]));
    let again = study(&dir, &[]);
    ok(&again);
    (dir, again)
}

#[test]
fn a_study_kept_compressed_reads_back_as_the_plain_one_and_stays_unchanged() {
    let (plain, printed) = finished_study("plain");
    let gz = scratch("gz");
    copy_study(&plain, &gz, true);
    let before = snapshot(&gz);
    assert!(before.contains_key(Path::new("base/A1-self/games.csv.gz")));
    assert!(!before.contains_key(Path::new("base/A1-self/games.csv")));

    // The study: the same tables and verdicts, played nothing, wrote nothing.
    let read_back = study(&gz, &[]);
    ok(&read_back);
    assert_eq!(
        stdout(&read_back),
        stdout(&printed).replace(text(&plain), text(&gz))
    );
    assert_eq!(stderr(&read_back), "");
    assert_eq!(
        stdout(&read_back)
            .lines()
            .filter(|l| l.starts_with("verdict: "))
            .count(),
        3
    );

    // agon report: the plain run's report, printed only, with a note saying why.
    let run = "base/A2-vs-A1";
    let plain_report = agon(&["report", text(&plain.join(run))]);
    ok(&plain_report);
    let report = agon(&["report", text(&gz.join(run))]);
    ok(&report);
    let plain_text = stdout(&plain_report);
    let (table, wrote) = plain_text
        .trim_end()
        .rsplit_once('\n')
        .expect("a table, then the wrote line");
    assert!(wrote.starts_with("wrote summary.csv, "), "{wrote}");
    assert_eq!(stdout(&report), format!("{table}\n"));
    assert!(
        stderr(&report).starts_with(&format!(
            "note: \"{}\" keeps its games only in games.csv.gz (as a committed study does), \
             and a report leaves such a folder as it is; printed only, nothing written (write \
             it with --out OUTDIR)\n",
            gz.join(run).display()
        )),
        "{}",
        stderr(&report)
    );
    // With --out it writes the plain run's summary elsewhere.
    let elsewhere = scratch("elsewhere");
    ok(&agon(&[
        "report",
        text(&gz.join(run)),
        "--out",
        text(&elsewhere),
    ]));
    assert_eq!(
        std::fs::read(elsewhere.join("summary.csv")).unwrap(),
        std::fs::read(plain.join(run).join("summary.csv")).unwrap()
    );

    // agon replay: the same game, ply by ply.
    let replay = |dir: &Path| agon(&["replay", text(&dir.join(run)), "5"]);
    let (plain_replay, gz_replay) = (replay(&plain), replay(&gz));
    ok(&gz_replay);
    assert_eq!(stdout(&gz_replay), stdout(&plain_replay));
    assert_bad(
        &agon(&["replay", text(&gz.join(run)), "8"]),
        &format!(
            "\"{}\": games.csv.gz has no game 8 (it holds games 0 to 7)",
            gz.join(run).display()
        ),
    );

    assert_unchanged(&gz, &before);
}

/// The refusal of the study in `dir` not resumed: `state` says how far it got.
fn unfinished(dir: &Path, state: &str) -> String {
    format!(
        "output folder \"{}\" holds this study unfinished ({state}); pass --resume to \
         continue it, or choose another --out",
        dir.display()
    )
}

/// A run of a finished study that lost rows (cut short, torn, its games or timings
/// gone) does not hold its plan's games: the study is not finished, whatever the marks
/// say, so it is refused without --resume, naming the run and what it lacks, and
/// nothing is printed or written; --resume plays the lost games again, to the files of
/// the study that never lost them.
#[test]
fn a_run_that_does_not_hold_its_plans_games_is_refused_naming_it() {
    let (plain, _) = finished_study("whole");
    let run = "base/A2-self";
    let games = std::fs::read_to_string(plain.join(run).join("games.csv")).unwrap();
    let lines: Vec<&str> = games.split_inclusive('\n').collect();
    let first_four = lines[..4].concat();
    let torn = format!("{first_four}{}", &lines[4][..20]);
    let timings = std::fs::read_to_string(plain.join(run).join("timings.csv")).unwrap();
    let timings_four: String = timings.split_inclusive('\n').take(4).collect();

    // Each damage, to a fresh copy of the study: refused, nothing printed or written;
    // then resumed, when its games are plain.
    let damaged = |name: &str, compress: bool, damage: &dyn Fn(&Path), line: &str| {
        let dir = scratch(name);
        copy_study(&plain, &dir, compress);
        damage(&dir.join(run));
        let before = snapshot(&dir);
        let state =
            format!("5 of 6 runs finished; {run} is marked finished (summary.csv), but {line}");
        assert_bad(&study(&dir, &[]), &unfinished(&dir, &state));
        assert_unchanged(&dir, &before);
        if !compress {
            ok(&study(&dir, &["--resume"]));
            for run in STUDY_RUNS {
                assert_same_files(
                    &plain.join(run),
                    &dir.join(run),
                    &["games.csv", "summary.csv"],
                );
            }
            assert_same_files(&plain, &dir, &["balance.csv"]);
        }
    };
    let write = |file: &'static str, bytes: Vec<u8>| {
        move |run: &Path| std::fs::write(run.join(file), &bytes).unwrap()
    };
    damaged(
        "short",
        false,
        &write("games.csv", first_four.clone().into_bytes()),
        "games.csv holds 3 of its 8 games",
    );
    damaged(
        "torn",
        false,
        &write("games.csv", torn.clone().into_bytes()),
        "games.csv line 5: half-written row (no line end, 20 bytes)",
    );
    damaged(
        "missing",
        false,
        &|run| std::fs::remove_file(run.join("games.csv")).unwrap(),
        "no games.csv (nor games.csv.gz)",
    );
    damaged(
        "timings",
        false,
        &write("timings.csv", timings_four.clone().into_bytes()),
        "timings.csv holds the rows of 3 of the 8 games in games.csv",
    );
    damaged(
        "short-gz",
        true,
        &write("games.csv.gz", gzip(first_four.as_bytes())),
        "games.csv.gz holds 3 of its 8 games",
    );

    // Damage past reading: refused as it is, with or without --resume.
    let dir = scratch("cut-gz");
    copy_study(&plain, &dir, true);
    let whole_gz = gzip(games.as_bytes());
    std::fs::write(
        dir.join(run).join("games.csv.gz"),
        &whole_gz[..whole_gz.len() / 2],
    )
    .unwrap();
    let before = snapshot(&dir);
    assert_bad(
        &study(&dir, &[]),
        &format!(
            "{} is not a whole gzip file (incomplete deflate stream); nothing was changed: \
             restore it (gunzip -t tests it)",
            dir.join(run).join("games.csv.gz").display()
        ),
    );
    assert_unchanged(&dir, &before);

    // A run folder holding another run than the study plans there.
    let dir = scratch("other-run");
    copy_study(&plain, &dir, false);
    let meta = dir.join(run).join("meta.csv");
    let text = std::fs::read_to_string(&meta).unwrap();
    std::fs::write(&meta, text.replace("\nseed,3\n", "\nseed,4\n")).unwrap();
    assert_bad(
        &study(&dir, &[]),
        &format!(
            "run folder \"{}\" holds another run than the study plans there (seed \"4\" \
             there, \"3\" here); remove it and resume the study with --resume",
            dir.join(run).display()
        ),
    );
}

/// A shard of a study is finished only when its runs hold their slices' games: one cut
/// short is refused without --resume, and resumed with it.
#[test]
fn a_study_shard_is_finished_only_with_all_the_games_of_its_slices() {
    let shard = scratch("shard");
    ok(&study(&shard, &["--shard", "1/2"]));
    let reference = scratch("shard-reference");
    copy_study(&shard, &reference, false);
    let run = shard.join("base/A2-self");
    let games = std::fs::read_to_string(run.join("games.csv")).unwrap();
    let kept: String = games.split_inclusive('\n').take(2).collect();
    std::fs::write(run.join("games.csv"), kept).unwrap();
    let before = snapshot(&shard);
    assert_bad(
        &study(&shard, &["--shard", "1/2"]),
        &unfinished(
            &shard,
            "5 of 6 runs finished; base/A2-self is marked finished (summary.csv), but \
             games.csv holds 1 of its 4 games 0 to 3",
        ),
    );
    assert_unchanged(&shard, &before);
    ok(&study(&shard, &["--shard", "1/2", "--resume"]));
    for run in STUDY_RUNS {
        assert_same_files(
            &reference.join(run),
            &shard.join(run),
            &["games.csv", "summary.csv"],
        );
    }
}

#[test]
fn a_run_kept_compressed_is_read_but_never_continued() {
    let (plain, _) = finished_study("complete");
    let gz = scratch("unfinished");
    copy_study(&plain, &gz, true);
    // The last run stopped after four games: its games.csv.gz holds them, it has no
    // summary.csv, and the study no balance.csv.
    let run = gz.join("variant-1/A2-vs-A1");
    let games = std::fs::read_to_string(plain.join("variant-1/A2-vs-A1/games.csv")).unwrap();
    let kept: String = games.split_inclusive('\n').take(5).collect();
    std::fs::write(run.join("games.csv.gz"), gzip(kept.as_bytes())).unwrap();
    std::fs::remove_file(run.join("summary.csv")).unwrap();
    std::fs::remove_file(gz.join("balance.csv")).unwrap();
    let before = snapshot(&gz);
    assert_bad(
        &study(&gz, &["--resume"]),
        &format!(
            "output folder \"{}\" holds this run unfinished (4 of 8 games) with its games only \
             in games.csv.gz, which agon never appends to; gunzip it (gunzip {}) before \
             continuing it with --resume",
            run.display(),
            run.join("games.csv.gz").display()
        ),
    );
    // The finished runs before it were read; only lock files were added.
    let after: BTreeMap<PathBuf, Vec<u8>> = snapshot(&gz)
        .into_iter()
        .filter(|(file, _)| !file.ends_with("agon.lock"))
        .collect();
    assert!(after == before, "files other than agon.lock changed");
}

#[test]
fn study_shards_kept_compressed_merge_to_the_single_machine_study() {
    let (whole, _) = finished_study("single");
    let shards: Vec<PathBuf> = (1..=2)
        .map(|i| {
            let shard = scratch(&format!("shard{i}"));
            ok(&study(&shard, &["--shard", &format!("{i}/2")]));
            let compressed = scratch(&format!("shard{i}-gz"));
            copy_study(&shard, &compressed, true);
            compressed
        })
        .collect();
    let before: Vec<_> = shards.iter().map(|s| snapshot(s)).collect();
    let merged = scratch("merged");
    ok(&agon(&[
        "merge",
        "--out",
        text(&merged),
        text(&shards[0]),
        text(&shards[1]),
    ]));
    assert_same_files(&whole, &merged, &["study.csv", "balance.csv"]);
    for run in STUDY_RUNS {
        assert_same_files(
            &whole.join(run),
            &merged.join(run),
            &["games.csv", "summary.csv"],
        );
    }
    for (shard, before) in shards.iter().zip(&before) {
        assert_unchanged(shard, before);
    }
}
