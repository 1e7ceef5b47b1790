//! Learned evaluators in the manner of NNUE: a small network over a game's
//! [`Encoding`], run in integers, with its first layer kept up to date
//! move by move.
//!
//! The network, for a position seen from a seat `v` (the side to move; seat 0 at a
//! chance node) and the other seat `o`:
//!
//! 1. **Accumulators.** `a_v = b1 + Σ W1[f]` over the binary features `v` sees, and
//!    `a_o` the same over the features `o` sees (one shared `W1`, since features name
//!    owners relative to their view). Each is `hidden` wide.
//! 2. **Dense layer.** `x = [crelu(a_v), crelu(a_o), s / max]` (clipped ReLU to
//!    `0..=1`; the scalars `v` sees, each divided by its declared maximum), then
//!    `h = crelu(W2 · x + b2)`, `dense` wide.
//! 3. **Output.** `z = W3 · h + b3 + base × e`, the logit of `v`'s expected result
//!    (win 1, draw ½, loss 0), where `e` is the game's linear evaluator's value of the
//!    position for `v` and `base` a constant the trainer fits before anything else
//!    (Texel's scaling of that evaluator). The layers learn what the linear evaluator
//!    misses: a network that has learnt nothing is the linear evaluator, so a network
//!    trained on few positions does not start below it.
//!
//! [`FloatNet`] is this network in floating point, as the trainer fits it;
//! [`Network`] is the same network quantised to integers (first layer `i16` in units
//! of 1/[`QA`], dense weights `i16` in units of 1/[`QB`]) and is what search runs: the
//! accumulators are sums of a few `i16` columns, updated by the columns a move switches
//! on and off ([`NetEval`]), and the rest is integer arithmetic with no allocation.
//! Quantising moves an output by a few hundredths of a logit at most (tested).
//!
//! A network file is [`Network::to_bytes`]: a magic line, the encoding's identifier,
//! the sizes, the integer weights (little-endian) and a note (the command that trained
//! it). A network answers only the encoding it was trained on
//! ([`Network::check_encoding`]).

mod eval;
mod float;

pub use eval::NetEval;
pub use float::{Activations, FloatNet};

use std::fmt;

use crate::encoding::Encoding;

/// Accumulator units per 1.0: a first-layer weight `w` is stored as `round(w × QA)`, and
/// a clipped accumulator lies in `0..=QA`.
pub const QA: i32 = 127;

/// Dense-layer units per 1.0: a weight `w` of the second or third layer is stored as
/// `round(w × QB)`.
pub const QB: i32 = 64;

/// Evaluator units per logit: [`NetEval`] scores a position `round(z × SCORE_PER_LOGIT)`.
pub const SCORE_PER_LOGIT: i32 = 256;

/// The largest logit a heuristic score may express; [`NetEval`]'s bounds are one unit
/// beyond it, so that every heuristic value stays strictly inside them.
pub const MAX_LOGIT: i32 = 40;

/// The widest first layer a network may have.
pub const MAX_HIDDEN: usize = 1024;

/// The widest dense layer a network may have.
pub const MAX_DENSE: usize = 256;

/// The linear evaluator's weight is stored this many times finer than the output's
/// units, since it is small (a few thousandths of a logit per evaluator unit).
pub const BASE_SHIFT: i64 = 1 << 12;

/// The largest size of a dense-layer weight, in units of 1/QB (about 4.0): with an
/// input of at most QA, a product fits in an `i16`. The trainer keeps its weights
/// within it.
pub const W2_MAX: i16 = 255;

/// The first bytes of every network file.
const MAGIC: &[u8; 8] = b"AGONNET1";

/// A network's sizes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Binary features of the encoding (the first layer's rows).
    pub features: usize,
    /// Scalars of the encoding.
    pub scalars: usize,
    /// Width of each accumulator.
    pub hidden: usize,
    /// Width of the dense layer.
    pub dense: usize,
}

impl Shape {
    /// The dense layer's inputs: both accumulators and the scalars.
    pub fn dense_inputs(&self) -> usize {
        2 * self.hidden + self.scalars
    }
}

/// Why a network cannot be read or used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NetworkError {
    /// The bytes are not a network file (or a truncated or damaged one).
    #[error("not an Agon network file ({0})")]
    Format(String),
    /// The network was made for another encoding.
    #[error("the network was trained on encoding {network}, but this game's is {game}")]
    Encoding {
        /// The network's encoding identifier.
        network: String,
        /// The game's.
        game: String,
    },
}

