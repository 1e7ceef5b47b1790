//! What a study prints: per arm a table of its rungs and steps, and one line starting
//! with `verdict:` that answers the designer's question in words, with the numbers.
//!
//! The verdict says, for the strongest rung studied, whether moving first helps (seat 0's
//! win rate over decisive games differs from 50% at the 5% level of the exact binomial
//! test), hurts, or was not shown to matter, with the interval and p-value (on a pie
//! game, also the first side's rate and the swap rate, as the seat alone hides the
//! answer there); then whether the advantage grows, shrinks, changes sides or
//! stays from the first rung to the last (a two-sided z-test at 5% of the difference of the two win rates,
//! taken as independent); then the widest seat-0 interval reached and how many more
//! games per rung would narrow every one to ±2 points; then warnings: games that repeat
//! (fewer than 90% distinct at some rung, all such rungs in one line) and intervals too wide to conclude (no significant answer
//! with a half-width above 5 points).

use super::measure::{ArmMeasures, Level, SelfPlay};
use crate::report::{format_length, grid, header, Interval};
use crate::stats::{format_p_value, format_rate, Z95};

/// The significance level of the verdict's tests.
const ALPHA: f64 = 0.05;

/// The half-width above which an inconclusive answer is called too wide to conclude.
const TOO_WIDE: f64 = 0.05;

/// `value [low, high]` of a proportion, or `-`.
fn cell(interval: Option<Interval>) -> String {
    interval.map_or("-".into(), |i| {
        format!(
            "{} [{}, {}]",
            format_rate(i.value),
            format_rate(i.low),
            format_rate(i.high)
        )
    })
}

