//! Hexstrat passes the conformance suite (default rules and variant bags and caps; its
//! perft counts are `hexstrat_perft.rs`'s), and behaves as `docs/games/hexstrat.md`
//! says in hand-built positions (combat and the Mech/Mountain rules are
//! `hexstrat_combat.rs`'s): the turn's structure, reveals as chance nodes
//! weighted by the bag, the seize count (start, growth, win, resets), rout, the cap,
//! notation errors, what the hash covers, the pinned initial hash, and the dense action
//! ids with their length bound.

use crate::hexstrat_support;

use agon_engine::games::hexstrat::{cell_name, parse_cell};
use agon_engine::games::hexstrat::{
    HexMove, Hexstrat, HexstratEval, HexstratState, Setup, SquadSetup, Tile, Unit,
};
use agon_engine::testing::{
    check_action_ids, check_conformance, play_with_ids, turns_along, Cap, CapUnit, Conformance,
    ConformanceReport,
};
use agon_engine::{
    play_moves, ActionSpace, DenseActions, EndReason, Evaluator, Game, Outcome, Params, State, Turn,
};
use hexstrat_support::{after, duel, legal, play, position, refused};

use Tile::{Forest, Mountain, Plains};
use Unit::{Infantry, Mech, Rocketeer};

fn conform(game: &Hexstrat, playouts: usize, seed: u64) -> ConformanceReport {
    let cfg = Conformance {
        playouts,
        seed,
        cap: Some(Cap {
            unit: CapUnit::Turns,
            limit: 2 * game.max_rounds(),
        }),
        ..Conformance::default()
    };
    let report = check_conformance(game, &cfg).unwrap_or_else(|e| panic!("{game:?}: {e}"));
    assert_eq!(report.playouts, playouts);
    assert!(report.chance_nodes > 0, "{report:?}");
    report
}

#[test]
fn conformance_default_rules() {
    let report = conform(&Hexstrat::default(), 200, 1);
    assert!(report.transpositions > 0, "{report:?}");
    // Random play reaches every end: an Infantry that wanders into the enemy
    // Headquarters usually survives the two enemy turns its seize needs.
    let reasons: Vec<&str> = report.end_reasons.iter().map(|(r, _)| *r).collect();
    assert_eq!(reasons, ["cap", "rout", "seize"], "{report:?}");
}

#[test]
fn conformance_variant_bags_and_caps() {
    for (p, f, m, rounds, seed) in [
        (35, 0, 0, 60, 2),
        (0, 0, 35, 30, 3),
        (0, 35, 0, 30, 4),
        (1, 1, 33, 20, 5),
        (15, 10, 10, 1, 6),
        (5, 15, 15, 10, 7),
    ] {
        conform(&Hexstrat::new(p, f, m, rounds).unwrap(), 100, seed);
    }
}

#[test]
fn parameters_are_checked() {
    let parse = |pairs: &[(&str, &str)]| {
        Params::parse(Hexstrat::param_specs(), pairs)
            .map_err(|e| e.0)
            .and_then(|p| Hexstrat::from_params(&p).map_err(|e| e.0))
    };
    assert_eq!(parse(&[]).unwrap(), Hexstrat::default());
    assert_eq!(
        parse(&[("plains", "16")]).unwrap_err(),
        "hexstrat tile bag plains=16, forests=10, mountains=10 holds 36 tiles: \
         the 35 face-down cells need exactly 35"
    );
    assert_eq!(
        parse(&[("max_rounds", "0")]).unwrap_err(),
        "max_rounds=0 is not valid: expected integer 1..1000"
    );
    let g = parse(&[("plains", "5"), ("forests", "20"), ("max_rounds", "7")]).unwrap();
    assert_eq!(
        (
            g.tiles(Plains),
            g.tiles(Forest),
            g.tiles(Mountain),
            g.max_rounds()
        ),
        (5, 20, 10, 7)
    );
}

