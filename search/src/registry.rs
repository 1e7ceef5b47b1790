//! The agents by name: what they are, which parameters they take, and how to build one
//! from parameters already checked against those declarations (the CLI parses spec
//! strings such as `ab:depth=6,hash=32` and calls [`build_deterministic`] or
//! [`build_chance`]).
//!
//! Parameters mean the same thing in every agent that takes them: `depth` (plies),
//! `nodes` (nodes visited), `iters` (MCTS iterations), `time` (wall time, a duration),
//! `threads` (search threads), `hash` (table size in MiB), `c` (exploration constant),
//! `noise` (seeded evaluation noise, [`crate::noise`]).

use std::sync::atomic::AtomicU64;
use std::sync::Arc;

use agon_engine::{Deterministic, Evaluator, ParamKind, ParamSpec, ParamValue, Params, State};

use crate::agent::Agent;
use crate::alphabeta::{AlphaBeta, AlphaBetaConfig, DEFAULT_DEPTH, MAX_DEPTH};
use crate::budget::Budget;
use crate::expectimax::{self, ChanceMode, Expectimax, ExpectimaxConfig, Horizon};
use crate::greedy::Greedy;
use crate::mcts::{self, Mcts, MctsConfig, Parallel, Rollout};
use crate::noise::{Noisy, Salted};
use crate::random::RandomAgent;
use crate::solve::{SolveConfig, Solver, DEFAULT_SOLVE_HASH_MB};
use crate::tt::{DEFAULT_HASH_MB, MAX_HASH_MB};

/// The boxed agent `$make` builds from `$eval` (bound to `$e`): as it is without
/// `noise` (or with `noise=0`), or, with `noise=N`, from a [`Noisy`] evaluator whose salt
/// the wrapping [`Salted`] agent draws at its first move. The one place where noise
/// wraps an agent.
macro_rules! maybe_noisy {
    ($params:expr, $eval:expr, |$e:ident| $make:expr) => {
        match noise($params) {
            Some((amplitude, salt)) => {
                let $e = Noisy::new($eval, amplitude, Arc::clone(&salt));
                Box::new(Salted::new(Box::new($make), salt)) as Box<dyn Agent<_>>
            }
            None => {
                let $e = $eval;
                Box::new($make) as Box<dyn Agent<_>>
            }
        }
    };
}

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
    /// The iterations it runs when given no budget at all, if it counts iterations
    /// ([`complete_params`] writes them into the spec).
    pub default_iters: Option<u64>,
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
    /// The agent searches with alpha-beta, which cannot handle chance nodes. The message
    /// suggests the strongest agents that can ([`CHANCE_SUGGESTIONS`]).
    #[error(
        "agent {name:?} needs a deterministic game: alpha-beta cannot search chance \
         nodes (for games with chance use {suggest})"
    )]
    NeedsDeterministic {
        /// The agent asked for.
        name: String,
        /// The agents to suggest instead, in words.
        suggest: String,
    },
    /// Two parameters that each parse but make no sense together.
    #[error("agent {name:?}: {reason}")]
    Conflict {
        /// The agent asked for.
        name: String,
        /// What does not fit, and what to do instead.
        reason: String,
    },
}

/// The agents suggested for a game with chance when an alpha-beta agent is refused:
/// the strongest searches that handle chance (the baselines and the slower exact
/// searches are left out so that the advice is short).
pub const CHANCE_SUGGESTIONS: &str = "star2 or mcts";

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

const ITERS: ParamSpec = ParamSpec {
    name: "iters",
    kind: ParamKind::Int {
        min: 1,
        max: i64::MAX,
    },
    default: None,
    help: "stop after this many iterations (reproducible with threads=1)",
};

/// The `threads` parameter, shared by every agent that searches on several threads.
pub const THREADS: ParamSpec = ParamSpec {
    name: "threads",
    kind: ParamKind::Int { min: 1, max: 256 },
    default: Some("1"),
    help: "search threads (1 is reproducible)",
};

const C: ParamSpec = ParamSpec {
    name: "c",
    kind: ParamKind::Float {
        min: 0.0,
        max: 100.0,
    },
    // Must read as mcts::DEFAULT_C (a test checks it).
    default: Some("1.4"),
    help: "UCT exploration constant (rewards are in [-1, 1])",
};

const ROLLOUT: ParamSpec = ParamSpec {
    name: "rollout",
    kind: ParamKind::Choice(&["random", "greedy", "eval"]),
    default: Some("random"),
    help: "leaf value: a uniformly random playout, a greedy one (best evaluation each \
           move), or the evaluator scaled into [-1, 1]",
};