/// A proportion in percent with one decimal.
fn percent(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// The printed table of an arm: its heading line, a row per rung's self-play, and a row
/// per step.
pub fn table(arm: &ArmMeasures) -> String {
    let mut names = vec![
        "level",
        "agent",
        "games",
        "distinct",
        "seat-0 win rate [95%]",
        "p (50%)",
        "seat-0 score [95%]",
    ];
    if arm.pie {
        names.extend(["first side win rate [95%]", "swap rate"]);
    }
    names.extend([
        "draws",
        "cap draws",
        "turns q1-median-q3",
        "branching",
        "choice",
    ]);
    let mut cells = vec![header(&names)];
    for level in &arm.levels {
        let m = &level.self_play;
        let win_rate = m.seat0.win_rate;
        let mut row = vec![
            level.rung.clone(),
            level.agent.clone(),
            m.games.to_string(),
            m.distinct.to_string(),
            cell(win_rate.map(|w| w.rate)),
            win_rate.map_or("-".into(), |w| format_p_value(w.p_value)),
            cell(m.seat0.score),
        ];
        if arm.pie {
            row.push(cell(m.first_side.and_then(|f| f.win_rate).map(|w| w.rate)));
            row.push(m.swap_rate.map_or("-".into(), |s| format_rate(s.value)));
        }
        row.extend([
            m.draws.to_string(),
            m.cap_draws.to_string(),
            m.turns.map_or("-".into(), |t| {
                format!(
                    "{}-{}-{}",
                    format_length(t.q1),
                    format_length(t.median),
                    format_length(t.q3)
                )
            }),
            m.shape.branching_mean().map_or("-".into(), format_length),
            m.shape.decision_share().map_or("-".into(), format_rate),
        ]);
        cells.push(row);
    }
    let mut text = format!(
        "{}: self-play at each level\n{}",
        arm.variant,
        grid(&cells, 2)
    );
    let steps: Vec<&Level> = arm.levels.iter().filter(|l| l.step.is_some()).collect();
    if !steps.is_empty() {
        let mut cells = vec![header(&[
            "step",
            "games",
            "W-D-L",
            "score vs previous [95%, pairs]",
            "upset rate [95%]",
        ])];
        for level in steps {
            let (previous, step) = level.step.as_ref().expect("filtered on a step");
            cells.push(vec![
                format!("{} vs {previous}", level.agent),
                step.games.to_string(),
                format!("{}-{}-{}", step.wdl.wins, step.wdl.draws, step.wdl.losses),
                cell(step.score),
                cell(step.upset_rate()),
            ]);
        }
        text.push_str(&format!(
            "\n{}: each level against the previous one\n{}",
            arm.variant,
            grid(&cells, 2)
        ));
    }
    text
}

/// The `verdict:` line of an arm (see the module docs).
pub fn verdict(arm: &ArmMeasures) -> String {
    let mut parts = vec![headline(arm)];
    if let Some(trend) = trend(arm) {
        parts.push(trend);
    }
    parts.push(precision(arm));
    parts.extend(warnings(arm));
    format!("verdict: {}: {}", arm.variant, parts.join("; "))
}

/// Whether moving first helps at the strongest rung.
fn headline(arm: &ArmMeasures) -> String {
    let Some(top) = arm.levels.last() else {
        return "no level was studied".into();
    };
    let m = &top.self_play;
    let Some(w) = m.seat0.win_rate else {
        return format!(
            "at {} no game was decisive ({} drawn), so the first move's effect is unknown",
            top.rung, m.draws
        );
    };
    let what = if w.p_value >= ALPHA {
        "no first-move advantage is shown"
    } else if w.rate.value > 0.5 {
        "moving first helps"
    } else {
        "moving first hurts"
    };
    let mut text = format!(
        "{what}: at {} seat 0 wins {} of decisive games [{}, {}] (p {}), scores {}, draws {}",
        top.rung,
        percent(w.rate.value),
        percent(w.rate.low),
        percent(w.rate.high),
        format_p_value(w.p_value),
        m.seat0.score.map_or("-".into(), |s| percent(s.value)),
        m.share(m.draws).map_or("-".into(), |d| percent(d.value)),
    );
    if arm.pie {
        let first = m.first_side.and_then(|f| f.win_rate);
        text.push_str(&format!(
            "; with the pie rule the first side wins {} [{}] of decisive games and {} of games \
             swap",
            first.map_or("-".into(), |f| percent(f.rate.value)),
            first.map_or("-".into(), |f| format!(
                "{}, {}",
                percent(f.rate.low),
                percent(f.rate.high)
            )),
            m.swap_rate.map_or("-".into(), |s| percent(s.value)),
        ));
    }
    text
}

/// Whether the advantage grows, shrinks or stays from the first rung to the last;
/// `None` with fewer than two rungs or without decisive games at either end.
fn trend(arm: &ArmMeasures) -> Option<String> {
    if arm.levels.len() < 2 {
        return None;
    }
    let (first, last) = (&arm.levels[0], arm.levels.last()?);
    let (a, na) = rate_and_decisive(&first.self_play)?;
    let (b, nb) = rate_and_decisive(&last.self_play)?;
    let difference = b - a;
    let se = (a * (1.0 - a) / na + b * (1.0 - b) / nb).sqrt();
    let margin = Z95 * se;
    let points = |x: f64| format!("{:+.1}", 100.0 * x);
    let from_to = format!(
        "from {} at {} to {} at {} ({} ± {:.1} points)",
        percent(a),
        first.rung,
        percent(b),
        last.rung,
        points(difference),
        100.0 * margin
    );
    Some(if difference.abs() > margin && se > 0.0 {
        let change = if (a - 0.5) * (b - 0.5) < 0.0 {
            "changes sides"
        } else if (b - 0.5).abs() > (a - 0.5).abs() {
            "grows"
        } else {
            "shrinks"
        };
        format!("as play gets stronger the seat-0 advantage {change} {from_to}, beyond chance")
    } else {
        format!("as play gets stronger it stays within chance, {from_to}")
    })
}

/// Seat 0's win rate and decisive games of a self-play, if any game was decisive.
fn rate_and_decisive(m: &SelfPlay) -> Option<(f64, f64)> {
    let w = m.seat0.win_rate?;
    Some((w.rate.value, m.seat0.wdl.decisive() as f64))
}

/// The widest seat-0 interval and the games that would narrow them all to ±2 points.
fn precision(arm: &ArmMeasures) -> String {
    let widest = arm
        .levels
        .iter()
        .filter_map(|l| l.self_play.seat0_half_width())
        .fold(None, |w: Option<f64>, x| Some(w.map_or(x, |w| w.max(x))));
    let more = arm
        .levels
        .iter()
        .filter_map(|l| {
            let m = &l.self_play;
            m.games_for_two_points().map(|n| n.saturating_sub(m.games))
        })
        .max();
    match (widest, more) {
        (Some(w), Some(0)) => format!(
            "seat-0 intervals reach ±{:.1} points, within the ±2 aimed at",
            100.0 * w
        ),
        (Some(w), Some(n)) => format!(
            "seat-0 intervals reach ±{:.1} points; about {n} more games per level would \
             narrow them to ±2",
            100.0 * w
        ),
        _ => "no seat-0 interval (no decisive games)".into(),
    }
}

/// Warnings: repeated games, and intervals too wide to conclude.
fn warnings(arm: &ArmMeasures) -> Vec<String> {
    let mut warnings = Vec::new();
    let repeated: Vec<String> = arm
        .levels
        .iter()
        .filter(|level| level.self_play.distinct * 10 < level.self_play.games * 9)
        .map(|level| {
            let m = &level.self_play;
            format!("{} of {} at {}", m.distinct, m.games, level.rung)
        })
        .collect();
    if !repeated.is_empty() {
        warnings.push(format!(
            "warning: games repeat (distinct games: {}), so the intervals are too narrow \
             (vary the start with --random-opening or --openings, or give the agents noise)",
            repeated.join(", ")
        ));
    }
    let inconclusive = arm.levels.last().is_some_and(|top| {
        let m = &top.self_play;
        m.seat0.win_rate.map_or(true, |w| w.p_value >= ALPHA)
            && m.seat0_half_width().map_or(true, |h| h > TOO_WIDE)
    });
    if inconclusive {
        warnings.push(format!(
            "warning: the intervals are too wide to conclude (more than ±{:.0} points); \
             play more games",
            100.0 * TOO_WIDE
        ));
    }
    warnings
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::balance::measure::Shape;
    use crate::record::{GameRow, Result0};

    /// A rung whose self-play seat 0 won `wins` and lost `losses` games, `distinct` of
    /// them different.
    fn level(rung: &str, wins: usize, losses: usize, distinct: usize) -> Level {
        let rows: Vec<GameRow> = (0..wins + losses)
            .map(|g| {
                let result = if g < wins {
                    Result0::Win
                } else {
                    Result0::Loss
                };
                let mut row = GameRow::example(g as u64, 0, ["x", "x"], result, 9);
                row.moves = format!("m{}", g % distinct);
                row
            })
            .collect();
        Level {
            rung: rung.into(),
            number: 1,
            agent: "x".into(),
            self_play: SelfPlay::of(&rows, false, Shape::default()).unwrap(),
            step: None,
        }
    }

    fn arm(levels: Vec<Level>) -> ArmMeasures {
        ArmMeasures {
            variant: "g".into(),
            pie: false,
            levels,
        }
    }

    #[test]
    fn the_verdict_says_what_the_numbers_show() {
        // 10 of 20 at L2, 19 of 20 at L3: p = 2·21/2^20 = 4.01e-5 at L3; the difference
        // 45 points against 1.959964·sqrt(0.25/20 + 0.0475/20) = 23.9 points. The widest
        // interval is L2's: 1.959964/1.192073 · sqrt(0.0125 + 0.002401) = 20.1 points.
        let grows = verdict(&arm(vec![level("L2", 10, 10, 20), level("L3", 19, 1, 20)]));
        assert!(
            grows.starts_with(
                "verdict: g: moving first helps: at L3 seat 0 wins 95.0% of decisive games \
                 [76.4%, 99.1%] (p 4.01e-5), scores 95.0%, draws 0.0%; as play gets stronger \
                 the seat-0 advantage grows from 50.0% at L2 to 95.0% at L3 (+45.0 ± 23.9 \
                 points), beyond chance; seat-0 intervals reach ±20.1 points; about "
            ),
            "{grows}"
        );
        assert!(!grows.contains("warning"), "{grows}");
        // 15 of 20, then 3 of 20: the advantage changes seat.
        let turns = verdict(&arm(vec![level("L2", 15, 5, 20), level("L3", 3, 17, 20)]));
        assert!(turns.contains("moving first hurts: at L3"), "{turns}");
        assert!(
            turns.contains("the seat-0 advantage changes sides"),
            "{turns}"
        );
        // 11 of 20 twice, half of the games repeated: nothing shown, and both warnings.
        let open = verdict(&arm(vec![level("L2", 11, 9, 10), level("L3", 11, 9, 20)]));
        assert!(open.contains("no first-move advantage is shown"), "{open}");
        assert!(open.contains("it stays within chance"), "{open}");
        assert!(
            open.contains("warning: games repeat (distinct games: 10 of 20 at L2), so"),
            "{open}"
        );
        assert!(
            open.ends_with(
                "warning: the intervals are too wide to conclude (more than ±5 points); play \
                 more games"
            ),
            "{open}"
        );
    }
}