#[test]
fn the_initial_hash_is_pinned() {
    // Follows from the key table's fixed seed and what the hash covers; a change of
    // either must update it deliberately.
    let s = Hexstrat::default().initial_state();
    assert_eq!(s.hash(), s.recompute_hash());
    assert_eq!(s.hash(), 0x6434_5989_db20_97e7, "{:#018x}", s.hash());
    // The bag is in the key: another bag, another key.
    let other = Hexstrat::new(35, 0, 0, 60).unwrap().initial_state();
    assert_ne!(other.hash(), s.hash());
    // The cap is not (a plain counter's limit).
    assert_eq!(
        Hexstrat::new(15, 10, 10, 5).unwrap().initial_state().hash(),
        s.hash()
    );
}

// --- Turns, reveals and chance -------------------------------------------------------

#[test]
fn the_first_decisions_are_three_squads_onto_six_face_down_cells_and_end() {
    let s = after("");
    assert_eq!(s.turn(), Turn::Seat(0));
    let moves = legal(&s);
    assert_eq!(moves.len(), 19);
    for u in ["I", "R", "M"] {
        for c in ["e2", "e1", "d1", "c2", "c3", "d3"] {
            assert!(moves.contains(&format!("{u}:{c}")), "{u}:{c} in {moves:?}");
        }
    }
    assert_eq!(moves.last().unwrap(), "end");
}

#[test]
fn a_move_onto_a_face_down_cell_is_a_chance_node_weighted_by_the_bag() {
    let s = after("I:d3");
    assert_eq!(s.turn(), Turn::Chance);
    assert_eq!(legal(&s), ["plains@15", "forest@10", "mountain@10"]);
    assert_eq!(
        s.pending_reveal(),
        Some((0, Infantry, parse_cell("d3").unwrap()))
    );
    assert_eq!(
        refused(&s, "end"),
        "the tile on d3 is being revealed for seat 0's Infantry: expected a reveal \
         outcome (plains, forest or mountain)"
    );
    // The tile leaves the bag; the Infantry moves in and has acted.
    let s = after("I:d3 forest");
    assert_eq!(s.tile(parse_cell("d3").unwrap()), Some(Forest));
    assert_eq!(s.in_bag(Forest), 9);
    assert_eq!(s.squad_cell(0, Infantry), parse_cell("d3").ok());
    assert!(s.has_acted(0, Infantry));
    assert!(!s.is_impeded(0, Infantry));
    assert_eq!(s.turn(), Turn::Seat(0));
    assert!(!legal(&s).iter().any(|m| m.starts_with("I:")));
    // The next reveal's weights reflect it.
    let s = after("I:d3 forest R:e2");
    assert_eq!(legal(&s), ["plains@15", "forest@9", "mountain@10"]);
}

#[test]
fn a_reveal_with_one_type_left_is_still_a_chance_node_and_a_used_up_type_is_refused() {
    let mut s = Hexstrat::new(35, 0, 0, 60).unwrap().initial_state();
    play(&mut s, "M:d3");
    assert_eq!(s.turn(), Turn::Chance);
    assert_eq!(legal(&s), ["plains@35"]);
    assert_eq!(refused(&s, "forest"), "no forest tile is left face down");
    let mut s = Hexstrat::new(1, 1, 33, 60).unwrap().initial_state();
    play_moves(&mut s, "I:d3 plains R:e2").unwrap();
    assert_eq!(legal(&s), ["forest@1", "mountain@33"]);
}

#[test]
fn the_turn_ends_by_itself_once_every_squad_acted_after_the_reveal() {
    let s = after("I:d3 plains R:e2 plains M:c2");
    // The last reveal is still pending: seat 0's turn is not over.
    assert_eq!(s.turn(), Turn::Chance);
    let s = after("I:d3 plains R:e2 plains M:c2 plains");
    assert_eq!(s.turn(), Turn::Seat(1));
    assert_eq!(s.turns_played(), 1);
    for u in Unit::ALL {
        assert!(!s.has_acted(0, u));
    }
    // `end` is legal at any time, also before any action, and hands the turn over.
    let s = after("end");
    assert_eq!((s.turn(), s.turns_played()), (Turn::Seat(1), 1));
    let s = after("I:d3 plains end");
    assert_eq!(s.turn(), Turn::Seat(1));
    // A squad acts at most once a turn.
    let s = after("I:d3 plains");
    assert_eq!(
        refused(&s, "I:d4"),
        "seat 0's Infantry has already acted this turn"
    );
}

