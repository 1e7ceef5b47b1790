//! Search budgets: by depth, by nodes (or iterations), or by wall time.

use std::time::{Duration, Instant};

/// Limits of one search. Several may be set; the search stops at the first one reached.
/// Depth and node limits give reproducible searches; a time limit does not.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    /// Deepest iteration to run.
    pub depth: Option<u32>,
    /// Nodes (MCTS: iterations) after which to stop.
    pub nodes: Option<u64>,
    /// Wall time after which to stop.
    pub time: Option<Duration>,
}

/// Watches a running search against its [`Budget`].
#[derive(Clone, Debug)]
pub struct Clock {
    start: Instant,
    deadline: Option<Instant>,
    node_limit: u64,
}

impl Clock {
    /// Starts the clock for `budget` now.
    pub fn start(budget: &Budget) -> Clock {
        let start = Instant::now();
        Clock {
            start,
            deadline: budget.time.map(|t| start + t),
            node_limit: budget.nodes.unwrap_or(u64::MAX),
        }
    }

    /// Time since the start.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Whether the wall-time limit, if any, has passed (reads the clock every time: for
    /// decisions between iterations, not per node).
    pub fn time_is_up(&self) -> bool {
        self.deadline
            .is_some_and(|deadline| Instant::now() >= deadline)
    }

    /// Whether a search that has visited `nodes` must stop. Reads the clock only every
    /// 1,024 nodes, since `Instant::now` costs about as much as a node.
    #[inline]
    pub fn out_of_budget(&self, nodes: u64) -> bool {
        if nodes >= self.node_limit {
            return true;
        }
        match self.deadline {
            Some(deadline) if nodes % 1024 == 0 => Instant::now() >= deadline,
            _ => false,
        }
    }
}
