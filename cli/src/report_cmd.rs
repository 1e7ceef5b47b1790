//! `agon report DIR`: recomputes a run folder's summary from its games.csv alone, prints
//! it, writes summary.csv again, writes speed.csv from timings.csv (and prints it, apart
//! from the reproducible table), and draws SVG charts into the folder.
//!
//! The folder must hold a run (meta.csv) and its games.csv; games.csv is read through the
//! checks a resume makes ([`crate::audit`]: rows in order and the plan's, digests, the
//! moves replayed), so a duplicated, reordered, edited or foreign row is refused. Bad
//! input is one line and exit code 2, refused before any file is written.
//!
//! A report changes the run folder only to write what the run itself would: with the
//! run's own options (the anchor recorded in meta.csv, the default), summary.csv and the
//! charts are written again into the folder, under its lock ([`RunLock`]). A report with
//! another `--anchor` is printed only, and so is a folder of an older format (read with
//! a `note:` line); `--out OUTDIR` writes either into OUTDIR instead, a folder that must
//! not hold a run.
//!
//! Charts (see [`crate::plots`]), drawn by [`draw_charts`]:
//! - `ratings.svg`: each pairing's Elo difference A − B with its 95% interval, from the
//!   summary rows (the rating source is a plain list of labels and numbers, so another
//!   model's ratings can replace it);
//! - `seat0.svg`: seat 0's win rate over decisive games with its 95% Wilson interval,
//!   per pairing and over all games; each row names its game count, since pairings may
//!   differ in games and budgets;
//! - `lengths.svg`: a histogram of game lengths in plies.
//!
//! Rows that are not defined (no decisive game, no Elo) are left out of a chart, never
//! drawn as zero.

use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result};

use crate::args::{BadInput, ReportArgs};
use crate::audit::{plan_of, read_checked_games};
use crate::plots::{histogram, IntervalChart};
use crate::record::{
    scan, write_summary, GameRow, RunMeta, TimingRow, Written, FORMAT, GAMES_FILE, META_FILE,
    OLDER_FORMAT, SUMMARY_FILE, TIMINGS_FILE, TIMINGS_HEADER,
};
use crate::report::{find_anchor, summarise, table, Summary};
use crate::run_lock::RunLock;
use crate::speed::{speed_section, SPEED_FILE};
use crate::stats::binomial::wilson;
use crate::stats::sprt::Sprt;

/// Name of the chart of ratings.
pub const RATINGS_SVG: &str = "ratings.svg";
/// Name of the chart of seat-0 win rates.
pub const SEAT0_SVG: &str = "seat0.svg";
/// Name of the chart of game lengths.
pub const LENGTHS_SVG: &str = "lengths.svg";

