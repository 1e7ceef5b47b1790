//! What a race reports: its verdict lines and table (printed), search.csv (tidy) and
//! race.svg (drawn), all from a [`RaceRecord`].
//!
//! **search.csv** has one row per candidate and round it played, its figures cumulative
//! to that round, and one row per check of the fairest candidate:
//! `candidate,spec,level,round,games,seat0_score,seat0_score_low,seat0_score_high,
//! seat0_win_rate,seat0_win_rate_low,seat0_win_rate_high,confidence,draw_rate,
//! cap_draw_rate,mean_turns,exact_seat0_score,status,left_round`. `round` is `check`
//! on a check's row; `seat0_win_rate` is over decisive games (Wilson interval);
//! `confidence` is the intervals' (the race's corrected one, or 0.95 for a check);
//! `exact_seat0_score` is empty unless the level's agent is exact; `status` is
//! `racing`, `out` (in the round it left), `fairest` or `within reach` (in the last
//! round), or `check`; `left_round` is the round the candidate left, on each of its rows.

use std::io::Write;
use std::path::Path;

use anyhow::Result;

use super::rule::{confidence, Score};
use super::Tally;
use crate::balance::study::Rung;
use crate::balance::verdict::{repeat_warning, too_few_distinct};
use crate::no_follow::write_csv_whole;
use crate::reporting::plots::IntervalChart;
use crate::reporting::stats::binomial::wilson_at;
use crate::reporting::stats::Z95;

/// The race's tidy results, written last: the mark of a finished race.
pub const SEARCH_FILE: &str = "search.csv";
/// The chart of the candidates' last intervals.
pub const RACE_SVG: &str = "race.svg";

/// Where a candidate stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Still in the race.
    Racing,
    /// Left after this round.
    Out(u64),
    /// The fairest when the race stopped.
    Fairest,
    /// In the race when it stopped, not the fairest.
    WithinReach,
}

/// Why the race stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// One candidate was left.
    OneLeft,
    /// Every candidate left was measured to the width asked for.
    Width,
    /// Another round would have passed the budget.
    Budget,
}

/// One round: every candidate's tally after it.
#[derive(Clone, Debug)]
pub struct RoundRecord {
    /// The round, from 1.
    pub round: u64,
    /// Each candidate's games so far.
    pub tallies: Vec<Tally>,
}

/// A finished race.
#[derive(Clone, Debug)]
pub struct RaceRecord {
    /// The `z` of the race's intervals.
    pub z: f64,
    /// The rounds played.
    pub rounds: Vec<RoundRecord>,
    /// Each candidate's final standing.
    pub status: Vec<Status>,
    /// The fairest candidate.
    pub best: usize,
    /// Why the race stopped.
    pub stop: Stop,
    /// The fairest candidate's checks: the level and its games.
    pub checks: Vec<(Rung, Tally)>,
    /// Each candidate's exact seat-0 score, where the level's agent is exact.
    pub exact: Option<Vec<f64>>,
    /// Each candidate's race games that repeat an earlier game of its own, move for move.
    pub repeated: Vec<u64>,
}

/// What the report needs of the race's definition.
pub struct RaceView {
    /// Each candidate's name and canonical game spec.
    pub candidates: Vec<(String, String)>,
    /// Each candidate's picks (`key=value,...`).
    pub picks: Vec<Vec<(String, String)>>,
    /// Each searched knob's declared range, where it is an integer.
    pub limits: Vec<Option<(i64, i64)>>,
    /// The level's rung name (`L4`).
    pub level: String,
    /// The level's agent, as the ladder writes it.
    pub agent: String,
    /// The agents of the checks' levels, in the order of the record's checks.
    pub check_agents: Vec<String>,
    /// Games per round.
    pub round: u64,
    /// The race's budget of games.
    pub budget: u64,
    /// The width asked for, as a fraction.
    pub width: f64,
    /// The intervals of the race in all (candidates × rounds at most).
    pub looks: u64,
}

impl RaceRecord {
    /// Each candidate's last tally (after the last round it played).
    fn last_tallies(&self) -> Vec<Tally> {
        let n = self.status.len();
        (0..n)
            .map(|c| {
                let round = match self.status[c] {
                    Status::Out(r) => r,
                    _ => self.rounds.len() as u64,
                };
                self.rounds[round as usize - 1].tallies[c].clone()
            })
            .collect()
    }

