//! The agents by kind: what they are, which parameters they take, and how to build one
//! from parameters already checked against those declarations (the CLI parses spec
//! strings such as `ab:depth=6,hash=32`, finds the [`AgentKind`] by name and calls
//! [`build`]).
//!
//! [`AgentKind`] is the one table of agents: its name, description, parameters and
//! default budget come from one exhaustive match ([`AgentKind::info`]), and every builder
//! matches the kind exhaustively, so a new agent is a compile error until every place
//! that must know it does.
//!
//! Parameters mean the same thing in every agent that takes them: `depth` (plies),
//! `nodes` (nodes visited), `iters` (MCTS iterations), `time` (wall time, a duration),
//! `threads` (search threads), `hash` (table size in MiB), `c` (exploration constant),
//! `noise` (seeded evaluation noise, [`crate::noise`]), `eval` (the evaluator's
//! weights from a file: every kind that scores positions with the evaluator takes it),
//! `net` (a learned evaluator from a network file, taken by the same kinds).

use std::sync::atomic::AtomicU64;
use std::sync::Arc;

use agon_engine::{
    Evaluator, NoChance, ParamKind, ParamSpec, ParamValue, Params, State, WithChance,
};

use crate::agent::Agent;
use crate::alphabeta::{self, AlphaBeta, AlphaBetaConfig, Pruning, MAX_DEPTH};
use crate::budget::Budget;
use crate::error::AgentError;
use crate::expectimax::{self, ChanceMode, Expectimax, ExpectimaxConfig, Horizon};
use crate::greedy::Greedy;
use crate::mcts::{self, Mcts, MctsConfig, Parallel, Rollout};
use crate::noise::{Noisy, Salted};
use crate::optimal::{self, default_states, Optimal, OptimalConfig};
use crate::random::RandomAgent;
use crate::solve::{default_solve_hash_mb, SolveConfig, Solver};
use crate::tt::{default_hash_mb, MAX_HASH_MB};
#[cfg(test)]
use crate::{solve::DEFAULT_SOLVE_HASH_MB, tt::DEFAULT_HASH_MB};

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

/// Every kind of agent this crate builds (the CLI adds `human`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AgentKind {
    /// `random`: [`RandomAgent`].
    Random,
    /// `greedy`: [`Greedy`].
    Greedy,
    /// `ab`: [`AlphaBeta`].
    AlphaBeta,
    /// `solve`: [`Solver`].
    Solve,
    /// `expectimax`: [`Expectimax`] without pruning.
    Expectimax,
    /// `star1`: [`Expectimax`] with Star1 pruning.
    Star1,
    /// `star2`: [`Expectimax`] with Star2 pruning.
    Star2,
    /// `mcts`: [`Mcts`].
    Mcts,
    /// `optimal`: [`Optimal`].
    Optimal,
}

/// What `agon agents` lists about one kind of agent.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AgentInfo {
    /// Name as typed in a spec string.
    pub name: &'static str,
    /// One line describing the agent.
    pub about: &'static str,
    /// The parameters it accepts, with their defaults.
    pub params: &'static [ParamSpec],
    /// What it searches with when given no budget at all ([`complete_params`] writes it
    /// into the spec, and the builders fall back on it).
    pub default_budget: DefaultBudget,
}

/// The budget an agent searches with when its parameters name none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DefaultBudget {
    /// None: it plays at once (`random`, `greedy`) or runs to the end (`solve`).
    Unlimited,
    /// This many plies of iterative deepening (`depth=N`).
    Depth(u32),
    /// This many iterations (`iters=N`).
    Iterations(u64),
}

impl AgentKind {
    /// Every kind, in listing order.
    pub const ALL: [AgentKind; 9] = [
        AgentKind::Random,
        AgentKind::Greedy,
        AgentKind::AlphaBeta,
        AgentKind::Solve,
        AgentKind::Expectimax,
        AgentKind::Star1,
        AgentKind::Star2,
        AgentKind::Mcts,
        AgentKind::Optimal,
    ];

