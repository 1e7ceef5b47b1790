//! The `State` class: one position of any game, with its history.

use std::sync::{Mutex, MutexGuard};

use agon_engine::Turn;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

use crate::erased::{DynState, CHANCE, TERMINAL};
use crate::{error_text, int_arg, seat_arg, shielded, shown};

/// What `pickle` stores of a state: the function that restores it, with the game's spec
/// and the moves from the start.
type Pickled<'py> = (Bound<'py, PyAny>, (String, Vec<String>));

/// The last list of `chance_outcome_actions()`, with the ids and weights it was made of.
type LastOutcomes = Option<(Vec<(u32, u32)>, Py<PyList>)>;

/// One position of a game, with the moves that led to it.
///
/// Two states are equal (`==`) when they are states of the same game, parameters
/// included, reached by the same moves from the start: what `clone`, `copy` and `pickle`
/// preserve. A state changes as moves are played, so it is deliberately unhashable (as a
/// list is); `hash()` is the position's Zobrist key, and `tuple(history())` a key of the
/// line.
#[pyclass(module = "agon._agon", frozen)]
pub struct State {
    // A mutex so that the class may be shared between threads (Python objects may be):
    // a call waits on it only for another thread's call on the same state that released
    // the interpreter (`play_random`).
    inner: Mutex<Box<dyn DynState>>,
    /// The last list of `chance_outcome_actions()` with the ids and weights it was made
    /// of: the next chance event with the same ones (every roll of a die) is answered
    /// with a copy, without making its tuples and floats again.
    last_outcomes: Mutex<LastOutcomes>,
}

impl State {
    pub(crate) fn new(inner: Box<dyn DynState>) -> State {
        State {
            inner: Mutex::new(inner),
            last_outcomes: Mutex::new(None),
        }
    }

    /// The position (a poisoned lock can only follow a panic, after which the state is
    /// still whole: every change is one call that completes or does nothing).
    pub(crate) fn get(&self) -> MutexGuard<'_, Box<dyn DynState>> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The cache of `chance_outcome_actions()` (whole whatever happened, like `get`).
    fn last_outcomes(&self) -> MutexGuard<'_, LastOutcomes> {
        self.last_outcomes.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[pymethods]
impl State {
    /// The seat to move (0 or 1), `agon.CHANCE` at a chance node, `agon.TERMINAL` once the
    /// game is over.
    fn current_player(&self) -> PyResult<i64> {
        shielded(|| {
            Ok(match self.get().turn() {
                Turn::Seat(s) => s as i64,
                Turn::Chance => CHANCE,
                Turn::Over => TERMINAL,
            })
        })
    }

    /// Whether a chance event is pending.
    fn is_chance_node(&self) -> PyResult<bool> {
        shielded(|| Ok(self.get().turn() == Turn::Chance))
    }

    /// Whether the game is over.
    fn is_terminal(&self) -> PyResult<bool> {
        shielded(|| Ok(self.get().turn() == Turn::Over))
    }

    /// The legal decisions in notation, in the game's order (empty at a chance node and
    /// once the game is over).
    fn legal_moves(&self) -> PyResult<Vec<String>> {
        shielded(|| Ok(self.get().legal_moves()))
    }

    /// The dense ids of the legal decisions (at a chance node: of the outcomes), sorted.
    fn legal_actions(&self) -> PyResult<Vec<u32>> {
        shielded(|| Ok(self.get().legal_actions()))
    }

