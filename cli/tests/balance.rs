//! `agon balance`: a study's folder of ordinary runs, its study.csv and balance.csv
//! (golden bytes, and statistics recomputed here from the runs' games.csv), variants,
//! `--plan`, resume of an interrupted study to the same bytes, refusals, study shards
//! merged to the single-machine study, and short decisive games counted from the moves.

use std::path::Path;
use std::process::Output;

use crate::common;
use common::golden::check_golden;
use common::{agon, assert_bad, ok, scratch, stderr, stdout, text};

/// The small study of these tests, without its output folder: Invector 4×3 (pie rule
/// on) and its variant without the pie rule, random against greedy, 8 games a run,
/// seed 3.
const STUDY_ARGS: [&str; 12] = [
    "balance",
    "--game",
    "invector:width=4,height=3",
    "--agents",
    "random",
    "greedy",
    "--variant",
    "width=4,height=3,pie=false",
    "--games",
    "8",
    "--seed",
    "3",
];

/// [`STUDY_ARGS`] into `out`, then `extra`.
fn study(out: &Path, extra: &[&str]) -> Output {
    agon(&[&STUDY_ARGS[..], &["--out", text(out)], extra].concat())
}

/// The run folders of [`study`], in the order played.
const RUNS: [&str; 6] = [
    "base/A1-self",
    "base/A2-self",
    "base/A2-vs-A1",
    "variant-1/A1-self",
    "variant-1/A2-self",
    "variant-1/A2-vs-A1",
];

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Asserts that `a` and `b` hold the same study: study.csv, balance.csv, and every run's
/// games.csv and summary.csv, byte for byte.
fn assert_same_study(a: &Path, b: &Path) {
    let mut files = vec!["study.csv".to_string(), "balance.csv".to_string()];
    for run in RUNS {
        files.push(format!("{run}/games.csv"));
        files.push(format!("{run}/summary.csv"));
    }
    for file in files {
        assert!(
            read(&a.join(&file)) == read(&b.join(&file)),
            "{file} differs between {} and {}",
            a.display(),
            b.display()
        );
    }
}

/// The numeric attributes `names` of every `<tag ...>` element of `svg`, in order.
fn svg_attributes(svg: &str, tag: &str, names: &[&str]) -> Vec<Vec<f64>> {
    svg.split(&format!("<{tag} "))
        .skip(1)
        .map(|element| {
            // With a space before the first attribute too, so that each is ` name="`.
            let element = format!(" {}", &element[..element.find('>').unwrap()]);
            names
                .iter()
                .map(|name| {
                    let start = element.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
                    let value = &element[start..];
                    value[..value.find('"').unwrap()].parse().unwrap()
                })
                .collect()
        })
        .collect()
}

/// The value of `statistic` for the rung `level` (self-play rows) of the arm `variant`
/// in balance.csv.
fn value(balance: &str, variant: &str, level: &str, statistic: &str) -> String {
    balance
        .lines()
        .map(|l| l.split(',').collect::<Vec<_>>())
        .find(|f| f[0] == variant && f[1] == level && f[3].is_empty() && f[4] == statistic)
        .unwrap_or_else(|| panic!("no {variant} {level} {statistic}"))[5]
        .to_string()
}

