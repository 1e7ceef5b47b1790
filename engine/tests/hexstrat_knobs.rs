//! Hexstrat's designer's knobs (`docs/games/hexstrat.md`, *Parameters*): each one turned
//! passes the conformance suite and the encoding, action-id and picture contracts; each
//! does what it says in a hand-built or short played position (and the test would fail
//! if the rules ignored it); a knob at its default leaves the spec's text and the game
//! unchanged; values out of range are refused with the valid range.

use agon_engine::games::hexstrat::{
    Hexstrat, HexstratEval, HexstratState, Knobs, Setup, SquadSetup, Terrain, Tile, Unit,
};
use agon_engine::testing::{
    check_action_ids, check_conformance, check_encoding, check_pictures, Cap, CapUnit, Conformance,
};
use agon_engine::{play_moves, EndReason, Evaluator, Game, Outcome, Params, State, Turn};

use Tile::{Forest, Mountain, Plains};
use Unit::{Infantry, Mech, Rocketeer};

/// The rules a spec with `pairs` names, through the parameters as the CLI reads them.
fn variant(pairs: &[(&str, &str)]) -> Hexstrat {
    let params = Params::parse(Hexstrat::param_specs(), pairs).unwrap();
    Hexstrat::from_params(&params).unwrap_or_else(|e| panic!("{pairs:?}: {e}"))
}

/// The position `setup` describes under `rules`.
fn position(rules: &Hexstrat, setup: Setup) -> HexstratState {
    rules
        .position(&setup)
        .unwrap_or_else(|e| panic!("{e}: {setup:?}"))
}

/// Plays `moves` (legal) from `s`.
fn play(s: &mut HexstratState, moves: &str) {
    play_moves(s, moves).unwrap_or_else(|e| panic!("{moves}: {e}\n{s}"));
}

/// Seat 0's `a` squad (`a_units`) on d3 (on `a_ground`) facing seat 1's `d` squad
/// (`d_units`) on d4 (on `d_ground`), each side with a bystander far away, under `rules`.
fn duel(
    rules: &Hexstrat,
    (a, a_ground, a_units): (Unit, Tile, u8),
    (d, d_ground, d_units): (Unit, Tile, u8),
) -> HexstratState {
    let other = |u: Unit| Unit::ALL.into_iter().find(|&x| x != u).unwrap();
    position(
        rules,
        Setup {
            tiles: vec![
                ("d3", a_ground),
                ("d4", d_ground),
                ("g1", Plains),
                ("a7", Plains),
            ],
            squads: vec![
                SquadSetup::new(0, a, "d3", a_units),
                SquadSetup::new(0, other(a), "g1", 1),
                SquadSetup::new(1, d, "d4", d_units),
                SquadSetup::new(1, other(d), "a7", 1),
            ],
            ..Setup::default()
        },
    )
}

/// Every knob off its default at least once, several together.
const VARIANTS: &[&[(&str, &str)]] = &[
    &[
        ("infantry_units", "9"),
        ("rocketeer_units", "1"),
        ("mech_units", "9"),
        ("north_bonus", "3"),
    ],
    &[("seize_turns", "2"), ("opening_actions", "1")],
    &[
        ("forest_defence", "3"),
        ("mountain_attack", "0"),
        ("mountain_defence", "3"),
        ("opening_actions", "2"),
    ],
    &[
        ("forest_defence", "0"),
        ("mountain_attack", "3"),
        ("mountain_defence", "0"),
        ("seize_turns", "9"),
        ("max_rounds", "30"),
    ],
    &[
        ("infantry_units", "1"),
        ("rocketeer_units", "9"),
        ("mech_units", "1"),
        ("north_bonus", "1"),
        ("seize_turns", "4"),
    ],
];

#[test]
fn conformance_with_every_knob_turned() {
    for (i, pairs) in VARIANTS.iter().enumerate() {
        let game = variant(pairs);
        let seed = 40 + i as u64;
        let cfg = Conformance {
            playouts: 40,
            seed,
            cap: Some(Cap {
                unit: CapUnit::Turns,
                limit: 2 * game.max_rounds(),
            }),
            ..Conformance::default()
        };
        let report = check_conformance(&game, &cfg).unwrap_or_else(|e| panic!("{pairs:?}: {e}"));
        assert!(report.chance_nodes > 0, "{pairs:?}: {report:?}");
        check_encoding(&game, 40, seed).unwrap_or_else(|e| panic!("{pairs:?}: {e}"));
        check_action_ids(&game, 40, seed).unwrap_or_else(|e| panic!("{pairs:?}: {e}"));
        check_pictures(&game, 2, seed).unwrap_or_else(|e| panic!("{pairs:?}: {e}"));
    }
}

