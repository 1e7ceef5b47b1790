//! # agon-search: agents generic over the game API
//!
//! Every search here is generic over `S: agon_engine::State` and monomorphised per game:
//! no dynamic dispatch and no heap allocation per node. Agents implement the object-safe
//! [`Agent`] trait, called once per move.

pub mod agent;
pub mod budget;
pub mod random;

pub use agent::{Agent, AgentRng, AgentStats, SearchInfo, SearchResult, Value};
pub use budget::{Budget, Clock};
pub use random::RandomAgent;
