//! `greedy`: one decision ahead, exact weighted averages over chance, seeded tie-breaks.

use crate::common;

use agon_engine::testing::coin_nim::{CoinNim, CoinNimEval, CoinNimMove};
use agon_engine::{Evaluator, Game, State, Turn};
use agon_search::{Agent, AgentRng, Greedy, SearchContext, Value};
use common::*;
use rand::SeedableRng;

#[test]
fn picks_a_move_with_the_best_one_step_evaluation() {
    for seed in 0..100 {
        let mut r = rng(seed);
        let s = random_position(&TicTacToe::default(), (seed % 7) as usize, &mut r);
        let Turn::Seat(mover) = s.turn() else {
            continue;
        };
        let mut moves = Vec::new();
        s.legal_moves(&mut moves);
        let score = |m| {
            let mut c = s.clone();
            c.apply(m);
            TicTacToeEval.evaluate(&c, mover)
        };
        let best = moves.iter().map(|&m| score(m)).max().unwrap();
        let mut agent = Greedy::new(TicTacToeEval);
        let result = agent.search(
            &s,
            SearchContext::new(&mut AgentRng::seed_from_u64(seed), &mut |_| {}),
        );
        assert_eq!(score(result.best.unwrap()), best, "{s}");
        assert_eq!(result.value, Value::Score(f64::from(best)));
        assert_eq!(result.nodes, 1 + moves.len() as u64);
    }
}

/// Loves moving with an even pile: `100 - pile` to the mover then, `-pile` otherwise.
#[derive(Clone, Copy, Debug)]
struct EvenPile;

impl Evaluator<BonusNim> for EvenPile {
    fn heuristic(&self, s: &BonusNim, seat: agon_engine::Seat) -> i32 {
        let p = i32::from(s.pile);
        let for_mover = if p % 2 == 0 { 100 - p } else { -p };
        if seat == s.mover {
            for_mover
        } else {
            -for_mover
        }
    }
    fn bounds(&self) -> (i32, i32) {
        (-100, 100)
    }
}

#[test]
fn scores_from_the_movers_view_when_the_same_seat_moves_again() {
    // Pile 5: take3 leaves 2 and keeps the move: 98 for seat 0 (negated, it would be
    // -98). take1 leaves 4 to the opponent: -96; take2 leaves 3 to the opponent: +3.
    let s = BonusNim::new(5, 10);
    let mut agent = Greedy::new(EvenPile);
    let r = agent.search(
        &s,
        SearchContext::new(&mut AgentRng::seed_from_u64(0), &mut |_| {}),
    );
    assert_eq!(r.best, Some(Take(3)));
    assert_eq!(r.value, Value::Score(98.0));
}

#[test]
fn averages_over_chance_outcomes_by_weight() {
    // Pile 5. After take1 (pile 4, good for whoever moves: g = 10) the coin gives heads
    // (weight 1: the same seat moves, +10) or tails (weight 2: the opponent moves, -10):
    // (10 - 20) / 3 = -10/3. After take2 (pile 3, g = -10): (-10 + 20) / 3 = +10/3.
    // An unweighted average would tie the two at 0; scoring the chance node itself would
    // prefer take1.
    let s = CoinNim { stones: 5, cap: 9 }.initial_state();
    for seed in 0..10 {
        let mut agent = Greedy::new(CoinNimEval::default());
        let r = agent.search(
            &s,
            SearchContext::new(&mut AgentRng::seed_from_u64(seed), &mut |_| {}),
        );
        assert_eq!(r.best, Some(CoinNimMove::Take(2)));
        assert_eq!(r.value, Value::Score(10.0 / 3.0));
        assert_eq!(r.nodes, 1 + 2 + 2 * 2, "root, two moves, two outcomes each");
    }
}

#[test]
fn at_a_chance_node_reports_the_expected_value_and_no_move() {
    let mut s = CoinNim { stones: 5, cap: 9 }.initial_state();
    s.apply(CoinNimMove::Take(1));
    assert_eq!(s.turn(), Turn::Chance);
    let mut agent = Greedy::new(CoinNimEval::default());
    let r = agent.search(
        &s,
        SearchContext::new(&mut AgentRng::seed_from_u64(0), &mut |_| {}),
    );
    assert_eq!(r.best, None);
    // Seat 0's view: heads (1) seat 0 moves at pile 4: +10; tails (2): seat 1 does: -10.
    assert_eq!(r.value, Value::Score(-10.0 / 3.0));
}

#[test]
fn ties_are_broken_reproducibly_and_differently_across_seeds() {
    // With a cross in the centre, the four corners score the same (and best) for o.
    let mut s = TicTacToe::default();
    s.apply(Cell(4));
    let pick = |seed| {
        let mut agent = Greedy::new(TicTacToeEval);
        agent
            .search(
                &s,
                SearchContext::new(&mut AgentRng::seed_from_u64(seed), &mut |_| {}),
            )
            .best
            .unwrap()
    };
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..32 {
        let m = pick(seed);
        assert_eq!(pick(seed), m, "seed {seed} is not reproducible");
        seen.insert(m);
    }
    let best = TicTacToeEval.evaluate(
        &{
            let mut c = s.clone();
            c.apply(Cell(0));
            c
        },
        1,
    );
    assert!(seen.len() > 1, "only {seen:?} over 32 seeds");
    for m in &seen {
        let mut c = s.clone();
        c.apply(*m);
        assert_eq!(
            TicTacToeEval.evaluate(&c, 1),
            best,
            "{m:?} is not a best move"
        );
    }
}
