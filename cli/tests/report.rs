//! End-to-end tests of `agon report DIR`: the summary recomputed from games.csv alone is
//! the tournament's own, byte for byte; the SVG charts are written and name the agents;
//! a folder that is not a run is one line and exit code 2, and nothing is written.

mod common;
use common::{agon, assert_bad, scratch, stderr, stdout, text};

#[test]
fn report_recomputes_the_summary_and_draws_the_charts() {
    let dir = scratch("charts");
    let run = dir.join("run");
    let t = agon(&[
        "tournament",
        "--game",
        "invector:width=5,height=4",
        "--agents",
        "greedy",
        "random",
        "ab:depth=1",
        "--games",
        "6",
        "--seed",
        "3",
        "--out",
        text(&run),
    ]);
    assert_eq!(t.status.code(), Some(0), "{}", stderr(&t));
    let summary = std::fs::read(run.join("summary.csv")).unwrap();
    std::fs::remove_file(run.join("summary.csv")).unwrap();
    // speed.csv comes from games.csv and timings.csv, so report writes it again alike.
    let speed = std::fs::read(run.join("speed.csv")).unwrap();
    std::fs::remove_file(run.join("speed.csv")).unwrap();

    let o = agon(&["report", text(&run)]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(std::fs::read(run.join("summary.csv")).unwrap(), summary);
    assert_eq!(std::fs::read(run.join("speed.csv")).unwrap(), speed);
    // The same heading and table as the tournament printed, then what was written.
    let printed = stdout(&t);
    let table_end = printed.find("\nwrote ").unwrap() + 1;
    assert_eq!(
        stdout(&o),
        format!(
            "{}wrote summary.csv, speed.csv, ratings.svg, seat0.svg, lengths.svg in {}\n",
            &printed[..table_end],
            run.display()
        )
    );
    let labels = ["greedy", "random", "ab:depth=1"];
    for (file, names) in [
        ("ratings.svg", &labels[..]),
        ("seat0.svg", &labels[..]),
        ("lengths.svg", &[][..]),
    ] {
        let svg = std::fs::read_to_string(run.join(file)).unwrap();
        assert!(svg.starts_with("<svg "), "{file}");
        assert!(svg.trim_end().ends_with("</svg>"), "{file}");
        for name in names {
            assert!(svg.contains(name), "{file} lacks {name}");
        }
    }
    let seat0 = std::fs::read_to_string(run.join("seat0.svg")).unwrap();
    assert!(seat0.contains("greedy vs random (6 games)"));
    assert!(seat0.contains("all games (18 games)"));
    let lengths = std::fs::read_to_string(run.join("lengths.svg")).unwrap();
    assert!(lengths.contains("Game length, 18 games of invector:height=4,pie=true,width=5"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_folder_that_is_not_a_run_is_refused_and_left_alone() {
    let dir = scratch("bad");
    let absent = dir.join("absent");
    assert_bad(
        &agon(&["report", text(&absent)]),
        &format!("run folder \"{}\" does not exist", absent.display()),
    );
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    assert_bad(
        &agon(&["report", text(&empty)]),
        &format!("\"{}\" holds no agon run (no meta.csv)", empty.display()),
    );
    let no_games = dir.join("no-games");
    let t = agon(&[
        "tournament",
        "--game",
        "invector:width=5,height=4",
        "--agents",
        "random",
        "--games",
        "2",
        "--out",
        text(&no_games),
    ]);
    assert_eq!(t.status.code(), Some(0), "{}", stderr(&t));
    std::fs::remove_file(no_games.join("games.csv")).unwrap();
    std::fs::remove_file(no_games.join("summary.csv")).unwrap();
    std::fs::remove_file(no_games.join("speed.csv")).unwrap();
    assert_bad(
        &agon(&["report", text(&no_games)]),
        &format!("\"{}\" holds no games.csv", no_games.display()),
    );
    let mut left: Vec<String> = std::fs::read_dir(&no_games)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    left.sort();
    assert_eq!(left, ["meta.csv", "timings.csv"]);
    assert_eq!(std::fs::read_dir(&empty).unwrap().count(), 0);
    std::fs::remove_dir_all(&dir).unwrap();
}