#[test]
fn squads_of_a_side_never_enter_a_friendly_cell_but_may_leave_the_shared_hq() {
    let s = after("I:d3 plains");
    assert_eq!(refused(&s, "R:d3"), "d3 holds seat 0's own Infantry");
    let s = after("I:d3 plains end end");
    // d2 still holds R and M: the Infantry may not return there.
    assert_eq!(refused(&s, "I:d2"), "d2 holds seat 0's own Rocketeer");
    assert_eq!(
        refused(&s, "I:d5"),
        "d5 is not adjacent to the Infantry on d3"
    );
}

// --- Seize -----------------------------------------------------------------------------------

/// Seat 0's Infantry on d6 (impeded, as entering made it, with count `count`), seat
/// 1's Rocketeer elsewhere, and seat 1 to move with `turns` turns played.
fn seizing(count: u8, turns: u32) -> HexstratState {
    seizing_with(
        SquadSetup::new(0, Infantry, "d6", 6).impeded(),
        count,
        turns,
    )
}

/// As [`seizing`], with the Infantry as given.
fn seizing_with(infantry: SquadSetup, count: u8, turns: u32) -> HexstratState {
    position(Setup {
        tiles: vec![("d5", Plains), ("a7", Plains), ("g1", Plains)],
        squads: vec![
            infantry,
            SquadSetup::new(0, Mech, "g1", 4),
            SquadSetup::new(1, Rocketeer, "a7", 6),
        ],
        to_move: 1,
        seize: [count, 0],
        turns,
    })
}

#[test]
fn the_seize_count_grows_at_the_start_of_each_own_turn_and_wins_at_three() {
    let mut s = seizing(1, 20);
    play(&mut s, "end");
    // Seat 0's turn starts: the count is 2, the game goes on.
    assert_eq!((s.turn(), s.seize_count(0)), (Turn::Seat(0), 2));
    play_moves(&mut s, "end end").unwrap();
    // Checked before any action of seat 0's turn: the node after seat 1's `end` is over.
    assert_eq!(s.turn(), Turn::Over);
    assert_eq!(s.outcome(), Some(Outcome::Win(0)));
    assert_eq!(s.end_reason(), Some(EndReason::Rule("seize")));
    assert_eq!(s.seize_count(0), 3);
    assert_eq!(
        HexstratEval::default().evaluate(&s, 0),
        HexstratEval::default().bounds().1
    );
    // The Infantry must survive two enemy turns: entering counts 1 ...
    let mut e = position(Setup {
        tiles: vec![("d5", Plains), ("a7", Plains)],
        squads: vec![
            SquadSetup::new(0, Infantry, "d5", 6),
            SquadSetup::new(1, Rocketeer, "a7", 6),
        ],
        ..Setup::default()
    });
    play(&mut e, "I:d6");
    assert_eq!((e.turn(), e.seize_count(0)), (Turn::Seat(1), 1));
    play_moves(&mut e, "end").unwrap();
    assert_eq!(e.seize_count(0), 2);
    play_moves(&mut e, "end end").unwrap();
    assert_eq!(e.end_reason(), Some(EndReason::Rule("seize")));
}

