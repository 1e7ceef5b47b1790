//! The `mcts` agent: tactics (win in one, avoid a loss in one) on every game, proofs
//! against the exact solver, reproducibility, tree reuse, threads, and Pig's optimal
//! hold/roll policy computed by value iteration.

use crate::common;

use agon_engine::games::connect4::{Connect4, Connect4Eval, Connect4State};
use agon_engine::games::invector::{Invector, InvectorEval, InvectorState};
use agon_engine::games::pig::{Pig, PigEval, PigMove, PigState};
use agon_engine::{play_moves, Evaluator, Game, Outcome, State, Turn};
use agon_search::{Agent, AgentRng, Mcts, MctsConfig, Parallel, Rollout, SearchContext, Value};
use common::pig_equations::PigEquations;
use common::{rng, solver};
use rand::{Rng, SeedableRng};

/// An MCTS agent with `iters` iterations and otherwise `config`.
fn mcts<S: State, E: Evaluator<S>>(eval: E, iters: u64, config: MctsConfig) -> Mcts<S, E> {
    let config = MctsConfig {
        iterations: Some(iters),
        ..config
    };
    Mcts::new(eval, config)
}

fn defaults() -> MctsConfig {
    MctsConfig::default()
}

/// The moves of `s` after which its mover has won.
fn winning_moves<S: State>(s: &S) -> Vec<S::Move> {
    let Turn::Seat(me) = s.turn() else {
        return Vec::new();
    };
    let mut moves = Vec::new();
    s.legal_moves(&mut moves);
    moves
        .into_iter()
        .filter(|&m| {
            let mut t = s.clone();
            t.apply(m);
            t.outcome() == Some(Outcome::Win(me))
        })
        .collect()
}

/// Whether after `m` the opponent (deciding next) can win at once.
fn allows_a_win_in_one<S: State>(s: &S, m: S::Move) -> bool {
    let mut t = s.clone();
    t.apply(m);
    match t.turn() {
        Turn::Seat(seat) if Some(seat) != s.turn().seat() => !winning_moves(&t).is_empty(),
        _ => false,
    }
}

/// Positions reached by seeded uniformly random play from `start` (the game not over)
/// for which `keep` holds, up to `count` of them.
fn positions<S: State>(start: &S, count: usize, keep: impl Fn(&S) -> bool) -> Vec<S> {
    let mut found = Vec::new();
    let mut moves = Vec::new();
    for seed in 0..2000 {
        let mut r = rng(seed);
        let mut s = start.clone();
        while s.turn() != Turn::Over && found.len() < count {
            if keep(&s) {
                found.push(s.clone());
                break;
            }
            moves.clear();
            s.legal_moves(&mut moves);
            s.apply(moves[r.random_range(0..moves.len())]);
        }
        if found.len() == count {
            break;
        }
    }
    assert_eq!(found.len(), count, "not enough positions found");
    found
}

/// The solver settings a tactics check runs: on (the default), and off too if
/// `solver_off_too`.
fn solver_settings(solver_off_too: bool) -> impl Iterator<Item = bool> {
    [true, false]
        .into_iter()
        .filter(move |&solver| solver || solver_off_too)
}

/// Checks that MCTS plays a winning move wherever one exists and reports the proven
/// win (solver on, the default). Without the solver it is only checked where every
/// other move is not itself close to a sure win (`solver_off_too`): in a won position
/// plain UCT may prefer any move whose playouts all win, as OpenSpiel's does.
fn takes_wins_in_one<S: State, E: Evaluator<S>>(positions: &[S], eval: E, solver_off_too: bool) {
    for s in positions {
        let wins = winning_moves(s);
        for solver in solver_settings(solver_off_too) {
            let mut agent = mcts(
                eval.clone(),
                3000,
                MctsConfig {
                    solver,
                    ..defaults()
                },
            );
            let r = agent.search(
                s,
                SearchContext::new(&mut AgentRng::seed_from_u64(3), &mut |_| {}),
            );
            let best = r.best.unwrap();
            assert!(wins.contains(&best), "solver={solver}: {best:?} in\n{s}");
            if solver {
                assert_eq!(r.value, Value::Win(1), "{s}");
            }
        }
    }
}

