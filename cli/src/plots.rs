//! SVG charts for `agon report`, drawn with plotters' SVG backend.
//!
//! The functions take plain data (labels and numbers), not run files, so that any
//! source of estimates can be drawn: today the per-pairing Elo rows of summary.csv,
//! later other rating models. Text is written as SVG `<text>` elements and laid out by
//! the viewer; plotters is built without its font features, so nothing here reads
//! system fonts (its text widths are estimates, used only for margins).

use std::path::Path;

use anyhow::{anyhow, ensure, Result};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// Width of every chart, in pixels.
const WIDTH: u32 = 960;
/// Height of one row of an interval chart, in pixels.
const ROW: u32 = 34;
/// Font size of the axes' text and the row labels.
const TEXT: u32 = 15;
/// Font size of the title.
const TITLE: u32 = 20;

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
    /// Row labels, top to bottom.
    pub labels: &'a [String],
    /// Estimates.
    pub values: &'a [f64],
    /// Lower ends of the intervals.
    pub lows: &'a [f64],
    /// Upper ends of the intervals.
    pub highs: &'a [f64],
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

        let height = 130 + ROW * n as u32;
        let longest = self
            .labels
            .iter()
            .map(|l| l.chars().count())
            .max()
            .unwrap_or(0);
        // The estimate of plotters' own layout (0.7 em per character) plus a margin.
        let label_area = (longest as u32 * TEXT * 6 / 10 + 20).min(WIDTH / 2);
        let root = SVGBackend::new(path, (WIDTH, height)).into_drawing_area();
        let failed = |e: &dyn std::fmt::Display| anyhow!("cannot draw {}: {e}", path.display());
        root.fill(&WHITE).map_err(|e| failed(&e))?;
        let mut chart = ChartBuilder::on(&root)
            .caption(&caption, ("sans-serif", TITLE))
            .margin(15)
            .x_label_area_size(45)
            .y_label_area_size(label_area)
            .build_cartesian_2d(lo..hi, 0.0..n as f64)
            .map_err(|e| failed(&e))?;
        // Row i is the band from n-1-i to n-i, top to bottom; its label is drawn by hand
        // at the band's centre (axis labels of a number range fall where plotters likes).
        let row = |i: usize| (n - i) as f64 - 0.5;
        chart
            .configure_mesh()
            .disable_y_mesh()
            .y_labels(0)
            .x_desc(self.axis)
            .label_style(("sans-serif", TEXT))
            .draw()
            .map_err(|e| failed(&e))?;
        let label_style = ("sans-serif", TEXT)
            .into_font()
            .color(&BLACK)
            .pos(Pos::new(HPos::Right, VPos::Center));
        for (i, label) in self.labels.iter().enumerate() {
            let (x, y) = chart.backend_coord(&(lo, row(i)));
            root.draw(&Text::new(label.clone(), (x - 8, y), label_style.clone()))
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
                    BLUE.stroke_width(2),
                    10,
                )
            }))
            .map_err(|e| failed(&e))?;
        root.present().map_err(|e| failed(&e))?;
        Ok(())
    }
}

/// A histogram of whole numbers (game lengths in plies) into the SVG file `path`: bins of
/// one unit when the numbers span at most 60 values, else of the smallest width that
/// makes at most 60 bins. Fails on no numbers or a file that cannot be written.
pub fn histogram(path: &Path, title: &str, axis: &str, numbers: &[u32]) -> Result<()> {
    let (min, max) = match (numbers.iter().min(), numbers.iter().max()) {
        (Some(&min), Some(&max)) => (min, max),
        _ => return Err(anyhow!("a histogram needs at least one number")),
    };
    let (start, width, counts) = bins(numbers, min, max);
    let top = counts.iter().copied().max().unwrap_or(1);
    let end = start + width * counts.len() as u32;
    let root = SVGBackend::new(path, (WIDTH, 480)).into_drawing_area();
    let failed = |e: &dyn std::fmt::Display| anyhow!("cannot draw {}: {e}", path.display());
    root.fill(&WHITE).map_err(|e| failed(&e))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", TITLE))
        .margin(15)
        .x_label_area_size(45)
        .y_label_area_size(60)
        .build_cartesian_2d(start..end, 0..top + top / 10 + 1)
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
            Rectangle::new([(left, 0), (left + width, c)], BLUE.mix(0.6).filled())
        }))
        .map_err(|e| failed(&e))?;
    root.present().map_err(|e| failed(&e))?;
    Ok(())
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
}
