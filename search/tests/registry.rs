//! Building agents by name from checked parameters.

mod common;

use agon_engine::testing::coin_nim::{CoinNim, CoinNimEval, CoinNimState};
use agon_engine::{Game, Params, State};
use agon_search::registry::{self, build_chance, build_deterministic, complete_params};
use agon_search::{AgentError, AgentRng, Value, AGENTS};
use common::*;
use rand::SeedableRng;

fn params(name: &str, overrides: &[(&str, &str)]) -> Params {
    let info = registry::find(name).expect("a known agent");
    let mut p = Params::parse(info.params, overrides).expect("valid parameters");
    complete_params(name, &mut p);
    p
}

#[test]
fn every_agent_builds_for_a_deterministic_game_and_plays_a_legal_move() {
    let s = TicTacToe::default();
    for info in AGENTS {
        let p = params(info.name, &[]);
        let label = format!("{}:{}", info.name, p.canonical());
        let mut agent =
            build_deterministic::<TicTacToe, _>(info.name, &p, TicTacToeEval, label.clone())
                .expect("builds");
        assert_eq!(agent.name(), label);
        let m = agent.select_move(&s, &mut AgentRng::seed_from_u64(1));
        assert!(s.clone().try_apply(m).is_ok());
        assert_eq!(agent.stats().searches, 1);
    }
}

#[test]
fn parameters_reach_the_agents() {
    let s = TicTacToe::default();
    let mut rng = AgentRng::seed_from_u64(0);
    let p = params("ab", &[("depth", "2"), ("hash", "1")]);
    let mut ab = build_deterministic::<TicTacToe, _>("ab", &p, TicTacToeEval, "ab".into()).unwrap();
    assert_eq!(ab.search(&s, &mut rng, &mut |_| {}).depth, 2);
    let p = params("ab", &[("nodes", "30")]);
    let mut ab = build_deterministic::<TicTacToe, _>("ab", &p, TicTacToeEval, "ab".into()).unwrap();
    assert!(ab.search(&s, &mut rng, &mut |_| {}).nodes <= 30);
    let p = params("solve", &[]);
    let mut solve =
        build_deterministic::<TicTacToe, _>("solve", &p, TicTacToeEval, "solve".into()).unwrap();
    assert_eq!(solve.search(&s, &mut rng, &mut |_| {}).value, Value::Draw);
    let p = params("solve", &[("nodes", "10")]);
    let mut solve =
        build_deterministic::<TicTacToe, _>("solve", &p, TicTacToeEval, "solve".into()).unwrap();
    assert!(!solve.search(&s, &mut rng, &mut |_| {}).value.is_proven());
}

#[test]
fn alpha_beta_agents_are_refused_for_games_with_chance() {
    let s = CoinNim::default().initial_state();
    for name in ["ab", "solve"] {
        let err =
            build_chance::<CoinNimState, _>(name, &params(name, &[]), CoinNimEval, name.into())
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
    for name in ["random", "greedy"] {
        let mut agent =
            build_chance::<CoinNimState, _>(name, &params(name, &[]), CoinNimEval, name.into())
                .unwrap();
        let m = agent.select_move(&s, &mut AgentRng::seed_from_u64(0));
        assert!(s.clone().try_apply(m).is_ok());
    }
}

#[test]
fn unknown_agents_name_the_valid_ones() {
    let err =
        build_chance::<CoinNimState, _>("alphabeta", &Params::default(), CoinNimEval, "x".into())
            .err()
            .unwrap();
    assert_eq!(
        err.to_string(),
        "unknown agent \"alphabeta\" (valid: random, greedy, ab, solve, expectimax, star1, star2, mcts)"
    );
    assert!(build_deterministic::<TicTacToe, _>(
        "uct",
        &Params::default(),
        TicTacToeEval,
        "x".into()
    )
    .is_err());
}
