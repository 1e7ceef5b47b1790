//! Match statistics: score, Elo difference with a 95% interval, Wilson interval.
//!
//! All intervals are two-sided 95% unless said otherwise, with `z = 1.959964` (the
//! 97.5% quantile of the standard normal).
//!
//! - **Score** of a W/D/L record: `p = (W + D/2) / N`.
//! - **Elo difference** (logistic): `elo(p) = -400 · log10(1/p - 1)`.
//! - **Elo interval** (trinomial, normal approximation on the score): the per-game
//!   variance of the score is `σ² = (W(1-p)² + D(1/2-p)² + L·p²) / N`, its standard error
//!   `se = sqrt(σ² / N)`, and the interval is `[elo(p - z·se), elo(p + z·se)]`. An end past
//!   0 or 1 maps to `-inf` or `inf` (the data cannot exclude an infinite difference).
//!   Every game drawn gives `σ² = 0`, so the interval collapses onto 0; the pentanomial
//!   model of paired games will refine this.
//! - **Perfect scores** (`p = 1` or `p = 0`): the Elo is `inf` or `-inf`, and the finite
//!   end is a *one-sided* 95% bound: the exact (Clopper–Pearson) binomial bound on the
//!   score for N wins out of N games, `p_low = 0.05^(1/N)`, so the interval is
//!   `[elo(p_low), inf]` (and `[-inf, -elo(p_low)]` for N losses). Such a record has no
//!   draw, so the binomial model is exact.
//! - **Wilson interval** for a proportion `k/n` (the seat-0 win rate over decisive
//!   games): centre `(p̂ + z²/2n) / (1 + z²/n)`, half-width
//!   `z / (1 + z²/n) · sqrt(p̂(1-p̂)/n + z²/4n²)`.

/// Two-sided 95% normal quantile (`Φ⁻¹(0.975)`).
pub const Z95: f64 = 1.959_963_984_540_054;

/// One-sided tail probability of the bound reported for a perfect score.
const ONE_SIDED_ALPHA: f64 = 0.05;

/// Wins, draws and losses of one side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
}

impl Wdl {
    /// Number of games.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Games that were not drawn.
    pub fn decisive(&self) -> u64 {
        self.wins + self.losses
    }

    /// Score `(W + D/2) / N`, or `None` without games.
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| (self.wins as f64 + self.draws as f64 / 2.0) / n as f64)
    }

    /// Adds one result of this side: +1 win, 0 draw, -1 loss.
    pub fn add(&mut self, result: i32) {
        match result.signum() {
            1 => self.wins += 1,
            0 => self.draws += 1,
            _ => self.losses += 1,
        }
    }
}

/// An Elo difference with its 95% interval; the ends may be infinite.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// Point estimate (`inf` or `-inf` for a perfect score).
    pub elo: f64,
    /// Lower end of the interval (`-inf` when unbounded).
    pub low: f64,
    /// Upper end of the interval (`inf` when unbounded).
    pub high: f64,
}

/// The logistic Elo difference that gives expected score `p`; `±inf` at 1 and 0.
pub fn elo_of_score(p: f64) -> f64 {
    if p <= 0.0 {
        f64::NEG_INFINITY
    } else if p >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / p - 1.0).log10()
    }
}

/// The Elo difference of a W/D/L record with its 95% interval (see the module docs), or
/// `None` without games.
pub fn elo_estimate(wdl: &Wdl) -> Option<EloEstimate> {
    let p = wdl.score()?;
    let n = wdl.games() as f64;
    if p >= 1.0 || p <= 0.0 {
        // Exact one-sided binomial bound for N out of N (or 0 out of N).
        let bound = elo_of_score(ONE_SIDED_ALPHA.powf(1.0 / n));
        return Some(if p >= 1.0 {
            EloEstimate {
                elo: f64::INFINITY,
                low: bound,
                high: f64::INFINITY,
            }
        } else {
            EloEstimate {
                elo: f64::NEG_INFINITY,
                low: f64::NEG_INFINITY,
                high: -bound,
            }
        });
    }
    let variance = (wdl.wins as f64 * (1.0 - p).powi(2)
        + wdl.draws as f64 * (0.5 - p).powi(2)
        + wdl.losses as f64 * p.powi(2))
        / n;
    let margin = Z95 * (variance / n).sqrt();
    Some(EloEstimate {
        elo: elo_of_score(p),
        low: elo_of_score(p - margin),
        high: elo_of_score(p + margin),
    })
}

/// The Wilson 95% interval of the proportion `k / n`, or `None` when `n == 0`.
pub fn wilson(k: u64, n: u64) -> Option<(f64, f64)> {
    if n == 0 {
        return None;
    }
    let (k, n) = (k as f64, n as f64);
    let p = k / n;
    let z2 = Z95 * Z95;
    let denominator = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denominator;
    let half = Z95 / denominator * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    // Clamp away rounding just outside [0, 1] at k = 0 or k = n.
    Some(((centre - half).max(0.0), (centre + half).min(1.0)))
}

