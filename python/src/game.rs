//! `agon.games()`, `agon.load_game(spec)` and the `Game` class.

use std::sync::Arc;
use std::time::Instant;

use agon_cli::games::GAMES;
use agon_cli::spec::GameSpec;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::erased::{self, DynGame};
use crate::state::{seed_arg, State};
use crate::{agon_error, error_text, int_arg, shielded, SIGNAL_POLL};

/// What `pickle` stores of a game: `load_game` and the canonical spec.
type Pickled<'py> = (Bound<'py, PyAny>, (String,));

/// A registered game: its name, what it is, and its parameters.
#[pyclass(module = "agon._agon", frozen, get_all)]
pub struct GameInfo {
    /// The name used in specs (`"apv"`).
    name: String,
    /// One line describing the game.
    about: String,
    /// Whether the game has chance events (dice, tile draws).
    has_chance: bool,
    /// Whether some information is hidden from both players (modelled as chance).
    has_hidden_information: bool,
    /// Each parameter: `name`, `kind` (`"integer 1..16"`, `"true|false"`, ...),
    /// `default` (as typed) and `help`.
    parameters: Vec<Py<PyDict>>,
}

#[pymethods]
impl GameInfo {
    fn __repr__(&self) -> String {
        format!("GameInfo(name={:?}, about={:?})", self.name, self.about)
    }
}

/// Every registered game, in listing order (as `agon games` lists them).
#[pyfunction]
pub fn games(py: Python<'_>) -> PyResult<Vec<GameInfo>> {
    GAMES
        .iter()
        .map(|info| {
            let parameters = (info.params)()
                .iter()
                .map(|p| {
                    let dict = PyDict::new(py);
                    dict.set_item("name", p.name)?;
                    dict.set_item("kind", p.kind.to_string())?;
                    dict.set_item("default", p.default)?;
                    dict.set_item("help", p.help)?;
                    Ok(dict.unbind())
                })
                .collect::<PyResult<_>>()?;
            Ok(GameInfo {
                name: info.name.to_string(),
                about: info.about.to_string(),
                has_chance: info.has_chance,
                has_hidden_information: info.has_hidden_information,
                parameters,
            })
        })
        .collect()
}

/// A configured game: `agon.load_game("apv:orders=false")`. Games are equal when their
/// canonical specs are (the same game with the same parameters), and hash alike then.
#[pyclass(module = "agon._agon", frozen)]
pub struct Game {
    pub(crate) inner: Arc<dyn DynGame>,
}

/// Loads the game of a spec (`name` or `name:key=value,...`), checking its parameters as
/// the command line does.
#[pyfunction]
pub fn load_game(spec: &str) -> PyResult<Game> {
    shielded(|| {
        let spec = GameSpec::parse(spec).map_err(|e| error_text(e.0))?;
        let inner = erased::load(&spec).map_err(|e| agon_error(&e))?;
        Ok(Game { inner })
    })
}

