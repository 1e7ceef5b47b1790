//! Games whose end depends on the path (a repetition rule), on Tug (`common/tug.rs`):
//! `ab` (and so `solve`) never stores a value that depended on a repetition, so a
//! position searched after the same position on another path gets its own value. Plain
//! minimax, which keeps no table and follows each path's own history, is the reference.
//! (The chance agents' table keeps values within one search only, so none crosses from
//! one path's search to another's.)
//!
//! What the table still cannot see (the graph-history interaction every engine with a
//! table and a repetition rule has): an entry stored on a path where no repetition was
//! within reach, probed on a path where one is, even within one search. The module docs
//! of `alphabeta` say so; these tests assert only where no such entry can exist.

use crate::common;

use agon_engine::State;
use agon_search::{Agent, AgentRng, AlphaBeta, SearchContext};
use common::tug::*;
use common::*;
use rand::SeedableRng;

/// The same position (cell and mover of `s`) with no history but its own occurrence.
fn without_history(s: &Tug) -> Tug {
    let mut fresh = s.clone();
    fresh.seen = [0; 2 * (LENGTH as usize + 1)];
    fresh.seen[2 * s.cell as usize + s.mover] = 1;
    fresh
}

/// Positions after up to 30 random steps from the start, each with its own history,
/// where some step leads to a position already seen twice (a repetition loss).
fn positions_near_a_repetition() -> Vec<Tug> {
    let positions: Vec<Tug> = (0..400)
        .map(|seed| random_position(&Tug::default(), (seed % 31) as usize, &mut rng(seed)))
        .filter(|p| p.outcome().is_none())
        .filter(|p| {
            [p.cell - 1, p.cell + 1]
                .iter()
                .any(|&c| p.seen[2 * c as usize + 1 - p.mover] == 2)
        })
        .collect();
    assert!(positions.len() >= 30, "{} positions", positions.len());
    positions
}

/// Depths at which a search from a position without history cannot meet a
/// repetition: a position's third occurrence is at the fourth ply at the earliest.
const BEFORE_ANY_REPETITION: std::ops::RangeInclusive<u32> = 1..=3;

#[test]
fn ab_values_that_met_a_repetition_are_not_reused_on_another_path() {
    // A fresh agent searches each position, then the same position without its
    // history. The second search cannot meet a repetition itself, so it must equal
    // minimax unless the first search left a value in the table that a repetition
    // decided (without the rule that forbids storing those, 13 of them go wrong).
    let mut rng = AgentRng::seed_from_u64(0);
    let mut differed = 0;
    for depth in BEFORE_ANY_REPETITION {
        for (i, p) in positions_near_a_repetition().iter().enumerate() {
            let mut agent = AlphaBeta::new(TugEval, fixed_depth(depth));
            // Not asserted: a search that can meet a repetition can also meet the
            // graph-history interaction.
            agent.search(p, SearchContext::new(&mut rng, &mut |_| {}));
            let with_history = minimax(&mut p.clone(), &TugEval, depth, 0, false);
            let fresh = without_history(p);
            let expected = minimax(&mut fresh.clone(), &TugEval, depth, 0, false);
            let r = agent.search(&fresh, SearchContext::new(&mut rng, &mut |_| {}));
            assert_eq!(
                value_score(r.value),
                expected,
                "position {i} ({fresh}) depth {depth}"
            );
            differed += usize::from(with_history != expected);
        }
    }
    assert!(differed >= 20, "history changed only {differed} values");
}
