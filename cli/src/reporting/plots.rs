//! SVG charts for `agon report` and finished runs, drawn with plotters' SVG backend.
//!
//! The functions take plain data (labels and numbers), not run files, so that any
//! source of estimates can be drawn: today the ratings and seat-0 results of a summary,
//! later other rating models. Text is written as SVG `<text>` elements and laid out by
//! the viewer; plotters is built without its font features, so nothing here reads
//! system fonts (its text widths are estimates, used only for margins).
//!
//! Conventions every chart follows, so that it reads without the table beside it:
//! - row labels are short (a caller abbreviates long names and passes a legend of what
//!   the abbreviations stand for, drawn under the chart);
//! - axis numbers are written as plainly as they allow ([`tick`]: `-1000`, `0.25`);
//! - a count that would vanish in a drawing (draws of a rate, games stopped at a length
//!   cap) is drawn in its own colour and written out as text.

use std::path::Path;

use anyhow::{anyhow, ensure, Result};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::record::write_file_whole;

/// Width of every chart, in pixels.
const WIDTH: u32 = 960;
/// Height of one row of an interval or share chart, in pixels.
const ROW: u32 = 34;
/// Height of the key of a share chart (which colour is which), in pixels.
const KEY: u32 = 30;
/// Height of one line of a legend under a chart, in pixels.
const LEGEND_LINE: u32 = 20;
/// Font size of the axes' text and the row labels.
const TEXT: u32 = 15;
/// Font size of the title.
const TITLE: u32 = 20;
/// Colour of wins (and of the estimates of an interval chart).
const WIN: RGBColor = RGBColor(31, 119, 180);
/// Colour of draws: a grey between the two results.
const DRAW: RGBColor = RGBColor(170, 170, 170);
/// Colour of losses, and of games stopped by a length cap.
const LOSS: RGBColor = RGBColor(214, 96, 39);

/// Name of the chart of ratings.
pub const RATINGS_SVG: &str = "ratings.svg";
/// Name of the chart of seat-0 win rates.
pub const SEAT0_SVG: &str = "seat0.svg";
/// Name of the chart of game lengths.
pub const LENGTHS_SVG: &str = "lengths.svg";

/// Estimates with intervals, one row per label: a circle at the value and a bar from the
/// low to the high end, with an optional vertical reference line (e.g. 0 Elo, a 0.5
/// rate). A non-finite number (an unbounded Elo end after a perfect score) is drawn at
/// the edge of the chart, which the caption says.
pub struct IntervalChart<'a> {
    /// Title, above the chart.
    pub title: &'a str,
    /// What the values are, under the horizontal axis.
    pub axis: &'a str,
    /// Where to draw the reference line, if anywhere.
    pub reference: Option<f64>,
    /// Row labels, top to bottom (short: see the module docs).
    pub labels: &'a [String],
    /// Estimates.
    pub values: &'a [f64],
    /// Lower ends of the intervals.
    pub lows: &'a [f64],
    /// Upper ends of the intervals.
    pub highs: &'a [f64],
    /// Lines under the chart saying what abbreviated labels stand for.
    pub legend: &'a [String],
}

