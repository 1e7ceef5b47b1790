//! Observation tensors: a game's encoding ([`agon_engine::Encoding`]) as dense NumPy
//! arrays, for learning algorithms (OpenSpiel's `rl_environment`, DQN, AlphaZero, ...).
//!
//! The engine hands a position out sparse: the active binary features (plane × cells +
//! cell) and a few bounded scalars, from one seat's view. The dense tensor of a position
//! is a `float32` array of shape `[planes + scalars, rows, cols]`:
//!
//! - channel `k < planes` is plane `k` of the encoding: 1.0 at each cell whose feature is
//!   active, 0.0 elsewhere (cells of the grid off a hex board stay 0.0);
//! - channel `planes + j` is scalar `j` as a constant plane of `value / max`, in `0..=1`.
//!
//! Scalars become planes rather than a vector after the planes so that the tensor is one
//! block that a convolutional network reads as channels and a flat network reads as
//! `planes + scalars` × `rows × cols` inputs, with no second input to carry: the same
//! choice AlphaZero's inputs make for the side to move and the move counters. It costs
//! `rows × cols` floats per scalar, a few hundred bytes on Agon's boards.
//!
//! The channel order, the cell order (`row × cols + col`) and the meaning of each
//! channel are the encoding's, so a tensor and `Game.encoding()` describe each other, and
//! the engine's encoding identifier says when either changes.

use agon_engine::{Encoding, Seat};
use numpy::{PyArray3, PyArrayDyn, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::erased::DynState;
use crate::error_text;

/// The shape of the dense tensor of `encoding`: `[planes + scalars, rows, cols]`.
pub fn shape(encoding: &Encoding) -> [usize; 3] {
    [
        encoding.planes.len() + encoding.scalars.len(),
        encoding.rows as usize,
        encoding.cols as usize,
    ]
}

/// Writes the dense tensor of a position into `out` (`shape(encoding)`'s product of
/// values, row-major): the active `features` as 1.0, each of the `scalars` as a constant
/// plane of `value / max`. With `zeroed`, `out` is known to hold zeros already and only
/// the non-zero values are written; otherwise every value is.
pub fn fill(encoding: &Encoding, features: &[u32], scalars: &[i32], out: &mut [f32], zeroed: bool) {
    let cells = encoding.cells() as usize;
    let (binary, constant) = out.split_at_mut(encoding.features() as usize);
    if !zeroed {
        binary.fill(0.0);
    }
    for &feature in features {
        binary[feature as usize] = 1.0;
    }
    for ((plane, &value), scalar) in constant
        .chunks_exact_mut(cells)
        .zip(scalars)
        .zip(&encoding.scalars)
    {
        // A declared maximum of 0 leaves a scalar that is always 0.
        let scaled = if scalar.max > 0 {
            value as f32 / scalar.max as f32
        } else {
            0.0
        };
        if scaled != 0.0 || !zeroed {
            plane.fill(scaled);
        }
    }
}

/// The position's encoding and its sparse features and scalars as `view` sees them.
pub fn encoded(state: &dyn DynState, view: Seat) -> (Encoding, Vec<u32>, Vec<i32>) {
    let encoding = state.encoding();
    let mut features = Vec::with_capacity(64);
    let mut scalars = Vec::with_capacity(encoding.scalars.len());
    state.encode(view, &mut features, &mut scalars);
    (encoding, features, scalars)
}

/// The dense tensor of a position seen by `view`, a new array of `shape(encoding)`.
pub fn new_tensor<'py>(
    py: Python<'py>,
    encoding: &Encoding,
    features: &[u32],
    scalars: &[i32],
) -> PyResult<Bound<'py, PyArray3<f32>>> {
    let array = PyArray3::<f32>::zeros(py, shape(encoding), false);
    {
        let mut write = array
            .try_readwrite()
            .map_err(|e| error_text(e.to_string()))?;
        let values = write
            .as_slice_mut()
            .map_err(|e| error_text(e.to_string()))?;
        fill(encoding, features, scalars, values, true);
    }
    Ok(array)
}

/// Writes the dense tensor of a position into the caller's array `out`: a writable,
/// C-contiguous `float32` NumPy array of `shape(encoding)`'s number of values, any shape
/// (flat, as OpenSpiel's observers keep theirs, or 3-D). Anything else is `AgonError`
/// naming what `out` must be.
pub fn write_tensor(
    out: &Bound<'_, PyAny>,
    encoding: &Encoding,
    features: &[u32],
    scalars: &[i32],
) -> PyResult<()> {
    let [channels, rows, cols] = shape(encoding);
    let size = channels * rows * cols;
    let wanted = || {
        format!(
            "a writable C-contiguous float32 numpy array of {size} values \
             ({channels}×{rows}×{cols}, any shape)"
        )
    };
    let array = out.cast::<PyArrayDyn<f32>>().map_err(|_| {
        let what = match out.getattr("dtype") {
            Ok(dtype) => format!("an array of {dtype}"),
            Err(_) => format!(
                "a {}",
                out.get_type()
                    .name()
                    .map(|n| n.to_string())
                    .unwrap_or_default()
            ),
        };
        error_text(format!("out is {what}: it must be {}", wanted()))
    })?;
    if array.len() != size {
        return Err(error_text(format!(
            "out has {} values: it must be {}",
            array.len(),
            wanted()
        )));
    }
    if !array.is_c_contiguous() {
        return Err(error_text(format!(
            "out is not C-contiguous: it must be {}",
            wanted()
        )));
    }
    let mut write = array.try_readwrite().map_err(|_| {
        error_text(format!(
            "out is read-only or in use: it must be {}",
            wanted()
        ))
    })?;
    let values = write
        .as_slice_mut()
        .map_err(|e| error_text(format!("out: {e}: it must be {}", wanted())))?;
    fill(encoding, features, scalars, values, false);
    Ok(())
}

/// `Game.encoding()`: the encoding as a dict of `id`, `rows`, `cols`, `planes` (each a
/// dict of `name` and `meaning`), `scalars` (`name`, `meaning`, `max`) and `shape`, the
/// dense tensor's.
pub fn encoding_dict<'py>(py: Python<'py>, encoding: &Encoding) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("id", &encoding.id)?;
    dict.set_item("rows", encoding.rows)?;
    dict.set_item("cols", encoding.cols)?;
    let planes = PyList::empty(py);
    for plane in &encoding.planes {
        let entry = PyDict::new(py);
        entry.set_item("name", plane.name)?;
        entry.set_item("meaning", plane.meaning)?;
        planes.append(entry)?;
    }
    dict.set_item("planes", planes)?;
    let scalars = PyList::empty(py);
    for scalar in &encoding.scalars {
        let entry = PyDict::new(py);
        entry.set_item("name", scalar.name)?;
        entry.set_item("meaning", scalar.meaning)?;
        entry.set_item("max", scalar.max)?;
        scalars.append(entry)?;
    }
    dict.set_item("scalars", scalars)?;
    let [channels, rows, cols] = shape(encoding);
    dict.set_item("shape", (channels, rows, cols))?;
    Ok(dict)
}