    /// Games the race played.
    fn games(&self) -> u64 {
        self.last_tallies().iter().map(|t| t.wdl.games()).sum()
    }
}

/// `50.4% [48.9, 51.9]`.
fn percent(score: &Score) -> String {
    format!(
        "{:.1}% [{:.1}, {:.1}]",
        100.0 * score.value,
        100.0 * score.low,
        100.0 * score.high
    )
}

/// Candidate `c`'s picks, `key=value` joined by `separator`.
fn picks_text(view: &RaceView, c: usize, separator: &str) -> String {
    let picks: Vec<String> = view.picks[c]
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    picks.join(separator)
}

/// `c03 (bonus=4)`.
fn named(view: &RaceView, c: usize) -> String {
    format!("{} ({})", view.candidates[c].0, picks_text(view, c, ","))
}

/// The lines printed for a finished race: what was raced, why it stopped, the verdict,
/// the edge and exact lines where they apply, the checks, and the table of candidates.
pub fn lines(view: &RaceView, record: &RaceRecord) -> Vec<String> {
    let n = view.candidates.len();
    let tallies = record.last_tallies();
    let score = |c: usize| Score::of(&tallies[c].wdl, record.z).expect("every candidate played");
    let mut lines = vec![format!(
        "race at {} ({}) over {n} candidates, {} games a round: intervals at {:.4}% each, \
         so that all of them hold with 95% confidence ({n} candidates x {} rounds at most)",
        view.level,
        view.agent,
        view.round,
        100.0 * confidence(view.looks),
        view.looks / n as u64
    )];
    let rounds = record.rounds.len();
    lines.push(format!(
        "stopped after {rounds} round{} and {} games: {}",
        if rounds == 1 { "" } else { "s" },
        record.games(),
        match record.stop {
            Stop::OneLeft => "one candidate left".to_string(),
            Stop::Width => format!(
                "every candidate left is measured to {:.1} points",
                100.0 * view.width
            ),
            Stop::Budget => format!(
                "another round would pass the budget of {} games, with {} candidates still \
                 in the race",
                view.budget,
                record
                    .status
                    .iter()
                    .filter(|s| !matches!(s, Status::Out(_)))
                    .count()
            ),
        }
    ));
    let best = record.best;
    let reach: Vec<String> = (0..n)
        .filter(|&c| record.status[c] == Status::WithinReach)
        .map(|c| format!("{} {}", named(view, c), percent(&score(c))))
        .collect();
    lines.push(format!(
        "fairest: {} seat 0 scores {} at {} after {} games; also within reach: {}",
        view.candidates[best].1,
        percent(&score(best)),
        view.level,
        tallies[best].wdl.games(),
        if reach.is_empty() {
            "none".to_string()
        } else {
            reach.join("; ")
        }
    ));
    lines.extend(edges(view, best));
    if let Some(exact) = &record.exact {
        let s = score(best);
        let inside = (s.low..=s.high).contains(&exact[best]);
        lines.push(format!(
            "exact (the level's agent is exact): the fairest's seat 0 scores {:.2}%, {} its \
             interval",
            100.0 * exact[best],
            if inside { "inside" } else { "OUTSIDE" }
        ));
    }
    // As a study warns: fewer than 90% of a candidate's games distinct.
    let repeats: Vec<String> = (0..n)
        .filter_map(|c| {
            let games = tallies[c].wdl.games();
            let distinct = games - record.repeated[c];
            too_few_distinct(distinct, games)
                .then(|| format!("{distinct} of {games} for {}", view.candidates[c].0))
        })
        .collect();
    lines.extend(repeat_warning(&repeats));
    for ((rung, tally), agent) in record.checks.iter().zip(&view.check_agents) {
        match Score::of(&tally.wdl, Z95) {
            Some(s) => lines.push(format!(
                "check at {} ({}): seat 0 scores {} over {} games (95%), {:.0}% drawn, \
                 {:.0} turns on average",
                rung.name,
                agent,
                percent(&s),
                tally.wdl.games(),
                100.0 * tally.draw_rate(),
                tally.mean_turns().unwrap_or(0.0)
            )),
            None => lines.push(format!("check at {}: no games", rung.name)),
        }
    }
    lines.push(String::new());
    lines.push(format!(
        "{:<5} {:<28} {:>6} {:>24} {:>6} {:>6} {}",
        "", "picks", "games", "seat 0 score", "drawn", "turns", "standing"
    ));
    for c in 0..n {
        let t = &tallies[c];
        let mut standing = match record.status[c] {
            Status::Out(r) => format!("out after round {r}"),
            Status::Fairest => "fairest".into(),
            Status::WithinReach => "within reach".into(),
            Status::Racing => "racing".into(),
        };
        if let Some(exact) = &record.exact {
            standing.push_str(&format!(" (exact {:.2}%)", 100.0 * exact[c]));
        }
        lines.push(format!(
            "{:<5} {:<28} {:>6} {:>24} {:>5.1}% {:>6.1} {}",
            view.candidates[c].0,
            picks_text(view, c, ","),
            t.wdl.games(),
            percent(&score(c)),
            100.0 * t.draw_rate(),
            t.mean_turns().unwrap_or(0.0),
            standing
        ));
    }
    lines
}

