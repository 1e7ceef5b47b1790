//! The `optimal` agent against computations written here: Pig's equations (Neller and
//! Presser's) iterated over plain `(i, j, k)` arrays, a plain recursion over Coin Nim's
//! acyclic tree, and the plain memoised solver on tic-tac-toe; its refusals; and the
//! first player's chance of winning default Pig.

use crate::common;

use agon_engine::games::connect4::{Connect4, Connect4Eval, Connect4State};
use agon_engine::games::pig::{Pig, PigEval, PigMove, PigState};
use agon_engine::testing::coin_nim::{CoinNim, CoinNimEval, CoinNimState};
use agon_engine::{sample_outcome, Evaluator, Game, Params, State, Turn};
use agon_search::optimal::{Table, TableError, TIE};
use agon_search::registry::{build, BuildAgents};
use agon_search::{Agent, AgentError, AgentKind, AgentRng, SearchContext, SearchResult, Value};
use common::pig_equations::PigEquations;
use common::*;
use rand::{Rng, SeedableRng};

/// The agent with `states=limit`, or the default limit.
fn optimal<S, E>(eval: E, limit: Option<usize>) -> Box<dyn Agent<S>>
where
    S: State<Chance: BuildAgents>,
    E: Evaluator<S>,
{
    let text = limit.map(|n| n.to_string());
    let pairs: Vec<(&str, &str)> = text.iter().map(|n| ("states", n.as_str())).collect();
    let params = Params::parse(AgentKind::Optimal.info().params, &pairs).unwrap();
    build::<S, E>(AgentKind::Optimal, &params, eval).unwrap()
}

fn search<S: State>(agent: &mut dyn Agent<S>, state: &S) -> SearchResult<S::Move> {
    let mut rng = AgentRng::seed_from_u64(7);
    agent.search(state, SearchContext::new(&mut rng, &mut |_| {}))
}

/// A search's value as an expected result in [−1, 1] (the agent reports it on the
/// evaluator's scale).
fn expected<M>(result: &SearchResult<M>, scale: i32) -> f64 {
    let Value::Score(v) = result.value else {
        panic!("optimal reports scores, not {:?}", result.value)
    };
    v / f64::from(scale)
}

// ---------------------------------------------------------------- Pig by its equations

/// The mover's `(banked, opponent's banked, turn total)` at a Pig decision.
fn pig_view(s: &PigState) -> (usize, usize, usize) {
    let mover = s.mover();
    (
        s.score(mover) as usize,
        s.score(1 - mover) as usize,
        s.turn_total() as usize,
    )
}

/// Checks the agent at the Pig decision `s` against the equations: its value is the
/// mover's win chance `p` as `2p − 1`, to 1e-9, and its move is one of the equations'
/// best (the better one wherever they differ by more than [`TIE`]).
fn check_pig_decision(agent: &mut dyn Agent<PigState>, eq: &PigEquations, s: &PigState) {
    let (i, j, k) = pig_view(s);
    let result = search(agent, s);
    let value = expected(&result, 1000);
    let best = if i + k >= eq.target() {
        1.0
    } else {
        eq.p(i, j, k)
    };
    assert!(
        (value - (2.0 * best - 1.0)).abs() < 1e-9,
        "{s}: agent {value}, equations {}",
        2.0 * best - 1.0
    );
    if i + k < eq.target() {
        let (roll, hold) = (eq.roll(i, j, k), eq.hold(i, j, k));
        // The equations' values are win chances; the agent's ties are on 2p − 1.
        match result.best.unwrap() {
            PigMove::Roll => assert!(2.0 * (hold - roll) < TIE, "{s}: roll {roll} hold {hold}"),
            PigMove::Hold => assert!(2.0 * (roll - hold) < TIE, "{s}: roll {roll} hold {hold}"),
            PigMove::Face(_) => panic!("a face at a decision"),
        }
        if (roll - hold).abs() > TIE {
            let expected = if roll > hold {
                PigMove::Roll
            } else {
                PigMove::Hold
            };
            assert_eq!(result.best, Some(expected), "{s}");
        }
    }
}

