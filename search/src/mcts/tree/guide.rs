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

use agon_engine::{Evaluator, Seat, State};

use super::{sign, Node, Proof, Tree, CHANCE, NONE, UNBORN};
use crate::mcts::rollout::eval_leaf;

/// The fixed point of [`Node::heuristic`] and [`Node::minimax`]: `v` in [-1, 1] is
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

    /// The guided UCT score of visited child `c` for the seat of sign `s` (+1 seat 0,
    /// -1 seat 1), given its exploration term.
    #[inline]
    pub(crate) fn score<M>(&self, c: &Node<M>, s: f64, explore: f64) -> f64 {
        let visits = f64::from(c.visits);
        let mean = s * c.total / visits;
        let value = if self.minimax > 0.0 {
            (1.0 - self.minimax) * mean + self.minimax * s * decode(c.minimax)
        } else {
            mean
        };
        value + explore + self.bias * s * decode(c.heuristic) / (visits + 1.0)
    }
}

impl<S: State> Tree<S> {
    /// Gives the new node `child` (whose position is `state`) its heuristic and its
    /// first `v_τ`, if guidance is on.
    #[inline]
    pub(super) fn guide_new<E: Evaluator<S>>(
        &mut self,
        child: u32,
        state: &S,
        set: &super::Settings,
        eval: &E,
    ) {
        if set.guide.is_on() {
            let h = encode(eval_leaf(state, eval));
            let c = &mut self.nodes[child as usize];
            c.heuristic = h;
            c.minimax = h;
        }
    }

    /// The heuristic stored in `node` at its creation, in [-1, 1] (seat 0's view): with
    /// `rollout=eval`, its leaf value, so that a new leaf is evaluated once.
    pub(crate) fn stored_heuristic(&self, node: u32) -> f64 {
        decode(self.nodes[node as usize].heuristic)
    }

    /// Recomputes `node`'s `v_τ` from its children's (see the module docs) after a
    /// backup through its child `child`, whose `v_τ` was `before` (`None`: `child` is
    /// new) and is the only one that changed. A proven node's is its proven reward.
    ///
    /// A decision node's maximum is updated from the one child that changed, and its
    /// children rescanned only when that child held the maximum and fell: a scan of
    /// every child at every node of every path would cost more than the rest of an
    /// iteration in a game with many moves and evaluator leaves.
    pub(super) fn back_up_minimax(&mut self, node: u32, child: u32, before: Option<i16>) {
        let n = self.nodes[node as usize];
        if n.proof != Proof::Unknown {
            self.nodes[node as usize].minimax = encode(n.proof.reward());
            return;
        }
        if n.actor == CHANCE {
            if let Some(v) = self.chance_minimax(&n) {
                self.nodes[node as usize].minimax = encode(v);
            }
            return;
        }
        // Values for the seat to move, in the fixed point.
        let s = |v: i16| {
            if n.actor == 0 {
                i32::from(v)
            } else {
                -i32::from(v)
            }
        };
        let (current, now) = (s(n.minimax), s(self.nodes[child as usize].minimax));
        let raised = match before {
            // A new child: the node's value was its other children's maximum, or its own
            // heuristic if it had none.
            None => n.tried == 1 || now > current,
            Some(old) => {
                if now < current && s(old) == current {
                    self.nodes[node as usize].minimax = self.best_minimax(node);
                    return;
                }
                now >= current
            }
        };
        if raised {
            self.nodes[node as usize].minimax = self.nodes[child as usize].minimax;
        }
    }

    /// The best `v_τ` among the children of decision node `node`, for its seat.
    fn best_minimax(&self, node: u32) -> i16 {
        let s = sign(self.nodes[node as usize].actor as Seat);
        let mut best = f64::NEG_INFINITY;
        for (_, c) in self.children(node) {
            best = best.max(s * decode(c.minimax));
        }
        encode(s * best)
    }

    /// The probability-weighted mean of the born outcomes' `v_τ` of chance node `n`
    /// (renormalised over them), or `None` if none is born.
    fn chance_minimax(&self, n: &Node<S::Move>) -> Option<f64> {
        if n.first_child == NONE {
            return None;
        }
        let (mut sum, mut weights, mut previous) = (0.0, 0u64, 0u32);
        for k in 0..usize::from(n.num_moves) {
            let cumulative = self.cumulative_weight(n, k);
            let weight = cumulative - previous;
            previous = cumulative;
            let c = &self.nodes[n.first_child as usize + k];
            if c.actor != UNBORN {
                sum += f64::from(weight) * decode(c.minimax);
                weights += u64::from(weight);
            }
        }
        (weights > 0).then(|| sum / weights as f64)
    }
}

#[cfg(test)]
mod tests;