#[test]
fn the_evaluator_stays_within_its_bounds_under_every_variant() {
    let e = HexstratEval::default();
    for pairs in VARIANTS {
        let mut s = variant(pairs).initial_state();
        // The first legal decision or outcome each time: squads march and fight.
        let (mut moves, mut outcomes) = (Vec::new(), Vec::new());
        while s.outcome().is_none() && s.ply() < 400 {
            let v = e.evaluate(&s, 0);
            assert!(v.abs() < e.win(), "{pairs:?}: {v} at\n{s}");
            assert_eq!(v, -e.evaluate(&s, 1), "{pairs:?}");
            moves.clear();
            outcomes.clear();
            s.legal_moves(&mut moves);
            s.chance_outcomes(&mut outcomes);
            let m = moves.first().copied().unwrap_or_else(|| outcomes[0].0);
            s.apply(m);
        }
    }
}

#[test]
fn knobs_at_their_defaults_name_and_play_the_rulebook_game() {
    let specs = Hexstrat::param_specs();
    let rulebook = "forests=10,max_rounds=60,mountains=10,plains=15";
    assert_eq!(Params::parse(specs, &[]).unwrap().canonical(), rulebook);
    let spelled: Vec<(&str, &str)> = specs
        .iter()
        .filter(|s| s.omitted_at_default)
        .map(|s| (s.name, s.default.unwrap()))
        .collect();
    assert_eq!(spelled.len(), 9, "{spelled:?}");
    assert_eq!(
        Params::parse(specs, &spelled).unwrap().canonical(),
        rulebook
    );
    assert_eq!(variant(&spelled), Hexstrat::default());
    assert_eq!(Hexstrat::default().knobs(), Knobs::RULEBOOK);
    let turned = Params::parse(specs, &[("seize_turns", "4")]).unwrap();
    assert_eq!(turned.canonical(), format!("{rulebook},seize_turns=4"));
}

#[test]
fn squad_strengths_are_the_units_on_the_board_at_the_start() {
    let rules = variant(&[
        ("infantry_units", "9"),
        ("rocketeer_units", "2"),
        ("mech_units", "7"),
    ]);
    let s = rules.initial_state();
    for seat in 0..2 {
        let units = Unit::ALL.map(|u| s.units(seat, u));
        assert_eq!(units, [9, 2, 7], "seat {seat}");
    }
    assert_ne!(s.hash(), Hexstrat::default().initial_state().hash());
    assert_eq!(s.hash(), s.recompute_hash());
    // A hand-built squad may hold up to the knob's strength, not beyond.
    let hq = |seat, u, n| SquadSetup::new(seat, u, if seat == 0 { "d2" } else { "d6" }, n);
    let setup = |n| Setup {
        squads: vec![hq(0, Infantry, n), hq(1, Mech, 7)],
        ..Setup::default()
    };
    assert_eq!(position(&rules, setup(9)).units(0, Infantry), 9);
    assert_eq!(
        rules.position(&setup(10)).unwrap_err().0,
        "seat 0's Infantry has 10 units: expected 1..9"
    );
    // A Mech (4 against Infantry) leaves 5 of the 9 units, where a rulebook squad
    // would keep 2 of its 6.
    let mut s = duel(&rules, (Mech, Plains, 7), (Infantry, Plains, 9));
    play(&mut s, "M:d4");
    assert_eq!(s.units(1, Infantry), 5);
}

#[test]
fn north_bonus_strengthens_every_squad_of_seat_1_only() {
    let s = variant(&[("north_bonus", "2")]).initial_state();
    assert_eq!(Unit::ALL.map(|u| s.units(0, u)), [6, 6, 4]);
    assert_eq!(Unit::ALL.map(|u| s.units(1, u)), [8, 8, 6]);
    // Added to the turned strengths too, up to 9 + 3.
    let s = variant(&[("mech_units", "9"), ("north_bonus", "3")]).initial_state();
    assert_eq!((s.units(0, Mech), s.units(1, Mech)), (9, 12));
    // The encoding's strength scalars reach North's 12, and its id names the squads.
    let e = agon_engine::Encode::encoding(&s);
    assert_eq!(e.id, "hexstrat/1:60:units=6-6-9+3");
    let maxima: Vec<i32> = e.scalars[1..7].iter().map(|x| x.max).collect();
    assert_eq!(maxima, [9, 9, 12, 9, 9, 12]);
}

