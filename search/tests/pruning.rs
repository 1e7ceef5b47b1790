//! Forward pruning in `ab` (late-move reductions, futility pruning, late-move pruning,
//! razoring, null-move pruning, follow-up pruning): what it may change (the value at a fixed depth, how much is searched) and
//! what it may not (a result proven by searching to the end, the agent's behaviour when
//! it is off); and the move of an iteration cut short by the budget (`partial`).

use crate::common;

use agon_engine::games::apv::{Apv, ApvEval};
use agon_engine::games::connect4::{Connect4, Connect4Eval};
use agon_engine::games::invector::{Invector, InvectorEval};
use agon_engine::games::romgon::{Colour, Romgon, RomgonEval, RomgonState};
use agon_engine::{Game, Params, State, Turn};
use agon_search::registry::build;
use agon_search::{
    Agent, AgentKind, AgentRng, AlphaBeta, AlphaBetaConfig, Budget, Pruning, SearchContext,
    SearchResult, Value,
};
use common::tic_tac_toe::{TicTacToe, TicTacToeEval};
use common::unforeseen::{Unforeseen, UnforeseenEval};
use common::*;
use rand::SeedableRng;

/// Late-move reductions alone, futility pruning alone, late-move pruning alone,
/// razoring alone, null-move pruning alone, and all five.
const PRUNINGS: [Pruning; 6] = [
    Pruning {
        lmr: true,
        ..Pruning::NONE
    },
    Pruning {
        futility: true,
        ..Pruning::NONE
    },
    Pruning {
        lmp: true,
        ..Pruning::NONE
    },
    Pruning {
        razoring: true,
        ..Pruning::NONE
    },
    Pruning {
        null_move: true,
        ..Pruning::NONE
    },
    Pruning {
        lmr: true,
        futility: true,
        lmp: true,
        razoring: true,
        null_move: true,
        follow_ups: None,
    },
];

/// `ab` with `pruning`, within `budget`, with a small table.
fn pruned(budget: Budget, pruning: Pruning) -> AlphaBetaConfig {
    AlphaBetaConfig {
        budget,
        hash_mb: 1,
        pruning,
        ..AlphaBetaConfig::default()
    }
}

fn search<S: agon_engine::Deterministic>(
    agent: &mut impl Agent<S>,
    state: &S,
) -> SearchResult<S::Move> {
    agent.search(
        state,
        SearchContext::new(&mut AgentRng::seed_from_u64(0), &mut |_| {}),
    )
}

#[test]
fn pruning_keeps_results_searched_to_the_end_exact() {
    // No pruning skips a move for good: reductions search it less deep, and futility
    // and late-move pruning act only near the horizon, where they make the node
    // heuristic, so a search that deepens until it proves the result goes past it. So
    // the proof finds the game's true result (win, draw or loss), and its move keeps
    // it. (The distance may be longer than the fastest: a faster win may sit in a
    // reduced subtree.)
    let mut memo = Memo::new();
    for pruning in PRUNINGS {
        let mut checked = 0;
        for seed in 0..60 {
            let mut r = rng(7_000 + seed);
            let start = random_position(&TicTacToe::default(), (seed % 6) as usize, &mut r);
            let Turn::Seat(mover) = start.turn() else {
                continue;
            };
            let mut agent = AlphaBeta::new(TicTacToeEval, pruned(Budget::default(), pruning));
            let result = search(&mut agent, &start);
            assert!(
                result.value.is_proven(),
                "{pruning:?} {start}: {:?}",
                result.value
            );
            let mut s = start.clone();
            let expected = memo.value(&mut s).signum();
            assert_eq!(
                value_score(result.value).signum(),
                expected,
                "{pruning:?} {start}"
            );
            let undo = s.apply(result.best.unwrap());
            let after = child_score(&mut s, mover, 1, |c| {
                let v = memo.value(c);
                v - v.signum()
            });
            s.undo(undo);
            assert_eq!(after.signum(), expected, "{pruning:?}: the move of {start}");
            checked += 1;
        }
        assert!(checked > 50);
    }
}

