//! What a study prints: per arm a table of its rungs and steps, and one line starting
//! with `verdict:` that answers the designer's question in words, with the numbers; for
//! each variant a second `verdict:` line comparing it with the base game.
//!
//! **Which figure leads.** At a rung where more than 1% of the decisive games are short
//! (decided within two decisions of the opening's last move, see
//! [`super::measure::SHORT_DECISIONS`]), the verdict says so and leads with seat 0's
//! figures without the short games; elsewhere with the figures of all games. Every
//! comparison (the trend, the change at the top, the variants) is on the figures
//! without the short games, which equal the plain ones where no game is short.
//!
//! The arm's verdict says, in this order:
//! - for the strongest rung studied, whether moving first helps (seat 0's win rate over
//!   decisive games differs from 50% at the 5% level of the exact binomial test), hurts,
//!   or was not shown to matter, with the interval and p-value (on a pie game, also the
//!   first side's rate and the swap rate, as the seat alone hides the answer there);
//! - the other rungs with more than 1% short games;
//! - whether the advantage grows, shrinks, changes sides or stays from the first rung to
//!   the last (a two-sided z-test at 5% of the difference of the two win rates, taken as
//!   independent, each variance with a win and a loss added: [`Difference`]);
//! - whether it has settled between the two strongest rungs: not when the change is
//!   beyond chance; settled when the change's whole 95% interval lies within ±5 points;
//!   otherwise not shown either way;
//! - the widest seat-0 interval reached and how many more games per rung would narrow
//!   every one to ±2 points;
//! - warnings: games that repeat (fewer than 90% distinct at some rung, all such rungs
//!   in one line), few decisive games (fewer than 100 behind the leading figure at some
//!   rung, significant or not) and intervals too wide to conclude (no significant answer
//!   with a half-width above 5 points).
//!
//! A variant's comparison gives, at each rung from the strongest down, the difference of
//! seat 0's win rates and of its scores from the base arm's, with the 95% interval and
//! p-value, and whether it is beyond chance; the variant is named by the parameters in
//! which it differs from the base game.

use super::measure::{change_top, compare, half_width, ArmMeasures, Difference, Level, SelfPlay};
use crate::reporting::stats::{format_p_value, format_rate};
use crate::reporting::summary::{format_length, grid, header, Interval, SeatResults};

/// The significance level of the verdict's tests.
const ALPHA: f64 = 0.05;

/// The half-width above which an inconclusive answer is called too wide to conclude.
const TOO_WIDE: f64 = 0.05;

/// The share of decisive games above which short games are named and the figures
/// without them lead: 1%. Leaving out at most 1% of the decisive games moves a win rate
/// by at most about a point, so such a handful of opening accidents is left to the
/// table; more is said.
const SHORT_NOTED: f64 = 0.01;

/// Fewer decisive games than this behind a rung's leading figure earn a warning: with
/// `n` of them, turning one game around moves a rate by `1/n`, more than a point, and
/// the interval at an even split is wider than ±9.6 points.
const FEW_DECISIVE: u64 = 100;

/// The largest change between the two strongest rungs, in either direction, that the
/// verdict calls settled: the change's whole 95% interval must lie within ±5 points.
const SETTLED: f64 = 0.05;

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

/// A difference of proportions in points, signed, with one decimal: `+12.0`.
fn points(x: f64) -> String {
    format!("{:+.1}", 100.0 * x + 0.0)
}

/// A difference with its margin in points: `+12.0 ± 9.0 points`.
fn plus_minus(d: &Difference) -> String {
    format!("{} ± {:.1} points", points(d.value), 100.0 * d.margin)
}

/// `beyond chance` or `within chance`, at the 5% level.
fn chance(d: &Difference) -> &'static str {
    if d.p_value < ALPHA {
        "beyond chance"
    } else {
        "within chance"
    }
}

/// Whether a rung's short games are named and its figures without them lead.
fn short_noted(m: &SelfPlay) -> bool {
    m.short_decisive_rate()
        .is_some_and(|r| r.value > SHORT_NOTED)
}

/// The seat-0 and first-side results a rung's verdict leads with (see the module docs),
/// and whether they are the ones without the short games.
fn lead(m: &SelfPlay) -> (&SeatResults, Option<&SeatResults>, bool) {
    if short_noted(m) {
        (
            &m.seat0_without_short,
            m.first_side_without_short.as_ref(),
            true,
        )
    } else {
        (&m.seat0, m.first_side.as_ref(), false)
    }
}

