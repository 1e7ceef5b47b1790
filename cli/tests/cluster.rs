//! Tests of the Slurm recipe's scripts (experiments/cluster) without a cluster: submit.sh
//! runs against a stand-in `sbatch` that records its arguments, and shard.sbatch and
//! merge.sbatch run as the plain bash scripts they are, with the variables Slurm would
//! set. The recipe on a real Slurm is tested by experiments/cluster/test-recipe.sh (root,
//! Debian), which CI does not run.
#![cfg(unix)]

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::common;
use common::{agon, scratch, stderr, stdout, text};

/// The folder of the scripts, as submit.sh names itself (no `..`, no symbolic links).
fn cluster() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../experiments/cluster")
        .canonicalize()
        .unwrap()
}

/// A stand-in for `sbatch`: appends its arguments, one a line, then `--`, to
/// `$SBATCH_CALLS`; `--test-only` succeeds unless an argument is
/// `--cpus-per-task=64`, which it refuses as Slurm does a request no node can hold;
/// otherwise it answers like `sbatch --parsable`, with job id 100 + the number of calls.
const STUB: &str = r#"#!/bin/bash
{ printf '%s\n' "$@"; echo --; } >>"$SBATCH_CALLS"
for a in "$@"; do
    if [ "$a" = --test-only ]; then
        for b in "$@"; do
            if [ "$b" = --cpus-per-task=64 ]; then
                echo "allocation failure: Requested node configuration is not available" >&2
                exit 1
            fi
        done
        echo "sbatch: Job 1 to start at 2026-01-01T00:00:00 using 1 processors" >&2
        exit 0
    fi
done
echo "$((100 + $(grep -c '^--$' "$SBATCH_CALLS")));cluster"
"#;

/// A scratch folder with the stand-in sbatch in `bin/`; the calls go to `calls`.
struct Slurm {
    dir: PathBuf,
}

impl Slurm {
    fn new(name: &str) -> Slurm {
        let dir = scratch(name);
        let bin = dir.join("bin");
        std::fs::create_dir(&bin).unwrap();
        let sbatch = bin.join("sbatch");
        std::fs::write(&sbatch, STUB).unwrap();
        std::fs::set_permissions(&sbatch, std::fs::Permissions::from_mode(0o755)).unwrap();
        Slurm { dir }
    }

    /// Runs submit.sh with `args`, with the debug build of agon as `$AGON`.
    fn submit(&self, args: &[&str]) -> Output {
        let path = format!(
            "{}:{}",
            self.dir.join("bin").display(),
            std::env::var("PATH").unwrap_or_default()
        );
        Command::new("bash")
            .arg(cluster().join("submit.sh"))
            .args(args)
            .env("PATH", path)
            .env("AGON", env!("CARGO_BIN_EXE_agon"))
            .env("SBATCH_CALLS", self.dir.join("calls"))
            .current_dir(&self.dir)
            .output()
            .expect("bash runs")
    }

    /// The argument lists of sbatch's calls so far.
    fn calls(&self) -> Vec<Vec<String>> {
        let Ok(log) = std::fs::read_to_string(self.dir.join("calls")) else {
            return Vec::new();
        };
        let mut calls = vec![Vec::new()];
        for line in log.lines() {
            if line == "--" {
                calls.push(Vec::new());
            } else {
                calls.last_mut().unwrap().push(line.to_string());
            }
        }
        calls.pop();
        calls
    }
}

/// The small tournament of the common module, without its output folder.
const SMALL: [&str; 11] = common::SMALL_TOURNAMENT;

fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| s.to_string()).collect()
}

/// submit.sh's own path, as it names itself in messages.
fn submit_sh() -> String {
    cluster().join("submit.sh").display().to_string()
}

/// Asserts that submit.sh exited 2 with `message` after its own name, submitted nothing
/// and created no output folder.
fn assert_refused(slurm: &Slurm, o: &Output, message: &str) {
    assert_eq!(o.status.code(), Some(2), "{}", stderr(o));
    assert_eq!(stderr(o), format!("{}: {message}\n", submit_sh()));
    assert_eq!(stdout(o), "");
    assert!(slurm
        .calls()
        .iter()
        .all(|c| c.contains(&"--test-only".to_string())));
    assert!(!slurm.dir.join("out").exists());
}