#[test]
fn leaving_or_being_destroyed_resets_the_seize_count() {
    // Recovering does not stop the count: the impeded Infantry recovers at count 2 and
    // the count reaches 3 at its next turn, before it could step out. So only a
    // hand-built Infantry that is not impeded can show leaving.
    let mut s = seizing(1, 20);
    play_moves(&mut s, "end I:recover end end").unwrap();
    assert_eq!(s.end_reason(), Some(EndReason::Rule("seize")));
    // Leaving: the count is gone and does not come back.
    let mut s = seizing_with(SquadSetup::new(0, Infantry, "d6", 6), 1, 20);
    play_moves(&mut s, "end").unwrap();
    assert_eq!(s.seize_count(0), 2);
    play(&mut s, "I:d5");
    assert_eq!(s.seize_count(0), 0);
    play_moves(&mut s, "end end").unwrap();
    assert_eq!((s.turn(), s.seize_count(0)), (Turn::Seat(0), 0));
    // Coming back starts again at 1, impeded.
    play(&mut s, "I:d6");
    assert_eq!(s.seize_count(0), 1);
    assert!(s.is_impeded(0, Infantry));
    // Destroyed: seat 1's Mech (attack 4) kills a 2-unit Infantry on d6.
    let mut s = position(Setup {
        tiles: vec![("d5", Plains), ("a7", Plains)],
        squads: vec![
            SquadSetup::new(0, Infantry, "d6", 2).impeded(),
            SquadSetup::new(0, Rocketeer, "a7", 6),
            SquadSetup::new(1, Mech, "d5", 4),
        ],
        to_move: 1,
        seize: [1, 0],
        turns: 9,
    });
    play(&mut s, "M:d6");
    assert_eq!(s.squad_cell(0, Infantry), None);
    assert_eq!(s.seize_count(0), 0);
    // The Mech advanced into its own Headquarters: no entry effect.
    assert_eq!(s.squad_cell(1, Mech), parse_cell("d6").ok());
    assert!(!s.is_impeded(1, Mech));
    assert_eq!(s.turn(), Turn::Seat(0));
}

#[test]
fn the_cap_draws_and_no_seize_check_is_made_for_the_turn_after_it() {
    // 118 turns played: seat 1's turn is the 119th; seat 0's 120th starts with count 3.
    let mut s = seizing(2, 118);
    play(&mut s, "end");
    assert_eq!(s.end_reason(), Some(EndReason::Rule("seize")));
    assert!(!s.ended_by_history());
    // 119 played: seat 1's turn is the 120th; when it ends, the game is drawn.
    let mut s = seizing(2, 119);
    play(&mut s, "end");
    assert_eq!(s.turn(), Turn::Over);
    assert_eq!(
        (s.outcome(), s.end_reason()),
        (Some(Outcome::Draw), Some(EndReason::Cap))
    );
    assert_eq!(s.seize_count(0), 2);
    assert_eq!(HexstratEval::default().evaluate(&s, 0), 0);
    assert!(legal(&s).is_empty());
    // From the start with one round each: two `end`s end the game.
    let mut s = Hexstrat::new(15, 10, 10, 1).unwrap().initial_state();
    play_moves(&mut s, "end").unwrap();
    assert_eq!(s.turn(), Turn::Seat(1));
    play_moves(&mut s, "I:d5 plains R:e6 plains M:c6").unwrap();
    assert_eq!(s.turn(), Turn::Chance);
    play(&mut s, "forest");
    assert_eq!(s.end_reason(), Some(EndReason::Cap));
    // The cap counts turns, which the hash leaves out: search must not store this end.
    assert!(s.ended_by_history());
}

// --- Rout ------------------------------------------------------------------------------------

#[test]
fn destroying_the_last_enemy_unit_wins_at_once() {
    let mut s = position(Setup {
        tiles: vec![("d3", Plains), ("d4", Plains)],
        squads: vec![
            SquadSetup::new(0, Mech, "d3", 4),
            SquadSetup::new(0, Infantry, "d2", 6),
            SquadSetup::new(1, Infantry, "d4", 3),
        ],
        ..Setup::default()
    });
    play(&mut s, "M:d4");
    // Mid-turn (seat 0's Infantry has not acted), the game is over.
    assert_eq!(s.turn(), Turn::Over);
    assert_eq!(
        (s.outcome(), s.end_reason()),
        (Some(Outcome::Win(0)), Some(EndReason::Rule("rout")))
    );
    assert!(legal(&s).is_empty());
    assert_eq!(refused(&s, "I:d3"), "the game is over");
}

#[test]
fn losing_the_last_unit_to_a_strike_back_loses() {
    let mut s = position(Setup {
        tiles: vec![("d3", Plains), ("d4", Forest)],
        squads: vec![
            SquadSetup::new(0, Rocketeer, "d3", 1),
            SquadSetup::new(1, Mech, "d4", 4),
        ],
        ..Setup::default()
    });
    play(&mut s, "R:d4");
    assert_eq!(
        (s.outcome(), s.end_reason()),
        (Some(Outcome::Win(1)), Some(EndReason::Rule("rout")))
    );
}

