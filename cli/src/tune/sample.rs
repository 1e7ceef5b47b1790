//! The positions `agon tune` fits to: sampled from games (played in self-play here, or
//! read from a run folder), each labelled with the game's final result for the seat to
//! move there.
//!
//! From every game (a [`GameRow`]: its move list, opening length and result) the moves are
//! replayed and a position is a *candidate* when
//!
//! - it lies after the game's opening (the row's `opening` plies: random, or a book
//!   line, so nobody's play chose them),
//! - a seat is to decide there (chance nodes and the finished end are skipped), and
//! - it is quiet: the evaluator calls none of its legal moves noisy
//!   ([`Evaluator::is_noisy`], the moves quiescence search would look at). A static
//!   evaluation of a position in the middle of a capture or a decisive threat says little
//!   about the result; Texel's method fits quiet positions only.
//!
//! A game lost by a forfeit is skipped whole: its result says nothing about its positions.
//! At most [`MAX_PER_GAME`] candidates of a game are kept, chosen uniformly from the game's
//! own stream ([`crate::seeds::sample_rng`]), so one long game does not outweigh many short
//! ones, and kept in game order.
//!
//! The label is the result for the seat to move: 1 for a win, 0.5 for a draw, 0 for a
//! loss. The positions of every [`HOLD_OUT_EVERY`]-th game (game indices 4, 9, 14, ...)
//! are held out: they judge the fit and are never fitted, and whole games are held out
//! because positions of one game are strongly correlated.

use agon_engine::{Evaluator, Game, Seat, State, Turn};
use anyhow::{anyhow, Result};
use rayon::prelude::*;

use crate::record::GameRow;
use crate::record::FORFEIT;
use crate::seeds::{sample_rng, uniform_below};

/// The most positions sampled from one game.
pub const MAX_PER_GAME: usize = 12;

/// One game in this many is held out (the games whose index is `HOLD_OUT_EVERY - 1`
/// modulo it).
pub const HOLD_OUT_EVERY: u64 = 5;

/// A sampled position and what the game made of it.
#[derive(Clone, Debug)]
pub struct Position<S> {
    /// The position; a seat is to decide (or, when chance nodes are sampled, it is a
    /// chance node).
    pub state: S,
    /// The seat to decide (0 at a chance node).
    pub seat: Seat,
    /// The game's result for `seat`: 1 win, 0.5 draw, 0 loss.
    pub target: f64,
}

/// The sampled positions, split.
#[derive(Clone, Debug)]
pub struct Positions<S> {
    /// The positions fitted to.
    pub train: Vec<Position<S>>,
    /// The positions of the held-out games.
    pub held_out: Vec<Position<S>>,
    /// How many games the held-out positions come from.
    pub held_out_games: usize,
}

/// Samples the positions of `rows` (games of `game`) as the module docs say, in
/// parallel on the current rayon pool; the result depends only on `rows`, `eval` (for
/// [`Evaluator::is_noisy`]), `seed` and `chance`. With `chance`, chance nodes after the
/// opening are candidates too, seen by seat 0 (as a learned evaluator sees them), so
/// that a network learns the positions a search meets at its horizon after a move.
/// Fails on a move that does not replay.
pub fn sample<G: Game, E: Evaluator<G::State>>(
    game: &G,
    rows: &[GameRow],
    eval: &E,
    seed: u64,
    chance: bool,
) -> Result<Positions<G::State>> {
    let per_game = rows
        .par_iter()
        .map(|row| game_positions(game, row, eval, seed, chance))
        .collect::<Result<Vec<_>>>()?;
    let mut positions = Positions {
        train: Vec::new(),
        held_out: Vec::new(),
        held_out_games: 0,
    };
    for (row, found) in rows.iter().zip(per_game) {
        if is_held_out(row.game) {
            positions.held_out_games += 1;
            positions.held_out.extend(found);
        } else {
            positions.train.extend(found);
        }
    }
    Ok(positions)
}

/// Whether game `index` is one of the held-out games.
pub fn is_held_out(index: u64) -> bool {
    index % HOLD_OUT_EVERY == HOLD_OUT_EVERY - 1
}

