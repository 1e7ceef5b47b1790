//! `agon report DIR`: recomputes a run folder's summary from its games.csv alone, prints
//! it, writes summary.csv again, writes speed.csv from timings.csv (and prints it, apart
//! from the reproducible table), and draws SVG charts into the folder (the same
//! [`draw_charts`] a tournament and a merge call when they finish).
//!
//! The folder must hold a run (meta.csv) and its games.csv (or games.csv.gz where
//! games.csv is absent); the games are read through the checks a resume makes
//! ([`crate::audit`]: rows in order and the plan's, digests, the moves replayed), so a
//! duplicated, reordered, edited or foreign row is refused. Bad input is one line and
//! exit code 2, refused before any file is written.
//!
//! The run must hold its plan's games ([`missing_games`], the test a resume and a merge
//! make: every game of its range, or of an SPRT's up to the deciding pair, each with its
//! timing row, no torn end): a report of fewer would rewrite the run's summary.csv from
//! part of its games. An unfinished run is refused (one line naming what it lacks, exit
//! 2, nothing written) unless `--out OUTDIR` asks for a report of its complete games
//! there, which a `note:` line calls unfinished.
//!
//! A report changes the run folder only to write what the run itself would: with the
//! run's own options (the anchor recorded in meta.csv, the default), summary.csv and the
//! charts are written again into the folder, under its lock ([`RunLock`]). A report with
//! another `--anchor` is printed only, and so is a folder of an older format and a folder
//! whose games are kept only compressed (games.csv.gz, read as the games.csv it holds:
//! such a folder, a committed study's run, stays byte for byte as it is, lock file
//! included); each is said in a `note:` line, and `--out OUTDIR` writes any of them into
//! OUTDIR instead, a folder that must not hold a run.
//!
//! Charts (see [`crate::plots`]):
//! - `ratings.svg`: every agent's Bradley–Terry rating with its 95% interval (the rating
//!   source is a plain list of labels and numbers, so another model's ratings can
//!   replace it); none for self-play alone;
//! - `seat0.svg`: seat 0's wins, draws and losses as shares of the games, over all games
//!   and (with more than one pairing) per pairing; each row names its game count, since
//!   pairings may differ in games and budgets;
//! - `lengths.svg`: a histogram of game lengths in plies, the games stopped by a length
//!   cap (end reason `cap`) in their own colour and labelled.
//!
//! Agent labels longer than 20 characters are written `A1`, `A2`, ... (the agents in
//! order of first appearance), with a legend under the chart.
//!
//! With `--html` the report also writes report.html ([`crate::html`]) where it writes
//! summary.csv, embedding at most `--html-games` games for its replayer.

use std::io::Write;
use std::path::Path;

use agon_engine::EndReason;
use anyhow::{Context, Result};

use crate::args::ReportArgs;
use crate::audit::open_run_to_read;
use crate::bad_input::BadInput;
use crate::games::offers_pie_rule;
use crate::html::{write_run_page, RunPage, REPORT_HTML};
use crate::no_follow::refuse_links;
use crate::plots::{histogram, IntervalChart, ShareChart, LENGTHS_SVG, RATINGS_SVG, SEAT0_SVG};
use crate::record::{
    games_compressed, write_summary, GameRow, Written, FORMAT, GAMES_GZ_FILE, META_FILE,
    OLDER_FORMAT, SUMMARY_FILE,
};
use crate::report::{summarise, table, Summary};
use crate::run_dir::{check_files, missing_games};
use crate::run_lock::RunLock;
use crate::speed::{speed_section, SPEED_FILE};
use crate::stats::sprt::Sprt;