/// Checks that MCTS never plays a move that lets the opponent win at once where a move
/// that does not exists (and no win in one is available), with the solver on (the
/// default) and, if `solver_off_too`, off: plain UCT may accept an immediate loss in a
/// position lost whatever it plays.
fn avoids_losses_in_one<S: State, E: Evaluator<S>>(positions: &[S], eval: E, solver_off_too: bool) {
    for s in positions {
        for solver in solver_settings(solver_off_too) {
            let mut agent = mcts(
                eval.clone(),
                5000,
                MctsConfig {
                    solver,
                    ..defaults()
                },
            );
            let best = agent.select_move(s, &mut AgentRng::seed_from_u64(4));
            assert!(
                !allows_a_win_in_one(s, best),
                "solver={solver}: {best:?} in\n{s}"
            );
        }
    }
}

/// A position where the mover can win at once.
fn has_win_in_one<S: State>(s: &S) -> bool {
    !winning_moves(s).is_empty()
}

/// A position without a win in one where some moves let the opponent win at once and
/// others do not.
fn must_parry<S: State>(s: &S) -> bool {
    if s.turn().seat().is_none() || has_win_in_one(s) {
        return false;
    }
    let mut moves = Vec::new();
    s.legal_moves(&mut moves);
    let bad = moves.iter().filter(|&&m| allows_a_win_in_one(s, m)).count();
    bad > 0 && bad < moves.len()
}

fn connect4(moves: &str) -> Connect4State {
    let mut s = Connect4.initial_state();
    play_moves(&mut s, moves).unwrap();
    s
}

fn invector() -> InvectorState {
    Invector::new(5, 4, true).unwrap().initial_state()
}

#[test]
fn connect_four_tactics() {
    // Seat 0 completes column a; seat 1 must block it.
    let win = connect4("a b a b a b");
    let parry = connect4("a b a b a");
    takes_wins_in_one(&[win], Connect4Eval::default(), true);
    avoids_losses_in_one(std::slice::from_ref(&parry), Connect4Eval::default(), true);
    let best = mcts(Connect4Eval::default(), 5000, defaults()).select_move(&parry, &mut rng(1));
    assert_eq!(parry.format_move(best), "a");
    let start = Connect4.initial_state();
    takes_wins_in_one(
        &positions(&start, 6, has_win_in_one),
        Connect4Eval::default(),
        false,
    );
    avoids_losses_in_one(
        &positions(&start, 6, must_parry),
        Connect4Eval::default(),
        false,
    );
}

#[test]
fn invector_tactics() {
    let start = invector();
    takes_wins_in_one(
        &positions(&start, 6, has_win_in_one),
        InvectorEval::default(),
        false,
    );
    avoids_losses_in_one(
        &positions(&start, 6, must_parry),
        InvectorEval::default(),
        false,
    );
}

/// Pig to `target` with a `die` of at least 3 faces, seat 0 to move with `mine`
/// banked, `theirs` for seat 1 and a turn total of `turn` (none of them 1: faces from
/// 2 to `die` make every other sum).
fn pig(target: u32, die: u32, mine: u32, theirs: u32, turn: u32) -> PigState {
    let rolls = |mut n: u32| {
        let mut text = String::new();
        while n > 0 {
            let face = if n == die || n >= die + 2 {
                die
            } else if n < die {
                n
            } else {
                n - 2
            };
            text += &format!("roll {face} ");
            n -= face;
        }
        text
    };
    let mut s = Pig::new(target, die, 1000).unwrap().initial_state();
    let line = format!("{}hold {}hold {}", rolls(mine), rolls(theirs), rolls(turn));
    play_moves(&mut s, &line).unwrap();
    assert_eq!(
        (s.score(0), s.score(1), s.turn_total(), s.turn()),
        (mine, theirs, turn, Turn::Seat(0))
    );
    s
}