// --- Notation and hashing --------------------------------------------------------------------

/// South's Infantry (6) on plains at d5, facing North's Rocketeer (6) and Mech (4)
/// together at d6.
fn infantry_facing_two_at_d6() -> HexstratState {
    position(Setup {
        tiles: vec![("d5", Plains)],
        squads: vec![
            SquadSetup::new(0, Infantry, "d5", 6),
            SquadSetup::new(1, Rocketeer, "d6", 6),
            SquadSetup::new(1, Mech, "d6", 4),
        ],
        ..Setup::default()
    })
}

#[test]
fn notation_errors_say_what_is_wrong() {
    let s = after("");
    assert!(refused(&s, "pass").starts_with("expected a squad action"));
    assert_eq!(
        refused(&s, "Q:d3"),
        "\"Q\" is not a squad: expected I, R or M before ':'"
    );
    assert_eq!(refused(&s, "I:z9"), "cell z9 is not on the board");
    assert_eq!(refused(&s, "I:a1"), "cell a1 is not on the board");
    assert!(refused(&s, "I:d33").contains("is not a cell"));
    assert_eq!(
        refused(&s, "I:d3/R"),
        "d3 holds no enemy squad to name as a target"
    );
    assert_eq!(
        refused(&s, "plains"),
        "no reveal is pending: seat 0 decides (a squad action or end)"
    );
    assert_eq!(refused(&s, "M:recover"), "seat 0's Mech is not impeded");
    // A single defender takes no target name.
    let s = duel(Infantry, Some(Plains), 6, Mech, Some(Plains), 4);
    assert_eq!(
        refused(&s, "I:d4/M"),
        "d4 holds a single enemy squad: write the attack without a target"
    );
    let s = infantry_facing_two_at_d6();
    assert_eq!(refused(&s, "I:d6/I"), "d6 holds no enemy Infantry");
    assert!(s.parse_move("I:d6/M").is_ok());
}

#[test]
fn printing_and_parsing_agree_and_an_illegal_value_is_refused_unchanged() {
    let s = after("I:d3 plains");
    for m in legal(&s) {
        let parsed = s.parse_move(&m).unwrap();
        assert_eq!(s.format_move(parsed), m);
    }
    let mut t = s;
    let bad = HexMove::Go {
        squad: Infantry,
        to: parse_cell("d4").unwrap() as u8,
        target: None,
    };
    let e = t.try_apply(bad).unwrap_err();
    assert_eq!(e.text, "I:d4");
    assert_eq!(e.reason, "seat 0's Infantry has already acted this turn");
    assert_eq!(t, s);
    assert_eq!(t.hash(), s.hash());
    assert_eq!(cell_name(parse_cell("g4").unwrap()), "g4");
}

#[test]
fn the_hash_covers_each_part_of_the_position() {
    let base = duel(Infantry, Some(Plains), 6, Mech, Some(Plains), 4);
    let variants = [
        // Units.
        duel(Infantry, Some(Plains), 5, Mech, Some(Plains), 4),
        // A tile.
        duel(Infantry, Some(Forest), 6, Mech, Some(Plains), 4),
    ];
    for v in &variants {
        assert_ne!(v, &base);
        assert_ne!(v.hash(), base.hash());
    }
    let setup = |impeded: bool, acted: bool, to_move: usize, seize: u8| Setup {
        tiles: vec![("d5", Plains), ("a7", Plains)],
        squads: vec![
            SquadSetup {
                impeded,
                ..SquadSetup::new(0, Infantry, "d6", 6)
            },
            SquadSetup {
                acted,
                ..SquadSetup::new(0, Rocketeer, "d5", 6)
            },
            SquadSetup::new(1, Mech, "a7", 4),
        ],
        to_move,
        seize: [seize, 0],
        turns: 0,
    };
    let rules = Hexstrat::default();
    let build = |i, a, m, z| rules.position(&setup(i, a, m, z)).unwrap();
    let base = build(false, false, 0, 0);
    for other in [
        build(true, false, 0, 0),
        build(false, true, 0, 0),
        build(false, false, 1, 0),
        build(false, false, 0, 1),
    ] {
        assert_ne!(other, base);
        assert_ne!(other.hash(), base.hash());
        assert_eq!(other.hash(), other.recompute_hash());
    }
    // The pending reveal and the bag: same squads, a reveal pending or done.
    let pending = after("I:d3");
    let revealed = after("I:d3 plains");
    let start = after("");
    assert!(pending != start && pending.hash() != start.hash());
    assert!(pending.hash() != revealed.hash());
    // The pending squad matters, not just the cell.
    assert_ne!(after("R:d3").hash(), pending.hash());
    // The turn count does not: two `end`s each bring the start back.
    let again = after("end end");
    assert_eq!(again, start);
    assert_eq!(again.hash(), start.hash());
    assert_eq!(again.turns_played(), 2);
}