/// Runs `agon report`.
pub fn report(args: &ReportArgs, out: &mut dyn Write) -> Result<()> {
    let dir = &args.dir;
    let shown = dir.display();
    if !dir.is_dir() {
        return Err(BadInput::new(format!("run folder \"{shown}\" does not exist")).into());
    }
    let meta_path = dir.join(META_FILE);
    if !meta_path.is_file() {
        return Err(
            BadInput::new(format!("\"{shown}\" holds no agon run (no {META_FILE})")).into(),
        );
    }
    let (meta, written) = RunMeta::read_any(&meta_path).map_err(|e| {
        BadInput::new(format!(
            "\"{shown}\" holds a {META_FILE} this build cannot read ({e:#})"
        ))
    })?;
    let plan =
        plan_of(&meta).map_err(|e| BadInput::new(format!("\"{shown}\": {META_FILE}: {e}")))?;
    let games_path = dir.join(GAMES_FILE);
    if !games_path.is_file() {
        return Err(BadInput::new(format!("\"{shown}\" holds no {GAMES_FILE}")).into());
    }
    let sprt = meta
        .sprt
        .as_deref()
        .map(Sprt::parse)
        .transpose()
        .map_err(|e| BadInput::new(format!("\"{shown}\": {META_FILE}: {e}")))?;
    let labels: Vec<String> = plan.entrants.iter().map(|e| e.label.clone()).collect();
    let anchor = match &args.anchor {
        Some(name) => Some(labels[find_anchor(&labels, name)?].clone()),
        None => meta.anchor.clone(),
    };
    // Checked before anything is read further, so that a bad --out writes nothing.
    if let Some(target) = &args.out {
        check_out(target)?;
    }
    let scanned = read_checked_games(&games_path, &meta, &plan, written)?;
    if let Some(tail) = &scanned.tail {
        eprintln!(
            "note: {} line {}: {}; the report counts the complete rows before it",
            games_path.display(),
            tail.line,
            tail.what
        );
    }
    let games = scanned.rows;
    if games.is_empty() {
        return Err(BadInput::new(format!("\"{shown}\": {GAMES_FILE} holds no game")).into());
    }
    let summary = summarise(&games, anchor.as_deref(), sprt.as_ref())?;

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
    } else if anchor != meta.anchor {
        Some(format!(
            "--anchor {} differs from the run's anchor ({}, in its {META_FILE})",
            rated(&anchor),
            rated(&meta.anchor)
        ))
    } else {
        None
    };
    // Where to write, and the run folder's lock when it is there.
    let (target, _lock) = match (&args.out, &print_only) {
        (Some(target), _) => {
            std::fs::create_dir_all(target)
                .with_context(|| format!("cannot create {}", target.display()))?;
            (Some(target.as_path()), None)
        }
        (None, Some(why)) => {
            eprintln!("note: {why}; printed only, nothing written (write it with --out OUTDIR)");
            (None, None)
        }
        (None, None) => (Some(dir.as_path()), Some(RunLock::acquire(dir)?)),
    };

    let shard = meta
        .shard
        .map(|s| format!(", shard {s}"))
        .unwrap_or_default();
    writeln!(
        out,
        "{}: {} games ({} per pairing{shard}), seed {}\n{}",
        meta.game,
        games.len(),
        meta.games_per_pairing,
        meta.seed,
        table(&summary)
    )?;
    // Speed needs timings.csv; a folder without one (or with a torn end) gets what its
    // complete rows give.
    let timings = scan::<TimingRow>(&dir.join(TIMINGS_FILE), TIMINGS_HEADER)
        .map(|t| t.rows)
        .unwrap_or_default();
    let speed = speed_section(target.unwrap_or(dir), &games, &timings, target.is_some())?;
    write!(out, "{speed}")?;
    if let Some(target) = target {
        write_summary(&target.join(SUMMARY_FILE), &summary.rows())?;
        let mut written = vec![SUMMARY_FILE];
        if !speed.is_empty() {
            written.push(SPEED_FILE);
        }
        written.extend(draw_charts(target, &summary, &games, &meta)?);
        writeln!(out, "wrote {} in {}", written.join(", "), target.display())?;
    }
    out.flush()?;
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

/// Draws every chart of the report into `dir`; returns the names of the files written,
/// in order.
fn draw_charts(
    dir: &Path,
    summary: &Summary,
    games: &[GameRow],
    meta: &RunMeta,
) -> Result<Vec<&'static str>> {
    let mut written = Vec::new();
    let ratings = rating_rows(summary);
    if !ratings.labels.is_empty() {
        IntervalChart {
            title: "Bradley-Terry ratings, 95% interval",
            axis: "Elo",
            reference: Some(0.0),
            labels: &ratings.labels,
            values: &ratings.values,
            lows: &ratings.lows,
            highs: &ratings.highs,
        }
        .draw(&dir.join(RATINGS_SVG))?;
        written.push(RATINGS_SVG);
    }
    let seat0 = seat0_rows(summary);
    if !seat0.labels.is_empty() {
        IntervalChart {
            title: "Seat 0 win rate over decisive games, 95% Wilson interval",
            axis: "seat 0 wins / decisive games",
            reference: Some(0.5),
            labels: &seat0.labels,
            values: &seat0.values,
            lows: &seat0.lows,
            highs: &seat0.highs,
        }
        .draw(&dir.join(SEAT0_SVG))?;
        written.push(SEAT0_SVG);
    }
    let plies: Vec<u32> = games.iter().map(|g| g.plies).collect();
    histogram(
        &dir.join(LENGTHS_SVG),
        &format!("Game length, {} games of {}", games.len(), meta.game),
        "plies",
        &plies,
    )?;
    written.push(LENGTHS_SVG);
    Ok(written)
}

/// Labels and numbers of an interval chart.
#[derive(Debug, Default, PartialEq)]
struct Rows {
    labels: Vec<String>,
    values: Vec<f64>,
    lows: Vec<f64>,
    highs: Vec<f64>,
}

