//! Texel's method on an evaluator of integer weights: the prediction for a position is
//! `sigmoid(K * eval / SCALE)` ([`SCALE`](super::linear::SCALE)), `eval` the evaluator's
//! [`Evaluator::heuristic`](agon_engine::Evaluator::heuristic) for the seat to move, and the loss is the mean squared error
//! of the predictions against the games' results (Texel's choice, rather than
//! cross-entropy: a few positions of games won against the run of play then cost at most
//! 1 each).
//!
//! 1. `K` is fitted alone, at the starting weights, by a one-dimensional search that
//!    minimises the training loss ([`fit_k`]); it stays fixed afterwards, so that the
//!    weights cannot lower the loss merely by growing together.
//! 2. Each round takes the evaluator as a black box and linearises it at the current
//!    weights `w`: per training position its value at `w` and, per weight, the slope
//!    `(eval(w + d e_i) - eval(w - d e_i)) / 2d` with `d` a hundredth of the weight's range
//!    (at least 1), one-sided where `w ± d` would leave the range ([`linearise`]). That is
//!    `2 × weights + 1` evaluations per position, in parallel. Adam fits the linear model
//!    ([`LinearModel::fit`]) within the ranges; the result is rounded to integers.
//! 3. The rounded weights are judged by the held-out loss measured with the *true*
//!    evaluator, not the model. The best weights so far are kept; the rounds stop as soon
//!    as the held-out loss does not improve (early stopping, against over-fitting the
//!    training positions), when the weights no longer change, or after [`MAX_ROUNDS`].
//!
//! Every loss is summed in position order on one thread and every evaluation is an
//! integer, so the fit is the same at any thread count.

use agon_engine::weights::{flat_ranges, Tunable, Weights};
use agon_engine::State;
use anyhow::{anyhow, Result};
use indicatif::ProgressBar;
use rayon::prelude::*;

use super::linear::{loss, LinearModel};
use super::sample::{Position, Positions};

/// The most rounds of linearising and fitting.
pub const MAX_ROUNDS: usize = 8;

/// One round's outcome.
#[derive(Clone, Debug, PartialEq)]
pub struct Round {
    /// The rounded weights the round's fit gave.
    pub weights: Vec<i32>,
    /// Their training loss by the linear model (before rounding).
    pub model_loss: f64,
    /// Their training loss with the true evaluator.
    pub train_loss: f64,
    /// Their held-out loss with the true evaluator.
    pub held_out_loss: f64,
}

/// What a fit found.
#[derive(Clone, Debug, PartialEq)]
pub struct Fitted {
    /// The fitted `K`.
    pub k: f64,
    /// The held-out loss at the starting weights.
    pub before: f64,
    /// The rounds, in order.
    pub rounds: Vec<Round>,
    /// The weights of the lowest held-out loss (the start if no round improved on it).
    pub best: Vec<i32>,
    /// Their held-out loss.
    pub after: f64,
}

/// Fits the weights of `E` to `positions` from `start`, as the module docs say. `bar`
/// shows the evaluations of each round. Fails only if a weight vector is refused by
/// [`Weights::from_flat`], which the ranges rule out.
pub fn fit<S: State, E: Tunable<S>>(
    positions: &Positions<S>,
    start: &E::Weights,
    bar: &ProgressBar,
) -> Result<Fitted> {
    let targets = |set: &[Position<S>]| set.iter().map(|p| p.target).collect::<Vec<_>>();
    let (train_targets, held_out_targets) =
        (targets(&positions.train), targets(&positions.held_out));
    let mut current = start.flat();
    let k = fit_k(&evals::<S, E>(&current, &positions.train)?, &train_targets);
    let held_out_loss = |w: &[i32]| {
        Ok::<_, anyhow::Error>(loss(
            &evals::<S, E>(w, &positions.held_out)?,
            &held_out_targets,
            k,
        ))
    };
    let before = held_out_loss(&current)?;
    let ranges: Vec<(f64, f64)> = flat_ranges(E::Weights::SPECS)
        .into_iter()
        .map(|(lo, hi)| (f64::from(lo), f64::from(hi)))
        .collect();
    let mut fitted = Fitted {
        k,
        before,
        rounds: Vec::new(),
        best: current.clone(),
        after: before,
    };
    for round in 1..=MAX_ROUNDS {
        bar.set_message(format!("round {round}: linearising"));
        let model = linearise::<S, E>(&current, &positions.train, bar)?;
        let fitted_w = model.fit(&ranges, k);
        let weights: Vec<i32> = fitted_w.iter().map(|w| w.round() as i32).collect();
        if weights == current {
            break;
        }
        let round = Round {
            model_loss: model.loss(&fitted_w, k),
            train_loss: loss(
                &evals::<S, E>(&weights, &positions.train)?,
                &train_targets,
                k,
            ),
            held_out_loss: held_out_loss(&weights)?,
            weights,
        };
        let improved = round.held_out_loss < fitted.after;
        if improved {
            fitted.best.clone_from(&round.weights);
            fitted.after = round.held_out_loss;
            current.clone_from(&round.weights);
        }
        fitted.rounds.push(round);
        if !improved {
            break;
        }
    }
    Ok(fitted)
}

