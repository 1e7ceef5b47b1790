//! APV passes the conformance suite under every parameter combination, and behaves as
//! the rules (`docs/games/apv.md`) say in hand-built positions: each end rule
//! (a Pivot shut in by either side, by a primary move or a fired order; both at once;
//! the turn cap, checked before the next order fires), orders that fire or fizzle, the
//! order decision's own rules, Limited Orders, what `Eq` and the hash cover, the
//! notation and its error messages, the parameters and the pinned initial hash.

use crate::common;

use agon_engine::games::apv::Bitboard;
use agon_engine::games::apv::{Apv, ApvKnobs, ApvMove, ApvState, MoveKind, Order, Unit};
use agon_engine::testing::{check_conformance, turns_along, Cap, CapUnit, Conformance};
use agon_engine::{End, EndReason, Game, Outcome, Params, State, Turn};
use common::apv::{after, cell, play, setup};
use common::notation::{legal, refused};

fn conform(game: Apv, playouts: usize, seed: u64) -> agon_engine::testing::ConformanceReport {
    let cfg = Conformance {
        playouts,
        seed,
        // Two decisions per turn at most.
        max_plies: 2 * game.max_turns(),
        cap: Some(Cap {
            unit: CapUnit::Turns,
            limit: game.max_turns(),
        }),
        ..Conformance::default()
    };
    let report = check_conformance(&game, &cfg).unwrap_or_else(|e| panic!("{game:?}: {e}"));
    assert_eq!(report.playouts, playouts);
    assert_eq!(report.chance_nodes, 0);
    report
}

// Random games are long (a third of them reach the 500-turn cap) and the suite checks
// every move of every node, so the quick runs are short; the ignored one is the full run.

#[test]
fn conformance_default_rules() {
    // The suite's transposition probe swaps two moves of one seat's turn, which APV's
    // turn shape never allows (a primary move, then an order); the tests below check
    // transpositions with whole turns instead.
    let report = conform(Apv::default(), 60, 1);
    let reasons: Vec<&str> = report.end_reasons.iter().map(|r| r.0).collect();
    assert!(
        reasons.contains(&"immobilised") && reasons.contains(&"cap"),
        "{report:?}"
    );
}

#[test]
fn conformance_orders_off_and_limited() {
    conform(Apv::new(false, false, 500).unwrap(), 30, 2);
    conform(Apv::new(true, true, 500).unwrap(), 30, 3);
}

#[test]
#[ignore = "1,000 playouts per rule set: about 3 minutes"]
fn conformance_full() {
    for (i, game) in [
        Apv::default(),
        Apv::new(false, false, 500).unwrap(),
        Apv::new(true, true, 500).unwrap(),
    ]
    .into_iter()
    .enumerate()
    {
        conform(game, 1000, 10 + i as u64);
    }
}

#[test]
fn conformance_short_caps_end_by_cap() {
    for (orders, limited, seed) in [(true, false, 4), (false, false, 5), (true, true, 6)] {
        let game = Apv::new(orders, limited, 12).unwrap();
        let report = conform(game, 200, seed);
        assert!(
            report.end_reasons.iter().any(|r| r.0 == "cap"),
            "{game:?}: {report:?}"
        );
        let longest = if orders { 24 } else { 12 };
        assert!(report.longest <= longest, "{report:?}");
    }
}

#[test]
fn the_initial_position_and_hash_are_pinned() {
    let s = Apv::default().initial_state();
    assert_eq!(s.turn(), Turn::Seat(0));
    assert_eq!((s.side(0), s.side(1)), ("north", "south"));
    assert_eq!(s.pivot(0), cell("e9"));
    assert_eq!(s.pivot(1), cell("e1"));
    for (side, unit, cells) in [
        (0, Unit::Axis, ["d8", "f8"]),
        (0, Unit::Veil, ["d7", "f7"]),
        (0, Unit::Turned, ["e8", "e7"]),
        (1, Unit::Axis, ["d2", "f2"]),
        (1, Unit::Veil, ["d3", "f3"]),
        (1, Unit::Turned, ["e2", "e3"]),
    ] {
        assert_eq!(
            s.units(side, unit),
            1 << cell(cells[0]) | 1 << cell(cells[1])
        );
    }
    // A change of the key tables or of what the hash covers must update this
    // deliberately. The parameters are rules, not position: they leave the key alone.
    assert_eq!(s.hash(), s.recompute_hash());
    assert_eq!(s.hash(), 0xe6d4_7453_0144_9e2b, "{:#018x}", s.hash());
    for game in [
        Apv::new(false, false, 9).unwrap(),
        Apv::new(true, true, 500).unwrap(),
    ] {
        assert_eq!(game.initial_state().hash(), s.hash());
    }
    // Each Pivot starts in a corner with one liberty.
    assert_eq!(s.liberties(0), 1 << cell("d9"));
    assert_eq!(s.liberties(1), 1 << cell("f1"));
}

