//! A check that an evaluator's bounds, derived from its weights, hold at the extremes of
//! the weights' ranges: *-minimax (Star1, Star2) is exact only if every heuristic value
//! lies inside the bounds, and a tuner may move any weight to either end of its range.
//! The same walk checks the evaluator's promise that a position has no noisy moves.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::game::{sample_outcome, State, Turn};
use crate::weights::{flat_ranges, Tunable, Weights};

/// The weight settings tried: every weight at its minimum, every weight at its maximum,
/// and the two alternations of minimum and maximum (so that terms of opposite signs are
/// at their extremes together).
pub fn extreme_settings<W: Weights>() -> Vec<W> {
    let ranges = flat_ranges(W::SPECS);
    let pick = |choose: &dyn Fn(usize) -> bool| -> W {
        let flat: Vec<i32> = ranges
            .iter()
            .enumerate()
            .map(|(i, &(min, max))| if choose(i) { max } else { min })
            .collect();
        W::from_flat(&flat).expect("a range's ends are in range")
    };
    vec![
        pick(&|_| false),
        pick(&|_| true),
        pick(&|i| i % 2 == 0),
        pick(&|i| i % 2 == 1),
    ]
}

/// Plays `playouts` seeded random games from `start` and, with each of
/// [`extreme_settings`], checks at every unfinished node that the heuristic lies
/// strictly inside the evaluator's bounds and is antisymmetric between the seats, and at
/// every decision node that no legal move is noisy where
/// [`Evaluator::may_have_noisy_moves`](crate::Evaluator::may_have_noisy_moves) says none
/// may be. Returns the first violation, naming the weights, the ply and the value or
/// move.
pub fn check_evaluator_at_extreme_weights<S: State, E: Tunable<S>>(
    start: &S,
    playouts: usize,
    seed: u64,
) -> Result<(), String> {
    let evaluators: Vec<E> = extreme_settings::<E::Weights>()
        .into_iter()
        .map(E::with_weights)
        .collect();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut moves = Vec::new();
    for _ in 0..playouts {
        let mut s = start.clone();
        let mut ply = 0;
        while s.turn() != Turn::Over {
            for e in &evaluators {
                let (lo, hi) = e.bounds();
                let v = e.heuristic(&s, 0);
                if !(lo < v && v < hi) || v != -e.heuristic(&s, 1) {
                    return Err(format!(
                        "weights {:?}: heuristic {v} at ply {ply} (bounds {lo}..{hi}, \
                         other seat {})",
                        e.weights().flat(),
                        e.heuristic(&s, 1)
                    ));
                }
            }
            let m = if s.turn() == Turn::Chance {
                sample_outcome(&s, &mut rng)
            } else {
                moves.clear();
                s.legal_moves(&mut moves);
                for e in evaluators.iter().filter(|e| !e.may_have_noisy_moves(&s)) {
                    if let Some(&m) = moves.iter().find(|&&m| e.is_noisy(&s, m)) {
                        return Err(format!(
                            "weights {:?}: may_have_noisy_moves said no at ply {ply}, but \
                             {} is noisy",
                            e.weights().flat(),
                            s.format_move(m)
                        ));
                    }
                }
                moves[rng.random_range(0..moves.len())]
            };
            s.apply(m);
            ply += 1;
        }
    }
    Ok(())
}
