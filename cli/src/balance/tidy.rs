//! balance.csv: one row per measurement, columns
//! `variant,level,agent,opponent,statistic,value,low,high` (see results/README.md for
//! each statistic). Numbers are written as summary.csv writes them: rates, shares and
//! scores with four decimals, p-values likewise down to 0.0001 and in scientific
//! notation below, lengths and means with two decimals, Elo with one, counts as
//! integers; a value that is undefined (no decisive game) is empty, and `low` and
//! `high` are empty where the statistic has no interval.

use std::path::Path;

use anyhow::Result;
use serde::Serialize;

use super::folder::write_whole;
use super::measure::{ArmMeasures, Level};
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

/// Writes balance.csv into `dir`, whole or not at all.
pub fn write_balance(dir: &Path, rows: &[BalanceRow]) -> Result<()> {
    write_whole(&dir.join(BALANCE_FILE), |w| {
        for row in rows {
            w.serialize(row)?;
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::balance::measure::{example_step_rows, SelfPlay, Shape, Step};
    use crate::record::{GameRow, Result0};

    #[test]
    fn the_rows_are_the_hand_computed_statistics_formatted_as_summary_csv() {
        use Result0::*;
        // Self-play of "x": seat 0 wins 2, loses 1, draws 1 by the cap; 10, 20, 30, 40
        // turns; 10 decision nodes with 25 legal moves, 8 of them with a choice.
        let games: Vec<GameRow> = [(Win, 10), (Win, 20), (Loss, 30), (Draw, 40)]
            .iter()
            .enumerate()
            .map(|(g, &(result, turns))| {
                let mut row = GameRow::example(g as u64, 0, ["x", "x"], result, turns);
                row.moves = format!("m{g}");
                if result == Draw {
                    row.end_reason = "cap".into();
                }
                row
            })
            .collect();
        let shape = Shape {
            decisions: 10,
            legal: 25,
            choices: 8,
        };
        // A step of "x" against "w": pairs WW, WL, WD (as measure's step test).
        let step_rows = example_step_rows("x");
        let arm = ArmMeasures {
            variant: "g:k=1".into(),
            pie: false,
            levels: vec![Level {
                rung: "A2".into(),
                number: 2,
                agent: "x".into(),
                self_play: SelfPlay::of(&games, false, shape).unwrap(),
                step: Some(("w".into(), Step::of(&step_rows).unwrap())),
            }],
        };
        let mut w = csv::Writer::from_writer(Vec::new());
        for row in rows(&[arm]) {
            w.serialize(row).unwrap();
        }
        let text = String::from_utf8(w.into_inner().unwrap()).unwrap();
        // Win rate 2/3, Wilson [0.2077, 0.9385], exact p = 2·(1 + 3)/8 → 1; score
        // 2.5/4 = 0.625 ± 1.959964·sqrt(0.171875/4) = ± 0.4063 → [0.2187, 1];
        // draws and cap draws 1/4, Wilson [0.0456, 0.6994]; eliminations 3/4, Wilson
        // [0.3006, 0.9544]; turns mean and median 25, q1 10 + 0.75·10, q3 30 + 0.25·10;
        // branching 25/10, choices 8/10; games for ±2 points
        // ceil(3.841459 · 2/9 / 0.0004 / 0.75) = 2846. Step: pair scores 1, 0.5, 0.75,
        // 0.75 ± 1.959964·sqrt(0.041667/3) → [0.5190, 0.9810], Elo 190.8 [13.2, 685.0];
        // upsets 1/6, Wilson [0.0301, 0.5635].
        assert_eq!(
            text,
            "variant,level,agent,opponent,statistic,value,low,high\n\
             g:k=1,2,x,,games,4,,\n\
             g:k=1,2,x,,distinct_games,4,,\n\
             g:k=1,2,x,,seat0_win_rate,0.6667,0.2077,0.9385\n\
             g:k=1,2,x,,seat0_p_value,1.0000,,\n\
             g:k=1,2,x,,seat0_score,0.6250,0.2187,1.0000\n\
             g:k=1,2,x,,draw_rate,0.2500,0.0456,0.6994\n\
             g:k=1,2,x,,cap_draw_rate,0.2500,0.0456,0.6994\n\
             g:k=1,2,x,,end_rate:cap,0.2500,0.0456,0.6994\n\
             g:k=1,2,x,,end_rate:elimination,0.7500,0.3006,0.9544\n\
             g:k=1,2,x,,turns_mean,25.00,,\n\
             g:k=1,2,x,,turns_median,25.00,,\n\
             g:k=1,2,x,,turns_q1,17.50,,\n\
             g:k=1,2,x,,turns_q3,32.50,,\n\
             g:k=1,2,x,,branching_mean,2.50,,\n\
             g:k=1,2,x,,decision_share,0.8000,,\n\
             g:k=1,2,x,,games_for_2_points,2846,,\n\
             g:k=1,2,x,w,games,6,,\n\
             g:k=1,2,x,w,score_vs_previous,0.7500,0.5190,0.9810\n\
             g:k=1,2,x,w,elo_vs_previous,190.8,13.2,685.0\n\
             g:k=1,2,x,w,upset_rate,0.1667,0.0301,0.5635\n"
        );
    }
}
