//! The `optimal` agent: exact play of small games, by value iteration over every
//! reachable position.
//!
//! Asked about a position, the agent enumerates every position reachable from it
//! (decision nodes, chance nodes and finished games, [`table`]) and values them all: a
//! decision node is worth the best of its children for the seat deciding, a chance node
//! the mean of its outcomes weighted by their integer weights, a finished game its
//! result (+1 a win, −1 a loss, 0 a draw). Values are kept from seat 0's view, so no
//! value is ever negated between nodes, and a turn of several decisions by one seat
//! needs no special care. Games with chance have cycles (in Pig a roll of 1, or a hold
//! with nothing to bank, hands the turn over without changing the scores), so the
//! values are the fixed point of these equations, found by value iteration
//! ([`iterate`]): Gauss–Seidel sweeps over each cycle of positions, the positions its
//! moves lead out to valued first, until no value changes by more than 1e-12. A value
//! is the expected result, win minus loss probability; where draws cannot happen, the
//! chance of winning is (1 + v) / 2. This is how Neller and Presser solved Pig ("Optimal
//! Play of the Dice Game Pig", 2004), written for any game.
//!
//! It then plays by looking up each legal move's successor and taking the best for the
//! seat to move. Moves whose values differ by less than [`TIE`] count as equal, and the
//! first of them in the game's move order is played, so the agent is deterministic: it
//! draws nothing from its random stream, and a position always gets the same move.
//!
//! # Which positions are one
//!
//! Positions are identified by the hash of their
//! [`LengthCap::cap_reset`](agon_engine::LengthCap::cap_reset): the position
//! with a counter that only a length cap reads set back to the start. Pig keeps its
//! decision count in its hash and `Eq`, because the depth-limited searches must know how
//! far the horizon is; keyed by the plain hash, default Pig would hold every position
//! once for each count up to the horizon of 1000. So the agent values the game as if it
//! had no length cap, which is how Pig is solved: a draw at the horizon is out of reach
//! of sensible play (in 400 games against `expectimax:depth=4` the median game took 83
//! decisions and the longest 244, against a horizon of 1000), and near the cap the
//! agent plays on as if it were not there. (Only `horizon=1`, where the one decision
//! ends the game, stays capped.) A cap counted in the position and not reset (Coin
//! Nim's) is part of the game the table values. A game that can end by its history (a
//! repetition, or a cap on a count kept outside the position) is refused as soon as the
//! enumeration meets such an end: a table of positions cannot value a path. The
//! enumeration follows shortest lines, so a repetition rule that none of them triggers
//! goes unseen, and such a game is valued as if it had none.
//!
//! # Which games
//!
//! Any game whose reachable positions fit the limit, the `states` parameter
//! ([`OptimalConfig::states`]); beyond it the agent refuses ([`TableError::TooLarge`])
//! as soon as the count passes the limit, so a large game costs at most that much work.
//! A deterministic game is solved the same way (retrograde analysis of its whole graph),
//! but the agent is meant for small games with chance, where no other agent here is
//! exact: Pig with its default rules has 2.04 million positions, valued in a few seconds
//! on one core (250 MB at most while building).
//!
//! # Tables shared within a process
//!
//! A tournament builds a fresh agent for every game and seat, so tables are shared
//! through a process-wide cache: an agent asked about a position first looks for a
//! table that holds it ([`Table::find`], which checks equality, so that another
//! configuration of the game with the same keys is never used), and builds one only if
//! none does. A table is built while the cache's lock is held, so workers that ask at
//! once build it once. The cache keeps the [`MAX_TABLES`] tables used last (a process
//! plays few game configurations at a time, and one asked about many, such as
//! `agon serve`, must not keep a table for each). [`Optimal::prepare`] builds the table before play, where a refusal
//! can be reported; a search on a position whose table cannot be built panics with the
//! same reason.
//!
//! # What a search reports
//!
//! The value is a [`Value::Score`] on the evaluator's scale (the expected result times
//! the evaluator's upper bound, what an exact expectimax would report with a horizon
//! beyond every game's end: for Pig, 1000 times the expected result). The principal
//! variation is the move alone; depth 0; nodes, the positions looked up (the successors
//! of a decision node, or the position itself).

