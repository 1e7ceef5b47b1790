//! The `random` agent: a uniformly random legal move.

use agon_engine::State;
use rand::Rng;

use crate::agent::{Agent, AgentRng, AgentStats, SearchInfo, SearchResult, Value};

/// Plays a uniformly random legal move, drawn from the generator it is given.
#[derive(Clone, Debug)]
pub struct RandomAgent {
    label: String,
    stats: AgentStats,
}

impl RandomAgent {
    /// A new random agent named `random`.
    pub fn new() -> Self {
        RandomAgent::with_label("random")
    }

    /// A new random agent named `label` (what [`Agent::name`] returns).
    pub fn with_label(label: impl Into<String>) -> Self {
        RandomAgent {
            label: label.into(),
            stats: AgentStats::default(),
        }
    }
}

impl Default for RandomAgent {
    fn default() -> Self {
        RandomAgent::new()
    }
}

impl<S: State> Agent<S> for RandomAgent {
    fn name(&self) -> &str {
        &self.label
    }

    fn search(
        &mut self,
        state: &S,
        rng: &mut AgentRng,
        _info: &mut dyn FnMut(&SearchInfo<S::Move>),
    ) -> SearchResult<S::Move> {
        let mut moves = Vec::with_capacity(state.max_moves());
        state.legal_moves(&mut moves);
        let best = (!moves.is_empty()).then(|| moves[rng.random_range(0..moves.len())]);
        let result = SearchResult {
            best,
            value: Value::Score(0.0),
            depth: 0,
            nodes: 1,
            time: std::time::Duration::ZERO,
            pv: best.into_iter().collect(),
            tt_hits: 0,
        };
        self.stats.record(&result);
        result
    }

    fn stats(&self) -> AgentStats {
        self.stats
    }
}
