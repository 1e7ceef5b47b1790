//! End-to-end tests of `agon tournament`'s files and printed report: exact bytes of a
//! seeded run (golden files), the same files at any thread count, the SPRT and ratings of
//! a match, refusals that write nothing, and a run folder reprinted or refused.

use crate::common;
use common::golden::{assert_golden, assert_golden_prefix, assert_golden_with};
use common::{
    agon, assert_bad_input, assert_same_files, ok, scratch, small_tournament as tournament, stderr,
    stdout, stdout_without_speed, tournament_into,
};

#[test]
fn one_and_two_threads_write_identical_files() {
    let dir = scratch("threads");
    let (one, two) = (dir.join("one"), dir.join("two"));
    for (out, threads) in [(&one, "1"), (&two, "2")] {
        ok(&agon(&tournament(
            out.to_str().unwrap(),
            &["--threads", threads],
        )));
    }
    assert_same_files(&one, &two, &["games.csv", "summary.csv"]);
    let games = std::fs::read_to_string(one.join("games.csv")).unwrap();
    assert_eq!(games.lines().count(), 1 + 3 * 4);
    let timings = std::fs::read_to_string(one.join("timings.csv")).unwrap();
    assert!(timings.starts_with("game,time_us0,time_us1\n0,"));
    let summary = std::fs::read_to_string(one.join("summary.csv")).unwrap();
    let lines: Vec<&str> = summary.lines().collect();
    assert_eq!(
        lines[0],
        "section,pairing,agent_a,agent_b,subject,statistic,value,low,high,text"
    );
    assert_eq!(lines[1], "pairing,0,ab:depth=2,greedy,,games,4,,,");
    assert!(
        summary.contains("\npairing,2,greedy,random,,games,4,,,\n"),
        "{summary}"
    );
    // Three agents: a rating per agent, mean zero.
    assert!(
        summary.contains("\nrating,,,,,anchor,,,,mean\n"),
        "{summary}"
    );
    for agent in ["ab:depth=2", "greedy", "random"] {
        assert!(
            summary.contains(&format!("\nrating,,,,{agent},elo,")),
            "{agent}: {summary}"
        );
    }
    assert!(
        summary.contains("\nseat,,,,0,wins,")
            && summary.contains("\nlength,,,,plies,games,12,,,\n"),
        "{summary}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn golden_games_csv_of_a_seeded_self_play() {
    // Random self-play: depends only on the rules, the seed derivation and `random`.
    // A deliberate change to any of them updates the golden files self_play.*, reviewed
    // as a diff.
    let dir = scratch("golden");
    let out = dir.join("run");
    let o = tournament_into(
        "invector:width=3,height=2",
        &["random"],
        &out,
        &["--games", "2", "--seed", "5", "--threads", "1"],
    );
    ok(&o);
    assert_golden(
        "self_play.games.csv",
        &std::fs::read_to_string(out.join("games.csv")).unwrap(),
    );
    // The summary of this run, file and printed table, byte for byte (one agent: no
    // ratings; one pair, each game won by the side that moved first).
    assert_golden(
        "self_play.summary.csv",
        &std::fs::read_to_string(out.join("summary.csv")).unwrap(),
    );
    assert_golden_with(
        "self_play.stdout.txt",
        &stdout_without_speed(&o),
        &[("{out}", &out.display().to_string())],
    );
    // Speed, apart from the reproducible table: per agent its games, decisions and nodes
    // are exact (self-play: 3 + 3 + 4 + 3 decisions of `random`, a node each); times vary.
    let speed = std::fs::read_to_string(out.join("speed.csv")).unwrap();
    let lines: Vec<&str> = speed.lines().collect();
    assert_eq!(
        lines[0],
        "agent,games,decisions,time_us,us_per_decision,nodes,nodes_per_second"
    );
    let fields: Vec<&str> = lines[1].split(',').collect();
    assert_eq!(
        (lines.len(), fields[0], fields[1], fields[2], fields[5]),
        (2, "random", "2", "13", "13")
    );
    let printed = stdout(&o);
    let section = &printed[printed.find("\nspeed (").unwrap() + 1..];
    assert!(
        section.starts_with(
            "speed (wall-clock thinking time, not reproducible; speed.csv)\n\
             agent   games  decisions  time s  ms/decision  nodes  nodes/s\n\
             random      2         13"
        ),
        "{section}"
    );
    let meta = std::fs::read_to_string(out.join("meta.csv")).unwrap();
    assert!(
        meta.starts_with("key,value\nformat,3\ntoolkit,agon 0.1.0\ncommit,"),
        "{meta}"
    );
    // The commit: 40 hex digits, `-dirty` if the tree had changes, or `unknown`.
    let commit = meta
        .lines()
        .nth(3)
        .unwrap()
        .strip_prefix("commit,")
        .unwrap();
    let hex = commit.strip_suffix("-dirty").unwrap_or(commit);
    assert!(
        commit == "unknown" || (hex.len() == 40 && hex.chars().all(|c| c.is_ascii_hexdigit())),
        "{commit}"
    );
    let rest = meta.split_once(&format!("commit,{commit}\n")).unwrap().1;
    assert!(
        rest.starts_with(
            "game,\"invector:height=2,pie=true,width=3\"\n\
         agent,random\ngames_per_pairing,2\nseed,5\nrandom_opening,0\nopenings,\nopenings_hash,\n\
         threads,1\ncommand,"
        ),
        "{meta}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn sprt_and_ratings_of_a_two_agent_match() {
    // random against greedy on the 3×2 board: greedy wins all four games. The summary
    // reports the SPRT's ratio and decision and both agents' ratings; the printed table
    // is checked byte for byte, summary.csv down to the ratings.
    let dir = scratch("sprt");
    let out = dir.join("run");
    let o = tournament_into(
        "invector:width=3,height=2",
        &["random", "greedy"],
        &out,
        &[
            "--games",
            "4",
            "--seed",
            "5",
            "--threads",
            "1",
            "--sprt",
            "0,5,0.05,0.05",
        ],
    );
    ok(&o);
    assert_golden_with(
        "sprt.stdout.txt",
        &stdout_without_speed(&o),
        &[("{out}", &out.display().to_string())],
    );
    assert_golden_prefix(
        "sprt.summary-start.csv",
        &std::fs::read_to_string(out.join("summary.csv")).unwrap(),
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_sprt_input_leaves_no_files() {
    let dir = scratch("bad-sprt");
    let out = dir.join("run");
    let out_text = out.to_str().unwrap();
    let two = |sprt: &'static str| {
        vec![
            "tournament",
            "--game",
            "invector:width=3,height=2",
            "--agents",
            "random",
            "greedy",
            "--sprt",
            sprt,
            "--out",
            out_text,
        ]
    };
    let cases = [
        (
            two("0,5"),
            "--sprt: expected four numbers elo0,elo1,alpha,beta (e.g. 0,5,0.05,0.05), got \"0,5\"",
        ),
        (
            two("5,-5,0.05,0.05"),
            "--sprt: elo0 must be less than elo1, got elo0 5 and elo1 -5",
        ),
        (
            two("0,5,0.05,0.7"),
            "--sprt: beta must be between 0 and 0.5 (exclusive), got 0.7",
        ),
        // Hypotheses the test could never decide between.
        (
            two("0,1e308,0.05,0.05"),
            "--sprt: elo1 must lie between -1000 and 1000 Elo, got 1e308",
        ),
        (
            two("0,1e-300,0.05,0.05"),
            "--sprt: elo0 0 and elo1 1e-300 are too close to tell apart",
        ),
        (
            two("0,5,5e-324,0.05"),
            "--sprt: alpha 5e-324 and beta 0.05 are too small: the test's bounds \
             ln(beta/(1-alpha)) and ln((1-beta)/alpha) must be finite",
        ),
        (
            tournament(out_text, &["--sprt", "0,5,0.05,0.05"]),
            "--sprt needs exactly two agents, got 3",
        ),
    ];
    for (args, line) in cases {
        assert_bad_input(&args, line);
        assert!(!out.exists(), "{args:?} created {}", out.display());
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn run_folders_are_reprinted_or_refused() {
    let dir = scratch("rerun");
    let out = dir.join("run");
    let out_text = out.to_str().unwrap();
    let first = agon(&tournament(out_text, &["--threads", "2"]));
    assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
    assert!(stdout(&first).contains(&format!(
        "wrote meta.csv, games.csv, timings.csv, summary.csv, speed.csv, ratings.svg, seat0.svg, lengths.svg, report.html in {out_text}"
    )));
    let games = std::fs::read(out.join("games.csv")).unwrap();

    // The same run (another thread count does not make it different): reprinted.
    let again = agon(&tournament(out_text, &["--threads", "1"]));
    assert_eq!(again.status.code(), Some(0));
    let text = stdout(&again);
    assert!(
        text.starts_with(&format!(
            "{out_text} already holds this finished run; its summary:\n"
        )),
        "{text}"
    );
    // The whole report, from the heading to the blank line before `wrote ...`.
    let table = |t: &str| {
        let start = t.find("invector:").expect("heading");
        let end = t.rfind("\n\n").expect("end of the report");
        t[start..end].to_string()
    };
    assert_eq!(table(&text), table(&stdout(&first)));
    assert!(table(&text).contains("\nratings (Bradley-Terry"), "{text}");
    assert_eq!(std::fs::read(out.join("games.csv")).unwrap(), games);

    // A different run: refused, nothing touched.
    let mut other = tournament(out_text, &[]);
    other[10] = "12"; // --seed
    assert_bad_input(
        &other,
        &format!(
            "output folder \"{out_text}\" holds a different run (seed \"11\" there, \"12\" here); \
             choose another --out or remove it"
        ),
    );
    assert_eq!(std::fs::read(out.join("games.csv")).unwrap(), games);

    // A folder with foreign files.
    let foreign = dir.join("foreign");
    std::fs::create_dir_all(&foreign).unwrap();
    std::fs::write(foreign.join("notes.txt"), "mine").unwrap();
    let foreign_text = foreign.to_str().unwrap();
    assert_bad_input(
        &tournament(foreign_text, &[]),
        &format!(
            "output folder \"{foreign_text}\" is not empty and holds no agon run (no meta.csv); \
             choose a new or empty folder"
        ),
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_tournament_input_leaves_no_files() {
    let dir = scratch("nofiles");
    let out = dir.join("run");
    let out_text = out.to_str().unwrap();
    let cases: Vec<(Vec<&str>, String)> = vec![
        (
            {
                let mut a = tournament(out_text, &[]);
                a[8] = "3";
                a
            },
            "--games must be even and at least 2 (games 2k and 2k+1 form a seat-swapped pair), got 3".into(),
        ),
        (
            {
                let mut a = tournament(out_text, &[]);
                a[2] = "invector:width=6,height=6";
                a
            },
            "game \"invector:height=6,pie=true,width=6\": invector board 6x6 is not allowed: \
             exactly one of width and height must be even"
                .into(),
        ),
        (
            {
                let mut a = tournament(out_text, &[]);
                a[5] = "grredy";
                a
            },
            "unknown agent \"grredy\" (valid: random, greedy, ab, solve, expectimax, star1, star2, mcts, optimal, ext)".into(),
        ),
        (
            {
                let mut a = tournament(out_text, &[]);
                a[5] = "human";
                a
            },
            "agent \"human\" reads moves from a person and plays only in agon play (valid here: \
         random, greedy, ab, solve, expectimax, star1, star2, mcts, optimal, ext)".into(),
        ),
        (
            {
                let mut a = tournament(out_text, &[]);
                a[2] = "pig";
                a
            },
            "agent \"ab\" needs a deterministic game: alpha-beta cannot search chance nodes \
             (for games with chance use star2 or mcts)"
                .into(),
        ),
        // An opening that always ends the game is drawn before the folder is made.
        (
            {
                let mut a = tournament(out_text, &["--random-opening", "42"]);
                a[2] = "connect4";
                a
            },
            "--random-opening 42: 100 random openings of deal 0 all ended the game; choose a \
             smaller K"
                .into(),
        ),
    ];
    for (args, line) in cases {
        assert_bad_input(&args, &line);
        assert!(!out.exists(), "{args:?} created {}", out.display());
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn golden_games_csv_of_a_chance_game_shares_luck_within_pairs() {
    // A match of `random` against itself entered twice (two agents, so a match, not
    // self-play) on Pig to 10: depends on the rules, the seed derivation, the
    // common-random-numbers keys of Pig's dice and `random`. The two games of a pair
    // draw the k-th die of turn t from the same key: in pair 0, turn 3 (the 4th) starts
    // with a 1 in both games; in pair 1, turn 2 starts with a 4 in both, though the
    // games differ before and after.
    let dir = scratch("golden-pig");
    // Pig to 10 with `agents`, 4 games per pairing, seed 5, one thread, into `out`.
    let pig = |agents: &[&str], out: &std::path::Path| {
        let extra = ["--games", "4", "--seed", "5", "--threads", "1"];
        tournament_into("pig:target=10", agents, out, &extra)
    };
    let out = dir.join("run");
    let o = pig(&["random", "random"], &out);
    ok(&o);
    assert_golden(
        "pig_match.games.csv",
        &std::fs::read_to_string(out.join("games.csv")).unwrap(),
    );
    // Self-play of the same agent: every game is dealt its own luck, so the odd games
    // are not the even games' dice again (game 0 is as above: deal 0 is pair 0).
    let solo = dir.join("solo");
    let o = pig(&["random"], &solo);
    ok(&o);
    assert_golden(
        "pig_self_play.games.csv",
        &std::fs::read_to_string(solo.join("games.csv")).unwrap(),
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// This machine's memory and swap in MiB, as `/proc/meminfo` gives them.
fn machine_mib() -> u64 {
    let meminfo = std::fs::read_to_string("/proc/meminfo").unwrap();
    let kib = |key: &str| -> u64 {
        meminfo
            .lines()
            .find_map(|l| l.strip_prefix(key)?.strip_prefix(':'))
            .map_or(0, |v| {
                v.trim().trim_end_matches("kB").trim().parse().unwrap()
            })
    };
    (kib("MemTotal") + kib("SwapTotal")) >> 10
}

#[test]
fn tables_no_machine_can_hold_are_refused_before_anything_is_built_or_written() {
    let dir = scratch("memory");
    let out = dir.join("run");
    // 1024 workers, each holding two 16 GiB tables: 32 TiB.
    let o = tournament_into(
        "connect4",
        &["ab:depth=1,hash=16384", "ab:depth=2,hash=16384"],
        &out,
        &["--games", "2048", "--threads", "1024"],
    );
    common::assert_bad(
        &o,
        &format!(
            "the agents' tables need up to 33554432 MiB at once (1024 workers × 32768 MiB, \
             the hash of one game's two seats and of the opening checker), more than this \
             machine's {} MiB of memory; choose a smaller hash or fewer --threads",
            machine_mib()
        ),
    );
    assert!(!out.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_table_that_cannot_be_allocated_is_bad_input_not_an_abort() {
    // Under a 1 GiB limit on the process's address space a 4 GiB table cannot be
    // allocated, whatever the machine has.
    let o = std::process::Command::new("sh")
        .args(["-c", "ulimit -v 1048576 && exec \"$0\" \"$@\""])
        .arg(env!("CARGO_BIN_EXE_agon"))
        .args([
            "analyse",
            "--game",
            "connect4",
            "--agent",
            "ab:depth=1,hash=4096",
        ])
        .output()
        .unwrap();
    common::assert_bad(
        &o,
        "agent \"ab\": cannot allocate its table of hash=4096 MiB (not enough memory; choose \
         a smaller hash)",
    );
}

#[test]
fn a_name_or_label_with_a_control_character_is_refused_before_anything_is_written() {
    let dir = scratch("control");
    let out = dir.join("run");
    let refusal = |spec: &str, c: &str| {
        format!(
            "agent {spec:?}: parameter \"name\" holds the control character {c} (a value is \
             shown in labels, tables and records, so it must be printable text)"
        )
    };
    for (spec, c) in [
        ("ext:cmd=/bin/sh,name=bot\nrandom", "'\\n'"),
        ("ext:cmd=/bin/sh,name=\u{1b}[2Jbot", "'\\u{1b}'"),
    ] {
        common::assert_bad(
            &tournament_into("connect4", &[spec, "random"], &out, &["--games", "2"]),
            &refusal(spec, c),
        );
        assert!(!out.exists());
    }
    // The same from an experiment file, where TOML's escapes write the character.
    std::fs::write(
        dir.join("x.toml"),
        "game = \"connect4\"\nagents = [\"ext:cmd=/bin/sh,name=a\\nb\", \"random\"]\n\
         games = 2\nseed = 1\n",
    )
    .unwrap();
    common::assert_bad(
        &common::agon_in(Some(&dir), &["run", "x.toml", "--out", "run"], ""),
        &refusal("ext:cmd=/bin/sh,name=a\nb", "'\\n'"),
    );
    assert!(!out.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}
