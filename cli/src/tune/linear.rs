//! The linear model of an evaluator that the tuner fits: each position's evaluation as
//! its value at the weights `w0` plus its slope in each weight times the step from `w0`,
//! predicted as a probability of winning by a logistic curve, and fitted by Adam to the
//! mean squared error against the games' results.
//!
//! Everything here is plain `f64` arithmetic in a fixed order (no threads), so a fit
//! gives the same bits on any machine with IEEE doubles and at any thread count.

/// Evaluator units per logistic unit at `K = 1`: the prediction for an evaluation `e`
/// is `sigmoid(K * e / SCALE)`.
pub const SCALE: f64 = 100.0;

/// Adam's steps per fit of the linear model.
const STEPS: usize = 400;
/// Adam's first step in each weight, as a share of the weight's range; it decays
/// linearly to a tenth of that over the fit.
const FIRST_STEP: f64 = 0.02;
/// Adam's decay rates of the mean gradient and of the mean squared gradient.
const BETA: (f64, f64) = (0.9, 0.999);
/// Adam's guard against division by zero.
const EPSILON: f64 = 1e-12;

/// The logistic function.
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The mean squared error of predicting `targets` from `evals` with `k`.
pub fn loss(evals: &[f64], targets: &[f64], k: f64) -> f64 {
    if evals.is_empty() {
        return 0.0;
    }
    let sum: f64 = evals
        .iter()
        .zip(targets)
        .map(|(&e, &y)| (sigmoid(k * e / SCALE) - y).powi(2))
        .sum();
    sum / evals.len() as f64
}

/// The positions' evaluations as linear functions of the weights around `origin`.
#[derive(Clone, Debug, PartialEq)]
pub struct LinearModel {
    /// The weights the model was taken at.
    pub origin: Vec<f64>,
    /// Each position's evaluation at `origin`.
    pub values: Vec<f64>,
    /// Each position's slopes, one per weight (`positions × weights`, row by row).
    pub slopes: Vec<f64>,
    /// Each position's result for the seat to move (0, 0.5 or 1).
    pub targets: Vec<f64>,
}

impl LinearModel {
    /// The number of weights.
    fn weights(&self) -> usize {
        self.origin.len()
    }

    /// Position `p`'s evaluation at `w` by the model.
    fn eval(&self, p: usize, w: &[f64]) -> f64 {
        let n = self.weights();
        let slopes = &self.slopes[p * n..(p + 1) * n];
        self.values[p]
            + slopes
                .iter()
                .zip(w.iter().zip(&self.origin))
                .map(|(s, (w, o))| s * (w - o))
                .sum::<f64>()
    }

    /// The model's mean squared error at weights `w` with `k`.
    pub fn loss(&self, w: &[f64], k: f64) -> f64 {
        let evals: Vec<f64> = (0..self.values.len()).map(|p| self.eval(p, w)).collect();
        loss(&evals, &self.targets, k)
    }

    /// The gradient of [`LinearModel::loss`] in `w`: for each weight `i`, the mean over
    /// positions of `2 (σ - y) σ (1 - σ) (k / SCALE) slope_i`, with `σ` the prediction.
    pub fn gradient(&self, w: &[f64], k: f64) -> Vec<f64> {
        let n = self.weights();
        let mut gradient = vec![0.0; n];
        let positions = self.values.len();
        if positions == 0 {
            return gradient;
        }
        for p in 0..positions {
            let s = sigmoid(k * self.eval(p, w) / SCALE);
            let factor = 2.0 * (s - self.targets[p]) * s * (1.0 - s) * k / SCALE;
            for (g, slope) in gradient.iter_mut().zip(&self.slopes[p * n..(p + 1) * n]) {
                *g += factor * slope;
            }
        }
        for g in &mut gradient {
            *g /= positions as f64;
        }
        gradient
    }

