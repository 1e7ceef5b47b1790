//! End-to-end tests of experiment files and the default run: `agon run FILE.toml` plays
//! the same tournament as its flags into results/<stem>, bad files are one line naming
//! the key and write nothing, every file under experiments/ parses and is listed in its
//! README, and `agon` alone runs the default tournament into results/default.

use std::path::Path;
use std::process::Output;

use crate::common;
use common::{
    agon, assert_bad, assert_same_files, ok, scratch, stderr, stdout, text, tournament_into,
};

/// Runs `agon` with `args` in the folder `cwd`.
fn agon_in(cwd: &Path, args: &[&str]) -> Output {
    common::agon_in(Some(cwd), args, "")
}

#[test]
fn an_experiment_file_runs_as_the_same_tournament_into_results_stem() {
    let dir = scratch("run");
    let file =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../experiments/invector-small-check.toml");
    let file = file.canonicalize().unwrap();
    let o = agon_in(&dir, &["run", text(&file)]);
    ok(&o);
    let ran = dir.join("results/invector-small-check");
    // The file's settings, as tournament flags.
    let flags = dir.join("flags");
    let t = tournament_into(
        "invector:width=5,height=4",
        &["greedy", "random"],
        &flags,
        &["--games", "10", "--seed", "7", "--threads", "1"],
    );
    ok(&t);
    assert_eq!(
        stdout(&o).lines().next().unwrap(),
        "invector:height=4,pie=true,width=5: 10 games (10 per pairing), seed 7"
    );
    assert_same_files(&ran, &flags, &["games.csv", "summary.csv"]);
    assert_eq!(
        std::fs::read_to_string(ran.join("games.csv"))
            .unwrap()
            .lines()
            .count(),
        1 + 10
    );
    let meta = |d: &Path| -> Vec<String> {
        std::fs::read_to_string(d.join("meta.csv"))
            .unwrap()
            .lines()
            .map(String::from)
            .collect()
    };
    let (a, b) = (meta(&ran), meta(&flags));
    assert_eq!(a.len(), b.len());
    for (x, y) in a.iter().zip(&b) {
        if x.starts_with("command,") {
            assert!(x.contains(" run "), "{x}");
        } else {
            assert_eq!(x, y);
        }
    }
    // Run again: the finished run is recognised, as a tournament's is.
    let again = agon_in(&dir, &["run", text(&file)]);
    ok(&again);
    assert!(stdout(&again).starts_with("results/invector-small-check already holds"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_experiment_files_are_one_line_naming_the_key_and_write_nothing() {
    let dir = scratch("run-bad");
    let file = dir.join("typo.toml");
    std::fs::write(
        &file,
        "game = \"pig\"\nagents = [\"random\"]\ngames = 2\nseed = 1\nthread = 2\n",
    )
    .unwrap();
    assert_bad(
        &agon_in(&dir, &["run", "typo.toml"]),
        "typo.toml line 5: unknown field `thread`, expected one of `question`, `game`, \
         `agents`, `games`, `seed`, `threads`, `sprt`, `anchor`, `random_opening`, `openings`, `opening_check`, `opening_window` (required: game, agents, games, \
         seed; optional: question, threads, sprt, anchor, random_opening, openings, opening_check, opening_window)",
    );
    std::fs::write(&file, "game = \"pig\"\nagents = [\"random\"]\nseed = 1\n").unwrap();
    assert_bad(
        &agon_in(&dir, &["run", "typo.toml"]),
        "typo.toml: missing field `games` (required: game, agents, games, seed; optional: \
         question, threads, sprt, anchor, random_opening, openings, opening_check, opening_window)",
    );
    std::fs::write(
        &file,
        "game = \"pig\"\nagents = [\"random\"]\ngames = 3\nseed = 1\n",
    )
    .unwrap();
    assert_bad(
        &agon_in(&dir, &["run", "typo.toml"]),
        "--games must be even and at least 2 (games 2k and 2k+1 form a seat-swapped pair), \
         got 3",
    );
    assert_bad(
        &agon_in(&dir, &["run", "absent.toml"]),
        "cannot read experiment file \"absent.toml\": No such file or directory (os error 2)",
    );
    assert!(!dir.join("results").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_experiment_file_is_a_regular_file_of_at_most_a_mebibyte_refused_before_reading() {
    let dir = scratch("bounded");
    for device in ["/dev/urandom", "/dev/zero"] {
        assert_bad(
            &agon_in(&dir, &["run", device, "--out", "out"]),
            &format!(
                "experiment file \"{device}\" is not a regular file (a device, pipe or \
                 folder is not read)"
            ),
        );
    }
    let mut file = "game = \"pig\"\nagents = [\"random\"]\ngames = 2\nseed = 1\n".to_string();
    file.push_str(&"#".repeat((1 << 20) + 1 - file.len()));
    std::fs::write(dir.join("big.toml"), file).unwrap();
    assert_bad(
        &agon_in(&dir, &["run", "big.toml"]),
        "experiment file \"big.toml\" is larger than 1 MiB, the most read",
    );
    assert!(!dir.join("out").exists());
    assert!(!dir.join("results").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn every_experiment_file_parses_and_is_listed_in_the_readme() {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("../experiments");
    let mut files = 0;
    // The top folder and each subfolder with experiment files (ladder/, matrix/): each
    // lists its files in its own README.md. tuned/ holds weight files (`eval=FILE`), not
    // experiments.
    let mut folders = vec![folder.clone()];
    for entry in std::fs::read_dir(&folder).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() && !path.ends_with("tuned") {
            folders.push(path);
        }
    }
    for folder in folders {
        let tomls: Vec<_> = std::fs::read_dir(&folder)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().and_then(|e| e.to_str()) == Some("toml"))
            .collect();
        if tomls.is_empty() {
            continue;
        }
        let readme = std::fs::read_to_string(folder.join("README.md"))
            .unwrap_or_else(|_| panic!("{} has no README.md", folder.display()));
        for path in tomls {
            files += 1;
            let name = path.file_name().unwrap().to_str().unwrap();
            assert!(
                readme.contains(&format!("[{name}]({name})")),
                "{name} not in {}/README.md",
                folder.display()
            );
            // Each parses and its game and agent specs parse: an impossible shard count is
            // the first thing refused after them, before any folder is looked at.
            let dir = scratch(&format!("parse-{name}"));
            let o = agon(&[
                "run",
                text(&path),
                "--out",
                text(&dir.join("out")),
                "--shard",
                "1000000/1000000",
            ]);
            assert_eq!(o.status.code(), Some(2), "{name}: {}", stderr(&o));
            assert!(
                stderr(&o).starts_with("error: --shard 1000000/1000000: the run has"),
                "{name}: {}",
                stderr(&o)
            );
            std::fs::remove_dir_all(&dir).unwrap();
        }
    }
    assert!(files >= 4);
}

#[test]
fn agon_alone_runs_the_default_tournament_then_reprints_it() {
    let dir = scratch("default");
    let first = agon_in(&dir, &[]);
    assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
    let text = stdout(&first);
    assert!(
        text.starts_with("invector:height=7,pie=true,width=8: 60 games (20 per pairing), seed 1\n"),
        "{text}"
    );
    assert!(text.contains(
        "wrote meta.csv, games.csv, timings.csv, summary.csv, speed.csv, ratings.svg, seat0.svg, \
         lengths.svg, report.html in results/default"
    ));
    for file in [
        "meta.csv",
        "games.csv",
        "timings.csv",
        "summary.csv",
        "speed.csv",
        "ratings.svg",
        "seat0.svg",
        "lengths.svg",
        "report.html",
    ] {
        assert!(dir.join("results/default").join(file).is_file(), "{file}");
    }
    let again = agon_in(&dir, &[]);
    assert_eq!(again.status.code(), Some(0));
    assert!(stdout(&again).starts_with("results/default already holds this finished run"));
    std::fs::remove_dir_all(&dir).unwrap();
}