/// Runs `agon report`.
pub fn report(args: &ReportArgs, out: &mut dyn Write) -> Result<()> {
    let dir = &args.dir;
    let shown = dir.display();
    let (meta, written, plan, games_path) = open_run_to_read(dir, "")?;
    let sprt = meta
        .sprt
        .as_deref()
        .map(Sprt::parse)
        .transpose()
        .map_err(|e| BadInput::new(format!("\"{shown}\": {META_FILE}: {e}")))?;
    let anchor = match &args.anchor {
        Some(name) => Some(plan.anchor_label(name)?),
        None => meta.anchor.clone(),
    };
    let rated = |anchor: &Option<String>| {
        anchor
            .as_ref()
            .map_or("a mean of zero".to_string(), |a| format!("\"{a}\""))
    };
    let print_only = if written == Written::Older {
        Some(format!(
            "\"{shown}\" was written by an older agon (format {OLDER_FORMAT}; this build writes \
             format {FORMAT}): its rows have no digest, so they are checked by order, plan and \
             moves only"
        ))
    } else if games_compressed(dir) {
        Some(format!(
            "\"{shown}\" keeps its games only in {GAMES_GZ_FILE} (as a committed study \
             does), and a report leaves such a folder as it is"
        ))
    } else if anchor != meta.anchor {
        Some(format!(
            "--anchor {} differs from the run's anchor ({}, in its {META_FILE})",
            rated(&anchor),
            rated(&meta.anchor)
        ))
    } else {
        None
    };
    // Writing into the run folder: its lock is taken before games.csv is read, so that
    // no process appends rows between the reading and the writing.
    let lock = match (&args.out, &print_only) {
        (None, None) => {
            refuse_links(dir, "run folder")?;
            Some(RunLock::acquire(dir)?)
        }
        _ => None,
    };
    // Checked before anything is read further, so that a bad --out writes nothing.
    if let Some(target) = &args.out {
        check_out(target)?;
        refuse_links(target, "--out folder")?;
    }
    let found = check_files(dir, &plan, &meta, written)?;
    // The games of a run that lost its last rows (or was stopped) would make a summary
    // of another run than the one asked for: said, and written only where --out says.
    if let Some(what) = missing_games(dir, &found, &plan, sprt.as_ref()) {
        let n = found.games.rows.len();
        if args.out.is_none() {
            return Err(BadInput::new(format!(
                "run folder \"{shown}\" is unfinished ({what}); finish it with its command and \
                 --resume, or report its {n} complete games into another folder with --out \
                 OUTDIR"
            ))
            .into());
        }
        eprintln!(
            "note: run folder \"{shown}\" is unfinished ({what}); the report counts its {n} \
             complete games"
        );
    }
    let games = found.games.rows;
    if games.is_empty() {
        return Err(BadInput::new(format!(
            "\"{shown}\": {} holds no game",
            games_path.file_name().unwrap_or_default().to_string_lossy()
        ))
        .into());
    }
    let summary = summarise(&games, anchor.as_deref(), sprt.as_ref())?
        .with_pie_rule(offers_pie_rule(&plan.game)?);

    // Where to write: --out, else the run folder (under `lock`) unless printing only.
    let target = match (&args.out, &print_only) {
        (Some(target), _) => {
            std::fs::create_dir_all(target)
                .with_context(|| format!("cannot create {}", target.display()))?;
            Some(target.as_path())
        }
        (None, Some(why)) => {
            eprintln!("note: {why}; printed only, nothing written (write it with --out OUTDIR)");
            None
        }
        (None, None) => Some(dir.as_path()),
    };

    let shard = meta
        .shard
        .map(|s| format!(", shard {s}"))
        .unwrap_or_default();
    // Rows of more than one build: named, as meta.csv records them.
    let builds = match meta.builds().as_slice() {
        [_] => String::new(),
        builds => format!(
            "written by {} builds: {} (the commits that wrote its rows, in order; it was \
             continued by another build than the one that started it)\n",
            builds.len(),
            builds.join(", ")
        ),
    };
    writeln!(
        out,
        "{}: {} games ({} per pairing{shard}), seed {}\n{builds}{}",
        meta.game,
        games.len(),
        meta.games_per_pairing,
        meta.seed,
        table(&summary)
    )?;
    let speed = speed_section(
        target.unwrap_or(dir),
        &games,
        &found.timings.rows,
        target.is_some(),
    )?;
    write!(out, "{speed}")?;
    if let Some(target) = target {
        write_summary(&target.join(SUMMARY_FILE), &summary.rows())?;
        let mut written = vec![SUMMARY_FILE];
        if !speed.is_empty() {
            written.push(SPEED_FILE);
        }
        written.extend(draw_charts(target, &meta.game, &games, &summary)?);
        if args.html {
            let page = RunPage {
                meta: &meta,
                rows: &games,
                summary: &summary,
                run_dir: dir,
                cap: args.html_games,
            };
            write_run_page(&plan.game, &page, target)?;
            written.push(REPORT_HTML);
        }
        writeln!(out, "wrote {} in {}", written.join(", "), target.display())?;
    }
    for warning in summary.warnings() {
        eprintln!("{warning}");
    }
    out.flush()?;
    drop(lock);
    Ok(())
}

