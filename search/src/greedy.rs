//! The `greedy` agent: the best evaluation one decision ahead.
//!
//! Each legal move is scored by the evaluator from the mover's own view (never negated:
//! the next decision may be the same seat's). If a move leads to a chance node, its
//! score is the weighted average of the evaluations after each outcome, an exact
//! fraction `Σ w·v / Σ w`; fractions are compared exactly (no floating point decides a
//! move), and an outcome that leads to a further chance node is evaluated there (the
//! evaluator works at any node). Equal best scores are broken uniformly at random with
//! the agent's generator, so a fixed seed gives a fixed game.

use std::cmp::Ordering;

use agon_engine::{Evaluator, Seat, State, Turn};
use rand::Rng;

use crate::agent::{Agent, SearchContext, SearchResult, Value};
use crate::budget::{Budget, Clock};
use crate::score::finished_value;

/// An exact score: `num / den` with `den > 0`. Both fit an `i128` with room to spare:
/// `|num| < 2³¹ · Σ w` and `Σ w < 2³² · max_moves`.
#[derive(Clone, Copy, Debug)]
struct Fraction {
    num: i128,
    den: i128,
}

impl Fraction {
    fn cmp(self, other: Fraction) -> Ordering {
        compare_fractions(self.num, self.den, other.num, other.den)
    }

    fn to_f64(self) -> f64 {
        self.num as f64 / self.den as f64
    }
}

/// Compares `a / b` with `c / d` (`b, d > 0`) exactly and without overflow: whole parts
/// first, then the fractional parts by comparing their reciprocals (Euclid's algorithm,
/// so it ends after a logarithmic number of steps).
fn compare_fractions(a: i128, b: i128, c: i128, d: i128) -> Ordering {
    let (qa, ra) = (a.div_euclid(b), a.rem_euclid(b));
    let (qc, rc) = (c.div_euclid(d), c.rem_euclid(d));
    match qa.cmp(&qc) {
        Ordering::Equal => match (ra, rc) {
            (0, 0) => Ordering::Equal,
            (0, _) => Ordering::Less,
            (_, 0) => Ordering::Greater,
            // ra/b < rc/d  ⇔  d/rc < b/ra.
            _ => compare_fractions(d, rc, b, ra),
        },
        order => order,
    }
}

/// Best evaluation one decision ahead, ties broken at random (see the module docs).
#[derive(Clone, Debug)]
pub struct Greedy<S: State, E> {
    eval: E,
    /// Reused buffers: the root's moves, the best-scoring ones, chance outcomes.
    moves: Vec<S::Move>,
    ties: Vec<S::Move>,
    outcomes: Vec<(S::Move, u32)>,
}

impl<S: State, E: Evaluator<S>> Greedy<S, E> {
    /// A new greedy agent scoring with `eval`.
    pub fn new(eval: E) -> Self {
        Greedy {
            eval,
            moves: Vec::new(),
            ties: Vec::new(),
            outcomes: Vec::new(),
        }
    }

    /// The score of `state` for `seat`: its evaluation, or at a chance node the
    /// weighted average over the outcomes. Counts the nodes it evaluates.
    fn score(&mut self, state: &mut S, seat: Seat, nodes: &mut u64) -> Fraction {
        if state.turn() != Turn::Chance {
            return Fraction {
                num: i128::from(self.eval.evaluate(state, seat)),
                den: 1,
            };
        }
        self.outcomes.clear();
        state.chance_outcomes(&mut self.outcomes);
        let (mut num, mut den) = (0i128, 0i128);
        for &(outcome, weight) in &self.outcomes {
            let undo = state.apply(outcome);
            *nodes += 1;
            num += i128::from(weight) * i128::from(self.eval.evaluate(state, seat));
            den += i128::from(weight);
            state.undo(undo);
        }
        Fraction { num, den }
    }
}

impl<S: State, E: Evaluator<S>> Agent<S> for Greedy<S, E> {
    fn search(&mut self, state: &S, ctx: SearchContext<'_, S::Move>) -> SearchResult<S::Move> {
        let rng = ctx.rng;
        let clock = Clock::start(&Budget::default());
        let mut nodes = 1;
        let mut work = state.clone();
        let (best, value) = match state.turn() {
            Turn::Over => {
                let outcome = state.outcome().expect("a finished game has an outcome");
                (None, finished_value(outcome, 0))
            }
            // Nobody decides: the expected evaluation from seat 0's view.
            Turn::Chance => (
                None,
                Value::Score(self.score(&mut work, 0, &mut nodes).to_f64()),
            ),
            Turn::Seat(mover) => {
                let mut moves = std::mem::take(&mut self.moves);
                moves.clear();
                state.legal_moves(&mut moves);
                self.ties.clear();
                let mut best: Option<Fraction> = None;
                for &m in &moves {
                    let undo = work.apply(m);
                    nodes += 1;
                    let score = self.score(&mut work, mover, &mut nodes);
                    work.undo(undo);
                    match best.map(|b| score.cmp(b)) {
                        Some(Ordering::Less) => {}
                        Some(Ordering::Equal) => self.ties.push(m),
                        None | Some(Ordering::Greater) => {
                            best = Some(score);
                            self.ties.clear();
                            self.ties.push(m);
                        }
                    }
                }
                self.moves = moves;
                let pick = match self.ties.len() {
                    1 => self.ties[0],
                    n => self.ties[rng.random_range(0..n)],
                };
                let best = best.expect("a decision node has legal moves");
                (Some(pick), Value::Score(best.to_f64()))
            }
        };
        SearchResult {
            best,
            value,
            depth: u32::from(best.is_some()),
            nodes,
            time: clock.elapsed(),
            pv: best.into_iter().collect(),
            tt_hits: 0,
            memory_full: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fractions_compare_exactly() {
        use Ordering::*;
        assert_eq!(compare_fractions(1, 3, 2, 6), Equal);
        assert_eq!(compare_fractions(-1, 3, -2, 6), Equal);
        assert_eq!(compare_fractions(1, 3, 1, 2), Less);
        assert_eq!(compare_fractions(-1, 3, -1, 2), Greater);
        assert_eq!(compare_fractions(7, 1, 13, 2), Greater);
        // Differ only far beyond f64 precision.
        let big = 1i128 << 100;
        assert_eq!(compare_fractions(big + 1, big, big + 2, big + 1), Greater);
        assert_eq!(compare_fractions(big, big + 1, big - 1, big), Greater);
        assert_eq!(compare_fractions(0, 5, 0, 1), Equal);
    }
}