#[test]
fn a_study_is_ordinary_runs_with_a_tidy_file_recomputable_from_their_games() {
    let dir = scratch("study");
    let output = study(&dir, &["--threads", "1"]);
    ok(&output);
    let printed = stdout(&output);
    // One verdict per arm, and the variant's comparison with the base game.
    let verdicts: Vec<&str> = printed
        .lines()
        .filter(|l| l.starts_with("verdict: "))
        .collect();
    assert_eq!(verdicts.len(), 3, "{printed}");
    assert!(verdicts[0].starts_with("verdict: invector:height=3,pie=true,width=4: "));
    assert!(verdicts[0].contains("with the pie rule the first side wins"));
    assert!(verdicts[1].starts_with("verdict: invector:height=3,pie=false,width=4: "));
    assert!(verdicts[2].starts_with(
        "verdict: invector:height=3,pie=false,width=4 against the base game: at A2 pie=false \
         gives seat 0 a win rate "
    ));
    assert!(printed.ends_with(&format!(
        "wrote study.csv, balance.csv, seat0-by-level.svg, ladder.svg, lengths-by-level.svg, \
         report.html in {}\n",
        dir.display()
    )));
    check_golden(
        "balance_study.stdout.txt",
        &printed,
        &[("{out}", text(&dir))],
    )
    .unwrap();

    // Every run is an ordinary run folder that agon report reads; its openings were
    // drawn without replacement, so no two self-play games share one.
    for run in RUNS {
        let meta = read(&dir.join(run).join("meta.csv"));
        assert!(
            meta.contains("\nrandom_opening,4\nopening_draw,distinct\n"),
            "{run}: {meta}"
        );
        ok(&agon(&[
            "report",
            text(&dir.join(run)),
            "--out",
            text(&scratch("report")),
        ]));
    }

    // Each point of seat0-by-level.svg carries its interval as a vertical bar through it
    // (the band between levels alone would vanish for a study of one level).
    let chart = read(&dir.join("seat0-by-level.svg"));
    let points = svg_attributes(&chart, "circle", &["cx", "cy"]);
    let lines = svg_attributes(&chart, "line", &["x1", "x2", "y1", "y2"]);
    assert!(!points.is_empty(), "{chart}");
    for point in &points {
        let (x, y) = (point[0], point[1]);
        assert!(
            lines
                .iter()
                .any(|l| l[0] == x && l[1] == x && l[2].min(l[3]) <= y && y <= l[2].max(l[3])),
            "no interval bar through the point at ({x}, {y}) of seat0-by-level.svg"
        );
    }

    // study.csv's plan and identity, the digest being FNV-1a of the rows before it.
    let study_csv = read(&dir.join("study.csv"));
    let (rows, digest) = study_csv.rsplit_once("digest,").unwrap();
    assert_eq!(
        rows,
        format!(
            "key,value\nformat,1\ntoolkit,agon {}\ngame,\"invector:height=3,pie=true,width=4\"\n\
             agent,random\nagent,greedy\ngames,8\nseed,3\nopenings,default\n\
             arm,\"base invector:height=3,pie=true,width=4 distinct:4 check ab:depth=4,hash=1,threads=1 within 200\"\n\
             arm,\"variant-1 invector:height=3,pie=false,width=4 distinct:4 check ab:depth=4,hash=1,threads=1 within 200\"\n\
             run,base/A1-self\nrun,base/A2-self\nrun,base/A2-vs-A1\nrun,variant-1/A1-self\n\
             run,variant-1/A2-self\nrun,variant-1/A2-vs-A1\n",
            env!("CARGO_PKG_VERSION")
        )
    );
    let lines: String = rows
        .lines()
        .skip(1)
        .map(|l| format!("{}\n", l.replacen(',', "=", 1).replace('"', "")))
        .collect();
    let fnv = lines.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    assert_eq!(digest, format!("{fnv:016x}\n"));

    // balance.csv byte for byte, then its numbers recomputed from the runs' games.csv.
    let balance = read(&dir.join("balance.csv"));
    check_golden("balance_study.balance.csv", &balance, &[]).unwrap();
    assert!(balance.starts_with("variant,level,agent,opponent,statistic,value,low,high\n"));
    for (arm, variant) in [
        ("base", "\"invector:height=3,pie=true,width=4\""),
        ("variant-1", "\"invector:height=3,pie=false,width=4\""),
    ] {
        // The variant holds commas, so it is quoted: read the rows after it.
        let unquoted: String = balance
            .lines()
            .filter_map(|l| l.strip_prefix(variant))
            .map(|rest| format!("v{rest}\n"))
            .collect();
        for (level, run) in [("1", "A1-self"), ("2", "A2-self")] {
            let games = read(&dir.join(arm).join(run).join("games.csv"));
            let rows: Vec<Vec<&str>> = games
                .lines()
                .skip(1)
                .map(|l| l.split(',').collect())
                .collect();
            // Columns: result0 7, turns 11, moves 17.
            let count = |r: &str| rows.iter().filter(|f| f[7] == r).count();
            let (wins, losses) = (count("1"), count("0"));
            let mut moves: Vec<&str> = rows.iter().map(|f| f[17]).collect();
            moves.sort_unstable();
            moves.dedup();
            let mut turns: Vec<f64> = rows.iter().map(|f| f[11].parse().unwrap()).collect();
            turns.sort_by(f64::total_cmp);
            let got = |s: &str| value(&unquoted, "v", level, s);
            assert_eq!(got("games"), "8");
            assert_eq!(got("distinct_games"), moves.len().to_string());
            assert_eq!(
                got("seat0_win_rate"),
                format!("{:.4}", wins as f64 / (wins + losses) as f64)
            );
            assert_eq!(
                got("draw_rate"),
                format!("{:.4}", (8 - wins - losses) as f64 / 8.0)
            );
            // Type-7 median of 8 numbers: the mean of the 4th and 5th.
            assert_eq!(
                got("turns_median"),
                format!("{:.2}", (turns[3] + turns[4]) / 2.0)
            );
            assert_eq!(
                got("turns_mean"),
                format!("{:.2}", turns.iter().sum::<f64>() / 8.0)
            );
        }
        // The step: the stronger rung's score from the pairs, and the upsets.
        let games = read(&dir.join(arm).join("A2-vs-A1").join("games.csv"));
        let a_points: f64 = games
            .lines()
            .skip(1)
            .map(|l| {
                let f: Vec<&str> = l.split(',').collect();
                let r: f64 = f[7].parse().unwrap();
                if f[3] == "greedy" {
                    r
                } else {
                    1.0 - r
                }
            })
            .sum();
        let step = unquoted
            .lines()
            .find(|l| l.starts_with("v,2,greedy,random,score_vs_previous,"))
            .unwrap();
        assert!(
            step.starts_with(&format!(
                "v,2,greedy,random,score_vs_previous,{:.4},",
                a_points / 8.0
            )),
            "{step}"
        );
    }
    // Statistics of a pie game only for the pie arm.
    assert!(balance.contains(",swap_rate,"));
    assert_eq!(balance.matches(",swap_rate,").count(), 2);
}