#[test]
fn the_board_is_drawn_with_squads_bag_and_who_acts() {
    let s = after("I:d3 forest M:e2");
    let expected = "\
a7           ?     ?     ?     ?  d7
a6        ?     ?     ? m4/r6/i6  ?  e6
a5     ?     ?     ?     ?     ?     ?  f5
a4  ?     ?     ?     ?     ?     ?     ?  g4
b3     ?     ?   f:I6-   ?     ?     ?  g3
c2        ?   M4/R6  ?*     ?     ?  g2
d1           ?     ?     ?     ?  g1
d2 -> e2: south squad's move waiting for the tile to be revealed
a tile at e2 is about to be revealed for south's Mech
acted this turn: south Infantry on d3
face down: 15 plains, 9 forest, 10 mountain
turn 1 of 120
legend: I south Infantry squad (seat 0), labelled with its units
        R south Rocketeer squad (seat 0), labelled with its units
        M south Mech squad (seat 0), labelled with its units
        i north Infantry squad (seat 1), labelled with its units
        r north Rocketeer squad (seat 1), labelled with its units
        m north Mech squad (seat 1), labelled with its units
        + south's Headquarters, north's target · = north's Headquarters, south's target · p plains
        f forest: +1 defence; a Mech entering is impeded
        o mountain: +1 attack and defence; no Mech enters · ? face-down tile
        * tile about to be revealed · - faded: a squad that has acted this turn, or is impeded
        p:X pieces X standing on ground p · [ ] the last move
        coordinates: first and last cell of each line";
    assert_eq!(s.to_string(), expected);
}

#[test]
fn an_attacker_lost_to_the_strike_back_no_longer_holds_the_turn_open() {
    let mut s = position(Setup {
        tiles: vec![("d3", Plains), ("d4", Forest), ("g1", Plains)],
        squads: vec![
            SquadSetup::new(0, Rocketeer, "d3", 1),
            SquadSetup::new(0, Infantry, "g1", 6).acted(),
            SquadSetup::new(1, Mech, "d4", 4),
        ],
        ..Setup::default()
    });
    play(&mut s, "R:d4");
    assert_eq!(s.squad_cell(0, Rocketeer), None);
    // Its only surviving teammate has acted: the turn is over.
    assert_eq!(s.turn(), Turn::Seat(1));
    assert!(!s.has_acted(0, Infantry));
}

#[test]
fn both_sides_may_count_a_seize_at_once() {
    let mut s = position(Setup {
        tiles: vec![],
        squads: vec![
            SquadSetup::new(0, Infantry, "d6", 6).impeded(),
            SquadSetup::new(1, Infantry, "d2", 6).impeded(),
        ],
        to_move: 0,
        seize: [1, 1],
        turns: 4,
    });
    play(&mut s, "end");
    assert_eq!((s.seize_count(0), s.seize_count(1)), (1, 2));
    play(&mut s, "end");
    assert_eq!((s.seize_count(0), s.seize_count(1)), (2, 2));
    // Seat 1's count reaches 3 first, at the start of its turn.
    play(&mut s, "end");
    assert_eq!(
        (s.outcome(), s.end_reason()),
        (Some(Outcome::Win(1)), Some(EndReason::Rule("seize")))
    );
}

