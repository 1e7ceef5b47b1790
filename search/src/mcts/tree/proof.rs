//! The MCTS-Solver's proof of a node from its children's proofs (the rules are in the
//! parent module's docs, "Proofs").

use agon_engine::State;

use super::{Proof, Tree, UNEXPANDED};

impl<S: State> Tree<S> {
    /// Proves `node` from its children if their proofs allow (see the module docs);
    /// returns whether it is proven.
    pub(super) fn try_prove(&mut self, node: u32) -> bool {
        let n = self.nodes[node as usize];
        if n.proof != Proof::Unknown {
            return true;
        }
        let complete = n.num_moves != UNEXPANDED && n.tried == n.num_moves;
        // The best (result, plies, proof) found among proven children, and whether all
        // children are proven.
        let mut best: Option<(i8, u16, Proof)> = None;
        let mut all_proven = true;
        match n.seat() {
            Some(seat) => {
                for (_, c) in self.children(node) {
                    match c.proof.for_seat(seat) {
                        None => all_proven = false,
                        Some(result) => {
                            // Prefer the better result, then a shorter win or a longer
                            // loss or draw.
                            let better = match best {
                                None => true,
                                Some((r, p, _)) => {
                                    result > r
                                        || (result == r && result == 1 && c.plies < p)
                                        || (result == r && result < 1 && c.plies > p)
                                }
                            };
                            if better {
                                best = Some((result, c.plies, c.proof));
                            }
                        }
                    }
                }
                match best {
                    Some((1, plies, proof)) => self.prove(node, proof, plies),
                    Some((_, plies, proof)) if complete && all_proven => {
                        self.prove(node, proof, plies)
                    }
                    _ => false,
                }
            }
            None => {
                if !complete {
                    return false;
                }
                let mut longest = 0;
                let mut common = None;
                for (_, c) in self.children(node) {
                    if c.proof == Proof::Unknown || common.is_some_and(|p| p != c.proof) {
                        return false;
                    }
                    common = Some(c.proof);
                    longest = longest.max(c.plies);
                }
                match common {
                    Some(proof) => self.prove(node, proof, longest),
                    None => false,
                }
            }
        }
    }

    /// Marks `node` proven as `proof` by a child whose line is `child_plies` long.
    fn prove(&mut self, node: u32, proof: Proof, child_plies: u16) -> bool {
        let n = &mut self.nodes[node as usize];
        n.proof = proof;
        n.plies = child_plies.saturating_add(1);
        true
    }
}
