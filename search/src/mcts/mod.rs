//! The `mcts` agent: Monte-Carlo tree search with UCT, random playouts or evaluator
//! leaves, chance nodes sampled by weight, the MCTS-Solver, tree reuse between moves,
//! and tree or root parallelism.
//!
//! - [`tree`]: the node arena, UCT selection, expansion, backup, proofs, tree reuse
//!   and evaluator guidance ([`tree::guide`]: progressive bias `bias`, implicit
//!   minimax backups `minimax`; one thread or root parallelism only), with plain
//!   statistics for one thread or atomic ones (virtual loss) for tree parallelism;
//! - [`rollout`]: leaf evaluation (`rollout=random|greedy|eval`, `plies`);
//! - [`driver`]: the iteration loop of one thread;
//! - [`parallel`]: tree parallelism (one shared tree) and root parallelism;
//! - [`choose`]: the move, value and principal variation from the root statistics.
//!
//! # One iteration
//!
//! From the root, decision nodes pick the child maximising
//! `mean + c·sqrt(ln N / n)` (rewards in [-1, 1] from the deciding seat's view) once all
//! their moves have a child, and otherwise expand one untried move drawn uniformly;
//! chance nodes draw an outcome by its integer weight (its child is created the first
//! time it is drawn). The first new node ends the descent and is valued by a uniformly
//! random playout (or the evaluator); the reward is added to every node on the path.
//! The move played is the root child with the most visits, unless the solver proved a
//! win (see [`choose`]).
//!
//! # Budgets and reproducibility
//!
//! A tree holds at most [`MctsConfig::max_nodes`] nodes (the `tree` parameter, in MiB),
//! one per move or outcome of every node expanded, tried or not; once full, the search goes on valuing leaves without adding them, and
//! [`Mcts::arena_full`] reports it.
//!
//! `iters` counts the iterations of this search (a reused subtree's earlier visits do
//! not count), `time` the wall time; with neither, [`DEFAULT_ITERATIONS`]. A search
//! stops early once the solver proves the root, and with `early=true` once the most
//! visited root move leads every other by more visits than there are iterations left:
//! the move to play is then settled, and the iterations it would have spent on a clear
//! choice (a `free` that beats `done`, one sensible step) are saved. The stop changes
//! no move of that search (barring a proof in the iterations it skips) but leaves a
//! smaller tree to reuse. With one thread and an iteration
//! budget the search is exactly reproducible from the generator passed to `search`
//! (and the agent's earlier searches in the game, through tree reuse); so is root
//! parallelism, whose threads are seeded from that generator and share nothing.
//!
//! # Tree reuse
//!
//! With `reuse=true` the agent keeps its tree after a search. The next search looks for
//! its position among the old root's descendants exactly as many plies down as the
//! position's ply count has grown (at most [`REUSE_PLIES`]: our move, the opponent's
//! reply and the chance outcomes between), comparing the hash and then the position;
//! if found, that subtree is copied to the front of the arena and becomes the root,
//! with its statistics, otherwise the tree starts afresh.

mod choose;
mod driver;
mod parallel;
mod rollout;
mod tree;
mod uct_counts;

use std::time::Duration;

use agon_engine::{Evaluator, State, Turn};
use rand::Rng;

use crate::agent::{Agent, AgentRng, SearchContext, SearchInfo, SearchResult};
use crate::budget::{Budget, Clock};
pub use rollout::Rollout;
use tree::{Atomic, Guide, Plain, Settings, Stats, Tree};

/// Iterations of a search given neither `iters` nor `time`: about 20 ms of Connect
/// Four on one core, enough to play sensibly in quick tournaments.
pub const DEFAULT_ITERATIONS: u64 = 10_000;

/// The default UCT exploration constant, written once: [`DEFAULT_C`] reads it as a
/// number and the registry's `c` parameter as its default text (`concat!` expands it).
macro_rules! default_c {
    () => {
        1.4
    };
}
pub(crate) use default_c;

/// The default UCT exploration constant, OpenSpiel's `uct_c` for rewards in [-1, 1].
pub const DEFAULT_C: f64 = default_c!();

/// The most plies between two searches' roots that tree reuse looks through: a whole
/// Pig turn of the opponent (a roll and its face per step) fits in most cases.
pub const REUSE_PLIES: u32 = 16;

/// Bytes a node is counted for when the `tree` parameter (MiB) is turned into a node
/// count: a node takes 40 bytes for a move of up to 8 bytes (32 in tree parallelism's
/// tree); the margin covers the second arena that re-rooting copies the kept subtree
/// into.
pub const NODE_BYTES: usize = 64;