const PLIES: ParamSpec = ParamSpec {
    name: "plies",
    kind: ParamKind::Int {
        min: 1,
        max: 1_000_000,
    },
    default: None,
    help: "cut playouts after this many plies and score them with the evaluator \
           (mcts: rollout=random or greedy; chance searches: with playouts)",
};

const PLAYOUTS: ParamSpec = ParamSpec {
    name: "playouts",
    kind: ParamKind::Int {
        min: 1,
        max: 1_000_000,
    },
    default: None,
    help: "value each horizon node by the mean of this many greedy playouts (seeded by \
           the position) instead of the evaluator",
};

const SOLVER: ParamSpec = ParamSpec {
    name: "solver",
    kind: ParamKind::Bool,
    default: Some("true"),
    help: "MCTS-Solver: propagate proven wins, losses and draws",
};

const WDL: ParamSpec = ParamSpec {
    name: "wdl",
    kind: ParamKind::Bool,
    default: Some("false"),
    help: "prove only win, draw or loss (faster; distances are upper bounds)",
};

const REUSE: ParamSpec = ParamSpec {
    name: "reuse",
    kind: ParamKind::Bool,
    default: Some("true"),
    help: "keep the subtree of the new position between moves of a game",
};

const PARALLEL: ParamSpec = ParamSpec {
    name: "parallel",
    kind: ParamKind::Choice(&["tree", "root"]),
    default: Some("tree"),
    help: "with threads > 1: one shared tree with virtual loss, or one tree per thread",
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

const NOISE: ParamSpec = ParamSpec {
    name: "noise",
    kind: ParamKind::Int {
        min: 0,
        max: 1_000_000,
    },
    default: None,
    help: "add to each position's evaluation a seeded offset of at most this many \
           evaluator units, drawn anew for every game from the agent's stream, so that \
           games from one start differ (reproducibly); 0 or absent: none",
};

/// The solver's `hash`: the same parameter with a default suited to proofs.
const SOLVE_HASH: ParamSpec = ParamSpec {
    // Must read as DEFAULT_SOLVE_HASH_MB (a test checks it).
    default: Some("512"),
    ..HASH
};

/// Every agent this crate builds (the CLI adds `human`).
pub const AGENTS: &[AgentInfo] = &[
    AgentInfo {
        name: "random",
        about: "a uniformly random legal move",
        params: &[],
        needs_deterministic: false,
        default_depth: None,
        default_iters: None,
    },
    AgentInfo {
        name: "greedy",
        about: "the best evaluation one decision ahead (averaged over chance), random tie-break",
        params: &[NOISE],
        needs_deterministic: false,
        default_depth: None,
        default_iters: None,
    },
    AgentInfo {
        name: "ab",
        about: "alpha-beta: iterative deepening, PVS, aspiration, killers, history, quiescence, anticipation, Lazy SMP",
        params: &[DEPTH, HASH, NODES, NOISE, THREADS, TIME],
        needs_deterministic: true,
        default_depth: Some(DEFAULT_DEPTH),
        default_iters: None,
    },
    AgentInfo {
        name: "solve",
        about: "exact solver: fastest win, slowest loss; unproven if stopped by nodes or time",
        params: &[SOLVE_HASH, NODES, THREADS, TIME, WDL],
        needs_deterministic: true,
        default_depth: None,
        default_iters: None,
    },
    AgentInfo {
        name: "expectimax",
        about: "expectimax: exact expected values over chance, minimax over decisions",
        params: &[DEPTH, HASH, NODES, PLAYOUTS, PLIES, TIME],
        needs_deterministic: false,
        default_depth: Some(expectimax::DEFAULT_DEPTH),
        default_iters: None,
    },
    AgentInfo {
        name: "star1",
        about: "expectimax with Ballard's Star1 pruning (same value, fewer nodes)",
        params: &[DEPTH, HASH, NODES, PLAYOUTS, PLIES, TIME],
        needs_deterministic: false,
        default_depth: Some(expectimax::DEFAULT_DEPTH),
        default_iters: None,
    },
    AgentInfo {
        name: "star2",
        about: "expectimax with Ballard's Star2 pruning: Star1 plus probing",
        params: &[DEPTH, HASH, NODES, PLAYOUTS, PLIES, TIME],
        needs_deterministic: false,
        default_depth: Some(expectimax::DEFAULT_DEPTH),
        default_iters: None,
    },
    AgentInfo {
        name: "mcts",
        about: "Monte-Carlo tree search: UCT, random playouts, MCTS-Solver, tree reuse",
        params: &[ITERS, TIME, THREADS, C, ROLLOUT, PLIES, SOLVER, REUSE, PARALLEL],
        needs_deterministic: false,
        default_depth: None,
        default_iters: Some(mcts::DEFAULT_ITERATIONS),
    },
];

/// The agent called `name`, if any.
pub fn find(name: &str) -> Option<&'static AgentInfo> {
    AGENTS.iter().find(|a| a.name == name)
}