#[test]
fn pig_tactics() {
    // Holding wins now (and is then the only move): the solver proves it.
    let s = pig(20, 6, 12, 18, 8);
    let r = mcts(PigEval::default(), 2000, defaults())
        .search(&s, SearchContext::new(&mut rng(1), &mut |_| {}));
    assert_eq!(r.best, Some(PigMove::Hold));
    assert_eq!(r.value, Value::Win(1));
    // Seat 1 is one point short: holding 18 hands it the turn, and it wins with a
    // non-1 roll; rolling wins at once with any face but 1 (5/6).
    let s = pig(20, 6, 10, 19, 8);
    for seed in 0..3 {
        let best = mcts(PigEval::default(), 5000, defaults()).select_move(&s, &mut rng(seed));
        assert_eq!(best, PigMove::Roll);
    }
}

#[test]
fn solver_agrees_with_solve_on_invector_4x3() {
    let start = Invector::new(4, 3, true).unwrap().initial_state();
    let exact = solver(InvectorEval::default())
        .search(&start, SearchContext::new(&mut rng(0), &mut |_| {}));
    assert_eq!(exact.value, Value::Loss(16));
    let r = mcts(InvectorEval::default(), 2_000_000, defaults())
        .search(&start, SearchContext::new(&mut rng(0), &mut |_| {}));
    assert!(
        matches!(r.value, Value::Loss(_)),
        "{:?} after {} iterations",
        r.value,
        r.nodes
    );
}

#[test]
fn solver_agrees_with_solve_on_connect_four_endgames() {
    let start = Connect4.initial_state();
    let endgames = positions(&start, 12, |s: &Connect4State| s.ply() >= 26);
    let mut seen = [0; 3];
    for s in &endgames {
        let exact =
            solver(Connect4Eval::default()).search(s, SearchContext::new(&mut rng(0), &mut |_| {}));
        let r = mcts(Connect4Eval::default(), 1_000_000, defaults())
            .search(s, SearchContext::new(&mut rng(0), &mut |_| {}));
        let class = |v: Value| match v {
            Value::Win(_) => 0,
            Value::Loss(_) => 1,
            Value::Draw => 2,
            other => panic!("unproven: {other:?}"),
        };
        assert_eq!(class(r.value), class(exact.value), "{s}");
        seen[class(r.value)] += 1;
        // A proven win is played: the move keeps the win.
        if let Value::Win(_) = r.value {
            let mut t = s.clone();
            t.apply(r.best.unwrap());
            if t.turn() != Turn::Over {
                let reply = solver(Connect4Eval::default())
                    .search(&t, SearchContext::new(&mut rng(0), &mut |_| {}));
                assert!(matches!(reply.value, Value::Loss(_)), "{s}");
            }
        }
    }
    println!("endgames won / lost / drawn: {seen:?}");
}

#[test]
fn one_thread_with_iterations_is_reproducible() {
    let s = connect4("d d c");
    let run = |seed: u64| {
        let mut lines = Vec::new();
        let r = mcts(Connect4Eval::default(), 4000, defaults()).search(
            &s,
            SearchContext::new(&mut rng(seed), &mut |i| {
                lines.push((i.depth, i.value, i.nodes, i.pv.clone()))
            }),
        );
        (r.best, r.value, r.nodes, r.depth, r.pv, lines)
    };
    assert_eq!(run(7), run(7));
    let different = (0..5).any(|seed| run(seed).4 != run(7).4);
    assert!(different, "the seed changes the search");
    // Root parallelism with iterations is reproducible too.
    let config = MctsConfig {
        threads: 2,
        parallel: Parallel::Root,
        ..defaults()
    };
    let root = || {
        let r = mcts(Connect4Eval::default(), 4000, config)
            .search(&s, SearchContext::new(&mut rng(9), &mut |_| {}));
        (r.best, r.value, r.nodes, r.pv)
    };
    assert_eq!(root(), root());
}