    /// The kind's entry in the table: the one place its name, description, parameters
    /// and default budget are written.
    pub const fn info(self) -> AgentInfo {
        match self {
            AgentKind::Random => AgentInfo {
                name: "random",
                about: "a uniformly random legal move",
                params: &[],
                default_budget: DefaultBudget::Unlimited,
            },
            AgentKind::Greedy => AgentInfo {
                name: "greedy",
                about: "the best evaluation one decision ahead (averaged over chance), random tie-break",
                params: &[EVAL, NET, NOISE],
                default_budget: DefaultBudget::Unlimited,
            },
            AgentKind::AlphaBeta => AgentInfo {
                name: "ab",
                about: "alpha-beta: iterative deepening, PVS, aspiration, killers, history, quiescence, anticipation, Lazy SMP",
                params: &[
                    CHECK, DEPTH, EVAL, FOLLOW_UPS, FUTILITY, HASH, LMP, LMR, NET, NODES, NOISE,
                    NULL_MOVE, PARTIAL, QWINS, RAZORING, THREADS, TIME,
                ],
                default_budget: DefaultBudget::Depth(alphabeta::DEFAULT_DEPTH),
            },
            AgentKind::Solve => AgentInfo {
                name: "solve",
                about: "exact solver: the proven result (wdl=false: fastest win, slowest loss); unproven if stopped by nodes or time",
                params: &[SOLVE_HASH, NODES, THREADS, TIME, WDL],
                default_budget: DefaultBudget::Unlimited,
            },
            AgentKind::Expectimax => Self::chance_search(
                "expectimax",
                "expectimax: exact expected values over chance, minimax over decisions",
            ),
            AgentKind::Star1 => Self::chance_search(
                "star1",
                "expectimax with Ballard's Star1 pruning (same value, fewer nodes)",
            ),
            AgentKind::Star2 => Self::chance_search(
                "star2",
                "expectimax with Ballard's Star2 pruning: Star1 plus probing",
            ),
            AgentKind::Mcts => AgentInfo {
                name: "mcts",
                about: "Monte-Carlo tree search: UCT, random playouts, MCTS-Solver, tree reuse",
                params: &[
                    ITERS, TIME, THREADS, C, EVAL, NET, ROLLOUT, PLIES, SOLVER, REUSE, PARALLEL,
                    TREE, BIAS, MINIMAX, EARLY,
                ],
                default_budget: DefaultBudget::Iterations(mcts::DEFAULT_ITERATIONS),
            },
            AgentKind::Optimal => AgentInfo {
                name: optimal::NAME,
                about: "exact: the best expected result, by value iteration over every reachable position (small games only)",
                params: &[STATES],
                default_budget: DefaultBudget::Unlimited,
            },
        }
    }

    /// The entry of one of the three expectimax searches, which differ only in pruning.
    const fn chance_search(name: &'static str, about: &'static str) -> AgentInfo {
        AgentInfo {
            name,
            about,
            params: &[
                DEPTH, EVAL, HASH, HISTORY, NET, NODES, PLAYOUTS, PLIES, QUIESCE, TIME,
            ],
            default_budget: DefaultBudget::Depth(expectimax::DEFAULT_DEPTH),
        }
    }

    /// The name typed in a spec (`ab`).
    pub const fn name(self) -> &'static str {
        self.info().name
    }

    /// Whether the kind searches with alpha-beta, which cannot handle chance nodes: it
    /// builds only for games whose [`State::Chance`] is [`NoChance`] ([`build`] refuses
    /// it elsewhere with [`AgentError::NeedsDeterministic`]).
    pub const fn needs_deterministic(self) -> bool {
        match self {
            AgentKind::AlphaBeta | AgentKind::Solve => true,
            AgentKind::Random
            | AgentKind::Greedy
            | AgentKind::Expectimax
            | AgentKind::Star1
            | AgentKind::Star2
            | AgentKind::Mcts
            | AgentKind::Optimal => false,
        }
    }

    /// The kind called `name`, or [`AgentError::Unknown`] listing the valid names.
    pub fn from_name(name: &str) -> Result<AgentKind, AgentError> {
        AgentKind::ALL
            .into_iter()
            .find(|kind| kind.name() == name)
            .ok_or_else(|| AgentError::Unknown {
                name: name.to_string(),
                valid: AgentKind::ALL.map(AgentKind::name).join(", "),
            })
    }
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
    omitted_at_default: false,
    help: "search this many plies deep (iterative deepening up to it)",
};

const NODES: ParamSpec = ParamSpec {
    name: "nodes",
    kind: ParamKind::Int {
        min: 1,
        max: i64::MAX,
    },
    default: None,
    omitted_at_default: false,
    help: "stop after visiting this many nodes (reproducible)",
};

