//! The integration tests of `cli`, in one test binary (one link instead of one
//! per file): the `agon` binary and the library under it, end to end. Each module is one concern; the shared helpers are in the modules
//! declared first.

mod common;

mod balance;
mod browser;
mod cli;
mod cluster;
mod docs;
mod experiments;
mod external;
mod folders;
mod games;
mod opening_check;
mod openings;
mod race;
mod readback;
mod report;
mod resume;
mod schedule;
mod shard;
mod sprt;
mod tables;
mod tournament;
mod train;
mod tune;
mod weights;