#[test]
fn tree_reuse_keeps_the_subtree_and_plays_legal_games() {
    // The agent's second search starts from the reply it expected: visits carry over.
    let mut agent = mcts(Connect4Eval::default(), 20_000, defaults());
    let mut s = Connect4.initial_state();
    let r = agent.search(&s, SearchContext::new(&mut rng(1), &mut |_| {}));
    assert_eq!(agent.reused_visits(), 0);
    s.apply(r.best.unwrap());
    let reply = r.pv[1];
    s.apply(reply);
    let second = agent.search(&s, SearchContext::new(&mut rng(2), &mut |_| {}));
    assert!(agent.reused_visits() > 100, "{}", agent.reused_visits());
    assert_eq!(second.nodes, 20_000, "iterations count this search only");
    // Without reuse nothing carries over.
    let mut fresh = mcts(
        Connect4Eval::default(),
        20_000,
        MctsConfig {
            reuse: false,
            ..defaults()
        },
    );
    fresh.search(
        &Connect4.initial_state(),
        SearchContext::new(&mut rng(1), &mut |_| {}),
    );
    fresh.search(&s, SearchContext::new(&mut rng(2), &mut |_| {}));
    assert_eq!(fresh.reused_visits(), 0);
    // A position the tree never saw starts afresh.
    agent.search(
        &connect4("a a a"),
        SearchContext::new(&mut rng(3), &mut |_| {}),
    );
    assert_eq!(agent.reused_visits(), 0);

    // Whole games with reuse on, through chance too: every move legal.
    fn play<S: State, E: Evaluator<S>>(start: S, eval: E, config: MctsConfig) {
        let mut agents = [mcts(eval.clone(), 300, config), mcts(eval, 300, config)];
        let mut s = start;
        let mut r = rng(5);
        let mut reused = 0;
        while let Some(turn) = (s.turn() != Turn::Over).then(|| s.turn()) {
            let m = match turn {
                Turn::Seat(seat) => {
                    let m = agents[seat].select_move(&s, &mut r);
                    reused += agents[seat].reused_visits();
                    m
                }
                _ => agon_engine::sample_outcome(&s, &mut r),
            };
            s.try_apply(m).expect("legal");
        }
        assert!(reused > 0, "reuse happened");
    }
    for parallel in [Parallel::Tree, Parallel::Root] {
        for threads in [1, 2] {
            let config = MctsConfig {
                threads,
                parallel,
                ..defaults()
            };
            play(Connect4.initial_state(), Connect4Eval::default(), config);
            play(invector(), InvectorEval::default(), config);
            play(
                Pig::new(20, 6, 1000).unwrap().initial_state(),
                PigEval::default(),
                config,
            );
        }
    }
}

#[test]
fn two_threads_play_legal_and_sensible_moves() {
    let win = connect4("a b a b a b");
    let parry = connect4("a b a b a");
    for parallel in [Parallel::Tree, Parallel::Root] {
        let config = MctsConfig {
            threads: 2,
            parallel,
            ..defaults()
        };
        let r = mcts(Connect4Eval::default(), 20_000, config)
            .search(&win, SearchContext::new(&mut rng(1), &mut |_| {}));
        assert_eq!(win.format_move(r.best.unwrap()), "a");
        assert_eq!(r.value, Value::Win(1));
        let r = mcts(Connect4Eval::default(), 20_000, config)
            .search(&parry, SearchContext::new(&mut rng(1), &mut |_| {}));
        assert_eq!(parry.format_move(r.best.unwrap()), "a");
        assert!(r.nodes >= 1 && r.nodes <= 20_000);
        let s = Connect4.initial_state();
        let r = mcts(Connect4Eval::default(), 20_000, config)
            .search(&s, SearchContext::new(&mut rng(1), &mut |_| {}));
        assert_eq!(r.nodes, 20_000);
        assert!(s.clone().try_apply(r.best.unwrap()).is_ok());
    }
}