#[test]
fn tiny_pig_matches_its_equations_at_every_reachable_position() {
    for target in 3..=6 {
        for die in 2..=3 {
            let eq = PigEquations::solve(target, die);
            let mut agent = optimal(PigEval::default(), None);
            // Every position reachable within a horizon far beyond these games' length,
            // one per (scores, turn total, mover, roll pending).
            let start = Pig::new(target, die, 1000).unwrap().initial_state();
            let mut seen = std::collections::HashSet::new();
            let mut todo = vec![start];
            let (mut decisions, mut chances) = (0, 0);
            while let Some(s) = todo.pop() {
                let key = (
                    s.score(0),
                    s.score(1),
                    s.turn_total(),
                    s.mover(),
                    s.rolling(),
                );
                if !seen.insert(key) {
                    continue;
                }
                let mut next = Vec::new();
                match s.turn() {
                    Turn::Over => continue,
                    Turn::Seat(_) => {
                        decisions += 1;
                        check_pig_decision(agent.as_mut(), &eq, &s);
                        let mut moves = Vec::new();
                        s.legal_moves(&mut moves);
                        next.extend(moves);
                    }
                    Turn::Chance => {
                        // The value of the pending roll, from seat 0's view.
                        chances += 1;
                        let (i, j, k) = pig_view(&s);
                        let p = eq.roll(i, j, k);
                        let seat0 = if s.mover() == 0 { p } else { 1.0 - p };
                        let value = expected(&search(agent.as_mut(), &s), 1000);
                        assert!((value - (2.0 * seat0 - 1.0)).abs() < 1e-9, "{s}");
                        let mut outcomes = Vec::new();
                        s.chance_outcomes(&mut outcomes);
                        next.extend(outcomes.iter().map(|&(m, _)| m));
                    }
                }
                for m in next {
                    let mut c = s;
                    c.apply(m);
                    todo.push(c);
                }
            }
            assert!(decisions > 10 && chances > 5, "target {target} die {die}");
        }
    }
}

#[test]
fn the_length_cap_is_left_out_of_the_values() {
    // With a horizon of 6 decisions, four holds of nothing and a roll leave one decision
    // before the draw: the capped game is a draw whatever the mover does, but the agent
    // values every position as the capless game, by the equations.
    let eq = PigEquations::solve(5, 3);
    let mut agent = optimal(PigEval::default(), None);
    let mut s = Pig::new(5, 3, 6).unwrap().initial_state();
    for m in [
        PigMove::Hold,
        PigMove::Hold,
        PigMove::Hold,
        PigMove::Hold,
        PigMove::Roll,
    ] {
        check_pig_decision(agent.as_mut(), &eq, &s);
        s.apply(m);
    }
    s.apply(PigMove::Face(2));
    assert_eq!(s.decisions(), 5);
    check_pig_decision(agent.as_mut(), &eq, &s);
    let value = expected(&search(agent.as_mut(), &s), 1000);
    assert!(
        value.abs() > 0.1,
        "{value}: far from the capped game's draw"
    );
}

/// A Pig position of the default rules reached by play: seat 0 banks `first`, seat 1
/// banks `second`, and the seat `mover` has rolled a turn total of `total` (each sum
/// made of faces 2..=6, so `1` cannot be made and is not asked for).
fn pig_position(first: u32, second: u32, mover: usize, total: u32) -> PigState {
    let mut s = Pig::default().initial_state();
    let roll_to = |s: &mut PigState, mut sum: u32| {
        while sum > 0 {
            let face = if sum == 7 { 5 } else { sum.min(6) };
            s.apply(PigMove::Roll);
            s.apply(PigMove::Face(face as u8));
            sum -= face;
        }
    };
    roll_to(&mut s, first);
    s.apply(PigMove::Hold);
    roll_to(&mut s, second);
    s.apply(PigMove::Hold);
    if mover == 1 {
        s.apply(PigMove::Roll);
        s.apply(PigMove::Face(1));
    }
    roll_to(&mut s, total);
    assert_eq!(
        (s.score(0), s.score(1), s.mover(), s.turn_total()),
        (first, second, mover, total)
    );
    s
}

