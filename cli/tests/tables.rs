//! Table memory reused from game to game by a worker changes no result: one worker
//! (every table cleared for reuse hundreds of times, past the clear that zeroes it) and
//! two workers write the same files.

use crate::common;

use common::*;

#[test]
fn reused_tables_give_identical_files_at_one_and_two_threads_over_300_games() {
    let dir = scratch("tables");
    let (one, two) = (dir.join("one"), dir.join("two"));
    for (out, threads) in [(&one, "1"), (&two, "2")] {
        let o = agon(&[
            "tournament",
            "--game",
            "connect4",
            "--agents",
            "ab:depth=1,hash=1",
            "ab:depth=2,hash=1",
            "--games",
            "300",
            "--random-opening",
            "4",
            "--seed",
            "7",
            "--threads",
            threads,
            "--out",
            text(out),
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    }
    assert_same_files(&one, &two, &["games.csv", "summary.csv"]);
    let games = std::fs::read_to_string(one.join("games.csv")).unwrap();
    assert_eq!(games.lines().count(), 1 + 300);
    std::fs::remove_dir_all(&dir).unwrap();
}