#[test]
fn a_turn_is_a_primary_move_then_an_order_decision_by_the_same_seat() {
    let mut s = Apv::default().initial_state();
    play(&mut s, "d8-a8");
    assert_eq!(s.turn(), Turn::Seat(0));
    assert_eq!(s.just_moved(), Some(cell("a8")));
    let moves = legal(&s);
    assert!(moves.contains(&"no-order".to_string()));
    assert!(moves
        .iter()
        .all(|m| m == "no-order" || m.starts_with("order:")));
    // Not the Axis that just moved (now on a8), every other unit's moves.
    assert!(
        moves.iter().all(|m| !m.starts_with("order:a8-")),
        "{moves:?}"
    );
    refused(
        &s,
        "order:a8-a6",
        &["just made the primary move", "another unit"],
    );
    // The order is a legal move now: d7-d5 (Veil), f8-i5 (Axis).
    assert!(moves.contains(&"order:d7-d5".to_string()));
    assert!(moves.contains(&"order:f8-i5".to_string()));
    // A Veil ignores the cell it jumps over; an order may be suicidal (d9 is North's
    // Pivot's last liberty) as long as it is a legal move.
    assert!(moves.contains(&"order:d7-d9".to_string()));
    play(&mut s, "order:d7-d5");
    assert_eq!(s.turn(), Turn::Seat(1));
    assert_eq!(
        s.order(0),
        Some(Order {
            from: cell("d7") as u8,
            to: cell("d5") as u8
        })
    );
    assert_eq!(s.turns_completed(), 1);
    // South's turn: no pending order of its own, the North order waits.
    play(&mut s, "d2-a5 no-order");
    // North's order fired as South's turn ended: d7 is empty, d5 holds the Veil.
    assert_eq!(s.order(0), None);
    assert_eq!(s.unit_at(0, cell("d5")), Some(Unit::Veil));
    assert_eq!(s.unit_at(0, cell("d7")), None);
    assert_eq!(s.turn(), Turn::Seat(0));
    assert_eq!(s.just_moved(), None);
    // The unit the order just moved may make the primary move.
    assert!(legal(&s).contains(&"d5-b5".to_string()));
    play(&mut s, "d5-b5");
    assert_eq!(s.unit_at(0, cell("b5")), Some(Unit::Veil));
    assert_eq!(s.ply(), 5);
}

#[test]
fn an_order_fizzles_when_its_destination_is_taken() {
    let mut s = after(Apv::default(), "d8-a8 order:d7-d5");
    // South's Veil d3 jumps onto d5 first.
    play(&mut s, "d3-d5 no-order");
    assert_eq!(s.order(0), None, "the order is removed");
    assert_eq!(
        s.unit_at(0, cell("d7")),
        Some(Unit::Veil),
        "and its unit stays"
    );
    assert_eq!(s.unit_at(1, cell("d5")), Some(Unit::Veil));
    assert_eq!(s.turn(), Turn::Seat(0));
    assert_eq!(s.just_moved(), None);
}

#[test]
fn an_axis_order_fizzles_when_its_path_is_blocked() {
    // North's Axis a5 is ordered to a8; South's Veil c4 lands on a6, in the path.
    let mut s = setup(
        Apv::default(),
        "Pe5 Aa5 Vd5 pi1 ab4 vc4 tc3 ah1",
        ["a5-a8", ""],
        1,
    );
    assert_eq!(s.turn(), Turn::Seat(1));
    play(&mut s, "c4-a6 no-order");
    assert_eq!(s.order(0), None);
    assert_eq!(
        s.unit_at(0, cell("a5")),
        Some(Unit::Axis),
        "blocked at a6: no move"
    );
    assert_eq!(s.unit_at(0, cell("a8")), None);
    // Without the block the same order fires.
    let mut t = setup(
        Apv::default(),
        "Pe5 Aa5 Vd5 pi1 ab4 vc4 tc3 ah1",
        ["a5-a8", ""],
        1,
    );
    play(&mut t, "c4-c6 no-order");
    assert_eq!(t.unit_at(0, cell("a8")), Some(Unit::Axis));
}

#[test]
fn shutting_in_the_enemy_pivot_wins_by_a_primary_move() {
    // South's Pivot sits on c9 with d9 its last liberty; North's Turned Veil on e7
    // jumps to d9 and wins at once, before any order decision.
    let mut s = setup(Apv::default(), "Pe5 Te7 pc9 ab9 vc8 ad8 ae1", ["", ""], 0);
    play(&mut s, "e7-d9");
    assert_eq!(s.turn(), Turn::Over);
    assert_eq!(s.outcome(), Some(Outcome::Win(0)));
    assert_eq!(s.end_reason(), Some(EndReason::Rule("immobilised")));
    assert_eq!(s.end(), Some(End::win(0, "immobilised")));
    assert!(legal(&s).is_empty());
    refused(&s, "no-order", &["the game is over"]);
}

