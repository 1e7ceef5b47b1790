//! Multi-threaded search: tree parallelism (one shared tree, virtual loss) and root
//! parallelism (one independent tree per thread, root statistics summed).
//!
//! # Tree parallelism
//!
//! The threads share one [`Tree`] of [`Atomic`] nodes (atomic statistics, expansion
//! claimed by compare-and-swap): each selects a leaf (adding a virtual loss to every
//! node on the path, which steers the other threads elsewhere), evaluates it and backs
//! the reward up without waiting for the others; iterations are claimed from one
//! counter [`CLAIM`] at a time. The agent keeps that tree between searches, and the
//! move choice, progress reports and tree reuse read it as they read a one-thread
//! tree. Results depend on thread timing, so they are not reproducible.
//!
//! Threads share no lock, but they share cache lines: every selection reads the
//! children of the nodes near the root, and iterations that pass a node that is not
//! hot write it at once. Games whose iterations are very cheap and whose threads
//! follow few lines (Connect Four) scale least. Measurements: `docs/decisions.md`,
//! `experiments/tree-parallel-scaling.sh` and `experiments/tree-parallel-threads.sh`.
//!
//! # Root parallelism
//!
//! Each thread searches its own tree from the same root with its own generator, the
//! iteration budget split evenly; the final choice sums visits and rewards per root move
//! over the trees ([`super::choose`]). Threads share nothing while searching, so with an
//! iteration budget the result is reproducible for a given seed and thread count.

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};

use agon_engine::{Evaluator, State};
use rand::SeedableRng;

use super::driver::{self, Job, Progress, FIRST_REPORT};
use super::rollout::Scratch;
use super::tree::{Atomic, Buffers, Plain, Tree, FLUSH_EVERY};
use crate::agent::AgentRng;

/// Iterations a tree-parallel thread claims at once, so that the threads update the
/// shared iteration counter once per claim rather than once per iteration.
const CLAIM: u64 = 8;

/// The counters of a tree-parallel search, shared by its threads.
#[derive(Default)]
struct Counters {
    /// Iterations claimed (the next one's number), [`CLAIM`] at a time.
    started: AtomicU64,
    /// Iterations backed up, added by each thread when it stops (so that the threads
    /// share one counter per iteration, not two).
    finished: AtomicU64,
    /// Deepest leaf depth reached, raised only when a thread beats its own deepest.
    depth: AtomicU32,
    /// Set by the first thread to see the budget spent; the others stop too.
    stop: AtomicBool,
}

/// Tree parallelism on `tree`: one thread per seed (the calling thread runs the first
/// and reports `progress`), `limit` iterations in all. Returns the iterations run and
/// the deepest leaf depth.
pub(crate) fn tree_parallel<S: State, E: Evaluator<S>>(
    tree: &mut Tree<S, Atomic>,
    job: &Job<'_, S, E>,
    limit: u64,
    seeds: &[u64],
    progress: Option<Progress<'_, S, Atomic>>,
) -> (u64, u32) {
    let counters = Counters::default();
    let threads = seeds.len();
    let mut buffers = tree.take_buffers(threads);
    let shared: &Tree<S, Atomic> = tree;
    std::thread::scope(|scope| {
        for &seed in &seeds[1..] {
            let counters = &counters;
            scope.spawn(move || {
                let mut buffers = Buffers::new(threads);
                shared_worker(shared, counters, job, limit, seed, &mut buffers, None)
            });
        }
        shared_worker(
            shared,
            &counters,
            job,
            limit,
            seeds[0],
            &mut buffers,
            progress,
        );
    });
    tree.keep_buffers(buffers);
    (counters.finished.into_inner(), counters.depth.into_inner())
}

/// One thread of tree parallelism (see the module docs).
fn shared_worker<S: State, E: Evaluator<S>>(
    shared: &Tree<S, Atomic>,
    counters: &Counters,
    job: &Job<'_, S, E>,
    limit: u64,
    seed: u64,
    buffers: &mut Buffers<S::Move, Atomic>,
    mut progress: Option<Progress<'_, S, Atomic>>,
) {
    let mut rng = AgentRng::seed_from_u64(seed);
    let mut state = job.root.clone();
    let mut path = Vec::new();
    let mut scratch = Scratch::new();
    let mut next_report = FIRST_REPORT;
    let (mut finished, mut deepest) = (0u64, 0u32);
    'search: while !counters.stop.load(Ordering::Relaxed) {
        let first = counters.started.fetch_add(CLAIM, Ordering::Relaxed);
        for iteration in first..first + CLAIM {
            if iteration >= limit {
                // The other threads finish the iterations they claimed below the limit.
                break 'search;
            }
            if counters.stop.load(Ordering::Relaxed) {
                break 'search;
            }
            if job.done(shared.root_proof(), iteration, limit) {
                counters.stop.store(true, Ordering::Relaxed);
                break 'search;
            }
            state.clone_from(job.root);
            path.clear();
            let leaf = shared.select(
                &mut state,
                &mut rng,
                &mut path,
                buffers,
                &job.settings,
                job.eval,
            );
            let depth = path.len() as u32 - 1;
            if depth > deepest {
                deepest = depth;
                counters.depth.fetch_max(depth, Ordering::Relaxed);
            }
            let reward = job.leaf_value(leaf, &mut state, &mut rng, &mut scratch);
            shared.backup(&path, reward, &job.settings, buffers);
            finished += 1;
            // Other threads' visits not yet flushed are not counted: with tree
            // parallelism the early stop is approximate.
            if job.stops_early(shared, iteration + 1, limit) {
                counters.stop.store(true, Ordering::Relaxed);
                break 'search;
            }
            if finished % FLUSH_EVERY == 0 {
                shared.flush(buffers);
            }
            if let Some(report) = progress.as_mut() {
                // The iterations claimed so far, less those other threads claimed but
                // have not run (at most a claim each).
                let claimed = iteration + 1;
                if claimed >= next_report {
                    while next_report <= claimed {
                        next_report *= 2;
                    }
                    report(shared, claimed, counters.depth.load(Ordering::Relaxed));
                }
            }
        }
    }
    shared.flush(buffers);
    counters.finished.fetch_add(finished, Ordering::Relaxed);
}

/// Root parallelism over `trees` (one per seed; the calling thread searches the first
/// and reports its progress), `limit` iterations split evenly. Returns the iterations
/// run over all trees and the deepest leaf depth.
pub(crate) fn root_parallel<S: State, E: Evaluator<S>>(
    trees: &mut [Tree<S, Plain>],
    job: &Job<'_, S, E>,
    limit: u64,
    seeds: &[u64],
    progress: Option<Progress<'_, S, Plain>>,
) -> (u64, u32) {
    let n = trees.len() as u64;
    let share = |i: usize| limit / n + u64::from((i as u64) < limit % n);
    std::thread::scope(|scope| {
        let (first, rest) = trees.split_first_mut().expect("at least one tree");
        let handles: Vec<_> = rest
            .iter_mut()
            .enumerate()
            .map(|(i, tree)| {
                let (seed, limit) = (seeds[i + 1], share(i + 1));
                scope.spawn(move || {
                    driver::run(tree, job, limit, &mut AgentRng::seed_from_u64(seed), None)
                })
            })
            .collect();
        let mut rng = AgentRng::seed_from_u64(seeds[0]);
        let (mut iterations, mut depth) = driver::run(first, job, share(0), &mut rng, progress);
        for handle in handles {
            let (i, d) = handle.join().expect("a search thread panicked");
            iterations += i;
            depth = depth.max(d);
        }
        (iterations, depth)
    })
}