impl IntervalChart<'_> {
    /// Draws the chart into the SVG file `path`. Fails when the four lists differ in
    /// length, when there is no row, or when the file cannot be written.
    pub fn draw(&self, path: &Path) -> Result<()> {
        let n = self.labels.len();
        ensure!(
            n > 0 && [self.values.len(), self.lows.len(), self.highs.len()] == [n, n, n],
            "an interval chart needs as many values, lows and highs as labels, and one at least"
        );
        let finite: Vec<f64> = [self.values, self.lows, self.highs]
            .concat()
            .into_iter()
            .chain(self.reference)
            .filter(|x| x.is_finite())
            .collect();
        let (lo, hi) = padded_range(&finite);
        let clamp = |x: f64| {
            if x.is_nan() {
                lo
            } else {
                x.clamp(lo, hi)
            }
        };
        let unbounded = [self.values, self.lows, self.highs]
            .iter()
            .any(|xs| xs.iter().any(|x| !x.is_finite()));
        let caption = if unbounded {
            format!("{} (unbounded ends drawn at the edge)", self.title)
        } else {
            self.title.to_string()
        };

        let height = 130 + ROW * n as u32 + legend_height(self.legend);
        // Drawn into memory, then written whole, never through a link.
        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, (WIDTH, height)).into_drawing_area();
            let failed = |e: &dyn std::fmt::Display| anyhow!("cannot draw {}: {e}", path.display());
            root.fill(&WHITE).map_err(|e| failed(&e))?;
            let area = draw_legend(&root, self.legend).map_err(|e| failed(&e))?;
            let mut chart = ChartBuilder::on(&area)
                .caption(&caption, ("sans-serif", TITLE))
                .margin(15)
                .x_label_area_size(45)
                .y_label_area_size(label_area(self.labels))
                .build_cartesian_2d(lo..hi, 0.0..n as f64)
                .map_err(|e| failed(&e))?;
            chart
                .configure_mesh()
                .disable_y_mesh()
                .y_labels(0)
                .x_desc(self.axis)
                .x_label_formatter(&|x| tick(*x))
                .label_style(("sans-serif", TEXT))
                .draw()
                .map_err(|e| failed(&e))?;
            // Row i is the band from n-1-i to n-i, top to bottom; its label is drawn by hand
            // at the band's centre (axis labels of a number range fall where plotters likes).
            let row = |i: usize| (n - i) as f64 - 0.5;
            for (i, label) in self.labels.iter().enumerate() {
                let (x, y) = chart.backend_coord(&(lo, row(i)));
                area.draw(&Text::new(label.clone(), (x - 8, y), row_label_style()))
                    .map_err(|e| failed(&e))?;
            }
            if let Some(r) = self.reference {
                chart
                    .draw_series(std::iter::once(PathElement::new(
                        vec![(r, 0.0), (r, n as f64)],
                        BLACK.mix(0.4).stroke_width(1),
                    )))
                    .map_err(|e| failed(&e))?;
            }
            chart
                .draw_series((0..n).map(|i| {
                    ErrorBar::new_horizontal(
                        row(i),
                        clamp(self.lows[i]),
                        clamp(self.values[i]),
                        clamp(self.highs[i]),
                        WIN.stroke_width(2),
                        10,
                    )
                }))
                .map_err(|e| failed(&e))?;
            root.present().map_err(|e| failed(&e))?;
        }
        write_file_whole(path, &svg)
    }
}

/// Results as shares, one row per label: a bar from 0 to 1 split into wins, draws and
/// losses (each share of the row's games, in three colours named in a key above the
/// chart), the counts written at the right as `W-D-L`, and a reference line at one half.
/// Draws stay visible, unlike in a win rate over decisive games.
pub struct ShareChart<'a> {
    /// Title, above the chart.
    pub title: &'a str,
    /// What the three parts are: wins, draws, losses (for the key).
    pub parts: [&'a str; 3],
    /// Row labels, top to bottom (short: see the module docs).
    pub labels: &'a [String],
    /// Wins, draws and losses of each row.
    pub counts: &'a [[u64; 3]],
    /// Lines under the chart saying what abbreviated labels stand for.
    pub legend: &'a [String],
}