/// A line for each numeric knob where the fairest candidate takes the lowest or highest
/// value tried: the fairest game may lie beyond the range searched.
fn edges(view: &RaceView, best: usize) -> Vec<String> {
    let mut lines = Vec::new();
    for (k, (key, value)) in view.picks[best].iter().enumerate() {
        let tried: Vec<f64> = view
            .picks
            .iter()
            .filter_map(|p| p[k].1.parse::<f64>().ok())
            .collect();
        let Ok(v) = value.parse::<f64>() else {
            continue;
        };
        if tried.len() != view.picks.len() {
            continue;
        }
        let (min, max) = tried
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| {
                (a.min(x), b.max(x))
            });
        if min == max {
            continue;
        }
        let side = if v == min {
            "lowest"
        } else if v == max {
            "highest"
        } else {
            continue;
        };
        let limit = view.limits[k].is_some_and(|(low, high)| {
            (side == "lowest" && v == low as f64) || (side == "highest" && v == high as f64)
        });
        lines.push(if limit {
            format!(
                "edge: the fairest takes the {side} value tried of {key} ({value}), which is \
                 the knob's own limit"
            )
        } else {
            format!(
                "edge: the fairest takes the {side} value tried of {key} ({value}); the \
                 fairest game may lie beyond it, so search past it"
            )
        });
    }
    lines
}

/// Prints the race's lines.
pub fn print(view: &RaceView, record: &RaceRecord, out: &mut dyn Write) -> Result<()> {
    for line in lines(view, record) {
        writeln!(out, "{line}")?;
    }
    out.flush()?;
    Ok(())
}

/// Writes race.svg and then search.csv into `dir`; returns the files written.
pub fn write(dir: &Path, view: &RaceView, record: &RaceRecord) -> Result<Vec<&'static str>> {
    chart(dir, view, record)?;
    write_search(dir, view, record)?;
    Ok(vec![RACE_SVG, SEARCH_FILE])
}

/// One row of search.csv, from a tally at `z` (see the module docs).
fn figures(tally: &Tally, z: f64) -> Vec<String> {
    let score = Score::of(&tally.wdl, z).expect("a row has games");
    let decisive = tally.wdl.wins + tally.wdl.losses;
    let (rate, low, high) = match wilson_at(tally.wdl.wins, decisive, z) {
        Some((low, high)) => (
            format!("{:.6}", tally.wdl.wins as f64 / decisive as f64),
            format!("{low:.6}"),
            format!("{high:.6}"),
        ),
        None => Default::default(),
    };
    let games = tally.wdl.games() as f64;
    vec![
        tally.wdl.games().to_string(),
        format!("{:.6}", score.value),
        format!("{:.6}", score.low),
        format!("{:.6}", score.high),
        rate,
        low,
        high,
    ]
    .into_iter()
    .chain([
        String::new(), // confidence, filled by the caller
        format!("{:.6}", tally.draw_rate()),
        format!("{:.6}", tally.cap_draws as f64 / games),
        format!("{:.3}", tally.mean_turns().unwrap_or(0.0)),
    ])
    .collect()
}