const TIME: ParamSpec = ParamSpec {
    name: "time",
    kind: ParamKind::Duration,
    default: None,
    omitted_at_default: false,
    help: "stop after this much thinking time per move (not reproducible)",
};

const ITERS: ParamSpec = ParamSpec {
    name: "iters",
    kind: ParamKind::Int {
        min: 1,
        max: i64::MAX,
    },
    default: None,
    omitted_at_default: false,
    help: "stop after this many iterations (reproducible with threads=1)",
};

/// The `threads` parameter, shared by every agent that searches on several threads.
pub const THREADS: ParamSpec = ParamSpec {
    name: "threads",
    kind: ParamKind::Int { min: 1, max: 256 },
    default: Some("1"),
    omitted_at_default: false,
    help: "search threads (1 is reproducible)",
};

const C: ParamSpec = ParamSpec {
    name: "c",
    kind: ParamKind::Float {
        min: 0.0,
        max: 100.0,
    },
    default: Some(concat!(mcts::default_c!())),
    omitted_at_default: false,
    help: "UCT exploration constant (rewards are in [-1, 1])",
};

const ROLLOUT: ParamSpec = ParamSpec {
    name: "rollout",
    kind: ParamKind::Choice(&["random", "greedy", "eval"]),
    default: Some("random"),
    omitted_at_default: false,
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
    omitted_at_default: false,
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
    omitted_at_default: false,
    help: "value each horizon node by the mean of this many greedy playouts (seeded by \
           the position) instead of the evaluator",
};

const SOLVER: ParamSpec = ParamSpec {
    name: "solver",
    kind: ParamKind::Bool,
    default: Some("true"),
    omitted_at_default: false,
    help: "MCTS-Solver: propagate proven wins, losses and draws",
};

const WDL: ParamSpec = ParamSpec {
    name: "wdl",
    kind: ParamKind::Bool,
    default: Some("true"),
    omitted_at_default: false,
    help: "prove only win, draw or loss (much faster; distances are upper bounds); false for exact distances",
};

const LMR: ParamSpec = ParamSpec {
    name: "lmr",
    kind: ParamKind::Bool,
    // No declared default, so that a spec without it keeps the canonical form it always
    // had (records name their agents by canonical spec).
    default: None,
    omitted_at_default: false,
    help: "late-move reductions: search quiet moves late in the order less deep unless they prove better (off unless given)",
};

const FUTILITY: ParamSpec = ParamSpec {
    name: "futility",
    kind: ParamKind::Bool,
    // No declared default, as `lmr`.
    default: None,
    omitted_at_default: false,
    help: "futility pruning: one or two plies above the horizon, skip quiet moves that cannot reach alpha by the evaluator's score plus a margin (off unless given)",
};

const LMP: ParamSpec = ParamSpec {
    name: "lmp",
    kind: ParamKind::Bool,
    // No declared default, as `lmr`.
    default: None,
    omitted_at_default: false,
    help: "late-move pruning: one or two plies above the horizon, skip the quiet moves after the first few (off unless given)",
};

const RAZORING: ParamSpec = ParamSpec {
    name: "razoring",
    kind: ParamKind::Bool,
    // No declared default, as `lmr`.
    default: None,
    omitted_at_default: false,
    help: "razoring: one or two plies above the horizon, a node whose evaluator's score plus a wide margin cannot reach alpha is settled by its quiescence search when that fails low too (off unless given)",
};

const NULL_MOVE: ParamSpec = ParamSpec {
    name: "null",
    kind: ParamKind::Bool,
    // No declared default, as `lmr`.
    default: None,
    omitted_at_default: false,
    help: "null-move pruning: where the game offers a pass, a node whose score is at least beta passes, and fails high if the opponent's reduced search cannot bring it below beta (off unless given)",
};

const FOLLOW_UPS: ParamSpec = ParamSpec {
    name: "followups",
    kind: ParamKind::Int { min: 1, max: 255 },
    default: None,
    omitted_at_default: false,
    help: "follow-up pruning: at null-window nodes whose side to move also made the move \
           before (a turn of several decisions: APV's order after its move), search only \
           the first this many moves and take the rest to fail low, never one that ends \
           the game (absent: off)",
};