#[test]
fn shutting_in_your_own_pivot_loses() {
    // From the start, North's d8-d9 fills its own Pivot's only liberty.
    let s = after(Apv::default(), "d8-d9");
    assert_eq!(s.outcome(), Some(Outcome::Win(1)));
    assert_eq!(s.end_reason(), Some(EndReason::Rule("immobilised")));
    // An order that does the same loses when it fires, two plies later: South's turn
    // passes, North's order fires as North's turn begins.
    let mut s = after(Apv::default(), "d8-a8 order:d7-d9");
    assert_eq!(s.turn(), Turn::Seat(1));
    play(&mut s, "d2-a5");
    assert_eq!(s.turn(), Turn::Seat(1));
    play(&mut s, "no-order");
    assert_eq!(s.outcome(), Some(Outcome::Win(1)));
    assert_eq!(s.end_reason(), Some(EndReason::Rule("immobilised")));
    assert_eq!(s.ply(), 4);
}

#[test]
fn a_fired_order_can_win() {
    // South's Pivot on c9 has d9 as its last liberty; North's order e7-d9 (Turned Veil)
    // fires as North's turn begins, unless South's turn changed things. South plays
    // its Axis e1 away.
    let mut s = setup(
        Apv::default(),
        "Pe5 Te7 pc9 ab9 vc8 ad8 ae1",
        ["e7-d9", ""],
        1,
    );
    play(&mut s, "e1-e2 no-order");
    assert_eq!(s.outcome(), Some(Outcome::Win(0)));
    assert_eq!(s.end_reason(), Some(EndReason::Rule("immobilised")));
}

/// The moves of `s` that `retain_possible_wins` keeps, in notation, sorted.
fn possible_wins(s: &ApvState) -> Vec<String> {
    let mut moves = Vec::new();
    s.legal_moves(&mut moves);
    s.retain_possible_wins(&mut moves);
    let mut texts: Vec<String> = moves.iter().map(|&m| s.format_move(m)).collect();
    texts.sort();
    texts
}

#[test]
fn only_the_last_liberty_or_a_firing_order_can_win() {
    // South's Pivot on e5 has six liberties, so no primary move of North wins, though
    // d7-d9 ends the game (North's Veil shuts its own Pivot in).
    let s = setup(Apv::default(), "Pe9 Af8 Te8 Vd7 pe5 ae1", ["", ""], 0);
    assert!(s.may_end_game(s.parse_move("d7-d9").unwrap()));
    assert!(possible_wins(&s).is_empty());
    // South's Pivot on c9 with d9 its last liberty: only the moves onto d9 may win,
    // and the Turned Veil's does.
    let s = setup(Apv::default(), "Pe5 Te7 pc9 ab9 vc8 ad8 ae1", ["", ""], 0);
    assert_eq!(possible_wins(&s), ["e7-d9"]);
    // An order decision moves nothing: each one ends South's turn on the same board,
    // where North's order shuts North's own Pivot in as it fires. All win for South, and
    // none does where no order is pending.
    let s = after(Apv::default(), "d8-a8 order:d7-d9 d2-a5");
    assert_eq!(possible_wins(&s), legal(&s));
    assert!(!possible_wins(&s).is_empty());
    assert!(possible_wins(&after(Apv::default(), "d8-a8")).is_empty());
}

#[test]
fn both_pivots_shut_in_at_once_is_a_draw() {
    // Both Pivots' last liberty is d9: by a fired order...
    let s = setup(
        Apv::default(),
        "Pe9 Af8 Te8 Vd7 Ad8 pc9 ab9 vc8 ae1",
        ["d7-d9", ""],
        0,
    );
    assert_eq!(s.turn(), Turn::Over);
    assert_eq!(s.outcome(), Some(Outcome::Draw));
    assert_eq!(s.end_reason(), Some(EndReason::Rule("both-immobilised")));
    // ...or by a primary move (South's Turned Veil e7 to d9).
    let mut s = setup(
        Apv::default(),
        "Pe9 Af8 Te8 Ad8 pc9 ab9 vc8 te7 ae1",
        ["", ""],
        1,
    );
    play(&mut s, "e7-d9");
    assert_eq!(s.outcome(), Some(Outcome::Draw));
    assert_eq!(s.end_reason(), Some(EndReason::Rule("both-immobilised")));
    assert_eq!(s.end(), Some(End::rule(Outcome::Draw, "both-immobilised")));
}

#[test]
fn the_cap_ends_the_game_before_the_next_order_fires() {
    // Cap of 2 turns: North's turn 1 orders d7-d9 (which would shut North's own Pivot
    // in when it fires); South's turn 2 completes the cap, so the order never fires.
    let game = Apv::new(true, false, 2).unwrap();
    let mut s = after(game, "d8-a8 order:d7-d9 d2-a5");
    assert_eq!(s.turn(), Turn::Seat(1));
    play(&mut s, "no-order");
    assert_eq!(s.turn(), Turn::Over);
    assert_eq!(s.outcome(), Some(Outcome::Draw));
    assert_eq!(s.end_reason(), Some(EndReason::Cap));
    // The cap counts turns, which the hash leaves out: search must not store this.
    assert!(s.ended_by_history());
    assert_eq!(s.turns_completed(), 2);
    assert_eq!(
        s.unit_at(0, cell("d7")),
        Some(Unit::Veil),
        "the order did not fire"
    );
    // One more turn allowed: the order fires and North loses.
    let game = Apv::new(true, false, 3).unwrap();
    let s = after(game, "d8-a8 order:d7-d9 d2-a5 no-order");
    assert_eq!(s.outcome(), Some(Outcome::Win(1)));
    // Without orders a turn is one decision, and the cap counts those turns.
    let game = Apv::new(false, false, 2).unwrap();
    let mut s = after(game, "d8-a8");
    assert_eq!(s.turn(), Turn::Seat(1));
    play(&mut s, "d2-a5");
    assert_eq!(s.end_reason(), Some(EndReason::Cap));
    // A win on the last turn's primary move is a win, not a cap draw.
    let game = Apv::new(true, false, 1).unwrap();
    let s = after(game, "d8-d9");
    assert_eq!(s.end_reason(), Some(EndReason::Rule("immobilised")));
    assert!(!s.ended_by_history());
}