/// The printed table of an arm: its heading line, a row per rung's self-play, and a row
/// per step. The short games' share of the decisive games has a column; where some rung
/// has short games, seat 0's figures without them (and on a pie game the first side's)
/// follow it.
pub fn table(arm: &ArmMeasures) -> String {
    let any_short = arm.levels.iter().any(|l| l.self_play.short > 0);
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
    names.push("short decisive");
    if any_short {
        names.extend([
            "win rate w/o short [95%]",
            "p w/o short",
            "score w/o short [95%]",
        ]);
        if arm.pie {
            names.push("first side w/o short [95%]");
        }
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
        row.push(
            m.short_decisive_rate()
                .map_or("-".into(), |r| format_rate(r.value)),
        );
        if any_short {
            let without = m.seat0_without_short.win_rate;
            row.extend([
                cell(without.map(|w| w.rate)),
                without.map_or("-".into(), |w| format_p_value(w.p_value)),
                cell(m.seat0_without_short.score),
            ]);
            if arm.pie {
                let first = m.first_side_without_short.and_then(|f| f.win_rate);
                row.push(cell(first.map(|w| w.rate)));
            }
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
            "short decisive",
        ])];
        for level in steps {
            let (previous, step) = level.step.as_ref().expect("filtered on a step");
            cells.push(vec![
                format!("{} vs {previous}", level.agent),
                step.games.to_string(),
                format!("{}-{}-{}", step.wdl.wins, step.wdl.draws, step.wdl.losses),
                cell(step.score),
                cell(step.upset_rate()),
                step.short_decisive_rate()
                    .map_or("-".into(), |r| format_rate(r.value)),
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
    parts.extend(short_below_top(arm));
    parts.extend(trend(arm));
    parts.extend(convergence(arm));
    parts.push(precision(arm));
    parts.extend(warnings(arm));
    format!("verdict: {}: {}", arm.variant, parts.join("; "))
}

/// `k% at R (s of n)`: a rung's short games.
fn short_share(level: &Level) -> String {
    let m = &level.self_play;
    format!(
        "{} at {} ({} of {})",
        m.short_decisive_rate()
            .map_or("-".into(), |r| percent(r.value)),
        level.rung,
        m.short,
        m.seat0.wdl.decisive()
    )
}

/// What short games are, in words: `end within two decisions of the opening, which
/// decided them`, or of the start where the games had no opening.
fn short_meaning(m: &SelfPlay) -> &'static str {
    if m.opened {
        "end within two decisions of the opening, which decided them"
    } else {
        "end within two decisions of the start, before the agents' play could decide them"
    }
}

/// Whether moving first helps at the strongest rung, leading with the figures without
/// the short games where they are named.
fn headline(arm: &ArmMeasures) -> String {
    let Some(top) = arm.levels.last() else {
        return "no level was studied".into();
    };
    let m = &top.self_play;
    let (seat0, first_side, without) = lead(m);
    let Some(w) = seat0.win_rate else {
        return if without {
            format!(
                "all {} decisive games at {} {}, so the first move's effect is unknown",
                m.short,
                top.rung,
                short_meaning(m)
            )
        } else {
            format!(
                "at {} no game was decisive ({} drawn), so the first move's effect is unknown",
                top.rung, m.draws
            )
        };
    };
    let what = if w.p_value >= ALPHA {
        "no first-move advantage is shown"
    } else if w.rate.value > 0.5 {
        "moving first helps"
    } else {
        "moving first hurts"
    };
    let figures = format!(
        "seat 0 wins {} of decisive games [{}, {}] (p {}), scores {}, draws {}",
        percent(w.rate.value),
        percent(w.rate.low),
        percent(w.rate.high),
        format_p_value(w.p_value),
        seat0.score.map_or("-".into(), |s| percent(s.value)),
        percent(seat0.wdl.draws as f64 / seat0.wdl.games() as f64),
    );
    let mut text = if without {
        let all = m.seat0.win_rate.expect("short games are decisive");
        let short = m.short_decisive_rate().expect("short games are decisive");
        format!(
            "{} of decisive games at {} ({} of {}) {}; without them {what}: {figures}; with \
             them seat 0 wins {} [{}, {}] (p {})",
            percent(short.value),
            top.rung,
            m.short,
            m.seat0.wdl.decisive(),
            short_meaning(m),
            percent(all.rate.value),
            percent(all.rate.low),
            percent(all.rate.high),
            format_p_value(all.p_value),
        )
    } else {
        format!("{what}: at {} {figures}", top.rung)
    };
    if arm.pie {
        let first = first_side.and_then(|f| f.win_rate);
        text.push_str(&format!(
            "; with the pie rule the first side wins {} [{}] of decisive games{} and {} of \
             games swap",
            first.map_or("-".into(), |f| percent(f.rate.value)),
            first.map_or("-".into(), |f| format!(
                "{}, {}",
                percent(f.rate.low),
                percent(f.rate.high)
            )),
            if without { " without them" } else { "" },
            m.swap_rate.map_or("-".into(), |s| percent(s.value)),
        ));
    }
    text
}

/// The rungs below the strongest with more than 1% short games, in one sentence;
/// `None` without such a rung.
fn short_below_top(arm: &ArmMeasures) -> Option<String> {
    let (_, below) = arm.levels.split_last()?;
    let noted: Vec<&Level> = below.iter().filter(|l| short_noted(&l.self_play)).collect();
    let first = noted.first()?;
    let shares: Vec<String> = noted.iter().map(|l| short_share(l)).collect();
    Some(format!(
        "{} of decisive games {} (the table gives the figures without them)",
        shares.join(" and "),
        short_meaning(&first.self_play)
    ))
}

/// ` without the short games` where either rung has short games, else nothing.
fn without_note(a: &SelfPlay, b: &SelfPlay) -> &'static str {
    if a.short > 0 || b.short > 0 {
        ", without the short games"
    } else {
        ""
    }
}