#[test]
fn any_thread_count_gives_the_same_study_and_a_finished_study_is_reported_unchanged() {
    let (one, two) = (scratch("one"), scratch("two"));
    ok(&study(&one, &["--threads", "1"]));
    ok(&study(&two, &["--threads", "2"]));
    assert_same_study(&one, &two);
    let before = read(&one.join("balance.csv"));
    let again = study(&one, &["--threads", "2"]);
    ok(&again);
    let printed = stdout(&again);
    assert!(
        printed.starts_with(&format!(
            "{} already holds this finished study; its results:\n",
            one.display()
        )),
        "{printed}"
    );
    assert_eq!(
        printed
            .lines()
            .filter(|l| l.starts_with("verdict: "))
            .count(),
        3
    );
    assert!(!printed.contains("wrote "));
    assert_eq!(read(&one.join("balance.csv")), before);
}

#[test]
fn an_interrupted_study_resumes_to_the_same_files_and_a_changed_one_is_refused() {
    let (whole, stopped) = (scratch("whole"), scratch("stopped"));
    ok(&study(&whole, &[]));
    // The study stopped in its fifth run: the first four finished, the fifth with three
    // games and half of a fourth written, the sixth not begun, no balance.csv.
    ok(&study(&stopped, &[]));
    let fifth = stopped.join(RUNS[4]);
    let games = read(&fifth.join("games.csv"));
    let kept: Vec<&str> = games.split_inclusive('\n').take(4).collect();
    let torn = &games.split_inclusive('\n').nth(4).unwrap()[..20];
    std::fs::write(fifth.join("games.csv"), format!("{}{torn}", kept.concat())).unwrap();
    let timings = read(&fifth.join("timings.csv"));
    let kept: Vec<&str> = timings.split_inclusive('\n').take(4).collect();
    std::fs::write(fifth.join("timings.csv"), kept.concat()).unwrap();
    for file in ["summary.csv", "speed.csv"] {
        std::fs::remove_file(fifth.join(file)).unwrap();
    }
    std::fs::remove_dir_all(stopped.join(RUNS[5])).unwrap();
    std::fs::remove_file(stopped.join("balance.csv")).unwrap();

    assert_bad(
        &study(&stopped, &[]),
        &format!(
            "output folder \"{}\" holds this study unfinished (4 of 6 runs finished); pass \
             --resume to continue it, or choose another --out",
            stopped.display()
        ),
    );
    let resumed = study(&stopped, &["--resume"]);
    ok(&resumed);
    assert!(
        stderr(&resumed).contains("games.csv line 5: half-written row (no line end, 20 bytes)"),
        "{}",
        stderr(&resumed)
    );
    assert_same_study(&whole, &stopped);

    // Another command in the same folder: refused, naming the first difference.
    assert_bad(
        &study(&stopped, &["--resume", "--random-opening", "1"]),
        &format!(
            "output folder \"{}\" holds a different study (openings \"default\" there, \"random:1\" \
             here); \
             choose another --out or remove it",
            stopped.display()
        ),
    );
    assert_bad(
        &agon(
            &[
                &STUDY_ARGS[..6],
                &STUDY_ARGS[8..],
                &["--resume", "--out", text(&stopped)],
            ]
            .concat(),
        ),
        &format!(
            "output folder \"{}\" holds a different study (arm \"variant-1 \
             invector:height=3,pie=false,width=4 distinct:4 check ab:depth=4,hash=1,threads=1 within 200\" there, run \"base/A1-self\" \
             here); choose another --out or remove it",
            stopped.display()
        ),
    );
}

