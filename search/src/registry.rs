//! The agents by name: what they are, which parameters they take, and how to build one
//! from parameters already checked against those declarations (the CLI parses spec
//! strings such as `ab:depth=6,hash=32` and calls [`build_deterministic`] or
//! [`build_chance`]).
//!
//! Parameters mean the same thing in every agent that takes them: `depth` (plies),
//! `nodes` (nodes visited), `time` (wall time, a duration), `hash` (table size in MiB),
//! `threads` (search threads).

use agon_engine::{
    Deterministic, Evaluator, ParamKind, ParamSpec, ParamValue, Params, State, ZeroSumTwoPlayer,
};

use crate::agent::Agent;
use crate::alphabeta::{AlphaBeta, AlphaBetaConfig, DEFAULT_DEPTH, MAX_DEPTH};
use crate::budget::Budget;
use crate::expectimax::{self, ChanceMode, Expectimax, ExpectimaxConfig};
use crate::greedy::Greedy;
use crate::random::RandomAgent;
use crate::solve::{SolveConfig, Solver};
use crate::tt::{DEFAULT_HASH_MB, MAX_HASH_MB};

/// What `agon agents` lists about one agent.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AgentInfo {
    /// Name as typed in a spec string.
    pub name: &'static str,
    /// One line describing the agent.
    pub about: &'static str,
    /// The parameters it accepts, with their defaults.
    pub params: &'static [ParamSpec],
    /// Whether it only works on games without chance (alpha-beta and the solver).
    pub needs_deterministic: bool,
    /// The depth it searches when given no budget at all, if it has one
    /// ([`complete_params`] writes it into the spec).
    pub default_depth: Option<u32>,
}

/// Why an agent could not be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AgentError {
    /// No agent has this name.
    #[error("unknown agent {name:?} (valid: {valid})")]
    Unknown {
        /// The name asked for.
        name: String,
        /// The valid names, comma-separated.
        valid: String,
    },
    /// The agent searches with alpha-beta, which cannot handle chance nodes.
    #[error(
        "agent {name:?} needs a deterministic game: alpha-beta cannot search chance \
         nodes (for games with chance use {suggest})"
    )]
    NeedsDeterministic {
        /// The agent asked for.
        name: String,
        /// The agents that handle chance, comma-separated.
        suggest: String,
    },
}

const DEPTH: ParamSpec = ParamSpec {
    name: "depth",
    kind: ParamKind::Int {
        min: 1,
        max: MAX_DEPTH as i64,
    },
    default: None,
    help: "search this many plies deep (iterative deepening up to it)",
};

const NODES: ParamSpec = ParamSpec {
    name: "nodes",
    kind: ParamKind::Int {
        min: 1,
        max: i64::MAX,
    },
    default: None,
    help: "stop after visiting this many nodes (reproducible)",
};

const TIME: ParamSpec = ParamSpec {
    name: "time",
    kind: ParamKind::Duration,
    default: None,
    help: "stop after this much thinking time per move (not reproducible)",
};

const HASH: ParamSpec = ParamSpec {
    name: "hash",
    kind: ParamKind::Int {
        min: 1,
        max: MAX_HASH_MB as i64,
    },
    // Must read as DEFAULT_HASH_MB (a test checks it).
    default: Some("16"),
    help: "transposition table size in MiB",
};

const THREADS: ParamSpec = ParamSpec {
    name: "threads",
    kind: ParamKind::Int { min: 1, max: 256 },
    default: Some("1"),
    help: "search threads (1 is reproducible)",
};

/// Every agent this crate builds (the CLI adds `human`).
pub const AGENTS: &[AgentInfo] = &[
    AgentInfo {
        name: "random",
        about: "a uniformly random legal move",
        params: &[],
        needs_deterministic: false,
        default_depth: None,
    },
    AgentInfo {
        name: "greedy",
        about: "the best evaluation one decision ahead (averaged over chance), random tie-break",
        params: &[],
        needs_deterministic: false,
        default_depth: None,
    },
    AgentInfo {
        name: "ab",
        about: "alpha-beta: iterative deepening, PVS, aspiration, killers, history, quiescence, Lazy SMP",
        params: &[DEPTH, HASH, NODES, THREADS, TIME],
        needs_deterministic: true,
        default_depth: Some(DEFAULT_DEPTH),
    },
    AgentInfo {
        name: "solve",
        about: "exact solver: fastest win, slowest loss; unproven if stopped by nodes or time",
        params: &[HASH, NODES, THREADS, TIME],
        needs_deterministic: true,
        default_depth: None,
    },
    AgentInfo {
        name: "expectimax",
        about: "expectimax: exact expected values over chance, minimax over decisions",
        params: &[DEPTH, HASH, NODES, TIME],
        needs_deterministic: false,
        default_depth: Some(expectimax::DEFAULT_DEPTH),
    },
    AgentInfo {
        name: "star1",
        about: "expectimax with Ballard's Star1 pruning (same value, fewer nodes)",
        params: &[DEPTH, HASH, NODES, TIME],
        needs_deterministic: false,
        default_depth: Some(expectimax::DEFAULT_DEPTH),
    },
    AgentInfo {
        name: "star2",
        about: "expectimax with Ballard's Star2 pruning: Star1 plus probing",
        params: &[DEPTH, HASH, NODES, TIME],
        needs_deterministic: false,
        default_depth: Some(expectimax::DEFAULT_DEPTH),
    },
];

/// The agent called `name`, if any.
pub fn find(name: &str) -> Option<&'static AgentInfo> {
    AGENTS.iter().find(|a| a.name == name)
}