#[test]
fn the_cap_counter_is_not_part_of_the_position() {
    // The same position after 2 and after 4 turns: equal, same hash (the counter only
    // counts towards the cap, as a chess engine leaves out the move number).
    let game = Apv::new(false, false, 500).unwrap();
    let a = after(game, "d8-a8 d2-a5");
    let b = after(game, "d8-c8 d2-c3 c8-a8 c3-a5");
    assert_eq!(a, b);
    assert_eq!(a.hash(), b.hash());
    assert_ne!(a.turns_completed(), b.turns_completed());
}

#[test]
fn eq_and_hash_cover_orders_phase_and_limited_flags() {
    let game = Apv::default();
    // Same board, different pending orders (or none).
    let a = after(game, "d8-a8 order:d7-d5");
    let b = after(game, "d8-a8 order:f7-f5");
    let c = after(game, "d8-a8 no-order");
    for (x, y) in [(&a, &b), (&a, &c), (&b, &c)] {
        assert_ne!(x, y);
        assert_ne!(x.hash(), y.hash());
    }
    // Two order decisions on the same board after different units moved: the unit that
    // just moved may not be ordered, so the choices differ, and so must the positions.
    let x = after(game, "d8-a8 no-order d2-a5 no-order f7-f5");
    let y = after(game, "f7-f5 no-order d2-a5 no-order d8-a8");
    assert_eq!(x.units(0, Unit::Axis), y.units(0, Unit::Axis));
    assert_eq!(x.units(0, Unit::Veil), y.units(0, Unit::Veil));
    assert_eq!(
        (x.just_moved(), y.just_moved()),
        (Some(cell("f5")), Some(cell("a8")))
    );
    assert_ne!(x, y);
    assert_ne!(x.hash(), y.hash());
    assert_ne!(legal(&x), legal(&y));
    // Once both turns are complete the two orders transpose.
    let (mut x, mut y) = (x, y);
    play(&mut x, "no-order");
    play(&mut y, "no-order");
    assert_eq!(x, y);
    assert_eq!(x.hash(), y.hash());
    // Limited Orders: the same board, North to move, but in `p` North's order fired
    // this turn (so it ordered last turn and may not order now); in `q` nobody ordered.
    let limited = Apv::new(true, true, 500).unwrap();
    let line_p = "d8-a8 order:f8-g7 d2-a5 no-order";
    let line_q = "f8-g7 no-order d2-c3 no-order d8-a8 no-order c3-a5 no-order";
    let (p, q) = (after(limited, line_p), after(limited, line_q));
    assert_eq!(p.units(0, Unit::Axis), q.units(0, Unit::Axis));
    assert_eq!(p.units(1, Unit::Axis), q.units(1, Unit::Axis));
    assert!(p.issued_last_turn(0) && !q.issued_last_turn(0));
    assert_ne!(p, q);
    assert_ne!(p.hash(), q.hash());
    // Under the default rules there is no such flag: the two lines transpose.
    let (p, q) = (after(game, line_p), after(game, line_q));
    assert_eq!(p, q);
    assert_eq!(p.hash(), q.hash());
}

#[test]
fn limited_orders_allow_an_order_every_other_turn() {
    let game = Apv::new(true, true, 500).unwrap();
    let mut s = after(game, "d8-a8 order:d7-d5 d2-a5 no-order");
    // North's order fired; North ordered last turn, so this turn only no-order.
    play(&mut s, "a8-a6");
    assert_eq!(legal(&s), ["no-order"]);
    assert!(s.issued_last_turn(0));
    refused(
        &s,
        "order:f7-f5",
        &["limited orders", "no-order is its only choice"],
    );
    // The same position under the default rules offers orders.
    let free = after(Apv::default(), "d8-a8 order:d7-d5 d2-a5 no-order a8-a6");
    assert!(legal(&free).len() > 1);
    play(&mut s, "no-order");
    assert!(!s.issued_last_turn(0));
    // South never ordered: free to order.
    play(&mut s, "a5-b5");
    assert!(legal(&s).len() > 1);
    play(&mut s, "no-order");
    // North's next turn: orders again.
    play(&mut s, "a6-a7");
    assert!(legal(&s).contains(&"order:f7-f5".to_string()));
}