/// The evaluator with the flat weights `w`.
fn evaluator<S: State, E: Tunable<S>>(w: &[i32]) -> Result<E> {
    let weights = E::Weights::from_flat(w).map_err(|e| anyhow!("weights {w:?}: {e}"))?;
    Ok(E::with_weights(weights))
}

/// The evaluations of `positions` with the weights `w`, for the seat to move.
fn evals<S: State, E: Tunable<S>>(w: &[i32], positions: &[Position<S>]) -> Result<Vec<f64>> {
    let eval = evaluator::<S, E>(w)?;
    Ok(positions
        .par_iter()
        .map(|p| f64::from(eval.heuristic(&p.state, p.seat)))
        .collect())
}

/// The linear model of the evaluator at the flat weights `w` over `positions` (see the
/// module docs), counting the positions on `bar`.
pub fn linearise<S: State, E: Tunable<S>>(
    w: &[i32],
    positions: &[Position<S>],
    bar: &ProgressBar,
) -> Result<LinearModel> {
    let at = evaluator::<S, E>(w)?;
    // Per weight: the evaluators below and above `w`, and the distance between them
    // (0 for a weight whose range is one value).
    let probes = flat_ranges(E::Weights::SPECS)
        .into_iter()
        .enumerate()
        .map(|(i, (min, max))| {
            let d = ((max - min) / 100).max(1);
            let (lo, hi) = ((w[i] - d).max(min), (w[i] + d).min(max));
            let moved = |value: i32| {
                let mut flat = w.to_vec();
                flat[i] = value;
                evaluator::<S, E>(&flat)
            };
            Ok((moved(lo)?, moved(hi)?, f64::from(hi - lo)))
        })
        .collect::<Result<Vec<_>>>()?;
    bar.set_length(positions.len() as u64);
    bar.set_position(0);
    let rows: Vec<(f64, Vec<f64>)> = positions
        .par_iter()
        .map(|p| {
            let value = |e: &E| f64::from(e.heuristic(&p.state, p.seat));
            let slopes = probes
                .iter()
                .map(|(lo, hi, width)| {
                    if *width == 0.0 {
                        0.0
                    } else {
                        (value(hi) - value(lo)) / width
                    }
                })
                .collect();
            bar.inc(1);
            (value(&at), slopes)
        })
        .collect();
    let (values, slopes): (Vec<f64>, Vec<Vec<f64>>) = rows.into_iter().unzip();
    Ok(LinearModel {
        origin: w.iter().map(|&w| f64::from(w)).collect(),
        values,
        slopes: slopes.concat(),
        targets: positions.iter().map(|p| p.target).collect(),
    })
}

/// The `K` that minimises the loss of `evals` against `targets`: the best of a grid of
/// `ln K` from -8 to 8 in steps of 1/4, refined by golden-section search within a step
/// either side. 1 when every evaluation is 0 (any `K` predicts the same).
pub fn fit_k(evals: &[f64], targets: &[f64]) -> f64 {
    if evals.iter().all(|&e| e == 0.0) {
        return 1.0;
    }
    let at = |ln_k: f64| loss(evals, targets, ln_k.exp());
    let grid = (-32..=32).map(|i| f64::from(i) / 4.0);
    let best = grid
        .map(|x| (at(x), x))
        .fold((f64::INFINITY, 0.0), |best, next| {
            if next.0 < best.0 {
                next
            } else {
                best
            }
        })
        .1;
    let (mut a, mut b) = (best - 0.25, best + 0.25);
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let (c, d) = (b - ratio * (b - a), a + ratio * (b - a));
        if at(c) < at(d) {
            b = d;
        } else {
            a = c;
        }
    }
    ((a + b) / 2.0).exp()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tune::linear::{sigmoid, SCALE};

    #[test]
    fn k_is_found_where_the_loss_is_least() {
        // Targets drawn from sigmoid(2 e / SCALE) exactly: the loss is least at K = 2.
        let evals: Vec<f64> = (-20..=20).map(|e| f64::from(e) * 10.0).collect();
        let targets: Vec<f64> = evals.iter().map(|e| sigmoid(2.0 * e / SCALE)).collect();
        assert!((fit_k(&evals, &targets) - 2.0).abs() < 1e-6);
        assert_eq!(fit_k(&[0.0, 0.0], &[1.0, 0.0]), 1.0);
    }
}
