//! Search on Invector: `ab` against plain minimax on random positions of several boards,
//! `solve` against a plain memoised search on small boards, and the proven values of
//! the small boards, the 18-cell ones and 5×4, with and without the pie rule.

use crate::common;

use std::time::{Duration, Instant};

use agon_engine::games::invector::{Invector, InvectorEval, InvectorMove, InvectorState, MoveKind};
use agon_engine::{Evaluator, Game, Seat};
use agon_search::{
    Agent, AgentRng, Budget, SearchContext, SearchResult, SolveConfig, Solver, Value,
};
use common::*;
use rand::SeedableRng;

fn board(width: usize, height: usize, pie: bool) -> InvectorState {
    Invector::new(width, height, pie).unwrap().initial_state()
}

/// The initial position and `count - 1` positions after 1, 2, ... random decisions
/// (swap decisions included when the pie rule is on).
fn positions(width: usize, height: usize, pie: bool, count: u64) -> Vec<InvectorState> {
    let start = board(width, height, pie);
    let cells = (width * height) as u64;
    (0..count)
        .map(|i| random_position(&start, (i % (2 * cells)) as usize, &mut rng(i)))
        .collect()
}

/// Invector's evaluator with captures declared noisy, so that the differential tests
/// exercise quiescence on Invector too (the evaluator itself declares nothing noisy: see
/// its docs).
#[derive(Clone, Copy, Debug, Default)]
struct CapturesNoisy;

impl Evaluator<InvectorState> for CapturesNoisy {
    fn heuristic(&self, state: &InvectorState, seat: Seat) -> i32 {
        InvectorEval::default().heuristic(state, seat)
    }

    fn bounds(&self) -> (i32, i32) {
        InvectorEval::default().bounds()
    }

    fn is_noisy(&self, _state: &InvectorState, m: InvectorMove) -> bool {
        m.kind == MoveKind::Capture
    }
}

#[test]
fn ab_equals_minimax_on_random_invector_positions() {
    // (width, height, pie, deepest depth, positions, quiescence too): depths where plain
    // minimax stays quick; plain quiescence (every capture sequence, unpruned) only on
    // the small boards.
    let cases = [
        (4, 3, true, 3, 16, true),
        (4, 3, false, 4, 24, false),
        (3, 4, true, 3, 12, true),
        (3, 4, false, 4, 16, false),
        (5, 4, true, 3, 8, false),
        (5, 4, false, 3, 12, false),
        (6, 5, true, 3, 6, false),
        (8, 7, true, 2, 6, false),
        (8, 7, false, 3, 2, false),
    ];
    for (w, h, pie, depth, count, quiescence) in cases {
        let start = Instant::now();
        let positions = positions(w, h, pie, count);
        let checked = if quiescence {
            differential_with(&positions, &CapturesNoisy, 1..=depth, true)
        } else {
            differential_with(&positions, &InvectorEval::default(), 1..=depth, false)
        };
        let combinations = if quiescence { 64 } else { 32 };
        assert_eq!(
            checked as u64,
            combinations * u64::from(depth) * count,
            "{w}x{h} pie={pie}"
        );
        eprintln!("{w}x{h} pie={pie}: {:?}", start.elapsed());
    }
}

#[test]
fn solve_equals_memoised_search_on_small_boards() {
    for (w, h) in [(2, 1), (4, 1), (1, 4), (3, 2), (2, 3), (4, 3), (3, 4)] {
        for pie in [false, true] {
            cross_check(&positions(w, h, pie, 24), InvectorEval::default());
        }
    }
}

#[test]
fn two_solver_threads_equal_memoised_search_on_small_boards() {
    for (w, h) in [(3, 2), (2, 3), (4, 3)] {
        for pie in [false, true] {
            cross_check_threads(&positions(w, h, pie, 12), InvectorEval::default(), 2);
        }
    }
}

/// Solves `state` with a `hash_mb` table on `threads` threads, printing each iteration;
/// with `wdl` the result only (the solver's default), otherwise the exact distance.
fn solve(
    state: &InvectorState,
    hash_mb: usize,
    threads: usize,
    wdl: bool,
) -> (SearchResult<InvectorMove>, Duration) {
    let config = SolveConfig {
        budget: Budget::default(),
        hash_mb,
        threads,
        wdl,
    };
    let mut agent = Solver::new(InvectorEval::default(), config);
    let start = Instant::now();
    let result = agent.search(
        state,
        SearchContext::new(&mut AgentRng::seed_from_u64(0), &mut |i| {
            eprintln!(
                "  depth {} value {} nodes {} time {:?}",
                i.depth, i.value, i.nodes, i.time
            );
        }),
    );
    (result, start.elapsed())
}

