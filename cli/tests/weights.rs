//! End-to-end tests of evaluator weights from files (`eval=FILE`) and of ladder levels
//! (`level:k`): what `agon agents --game G` lists, what a run records, and the refusals.

use crate::common;
use common::{agon, assert_bad, ok, scratch, stdout, text, tournament_into};

#[test]
fn agents_for_a_game_lists_only_its_agents_then_its_weights_and_ladder() {
    let o = agon(&["agents", "--game", "pig"]);
    ok(&o);
    let listing = stdout(&o);
    assert!(!listing.contains("\nab: "), "{listing}");
    assert!(!listing.contains("\nsolve: "), "{listing}");
    assert!(listing.contains("\nstar2: "), "{listing}");
    assert!(
        listing.contains("\nevaluator weights of pig (eval=FILE: "),
        "{listing}"
    );
    assert!(
        listing.contains(
            "\nwhat a network sees of pig (encoding pig/1:100:6:1000, from one seat's view: 0 \
             planes of 1×1 cells, 0 binary features, and 6 scalars):\n    my-score "
        ),
        "{listing}"
    );
    let ladder: Vec<&str> = listing
        .lines()
        .skip_while(|l| !l.starts_with("ladder of pig (level:k), weakest first:"))
        .skip(1)
        .collect();
    assert!(ladder.len() >= 4, "{listing}");
    for (k, line) in ladder.iter().enumerate() {
        assert!(line.starts_with(&format!("level {} ", k + 1)), "{line}");
    }
    assert_eq!(ladder[0], "level 1 random");
    // Deterministic games list the alpha-beta agents; other parameters get a note.
    let o = agon(&["agents", "--game", "invector:width=5,height=4"]);
    ok(&o);
    let listing = stdout(&o);
    assert!(listing.contains("\nab: "), "{listing}");
    assert!(
        listing.contains(
            "\nladder of invector (level:k), weakest first, measured on the default \
             parameters (invector:height=7,pie=true,width=8), not on \
             invector:height=4,pie=true,width=5:\nlevel 1 random\n"
        ),
        "{listing}"
    );
    assert!(listing.contains("    stone   "), "{listing}");
}

#[test]
fn a_weights_file_changes_play_and_is_recorded_by_its_digest() {
    let dir = scratch("eval");
    let file = dir.join("w.toml");
    // All material and no centre: a different player from the defaults.
    std::fs::write(&file, "two = 0\nthree = 0\ncentre = 50\n").unwrap();
    let weighted = format!("ab:depth=2,eval={}", text(&file));
    let run = |out: &str, agent: &str| {
        let out = dir.join(out);
        let o = tournament_into(
            "connect4",
            &[agent, "ab:depth=2"],
            &out,
            &["--games", "2", "--random-opening", "2"],
        );
        (o, out)
    };
    let (o, with) = run("with", &weighted);
    ok(&o);
    let (o, without) = run("without", "ab:depth=2,noise=0");
    ok(&o);
    let meta = std::fs::read_to_string(with.join("meta.csv")).unwrap();
    assert!(
        meta.contains(&format!(
            "\nagent,\"ab:depth=2,eval={},hash=16,threads=1\"\n",
            text(&file)
        )),
        "{meta}"
    );
    let hashes: Vec<&str> = meta
        .lines()
        .filter_map(|l| l.strip_prefix("eval_hash,"))
        .collect();
    assert_eq!(hashes.len(), 2, "{meta}");
    assert_eq!(hashes[0].len(), 16, "{meta}");
    assert_eq!(hashes[1], "", "{meta}");
    assert!(!std::fs::read_to_string(without.join("meta.csv"))
        .unwrap()
        .contains("eval_hash"));
    let moves = |dir: &std::path::Path| {
        let games = std::fs::read_to_string(dir.join("games.csv")).unwrap();
        games
            .lines()
            .skip(1)
            .map(|l| l.to_string())
            .collect::<Vec<_>>()
    };
    assert_ne!(moves(&with), moves(&without));

    // The same file rendered the defaults: resuming after an edit is refused.
    std::fs::write(&file, "two = 1\n").unwrap();
    let o = tournament_into(
        "connect4",
        &[&weighted, "ab:depth=2"],
        &with,
        &["--games", "2", "--random-opening", "2", "--resume"],
    );
    assert_eq!(o.status.code(), Some(2), "{}", common::stderr(&o));
    assert!(
        common::stderr(&o).contains("evaluator weights (hash)"),
        "{}",
        common::stderr(&o)
    );
}