#[test]
fn notation_is_forgiving_and_errors_name_the_problem() {
    let s = Apv::default().initial_state();
    let d8a8 = ApvMove::new(MoveKind::Primary, cell("d8"), cell("a8"));
    for text in ["d8-a8", " D8-A8 ", "d8-A8\t"] {
        assert_eq!(s.parse_move(text), Ok(d8a8), "{text:?}");
    }
    assert_eq!(s.format_move(d8a8), "d8-a8");
    refused(&s, "", &["expected a primary move like d8-a8"]);
    refused(&s, "d8a8", &["expected"]);
    refused(&s, "a1-a2", &["a1 is off the board"]);
    refused(&s, "z9-a8", &["\"z9\" is not a cell"]);
    refused(&s, "d10-a8", &["is not a cell"]);
    refused(&s, "d5-d4", &["d5 is empty"]);
    refused(&s, "d2-d4", &["d2 holds a south unit"]);
    refused(&s, "e9-e8", &["e8 is occupied by a north unit"]);
    refused(&s, "e9-e7", &["a Pivot steps to one of its six neighbours"]);
    refused(
        &s,
        "d8-d6",
        &["the Axis's path from d8 to d6 is blocked at d7"],
    );
    refused(
        &s,
        "d8-e6",
        &["an Axis slides along one of the six directions"],
    );
    refused(&s, "d7-d6", &["a Veil jumps exactly two cells"]);
    refused(
        &s,
        "e8-e6",
        &["a Turned Veil jumps to one of its six diagonal cells"],
    );
    refused(&s, "d8-d8", &["does not move the unit"]);
    refused(&s, "order:d7-d5", &["primary move first"]);
    refused(&s, "no-order", &["primary move first"]);
    refused(&s, "pass", &["expected"]);
    let mut t = s.clone();
    play(&mut t, "d8-a8");
    refused(
        &t,
        "d7-d5",
        &["has made its primary move", "order:<from>-<to> or no-order"],
    );
    refused(&t, "order:a8-a6", &["just made the primary move"]);
    refused(&t, "order:d7-d6", &["a Veil jumps exactly two cells"]);
    refused(&t, "order:", &["expected"]);
    refused(&t, "order:d7-", &["is not a cell"]);
    assert_eq!(
        t.parse_move(" ORDER:D7-D5 "),
        Ok(ApvMove::new(MoveKind::Order, cell("d7"), cell("d5")))
    );
    assert_eq!(t.parse_move("No-Order"), Ok(ApvMove::NO_ORDER));
    assert_eq!(t.format_move(ApvMove::NO_ORDER), "no-order");
    assert_eq!(
        t.format_move(ApvMove::new(MoveKind::Order, cell("d7"), cell("d5"))),
        "order:d7-d5"
    );
    // try_apply of an illegal move value gives the same reasons and changes nothing.
    let mut u = t.clone();
    let e = u.try_apply(d8a8).unwrap_err();
    assert!(e.reason.contains("has made its primary move"), "{e}");
    assert_eq!(u, t);
    let e = u
        .try_apply(ApvMove::new(MoveKind::Order, cell("a8"), cell("a6")))
        .unwrap_err();
    assert!(e.reason.contains("just made the primary move"), "{e}");
    // Orders off: the turn ends with the primary move.
    let mut off = Apv::new(false, false, 500).unwrap().initial_state();
    play(&mut off, "d8-a8");
    assert_eq!(off.turn(), Turn::Seat(1));
    refused(&off, "no-order", &["primary move first"]);
}

#[test]
fn parameters_reach_the_same_rules_and_errors() {
    let specs = Apv::param_specs();
    let defaults = Apv::from_params(&Params::defaults(specs)).unwrap();
    assert_eq!(defaults, Apv::default());
    assert_eq!(
        (
            defaults.orders(),
            defaults.limited_orders(),
            defaults.max_turns()
        ),
        (true, false, 500)
    );
    let p = Params::parse(specs, &[("limited_orders", "true"), ("max_turns", "80")]).unwrap();
    assert_eq!(
        p.canonical(),
        "limited_orders=true,max_turns=80,orders=true"
    );
    assert_eq!(
        Apv::from_params(&p).unwrap(),
        Apv::new(true, true, 80).unwrap()
    );
    let e = Params::parse(specs, &[("max_turns", "0")]).unwrap_err();
    assert!(e.0.contains("max_turns=0"), "{e}");
    let e = Params::parse(specs, &[("orders", "maybe")]).unwrap_err();
    assert!(
        e.0.contains("orders=maybe") && e.0.contains("true|false"),
        "{e}"
    );
    let p = Params::parse(specs, &[("orders", "false"), ("limited_orders", "true")]).unwrap();
    let e = Apv::from_params(&p).unwrap_err();
    assert!(
        e.0.contains("limited_orders=true") && e.0.contains("orders=true"),
        "{e}"
    );
    assert_eq!(Apv::NAME, "apv");
    const { assert!(!agon_engine::has_chance::<ApvState>() && !Apv::HAS_HIDDEN_INFORMATION) };
}