/// Refuses a `--out` folder that is a file or holds a run (its summary.csv is that run's).
fn check_out(target: &Path) -> Result<(), BadInput> {
    let shown = target.display();
    if target.exists() && !target.is_dir() {
        return Err(BadInput::new(format!(
            "--out \"{shown}\" is a file, not a folder"
        )));
    }
    if target.join(META_FILE).exists() {
        return Err(BadInput::new(format!(
            "--out \"{shown}\" holds an agon run (a {META_FILE}), whose {SUMMARY_FILE} is that \
             run's; choose a folder that holds no run"
        )));
    }
    Ok(())
}

/// Draws the charts of a run into `dir` from its game rows and their summary, and
/// returns the names of the files written. `game` (the canonical game spec) goes into
/// a title. Called by `agon report` and at the end of every tournament and merge, so
/// the charts of a finished run always show all of its games.
pub fn draw_charts(
    dir: &Path,
    game: &str,
    games: &[GameRow],
    summary: &Summary,
) -> Result<Vec<&'static str>> {
    let mut written = Vec::new();
    let names = ShortNames::of(summary);
    let legend = names.legend();
    let ratings = rating_rows(summary, &names);
    if !ratings.labels.is_empty() {
        IntervalChart {
            title: "Bradley-Terry ratings, 95% interval",
            axis: "Elo",
            reference: Some(0.0),
            labels: &ratings.labels,
            values: &ratings.values,
            lows: &ratings.lows,
            highs: &ratings.highs,
            legend: &legend,
        }
        .draw(&dir.join(RATINGS_SVG))?;
        written.push(RATINGS_SVG);
    }
    let (labels, counts) = seat0_rows(summary, &names);
    if !labels.is_empty() {
        ShareChart {
            title: "Results of seat 0 (the seat that moves first)",
            parts: ["seat 0 won", "drawn", "seat 0 lost"],
            labels: &labels,
            counts: &counts,
            legend: &legend,
        }
        .draw(&dir.join(SEAT0_SVG))?;
        written.push(SEAT0_SVG);
    }
    let (capped, ended): (Vec<&GameRow>, Vec<&GameRow>) =
        games.iter().partition(|g| g.end_reason == CAP);
    let plies = |rows: Vec<&GameRow>| rows.iter().map(|g| g.plies).collect::<Vec<u32>>();
    histogram(
        &dir.join(LENGTHS_SVG),
        &format!("Game length, {} games of {game}", games.len()),
        "plies",
        &plies(ended),
        &plies(capped),
    )?;
    written.push(LENGTHS_SVG);
    Ok(written)
}

/// The names of the charts [`draw_charts`] writes for `summary`: ratings.svg where there
/// are ratings (not for self-play alone), seat0.svg where a game was decided or drawn at
/// all, lengths.svg always. A resumed run that is finished compares them with its folder.
pub fn chart_files(summary: &Summary) -> Vec<&'static str> {
    let names = ShortNames::of(summary);
    let mut files = Vec::new();
    if !rating_rows(summary, &names).labels.is_empty() {
        files.push(RATINGS_SVG);
    }
    if !seat0_rows(summary, &names).0.is_empty() {
        files.push(SEAT0_SVG);
    }
    files.push(LENGTHS_SVG);
    files
}

/// The end reason of a game stopped by its length cap (every game uses this word).
const CAP: &str = EndReason::Cap.word();

/// Agent labels as the charts write them: a label of at most [`ShortNames::LONGEST`]
/// characters as it is, a longer one as `A<k>` (k: the agent's place in order of first
/// appearance, from 1), with a legend line saying what it stands for.
#[derive(Debug, Default, PartialEq)]
struct ShortNames {
    /// Every agent label, in order of first appearance.
    labels: Vec<String>,
}

