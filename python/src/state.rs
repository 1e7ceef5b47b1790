//! The `State` class: one position of any game, with its history.

use std::sync::{Mutex, MutexGuard};

use agon_engine::Turn;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::erased::DynState;
use crate::{error_text, shielded};

/// `current_player()` at a chance node (OpenSpiel's number for it).
pub const CHANCE: i64 = -1;
/// `current_player()` once the game is over (OpenSpiel's number for it).
pub const TERMINAL: i64 = -4;

/// What `pickle` stores of a state: the function that restores it, with the game's spec
/// and the moves from the start.
type Pickled<'py> = (Bound<'py, PyAny>, (String, Vec<String>));

/// A move given to `apply`: its notation or its dense id.
#[derive(FromPyObject)]
pub enum MoveArg {
    /// A dense id (`legal_actions()`).
    Action(u32),
    /// Notation (`legal_moves()`).
    Text(String),
}

/// One position of a game, with the moves that led to it.
#[pyclass(module = "agon._agon")]
pub struct State {
    // A mutex only to make the class shareable between threads (Python objects may be);
    // calls never wait on it, since Python holds the object's borrow around each call.
    inner: Mutex<Box<dyn DynState>>,
}

impl State {
    pub(crate) fn new(inner: Box<dyn DynState>) -> State {
        State {
            inner: Mutex::new(inner),
        }
    }

    /// The position (a poisoned lock can only follow a panic, after which the state is
    /// still whole: every change is one call that completes or does nothing).
    pub(crate) fn get(&self) -> MutexGuard<'_, Box<dyn DynState>> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
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

    /// The pending chance event's outcomes in notation, each with its exact probability
    /// as a `fractions.Fraction` (empty unless at a chance node).
    fn chance_outcomes(&self, py: Python<'_>) -> PyResult<Vec<(String, Py<PyAny>)>> {
        let outcomes = shielded(|| Ok(self.get().chance_outcomes()))?;
        with_probabilities(py, outcomes, |(text, _, _)| text)
    }

    /// The pending chance event's outcomes as dense ids, each with its exact probability
    /// (a `fractions.Fraction`), sorted by id.
    fn chance_outcome_actions(&self, py: Python<'_>) -> PyResult<Vec<(u32, Py<PyAny>)>> {
        let mut outcomes = shielded(|| Ok(self.get().chance_outcomes()))?;
        outcomes.sort_by_key(|&(_, id, _)| id);
        with_probabilities(py, outcomes, |(_, id, _)| id)
    }

    /// Plays a legal decision or chance outcome, given in notation (`"e3-e4"`) or as its
    /// dense id. Raises `AgonError` naming the problem if it is not legal here.
    fn apply(&self, r#move: MoveArg) -> PyResult<()> {
        shielded(|| {
            let mut state = self.get();
            let done = match r#move {
                MoveArg::Action(id) => state.apply_action(id),
                MoveArg::Text(text) => state.apply_text(&text),
            };
            done.map_err(error_text)
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
    fn action_to_move(&self, action: u32) -> PyResult<String> {
        shielded(|| self.get().action_to_move(action).map_err(error_text))
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

    /// The side or colour `seat` plays now (`"red"`, `"white"`, ...).
    fn side(&self, seat: usize) -> PyResult<&'static str> {
        if seat > 1 {
            return Err(error_text(format!("seat {seat}: the seats are 0 and 1")));
        }
        shielded(|| Ok(self.get().side(seat)))
    }

    /// The position's Zobrist key: equal positions have equal keys.
    fn hash(&self) -> PyResult<u64> {
        shielded(|| Ok(self.get().hash()))
    }

    /// What `player` sees: the whole position, since nothing in Agon's games is hidden
    /// from one player only (hidden terrain and dice are chance, hidden from both).
    fn observation_string(&self, player: usize) -> PyResult<String> {
        self.side(player)?;
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
        let view = crate::tensor::seat(player)?;
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
        let view = crate::tensor::seat(player)?;
        let (encoding, features, scalars) =
            shielded(|| Ok(crate::tensor::encoded(&**self.get(), view)))?;
        shielded(|| crate::tensor::write_tensor(out, &encoding, &features, &scalars))
    }

    /// The engine's sparse form of the observation of `player`: the indices of the active
    /// binary features (`plane × rows × cols + row × cols + col`), increasing.
    fn features(&self, player: &Bound<'_, PyAny>) -> PyResult<Vec<u32>> {
        let view = crate::tensor::seat(player)?;
        shielded(|| Ok(crate::tensor::encoded(&**self.get(), view).1))
    }

    /// The encoding's scalars as `player` sees the position: whole numbers, each from 0
    /// to its declared `max`, in the order of `Game.encoding()["scalars"]`.
    fn scalars(&self, player: &Bound<'_, PyAny>) -> PyResult<Vec<i32>> {
        let view = crate::tensor::seat(player)?;
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
    #[pyo3(signature = (seed = 0))]
    fn play_random(&self, py: Python<'_>, seed: u64) -> PyResult<u32> {
        // The lock is taken with the interpreter released, so a thread waiting for it
        // never holds the interpreter that the playing thread needs to return.
        shielded(|| Ok(py.detach(|| self.get().play_random(seed))))
    }

    fn __str__(&self) -> PyResult<String> {
        shielded(|| Ok(self.get().board()))
    }

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

/// `outcomes` as (key, exact probability) pairs, the probability a `fractions.Fraction`.
fn with_probabilities<K>(
    py: Python<'_>,
    outcomes: Vec<(String, u32, u32)>,
    key: impl Fn((String, u32, u32)) -> K,
) -> PyResult<Vec<(K, Py<PyAny>)>> {
    let fraction = py.import("fractions")?.getattr("Fraction")?;
    let total: u64 = outcomes.iter().map(|&(_, _, w)| u64::from(w)).sum();
    outcomes
        .into_iter()
        .map(|outcome| {
            let p = fraction.call1((outcome.2, total))?.unbind();
            Ok((key(outcome), p))
        })
        .collect()
}
