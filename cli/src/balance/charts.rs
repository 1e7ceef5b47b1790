//! The charts of a study (SVG), drawn into its folder:
//!
//! - `seat0-by-level.svg`: seat 0's win rate over decisive games against the rung, one
//!   line per arm, with its 95% interval as a band between levels and a bar at each
//!   (a study of one level has no band to show), and a reference line at 50%;
//! - `ladder.svg`: each step's score of the stronger rung against the previous one, with
//!   its pair-based interval ([`IntervalChart`]), reference at 0.5;
//! - `lengths-by-level.svg`: each rung's game length in turns, the median with a bar from
//!   the first to the third quartile ([`IntervalChart`]).
//!
//! Arms are named `base`, `variant-1`, ... with a legend line giving each one's game.

use std::path::Path;

use anyhow::{anyhow, Result};
use plotters::prelude::*;

use super::measure::ArmMeasures;
use crate::record::write_file_whole;
use crate::reporting::charts::Rows;
use crate::reporting::plots::{tick, IntervalChart};

/// File of the seat-0 chart.
pub const SEAT0_BY_LEVEL_SVG: &str = "seat0-by-level.svg";
/// File of the ladder chart.
pub const LADDER_SVG: &str = "ladder.svg";
/// File of the length chart.
pub const LENGTHS_BY_LEVEL_SVG: &str = "lengths-by-level.svg";

/// Colours of the arms' lines, in turn (the first is the run charts' colour of wins).
const PALETTE: [RGBColor; 6] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 96, 39),
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
];

/// The name of arm `i` in the charts: `base`, `variant-1`, ... (as its folder).
fn arm_name(i: usize) -> String {
    if i == 0 {
        "base".into()
    } else {
        format!("variant-{i}")
    }
}

/// Draws the study's charts into `dir`; returns the names of the files written.
pub fn draw(dir: &Path, arms: &[ArmMeasures]) -> Result<Vec<&'static str>> {
    let legend: Vec<String> = arms
        .iter()
        .enumerate()
        .map(|(i, a)| format!("{}: {}", arm_name(i), a.variant))
        .collect();
    let mut written = Vec::new();
    seat0_by_level(&dir.join(SEAT0_BY_LEVEL_SVG), arms, &legend)?;
    written.push(SEAT0_BY_LEVEL_SVG);

    let mut steps = Rows::default();
    let mut lengths = Rows::default();
    for (i, arm) in arms.iter().enumerate() {
        for level in &arm.levels {
            if let Some((previous, step)) = &level.step {
                if let Some(score) = step.score {
                    let label = format!("{} {} vs {previous}", arm_name(i), level.agent);
                    steps.push_numbers(label, [score.value, score.low, score.high]);
                }
            }
            if let Some(turns) = level.self_play.turns {
                let label = format!("{} {}", arm_name(i), level.agent);
                lengths.push_numbers(label, [turns.median, turns.q1, turns.q3]);
            }
        }
    }
    let charts = [
        (
            steps,
            "The ladder: each level's score against the previous one, 95% (pairs)",
            "score of the stronger level",
            Some(0.5),
            LADDER_SVG,
        ),
        (
            lengths,
            "Game length in self-play: median, bar from first to third quartile",
            "turns",
            None,
            LENGTHS_BY_LEVEL_SVG,
        ),
    ];
    for (rows, title, axis, reference, file) in charts {
        if rows.labels.is_empty() {
            continue;
        }
        IntervalChart {
            title,
            axis,
            reference,
            labels: &rows.labels,
            values: &rows.values,
            lows: &rows.lows,
            highs: &rows.highs,
            legend: &legend,
        }
        .draw(&dir.join(file))?;
        written.push(file);
    }
    Ok(written)
}

/// Seat 0's win rate against the rung, one line and band per arm.
fn seat0_by_level(path: &Path, arms: &[ArmMeasures], legend: &[String]) -> Result<()> {
    let rungs: Vec<String> = arms
        .first()
        .map(|a| a.levels.iter().map(|l| l.rung.clone()).collect())
        .unwrap_or_default();
    let n = rungs.len().max(1);
    let height = 520 + 20 * legend.len() as u32;
    // Drawn into memory, then written whole, never through a link.
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (960, height)).into_drawing_area();
        let failed = |e: &dyn std::fmt::Display| anyhow!("cannot draw {}: {e}", path.display());
        root.fill(&WHITE).map_err(|e| failed(&e))?;
        let (area, key) = root.split_vertically(480);
        let mut chart = ChartBuilder::on(&area)
            .caption(
                "Seat 0's win rate over decisive games by level, 95% interval",
                ("sans-serif", 20),
            )
            .margin(15)
            .x_label_area_size(45)
            .y_label_area_size(60)
            .build_cartesian_2d(-0.5..n as f64 - 0.5, 0.0..1.0)
            .map_err(|e| failed(&e))?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(n)
            .x_label_formatter(&|x| {
                let i = x.round();
                if (x - i).abs() < 1e-9 && i >= 0.0 && (i as usize) < rungs.len() {
                    rungs[i as usize].clone()
                } else {
                    String::new()
                }
            })
            .y_label_formatter(&|y| tick(*y))
            .x_desc("level")
            .y_desc("seat 0's win rate")
            .label_style(("sans-serif", 15))
            .draw()
            .map_err(|e| failed(&e))?;
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(-0.5, 0.5), (n as f64 - 0.5, 0.5)],
                BLACK.mix(0.4).stroke_width(1),
            )))
            .map_err(|e| failed(&e))?;
        for (a, arm) in arms.iter().enumerate() {
            let colour = PALETTE[a % PALETTE.len()];
            let points: Vec<(f64, f64, f64, f64)> = arm
                .levels
                .iter()
                .enumerate()
                .filter_map(|(i, l)| {
                    let w = l.self_play.seat0.win_rate?;
                    Some((i as f64, w.rate.value, w.rate.low, w.rate.high))
                })
                .collect();
            if points.is_empty() {
                continue;
            }
            let band: Vec<(f64, f64)> = points
                .iter()
                .map(|p| (p.0, p.3))
                .chain(points.iter().rev().map(|p| (p.0, p.2)))
                .collect();
            chart
                .draw_series(std::iter::once(Polygon::new(
                    band,
                    colour.mix(0.15).filled(),
                )))
                .map_err(|e| failed(&e))?;
            chart
                .draw_series(std::iter::once(PathElement::new(
                    points.iter().map(|p| (p.0, p.1)).collect::<Vec<_>>(),
                    colour.stroke_width(2),
                )))
                .map_err(|e| failed(&e))?;
            chart
                .draw_series(
                    points.iter().map(|p| {
                        ErrorBar::new_vertical(p.0, p.2, p.1, p.3, colour.stroke_width(1), 8)
                    }),
                )
                .map_err(|e| failed(&e))?;
            chart
                .draw_series(
                    points
                        .iter()
                        .map(|p| Circle::new((p.0, p.1), 4, colour.filled())),
                )
                .map_err(|e| failed(&e))?;
        }
        for (i, line) in legend.iter().enumerate() {
            let colour = PALETTE[i % PALETTE.len()];
            let y = 20 * i as i32 + 5;
            key.draw(&Rectangle::new(
                [(20, y + 4), (40, y + 12)],
                colour.filled(),
            ))
            .map_err(|e| failed(&e))?;
            key.draw(&Text::new(
                line.clone(),
                (50, y),
                ("sans-serif", 15).into_font().color(&BLACK),
            ))
            .map_err(|e| failed(&e))?;
        }
        root.present().map_err(|e| failed(&e))?;
    }
    write_file_whole(path, &svg)
}