#[test]
fn study_shards_merged_equal_the_single_machine_study() {
    let whole = scratch("single");
    let single = study(&whole, &[]);
    ok(&single);
    let shards: Vec<_> = (1..=2).map(|i| scratch(&format!("shard{i}"))).collect();
    for (i, shard) in shards.iter().enumerate() {
        let output = study(shard, &["--shard", &format!("{}/2", i + 1)]);
        ok(&output);
        assert!(stdout(&output).contains(&format!("shard {}/2 of the study", i + 1)));
        assert!(!shard.join("balance.csv").exists());
        // Again: the finished shard is left as it is.
        let again = study(shard, &["--shard", &format!("{}/2", i + 1)]);
        ok(&again);
        assert_eq!(
            stdout(&again),
            format!(
                "{} already holds shard {}/2 of this study, finished; join the 2 study folders \
                 with agon merge --out DIR FOLDER...\n",
                shard.display(),
                i + 1
            )
        );
    }
    let merged = scratch("merged");
    // A missing shard is named.
    assert_bad(
        &agon(&["merge", "--out", text(&merged), text(&shards[0])]),
        "study shards 2/2 missing; give all 2 study folders",
    );
    let output = agon(&[
        "merge",
        "--out",
        text(&merged),
        text(&shards[1]),
        text(&shards[0]),
    ]);
    ok(&output);
    assert_same_study(&whole, &merged);
    let verdicts = |o: &Output| -> Vec<String> {
        stdout(o)
            .lines()
            .filter(|l| l.starts_with("verdict: "))
            .map(String::from)
            .collect()
    };
    assert_eq!(verdicts(&output), verdicts(&single));
}

#[test]
fn the_plan_lists_the_runs_and_writes_nothing() {
    let dir = scratch("plan").join("study");
    let output = study(&dir, &["--plan", "--threads", "2"]);
    ok(&output);
    let printed = stdout(&output);
    let lines: Vec<&str> = printed.lines().collect();
    assert_eq!(
        lines[0],
        "plan of the study of invector:height=3,pie=true,width=4 (2 arms, 6 runs, 48 games, \
         seed 3, 2 threads):"
    );
    // Every arm's full spec and opening rule, as study.csv records them, then the runs.
    assert_eq!(
        lines[1..5],
        [
            "arm        game                                 opening",
            "base       invector:height=3,pie=true,width=4   distinct:4 check ab:depth=4,hash=1,threads=1 within 200",
            "variant-1  invector:height=3,pie=false,width=4  distinct:4 check ab:depth=4,hash=1,threads=1 within 200",
            "",
        ]
    );
    assert!(lines[5].starts_with("run "), "{printed}");
    for (line, run) in lines[6..12].iter().zip(RUNS) {
        assert!(line.starts_with(run), "{line}");
        assert!(line.contains(" 8 "), "{line}");
    }
    assert!(lines[13].starts_with("estimated total: "), "{printed}");
    assert!(!dir.exists());
}

