//! balance.csv: one row per measurement, columns
//! `variant,level,agent,opponent,statistic,value,low,high` (see results/README.md for
//! each statistic). Numbers are written as summary.csv writes them: rates, shares and
//! scores with four decimals, p-values likewise down to 0.0001 and in scientific
//! notation below, lengths and means with two decimals, Elo with one, counts as
//! integers; a value that is undefined (no decisive game) is empty, and `low` and
//! `high` are empty where the statistic has no interval.

use std::path::Path;

use anyhow::{Context, Result};
use serde::Serialize;

use super::measure::{ArmMeasures, Level};
use crate::record::temporary_path;
use crate::report::{format_length, Interval};
use crate::stats::{format_elo, format_p_value, format_rate};

/// Name of the tidy file of a study's measurements.
pub const BALANCE_FILE: &str = "balance.csv";

/// One row of balance.csv.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BalanceRow {
    /// The arm's canonical game spec.
    pub variant: String,
    /// The rung's level (`L<k>`: k) or place (`A<i>`: i).
    pub level: usize,
    /// The rung's agent label.
    pub agent: String,
    /// The previous rung's label for a step's rows; empty for self-play.
    pub opponent: String,
    /// What is measured.
    pub statistic: String,
    /// The estimate.
    pub value: String,
    /// Lower end of its 95% interval.
    pub low: String,
    /// Upper end of its 95% interval.
    pub high: String,
}

/// A value without an interval.
fn plain(value: String) -> [String; 3] {
    [value, String::new(), String::new()]
}

/// A proportion with its interval; all empty when undefined.
fn rate(interval: Option<Interval>) -> [String; 3] {
    interval.map_or_else(Default::default, |i| {
        [
            format_rate(i.value),
            format_rate(i.low),
            format_rate(i.high),
        ]
    })
}

/// The rows of balance.csv for `arms`, arm by arm, rung by rung: the self-play rows,
/// then the step's.
pub fn rows(arms: &[ArmMeasures]) -> Vec<BalanceRow> {
    let mut rows = Vec::new();
    for arm in arms {
        for level in &arm.levels {
            let mut push = |opponent: &str, statistic: &str, [value, low, high]: [String; 3]| {
                rows.push(BalanceRow {
                    variant: arm.variant.clone(),
                    level: level.number,
                    agent: level.agent.clone(),
                    opponent: opponent.to_string(),
                    statistic: statistic.to_string(),
                    value,
                    low,
                    high,
                })
            };
            for (statistic, fields) in self_play_fields(arm.pie, level) {
                push("", &statistic, fields);
            }
            if let Some((previous, step)) = &level.step {
                push(previous, "games", plain(step.games.to_string()));
                push(previous, "score_vs_previous", rate(step.score));
                let elo = step.elo.map_or_else(Default::default, |e| {
                    [format_elo(e.elo), format_elo(e.low), format_elo(e.high)]
                });
                push(previous, "elo_vs_previous", elo);
                push(previous, "upset_rate", rate(step.upset_rate()));
            }
        }
    }
    rows
}

/// A rung's self-play statistics with their fields, in balance.csv's order.
fn self_play_fields(pie: bool, level: &Level) -> Vec<(String, [String; 3])> {
    let m = &level.self_play;
    let mut fields = vec![
        ("games".to_string(), plain(m.games.to_string())),
        ("distinct_games".to_string(), plain(m.distinct.to_string())),
        (
            "seat0_win_rate".to_string(),
            rate(m.seat0.win_rate.map(|w| w.rate)),
        ),
        (
            "seat0_p_value".to_string(),
            plain(
                m.seat0
                    .win_rate
                    .map(|w| format_p_value(w.p_value))
                    .unwrap_or_default(),
            ),
        ),
        ("seat0_score".to_string(), rate(m.seat0.score)),
    ];
    if pie {
        let first = m.first_side.as_ref();
        fields.push((
            "first_side_win_rate".to_string(),
            rate(first.and_then(|f| f.win_rate).map(|w| w.rate)),
        ));
        fields.push((
            "first_side_p_value".to_string(),
            plain(
                first
                    .and_then(|f| f.win_rate)
                    .map(|w| format_p_value(w.p_value))
                    .unwrap_or_default(),
            ),
        ));
        fields.push(("swap_rate".to_string(), rate(m.swap_rate)));
    }
    fields.push(("draw_rate".to_string(), rate(m.share(m.draws))));
    fields.push(("cap_draw_rate".to_string(), rate(m.share(m.cap_draws))));
    for (reason, &count) in &m.ends {
        fields.push((format!("end_rate:{reason}"), rate(m.share(count))));
    }
    let turns = |f: fn(&crate::stats::lengths::LengthStats) -> f64| {
        plain(
            m.turns
                .as_ref()
                .map(|t| format_length(f(t)))
                .unwrap_or_default(),
        )
    };
    fields.push(("turns_mean".to_string(), turns(|t| t.mean)));
    fields.push(("turns_median".to_string(), turns(|t| t.median)));
    fields.push(("turns_q1".to_string(), turns(|t| t.q1)));
    fields.push(("turns_q3".to_string(), turns(|t| t.q3)));
    fields.push((
        "branching_mean".to_string(),
        plain(
            m.shape
                .branching_mean()
                .map(format_length)
                .unwrap_or_default(),
        ),
    ));
    fields.push((
        "decision_share".to_string(),
        plain(
            m.shape
                .decision_share()
                .map(format_rate)
                .unwrap_or_default(),
        ),
    ));
    fields.push((
        "games_for_2_points".to_string(),
        plain(
            m.games_for_two_points()
                .map(|n| n.to_string())
                .unwrap_or_default(),
        ),
    ));
    fields
}

/// Writes balance.csv into `dir` (through a temporary file, renamed into place).
pub fn write_balance(dir: &Path, rows: &[BalanceRow]) -> Result<()> {
    let path = dir.join(BALANCE_FILE);
    let temporary = temporary_path(&path);
    let mut w = csv::Writer::from_path(&temporary)
        .with_context(|| format!("cannot create {}", temporary.display()))?;
    for row in rows {
        w.serialize(row)?;
    }
    w.flush()
        .with_context(|| format!("cannot write {}", temporary.display()))?;
    drop(w);
    std::fs::rename(&temporary, &path).with_context(|| {
        format!(
            "cannot rename {} to {}",
            temporary.display(),
            path.display()
        )
    })
}
