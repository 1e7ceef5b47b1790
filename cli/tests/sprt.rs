//! End-to-end tests of `--sprt`: the run stops after the pair whose result takes the
//! log-likelihood ratio past a bound, the same pair at any thread count, with no row
//! after it; a run stopped that way is finished; `--sprt` with `--shard` is refused.

use std::path::Path;

use crate::common;
use common::{agon, assert_same_files, scratch, stderr, stdout, text};

/// Greedy against random on Connect Four, at most 400 games, stopped by an SPRT of
/// 0 against 100 Elo: greedy is far stronger, so H1 is accepted long before the end.
fn match_args<'a>(out: &'a Path, threads: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "tournament",
        "--game",
        "connect4",
        "--agents",
        "greedy",
        "random",
        "--games",
        "400",
        "--seed",
        "3",
        "--threads",
        threads,
        "--sprt",
        "0,100,0.05,0.05",
        "--out",
        text(out),
    ];
    args.extend_from_slice(extra);
    args
}

/// The `decision` statistic of summary.csv's `sprt` section: a word, so in the `text`
/// column (the last), with `value` (the seventh) empty.
fn decision(summary: &str) -> String {
    summary
        .lines()
        .find(|l| l.starts_with("sprt,") && l.contains(",decision,"))
        .filter(|l| l.ends_with(&format!(",decision,,,,{}", l.rsplit(',').next().unwrap())))
        .and_then(|l| l.rsplit(',').next())
        .unwrap_or_else(|| panic!("no SPRT decision in {summary}"))
        .to_string()
}

#[test]
fn the_sprt_stops_after_the_deciding_pair_at_any_thread_count() {
    let dir = scratch("stop");
    let (one, two) = (dir.join("one"), dir.join("two"));
    for (out, threads) in [(&one, "1"), (&two, "2")] {
        let o = agon(&match_args(out, threads, &[]));
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let printed = stdout(&o);
        assert!(printed.contains(": H1 accepted\n"), "{printed}");
        assert!(
            printed.starts_with(
                "connect4: 400 games (400 per pairing), seed 3; the SPRT stopped it after "
            ),
            "{printed}"
        );
    }
    let read = |dir: &Path, file: &str| std::fs::read_to_string(dir.join(file)).unwrap();
    assert_same_files(&one, &two, &["games.csv", "summary.csv"]);
    let games = read(&one, "games.csv");
    let rows = games.lines().count() - 1;
    assert!(rows < 400 && rows % 2 == 0 && rows >= 4, "{rows} games");
    assert_eq!(decision(&read(&one, "summary.csv")), "H1");

    // Without the last game the test had not decided: no row past the crossing. Such
    // a run is unfinished, so its report is written only into another folder.
    let before = dir.join("before");
    std::fs::create_dir_all(&before).unwrap();
    std::fs::copy(one.join("meta.csv"), before.join("meta.csv")).unwrap();
    for file in ["games.csv", "timings.csv"] {
        let kept: Vec<String> = read(&one, file)
            .lines()
            .take(rows)
            .map(|l| format!("{l}\n"))
            .collect();
        std::fs::write(before.join(file), kept.concat()).unwrap();
    }
    let o = agon(&["report", text(&before)]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(
        stderr(&o),
        format!(
            "error: run folder \"{}\" is unfinished (games.csv holds {} of its 400 games); \
             finish it with its command and --resume, or report its {} complete games into \
             another folder with --out OUTDIR\n",
            before.display(),
            rows - 1,
            rows - 1
        )
    );
    assert!(!before.join("summary.csv").exists());
    let view = dir.join("view");
    let o = agon(&["report", text(&before), "--out", text(&view)]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(decision(&read(&view, "summary.csv")), "continue");

    // The stopped run is finished: the same command prints its summary again.
    let o = agon(&match_args(&one, "2", &[]));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("already holds this finished run"),
        "{}",
        stdout(&o)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_sprt_cannot_be_sharded() {
    let dir = scratch("shard");
    let out = dir.join("run");
    let o = agon(&match_args(&out, "1", &["--shard", "1/2"]));
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        "error: --sprt cannot be used with --shard: the test stops after the pair that \
         crosses a bound, which needs every earlier pair of the run\n"
    );
    assert!(!out.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}