/// Fills in what an agent does by default so that its canonical spec shows it: an
/// agent with a default depth and no `depth`, `nodes` or `time` gets `depth=<default>`.
/// Unknown names are left alone (building them fails with the error).
pub fn complete_params(name: &str, params: &mut Params) {
    let Some(depth) = find(name).and_then(|a| a.default_depth) else {
        return;
    };
    if !["depth", "nodes", "time"]
        .iter()
        .any(|k| params.0.contains_key(k))
    {
        params.0.insert("depth", ParamValue::Int(i64::from(depth)));
    }
}

/// Builds agent `name` for a deterministic game from checked `params`, scoring with
/// `eval`; the agent calls itself `label` (the canonical spec).
pub fn build_deterministic<S, E>(
    name: &str,
    params: &Params,
    eval: E,
    label: String,
) -> Result<Box<dyn Agent<S>>, AgentError>
where
    S: Deterministic + ZeroSumTwoPlayer,
    E: Evaluator<S>,
{
    let hash_mb = params.int("hash").map_or(DEFAULT_HASH_MB, |mb| mb as usize);
    let threads = params.int("threads").map_or(1, |t| t as usize);
    match name {
        "ab" => {
            let config = AlphaBetaConfig {
                budget: budget(params, Some(DEFAULT_DEPTH)),
                hash_mb,
                threads,
                ..AlphaBetaConfig::default()
            };
            Ok(Box::new(AlphaBeta::new(eval, config, label)))
        }
        "solve" => {
            let config = SolveConfig {
                budget: budget(params, None),
                hash_mb,
                threads,
            };
            Ok(Box::new(Solver::new(eval, config, label)))
        }
        _ => build_any(name, params, eval, label),
    }
}

/// Builds agent `name` for any game, with or without chance. Alpha-beta agents are
/// refused with [`AgentError::NeedsDeterministic`].
pub fn build_chance<S, E>(
    name: &str,
    params: &Params,
    eval: E,
    label: String,
) -> Result<Box<dyn Agent<S>>, AgentError>
where
    S: State + ZeroSumTwoPlayer,
    E: Evaluator<S>,
{
    match find(name) {
        Some(info) if info.needs_deterministic => Err(AgentError::NeedsDeterministic {
            name: name.to_string(),
            suggest: names(|a| !a.needs_deterministic),
        }),
        _ => build_any(name, params, eval, label),
    }
}

/// The agents that work on every game.
fn build_any<S: State + ZeroSumTwoPlayer, E: Evaluator<S>>(
    name: &str,
    params: &Params,
    eval: E,
    label: String,
) -> Result<Box<dyn Agent<S>>, AgentError> {
    let chance = |mode| {
        let config = ExpectimaxConfig {
            budget: budget(params, Some(expectimax::DEFAULT_DEPTH)),
            hash_mb: params.int("hash").map_or(DEFAULT_HASH_MB, |mb| mb as usize),
            mode,
        };
        Box::new(Expectimax::new(eval.clone(), config, label.clone()))
    };
    match name {
        "random" => Ok(Box::new(RandomAgent::with_label(label))),
        "greedy" => Ok(Box::new(Greedy::new(eval, label))),
        "expectimax" => Ok(chance(ChanceMode::Expectimax)),
        "star1" => Ok(chance(ChanceMode::Star1)),
        "star2" => Ok(chance(ChanceMode::Star2)),
        _ => Err(AgentError::Unknown {
            name: name.to_string(),
            valid: names(|_| true),
        }),
    }
}

/// Names of the agents that pass `keep`, comma-separated.
fn names(keep: impl Fn(&AgentInfo) -> bool) -> String {
    AGENTS
        .iter()
        .filter(|a| keep(a))
        .map(|a| a.name)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The budget in `params`; with none given, `default_depth`.
fn budget(params: &Params, default_depth: Option<u32>) -> Budget {
    let budget = Budget {
        depth: params.int("depth").map(|d| d as u32),
        nodes: params.int("nodes").map(|n| n as u64),
        time: params.duration("time"),
    };
    if budget == Budget::default() {
        Budget {
            depth: default_depth,
            ..budget
        }
    } else {
        budget
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_default_matches_the_table_default() {
        let p = Params::defaults(&[HASH]);
        assert_eq!(p.int("hash"), Some(DEFAULT_HASH_MB as i64));
    }

    #[test]
    fn ab_gets_its_default_depth_only_without_a_budget() {
        let ab = find("ab").unwrap().params;
        let mut p = Params::parse(ab, &[]).unwrap();
        complete_params("ab", &mut p);
        assert_eq!(
            p.canonical(),
            format!("depth={DEFAULT_DEPTH},hash=16,threads=1")
        );
        let mut p = Params::parse(ab, &[("time", "50ms")]).unwrap();
        complete_params("ab", &mut p);
        assert_eq!(p.canonical(), "hash=16,threads=1,time=50ms");
        let mut p = Params::parse(find("solve").unwrap().params, &[]).unwrap();
        complete_params("solve", &mut p);
        assert_eq!(p.canonical(), "hash=16,threads=1");
        assert_eq!(
            budget(&p, None),
            Budget::default(),
            "solve runs to the proof"
        );
    }

    #[test]
    fn every_agent_is_listed_once_with_valid_defaults() {
        let mut seen: Vec<_> = AGENTS.iter().map(|a| a.name).collect();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), AGENTS.len());
        for a in AGENTS {
            Params::defaults(a.params); // panics on a default that does not parse
        }
    }
}
