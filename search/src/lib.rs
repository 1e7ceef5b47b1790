//! # agon-search: agents generic over the game API
//!
//! Every search here is generic over `S: agon_engine::State` and monomorphised per game:
//! no dynamic dispatch and no heap allocation per node (move buffers are owned per ply
//! and reused). Agents implement the object-safe [`Agent`] trait, called once per move.
//!
//! - [`RandomAgent`] (`random`): a uniformly random legal move;
//! - [`Greedy`] (`greedy`): the best evaluation one decision ahead, averaged exactly over
//!   chance;
//! - [`AlphaBeta`] (`ab`, module [`alphabeta`]): negamax alpha-beta with iterative
//!   deepening and a [transposition table](TranspositionTable), for deterministic games;
//! - [`Solver`] (`solve`): the exact solver (the proven result; with `wdl=false` the
//!   fastest win and slowest loss);
//! - [`Expectimax`] (`expectimax`, `star1`, `star2`): depth-limited expectimax with exact
//!   [fractions](Exact) and Ballard's *-minimax pruning, for games with chance;
//! - [`Mcts`] (`mcts`, module [`mcts`]): Monte-Carlo tree search (UCT, MCTS-Solver,
//!   chance sampling, tree reuse, tree or root parallelism), for every game;
//! - [`Optimal`] (`optimal`, module [`optimal`]): exact play of small games by value
//!   iteration over every reachable position (Pig with its default rules in seconds);
//! - `noise=N` of `ab` and `greedy`: seeded evaluation noise, so deterministic agents
//!   vary;
//! - [`registry`]: the agents by kind, built from checked parameters;
//! - [`table_pool`]: reuse of table memory between the agents one thread builds (a
//!   tournament worker's games);
//! - [`score`]: mate scores and the value of a finished game.
//!
//! The other modules are the agents' insides and stay private: what other crates use is
//! re-exported here.
//!
//! Alpha-beta needs `S: Deterministic` (a game whose `State::Chance` is `NoChance`), so
//! it does not compile for a game with chance; [`registry::build`] refuses it there.
//!
//! ```
//! use agon_engine::games::invector::{Invector, InvectorEval, InvectorState};
//! use agon_engine::{Game, Params, State};
//! use agon_search::{registry, AgentKind, AgentRng, SearchContext, Value};
//! use rand::SeedableRng;
//!
//! // Agents are built by name from checked parameters, as the CLI does for `ab:depth=3`.
//! let ab_kind = AgentKind::from_name("ab").unwrap();
//! let params = Params::parse(ab_kind.info().params, &[("depth", "3")]).unwrap();
//! let mut ab = registry::build::<InvectorState, _>(ab_kind, &params, InvectorEval::default()).unwrap();
//! let state = Invector::new(5, 4, false).unwrap().initial_state();
//! let mut rng = AgentRng::seed_from_u64(1);
//! let result = ab.search(&state, SearchContext::new(&mut rng, &mut |info| {
//!     println!("info depth {} value {} nodes {}", info.depth, info.value, info.nodes);
//! }));
//! assert_eq!(result.depth, 3);
//! println!("bestmove {}", state.format_move(result.best.unwrap()));
//!
//! // The solver proves that on 4×3 the first player loses: by default the result only
//! // (a loss within the plies it reports), with `wdl=false` at its exact distance.
//! let params = Params::default(); // every parameter takes its declared default
//! let mut solve = registry::build::<InvectorState, _>(AgentKind::Solve, &params, InvectorEval::default())
//!     .unwrap();
//! let small = Invector::new(4, 3, false).unwrap().initial_state();
//! let value = solve.search(&small, SearchContext::new(&mut rng, &mut |_| {})).value;
//! assert!(matches!(value, Value::Loss(_)));
//! let exact = Params::parse(AgentKind::Solve.info().params, &[("wdl", "false")]).unwrap();
//! let mut solve = registry::build::<InvectorState, _>(AgentKind::Solve, &exact, InvectorEval::default())
//!     .unwrap();
//! assert_eq!(solve.search(&small, SearchContext::new(&mut rng, &mut |_| {})).value, Value::Loss(16));
//!
//! // Games with chance get the chance searches, greedy or random; alpha-beta is refused.
//! use agon_engine::testing::coin_nim::{CoinNimEval, CoinNimState};
//! let refused = registry::build::<CoinNimState, _>(AgentKind::AlphaBeta, &params, CoinNimEval::default());
//! assert!(refused.is_err());
//! ```

mod agent;
pub mod alphabeta;
mod budget;
mod draws;
mod error;
mod exact;
mod expectimax;
mod greedy;
mod heuristics;
pub mod mcts;
mod noise;
pub mod optimal;
mod ordering;
pub mod playout;
mod random;
pub mod registry;
pub mod score;
mod solve;
pub mod table_pool;
mod tt;

pub use agent::{Agent, AgentRng, AgentStats, SearchContext, SearchInfo, SearchResult, Value};
pub use alphabeta::{AlphaBeta, AlphaBetaConfig, Enhancements, Pruning};
pub use budget::{Budget, Clock};
pub use error::AgentError;
pub use exact::Exact;
pub use expectimax::{ChanceMode, Expectimax, ExpectimaxConfig, Horizon, QUIESCENCE_PLIES};
pub use greedy::Greedy;
pub use mcts::{Mcts, MctsConfig, Parallel, Rollout};
pub use optimal::{Optimal, OptimalConfig};
pub use random::RandomAgent;
pub use registry::{AgentInfo, AgentKind};
pub use solve::{SolveConfig, Solver};
pub use tt::TranspositionTable;
