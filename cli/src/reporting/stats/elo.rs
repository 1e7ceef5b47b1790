//! Per-game (trinomial) statistics of a W/D/L record.
//!
//! - **Score** `p = (W + D/2) / N`; per-game variance
//!   `σ² = (W(1-p)² + D(1/2-p)² + L·p²) / N`, standard error `se = sqrt(σ² / N)`.
//! - **Score interval**: `[p - z·se, p + z·se]` clipped to `[0, 1]` (normal
//!   approximation; every game drawn gives `se = 0`). For a perfect score the exact
//!   one-sided bound below replaces it: `[p_low, 1]` or `[0, 1 - p_low]`.
//! - **Elo interval**: `[elo(p - z·se), elo(p + z·se)]`. An end past 0 or 1 maps to
//!   `-inf` or `inf` (the data cannot exclude an infinite difference). Every game drawn
//!   gives `σ² = 0`, so the interval collapses onto 0.
//! - **Perfect scores** (`p = 1` or `p = 0`): the Elo is `inf` or `-inf`, and the finite
//!   end is a *one-sided* 95% bound: the exact (Clopper–Pearson) binomial bound on the
//!   score for N wins out of N games, `p_low = 0.05^(1/N)`, so the interval is
//!   `[elo(p_low), inf]` (and `[-inf, -elo(p_low)]` for N losses). Such a record has no
//!   draw, so the binomial model is exact.
//! - **Likelihood of superiority** (the usual normal approximation of the chance that
//!   the side is stronger, draws carrying no information):
//!   `LOS = Φ((W - L) / sqrt(W + L)) = 1/2 + 1/2 · erf((W - L) / sqrt(2(W + L)))`,
//!   undefined without a decisive game.

use statrs::function::erf::erf;

use super::{elo_of_score, EloEstimate, Wdl, Z95};

/// One-sided tail probability of the bound reported for a perfect score.
pub const ONE_SIDED_ALPHA: f64 = 0.05;

/// The score `p` of a record and the per-game variance of its score,
/// `σ² = (W(1-p)² + D(1/2-p)² + L·p²) / N`, as `(p, σ²)`; `None` without games. The
/// variance of the mean score is `σ² / N`.
pub fn score_and_variance(wdl: &Wdl) -> Option<(f64, f64)> {
    let p = wdl.score()?;
    let variance = (wdl.wins as f64 * (1.0 - p).powi(2)
        + wdl.draws as f64 * (0.5 - p).powi(2)
        + wdl.losses as f64 * p.powi(2))
        / wdl.games() as f64;
    Some((p, variance))
}

/// The score of a record and the half-width `z·se` of its 95% interval, or `None`
/// without games.
fn score_and_margin(wdl: &Wdl) -> Option<(f64, f64)> {
    let (p, variance) = score_and_variance(wdl)?;
    Some((p, Z95 * (variance / wdl.games() as f64).sqrt()))
}

/// The score of a record with its 95% interval clipped to `[0, 1]`, as
/// `(score, low, high)`, or `None` without games. A perfect score gets the exact
/// one-sided bound instead: `[0.05^(1/N), 1]` for N wins, `[0, 1 - 0.05^(1/N)]` for N
/// losses.
pub fn score_interval(wdl: &Wdl) -> Option<(f64, f64, f64)> {
    let (p, margin) = score_and_margin(wdl)?;
    let bound = ONE_SIDED_ALPHA.powf(1.0 / wdl.games() as f64);
    Some(if p >= 1.0 {
        (p, bound, 1.0)
    } else if p <= 0.0 {
        (p, 0.0, 1.0 - bound)
    } else {
        (p, (p - margin).max(0.0), (p + margin).min(1.0))
    })
}

/// The Elo difference of a W/D/L record with its 95% interval (see the module docs), or
/// `None` without games.
pub fn elo_estimate(wdl: &Wdl) -> Option<EloEstimate> {
    let (p, margin) = score_and_margin(wdl)?;
    if p >= 1.0 || p <= 0.0 {
        return Some(perfect_score(p >= 1.0, wdl.games()));
    }
    Some(EloEstimate {
        elo: elo_of_score(p),
        low: elo_of_score(p - margin),
        high: elo_of_score(p + margin),
    })
}

/// The estimate of a perfect record of `trials` independent trials, each of which the
/// side wins with probability at most its expected score: `[elo(0.05^(1/trials)), inf]`
/// for all won, its mirror for all lost.
pub fn perfect_score(won: bool, trials: u64) -> EloEstimate {
    let bound = elo_of_score(ONE_SIDED_ALPHA.powf(1.0 / trials as f64));
    if won {
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
    }
}

