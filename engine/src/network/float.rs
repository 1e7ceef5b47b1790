//! The network in floating point: what the trainer fits, and the reference the integer
//! network is tested against.

use rand::Rng;

use super::Shape;

/// The network of the module docs in `f32`. The first layer is laid out as
/// [`super::Network`]'s; the dense layer row by output (the integer network transposes
/// it).
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNet {
    /// The encoding identifier it reads.
    pub encoding: String,
    /// Its sizes.
    pub shape: Shape,
    /// `features × hidden`, row by feature.
    pub w1: Vec<f32>,
    /// Cells per plane of the encoding: feature `f` lies on plane `f / cells`.
    pub cells: usize,
    /// `planes × hidden`: a row shared by every feature of a plane, added to each one's
    /// own row (NNUE's "factoriser"). What a kind of piece is worth anywhere is learnt
    /// from every position it appears in, and the per-cell rows learn only where it
    /// differs; quantising folds these rows into `w1`.
    pub plane_w1: Vec<f32>,
    /// `hidden`.
    pub b1: Vec<f32>,
    /// `dense × dense_inputs`, row by output.
    pub w2: Vec<f32>,
    /// `dense`.
    pub b2: Vec<f32>,
    /// `dense`.
    pub w3: Vec<f32>,
    /// The output's bias.
    pub b3: f32,
    /// The linear evaluator's weight: logits per evaluator unit. Fixed before training.
    pub base: f32,
}

/// What a forward pass computed on the way, for the trainer's backward pass.
#[derive(Clone, Debug, Default)]
pub struct Activations {
    /// The dense layer's inputs: both clipped accumulators, then the scaled scalars.
    pub x: Vec<f32>,
    /// The dense layer's pre-activations.
    pub pre: Vec<f32>,
    /// The dense layer's clipped outputs.
    pub h: Vec<f32>,
}

/// Clipped ReLU.
#[inline]
pub fn crelu(x: f32) -> f32 {
    x.clamp(0.0, 1.0)
}

impl FloatNet {
    /// A network of `shape` for `encoding`, whose planes have `cells` cells, with every
    /// weight 0.
    pub fn zeros(encoding: &str, shape: Shape, cells: usize) -> Self {
        let planes = shape.features / cells.max(1);
        FloatNet {
            encoding: encoding.to_string(),
            shape,
            w1: vec![0.0; shape.features * shape.hidden],
            cells: cells.max(1),
            plane_w1: vec![0.0; planes * shape.hidden],
            b1: vec![0.0; shape.hidden],
            w2: vec![0.0; shape.dense * shape.dense_inputs()],
            b2: vec![0.0; shape.dense],
            w3: vec![0.0; shape.dense],
            b3: 0.0,
            base: 0.0,
        }
    }

    /// A network of `shape` for `encoding` with the linear evaluator's weight `base`
    /// and the rest drawn from `rng` as training starts them: uniform within
    /// ±1/√(inputs) for the first two layers (the first layer's inputs taken as the
    /// typical 32 active features), biases of the first layer at 0.25 so that most units
    /// start inside the clipped range, and the output layer 0, so that the network
    /// starts as the linear evaluator alone.
    pub fn initial<R: Rng>(
        encoding: &str,
        shape: Shape,
        cells: usize,
        base: f32,
        rng: &mut R,
    ) -> Self {
        let mut net = FloatNet::zeros(encoding, shape, cells);
        net.base = base;
        let mut fill = |weights: &mut [f32], inputs: usize| {
            let limit = 1.0 / (inputs as f32).sqrt();
            for w in weights {
                *w = rng.random_range(-limit..limit);
            }
        };
        fill(&mut net.w1, 32);
        fill(&mut net.w2, shape.dense_inputs());
        net.b1.fill(0.25);
        net
    }

    /// The first layer's weights of feature `f`, the plane's shared row folded in.
    pub fn folded_w1(&self, f: usize) -> impl Iterator<Item = f32> + '_ {
        let h = self.shape.hidden;
        let column = &self.w1[f * h..][..h];
        let shared = &self.plane_w1[f / self.cells * h..][..h];
        column.iter().zip(shared).map(|(w, s)| w + s)
    }

    /// The first layer's output (before clipping) over `features`, into `acc`.
    pub fn accumulate(&self, features: &[u32], acc: &mut [f32]) {
        acc.copy_from_slice(&self.b1);
        for &f in features {
            for (a, w) in acc.iter_mut().zip(self.folded_w1(f as usize)) {
                *a += w;
            }
        }
    }

    /// The logit of the viewer's expected result, from the features the viewer sees
    /// (`mine`) and the other seat sees (`theirs`), the viewer's scalars already scaled
    /// to `0..=1` and the linear evaluator's value `linear` for the viewer; `act` keeps
    /// what the trainer needs.
    pub fn forward(
        &self,
        mine: &[u32],
        theirs: &[u32],
        scalars: &[f32],
        linear: f32,
        act: &mut Activations,
    ) -> f32 {
        let shape = self.shape;
        let h = shape.hidden;
        act.x.resize(shape.dense_inputs(), 0.0);
        self.accumulate(mine, &mut act.x[..h]);
        self.accumulate(theirs, &mut act.x[h..2 * h]);
        for a in &mut act.x[..2 * h] {
            *a = crelu(*a);
        }
        act.x[2 * h..].copy_from_slice(scalars);
        act.pre.clear();
        act.h.clear();
        let mut z = self.b3 + self.base * linear;
        for (j, row) in self.w2.chunks_exact(shape.dense_inputs()).enumerate() {
            let pre = self.b2[j] + row.iter().zip(&act.x).map(|(w, x)| w * x).sum::<f32>();
            act.pre.push(pre);
            act.h.push(crelu(pre));
            z += self.w3[j] * crelu(pre);
        }
        z
    }
}