impl ShareChart<'_> {
    /// Draws the chart into the SVG file `path`. Fails when labels and counts differ in
    /// length, when there is no row, or when the file cannot be written. A row of no
    /// games is drawn empty.
    pub fn draw(&self, path: &Path) -> Result<()> {
        let n = self.labels.len();
        ensure!(
            n > 0 && self.counts.len() == n,
            "a share chart needs as many counts as labels, and one at least"
        );
        let height = 130 + KEY + ROW * n as u32 + legend_height(self.legend);
        // Drawn into memory, then written whole, never through a link.
        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, (WIDTH, height)).into_drawing_area();
            let failed = |e: &dyn std::fmt::Display| anyhow!("cannot draw {}: {e}", path.display());
            root.fill(&WHITE).map_err(|e| failed(&e))?;
            let above = draw_legend(&root, self.legend).map_err(|e| failed(&e))?;
            let (area, key) = above.split_vertically(above.dim_in_pixel().1 - KEY);
            let mut chart = ChartBuilder::on(&area)
                .caption(self.title, ("sans-serif", TITLE))
                .margin(15)
                .margin_right(110)
                .x_label_area_size(45)
                .y_label_area_size(label_area(self.labels))
                .build_cartesian_2d(0.0..1.0, 0.0..n as f64)
                .map_err(|e| failed(&e))?;
            chart
                .configure_mesh()
                .disable_y_mesh()
                .y_labels(0)
                .x_desc("share of games")
                .x_label_formatter(&|x| tick(*x))
                .label_style(("sans-serif", TEXT))
                .draw()
                .map_err(|e| failed(&e))?;
            let colours = [WIN, DRAW, LOSS];
            // The key, in a line under the chart, starting under the plotting area.
            let (mut x, _) = chart.backend_coord(&(0.0, 0.0));
            for (part, colour) in self.parts.iter().zip(colours) {
                key.draw(&Rectangle::new([(x, 4), (x + 14, 18)], colour.filled()))
                    .map_err(|e| failed(&e))?;
                key.draw(&Text::new(
                    part.to_string(),
                    (x + 20, 11),
                    ("sans-serif", TEXT)
                        .into_font()
                        .color(&BLACK)
                        .pos(Pos::new(HPos::Left, VPos::Center)),
                ))
                .map_err(|e| failed(&e))?;
                x += 28 + part.chars().count() as i32 * TEXT as i32 * 6 / 10 + 20;
            }
            let row = |i: usize| (n - i) as f64;
            for (i, (label, counts)) in self.labels.iter().zip(self.counts).enumerate() {
                let (x, y) = chart.backend_coord(&(0.0, row(i) - 0.5));
                area.draw(&Text::new(label.clone(), (x - 8, y), row_label_style()))
                    .map_err(|e| failed(&e))?;
                let games: u64 = counts.iter().sum();
                let mut start = 0.0;
                for (&count, colour) in counts.iter().zip(colours) {
                    if count == 0 {
                        continue;
                    }
                    let end = start + count as f64 / games as f64;
                    chart
                        .draw_series(std::iter::once(Rectangle::new(
                            [(start, row(i) - 0.8), (end, row(i) - 0.2)],
                            colour.filled(),
                        )))
                        .map_err(|e| failed(&e))?;
                    start = end;
                }
                let (right, _) = chart.backend_coord(&(1.0, 0.0));
                area.draw(&Text::new(
                    format!("{}-{}-{}", counts[0], counts[1], counts[2]),
                    (right + 10, y),
                    ("sans-serif", TEXT)
                        .into_font()
                        .color(&BLACK)
                        .pos(Pos::new(HPos::Left, VPos::Center)),
                ))
                .map_err(|e| failed(&e))?;
            }
            chart
                .draw_series(std::iter::once(PathElement::new(
                    vec![(0.5, 0.0), (0.5, n as f64)],
                    BLACK.mix(0.5).stroke_width(1),
                )))
                .map_err(|e| failed(&e))?;
            root.present().map_err(|e| failed(&e))?;
        }
        write_file_whole(path, &svg)
    }
}

/// A histogram of whole numbers (game lengths in plies) into the SVG file `path`: bins of
/// one unit when the numbers span at most 60 values, else of the smallest width that
/// makes at most 60 bins. The `capped` numbers (games a length cap stopped) are stacked
/// on the others in their own colour, and the tallest capped bar is labelled with how
/// many games the cap stopped (and at how many plies, when all at the same). Fails on no numbers or a file that cannot be written.
pub fn histogram(
    path: &Path,
    title: &str,
    axis: &str,
    numbers: &[u32],
    capped: &[u32],
) -> Result<()> {
    let every = || numbers.iter().chain(capped);
    let (min, max) = match (every().min(), every().max()) {
        (Some(&min), Some(&max)) => (min, max),
        _ => return Err(anyhow!("a histogram needs at least one number")),
    };
    let (start, width, counts) = bins(numbers, min, max);
    let (_, _, capped_counts) = bins(capped, min, max);
    let top = counts
        .iter()
        .zip(&capped_counts)
        .map(|(a, b)| a + b)
        .max()
        .unwrap_or(1);
    let end = start + width * counts.len() as u32;
    // Drawn into memory, then written whole, never through a link.
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, 480)).into_drawing_area();
        let failed = |e: &dyn std::fmt::Display| anyhow!("cannot draw {}: {e}", path.display());
        root.fill(&WHITE).map_err(|e| failed(&e))?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", TITLE))
            .margin(15)
            .x_label_area_size(45)
            .y_label_area_size(60)
            .build_cartesian_2d(start..end, 0..top + top / 5 + 1)
            .map_err(|e| failed(&e))?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_desc(axis)
            .y_desc("games")
            .label_style(("sans-serif", TEXT))
            .draw()
            .map_err(|e| failed(&e))?;
        chart
            .draw_series(counts.iter().enumerate().map(|(i, &c)| {
                let left = start + width * i as u32;
                Rectangle::new([(left, 0), (left + width, c)], WIN.mix(0.7).filled())
            }))
            .map_err(|e| failed(&e))?;
        chart
            .draw_series(
                counts
                    .iter()
                    .zip(&capped_counts)
                    .enumerate()
                    .filter(|(_, (_, &k))| k > 0)
                    .map(|(i, (&c, &k))| {
                        let left = start + width * i as u32;
                        Rectangle::new([(left, c), (left + width, c + k)], LOSS.filled())
                    }),
            )
            .map_err(|e| failed(&e))?;
        // The label of the cap: above its tallest bar, right-aligned so that it stays inside
        // when the cap is the longest length (as it usually is).
        let tallest = (0..capped_counts.len())
            .filter(|&i| capped_counts[i] > 0)
            .max_by_key(|&i| (counts[i] + capped_counts[i], i));
        if let Some(i) = tallest {
            let x = start + width * i as u32 + width;
            let (px, py) = chart.backend_coord(&(x, counts[i] + capped_counts[i]));
            root.draw(&Text::new(
                format!(
                    "length cap: {} game{} stopped{}",
                    capped.len(),
                    if capped.len() == 1 { "" } else { "s" },
                    match (capped.iter().min(), capped.iter().max()) {
                        (Some(a), Some(b)) if a == b => format!(" at {a} plies"),
                        _ => String::new(),
                    }
                ),
                (px, py - 6),
                ("sans-serif", TEXT)
                    .into_font()
                    .color(&LOSS)
                    .pos(Pos::new(HPos::Right, VPos::Bottom)),
            ))
            .map_err(|e| failed(&e))?;
        }
        root.present().map_err(|e| failed(&e))?;
    }
    write_file_whole(path, &svg)
}

