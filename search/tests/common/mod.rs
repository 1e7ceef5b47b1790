//! Tiny deterministic test games and reference searches, written for these tests only.
//!
//! - [`BonusNim`] ([`bonus_nim`]): Nim with a bonus decision, draws by a cap and
//!   transpositions;
//! - [`TicTacToe`] ([`tic_tac_toe`]): the usual 3×3 game, with an evaluator counting
//!   open lines;
//! - [`tug`]: a game whose end depends on the path (repetition);
//! - [`pig_equations`]: Pig's optimal win chances by its textbook equations;
//! - [`unforeseen`]: any game without its forecast of the moves that cannot end it.
//!
//! The reference searches ([`minimax`], [`Memo`]) are deliberately plain: no pruning,
//! no table, no ordering, so that they share nothing with the search under test but the
//! meaning of a score (`agon_search::score`).

#![allow(dead_code)] // each test file uses a different part

use std::collections::HashMap;

use agon_engine::{Deterministic, Evaluator, MoveError, Seat, State, Turn};
use agon_search::alphabeta::QUIESCENCE_PLIES;
use agon_search::score::{clamp_eval, MATE};
use agon_search::{
    Agent, AgentRng, AlphaBeta, AlphaBetaConfig, Budget, Enhancements, Pruning, SearchContext,
    SolveConfig, Solver, Value,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

pub mod bonus_nim;
pub mod pig_equations;
pub mod tic_tac_toe;
pub mod tug;
pub mod unforeseen;

#[allow(unused_imports)] // as above: not every test file plays both games
pub use bonus_nim::*;
#[allow(unused_imports)]
pub use tic_tac_toe::*;

/// The end of the test games' `parse_move`: `m`, read from `text`, if it is legal in `s`.
pub fn legal_here<S: State>(s: &S, m: S::Move, text: &str) -> Result<S::Move, MoveError> {
    let mut moves = Vec::new();
    s.legal_moves(&mut moves);
    if moves.contains(&m) {
        Ok(m)
    } else {
        Err(MoveError::new(text, "not legal here"))
    }
}

// ---------------------------------------------------------------- references

/// Plain fixed-depth minimax: the score of `s` (a decision node, `ply` plies from the
/// root) from its mover's view, with the scores of `agon_search::score`; at the horizon
/// the evaluator's score, or with `quiescence` the plain [`quiesce`] value.
pub fn minimax<S: State, E: Evaluator<S>>(
    s: &mut S,
    eval: &E,
    depth: u32,
    ply: i32,
    quiescence: bool,
) -> i32 {
    minimax_memo(s, eval, depth, ply, quiescence, &mut QuiesceMemo::new())
}

/// Quiescence values already computed, by key, ply (a win found below scores by its
/// distance from the root) and noisy plies left, checked by equality.
pub type QuiesceMemo<S> = HashMap<(u64, i32, u32), Vec<(S, i32)>>;

fn minimax_memo<S: State, E: Evaluator<S>>(
    s: &mut S,
    eval: &E,
    depth: u32,
    ply: i32,
    quiescence: bool,
    memo: &mut QuiesceMemo<S>,
) -> i32 {
    let Turn::Seat(mover) = s.turn() else {
        panic!("minimax on a node without a mover")
    };
    if depth == 0 {
        return if quiescence {
            quiesce(s, eval, QUIESCENCE_PLIES, ply, memo)
        } else {
            clamp_eval(eval.evaluate(s, mover))
        };
    }
    let mut moves = Vec::new();
    s.legal_moves(&mut moves);
    moves
        .into_iter()
        .map(|m| {
            let undo = s.apply(m);
            let v = child_score(s, mover, ply + 1, |c| {
                minimax_memo(c, eval, depth - 1, ply + 1, quiescence, memo)
            });
            s.undo(undo);
            v
        })
        .max()
        .expect("a decision node has moves")
}

/// Plain quiescence: the better of standing pat on the evaluator's score and the best
/// noisy move (while `depth`, the noisy moves still allowed, is above 0), each noisy
/// move's child scored the same way. No pruning; memoised, since the same captures in
/// another order reach the same position.
pub fn quiesce<S: State, E: Evaluator<S>>(
    s: &mut S,
    eval: &E,
    depth: u32,
    ply: i32,
    memo: &mut QuiesceMemo<S>,
) -> i32 {
    let Turn::Seat(mover) = s.turn() else {
        panic!("quiescence on a node without a mover")
    };
    if depth == 0 {
        return clamp_eval(eval.evaluate(s, mover));
    }
    if let Some(&(_, v)) = memo
        .get(&(s.hash(), ply, depth))
        .and_then(|seen| seen.iter().find(|(t, _)| t == s))
    {
        return v;
    }
    let mut moves = Vec::new();
    s.legal_moves(&mut moves);
    let mut best = clamp_eval(eval.evaluate(s, mover));
    for m in moves {
        if eval.is_noisy(s, m) {
            let undo = s.apply(m);
            let v = child_score(s, mover, ply + 1, |c| {
                quiesce(c, eval, depth - 1, ply + 1, memo)
            });
            best = best.max(v);
            s.undo(undo);
        }
    }
    memo.entry((s.hash(), ply, depth))
        .or_default()
        .push((s.clone(), best));
    best
}

/// The score from `mover`'s view of the child `c` (`ply` plies from the root), given
/// how to score a child that is a decision node from its own mover's view.
pub fn child_score<S: State>(
    c: &mut S,
    mover: Seat,
    ply: i32,
    search: impl FnOnce(&mut S) -> i32,
) -> i32 {
    match c.turn() {
        Turn::Over => match c.outcome().unwrap().score(mover) {
            0 => 0,
            r if r > 0 => MATE - ply,
            _ => -(MATE - ply),
        },
        Turn::Seat(next) => {
            let v = search(c);
            if next == mover {
                v
            } else {
                -v
            }
        }
        Turn::Chance => panic!("no chance in these tests"),
    }
}

/// The integer score an agent's value stands for.
pub fn value_score(v: Value) -> i32 {
    match v {
        Value::Score(x) => {
            assert_eq!(x.fract(), 0.0, "alpha-beta scores are integers");
            x as i32
        }
        Value::Win(n) => MATE - n as i32,
        Value::Loss(n) => -(MATE - n as i32),
        Value::Draw => 0,
        Value::Reward(_) => panic!("no rewards from alpha-beta"),
    }
}

/// Plain memoised exact solver: the game value of a position from its mover's view as
/// `MATE - n` (win in `n` plies), `-(MATE - n)` (loss in `n`) or 0 (draw), fastest win
/// and slowest loss preferred. Memoised by key, checked by equality.
#[derive(Default)]
pub struct Memo<S> {
    table: HashMap<u64, Vec<(S, i32)>>,
}

impl<S: State> Memo<S> {
    pub fn new() -> Self {
        Memo {
            table: HashMap::new(),
        }
    }

    pub fn positions(&self) -> usize {
        self.table.values().map(Vec::len).sum()
    }

    pub fn value(&mut self, s: &mut S) -> i32 {
        if let Some(&(_, v)) = self
            .table
            .get(&s.hash())
            .and_then(|b| b.iter().find(|(t, _)| t == s))
        {
            return v;
        }
        let Turn::Seat(mover) = s.turn() else {
            panic!("value of a node without a mover")
        };
        let mut moves = Vec::new();
        s.legal_moves(&mut moves);
        let mut best = i32::MIN;
        for m in moves {
            let undo = s.apply(m);
            // Node-relative: the child's own value, one ply further from here.
            let v = child_score(s, mover, 1, |c| {
                let v = self.value(c);
                v - v.signum()
            });
            s.undo(undo);
            best = best.max(v);
        }
        self.table
            .entry(s.hash())
            .or_default()
            .push((s.clone(), best));
        best
    }
}

/// A position reached by `plies` random decisions from `start` (fewer if the game
/// ends first; then the last decision node on the way).
pub fn random_position<S: State>(start: &S, plies: usize, rng: &mut ChaCha8Rng) -> S {
    let mut s = start.clone();
    let mut moves = Vec::new();
    for _ in 0..plies {
        moves.clear();
        s.legal_moves(&mut moves);
        let m = moves[rng.random_range(0..moves.len())];
        let undo = s.apply(m);
        if s.turn() == Turn::Over {
            s.undo(undo);
            break;
        }
    }
    s
}

/// A generator for test `seed`.
pub fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

// ---------------------------------------------------------------- shared checks

/// `ab` at exactly `depth` with `enhancements`, in exact-depth mode, with a small table.
pub fn fixed_depth_with(depth: u32, enhancements: Enhancements) -> AlphaBetaConfig {
    AlphaBetaConfig {
        budget: Budget {
            depth: Some(depth),
            ..Budget::default()
        },
        hash_mb: 1,
        threads: 1,
        enhancements,
        pruning: Pruning::NONE,
        partial_iterations: false,
        check_extension: false,
        quiet_wins: false,
        exact_depth_cutoffs: true,
    }
}

/// `ab` at exactly `depth` with every enhancement, in exact-depth mode.
pub fn fixed_depth(depth: u32) -> AlphaBetaConfig {
    fixed_depth_with(depth, Enhancements::ALL)
}

/// For every combination of enhancements, `ab` at fixed depth in exact-depth mode
/// returns the plain-minimax score (with the same quiescence), and its move scores that
/// much. One agent per combination and depth searches every position in turn, so its
/// table, killers and history also carry over from earlier searches into later ones.
/// Returns the number of searches checked.
pub fn differential<S: State + agon_engine::Deterministic, E: Evaluator<S>>(
    positions: &[S],
    eval: &E,
    depths: std::ops::RangeInclusive<u32>,
) -> usize {
    differential_with(positions, eval, depths, true)
}

/// [`differential`], over the 32 combinations without quiescence only unless
/// `quiescence`: plain quiescence (no pruning) follows every sequence of noisy moves,
/// which on a large board is far too many for a test.
pub fn differential_with<S: State + agon_engine::Deterministic, E: Evaluator<S>>(
    positions: &[S],
    eval: &E,
    depths: std::ops::RangeInclusive<u32>,
    quiescence: bool,
) -> usize {
    let mut checked = 0;
    let mut rng = AgentRng::seed_from_u64(0);
    for depth in depths {
        // expected[q][i]: the minimax score of position i, with quiescence if q == 1.
        let expected: [Vec<Option<i32>>; 2] = [false, true].map(|q| {
            positions
                .iter()
                .map(|p| match p.turn() {
                    Turn::Seat(_) if quiescence || !q => {
                        Some(minimax(&mut p.clone(), eval, depth, 0, q))
                    }
                    _ => None,
                })
                .collect()
        });
        for enhancements in Enhancements::combinations().filter(|e| quiescence || !e.quiescence) {
            let q = enhancements.quiescence;
            let mut agent = AlphaBeta::new(eval.clone(), fixed_depth_with(depth, enhancements));
            for (i, start) in positions.iter().enumerate() {
                let (Turn::Seat(mover), Some(expected)) = (start.turn(), expected[q as usize][i])
                else {
                    continue;
                };
                let at = format!("position {i} ({start}) at depth {depth} with {enhancements:?}");
                let result = agent.search(start, SearchContext::new(&mut rng, &mut |_| {}));
                assert_eq!(value_score(result.value), expected, "{at}");
                let mut s = start.clone();
                s.apply(result.best.expect("a move"));
                let chosen = child_score(&mut s, mover, 1, |c| minimax(c, eval, depth - 1, 1, q));
                assert_eq!(chosen, expected, "move of {at}");
                assert!(result.depth <= depth && result.depth >= 1);
                checked += 1;
            }
        }
    }
    checked
}

/// `solve` with exact distances, without a budget, with a small table.
pub fn solver<S: Deterministic, E: Evaluator<S>>(eval: E) -> Solver<S, E> {
    solver_with(eval, Budget::default())
}

/// `solve` with exact distances, within `budget`, with a small table.
pub fn solver_with<S: Deterministic, E: Evaluator<S>>(eval: E, budget: Budget) -> Solver<S, E> {
    Solver::new(
        eval,
        SolveConfig {
            budget,
            hash_mb: 1,
            wdl: false,
            ..SolveConfig::default()
        },
    )
}

/// Solves every position with one solver (so proofs carry over between searches, as in
/// a game) and checks value, distance and move against `memo`.
pub fn cross_check<S: Deterministic, E: Evaluator<S>>(positions: &[S], eval: E) {
    cross_check_threads(positions, eval, 1);
}

/// [`cross_check`] with a solver of `threads` Lazy SMP threads: whichever thread
/// proves a value first, it must be the exact one (exact distances, `wdl=false`, since
/// the check compares distances and the move that keeps them).
pub fn cross_check_threads<S: Deterministic, E: Evaluator<S>>(
    positions: &[S],
    eval: E,
    threads: usize,
) {
    let mut agent = Solver::new(
        eval,
        SolveConfig {
            hash_mb: 1,
            threads,
            wdl: false,
            ..SolveConfig::default()
        },
    );
    let mut memo = Memo::new();
    let mut rng = AgentRng::seed_from_u64(0);
    for (i, start) in positions.iter().enumerate() {
        let Turn::Seat(mover) = start.turn() else {
            continue;
        };
        let mut s = start.clone();
        let expected = memo.value(&mut s);
        let r = agent.search(start, SearchContext::new(&mut rng, &mut |_| {}));
        assert!(r.value.is_proven(), "position {i} ({start}): {:?}", r.value);
        assert_eq!(value_score(r.value), expected, "position {i} ({start})");
        // The move played keeps the value: fastest win, slowest loss.
        let undo = s.apply(r.best.unwrap());
        let after = child_score(&mut s, mover, 1, |c| {
            let v = memo.value(c);
            v - v.signum()
        });
        s.undo(undo);
        assert_eq!(after, expected, "move of position {i} ({start})");
        // The PV is legal; for a decided game it may stop short of the end (where a
        // table cut-off answered), but if it reaches the end, it does so at the stated
        // distance.
        let mut line = start.clone();
        for &m in &r.pv {
            line.try_apply(m).expect("legal PV");
        }
        if let Value::Win(n) | Value::Loss(n) = r.value {
            assert!(r.pv.len() as u32 <= n, "PV of {start} is too long");
            if line.turn() == Turn::Over {
                assert_eq!(r.pv.len() as u32, n, "PV length of {start}");
            }
        }
    }
}