    /// The pending chance event's outcomes in notation, each with its probability (empty
    /// unless at a chance node): a float, the nearest to the exact probability, or with
    /// `exact=True` the exact one as a `fractions.Fraction`.
    #[pyo3(signature = (exact = false))]
    fn chance_outcomes<'py>(&self, py: Python<'py>, exact: bool) -> PyResult<Bound<'py, PyList>> {
        let outcomes = shielded(|| Ok(self.get().chance_outcomes()))?;
        let total = outcomes.iter().map(|&(_, _, w)| u64::from(w)).sum();
        let weighed = outcomes.into_iter().map(|(text, _, w)| (text, w));
        with_probabilities(py, weighed, total, exact)
    }

    /// The pending chance event's outcomes as dense ids, sorted by id, each with its
    /// probability: a float, or with `exact=True` a `fractions.Fraction`.
    #[pyo3(signature = (exact = false))]
    fn chance_outcome_actions<'py>(
        &self,
        py: Python<'py>,
        exact: bool,
    ) -> PyResult<Bound<'py, PyList>> {
        let outcomes = shielded(|| Ok(self.get().chance_weights()))?;
        if exact {
            let total = outcomes.iter().map(|&(_, w)| u64::from(w)).sum();
            return with_probabilities(py, outcomes, total, true);
        }
        // The lock is never held while Python runs (making objects may run a finalizer
        // that calls back here).
        let cached = self
            .last_outcomes()
            .as_ref()
            .and_then(|(weights, list)| (*weights == outcomes).then(|| list.clone_ref(py)));
        let list = match cached {
            Some(list) => list.into_bound(py),
            None => {
                let total = outcomes.iter().map(|&(_, w)| u64::from(w)).sum();
                let list = with_probabilities(py, outcomes.iter().copied(), total, false)?;
                *self.last_outcomes() = Some((outcomes, list.clone().unbind()));
                list
            }
        };
        // A copy: the caller may change the list it gets.
        Ok(list.get_slice(0, list.len()))
    }

    /// Plays a legal decision or chance outcome, given in notation (`"d8-a8"` in APV) or
    /// as its dense id. Raises `AgonError` naming the problem if it is not legal here
    /// (for an id, with the ids that are).
    fn apply(&self, r#move: &Bound<'_, PyAny>) -> PyResult<()> {
        shielded(|| {
            // The common case first: a legal id, as `legal_actions()` gives them.
            if let Ok(id) = r#move.extract::<u32>() {
                return self.get().apply_action(id).map_err(error_text);
            }
            if let Ok(text) = r#move.cast::<PyString>() {
                return self.get().apply_text(text.to_str()?).map_err(error_text);
            }
            Err(self.no_id(r#move))
        })
    }

    /// Takes back the last move. Raises `AgonError` at the initial position.
    fn undo(&self) -> PyResult<()> {
        if shielded(|| Ok(self.get().undo()))? {
            Ok(())
        } else {
            Err(error_text("nothing to undo: this is the initial position"))
        }
    }

    /// An independent copy, history included.
    fn clone(&self) -> PyResult<State> {
        shielded(|| Ok(State::new(self.get().clone_box())))
    }

    fn __copy__(&self) -> PyResult<State> {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyDict>) -> PyResult<State> {
        self.clone()
    }

    /// Pickles as the game's spec and the moves from the start, replayed on loading.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Pickled<'py>> {
        let restore = py.import("agon._agon")?.getattr("_restore_state")?;
        let saved = shielded(|| {
            let state = self.get();
            Ok((state.game_spec(), state.history()))
        })?;
        Ok((restore, saved))
    }

    /// Each seat's result once the game is over: +1 a win, -1 a loss, 0 a draw; `[0, 0]`
    /// while it goes on.
    fn returns(&self) -> PyResult<[f64; 2]> {
        shielded(|| {
            Ok(match self.get().end() {
                Some(end) => [0, 1].map(|seat| f64::from(end.outcome.score(seat))),
                None => [0.0, 0.0],
            })
        })
    }

    /// Why the game ended (`"four-in-a-row"`, `"cap"`, ...), or `None` while it goes on.
    fn end_reason(&self) -> PyResult<Option<&'static str>> {
        shielded(|| Ok(self.get().end().map(|end| end.reason.word())))
    }

    /// The notation of the legal move or outcome with this dense id.
    fn action_to_move(&self, action: &Bound<'_, PyAny>) -> PyResult<String> {
        shielded(|| match action.extract::<u32>() {
            Ok(id) => self.get().action_to_move(id).map_err(error_text),
            Err(_) => Err(self.no_id(action)),
        })
    }

    /// The dense id of a legal move or outcome written in notation.
    fn move_to_action(&self, r#move: &str) -> PyResult<u32> {
        shielded(|| self.get().move_to_action(r#move).map_err(error_text))
    }

    /// The moves from the start, chance outcomes included, in notation.
    fn history(&self) -> PyResult<Vec<String>> {
        shielded(|| Ok(self.get().history()))
    }

    /// Plies (decisions and chance outcomes) played from the start.
    fn ply(&self) -> PyResult<u32> {
        shielded(|| Ok(self.get().ply()))
    }

    /// The moves from ply `start` on as OpenSpiel records them, `(player, action)`:
    /// the seat that played or `CHANCE`, and the dense id. For `agon.openspiel`, which
    /// keeps OpenSpiel's own record of the history in step with it.
    #[pyo3(signature = (start = 0))]
    fn _id_history(&self, start: usize) -> PyResult<Vec<(i64, u32)>> {
        shielded(|| Ok(self.get().id_history(start)))
    }

    /// The side or colour `seat` plays now (`"red"`, `"white"`, ...).
    fn side(&self, seat: &Bound<'_, PyAny>) -> PyResult<&'static str> {
        let seat = seat_arg(seat, "seat")?;
        shielded(|| Ok(self.get().side(seat)))
    }

    /// The position's Zobrist key: equal positions have equal keys.
    fn hash(&self) -> PyResult<u64> {
        shielded(|| Ok(self.get().hash()))
    }

    /// What `player` sees: the whole position, since nothing in Agon's games is hidden
    /// from one player only (hidden terrain and dice are chance, hidden from both).
    fn observation_string(&self, player: &Bound<'_, PyAny>) -> PyResult<String> {
        seat_arg(player, "player")?;
        shielded(|| Ok(self.get().board()))
    }

    /// What a network sees as `player` (0 or 1): the game's encoding as a new `float32`
    /// numpy array of shape `Game.observation_tensor_shape()`, `[planes + scalars, rows,
    /// cols]`: each plane 0/1 per cell, then each scalar as a constant plane of
    /// `value / max` (see `Game.encoding()`). Defined at every state, chance and terminal
    /// included; only what both players may know is in it.
    fn observation_tensor<'py>(
        &self,
        py: Python<'py>,
        player: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, numpy::PyArray3<f32>>> {
        let view = seat_arg(player, "player")?;
        let (encoding, features, scalars) =
            shielded(|| Ok(crate::tensor::encoded(&**self.get(), view)))?;
        shielded(|| crate::tensor::new_tensor(py, &encoding, &features, &scalars))
    }

    /// `observation_tensor(player)` written into `out`, a writable C-contiguous `float32`
    /// numpy array with as many values as the tensor (any shape: flat, or the tensor's),
    /// without allocating one. Raises `AgonError` naming what `out` must be otherwise.
    fn write_observation_tensor(
        &self,
        player: &Bound<'_, PyAny>,
        out: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let view = seat_arg(player, "player")?;
        let (encoding, features, scalars) =
            shielded(|| Ok(crate::tensor::encoded(&**self.get(), view)))?;
        shielded(|| crate::tensor::write_tensor(out, &encoding, &features, &scalars))
    }

    /// The engine's sparse form of the observation of `player`: the indices of the active
    /// binary features (`plane × rows × cols + row × cols + col`), increasing.
    fn features(&self, player: &Bound<'_, PyAny>) -> PyResult<Vec<u32>> {
        let view = seat_arg(player, "player")?;
        shielded(|| Ok(crate::tensor::encoded(&**self.get(), view).1))
    }

    /// The encoding's scalars as `player` sees the position: whole numbers, each from 0
    /// to its declared `max`, in the order of `Game.encoding()["scalars"]`.
    fn scalars(&self, player: &Bound<'_, PyAny>) -> PyResult<Vec<i32>> {
        let view = seat_arg(player, "player")?;
        shielded(|| Ok(crate::tensor::encoded(&**self.get(), view).2))
    }

    /// The position as a text picture with its legend, as `agon show` prints it (the last
    /// move's cells marked).
    fn picture(&self) -> PyResult<String> {
        shielded(|| Ok(self.get().pictures().0))
    }

    /// The position described as data, for a viewer of one's own: a dict of `cells`
    /// (`name`, `x`, `y` in board units with `y` up, `shape`, `ground`), `pieces` (`cell`
    /// index, `shape`, `ink`, `label`, `facing` in degrees, `inactive`), `marks`
    /// (arrows of pending orders, rings of pending chance), `notes` (what the board cannot
    /// show: dice, cards, whose decision it is) and `legend` (`symbol`, `meaning`). It is
    /// what `picture()` and `svg()` draw.
    fn description<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let picture = shielded(|| Ok(self.get().picture_data()))?;
        crate::describe::picture_dict(py, &picture)
    }

    /// The position as a standalone SVG document, as `agon show --svg` writes it.
    fn svg(&self) -> PyResult<String> {
        shielded(|| Ok(self.get().pictures().1))
    }

    /// Plays uniformly random decisions and chance outcomes (by their probabilities) to
    /// the end, in one call, from a ChaCha8 stream seeded by `seed`; returns the plies
    /// played. The history grows as with `apply`, so the game can be undone or replayed.
    #[pyo3(signature = (seed = None))]
    fn play_random(&self, py: Python<'_>, seed: Option<&Bound<'_, PyAny>>) -> PyResult<u32> {
        let seed = seed_arg(seed)?;
        // The lock is taken with the interpreter released, so a thread waiting for it
        // never holds the interpreter that the playing thread needs to return.
        shielded(|| Ok(py.detach(|| self.get().play_random(seed))))
    }

    fn __str__(&self) -> PyResult<String> {
        shielded(|| Ok(self.get().board()))
    }

    /// The same game (parameters included) and the same moves from the start.
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        let Ok(other) = other.cast::<State>() else {
            return Ok(false);
        };
        let other = other.get();
        if std::ptr::eq(self, other) {
            return Ok(true);
        }
        shielded(|| Ok(self.get().same_line(&**other.get())))
    }

    /// Unhashable: a state changes as moves are played (see the class's docs).
    #[classattr]
    const __hash__: Option<Py<PyAny>> = None;

    fn __repr__(&self) -> PyResult<String> {
        shielded(|| {
            let state = self.get();
            Ok(format!(
                "<agon.State ply {} of {:?}>",
                state.ply(),
                state.history().join(" ")
            ))
        })
    }
}