/// The default tree memory in MiB (the `tree` parameter): [`MAX_NODES`] nodes.
pub const DEFAULT_TREE_MIB: usize = 512;

/// Nodes one tree may hold by default (2²³); beyond its bound
/// ([`MctsConfig::max_nodes`]) a search stops expanding and values leaves without adding
/// them, so a long `time` budget cannot exhaust memory; [`Mcts::arena_full`] says when
/// that happened.
pub const MAX_NODES: usize = (DEFAULT_TREE_MIB << 20) / NODE_BYTES;

/// How threads share the work when `threads > 1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Parallel {
    /// One shared tree with virtual loss.
    Tree,
    /// One tree per thread; root visit counts summed.
    Root,
}

/// How an MCTS agent searches.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MctsConfig {
    /// Iterations per search (`None`: only `time` limits, or [`DEFAULT_ITERATIONS`]
    /// if that is `None` too).
    pub iterations: Option<u64>,
    /// Wall time per search.
    pub time: Option<Duration>,
    /// Search threads (1 is reproducible).
    pub threads: usize,
    /// UCT exploration constant.
    pub c: f64,
    /// Leaf evaluation.
    pub rollout: Rollout,
    /// MCTS-Solver on or off.
    pub solver: bool,
    /// Keep the tree between the moves of a game.
    pub reuse: bool,
    /// Tree or root parallelism when `threads > 1`.
    pub parallel: Parallel,
    /// Nodes one tree may hold ([`MAX_NODES`] by default).
    pub max_nodes: usize,
    /// Progressive bias weight `W` (≥ 0; 0, the default, is off): see [`tree::guide`].
    pub bias: f64,
    /// Implicit minimax weight `α` in [0, 1] (0, the default, is off): see
    /// [`tree::guide`]. With `bias`, not supported by tree parallelism.
    pub minimax: f64,
    /// Stop a search once the most visited root move can no longer be overtaken by
    /// the iterations left (off by default).
    pub early_stop: bool,
}

impl Default for MctsConfig {
    /// The registry's defaults: [`DEFAULT_ITERATIONS`], one thread, `c` =
    /// [`DEFAULT_C`], random playouts, solver and reuse on, tree parallelism,
    /// [`MAX_NODES`], no evaluator guidance.
    fn default() -> Self {
        MctsConfig {
            iterations: None,
            time: None,
            threads: 1,
            c: DEFAULT_C,
            rollout: Rollout::Random { plies: None },
            early_stop: false,
            solver: true,
            reuse: true,
            parallel: Parallel::Tree,
            max_nodes: MAX_NODES,
            bias: 0.0,
            minimax: 0.0,
        }
    }
}

/// The MCTS agent (see the module docs).
#[derive(Debug)]
pub struct Mcts<S: State, E> {
    config: MctsConfig,
    eval: E,
    /// One tree (root parallelism: one per thread), kept between searches for reuse.
    trees: Vec<Tree<S, Plain>>,
    /// Tree parallelism's tree, kept between searches for reuse.
    shared: Tree<S, Atomic>,
    reused_visits: u64,
    arena_full: bool,
}

impl<S: State, E: Evaluator<S>> Mcts<S, E> {
    /// A new agent that searches as `config` says (with `eval` for `rollout=eval`, cut
    /// playouts and guidance). Panics if `config` asks for guidance (`bias` or
    /// `minimax`) with tree parallelism, whose shared tree has no room for it (the
    /// registry refuses that combination).
    pub fn new(eval: E, config: MctsConfig) -> Self {
        let guided = config.bias > 0.0 || config.minimax > 0.0;
        assert!(
            !(guided && config.threads > 1 && config.parallel == Parallel::Tree),
            "bias and minimax need threads=1 or parallel=root"
        );
        Mcts {
            config,
            eval,
            trees: Vec::new(),
            shared: Tree::default(),
            reused_visits: 0,
            arena_full: false,
        }
    }

    /// The visits the last search's root already had from earlier searches (0 unless
    /// tree reuse kept a subtree; summed over the trees of root parallelism).
    pub fn reused_visits(&self) -> u64 {
        self.reused_visits
    }

    /// Whether the last search filled its tree ([`MctsConfig::max_nodes`]) and then
    /// valued leaves without adding them.
    pub fn arena_full(&self) -> bool {
        self.arena_full
    }