/// Whether the advantage grows, shrinks or stays from the first rung to the last;
/// `None` with fewer than two rungs or without decisive games at either end.
fn trend(arm: &ArmMeasures) -> Option<String> {
    let [first, .., last] = arm.levels.as_slice() else {
        return None;
    };
    let (a, b) = (&first.self_play, &last.self_play);
    let d = Difference::of_win_rates(&a.seat0_without_short, &b.seat0_without_short)?;
    let (ra, rb) = (rate(a)?, rate(b)?);
    let from_to = format!(
        "from {} at {} to {} at {} ({}{})",
        percent(ra),
        first.rung,
        percent(rb),
        last.rung,
        plus_minus(&d),
        without_note(a, b)
    );
    Some(if d.p_value < ALPHA {
        let change = if (ra - 0.5) * (rb - 0.5) < 0.0 {
            "changes sides"
        } else if (rb - 0.5).abs() > (ra - 0.5).abs() {
            "grows"
        } else {
            "shrinks"
        };
        format!("as play gets stronger the seat-0 advantage {change} {from_to}, beyond chance")
    } else {
        format!("as play gets stronger it stays within chance, {from_to}")
    })
}

/// Seat 0's win rate without the short games, if any other game was decisive.
fn rate(m: &SelfPlay) -> Option<f64> {
    Some(m.seat0_without_short.win_rate?.rate.value)
}

