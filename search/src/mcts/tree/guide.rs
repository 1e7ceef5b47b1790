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
//! still the most visited root child, as in the paper.

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

    /// Recomputes `node`'s `v_τ` from its children's (see the module docs); a proven
    /// node's is its proven reward, a node without children keeps its own.
    pub(super) fn back_up_minimax(&mut self, node: u32) {
        let n = self.nodes[node as usize];
        let value = if n.proof != Proof::Unknown {
            Some(n.proof.reward())
        } else if n.actor == CHANCE {
            self.chance_minimax(&n)
        } else {
            let s = sign(n.actor as Seat);
            let mut best: Option<f64> = None;
            let mut child = n.first_child;
            while child != NONE {
                let c = &self.nodes[child as usize];
                let v = s * decode(c.minimax);
                best = Some(best.map_or(v, |b: f64| b.max(v)));
                child = c.next_sibling;
            }
            best.map(|b| s * b)
        };
        if let Some(v) = value {
            self.nodes[node as usize].minimax = encode(v);
        }
    }

    /// The probability-weighted mean of the born outcomes' `v_τ` of chance node `n`
    /// (renormalised over them), or `None` if none is born.
    fn chance_minimax(&self, n: &Node<S::Move>) -> Option<f64> {
        if n.first_child == NONE {
            return None;
        }
        let outcomes = &self.outcomes[n.moves as usize..][..usize::from(n.num_moves)];
        let (mut sum, mut weights, mut previous) = (0.0, 0u64, 0u32);
        for (k, &(_, cumulative)) in outcomes.iter().enumerate() {
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
