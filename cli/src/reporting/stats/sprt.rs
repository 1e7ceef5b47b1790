//! The sequential probability ratio test (SPRT) of a two-agent match on pentanomial pair
//! counts, logistic Elo.
//!
//! `--sprt elo0,elo1,alpha,beta` tests `H0: elo = elo0` against `H1: elo = elo1` (agent A
//! against B, `elo0 < elo1`) with false-positive rate `alpha` and false-negative rate
//! `beta`.
//!
//! **Log-likelihood ratio** (Michel Van den Bergh's generalised SPRT, as fishtest and
//! fastchess compute it): the pair outcomes `x_i = 0, 1/4, 1/2, 3/4, 1` (score per game
//! of a pair) have empirical frequencies `p̂_i = n_i / M`, where a count of zero is
//! replaced by 0.001 (so that a hypothesis is never given probability 0 for an outcome;
//! `M` is the sum of the regularised counts). Under each hypothesis the expected score is
//! `s = 1 / (1 + 10^(-elo/400))`, and the distribution of largest likelihood with that
//! mean is `q_i = p̂_i / (1 + λ(x_i - s))`, with `λ` the root of
//! `Σ p̂_i (x_i - s) / (1 + λ(x_i - s)) = 0` in the interval where every `q_i > 0`
//! (found by bisection to machine precision). Then
//! `LLR = M · Σ p̂_i ln(q1_i / q0_i)`.
//!
//! **Decision**: `LLR ≥ ln((1-beta)/alpha)` accepts H1, `LLR ≤ ln(beta/(1-alpha))`
//! accepts H0, anything between continues.

use super::pentanomial::Pentanomial;
use super::score_of_elo;
use crate::bad_input::BadInput;

/// Count that replaces an outcome never seen.
const REGULARISED_ZERO: f64 = 1e-3;

/// The largest Elo difference `--sprt` takes for `elo0` or `elo1` (either sign): an
/// expected score of 99.68%. Beyond it no match of a practical length could tell the
/// hypotheses apart, and far beyond it the expected score rounds to 1.
pub const MAX_ELO: f64 = 1000.0;

/// Pair scores per game of the five pentanomial outcomes.
const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// What the test says after the pairs seen so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// The LLR reached the lower bound: `elo0` is accepted.
    AcceptH0,
    /// The LLR reached the upper bound: `elo1` is accepted.
    AcceptH1,
    /// Neither bound reached: play on.
    Continue,
}

impl Decision {
    /// The decision as written in summary.csv and the table: `H0`, `H1` or `continue`.
    pub fn word(self) -> &'static str {
        match self {
            Decision::AcceptH0 => "H0",
            Decision::AcceptH1 => "H1",
            Decision::Continue => "continue",
        }
    }
}

/// A validated SPRT configuration.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo difference of H0.
    pub elo0: f64,
    /// Elo difference of H1.
    pub elo1: f64,
    /// False-positive rate (accepting H1 when H0 holds).
    pub alpha: f64,
    /// False-negative rate (accepting H0 when H1 holds).
    pub beta: f64,
}

/// `elo0,elo1,alpha,beta`, as [`Sprt::parse`] reads it (how meta.csv records the test).
impl std::fmt::Display for Sprt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{},{},{},{}",
            self.elo0, self.elo1, self.alpha, self.beta
        )
    }
}