#[test]
fn hand_built_positions_are_checked() {
    let game = Apv::default();
    let mut bb = [[0 as Bitboard; 4]; 2];
    bb[0][0] = 1 << cell("e5");
    assert!(
        game.position(bb, 0, [None; 2]).is_err(),
        "South has no Pivot"
    );
    bb[1][0] = 1 << cell("e5");
    assert!(game.position(bb, 0, [None; 2]).is_err(), "two units on e5");
    bb[1][0] = 1 << cell("i1");
    let s = game.position(bb, 1, [None; 2]).unwrap();
    assert_eq!(s.turn(), Turn::Seat(1));
    assert_eq!(s.hash(), s.recompute_hash());
    let bad = Order {
        from: cell("e5") as u8,
        to: cell("e7") as u8,
    };
    assert!(game.position(bb, 0, [Some(bad), None]).is_err());
}

#[test]
fn the_board_prints_with_north_at_the_top() {
    let s = after(Apv::default(), "d8-a8 order:d7-d5");
    let expected = "\
a9              .     .     .     .     P  e9
a8           A     .     .     .     T     A  f8
a7        .     .     .     V     T     V     .  g7
a6     .     .     .     .     .     .     .     .  h6
a5  .     .     .     .     .     .     .     .     .  i5
b4     .     .     .     .     .     .     .     .  i4
c3        .     v     t     v     .     .     .  i3
d2           a     t     a     .     .     .  i2
e1              p     .     .     .     .  i1
d7 -> d5: north's pending order: fires at the start of its next turn
south (seat 1) to make its primary move
north has ordered d7-d5: it fires at the start of north's next turn
turn 2 of 500
legend: P north Pivot (seat 0) · A north Axis (seat 0) · V north Veil (seat 0)
        T north Turned Veil (seat 0) · p south Pivot (seat 1) · a south Axis (seat 1)
        v south Veil (seat 1) · t south Turned Veil (seat 1) · [ ] the last move
        coordinates: first and last cell of each line";
    assert_eq!(s.to_string(), expected);
}

#[test]
fn a_turn_is_the_primary_move_and_its_order_decision() {
    let game = Apv::default();
    let turns = turns_along(&game.initial_state(), "d8-c8 no-order d2-c3 no-order c8-a8");
    assert_eq!(turns.unwrap(), [1, 1, 2, 2, 3]);
    // Without orders every decision is a turn.
    let turns = turns_along(
        &Apv::new(false, false, 500).unwrap().initial_state(),
        "d8-a8 d2-a5",
    );
    assert_eq!(turns.unwrap(), [1, 2]);
    // A game drawn by the cap has exactly the cap's turns: 2 turns, 4 decisions.
    let s = after(
        Apv::new(true, false, 2).unwrap(),
        "d8-a8 order:d7-d9 d2-a5 no-order",
    );
    assert_eq!(
        (s.end_reason(), s.turns(), s.ply()),
        (Some(EndReason::Cap), 2, 4)
    );
    // A primary move that wins ends the game inside its turn, which counts.
    let s = after(Apv::new(true, false, 1).unwrap(), "d8-d9");
    assert_eq!(
        (s.end_reason(), s.turns()),
        (Some(EndReason::Rule("immobilised")), 1)
    );
}

// The designer's knobs.

/// `game` from a spec string such as `apv:axes=3`.
fn knobbed(spec: &str) -> Apv {
    common::parse_game(spec).unwrap_or_else(|e| panic!("{spec}: {e}"))
}

/// The cells of `side`'s units of type `unit`, as a bitboard of named cells.
fn cells(names: &[&str]) -> Bitboard {
    names.iter().fold(0, |bb, name| bb | 1 << cell(name))
}

#[test]
fn conformance_under_every_knob() {
    for (i, spec) in [
        "apv:axes=3",
        "apv:axes=0,max_turns=100",
        "apv:veils=3",
        "apv:veils=0,max_turns=100",
        "apv:turned_veils=1",
        "apv:turned_veils=3,axes=1",
        "apv:order_delay=2",
        "apv:order_delay=3,limited_orders=true",
        "apv:south_extra=axis",
        "apv:south_extra=turned-veil,axes=3,veils=3,turned_veils=3",
        "apv:axes=0,veils=0,turned_veils=0,south_extra=veil,max_turns=60",
    ]
    .into_iter()
    .enumerate()
    {
        conform(knobbed(spec), 8, 40 + i as u64);
    }
}

