//! The commands: one module per `agon` subcommand, each parsing what its arguments
//! mean and printing what it reports. They sit above the run machinery ([`crate::running`])
//! and reporting ([`crate::reporting`]), and nothing below them depends on them, except
//! that a balance study runs tournaments and reports through them.

pub mod analyse;
pub mod bench;
pub mod experiment;
pub mod listing;
pub mod openings;
pub mod perft;
pub mod play;
pub mod replay;
pub mod report;
pub mod serve;
pub mod show;
pub mod tournament;