#[test]
fn a_turn_is_one_sides_actions_and_reveals_up_to_its_end() {
    let start = Hexstrat::default().initial_state();
    // Seat 0 moves all three squads onto face-down tiles (each revealed); the last
    // reveal ends its turn. Seat 1 ends its turn at once, then seat 0 moves one squad.
    let turns = turns_along(&start, "I:d3 plains R:e2 plains M:c2 plains end I:d4");
    assert_eq!(turns.unwrap(), [1, 1, 1, 1, 1, 1, 2, 3]);
    // One round each: the cap draws after exactly 2 turns, and begins no third.
    let mut s = Hexstrat::new(15, 10, 10, 1).unwrap().initial_state();
    play(&mut s, "end");
    play(&mut s, "end");
    assert_eq!(
        (s.end_reason(), s.turns(), s.ply()),
        (Some(EndReason::Cap), 2, 2)
    );
}

#[test]
fn dense_ids_number_actions_by_squad_cell_and_target() {
    let game = Hexstrat::default();
    assert_eq!(
        game.action_space(),
        ActionSpace {
            decisions: 448,
            chance_outcomes: 3,
            max_game_length: 395,
            max_decisions: 360,
        }
    );
    // Cells count row by row from d1: c2 4, e2 6, d3 11, d6 31.
    let cells: Vec<usize> = ["c2", "e2", "d3", "d6"]
        .iter()
        .map(|c| parse_cell(c).unwrap())
        .collect();
    assert_eq!(cells, [4, 6, 11, 31]);
    // A move is (squad × 37 + cell) × 4 + 3 when it names no target; reveals are the
    // tile types, Plains 0, Forest 1, Mountain 2.
    let mut s = game.initial_state();
    play_with_ids(
        &s.rules(),
        &mut s,
        &[
            ("I:d3", 11 * 4 + 3),
            ("plains", 0),
            ("R:e2", (37 + 6) * 4 + 3),
            ("forest", 1),
            ("M:c2", (2 * 37 + 4) * 4 + 3),
            ("mountain", 2),
            ("end", 447),
        ],
    );
    // An attack naming the Mech among two defenders; recovers from 444.
    let s = infantry_facing_two_at_d6();
    play_with_ids(&s.rules(), &mut s.clone(), &[("I:d6/M", 31 * 4 + 2)]);
    play_with_ids(&s.rules(), &mut s.clone(), &[("I:d6/R", 31 * 4 + 1)]);
    let mut s = seizing(1, 20);
    play_with_ids(&s.rules(), &mut s, &[("end", 447), ("I:recover", 444)]);
}

#[test]
fn dense_ids_keep_their_contract_and_the_length_bound() {
    let report = check_action_ids(&Hexstrat::default(), 100, 21).unwrap();
    // Every tile type, and a good share of the squad actions of both sides (a target
    // is named only where two enemy squads share a cell, which random play seldom
    // meets).
    assert_eq!(report.chance_outcomes_seen, 3, "{report:?}");
    assert!(report.decisions_seen >= 100, "{report:?}");
    // A bag without Plains never reveals one; the ids stay those of the tile types.
    let report = check_action_ids(&Hexstrat::new(0, 5, 30, 20).unwrap(), 100, 22).unwrap();
    assert_eq!(report.chance_outcomes_seen, 2, "{report:?}");
    // Short caps are reached, within 6 · max_rounds + min(35, 6 · max_rounds) plies and
    // 6 · max_rounds decisions.
    for max_rounds in [1, 3, 8] {
        let game = Hexstrat::new(15, 10, 10, max_rounds).unwrap();
        let bound = 6 * max_rounds + 35.min(6 * max_rounds);
        assert_eq!(game.action_space().max_game_length, bound);
        assert_eq!(game.action_space().max_decisions, 6 * max_rounds);
        let report = check_action_ids(&game, 300, u64::from(max_rounds)).unwrap();
        assert!(report.longest >= 2 * max_rounds, "{report:?}");
        assert!(report.longest <= bound, "{report:?}");
        assert!(report.most_decisions <= 6 * max_rounds, "{report:?}");
    }
    // With one round the bound is met: each side moves all three squads onto
    // face-down cells, 12 plies.
    let game = Hexstrat::new(15, 10, 10, 1).unwrap();
    assert_eq!(check_action_ids(&game, 300, 1).unwrap().longest, 12);
}
