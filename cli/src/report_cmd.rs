//! `agon report DIR`: recomputes a run folder's summary from its games.csv alone, prints
//! it, writes summary.csv again, and draws SVG charts into the folder.
//!
//! Charts (see [`crate::plots`]):
//! - `ratings.svg`: each pairing's Elo difference A − B with its 95% interval, from the
//!   summary rows (the rating source is a plain list of labels and numbers, so another
//!   model's ratings can replace it);
//! - `seat0.svg`: seat 0's win rate over decisive games with its 95% Wilson interval,
//!   per pairing and over all games; each row names its game count, since pairings may
//!   differ in games and budgets;
//! - `lengths.svg`: a histogram of game lengths in plies.
//!
//! The folder must hold a run (meta.csv) and its games.csv; anything else is bad input,
//! refused before any file is written. Rows that are not defined (no decisive game, no
//! Elo) are left out of a chart, never drawn as zero.

use anyhow::Result;
use std::io::Write;

use crate::args::{BadInput, ReportArgs};
use crate::plots::{histogram, IntervalChart};
use crate::record::{
    read_games, write_summary, RunMeta, SummaryRow, GAMES_FILE, META_FILE, SUMMARY_FILE,
};
use crate::report::{summarise, table};

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
    let meta = RunMeta::read(&meta_path).map_err(|e| {
        BadInput::new(format!(
            "\"{shown}\" holds a {META_FILE} that is not an agon run's ({e:#})"
        ))
    })?;
    let games_path = dir.join(GAMES_FILE);
    if !games_path.is_file() {
        return Err(BadInput::new(format!("\"{shown}\" holds no {GAMES_FILE}")).into());
    }
    let games = read_games(&games_path).map_err(|e| BadInput::new(format!("{e:#}")))?;
    if games.is_empty() {
        return Err(BadInput::new(format!("\"{shown}\": {GAMES_FILE} holds no game")).into());
    }

    let summary = summarise(&games);
    write_summary(&dir.join(SUMMARY_FILE), &summary)?;
    let mut written = vec![SUMMARY_FILE];
    let ratings = elo_rows(&summary);
    if !ratings.labels.is_empty() {
        IntervalChart {
            title: "Elo difference A - B per pairing, 95% interval",
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
    let seat0 = seat0_rows(&summary);
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
    writeln!(out, "wrote {} in {}", written.join(", "), shown)?;
    out.flush()?;
    Ok(())
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
    /// Adds a row when all three numbers are defined (parse; `inf` does).
    fn push(&mut self, label: String, numbers: [&str; 3]) {
        if let [Ok(v), Ok(l), Ok(h)] = numbers.map(str::parse::<f64>) {
            self.labels.push(label);
            self.values.push(v);
            self.lows.push(l);
            self.highs.push(h);
        }
    }
}

/// The pairings' Elo estimates, labelled `A vs B`.
fn elo_rows(summary: &[SummaryRow]) -> Rows {
    let mut rows = Rows::default();
    for r in summary.iter().filter(|r| r.scope == "pairing") {
        rows.push(
            format!("{} vs {}", r.agent_a, r.agent_b),
            [&r.elo, &r.elo_low, &r.elo_high],
        );
    }
    rows
}

/// Seat 0's win rates per pairing and over all games, labelled with their game counts.
fn seat0_rows(summary: &[SummaryRow]) -> Rows {
    let mut rows = Rows::default();
    for r in summary {
        let who = if r.scope == "pairing" {
            format!("{} vs {}", r.agent_a, r.agent_b)
        } else {
            "all games".to_string()
        };
        rows.push(
            format!("{who} ({} games)", r.games),
            [&r.seat0_win_rate, &r.seat0_win_low, &r.seat0_win_high],
        );
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{GameRow, Result0};

    fn game(index: u64, agents: [&str; 2], result0: Result0, plies: u32) -> GameRow {
        GameRow {
            game: index,
            pair: index / 2,
            pairing: 0,
            agent0: agents[0].into(),
            agent1: agents[1].into(),
            side0: "x".into(),
            side1: "o".into(),
            result0,
            winner: None,
            end_reason: "end".into(),
            plies,
            nodes0: 0,
            nodes1: 0,
            moves: String::new(),
        }
    }

    #[test]
    fn chart_rows_come_from_the_summary_and_undefined_ones_are_left_out() {
        use Result0::*;
        // x beats y in all 4 games: Elo +inf with an infinite upper end; seat 0 wins the
        // even games and loses the odd ones, 2 of 4 decisive.
        let games = [
            game(0, ["x", "y"], Win, 10),
            game(1, ["y", "x"], Loss, 12),
            game(2, ["x", "y"], Win, 10),
            game(3, ["y", "x"], Loss, 30),
        ];
        let summary = summarise(&games);
        let elo = elo_rows(&summary);
        assert_eq!(elo.labels, vec!["x vs y".to_string()]);
        assert_eq!(
            (elo.values[0], elo.highs[0]),
            (f64::INFINITY, f64::INFINITY)
        );
        let seat0 = seat0_rows(&summary);
        assert_eq!(
            seat0.labels,
            vec![
                "x vs y (4 games)".to_string(),
                "all games (4 games)".to_string()
            ]
        );
        assert_eq!(seat0.values, vec![0.5, 0.5]);
        // Only draws: no decisive game, no seat-0 row.
        let draws = [game(0, ["x", "y"], Draw, 5), game(1, ["y", "x"], Draw, 5)];
        assert_eq!(seat0_rows(&summarise(&draws)), Rows::default());

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
        assert!(svg.contains("x vs y"));
        assert!(svg.contains("unbounded ends drawn at the edge"));
    }
}