/// The sampled positions of one game (none for a forfeit).
fn game_positions<G: Game, E: Evaluator<G::State>>(
    game: &G,
    row: &GameRow,
    eval: &E,
    seed: u64,
    chance: bool,
) -> Result<Vec<Position<G::State>>> {
    if row.end_reason == FORFEIT {
        return Ok(Vec::new());
    }
    let mut state = game.initial_state();
    let mut candidates = Vec::new();
    let mut legal = Vec::new();
    for (k, text) in row.moves.split_whitespace().enumerate() {
        let candidate = match state.turn() {
            _ if k < row.opening as usize => None,
            Turn::Seat(seat) => is_quiet(&state, eval, &mut legal).then_some(seat),
            Turn::Chance if chance => Some(0),
            _ => None,
        };
        if let Some(seat) = candidate {
            candidates.push(Position {
                state: state.clone(),
                seat,
                target: f64::from(row.result0.score(seat) + 1) / 2.0,
            });
        }
        state
            .parse_move(text)
            .and_then(|m| state.try_apply(m).map(drop))
            .map_err(|e| anyhow!("game {}: move {} ({text}): {}", row.game, k + 1, e.reason))?;
    }
    Ok(keep_some(candidates, seed, row.game))
}

/// Whether no legal move of `state` (a decision node) is noisy for `eval`; `legal` is
/// scratch space.
fn is_quiet<S: State, E: Evaluator<S>>(state: &S, eval: &E, legal: &mut Vec<S::Move>) -> bool {
    legal.clear();
    state.legal_moves(legal);
    !legal.iter().any(|&m| eval.is_noisy(state, m))
}

/// At most [`MAX_PER_GAME`] of `candidates`, chosen uniformly without replacement from
/// game `game`'s stream, in their order.
fn keep_some<T>(candidates: Vec<T>, seed: u64, game: u64) -> Vec<T> {
    let n = candidates.len();
    if n <= MAX_PER_GAME {
        return candidates;
    }
    // A partial Fisher-Yates shuffle of the indices picks the kept ones.
    let mut rng = sample_rng(seed, game);
    let mut indices: Vec<usize> = (0..n).collect();
    for i in 0..MAX_PER_GAME {
        let j = i + uniform_below(&mut rng, (n - i) as u64) as usize;
        indices.swap(i, j);
    }
    let mut keep = vec![false; n];
    for &i in &indices[..MAX_PER_GAME] {
        keep[i] = true;
    }
    candidates
        .into_iter()
        .zip(keep)
        .filter_map(|(c, k)| k.then_some(c))
        .collect()
}

#[cfg(test)]
mod tests {
    use agon_engine::games::connect4::{Connect4, Connect4Eval};

    use super::*;
    use crate::record::Result0;

    fn row(game: u64, moves: &str, opening: u32, result0: Result0) -> GameRow {
        GameRow {
            game,
            moves: moves.into(),
            opening,
            result0,
            ..GameRow::default()
        }
    }

    #[test]
    fn positions_skip_the_opening_noisy_and_final_ones_and_carry_the_movers_result() {
        // Red (seat 0) wins along row 1: a a b b c c d. After "a a b b c" yellow must
        // block at d1 (noisy), and red then threatens to win (noisy) until the end.
        let moves = "a a b b c c d";
        let eval = Connect4Eval::default();
        let positions =
            game_positions(&Connect4, &row(0, moves, 1, Result0::Win), &eval, 1, false).unwrap();
        // Candidates: before moves 2..=5 (after the 1-ply opening); before move 6 yellow
        // faces red's three (d1 blocks: noisy), before move 7 red can win (noisy).
        let plies: Vec<u32> = positions.iter().map(|p| p.state.ply()).collect();
        assert_eq!(plies, [1, 2, 3, 4]);
        let targets: Vec<f64> = positions.iter().map(|p| p.target).collect();
        assert_eq!(targets, [0.0, 1.0, 0.0, 1.0]);
        assert!(positions
            .iter()
            .all(|p| p.state.turn() == Turn::Seat(p.seat)));
        // A draw is a half for either seat; a forfeit gives nothing.
        let draw =
            game_positions(&Connect4, &row(0, moves, 1, Result0::Draw), &eval, 1, false).unwrap();
        assert!(draw.iter().all(|p| p.target == 0.5));
        let mut forfeit = row(0, moves, 1, Result0::Win);
        forfeit.end_reason = FORFEIT.into();
        assert!(game_positions(&Connect4, &forfeit, &eval, 1, false)
            .unwrap()
            .is_empty());
    }

    #[test]
    fn long_games_keep_a_seeded_ordered_subset_and_every_fifth_game_is_held_out() {
        let all: Vec<usize> = (0..40).collect();
        let kept = keep_some(all.clone(), 1, 3);
        assert_eq!(kept.len(), MAX_PER_GAME);
        assert!(kept.windows(2).all(|w| w[0] < w[1]), "{kept:?}");
        assert_eq!(keep_some(all.clone(), 1, 3), kept);
        assert_ne!(keep_some(all.clone(), 1, 4), kept);
        assert_eq!(keep_some(all[..5].to_vec(), 1, 3), all[..5]);
        let held: Vec<u64> = (0..15).filter(|&g| is_held_out(g)).collect();
        assert_eq!(held, [4, 9, 14]);
    }
}
