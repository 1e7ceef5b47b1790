//! The `random` agent: a uniformly random legal move.

use agon_engine::State;
use rand::Rng;

use crate::agent::{Agent, SearchContext, SearchResult, Value};

/// Plays a uniformly random legal move, drawn from the generator it is given.
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomAgent;

impl<S: State> Agent<S> for RandomAgent {
    fn search(&mut self, state: &S, ctx: SearchContext<'_, S::Move>) -> SearchResult<S::Move> {
        let rng = ctx.rng;
        let mut moves = Vec::with_capacity(state.max_moves());
        state.legal_moves(&mut moves);
        let best = (!moves.is_empty()).then(|| moves[rng.random_range(0..moves.len())]);
        SearchResult {
            best,
            value: Value::Score(0.0),
            depth: 0,
            nodes: 1,
            time: std::time::Duration::ZERO,
            pv: best.into_iter().collect(),
            tt_hits: 0,
            memory_full: false,
        }
    }
}
