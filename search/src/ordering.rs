//! Move ordering for alpha-beta: the better the first moves, the more of the tree is
//! cut off.
//!
//! Ordering only permutes the legal moves of a node, never adds or drops one, so it can
//! change how much is searched but never the value found. Moves not singled out keep
//! the game's generation order, so that a search is reproducible.

use agon_engine::{Evaluator, Move, State};

/// Moves the move whose [`Move::pack`] code is `code` to the front, keeping the others
/// in order. Returns whether it was found: a code read from the transposition table may
/// belong to another position, so a move that is not among `moves` is simply ignored.
pub fn move_to_front<M: Move>(moves: &mut [M], code: u32) -> bool {
    match M::unpack(code).and_then(|m| moves.iter().position(|&x| x == m)) {
        Some(i) => {
            moves[..=i].rotate_right(1);
            true
        }
        None => false,
    }
}

/// Orders `moves` by the evaluator's [`Evaluator::move_hint`], highest first, keeping
/// the generator's order among equal hints (a stable insertion sort: move lists are
/// short, and it needs no allocation beyond `hints`, a reused buffer). When every hint
/// is equal, as for a game without hints, `moves` is left untouched.
pub fn order_by_hints<S: State, E: Evaluator<S>>(
    eval: &E,
    state: &S,
    moves: &mut [S::Move],
    hints: &mut Vec<u8>,
) {
    hints.clear();
    hints.extend(moves.iter().map(|&m| eval.move_hint(state, m)));
    if hints.iter().all(|&h| h == hints[0]) {
        return;
    }
    sort_by_keys(moves, hints);
}

/// Orders `moves` by `keys` (one per move, index for index, permuted with them),
/// highest first, keeping the given order among equal keys: a stable insertion sort,
/// which needs no allocation and suits short move lists.
pub fn sort_by_keys<M: Copy, K: Copy + Ord>(moves: &mut [M], keys: &mut [K]) {
    for i in 1..moves.len() {
        let (m, k) = (moves[i], keys[i]);
        let mut j = i;
        while j > 0 && keys[j - 1] < k {
            moves[j] = moves[j - 1];
            keys[j] = keys[j - 1];
            j -= 1;
        }
        moves[j] = m;
        keys[j] = k;
    }
}

/// The move a search plays when its budget ran out before any iteration completed:
/// `root_best` (the best root move of the unfinished iteration) if any, else the
/// transposition table's move `table_move` if it is legal at `state`, else the first
/// legal move. `state` must be a decision node.
pub fn fallback_move<S: State>(
    state: &S,
    root_best: Option<S::Move>,
    table_move: Option<u32>,
) -> S::Move {
    if let Some(m) = root_best {
        return m;
    }
    let mut moves = Vec::with_capacity(state.max_moves());
    state.legal_moves(&mut moves);
    if let Some(code) = table_move {
        move_to_front(&mut moves, code);
    }
    moves[0]
}

#[cfg(test)]
mod tests {
    use super::*;
    use agon_engine::testing::coin_nim::CoinNimMove;

    #[test]
    fn the_chosen_move_goes_first_and_the_rest_keep_their_order() {
        let mut moves = [
            CoinNimMove::Take(1),
            CoinNimMove::Take(2),
            CoinNimMove::Heads,
            CoinNimMove::Tails,
        ];
        assert!(move_to_front(&mut moves, CoinNimMove::Heads.pack()));
        assert_eq!(
            moves,
            [
                CoinNimMove::Heads,
                CoinNimMove::Take(1),
                CoinNimMove::Take(2),
                CoinNimMove::Tails
            ]
        );
        let before = moves;
        // A code of no move, and a move that is not in the list, change nothing.
        assert!(!move_to_front(&mut moves, 999));
        assert!(!move_to_front(&mut moves[1..], CoinNimMove::Heads.pack()));
        assert_eq!(moves, before);
    }

    #[test]
    fn hints_order_highest_first_and_ties_keep_the_generator_order() {
        use agon_engine::games::connect4::{Connect4, Connect4Eval};
        use agon_engine::Game;

        let eval = Connect4Eval::default();
        let state = Connect4.initial_state();
        let mut hints = Vec::new();
        // At the start every drop makes no threat: hints differ by centrality only.
        let mut moves = Vec::new();
        state.legal_moves(&mut moves);
        let generated = moves.clone();
        order_by_hints(&eval, &state, &mut moves, &mut hints);
        let ranked: Vec<u8> = moves.iter().map(|&m| eval.move_hint(&state, m)).collect();
        assert!(ranked[0] > ranked[ranked.len() - 1], "{ranked:?}");
        assert!(ranked.windows(2).all(|w| w[0] >= w[1]), "{ranked:?}");
        for pair in moves.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            if eval.move_hint(&state, a) == eval.move_hint(&state, b) {
                let at = |m| generated.iter().position(|&g| g == m).unwrap();
                assert!(at(a) < at(b), "tie out of generator order");
            }
        }
        let mut sorted = moves.clone();
        sorted.sort();
        let mut all = generated.clone();
        all.sort();
        assert_eq!(sorted, all, "the same moves");

        // A game without hints (all equal) keeps the list as given, even out of the
        // generator's order.
        use agon_engine::games::pig::{Pig, PigEval};
        let pig = Pig::default().initial_state();
        let mut moves = Vec::new();
        pig.legal_moves(&mut moves);
        assert!(moves.len() > 1);
        moves.reverse();
        let given = moves.clone();
        order_by_hints(&PigEval::default(), &pig, &mut moves, &mut hints);
        assert_eq!(moves, given);
    }
}