/// Writes search.csv, whole or not at all.
fn write_search(dir: &Path, view: &RaceView, record: &RaceRecord) -> Result<()> {
    let header = [
        "candidate",
        "spec",
        "level",
        "round",
        "games",
        "seat0_score",
        "seat0_score_low",
        "seat0_score_high",
        "seat0_win_rate",
        "seat0_win_rate_low",
        "seat0_win_rate_high",
        "confidence",
        "draw_rate",
        "cap_draws_rate",
        "mean_turns",
        "exact_seat0_score",
        "status",
        "left_round",
    ];
    let race_confidence = format!("{:.6}", confidence(view.looks));
    let exact = |c: usize| {
        record
            .exact
            .as_ref()
            .map_or(String::new(), |e| format!("{:.6}", e[c]))
    };
    let last = record.rounds.len() as u64;
    write_csv_whole(&dir.join(SEARCH_FILE), |w| {
        w.write_record(header)?;
        for round in &record.rounds {
            for (c, (name, spec)) in view.candidates.iter().enumerate() {
                let left = match record.status[c] {
                    Status::Out(r) => Some(r),
                    _ => None,
                };
                if left.is_some_and(|r| r < round.round) {
                    continue;
                }
                let status = match (left, record.status[c]) {
                    (Some(r), _) if r == round.round => "out",
                    (None, Status::Fairest) if round.round == last => "fairest",
                    (None, Status::WithinReach) if round.round == last => "within reach",
                    _ => "racing",
                };
                let mut row = vec![
                    name.clone(),
                    spec.clone(),
                    view.level.clone(),
                    round.round.to_string(),
                ];
                let mut numbers = figures(&round.tallies[c], record.z);
                numbers[7] = race_confidence.clone();
                row.extend(numbers);
                row.extend([
                    exact(c),
                    status.to_string(),
                    left.map_or(String::new(), |r| r.to_string()),
                ]);
                w.write_record(&row)?;
            }
        }
        let (name, spec) = &view.candidates[record.best];
        for (rung, tally) in &record.checks {
            if tally.wdl.games() == 0 {
                continue;
            }
            let mut row = vec![
                name.clone(),
                spec.clone(),
                rung.name.clone(),
                "check".to_string(),
            ];
            let mut numbers = figures(tally, Z95);
            numbers[7] = "0.950000".into();
            row.extend(numbers);
            row.extend([String::new(), "check".into(), String::new()]);
            w.write_record(&row)?;
        }
        Ok(())
    })
}

/// Draws race.svg: each candidate's last score and interval, the standing in its label.
fn chart(dir: &Path, view: &RaceView, record: &RaceRecord) -> Result<()> {
    let tallies = record.last_tallies();
    let mut labels = Vec::new();
    let (mut values, mut lows, mut highs) = (Vec::new(), Vec::new(), Vec::new());
    let mut legend = Vec::new();
    for (c, (name, _)) in view.candidates.iter().enumerate() {
        let s = Score::of(&tallies[c].wdl, record.z).expect("every candidate played");
        let standing = match record.status[c] {
            Status::Out(r) => format!("out r{r}"),
            Status::Fairest => "FAIREST".into(),
            Status::WithinReach => "in reach".into(),
            Status::Racing => "racing".into(),
        };
        labels.push(format!("{name} {standing}"));
        values.push(s.value);
        lows.push(s.low);
        highs.push(s.high);
        let exact = record.exact.as_ref().map_or(String::new(), |e| {
            format!(" (exact seat-0 score {:.2}%)", 100.0 * e[c])
        });
        legend.push(format!("{name}: {}{exact}", picks_text(view, c, ", ")));
    }
    let title = format!(
        "Seat 0's score of each candidate at {}, its last interval ({:.3}%)",
        view.level,
        100.0 * confidence(view.looks)
    );
    IntervalChart {
        title: &title,
        axis: "seat 0's score",
        reference: Some(0.5),
        labels: &labels,
        values: &values,
        lows: &lows,
        highs: &highs,
        legend: &legend,
    }
    .draw(&dir.join(RACE_SVG))
}