#[test]
fn submit_asks_one_cpu_per_task_by_default_and_submits_shards_then_a_merge_that_dies_with_them() {
    let slurm = Slurm::new("default");
    let mut args = vec!["3", "out"];
    args.extend(SMALL);
    let o = slurm.submit(&args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "submitted shards as job 103 (array 1-3 of 1-3) and the merge as job 104\n\
         results: out/merged (shards in out/shards, logs in out/logs)\n"
    );
    let here = cluster();
    let shard_job = |first: &[&str]| {
        let mut call = strings(first);
        call.extend(strings(&[
            "--array=1-3",
            "--cpus-per-task=1",
            "--output=out/logs/shard-%A_%a.out",
            text(&here.join("shard.sbatch")),
            "3",
            "out",
        ]));
        call.extend(strings(&SMALL));
        call
    };
    let merge_job = |first: &[&str]| {
        let mut call = strings(first);
        call.extend(strings(&[
            "--output=out/logs/merge-%j.out",
            text(&here.join("merge.sbatch")),
            "3",
            "out",
        ]));
        call
    };
    assert_eq!(
        slurm.calls(),
        vec![
            shard_job(&["--test-only"]),
            merge_job(&["--test-only"]),
            shard_job(&["--parsable"]),
            merge_job(&[
                "--parsable",
                "--dependency=afterok:103",
                "--kill-on-invalid-dep=yes"
            ]),
        ]
    );
    assert!(slurm.dir.join("out/logs").is_dir());
}