impl State {
    /// The error for a move that is neither notation nor the id of a legal move here.
    fn no_id(&self, value: &Bound<'_, PyAny>) -> PyErr {
        if value.extract::<i128>().is_ok() {
            // An integer out of every id range: told as the illegal id it is.
            error_text(self.get().no_id(&shown(value)))
        } else {
            let kind = value
                .get_type()
                .name()
                .map_or_else(|_| "?".to_string(), |n| n.to_string());
            error_text(format!(
                "a move is its notation (a str) or its dense id (an int), not {kind} {}",
                shown(value)
            ))
        }
    }
}

/// A seed argument (of `play_random`, `random_playouts`, `agent`): an integer from 0 to
/// 2**64 - 1, 0 when not given.
pub(crate) fn seed_arg(seed: Option<&Bound<'_, PyAny>>) -> PyResult<u64> {
    seed.map_or(Ok(0), |seed| {
        int_arg(seed, "seed", "a seed is an integer from 0 to 2**64 - 1")
    })
}

/// `(key, weight)` pairs as `(key, probability)` with the weights' `total`: floats (the
/// nearest to the exact ratio, as one division of two integers gives), or with `exact`
/// `fractions.Fraction`s.
fn with_probabilities<'py, K: IntoPyObject<'py>>(
    py: Python<'py>,
    outcomes: impl IntoIterator<Item = (K, u32)>,
    total: u64,
    exact: bool,
) -> PyResult<Bound<'py, PyList>> {
    if exact {
        let fraction = py.import("fractions")?.getattr("Fraction")?;
        let pairs = outcomes
            .into_iter()
            .map(|(key, w)| Ok((key, fraction.call1((w, total))?)))
            .collect::<PyResult<Vec<_>>>()?;
        PyList::new(py, pairs)
    } else {
        let pairs: Vec<_> = outcomes
            .into_iter()
            .map(|(key, w)| (key, f64::from(w) / total as f64))
            .collect();
        PyList::new(py, pairs)
    }
}