#[test]
fn eval_leaves_and_chance_roots() {
    // rollout=eval plays the same tactics.
    let config = MctsConfig {
        rollout: Rollout::Eval,
        ..defaults()
    };
    let parry = connect4("a b a b a");
    let best = mcts(Connect4Eval::default(), 3000, config).select_move(&parry, &mut rng(1));
    assert_eq!(parry.format_move(best), "a");
    // At a chance node there is no move; the value is a mean reward from seat 0's view.
    let mut s = Pig::new(20, 6, 1000).unwrap().initial_state();
    play_moves(&mut s, "roll").unwrap();
    let r = mcts(PigEval::default(), 1000, defaults())
        .search(&s, SearchContext::new(&mut rng(1), &mut |_| {}));
    assert_eq!(r.best, None);
    assert!(matches!(r.value, Value::Reward(v) if (-1.0..=1.0).contains(&v)));
}

// ------------------------------------------------------------ Pig's optimal policy

/// Pig's rules for the policy check: target 20 with a d3. With a d6 and target 20,
/// rolling is optimal in every position (a roll risks only the turn total, and most
/// faces reach the target), so the check would be vacuous; with a d3 a third of the
/// rolls lose the turn, and holding is clearly right in many positions.
const TARGET: usize = 20;
const DIE: usize = 3;

/// Positions of Pig to [`TARGET`] with a [`DIE`]-faced die (seat 0 deciding, both
/// decisions legal, no score equal to 1, which faces of 2 and more cannot make) where
/// rolling and holding differ in optimal win probability by more than `margin`, with
/// the better decision: `per_kind` of those where rolling is better and as many where
/// holding is, evenly spread in a fixed order.
fn clear_positions(
    policy: &PigEquations,
    margin: f64,
    per_kind: usize,
) -> Vec<(u32, u32, u32, PigMove)> {
    let t = TARGET;
    let mut kinds = [Vec::new(), Vec::new()];
    for i in (0..t).filter(|&i| i != 1) {
        for j in (0..t).filter(|&j| j != 1) {
            for k in (0..t - i).filter(|&k| k != 1) {
                let (roll, hold) = (policy.roll(i, j, k), policy.hold(i, j, k));
                if (roll - hold).abs() > margin {
                    let (kind, best) = if roll > hold {
                        (0, PigMove::Roll)
                    } else {
                        (1, PigMove::Hold)
                    };
                    kinds[kind].push((i as u32, j as u32, k as u32, best));
                }
            }
        }
    }
    let mut chosen = Vec::new();
    for kind in kinds {
        let step = (kind.len() / per_kind).max(1);
        chosen.extend(kind.into_iter().step_by(step).take(per_kind));
    }
    chosen
}

fn pig_policy() -> PigEquations {
    PigEquations::solve(TARGET as u32, DIE as u32)
}

#[test]
fn the_value_iteration_reproduces_known_facts() {
    let policy = pig_policy();
    // Holding a turn total of 0 only passes: rolling is better at the start of a turn.
    let (roll, hold) = (policy.roll(0, 0, 0), policy.hold(0, 0, 0));
    assert!(roll > hold);
    // One point short with 18 in hand: every face but 1 wins at once.
    let roll = policy.roll(0, 0, 18);
    assert!((roll - (2.0 / 3.0 + (1.0 - policy.p(0, 0, 0)) / 3.0)).abs() < 1e-9);
    // The first player's advantage is real but modest; probabilities are probabilities.
    let first = policy.p(0, 0, 0);
    assert!(first > 0.5 && first < 0.6, "{first}");
    assert!(policy.all().iter().all(|&v| (0.0..=1.0).contains(&v)));
    // Both decisions are clearly right somewhere.
    let clear = clear_positions(&policy, 0.1, 1000);
    assert!(clear.iter().filter(|p| p.3 == PigMove::Hold).count() >= 50);
    assert!(clear.iter().filter(|p| p.3 == PigMove::Roll).count() >= 50);
}