#[pymethods]
impl Game {
    /// The game's name (`"apv"`).
    #[getter]
    fn name(&self) -> &'static str {
        self.inner.spec().name
    }

    /// The canonical spec, every parameter filled in (`"apv:limited_orders=false,..."`).
    #[getter]
    fn spec(&self) -> String {
        self.inner.spec().to_string()
    }

    /// The parameters as a dict of their canonical texts.
    #[getter]
    fn parameters(&self, py: Python<'_>) -> PyResult<Py<PyDict>> {
        let params = &self.inner.spec().params;
        let dict = PyDict::new(py);
        for name in params.names() {
            let value = params.get(name).expect("a listed name");
            dict.set_item(name, value.to_string())?;
        }
        Ok(dict.unbind())
    }

    /// The position before the first move.
    pub(crate) fn new_initial_state(&self) -> PyResult<State> {
        shielded(|| Ok(State::new(self.inner.new_state())))
    }

    /// Decisions are numbered `0..num_distinct_actions()`.
    fn num_distinct_actions(&self) -> u32 {
        self.inner.space().decisions
    }

    /// Chance outcomes are numbered `0..max_chance_outcomes()` (0 without chance).
    fn max_chance_outcomes(&self) -> u32 {
        self.inner.space().chance_outcomes
    }

    /// No game has more decisions than this: chance outcomes are not counted, as in
    /// OpenSpiel's `max_game_length` (see `max_plies`).
    #[allow(clippy::misnamed_getters)] // the engine's `max_game_length` counts plies
    fn max_game_length(&self) -> u32 {
        self.inner.space().max_decisions
    }

    /// No game lasts more plies (decisions and chance outcomes together) than this: a
    /// bound on `len(state.history())`. The same as `max_game_length()` in a game
    /// without chance.
    fn max_plies(&self) -> u32 {
        self.inner.space().max_game_length
    }

    /// The shape of every state's `observation_tensor(player)`: `(planes + scalars, rows,
    /// cols)`.
    fn observation_tensor_shape(&self) -> (usize, usize, usize) {
        let [c, r, w] = crate::tensor::shape(&self.inner.encoding());
        (c, r, w)
    }

    /// What a network sees of the game: a dict of `id` (changes whenever a feature's
    /// meaning does), `rows`, `cols`, `planes` (each `name`, `meaning`), `scalars` (each
    /// `name`, `meaning`, `max`) and `shape`, the observation tensor's.
    fn encoding<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let encoding = shielded(|| Ok(self.inner.encoding()))?;
        crate::tensor::encoding_dict(py, &encoding)
    }

    /// Plays `count` whole random games (uniform decisions, chance outcomes by their
    /// probabilities) in one call, game `k` from the seed `seed + k`; returns the plies
    /// played in all. The fast way to time or sample playouts from Python. The games are
    /// played with the interpreter released, in slices of a few hundredths of a second
    /// between which Ctrl-C raises `KeyboardInterrupt`.
    #[pyo3(signature = (count, seed = None))]
    fn random_playouts(
        &self,
        py: Python<'_>,
        count: &Bound<'_, PyAny>,
        seed: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<u64> {
        let count = int_arg::<u64>(count, "count", "a count is an integer from 0 to 2**64 - 1")?;
        let seed = seed_arg(seed)?;
        shielded(|| {
            let mut plies = 0;
            let mut k = 0;
            while k < count {
                let start = Instant::now();
                py.detach(|| {
                    while k < count && start.elapsed() < SIGNAL_POLL {
                        plies +=
                            u64::from(self.inner.new_state().play_random(seed.wrapping_add(k)));
                        k += 1;
                    }
                });
                py.check_signals()?;
            }
            Ok(plies)
        })
    }

    fn __repr__(&self) -> String {
        format!("agon.load_game({:?})", self.inner.spec().to_string())
    }

    /// The same game with the same parameters (the same canonical spec).
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<Game>()
            .is_ok_and(|other| other.get().inner.spec() == self.inner.spec())
    }

    /// The hash of the canonical spec, so that equal games hash alike.
    fn __hash__(&self, py: Python<'_>) -> PyResult<isize> {
        pyo3::types::PyString::new(py, &self.spec()).hash()
    }

    /// Pickles as the canonical spec, loaded again with `load_game`.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Pickled<'py>> {
        let load = py.import("agon._agon")?.getattr("load_game")?;
        Ok((load, (self.spec(),)))
    }

    fn __str__(&self) -> String {
        self.inner.spec().to_string()
    }
}

/// The state of the game of `spec` after `moves` (notation, from the start): how a
/// pickled state is loaded.
#[pyfunction]
pub fn _restore_state(spec: &str, moves: Vec<String>) -> PyResult<State> {
    let state = load_game(spec)?.new_initial_state()?;
    shielded(|| {
        for text in &moves {
            state.get().apply_text(text).map_err(error_text)?;
        }
        Ok(())
    })?;
    Ok(state)
}
