//! The race's statistics and its elimination rule, as pure functions of the candidates'
//! records (seat 0's wins, draws and losses), so that the rule is tested by hand.
//!
//! **Intervals.** A candidate's seat-0 score `p = (W + D/2) / N` gets the interval
//! `p ± z·sqrt(σ²/N)`, clipped to `[0, 1]`, where `σ²` is the per-game variance of the
//! score ([`score_and_variance`]) but never less than `1/(4N)`: a candidate whose first
//! games all ended alike (every game drawn at a cap) is not taken as certain from a
//! handful of games. `z` is corrected for every look the race may take
//! ([`corrected_z`]): with `K` candidates and at most `R` rounds, each interval is at
//! confidence `1 − α/(K·R)`, so by Bonferroni's inequality the chance that any
//! interval of the race misses its candidate's true score is at most `α` (5%).
//!
//! **Elimination** (successive elimination on the distance from even, `|p − 1/2|`).
//! From a score interval `[lo, hi]` the distance lies in `[d_lo, d_hi]`: `d_lo` is 0 when
//! the interval holds 1/2, else the nearer end's distance; `d_hi` the farther end's.
//! After each round, the best candidate is the one whose `d_hi` is smallest (the
//! surest to be near even), and every candidate whose `d_lo` exceeds that `d_hi` leaves
//! the race. When every interval holds its truth, a candidate that leaves is further
//! from even than the best, so the truly fairest candidate never leaves: the race's
//! error rate, the chance that the fairest candidate is eliminated, is at most `α`.
//!
//! **Stopping.** The race stops when one candidate is left, when every candidate left
//! has an interval no wider than the width asked for (they cannot be told apart at that
//! width), or when the next round would pass the budget of games.

use statrs::function::erf::erfc_inv;

use crate::reporting::stats::elo::score_and_variance;
use crate::reporting::stats::Wdl;

/// The race's error rate: the chance, at most, that the fairest candidate leaves.
pub const ERROR_RATE: f64 = 0.05;

/// `z` of a two-sided interval at confidence `1 − ERROR_RATE / looks`, for `looks`
/// intervals in all (candidates × rounds): `Φ⁻¹(1 − α/(2·looks)) = √2·erfc⁻¹(α/looks)`.
pub fn corrected_z(looks: u64) -> f64 {
    std::f64::consts::SQRT_2 * erfc_inv(ERROR_RATE / looks.max(1) as f64)
}

/// The confidence of each interval at `looks` looks, `1 − α/looks`.
pub fn confidence(looks: u64) -> f64 {
    1.0 - ERROR_RATE / looks.max(1) as f64
}

/// A seat-0 score with its interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Score {
    /// The score, `(W + D/2) / N`.
    pub value: f64,
    /// Lower end of the interval.
    pub low: f64,
    /// Upper end of the interval.
    pub high: f64,
}

impl Score {
    /// The score of `wdl` with its interval at `z` (see the module docs); `None`
    /// without games.
    pub fn of(wdl: &Wdl, z: f64) -> Option<Score> {
        let (p, variance) = score_and_variance(wdl)?;
        let n = wdl.games() as f64;
        let margin = z * (variance.max(0.25 / n) / n).sqrt();
        Some(Score {
            value: p,
            low: (p - margin).max(0.0),
            high: (p + margin).min(1.0),
        })
    }

    /// The interval's width.
    pub fn width(&self) -> f64 {
        self.high - self.low
    }

    /// The interval of the distance from an even game, `(d_lo, d_hi)`.
    pub fn distance(&self) -> (f64, f64) {
        let (lo, hi) = (self.low - 0.5, self.high - 0.5);
        let far = lo.abs().max(hi.abs());
        let near = if lo <= 0.0 && hi >= 0.0 {
            0.0
        } else {
            lo.abs().min(hi.abs())
        };
        (near, far)
    }
}