/// Whether seat 0's rate has settled between the two strongest rungs (see the module
/// docs); `None` with fewer than two rungs or without decisive games at either. With
/// exactly two rungs the trend has given the numbers, so only the judgement is said.
fn convergence(arm: &ArmMeasures) -> Option<String> {
    let d = change_top(arm)?;
    let [.., below, top] = arm.levels.as_slice() else {
        return None;
    };
    let judgement = if d.p_value < ALPHA {
        "not settled; a stronger level could change the answer".to_string()
    } else if d.value.abs() + d.margin > SETTLED {
        format!(
            "within chance, but a change of up to {:.1} points is not ruled out, so it is \
             not shown settled; more games would tell",
            100.0 * (d.value.abs() + d.margin)
        )
    } else {
        format!(
            "settled (the whole interval within ±{:.0} points)",
            100.0 * SETTLED
        )
    };
    Some(if arm.levels.len() == 2 {
        format!("this is the change between the two strongest levels: {judgement}")
    } else {
        format!(
            "between {} and {} seat 0's rate moved by {}{}: {judgement}",
            below.rung,
            top.rung,
            plus_minus(&d),
            without_note(&below.self_play, &top.self_play)
        )
    })
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

/// Whether `distinct` of `games` is too few for the intervals to be trusted: fewer than
/// 90%, the bar at which a study or a race warns that its games repeat.
pub(crate) fn too_few_distinct(distinct: u64, games: u64) -> bool {
    distinct * 10 < games * 9
}

/// The warning that games repeat, naming each measure whose games do (`"D of N at X"`,
/// from [`too_few_distinct`]); `None` when none does.
pub(crate) fn repeat_warning(repeated: &[String]) -> Option<String> {
    (!repeated.is_empty()).then(|| {
        format!(
            "warning: games repeat (distinct games: {}), so the intervals are too narrow \
             (vary the start with --random-opening or --openings, or give the agents noise)",
            repeated.join(", ")
        )
    })
}

/// Warnings: repeated games, few decisive games, and intervals too wide to conclude.
fn warnings(arm: &ArmMeasures) -> Vec<String> {
    let mut warnings = Vec::new();
    let repeated: Vec<String> = arm
        .levels
        .iter()
        .filter(|level| too_few_distinct(level.self_play.distinct, level.self_play.games))
        .map(|level| {
            let m = &level.self_play;
            format!("{} of {} at {}", m.distinct, m.games, level.rung)
        })
        .collect();
    warnings.extend(repeat_warning(&repeated));
    let few: Vec<String> = arm
        .levels
        .iter()
        .filter_map(|level| {
            let (seat0, _, without) = lead(&level.self_play);
            let decisive = seat0.wdl.decisive();
            let note = if without {
                " (short games left out)"
            } else {
                ""
            };
            (decisive < FEW_DECISIVE).then(|| format!("{decisive} at {}{note}", level.rung))
        })
        .collect();
    if !few.is_empty() {
        warnings.push(format!(
            "warning: the figures rest on few decisive games ({}; under {FEW_DECISIVE}, one \
             game turned around moves a rate by more than a point); play more games",
            few.join(", ")
        ));
    }
    let inconclusive = arm.levels.last().is_some_and(|top| {
        let (seat0, _, _) = lead(&top.self_play);
        seat0.win_rate.map_or(true, |w| {
            w.p_value >= ALPHA && half_width(&w.rate) > TOO_WIDE
        })
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

/// The `verdict:` line comparing `arm` with the base arm `base` (see the module docs).
pub fn comparison(base: &ArmMeasures, arm: &ArmMeasures) -> String {
    let name = spec_difference(&base.variant, &arm.variant);
    let parts: Vec<String> = compare(base, arm)
        .iter()
        .rev()
        .enumerate()
        .map(|(i, (level, c))| {
            if i == 0 {
                let said = |d: Option<Difference>, what: &str, than: &str| {
                    d.map_or(format!("no {what} to compare"), |d| {
                        format!(
                            "a {what} {:.1} ± {:.1} points {}{than} (p {}), {}",
                            100.0 * d.value.abs(),
                            100.0 * d.margin,
                            if d.value < 0.0 { "lower" } else { "higher" },
                            format_p_value(d.p_value),
                            chance(&d)
                        )
                    })
                };
                format!(
                    "at {} {name} gives seat 0 {}, and {}",
                    level.rung,
                    said(c.win_rate, "win rate", " than the base game"),
                    said(c.score, "score", "")
                )
            } else {
                let said = |d: Option<Difference>, what: &str| {
                    d.map_or(format!("no {what} to compare"), |d| {
                        format!(
                            "{what} {} (p {}, {})",
                            plus_minus(&d),
                            format_p_value(d.p_value),
                            chance(&d)
                        )
                    })
                };
                format!(
                    "at {}: {}, {}",
                    level.rung,
                    said(c.win_rate, "win rate"),
                    said(c.score, "score")
                )
            }
        })
        .collect();
    let body = if parts.is_empty() {
        "no level to compare".to_string()
    } else {
        parts.join("; ")
    };
    let any_short = [base, arm]
        .iter()
        .any(|a| a.levels.iter().any(|l| l.self_play.short > 0));
    let note = if any_short {
        " (without the short games)"
    } else {
        ""
    };
    format!(
        "verdict: {} against the base game{note}: {body}",
        arm.variant
    )
}

/// The parameters of the game spec `variant` (`game:k=v,...`, canonical) whose values
/// differ from `base`'s, as `k=v,...`; the whole spec when none differs.
fn spec_difference(base: &str, variant: &str) -> String {
    let params = |spec: &str| -> Vec<String> {
        spec.split_once(':').map_or(Vec::new(), |(_, p)| {
            p.split(',').map(String::from).collect()
        })
    };
    let base = params(base);
    let differing: Vec<String> = params(variant)
        .into_iter()
        .filter(|p| !base.contains(p))
        .collect();
    if differing.is_empty() {
        variant.to_string()
    } else {
        differing.join(",")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::balance::measure::{example_level, Replay};
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
            self_play: SelfPlay::of(&rows, false, &Replay::none(&rows)).unwrap(),
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
        // 45 points against 1.959964·sqrt(0.25/22 + 0.082645/22) = 24.1 points (a win
        // and a loss added to each for the variance), which is also the change between
        // the two strongest levels. The widest interval is
        // L2's: 1.959964/1.192073 · sqrt(0.0125 + 0.002401) = 20.1 points; ±2 points at
        // L2 take ceil(3.841459 · 0.25 / 0.0004) = 2401 games, 2381 more.
        let grows = verdict(&arm(vec![level("L2", 10, 10, 20), level("L3", 19, 1, 20)]));
        assert_eq!(
            grows,
            "verdict: g: moving first helps: at L3 seat 0 wins 95.0% of decisive games \
             [76.4%, 99.1%] (p 4.01e-5), scores 95.0%, draws 0.0%; as play gets stronger the \
             seat-0 advantage grows from 50.0% at L2 to 95.0% at L3 (+45.0 ± 24.1 points), \
             beyond chance; this is the change between the two strongest levels: not \
             settled; a stronger level could change the answer; seat-0 intervals reach \
             ±20.1 points; about 2381 more games per level would narrow them to ±2; \
             warning: the figures rest on few decisive games (20 at L2, 20 at L3; under \
             100, one game turned around moves a rate by more than a point); play more games"
        );
        // 15 of 20, then 3 of 20: the advantage changes seat.
        let turns = verdict(&arm(vec![level("L2", 15, 5, 20), level("L3", 3, 17, 20)]));
        assert!(turns.contains("moving first hurts: at L3"), "{turns}");
        assert!(
            turns.contains("the seat-0 advantage changes sides"),
            "{turns}"
        );
        // 11 of 20 twice, half of the games repeated: nothing shown, and the warnings.
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

    #[test]
    fn short_games_are_named_and_the_figures_without_them_lead() {
        // L4, 400 games: seat 0 wins 46 and loses 18 (p of 46 of 64: 0.000617), 25 of
        // the wins short; without them 21 of 39: Wilson [0.385694, 0.684331], exact p
        // 0.749259, score (21 + 336/2)/375 = 50.4%, draws 336/375 = 89.6%. L3: 30 of 60,
        // 2 wins short (3.3%), so 28 of 58 = 48.3% without them. The trend, on the
        // figures without: +5.570 points, margin 1.959964 · sqrt(0.249722/60 +
        // 0.248662/41) = 19.82 points (29/60 and 22/41 after adding a win and a loss),
        // so a change of up to 25.4 points is not ruled out. Widest plain interval: L3's 30 of 60, ±12.3. Games for ±2 points at L4:
        // 3.841459 · 0.20215 / 0.0004 / (64/400) = 12133.5 → 12134, 11734 more.
        let text = verdict(&arm(vec![
            example_level("L3", 3, [30, 0, 30, 2]),
            example_level("L4", 4, [46, 336, 18, 25]),
        ]));
        assert_eq!(
            text,
            "verdict: g: 39.1% of decisive games at L4 (25 of 64) end within two decisions \
             of the opening, which decided them; without them no first-move advantage is \
             shown: seat 0 wins 53.8% of decisive games [38.6%, 68.4%] (p 0.7493), scores \
             50.4%, draws 89.6%; with them seat 0 wins 71.9% [59.9%, 81.4%] (p 0.0006); 3.3% \
             at L3 (2 of 60) of decisive games end within two decisions of the opening, \
             which decided them (the table gives the figures without them); as play gets \
             stronger it stays within chance, from 48.3% at L3 to 53.8% at L4 (+5.6 ± 19.8 \
             points, without the short games); this is the change between the two \
             strongest levels: within chance, but a change of up to 25.4 points is not \
             ruled out, so it is not shown settled; more games would tell; seat-0 intervals \
             reach ±12.3 points; about 11734 more games per level would narrow them to ±2; \
             warning: the figures rest on few decisive games (58 at L3 (short games left \
             out), 39 at L4 (short games left out); under 100, one game turned around moves \
             a rate by more than a point); play more games; warning: the intervals are too \
             wide to conclude (more than ±5 points); play more games"
        );
        // Without an opening, short games are counted from the start.
        let mut level = example_level("L4", 4, [46, 336, 18, 25]);
        level.self_play.opened = false;
        assert!(verdict(&arm(vec![level])).starts_with(
            "verdict: g: 39.1% of decisive games at L4 (25 of 64) end within two \
                 decisions of the start, before the agents' play could decide them; without \
                 them no first-move advantage is shown: "
        ),);
        // Every decisive game short: no figure without them.
        let all_short = verdict(&arm(vec![example_level("L4", 4, [3, 5, 0, 3])]));
        assert!(
            all_short.starts_with(
                "verdict: g: all 3 decisive games at L4 end within two decisions of the \
                 opening, which decided them, so the first move's effect is unknown; "
            ),
            "{all_short}"
        );
        // At 1% or less the short games are left to the table: 1 of 100 decisive.
        let few = verdict(&arm(vec![example_level("L4", 4, [65, 0, 35, 1])]));
        assert!(few.starts_with("verdict: g: moving first helps: at L4 seat 0 wins 65.0%"));
        assert!(!few.contains("opening"), "{few}");
    }

    #[test]
    fn the_table_puts_the_figures_without_short_games_beside_the_others() {
        // L1: 3-1-1 with one short win. All games: 3 of 4, Wilson [0.3006, 0.9544],
        // exact p 2·5/16 = 0.625, score 3.5/5 = 0.7 ± 1.959964·sqrt(0.16/5), clipped
        // to [0.3494, 1]. Short 1 of 4. Without it 2-1-1: 2 of 3 [0.2077, 0.9385], p 1,
        // score 0.625 [0.2187, 1] (as tidy's test).
        let cells = |text: &str, line: usize| -> Vec<String> {
            let line = text.lines().nth(line).unwrap();
            line.split("  ")
                .map(str::trim)
                .filter(|c| !c.is_empty())
                .map(String::from)
                .collect()
        };
        let text = table(&arm(vec![example_level("L1", 1, [3, 1, 1, 1])]));
        assert_eq!(
            cells(&text, 1),
            [
                "level",
                "agent",
                "games",
                "distinct",
                "seat-0 win rate [95%]",
                "p (50%)",
                "seat-0 score [95%]",
                "short decisive",
                "win rate w/o short [95%]",
                "p w/o short",
                "score w/o short [95%]",
                "draws",
                "cap draws",
                "turns q1-median-q3",
                "branching",
                "choice"
            ]
        );
        assert_eq!(
            cells(&text, 2)[..11],
            [
                "L1",
                "x1",
                "5",
                "5",
                "0.7500 [0.3006, 0.9544]",
                "0.6250",
                "0.7000 [0.3494, 1.0000]",
                "0.2500",
                "0.6667 [0.2077, 0.9385]",
                "1.0000",
                "0.6250 [0.2187, 1.0000]"
            ]
        );
        // Without short games the short column stays (0.0000) and the others go.
        let text = table(&arm(vec![example_level("L1", 1, [3, 1, 1, 0])]));
        assert_eq!(cells(&text, 1)[7..9], ["short decisive", "draws"]);
        assert_eq!(cells(&text, 2)[7], "0.0000");
    }

    #[test]
    fn fewer_than_100_decisive_games_at_a_level_are_warned_of_significant_or_not() {
        // L1: 50 of 100 decisive, no warning of its own. L2: 90 of 99 decisive (p far
        // below 5%) among 159 games: warned of, its draws not counted.
        let text = verdict(&arm(vec![
            example_level("L1", 1, [50, 0, 50, 0]),
            example_level("L2", 2, [90, 60, 9, 0]),
        ]));
        assert!(text.contains("moving first helps: at L2"), "{text}");
        assert!(
            text.ends_with(
                "; warning: the figures rest on few decisive games (99 at L2; under 100, one \
                 game turned around moves a rate by more than a point); play more games"
            ),
            "{text}"
        );
        let enough = verdict(&arm(vec![example_level("L1", 1, [60, 5, 40, 0])]));
        assert!(!enough.contains("few decisive"), "{enough}");
    }

    #[test]
    fn the_change_between_the_two_strongest_levels_settles_or_not() {
        let said = |l2: [usize; 4], l3: [usize; 4]| {
            convergence(&arm(vec![
                example_level("L1", 1, [5, 0, 5, 0]),
                example_level("L2", 2, l2),
                example_level("L3", 3, l3),
            ]))
            .unwrap()
        };
        // 10 of 20, then 19 of 20: +45.0 ± 24.1 points, beyond chance.
        assert_eq!(
            said([10, 0, 10, 0], [19, 0, 1, 0]),
            "between L2 and L3 seat 0's rate moved by +45.0 ± 24.1 points: not settled; a \
             stronger level could change the answer"
        );
        // 500 of 1000, then 505 of 1000: +0.5 points, margin 1.959964 · sqrt(0.25/1002 +
        // 0.249975/1002) = 4.38 points; the whole interval within ±5.
        assert_eq!(
            said([500, 0, 500, 0], [505, 0, 495, 0]),
            "between L2 and L3 seat 0's rate moved by +0.5 ± 4.4 points: settled (the whole \
             interval within ±5 points)"
        );
        // 10 of 20, then 11 of 20 with 1 more win short (left out): +5.0 points,
        // margin 1.959964 · sqrt(0.25/22 + 0.247934/22) = 29.5 points.
        assert_eq!(
            said([10, 0, 10, 0], [12, 0, 9, 1]),
            "between L2 and L3 seat 0's rate moved by +5.0 ± 29.5 points, without the short \
             games: within chance, but a change of up to 34.5 points is not ruled out, so \
             it is not shown settled; more games would tell"
        );
        // One level: nothing to say.
        assert_eq!(
            convergence(&arm(vec![example_level("L1", 1, [5, 0, 5, 0])])),
            None
        );
    }

    #[test]
    fn a_variant_is_compared_with_the_base_game_at_each_level() {
        let base = ArmMeasures {
            variant: "g:a=1,b=2".into(),
            pie: false,
            levels: vec![
                example_level("L1", 1, [10, 0, 10, 0]),
                example_level("L2", 2, [20, 10, 10, 0]),
            ],
        };
        let variant = ArmMeasures {
            variant: "g:a=1,b=3".into(),
            pie: false,
            levels: vec![
                example_level("L1", 1, [12, 0, 8, 0]),
                example_level("L2", 2, [33, 5, 2, 3]),
            ],
        };
        // L2, without the variant's 3 short wins: 30 of 32 against 20 of 30, +0.270833;
        // a win and a loss added, 31/34 and 21/32: se = sqrt(0.080450/34 +
        // 0.225586/32) = 0.097035, margin 19.02, p 0.0053. Scores (30 + 2.5)/37 =
        // 0.878378 against 25/40 = 0.625, +0.253378; added, 31-5-3 and 21-10-11 have
        // σ'² 0.089087 and 0.176304: se = sqrt(0.089087/39 + 0.176304/42) = 0.080511,
        // margin 15.78, p 0.0016. L1: 12 of 20 against 10 of 20 with no draws, so rate
        // and score agree: +10.0, se = sqrt(0.241736/22 + 0.25/22), margin 29.30, p
        // 0.5036.
        assert_eq!(
            comparison(&base, &variant),
            "verdict: g:a=1,b=3 against the base game (without the short games): at L2 b=3 \
             gives seat 0 a win rate 27.1 ± 19.0 points higher than the base game (p 0.0053), \
             beyond chance, and a score 25.3 ± 15.8 points higher (p 0.0016), beyond chance; \
             at L1: win rate +10.0 ± 29.3 points (p 0.5036, within chance), score +10.0 ± \
             29.3 points (p 0.5036, within chance)"
        );
        // The other way round: lower, the same margins.
        let back = comparison(&variant, &base);
        assert!(
            back.contains("at L2 b=2 gives seat 0 a win rate 27.1 ± 19.0 points lower than"),
            "{back}"
        );
    }

    #[test]
    fn a_variant_is_named_by_the_parameters_it_changes() {
        let base = "pig:die=6,horizon=1000,target=20";
        assert_eq!(
            spec_difference(base, "pig:die=8,horizon=1000,target=30"),
            "die=8,target=30"
        );
        assert_eq!(spec_difference(base, base), base);
    }
}
