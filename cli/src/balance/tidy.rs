//! balance.csv: one row per measurement, columns
//! `variant,level,agent,opponent,statistic,value,low,high` (see results/README.md for
//! each statistic). Numbers are written as summary.csv writes them: rates, shares and
//! scores with four decimals, p-values likewise down to 0.0001 and in scientific
//! notation below, lengths and means with two decimals, Elo with one, counts as
//! integers; a value that is undefined (no decisive game) is empty, and `low` and
//! `high` are empty where the statistic has no interval. Differences are written as
//! rates (four decimals, a fraction of 1, signed).
//!
//! Row order: arm by arm, rung by rung, a rung's self-play rows, then its step's
//! (`opponent` the previous rung), then for a variant its comparison with the base arm
//! at that rung (`opponent` the base arm's game spec); after the strongest rung, the
//! change between the two strongest (`opponent` the rung below).

use std::path::Path;

use anyhow::Result;
use serde::Serialize;

use super::measure::{change_top, compare, ArmMeasures, Difference, Level};
use crate::no_follow::write_csv_whole;
use crate::reporting::stats::{format_elo, format_p_value, format_rate};
use crate::reporting::summary::{format_length, Interval};

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
    /// Empty for self-play; the previous rung's label for a step's rows and for the
    /// change between the two strongest rungs; the base arm's game spec for a
    /// comparison with it.
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

/// A p-value without an interval; empty when undefined.
fn p_value(p: Option<f64>) -> [String; 3] {
    plain(p.map(format_p_value).unwrap_or_default())
}

/// A difference's value and interval, then its p-value; all empty when undefined.
fn difference(d: Option<Difference>) -> [[String; 3]; 2] {
    [rate(d.map(|d| d.interval())), p_value(d.map(|d| d.p_value))]
}

