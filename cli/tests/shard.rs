//! End-to-end tests of sharded tournaments and `agon merge`: a run cut into shards and
//! merged is byte-identical (games.csv, summary.csv) to the single-machine run; every
//! refusal is one exact line with exit code 2 and writes nothing; the Slurm scripts of
//! experiments/cluster parse.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::common;
use common::{agon, assert_bad, assert_same_files, ok, scratch, stderr, stdout, text};

/// Pig (a chance game, so pairs share chance streams) with three agents, 6 games per
/// pairing: 18 games, 9 pairs; 4 shards hold 2, 2, 2 and 3 pairs, so shard boundaries
/// fall inside pairings. Seed 5.
fn pig(out: &Path, extra: &[&str]) -> Output {
    pig_seeded(out, "5", extra)
}

/// [`pig`] with another seed.
fn pig_seeded(out: &Path, seed: &str, extra: &[&str]) -> Output {
    let mut args = vec![
        "tournament",
        "--game",
        "pig:target=20",
        "--agents",
        "greedy",
        "random",
        "expectimax:depth=2",
        "--games",
        "6",
        "--seed",
        seed,
        "--out",
        text(out),
    ];
    args.extend_from_slice(extra);
    agon(&args)
}

/// Runs `agon merge --out OUT SHARDS...`.
fn merge(out: &Path, shards: &[&Path]) -> Output {
    let mut args = vec!["merge", "--out", text(out)];
    args.extend(shards.iter().map(|d| text(d)));
    agon(&args)
}

