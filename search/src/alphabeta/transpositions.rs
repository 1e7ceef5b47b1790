//! The table's keys and what the core reads from it beyond its own probe: the keys that
//! the solver's positions share with their symmetric images
//! ([`Symmetries::canonical_key`](agon_engine::Symmetries::canonical_key)),
//! enhanced transposition cut-offs (a node refuted by a child's entry before any child
//! is searched), and the principal variation read back from exact entries.

use agon_engine::{Move, Seat, State, Symmetry, Turn};

use super::CoreOptions;
use crate::score::{from_table, to_table, MAX_PLY};
use crate::tt::{Bound, TranspositionTable, TtEntry};

/// The key `state` is stored under, and the symmetry that carries its moves onto the
/// stored ones: its own hash, or with [`CoreOptions::solver_table`] the key it shares
/// with its symmetric images (the solver: a proof visits each of them otherwise;
/// `ab`'s searches at a fixed depth stay as they were).
#[inline]
pub(super) fn table_key<S: State>(options: &CoreOptions, state: &S) -> (u64, Symmetry) {
    if options.solver_table {
        state.canonical_key()
    } else {
        (state.hash(), 0)
    }
}

/// A move code read from the table for a position stored under `symmetry`, as the
/// move of the position itself (the stored one is its image's). A code that unpacks to
/// no move stays as it is: the search checks every table move for legality anyway.
#[inline]
pub(super) fn from_table_move<S: State>(state: &S, code: u32, symmetry: Symmetry) -> u32 {
    if symmetry == 0 {
        return code;
    }
    S::Move::unpack(code).map_or(code, |m| state.map_move(m, symmetry).pack())
}

/// The node an enhanced transposition cut-off is tried at.
pub(super) struct Node {
    /// Its table key and symmetry ([`table_key`]).
    pub(super) key: u64,
    pub(super) symmetry: Symmetry,
    /// The seat to move there.
    pub(super) mover: Seat,
    /// Its remaining depth and ply.
    pub(super) depth: u32,
    pub(super) ply: usize,
    /// The top of its (null) window.
    pub(super) beta: i32,
}

/// Looks up the children of `node` (reached by `moves` from `state`) in the table: if
/// one's entry, deep enough for `depth - 1`, bounds the node's score from the mover's
/// view at `beta` or more, stores that lower bound for the node (with the move) and
/// returns the score and whether the entry is proven. Every child's key is computed
/// before any is probed, so that the probes' cache misses overlap; `keys` is the
/// reused buffer for them.
pub(super) fn child_cutoff<S: State>(
    tt: &TranspositionTable,
    options: &CoreOptions,
    keys: &mut Vec<(u64, bool)>,
    state: &mut S,
    node: &Node,
    moves: &[S::Move],
) -> Option<(i32, bool)> {
    keys.clear();
    for &m in moves {
        let undo = state.apply(m);
        keys.push(match state.turn() {
            Turn::Seat(next) => (table_key(options, state).0, next == node.mover),
            _ => (0, false),
        });
        state.undo(undo);
    }
    let (score, m, proven) = keys
        .iter()
        .zip(moves)
        .find_map(|(&(key, same_mover), &m)| {
            let hit = tt.probe(key)?;
            let deep_enough = hit.proven || u32::from(hit.depth) + 1 >= node.depth;
            let value = from_table(hit.value, node.ply + 1);
            let (score, bounds_below) = if same_mover {
                (value, hit.bound != Bound::Upper)
            } else {
                (-value, hit.bound != Bound::Lower)
            };
            (deep_enough && bounds_below && score >= node.beta).then_some((score, m, hit.proven))
        })?;
    tt.store(
        node.key,
        TtEntry {
            mv: Some(state.map_move(m, node.symmetry).pack()),
            value: to_table(score, node.ply),
            depth: node.depth as u8,
            bound: Bound::Lower,
            proven,
        },
    );
    Some((score, proven))
}

/// The principal variation of the iteration just completed from `root`: the line the
/// search `recorded`, extended by exact table entries whose moves are legal (the
/// recorded line stops where a table cut-off answered for the rest).
pub(super) fn principal_variation<S: State>(
    tt: &TranspositionTable,
    options: &CoreOptions,
    recorded: &[S::Move],
    root: &S,
) -> Vec<S::Move> {
    let mut pv = recorded.to_vec();
    let mut state = root.clone();
    for &m in &pv {
        state.apply(m);
    }
    let mut moves = Vec::with_capacity(state.max_moves());
    while pv.len() < MAX_PLY {
        let Turn::Seat(_) = state.turn() else { break };
        let (key, symmetry) = table_key(options, &state);
        let Some(code) = tt
            .probe(key)
            .filter(|e| e.bound == Bound::Exact)
            .and_then(|e| e.mv)
        else {
            break;
        };
        let code = from_table_move(&state, code, symmetry);
        moves.clear();
        state.legal_moves(&mut moves);
        let Some(m) = S::Move::unpack(code).filter(|m| moves.contains(m)) else {
            break;
        };
        pv.push(m);
        state.apply(m);
    }
    pv
}