/// The candidates (by index into `scores`) that leave the race after a round, given the
/// scores of those still in it (`None` for a candidate not in the race): every one
/// whose distance from even is surely larger than the best candidate's surest distance.
pub fn eliminated(scores: &[Option<Score>]) -> Vec<usize> {
    let best = scores
        .iter()
        .flatten()
        .map(|s| s.distance().1)
        .fold(f64::INFINITY, f64::min);
    scores
        .iter()
        .enumerate()
        .filter_map(|(i, s)| s.filter(|s| s.distance().0 > best).map(|_| i))
        .collect()
}

/// The fairest of the candidates in the race: the smallest `|p − 1/2|`, the first in
/// candidate order on a tie; `None` when none is in it.
pub fn fairest(scores: &[Option<Score>]) -> Option<usize> {
    scores
        .iter()
        .enumerate()
        .filter_map(|(i, s)| s.map(|s| (i, (s.value - 0.5).abs())))
        .fold(None, |best: Option<(usize, f64)>, (i, d)| match best {
            Some((_, b)) if b <= d => best,
            _ => Some((i, d)),
        })
        .map(|(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) {
        assert!((a - b).abs() < 1e-6, "{a} != {b}");
    }

    fn wdl(wins: u64, draws: u64, losses: u64) -> Wdl {
        Wdl {
            wins,
            draws,
            losses,
        }
    }

    #[test]
    fn the_corrected_z_widens_with_the_looks() {
        // One look: the usual 95% two-sided z.
        close(corrected_z(1), 1.959_964);
        // 10 candidates × 20 rounds: 1 - 0.05/200 = 0.99975 two-sided, z = 3.6623.
        close(corrected_z(200), 3.662_260);
        close(confidence(200), 0.99975);
    }

    #[test]
    fn a_score_interval_by_hand_with_its_variance_floor() {
        // 60 wins, 40 losses: p = 0.6, σ² = 0.24, se = sqrt(0.24/100) = 0.04899.
        let s = Score::of(&wdl(60, 0, 40), 2.0).unwrap();
        close(s.value, 0.6);
        close(s.low, 0.6 - 2.0 * 0.048_990);
        close(s.high, 0.6 + 2.0 * 0.048_990);
        // Every game drawn: σ² = 0 is floored at 1/(4N), so se = 1/(2N) = 0.05 at N = 10.
        let d = Score::of(&wdl(0, 10, 0), 2.0).unwrap();
        close(d.low, 0.4);
        close(d.high, 0.6);
        assert_eq!(Score::of(&wdl(0, 0, 0), 2.0), None);
    }

    #[test]
    fn the_distance_from_even_of_an_interval() {
        let s = |low, high| Score {
            value: (low + high) / 2.0,
            low,
            high,
        };
        let (near, far) = s(0.45, 0.52).distance();
        close(near, 0.0);
        close(far, 0.05);
        let (near, far) = s(0.55, 0.62).distance();
        close(near, 0.05);
        close(far, 0.12);
        let (near, far) = s(0.30, 0.41).distance();
        close(near, 0.09);
        close(far, 0.20);
    }

    #[test]
    fn a_candidate_leaves_only_when_surely_further_from_even_than_the_best() {
        let s = |value, low, high| Some(Score { value, low, high });
        let scores = [
            // Best: surely within 0.04 of even.
            s(0.51, 0.47, 0.54),
            // Surely at least 0.05 away (> 0.04): leaves.
            s(0.62, 0.55, 0.69),
            // Overlaps the best's reach (at least 0.03 away): stays.
            s(0.40, 0.33, 0.47),
            // Already out.
            None,
            // Below even by at least 0.06: leaves.
            s(0.36, 0.29, 0.44),
        ];
        assert_eq!(eliminated(&scores), [1, 4]);
        assert_eq!(fairest(&scores), Some(0));
        assert_eq!(eliminated(&[None, None]), Vec::<usize>::new());
        assert_eq!(fairest(&[None, None]), None);
        // A tie goes to the first in candidate order.
        assert_eq!(
            fairest(&[None, s(0.52, 0.4, 0.6), s(0.48, 0.4, 0.6)]),
            Some(1)
        );
    }
}
