//! End-to-end tests of openings: random openings (`--random-opening K`) and openings
//! files (`--openings FILE`) give both games of a pair the same line, vary the pairs, are
//! part of a run's identity and are checked before anything is written.

use std::path::Path;

use crate::common;
use common::{agon, assert_bad_input, ok, scratch, stderr, tournament_into};

/// Each row of a games.csv as its moves (split into plies) and the length of its
/// opening, read by column name.
fn game_rows(path: &Path) -> Vec<(Vec<String>, usize)> {
    let mut reader = csv::Reader::from_path(path).unwrap();
    let headers = reader.headers().unwrap().clone();
    let column = |name: &str| headers.iter().position(|h| h == name).unwrap();
    let (moves, opening) = (column("moves"), column("opening"));
    reader
        .records()
        .map(|record| {
            let record = record.unwrap();
            let plies = record[moves].split(' ').map(str::to_string).collect();
            (plies, record[opening].parse().unwrap())
        })
        .collect()
}

#[test]
fn random_openings_vary_the_pairs_of_deterministic_agents() {
    let dir = scratch("random-opening");
    // Invector 5×4 without the pie rule, two alpha-beta agents, 6 games, seed 3.
    let tournament = |out: &Path, extra: &[&str]| {
        let mut args = vec!["--games", "6", "--seed", "3"];
        args.extend(extra);
        let agents = ["ab:depth=2", "ab:depth=4"];
        tournament_into("invector:width=5,height=4,pie=false", &agents, out, &args)
    };
    let run = |name: &str, extra: &[&str]| {
        let out = dir.join(name);
        ok(&tournament(&out, extra));
        (game_rows(&out.join("games.csv")), out)
    };
    // Without an opening, two alpha-beta agents replay one pair three times.
    let (plain, _) = run("plain", &[]);
    assert_eq!(plain[0], plain[2]);
    assert_eq!(plain[1], plain[5]);
    assert!(plain.iter().all(|(_, opening)| *opening == 0));

    let (rows, out) = run("opening", &["--random-opening", "4"]);
    let openings: Vec<Vec<String>> = rows
        .iter()
        .map(|(moves, opening)| {
            // Invector has no chance: the opening is exactly the 4 decisions (the pie rule
            // is off: with it on, an opening stops before White's swap decision).
            assert_eq!(*opening, 4, "{moves:?}");
            moves[..4].to_vec()
        })
        .collect();
    for p in 0..3 {
        assert_eq!(openings[2 * p], openings[2 * p + 1], "pair {p}");
        for q in 0..p {
            assert_ne!(openings[2 * p], openings[2 * q], "pairs {p} and {q}");
        }
    }
    // The games of different pairs differ.
    for g in 0..6 {
        for h in 0..g {
            assert_ne!(rows[g].0, rows[h].0, "games {g} and {h}");
        }
    }
    let meta = std::fs::read_to_string(out.join("meta.csv")).unwrap();
    assert!(
        meta.contains("\nrandom_opening,4\nopenings,\nopenings_hash,\n"),
        "{meta}"
    );
    // The same folder with another K is another run.
    let o = tournament(&out, &["--random-opening", "5"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        format!(
            "error: output folder \"{}\" holds a different run (random opening \"4\" there, \
             \"5\" here); choose another --out or remove it\n",
            out.display()
        )
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn random_openings_of_chance_games_share_the_pair_luck() {
    // Pig with a 3-decision opening: chance outcomes in the opening do not count, and
    // both games of a pair open with the same plies, dice included; one and two threads
    // write the same games.
    let dir = scratch("random-opening-pig");
    let run = |threads: &str| {
        let out = dir.join(format!("run{threads}"));
        let o = agon(&[
            "tournament",
            "--game",
            "pig:target=20",
            "--agents",
            "random",
            "greedy",
            "--games",
            "8",
            "--seed",
            "2",
            "--random-opening",
            "3",
            "--threads",
            threads,
            "--out",
            out.to_str().unwrap(),
        ]);
        ok(&o);
        std::fs::read_to_string(out.join("games.csv")).unwrap()
    };
    assert_eq!(run("1"), run("2"));
    let rows = game_rows(&dir.join("run1").join("games.csv"));
    for pair in rows.chunks(2) {
        let ((a, na), (b, nb)) = (&pair[0], &pair[1]);
        assert_eq!(a[..*na], b[..*nb]);
        let decisions = a[..*na].iter().filter(|m| *m == "roll" || *m == "hold");
        assert_eq!(decisions.count(), 3, "{a:?}");
        // The agents decide next.
        assert!(["roll", "hold"].contains(&a[*na].as_str()), "{a:?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn openings_files_give_each_pair_its_line_and_are_checked_first() {
    let dir = scratch("openings");
    let file = dir.join("openings.txt");
    std::fs::write(&file, "# two openings\n\nb2xc2\n  c1xb1   a2xb2 \n").unwrap();
    let out = dir.join("run");
    let tournament = |openings: &Path, out: &Path| {
        agon(&[
            "tournament",
            "--game",
            "invector:width=3,height=2,pie=false",
            "--agents",
            "random",
            "--games",
            "6",
            "--seed",
            "5",
            "--openings",
            openings.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ])
    };
    let o = tournament(&file, &out);
    ok(&o);
    // Self-play: game g plays line g mod 2 (in a match, pair p would play line p mod 2).
    let rows = game_rows(&out.join("games.csv"));
    let lines = [vec!["b2xc2"], vec!["c1xb1", "a2xb2"]];
    for (g, (moves, opening)) in rows.iter().enumerate() {
        let line = &lines[g % 2];
        assert_eq!(*opening, line.len(), "{moves:?}");
        assert_eq!(moves[..*opening], line[..], "{moves:?}");
    }
    let meta = std::fs::read_to_string(out.join("meta.csv")).unwrap();
    assert!(
        meta.contains(&format!(
            "\nrandom_opening,0\nopenings,{}\nopenings_hash,",
            file.display()
        )),
        "{meta}"
    );
    // The same path with other contents is another run.
    std::fs::write(&file, "b2xc2\n").unwrap();
    let o = tournament(&file, &out);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("holds a different run (openings file contents (hash) \""),
        "{}",
        stderr(&o)
    );

    // Bad files: one line naming the file, the line and the move, nothing written.
    let bad = dir.join("bad.txt");
    let fresh = dir.join("never");
    let cases = [
        (
            "# comment\nb2xc2\n\nc1xb1 a1xa2\n",
            format!(
                "openings file {}: line 4: move 2 of 2, \"a1xa2\": a1 holds no white stone \
                 (legal here: a2xb2 a2xa1 c2xb2)",
                bad.display()
            ),
        ),
        (
            "c1xb1 zz\n",
            format!(
                "openings file {}: line 1: move 2 of 2, \"zz\": expected a step like c3-c4, \
                 a capture like c3xd3, pass or swap (legal here: a2xb2 a2xa1 c2xb2)",
                bad.display()
            ),
        ),
        (
            "b2xc2 a2xa1 c1xb1 a1xb1 c2-b2 b1xb2\n",
            format!(
                "openings file {}: line 1: the opening ends the game, leaving the agents \
                 nothing to play",
                bad.display()
            ),
        ),
        (
            "# nothing\n\n",
            format!(
                "openings file {} holds no opening (one move list per line; blank lines and \
                 lines starting with # are ignored)",
                bad.display()
            ),
        ),
    ];
    for (text, line) in cases {
        std::fs::write(&bad, text).unwrap();
        let o = tournament(&bad, &fresh);
        assert_eq!(o.status.code(), Some(2), "{text}");
        assert_eq!(stderr(&o), format!("error: {line}\n"), "{text}");
        assert!(!fresh.exists(), "{text}");
    }
    let missing = dir.join("missing.txt");
    let o = tournament(&missing, &fresh);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        format!(
            "error: cannot read openings file {}: No such file or directory (os error 2)\n",
            missing.display()
        )
    );
    assert!(!fresh.exists());
    assert_bad_input(
        &[
            "tournament",
            "--game",
            "invector",
            "--agents",
            "random",
            "--random-opening",
            "2",
            "--openings",
            file.to_str().unwrap(),
            "--out",
            fresh.to_str().unwrap(),
        ],
        "the argument '--random-opening <K>' cannot be used with '--openings <FILE>'",
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
