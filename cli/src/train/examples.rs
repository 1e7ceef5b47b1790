//! The training examples of `agon train`: sampled positions as the network reads them,
//! each with its label.
//!
//! The positions are `agon tune`'s ([`crate::tune::sample`]: quiet decision positions
//! after the opening, at most a dozen a game, every fifth game held out for
//! validation), and on a game with chance its chance nodes too, seen by seat 0 as the
//! network sees them (a search's horizon often falls just after a move, at a roll or a
//! draw). Each is labelled
//!
//! `target = blend × result + (1 − blend) × teacher`
//!
//! where `result` is the game's result for the viewer (1, ½, 0) and `teacher` the
//! teacher search's value of the position as an expected result (at a chance node, the
//! mean over its outcomes of the teacher's values after them): a proven win 1, loss
//! 0, draw ½; a heuristic score `s` becomes `sigmoid(K × s / 100)` with the `K` that
//! best predicts the training positions' results from the teacher's scores (Texel's
//! scaling, [`crate::tune::fit::fit_k`]); an MCTS reward `r` becomes `(r + 1) / 2`.
//! Results alone are noisy (one game decides a dozen positions), a shallow search's
//! values alone repeat the linear evaluator's mistakes; the blend takes both.
//!
//! Every teacher search is a fresh agent seeded from the position's index, so the
//! labels are the same at any thread count.

use agon_engine::network::Shape;
use agon_engine::{Encode, Encoding, Evaluator, Outcome, State, Turn};
use agon_search::{AgentRng, SearchContext, Value};
use anyhow::Result;
use indicatif::ProgressBar;
use rayon::prelude::*;

use crate::games::PlayableGame;
use crate::seeds;
use crate::spec::AgentSpec;
use crate::tune::fit::fit_k;
use crate::tune::linear::{sigmoid, SCALE};
use crate::tune::sample::Position;

/// Positions as the network reads them, with labels.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Examples {
    /// Every example's features: the mover's view, then the other seat's.
    features: Vec<u32>,
    /// Per example: where its mover's features start, where the other seat's start, and
    /// where they end, in `features`.
    spans: Vec<(usize, usize, usize)>,
    /// Per example, its `scalars` scaled to `0..=1`, `scalars` at a time.
    scalars: Vec<f32>,
    /// Scalars per example.
    width: usize,
    /// Per example, the linear evaluator's value for the mover (evaluator units).
    linear: Vec<f32>,
    /// Per example, its label.
    pub targets: Vec<f32>,
}

impl Examples {
    /// How many there are.
    pub fn len(&self) -> usize {
        self.targets.len()
    }

    /// The mover's features, the other seat's, the scaled scalars and the linear
    /// evaluator's value of example `i`.
    pub fn get(&self, i: usize) -> (&[u32], &[u32], &[f32], f32) {
        let (a, b, c) = self.spans[i];
        (
            &self.features[a..b],
            &self.features[b..c],
            &self.scalars[i * self.width..][..self.width],
            self.linear[i],
        )
    }

    /// Adds `state` (the seat to move decides), whose linear value for the mover is
    /// `linear`, with label `target`.
    fn push<S: Encode>(&mut self, state: &S, seat: usize, max: &[i32], linear: f32, target: f32) {
        let start = self.features.len();
        state.features(seat, &mut self.features);
        let mid = self.features.len();
        state.features(1 - seat, &mut self.features);
        self.spans.push((start, mid, self.features.len()));
        let mut raw = Vec::with_capacity(max.len());
        state.scalars(seat, &mut raw);
        self.scalars
            .extend(raw.iter().zip(max).map(|(&s, &m)| s as f32 / m as f32));
        self.width = max.len();
        self.linear.push(linear);
        self.targets.push(target);
    }
}