#[test]
fn default_pig_matches_its_equations_and_the_first_player_wins_53_per_cent() {
    let eq = PigEquations::solve(100, 6);
    let mut agent = optimal(PigEval::default(), None);
    let start = Pig::default().initial_state();
    let first = expected(&search(agent.as_mut(), &start), 1000);
    let p = (1.0 + first) / 2.0;
    println!("default Pig: the first player wins with probability {p:.9}");
    // Neller and Presser's figure, to the four places they give.
    assert!((p - 0.5306).abs() < 5e-5, "{p}");
    assert!((p - eq.p(0, 0, 0)).abs() < 1e-9);
    // Every start of a turn, and a spread of turn totals, for both movers.
    let reachable = |n: u32| n != 1;
    for a in (0..100).filter(|&a| reachable(a)) {
        for b in (0..100).filter(|&b| reachable(b)) {
            for mover in 0..2 {
                let own = if mover == 0 { a } else { b };
                for total in [0, 2, 9, 20, 33] {
                    if own + total < 100 {
                        let s = pig_position(a, b, mover, total);
                        check_pig_decision(agent.as_mut(), &eq, &s);
                    }
                }
            }
        }
    }
}

// ---------------------------------------------------------------- other games

/// Coin Nim's exact value from seat 0's view by plain recursion: its tree is acyclic
/// (the pile shrinks and the decision cap is part of the position).
fn coin_nim_value(s: &CoinNimState) -> f64 {
    match s.turn() {
        Turn::Over => f64::from(s.outcome().unwrap().score(0)),
        Turn::Seat(mover) => {
            let mut moves = Vec::new();
            s.legal_moves(&mut moves);
            let values = moves.iter().map(|&m| {
                let mut c = s.clone();
                c.apply(m);
                coin_nim_value(&c)
            });
            if mover == 0 {
                values.fold(f64::NEG_INFINITY, f64::max)
            } else {
                values.fold(f64::INFINITY, f64::min)
            }
        }
        Turn::Chance => {
            let mut outcomes = Vec::new();
            s.chance_outcomes(&mut outcomes);
            let total: u32 = outcomes.iter().map(|&(_, w)| w).sum();
            let sum: f64 = outcomes
                .iter()
                .map(|&(m, w)| {
                    let mut c = s.clone();
                    c.apply(m);
                    f64::from(w) * coin_nim_value(&c)
                })
                .sum();
            sum / f64::from(total)
        }
    }
}

#[test]
fn coin_nim_matches_plain_recursion_with_same_seat_decisions_and_draws() {
    for (stones, cap) in [(5, 4), (7, 6), (9, 12)] {
        let mut agent = optimal(CoinNimEval::default(), None);
        let mut s = CoinNim { stones, cap }.initial_state();
        let mut rng = rng(u64::from(stones));
        let mut moves = Vec::new();
        // Every position of a random line, chance nodes and finished games included.
        loop {
            let seat0 = coin_nim_value(&s);
            let result = search(agent.as_mut(), &s);
            let value = expected(&result, CoinNimEval::default().bounds().1);
            let view = match s.turn() {
                Turn::Seat(1) => -seat0,
                _ => seat0,
            };
            assert!((value - view).abs() < 1e-12, "{s}: {value} against {view}");
            let m = match s.turn() {
                Turn::Over => break,
                Turn::Chance => sample_outcome(&s, &mut rng),
                Turn::Seat(_) => {
                    moves.clear();
                    s.legal_moves(&mut moves);
                    moves[rng.random_range(0..moves.len())]
                }
            };
            s.apply(m);
        }
    }
}