/// Lines over a whole-number axis from 0 (a loss per epoch, say), one per named series,
/// in the chart's colours in order, with a key, and an optional marked point: `mark`
/// is (series, index of the point in it, label), e.g. the epoch a fit kept. Fails on no
/// points or a file that cannot be written.
pub fn lines(
    path: &Path,
    title: &str,
    (x_axis, y_axis): (&str, &str),
    series: &[(&str, &[f64])],
    mark: Option<(usize, usize, &str)>,
) -> Result<()> {
    let longest = series.iter().map(|(_, ys)| ys.len()).max().unwrap_or(0);
    ensure!(longest > 0, "a line chart needs at least one point");
    let every: Vec<f64> = series
        .iter()
        .flat_map(|(_, ys)| ys.iter().copied())
        .collect();
    let (lo, hi) = padded_range(&every);
    let colours = [WIN, LOSS, DRAW];
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, 480)).into_drawing_area();
        let failed = |e: &dyn std::fmt::Display| anyhow!("cannot draw {}: {e}", path.display());
        root.fill(&WHITE).map_err(|e| failed(&e))?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", TITLE))
            .margin(15)
            .x_label_area_size(45)
            .y_label_area_size(70)
            .build_cartesian_2d(0f64..(longest - 1).max(1) as f64, lo..hi)
            .map_err(|e| failed(&e))?;
        chart
            .configure_mesh()
            .x_desc(x_axis)
            .y_desc(y_axis)
            .x_label_formatter(&|x| tick(*x))
            .y_label_formatter(&|y| tick(*y))
            .label_style(("sans-serif", TEXT))
            .draw()
            .map_err(|e| failed(&e))?;
        for ((name, ys), colour) in series.iter().zip(colours.iter().cycle()) {
            let points = ys.iter().enumerate().map(|(i, &y)| (i as f64, y));
            chart
                .draw_series(LineSeries::new(points, colour.stroke_width(2)))
                .map_err(|e| failed(&e))?
                .label(*name)
                .legend(move |(x, y)| {
                    PathElement::new([(x, y), (x + 20, y)], colour.stroke_width(2))
                });
        }
        if let Some((line, x, text)) = mark {
            let y = series.get(line).and_then(|(_, ys)| ys.get(x)).copied();
            if let Some(y) = y {
                let at = (x as f64, y);
                chart
                    .draw_series([Circle::new(at, 6, BLACK.stroke_width(2))])
                    .map_err(|e| failed(&e))?;
                let (px, py) = chart.backend_coord(&at);
                root.draw(&Text::new(
                    text.to_string(),
                    (px, py - 10),
                    ("sans-serif", TEXT)
                        .into_font()
                        .color(&BLACK)
                        .pos(Pos::new(HPos::Center, VPos::Bottom)),
                ))
                .map_err(|e| failed(&e))?;
            }
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE.mix(0.9))
            .border_style(BLACK)
            .label_font(("sans-serif", TEXT))
            .draw()
            .map_err(|e| failed(&e))?;
        root.present().map_err(|e| failed(&e))?;
    }
    write_file_whole(path, &svg)
}

