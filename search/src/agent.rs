//! The agent interface: what a tournament, `agon play` and `agon analyse` call.

use std::fmt;
use std::time::Duration;

use agon_engine::State;
use rand_chacha::ChaCha8Rng;

use crate::error::AgentError;

/// The random generator every agent draws from: ChaCha8, seeded by the caller, so a game
/// is reproducible on any machine and version of `rand`.
pub type AgentRng = ChaCha8Rng;

/// A search value, always from the point of view of the side to move at the root. At a
/// chance node, where nobody is to move, it is from seat 0's point of view.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    /// A heuristic score in evaluator units (or an exact expected value of such scores).
    Score(f64),
    /// A mean reward in [-1, 1] (MCTS).
    Reward(f64),
    /// A proven win in this many plies.
    Win(u32),
    /// A proven loss in this many plies.
    Loss(u32),
    /// A proven draw.
    Draw,
}

impl Value {
    /// Whether the value is a proven game result (`Win`, `Loss`, `Draw`) rather than an
    /// estimate (`Score`, `Reward`). An exact solver stopped by its budget before the
    /// proof reports an estimate, so this is how its "unproven" shows.
    pub fn is_proven(&self) -> bool {
        matches!(self, Value::Win(_) | Value::Loss(_) | Value::Draw)
    }
}

impl fmt::Display for Value {
    /// `12`, `-3.5`, `0.153` (rewards with three decimals), `win 5`, `loss 4`, `draw`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Value::Score(v) if v.fract() == 0.0 => write!(f, "{}", v as i64),
            Value::Score(v) => write!(f, "{v:.3}"),
            Value::Reward(v) => write!(f, "{v:.3}"),
            Value::Win(n) => write!(f, "win {n}"),
            Value::Loss(n) => write!(f, "loss {n}"),
            Value::Draw => f.write_str("draw"),
        }
    }
}

/// One completed iteration of an iterative-deepening search (one `info` line).
#[derive(Clone, Debug, PartialEq)]
pub struct SearchInfo<M> {
    /// Depth completed.
    pub depth: u32,
    /// Value at this depth, from the side to move's view.
    pub value: Value,
    /// Nodes searched so far in this search.
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Principal variation (best line) found at this depth.
    pub pv: Vec<M>,
}

/// What one search found.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult<M> {
    /// The chosen move; `None` only at a chance node or a finished game.
    pub best: Option<M>,
    /// The value of the position from the side to move's view.
    pub value: Value,
    /// Deepest iteration completed (0 for agents that do not deepen).
    pub depth: u32,
    /// Nodes visited (MCTS: iterations).
    pub nodes: u64,
    /// Wall time of the search (never reproducible; kept apart from results).
    pub time: Duration,
    /// Principal variation, starting with `best`.
    pub pv: Vec<M>,
    /// Transposition-table hits (0 for agents without a table).
    pub tt_hits: u64,
    /// Whether the search filled its memory bound (`mcts`'s `tree`) and went on
    /// without growing its tree; always `false` for agents without such a bound.
    pub memory_full: bool,
}

/// Totals over every search an agent made in one game, kept by whoever calls the agent
/// (a tournament adds each [`SearchResult`] with [`AgentStats::record`]), so that no
/// agent has to count for itself.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AgentStats {
    /// Searches (moves chosen).
    pub searches: u64,
    /// Nodes visited over all searches.
    pub nodes: u64,
    /// Thinking time over all searches.
    pub time: Duration,
}

impl AgentStats {
    /// Adds one finished search to the totals.
    pub fn record<M>(&mut self, result: &SearchResult<M>) {
        self.searches += 1;
        self.nodes += result.nodes;
        self.time += result.time;
    }
}

/// What a search is given besides the position: the random stream it draws from and
/// where it reports each completed iteration. One value rather than a parameter each, so
/// that what a search is given can grow (a clock, say) without touching every agent.
pub struct SearchContext<'a, M> {
    /// The agent's random stream (seeded by the caller, so a game is reproducible).
    pub rng: &'a mut AgentRng,
    /// Called after each completed iteration (agents that do not deepen may call it once
    /// or never).
    pub info: &'a mut dyn FnMut(&SearchInfo<M>),
    /// The moves from the game's start to the position searched, in the game's notation
    /// ([`State::format_move`]), chance outcomes included, when the caller knows them
    /// (a tournament's game, `agon play`, `agon analyse`); empty otherwise. Searches
    /// ignore it; an agent that must tell another program the whole game (an outside
    /// program speaking a text protocol) refuses to play without it.
    pub line: &'a [String],
}

impl<'a, M> SearchContext<'a, M> {
    /// A context drawing from `rng` and reporting to `info`, with no line of moves.
    pub fn new(rng: &'a mut AgentRng, info: &'a mut dyn FnMut(&SearchInfo<M>)) -> Self {
        SearchContext {
            rng,
            info,
            line: &[],
        }
    }

    /// The same context with `line`, the moves from the game's start to the position
    /// searched ([`SearchContext::line`]).
    pub fn with_line(self, line: &'a [String]) -> Self {
        SearchContext { line, ..self }
    }
}

/// A player: chooses a decision for the side to move.
///
/// Object-safe, so a tournament holds one `Box<dyn Agent<S>>` per seat: one virtual call
/// per *move*, never per node. Required: `search`; `select_move` is provided. An agent
/// keeps no name and no totals: the caller knows what it built (a tournament's label)
/// and tallies the results it gets back ([`AgentStats`]).
///
/// Contract: `search` on a state whose turn is `Turn::Seat(_)` returns `best: Some(m)`
/// with `m` legal there; with the same state, the same generator state and a fixed-size
/// budget (depth, nodes, iterations) it returns the same move on any machine.
pub trait Agent<S: State>: Send {
    /// Searches `state`, drawing from the context's stream and reporting each completed
    /// iteration to its `info`, and returns the result.
    fn search(&mut self, state: &S, ctx: SearchContext<'_, S::Move>) -> SearchResult<S::Move>;

    /// Readies the agent for the game of `state` before play, where a refusal can still
    /// be reported as an error. The default has nothing to ready. An agent whose work up
    /// front can fail does it here and says why (the optimal agent builds its table, and
    /// refuses a game with too many positions); its `search` on a position of a game it
    /// refuses panics with the same reason. The command line calls it once per agent
    /// spec with the position play starts from, before a tournament writes anything.
    fn prepare(&mut self, state: &S) -> Result<(), AgentError> {
        let _ = state;
        Ok(())
    }

    /// Chooses a move for the side to move of `state` (a decision node).
    fn select_move(&mut self, state: &S, rng: &mut AgentRng) -> S::Move {
        self.search(state, SearchContext::new(rng, &mut |_| {}))
            .best
            .expect("Agent::search returns a move at a decision node")
    }
}