    /// The weights within `ranges` (inclusive) that minimise [`LinearModel::loss`] as
    /// far as [`STEPS`] steps of Adam from `origin` find them, each step's size a share
    /// of the weight's range and each step clamped to the range.
    pub fn fit(&self, ranges: &[(f64, f64)], k: f64) -> Vec<f64> {
        let n = self.weights();
        let mut w = self.origin.clone();
        let (mut mean, mut square) = (vec![0.0; n], vec![0.0; n]);
        for t in 1..=STEPS {
            let gradient = self.gradient(&w, k);
            let decay = 1.0 - 0.9 * (t - 1) as f64 / STEPS as f64;
            for i in 0..n {
                mean[i] = BETA.0 * mean[i] + (1.0 - BETA.0) * gradient[i];
                square[i] = BETA.1 * square[i] + (1.0 - BETA.1) * gradient[i].powi(2);
                let mean_hat = mean[i] / (1.0 - BETA.0.powi(t as i32));
                let square_hat = square[i] / (1.0 - BETA.1.powi(t as i32));
                let (lo, hi) = ranges[i];
                let step = FIRST_STEP * (hi - lo) * decay;
                w[i] = (w[i] - step * mean_hat / (square_hat.sqrt() + EPSILON)).clamp(lo, hi);
            }
        }
        w
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Three weights, five positions, slopes and values of both signs: a model whose
    /// gradient has every term at work.
    fn model() -> LinearModel {
        LinearModel {
            origin: vec![2.0, 10.0, -3.0],
            values: vec![40.0, -25.0, 5.0, 0.0, 130.0],
            slopes: vec![
                1.0, 3.0, 0.0, //
                -2.0, 0.5, 4.0, //
                0.0, 0.0, 1.0, //
                7.0, -1.0, -2.0, //
                3.0, 2.0, 0.5,
            ],
            targets: vec![1.0, 0.0, 0.5, 0.5, 1.0],
        }
    }

    #[test]
    fn the_gradient_is_the_derivative_of_the_loss() {
        // Central differences of the loss in each weight, at several points and K: the
        // analytic gradient agrees to far below any error in its formula (a sign, a
        // factor of 2 or of K / SCALE, a missing term).
        let model = model();
        for (w, k) in [
            (vec![2.0, 10.0, -3.0], 1.0),
            (vec![5.5, -4.0, 12.0], 0.3),
            (vec![-20.0, 30.0, 1.0], 2.5),
        ] {
            let gradient = model.gradient(&w, k);
            for i in 0..w.len() {
                let h = 1e-4;
                let at = |d: f64| {
                    let mut moved = w.clone();
                    moved[i] += d;
                    model.loss(&moved, k)
                };
                let numeric = (at(h) - at(-h)) / (2.0 * h);
                assert!(
                    (gradient[i] - numeric).abs() <= 1e-9 + 1e-6 * numeric.abs(),
                    "weight {i} at {w:?}, k {k}: gradient {} but the loss changes by {numeric}",
                    gradient[i]
                );
                assert!(numeric.abs() > 1e-6, "weight {i} at {w:?}: a flat point");
            }
        }
    }

    #[test]
    fn the_model_is_exact_at_its_origin_and_linear_around_it() {
        let model = model();
        assert_eq!(model.eval(1, &model.origin), -25.0);
        // Position 1 moved by +1 in weight 2 (slope 4) and -2 in weight 0 (slope -2).
        assert_eq!(model.eval(1, &[0.0, 10.0, -2.0]), -25.0 + 4.0 + 4.0);
        assert_eq!(loss(&[0.0], &[0.5], 1.0), 0.0);
        assert!((loss(&[SCALE], &[1.0], 1.0) - (1.0 - sigmoid(1.0)).powi(2)).abs() < 1e-15);
    }

    #[test]
    fn the_fit_lowers_the_loss_and_stays_in_range() {
        let model = model();
        let ranges = [(0.0, 50.0), (-40.0, 40.0), (-10.0, 10.0)];
        let before = model.loss(&model.origin, 1.0);
        let w = model.fit(&ranges, 1.0);
        assert!(model.loss(&w, 1.0) < before - 1e-3, "{w:?}");
        for (w, (lo, hi)) in w.iter().zip(ranges) {
            assert!((lo..=hi).contains(w), "{w} outside {lo}..{hi}");
        }
        assert_eq!(model.fit(&ranges, 1.0), w);
    }
}