/// A quantised network, as search runs it (see the module docs).
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    encoding: String,
    shape: Shape,
    /// Each scalar's declared maximum, to scale it to `0..=QA`.
    scalar_max: Vec<i32>,
    /// `features × hidden`, row by feature.
    w1: Vec<i16>,
    b1: Vec<i16>,
    /// The dense layer, `dense_inputs × lanes`, row by input (the float network's
    /// transposed, so that an input's weights are contiguous), each row padded with
    /// zeros from `dense` to `lanes` entries: the width rounded up to a power of two, at
    /// least 8, so that [`Network::output`]'s sums have a width known when compiled and
    /// stay in registers. The file holds the rows unpadded.
    w2: Vec<i16>,
    /// `lanes` wide, padded; in units of 1/(QA × QB).
    b2: Vec<i32>,
    /// `lanes` wide, padded.
    w3: Vec<i16>,
    /// In units of 1/(QA × QB).
    b3: i32,
    /// The linear evaluator's weight, in units of 1/(QA × QB × [`BASE_SHIFT`]) of a
    /// logit per evaluator unit.
    base: i32,
    note: String,
    /// The padded width of the dense layer's rows.
    lanes: usize,
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Network")
            .field("encoding", &self.encoding)
            .field("shape", &self.shape)
            .finish_non_exhaustive()
    }
}

/// `x × scale`, rounded and saturated to `i16`.
fn quantise(x: f32, scale: i32) -> i16 {
    (x * scale as f32)
        .round()
        .clamp(f32::from(i16::MIN), f32::from(i16::MAX)) as i16
}

impl Network {
    /// The integer network closest to `float`, whose scalars have the maxima `scalar_max`
    /// (the encoding's, in order), with a `note` on where it came from.
    pub fn quantised(float: &FloatNet, scalar_max: &[i32], note: &str) -> Self {
        let both = (QA * QB) as f32;
        Network {
            encoding: float.encoding.clone(),
            shape: float.shape,
            scalar_max: scalar_max.to_vec(),
            w1: (0..float.shape.features)
                .flat_map(|f| float.folded_w1(f).map(|w| quantise(w, QA)))
                .collect(),
            b1: float.b1.iter().map(|&w| quantise(w, QA)).collect(),
            w2: (0..float.shape.dense_inputs())
                .flat_map(|i| {
                    float
                        .w2
                        .chunks_exact(float.shape.dense_inputs())
                        .map(move |row| quantise(row[i], QB).clamp(-W2_MAX, W2_MAX))
                })
                .collect(),
            b2: float
                .b2
                .iter()
                .map(|&b| (b * both).round() as i32)
                .collect(),
            w3: float.w3.iter().map(|&w| quantise(w, QB)).collect(),
            b3: (float.b3 * both).round() as i32,
            base: (float.base * both * BASE_SHIFT as f32).round() as i32,
            note: note.to_string(),
            lanes: float.shape.dense,
        }
        .padded()
    }

    /// The network, built with its dense layer unpadded (`lanes == dense`), with the
    /// layer padded to its power-of-two width (see [`Network::w2`]).
    fn padded(mut self) -> Self {
        let dense = self.shape.dense;
        let lanes = dense.next_power_of_two().max(8);
        self.w2 = pad(&self.w2, dense, lanes);
        self.b2 = pad(&self.b2, dense, lanes);
        self.w3 = pad(&self.w3, dense, lanes);
        self.lanes = lanes;
        self
    }