const CHECK: ParamSpec = ParamSpec {
    name: "check",
    kind: ParamKind::Bool,
    // No declared default, as `lmr`.
    default: None,
    omitted_at_default: false,
    help: "check extension: search a node whose side to move stands in check (Romgon: its Rhombus attacked) one ply deeper (off unless given; games without checks are searched as without it)",
};

const QWINS: ParamSpec = ParamSpec {
    name: "qwins",
    kind: ParamKind::Bool,
    // No declared default, as `lmr`.
    default: None,
    omitted_at_default: false,
    help: "quiet wins below the horizon: at the horizon, besides the noisy moves, play the quiet moves that win at once (Romgon: a fortress or a deadlock), so that a win one move beyond the depth is not missed (off unless given)",
};

const QUIESCE: ParamSpec = ParamSpec {
    name: "quiesce",
    kind: ParamKind::Bool,
    // No declared default, as `lmr`: a recorded spec keeps its horizon.
    default: None,
    omitted_at_default: false,
    help: "value each horizon node by a quiescence search: the side to move stands on the evaluator's score or plays a noisy move (Hexstrat: an attack that deals more than it takes, or destroys), and so on below it (off unless given)",
};

const HISTORY: ParamSpec = ParamSpec {
    name: "history",
    kind: ParamKind::Bool,
    // No declared default, as `lmr`: a recorded spec keeps its move order.
    default: None,
    omitted_at_default: false,
    help: "order decision nodes' moves by killers and the history table too, as ab does (off unless given: the table's move and the evaluator's hints alone)",
};

const PARTIAL: ParamSpec = ParamSpec {
    name: "partial",
    kind: ParamKind::Bool,
    // No declared default, as `lmr`: a recorded node-budget agent keeps its search.
    default: None,
    omitted_at_default: false,
    help: "when a node or time budget cuts an iteration short, play the better move it found (off unless given: the last completed iteration's move)",
};

const REUSE: ParamSpec = ParamSpec {
    name: "reuse",
    kind: ParamKind::Bool,
    default: Some("true"),
    omitted_at_default: false,
    help: "keep the subtree of the new position between moves of a game",
};

const PARALLEL: ParamSpec = ParamSpec {
    name: "parallel",
    kind: ParamKind::Choice(&["tree", "root"]),
    default: Some("tree"),
    omitted_at_default: false,
    help: "with threads > 1: one shared tree with virtual loss (stronger; not reproducible), \
           or one tree per thread (reproducible for a seed and thread count)",
};

/// `tree`: no declared default, so that canonical specs (and the records that print
/// them) stay as they were; absent means [`mcts::DEFAULT_TREE_MIB`].
const TREE: ParamSpec = ParamSpec {
    name: "tree",
    kind: ParamKind::Int {
        min: 1,
        max: 1 << 20,
    },
    default: None,
    omitted_at_default: false,
    help: "MiB the search tree may use (absent: 512, about 8 million nodes); once full, \
           leaves are valued without growing the tree",
};

/// `bias`: progressive bias, off when absent.
const BIAS: ParamSpec = ParamSpec {
    name: "bias",
    kind: ParamKind::Float {
        min: 0.0,
        max: 1_000_000.0,
    },
    default: None,
    omitted_at_default: false,
    help: "progressive bias: add W·H/(n+1) to a child's UCT score, H the evaluator's \
           value of its position in [-1, 1] for the seat choosing (absent: off; not with \
           threads > 1 and parallel=tree)",
};

/// `early`: stop once the move to play is settled, off when absent.
const EARLY: ParamSpec = ParamSpec {
    name: "early",
    kind: ParamKind::Bool,
    default: None,
    omitted_at_default: false,
    help: "stop a search once no root move can pass the most visited one in the \
           iterations left (off unless given)",
};

/// `minimax`: implicit minimax backups, off when absent.
const MINIMAX: ParamSpec = ParamSpec {
    name: "minimax",
    kind: ParamKind::Float { min: 0.0, max: 1.0 },
    default: None,
    omitted_at_default: false,
    help: "implicit minimax backups: select by (1-a)·mean + a·v, v the minimax of the \
           evaluator's values over the tree below (absent: off; not with threads > 1 and \
           parallel=tree)",
};