/// Searches `start` to `depth` with every pruning, once trusting the game's forecast of
/// the moves that cannot end it and once without it, and asserts the same search.
fn same_search_without_the_forecast<S, E>(start: &S, eval: E, depth: u32)
where
    S: agon_engine::Deterministic,
    E: agon_engine::Evaluator<S>,
{
    for pruning in PRUNINGS {
        let budget = Budget {
            depth: Some(depth),
            ..Budget::default()
        };
        let mut foreseen = AlphaBeta::new(eval.clone(), pruned(budget, pruning));
        let mut unforeseen = AlphaBeta::new(UnforeseenEval(eval.clone()), pruned(budget, pruning));
        let a = search(&mut foreseen, start);
        let b = search(&mut unforeseen, &Unforeseen(start.clone()));
        assert_eq!(
            (a.best, a.value, a.nodes),
            (b.best, b.value, b.nodes),
            "{pruning:?} depth {depth} from\n{start}"
        );
    }
}

#[test]
fn a_forecast_of_the_moves_that_cannot_end_the_game_changes_no_search() {
    // Late-move and futility pruning skip a move only if it does not end the game.
    // Romgon and Connect Four rule the end out for most quiet moves (`may_end_game`),
    // which spares the search playing them and, after a node's first skip, ordering
    // the rest: the same search as without the forecast, node for node.
    // Romgon with the shortest shuttle limit, where many quiet moves lose.
    let params = Params::parse(Romgon::param_specs(), &[("shuttle_limit", "2")]).unwrap();
    let game = Romgon::from_params(&params).unwrap();
    for seed in 0..6 {
        let mut r = rng(9_000 + seed);
        let start = random_position(&game.initial_state(), 20 + 8 * seed as usize, &mut r);
        same_search_without_the_forecast(&start, RomgonEval::default(), 4);
    }
    // A quiet move that wins: with Black to move, White threatens to deadlock Black's
    // Rhombus on 0-0 by turning its triangle on 1-1 to NW.
    let threat = Romgon::default()
        .position("R6-5 T1-1@E S1-3 S3-2 r0-0 s2-2 s6-1", Colour::Black)
        .unwrap();
    for depth in 2..=4 {
        same_search_without_the_forecast(&threat, RomgonEval::default(), depth);
    }
    // Connect Four's forecast is exact, and its evaluator's hints put killers late.
    for seed in 0..12 {
        let mut r = rng(9_100 + seed);
        let start = random_position(&Connect4.initial_state(), 6 + seed as usize, &mut r);
        same_search_without_the_forecast(&start, Connect4Eval::default(), 7);
    }
}

#[test]
fn pruning_searches_fewer_nodes_at_a_fixed_depth_and_stays_reproducible() {
    let start = Invector::default().initial_state();
    let depth = |d| Budget {
        depth: Some(d),
        ..Budget::default()
    };
    let plain = AlphaBetaConfig {
        budget: depth(6),
        hash_mb: 1,
        ..AlphaBetaConfig::default()
    };
    let full = search(&mut AlphaBeta::new(InvectorEval::default(), plain), &start);
    assert_eq!(full.depth, 6);
    for pruning in PRUNINGS {
        let config = pruned(depth(6), pruning);
        let first = search(&mut AlphaBeta::new(InvectorEval::default(), config), &start);
        let again = search(&mut AlphaBeta::new(InvectorEval::default(), config), &start);
        assert_eq!(first.depth, 6);
        // Reductions at least halve the tree here; futility and late-move pruning,
        // acting on the last two plies only, take off at least a tenth, as does
        // null-move pruning. Razoring acts only where a node is already far behind,
        // which a balanced opening rarely is: it takes off something.
        let most = if pruning.lmr {
            full.nodes / 2
        } else if pruning
            == (Pruning {
                razoring: true,
                ..Pruning::NONE
            })
        {
            full.nodes - 1
        } else {
            full.nodes * 9 / 10
        };
        assert!(
            first.nodes < most,
            "{pruning:?}: {} nodes, unpruned {}",
            first.nodes,
            full.nodes
        );
        assert_eq!(
            (first.best, first.value, first.nodes, first.pv),
            (again.best, again.value, again.nodes, again.pv)
        );
    }
}