    /// The dense layer's rows `values`, `lanes` wide, without their padding.
    fn unpadded<'a, T>(&self, values: &'a [T]) -> impl Iterator<Item = &'a T> {
        let dense = self.shape.dense;
        values
            .chunks_exact(self.lanes)
            .flat_map(move |row| &row[..dense])
    }

    /// The encoding identifier the network was trained on.
    pub fn encoding(&self) -> &str {
        &self.encoding
    }

    /// Its sizes.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// Where it came from (the trainer writes its command line).
    pub fn note(&self) -> &str {
        &self.note
    }

    /// Whether the network can read positions of `encoding`: the same identifier and
    /// sizes, or why not.
    pub fn check_encoding(&self, encoding: &Encoding) -> Result<(), NetworkError> {
        let max: Vec<i32> = encoding.scalars.iter().map(|s| s.max).collect();
        if encoding.id != self.encoding
            || encoding.features() as usize != self.shape.features
            || max != self.scalar_max
        {
            return Err(NetworkError::Encoding {
                network: self.encoding.clone(),
                game: encoding.id.clone(),
            });
        }
        Ok(())
    }

    /// Sets `acc` (`hidden` wide) to the first layer's sum over `features`.
    pub fn refresh(&self, features: &[u32], acc: &mut [i32]) {
        for (a, &b) in acc.iter_mut().zip(&self.b1) {
            *a = i32::from(b);
        }
        for &f in features {
            self.add_column(f, acc);
        }
    }

    /// Adds feature `f`'s column to `acc`.
    #[inline]
    pub fn add_column(&self, f: u32, acc: &mut [i32]) {
        let h = self.shape.hidden;
        let column = &self.w1[f as usize * h..][..h];
        for (a, &w) in acc.iter_mut().zip(column) {
            *a += i32::from(w);
        }
    }

    /// Subtracts feature `f`'s column from `acc`.
    #[inline]
    pub fn sub_column(&self, f: u32, acc: &mut [i32]) {
        let h = self.shape.hidden;
        let column = &self.w1[f as usize * h..][..h];
        for (a, &w) in acc.iter_mut().zip(column) {
            *a -= i32::from(w);
        }
    }

    /// The output in units of 1/(QA × QB) of a logit, from the viewer's accumulator
    /// `mine`, the other seat's `theirs`, the viewer's `scalars` and the linear
    /// evaluator's value `linear` for the viewer.
    ///
    /// The dense layer is summed input by input over its columns, skipping inputs the
    /// clipped ReLU zeroed (often half of them), so that its cost follows the active
    /// units and the inner loop runs over contiguous weights.
    pub fn output(&self, mine: &[i32], theirs: &[i32], scalars: &[i32], linear: i32) -> i64 {
        let base = (i64::from(self.base) * i64::from(linear)).div_euclid(BASE_SHIFT);
        base + match self.lanes {
            8 => self.output_in::<8>(mine, theirs, scalars),
            16 => self.output_in::<16>(mine, theirs, scalars),
            32 => self.output_in::<32>(mine, theirs, scalars),
            64 => self.output_in::<64>(mine, theirs, scalars),
            128 => self.output_in::<128>(mine, theirs, scalars),
            _ => self.output_in::<MAX_DENSE>(mine, theirs, scalars),
        }
    }

    /// [`Network::output`] with the padded dense layer `L` lanes wide.
    #[inline]
    fn output_in<const L: usize>(&self, mine: &[i32], theirs: &[i32], scalars: &[i32]) -> i64 {
        let mut sums: [i32; L] = self.b2[..].try_into().expect("the padded width");
        // An input is at most QA and a weight at most W2_MAX in size, so each product
        // fits in an i16: eight multiplications at a time on SSE2.
        let clipped = mine.iter().chain(theirs).map(|&a| a.clamp(0, QA) as i16);
        let scaled = scalars
            .iter()
            .zip(&self.scalar_max)
            .map(|(&s, &max)| scale_scalar(s, max) as i16);
        for (x, column) in clipped.chain(scaled).zip(self.w2.chunks_exact(L)) {
            if x == 0 {
                continue;
            }
            for (sum, &w) in sums.iter_mut().zip(column) {
                *sum += i32::from(x * w);
            }
        }
        // Each sum is in units of 1/(QA × QB); the clipped activation in units of 1/QA.
        let mut out = i64::from(self.b3);
        for (&sum, &w) in sums.iter().zip(&self.w3) {
            out += i64::from((sum / QB).clamp(0, QA)) * i64::from(w);
        }
        out
    }

    /// The network file's bytes (see the module docs); [`Network::from_bytes`] reads
    /// them back.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        put_str(&mut out, &self.encoding);
        for size in [
            self.shape.features,
            self.shape.scalars,
            self.shape.hidden,
            self.shape.dense,
        ] {
            out.extend_from_slice(&(size as u32).to_le_bytes());
        }
        for &m in &self.scalar_max {
            out.extend_from_slice(&m.to_le_bytes());
        }
        for w in self
            .w1
            .iter()
            .chain(&self.b1)
            .chain(self.unpadded(&self.w2))
        {
            out.extend_from_slice(&w.to_le_bytes());
        }
        for b in self.unpadded(&self.b2) {
            out.extend_from_slice(&b.to_le_bytes());
        }
        for w in self.unpadded(&self.w3) {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out.extend_from_slice(&self.b3.to_le_bytes());
        out.extend_from_slice(&self.base.to_le_bytes());
        put_str(&mut out, &self.note);
        out
    }

    /// Reads a network file's bytes, or says what is wrong with them.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, NetworkError> {
        let mut r = Reader { bytes, at: 0 };
        if r.take(MAGIC.len())? != MAGIC {
            return Err(NetworkError::Format(
                "it does not start with AGONNET1".into(),
            ));
        }
        let encoding = r.string()?;
        let mut size = || -> Result<usize, NetworkError> {
            let n = r.u32()? as usize;
            if n > 1 << 20 {
                return Err(NetworkError::Format(format!(
                    "a size of {n} is implausible"
                )));
            }
            Ok(n)
        };
        let shape = Shape {
            features: size()?,
            scalars: size()?,
            hidden: size()?,
            dense: size()?,
        };
        if !(1..=MAX_HIDDEN).contains(&shape.hidden) || !(1..=MAX_DENSE).contains(&shape.dense) {
            return Err(NetworkError::Format(format!(
                "layers of {} and {} units; the widths allowed are 1 to {MAX_HIDDEN} and 1 \
                 to {MAX_DENSE}",
                shape.hidden, shape.dense
            )));
        }
        let scalar_max = (0..shape.scalars)
            .map(|_| r.i32())
            .collect::<Result<Vec<_>, _>>()?;
        if scalar_max.iter().any(|&m| m <= 0) {
            return Err(NetworkError::Format(
                "a scalar's maximum is not positive".into(),
            ));
        }
        let w1 = r.i16s(shape.features * shape.hidden)?;
        let b1 = r.i16s(shape.hidden)?;
        let w2 = r.i16s(shape.dense * shape.dense_inputs())?;
        if w2.iter().any(|w| w.abs() > W2_MAX) {
            return Err(NetworkError::Format(format!(
                "a dense weight is beyond ±{W2_MAX}"
            )));
        }
        let b2 = (0..shape.dense)
            .map(|_| r.i32())
            .collect::<Result<Vec<_>, _>>()?;
        let w3 = r.i16s(shape.dense)?;
        let b3 = r.i32()?;
        let base = r.i32()?;
        let note = r.string()?;
        if r.at != bytes.len() {
            return Err(NetworkError::Format(format!(
                "{} bytes follow the network",
                bytes.len() - r.at
            )));
        }
        Ok(Network {
            encoding,
            shape,
            scalar_max,
            w1,
            b1,
            w2,
            b2,
            w3,
            b3,
            base,
            note,
            lanes: shape.dense,
        }
        .padded())
    }
}