/// MCTS (random playouts, `iters` iterations) picks the optimal decision on the clear
/// positions: those with a win-probability gap above `margin`.
fn mcts_matches_pig_policy(iters: u64, margin: f64, per_kind: usize) {
    let policy = pig_policy();
    let positions = clear_positions(&policy, margin, per_kind);
    assert_eq!(positions.len(), 2 * per_kind);
    let mut wrong = Vec::new();
    for &(i, j, k, best) in &positions {
        let s = pig(TARGET as u32, DIE as u32, i, j, k);
        let chosen = mcts(PigEval::default(), iters, defaults()).select_move(&s, &mut rng(11));
        if chosen != best {
            wrong.push((i, j, k, best));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} wrong: {wrong:?}",
        wrong.len(),
        positions.len()
    );
}

#[test]
fn mcts_plays_optimal_pig_on_clear_positions() {
    mcts_matches_pig_policy(20_000, 0.10, 6);
}

#[test]
#[ignore = "larger budget and more positions: about a minute"]
fn mcts_plays_optimal_pig_on_clear_positions_large() {
    mcts_matches_pig_policy(200_000, 0.05, 30);
}

#[test]
fn lock_free_tree_proves_what_one_thread_proves_and_bounds_its_arena() {
    let start = Connect4.initial_state();
    let parallel = MctsConfig {
        threads: 4,
        parallel: Parallel::Tree,
        ..defaults()
    };
    for s in positions(&start, 4, |s: &Connect4State| s.ply() >= 28) {
        let one = mcts(Connect4Eval::default(), 1_000_000, defaults())
            .search(&s, SearchContext::new(&mut rng(0), &mut |_| {}));
        let four = mcts(Connect4Eval::default(), 1_000_000, parallel)
            .search(&s, SearchContext::new(&mut rng(0), &mut |_| {}));
        assert!(!matches!(one.value, Value::Reward(_)), "{s}");
        // The result, not the line length: threads may find a different proving line.
        assert_eq!(
            std::mem::discriminant(&four.value),
            std::mem::discriminant(&one.value),
            "{s}"
        );
    }
    // A tiny arena fills, and the search still runs its iterations and plays legally.
    let tiny = MctsConfig {
        max_nodes: 50,
        ..parallel
    };
    let mut agent = mcts(Connect4Eval::default(), 5_000, tiny);
    let r = agent.search(&start, SearchContext::new(&mut rng(1), &mut |_| {}));
    assert!(agent.arena_full());
    assert_eq!(r.nodes, 5_000);
    assert!(start.clone().try_apply(r.best.unwrap()).is_ok());
    let mut roomy = mcts(Connect4Eval::default(), 5_000, parallel);
    roomy.search(&start, SearchContext::new(&mut rng(1), &mut |_| {}));
    assert!(!roomy.arena_full());
}

/// Every search of a whole game between two one-thread agents with `config` and `iters`
/// iterations (chance outcomes drawn from a seeded generator), written out: the move,
/// value, iterations, depth, principal variation and reused visits of each, and every
/// progress report. Two runs of the same code give the same text.
fn game_record<S: State, E: Evaluator<S>>(
    start: S,
    eval: E,
    iters: u64,
    config: MctsConfig,
    max_plies: usize,
) -> String {
    let mut agents = [mcts(eval.clone(), iters, config), mcts(eval, iters, config)];
    let mut s = start;
    let mut r = rng(11);
    let mut record = String::new();
    while s.turn() != Turn::Over && s.ply() < max_plies as u32 {
        let m = match s.turn() {
            Turn::Seat(seat) => {
                let mut reports = Vec::new();
                let result = agents[seat].search(
                    &s,
                    SearchContext::new(&mut r, &mut |i| reports.push((i.nodes, i.value))),
                );
                let pv: Vec<String> = result.pv.iter().map(|&m| s.format_move(m)).collect();
                record += &format!(
                    "{} {:?} {} {} {:?} {} {:?}\n",
                    s.format_move(result.best.unwrap()),
                    result.value,
                    result.nodes,
                    result.depth,
                    pv,
                    agents[seat].reused_visits(),
                    reports,
                );
                result.best.unwrap()
            }
            _ => agon_engine::sample_outcome(&s, &mut r),
        };
        s.try_apply(m).expect("legal");
    }
    record
}