#[test]
fn the_unit_count_knobs_set_each_army() {
    // The rulebook's armies, then the third unit of a type on its documented cell (c8,
    // c7 or e6 for North; g2, g3 or e4 for South), and none.
    for (spec, unit, north, south) in [
        ("apv", Unit::Axis, &["d8", "f8"][..], &["d2", "f2"][..]),
        (
            "apv:axes=3",
            Unit::Axis,
            &["d8", "f8", "c8"],
            &["d2", "f2", "g2"],
        ),
        ("apv:axes=1", Unit::Axis, &["d8"], &["f2"]),
        ("apv:axes=0", Unit::Axis, &[], &[]),
        (
            "apv:veils=3",
            Unit::Veil,
            &["d7", "f7", "c7"],
            &["d3", "f3", "g3"],
        ),
        ("apv:veils=0", Unit::Veil, &[], &[]),
        (
            "apv:turned_veils=3",
            Unit::Turned,
            &["e8", "e7", "e6"],
            &["e2", "e3", "e4"],
        ),
        ("apv:turned_veils=1", Unit::Turned, &["e8"], &["e2"]),
    ] {
        let s = knobbed(spec).initial_state();
        assert_eq!(s.units(0, unit), cells(north), "{spec}: North");
        assert_eq!(s.units(1, unit), cells(south), "{spec}: South");
        assert_eq!(s.hash(), s.recompute_hash(), "{spec}");
    }
    // The other types keep their rulebook cells; the third Axis adds its own slides
    // (c8 to b8 and a8, among others) to the rulebook's 25 first moves.
    let s = knobbed("apv:axes=3").initial_state();
    assert_eq!(s.units(0, Unit::Veil), cells(&["d7", "f7"]));
    assert!(legal(&s).contains(&"c8-a8".to_string()));
    assert!(legal(&s).len() > 25, "{}", legal(&s).len());
    // Without Turned Veils e8 is empty: North's Pivot starts with two liberties.
    let s = knobbed("apv:turned_veils=0").initial_state();
    assert_eq!(s.liberties(0), cells(&["d9", "e8"]));
    assert_eq!(legal(&s).iter().filter(|m| m.starts_with("e9-")).count(), 2);
    // Only the Pivots: no order can be issued (the Pivot just moved), and no Pivot can
    // be shut in, so the game runs to the cap.
    let mut s = knobbed("apv:axes=0,veils=0,turned_veils=0,max_turns=4").initial_state();
    assert_eq!(legal(&s), ["e9-d9", "e9-e8", "e9-f8"]);
    play(&mut s, "e9-e8");
    assert_eq!(legal(&s), ["no-order"]);
    play(
        &mut s,
        "no-order e1-e2 no-order e8-e7 no-order e2-e3 no-order",
    );
    assert_eq!(s.end().map(|e| e.reason.word()), Some("cap"));
}

#[test]
fn south_extra_gives_seat_1_one_more_unit() {
    // Each type's extra unit takes the next of South's setup cells; North's army is the
    // rulebook's.
    for (spec, unit, south) in [
        ("apv:south_extra=axis", Unit::Axis, &["d2", "f2", "g2"][..]),
        ("apv:south_extra=veil", Unit::Veil, &["d3", "f3", "g3"]),
        (
            "apv:south_extra=turned-veil",
            Unit::Turned,
            &["e2", "e3", "e4"],
        ),
        // With three Axes a side, South's fourth stands on c3 (North's g7 turned).
        (
            "apv:axes=3,south_extra=axis",
            Unit::Axis,
            &["d2", "f2", "g2", "c3"],
        ),
        (
            "apv:veils=3,south_extra=veil",
            Unit::Veil,
            &["d3", "f3", "g3", "c4"],
        ),
        (
            "apv:turned_veils=3,south_extra=turned-veil",
            Unit::Turned,
            &["e2", "e3", "e4", "d4"],
        ),
    ] {
        let game = knobbed(spec);
        let s = game.initial_state();
        assert_eq!(s.units(1, unit), cells(south), "{spec}");
        let rulebook = Apv::default().with_knobs(ApvKnobs {
            south_extra: None,
            ..game.knobs()
        });
        let north = rulebook.unwrap().initial_state();
        for u in Unit::ALL {
            assert_eq!(
                s.units(0, u),
                north.units(0, u),
                "{spec}: North is unchanged"
            );
        }
        assert_eq!(
            s.side_units(1).count_ones(),
            s.side_units(0).count_ones() + 1,
            "{spec}"
        );
        assert_ne!(s.hash(), north.hash(), "{spec}");
    }
    // The default is no compensation.
    assert_eq!(Apv::default().knobs().south_extra, None);
}

#[test]
fn order_delay_makes_an_order_wait_its_turns() {
    let line = "d7-d5 order:f8-h6 f3-f5 no-order";
    // The rulebook: North's order has fired at the start of its next turn.
    let s = after(Apv::default(), line);
    assert_eq!(s.unit_at(0, cell("h6")), Some(Unit::Axis));
    // A delay of 2: it still waits (one more of North's turns), and while it waits North
    // may issue no other order.
    let game = knobbed("apv:order_delay=2");
    let mut s = after(game, line);
    assert_eq!(s.unit_at(0, cell("f8")), Some(Unit::Axis));
    assert_eq!(s.unit_at(0, cell("h6")), None);
    assert_eq!(s.order_wait(0), 1);
    play(&mut s, "d8-a8");
    assert_eq!(legal(&s), ["no-order"]);
    refused(
        &s,
        "order:d5-b5",
        &["f8-h6 still waits", "one pending order"],
    );
    play(&mut s, "no-order d3-f3 no-order");
    // It fired at the start of North's second turn after it was issued.
    assert_eq!(s.order(0), None);
    assert_eq!(s.unit_at(0, cell("h6")), Some(Unit::Axis));
    assert_eq!(s.unit_at(0, cell("f8")), None);
    play(&mut s, "a8-a6");
    assert!(legal(&s).len() > 1);
    // A delay of 3 waits one turn more.
    let s = after(
        knobbed("apv:order_delay=3"),
        &format!("{line} d8-a8 no-order d3-f3 no-order"),
    );
    assert_eq!(
        (s.order_wait(0), s.unit_at(0, cell("f8"))),
        (1, Some(Unit::Axis))
    );
}