const HASH: ParamSpec = ParamSpec {
    name: "hash",
    kind: ParamKind::Int {
        min: 1,
        max: MAX_HASH_MB as i64,
    },
    default: Some(concat!(default_hash_mb!())),
    omitted_at_default: false,
    help: "transposition table size in MiB",
};

const NOISE: ParamSpec = ParamSpec {
    name: "noise",
    kind: ParamKind::Int {
        min: 0,
        max: 1_000_000,
    },
    default: None,
    omitted_at_default: false,
    help: "add to each position's evaluation a seeded offset of at most this many \
           evaluator units, drawn anew for every game from the agent's stream, so that \
           games from one start differ (reproducibly); 0 or absent: none",
};

/// `eval`: the weights of the game's evaluator, from a file. The builders here take the
/// evaluator ready-made; whoever builds it (the command line) reads the file.
pub const EVAL: ParamSpec = ParamSpec {
    name: "eval",
    kind: ParamKind::File,
    default: None,
    omitted_at_default: false,
    help: "the evaluator's weights from this TOML file (`name = value` lines; names \
           left out keep their defaults; agon agents --game G lists them)",
};

/// `net`: a learned evaluator from a network file, in place of the game's linear one.
/// Like `eval`, the file is read by whoever builds the evaluator (the command line).
pub const NET: ParamSpec = ParamSpec {
    name: "net",
    kind: ParamKind::File,
    default: None,
    omitted_at_default: false,
    help: "score positions with the network in this file (agon train writes them) \
           instead of the linear evaluator, which still names noisy moves and orders \
           them; refused if trained for another game or encoding",
};

const STATES: ParamSpec = ParamSpec {
    name: "states",
    kind: ParamKind::Int {
        min: 1,
        max: optimal::MAX_STATES as i64,
    },
    default: Some(concat!(default_states!())),
    omitted_at_default: false,
    help: "refuse a game with more reachable positions than this (about 125 bytes each \
           while the table is built)",
};

/// The solver's `hash`: the same parameter with a default suited to proofs.
const SOLVE_HASH: ParamSpec = ParamSpec {
    default: Some(concat!(default_solve_hash_mb!())),
    omitted_at_default: false,
    ..HASH
};

/// Fills in what an agent does by default so that its canonical spec shows it: an
/// agent with a default depth and no `depth`, `nodes` or `time` gets `depth=<default>`;
/// one with default iterations and no `iters` or `time` gets `iters=<default>`.
pub fn complete_params(kind: AgentKind, params: &mut Params) {
    let has = |params: &Params, keys: &[&str]| keys.iter().any(|k| params.contains(k));
    match kind.info().default_budget {
        DefaultBudget::Depth(depth) if !has(params, &["depth", "nodes", "time"]) => {
            params.insert("depth", ParamValue::Int(i64::from(depth)));
        }
        DefaultBudget::Iterations(iters) if !has(params, &["iters", "time"]) => {
            params.insert("iters", ParamValue::Int(iters as i64));
        }
        _ => {}
    }
}

/// Builds an agent of `kind` for the game of `S` from checked `params` (absent
/// parameters take their declared defaults; with no budget, the kind's default budget),
/// scoring with `eval`. Fails for an alpha-beta kind on a game with chance
/// ([`AgentError::NeedsDeterministic`]) and for parameters that conflict.
pub fn build<S, E>(
    kind: AgentKind,
    params: &Params,
    eval: E,
) -> Result<Box<dyn Agent<S>>, AgentError>
where
    S: State<Chance: BuildAgents>,
    E: Evaluator<S>,
{
    let mut params_with_defaults = Params::defaults(kind.info().params);
    for name in params.names() {
        if let Some(value) = params.get(name) {
            params_with_defaults.insert(name, value.clone());
        }
    }
    S::Chance::build(kind, &params_with_defaults, eval)
}

/// How the agents are built for games of one [`agon_engine::ChanceKind`]: the games
/// without chance get alpha-beta and the solver besides the agents every game gets. The
/// trait exists because alpha-beta's `S: Deterministic` bound must be proven where it
/// is built; [`build`] calls it, so there is no need to name it elsewhere.
pub trait BuildAgents: agon_engine::ChanceKind {
    /// Builds `kind` for `S` from `params` with every default filled in. By default, the
    /// agents every game gets (alpha-beta refused), which is what a game with chance has.
    fn build<S: State<Chance = Self>, E: Evaluator<S>>(
        kind: AgentKind,
        params: &Params,
        eval: E,
    ) -> Result<Box<dyn Agent<S>>, AgentError> {
        build_any(kind, params, eval)
    }
}