#[test]
fn a_cut_short_iteration_plays_only_a_move_it_found_better() {
    // With `partial_iterations`, the move played when the node budget cuts an iteration
    // short is the last completed iteration's, or one that the cut iteration found
    // better: its minimax score at the cut iteration's depth is higher. Exact-depth mode
    // makes the search's scores those of plain minimax, so that the reference can
    // check it.
    let eval = Connect4Eval::default();
    let mut changed = 0;
    for seed in 0..300 {
        let start = random_position(
            &Connect4.initial_state(),
            4 + (seed % 8) as usize,
            &mut rng(9_000 + seed),
        );
        let Turn::Seat(mover) = start.turn() else {
            continue;
        };
        for nodes in [500, 2_000, 8_000] {
            let config = |partial_iterations| AlphaBetaConfig {
                budget: Budget {
                    nodes: Some(nodes),
                    ..Budget::default()
                },
                hash_mb: 1,
                partial_iterations,
                exact_depth_cutoffs: true,
                ..AlphaBetaConfig::default()
            };
            let completed = search(&mut AlphaBeta::new(eval.clone(), config(false)), &start);
            let partial = search(&mut AlphaBeta::new(eval.clone(), config(true)), &start);
            // The same search up to the budget: the same completed iteration.
            assert_eq!(
                (partial.depth, partial.nodes),
                (completed.depth, completed.nodes)
            );
            if partial.best == completed.best || completed.value.is_proven() {
                continue;
            }
            changed += 1;
            let depth = completed.depth;
            let score = |m| {
                let mut child = start.clone();
                child.apply(m);
                child_score(&mut child, mover, 1, |c| minimax(c, &eval, depth, 1, true))
            };
            let (better, before) = (partial.best.unwrap(), completed.best.unwrap());
            assert!(
                score(better) > score(before),
                "{start}: {better:?} ({}) played over {before:?} ({}) at depth {}",
                score(better),
                score(before),
                depth + 1
            );
        }
    }
    assert!(changed >= 8, "only {changed} searches changed their move");
}

#[test]
fn an_ab_spec_prunes_only_when_it_says_so() {
    // Through the registry, as a spec builds it: without `lmr`, `futility`, `lmp`,
    // `razoring`, `null` or `partial` the search is the one `=false` names (same nodes, same
    // move), and only `=true` changes it. From a middle game, where razoring finds
    // nodes far enough behind to act on at this depth.
    let mut start = Invector::default().initial_state();
    agon_engine::play_moves(&mut start, agon_engine::games::invector::MIDGAME).expect("legal");
    let run = |pairs: &[(&str, &str)]| run_spec(&start, InvectorEval::default(), pairs);
    let absent = run(&[("depth", "5"), ("hash", "1")]);
    for name in ["lmr", "futility", "lmp", "razoring", "null"] {
        let off = run(&[("depth", "5"), ("hash", "1"), (name, "false")]);
        let on = run(&[("depth", "5"), ("hash", "1"), (name, "true")]);
        assert_eq!(absent, off, "{name}");
        assert!(on.0 < off.0, "{name}=true {} nodes, off {}", on.0, off.0);
    }
    assert_eq!(AlphaBetaConfig::default().pruning, Pruning::NONE);
    assert!(!AlphaBetaConfig::default().partial_iterations);
    // A node budget cutting an early iteration short.
    let budget = [("nodes", "150"), ("hash", "1")];
    let absent = run(&budget);
    let off = run(&[budget[0], budget[1], ("partial", "false")]);
    assert_eq!(absent, off);
}

/// Searches `start` with the `ab` agent a spec of `pairs` builds through the registry,
/// and returns its nodes and move.
fn run_spec<S: agon_engine::Deterministic, E: agon_engine::Evaluator<S>>(
    start: &S,
    eval: E,
    pairs: &[(&str, &str)],
) -> (u64, Option<S::Move>) {
    let kind = AgentKind::AlphaBeta;
    let params = Params::parse(kind.info().params, pairs).expect("valid parameters");
    let mut agent = build::<S, _>(kind, &params, eval).expect("builds");
    let r = agent.search(
        start,
        SearchContext::new(&mut AgentRng::seed_from_u64(0), &mut |_| {}),
    );
    (r.nodes, r.best)
}