#[test]
fn the_seize_count_that_wins_is_the_knob() {
    // Seat 0's Infantry on d6 with count `count`; seat 1 to move ends its turn.
    let seizing = |rules: &Hexstrat, count: u8| {
        position(
            rules,
            Setup {
                tiles: vec![("a7", Plains), ("g1", Plains)],
                squads: vec![
                    SquadSetup::new(0, Infantry, "d6", 6).impeded(),
                    SquadSetup::new(0, Mech, "g1", 4),
                    SquadSetup::new(1, Rocketeer, "a7", 6),
                ],
                to_move: 1,
                seize: [count, 0],
                turns: 10,
            },
        )
    };
    // Two: the Infantry that entered wins at the start of its side's next turn.
    let two = variant(&[("seize_turns", "2")]);
    let mut s = seizing(&two, 1);
    play(&mut s, "end");
    assert_eq!(s.outcome(), Some(Outcome::Win(0)));
    assert_eq!(s.end_reason(), Some(EndReason::Rule("seize")));
    assert!(s
        .to_string()
        .contains("held north's Headquarters for 2 turns"));
    // Four: a count of 3, which wins in the rulebook, goes on; 4 wins.
    let four = variant(&[("seize_turns", "4")]);
    let mut s = seizing(&four, 2);
    play(&mut s, "end");
    assert_eq!((s.turn(), s.seize_count(0)), (Turn::Seat(0), 3));
    assert!(s.to_string().contains("seize count 3 of 4"), "{s}");
    play(&mut s, "end end");
    assert_eq!((s.outcome(), s.seize_count(0)), (Some(Outcome::Win(0)), 4));
    assert_eq!(s.hash(), s.recompute_hash());
    // A hand-built count must stay below the winning one.
    let with_count = |count| Setup {
        seize: [count, 0],
        ..seizing_setup()
    };
    let refused = |rules: &Hexstrat, count| rules.position(&with_count(count)).unwrap_err().0;
    assert_eq!(
        refused(&Hexstrat::default(), 3),
        "seat 0's seize count 3 needs 1..2 and its Infantry on d6"
    );
    assert_eq!(
        refused(&four, 4),
        "seat 0's seize count 4 needs 1..3 and its Infantry on d6"
    );
    assert_eq!(position(&four, with_count(3)).seize_count(0), 3);
    // The evaluator's `seize_2` is for the count one short of the win, whatever it is.
    let e = HexstratEval::default();
    let w = e.weights().seize;
    let at = |rules: &Hexstrat, count| e.evaluate(&seizing(rules, count), 0);
    assert_eq!(at(&two, 1) - at(&Hexstrat::default(), 1), w[1] - w[0]);
    assert_eq!(at(&four, 2) - at(&four, 1), 0);
    assert_eq!(at(&four, 3) - at(&four, 2), w[1] - w[0]);
}

/// The squads of [`the_seize_count_that_wins_is_the_knob`]'s position, seat 0 to move.
fn seizing_setup() -> Setup {
    Setup {
        tiles: vec![("a7", Plains), ("g1", Plains)],
        squads: vec![
            SquadSetup::new(0, Infantry, "d6", 6),
            SquadSetup::new(1, Rocketeer, "a7", 6),
        ],
        ..Setup::default()
    }
}

#[test]
fn the_terrain_bonuses_are_the_knobs() {
    // A Mech (4 against Infantry) attacks Infantry on a Forest: the rulebook's +1
    // defence leaves 6 − 3 = 3; a bonus of 3 leaves 5; none leaves 2.
    for (bonus, left) in [("1", 3), ("3", 5), ("0", 2)] {
        let rules = variant(&[("forest_defence", bonus)]);
        let mut s = duel(&rules, (Mech, Plains, 4), (Infantry, Forest, 6));
        play(&mut s, "M:d4");
        assert_eq!(s.units(1, Infantry), left, "forest_defence={bonus}");
    }
    // The same attack onto a Mountain reads the Mountain's defence bonus alone.
    for (bonus, left) in [("1", 3), ("3", 5), ("0", 2)] {
        let rules = variant(&[("mountain_defence", bonus), ("forest_defence", "0")]);
        let mut s = duel(&rules, (Mech, Plains, 4), (Infantry, Mountain, 6));
        play(&mut s, "M:d4");
        assert_eq!(s.units(1, Infantry), left, "mountain_defence={bonus}");
    }
    // Infantry (3 against a Rocketeer) attacking from a Mountain: 3 + the bonus; at
    // +3 it destroys all six and advances.
    for (bonus, left) in [("1", 2), ("0", 3), ("3", 0)] {
        let rules = variant(&[("mountain_attack", bonus)]);
        let mut s = duel(&rules, (Infantry, Mountain, 6), (Rocketeer, Plains, 6));
        play(&mut s, "I:d4");
        assert_eq!(s.units(1, Rocketeer), left, "mountain_attack={bonus}");
    }
    // The strike-back from a Mountain gets the attack bonus too: a Rocketeer (3 against
    // a Mech) on a Mountain with +3 hits back for 6, destroying a Mech of 4.
    let rules = variant(&[("mountain_attack", "3"), ("mountain_defence", "0")]);
    let mut s = duel(&rules, (Mech, Plains, 4), (Rocketeer, Mountain, 6));
    play(&mut s, "M:d4");
    assert_eq!((s.units(1, Rocketeer), s.units(0, Mech)), (4, 0));
    assert_eq!(
        rules.knobs().terrain,
        Terrain {
            forest_defence: 1,
            mountain_attack: 3,
            mountain_defence: 0
        }
    );
}