impl BuildAgents for NoChance {
    fn build<S: State<Chance = Self>, E: Evaluator<S>>(
        kind: AgentKind,
        params: &Params,
        eval: E,
    ) -> Result<Box<dyn Agent<S>>, AgentError> {
        match kind {
            AgentKind::AlphaBeta => {
                let config = AlphaBetaConfig {
                    budget: budget(kind, params),
                    hash_mb: hash_mb(params),
                    threads: threads(params),
                    pruning: Pruning {
                        lmr: params.bool("lmr").unwrap_or(false),
                        futility: params.bool("futility").unwrap_or(false),
                        lmp: params.bool("lmp").unwrap_or(false),
                        razoring: params.bool("razoring").unwrap_or(false),
                        null_move: params.bool("null").unwrap_or(false),
                        follow_ups: params.int("followups").map(|k| k as u8),
                    },
                    partial_iterations: params.bool("partial").unwrap_or(false),
                    check_extension: params.bool("check").unwrap_or(false),
                    quiet_wins: params.bool("qwins").unwrap_or(false),
                    ..AlphaBetaConfig::default()
                };
                Ok(maybe_noisy!(params, eval, |eval| AlphaBeta::try_new(
                    eval, config
                )
                .map_err(|_| out_of_memory(kind, params))?))
            }
            AgentKind::Solve => {
                let config = SolveConfig {
                    budget: budget(kind, params),
                    hash_mb: hash_mb(params),
                    threads: threads(params),
                    wdl: params.bool("wdl").unwrap_or(SolveConfig::default().wdl),
                };
                let solver =
                    Solver::try_new(eval, config).map_err(|_| out_of_memory(kind, params))?;
                Ok(Box::new(solver))
            }
            AgentKind::Random
            | AgentKind::Greedy
            | AgentKind::Expectimax
            | AgentKind::Star1
            | AgentKind::Star2
            | AgentKind::Mcts
            | AgentKind::Optimal => build_any(kind, params, eval),
        }
    }
}

impl BuildAgents for WithChance {}

/// Builds the kinds that play every game; refuses the alpha-beta kinds, which
/// [`NoChance`]'s builder handles before calling this.
fn build_any<S: State, E: Evaluator<S>>(
    kind: AgentKind,
    params: &Params,
    eval: E,
) -> Result<Box<dyn Agent<S>>, AgentError> {
    let chance = |mode| -> Result<Box<dyn Agent<S>>, AgentError> {
        if params.bool("quiesce") == Some(true) && params.int("playouts").is_some() {
            return Err(conflict(
                kind,
                "quiesce and playouts are two ways to value the horizon (give one)",
            ));
        }
        if params.int("plies").is_some() && params.int("playouts").is_none() {
            return Err(conflict(
                kind,
                "plies cuts playouts short, and there are none without playouts=N \
                 (add playouts, or leave plies out to use the evaluator)",
            ));
        }
        let config = ExpectimaxConfig {
            budget: budget(kind, params),
            hash_mb: hash_mb(params),
            mode,
            horizon: match params.int("playouts") {
                Some(count) => Horizon::Playouts {
                    count: count as u32,
                    plies: params.int("plies").map(|n| n as u32),
                },
                None if params.bool("quiesce") == Some(true) => Horizon::Quiescence,
                None => Horizon::Evaluate,
            },
            history: params.bool("history").unwrap_or(false),
        };
        let agent =
            Expectimax::try_new(eval.clone(), config).map_err(|_| out_of_memory(kind, params))?;
        Ok(Box::new(agent))
    };
    match kind {
        AgentKind::Random => Ok(Box::new(RandomAgent)),
        AgentKind::Greedy => Ok(maybe_noisy!(params, eval, |eval| Greedy::new(eval))),
        AgentKind::Expectimax => chance(ChanceMode::Expectimax),
        AgentKind::Star1 => chance(ChanceMode::Star1),
        AgentKind::Star2 => chance(ChanceMode::Star2),
        AgentKind::Mcts
            if params.choice("rollout") == Some("eval") && params.int("plies").is_some() =>
        {
            Err(conflict(
                kind,
                "plies cuts playouts short, and rollout=eval plays none (use \
                 rollout=random or rollout=greedy)",
            ))
        }
        AgentKind::Mcts
            if ["bias", "minimax"]
                .iter()
                .any(|p| params.float(p).is_some_and(|w| w > 0.0))
                && threads(params) > 1
                && params.choice("parallel") != Some("root") =>
        {
            Err(conflict(
                kind,
                "bias and minimax are not supported by tree parallelism's shared tree \
                 (add parallel=root, or use threads=1)",
            ))
        }
        AgentKind::Mcts => Ok(Box::new(Mcts::new(eval, mcts_config(params)))),
        AgentKind::Optimal => {
            let states = params.int("states").expect("states has a declared default");
            Ok(Box::new(Optimal::new(
                &eval,
                OptimalConfig {
                    states: states as usize,
                },
            )))
        }
        AgentKind::AlphaBeta | AgentKind::Solve => Err(AgentError::NeedsDeterministic {
            name: kind.name().to_string(),
            suggest: CHANCE_SUGGESTIONS.to_string(),
        }),
    }
}

