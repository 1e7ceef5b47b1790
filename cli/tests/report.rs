//! End-to-end tests of `agon report DIR`: the summary recomputed from games.csv alone is
//! the tournament's own, byte for byte; the SVG charts are written and name the agents;
//! a folder that is not a run is one line and exit code 2, and nothing is written;
//! `--html` writes report.html where the other outputs go, embedding `--html-games`.

use crate::common;
use common::{agon, agon_in, assert_bad, ok, scratch, stderr, stdout, text, tournament_into};

#[test]
fn report_recomputes_the_summary_and_draws_the_charts() {
    let dir = scratch("charts");
    let run = dir.join("run");
    let printed = run_into(&run, &[]);
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
    ok(&tournament_into(
        "invector:width=5,height=4",
        &["random"],
        &no_games,
        &["--games", "2"],
    ));
    std::fs::remove_file(no_games.join("games.csv")).unwrap();
    std::fs::remove_file(no_games.join("summary.csv")).unwrap();
    std::fs::remove_file(no_games.join("speed.csv")).unwrap();
    // The tournament drew its charts (self-play: no ratings) and wrote its page; the
    // refusal keeps them.
    assert_bad(
        &agon(&["report", text(&no_games)]),
        &format!(
            "\"{}\" holds no games.csv (nor games.csv.gz)",
            no_games.display()
        ),
    );
    let mut left: Vec<String> = std::fs::read_dir(&no_games)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    left.sort();
    // The tournament's lock file stays (see results/README.md); report added nothing.
    assert_eq!(
        left,
        [
            "agon.lock",
            "lengths.svg",
            "meta.csv",
            "report.html",
            "seat0.svg",
            "timings.csv"
        ]
    );
    assert_eq!(std::fs::read_dir(&empty).unwrap().count(), 0);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A small finished run of Invector 5×4 (greedy, random, ab at depth 1; 6 games per
/// pairing, seed 3) into `run`, with `extra` flags; its standard output.
fn run_into(run: &std::path::Path, extra: &[&str]) -> String {
    let mut args = vec![
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
        text(run),
    ];
    args.extend_from_slice(extra);
    let t = agon(&args);
    assert_eq!(t.status.code(), Some(0), "{}", stderr(&t));
    stdout(&t)
}

#[test]
fn report_keeps_the_runs_anchor_and_writes_another_view_only_with_out() {
    let dir = scratch("anchor");
    let run = dir.join("run");
    run_into(&run, &["--anchor", "greedy"]);
    let meta = std::fs::read_to_string(run.join("meta.csv")).unwrap();
    assert!(meta.contains("\nanchor,greedy\n"), "{meta}");
    let summary = std::fs::read(run.join("summary.csv")).unwrap();

    // The run's own options (its anchor is the default): written again, the same bytes.
    std::fs::remove_file(run.join("summary.csv")).unwrap();
    let o = agon(&["report", text(&run)]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(std::fs::read(run.join("summary.csv")).unwrap(), summary);
    let own = stdout(&o);

    // Another anchor: printed only; the run folder is left as it is.
    let o = agon(&["report", text(&run), "--anchor", "random"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stderr(&o),
        "note: --anchor \"random\" differs from the run's anchor (\"greedy\", in its \
         meta.csv); printed only, nothing written (write it with --out OUTDIR)\n"
    );
    assert!(!stdout(&o).contains("\nwrote "), "{}", stdout(&o));
    assert_ne!(stdout(&o), own[..own.find("\nwrote ").unwrap() + 1]);
    assert_eq!(std::fs::read(run.join("summary.csv")).unwrap(), summary);

    // ... or written into another folder.
    let view = dir.join("view");
    let o = agon(&[
        "report",
        text(&run),
        "--anchor",
        "random",
        "--out",
        text(&view),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).ends_with(&format!(
        "wrote summary.csv, speed.csv, ratings.svg, seat0.svg, lengths.svg in {}\n",
        view.display()
    )));
    let other = std::fs::read_to_string(view.join("summary.csv")).unwrap();
    assert!(other.contains("\nrating,,,,,anchor,,,,random\n"), "{other}");
    assert_eq!(std::fs::read(run.join("summary.csv")).unwrap(), summary);
    // A run folder is never a report's --out.
    assert_bad(
        &agon(&["report", text(&run), "--out", text(&run)]),
        &format!(
            "--out \"{}\" holds an agon run (a meta.csv), whose summary.csv is that run's; \
             choose a folder that holds no run",
            run.display()
        ),
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn duplicated_reordered_out_of_range_or_edited_rows_are_refused_by_report() {
    let dir = scratch("rows");
    let run = dir.join("run");
    run_into(&run, &[]);
    let games = std::fs::read_to_string(run.join("games.csv")).unwrap();
    let summary = std::fs::read(run.join("summary.csv")).unwrap();
    let rows: Vec<&str> = games.lines().collect();
    assert_eq!(rows.len(), 1 + 18);
    let last = rows[18].to_string();
    let cases: Vec<(Vec<String>, String)> = vec![
        (
            [&rows[..3], &rows[2..]]
                .concat()
                .iter()
                .map(|l| l.to_string())
                .collect(),
            "line 4 holds game 1 where game 2 belongs".into(),
        ),
        (
            [&rows[..2], &[rows[3], rows[2]], &rows[4..]]
                .concat()
                .iter()
                .map(|l| l.to_string())
                .collect(),
            "line 3 holds game 2 where game 1 belongs".into(),
        ),
        (
            rows.iter()
                .map(|l| l.to_string())
                .chain([last.replacen("17,8,2,", "18,9,2,", 1)])
                .collect(),
            "line 20 is a game past the last (17)".into(),
        ),
        (
            rows.iter()
                .enumerate()
                .map(|(i, l)| {
                    if i == 5 {
                        // A note written into the row (the one before its digest).
                        let (head, digest) = l.rsplit_once(',').unwrap();
                        format!("{head}edited,{digest}")
                    } else {
                        l.to_string()
                    }
                })
                .collect(),
            "line 6 has a digest that does not match its content and this run (the row was \
             changed after it was written, or comes from another run)"
                .into(),
        ),
    ];
    for (lines, what) in cases {
        let bytes: String = lines.iter().map(|l| format!("{l}\n")).collect();
        std::fs::write(run.join("games.csv"), &bytes).unwrap();
        assert_bad(
            &agon(&["report", text(&run)]),
            &format!(
                "{}/games.csv {what}: this folder does not hold this run as this build writes \
                 it; nothing was changed",
                run.display()
            ),
        );
        assert_eq!(std::fs::read(run.join("summary.csv")).unwrap(), summary);
        assert_eq!(
            std::fs::read_to_string(run.join("games.csv")).unwrap(),
            bytes
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A run stopped after 5 of its 12 games (or one that lost its last rows) is
/// unfinished: `agon report` says so and writes nothing there (its summary.csv would be
/// of 5 games), or writes the report of those 5 into `--out`; `--resume` then finishes
/// the run and draws its charts, equal to an uninterrupted run's.
#[test]
fn an_unfinished_run_is_reported_only_elsewhere_and_its_charts_drawn_when_resumed() {
    let dir = scratch("resume");
    let reference = dir.join("reference");
    let o = agon(&common::small_tournament(text(&reference), &[]));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains(&format!(
        "wrote meta.csv, games.csv, timings.csv, summary.csv, speed.csv, ratings.svg, seat0.svg, \
         lengths.svg, report.html in {}",
        reference.display()
    )));

    let stopped = dir.join("stopped");
    std::fs::create_dir_all(&stopped).unwrap();
    for file in ["meta.csv", "timings.csv"] {
        std::fs::copy(reference.join(file), stopped.join(file)).unwrap();
    }
    let games = std::fs::read_to_string(reference.join("games.csv")).unwrap();
    let kept: String = games.lines().take(6).map(|l| format!("{l}\n")).collect();
    std::fs::write(stopped.join("games.csv"), kept).unwrap();
    let before: Vec<_> = std::fs::read_dir(&stopped)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_bad(
        &agon(&["report", text(&stopped)]),
        &format!(
            "run folder \"{}\" is unfinished (games.csv holds 5 of its 12 games); finish it \
             with its command and --resume, or report its 5 complete games into another \
             folder with --out OUTDIR",
            stopped.display()
        ),
    );
    // Nothing written but the lock file.
    let mut after: Vec<_> = std::fs::read_dir(&stopped)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    after.retain(|p| !p.ends_with("agon.lock"));
    assert_eq!(after.len(), before.len(), "{after:?}");
    let view = dir.join("view");
    let o = agon(&["report", text(&stopped), "--out", text(&view)]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).starts_with(&format!(
        "note: run folder \"{}\" is unfinished (games.csv holds 5 of its 12 games); the \
         report counts its 5 complete games\n",
        stopped.display()
    )));
    let svg = std::fs::read_to_string(view.join("lengths.svg")).unwrap();
    assert!(svg.contains("Game length, 5 games of "));

    let lengths = || std::fs::read_to_string(stopped.join("lengths.svg")).unwrap();

    let o = agon(&common::small_tournament(text(&stopped), &["--resume"]));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(lengths().contains("Game length, 12 games of "));
    for file in ["ratings.svg", "seat0.svg", "lengths.svg"] {
        assert_eq!(
            std::fs::read(stopped.join(file)).unwrap(),
            std::fs::read(reference.join(file)).unwrap(),
            "{file}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The columns of games.csv in the older format (2).
const OLDER_HEADER: &str =
    "game,pair,pairing,agent0,agent1,side0,side1,result0,winner,end_reason,plies,nodes0,nodes1,\
     opening,moves,note";

#[test]
fn an_older_folder_is_reported_with_a_note_and_printed_only() {
    let dir = scratch("older");
    let run = dir.join("run");
    let printed = run_into(&run, &[]);
    // The folder as the older format wrote it: format 2, and only that format's columns.
    let meta = std::fs::read_to_string(run.join("meta.csv")).unwrap();
    std::fs::write(
        run.join("meta.csv"),
        meta.replace("format,3\n", "format,2\n"),
    )
    .unwrap();
    let mut reader = csv::Reader::from_path(run.join("games.csv")).unwrap();
    let header = reader.headers().unwrap().clone();
    let keep: Vec<usize> = OLDER_HEADER
        .split(',')
        .map(|name| header.iter().position(|h| h == name).unwrap())
        .collect();
    let mut writer = csv::Writer::from_writer(Vec::new());
    writer.write_record(OLDER_HEADER.split(',')).unwrap();
    for record in reader.records() {
        let record = record.unwrap();
        writer
            .write_record(keep.iter().map(|&i| &record[i]))
            .unwrap();
    }
    std::fs::write(run.join("games.csv"), writer.into_inner().unwrap()).unwrap();
    let summary = std::fs::read(run.join("summary.csv")).unwrap();

    let o = agon(&["report", text(&run)]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stderr(&o),
        format!(
            "note: \"{}\" was written by an older agon (format 2; this build writes format 3): \
             its rows have no digest, so they are checked by order, plan and moves only; \
             printed only, nothing written (write it with --out OUTDIR)\n",
            run.display()
        )
    );
    assert_eq!(stdout(&o), printed[..printed.find("\nwrote ").unwrap() + 1]);
    assert_eq!(std::fs::read(run.join("summary.csv")).unwrap(), summary);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Alpha-beta against itself replays one game: `tournament`, `run`, `report` and
/// `merge` each warn on standard error and name the remedy; distinct games are not warned
/// about.
#[test]
fn repeated_games_are_warned_about_by_every_command_that_summarises() {
    let dir = scratch("repeats");
    let warning = "warning: pairing 0 (ab:depth=2 vs ab:depth=2): 1 distinct game (by move list) in 4, so its \
                   results count the same games again; vary the start with --random-opening K \
                   or --openings FILE\n";
    let tournament = |out: &str, extra: &[&str]| {
        let mut args = vec![
            "tournament",
            "--game",
            "connect4",
            "--agents",
            "ab:depth=2",
            "--games",
            "4",
            "--out",
            out,
        ];
        args.extend_from_slice(extra);
        agon(&args)
    };
    let warned = |o: &std::process::Output| {
        assert_eq!(o.status.code(), Some(0), "{}", stderr(o));
        stderr(o)
            .lines()
            .filter(|l| l.starts_with("warning:"))
            .count()
            == 1
            && stderr(o).contains(warning)
    };
    let run = dir.join("run");
    assert!(warned(&tournament(text(&run), &[])));
    assert!(warned(&agon(&["report", text(&run)])));
    let summary = std::fs::read_to_string(run.join("summary.csv")).unwrap();
    let spec = "ab:depth=2";
    assert!(
        summary.contains(&format!("\npairing,0,{spec},{spec},,distinct_games,1,,,\n")),
        "{summary}"
    );

    let shards: Vec<_> = (1..=2).map(|i| dir.join(format!("shard{i}"))).collect();
    for (i, shard) in shards.iter().enumerate() {
        let index = format!("{}/2", i + 1);
        let o = tournament(text(shard), &["--shard", &index]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    }
    let merged = dir.join("merged");
    assert!(warned(&agon(&[
        "merge",
        "--out",
        text(&merged),
        text(&shards[0]),
        text(&shards[1]),
    ])));

    let file = dir.join("self.toml");
    std::fs::write(
        &file,
        "question = \"q\"\ngame = \"connect4\"\nagents = [\"ab:depth=2\"]\ngames = 4\nseed = 1\n",
    )
    .unwrap();
    let out = dir.join("from-file");
    assert!(warned(&agon(&["run", text(&file), "--out", text(&out)])));

    // A random agent against itself plays distinct games: no warning.
    let varied = agon(&[
        "tournament",
        "--game",
        "connect4",
        "--agents",
        "random",
        "--games",
        "4",
        "--out",
        text(&dir.join("random")),
    ]);
    assert_eq!(varied.status.code(), Some(0), "{}", stderr(&varied));
    assert!(!stderr(&varied).contains("warning:"), "{}", stderr(&varied));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn report_html_writes_the_page_where_the_other_outputs_go_with_the_games_capped() {
    let dir = scratch("html");
    let run = dir.join("run");
    let o = tournament_into(
        "connect4",
        &["random", "greedy"],
        &run,
        &["--games", "6", "--seed", "2", "--threads", "1"],
    );
    ok(&o);
    // A finished tournament writes its page, embedding all its 6 games.
    let page = std::fs::read_to_string(run.join("report.html")).unwrap();
    assert_eq!(embedded(&page), 6, "{page}");
    assert!(page.contains("<g id=\"cells\">"), "the board");
    assert!(page.contains(&format!("\"replay\":\"agon replay {}\"", run.display())));
    std::fs::remove_file(run.join("report.html")).unwrap();

    // Without --html, report writes no page.
    ok(&agon(&["report", text(&run)]));
    assert!(!run.join("report.html").exists());

    // --html-games caps the games embedded; the list still holds all 6.
    let o = agon(&["report", text(&run), "--html", "--html-games", "2"]);
    ok(&o);
    assert!(
        stdout(&o).ends_with(&format!(
            "wrote summary.csv, speed.csv, ratings.svg, seat0.svg, lengths.svg, report.html in \
             {}\n",
            run.display()
        )),
        "{}",
        stdout(&o)
    );
    let page = std::fs::read_to_string(run.join("report.html")).unwrap();
    assert_eq!(embedded(&page), 2);
    assert_eq!(page.matches("[5,0,\"").count(), 1, "game 5 is listed");

    // Options that differ from the run's: the page goes where summary.csv goes.
    let view = dir.join("view");
    ok(&agon(&[
        "report",
        "--html",
        "--out",
        text(&view),
        "--anchor",
        "random",
        text(&run),
    ]));
    assert!(view.join("report.html").is_file());
    let o = agon(&["report", text(&run), "--anchor", "random", "--html"]);
    ok(&o);
    assert!(!stdout(&o).contains("\nwrote "), "{}", stdout(&o));

    // --html-games means nothing without --html.
    let o = agon(&["report", text(&run), "--html-games", "3"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The page gives the `agon replay` command of a game it does not embed with the folder
/// quoted as a shell needs it: a name with a `;` or a `'` in it is one word, never a
/// second command.
#[test]
fn the_page_quotes_the_folder_of_its_replay_command_for_a_shell() {
    let dir = scratch("quoted");
    for (name, quoted) in [
        ("run x;touch PWNED2", "'run x;touch PWNED2'"),
        // The page's JSON doubles the backslash of `'\''`.
        ("it's", r"'it'\\''s'"),
        ("#run", "'#run'"),
        ("plain-run_1.2", "plain-run_1.2"),
    ] {
        let o = agon_in(
            Some(&dir),
            &[
                "tournament",
                "--game",
                "connect4",
                "--agents",
                "random",
                "--games",
                "2",
                "--out",
                name,
            ],
            "",
        );
        ok(&o);
        let page = std::fs::read_to_string(dir.join(name).join("report.html")).unwrap();
        assert!(
            page.contains(&format!("\"replay\":\"agon replay {quoted}\"")),
            "{name}: {}",
            &page[page.find("{\"").unwrap_or(0)..][..120]
        );
    }
    assert!(!dir.join("PWNED2").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// How many games a report page embeds for its replayer.
fn embedded(page: &str) -> usize {
    page.matches(":{\"o\":").count()
}
