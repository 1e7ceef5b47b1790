//! `agon.agent(spec, game, seed)` and the `Agent`, `Choice` and `SearchLine` classes.

use std::sync::{Arc, Mutex};

use agon_cli::spec::AgentSpec;
use pyo3::prelude::*;

use crate::erased::{DynAgent, DynGame, Line};
use crate::game::Game;
use crate::state::{seed_arg, State};
use crate::{error_text, interruptible, shielded};

/// An agent of the registry (or an outside program, `ext:cmd=...`) for one game.
#[pyclass(module = "agon._agon")]
pub struct Agent {
    game: Arc<dyn DynGame>,
    spec: String,
    seed: u64,
    /// Shared with the thread a search runs on ([`interruptible`]).
    inner: Arc<Mutex<Box<dyn DynAgent>>>,
}

/// Builds the agent of `spec` (`"mcts:iters=1000"`, `"ab:depth=6"`, ...) for `game`, its
/// random stream seeded by `seed` as `agon analyse --seed` seeds it. Raises `AgonError`
/// for an unknown agent, a bad parameter or an agent that cannot play this game.
#[pyfunction]
#[pyo3(signature = (spec, game, seed = None))]
pub fn agent(spec: &str, game: &Game, seed: Option<&Bound<'_, PyAny>>) -> PyResult<Agent> {
    let seed = seed_arg(seed)?;
    shielded(|| {
        let game_spec = game.inner.spec().clone();
        let parsed =
            AgentSpec::parse_for_game(spec, &game_spec, false).map_err(|e| error_text(e.0))?;
        let inner = game
            .inner
            .new_agent(&parsed, seed)
            .map_err(|e| error_text(e.0))?;
        Ok(Agent {
            game: Arc::clone(&game.inner),
            spec: parsed.to_string(),
            seed,
            inner: Arc::new(Mutex::new(inner)),
        })
    })
}

#[pymethods]
impl Agent {
    /// The agent's canonical spec.
    #[getter]
    fn spec(&self) -> &str {
        &self.spec
    }

    /// Searches `state` (a position of this agent's game, with its parameters, where a
    /// seat is to move) and returns the chosen move with what the search found. The
    /// agent's random stream goes on from one call to the next, as in a game. The search
    /// runs on a thread of its own with the interpreter released; Ctrl-C raises
    /// `KeyboardInterrupt` at once, and the interrupted search finishes in the background
    /// (the agent's next `choose` waits for it).
    fn choose(&self, py: Python<'_>, state: &State) -> PyResult<Choice> {
        shielded(|| self.choose_unshielded(py, state))
    }

    fn __repr__(&self) -> String {
        format!(
            "agon.agent({:?}, {}, seed={})",
            self.spec,
            self.game.spec(),
            self.seed
        )
    }
}

impl Agent {
    /// [`Agent::choose`], unshielded.
    fn choose_unshielded(&self, py: Python<'_>, state: &State) -> PyResult<Choice> {
        let position = state.get().clone_box();
        let (plays, given) = (self.game.spec().to_string(), position.game_spec());
        if plays != given {
            return Err(error_text(format!(
                "the agent plays {plays} and cannot choose on a state of {given}"
            )));
        }
        let agent = Arc::clone(&self.inner);
        // The lock is taken on the search's thread, so a second call on the same agent
        // waits there, answering signals, while this one searches.
        let choice = interruptible(py, move || {
            let mut agent = agent.lock().unwrap_or_else(|e| e.into_inner());
            // An outside program's fault, given back without a panic report, is an
            // error of the call (any other panic is one too, through `interruptible`).
            agon_cli::catch_fault(|| agent.choose(position.as_ref()))
        })?
        .map_err(|fault| error_text(fault.0))?
        .map_err(error_text)?;
        Ok(Choice {
            r#move: choice.best,
            action: choice.action,
            value: choice.result.value.clone(),
            score: choice.result.number,
            depth: choice.result.depth,
            nodes: choice.result.nodes,
            seconds: choice.result.seconds,
            pv: choice.result.pv,
            iterations: choice
                .iterations
                .into_iter()
                .map(SearchLine::from)
                .collect(),
        })
    }
}

/// What an agent's search found.
#[pyclass(module = "agon._agon", frozen, get_all)]
pub struct Choice {
    /// The chosen move in notation.
    r#move: String,
    /// Its dense id.
    action: u32,
    /// The value as `agon analyse` prints it (`"12"`, `"0.153"`, `"win 5"`, `"draw"`),
    /// from the mover's view.
    value: String,
    /// The value as a number from the mover's view: a heuristic score, a mean reward in
    /// [-1, 1] (`mcts`), or +1 / -1 / 0 for a proven win, loss or draw.
    score: f64,
    /// The deepest iteration completed (0 for agents that do not deepen).
    depth: u32,
    /// Nodes searched (`mcts`: iterations).
    nodes: u64,
    /// Seconds the search took (never reproducible).
    seconds: f64,
    /// The principal variation, starting with the chosen move.
    pv: Vec<String>,
    /// Each completed iteration of an iterative-deepening search, in order.
    iterations: Vec<SearchLine>,
}

#[pymethods]
impl Choice {
    fn __repr__(&self) -> String {
        format!(
            "Choice(move={:?}, value={:?}, depth={}, nodes={})",
            self.r#move, self.value, self.depth, self.nodes
        )
    }
}

/// One completed iteration of a search (an `info` line of `agon analyse`).
#[pyclass(module = "agon._agon", frozen, get_all)]
#[derive(Clone)]
pub struct SearchLine {
    /// Depth completed.
    depth: u32,
    /// The value as printed, from the mover's view.
    value: String,
    /// The value as a number (see `Choice.score`).
    score: f64,
    /// Nodes searched so far.
    nodes: u64,
    /// Seconds since the search started.
    seconds: f64,
    /// The principal variation at this depth.
    pv: Vec<String>,
}

#[pymethods]
impl SearchLine {
    fn __repr__(&self) -> String {
        format!(
            "SearchLine(depth={}, value={:?}, pv={:?})",
            self.depth, self.value, self.pv
        )
    }
}

impl From<Line> for SearchLine {
    fn from(line: Line) -> SearchLine {
        SearchLine {
            depth: line.depth,
            value: line.value,
            score: line.number,
            nodes: line.nodes,
            seconds: line.seconds,
            pv: line.pv,
        }
    }
}
