//! End-to-end tests of the schedule: self-play deals (each game its own opening and
//! luck), openings that leave a pie-rule swap to the agents, seeded agent noise, and the bounds
//! on `--games`, `--threads`, `--random-opening` and `--openings` (refused in one line
//! with exit code 2 before any file is written, or started without memory in proportion
//! to the run).

use std::path::Path;
use std::process::Output;

use crate::common;
use common::{agon, assert_bad, ok, scratch, stderr, stdout, text};

/// `agon tournament --game GAME --agents AGENTS... --seed 3 --out OUT` plus `extra`.
fn tournament(game: &str, agents: &[&str], out: &Path, extra: &[&str]) -> Output {
    let mut args = vec!["tournament", "--game", game, "--agents"];
    args.extend_from_slice(agents);
    args.extend_from_slice(&["--seed", "3", "--out", text(out)]);
    args.extend_from_slice(extra);
    agon(&args)
}

/// The `moves` column of each row of the games.csv in `out`.
fn moves(out: &Path) -> Vec<String> {
    let mut reader = csv::Reader::from_path(out.join("games.csv")).unwrap();
    let column = reader
        .headers()
        .unwrap()
        .iter()
        .position(|h| h == "moves")
        .unwrap();
    reader
        .records()
        .map(|r| r.unwrap()[column].to_string())
        .collect()
}

/// Asserts that no two of `games` are equal.
fn all_distinct(games: &[String]) {
    for g in 0..games.len() {
        for h in 0..g {
            assert_ne!(games[g], games[h], "games {h} and {g} are the same game");
        }
    }
}

