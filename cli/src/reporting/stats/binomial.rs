//! A proportion `k / n` (e.g. seat 0's wins over decisive games): its Wilson 95%
//! interval and the exact two-sided binomial test against 1/2.
//!
//! - **Wilson interval**: `p̂ = k/n`, centre `(p̂ + z²/2n) / (1 + z²/n)`, half-width
//!   `z / (1 + z²/n) · sqrt(p̂(1-p̂)/n + z²/4n²)`.
//! - **Exact binomial test** of `H0: P(win) = 1/2`: the two-sided p-value is the
//!   probability under `Binomial(n, 1/2)` of an outcome at most as likely as `k`, which
//!   for this symmetric distribution is `min(1, 2 · P(X ≤ min(k, n-k)))`, the same
//!   number R's `binom.test(k, n)` reports. The largest term comes from logarithms of
//!   the binomial coefficient (`ln Γ`) and the others by their ratios, so a large `n`
//!   neither overflows nor underflows early and costs few terms.

use statrs::function::gamma::ln_gamma;

use super::Z95;

/// The Wilson 95% interval of the proportion `k / n`, or `None` when `n == 0`.
pub fn wilson(k: u64, n: u64) -> Option<(f64, f64)> {
    wilson_at(k, n, Z95)
}

/// The Wilson interval of the proportion `k / n` at `z` (1.96 for 95%), or `None` when
/// `n == 0`.
pub fn wilson_at(k: u64, n: u64, z: f64) -> Option<(f64, f64)> {
    if n == 0 {
        return None;
    }
    let (k, n) = (k as f64, n as f64);
    let p = k / n;
    let z2 = z * z;
    let denominator = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denominator;
    let half = z / denominator * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    // Clamp away rounding just outside [0, 1] at k = 0 or k = n.
    Some(((centre - half).max(0.0), (centre + half).min(1.0)))
}

/// The exact two-sided p-value of `k` successes in `n` trials against a success
/// probability of 1/2, or `None` when `n == 0`.
pub fn binomial_test_half(k: u64, n: u64) -> Option<f64> {
    if n == 0 {
        return None;
    }
    let tail = k.min(n - k);
    let nf = n as f64;
    // The largest term of the lower tail, P(X = tail), from logarithms; the smaller
    // ones follow by the ratio P(X = i-1) / P(X = i) = i / (n - i + 1), until they no
    // longer change the sum.
    let t = tail as f64;
    let mut term =
        (ln_gamma(nf + 1.0) - ln_gamma(t + 1.0) - ln_gamma(nf - t + 1.0) + nf * 0.5f64.ln()).exp();
    let mut lower = 0.0;
    let mut i = tail;
    loop {
        lower += term;
        if i == 0 || term < lower * 1e-17 {
            break;
        }
        term *= i as f64 / (n - i + 1) as f64;
        i -= 1;
    }
    Some((2.0 * lower).min(1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) {
        assert!((a - b).abs() <= tolerance, "{a} is not {b} ± {tolerance}");
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
    fn exact_binomial_p_values_by_hand() {
        // 9 of 10: P(X ≤ 1) = (1 + 10)/1024, doubled: 22/1024 = 0.021484375
        // (R: binom.test(9, 10)$p.value = 0.02148).
        close(binomial_test_half(9, 10).unwrap(), 22.0 / 1024.0, 1e-12);
        close(binomial_test_half(1, 10).unwrap(), 22.0 / 1024.0, 1e-12);
        // 7 of 10: P(X ≤ 3) = (1 + 10 + 45 + 120)/1024 = 176/1024; doubled 0.34375.
        close(binomial_test_half(7, 10).unwrap(), 0.34375, 1e-12);
        // 5 of 10 and 0 of 0: no evidence at all.
        assert_eq!(binomial_test_half(5, 10), Some(1.0));
        assert_eq!(binomial_test_half(0, 0), None);
        // 0 of 16: 2 / 2^16 = 3.0517578125e-5.
        close(binomial_test_half(0, 16).unwrap(), 2.0 / 65536.0, 1e-15);
        // A large n stays finite and tiny: 900 of 1000 rounds to 0 but is not NaN.
        let p = binomial_test_half(900, 1000).unwrap();
        assert!((0.0..1e-100).contains(&p), "{p}");
        // Near the middle of a large n the sum is long and must still be right: by
        // symmetry P(X ≤ 499) = (1 - P(X = 500))/2 for n = 1000, and
        // P(X = 500) = 0.0252250, so the p-value is 1 - 0.0252250 = 0.974775.
        close(binomial_test_half(499, 1000).unwrap(), 0.974_775, 1e-6);
    }
}
