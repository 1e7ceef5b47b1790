//! Match statistics, one module per job; every function is pure (numbers in, numbers
//! out) so that the summary of a run depends on its game rows alone.
//!
//! - [`elo`]: per-game (trinomial) score, Elo difference with a 95% interval, likelihood
//!   of superiority, the score's own interval.
//! - [`pentanomial`]: per-pair counts (LL, LD, DD or WL, WD, WW) and the pair-based Elo
//!   interval.
//! - [`binomial`]: Wilson interval and exact two-sided binomial test against 50%.
//! - [`ratings`]: Bradley–Terry maximum-likelihood ratings of a round robin.
//! - [`sprt`]: the sequential probability ratio test on pentanomial counts.
//! - [`lengths`]: mean, spread and quantiles of game lengths.
//!
//! All intervals are two-sided 95% unless said otherwise, with `z = 1.959964` (the 97.5%
//! quantile of the standard normal). Elo is logistic throughout: expected score
//! `p = 1 / (1 + 10^(-elo/400))`, so `elo(p) = -400 · log10(1/p - 1)`.

pub mod binomial;
pub mod elo;
pub mod lengths;
pub mod pentanomial;
pub mod ratings;
pub mod sprt;

/// Two-sided 95% normal quantile (`Φ⁻¹(0.975)`).
pub const Z95: f64 = 1.959_963_984_540_054;

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

/// The expected score of a logistic Elo difference, `1 / (1 + 10^(-elo/400))`.
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
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

/// A proportion, score or probability as printed: four decimals.
pub fn format_rate(x: f64) -> String {
    format!("{:.4}", x + 0.0)
}

/// A p-value as printed: four decimals down to 0.0001, below that scientific notation
/// with two decimals (`3.05e-7`), so that a tiny p-value does not print as `0.0000`.
pub fn format_p_value(p: f64) -> String {
    if p >= 1e-4 || p == 0.0 {
        format_rate(p)
    } else {
        format!("{p:.2e}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn elo_and_score_are_inverse() {
        // 0.75 → -400·log10(1/3) = 190.85; and back.
        assert!((elo_of_score(0.75) - 190.849).abs() < 1e-3);
        assert!((score_of_elo(190.849_1) - 0.75).abs() < 1e-6);
        assert_eq!(elo_of_score(1.0), f64::INFINITY);
        assert_eq!(format_elo(-0.01), "-0.0");
        assert_eq!(format_elo(-0.0), "0.0");
    }

    #[test]
    fn p_values_print_readably() {
        assert_eq!(format_p_value(1.0), "1.0000");
        assert_eq!(format_p_value(0.021_484_375), "0.0215");
        assert_eq!(format_p_value(3.051_757_812_5e-5), "3.05e-5");
    }
}
