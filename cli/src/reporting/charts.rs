//! The charts of a run (ratings, seat 0's results, game lengths), drawn from its rows
//! and their summary: by `agon report`, at the end of every tournament and merge, and
//! (their interval rows) by a balance study's charts.

use std::path::Path;

use agon_engine::EndReason;
use anyhow::Result;

use crate::record::GameRow;
use crate::reporting::plots::{
    histogram, IntervalChart, ShareChart, LENGTHS_SVG, RATINGS_SVG, SEAT0_SVG,
};
use crate::reporting::summary::Summary;

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
    use crate::reporting::summary::summarise;

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
