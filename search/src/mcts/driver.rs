//! The iteration loop of one thread on one tree (single-threaded search, and each
//! thread of root parallelism).

use agon_engine::{Evaluator, State};

use super::rollout::{self, Rollout, Scratch};
use super::tree::{Leaf, Proof, Settings, Stats, Tree};
use crate::agent::AgentRng;
use crate::budget::Clock;

/// How often (in iterations) a thread reads the clock: `Instant::now` costs about as
/// much as a short iteration, and 256 iterations take well under a millisecond on the
/// games here.
pub(crate) const CLOCK_EVERY: u64 = 256;

/// The first iteration count at which progress is reported; then every doubling.
pub(crate) const FIRST_REPORT: u64 = 256;

/// What every thread of one search shares, read-only.
pub(crate) struct Job<'a, S, E> {
    /// The position searched.
    pub(crate) root: &'a S,
    /// The evaluator, for `rollout=eval`, cut playouts and guidance.
    pub(crate) eval: &'a E,
    /// Selection and backup settings.
    pub(crate) settings: Settings,
    /// How leaves are valued.
    pub(crate) rollout: Rollout,
    /// Stop once the most visited root move can no longer be overtaken.
    pub(crate) early_stop: bool,
    /// The wall clock and its deadline, if any.
    pub(crate) clock: &'a Clock,
}

impl<S: State, E: Evaluator<S>> Job<'_, S, E> {
    /// Whether a thread that has run `iterations` of its `limit` must stop: the limit,
    /// the clock (read every [`CLOCK_EVERY`] iterations), or a proven root. Every
    /// search runs at least one iteration, so that the root has a move to play.
    /// `root_proof` is what is proven about the root.
    pub(crate) fn done(&self, root_proof: Proof, iterations: u64, limit: u64) -> bool {
        if iterations == 0 {
            return root_proof != Proof::Unknown && self.settings.solver;
        }
        iterations >= limit
            || (self.settings.solver && root_proof != Proof::Unknown)
            || (iterations % CLOCK_EVERY == 0 && self.clock.time_is_up())
    }

    /// Whether a search with [`Job::early_stop`] that has run `iterations` of its
    /// `limit` on `tree` may stop: looked at every [`EARLY_STOP_EVERY`] iterations.
    pub(crate) fn stops_early<St: Stats>(
        &self,
        tree: &Tree<S, St>,
        iterations: u64,
        limit: u64,
    ) -> bool {
        self.early_stop
            && iterations % EARLY_STOP_EVERY == 0
            && settled(tree, limit.saturating_sub(iterations))
    }

    /// The value of a leaf that selection left in `state`.
    #[inline]
    pub(crate) fn leaf_value(
        &self,
        leaf: Leaf,
        state: &mut S,
        rng: &mut AgentRng,
        scratch: &mut Scratch<S::Move>,
    ) -> f64 {
        match leaf {
            Leaf::Exact(reward) => reward,
            Leaf::Evaluate => rollout::evaluate(self.rollout, state, self.eval, rng, scratch),
        }
    }
}

/// How often (in iterations) a search with [`Job::early_stop`] looks at its root moves.
const EARLY_STOP_EVERY: u64 = 16;

/// Whether no root move of `tree` could pass the most visited one in `left` more
/// iterations: its lead in visits is larger than that (each iteration visits one root
/// move once). The move the search plays is the most visited one (among the moves not
/// proven lost), so further iterations would not change it unless a proof did.
fn settled<S: State, St: Stats>(tree: &Tree<S, St>, left: u64) -> bool {
    let (mut first, mut second) = (0u64, 0u64);
    for (_, child) in tree.children(0) {
        let v = u64::from(child.visits);
        if v > first {
            (first, second) = (v, first);
        } else if v > second {
            second = v;
        }
    }
    first > second + left
}

/// Progress callback: the tree so far, iterations done, deepest depth reached.
pub(crate) type Progress<'p, S, St> = &'p mut dyn FnMut(&Tree<S, St>, u64, u32);

/// Runs iterations on `tree` (one thread) until `job` says stop or `limit` iterations
/// are done; returns the iterations run and the deepest leaf depth (plies below the
/// root). `progress`, if given, is called at [`FIRST_REPORT`] iterations and every
/// doubling.
pub(crate) fn run<S: State, E: Evaluator<S>, St: Stats>(
    tree: &mut Tree<S, St>,
    job: &Job<'_, S, E>,
    limit: u64,
    rng: &mut AgentRng,
    mut progress: Option<Progress<'_, S, St>>,
) -> (u64, u32) {
    let mut buffers = tree.take_buffers(1);
    let mut state = job.root.clone();
    let mut path = Vec::new();
    let mut scratch = Scratch::new();
    let mut iterations = 0u64;
    let mut depth = 0u32;
    let mut next_report = FIRST_REPORT;
    let searched: &Tree<S, St> = tree;
    while !job.done(searched.root_proof(), iterations, limit) {
        state.clone_from(job.root);
        path.clear();
        let leaf = searched.select(
            &mut state,
            rng,
            &mut path,
            &mut buffers,
            &job.settings,
            job.eval,
        );
        depth = depth.max(path.len() as u32 - 1);
        let last = path.last().expect("a path holds the root");
        let reward = match leaf {
            // The evaluator's value of a node is already stored in it (the root's is
            // not, but it is a leaf only in an arena too small for one child).
            Leaf::Evaluate
                if job.rollout == Rollout::Eval
                    && job.settings.guide.is_on()
                    && last.index != 0 =>
            {
                Tree::<S, St>::stored_heuristic(last.node())
            }
            _ => job.leaf_value(leaf, &mut state, rng, &mut scratch),
        };
        searched.backup(&path, reward, &job.settings, &mut buffers);
        iterations += 1;
        if job.stops_early(searched, iterations, limit) {
            break;
        }
        if iterations == next_report {
            next_report *= 2;
            if let Some(report) = progress.as_mut() {
                report(searched, iterations, depth);
            }
        }
    }
    searched.flush(&mut buffers);
    drop(path);
    tree.keep_buffers(buffers);
    (iterations, depth)
}
