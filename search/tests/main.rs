//! The integration tests of `search`, in one test binary (one link instead of one
//! per file): the agents against reference searches on small games. Each module is one concern; the shared helpers are in the modules
//! declared first.

mod common;

mod alphabeta;
mod connect4_search;
mod connect4_solve;
mod expectimax;
mod greedy;
mod invector;
mod mcts;
mod optimal;
mod pruning;
mod registry;
mod repetition;
mod solve;