/// The labelled examples of one split, and the teacher's own predictions of them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Labelled {
    /// The examples.
    pub examples: Examples,
    /// The teacher's expected result of each, as a probability.
    pub teacher: Vec<f32>,
    /// The game's result of each for the seat to move (1, ½, 0).
    pub results: Vec<f32>,
}

/// What labelling found.
#[derive(Clone, Debug, PartialEq)]
pub struct Labels {
    /// The training examples.
    pub train: Labelled,
    /// The validation examples (held-out games).
    pub validation: Labelled,
    /// Texel's `K` for the teacher's scores.
    pub k: f64,
    /// Texel's `K` for the linear evaluator's own values: the network's weight on them
    /// is `static_k / 100` logits per unit.
    pub static_k: f64,
}

/// The network's sizes for `encoding` with the given widths.
pub fn shape(encoding: &Encoding, hidden: usize, dense: usize) -> Shape {
    Shape {
        features: encoding.features() as usize,
        scalars: encoding.scalars.len(),
        hidden,
        dense,
    }
}

/// Labels `train` and `validation` (positions of `G`) as the module docs say, running
/// `teacher` on each (in parallel on the current rayon pool, the results independent of
/// it); `bar` counts the positions searched.
pub fn label<G: PlayableGame>(
    train: &[Position<G::State>],
    validation: &[Position<G::State>],
    teacher: &AgentSpec,
    blend: f64,
    seed: u64,
    bar: &ProgressBar,
) -> Result<Labels> {
    let all: Vec<&Position<G::State>> = train.iter().chain(validation).collect();
    bar.set_length(all.len() as u64);
    bar.set_message("teacher searches");
    let values = all
        .par_iter()
        .enumerate()
        .map(|(i, p)| {
            let mut rng = seeds::agent_rng(seed, i as u64, 0);
            let parts = teacher_values::<G>(teacher, &p.state, 1.0, &mut rng)?;
            bar.inc(1);
            Ok(parts)
        })
        .collect::<Result<Vec<Vec<Part>>>>()?;
    // K from the decision positions' heuristic scores.
    let (scores, results): (Vec<f64>, Vec<f64>) = values[..train.len()]
        .iter()
        .zip(train)
        .filter_map(|(parts, p)| match parts.as_slice() {
            [Part {
                value: Value::Score(s),
                ..
            }] => Some((*s, p.target)),
            _ => None,
        })
        .unzip();
    let k = fit_k(&scores, &results);
    let expected = |parts: &Vec<Part>| {
        parts
            .iter()
            .map(|part| {
                let p = match part.value {
                    Value::Score(s) => sigmoid(k * s / SCALE),
                    Value::Reward(r) => (r + 1.0) / 2.0,
                    Value::Win(_) => 1.0,
                    Value::Loss(_) => 0.0,
                    Value::Draw => 0.5,
                };
                part.weight * if part.flip { 1.0 - p } else { p }
            })
            .sum::<f64>()
    };
    let linear = G::Eval::default();
    let static_values: Vec<f64> = all
        .iter()
        .map(|p| f64::from(linear.heuristic(&p.state, p.seat)))
        .collect();
    let results: Vec<f64> = train.iter().map(|p| p.target).collect();
    let static_k = fit_k(&static_values[..train.len()], &results);
    let max: Vec<i32> = match all.first() {
        Some(p) => p.state.encoding().scalars.iter().map(|s| s.max).collect(),
        None => Vec::new(),
    };
    let split = |positions: &[Position<G::State>], values: &[Vec<Part>], statics: &[f64]| {
        let mut out = Labelled::default();
        for ((p, v), &e) in positions.iter().zip(values).zip(statics) {
            let teacher = expected(v);
            let target = blend * p.target + (1.0 - blend) * teacher;
            out.examples
                .push(&p.state, p.seat, &max, e as f32, target as f32);
            out.teacher.push(teacher as f32);
            out.results.push(p.target as f32);
        }
        out
    };
    Ok(Labels {
        train: split(train, &values[..train.len()], &static_values[..train.len()]),
        validation: split(
            validation,
            &values[train.len()..],
            &static_values[train.len()..],
        ),
        k,
        static_k,
    })
}