#[test]
fn moving_a_unit_under_a_waiting_order_cancels_the_order() {
    let mut s = after(
        knobbed("apv:order_delay=2"),
        "d7-d5 order:f8-h6 f3-f5 no-order",
    );
    assert!(s.order(0).is_some());
    play(&mut s, "f8-g7");
    assert_eq!((s.order(0), s.order_wait(0)), (None, 0));
    // The order is gone, so North may issue a new one at once.
    assert!(legal(&s).contains(&"order:d5-b5".to_string()));
    assert_eq!(s.hash(), s.recompute_hash());
}

#[test]
fn an_orders_wait_is_part_of_the_position() {
    // South to move with North's order f8-h6 pending: waiting two turns (just issued
    // under a delay of 2) or one (built by hand, about to fire): different positions.
    let game = knobbed("apv:order_delay=2");
    let issued = after(game, "d7-d5 order:f8-h6");
    let built = setup(
        game,
        "Pe9 Ad8 Af8 Vd5 Vf7 Te8 Te7 pe1 ad2 af2 vd3 vf3 te2 te3",
        ["f8-h6", ""],
        1,
    );
    assert_eq!((issued.order(0), issued.order_wait(0)), (built.order(0), 2));
    assert_eq!(built.order_wait(0), 1);
    assert_ne!(issued, built);
    assert_ne!(issued.hash(), built.hash());
    // They play differently: after South's turn only the second one's order fires.
    let (mut a, mut b) = (issued, built);
    play(&mut a, "f3-f5 no-order");
    play(&mut b, "f3-f5 no-order");
    assert_eq!(a.unit_at(0, cell("f8")), Some(Unit::Axis));
    assert_eq!(b.unit_at(0, cell("h6")), Some(Unit::Axis));
}

#[test]
fn knobs_are_omitted_at_their_defaults_and_bad_values_are_refused() {
    let specs = Apv::param_specs();
    // The rulebook's spec keeps its text; a knob at its default is left out.
    assert_eq!(
        Params::defaults(specs).canonical(),
        "limited_orders=false,max_turns=500,orders=true"
    );
    let p = Params::parse(
        specs,
        &[("axes", "2"), ("order_delay", "1"), ("south_extra", "none")],
    )
    .unwrap();
    assert_eq!(p, Params::defaults(specs));
    assert_eq!(Apv::from_params(&p).unwrap(), Apv::default());
    let p = Params::parse(specs, &[("veils", "3"), ("south_extra", "turned-veil")]).unwrap();
    assert_eq!(
        p.canonical(),
        "limited_orders=false,max_turns=500,orders=true,south_extra=turned-veil,veils=3"
    );
    let knobs = Apv::from_params(&p).unwrap().knobs();
    assert_eq!((knobs.veils, knobs.south_extra), (3, Some(Unit::Turned)));
    // Out of range: the error names the value and the valid range.
    for (name, bad, range) in [
        ("axes", "999", "integer 0..3"),
        ("veils", "4", "integer 0..3"),
        ("turned_veils", "-1", "integer 0..3"),
        ("order_delay", "999", "integer 1..3"),
        ("order_delay", "0", "integer 1..3"),
        ("south_extra", "pivot", "none|axis|veil|turned-veil"),
    ] {
        let e = Params::parse(specs, &[(name, bad)]).unwrap_err();
        assert!(
            e.0.contains(&format!("{name}={bad}")) && e.0.contains(range),
            "{e}"
        );
    }
    // A delay needs orders.
    let p = Params::parse(specs, &[("orders", "false"), ("order_delay", "2")]).unwrap();
    let e = Apv::from_params(&p).unwrap_err();
    assert!(
        e.0.contains("order_delay=2") && e.0.contains("orders=true"),
        "{e}"
    );
    // The builder checks what the declarations cannot.
    let bad = |knobs| Apv::default().with_knobs(knobs).unwrap_err().0;
    let rulebook = ApvKnobs::default();
    assert!(bad(ApvKnobs {
        axes: 4,
        ..rulebook
    })
    .contains("axes=4: a side has 0..3"));
    assert!(bad(ApvKnobs {
        order_delay: 0,
        ..rulebook
    })
    .contains("1..3"));
    assert!(bad(ApvKnobs {
        south_extra: Some(Unit::Pivot),
        ..rulebook
    })
    .contains("south_extra"));
}
