//! Fitting the network to labelled examples: minibatch Adam on the cross-entropy between
//! the network's predicted result (`sigmoid` of its logit) and the label, with early
//! stopping on the validation loss.
//!
//! Written here rather than with a tensor library: the first layer is sparse (a few
//! dozen of its thousands of inputs are on), its gradient touches only those rows, and the
//! whole fit must be byte-for-byte reproducible, which a fixed order of `f32` sums on one
//! thread gives and a general library's threaded kernels need not. The fit runs on one
//! thread; the order of the examples in each epoch is a seeded shuffle.

use agon_engine::network::{Activations, FloatNet, Shape, QB, W2_MAX};
use indicatif::ProgressBar;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::examples::Examples;
use crate::seeds::uniform_below;
use crate::tune::linear::sigmoid;

/// How to fit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Schedule {
    /// The most passes over the training examples.
    pub epochs: u32,
    /// Passes without a better validation loss before stopping.
    pub patience: u32,
    /// Examples per step.
    pub batch: usize,
    /// Adam's learning rate.
    pub lr: f32,
    /// Seed of the starting weights and the order of examples.
    pub seed: u64,
}

/// Adam's decay of the first moment.
const BETA1: f32 = 0.9;
/// Adam's decay of the second moment.
const BETA2: f32 = 0.999;
/// Adam's guard against division by zero.
const EPSILON: f32 = 1e-8;
/// Labels and predictions are kept this far from 0 and 1 in the loss, so that a proven
/// result does not make it infinite.
const CLAMP: f64 = 1e-6;

/// What a fit produced.
#[derive(Clone, Debug, PartialEq)]
pub struct Fitted {
    /// The network of the best epoch.
    pub net: FloatNet,
    /// Per epoch from 0 (the start: the linear evaluator alone), the training loss (from
    /// 1, the mean over the epoch's steps, measured as they were taken) and the
    /// validation loss after it.
    pub curve: Vec<(f64, f64)>,
    /// The best epoch; 0 if no epoch beat the start.
    pub best_epoch: usize,
}

/// The cross-entropy of predicting `p` for label `t`.
pub fn cross_entropy(p: f64, t: f64) -> f64 {
    let p = p.clamp(CLAMP, 1.0 - CLAMP);
    -(t * p.ln() + (1.0 - t) * (1.0 - p).ln())
}

/// The logistic function in `f32`, as the fit's steps use it.
fn sigmoid_f32(z: f32) -> f32 {
    1.0 / (1.0 + (-z).exp())
}

/// The mean loss against `targets` of `predict`, a logit per example.
pub fn mean_loss(targets: &[f32], mut predict: impl FnMut(usize) -> f64) -> f64 {
    let n = targets.len().max(1);
    (0..targets.len())
        .map(|i| cross_entropy(sigmoid(predict(i)), f64::from(targets[i])))
        .sum::<f64>()
        / n as f64
}

/// The mean loss of `net` over `examples` against `targets` (one per example).
pub fn net_loss(net: &FloatNet, examples: &Examples, targets: &[f32]) -> f64 {
    let mut act = Activations::default();
    mean_loss(targets, |i| {
        let (mine, theirs, scalars, linear) = examples.get(i);
        f64::from(net.forward(mine, theirs, scalars, linear, &mut act))
    })
}

/// The network's parameters as slices, in a fixed order (for the optimiser).
fn parameters(net: &mut FloatNet) -> [&mut [f32]; 7] {
    [
        &mut net.w1,
        &mut net.plane_w1,
        &mut net.b1,
        &mut net.w2,
        &mut net.b2,
        &mut net.w3,
        std::slice::from_mut(&mut net.b3),
    ]
}

/// Adds example `i`'s gradient of the loss to `grad`; returns its loss.
fn backward(
    net: &FloatNet,
    examples: &Examples,
    i: usize,
    act: &mut Activations,
    dx: &mut Vec<f32>,
    grad: &mut FloatNet,
) -> f64 {
    let Shape { hidden: h, .. } = net.shape;
    let inputs = net.shape.dense_inputs();
    let (mine, theirs, scalars, linear) = examples.get(i);
    let z = net.forward(mine, theirs, scalars, linear, act);
    let target = examples.targets[i];
    let p = sigmoid_f32(z);
    let dz = p - target;
    grad.b3 += dz;
    dx.clear();
    dx.resize(inputs, 0.0);
    for j in 0..net.shape.dense {
        grad.w3[j] += dz * act.h[j];
        let pre = act.pre[j];
        if pre <= 0.0 || pre >= 1.0 {
            continue;
        }
        let dpre = dz * net.w3[j];
        grad.b2[j] += dpre;
        let row = &net.w2[j * inputs..][..inputs];
        let grad_row = &mut grad.w2[j * inputs..][..inputs];
        for ((g, &x), (d, &w)) in grad_row.iter_mut().zip(&act.x).zip(dx.iter_mut().zip(row)) {
            *g += dpre * x;
            *d += dpre * w;
        }
    }
    // Through the clipped accumulators (the scalars are inputs, not weights).
    for (d, &x) in dx[..2 * h].iter_mut().zip(&act.x) {
        if x <= 0.0 || x >= 1.0 {
            *d = 0.0;
        }
    }
    let (d_mine, d_theirs) = dx[..2 * h].split_at(h);
    for (features, d) in [(mine, d_mine), (theirs, d_theirs)] {
        for (b, &g) in grad.b1.iter_mut().zip(d) {
            *b += g;
        }
        for &f in features {
            let column = &mut grad.w1[f as usize * h..][..h];
            for (w, &g) in column.iter_mut().zip(d) {
                *w += g;
            }
            let shared = &mut grad.plane_w1[f as usize / net.cells * h..][..h];
            for (w, &g) in shared.iter_mut().zip(d) {
                *w += g;
            }
        }
    }
    cross_entropy(f64::from(p), f64::from(target))
}