#[test]
fn the_check_extension_acts_only_when_asked_and_only_in_check() {
    // Through the registry: without `check` the search is the one `check=false` names;
    // `check=true` searches more on Romgon, whose Rhombus can stand in check, and
    // exactly as without it on Invector, which has no checks.
    let mut r = rng(9_200);
    let romgon = random_position(&Romgon::default().initial_state(), 40, &mut r);
    let mut invector = Invector::default().initial_state();
    agon_engine::play_moves(&mut invector, agon_engine::games::invector::MIDGAME).unwrap();
    let depth = [("depth", "4"), ("hash", "1")];
    let [absent, off, on] = [
        &depth[..],
        &[depth[0], depth[1], ("check", "false")],
        &[depth[0], depth[1], ("check", "true")],
    ]
    .map(|pairs| run_spec(&romgon, RomgonEval::default(), pairs));
    assert_eq!(absent, off);
    assert!(on.0 > off.0, "check=true {} nodes, off {}", on.0, off.0);
    let [off, on] = [("check", "false"), ("check", "true")].map(|pair| {
        run_spec(
            &invector,
            InvectorEval::default(),
            &[depth[0], depth[1], pair],
        )
    });
    assert_eq!(off, on);
    assert!(!AlphaBetaConfig::default().check_extension);
}

#[test]
fn quiet_wins_below_the_horizon_are_seen_only_when_asked() {
    // Romgon positions from random play. A depth-1 search ends before the opponent's
    // reply; with `qwins=true` its horizon plays the opponent's quiet actions that win
    // at once (a deadlock, a fortress) besides the captures quiescence always plays,
    // so it reports a loss in 2 exactly where a depth-2 search proves one: where every
    // action loses at once. Without it the search is the one `qwins=false` names, and
    // where the opponent's win is quiet it sees only the evaluator's score.
    fn run(start: &RomgonState, pairs: &[(&str, &str)]) -> (Value, u64) {
        let kind = AgentKind::AlphaBeta;
        let params = Params::parse(kind.info().params, pairs).expect("valid parameters");
        let mut agent = build(kind, &params, RomgonEval::default()).expect("builds");
        let r = agent.search(
            start,
            SearchContext::new(&mut AgentRng::seed_from_u64(0), &mut |_| {}),
        );
        (r.value, r.nodes)
    }
    let depth = [("depth", "1"), ("hash", "1")];
    let (mut lost, mut quiet) = (0, 0);
    let mut r = rng(9_300);
    for i in 0..3_000 {
        let start = random_position(&Romgon::default().initial_state(), 10 + i % 70, &mut r);
        if start.turn() == Turn::Over {
            continue;
        }
        let proven_lost = run(&start, &[("depth", "2"), ("hash", "1")]).0 == Value::Loss(2);
        let on = run(&start, &[depth[0], depth[1], ("qwins", "true")]);
        assert_eq!(on.0 == Value::Loss(2), proven_lost, "{on:?} at {start:?}");
        if proven_lost {
            lost += 1;
            let off = run(&start, &[depth[0], depth[1], ("qwins", "false")]);
            assert_eq!(run(&start, &depth), off);
            quiet += usize::from(matches!(off.0, Value::Score(_)));
        }
    }
    assert!(
        quiet >= 1,
        "{lost} lost positions, {quiet} lost to a quiet win"
    );
    assert!(!AlphaBetaConfig::default().quiet_wins);
}

/// An evaluator of Bonus Nim that knows nothing: every node scores 0, so a pruning's
/// heuristic bounds mislead as much as they can.
#[derive(Clone, Debug)]
struct Blind;

impl agon_engine::Evaluator<BonusNim> for Blind {
    fn heuristic(&self, _: &BonusNim, _: agon_engine::Seat) -> i32 {
        0
    }
    fn bounds(&self) -> (i32, i32) {
        (-1000, 1000)
    }
}