/// FNV-1a of `text`, so that a pinned record fits on a line.
fn fnv(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// One thread with an iteration budget is reproducible across versions of the tree, not
/// only across runs: these whole games (decisions, chance, proofs, tree reuse,
/// evaluator leaves and guidance) were recorded once, and any change to the tree that
/// changes one search of them changes its record.
#[test]
fn one_thread_searches_match_their_recorded_games() {
    use agon_engine::games::threewill::{ThreeWill, ThreeWillEval};
    let guided = MctsConfig {
        rollout: Rollout::Eval,
        bias: 0.5,
        minimax: 0.3,
        ..defaults()
    };
    let records = [
        game_record(
            Connect4.initial_state(),
            Connect4Eval::default(),
            3000,
            defaults(),
            99,
        ),
        game_record(
            Connect4.initial_state(),
            Connect4Eval::default(),
            1000,
            guided,
            99,
        ),
        game_record(invector(), InvectorEval::default(), 2000, defaults(), 99),
        game_record(
            Pig::new(20, 6, 1000).unwrap().initial_state(),
            PigEval::default(),
            500,
            defaults(),
            60,
        ),
        game_record(
            ThreeWill::default().initial_state(),
            ThreeWillEval::default(),
            300,
            defaults(),
            40,
        ),
    ];
    let digests: Vec<u64> = records.iter().map(|r| fnv(r)).collect();
    assert_eq!(
        digests,
        [
            9495337948902322517,
            4462426192462462163,
            13800811074254495576,
            12588465827549849101,
            126551817726384754
        ]
    );
}

#[test]
fn stopping_early_plays_the_move_the_full_search_plays() {
    use agon_engine::games::threewill::{ThreeWill, ThreeWillEval};
    use agon_engine::sample_outcome;
    // Decision nodes of 3Will along random games, where the moves differ in worth.
    let mut found = Vec::new();
    let mut r = rng(5);
    let mut s = ThreeWill::default().initial_state();
    let mut moves = Vec::new();
    while found.len() < 24 {
        if s.turn() == Turn::Over {
            s = ThreeWill::default().initial_state();
        }
        let m = match s.turn() {
            Turn::Chance => sample_outcome(&s, &mut r),
            _ => {
                moves.clear();
                s.legal_moves(&mut moves);
                if moves.len() > 1 && s.ply() % 7 == 0 {
                    found.push(s);
                }
                moves[r.random_range(0..moves.len())]
            }
        };
        s.apply(m);
    }
    let config = MctsConfig {
        rollout: Rollout::Greedy { plies: Some(40) },
        c: 0.7,
        ..defaults()
    };
    let early = MctsConfig {
        early_stop: true,
        ..config
    };
    let mut stopped = 0;
    for (i, s) in found.iter().enumerate() {
        let search = |config| {
            mcts(ThreeWillEval::default(), 600, config)
                .search(s, SearchContext::new(&mut rng(i as u64), &mut |_| {}))
        };
        let (full, cut) = (search(config), search(early));
        // The same iterations up to the stop, and no other move could have caught up.
        assert_eq!(cut.best, full.best, "{s}");
        assert!(cut.nodes <= full.nodes, "{s}");
        stopped += usize::from(cut.nodes < full.nodes);
    }
    assert!(stopped >= 6, "only {stopped} of 24 searches stopped early");
}