#[test]
fn tic_tac_toe_is_solved_as_the_plain_solver_solves_it() {
    let mut agent = optimal(TicTacToeEval, None);
    let mut memo = Memo::new();
    let mut rng = rng(3);
    for plies in 0..8 {
        let mut s = random_position(&TicTacToe::default(), plies, &mut rng);
        let Turn::Seat(mover) = s.turn() else {
            continue;
        };
        let result = search(agent.as_mut(), &s);
        let solved = memo.value(&mut s).signum();
        assert_eq!(
            expected(&result, TicTacToeEval.bounds().1),
            f64::from(solved)
        );
        // The move played keeps that value.
        let mut after = s.clone();
        after.apply(result.best.unwrap());
        let kept = match after.outcome() {
            Some(outcome) => outcome.score(mover),
            None => -memo.value(&mut after).signum(),
        };
        assert_eq!(kept, solved, "{s}");
    }
    let start = search(agent.as_mut(), &TicTacToe::default());
    assert_eq!(expected(&start, TicTacToeEval.bounds().1), 0.0);
}

// ---------------------------------------------------------------- refusals

#[test]
fn games_too_large_are_refused_with_the_reason() {
    let refused = |error: AgentError| {
        let text = error.to_string();
        assert!(text.contains("more than 1000 positions"), "{text}");
        assert!(
            text.starts_with("agent \"optimal\" cannot play this game"),
            "{text}"
        );
    };
    let mut c4 = optimal::<Connect4State, _>(Connect4Eval::default(), Some(1000));
    refused(c4.prepare(&Connect4.initial_state()).unwrap_err());
    let huge = Pig::new(1000, 6, 1000).unwrap().initial_state();
    let mut pig = optimal(PigEval::default(), Some(1000));
    refused(pig.prepare(&huge).unwrap_err());
    assert_eq!(
        Table::build(&huge, 1000).err(),
        Some(TableError::TooLarge { limit: 1000 })
    );
    // A game that fits is prepared, and a refused one does not stop others.
    let small = Pig::new(4, 2, 1000).unwrap().initial_state();
    assert!(pig.prepare(&small).is_ok());
}

#[test]
fn a_game_that_ends_by_its_history_is_refused() {
    // Tug's start has occurred twice: a step left and back makes it a third time, which
    // loses by repetition, a value no table of positions can hold.
    let mut s = tug::Tug::default();
    s.apply(tug::Step::Left);
    s.apply(tug::Step::Right);
    let error = Table::build(&s, 1000).err();
    assert_eq!(error, Some(TableError::EndsByHistory));
}

#[test]
fn tables_are_shared_between_agents_and_kept_apart_between_rules() {
    let small = Pig::new(8, 3, 1000).unwrap();
    let other = Pig::new(9, 3, 1000).unwrap();
    let table = Table::build(&small.initial_state(), 1_000_000).unwrap();
    // The two rules give the start equal keys; the table knows its own game.
    assert_eq!(small.initial_state().hash(), other.initial_state().hash());
    assert_eq!(table.find(&small.initial_state()), Some(0));
    assert_eq!(table.find(&other.initial_state()), None);
    // Agents of either rules get their own values.
    let value = |rules: Pig| {
        let mut agent = optimal(PigEval::default(), None);
        expected(&search(agent.as_mut(), &rules.initial_state()), 1000)
    };
    let eq = |t| 2.0 * PigEquations::solve(t, 3).p(0, 0, 0) - 1.0;
    assert!((value(small) - eq(8)).abs() < 1e-9);
    assert!((value(other) - eq(9)).abs() < 1e-9);
    assert!((value(small) - value(other)).abs() > 1e-6);
}
