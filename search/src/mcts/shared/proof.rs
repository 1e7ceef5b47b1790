//! The MCTS-Solver's proof of a lock-free tree's node from its children's proofs, by
//! the single-threaded tree's rules, set once by compare-and-swap.

use std::sync::atomic::Ordering;

use agon_engine::{Move, Seat};

use super::super::tree::{Proof, CHANCE};
use super::{actor_in, state_word, unpack, Entry, SharedTree, NO_ROOM, UNBORN};

impl<M: Move> SharedTree<M> {
    /// Proves `n` (whose state word was `word`) from its children's proofs if they
    /// allow (the rules of the single-threaded tree's solver); returns whether it is proven.
    pub(super) fn try_prove(&self, n: &Entry, word: u32) -> bool {
        if word & 0xff != 0 {
            return true;
        }
        let start = n.children.load(Ordering::Acquire);
        if start >= NO_ROOM {
            return false;
        }
        let children = self.arena.run(start, n.len());
        let actor = actor_in(word);
        // Every child born and proven; the best (result, plies, proof) for the seat to
        // move (decision), or the one result all proven children share (chance).
        let mut all_proven = true;
        let mut best: Option<(i8, u16, Proof)> = None;
        for c in children {
            let child = c.state.load(Ordering::Acquire);
            let (p, plies) = unpack(child);
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
        let result = match best {
            Some((1, plies, p)) if actor != CHANCE => (p, plies),
            Some((_, plies, p)) if all_proven => (p, plies),
            _ => return false,
        };
        let _ = n.state.compare_exchange(
            word,
            state_word(actor, result.0, result.1.saturating_add(1)),
            Ordering::Release,
            Ordering::Relaxed,
        );
        true
    }
}
