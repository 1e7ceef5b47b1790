//! Evaluator guidance of selection: progressive bias (Chaslot, Winands, van den Herik,
//! Uiterwijk and Bouzy 2008, "Progressive strategies for Monte-Carlo tree search") and
//! implicit minimax backups (Lanctot, Winands, Pepels and Sturtevant 2014, "Monte Carlo
//! tree search with heuristic evaluations using implicit minimax backups").
//!
//! # The stored heuristic
//!
//! With either on, every node created gets `H`, the evaluator's value of its position
//! scaled into [-1, 1] as `rollout=eval` scales it (over the upper of the evaluator's
//! bounds; a finished game scores its exact outcome), computed once at its creation
//! and kept in the node as an `i16` fixed point ([`ONE`]), so that a node stays the
//! size it was. Like the rewards, it is from seat 0's view; the seat choosing reads it
//! with its sign.
//!
//! # Progressive bias (`bias=W`)
//!
//! A decision node's child scores `W · H / (n + 1)` on top of its UCT score (`n` its
//! visits): the heuristic steers the first visits and fades as the statistics grow.
//! Chance nodes sample by weight and take no bias.
//!
//! # Implicit minimax backups (`minimax=α`)
//!
//! Each node also keeps `v_τ`: `H` at its creation; after every backup through it, a
//! decision node's is the best of its children's for its seat (the sign follows the
//! seat, so two consecutive decisions of one seat need nothing special) and a chance
//! node's the mean of its born outcomes' weighted by their probabilities, renormalised
//! over those born. A node the solver proved takes its proven reward instead. Selection
//! replaces a child's mean reward by `(1 - α) · mean + α · v_τ`; the move played is
//! still the most visited root child, as without guidance.
//!
//! With `rollout=eval`, a new leaf's value is its stored heuristic (the driver reads
//! it rather than calling the evaluator twice), within the fixed point's resolution.
//!
//! Neither is on by default: implicit minimax backups pay with `rollout=eval` and not
//! with random playouts, whose ±1 rewards dwarf the scaled evaluation, and progressive
//! bias has not measured above noise (`docs/decisions.md`).

use std::sync::atomic::Ordering;

use agon_engine::{Evaluator, Seat, State};

use super::stats::{GuideCell, Stats, Word};
use super::{sign, Node, Proof, Tree, CHANCE, NO_ROOM, UNBORN};
use crate::mcts::rollout::eval_leaf;

/// The fixed point of a node's stored heuristic and `v_τ`: `v` in [-1, 1] is
/// stored as `round(v · ONE)`, a resolution of about 3·10⁻⁵.
const ONE: f64 = i16::MAX as f64;

/// `value` (in [-1, 1]) in the nodes' fixed point.
pub(crate) fn encode(value: f64) -> i16 {
    (value.clamp(-1.0, 1.0) * ONE).round() as i16
}

/// A fixed-point value back in [-1, 1].
pub(crate) fn decode(value: i16) -> f64 {
    f64::from(value) / ONE
}

/// The weights of the two guidance terms (both 0, the default: no guidance, the plain
/// UCT search).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Guide {
    /// Progressive bias `W` (≥ 0; 0 is off).
    pub bias: f64,
    /// Implicit minimax weight `α` in [0, 1] (0 is off).
    pub minimax: f64,
}

impl Guide {
    /// Whether either term is on, so that new nodes need their heuristic.
    #[inline]
    pub(crate) fn is_on(&self) -> bool {
        self.bias > 0.0 || self.minimax > 0.0
    }

    /// The guided UCT score of a visited child (`visits`, `total` its rewards from seat
    /// 0's view, `heuristic` and `minimax` in the fixed point) for the seat of sign `s`
    /// (+1 seat 0, -1 seat 1), given its exploration term.
    #[inline]
    pub(crate) fn score(
        &self,
        visits: u32,
        total: f64,
        heuristic: i16,
        minimax: i16,
        s: f64,
        explore: f64,
    ) -> f64 {
        let visits = f64::from(visits);
        let mean = s * total / visits;
        let value = if self.minimax > 0.0 {
            (1.0 - self.minimax) * mean + self.minimax * s * decode(minimax)
        } else {
            mean
        };
        value + explore + self.bias * s * decode(heuristic) / (visits + 1.0)
    }
}

