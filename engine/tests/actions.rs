//! Dense action ids (`DenseActions`) of Connect Four, Pig and Coin Nim against their
//! contract and against OpenSpiel's numbering, and the checker against a broken
//! numbering. The other games check theirs beside their conformance tests.

use agon_engine::games::connect4::{Connect4, Connect4State};
use agon_engine::games::pig::Pig;
use agon_engine::testing::check_action_ids;
use agon_engine::testing::coin_nim::CoinNim;
use agon_engine::{
    move_with_id, ActionSpace, ConfigError, DenseActions, Game, ParamSpec, Params, State,
};

#[test]
fn connect4_numbers_drops_by_column() {
    let game = Connect4;
    let state = game.initial_state();
    let space = game.action_space();
    assert_eq!((space.decisions, space.chance_outcomes), (7, 0));
    assert_eq!((space.max_game_length, space.max_decisions), (42, 42));
    for (id, text) in ["a", "b", "c", "d", "e", "f", "g"].iter().enumerate() {
        let m = state.parse_move(text).unwrap();
        assert_eq!(game.action_id(m), id as u32);
        assert_eq!(move_with_id(&game, &state, id as u32), Some(m));
    }
    assert_eq!(move_with_id(&game, &state, 7), None);
    let report = check_action_ids(&game, 200, 1).unwrap();
    assert_eq!(report.decisions_seen, 7);
    assert_eq!(report.chance_outcomes_seen, 0);
}

#[test]
fn pig_numbers_as_openspiel_does() {
    let game = Pig::from_params(&params(&[("die", "4"), ("horizon", "50")])).unwrap();
    let space = game.action_space();
    assert_eq!(
        space,
        ActionSpace {
            decisions: 2,
            chance_outcomes: 4,
            max_game_length: 99,
            max_decisions: 50,
        }
    );
    let mut state = game.initial_state();
    let roll = state.parse_move("roll").unwrap();
    assert_eq!(game.action_id(roll), 0);
    assert_eq!(game.action_id(state.parse_move("hold").unwrap()), 1);
    state.apply(roll);
    for face in 1..=4u32 {
        let m = state.parse_move(&face.to_string()).unwrap();
        assert_eq!(game.action_id(m), face - 1);
    }
    let report = check_action_ids(&game, 100, 2).unwrap();
    assert_eq!((report.decisions_seen, report.chance_outcomes_seen), (2, 4));
    // A short horizon is reached, and the bounds are met exactly: three rolls, the last
    // without its outcome, are the three decisions of five plies.
    let short = Pig::from_params(&params(&[("horizon", "3")])).unwrap();
    let report = check_action_ids(&short, 200, 3).unwrap();
    assert_eq!((report.longest, report.most_decisions), (5, 3));
}

#[test]
fn coin_nim_keeps_its_contract() {
    let report = check_action_ids(&CoinNim::default(), 200, 4).unwrap();
    assert_eq!((report.decisions_seen, report.chance_outcomes_seen), (2, 2));
    assert!(report.longest <= 12);
    assert!(report.most_decisions <= 6);
}

/// Connect Four with every drop numbered 0 (two moves share an id) or, with `short`,
/// a length bound below the real one: on plies, on decisions, or a bound on decisions
/// above the one on plies.
#[derive(Clone, Debug)]
struct Broken {
    short: Option<Short>,
}

#[derive(Clone, Copy, Debug)]
enum Short {
    Plies,
    Decisions,
    Inverted,
}

impl Game for Broken {
    type State = Connect4State;
    const NAME: &'static str = "broken";
    const ABOUT: &'static str = "Connect Four with a broken numbering";
    const HAS_HIDDEN_INFORMATION: bool = false;
    fn param_specs() -> &'static [ParamSpec] {
        &[]
    }
    fn from_params(_: &Params) -> Result<Self, ConfigError> {
        Ok(Broken { short: None })
    }
    fn initial_state(&self) -> Connect4State {
        Connect4.initial_state()
    }
}

impl DenseActions for Broken {
    fn action_space(&self) -> ActionSpace {
        let (max_game_length, max_decisions) = match self.short {
            None => (42, 42),
            Some(Short::Plies) => (6, 6),
            Some(Short::Decisions) => (42, 6),
            Some(Short::Inverted) => (42, 43),
        };
        ActionSpace {
            max_game_length,
            max_decisions,
            ..Connect4.action_space()
        }
    }
    fn action_id(&self, m: <Connect4State as State>::Move) -> u32 {
        match self.short {
            Some(_) => Connect4.action_id(m),
            None => 0,
        }
    }
}

#[test]
fn the_checker_catches_shared_ids_and_a_false_length_bound() {
    let broken = |short| Broken { short };
    let shared = check_action_ids(&broken(None), 1, 5).unwrap_err();
    assert!(shared.contains("id 0 was already given to"), "{shared}");
    let long = check_action_ids(&broken(Some(Short::Plies)), 5, 5).unwrap_err();
    assert!(long.contains("goes on past max_game_length 6"), "{long}");
    let many = check_action_ids(&broken(Some(Short::Decisions)), 5, 5).unwrap_err();
    assert!(
        many.contains("has more decisions than max_decisions 6"),
        "{many}"
    );
    let inverted = check_action_ids(&broken(Some(Short::Inverted)), 5, 5).unwrap_err();
    assert_eq!(inverted, "max_decisions 43 is above max_game_length 42");
}

fn params(pairs: &[(&str, &str)]) -> Params {
    Params::parse(Pig::param_specs(), pairs).unwrap()
}
