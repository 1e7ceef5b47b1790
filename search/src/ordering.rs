//! Move ordering for alpha-beta: the better the first moves, the more of the tree is
//! cut off.
//!
//! Ordering only permutes the legal moves of a node, never adds or drops one, so it can
//! change how much is searched but never the value found. Moves not singled out keep
//! the game's generation order, so that a search is reproducible.

use agon_engine::{Move, State};

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
}