/// `values`, read `from` at a time, each run followed by zeros up to `to`.
fn pad<T: Copy + Default>(values: &[T], from: usize, to: usize) -> Vec<T> {
    let mut out = Vec::with_capacity(values.len() / from * to);
    for run in values.chunks_exact(from) {
        out.extend_from_slice(run);
        out.resize(out.len() + to - from, T::default());
    }
    out
}

/// A scalar `s` of maximum `max` in units of 1/QA (`s / max`, rounded).
#[inline]
fn scale_scalar(s: i32, max: i32) -> i32 {
    (2 * s.clamp(0, max) * QA + max) / (2 * max)
}

/// Appends `s` as a little-endian `u32` length and its UTF-8 bytes.
fn put_str(out: &mut Vec<u8>, s: &str) {
    out.extend_from_slice(&(s.len() as u32).to_le_bytes());
    out.extend_from_slice(s.as_bytes());
}

/// Reads a network file front to back.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], NetworkError> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or_else(|| NetworkError::Format("it ends too soon".into()))?;
        let taken = &self.bytes[self.at..end];
        self.at = end;
        Ok(taken)
    }

    fn u32(&mut self) -> Result<u32, NetworkError> {
        Ok(u32::from_le_bytes(
            self.take(4)?.try_into().expect("4 bytes"),
        ))
    }

    fn i32(&mut self) -> Result<i32, NetworkError> {
        Ok(i32::from_le_bytes(
            self.take(4)?.try_into().expect("4 bytes"),
        ))
    }

    fn i16s(&mut self, n: usize) -> Result<Vec<i16>, NetworkError> {
        let bytes = self.take(n.saturating_mul(2))?;
        Ok(bytes
            .chunks_exact(2)
            .map(|b| i16::from_le_bytes([b[0], b[1]]))
            .collect())
    }

    fn string(&mut self) -> Result<String, NetworkError> {
        let n = self.u32()? as usize;
        let bytes = self.take(n)?;
        String::from_utf8(bytes.to_vec())
            .map_err(|_| NetworkError::Format("a name is not UTF-8".into()))
    }
}

#[cfg(test)]
mod tests;
