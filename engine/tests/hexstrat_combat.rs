//! Hexstrat's combat as `docs/games/hexstrat.md` says, in hand-built positions: every
//! case of the attack table with and without terrain bonuses, strike-backs, advances
//! and their entry effects, and the Mech/Mountain/Forest rules (impeded squads and
//! recover). The other rules tests are `hexstrat.rs`'s.

use crate::hexstrat_support;

use agon_engine::games::hexstrat::parse_cell;
use agon_engine::games::hexstrat::{HexstratState, Setup, SquadSetup, Tile, Unit};
use agon_engine::{play_moves, EndReason, State, Turn};
use hexstrat_support::{after, combat_cells, duel, legal, play, position, refused, Ground};

use Tile::{Forest, Mountain, Plains};
use Unit::{Infantry, Mech, Rocketeer};

// --- Combat ------------------------------------------------------------------------------

/// The attack table of the spec, typed in again for the tests.
fn atk(a: Unit, d: Unit) -> u8 {
    [[1, 3, 2], [2, 1, 3], [4, 2, 1]][a as usize][d as usize]
}

fn attack_bonus(g: Ground) -> u8 {
    u8::from(g == Some(Mountain))
}

fn defence_bonus(g: Ground) -> u8 {
    u8::from(matches!(g, Some(Forest | Mountain)))
}

#[test]
fn every_case_of_the_attack_table_with_and_without_terrain() {
    let grounds = [None, Some(Plains), Some(Forest), Some(Mountain)];
    let mut cases = 0;
    for a in Unit::ALL {
        for d in Unit::ALL {
            for ag in grounds {
                for dg in grounds {
                    // The Headquarters are not adjacent, and a Mech never stands on a
                    // Mountain.
                    if (ag.is_none() && dg.is_none())
                        || (a == Mech && ag == Some(Mountain))
                        || (d == Mech && dg == Some(Mountain))
                    {
                        continue;
                    }
                    let mut s = duel(a, ag, a.start_units(), d, dg, d.start_units());
                    let (ac, dc) = combat_cells(ag, dg);
                    let hit = (atk(a, d) + attack_bonus(ag)).saturating_sub(defence_bonus(dg));
                    let back = (atk(d, a) + attack_bonus(dg)).saturating_sub(defence_bonus(ag));
                    let d_left = d.start_units().saturating_sub(hit);
                    play(&mut s, &format!("{}:{dc}", a.letter()));
                    let label = format!("{a:?} on {ag:?} attacks {d:?} on {dg:?}");
                    assert_eq!(s.units(1, d), d_left, "{label}");
                    if d_left > 0 {
                        // The defender strikes back; both stay where they are.
                        assert_eq!(
                            s.units(0, a),
                            a.start_units().saturating_sub(back),
                            "{label}"
                        );
                        assert_eq!(s.squad_cell(1, d), parse_cell(dc).ok(), "{label}");
                        if s.units(0, a) > 0 {
                            assert_eq!(s.squad_cell(0, a), parse_cell(ac).ok(), "{label}");
                        }
                    } else {
                        // Destroyed: no strike-back, and the attacker advances (a Mech
                        // not onto a Mountain) with the entry effects.
                        assert_eq!(s.units(0, a), a.start_units(), "{label}");
                        assert_eq!(s.squad_cell(1, d), None, "{label}");
                        let stays = a == Mech && dg == Some(Mountain);
                        let at = if stays { ac } else { dc };
                        assert_eq!(s.squad_cell(0, a), parse_cell(at).ok(), "{label}");
                        let impeded = !stays && (dc == "d6" || (a == Mech && dg == Some(Forest)));
                        assert_eq!(s.is_impeded(0, a), impeded, "{label}");
                    }
                    cases += 1;
                }
            }
        }
    }
    // 9 type pairs on 15 ground pairs, less a Mech attacking from (12) or defending on
    // (12) a Mountain, counted once when both (1).
    assert_eq!(cases, 9 * 15 - 12 - 12 + 1);
    // Every squad acted alone: the bystanders keep the turn and the game going.
    assert!(cases > 0);
}