/// An Elo value as printed: one decimal, or `inf` / `-inf`.
pub fn format_elo(elo: f64) -> String {
    if elo == f64::INFINITY {
        "inf".into()
    } else if elo == f64::NEG_INFINITY {
        "-inf".into()
    } else {
        // `+ 0.0` turns a negative zero into "0.0" rather than "-0.0".
        format!("{:.1}", elo + 0.0)
    }
}

/// A proportion or score as printed: four decimals.
pub fn format_rate(x: f64) -> String {
    format!("{x:.4}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) {
        assert!((a - b).abs() <= tolerance, "{a} is not {b} ± {tolerance}");
    }

    #[test]
    fn elo_of_a_mixed_record_by_hand() {
        // W=6 D=2 L=2, N=10: p = (6 + 1)/10 = 0.7.
        // σ² = (6·0.3² + 2·0.2² + 2·0.7²)/10 = (0.54 + 0.08 + 0.98)/10 = 0.16
        // se = sqrt(0.16/10) = 0.126491; z·se = 1.959964 · 0.126491 = 0.247918
        // p range [0.452082, 0.947918]
        // elo(0.7)      = -400·log10(1/0.7 - 1)      = -400·log10(0.428571) = 147.19
        // elo(0.452082) = -400·log10(1.211970)       = -400·0.083498        = -33.40
        // elo(0.947918) = -400·log10(0.054943)       = -400·(-1.260083)     = 504.03
        let e = elo_estimate(&Wdl {
            wins: 6,
            draws: 2,
            losses: 2,
        })
        .unwrap();
        close(e.elo, 147.19, 0.01);
        close(e.low, -33.40, 0.01);
        close(e.high, 504.03, 0.01);
    }

    #[test]
    fn interval_end_past_one_is_infinite() {
        // W=9 D=1: p = 0.95, σ² = (9·0.05² + 1·0.45²)/10 = (0.0225 + 0.2025)/10 = 0.0225
        // se = 0.047434, z·se = 0.092970; p range [0.857030, 1.042970] → upper end inf.
        // elo(0.95) = -400·log10(1/19) = 511.50; elo(0.857030) = -400·log10(0.166821) = 311.10
        let e = elo_estimate(&Wdl {
            wins: 9,
            draws: 1,
            losses: 0,
        })
        .unwrap();
        close(e.elo, 511.50, 0.01);
        close(e.low, 311.10, 0.01);
        assert_eq!(e.high, f64::INFINITY);
    }

    #[test]
    fn perfect_scores_get_a_one_sided_exact_bound() {
        // 10 wins of 10: p_low = 0.05^(1/10) = exp(ln 0.05 / 10) = exp(-0.299573) = 0.741134
        // elo(0.741134) = -400·log10(1/0.741134 - 1) = -400·log10(0.349283) = 182.73
        let w = Wdl {
            wins: 10,
            draws: 0,
            losses: 0,
        };
        let e = elo_estimate(&w).unwrap();
        assert_eq!(e.elo, f64::INFINITY);
        close(e.low, 182.73, 0.01);
        assert_eq!(e.high, f64::INFINITY);
        let l = elo_estimate(&Wdl {
            wins: 0,
            draws: 0,
            losses: 10,
        })
        .unwrap();
        assert_eq!((l.elo, l.low), (f64::NEG_INFINITY, f64::NEG_INFINITY));
        close(l.high, -182.73, 0.01);
        assert_eq!(format_elo(e.elo), "inf");
        assert_eq!(format_elo(l.low), "-inf");
        assert_eq!(format_elo(l.high), "-182.7");
    }

    #[test]
    fn even_and_empty_records() {
        // All draws: p = 0.5, σ² = 0, the interval collapses onto 0.
        let e = elo_estimate(&Wdl {
            wins: 0,
            draws: 4,
            losses: 0,
        })
        .unwrap();
        assert_eq!((e.elo, e.low, e.high), (0.0, 0.0, 0.0));
        assert_eq!(format_elo(e.elo), "0.0");
        assert_eq!(elo_estimate(&Wdl::default()), None);
    }

    #[test]
    fn wilson_by_hand() {
        // k=7, n=10: p̂ = 0.7, z² = 3.841459, 1 + z²/n = 1.384146
        // centre = (0.7 + 0.192073)/1.384146 = 0.644493
        // half = 1.959964/1.384146 · sqrt(0.021 + 0.009604) = 1.416010 · 0.174939 = 0.247715
        // → [0.396778, 0.892209]
        let (lo, hi) = wilson(7, 10).unwrap();
        close(lo, 0.396778, 1e-6);
        close(hi, 0.892209, 1e-6);
        // k=0, n=5: centre = 0.384146/1.768292 = 0.217241 = half → [0, 0.434482]
        let (lo, hi) = wilson(0, 5).unwrap();
        assert_eq!(lo, 0.0);
        close(hi, 0.434482, 1e-6);
        assert_eq!(wilson(0, 0), None);
    }

    #[test]
    fn wdl_counts() {
        let mut w = Wdl::default();
        for r in [1, 1, 0, -1] {
            w.add(r);
        }
        assert_eq!((w.wins, w.draws, w.losses, w.games()), (2, 1, 1, 4));
        assert_eq!(w.decisive(), 3);
        assert_eq!(w.score(), Some(0.625));
        assert_eq!(format_rate(0.625), "0.6250");
    }
}
