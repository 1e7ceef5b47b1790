//! Perft: counting the paths of exactly `n` plies, the standard check of move generation.
//!
//! Every decision and every chance outcome is one ply, and chance weights are ignored
//! (each outcome counts once). A game that ends before depth `n` contributes nothing;
//! `perft(0) == 1`.

use crate::game::{State, Turn};

/// Number of paths of exactly `depth` plies from `state`.
pub fn perft<S: State>(state: &S, depth: u32) -> u64 {
    let mut state = state.clone();
    let mut buffers = vec![Vec::with_capacity(state.max_moves()); depth as usize + 1];
    count(&mut state, depth, &mut buffers)
}

/// For each first move (decision or chance outcome), the perft count below it at
/// `depth`, in generation order. The counts sum to `perft(state, depth)`.
pub fn divide<S: State>(state: &S, depth: u32) -> Vec<(S::Move, u64)> {
    let mut state = state.clone();
    let mut first = Vec::new();
    choices(&state, &mut first);
    let mut buffers = vec![Vec::with_capacity(state.max_moves()); depth as usize + 1];
    first
        .into_iter()
        .map(|m| {
            let undo = state.apply(m);
            let n = count(&mut state, depth.saturating_sub(1), &mut buffers);
            state.undo(undo);
            (m, n)
        })
        .filter(|_| depth > 0)
        .collect()
}

/// Appends the decisions or chance outcomes of `state` (weights dropped).
fn choices<S: State>(state: &S, out: &mut Vec<S::Move>) {
    match state.turn() {
        Turn::Seat(_) => state.legal_moves(out),
        Turn::Chance => {
            let mut outcomes = Vec::with_capacity(state.max_moves());
            state.chance_outcomes(&mut outcomes);
            out.extend(outcomes.into_iter().map(|(m, _)| m));
        }
        Turn::Over => {}
    }
}

/// The recursive count; `buffers[d]` is the reused move buffer of depth `d`.
fn count<S: State>(state: &mut S, depth: u32, buffers: &mut [Vec<S::Move>]) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = std::mem::take(&mut buffers[depth as usize]);
    moves.clear();
    choices(state, &mut moves);
    let total = if depth == 1 {
        moves.len() as u64
    } else {
        let mut total = 0;
        for &m in &moves {
            let undo = state.apply(m);
            total += count(state, depth - 1, buffers);
            state.undo(undo);
        }
        total
    };
    buffers[depth as usize] = moves;
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::testing::coin_nim::CoinNim;

    #[test]
    fn coin_nim_counts_by_hand() {
        let s = CoinNim { stones: 3, cap: 10 }.initial_state();
        // take1|take2; then heads|tails after each (pile 2 or 1 left, no win yet).
        assert_eq!(perft(&s, 0), 1);
        assert_eq!(perft(&s, 1), 2);
        assert_eq!(perft(&s, 2), 4);
        // pile 2 → take1 or take2 (2 moves), pile 1 → take1 only: (2 + 1) * 2 coin faces.
        assert_eq!(perft(&s, 3), 6);
        let d = divide(&s, 3);
        assert_eq!(d.iter().map(|&(_, n)| n).sum::<u64>(), 6);
        assert_eq!(d.len(), 2);
    }
}
