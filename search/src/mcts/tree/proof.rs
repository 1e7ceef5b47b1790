//! The MCTS-Solver's proof of a node from its children's proofs (the rules are in the
//! parent module's docs, "Proofs"), set by one compare-and-swap of its `state` word.

use std::sync::atomic::Ordering;

use agon_engine::{Seat, State};

use super::stats::{Stats, Word};
use super::{actor_in, proof_in, state_word, Node, Proof, Tree, CHANCE, NO_ROOM, UNBORN};

impl<S: State, St: Stats> Tree<S, St> {
    /// Proves `n` from its children's proofs if they allow (see the module docs);
    /// returns whether it is proven.
    pub(super) fn try_prove(&self, n: &Node<S::Move, St>) -> bool {
        let word = n.state.load(Ordering::Acquire);
        if word & 0xff != 0 {
            return true;
        }
        let start = n.children.load(Ordering::Acquire);
        if start >= NO_ROOM {
            return false;
        }
        let children = self.arena().run(start, n.len());
        let actor = actor_in(word);
        // Every child born and proven; the best (result, plies, proof) for the seat to
        // move (decision), or the one result all proven children share (chance).
        let mut all_proven = true;
        let mut best: Option<(i8, u16, Proof)> = None;
        for c in children {
            let child = c.state.load(Ordering::Acquire);
            let (p, plies) = proof_in(child);
            if actor_in(child) >= UNBORN || p == Proof::Unknown {
                all_proven = false;
                continue;
            }
            if actor == CHANCE {
                match best {
                    Some((_, longest, q)) if q == p => best = Some((0, longest.max(plies), p)),
                    Some(_) => return false,
                    None => best = Some((0, plies, p)),
                }
                continue;
            }
            let result = p.for_seat(actor as Seat).expect("proven");
            // Prefer the better result, then a shorter win or a longer loss or draw.
            let better = match best {
                None => true,
                Some((r, l, _)) => {
                    result > r
                        || (result == r && result == 1 && plies < l)
                        || (result == r && result < 1 && plies > l)
                }
            };
            if better {
                best = Some((result, plies, p));
            }
        }
        let (proof, plies) = match best {
            Some((1, plies, p)) if actor != CHANCE => (p, plies),
            Some((_, plies, p)) if all_proven => (p, plies),
            _ => return false,
        };
        // Another thread may have proven it meanwhile, by the same rules and as well.
        let _ = n.state.swap_if(
            word,
            state_word(actor, proof, plies.saturating_add(1)),
            Ordering::Release,
        );
        true
    }
}