/// The network a fit starts from: what it reads and its fixed weight on the linear
/// evaluator.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Start<'a> {
    /// The encoding's identifier.
    pub encoding: &'a str,
    /// The network's sizes.
    pub shape: Shape,
    /// Cells per plane of the encoding.
    pub cells: usize,
    /// The linear evaluator's weight, logits per evaluator unit.
    pub base: f32,
}

/// Fits a network from `start` to `train`, stopping early on `validation`'s loss, as
/// the module docs say; `bar` counts epochs.
pub fn fit(
    start: Start<'_>,
    train: &Examples,
    validation: &Examples,
    schedule: Schedule,
    bar: &ProgressBar,
) -> Fitted {
    let mut rng = ChaCha8Rng::seed_from_u64(schedule.seed);
    let Start {
        encoding,
        shape,
        cells,
        base,
    } = start;
    let mut net = FloatNet::initial(encoding, shape, cells, base, &mut rng);
    let mut grad = FloatNet::zeros(encoding, shape, cells);
    let mut first = FloatNet::zeros(encoding, shape, cells);
    let mut second = FloatNet::zeros(encoding, shape, cells);
    let (mut act, mut dx) = (Activations::default(), Vec::new());
    let mut order: Vec<usize> = (0..train.len()).collect();
    let at_start = net_loss(&net, validation, &validation.targets);
    let mut best = (net.clone(), at_start, 0);
    let mut curve = vec![(net_loss(&net, train, &train.targets), at_start)];
    let mut step = 0i32;
    bar.set_length(u64::from(schedule.epochs));
    bar.set_message("epochs");
    for epoch in 1..=schedule.epochs as usize {
        // A Fisher-Yates shuffle from the seeded stream.
        for i in (1..order.len()).rev() {
            let j = uniform_below(&mut rng, i as u64 + 1) as usize;
            order.swap(i, j);
        }
        let mut total = 0.0;
        for batch in order.chunks(schedule.batch.max(1)) {
            for g in parameters(&mut grad) {
                g.fill(0.0);
            }
            for &i in batch {
                total += backward(&net, train, i, &mut act, &mut dx, &mut grad);
            }
            step += 1;
            let scale = 1.0 / batch.len() as f32;
            let lr = schedule.lr * (1.0 - BETA2.powi(step)).sqrt() / (1.0 - BETA1.powi(step));
            let params = parameters(&mut net);
            let grads = parameters(&mut grad);
            let firsts = parameters(&mut first);
            let seconds = parameters(&mut second);
            for (((p, g), m), v) in params.into_iter().zip(grads).zip(firsts).zip(seconds) {
                for (((p, &g), m), v) in p
                    .iter_mut()
                    .zip(g.iter())
                    .zip(m.iter_mut())
                    .zip(v.iter_mut())
                {
                    let g = g * scale;
                    *m = BETA1 * *m + (1.0 - BETA1) * g;
                    *v = BETA2 * *v + (1.0 - BETA2) * g * g;
                    *p -= lr * *m / (v.sqrt() + EPSILON);
                }
            }
            // The integer network's dense weights are bounded (`W2_MAX`): kept within
            // the bound here, quantising never saturates them.
            let limit = f32::from(W2_MAX) / QB as f32;
            for w in &mut net.w2 {
                *w = w.clamp(-limit, limit);
            }
        }
        let validation_loss = net_loss(&net, validation, &validation.targets);
        curve.push((total / train.len().max(1) as f64, validation_loss));
        bar.inc(1);
        if validation_loss < best.1 {
            best = (net.clone(), validation_loss, epoch);
        } else if epoch - best.2 >= schedule.patience as usize {
            break;
        }
    }
    Fitted {
        net: best.0,
        curve,
        best_epoch: best.2,
    }
}