#[test]
fn opening_actions_cut_seat_0s_first_turn_only() {
    let one = variant(&[("opening_actions", "1")]);
    let mut s = one.initial_state();
    play(&mut s, "I:d3 plains");
    // The turn ended by itself after one action.
    assert_eq!(s.turn(), Turn::Seat(1));
    assert_eq!(s.turns_played(), 1);
    // Later turns of seat 0 are whole: all three squads act before the turn ends.
    play(&mut s, "end R:e1 plains M:c2 plains");
    assert_eq!(s.turn(), Turn::Seat(0));
    play(&mut s, "I:d4 plains");
    assert_eq!((s.turn(), s.turns_played()), (Turn::Seat(1), 3));
    // In the rulebook the same first action leaves seat 0 to act on.
    let mut s = Hexstrat::default().initial_state();
    play(&mut s, "I:d3 plains");
    assert_eq!(s.turn(), Turn::Seat(0));
    // Two: the turn ends after the second action; `end` may still come earlier.
    let two = variant(&[("opening_actions", "2")]);
    let mut s = two.initial_state();
    play(&mut s, "I:d3 plains");
    assert_eq!(s.turn(), Turn::Seat(0));
    play(&mut s, "M:c2 forest");
    assert_eq!(s.turn(), Turn::Seat(1));
    let mut s = two.initial_state();
    play(&mut s, "end");
    assert_eq!(s.turn(), Turn::Seat(1));
    // The first turn is a position of its own: after both sides pass, the board looks
    // as at the start, but seat 0's turn is no longer cut short, and the hash and Eq
    // say so (in the rulebook the two are the same position).
    for (rules, same) in [(one, false), (Hexstrat::default(), true)] {
        let start = rules.initial_state();
        let mut later = start;
        play(&mut later, "end end");
        assert_eq!(later == start, same);
        assert_eq!(later.hash() == start.hash(), same);
        assert_eq!(later.hash(), later.recompute_hash());
        assert_eq!(start.hash(), start.recompute_hash());
        play(&mut later, "I:d3 plains");
        assert_eq!(later.turn(), Turn::Seat(0));
    }
    // The rulebook's start hashes as it always has; the short opening's does not.
    assert_ne!(
        one.initial_state().hash(),
        Hexstrat::default().initial_state().hash()
    );
}

#[test]
fn bad_knob_values_are_refused_with_the_valid_range() {
    let specs = Hexstrat::param_specs();
    let refused = |name: &str| Params::parse(specs, &[(name, "999")]).unwrap_err().0;
    for (name, range) in [
        ("infantry_units", "1..9"),
        ("rocketeer_units", "1..9"),
        ("mech_units", "1..9"),
        ("north_bonus", "0..3"),
        ("seize_turns", "2..9"),
        ("forest_defence", "0..3"),
        ("mountain_attack", "0..3"),
        ("mountain_defence", "0..3"),
        ("opening_actions", "1..3"),
    ] {
        assert_eq!(
            refused(name),
            format!("{name}=999 is not valid: expected integer {range}")
        );
    }
    assert_eq!(
        Params::parse(specs, &[("seize_turns", "1")]).unwrap_err().0,
        "seize_turns=1 is not valid: expected integer 2..9"
    );
    // Knobs built in code are checked by `with_knobs`, one line naming the first bad one.
    let with = |knobs: Knobs| Hexstrat::default().with_knobs(knobs).unwrap_err().0;
    let book = Knobs::RULEBOOK;
    assert_eq!(
        with(Knobs {
            seize_turns: 1,
            ..book
        }),
        "hexstrat seize_turns=1 is not allowed: expected 2..9"
    );
    assert_eq!(
        with(Knobs {
            units: [6, 0, 4],
            ..book
        }),
        "hexstrat rocketeer_units=0 is not allowed: expected 1..9"
    );
    assert_eq!(
        with(Knobs {
            terrain: Terrain {
                mountain_attack: 4,
                ..Terrain::RULEBOOK
            },
            ..book
        }),
        "hexstrat mountain_attack=4 is not allowed: expected 0..3"
    );
    assert_eq!(
        with(Knobs {
            opening_actions: 0,
            ..book
        }),
        "hexstrat opening_actions=0 is not allowed: expected 1..3"
    );
    // The bag's own check still speaks first through `from_params`.
    let params = Params::parse(specs, &[("plains", "16"), ("north_bonus", "1")]).unwrap();
    assert!(Hexstrat::from_params(&params)
        .unwrap_err()
        .0
        .contains("holds 36 tiles"));
}