mod iterate;
mod table;

use std::any::Any;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

use agon_engine::{Evaluator, State, Turn};

use crate::agent::{Agent, SearchContext, SearchInfo, SearchResult, Value};
use crate::error::AgentError;

pub use table::{Table, TableError};

/// Moves whose values (expected results in [−1, 1]) differ by less than this are taken
/// as equal, and the first in move order is played: a thousand times the iteration's
/// tolerance, so that rounding in the sweeps never decides between equal moves.
pub const TIE: f64 = 1e-9;

/// The agent's name in a spec, which the registry lists it by.
pub const NAME: &str = "optimal";

/// The default limit on positions, written once (as the registry's `states` default
/// text and [`DEFAULT_STATES`]).
macro_rules! default_states {
    () => {
        20000000
    };
}
pub(crate) use default_states;

/// The most positions a table may hold when the agent is given no `states`: ten times
/// default Pig's, about 2.5 GB while building (some 125 bytes a position for Pig), and
/// some ten seconds of enumeration before a larger game is refused.
pub const DEFAULT_STATES: usize = default_states!();

/// The largest `states` limit: ids are 32-bit, and a billion positions would need some
/// 100 GB while building, beyond any machine this runs on.
pub const MAX_STATES: usize = 1_000_000_000;

/// How an `optimal` agent works.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptimalConfig {
    /// The most positions a table may hold; a game with more is refused.
    pub states: usize,
}

impl Default for OptimalConfig {
    /// A limit of [`DEFAULT_STATES`] positions.
    fn default() -> Self {
        OptimalConfig {
            states: DEFAULT_STATES,
        }
    }
}

/// The exact agent (see the module docs).
pub struct Optimal<S: State> {
    config: OptimalConfig,
    /// The evaluator's upper bound: what a win scores in reported values.
    scale: f64,
    /// The table of the last position searched, reused while positions are found in it.
    table: Option<Arc<Table<S>>>,
}

impl<S: State> Optimal<S> {
    /// A new agent reporting values on `eval`'s scale.
    pub fn new<E: Evaluator<S>>(eval: &E, config: OptimalConfig) -> Self {
        Optimal {
            config,
            scale: f64::from(eval.bounds().1),
            table: None,
        }
    }

    /// The table holding `state` and its id there: this agent's last table, another
    /// from the process's cache, or a new one.
    fn locate(&mut self, state: &S) -> Result<(Arc<Table<S>>, u32), TableError> {
        if let Some(table) = &self.table {
            if let Some(id) = table.find(state) {
                return Ok((Arc::clone(table), id));
            }
        }
        let (table, id) = shared_table(state, self.config.states)?;
        self.table = Some(Arc::clone(&table));
        Ok((table, id))
    }
}

/// The most tables the process's cache keeps: the game being played and one more, so
/// that a process that alternates between two games (`agon serve` asked about one
/// configuration and then another) does not build a table at every move, while one asked
/// about many configurations holds two tables, not one per configuration (a table may
/// take gigabytes). An agent keeps its own table as long as it lives, so dropping a
/// table from the cache never takes it from a game being played.
pub const MAX_TABLES: usize = 2;

/// The tables of the process's cache, of every game type (each a `Table<S>`), the one
/// used last at the end; at most [`MAX_TABLES`].
static TABLES: Mutex<Vec<Arc<dyn Any + Send + Sync>>> = Mutex::new(Vec::new());