/// Searches each of `starts` (a Bonus Nim position and a budget) with `pruning` and the
/// [`Blind`] evaluator, asserts that every value reported as proven is the game's own
/// result, and returns how many were proven and how many searched a different number
/// of nodes than without the pruning.
fn proven_results_stay_right(
    pruning: Pruning,
    starts: impl IntoIterator<Item = (BonusNim, Budget)>,
) -> (usize, usize) {
    let mut memo = Memo::new();
    let (mut proven, mut changed) = (0, 0);
    for (start, budget) in starts {
        let expected = memo.value(&mut start.clone()).signum();
        let result = search(&mut AlphaBeta::new(Blind, pruned(budget, pruning)), &start);
        let plain = search(
            &mut AlphaBeta::new(Blind, pruned(budget, Pruning::NONE)),
            &start,
        );
        changed += usize::from(result.nodes != plain.nodes);
        if result.value.is_proven() {
            proven += 1;
            assert_eq!(
                value_score(result.value).signum(),
                expected,
                "{start:?}, {budget:?}: {:?}",
                result.value
            );
        }
    }
    (proven, changed)
}

/// A fixed-depth budget.
fn to_depth(depth: u32) -> Budget {
    Budget {
        depth: Some(depth),
        ..Budget::default()
    }
}

#[test]
fn null_move_pruning_never_proves_a_wrong_result() {
    // A node cut because a pass could not bring it below beta is a heuristic bound (the
    // pass is no move of the game), so whatever `ab` reports as proven comes from lines
    // without such a cut and must be the game's own result. Bonus Nim is all zugzwang
    // (a pile of four is lost only because the mover must take), and with an evaluator
    // that knows nothing every node at or above beta tries the pass, so the passes
    // mislead: trusted as proofs they would prove losses to be wins.
    let null_only = Pruning {
        null_move: true,
        ..Pruning::NONE
    };
    let starts = (1..=24).map(|pile| (BonusNim::new(pile, 40), to_depth(60)));
    let (proven, changed) = proven_results_stay_right(null_only, starts);
    assert!(
        proven >= 20 && changed >= 10,
        "{proven} proven, {changed} changed"
    );
}

#[test]
fn follow_up_pruning_never_proves_a_wrong_result() {
    // Bonus Nim gives a seat a second decision after some takes. Follow-up pruning
    // searches only the first move of such a decision at a null-window node and takes
    // the rest to fail low, a heuristic bound: whatever `ab` still reports as proven
    // comes from lines that searched every move, and must be the game's own result.
    // With an evaluator that knows nothing the first move is often not the best, so
    // trusted as proofs the skipped moves would prove wrong results.
    let follow_ups = Pruning {
        follow_ups: Some(1),
        ..Pruning::NONE
    };
    let starts = (1..=30).flat_map(|pile| {
        [12, 20, 40].into_iter().flat_map(move |cap| {
            [4, 8, 60]
                .into_iter()
                .map(move |depth| (BonusNim::new(pile, cap), to_depth(depth)))
        })
    });
    let (proven, changed) = proven_results_stay_right(follow_ups, starts);
    assert!(
        proven >= 100 && changed >= 50,
        "{proven} proven, {changed} changed"
    );
}

#[test]
fn follow_up_pruning_acts_only_on_decisions_that_continue_a_turn() {
    // Through the registry: on APV, whose turn is a move and then an order by the same
    // side, `followups=1` searches fewer nodes than the search without it; on Invector,
    // where every decision passes the turn, it searches the same tree.
    let depth = [("depth", "4"), ("hash", "1")];
    let with = [depth[0], depth[1], ("followups", "1")];
    for seed in 0..4 {
        let apv = random_position(
            &Apv::default().initial_state(),
            10 + 6 * seed,
            &mut rng(9_400 + seed as u64),
        );
        let off = run_spec(&apv, ApvEval::default(), &depth);
        let on = run_spec(&apv, ApvEval::default(), &with);
        assert!(
            on.0 < off.0,
            "followups=1 {} nodes, off {} at\n{apv}",
            on.0,
            off.0
        );
    }
    let mut invector = Invector::default().initial_state();
    agon_engine::play_moves(&mut invector, agon_engine::games::invector::MIDGAME).unwrap();
    let off = run_spec(&invector, InvectorEval::default(), &depth);
    let on = run_spec(&invector, InvectorEval::default(), &with);
    assert_eq!(off, on);
    assert_eq!(AlphaBetaConfig::default().pruning.follow_ups, None);
}