/// The bins of [`histogram`]: first bin's start, bin width, and counts.
fn bins(numbers: &[u32], min: u32, max: u32) -> (u32, u32, Vec<u64>) {
    const MOST: u32 = 60;
    let span = max - min + 1;
    let width = span.div_ceil(MOST);
    let mut counts = vec![0u64; span.div_ceil(width) as usize];
    for &x in numbers {
        counts[((x - min) / width) as usize] += 1;
    }
    (min, width, counts)
}

/// The range of the finite numbers `xs` widened by 5% on each side (by 1 when they are
/// all equal; `-1..1` when there are none).
fn padded_range(xs: &[f64]) -> (f64, f64) {
    let lo = xs.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = xs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !lo.is_finite() {
        return (-1.0, 1.0);
    }
    let pad = if hi > lo { (hi - lo) * 0.05 } else { 1.0 };
    (lo - pad, hi + pad)
}

/// An axis number as plainly as it can be written: at most three decimals, without
/// trailing zeros or a trailing point (`-1000`, `0.25`, `0`).
pub fn tick(x: f64) -> String {
    let text = format!("{x:.3}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" {
        "0".into()
    } else {
        text.into()
    }
}

/// Width in pixels of the area left of a chart for its row labels: plotters' own
/// estimate of a sans-serif character (0.7 em) for the longest label, plus a margin,
/// at most half the chart.
fn label_area(labels: &[String]) -> u32 {
    let longest = labels.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    (longest as u32 * TEXT * 7 / 10 + 24).min(WIDTH / 2)
}

/// The style of a row label: right-aligned, centred on its row.
fn row_label_style() -> TextStyle<'static> {
    ("sans-serif", TEXT)
        .into_font()
        .color(&BLACK)
        .pos(Pos::new(HPos::Right, VPos::Center))
}

/// Height in pixels of a legend of `lines` under a chart (nothing for none).
fn legend_height(lines: &[String]) -> u32 {
    if lines.is_empty() {
        0
    } else {
        LEGEND_LINE * lines.len() as u32 + 10
    }
}

/// Writes `lines` at the bottom of `root`, one under another, and returns the area
/// above them for the chart.
fn draw_legend<'a>(
    root: &DrawingArea<SVGBackend<'a>, Shift>,
    lines: &[String],
) -> Result<DrawingArea<SVGBackend<'a>, Shift>, DrawingAreaErrorKind<std::io::Error>> {
    let (_, height) = root.dim_in_pixel();
    let (chart, legend) = root.split_vertically(height - legend_height(lines));
    for (i, line) in lines.iter().enumerate() {
        legend.draw(&Text::new(
            line.clone(),
            (20, (LEGEND_LINE * i as u32) as i32),
            ("sans-serif", TEXT)
                .into_font()
                .color(&BLACK)
                .pos(Pos::new(HPos::Left, VPos::Top)),
        ))?;
    }
    Ok(chart)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bins_are_unit_wide_up_to_60_values_then_widen() {
        assert_eq!(bins(&[3, 5, 5, 7], 3, 7), (3, 1, vec![1, 0, 2, 0, 1]));
        // 10..=130 is 121 values: width ceil(121/60) = 3, ceil(121/3) = 41 bins; 130 is
        // in bin (130-10)/3 = 40, the last.
        let (start, width, counts) = bins(&[10, 12, 13, 130], 10, 130);
        assert_eq!((start, width, counts.len()), (10, 3, 41));
        assert_eq!((counts[0], counts[1], counts[40]), (2, 1, 1));
    }

    #[test]
    fn ranges_are_padded() {
        assert_eq!(padded_range(&[0.0, 100.0]), (-5.0, 105.0));
        assert_eq!(padded_range(&[2.0]), (1.0, 3.0));
        assert_eq!(padded_range(&[]), (-1.0, 1.0));
    }

    #[test]
    fn ticks_are_written_without_needless_decimals() {
        assert_eq!(tick(-1000.0), "-1000");
        assert_eq!(tick(0.25), "0.25");
        assert_eq!(tick(0.2), "0.2");
        assert_eq!(tick(-0.0001), "0");
        assert_eq!(tick(1.0), "1");
        assert_eq!(tick(12.3456), "12.346");
    }
}