/// A table of the process's cache that holds `state`, with its id there, or a new one
/// built from `state` with at most `limit` positions and added to the cache (which then
/// drops the table used longest ago if it holds more than [`MAX_TABLES`]).
fn shared_table<S: State>(state: &S, limit: usize) -> Result<(Arc<Table<S>>, u32), TableError> {
    // A panic while building leaves nothing half-made in the list, so a poisoned lock
    // is safe to take.
    let mut tables = TABLES.lock().unwrap_or_else(PoisonError::into_inner);
    let found = tables.iter().enumerate().find_map(|(i, table)| {
        let table = Arc::clone(table).downcast::<Table<S>>().ok()?;
        table.find(state).map(|id| (i, table, id))
    });
    if let Some((i, table, id)) = found {
        let used = tables.remove(i);
        tables.push(used);
        return Ok((table, id));
    }
    let table = Arc::new(Table::build(state, limit)?);
    tables.push(Arc::clone(&table) as Arc<dyn Any + Send + Sync>);
    if tables.len() > MAX_TABLES {
        tables.remove(0);
    }
    Ok((table, 0))
}

impl<S: State> Agent<S> for Optimal<S> {
    /// Builds (or finds) the table of `state`'s game, or says why it cannot.
    fn prepare(&mut self, state: &S) -> Result<(), AgentError> {
        self.locate(state)
            .map(|_| ())
            .map_err(|e| AgentError::Unplayable {
                name: NAME.to_string(),
                reason: e.to_string(),
            })
    }

    /// Panics if no table of `state`'s game can be built ([`Optimal::prepare`] reports
    /// the same as an error).
    fn search(&mut self, state: &S, ctx: SearchContext<'_, S::Move>) -> SearchResult<S::Move> {
        let start = Instant::now();
        let (best, value, nodes) = match state.turn() {
            Turn::Over => {
                let outcome = state.outcome().expect("a finished game has an outcome");
                (None, f64::from(outcome.score(0)), 0)
            }
            turn => {
                let (table, id) = self
                    .locate(state)
                    .unwrap_or_else(|e| panic!("optimal: {e}"));
                match turn {
                    Turn::Seat(mover) => {
                        let (m, value, looked_up) = best_move(&table, state, mover);
                        (Some(m), value, looked_up)
                    }
                    _ => (None, table.value(id), 1),
                }
            }
        };
        let value = Value::Score(value * self.scale);
        let pv: Vec<S::Move> = best.into_iter().collect();
        let time = start.elapsed();
        (ctx.info)(&SearchInfo {
            depth: 0,
            value,
            nodes,
            time,
            pv: pv.clone(),
        });
        SearchResult {
            best,
            value,
            depth: 0,
            nodes,
            time,
            pv,
            tt_hits: 0,
            memory_full: false,
        }
    }
}

/// The move `mover` plays at `state` (a decision node of `table`), its value from the
/// mover's view, and the successors looked up: the first move in move order whose value
/// is within [`TIE`] of the best.
fn best_move<S: State>(table: &Table<S>, state: &S, mover: usize) -> (S::Move, f64, u64) {
    let sign = if mover == 0 { 1.0 } else { -1.0 };
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    let values: Vec<f64> = moves
        .iter()
        .map(|&m| {
            let mut child = state.clone();
            child.apply(m);
            sign * table.child_value(&child)
        })
        .collect();
    let top = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let chosen = values
        .iter()
        .position(|&v| v >= top - TIE)
        .expect("a decision node has a legal move");
    (moves[chosen], values[chosen], moves.len() as u64)
}

#[cfg(test)]
mod tests {
    use agon_engine::games::pig::{Pig, PigEval};
    use agon_engine::Game;

    use super::*;

    #[test]
    fn the_cache_keeps_the_most_recent_tables_only() {
        // Pig to 4, 5, ... points: each target another game, so another table.
        for target in 4..4 + 2 * MAX_TABLES as u32 {
            let start = Pig::new(target, 3, 1000).unwrap().initial_state();
            let mut agent = Optimal::new(&PigEval::default(), OptimalConfig::default());
            agent.prepare(&start).unwrap();
            let cached = TABLES.lock().unwrap_or_else(PoisonError::into_inner).len();
            assert!(cached <= MAX_TABLES, "{cached} tables cached");
        }
    }
}
