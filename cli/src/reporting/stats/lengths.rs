//! Game lengths (plies): mean, spread and quantiles.
//!
//! - `sd` is the sample standard deviation (divisor `n - 1`); undefined for one game.
//! - Quantiles are interpolated linearly between order statistics (Hyndman and Fan's
//!   type 7, the default of R and NumPy): for the sorted lengths `x_0 ≤ … ≤ x_{n-1}` and
//!   `q` in `[0, 1]`, `h = (n - 1)·q` and `Q(q) = x_⌊h⌋ + (h - ⌊h⌋)(x_⌊h⌋+1 - x_⌊h⌋)`.
//!   The median is `Q(1/2)`, the quartiles `Q(1/4)` and `Q(3/4)`.

/// Summary of a set of game lengths.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LengthStats {
    /// Number of games.
    pub games: u64,
    /// Mean length.
    pub mean: f64,
    /// Sample standard deviation; `None` for a single game.
    pub sd: Option<f64>,
    /// Shortest game.
    pub min: u32,
    /// First quartile.
    pub q1: f64,
    /// Median.
    pub median: f64,
    /// Third quartile.
    pub q3: f64,
    /// Longest game.
    pub max: u32,
}

impl LengthStats {
    /// The statistics of `lengths` (any order), or `None` when there are none.
    pub fn of(lengths: &[u32]) -> Option<LengthStats> {
        if lengths.is_empty() {
            return None;
        }
        let mut sorted = lengths.to_vec();
        sorted.sort_unstable();
        let n = sorted.len();
        let mean = sorted.iter().map(|&x| x as f64).sum::<f64>() / n as f64;
        let sd = (n > 1).then(|| {
            let squares: f64 = sorted.iter().map(|&x| (x as f64 - mean).powi(2)).sum();
            (squares / (n - 1) as f64).sqrt()
        });
        let quantile = |q: f64| {
            let h = (n - 1) as f64 * q;
            let low = h.floor() as usize;
            let high = (low + 1).min(n - 1);
            sorted[low] as f64 + (h - low as f64) * (sorted[high] as f64 - sorted[low] as f64)
        };
        Some(LengthStats {
            games: n as u64,
            mean,
            sd,
            min: sorted[0],
            q1: quantile(0.25),
            median: quantile(0.5),
            q3: quantile(0.75),
            max: sorted[n - 1],
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_by_hand() {
        // Sorted 2 3 5 7 11 13: mean 41/6 = 6.833333; squares about the mean
        // 23.361 + 14.694 + 3.361 + 0.028 + 17.361 + 38.028 = 96.833, /5 = 19.3667,
        // sd = 4.400758. h(1/4) = 1.25 → 3 + 0.25·2 = 3.5; h(1/2) = 2.5 → 6;
        // h(3/4) = 3.75 → 7 + 0.75·4 = 10 (R: quantile(c(2,3,5,7,11,13)) = 3.5 6 10).
        let s = LengthStats::of(&[13, 2, 7, 3, 11, 5]).unwrap();
        assert_eq!((s.games, s.min, s.max), (6, 2, 13));
        assert!((s.mean - 41.0 / 6.0).abs() < 1e-12);
        assert!((s.sd.unwrap() - 4.400_758).abs() < 1e-6);
        assert_eq!((s.q1, s.median, s.q3), (3.5, 6.0, 10.0));
        let one = LengthStats::of(&[4]).unwrap();
        assert_eq!((one.sd, one.median, one.q1), (None, 4.0, 4.0));
        assert_eq!(LengthStats::of(&[]), None);
    }
}
