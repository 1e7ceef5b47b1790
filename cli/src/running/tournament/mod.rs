//! Round-robin tournaments: the schedule, one game, and the parallel run that writes
//! rows in game-index order.
//!
//! Schedule: agents are paired in round-robin order (`(0,1), (0,2), ..., (1,2), ...`);
//! one agent alone is paired with itself (self-play). Each pairing plays `N` games (`N`
//! even) with consecutive indices, so game `g` belongs to pairing `g / N` and pair
//! `g / 2`; within a pairing `(a, b)`, even games seat `a` at seat 0 and odd games swap
//! the seats, so games `2p` and `2p+1` start alike (same opening, same luck: one
//! *deal*, see [`Seating::deal`](schedule::Seating::deal)) with seats swapped.
//!
//! Self-play is the exception: with one agent, swapping the seats changes nothing, so a
//! pair dealt alike would be one game played twice. There every game is dealt its own
//! opening and luck (deal `g`), and a "pair" is only two consecutive games.
//!
//! The schedule is arithmetic on the game index, never a list: [`Plan::seating`] finds a
//! game's pairing without building the pairings, and the run's size is checked once
//! ([`Plan::new`] refuses a count of games that does not fit a `u64`), so a run of any
//! representable size starts without memory in proportion to it.
//!
//! Reproducibility: a game depends only on the plan and its index. Each game builds its
//! two agents fresh from their specs and draws from the streams of [`crate::seeds`], so
//! the worker that runs it and what that worker ran before do not matter, and the writer
//! emits rows in index order: any thread count gives the same games.csv. Building an
//! agent fresh does not mean allocating its table afresh: each worker thread reuses the
//! table memory of its previous game's agents, cleared so that it answers exactly as new
//! memory would ([`agon_search::table_pool`]). A run thus holds at most, per worker, the
//! tables of one game's two seats: `threads × (hash of seat 0 + hash of seat 1)` MiB.
//!
//! Faults: an agent that panics or returns an illegal move forfeits the game (end reason
//! [`FORFEIT`](crate::record::FORFEIT), the other seat wins, the fault in the row's `note`) and the run goes on;
//! see [`agent_move`](game::agent_move). An outside program's faults (it exits, times out, answers an
//! illegal move) are panics of its agent ([`crate::external`]), so they forfeit alike.
//! Each agent is told the game's line of moves so far ([`SearchContext::line`](agon_search::SearchContext::line)).

pub(crate) mod game;
pub(crate) mod schedule;
mod sprt_watch;
mod writer;

pub use game::play_game;
pub use schedule::{worker_threads, workers_for, Plan, MAX_THREADS};
pub use sprt_watch::sprt_decides;
pub use writer::run;
pub(crate) use writer::workers;

#[cfg(test)]
mod tests;