/// Fills in what an agent does by default so that its canonical spec shows it: an
/// agent with a default depth and no `depth`, `nodes` or `time` gets `depth=<default>`;
/// one with default iterations and no `iters` or `time` gets `iters=<default>`.
/// Unknown names are left alone (building them fails with the error).
pub fn complete_params(name: &str, params: &mut Params) {
    let Some(info) = find(name) else {
        return;
    };
    let has = |params: &Params, keys: &[&str]| keys.iter().any(|k| params.contains(k));
    if let Some(depth) = info.default_depth {
        if !has(params, &["depth", "nodes", "time"]) {
            params.insert("depth", ParamValue::Int(i64::from(depth)));
        }
    }
    if let Some(iters) = info.default_iters {
        if !has(params, &["iters", "time"]) {
            params.insert("iters", ParamValue::Int(iters as i64));
        }
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
    S: Deterministic,
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
            Ok(maybe_noisy!(params, eval, |eval| AlphaBeta::new(
                eval, config, label
            )))
        }
        "solve" => {
            let config = SolveConfig {
                budget: budget(params, None),
                hash_mb: params
                    .int("hash")
                    .map_or(DEFAULT_SOLVE_HASH_MB, |mb| mb as usize),
                threads,
                wdl: params.bool("wdl").unwrap_or(false),
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
    S: State,
    E: Evaluator<S>,
{
    match find(name) {
        Some(info) if info.needs_deterministic => Err(AgentError::NeedsDeterministic {
            name: name.to_string(),
            suggest: CHANCE_SUGGESTIONS.to_string(),
        }),
        _ => build_any(name, params, eval, label),
    }
}

/// The agents that work on every game.
fn build_any<S: State, E: Evaluator<S>>(
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
            horizon: match params.int("playouts") {
                Some(count) => Horizon::Playouts {
                    count: count as u32,
                    plies: params.int("plies").map(|n| n as u32),
                },
                None => Horizon::Evaluate,
            },
        };
        Box::new(Expectimax::new(eval.clone(), config, label.clone()))
    };
    let chance_search = matches!(name, "expectimax" | "star1" | "star2");
    if chance_search && params.int("plies").is_some() && params.int("playouts").is_none() {
        return Err(AgentError::Conflict {
            name: name.to_string(),
            reason: "plies cuts playouts short, and there are none without playouts=N \
                     (add playouts, or leave plies out to use the evaluator)"
                .to_string(),
        });
    }
    match name {
        "random" => Ok(Box::new(RandomAgent::with_label(label))),
        "greedy" => Ok(maybe_noisy!(params, eval, |eval| Greedy::new(eval, label))),
        "expectimax" => Ok(chance(ChanceMode::Expectimax)),
        "star1" => Ok(chance(ChanceMode::Star1)),
        "star2" => Ok(chance(ChanceMode::Star2)),
        "mcts" if params.choice("rollout") == Some("eval") && params.int("plies").is_some() => {
            Err(AgentError::Conflict {
                name: name.to_string(),
                reason: "plies cuts playouts short, and rollout=eval plays none (use \
                         rollout=random or rollout=greedy)"
                    .to_string(),
            })
        }
        "mcts" => Ok(Box::new(Mcts::new(eval, mcts_config(params), label))),
        _ => Err(AgentError::Unknown {
            name: name.to_string(),
            valid: names(|_| true),
        }),
    }
}

/// The MCTS configuration in `params` (absent parameters take the registry defaults).
fn mcts_config(params: &Params) -> MctsConfig {
    let defaults = MctsConfig::default();
    MctsConfig {
        iterations: params.int("iters").map(|n| n as u64),
        time: params.duration("time"),
        threads: params
            .int("threads")
            .map_or(defaults.threads, |t| t as usize),
        c: params.float("c").unwrap_or(defaults.c),
        rollout: {
            let plies = params.int("plies").map(|n| n as u32);
            match params.choice("rollout") {
                Some("eval") => Rollout::Eval,
                Some("greedy") => Rollout::Greedy { plies },
                _ => Rollout::Random { plies },
            }
        },
        solver: params.bool("solver").unwrap_or(defaults.solver),
        reuse: params.bool("reuse").unwrap_or(defaults.reuse),
        parallel: match params.choice("parallel") {
            Some("root") => Parallel::Root,
            Some(_) => Parallel::Tree,
            None => defaults.parallel,
        },
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

/// The amplitude of `noise=N` in `params` (none for 0 or absent, so that the agent is
/// exactly the plain one) and a fresh salt cell for the [`Noisy`] evaluator and its
/// [`Salted`] agent to share.
fn noise(params: &Params) -> Option<(u32, Arc<AtomicU64>)> {
    params
        .int("noise")
        .filter(|&n| n > 0)
        .map(|n| (n as u32, Arc::default()))
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
        let p = Params::defaults(&[SOLVE_HASH]);
        assert_eq!(p.int("hash"), Some(DEFAULT_SOLVE_HASH_MB as i64));
    }

    #[test]
    fn solve_defaults_to_a_proof_sized_table_and_the_others_to_a_move_sized_one() {
        for agent in AGENTS {
            let hash = Params::defaults(agent.params).int("hash");
            let expected = match agent.name {
                "solve" => Some(512),
                "ab" | "expectimax" | "star1" | "star2" => Some(16),
                _ => None,
            };
            assert_eq!(hash, expected, "{}", agent.name);
        }
        assert_eq!(SolveConfig::default().hash_mb, 512);
    }

    #[test]
    fn c_default_matches_the_mcts_default() {
        let p = Params::defaults(&[C]);
        assert_eq!(p.float("c"), Some(mcts::DEFAULT_C));
    }

    #[test]
    fn mcts_gets_its_default_iterations_only_without_a_budget() {
        let spec = find("mcts").unwrap().params;
        let mut p = Params::parse(spec, &[]).unwrap();
        complete_params("mcts", &mut p);
        assert_eq!(
            p.canonical(),
            format!(
                "c=1.4,iters={},parallel=tree,reuse=true,rollout=random,solver=true,threads=1",
                mcts::DEFAULT_ITERATIONS
            )
        );
        let mut p = Params::parse(spec, &[("time", "50ms"), ("parallel", "root")]).unwrap();
        complete_params("mcts", &mut p);
        assert!(!p.contains("iters"));
        let config = mcts_config(&p);
        assert_eq!(config.iterations, None);
        assert_eq!(config.time, Some(std::time::Duration::from_millis(50)));
        assert_eq!(config.parallel, Parallel::Root);
        assert_eq!(
            config,
            MctsConfig {
                iterations: None,
                time: config.time,
                parallel: Parallel::Root,
                ..MctsConfig::default()
            }
        );
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
        assert_eq!(p.canonical(), "hash=512,threads=1,wdl=false");
        assert_eq!(
            budget(&p, None),
            Budget::default(),
            "solve runs to the proof"
        );
    }

    /// The moves and node counts of `ab` built from `pairs` playing itself from the
    /// start of Invector 5×4 with the agent stream of `seed`, for 12 decisions.
    fn ab_line(pairs: &[(&str, &str)], seed: u64) -> Vec<(String, u64)> {
        use agon_engine::games::invector::{Invector, InvectorEval, InvectorState};
        use agon_engine::Game;
        use rand::SeedableRng;

        let params = Params::parse(find("ab").unwrap().params, pairs).unwrap();
        let mut agent =
            build_deterministic::<InvectorState, _>("ab", &params, InvectorEval, "ab".into())
                .unwrap();
        let mut rng = crate::AgentRng::seed_from_u64(seed);
        let mut state = Invector::new(5, 4, true).unwrap().initial_state();
        let mut line = Vec::new();
        while line.len() < 12 && state.turn() != agon_engine::Turn::Over {
            let result = agent.search(&state, &mut rng, &mut |_| {});
            let m = result.best.unwrap();
            line.push((state.format_move(m), result.nodes));
            state.apply(m);
        }
        line
    }

    #[test]
    fn noise_off_is_plain_alpha_beta_and_noise_on_is_seeded() {
        let plain = ab_line(&[("depth", "3")], 1);
        // noise=0 is exactly the plain agent (moves and nodes), whatever the stream.
        assert_eq!(ab_line(&[("depth", "3"), ("noise", "0")], 2), plain);
        assert_eq!(ab_line(&[("depth", "3")], 2), plain);
        // With noise, the same stream gives the same game, and other streams others.
        let noisy = |seed| ab_line(&[("depth", "3"), ("noise", "40")], seed);
        assert_eq!(noisy(1), noisy(1));
        let lines: Vec<_> = (1..=4).map(noisy).collect();
        assert!(lines.iter().any(|l| *l != plain));
        for i in 0..lines.len() {
            for j in 0..i {
                assert_ne!(lines[i], lines[j], "streams {i} and {j}");
            }
        }
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