impl Sprt {
    /// A test of `elo0` against `elo1`; fails unless both lie within ±[`MAX_ELO`] with
    /// `elo0 < elo1` and expected scores that differ (as `f64`), and `alpha`, `beta`
    /// lie strictly between 0 and 0.5 with finite bounds. Within these limits the bounds
    /// are finite and so is the LLR of any pair counts (a unit test checks the extremes),
    /// so the test can decide; outside them it could not (an expected score of exactly 1
    /// makes the LLR NaN, equal scores make it 0 for ever, a bound of infinity is never
    /// reached).
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, BadInput> {
        let [e0, e1, a, b] = [elo0, elo1, alpha, beta].map(shown);
        for (name, value) in [("elo0", elo0), ("elo1", elo1)] {
            if value.is_nan() || value.abs() > MAX_ELO {
                return Err(BadInput::new(format!(
                    "--sprt: {name} must lie between -{MAX_ELO} and {MAX_ELO} Elo, got {}",
                    shown(value)
                )));
            }
        }
        if elo0 >= elo1 {
            return Err(BadInput::new(format!(
                "--sprt: elo0 must be less than elo1, got elo0 {e0} and elo1 {e1}"
            )));
        }
        if score_of_elo(elo0) >= score_of_elo(elo1) {
            return Err(BadInput::new(format!(
                "--sprt: elo0 {e0} and elo1 {e1} are too close to tell apart"
            )));
        }
        for (name, value) in [("alpha", alpha), ("beta", beta)] {
            if !(value > 0.0 && value < 0.5) {
                return Err(BadInput::new(format!(
                    "--sprt: {name} must be between 0 and 0.5 (exclusive), got {}",
                    shown(value)
                )));
            }
        }
        let sprt = Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        };
        if !sprt.lower_bound().is_finite() || !sprt.upper_bound().is_finite() {
            return Err(BadInput::new(format!(
                "--sprt: alpha {a} and beta {b} are too small: the test's bounds \
                 ln(beta/(1-alpha)) and ln((1-beta)/alpha) must be finite"
            )));
        }
        Ok(sprt)
    }

    /// Parses `elo0,elo1,alpha,beta` (e.g. `0,5,0.05,0.05`) and validates it as
    /// [`Sprt::new`] does.
    pub fn parse(text: &str) -> Result<Sprt, BadInput> {
        let fields: Vec<&str> = text.split(',').map(str::trim).collect();
        let numbers: Option<Vec<f64>> = fields.iter().map(|f| f.parse().ok()).collect();
        match numbers {
            Some(n) if n.len() == 4 => Sprt::new(n[0], n[1], n[2], n[3]),
            _ => Err(BadInput::new(format!(
                "--sprt: expected four numbers elo0,elo1,alpha,beta (e.g. 0,5,0.05,0.05), \
                 got \"{text}\""
            ))),
        }
    }

    /// The lower bound `ln(beta / (1 - alpha))`: at or below it, H0 is accepted.
    pub fn lower_bound(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// The upper bound `ln((1 - beta) / alpha)`: at or above it, H1 is accepted.
    pub fn upper_bound(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// The log-likelihood ratio of H1 against H0 for these pair counts (0 without pairs).
    pub fn llr(&self, pairs: &Pentanomial) -> f64 {
        if pairs.pairs() == 0 {
            return 0.0;
        }
        let counts = pairs
            .counts
            .map(|n| if n == 0 { REGULARISED_ZERO } else { n as f64 });
        let total: f64 = counts.iter().sum();
        let frequencies = counts.map(|n| n / total);
        let q0 = constrained_mle(&frequencies, score_of_elo(self.elo0));
        let q1 = constrained_mle(&frequencies, score_of_elo(self.elo1));
        total
            * (0..5)
                .map(|i| frequencies[i] * (q1[i].ln() - q0[i].ln()))
                .sum::<f64>()
    }

    /// The decision for a log-likelihood ratio.
    pub fn decision(&self, llr: f64) -> Decision {
        if llr >= self.upper_bound() {
            Decision::AcceptH1
        } else if llr <= self.lower_bound() {
            Decision::AcceptH0
        } else {
            Decision::Continue
        }
    }
}

/// A number of `--sprt` as messages show it: as Rust writes it when that is short, else
/// in scientific notation (`1e308`, not 309 digits).
fn shown(x: f64) -> String {
    let plain = x.to_string();
    if plain.len() <= 12 {
        plain
    } else {
        format!("{x:e}")
    }
}

/// The distribution on [`PAIR_SCORES`] closest in likelihood to `frequencies` (all
/// positive) whose mean is `s` (strictly between 0 and 1).
fn constrained_mle(frequencies: &[f64; 5], s: f64) -> [f64; 5] {
    let f = |lambda: f64| -> f64 {
        (0..5)
            .map(|i| {
                let a = PAIR_SCORES[i] - s;
                frequencies[i] * a / (1.0 + lambda * a)
            })
            .sum()
    };
    // Every 1 + λ(x_i - s) must stay positive: λ in (-1/(1 - s), 1/s). f decreases on
    // that interval from +inf to -inf, so bisection finds its single root.
    let (mut low, mut high) = (-1.0 / (1.0 - s), 1.0 / s);
    for _ in 0..200 {
        let mid = (low + high) / 2.0;
        if mid <= low || mid >= high {
            break;
        }
        if f(mid) > 0.0 {
            low = mid;
        } else {
            high = mid;
        }
    }
    let lambda = (low + high) / 2.0;
    let mut q = [0.0; 5];
    for i in 0..5 {
        q[i] = frequencies[i] / (1.0 + lambda * (PAIR_SCORES[i] - s));
    }
    q
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) {
        assert!((a - b).abs() <= tolerance, "{a} is not {b} ± {tolerance}");
    }

    #[test]
    fn llr_matches_fastchess_published_examples() {
        // fastchess (github.com/Disservin/fastchess, app/tests/sprt_test.cpp, "logistic
        // pentanomial 1" and "2"): pair counts LL, LD, WL, DD, WD, WW =
        // 223, 9863, 20279, 1000, 10037, 246 with elo0 0.5, elo1 2.5 gives LLR -3.07, and
        // 871, 26175, 55003, 980, 26678, 821 with elo0 0, elo1 2 gives -4.98. fastchess
        // checks them to 1%; they are printed to two decimals, so we check to ±0.005.
        let sprt = Sprt::new(0.5, 2.5, 0.05, 0.05).unwrap();
        let pairs = Pentanomial {
            counts: [223, 9863, 20279 + 1000, 10037, 246],
        };
        let llr = sprt.llr(&pairs);
        close(llr, -3.07, 0.005);
        assert_eq!(sprt.decision(llr), Decision::AcceptH0);
        let sprt = Sprt::new(0.0, 2.0, 0.05, 0.05).unwrap();
        let pairs = Pentanomial {
            counts: [871, 26175, 55003 + 980, 26678, 821],
        };
        close(sprt.llr(&pairs), -4.98, 0.005);
    }

    #[test]
    fn bounds_and_decisions() {
        // alpha = beta = 0.05: ln(0.05/0.95) = -2.944439, ln(0.95/0.05) = 2.944439.
        let sprt = Sprt::parse("0,5,0.05,0.05").unwrap();
        close(sprt.lower_bound(), -2.944_439, 1e-6);
        close(sprt.upper_bound(), 2.944_439, 1e-6);
        assert_eq!(sprt.decision(2.95), Decision::AcceptH1);
        assert_eq!(sprt.decision(-2.95), Decision::AcceptH0);
        assert_eq!(sprt.decision(0.0), Decision::Continue);
        assert_eq!(sprt.llr(&Pentanomial::default()), 0.0);
        // A one-sided flood of WW pairs favours the larger Elo.
        let wins = Pentanomial {
            counts: [0, 0, 0, 0, 100],
        };
        assert!(sprt.llr(&wins) > 0.0);
        assert_eq!(
            [Decision::AcceptH0, Decision::AcceptH1, Decision::Continue].map(Decision::word),
            ["H0", "H1", "continue"]
        );
    }

    #[test]
    fn bad_sprt_text_is_one_clear_line() {
        let cases = [
            (
                "0,5,0.05",
                "--sprt: expected four numbers elo0,elo1,alpha,beta (e.g. 0,5,0.05,0.05), \
                 got \"0,5,0.05\"",
            ),
            (
                "0,x,0.05,0.05",
                "--sprt: expected four numbers elo0,elo1,alpha,beta (e.g. 0,5,0.05,0.05), \
                 got \"0,x,0.05,0.05\"",
            ),
            (
                "5,0,0.05,0.05",
                "--sprt: elo0 must be less than elo1, got elo0 5 and elo1 0",
            ),
            (
                "0,5,0.5,0.05",
                "--sprt: alpha must be between 0 and 0.5 (exclusive), got 0.5",
            ),
            (
                "0,5,0.05,0",
                "--sprt: beta must be between 0 and 0.5 (exclusive), got 0",
            ),
        ];
        for (text, line) in cases {
            assert_eq!(Sprt::parse(text).unwrap_err().0, line, "{text}");
        }
    }

    #[test]
    fn hypotheses_the_test_could_never_decide_are_refused() {
        let cases = [
            (
                "0,1e308,0.05,0.05",
                "--sprt: elo1 must lie between -1000 and 1000 Elo, got 1e308",
            ),
            (
                "nan,5,0.05,0.05",
                "--sprt: elo0 must lie between -1000 and 1000 Elo, got NaN",
            ),
            (
                "-inf,5,0.05,0.05",
                "--sprt: elo0 must lie between -1000 and 1000 Elo, got -inf",
            ),
            (
                "0,1e-300,0.05,0.05",
                "--sprt: elo0 0 and elo1 1e-300 are too close to tell apart",
            ),
            (
                "0,5,5e-324,0.05",
                "--sprt: alpha 5e-324 and beta 0.05 are too small: the test's bounds \
                 ln(beta/(1-alpha)) and ln((1-beta)/alpha) must be finite",
            ),
        ];
        for (text, line) in cases {
            assert_eq!(Sprt::parse(text).unwrap_err().0, line, "{text}");
        }
        // At the limits, every kind of result gives a finite LLR, so the test decides:
        // the weaker agent's flood of losses accepts H0, the stronger one's wins H1.
        let floods = (0..5).map(|i| {
            let mut counts = [0; 5];
            counts[i] = 1_000_000;
            Pentanomial { counts }
        });
        let mixed = [[1, 2, 3, 2, 1], [0, 0, 1, 0, 0], [5, 0, 0, 0, 7]]
            .map(|counts| Pentanomial { counts });
        let pairs: Vec<Pentanomial> = floods.chain(mixed).collect();
        for (elo0, elo1) in [
            (-MAX_ELO, MAX_ELO),
            (MAX_ELO - 1.0, MAX_ELO),
            (-MAX_ELO, 1.0 - MAX_ELO),
            (0.0, 1e-9),
        ] {
            for (alpha, beta) in [(0.05, 0.05), (1e-300, 0.499_999), (0.499_999, 1e-300)] {
                let sprt = Sprt::new(elo0, elo1, alpha, beta).unwrap();
                for p in &pairs {
                    let llr = sprt.llr(p);
                    assert!(llr.is_finite(), "{sprt}: {p:?} gives {llr}");
                }
            }
        }
        let sprt = Sprt::new(-MAX_ELO, MAX_ELO, 0.05, 0.05).unwrap();
        let flood = |i: usize| {
            let mut counts = [0; 5];
            counts[i] = 1000;
            sprt.decision(sprt.llr(&Pentanomial { counts }))
        };
        assert_eq!(
            (flood(0), flood(4)),
            (Decision::AcceptH0, Decision::AcceptH1)
        );
    }
}