#[test]
fn a_variant_starts_from_the_base_games_parameters() {
    // APV to 100 turns: the variant keeps max_turns=100, and a key it gives replaces the
    // base's value.
    let dir = scratch("variants").join("study");
    let output = agon(&[
        "balance",
        "--game",
        "apv:max_turns=100",
        "--variant",
        "limited_orders=true",
        "--variant",
        "max_turns=50,orders=false",
        "--agents",
        "random",
        "greedy",
        "--games",
        "2",
        "--plan",
        "--threads",
        "1",
        "--out",
        text(&dir),
    ]);
    ok(&output);
    let printed = stdout(&output);
    let lines: Vec<&str> = printed.lines().collect();
    assert_eq!(
        lines[..5],
        [
            "plan of the study of apv:limited_orders=false,max_turns=100,orders=true (3 arms, \
             9 runs, 18 games, seed 1, 1 thread):",
            "arm        game                                                opening",
            "base       apv:limited_orders=false,max_turns=100,orders=true  distinct:4 check ab:depth=4,hash=1,threads=1 within 300",
            "variant-1  apv:limited_orders=true,max_turns=100,orders=true   distinct:4 check ab:depth=4,hash=1,threads=1 within 300",
            "variant-2  apv:limited_orders=false,max_turns=50,orders=false  distinct:4 check ab:depth=4,hash=1,threads=1 within 300",
        ],
        "{printed}"
    );
    assert!(!dir.exists());
}

#[test]
fn bad_input_is_one_line_and_writes_nothing() {
    let dir = scratch("bad").join("study");
    let out = text(&dir);
    // `balance --game GAME` (with `--agents random greedy` when `agents`), then `extra`.
    let bad = |game: &str, agents: bool, extra: &[&str], line: &str| {
        let mut all = vec!["balance", "--out", out, "--game", game];
        if agents {
            all.extend_from_slice(&["--agents", "random", "greedy"]);
        }
        all.extend_from_slice(extra);
        assert_bad(&agon(&all), line);
        assert!(!dir.exists(), "{extra:?} wrote {}", dir.display());
    };
    bad(
        "chess",
        false,
        &[],
        "unknown game \"chess\" (valid: invector, connect4, pig, apv, romgon, threewill, \
         hexstrat)",
    );
    bad(
        "connect4",
        false,
        &["--levels", "2,9"],
        "--levels: \"9\" is not a level of the connect4 ladder (valid: 1 to 6)",
    );
    bad(
        "connect4",
        false,
        &["--levels", "4,2,3"],
        "--levels 4,2,3: levels must be given in increasing order, e.g. 2,3,4",
    );
    bad(
        "connect4",
        false,
        &["--levels", "3,2,3"],
        "--levels 3,2,3: levels must be given in increasing order, e.g. 2,3",
    );
    bad(
        "connect4",
        false,
        &["--agents", "random", "random"],
        "the ladder names random twice; each rung must be a different agent",
    );
    bad(
        "invector",
        true,
        &["--variant", "wide=3"],
        "--variant \"wide=3\": game \"invector:wide=3\": unknown parameter \"wide\" (valid: \
         handicap, height, hole, lose_at, pie, stride, width)",
    );
    bad(
        "invector",
        true,
        &["--variant", "pie=true"],
        "--variant \"pie=true\" is the same game as base (invector:height=7,pie=true,width=8); \
         each arm must differ",
    );
    bad(
        "connect4",
        true,
        &["--games", "7"],
        "--games must be even and at least 2 (games 2k and 2k+1 form a seat-swapped pair), \
         got 7",
    );
    bad(
        "connect4",
        true,
        &["--games", "4", "--shard", "3/2"],
        "--shard \"3/2\" is not valid: expected I/N with 1 <= I <= N (e.g. 2/8)",
    );
    bad(
        "connect4",
        true,
        &["--games", "4", "--shard", "1/3"],
        "--shard 1/3: the run has 2 seat-swapped pairs, so it can be cut into at most 2 shards",
    );
    bad(
        "invector",
        true,
        &["--random-opening", "1001"],
        "--random-opening 1001 is too long: at most 1000 decisions (an opening varies the \
         start of a game)",
    );
    // A total that does not fit a u64 is refused, by --plan too, before any game.
    for plan in [&[][..], &["--plan"][..]] {
        bad(
            "pig",
            true,
            &[&["--games", "9223372036854775806"][..], plan].concat(),
            "--games 9223372036854775806 with 3 runs makes more than 18446744073709551615 \
             games in all; at most 6148914691236517204 games per run",
        );
    }
    // An opening no game can start with is refused before the folder is made, so the
    // corrected command then starts a new study there.
    bad(
        "connect4",
        true,
        &["--random-opening", "42", "--games", "2"],
        "connect4: --random-opening 42: 100 random openings all ended the game; choose a \
         smaller K",
    );
    // A folder holding something else is refused and left as it was.
    let other = scratch("other");
    std::fs::write(other.join("notes.txt"), "mine").unwrap();
    assert_bad(
        &study(&other, &[]),
        &format!(
            "output folder \"{}\" is not empty and holds no agon study (no study.csv); \
             choose a new or empty folder",
            other.display()
        ),
    );
    assert_eq!(std::fs::read_dir(&other).unwrap().count(), 1);
}