    /// Runs one search (see the module docs).
    fn run(
        &mut self,
        state: &S,
        rng: &mut AgentRng,
        info: &mut dyn FnMut(&SearchInfo<S::Move>),
    ) -> SearchResult<S::Move> {
        let clock = Clock::start(&Budget {
            time: self.config.time,
            ..Budget::default()
        });
        if let Turn::Over = state.turn() {
            let outcome = state.outcome().expect("a finished game has an outcome");
            return SearchResult {
                best: None,
                value: crate::score::finished_value(outcome, 0),
                depth: 0,
                nodes: 0,
                time: clock.elapsed(),
                pv: Vec::new(),
                tt_hits: 0,
                memory_full: false,
            };
        }
        let threads = self.config.threads.max(1);
        let limit = match (self.config.iterations, self.config.time) {
            (Some(n), _) => n,
            (None, Some(_)) => u64::MAX,
            (None, None) => DEFAULT_ITERATIONS,
        };
        let job = driver::Job {
            root: state,
            eval: &self.eval,
            early_stop: self.config.early_stop,
            settings: Settings {
                c: self.config.c,
                solver: self.config.solver,
                guide: Guide {
                    bias: self.config.bias,
                    minimax: self.config.minimax,
                },
            },
            rollout: self.config.rollout,
            clock: &clock,
        };
        let (reuse, max_nodes, solver) =
            (self.config.reuse, self.config.max_nodes, self.config.solver);
        let seeds: Vec<u64> = if threads > 1 {
            (0..threads).map(|_| rng.random()).collect()
        } else {
            Vec::new()
        };
        let (iterations, depth, choice) = if threads > 1 && self.config.parallel == Parallel::Tree {
            let tree = &mut self.shared;
            self.reused_visits = prepare(tree, state, reuse, max_nodes);
            let mut report = reporter(solver, &clock, info);
            let (iterations, depth) =
                parallel::tree_parallel(tree, &job, limit, &seeds, Some(&mut report));
            self.arena_full = tree.is_full();
            (iterations, depth, choose::choose(&[&*tree], solver))
        } else {
            let tree_count = if threads > 1 { threads } else { 1 };
            self.trees.resize_with(tree_count, Tree::default);
            self.reused_visits = (self.trees.iter_mut())
                .map(|tree| prepare(tree, state, reuse, max_nodes))
                .sum();
            let mut report = reporter(solver, &clock, info);
            let (iterations, depth) = if threads == 1 {
                driver::run(&mut self.trees[0], &job, limit, rng, Some(&mut report))
            } else {
                parallel::root_parallel(&mut self.trees, &job, limit, &seeds, Some(&mut report))
            };
            self.arena_full = self.trees.iter().any(Tree::is_full);
            let trees: Vec<&Tree<S, Plain>> = self.trees.iter().collect();
            (iterations, depth, choose::choose(&trees, solver))
        };
        let result = SearchResult {
            best: choice.best,
            value: choice.value,
            depth,
            nodes: iterations,
            time: clock.elapsed(),
            pv: choice.pv,
            tt_hits: 0,
            memory_full: self.arena_full,
        };
        info(&SearchInfo {
            depth,
            value: result.value,
            nodes: iterations,
            time: result.time,
            pv: result.pv.clone(),
        });
        result
    }
}

/// Readies `tree` for a search from `state`: the subtree that tree reuse keeps (if
/// `reuse`), else an empty tree of at most `max_nodes` nodes. Returns the kept root's
/// visits.
fn prepare<S: State, St: Stats>(
    tree: &mut Tree<S, St>,
    state: &S,
    reuse: bool,
    max_nodes: usize,
) -> u64 {
    if reuse && tree.advance_to(state, REUSE_PLIES) {
        u64::from(tree.root().visits)
    } else {
        tree.reset(state, max_nodes);
        0
    }
}

/// The progress report of a search: the choice so far passed to `info`.
fn reporter<'a, S: State, St: Stats>(
    solver: bool,
    clock: &'a Clock,
    info: &'a mut dyn FnMut(&SearchInfo<S::Move>),
) -> impl FnMut(&Tree<S, St>, u64, u32) + 'a {
    move |tree, iterations, depth| {
        let choice = choose::choose(&[tree], solver);
        info(&SearchInfo {
            depth,
            value: choice.value,
            nodes: iterations,
            time: clock.elapsed(),
            pv: choice.pv,
        });
    }
}

impl<S: State, E: Evaluator<S>> Agent<S> for Mcts<S, E> {
    fn search(&mut self, state: &S, ctx: SearchContext<'_, S::Move>) -> SearchResult<S::Move> {
        let SearchContext { rng, info, .. } = ctx;
        self.run(state, rng, info)
    }
}