#[test]
fn submit_cpus_sets_cpus_per_task_of_the_shards_only() {
    let slurm = Slurm::new("cpus");
    let mut args = vec!["--cpus", "3", "2", "out"];
    args.extend(SMALL);
    let o = slurm.submit(&args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let calls = slurm.calls();
    assert_eq!(calls.len(), 4);
    for (i, call) in calls.iter().enumerate() {
        let cpus = call
            .iter()
            .filter(|a| a.starts_with("--cpus-per-task"))
            .count();
        let shard = call.iter().any(|a| a.ends_with("/shard.sbatch"));
        assert_eq!(shard, i % 2 == 0, "{call:?}");
        assert_eq!(cpus, usize::from(shard), "{call:?}");
        assert_eq!(call.contains(&"--cpus-per-task=3".to_string()), shard);
    }
}

#[test]
fn submit_refuses_cpus_that_slurm_cannot_give_before_submitting() {
    let slurm = Slurm::new("toomanycpus");
    let mut args = vec!["--cpus", "64", "3", "out"];
    args.extend(SMALL);
    let o = slurm.submit(&args);
    assert_refused(
        &slurm,
        &o,
        "nothing submitted: Slurm cannot run the shard tasks as asked (--cpus 64 and SBATCH_* \
         settings; see shard.sbatch for the rest): allocation failure: Requested node \
         configuration is not available",
    );
    assert_eq!(slurm.calls().len(), 1);
}

#[test]
fn submit_refuses_more_shards_than_pairs_before_submitting() {
    let slurm = Slurm::new("toomanyshards");
    let mut args = vec!["7", "out"];
    args.extend(SMALL);
    let o = slurm.submit(&args);
    assert_refused(
        &slurm,
        &o,
        "nothing submitted: the shards would fail: error: --shard 7/7: the run has 6 \
         seat-swapped pairs, so it can be cut into at most 6 shards",
    );
    assert!(slurm.calls().is_empty());
    // As many shards as pairs is fine.
    args[0] = "6";
    let o = slurm.submit(&args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(slurm.calls().len(), 4);
}

#[test]
fn submit_refuses_an_experiment_file_with_fewer_pairs_than_shards() {
    let slurm = Slurm::new("runfile");
    let file = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../experiments/invector-small-check.toml")
        .canonicalize()
        .unwrap();
    // 10 games: 5 pairs.
    let o = slurm.submit(&["6", "out", "run", text(&file)]);
    assert_refused(
        &slurm,
        &o,
        "nothing submitted: the shards would fail: error: --shard 6/6: the run has 5 \
         seat-swapped pairs, so it can be cut into at most 5 shards",
    );
    assert!(slurm.calls().is_empty());
}

#[test]
fn submit_refuses_a_command_agon_refuses_with_agons_message() {
    let slurm = Slurm::new("badagent");
    let mut args = vec!["2", "out"];
    args.extend(SMALL);
    args[6] = "nosuchagent";
    let o = slurm.submit(&args);
    let unused = slurm.dir.join("direct");
    let mut direct = args[2..].to_vec();
    direct.extend(["--out", text(&unused)]);
    let direct = agon(&direct);
    assert_eq!(direct.status.code(), Some(2));
    let line = stderr(&direct);
    assert!(
        line.starts_with("error: ") && line.contains("nosuchagent"),
        "{line}"
    );
    assert_refused(
        &slurm,
        &o,
        &format!(
            "nothing submitted: the shards would fail: {}",
            line.trim_end()
        ),
    );
    assert!(slurm.calls().is_empty());
}

#[test]
fn submit_tasks_resubmits_only_those_tasks_and_a_merge_of_all_shards() {
    let slurm = Slurm::new("tasks");
    let mut args = vec!["--tasks", "2,4-5", "5", "out"];
    args.extend(SMALL);
    let o = slurm.submit(&args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o).lines().next().unwrap(),
        "submitted shards as job 103 (array 2,4-5 of 1-5) and the merge as job 104"
    );
    let calls = slurm.calls();
    assert!(calls[2].contains(&"--array=2,4-5".to_string()));
    assert_eq!(&calls[3][calls[3].len() - 2..], &strings(&["5", "out"]));
}

#[test]
fn submit_refuses_bad_options_in_one_line() {
    let slurm = Slurm::new("options");
    let with = |first: &[&str]| {
        let mut args = strings(first);
        args.extend(strings(&SMALL));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        slurm.submit(&args)
    };
    let tasks_message = |list: &str| {
        format!(
            "--tasks '{list}' is not valid: expected task numbers or ranges from 1 to 5, \
             comma-separated (e.g. 7,12 or 3-5)"
        )
    };
    for list in ["", "0", "6", "3-2", "1,", ",1", "1,,2", "a", "1-2-3", "4-6"] {
        let o = with(&["--tasks", list, "5", "out"]);
        assert_refused(&slurm, &o, &tasks_message(list));
    }
    for cpus in ["0", "two", ""] {
        let o = with(&["--cpus", cpus, "5", "out"]);
        assert_refused(
            &slurm,
            &o,
            &format!("--cpus must be a whole number of CPUs from 1, got '{cpus}'"),
        );
    }
    let o = with(&["0", "out"]);
    assert_refused(
        &slurm,
        &o,
        "N must be a whole number of shards from 1, got '0'",
    );
    let o = with(&["--nodes", "2", "5", "out"]);
    assert_refused(
        &slurm,
        &o,
        &format!(
            "unknown option '--nodes': the options are --cpus C and --tasks LIST; usage: {0} \
             [--cpus C] [--tasks LIST] N OUT AGON_ARGS... (e.g. {0} 100 results/study run \
             experiments/x.toml)",
            submit_sh()
        ),
    );
    assert!(slurm.calls().is_empty());
}

/// Runs `script` (shard.sbatch or merge.sbatch) with bash as Slurm would, in `dir`, with
/// the variables `env`.
fn job(dir: &Path, script: &str, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut command = Command::new("bash");
    command
        .arg(cluster().join(script))
        .args(args)
        .current_dir(dir)
        .env_remove("AGON")
        .env("SLURM_SUBMIT_DIR", dir);
    for (key, value) in env {
        command.env(key, value);
    }
    command.output().expect("bash runs")
}

/// The lines of `file` up to and including line `n` (the header is line 1).
fn cut_to(file: &Path, n: usize) {
    let text = std::fs::read_to_string(file).unwrap();
    let kept: String = text.split_inclusive('\n').take(n).collect();
    std::fs::write(file, kept).unwrap();
}

#[test]
fn a_shard_task_run_again_after_it_was_stopped_resumes_its_shard() {
    let dir = scratch("resume");
    let agon_bin = env!("CARGO_BIN_EXE_agon");
    let mut args = vec!["3", "out"];
    args.extend(SMALL);
    let task = [
        ("AGON", agon_bin),
        ("SLURM_ARRAY_TASK_ID", "2"),
        ("SLURM_CPUS_PER_TASK", "1"),
    ];
    let first = job(&dir, "shard.sbatch", &args, &task);
    assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
    assert!(stdout(&first).starts_with("shard 2/3, attempt 1, on "));
    let shard = dir.join("out/shards/2");
    let games = std::fs::read(shard.join("games.csv")).unwrap();
    let summary = std::fs::read(shard.join("summary.csv")).unwrap();
    // Shard 2 of 3 holds pairs 2 and 3: 4 games. Stop it as a kill would after one game.
    assert_eq!(games.iter().filter(|&&b| b == b'\n').count(), 1 + 4);
    cut_to(&shard.join("games.csv"), 2);
    cut_to(&shard.join("timings.csv"), 2);
    std::fs::remove_file(shard.join("summary.csv")).unwrap();
    let again = job(
        &dir,
        "shard.sbatch",
        &args,
        &[
            ("AGON", agon_bin),
            ("SLURM_ARRAY_TASK_ID", "2"),
            ("SLURM_CPUS_PER_TASK", "1"),
            ("SLURM_RESTART_COUNT", "1"),
        ],
    );
    assert_eq!(again.status.code(), Some(0), "{}", stderr(&again));
    assert!(stdout(&again).starts_with("shard 2/3, attempt 2, on "));
    assert!(
        stderr(&again).starts_with("resuming "),
        "{}",
        stderr(&again)
    );
    assert_eq!(std::fs::read(shard.join("games.csv")).unwrap(), games);
    assert_eq!(std::fs::read(shard.join("summary.csv")).unwrap(), summary);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn job_scripts_submitted_by_hand_find_agon_in_the_checkout_they_were_submitted_from() {
    let dir = scratch("byhand");
    let release = dir.join("target/release");
    std::fs::create_dir_all(&release).unwrap();
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_agon"), release.join("agon")).unwrap();
    let mut args = vec!["2", "out"];
    args.extend(SMALL);
    for task in ["1", "2"] {
        let o = job(
            &dir,
            "shard.sbatch",
            &args,
            &[("SLURM_ARRAY_TASK_ID", task)],
        );
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    }
    let o = job(&dir, "merge.sbatch", &["2", "out"], &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let whole = dir.join("whole");
    let mut single = SMALL.to_vec();
    single.extend(["--out", text(&whole)]);
    let o = agon(&single);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    for file in ["games.csv", "summary.csv"] {
        assert_eq!(
            std::fs::read(dir.join("out/merged").join(file)).unwrap(),
            std::fs::read(whole.join(file)).unwrap(),
            "{file}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn job_scripts_without_a_binary_say_how_to_name_one() {
    let dir = scratch("nobinary");
    let missing = dir.join("nothing/agon");
    let message = format!(
        "no agon binary at AGON={}; set AGON to the path of agon\n",
        missing.display()
    );
    let mut args = vec!["2", "out"];
    args.extend(SMALL);
    let env = [("AGON", text(&missing)), ("SLURM_ARRAY_TASK_ID", "1")];
    let o = job(&dir, "shard.sbatch", &args, &env);
    assert_eq!((o.status.code(), stderr(&o)), (Some(2), message.clone()));
    let o = job(&dir, "merge.sbatch", &["2", "out"], &env[..1]);
    assert_eq!((o.status.code(), stderr(&o)), (Some(2), message));
    assert!(!dir.join("out").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_local_slurm_and_recipe_test_scripts_parse() {
    for script in ["local-slurm.sh", "test-recipe.sh"] {
        let o = Command::new("bash")
            .arg("-n")
            .arg(cluster().join(script))
            .output()
            .expect("bash runs");
        assert!(o.status.success(), "{script}: {}", stderr(&o));
    }
}
