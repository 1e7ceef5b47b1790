//! Building agents by name from checked parameters.

use crate::common;

use agon_engine::testing::coin_nim::{CoinNim, CoinNimEval, CoinNimState};
use agon_engine::{Game, Params, State};
use agon_search::registry::{build, complete_params};
use agon_search::{AgentError, AgentKind, AgentRng, SearchContext, Value};
use common::*;
use rand::SeedableRng;

fn params(kind: AgentKind, overrides: &[(&str, &str)]) -> Params {
    let mut p = Params::parse(kind.info().params, overrides).expect("valid parameters");
    complete_params(kind, &mut p);
    p
}

#[test]
fn every_agent_builds_for_a_deterministic_game_and_plays_a_legal_move() {
    let s = TicTacToe::default();
    for kind in AgentKind::ALL {
        let p = params(kind, &[]);
        let mut agent = build::<TicTacToe, _>(kind, &p, TicTacToeEval).expect("builds");
        let m = agent.select_move(&s, &mut AgentRng::seed_from_u64(1));
        assert!(s.clone().try_apply(m).is_ok(), "{}", kind.name());
    }
}

#[test]
fn parameters_reach_the_agents() {
    let s = TicTacToe::default();
    let mut rng = AgentRng::seed_from_u64(0);
    let ab = |overrides| {
        let p = params(AgentKind::AlphaBeta, overrides);
        build::<TicTacToe, _>(AgentKind::AlphaBeta, &p, TicTacToeEval).unwrap()
    };
    let solve = |overrides| {
        let p = params(AgentKind::Solve, overrides);
        build::<TicTacToe, _>(AgentKind::Solve, &p, TicTacToeEval).unwrap()
    };
    let r =
        ab(&[("depth", "2"), ("hash", "1")]).search(&s, SearchContext::new(&mut rng, &mut |_| {}));
    assert_eq!(r.depth, 2);
    let r = ab(&[("nodes", "30")]).search(&s, SearchContext::new(&mut rng, &mut |_| {}));
    assert!(r.nodes <= 30);
    let r = solve(&[]).search(&s, SearchContext::new(&mut rng, &mut |_| {}));
    assert_eq!(r.value, Value::Draw);
    let r = solve(&[("nodes", "10")]).search(&s, SearchContext::new(&mut rng, &mut |_| {}));
    assert!(!r.value.is_proven());
}

#[test]
fn alpha_beta_agents_are_refused_for_games_with_chance() {
    let s = CoinNim::default().initial_state();
    for kind in [AgentKind::AlphaBeta, AgentKind::Solve] {
        let name = kind.name();
        let err = build::<CoinNimState, _>(kind, &params(kind, &[]), CoinNimEval::default())
            .err()
            .expect("refused");
        assert!(matches!(err, AgentError::NeedsDeterministic { .. }));
        assert_eq!(
            err.to_string(),
            format!(
                "agent \"{name}\" needs a deterministic game: alpha-beta cannot search chance \
                 nodes (for games with chance use star2 or mcts)"
            )
        );
    }
    for kind in [AgentKind::Random, AgentKind::Greedy] {
        let mut agent =
            build::<CoinNimState, _>(kind, &params(kind, &[]), CoinNimEval::default()).unwrap();
        let m = agent.select_move(&s, &mut AgentRng::seed_from_u64(0));
        assert!(s.clone().try_apply(m).is_ok());
    }
}

#[test]
fn unknown_agents_name_the_valid_ones() {
    let err = AgentKind::from_name("alphabeta").unwrap_err();
    assert_eq!(
        err.to_string(),
        "unknown agent \"alphabeta\" (valid: random, greedy, ab, solve, expectimax, star1, star2, mcts, optimal)"
    );
    assert!(AgentKind::from_name("uct").is_err());
}