#[test]
fn worked_combats_with_exact_numbers() {
    // Infantry on a Mountain attacks a Rocketeer on Plains: 3 + 1 = 4; it survives with 2
    // and strikes back 2 − 1 (the Mountain's defence) = 1.
    let mut s = duel(Infantry, Some(Mountain), 6, Rocketeer, Some(Plains), 6);
    play(&mut s, "I:d4");
    assert_eq!((s.units(0, Infantry), s.units(1, Rocketeer)), (5, 2));
    // A Mech on Forest attacks Infantry on a Mountain: 4 − 1 = 3; strike-back 2 + 1 − 1.
    let mut s = duel(Mech, Some(Forest), 4, Infantry, Some(Mountain), 6);
    play(&mut s, "M:d4");
    assert_eq!((s.units(0, Mech), s.units(1, Infantry)), (2, 3));
    // A Mech attacks a Mech in a Forest: 1 − 1 = 0 damage; the strike-back still comes.
    let mut s = duel(Mech, Some(Plains), 4, Mech, Some(Forest), 4);
    play(&mut s, "M:d4");
    assert_eq!((s.units(0, Mech), s.units(1, Mech)), (3, 4));
    // A Mech on Plains against a Mech on Plains: 1 each way.
    let mut s = duel(Mech, Some(Plains), 4, Mech, Some(Plains), 4);
    play(&mut s, "M:d4");
    assert_eq!((s.units(0, Mech), s.units(1, Mech)), (3, 3));
    // Size never matters: a 1-unit Mech still deals 4 to Infantry.
    let mut s = duel(Mech, None, 1, Infantry, Some(Plains), 6);
    play(&mut s, "M:d3");
    assert_eq!(s.units(1, Infantry), 2);
    // A defender loses at most all its units.
    let mut s = duel(Mech, Some(Plains), 4, Infantry, Some(Plains), 1);
    play(&mut s, "M:d4");
    assert_eq!(s.units(1, Infantry), 0);
    assert_eq!(s.squad_cell(1, Infantry), None);
}

#[test]
fn a_squad_destroyed_by_the_strike_back_is_removed() {
    // Rocketeer (1 unit) attacks a Mech on a Forest: 3 − 1 = 2 of 4; the Mech strikes
    // back 2 and destroys it.
    let mut s = duel(Rocketeer, Some(Plains), 1, Mech, Some(Forest), 4);
    play(&mut s, "R:d4");
    assert_eq!(s.units(1, Mech), 2);
    assert_eq!(
        (s.units(0, Rocketeer), s.squad_cell(0, Rocketeer)),
        (0, None)
    );
    // Seat 0's bystander has not acted: the turn goes on.
    assert_eq!(s.turn(), Turn::Seat(0));
    assert_eq!(refused(&s, "R:d4"), "seat 0's Rocketeer has been destroyed");
}

#[test]
fn a_winning_attacker_advances_with_entry_effects() {
    // A Mech destroys Infantry on a Forest: 4 − 1 = 3 ≥ 2 units; it moves in and is
    // impeded by the Forest.
    let mut s = duel(Mech, Some(Plains), 4, Infantry, Some(Forest), 2);
    play(&mut s, "M:d4");
    assert_eq!(s.squad_cell(0, Mech), parse_cell("d4").ok());
    assert!(s.is_impeded(0, Mech) && s.has_acted(0, Mech));
    // On Plains it advances, unimpeded.
    let mut s = duel(Mech, Some(Forest), 4, Infantry, Some(Plains), 2);
    play(&mut s, "M:d4");
    assert_eq!(s.squad_cell(0, Mech), parse_cell("d4").ok());
    assert!(!s.is_impeded(0, Mech));
    // Onto a Mountain a Mech may attack but never advance.
    let mut s = duel(Mech, Some(Plains), 4, Infantry, Some(Mountain), 3);
    assert!(legal(&s).contains(&"M:d4".to_string()));
    play(&mut s, "M:d4");
    assert_eq!(s.units(1, Infantry), 0);
    assert_eq!(s.squad_cell(0, Mech), parse_cell("d3").ok());
    assert!(s.has_acted(0, Mech));
    // Any other type advances onto the Mountain.
    let mut s = duel(Rocketeer, Some(Plains), 6, Infantry, Some(Mountain), 1);
    play(&mut s, "R:d4");
    assert_eq!(s.squad_cell(0, Rocketeer), parse_cell("d4").ok());
    assert!(!s.is_impeded(0, Rocketeer));
}

