//! The `optimal` agent's table: every position reachable from a root, numbered densely
//! in breadth-first order, with its exact value.
//!
//! Positions are identified by
//! [`LengthCap::cap_reset`](agon_engine::LengthCap::cap_reset): the key of a
//! position is the hash of its reset, so positions that differ only in a length cap's counter (Pig's decision
//! count) are one entry, and the game is valued as if it had no such cap (see the
//! module docs of [`super`]). The enumeration stores each position's reset and expands
//! that, so the graph it builds is the capless game's.
//!
//! While building, the table holds the move graph in flat arrays ([`Graph`]); once
//! valued it keeps only what play needs: the key of each position, its value, and the
//! path that first reached it (its parent and the index of the move), from which
//! [`Table::find`] replays a position to check that a key found belongs to the position
//! asked about, and not to another configuration of the game with equal keys.

use std::collections::{HashMap, VecDeque};
use std::hash::{BuildHasherDefault, Hasher};

use agon_engine::{State, Turn};

use super::iterate::{Graph, Node, MAX_SWEEPS};

/// Why no table could be built from a position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TableError {
    /// More positions are reachable than the limit allows.
    #[error(
        "more than {limit} positions are reachable from this one (raise the states \
         parameter, or use an agent that searches: the optimal agent is for small games)"
    )]
    TooLarge {
        /// The limit (the agent's `states` parameter).
        limit: usize,
    },
    /// A reachable position ends the game because of the path that led to it.
    #[error(
        "the game can end by its history (a repetition, or a cap on a count kept outside \
         the position), which a table of positions cannot value"
    )]
    EndsByHistory,
    /// Value iteration did not settle.
    #[error(
        "value iteration did not settle within {MAX_SWEEPS} sweeps over a cycle of \
         {component} positions"
    )]
    NoConvergence {
        /// Positions in the cycle that did not settle.
        component: usize,
    },
}

/// Every position reachable from a root, valued (see the module docs).
pub struct Table<S: State> {
    /// The root's reset ([`LengthCap::cap_reset`](agon_engine::LengthCap::cap_reset)): id 0.
    root: S,
    /// The id of each position by the hash of its reset.
    ids: HashMap<u64, u32, BuildHasherDefault<KeyHasher>>,
    /// The id of the position whose move first reached each one (the root's: 0).
    parent: Vec<u32>,
    /// The index of that move among the parent's decisions or chance outcomes, in the
    /// order the game lists them.
    via: Vec<u32>,
    /// Each position's value: seat 0's expected score, +1 a win and −1 a loss.
    values: Vec<f64>,
    /// Sweeps value iteration made, over all cycles.
    sweeps: u64,
}

impl<S: State> Table<S> {
    /// Enumerates the positions reachable from `root` and values them; fails when there
    /// are more than `limit`, when the game can end by history, or when value iteration
    /// does not settle.
    pub fn build(root: &S, limit: usize) -> Result<Self, TableError> {
        let root = root.cap_reset();
        let mut ids = HashMap::default();
        ids.insert(root.hash(), 0);
        let (mut parent, mut via) = (vec![0], vec![0]);
        let mut graph = Graph::default();
        // Debug builds keep every position to check that no two share a key.
        let mut seen = Vec::new();
        if cfg!(debug_assertions) {
            seen.push(root.clone());
        }
        let mut frontier = VecDeque::from([root.clone()]);
        let (mut moves, mut choices) = (Vec::new(), Vec::new());
        let mut id = 0u32;
        while let Some(state) = frontier.pop_front() {
            graph.first.push(graph.child.len());
            choices.clear();
            let node = match state.turn() {
                Turn::Over if state.ended_by_history() => return Err(TableError::EndsByHistory),
                Turn::Over => {
                    let outcome = state.outcome().expect("a finished game has an outcome");
                    Node::End(f64::from(outcome.score(0)))
                }
                Turn::Seat(seat) => {
                    moves.clear();
                    state.legal_moves(&mut moves);
                    choices.extend(moves.iter().map(|&m| (m, 1)));
                    if seat == 0 {
                        Node::Max
                    } else {
                        Node::Min
                    }
                }
                Turn::Chance => {
                    state.chance_outcomes(&mut choices);
                    Node::Chance
                }
            };
            graph.nodes.push(node);
            for (slot, &(m, weight)) in choices.iter().enumerate() {
                let mut child = state.clone();
                child.apply(m);
                // Checked before the key is looked up: a position ended by its path has
                // the key of the same position still open.
                if child.ended_by_history() {
                    return Err(TableError::EndsByHistory);
                }
                let child = child.cap_reset();
                let fresh = ids.len() as u32;
                let c = *ids.entry(child.hash()).or_insert(fresh);
                if c == fresh {
                    if ids.len() > limit {
                        return Err(TableError::TooLarge { limit });
                    }
                    parent.push(id);
                    via.push(slot as u32);
                    if cfg!(debug_assertions) {
                        seen.push(child.clone());
                    }
                    frontier.push_back(child);
                } else if cfg!(debug_assertions) {
                    assert!(seen[c as usize] == child, "two positions share a key");
                }
                graph.child.push(c);
                graph.weight.push(weight);
            }
            id += 1;
        }
        graph.first.push(graph.child.len());
        let (values, sweeps) = graph.solve().map_err(|e| TableError::NoConvergence {
            component: e.component,
        })?;
        Ok(Table {
            root,
            ids,
            parent,
            via,
            values,
            sweeps,
        })
    }

    /// Positions in the table.
    pub fn positions(&self) -> usize {
        self.values.len()
    }

    /// Sweeps value iteration made to value the table, over all its cycles.
    pub fn sweeps(&self) -> u64 {
        self.sweeps
    }

    /// The id of `state` (at any count of its cap) if it is one of this table's
    /// positions, checked by equality with the position the table stores under its key
    /// (so a table of another configuration of the game is never taken for this one).
    pub fn find(&self, state: &S) -> Option<u32> {
        let state = state.cap_reset();
        let id = *self.ids.get(&state.hash())?;
        (self.position(id) == state).then_some(id)
    }

    /// The value of position `id` (from [`Table::find`]): seat 0's expected score.
    pub fn value(&self, id: u32) -> f64 {
        self.values[id as usize]
    }

    /// The value of `child`, a position reached by one move from a position found in
    /// the table (so it is in the table too, and only its key is read).
    pub fn child_value(&self, child: &S) -> f64 {
        let id = self
            .ids
            .get(&child.cap_reset().hash())
            .expect("every position one move from a position of the table is in the table");
        self.values[*id as usize]
    }

    /// Position `id`, replayed from the root along the moves that first reached it.
    fn position(&self, id: u32) -> S {
        let mut path = Vec::new();
        let mut v = id;
        while v != 0 {
            path.push(v);
            v = self.parent[v as usize];
        }
        let mut state = self.root.clone();
        let (mut moves, mut outcomes) = (Vec::new(), Vec::new());
        for &v in path.iter().rev() {
            let slot = self.via[v as usize] as usize;
            let m = if state.turn() == Turn::Chance {
                outcomes.clear();
                state.chance_outcomes(&mut outcomes);
                outcomes[slot].0
            } else {
                moves.clear();
                state.legal_moves(&mut moves);
                moves[slot]
            };
            state.apply(m);
            state = state.cap_reset();
        }
        state
    }
}

/// The hasher of the table's map: its keys are Zobrist keys, already uniformly mixed,
/// so the key itself is the hash.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, _: &[u8]) {
        unreachable!("the table's keys are u64, hashed by write_u64");
    }

    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }
}