#[test]
fn four_shards_merged_equal_the_single_machine_run_byte_for_byte() {
    let dir = scratch("equal");
    let whole = dir.join("whole");
    ok(&pig(&whole, &["--threads", "2"]));
    let shards: Vec<PathBuf> = (1..=4).map(|i| dir.join(format!("s{i}"))).collect();
    for (i, shard) in shards.iter().enumerate() {
        let o = pig(
            shard,
            &["--shard", &format!("{}/4", i + 1), "--threads", "1"],
        );
        ok(&o);
        let first = stdout(&o).lines().next().unwrap().to_string();
        let games = [(0, 3), (4, 7), (8, 11), (12, 17)][i];
        assert_eq!(
            first,
            format!(
                "pig:die=6,horizon=1000,target=20: shard {}/4, games {} to {} of 18 (6 per \
                 pairing), seed 5",
                i + 1,
                games.0,
                games.1
            )
        );
        let meta = std::fs::read_to_string(shard.join("meta.csv")).unwrap();
        assert!(meta.ends_with(&format!("shard,{}/4\n", i + 1)), "{meta}");
        let rows = std::fs::read_to_string(shard.join("games.csv")).unwrap();
        let indices: Vec<&str> = rows
            .lines()
            .skip(1)
            .map(|l| l.split(',').next().unwrap())
            .collect();
        let expected: Vec<String> = (games.0..=games.1).map(|g| g.to_string()).collect();
        assert_eq!(indices, expected);
    }
    // A finished shard run again is recognised, not played again.
    let again = pig(&shards[1], &["--shard", "2/4"]);
    ok(&again);
    assert!(stdout(&again).starts_with(&format!(
        "{} already holds this finished run; its summary:\n\npig:die=6,horizon=1000,target=20: \
         shard 2/4, games 4 to 7 of 18 (6 per pairing), seed 5\n",
        shards[1].display()
    )));
    // Given in any order.
    let merged = dir.join("merged");
    let o = merge(&merged, &[&shards[2], &shards[0], &shards[3], &shards[1]]);
    ok(&o);
    assert!(stdout(&o).ends_with(&format!(
        "merged 4 shards into {}: wrote meta.csv, games.csv, timings.csv, summary.csv, \
         ratings.svg, seat0.svg, lengths.svg, report.html\n",
        merged.display()
    )));
    assert_same_files(&whole, &merged, &["games.csv", "summary.csv"]);
    let timings = std::fs::read_to_string(merged.join("timings.csv")).unwrap();
    assert_eq!(timings.lines().count(), 1 + 18);
    // meta.csv is a whole run's: the same as the single-machine run's but for the
    // command (and threads), and no shard row.
    let meta = |d: &Path| -> Vec<String> {
        std::fs::read_to_string(d.join("meta.csv"))
            .unwrap()
            .lines()
            .filter(|l| !l.starts_with("command,") && !l.starts_with("threads,"))
            .map(String::from)
            .collect()
    };
    assert_eq!(meta(&whole), meta(&merged));
    // The merged folder is the finished run: the tournament command reprints it.
    let again = pig(&merged, &[]);
    ok(&again);
    assert!(stdout(&again).starts_with(&format!(
        "{} already holds this finished run",
        merged.display()
    )));
    // Merging again into the same merged run is allowed and gives the same bytes.
    let before = std::fs::read(merged.join("games.csv")).unwrap();
    ok(&merge(
        &merged,
        &[&shards[0], &shards[1], &shards[2], &shards[3]],
    ));
    assert_eq!(before, std::fs::read(merged.join("games.csv")).unwrap());
    // Shards written by different builds: the merged meta.csv names them all, the first
    // shard's commit first.
    let shard_meta = std::fs::read_to_string(shards[3].join("meta.csv")).unwrap();
    let commit = shard_meta
        .lines()
        .find_map(|l| l.strip_prefix("commit,"))
        .unwrap()
        .to_string();
    std::fs::write(
        shards[3].join("meta.csv"),
        shard_meta.replace(&format!("commit,{commit}\n"), "commit,feedbeef\n"),
    )
    .unwrap();
    let rebuilt = dir.join("rebuilt");
    ok(&merge(
        &rebuilt,
        &[&shards[0], &shards[1], &shards[2], &shards[3]],
    ));
    let merged_meta = std::fs::read_to_string(rebuilt.join("meta.csv")).unwrap();
    assert!(
        merged_meta.contains(&format!("\ncommit,{commit}\nbuilds,{commit} feedbeef\n")),
        "{merged_meta}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_stopped_shard_resumes_to_the_same_files() {
    // Shard 2 of 4 holds games 4 to 7 (pairs 2 and 3). Cut it back to its first game, with
    // one timing row too many (a kill between the two writes), then resume it.
    let dir = scratch("resume");
    let (whole, cut) = (dir.join("whole"), dir.join("cut"));
    ok(&pig(&whole, &["--shard", "2/4"]));
    ok(&pig(&cut, &["--shard", "2/4"]));
    let keep = |file: &str, lines: usize| {
        let path = cut.join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        let kept: Vec<&str> = text.lines().take(lines).collect();
        std::fs::write(&path, kept.join("\n") + "\n").unwrap();
    };
    keep("games.csv", 2);
    keep("timings.csv", 3);
    std::fs::remove_file(cut.join("summary.csv")).unwrap();
    let o = pig(&cut, &["--shard", "2/4", "--resume"]);
    ok(&o);
    let err = stderr(&o);
    assert!(
        err.contains("rows from game 5 on, past games.csv's last game"),
        "{err}"
    );
    assert!(
        err.contains("(shard 2/4) at game 5 (1 of its 4 played)"),
        "{err}"
    );
    assert_same_files(&whole, &cut, &["games.csv", "summary.csv"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_shards_and_bad_merges_are_one_line_and_write_nothing() {
    let dir = scratch("bad");
    let out = dir.join("never");
    assert_bad(
        &pig(&out, &["--shard", "0/4"]),
        "--shard \"0/4\" is not valid: expected I/N with 1 <= I <= N (e.g. 2/8)",
    );
    assert_bad(
        &pig(&out, &["--shard", "3"]),
        "--shard \"3\" is not valid: expected I/N with 1 <= I <= N (e.g. 2/8)",
    );
    assert_bad(
        &pig(&out, &["--shard", "1/10"]),
        "--shard 1/10: the run has 9 seat-swapped pairs, so it can be cut into at most 9 shards",
    );
    assert!(!out.exists());

    // Three shards of a 3-shard run, one of another seed, one unfinished.
    let s: Vec<PathBuf> = (1..=3).map(|i| dir.join(format!("s{i}"))).collect();
    for (i, shard) in s.iter().enumerate() {
        ok(&pig(shard, &["--shard", &format!("{}/3", i + 1)]));
    }
    let other_seed = dir.join("other");
    ok(&pig_seeded(&other_seed, "6", &["--shard", "2/3"]));
    let whole = dir.join("whole");
    ok(&pig(&whole, &[]));

    let merge_out = |dirs: &[&Path]| merge(&out, dirs);
    assert_bad(
        &merge_out(&[&s[0], &s[2]]),
        "shard 2/3 is missing; give all 3 shard folders of the run",
    );
    assert_bad(
        &merge_out(&[&s[0]]),
        "shards 2/3, 3/3 are missing; give all 3 shard folders of the run",
    );
    assert_bad(
        &merge_out(&[&s[0], &s[1], &s[1], &s[2]]),
        &format!(
            "shard 2/3 is given twice: \"{}\" and \"{}\"",
            s[1].display(),
            s[1].display()
        ),
    );
    assert_bad(
        &merge_out(&[&s[0], &other_seed, &s[2]]),
        &format!(
            "\"{}\" is not a shard of the same run as \"{}\": seed \"6\" in \"{}\", \"5\" in \"{}\"",
            other_seed.display(),
            s[0].display(),
            other_seed.display(),
            s[0].display()
        ),
    );
    assert_bad(
        &merge_out(&[&s[0], &whole]),
        &format!(
            "\"{}\" holds a whole run, not a shard (its meta.csv has no shard row)",
            whole.display()
        ),
    );
    let absent = dir.join("absent");
    assert_bad(
        &merge_out(&[&absent]),
        &format!("shard folder \"{}\" does not exist", absent.display()),
    );

    // An unfinished shard: its last game row lost (as if stopped), summary.csv gone.
    let games = std::fs::read_to_string(s[2].join("games.csv")).unwrap();
    let cut = games.trim_end().rfind('\n').unwrap() + 1;
    std::fs::write(s[2].join("games.csv"), &games[..cut]).unwrap();
    std::fs::remove_file(s[2].join("summary.csv")).unwrap();
    assert_bad(
        &merge_out(&[&s[0], &s[1], &s[2]]),
        &format!(
            "shard 3/3 in \"{}\" is unfinished (games.csv holds 5 of its 6 games 12 to 17); \
             run its tournament command again with --resume to finish it",
            s[2].display()
        ),
    );
    assert!(!out.exists());
    std::fs::write(s[2].join("games.csv"), &games).unwrap();
    std::fs::write(s[2].join("summary.csv"), "").unwrap();

    // The output folder: files that are not a run, or a different run (here, a shard),
    // are never overwritten.
    let foreign = dir.join("foreign");
    std::fs::create_dir_all(&foreign).unwrap();
    std::fs::write(foreign.join("notes.txt"), "mine").unwrap();
    let o = merge(&foreign, &[&s[0], &s[1], &s[2]]);
    assert_bad(
        &o,
        &format!(
            "output folder \"{}\" is not empty and holds no agon run (no meta.csv); choose a \
             new or empty folder",
            foreign.display()
        ),
    );
    assert_eq!(std::fs::read_dir(&foreign).unwrap().count(), 1);
    let o = merge(&s[0], &[&s[0], &s[1], &s[2]]);
    assert_bad(
        &o,
        &format!(
            "output folder \"{}\" holds a different run (shard \"1/3\" there, \"none\" here); \
             choose another --out or remove it",
            s[0].display()
        ),
    );
    assert!(std::fs::read_to_string(s[0].join("meta.csv"))
        .unwrap()
        .ends_with("shard,1/3\n"));
    ok(&merge_out(&[&s[0], &s[1], &s[2]]));
    assert_eq!(
        std::fs::read(whole.join("games.csv")).unwrap(),
        std::fs::read(out.join("games.csv")).unwrap()
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn merge_checks_every_shard_row_and_its_advice_for_an_unfinished_shard_works() {
    let dir = scratch("checked");
    let whole = dir.join("whole");
    ok(&pig(&whole, &[]));
    let s: Vec<PathBuf> = (1..=3).map(|i| dir.join(format!("s{i}"))).collect();
    for (i, shard) in s.iter().enumerate() {
        ok(&pig(shard, &["--shard", &format!("{}/3", i + 1)]));
    }
    let out = dir.join("merged");
    let merge_all = || merge(&out, &[&s[0], &s[1], &s[2]]);

    // A row edited after its shard finished (its winner) is refused, by file and line.
    let games = std::fs::read_to_string(s[1].join("games.csv")).unwrap();
    let lines: Vec<&str> = games.lines().collect();
    let edited = if lines[2].contains(",0,1,target,") {
        lines[2].replacen(",0,1,target,", ",1,0,target,", 1)
    } else {
        lines[2].replacen(",1,0,target,", ",0,1,target,", 1)
    };
    assert_ne!(edited, lines[2]);
    std::fs::write(s[1].join("games.csv"), games.replacen(lines[2], &edited, 1)).unwrap();
    assert_bad(
        &merge_all(),
        &format!(
            "{}/games.csv line 3 has a digest that does not match its content and this run \
             (the row was changed after it was written, or comes from another run): this \
             folder does not hold this run as this build writes it; nothing was changed",
            s[1].display()
        ),
    );
    assert!(!out.exists());
    std::fs::write(s[1].join("games.csv"), &games).unwrap();

    // A shard whose timings.csv was lost: merge calls it unfinished, and its tournament
    // command with --resume finishes it (the games without a timing row are set aside
    // and played again, to the same rows).
    std::fs::remove_file(s[1].join("timings.csv")).unwrap();
    assert_bad(
        &merge_all(),
        &format!(
            "shard 2/3 in \"{}\" is unfinished (no timings.csv); run its tournament command \
             again with --resume to finish it",
            s[1].display()
        ),
    );
    let o = pig(&s[1], &["--shard", "2/3", "--resume"]);
    ok(&o);
    assert!(
        stderr(&o).starts_with(&format!(
            "note: {}/games.csv line 2: rows from game 6 on have no row in timings.csv (which \
             is written first, so it lost them; those games are played again); moved {} bytes \
             to {}/games.csv.partial\n",
            s[1].display(),
            games.len() - lines[0].len() - 1,
            s[1].display()
        )),
        "{}",
        stderr(&o)
    );
    assert_eq!(
        std::fs::read_to_string(s[1].join("games.csv")).unwrap(),
        games
    );
    ok(&merge_all());
    assert_same_files(&whole, &out, &["games.csv", "summary.csv"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn cluster_scripts_parse() {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("../experiments/cluster");
    for script in ["submit.sh", "shard.sbatch", "merge.sbatch"] {
        let path = folder.join(script);
        assert!(path.is_file(), "{}", path.display());
        let o = Command::new("bash")
            .arg("-n")
            .arg(&path)
            .output()
            .expect("bash runs");
        assert!(o.status.success(), "{script}: {}", stderr(&o));
    }
}