/// Proves a board's value for the first player on one thread, checks it, and prints the
/// numbers for the record. `expected` is the exact value; with `wdl` only its result is
/// checked (win or loss, proven), since a `wdl` distance is an upper bound that depends
/// on the order of the search.
fn prove(width: usize, height: usize, pie: bool, hash_mb: usize, wdl: bool, expected: Value) {
    prove_with(width, height, pie, hash_mb, 1, wdl, expected);
}

/// [`prove`] on `threads` threads.
fn prove_with(
    width: usize,
    height: usize,
    pie: bool,
    hash_mb: usize,
    threads: usize,
    wdl: bool,
    expected: Value,
) {
    let (r, time) = solve(&board(width, height, pie), hash_mb, threads, wdl);
    eprintln!(
        "invector {width}x{height} pie={pie} wdl={wdl}, {threads} threads: {} for the first player, {} nodes, {:.2?}",
        r.value, r.nodes, time
    );
    let label = format!("{width}x{height} pie={pie} wdl={wdl}: {}", r.value);
    if wdl {
        assert!(r.value.is_proven(), "{label}");
        match (r.value, expected) {
            (Value::Win(n), Value::Win(exact)) | (Value::Loss(n), Value::Loss(exact)) => {
                assert!(n >= exact, "{label}: shorter than the exact {exact}")
            }
            _ => panic!("{label}: expected {expected}"),
        }
    } else {
        assert_eq!(r.value, expected, "{label}");
    }
}

/// The exact values of the boards small enough to prove in a test build within a
/// second or two, proven with exact distances and with the default `wdl` (those up to
/// 12 cells are also checked against a plain memoised search by
/// `solve_equals_memoised_search_on_small_boards`).
#[test]
fn solve_proves_small_boards() {
    let boards = [
        (2, 3, false, Value::Loss(6)),
        (2, 3, true, Value::Loss(6)),
        (3, 2, false, Value::Loss(6)),
        (3, 2, true, Value::Loss(6)),
        (4, 1, false, Value::Win(3)),
        (4, 1, true, Value::Loss(6)),
        (2, 5, false, Value::Win(11)),
        (2, 5, true, Value::Loss(14)),
        (5, 2, false, Value::Win(11)),
        (5, 2, true, Value::Loss(14)),
        (4, 3, false, Value::Loss(16)),
        (4, 3, true, Value::Loss(16)),
        (3, 4, false, Value::Loss(16)),
        (3, 4, true, Value::Loss(16)),
        (7, 2, false, Value::Win(17)),
        (7, 2, true, Value::Loss(24)),
        (2, 7, false, Value::Win(17)),
        (2, 7, true, Value::Loss(24)),
    ];
    for (w, h, pie, expected) in boards {
        for wdl in [false, true] {
            prove(w, h, pie, 64, wdl, expected);
        }
    }
}

#[test]
fn two_solver_threads_prove_invector_4x3() {
    // The same values as one thread: a proof is a proof, whichever thread completes it.
    for wdl in [false, true] {
        prove_with(4, 3, false, 64, 2, wdl, Value::Loss(16));
        prove_with(4, 3, true, 64, 2, wdl, Value::Loss(16));
    }
}

// The larger proofs need a large table and seconds to minutes of work in release (see
// `docs/solved.md` for the figures). Run them with
// `cargo test -p agon-search --release --test search -- --ignored --nocapture invector::`.

#[test]
#[ignore = "heavy proofs: seconds in release"]
fn solve_proves_18_cell_boards() {
    for (w, h) in [(6, 3), (3, 6)] {
        prove(w, h, false, 512, true, Value::Win(25));
        prove(w, h, true, 512, true, Value::Loss(30));
    }
}

#[test]
#[ignore = "heavy proof: seconds in release"]
fn solve_proves_invector_5x4_without_pie() {
    prove(5, 4, false, 512, true, Value::Win(25));
}

#[test]
#[ignore = "heavy proof: seconds in release"]
fn solve_proves_invector_5x4_with_pie() {
    // With the pie rule the second player can always take the winning side of the
    // first move (Invector has no draws), so the first player loses; the proof must
    // still settle every first move.
    prove(5, 4, true, 512, true, Value::Loss(30));
}

#[test]
#[ignore = "heavy proof: minutes in release"]
fn solve_proves_invector_5x4_exact_distances() {
    prove(5, 4, false, 512, false, Value::Win(25));
    prove(5, 4, true, 512, false, Value::Loss(30));
}
