//! The parallel run: worker threads play games in any order, and one writer emits their
//! rows in game-index order, stopping where the SPRT decides.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;

use anyhow::{anyhow, Context, Result};
use rayon::prelude::*;

use super::game::play_game;
use super::schedule::{workers_for, Plan};
use super::sprt_watch::SprtWatch;
use crate::games::PlayableGame;
use crate::record::{GameRow, RunWriter, TimingRow};
use crate::reporting::stats::sprt::Sprt;
use crate::running::progress::Progress;
use crate::stop::Stopped;

/// Plays the games of `plan`'s range ([`Plan::game_range`]: all, or its shard's) after the
/// `done` ones (the complete rows a resumed run found, the range's first `done.len()`
/// games) on `threads` workers (no more than the games left, [`workers_for`]) and writes their rows in game-index order as soon as each
/// is next (a finished game waits only for lower indices), telling `progress` of each.
/// Returns every game row written, `done` first, in order.
///
/// With `sprt`, the test is evaluated after each complete pair, in pair order: once a
/// pair's second game takes the log-likelihood ratio past a bound, the run stops there
/// and no later game is written (games already being played are dropped), so where it
/// stops does not depend on the thread count. A resumed run whose rows already decide it
/// plays nothing.
pub fn run<G: PlayableGame>(
    game: &G,
    plan: &Plan,
    threads: usize,
    done: Vec<GameRow>,
    writer: &mut RunWriter,
    progress: &mut Progress,
    sprt: Option<&Sprt>,
) -> Result<Vec<GameRow>> {
    let range = plan.game_range();
    let first = range.start + done.len() as u64;
    let pool = workers(workers_for(threads, range.end - first))?;
    let mut watch = sprt.map(SprtWatch::new);
    let decided = watch
        .as_mut()
        .is_some_and(|watch| done.iter().any(|row| watch.add(row)));
    if decided {
        progress.finish();
        return Ok(done);
    }
    // Set by the writer when the SPRT decides: workers then start no further game.
    let stop_flag = AtomicBool::new(false);
    let stop = &stop_flag;
    // Asked from outside (Ctrl-C in Python): workers then start no further game either.
    let asked = progress.stop().clone();
    let asked = &asked;
    let (sender, receiver) = mpsc::channel::<(u64, GameRow, TimingRow)>();

    std::thread::scope(|scope| {
        let collector = scope.spawn(move || -> Result<Vec<GameRow>> {
            let mut pending = BTreeMap::new();
            // Grows with the games played, never sized by the run up front.
            let mut rows = done;
            'receive: for (index, row, timing) in receiver {
                pending.insert(index, (row, timing));
                while let Some((row, timing)) = pending.remove(&(range.start + rows.len() as u64)) {
                    writer.write(&row, &timing)?;
                    progress.game_done(&row);
                    let decided = watch.as_mut().is_some_and(|w| w.add(&row));
                    rows.push(row);
                    if decided {
                        stop.store(true, Ordering::Relaxed);
                        break 'receive;
                    }
                }
            }
            progress.finish();
            Ok(rows)
        });
        let played = pool.install(|| {
            (first..range.end).into_par_iter().try_for_each_with(
                sender,
                |sender, index| -> Result<()> {
                    if stop.load(Ordering::Relaxed) || asked.requested() {
                        return Ok(());
                    }
                    let (row, timing) = play_game(game, plan, index)?;
                    // A closed channel means the writer stopped: by the SPRT's decision
                    // (fine), or by an error, which the writer reports.
                    match sender.send((index, row, timing)) {
                        Err(_) if !stop.load(Ordering::Relaxed) => {
                            Err(anyhow!("the writer stopped"))
                        }
                        _ => Ok(()),
                    }
                },
            )
        });
        let rows = collector
            .join()
            .map_err(|_| anyhow!("the writer thread panicked"))??;
        played?;
        let planned = range.end - range.start;
        let decided = stop.load(Ordering::Relaxed);
        if asked.requested() && !decided && (rows.len() as u64) < planned {
            return Err(Stopped {
                played: rows.len() as u64,
                total: planned,
            }
            .into());
        }
        Ok(rows)
    })
}

/// The `threads` worker threads of a run, each reusing the table memory of the agents it
/// drops for the next game's (see the module docs).
pub(crate) fn workers(threads: usize) -> Result<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .start_handler(|_| agon_search::table_pool::reuse_tables_on_this_thread())
        .build()
        .context("cannot start the worker threads")
}