/// Seat 1's three squads at home on d6, seat 0's `unit` (6 units) next to it on d5.
fn at_the_gates(unit: Unit) -> HexstratState {
    position(Setup {
        tiles: vec![("d5", Plains)],
        squads: vec![
            SquadSetup::new(0, unit, "d5", unit.start_units()),
            SquadSetup::new(1, Infantry, "d6", 1),
            SquadSetup::new(1, Rocketeer, "d6", 1),
            SquadSetup::new(1, Mech, "d6", 1),
        ],
        ..Setup::default()
    })
}

#[test]
fn an_attack_on_a_shared_headquarters_names_its_target_and_only_then() {
    let s = at_the_gates(Infantry);
    let moves = legal(&s);
    for t in ["I", "R", "M"] {
        assert!(moves.contains(&format!("I:d6/{t}")), "{moves:?}");
    }
    assert!(!moves.contains(&"I:d6".to_string()));
    assert_eq!(
        refused(&s, "I:d6"),
        "d6 holds 3 enemy squads: name the one attacked, e.g. I:d6/I"
    );
    assert_eq!(
        refused(&s, "I:d5/R"),
        "d5 is not adjacent to the Infantry on d5"
    );
    // The named squad is destroyed; the others stay, so the attacker does not advance.
    let mut t = s;
    play(&mut t, "I:d6/R");
    assert_eq!(t.squad_cell(1, Rocketeer), None);
    assert_eq!(t.squad_cell(0, Infantry), parse_cell("d5").ok());
    assert_eq!(t.seize_count(0), 0);
    // Seat 0's only squad acted: seat 1 to move.
    assert_eq!(t.turn(), Turn::Seat(1));
    // Two defenders left: still named. With one left, the attack has no target name,
    // and destroying it is a rout.
    play(&mut t, "end");
    assert!(legal(&t).contains(&"I:d6/I".to_string()));
    play_moves(&mut t, "I:d6/I end").unwrap();
    assert_eq!(t.turn(), Turn::Seat(0));
    let moves = legal(&t);
    assert!(moves.contains(&"I:d6".to_string()), "{moves:?}");
    assert!(!moves.iter().any(|m| m.starts_with("I:d6/")), "{moves:?}");
    play(&mut t, "I:d6");
    assert_eq!(t.end_reason(), Some(EndReason::Rule("rout")));
    assert_eq!(refused(&t, "end"), "the game is over");
}

#[test]
fn entering_the_enemy_headquarters_impedes_and_infantry_starts_a_seize_count() {
    // The last defender destroyed: the Infantry advances into d6, impeded, count 1.
    let mut s = position(Setup {
        tiles: vec![("d5", Plains), ("a7", Plains)],
        squads: vec![
            SquadSetup::new(0, Infantry, "d5", 6),
            SquadSetup::new(0, Rocketeer, "d2", 6),
            SquadSetup::new(1, Rocketeer, "d6", 1),
            SquadSetup::new(1, Mech, "a7", 4),
        ],
        ..Setup::default()
    });
    play(&mut s, "I:d6");
    assert_eq!(s.squad_cell(0, Infantry), parse_cell("d6").ok());
    assert!(s.is_impeded(0, Infantry));
    assert_eq!(s.seize_count(0), 1);
    // A Rocketeer entering is impeded but never seizes.
    let mut t = position(Setup {
        tiles: vec![("d5", Plains), ("a7", Plains)],
        squads: vec![
            SquadSetup::new(0, Rocketeer, "d5", 6),
            SquadSetup::new(1, Mech, "a7", 4),
        ],
        ..Setup::default()
    });
    play(&mut t, "R:d6");
    assert!(t.is_impeded(0, Rocketeer));
    assert_eq!(t.seize_count(0), 0);
    assert_eq!(t.turn(), Turn::Seat(1));
}

