//! Per-pair (pentanomial) statistics.
//!
//! Games `2p` and `2p+1` of a pairing are a pair: the same start with seats swapped (and,
//! for chance games, the same luck). Their results are correlated, so the pair, not the
//! game, is the independent trial. A pair scores 0, 0.5, 1, 1.5 or 2 points for agent A
//! (LL, LD, DD or WL, WD, WW); [`Pentanomial`] counts pairs by these five outcomes.
//!
//! **Elo interval**: with `x_i = i/4` the pair score per game (0, 1/4, 1/2, 3/4, 1) and
//! `M` pairs, `p = Σ n_i x_i / M` (the same score as the per-game count of complete
//! pairs), `σ² = Σ n_i (x_i - p)² / M`, `se = sqrt(σ² / M)`, and the interval is
//! `[elo(p - z·se), elo(p + z·se)]`, an end past 0 or 1 being `∓inf`. When every pair
//! is WW (`p = 1`), the lower end is `elo(0.05^(1/M))`: a pair scores 1 with probability
//! at most its expected score `μ` (Markov's inequality), so `M` such pairs in a row have
//! probability at most `μ^M`, below 5% whenever `μ < 0.05^(1/M)`. Every pair LL
//! mirrors this.

use super::elo::perfect_score;
use super::{elo_of_score, EloEstimate, Z95};

/// Number of pairs of agent A by the points A scored in the pair, in half points:
/// `counts[i]` pairs scored `i/2` points (0 = LL, 1 = LD, 2 = DD or WL, 3 = WD, 4 = WW).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial {
    /// Pairs by A's points in half points.
    pub counts: [u64; 5],
}

impl Pentanomial {
    /// Adds a pair in which A scored `half_points / 2` points (0..=4).
    pub fn add(&mut self, half_points: usize) {
        self.counts[half_points] += 1;
    }

    /// Number of pairs.
    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// A's mean score per game over the pairs, or `None` without pairs.
    pub fn score(&self) -> Option<f64> {
        let m = self.pairs();
        (m > 0).then(|| {
            self.counts
                .iter()
                .enumerate()
                .map(|(i, &n)| n as f64 * i as f64 / 4.0)
                .sum::<f64>()
                / m as f64
        })
    }

    /// The Elo difference with its 95% pair-based interval (see the module docs), or
    /// `None` without pairs.
    pub fn elo_estimate(&self) -> Option<EloEstimate> {
        let p = self.score()?;
        let m = self.pairs() as f64;
        if p >= 1.0 || p <= 0.0 {
            return Some(perfect_score(p >= 1.0, self.pairs()));
        }
        let variance = self
            .counts
            .iter()
            .enumerate()
            .map(|(i, &n)| n as f64 * (i as f64 / 4.0 - p).powi(2))
            .sum::<f64>()
            / m;
        let margin = Z95 * (variance / m).sqrt();
        Some(EloEstimate {
            elo: elo_of_score(p),
            low: elo_of_score(p - margin),
            high: elo_of_score(p + margin),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) {
        assert!((a - b).abs() <= tolerance, "{a} is not {b} ± {tolerance}");
    }

    #[test]
    fn pentanomial_elo_by_hand() {
        // Pairs LL, LD, DD×2, WD×3, WW×2 (counts 1,1,2,3,2; M = 9).
        // p = (0 + 0.25 + 2·0.5 + 3·0.75 + 2·1)/9 = 5.5/9 = 0.611111
        // σ² = (0.611111² + 0.361111² + 2·0.111111² + 3·0.138889² + 2·0.388889²)/9
        //    = (0.373457 + 0.130401 + 0.024691 + 0.057870 + 0.302469)/9 = 0.888889/9
        //    = 0.098765; se = sqrt(0.098765/9) = 0.104757; z·se = 0.205320
        // p range [0.405791, 0.816431]
        // elo(0.611111) = -400·log10(0.636364) = 78.52
        // elo(0.405791) = -400·log10(1.464321) = -66.26
        // elo(0.816431) = -400·log10(0.224843) = 259.25
        let p = Pentanomial {
            counts: [1, 1, 2, 3, 2],
        };
        assert_eq!(p.pairs(), 9);
        let e = p.elo_estimate().unwrap();
        close(e.elo, 78.52, 0.01);
        close(e.low, -66.26, 0.01);
        close(e.high, 259.25, 0.01);
    }

    #[test]
    fn pairs_are_tighter_than_games_when_pairs_cancel() {
        // 4 pairs, each WL (the seat decides): per game 4-0-4, p = 0.5 with a wide
        // trinomial interval; per pair every pair scores 1, σ² = 0, the interval is [0, 0].
        let mut p = Pentanomial::default();
        for _ in 0..4 {
            p.add(2);
        }
        let e = p.elo_estimate().unwrap();
        assert_eq!((e.elo, e.low, e.high), (0.0, 0.0, 0.0));
    }

    #[test]
    fn all_pairs_won_get_the_markov_bound() {
        // 5 pairs WW: low = elo(0.05^(1/5)) = elo(0.549280) = -400·log10(0.820564)
        //   = -400·(-0.085887) = 34.35
        let p = Pentanomial {
            counts: [0, 0, 0, 0, 5],
        };
        let e = p.elo_estimate().unwrap();
        assert_eq!((e.elo, e.high), (f64::INFINITY, f64::INFINITY));
        close(e.low, 34.35, 0.01);
        assert_eq!(Pentanomial::default().elo_estimate(), None);
    }
}