/// [`AgentError::Conflict`] for `kind`.
fn conflict(kind: AgentKind, reason: &str) -> AgentError {
    AgentError::Conflict {
        name: kind.name().to_string(),
        reason: reason.to_string(),
    }
}

/// [`AgentError::OutOfMemory`] for `kind` with `params`.
fn out_of_memory(kind: AgentKind, params: &Params) -> AgentError {
    AgentError::OutOfMemory {
        name: kind.name().to_string(),
        hash_mb: hash_mb(params),
    }
}

/// The `hash` parameter in MiB (every kind with a table declares it with a default).
fn hash_mb(params: &Params) -> usize {
    params.int("hash").expect("hash has a declared default") as usize
}

/// The `threads` parameter (declared with a default by every kind that takes it).
fn threads(params: &Params) -> usize {
    params
        .int("threads")
        .expect("threads has a declared default") as usize
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
        max_nodes: params.int("tree").map_or(defaults.max_nodes, |mib| {
            (mib as usize).saturating_mul(1 << 20) / mcts::NODE_BYTES
        }),
        bias: params.float("bias").unwrap_or(defaults.bias),
        minimax: params.float("minimax").unwrap_or(defaults.minimax),
        early_stop: params.bool("early").unwrap_or(defaults.early_stop),
    }
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