// --- Mechs, Mountains and Forests --------------------------------------------------------

#[test]
fn a_mech_never_moves_onto_a_face_up_mountain_but_may_attack_there() {
    let s = position(Setup {
        tiles: vec![("d3", Mountain), ("a7", Plains)],
        squads: vec![
            SquadSetup::new(0, Mech, "d2", 4),
            SquadSetup::new(1, Infantry, "a7", 6),
        ],
        ..Setup::default()
    });
    assert!(!legal(&s).contains(&"M:d3".to_string()));
    assert_eq!(
        refused(&s, "M:d3"),
        "d3 is a Mountain: a Mech may step onto one only to attack"
    );
    // The Mech's other five neighbours are face down: five moves and `end`.
    assert_eq!(legal(&s).len(), 6);
}

#[test]
fn a_mech_revealing_a_mountain_stays_and_its_action_is_spent() {
    let mut s = after("M:d3");
    play(&mut s, "mountain");
    let d3 = parse_cell("d3").unwrap();
    assert_eq!(s.tile(d3), Some(Mountain));
    assert_eq!(s.squad_cell(0, Mech), parse_cell("d2").ok());
    assert!(s.has_acted(0, Mech));
    assert_eq!(s.in_bag(Mountain), 9);
    assert_eq!(s.turn(), Turn::Seat(0));
    // Now face up, the Mountain is closed to it for good.
    play_moves(&mut s, "end end").unwrap();
    assert!(!legal(&s).contains(&"M:d3".to_string()));
    // Another squad enters it freely.
    play(&mut s, "I:d3");
    assert_eq!(s.squad_cell(0, Infantry), Some(d3));
}

#[test]
fn a_mech_entering_a_forest_is_impeded_and_may_only_recover() {
    let s = after("M:d3 forest");
    assert!(s.is_impeded(0, Mech));
    let s = after("M:d3 forest end end");
    let moves = legal(&s);
    assert!(moves.contains(&"M:recover".to_string()));
    assert!(!moves
        .iter()
        .any(|m| m.starts_with("M:") && m != "M:recover"));
    assert_eq!(
        refused(&s, "M:d4"),
        "seat 0's Mech is impeded: its only action is M:recover"
    );
    assert_eq!(refused(&s, "I:recover"), "seat 0's Infantry is not impeded");
    // Recovering is its action for the turn.
    let mut t = s;
    play(&mut t, "M:recover");
    assert!(!t.is_impeded(0, Mech) && t.has_acted(0, Mech));
    assert_eq!(
        refused(&t, "M:d4"),
        "seat 0's Mech has already acted this turn"
    );
    // Not recovering keeps it impeded, turn after turn.
    let t = after("M:d3 forest end end end end");
    assert!(t.is_impeded(0, Mech));
    // Other types enter Forests unimpeded.
    assert!(!after("I:d3 forest").is_impeded(0, Infantry));
}

#[test]
fn an_impeded_squad_still_strikes_back() {
    let mut s = position(Setup {
        tiles: vec![("d3", Plains), ("d4", Forest)],
        squads: vec![
            SquadSetup::new(0, Infantry, "d3", 6),
            SquadSetup::new(1, Mech, "d4", 4).impeded(),
        ],
        ..Setup::default()
    });
    // 2 − 1 = 1 to the Mech; it strikes back 4.
    play(&mut s, "I:d4");
    assert_eq!((s.units(0, Infantry), s.units(1, Mech)), (2, 3));
    assert!(s.is_impeded(1, Mech));
}