#[test]
fn a_bad_weights_file_is_one_line_naming_the_valid_choices() {
    let dir = scratch("bad-eval");
    let file = dir.join("w.toml");
    let analyse = |spec: &str| agon(&["analyse", "--game", "connect4", "--agent", spec]);
    std::fs::write(&file, "tow = 3\n").unwrap();
    let spec = format!("ab:depth=1,eval={}", text(&file));
    assert_bad(
        &analyse(&spec),
        &format!(
            "weights file {:?}: unknown weight \"tow\" (valid: two, three, centre)",
            text(&file)
        ),
    );
    std::fs::write(&file, "three = 201\n").unwrap();
    assert_bad(
        &analyse(&spec),
        &format!(
            "weights file {:?}: three = 201 is out of range (valid: 0..200)",
            text(&file)
        ),
    );
    let missing = dir.join("none.toml");
    let o = analyse(&format!("greedy:eval={}", text(&missing)));
    assert_eq!(o.status.code(), Some(2));
    assert!(common::stderr(&o).starts_with(&format!(
        "error: cannot read weights file {:?}: ",
        text(&missing)
    )));
}

#[test]
fn a_weights_file_is_a_regular_file_of_at_most_a_mebibyte_refused_before_reading() {
    let dir = scratch("bounded-eval");
    let device = |path: &str| {
        format!(
            "weights file {path:?} is not a regular file (a device, pipe or folder is not read)"
        )
    };
    for path in ["/dev/zero", "/dev/urandom"] {
        assert_bad(
            &agon(&[
                "analyse",
                "--game",
                "connect4",
                "--agent",
                &format!("ab:depth=1,eval={path}"),
            ]),
            &device(path),
        );
        let out = dir.join("tuned.toml");
        assert_bad(
            &agon(&[
                "tune",
                "--game",
                "connect4",
                "--games",
                "2",
                "--eval",
                path,
                "--out",
                text(&out),
            ]),
            &device(path),
        );
        assert!(!out.exists());
    }
    // A file a byte over the bound, however valid its start, is refused as too large.
    let big = dir.join("big.toml");
    let mut file = "two = 3\n".to_string();
    file.push_str(&"#".repeat((1 << 20) + 1 - file.len()));
    std::fs::write(&big, file).unwrap();
    let run = dir.join("run");
    assert_bad(
        &tournament_into(
            "connect4",
            &[&format!("greedy:eval={}", text(&big)), "random"],
            &run,
            &["--games", "2"],
        ),
        &format!(
            "weights file {:?} is larger than 1 MiB, the most read",
            text(&big)
        ),
    );
    assert!(!run.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_level_plays_its_rung_and_records_the_resolved_spec() {
    let dir = scratch("level");
    let out = dir.join("run");
    let o = tournament_into("connect4", &["level:2", "level:1"], &out, &["--games", "2"]);
    ok(&o);
    let meta = std::fs::read_to_string(out.join("meta.csv")).unwrap();
    assert!(
        meta.contains("\nagent,L2=greedy\nagent,L1=random\n"),
        "{meta}"
    );
    let games = std::fs::read_to_string(out.join("games.csv")).unwrap();
    assert!(
        games
            .lines()
            .nth(1)
            .unwrap()
            .contains(",L2=greedy,L1=random,"),
        "{games}"
    );
    // The recorded form is accepted as typed, and the run is the same run.
    let o = tournament_into(
        "connect4",
        &["L2=greedy", "L1=random"],
        &out,
        &["--games", "2"],
    );
    ok(&o);
    assert_bad(
        &agon(&["analyse", "--game", "connect4", "--agent", "level:99"]),
        "agent \"level:99\": no such level of the connect4 ladder (valid: level:1 to level:6)",
    );
}