/// The budget in `params`; with none given, `kind`'s default budget.
fn budget(kind: AgentKind, params: &Params) -> Budget {
    let budget = Budget {
        depth: params.int("depth").map(|d| d as u32),
        nodes: params.int("nodes").map(|n| n as u64),
        time: params.duration("time"),
    };
    match kind.info().default_budget {
        DefaultBudget::Depth(depth) if budget == Budget::default() => Budget {
            depth: Some(depth),
            ..budget
        },
        _ => budget,
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
        for kind in AgentKind::ALL {
            let hash = Params::defaults(kind.info().params).int("hash");
            let expected = match kind.name() {
                "solve" => Some(512),
                "ab" | "expectimax" | "star1" | "star2" => Some(16),
                _ => None,
            };
            assert_eq!(hash, expected, "{}", kind.name());
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
        let spec = AgentKind::Mcts.info().params;
        let mut p = Params::parse(spec, &[]).unwrap();
        complete_params(AgentKind::Mcts, &mut p);
        assert_eq!(
            p.canonical(),
            format!(
                "c=1.4,iters={},parallel=tree,reuse=true,rollout=random,solver=true,threads=1",
                mcts::DEFAULT_ITERATIONS
            )
        );
        let mut p = Params::parse(spec, &[("time", "50ms"), ("parallel", "root")]).unwrap();
        complete_params(AgentKind::Mcts, &mut p);
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
    fn mcts_guidance_is_checked_for_range_and_refused_with_a_shared_tree() {
        use agon_engine::games::connect4::{Connect4Eval, Connect4State};

        let spec = AgentKind::Mcts.info().params;
        for bad in [
            ("bias", "-0.5"),
            ("bias", "2e6"),
            ("minimax", "-0.1"),
            ("minimax", "1.5"),
        ] {
            assert!(Params::parse(spec, &[bad]).is_err(), "{bad:?}");
        }
        let p = Params::parse(spec, &[("bias", "3"), ("minimax", "0.4")]).unwrap();
        let config = mcts_config(&p);
        assert_eq!((config.bias, config.minimax), (3.0, 0.4));
        let plain = mcts_config(&Params::parse(spec, &[]).unwrap());
        assert_eq!((plain.bias, plain.minimax), (0.0, 0.0));
        let build = |pairs: &[(&str, &str)]| {
            let params = Params::parse(spec, pairs).unwrap();
            build::<Connect4State, _>(AgentKind::Mcts, &params, Connect4Eval::default())
        };
        for guide in [("bias", "1"), ("minimax", "0.4")] {
            let refused = build(&[guide, ("threads", "2")]).err().expect("refused");
            assert!(
                matches!(&refused, AgentError::Conflict { reason, .. } if reason.contains("parallel=root")),
                "{refused}"
            );
            assert!(build(&[guide, ("threads", "2"), ("parallel", "root")]).is_ok());
            assert!(build(&[guide]).is_ok());
        }
        // Absent or zero, guidance is off, so the shared tree is fine.
        assert!(build(&[("minimax", "0"), ("threads", "2")]).is_ok());
    }

    #[test]
    fn ab_gets_its_default_depth_only_without_a_budget() {
        let ab = AgentKind::AlphaBeta.info().params;
        let mut p = Params::parse(ab, &[]).unwrap();
        complete_params(AgentKind::AlphaBeta, &mut p);
        assert_eq!(
            p.canonical(),
            format!("depth={},hash=16,threads=1", alphabeta::DEFAULT_DEPTH)
        );
        let mut p = Params::parse(ab, &[("time", "50ms")]).unwrap();
        complete_params(AgentKind::AlphaBeta, &mut p);
        assert_eq!(p.canonical(), "hash=16,threads=1,time=50ms");
        let mut p = Params::parse(AgentKind::Solve.info().params, &[]).unwrap();
        complete_params(AgentKind::Solve, &mut p);
        assert_eq!(p.canonical(), "hash=512,threads=1,wdl=true");
        assert_eq!(
            budget(AgentKind::Solve, &p),
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

        let params = Params::parse(AgentKind::AlphaBeta.info().params, pairs).unwrap();
        let mut agent =
            build::<InvectorState, _>(AgentKind::AlphaBeta, &params, InvectorEval::default())
                .unwrap();
        let mut rng = crate::AgentRng::seed_from_u64(seed);
        let mut state = Invector::new(5, 4, true).unwrap().initial_state();
        let mut line = Vec::new();
        while line.len() < 12 && state.turn() != agon_engine::Turn::Over {
            let result = agent.search(&state, crate::SearchContext::new(&mut rng, &mut |_| {}));
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
    fn every_kind_is_listed_once_by_a_name_that_finds_it_with_valid_defaults() {
        let mut seen: Vec<_> = AgentKind::ALL.map(AgentKind::name).to_vec();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), AgentKind::ALL.len());
        for kind in AgentKind::ALL {
            assert_eq!(AgentKind::from_name(kind.name()), Ok(kind));
            Params::defaults(kind.info().params); // panics on a default that does not parse
        }
        assert_eq!(
            AgentKind::from_name("alphabeta").unwrap_err().to_string(),
            "unknown agent \"alphabeta\" (valid: random, greedy, ab, solve, expectimax, \
             star1, star2, mcts, optimal)"
        );
    }

    #[test]
    fn exactly_the_kinds_that_need_no_chance_are_refused_on_a_chance_game() {
        use agon_engine::games::invector::{InvectorEval, InvectorState};
        use agon_engine::testing::coin_nim::{CoinNimEval, CoinNimState};

        for kind in AgentKind::ALL {
            let params = Params::default();
            let chance = build::<CoinNimState, _>(kind, &params, CoinNimEval::default());
            assert_eq!(
                matches!(chance, Err(AgentError::NeedsDeterministic { .. })),
                kind.needs_deterministic(),
                "{}",
                kind.name()
            );
            assert!(
                chance.is_ok() || kind.needs_deterministic(),
                "{}",
                kind.name()
            );
            assert!(
                build::<InvectorState, _>(kind, &params, InvectorEval::default()).is_ok(),
                "{}",
                kind.name()
            );
        }
    }
}