impl<S: State, St: Stats> Tree<S, St> {
    /// Gives the new node `c` (whose position is `state`) its heuristic and its first
    /// `v_τ`, if guidance is on.
    #[inline]
    pub(super) fn guide_new<E: Evaluator<S>>(
        &self,
        c: &Node<S::Move, St>,
        state: &S,
        set: &super::Settings,
        eval: &E,
    ) {
        if set.guide.is_on() {
            let h = encode(eval_leaf(state, eval));
            c.guide.set(h, h);
        }
    }

    /// The heuristic stored in `n` at its creation, in [-1, 1] (seat 0's view): with
    /// `rollout=eval`, its leaf value, so that a new leaf is evaluated once.
    pub(crate) fn stored_heuristic(n: &Node<S::Move, St>) -> f64 {
        decode(n.guide.get().0)
    }

    /// Recomputes `n`'s `v_τ` from its children's (see the module docs) after a backup
    /// through its child `child`, whose `v_τ` was `before` (`None`: `child` is new) and
    /// is the only one that changed. A proven node's is its proven reward.
    ///
    /// A decision node's maximum is updated from the one child that changed, and its
    /// children rescanned only when that child held the maximum and fell: a scan of
    /// every child at every node of every path would cost more than the rest of an
    /// iteration in a game with many moves and evaluator leaves.
    pub(super) fn back_up_minimax(
        &self,
        n: &Node<S::Move, St>,
        child: &Node<S::Move, St>,
        before: Option<i16>,
    ) {
        let word = n.state.load(Ordering::Acquire);
        let (proof, _) = super::proof_in(word);
        let actor = super::actor_in(word);
        let (heuristic, minimax) = n.guide.get();
        if proof != Proof::Unknown {
            n.guide.set(heuristic, encode(proof.reward()));
            return;
        }
        if actor == CHANCE {
            if let Some(v) = self.chance_minimax(n) {
                n.guide.set(heuristic, encode(v));
            }
            return;
        }
        // Values for the seat to move, in the fixed point.
        let s = |v: i16| {
            if actor == 0 {
                i32::from(v)
            } else {
                -i32::from(v)
            }
        };
        let child_minimax = child.guide.get().1;
        let (current, now) = (s(minimax), s(child_minimax));
        let raised = match before {
            // A new child: the node's value was its other children's maximum, or its own
            // heuristic if it had none.
            None => n.shape.load(Ordering::Relaxed) >> 16 == 1 || now > current,
            Some(old) => {
                if now < current && s(old) == current {
                    n.guide.set(heuristic, self.best_minimax(n, actor as Seat));
                    return;
                }
                now >= current
            }
        };
        if raised {
            n.guide.set(heuristic, child_minimax);
        }
    }

    /// The best `v_τ` among the born children of decision node `n`, for its `seat`.
    fn best_minimax(&self, n: &Node<S::Move, St>, seat: Seat) -> i16 {
        let s = sign(seat);
        let mut best = f64::NEG_INFINITY;
        for c in self.run_of(n) {
            if c.actor() < UNBORN {
                best = best.max(s * decode(c.guide.get().1));
            }
        }
        encode(s * best)
    }

    /// The probability-weighted mean of the born outcomes' `v_τ` of chance node `n`
    /// (renormalised over them), or `None` if none is born.
    fn chance_minimax(&self, n: &Node<S::Move, St>) -> Option<f64> {
        let (mut sum, mut weights, mut previous) = (0.0, 0u64, 0u32);
        for c in self.run_of(n) {
            let cumulative = c.weight.load(Ordering::Relaxed);
            let weight = cumulative - previous;
            previous = cumulative;
            if c.actor() < UNBORN {
                sum += f64::from(weight) * decode(c.guide.get().1);
                weights += u64::from(weight);
            }
        }
        (weights > 0).then(|| sum / weights as f64)
    }

    /// `n`'s run of children (empty if not allotted).
    fn run_of(&self, n: &Node<S::Move, St>) -> &[Node<S::Move, St>] {
        let start = n.children.load(Ordering::Acquire);
        if start < NO_ROOM {
            self.arena().run(start, n.len())
        } else {
            &[]
        }
    }
}

#[cfg(test)]
mod tests;
