//! APV's dense action ids: primary moves and orders numbered by cell and shape, and the
//! length bound of two decisions a turn, met by games the cap draws.

use crate::common;

use agon_engine::games::apv::{Apv, ApvState};
use agon_engine::testing::check_action_ids;
use agon_engine::{move_with_id, ActionSpace, DenseActions, Game, State};
use common::apv::{after, cell, setup};

/// Checks that `text` is legal in `state`, has id `id`, and is the move `id` names.
fn has_id(game: &Apv, state: &ApvState, text: &str, id: u32) {
    let m = state.parse_move(text).unwrap();
    assert_eq!(game.action_id(m), id, "{text}");
    assert_eq!(move_with_id(game, state, id), Some(m), "{text}");
}

#[test]
fn action_ids_number_unit_moves_by_cell_and_shape() {
    let game = Apv::default();
    assert_eq!(
        game.action_space(),
        ActionSpace {
            decisions: 6589,
            chance_outcomes: 0,
            max_game_length: 1000,
            max_decisions: 1000,
        }
    );
    // A primary move is 54·from + shape: 8·d + k − 1 for k cells along direction d,
    // 48 + i for the diagonal jump d_i + d_(i+1).
    let id = |from: &str, shape: usize| (54 * cell(from) + shape) as u32;
    let s = game.initial_state();
    has_id(&game, &s, "e9-d9", id("e9", 8 * 3));
    has_id(&game, &s, "d8-a8", id("d8", 8 * 3 + 2));
    has_id(&game, &s, "d8-d9", id("d8", 8 * 5));
    has_id(&game, &s, "d7-d5", id("d7", 8 * 2 + 1));
    has_id(&game, &s, "e7-g6", id("e7", 48));
    has_id(&game, &s, "e7-c8", id("e7", 48 + 3));
    // Orders follow at 61·54 = 3,294, and `no-order` closes the range.
    let s = after(game, "e9-d9");
    has_id(&game, &s, "order:d7-d5", 3294 + id("d7", 8 * 2 + 1));
    has_id(&game, &s, "order:d8-a8", 3294 + id("d8", 8 * 3 + 2));
    has_id(&game, &s, "no-order", 6588);
    // The longest slide: an Axis across the board.
    let s = setup(game, "Pe9 pe1 Aa5", ["", ""], 0);
    has_id(&game, &s, "a5-i5", id("a5", 7));
    // Without orders only the primary moves are numbered.
    let space = Apv::new(false, false, 500).unwrap().action_space();
    assert_eq!((space.decisions, space.max_game_length), (3294, 500));
}

#[test]
fn action_ids_keep_their_contract_under_every_rule_set() {
    // (orders, limited orders, least number of distinct ids to meet in six games, which
    // mostly run to the 500-turn cap)
    for (orders, limited, least) in [
        (true, false, 2400),
        (false, false, 1150),
        (true, true, 2100),
    ] {
        let game = Apv::new(orders, limited, 500).unwrap();
        let seed = 20 + u64::from(orders) + 2 * u64::from(limited);
        let report = check_action_ids(&game, 6, seed).unwrap_or_else(|e| panic!("{game:?}: {e}"));
        assert!(report.decisions_seen >= least, "{game:?}: {report:?}");
    }
}

#[test]
fn the_length_bound_is_met_by_games_drawn_by_the_cap() {
    // Two decisions a turn with orders, one without: a capped game has exactly that many.
    for (orders, limited, bound) in [(true, false, 6), (false, false, 3), (true, true, 6)] {
        let game = Apv::new(orders, limited, 3).unwrap();
        assert_eq!(game.action_space().max_game_length, bound);
        let report = check_action_ids(&game, 100, 30).unwrap_or_else(|e| panic!("{game:?}: {e}"));
        assert_eq!(report.longest, bound, "{game:?}");
    }
}

#[test]
fn action_ids_and_the_length_bound_hold_under_the_knobs() {
    // The ids number moves by cell and shape, so no knob changes the space; the bound
    // stays two decisions a turn (a waiting order is no decision).
    for (i, spec) in [
        "apv:axes=3,veils=3,turned_veils=3,south_extra=axis,max_turns=40",
        "apv:axes=0,veils=1,max_turns=40",
        "apv:order_delay=3,max_turns=40",
        "apv:order_delay=2,limited_orders=true,max_turns=3",
    ]
    .into_iter()
    .enumerate()
    {
        let game: Apv = common::parse_game(spec).unwrap();
        assert_eq!(
            game.action_space(),
            Apv::new(true, game.limited_orders(), game.max_turns())
                .unwrap()
                .action_space()
        );
        let report =
            check_action_ids(&game, 20, 40 + i as u64).unwrap_or_else(|e| panic!("{spec}: {e}"));
        assert!(report.longest <= 2 * game.max_turns(), "{spec}: {report:?}");
    }
    // The most legal moves grows with the largest army (South's, with its extra Axis).
    let big: Apv =
        common::parse_game("apv:axes=3,veils=3,turned_veils=3,south_extra=axis").unwrap();
    assert_eq!(big.initial_state().max_moves(), 6 + 4 * 24 + 6 * 6 + 1);
    assert_eq!(Apv::default().initial_state().max_moves(), 79);
}