impl ShortNames {
    /// The longest label written out in full.
    const LONGEST: usize = 20;

    /// The agents of `summary`'s pairings.
    fn of(summary: &Summary) -> ShortNames {
        let mut labels: Vec<String> = Vec::new();
        for p in &summary.pairings {
            for label in [&p.agent_a, &p.agent_b] {
                if !labels.contains(label) {
                    labels.push(label.clone());
                }
            }
        }
        ShortNames { labels }
    }

    /// The short name of `label`.
    fn short(&self, label: &str) -> String {
        match self.labels.iter().position(|l| l == label) {
            Some(k) if label.chars().count() > Self::LONGEST => format!("A{}", k + 1),
            _ => label.to_string(),
        }
    }

    /// One line per abbreviated label: `A<k> = <label>`.
    fn legend(&self) -> Vec<String> {
        self.labels
            .iter()
            .filter(|l| l.chars().count() > Self::LONGEST)
            .map(|l| format!("{} = {l}", self.short(l)))
            .collect()
    }
}

/// Labels and numbers of an interval chart (also the study charts').
#[derive(Debug, Default, PartialEq)]
pub(crate) struct Rows {
    pub(crate) labels: Vec<String>,
    pub(crate) values: Vec<f64>,
    pub(crate) lows: Vec<f64>,
    pub(crate) highs: Vec<f64>,
}

impl Rows {
    /// Adds a row: the value and the interval's ends.
    pub(crate) fn push_numbers(&mut self, label: String, [value, low, high]: [f64; 3]) {
        self.labels.push(label);
        self.values.push(value);
        self.lows.push(low);
        self.highs.push(high);
    }
}

/// Every agent's Bradley–Terry rating with its 95% interval (none for self-play).
fn rating_rows(summary: &Summary, names: &ShortNames) -> Rows {
    let mut rows = Rows::default();
    for agent in summary.ratings.iter().flat_map(|t| &t.agents) {
        rows.push_numbers(
            format!("{} ({} games)", names.short(&agent.label), agent.games),
            [agent.elo.elo, agent.elo.low, agent.elo.high],
        );
    }
    rows
}