/// The likelihood of superiority of a record, or `None` without a decisive game.
pub fn los(wdl: &Wdl) -> Option<f64> {
    let decisive = wdl.decisive();
    (decisive > 0).then(|| {
        let diff = wdl.wins as f64 - wdl.losses as f64;
        0.5 + 0.5 * erf(diff / (2.0 * decisive as f64).sqrt())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reporting::stats::format_elo;

    fn close(a: f64, b: f64, tolerance: f64) {
        assert!((a - b).abs() <= tolerance, "{a} is not {b} ± {tolerance}");
    }

    fn wdl(wins: u64, draws: u64, losses: u64) -> Wdl {
        Wdl {
            wins,
            draws,
            losses,
        }
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
        let e = elo_estimate(&wdl(6, 2, 2)).unwrap();
        close(e.elo, 147.19, 0.01);
        close(e.low, -33.40, 0.01);
        close(e.high, 504.03, 0.01);
        let (p, low, high) = score_interval(&wdl(6, 2, 2)).unwrap();
        close(p, 0.7, 1e-12);
        close(low, 0.452082, 1e-6);
        close(high, 0.947918, 1e-6);
    }

    #[test]
    fn interval_end_past_one_is_infinite() {
        // W=9 D=1: p = 0.95, σ² = (9·0.05² + 1·0.45²)/10 = (0.0225 + 0.2025)/10 = 0.0225
        // se = 0.047434, z·se = 0.092970; p range [0.857030, 1.042970] → upper end inf.
        // elo(0.95) = -400·log10(1/19) = 511.50; elo(0.857030) = -400·log10(0.166821) = 311.10
        let e = elo_estimate(&wdl(9, 1, 0)).unwrap();
        close(e.elo, 511.50, 0.01);
        close(e.low, 311.10, 0.01);
        assert_eq!(e.high, f64::INFINITY);
        // The score interval is clipped at 1.
        assert_eq!(score_interval(&wdl(9, 1, 0)).unwrap().2, 1.0);
    }

    #[test]
    fn perfect_scores_get_a_one_sided_exact_bound() {
        // 10 wins of 10: p_low = 0.05^(1/10) = exp(ln 0.05 / 10) = exp(-0.299573) = 0.741134
        // elo(0.741134) = -400·log10(1/0.741134 - 1) = -400·log10(0.349283) = 182.73
        let e = elo_estimate(&wdl(10, 0, 0)).unwrap();
        assert_eq!(e.elo, f64::INFINITY);
        let (p, low, high) = score_interval(&wdl(10, 0, 0)).unwrap();
        assert_eq!((p, high), (1.0, 1.0));
        close(low, 0.741134, 1e-6);
        let (p, low, high) = score_interval(&wdl(0, 0, 10)).unwrap();
        assert_eq!((p, low), (0.0, 0.0));
        close(high, 0.258866, 1e-6);
        close(e.low, 182.73, 0.01);
        assert_eq!(e.high, f64::INFINITY);
        let l = elo_estimate(&wdl(0, 0, 10)).unwrap();
        assert_eq!((l.elo, l.low), (f64::NEG_INFINITY, f64::NEG_INFINITY));
        close(l.high, -182.73, 0.01);
        assert_eq!(format_elo(e.elo), "inf");
        assert_eq!(format_elo(l.low), "-inf");
        assert_eq!(format_elo(l.high), "-182.7");
    }

    #[test]
    fn even_and_empty_records() {
        // All draws: p = 0.5, σ² = 0, the interval collapses onto 0.
        let e = elo_estimate(&wdl(0, 4, 0)).unwrap();
        assert_eq!((e.elo, e.low, e.high), (0.0, 0.0, 0.0));
        assert_eq!(format_elo(e.elo), "0.0");
        assert_eq!(elo_estimate(&Wdl::default()), None);
        assert_eq!(los(&wdl(0, 4, 0)), None);
    }

    #[test]
    fn likelihood_of_superiority_by_hand() {
        // W=6, L=2: (6-2)/sqrt(2·8) = 1 → 0.5 + 0.5·erf(1) = 0.5 + 0.5·0.8427008 = 0.9213504
        close(los(&wdl(6, 5, 2)).unwrap(), 0.921_350_4, 1e-7);
        // Even record: exactly 0.5. Mirror: 1 - 0.9213504.
        assert_eq!(los(&wdl(3, 1, 3)), Some(0.5));
        close(los(&wdl(2, 0, 6)).unwrap(), 0.078_649_6, 1e-7);
    }
}
