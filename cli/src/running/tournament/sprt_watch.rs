//! The SPRT of a two-agent run followed row by row in game order.

use crate::record::GameRow;
use crate::reporting::stats::pentanomial::Pentanomial;
use crate::reporting::stats::sprt::{Decision, Sprt};

/// Whether `rows` (a two-agent run's first games, in order) already decide `sprt`: a run
/// that stopped there is finished.
pub fn sprt_decides(sprt: &Sprt, rows: &[GameRow]) -> bool {
    let mut watch = SprtWatch::new(sprt);
    rows.iter().any(|row| watch.add(row))
}

/// The SPRT of a two-agent run followed row by row in game order: agent A (seat 0 in
/// even games) scores each complete pair in half points (0 to 4), and the test decides
/// after each pair.
pub(super) struct SprtWatch<'a> {
    sprt: &'a Sprt,
    pairs: Pentanomial,
    /// A's half points in the pair's even game, waiting for the odd one.
    first_half: Option<usize>,
}

impl<'a> SprtWatch<'a> {
    pub(super) fn new(sprt: &'a Sprt) -> Self {
        SprtWatch {
            sprt,
            pairs: Pentanomial::default(),
            first_half: None,
        }
    }

    /// Counts the next row (rows come in game order); whether the test has decided.
    pub(super) fn add(&mut self, row: &GameRow) -> bool {
        let half = row.a_half_points();
        if row.game % 2 == 0 {
            self.first_half = Some(half);
            return false;
        }
        let Some(first) = self.first_half.take() else {
            return false;
        };
        self.pairs.add(first + half);
        self.sprt.decision(self.sprt.llr(&self.pairs)) != Decision::Continue
    }
}