#[test]
fn self_play_games_each_get_their_own_luck_and_opening() {
    let dir = scratch("self-play");
    // A chance game with a deterministic agent: the two games of a "pair" used to share
    // the luck and, one agent in both seats, were one game played twice.
    let pig = dir.join("pig");
    ok(&tournament(
        "pig:target=20",
        &["expectimax:depth=1"],
        &pig,
        &["--games", "6", "--threads", "2"],
    ));
    all_distinct(&moves(&pig));
    // Random openings: each game its own.
    let opened = dir.join("opened");
    ok(&tournament(
        "invector:width=5,height=4,pie=false",
        &["ab:depth=2"],
        &opened,
        &["--games", "6", "--random-opening", "3", "--threads", "1"],
    ));
    let games = moves(&opened);
    let openings: Vec<String> = games
        .iter()
        .map(|g| g.split(' ').take(3).collect::<Vec<_>>().join(" "))
        .collect();
    all_distinct(&openings);
    all_distinct(&games);
    // The same at another thread count, byte for byte.
    let again = dir.join("again");
    ok(&tournament(
        "invector:width=5,height=4,pie=false",
        &["ab:depth=2"],
        &again,
        &["--games", "6", "--random-opening", "3", "--threads", "3"],
    ));
    assert_eq!(
        std::fs::read(opened.join("games.csv")).unwrap(),
        std::fs::read(again.join("games.csv")).unwrap()
    );
    // An openings file: game g plays line g mod 3.
    let book = dir.join("book.txt");
    std::fs::write(&book, "b2xc2\nc1xb1\nb2xb1\n").unwrap();
    let booked = dir.join("booked");
    ok(&tournament(
        "invector:width=3,height=2",
        &["random"],
        &booked,
        &["--games", "6", "--openings", text(&book)],
    ));
    let firsts: Vec<String> = moves(&booked)
        .iter()
        .map(|g| g.split(' ').next().unwrap().to_string())
        .collect();
    assert_eq!(
        firsts,
        ["b2xc2", "c1xb1", "b2xb1", "b2xc2", "c1xb1", "b2xb1"]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn matches_still_deal_both_games_of_a_pair_alike() {
    // Two agents: the pair's games share the opening (and the luck), seats swapped.
    let dir = scratch("match");
    let out = dir.join("run");
    ok(&tournament(
        "invector:width=5,height=4,pie=false",
        &["ab:depth=1", "greedy"],
        &out,
        &["--games", "4", "--random-opening", "3"],
    ));
    let openings: Vec<String> = moves(&out)
        .iter()
        .map(|g| g.split(' ').take(3).collect::<Vec<_>>().join(" "))
        .collect();
    assert_eq!(openings[0], openings[1]);
    assert_eq!(openings[2], openings[3]);
    assert_ne!(openings[0], openings[2]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Column `name` of each row of the games.csv in `out`.
fn column(out: &Path, name: &str) -> Vec<String> {
    let mut reader = csv::Reader::from_path(out.join("games.csv")).unwrap();
    let at = reader.headers().unwrap().iter().position(|h| h == name);
    let at = at.unwrap_or_else(|| panic!("games.csv has no column {name}"));
    reader
        .records()
        .map(|r| r.unwrap()[at].to_string())
        .collect()
}

#[test]
fn openings_leave_the_pie_swap_decision_to_the_agents() {
    let dir = scratch("pie");
    let out = dir.join("run");
    // The default Invector has the pie rule: White's first decision is the swap's. A
    // random opening of 4 is a random first stone, the agent's swap decision, three
    // random moves; over 40 games of random self-play some swap and some do not.
    ok(&tournament(
        "invector:width=5,height=4",
        &["random"],
        &out,
        &["--games", "40", "--random-opening", "4"],
    ));
    let games = moves(&out);
    let seconds: Vec<&str> = games.iter().map(|g| g.split(' ').nth(1).unwrap()).collect();
    assert!(seconds.contains(&"swap"), "{seconds:?}");
    assert!(seconds.iter().any(|m| *m != "swap"), "{seconds:?}");
    // The opening is five plies (Invector has no chance), and the agents made every
    // decision after it and the swap decision inside it.
    let number = |name: &str| -> Vec<u32> {
        column(&out, name)
            .iter()
            .map(|v| v.parse().unwrap())
            .collect()
    };
    let (opening, plies) = (number("opening"), number("plies"));
    let (d0, d1) = (number("decisions0"), number("decisions1"));
    for g in 0..games.len() {
        assert_eq!(opening[g], 5, "game {g}: {}", games[g]);
        assert_eq!(d0[g] + d1[g], plies[g] - opening[g] + 1, "game {g}");
    }
    // `report` replays every game and agrees with those counts.
    ok(&agon(&["report", text(&out)]));
    // An openings file line that plays the swap decision is refused, naming the line.
    let book = dir.join("book.txt");
    std::fs::write(
        &book,
        "b2xc2\n# swapping is the agents' choice\nc1xb1 swap\n",
    )
    .unwrap();
    let fresh = dir.join("fresh");
    assert_bad(
        &tournament(
            "invector:width=3,height=2",
            &["random"],
            &fresh,
            &["--openings", text(&book)],
        ),
        &format!(
            "openings file {}: line 3: move 2 of 2, \"swap\": plays the pie-rule swap \
             decision (decision 2), which belongs to the agents; a line may hold at most 1 \
             decisions here",
            book.display()
        ),
    );
    assert!(!fresh.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn noise_varies_deterministic_self_play_reproducibly() {
    let dir = scratch("noise");
    let run = |name: &str, agent: &str| {
        let out = dir.join(name);
        ok(&tournament(
            "invector:width=5,height=4",
            &[agent],
            &out,
            &["--games", "6", "--threads", "2"],
        ));
        (moves(&out), std::fs::read(out.join("games.csv")).unwrap())
    };
    // Without noise, alpha-beta plays one game six times from the one start.
    let (plain, _) = run("plain", "ab:depth=2");
    assert!(plain.iter().all(|g| *g == plain[0]));
    // With noise, six different games, the same ones again under the same seed.
    let (noisy, bytes) = run("noisy", "ab:depth=2,noise=30");
    all_distinct(&noisy);
    assert_eq!(run("again", "ab:depth=2,noise=30").1, bytes);
    // greedy takes the parameter too.
    let (greedy, _) = run("greedy", "greedy:noise=30");
    assert_eq!(greedy.len(), 6);
    // noise=0 is the plain agent.
    let (zero, _) = run("zero", "ab:depth=2,noise=0");
    assert_eq!(zero, plain);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn game_counts_that_overflow_are_refused_before_any_file() {
    let dir = scratch("overflow");
    let out = dir.join("run");
    let three = ["random", "greedy", "ab:depth=1"];
    // 3 pairings × 6148914691236517206 games is 2^64 + 2: it used to wrap to 2 games.
    assert_bad(
        &tournament(
            "invector:width=3,height=2",
            &three,
            &out,
            &["--games", "6148914691236517206"],
        ),
        "--games 6148914691236517206 with 3 agents (3 pairings) makes more than \
         18446744073709551615 games in all; at most 6148914691236517204 games per pairing",
    );
    assert!(!out.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn huge_representable_runs_start_without_sizing_memory_by_the_run() {
    // Runs of 6 billion and of 2^64 - 2 games: a shard of one pair plays its two games
    // (the collector used to reserve room for every game of the run: 448 GB, or a
    // capacity overflow panic).
    let dir = scratch("huge");
    let cases = [
        (
            vec!["random", "greedy", "ab:depth=1"],
            "2000000000",
            "1/3000000000",
            "games 0 to 1 of 6000000000",
        ),
        (
            vec!["random"],
            "18446744073709551614",
            "1/9223372036854775807",
            "games 0 to 1 of 18446744073709551614",
        ),
    ];
    for (i, (agents, games, shard, heading)) in cases.into_iter().enumerate() {
        let out = dir.join(format!("run{i}"));
        let o = tournament(
            "invector:width=3,height=2",
            &agents,
            &out,
            &["--games", games, "--shard", shard],
        );
        ok(&o);
        assert!(stdout(&o).contains(heading), "{}", stdout(&o));
        assert_eq!(moves(&out).len(), 2);
    }
    // Merging names the first missing shards only (it used to size a list by the count).
    let merged = dir.join("merged");
    assert_bad(
        &agon(&["merge", "--out", text(&merged), text(&dir.join("run1"))]),
        "shards 2/9223372036854775807, 3/9223372036854775807, 4/9223372036854775807, \
         5/9223372036854775807, 6/9223372036854775807, 7/9223372036854775807, \
         8/9223372036854775807, 9/9223372036854775807, 10/9223372036854775807, \
         11/9223372036854775807, and 9223372036854775796 more are missing; give all \
         9223372036854775807 shard folders of the run",
    );
    assert!(!merged.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn thread_counts_are_bounded_and_never_exceed_the_games() {
    let dir = scratch("threads");
    let out = dir.join("run");
    for threads in ["5000", "100000"] {
        assert_bad(
            &tournament(
                "invector:width=3,height=2",
                &["random"],
                &out,
                &["--threads", threads],
            ),
            &format!("--threads {threads} is too many: at most 1024 (0 means one per core)"),
        );
        assert!(!out.exists());
    }
    let o = tournament(
        "invector:width=3,height=2",
        &["random"],
        &out,
        &["--games", "2", "--threads", "1024"],
    );
    ok(&o);
    assert!(
        stderr(&o).contains("playing 2 games on 2 threads into"),
        "{}",
        stderr(&o)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn openings_files_and_random_openings_are_bounded() {
    let dir = scratch("bounded");
    let out = dir.join("run");
    let with_book = |book: &Path| {
        tournament(
            "invector:width=3,height=2,pie=false",
            &["random"],
            &out,
            &["--openings", text(book)],
        )
    };
    // A device that never ends is refused before it is read, and so is a file over the
    // bound.
    assert_bad(
        &with_book(Path::new("/dev/zero")),
        "openings file /dev/zero is not a regular file (a device, pipe or folder is not \
         read)",
    );
    let huge = dir.join("huge.txt");
    std::fs::File::create(&huge)
        .unwrap()
        .set_len((64 << 20) + 1)
        .unwrap();
    assert_bad(
        &with_book(&huge),
        &format!(
            "openings file {} is larger than 64 MiB, the most read",
            huge.display()
        ),
    );
    // A 10 MB token is a line too long; the error quotes none of it.
    let book = dir.join("book.txt");
    std::fs::write(&book, format!("b2xc2\n{}\n", "x".repeat(10_000_000))).unwrap();
    assert_bad(
        &with_book(&book),
        &format!(
            "openings file {}: line 2 is 10000000 bytes long, more than the 64 KiB a line \
             may hold",
            book.display()
        ),
    );
    // A long token within a line is quoted by its first characters only.
    std::fs::write(&book, format!("b2xc2 {}\n", "y".repeat(5000))).unwrap();
    assert_bad(
        &with_book(&book),
        &format!(
            "openings file {}: line 1: move 2 of 2, \"yyyyyyyyyyyyyyyyyyyyyyyy\"...: 5000 \
             bytes long, more than any move (64 at most)",
            book.display()
        ),
    );
    assert!(!out.exists());
    assert_bad(
        &tournament(
            "invector:width=3,height=2",
            &["random"],
            &out,
            &["--random-opening", "4294967295"],
        ),
        "--random-opening 4294967295 is too long: at most 1000 decisions (an opening varies \
         the start of a game)",
    );
    assert!(!out.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}