/// Seat 0's wins, draws and losses over all games and, with more than one pairing, per
/// pairing, labelled with their game counts.
fn seat0_rows(summary: &Summary, names: &ShortNames) -> (Vec<String>, Vec<[u64; 3]>) {
    let scopes = if summary.pairings.len() > 1 {
        &summary.scopes[..]
    } else {
        &summary.scopes[..summary.scopes.len().min(1)]
    };
    scopes
        .iter()
        .filter(|scope| scope.seat0.wdl.games() > 0)
        .map(|scope| {
            let who = match &scope.pairing {
                Some((_, a, b)) => format!("{} vs {}", names.short(a), names.short(b)),
                None => "all games".to_string(),
            };
            let w = &scope.seat0.wdl;
            (
                format!("{who} ({} games)", w.games()),
                [w.wins, w.draws, w.losses],
            )
        })
        .unzip()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::Result0;

    fn game(index: u64, agents: [&str; 2], result0: Result0, plies: u32) -> GameRow {
        GameRow::example(index, 0, agents, result0, plies)
    }

    #[test]
    fn chart_rows_come_from_the_summary() {
        use Result0::*;
        // x beats y in all 4 games: the prior keeps both ratings finite and opposite (mean
        // zero); seat 0 wins the even games and loses the odd ones.
        let games = [
            game(0, ["x", "y"], Win, 10),
            game(1, ["y", "x"], Loss, 12),
            game(2, ["x", "y"], Win, 10),
            game(3, ["y", "x"], Loss, 30),
        ];
        let summary = summarise(&games, None, None).unwrap();
        let names = ShortNames::of(&summary);
        let elo = rating_rows(&summary, &names);
        assert_eq!(elo.labels, ["x (4 games)", "y (4 games)"]);
        assert!(elo.values[0] > 0.0 && elo.values[0].is_finite());
        assert_eq!(elo.values[0], -elo.values[1]);
        assert!(elo.lows[0] < elo.values[0] && elo.values[0] < elo.highs[0]);
        // One pairing: its row would repeat "all games".
        assert_eq!(
            seat0_rows(&summary, &names),
            (vec!["all games (4 games)".to_string()], vec![[2, 0, 2]])
        );
    }

    /// The charts of a run in a scratch folder, as text: ratings, seat0, lengths.
    fn drawn(name: &str, games: &[GameRow]) -> [String; 3] {
        let dir = std::env::temp_dir().join(format!("agon-charts-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let summary = summarise(games, None, None).unwrap();
        draw_charts(&dir, "g", games, &summary).unwrap();
        let read = |file: &str| std::fs::read_to_string(dir.join(file)).unwrap_or_default();
        let svgs = [read(RATINGS_SVG), read(SEAT0_SVG), read(LENGTHS_SVG)];
        std::fs::remove_dir_all(&dir).unwrap();
        svgs
    }

    /// The text of every `<text>` element of an SVG.
    fn texts(svg: &str) -> Vec<&str> {
        svg.split("<text")
            .skip(1)
            .filter_map(|t| {
                t.split_once('>')
                    .and_then(|(_, rest)| rest.split_once("</text>"))
            })
            .map(|(text, _)| text.trim())
            .collect()
    }

    #[test]
    fn seat0_chart_shows_draws_as_well_as_wins_and_losses() {
        use Result0::*;
        // 18 draws of 20: as a win rate over decisive games this drew as 0.0.
        let mut games: Vec<GameRow> = (0..20).map(|i| game(i, ["x", "x"], Draw, 10)).collect();
        games[0].result0 = Loss;
        games[1].result0 = Win;
        let [_, seat0, _] = drawn("draws", &games);
        let texts = texts(&seat0);
        for wanted in [
            "seat 0 won",
            "drawn",
            "seat 0 lost",
            "all games (20 games)",
            "1-18-1",
        ] {
            assert!(texts.contains(&wanted), "{wanted} not in {texts:?}");
        }
    }

    #[test]
    fn long_labels_are_numbered_with_a_legend_and_ticks_have_no_needless_decimals() {
        use Result0::*;
        let long = "mcts:c=1.4,iters=10000,parallel=tree,reuse=true";
        let games = [
            game(0, [long, "y"], Win, 10),
            game(1, ["y", long], Loss, 12),
            game(2, [long, "y"], Draw, 10),
            game(3, ["y", long], Loss, 30),
        ];
        let [ratings, seat0, _] = drawn("labels", &games);
        let texts = texts(&ratings);
        assert!(texts.contains(&"A1 (4 games)"), "{texts:?}");
        assert!(texts.contains(&"y (4 games)"), "{texts:?}");
        assert!(
            texts.contains(&format!("A1 = {long}").as_str()),
            "{texts:?}"
        );
        assert!(!texts.iter().any(|t| t.contains(&format!("{long} ("))));
        // Tick labels are numbers such as -200 or 0, never -200.0.
        let numbers: Vec<&&str> = texts.iter().filter(|t| t.parse::<f64>().is_ok()).collect();
        assert!(numbers.len() >= 3, "{texts:?}");
        assert!(numbers.iter().all(|t| !t.ends_with(".0")), "{numbers:?}");
        assert!(seat0.contains(&format!("A1 = {long}")));
    }

    #[test]
    fn lengths_chart_labels_the_games_stopped_by_the_cap() {
        use Result0::*;
        let mut games: Vec<GameRow> = (0..6)
            .map(|i| game(i, ["x", "y"], Win, 10 + i as u32))
            .collect();
        for g in &mut games[4..] {
            g.end_reason = "cap".into();
            g.plies = 40;
            g.result0 = Draw;
        }
        let [_, _, lengths] = drawn("cap", &games);
        assert!(
            texts(&lengths).contains(&"length cap: 2 games stopped at 40 plies"),
            "{lengths}"
        );
        let [_, _, uncapped] = drawn("uncapped", &games[..4]);
        assert!(!uncapped.contains("length cap"));
    }
}
