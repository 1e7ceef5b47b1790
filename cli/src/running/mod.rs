//! The run machinery: the schedule and play of a tournament's games, the openings they
//! start from, the checked reading of a run's rows, its folder and lock, shards and their
//! merge, and the progress shown while it runs. It writes through [`crate::record`] and
//! summarises through [`crate::reporting`].

pub mod audit;
pub mod folder;
pub mod lock;
pub mod merge;
pub mod opening;
pub mod progress;
pub mod table_memory;
pub mod tournament;