#[test]
fn a_chance_game_studies_its_ladder_levels_without_an_opening() {
    // Pig to 20: every game has its own dice, so the default rule plays no opening.
    let dir = scratch("pig");
    let output = agon(&[
        "balance",
        "--game",
        "pig:target=20",
        "--levels",
        "1,3",
        "--games",
        "6",
        "--out",
        text(&dir),
    ]);
    ok(&output);
    let study_csv = read(&dir.join("study.csv"));
    assert!(
        study_csv.contains("\nagent,L1=random\nagent,L3=greedy\n"),
        "{study_csv}"
    );
    assert!(study_csv.contains(" start\"\n"), "{study_csv}");
    assert!(study_csv.contains("\nrun,base/L3-vs-L1\n"), "{study_csv}");
    let balance = read(&dir.join("balance.csv"));
    assert!(
        balance.contains("\"pig:die=6,horizon=1000,target=20\",3,L3=greedy,L1=random,upset_rate,"),
        "{balance}"
    );
    assert!(!balance.contains("swap_rate"));
}

#[test]
fn short_decisive_games_are_recomputable_from_the_games() {
    // Pig to 6: a first roll of 6 and a hold win at once, within two decisions of the
    // start (the game has chance, so no opening), and a die's face is not a decision.
    let dir = scratch("pig-short");
    ok(&agon(&[
        "balance",
        "--game",
        "pig:target=6",
        "--levels",
        "1,3",
        "--games",
        "40",
        "--out",
        text(&dir),
    ]));
    let balance = read(&dir.join("balance.csv"));
    let variant = "\"pig:die=6,horizon=1000,target=6\"";
    let unquoted: String = balance
        .lines()
        .filter_map(|l| l.strip_prefix(variant))
        .map(|rest| format!("v{rest}\n"))
        .collect();
    let mut any_short = false;
    for (level, run) in [("1", "L1-self"), ("3", "L3-self")] {
        let games = read(&dir.join("base").join(run).join("games.csv"));
        // Columns: result0 7, opening 16, moves 17.
        let rows: Vec<Vec<&str>> = games
            .lines()
            .skip(1)
            .map(|l| l.split(',').collect())
            .collect();
        let decisive: Vec<&Vec<&str>> = rows.iter().filter(|f| f[7] != "0.5").collect();
        let short = |f: &&&Vec<&str>| {
            let opening: usize = f[16].parse().unwrap();
            let decisions = f[17]
                .split(' ')
                .skip(opening)
                .filter(|m| *m == "roll" || *m == "hold")
                .count();
            decisions <= 2
        };
        let shorts = decisive.iter().filter(short).count();
        any_short |= shorts > 0;
        let got = |s: &str| value(&unquoted, "v", level, s);
        assert_eq!(
            got("short_decisive_rate"),
            format!("{:.4}", shorts as f64 / decisive.len() as f64)
        );
        let kept: Vec<&&Vec<&str>> = decisive.iter().filter(|f| !short(f)).collect();
        let wins = kept.iter().filter(|f| f[7] == "1").count();
        assert_eq!(
            got("seat0_win_rate_without_short"),
            format!("{:.4}", wins as f64 / kept.len() as f64)
        );
    }
    assert!(any_short, "{balance}");
}