/// The rows of balance.csv for `arms`, the base arm first (see the module docs for
/// their order).
pub fn rows(arms: &[ArmMeasures]) -> Vec<BalanceRow> {
    let mut rows = Vec::new();
    let Some(base) = arms.first() else {
        return rows;
    };
    for (a, arm) in arms.iter().enumerate() {
        let comparisons = if a > 0 {
            compare(base, arm)
        } else {
            Vec::new()
        };
        for (l, level) in arm.levels.iter().enumerate() {
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
                push(
                    previous,
                    "short_decisive_rate",
                    rate(step.short_decisive_rate()),
                );
            }
            let compared = comparisons.iter().find(|(c, _)| c.number == level.number);
            if let Some((_, comparison)) = compared {
                let [win_rate, win_p] = difference(comparison.win_rate);
                let [score, score_p] = difference(comparison.score);
                push(&base.variant, "seat0_win_rate_difference", win_rate);
                push(&base.variant, "seat0_win_rate_difference_p_value", win_p);
                push(&base.variant, "seat0_score_difference", score);
                push(&base.variant, "seat0_score_difference_p_value", score_p);
            }
            if l > 0 && l + 1 == arm.levels.len() {
                let below = &arm.levels[l - 1].agent;
                let [change, p] = difference(change_top(arm));
                push(below, "seat0_win_rate_change_top", change);
                push(below, "seat0_win_rate_change_top_p_value", p);
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
            p_value(m.seat0.win_rate.map(|w| w.p_value)),
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
            p_value(first.and_then(|f| f.win_rate).map(|w| w.p_value)),
        ));
        fields.push(("swap_rate".to_string(), rate(m.swap_rate)));
    }
    fields.push((
        "short_decisive_rate".to_string(),
        rate(m.short_decisive_rate()),
    ));
    let without = &m.seat0_without_short;
    fields.push((
        "seat0_win_rate_without_short".to_string(),
        rate(without.win_rate.map(|w| w.rate)),
    ));
    fields.push((
        "seat0_p_value_without_short".to_string(),
        p_value(without.win_rate.map(|w| w.p_value)),
    ));
    fields.push(("seat0_score_without_short".to_string(), rate(without.score)));
    if pie {
        let first = m.first_side_without_short.and_then(|f| f.win_rate);
        fields.push((
            "first_side_win_rate_without_short".to_string(),
            rate(first.map(|w| w.rate)),
        ));
        fields.push((
            "first_side_p_value_without_short".to_string(),
            p_value(first.map(|w| w.p_value)),
        ));
    }
    fields.push(("draw_rate".to_string(), rate(m.share(m.draws))));
    fields.push(("cap_draw_rate".to_string(), rate(m.share(m.cap_draws))));
    for (reason, &count) in &m.ends {
        fields.push((format!("end_rate:{reason}"), rate(m.share(count))));
    }
    let turns = |f: fn(&crate::reporting::stats::lengths::LengthStats) -> f64| {
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
    write_csv_whole(&dir.join(BALANCE_FILE), |w| {
        for row in rows {
            w.serialize(row)?;
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::balance::measure::{example_step_rows, Replay, SelfPlay, Shape, Step};
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
        // Game 0, a win, ended within two decisions of its opening.
        let mut replay = Replay::none(&games);
        replay.shape = shape;
        replay.short[0] = true;
        // A step of "x" against "w": pairs WW, WL, WD (as measure's step test); its
        // game 0, a win of x, short too.
        let step_rows = example_step_rows("x");
        let mut replay_step = Replay::none(&step_rows);
        replay_step.short[0] = true;
        let arm = ArmMeasures {
            variant: "g:k=1".into(),
            pie: false,
            levels: vec![Level {
                rung: "A2".into(),
                number: 2,
                agent: "x".into(),
                self_play: SelfPlay::of(&games, false, &replay).unwrap(),
                step: Some(("w".into(), Step::of(&step_rows, &replay_step).unwrap())),
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
        // upsets 1/6, Wilson [0.0301, 0.5635]. Short games: 1 of 3 decisive, Wilson
        // [0.0615, 0.7923]; without it W 1, D 1, L 1: 1/2, Wilson [0.0945, 0.9055],
        // exact p 1, score 0.5 ± 1.959964·sqrt((0.25 + 0 + 0.25)/3/3) → [0.0380,
        // 0.9620]. The step's: 1 of 5 decisive, Wilson [0.0362, 0.6245].
        assert_eq!(
            text,
            "variant,level,agent,opponent,statistic,value,low,high\n\
             g:k=1,2,x,,games,4,,\n\
             g:k=1,2,x,,distinct_games,4,,\n\
             g:k=1,2,x,,seat0_win_rate,0.6667,0.2077,0.9385\n\
             g:k=1,2,x,,seat0_p_value,1.0000,,\n\
             g:k=1,2,x,,seat0_score,0.6250,0.2187,1.0000\n\
             g:k=1,2,x,,short_decisive_rate,0.3333,0.0615,0.7923\n\
             g:k=1,2,x,,seat0_win_rate_without_short,0.5000,0.0945,0.9055\n\
             g:k=1,2,x,,seat0_p_value_without_short,1.0000,,\n\
             g:k=1,2,x,,seat0_score_without_short,0.5000,0.0380,0.9620\n\
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
             g:k=1,2,x,w,upset_rate,0.1667,0.0301,0.5635\n\
             g:k=1,2,x,w,short_decisive_rate,0.2000,0.0362,0.6245\n"
        );
    }

    #[test]
    fn variants_compared_and_the_change_at_the_top_are_rows_too() {
        use crate::balance::measure::example_level;
        let arm = |variant: &str, levels| ArmMeasures {
            variant: variant.into(),
            pie: false,
            levels,
        };
        let arms = [
            arm(
                "g:k=1",
                vec![
                    example_level("L1", 1, [10, 0, 10, 0]),
                    example_level("L2", 2, [20, 10, 10, 0]),
                ],
            ),
            arm(
                "g:k=2",
                vec![
                    example_level("L1", 1, [12, 0, 8, 0]),
                    example_level("L2", 2, [33, 5, 2, 3]),
                ],
            ),
        ];
        let mut w = csv::Writer::from_writer(Vec::new());
        for row in rows(&arms) {
            if row.statistic.contains("difference") || row.statistic.contains("change_top") {
                w.serialize(row).unwrap();
            }
        }
        let text = String::from_utf8(w.into_inner().unwrap()).unwrap();
        // Base: 10 of 20 at L1 to 20 of 30 at L2, +0.166667; a win and a loss added,
        // 11/22 and 21/32: se = sqrt(0.25/22 + 0.225586/32) = 0.135695, ± 0.265958,
        // p = erfc(0.166667/(se·√2)) = 0.2194. Variant against base (verdict's test):
        // at L1 0.1 ± 0.293025 (p 0.5036) for the rate and the score; at L2 without
        // the 3 short wins 0.270833 ± 0.190188 (p 0.0053) and 0.253378 ± 0.157798
        // (p 0.0016). Its own change: 12 of 20 to 30 of 32, +0.3375; added, 13/22 and
        // 31/34: se = sqrt(0.241736/22 + 0.080450/34) = 0.115560, ± 0.226495,
        // p 0.0035.
        assert_eq!(
            text,
            "variant,level,agent,opponent,statistic,value,low,high\n\
             g:k=1,2,x2,x1,seat0_win_rate_change_top,0.1667,-0.0993,0.4326\n\
             g:k=1,2,x2,x1,seat0_win_rate_change_top_p_value,0.2194,,\n\
             g:k=2,1,x1,g:k=1,seat0_win_rate_difference,0.1000,-0.1930,0.3930\n\
             g:k=2,1,x1,g:k=1,seat0_win_rate_difference_p_value,0.5036,,\n\
             g:k=2,1,x1,g:k=1,seat0_score_difference,0.1000,-0.1930,0.3930\n\
             g:k=2,1,x1,g:k=1,seat0_score_difference_p_value,0.5036,,\n\
             g:k=2,2,x2,g:k=1,seat0_win_rate_difference,0.2708,0.0806,0.4610\n\
             g:k=2,2,x2,g:k=1,seat0_win_rate_difference_p_value,0.0053,,\n\
             g:k=2,2,x2,g:k=1,seat0_score_difference,0.2534,0.0956,0.4112\n\
             g:k=2,2,x2,g:k=1,seat0_score_difference_p_value,0.0016,,\n\
             g:k=2,2,x2,x1,seat0_win_rate_change_top,0.3375,0.1110,0.5640\n\
             g:k=2,2,x2,x1,seat0_win_rate_change_top_p_value,0.0035,,\n"
        );
        // The rows sit after their rung's self-play rows: the base's change closes L2.
        let all = rows(&arms);
        let change = all
            .iter()
            .position(|r| r.statistic == "seat0_win_rate_change_top")
            .unwrap();
        assert_eq!(all[change - 1].statistic, "games_for_2_points");
        assert_eq!(
            (all[change + 2].variant.as_str(), all[change + 2].level),
            ("g:k=2", 1)
        );
    }
}