/// One part of the teacher's value of a position: at a decision, the whole of it; at a
/// chance node, one outcome's share.
#[derive(Clone, Debug, PartialEq)]
struct Part {
    /// The share (the outcome's probability along the way from the position).
    weight: f64,
    /// The value, from the view of the seat that decides there (seat 0's at a
    /// finished game).
    value: Value,
    /// Whether that seat is not the position's viewer, so the value counts reversed.
    flip: bool,
}

/// The teacher's value of `state` as [`Part`]s for its viewer (the seat to decide, seat
/// 0 at a chance node), each share scaled by `weight`: a decision is searched; a chance
/// node is the weighted sum over its outcomes of their values (a finished game counts
/// its result), so that chance positions are labelled as a search would score them.
fn teacher_values<G: PlayableGame>(
    teacher: &AgentSpec,
    state: &G::State,
    weight: f64,
    rng: &mut AgentRng,
) -> Result<Vec<Part>> {
    match state.turn() {
        Turn::Seat(_) => {
            let mut agent = G::build_agent(teacher, state)?;
            let result = agent.search(state, SearchContext::new(rng, &mut |_| {}));
            Ok(vec![Part {
                weight,
                value: result.value,
                flip: false,
            }])
        }
        Turn::Over => {
            let value = match state.outcome() {
                Some(Outcome::Win(0)) => Value::Win(0),
                Some(Outcome::Win(_)) => Value::Loss(0),
                _ => Value::Draw,
            };
            Ok(vec![Part {
                weight,
                value,
                flip: false,
            }])
        }
        Turn::Chance => {
            let mut outcomes = Vec::new();
            state.chance_outcomes(&mut outcomes);
            let total: u64 = outcomes.iter().map(|&(_, w)| u64::from(w)).sum();
            let mut parts = Vec::new();
            for (o, w) in outcomes {
                let mut child = state.clone();
                child.apply(o);
                let share = weight * f64::from(w) / total as f64;
                let decider = match child.turn() {
                    Turn::Seat(s) => s,
                    Turn::Chance | Turn::Over => 0,
                };
                for mut part in teacher_values::<G>(teacher, &child, share, rng)? {
                    part.flip ^= decider != 0;
                    parts.push(part);
                }
            }
            Ok(parts)
        }
    }
}

/// The default teacher on `game`: alpha-beta at depth 2 with a small table, or
/// expectimax at depth 2 on a game with chance.
pub fn default_teacher<S: State>() -> &'static str {
    if agon_engine::has_chance::<S>() {
        "expectimax:depth=2,hash=1"
    } else {
        "ab:depth=2,hash=1"
    }
}

#[cfg(test)]
mod tests {
    use agon_engine::Game;

    use super::*;

    #[test]
    fn an_example_keeps_both_views_and_scaled_scalars() {
        let game = agon_engine::games::pig::Pig::default();
        let state = game.initial_state();
        let mut examples = Examples::default();
        let max: Vec<i32> = state.encoding().scalars.iter().map(|s| s.max).collect();
        examples.push(&state, 0, &max, 12.0, 0.75);
        let (mine, theirs, scalars, linear) = examples.get(0);
        assert_eq!(linear, 12.0);
        let (mut want_mine, mut want_theirs, mut raw) = (Vec::new(), Vec::new(), Vec::new());
        state.features(0, &mut want_mine);
        state.features(1, &mut want_theirs);
        state.scalars(0, &mut raw);
        assert_eq!((mine, theirs), (&want_mine[..], &want_theirs[..]));
        let want: Vec<f32> = raw
            .iter()
            .zip(&max)
            .map(|(&s, &m)| s as f32 / m as f32)
            .collect();
        assert_eq!(scalars, &want[..]);
        assert_eq!(examples.targets, [0.75]);
    }
}