impl Rows {
    /// Adds a row: the value and the interval's ends.
    fn push_numbers(&mut self, label: String, [value, low, high]: [f64; 3]) {
        self.labels.push(label);
        self.values.push(value);
        self.lows.push(low);
        self.highs.push(high);
    }
}

/// Every agent's Bradley–Terry rating with its 95% interval (none for self-play).
fn rating_rows(summary: &Summary) -> Rows {
    let mut rows = Rows::default();
    for agent in summary.ratings.iter().flat_map(|t| &t.agents) {
        rows.push_numbers(
            format!("{} ({} games)", agent.label, agent.games),
            [agent.elo.elo, agent.elo.low, agent.elo.high],
        );
    }
    rows
}

/// Seat 0's win rate over decisive games with its Wilson interval, over all games and
/// per pairing, labelled with their game counts; scopes without a decisive game are left
/// out.
fn seat0_rows(summary: &Summary) -> Rows {
    let mut rows = Rows::default();
    for scope in &summary.scopes {
        let who = match &scope.pairing {
            Some((_, a, b)) => format!("{a} vs {b}"),
            None => "all games".to_string(),
        };
        let (wins, decisive) = (scope.seat0.wins, scope.seat0.decisive());
        if let Some((low, high)) = wilson(wins, decisive) {
            rows.push_numbers(
                format!("{who} ({} games)", scope.seat0.games()),
                [wins as f64 / decisive as f64, low, high],
            );
        }
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::Result0;

    fn game(index: u64, agents: [&str; 2], result0: Result0, plies: u32) -> GameRow {
        GameRow::example(index, 0, agents, result0, plies)
    }

    #[test]
    fn chart_rows_come_from_the_summary_and_undefined_ones_are_left_out() {
        use Result0::*;
        // x beats y in all 4 games: the prior keeps both ratings finite and opposite (mean
        // zero); seat 0 wins the even games and loses the odd ones, 2 of 4 decisive.
        let games = [
            game(0, ["x", "y"], Win, 10),
            game(1, ["y", "x"], Loss, 12),
            game(2, ["x", "y"], Win, 10),
            game(3, ["y", "x"], Loss, 30),
        ];
        let summary = summarise(&games, None, None).unwrap();
        let elo = rating_rows(&summary);
        assert_eq!(elo.labels, ["x (4 games)", "y (4 games)"]);
        assert!(elo.values[0] > 0.0 && elo.values[0].is_finite());
        assert_eq!(elo.values[0], -elo.values[1]);
        assert!(elo.lows[0] < elo.values[0] && elo.values[0] < elo.highs[0]);
        let seat0 = seat0_rows(&summary);
        assert_eq!(seat0.labels, ["all games (4 games)", "x vs y (4 games)"]);
        assert_eq!(seat0.values, vec![0.5, 0.5]);
        // Only draws: no decisive game, no seat-0 row.
        let draws = [game(0, ["x", "y"], Draw, 5), game(1, ["y", "x"], Draw, 5)];
        assert_eq!(
            seat0_rows(&summarise(&draws, None, None).unwrap()),
            Rows::default()
        );

        let dir = std::env::temp_dir().join(format!("agon-report-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        IntervalChart {
            title: "t",
            axis: "Elo",
            reference: Some(0.0),
            labels: &elo.labels,
            values: &elo.values,
            lows: &elo.lows,
            highs: &elo.highs,
        }
        .draw(&dir.join(RATINGS_SVG))
        .unwrap();
        IntervalChart {
            title: "s",
            axis: "rate",
            reference: Some(0.5),
            labels: &seat0.labels,
            values: &seat0.values,
            lows: &seat0.lows,
            highs: &seat0.highs,
        }
        .draw(&dir.join(SEAT0_SVG))
        .unwrap();
        histogram(&dir.join(LENGTHS_SVG), "l", "plies", &[10, 12, 10, 30]).unwrap();
        for file in [RATINGS_SVG, SEAT0_SVG, LENGTHS_SVG] {
            assert!(dir.join(file).is_file(), "{file}");
        }
        let svg = std::fs::read_to_string(dir.join(RATINGS_SVG)).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(svg.starts_with("<svg"));
        assert!(svg.contains("x (4 games)"));
    }
}
