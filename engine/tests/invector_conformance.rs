//! Invector passes the conformance suite on many board sizes, pie rule on and off, and
//! behaves as the rules (`docs/games/invector.md`) say in hand-picked positions:
//! board sizes, notation and its error messages, the pie rule, the forced pass, the end
//! of the game, the pinned initial hash, and the dense action ids with their length
//! bound; then the designer's knobs, each turned: conformance, the canonical text, the
//! refused values, what each knob does, and ids and bound under them.

use crate::common;

use agon_engine::games::invector::{
    Colour, Invector, InvectorKnobs, InvectorMove, InvectorState, MoveKind,
};
use std::collections::HashMap;

use agon_engine::testing::{check_action_ids, check_conformance, Conformance, ConformanceReport};
use agon_engine::{
    move_with_id, play_moves, ActionSpace, DenseActions, EndReason, Game, Outcome, Params, PieRule,
    State, Turn,
};
use common::notation::{legal, refused};

/// Runs the suite with 1,000 playouts on `width × height` with the pie rule on or off,
/// and checks that every game ended by elimination within the spec's length bound.
fn conform_with(width: usize, height: usize, pie: bool, playouts: usize) -> ConformanceReport {
    let game = Invector::new(width, height, pie).unwrap();
    let cfg = Conformance {
        playouts,
        // Distinct seeds per configuration, fixed so that a failure reproduces.
        seed: (width * 100 + height) as u64 * 2 + u64::from(pie),
        // The spec's bound on the length of any game: 2·W·H·(W+H) plies.
        max_plies: (2 * width * height * (width + height)) as u32,
        ..Conformance::default()
    };
    let report = check_conformance(&game, &cfg)
        .unwrap_or_else(|e| panic!("{width}x{height} pie={pie}: {e}"));
    assert_eq!(report.playouts, playouts);
    assert_eq!(report.chance_nodes, 0);
    assert_eq!(
        report.end_reasons,
        [("elimination", playouts as u64)],
        "{width}x{height} pie={pie}"
    );
    report
}

/// 1,000 playouts, and (on boards big enough to have them) transpositions found.
fn conform(width: usize, height: usize, pie: bool) -> ConformanceReport {
    let report = conform_with(width, height, pie, 1000);
    if width * height >= 12 {
        assert!(
            report.transpositions > 0,
            "{width}x{height} pie={pie}: {report:?}"
        );
    }
    report
}

#[test]
fn conformance_tiny_boards() {
    for (w, h) in [(1, 2), (2, 1), (3, 2), (2, 3), (1, 4), (4, 1)] {
        for pie in [true, false] {
            let report = conform(w, h, pie);
            // 1x2 and 2x1 end with the first capture.
            if w * h == 2 {
                assert_eq!((report.longest, report.nodes), (1, 2000));
            }
        }
    }
}

#[test]
fn conformance_4x3_and_3x4() {
    for (w, h) in [(4, 3), (3, 4)] {
        for pie in [true, false] {
            conform(w, h, pie);
        }
    }
}

#[test]
fn conformance_5x4_and_4x5() {
    for (w, h) in [(5, 4), (4, 5)] {
        for pie in [true, false] {
            conform(w, h, pie);
        }
    }
}

#[test]
fn conformance_6x5() {
    for pie in [true, false] {
        conform(6, 5, pie);
    }
}

#[test]
fn conformance_8x7_pie() {
    conform(8, 7, true);
}

#[test]
fn conformance_8x7_no_pie() {
    conform(8, 7, false);
}

#[test]
fn conformance_one_row_and_one_column() {
    for (w, h) in [(1, 16), (16, 1)] {
        conform(w, h, true);
    }
}

#[test]
fn conformance_largest_boards_briefly() {
    // The full runs below take minutes; a short one keeps the widest board (16 columns)
    // and the most cells (126: 128 = 2^7 has no odd factor, 127 is prime) in every run.
    for (w, h) in [(16, 7), (9, 14)] {
        conform_with(w, h, true, 10);
    }
}

#[test]
#[ignore = "1,000 playouts on the largest boards: about 3 minutes"]
fn conformance_largest_boards() {
    for (w, h) in [(16, 7), (7, 16), (9, 14), (14, 9)] {
        conform(w, h, w > h);
    }
}

#[test]
fn illegal_board_sizes_are_config_errors_with_clear_messages() {
    let err = |w, h| Invector::new(w, h, true).unwrap_err().0;
    for (w, h) in [(8, 8), (2, 4), (16, 2)] {
        let e = err(w, h);
        assert!(e.contains(&format!("{w}x{h}")), "{e}");
        assert!(
            e.contains("exactly one of width and height must be even"),
            "{e}"
        );
    }
    for (w, h) in [(7, 7), (1, 1), (5, 3)] {
        let e = err(w, h);
        assert!(
            e.contains("exactly one of width and height must be even"),
            "{e}"
        );
    }
    for (w, h) in [(16, 9), (9, 16), (15, 10), (13, 10)] {
        let e = err(w, h);
        assert!(e.contains("at most 128 cells"), "{w}x{h}: {e}");
        assert!(e.contains(&(w * h).to_string()), "{e}");
    }
    for (w, h) in [(0, 3), (3, 0), (0, 0), (17, 2), (2, 17), (17, 17), (100, 1)] {
        let e = err(w, h);
        assert!(e.contains("1..16"), "{w}x{h}: {e}");
        assert!(e.contains(&format!("{w}x{h}")), "{e}");
    }
    // Every legal size is accepted, including the extremes.
    for (w, h) in [
        (1, 2),
        (2, 1),
        (16, 1),
        (1, 16),
        (16, 7),
        (7, 16),
        (9, 14),
        (14, 9),
    ] {
        assert!(Invector::new(w, h, false).is_ok(), "{w}x{h}");
    }
    let mut legal = 0;
    for w in 1..=16 {
        for h in 1..=16 {
            let ok = Invector::new(w, h, true).is_ok();
            assert_eq!(ok, (w + h) % 2 == 1 && w * h <= 128, "{w}x{h}");
            legal += usize::from(ok);
        }
    }
    assert!(legal > 50);
}

#[test]
fn parameters_reach_the_same_rules_and_errors() {
    let specs = Invector::param_specs();
    let defaults = Invector::from_params(&Params::defaults(specs)).unwrap();
    assert_eq!(defaults, Invector::default());
    assert_eq!(
        (defaults.width(), defaults.height(), defaults.pie()),
        (8, 7, true)
    );
    let p = Params::parse(specs, &[("width", "5"), ("height", "4"), ("pie", "false")]).unwrap();
    assert_eq!(p.canonical(), "height=4,pie=false,width=5");
    assert_eq!(
        Invector::from_params(&p).unwrap(),
        Invector::new(5, 4, false).unwrap()
    );
    // Out-of-range numbers stop at the parameter's declaration, sizes at the rules.
    let e = Params::parse(specs, &[("width", "17")]).unwrap_err();
    assert!(e.0.contains("width=17") && e.0.contains("1..16"), "{e}");
    let e = Params::parse(specs, &[("width", "0")]).unwrap_err();
    assert!(e.0.contains("width=0"), "{e}");
    let p = Params::parse(specs, &[("width", "7")]).unwrap();
    let e = Invector::from_params(&p).unwrap_err();
    assert!(e.0.contains("7x7") && e.0.contains("even"), "{e}");
    assert_eq!(Invector::NAME, "invector");
    const { assert!(!agon_engine::has_chance::<InvectorState>() && !Invector::HAS_HIDDEN_INFORMATION) };
}

fn start(w: usize, h: usize, pie: bool) -> InvectorState {
    Invector::new(w, h, pie).unwrap().initial_state()
}

fn after(w: usize, h: usize, pie: bool, moves: &str) -> InvectorState {
    let mut s = start(w, h, pie);
    play_moves(&mut s, moves).unwrap_or_else(|e| panic!("[{moves}]: {e}"));
    s
}

#[test]
fn notation_errors_say_what_is_wrong() {
    // 5 x 4: the centre pits are c2 and c3; a1 is Black.
    let s = start(5, 4, true);
    refused(&s, "", &["expected"]);
    refused(
        &s,
        "c3",
        &["expected a step like c3-c4, a capture like c3xd3"],
    );
    refused(&s, "hello", &["expected"]);
    refused(&s, "3c-c4", &["\"3c\" is not a cell"]);
    refused(&s, "c-c4", &["is not a cell"]);
    refused(&s, "C3-C4", &["is not a cell"]);
    refused(&s, "c3-", &["is not a cell"]);
    refused(&s, "f1-e1", &["f1 is off the 5x4 board"]);
    refused(&s, "a0-a1", &["a0 is off the 5x4 board"]);
    refused(&s, "a4-a5", &["a5 is off the 5x4 board"]);
    refused(&s, "b1-c1", &["b1 holds no black stone"]);
    refused(&s, "b1xa1", &["b1 holds no black stone"]);
    refused(&s, "a1-c1", &["c1 is not orthogonally adjacent to a1"]);
    refused(&s, "a1-b2", &["not orthogonally adjacent"]);
    refused(&s, "a1-a1", &["not orthogonally adjacent"]);
    refused(&s, "pass", &["may not pass"]);
    refused(
        &s,
        "swap",
        &["swap is only allowed as White's first decision"],
    );
    // Texts that are no move at all never panic.
    for text in [
        "-",
        "x",
        "xx",
        "é",
        "éx1",
        "aé-b1",
        "c99999999999999999999-c3",
        "c3--c4",
    ] {
        assert!(s.parse_move(text).is_err(), "{text:?}");
    }

    // After a1xa2, White to move; b1 is at distance 2 from c2, a1 at 3: a step away
    // from the centre.
    let s = after(5, 4, true, "a1xa2");
    refused(
        &s,
        "b1-a1",
        &["a step must get closer to the centre", "a1", "b1"],
    );
    // After c3xd3 (c3, a centre pit, is empty), White to move.
    let s = after(5, 4, true, "c3xd3");
    // c2 and c3 are both centre pits (D = 0): no step between them.
    refused(&s, "c2-c3", &["a step must get closer to the centre"]);
    // A capture onto an empty pit; a stone of the other colour.
    refused(&s, "b3xc3", &["c3 holds no black stone to capture"]);
    refused(&s, "d3xd4", &["d3 holds no white stone"]);
    // Steps towards the centre are fine.
    assert_eq!(s.format_move(s.parse_move("b3-c3").unwrap()), "b3-c3");
    assert_eq!(s.format_move(s.parse_move("c4-c3").unwrap()), "c4-c3");
    // Then Black: d3 and d4 are both Black's now.
    let s = after(5, 4, true, "c3xd3 b3-c3");
    refused(&s, "d3-d4", &["d4 is occupied by a black stone"]);
    refused(&s, "d3xd4", &["d4 holds no white stone to capture"]);
    assert_eq!(s.format_move(s.parse_move("d3-c3").unwrap()), "d3xc3");
}

#[test]
fn a_dash_is_read_as_a_capture_and_printed_with_x() {
    let s = start(5, 4, true);
    let dash = s.parse_move("c3-d3").unwrap();
    let cross = s.parse_move("c3xd3").unwrap();
    assert_eq!(dash, cross);
    assert_eq!(dash.kind, MoveKind::Capture);
    assert_eq!(s.format_move(dash), "c3xd3");
    // The capture then happens: d3 holds the black stone, c3 is empty.
    let mut t = s.clone();
    t.try_apply(dash).unwrap();
    assert_eq!(t, after(5, 4, true, "c3xd3"));
    assert_eq!(t.hash(), after(5, 4, true, "c3xd3").hash());
    // Every first move is a capture: as many as adjacent pairs.
    let moves = legal(&s);
    assert_eq!(moves.len(), 31);
    assert!(moves.iter().all(|m| m.contains('x')), "{moves:?}");
}

#[test]
fn the_pie_rule_swaps_seats_not_stones() {
    let s = start(5, 4, true);
    assert_eq!(s.turn(), Turn::Seat(0));
    assert_eq!((s.side(0), s.side(1)), ("black", "white"));
    assert!(!legal(&s).contains(&"swap".to_string()));

    let s = after(5, 4, true, "c3xd3");
    assert_eq!(s.turn(), Turn::Seat(1));
    let before = legal(&s);
    assert!(before.contains(&"swap".to_string()), "{before:?}");
    assert!(!before.contains(&"pass".to_string()));

    let mut swapped = s.clone();
    let m = swapped.parse_move("swap").unwrap();
    assert_eq!(m, InvectorMove::SWAP);
    swapped.try_apply(m).unwrap();
    // Seat 0 made the first move and now plays White; it is White's turn, so seat 0
    // moves again, with White's moves on the unchanged board.
    assert_eq!(swapped.turn(), Turn::Seat(0));
    assert_eq!((swapped.side(0), swapped.side(1)), ("white", "black"));
    assert_eq!(swapped.ply(), 2);
    let mut white_moves = before.clone();
    white_moves.retain(|m| m != "swap");
    assert_eq!(legal(&swapped), white_moves);
    // No second swap.
    refused(
        &swapped,
        "swap",
        &["swap is only allowed as White's first decision"],
    );
    assert_ne!(swapped.hash(), s.hash());

    // Seat 0 moves as White; then seat 1, now Black, moves; no swap any more.
    let mut t = swapped.clone();
    play_moves(&mut t, "b3-c3").unwrap();
    assert_eq!(t.turn(), Turn::Seat(1));
    assert_eq!(t.side(1), "black");
    assert!(!legal(&t).contains(&"swap".to_string()));
    refused(&t, "swap", &["swap is only allowed"]);

    // Without the swap, White (seat 1) moves and the swap is gone for good.
    let t = after(5, 4, true, "c3xd3 b3-c3");
    assert_eq!(t.turn(), Turn::Seat(0));
    assert_eq!((t.side(0), t.side(1)), ("black", "white"));
    refused(&t, "swap", &["swap is only allowed"]);

    // Pie rule off: no swap, and the error says why. The positions differ only in
    // whether the swap is available, and that is part of the position and its key.
    let s = after(5, 4, false, "c3xd3");
    let with_pie = after(5, 4, true, "c3xd3");
    assert_ne!(s, with_pie);
    assert_ne!(s.hash(), with_pie.hash());
    assert!(!legal(&s).contains(&"swap".to_string()));
    refused(&s, "swap", &["pie rule is off"]);
    assert_eq!(legal(&s), white_moves);
}

#[test]
fn the_winner_after_a_swap_is_the_seat_now_playing_the_capturing_colour() {
    // 3 x 2 after a1xa2 swap: seat 0 plays White (b1 and c2), seat 1 Black.
    let mut s = after(3, 2, true, "a1xa2 swap");
    assert_eq!((s.side(0), s.side(1)), ("white", "black"));
    // Play the game out (the first listed move each time): whoever takes the last stone
    // wins, and that is the seat now playing the colour that has stones left.
    let mut moves = Vec::new();
    while let Turn::Seat(mover) = s.turn() {
        moves.clear();
        s.legal_moves(&mut moves);
        let m = moves[0];
        s.apply(m);
        if let Turn::Over = s.turn() {
            assert_eq!(s.outcome(), Some(Outcome::Win(mover)));
            assert_eq!(s.end_reason(), Some(EndReason::Rule("elimination")));
            assert_eq!(m.kind, MoveKind::Capture);
            let survivor = if s.stones(Colour::White) != 0 {
                "white"
            } else {
                "black"
            };
            assert_eq!(s.side(mover), survivor);
        }
    }
    assert!(s.outcome().is_some());
    // A finished game takes no moves.
    assert!(legal(&s).is_empty());
    refused(&s, "pass", &["the game is over"]);
}

#[test]
fn one_capture_ends_the_smallest_games() {
    for (w, h, first) in [(1, 2, "a1xa2"), (2, 1, "a1xb1")] {
        let s = start(w, h, true);
        assert_eq!(legal(&s), [first]);
        let s = after(w, h, true, first);
        assert_eq!(s.turn(), Turn::Over);
        assert_eq!(s.outcome(), Some(Outcome::Win(0)));
        assert_eq!(s.end_reason(), Some(EndReason::Rule("elimination")));
        // The game is over before White's first decision: no swap.
        assert!(legal(&s).is_empty());
        refused(&s, "swap", &["the game is over"]);
    }
}

#[test]
fn a_player_without_capture_or_step_must_pass() {
    // 6 x 5 (centre pits c3 and d3): after this line White's stones are stuck.
    let line = "d2xe2 f1xf2 e5xd5 b5xb4 b2xb1 d1-d2 c3xc4 f2xe2 e3xe4 a2xa1 b1xa1 b3xa3 \
                a5xa4 a3-b3 e1xe2 f3-e3 c4xb4 b3-c3 e4xe3 d3xd4 f4xf5 d4-d3 e3xd3 d2xe2 \
                c1xc2 c3xd3 a1-a2 e2-e3 a2-a3";
    let s = after(6, 5, true, line);
    assert_eq!(legal(&s), ["pass"], "\n{s}");
    let mover = s.turn();
    // `pass` parses and the next seat moves on an unchanged board.
    let mut t = s.clone();
    t.try_apply(t.parse_move("pass").unwrap()).unwrap();
    assert_ne!(t.turn(), mover);
    assert!(matches!(t.turn(), Turn::Seat(_)));
    // Two passes in a row cannot happen.
    assert!(!legal(&t).contains(&"pass".to_string()), "{:?}", legal(&t));
    refused(&t, "pass", &["may not pass"]);
    // The move list from the data file continues with a second forced pass.
    let s = after(6, 5, true, &format!("{line} pass c5-c4"));
    assert_eq!(legal(&s), ["pass"]);
}

#[test]
fn an_illegal_move_value_is_refused_with_a_reason_and_no_change() {
    let s = after(5, 4, true, "c3xd3");
    // c2 -> c3 as a step value (cells are y * W + x): a step between the centre pits.
    let bad = InvectorMove::new(MoveKind::Step, 5 + 2, 2 * 5 + 2);
    assert_eq!(s.format_move(bad), "c2-c3");
    let mut t = s.clone();
    let e = t.try_apply(bad).unwrap_err();
    assert!(e.reason.contains("closer to the centre"), "{e}");
    assert_eq!(t, s);
    assert_eq!(t.hash(), s.hash());
    let e = t.try_apply(InvectorMove::PASS).unwrap_err();
    assert!(e.reason.contains("may not pass"), "{e}");
    let mut u = start(5, 4, true);
    let e = u.try_apply(InvectorMove::SWAP).unwrap_err();
    assert!(e.reason.contains("swap"), "{e}");
}

#[test]
fn the_initial_hash_is_pinned() {
    // These constants follow from the Zobrist key tables (a fixed seed) and from which
    // keys the initial position uses. A change of the key tables or of what the hash
    // covers must update them deliberately, never by accident.
    // Before the first move the swap is not available yet, so the pie rule does not
    // change the initial key.
    let cases = [
        (8, 7, true, 0x65e8_c0f7_42ce_e899_u64),
        (8, 7, false, 0x65e8_c0f7_42ce_e899),
        (5, 4, true, 0x87c5_6523_4606_e4bf),
        (16, 7, true, 0xdfaf_6c3b_6f2f_e8eb),
    ];
    for (w, h, pie, pinned) in cases {
        let s = start(w, h, pie);
        assert_eq!(s.hash(), s.recompute_hash());
        assert_eq!(s.hash(), pinned, "{w}x{h} pie={pie}: {:#018x}", s.hash());
    }
    assert_eq!(
        Invector::default().initial_state().hash(),
        start(8, 7, true).hash()
    );
}

#[test]
fn a_turn_is_one_decision_a_swap_included() {
    let s = after(5, 4, true, "c3xd3 swap");
    assert_eq!((s.turns(), s.ply()), (2, 2));
}

/// Whether a swap is among the legal decisions of `state`.
fn offers_swap(state: &InvectorState) -> bool {
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    moves.iter().any(|&m| state.is_pie_swap(m))
}

/// Checks every line of `depth` decisions from `state` (`made` already made): the swap
/// is offered exactly after `decision` of them, and never when `decision` is `None`.
fn swap_offered_only_at(state: &InvectorState, made: u32, depth: u32, decision: Option<u32>) {
    if state.turn() == Turn::Over {
        return;
    }
    assert_eq!(offers_swap(state), decision == Some(made), "{state:?}");
    if made == depth {
        return;
    }
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    for m in moves {
        let mut next = state.clone();
        next.apply(m);
        swap_offered_only_at(&next, made + 1, depth, decision);
    }
}

#[test]
fn the_pie_swap_decision_is_where_the_swap_is_offered() {
    for (w, h) in [(3, 2), (4, 3), (5, 4)] {
        for pie in [true, false] {
            let game = Invector::new(w, h, pie).unwrap();
            assert_eq!(game.pie_swap_decision(), pie.then_some(1));
            swap_offered_only_at(&game.initial_state(), 0, 3, game.pie_swap_decision());
        }
    }
    // The default board has the pie rule on.
    assert_eq!(Invector::default().pie_swap_decision(), Some(1));
}

/// Checks that `text` is legal in `state`, has id `id`, and is the move `id` names.
fn has_id(game: &Invector, state: &InvectorState, text: &str, id: u32) {
    let m = state.parse_move(text).unwrap();
    assert_eq!(game.action_id(m), id, "{text}");
    assert_eq!(move_with_id(game, state, id), Some(m), "{text}");
}

#[test]
fn action_ids_number_captures_and_steps_by_cell_and_direction() {
    let game = Invector::default();
    assert_eq!(
        game.action_space(),
        ActionSpace {
            decisions: 450,
            chance_outcomes: 0,
            max_game_length: 416,
            max_decisions: 416,
        }
    );
    // Captures are 4·from + direction (north, east, south, west).
    let s = game.initial_state();
    has_id(&game, &s, "a1xa2", 0);
    has_id(&game, &s, "a1xb1", 1);
    has_id(&game, &s, "c1-d1", 4 * 2 + 1);
    has_id(&game, &s, "c1xb1", 4 * 2 + 3);
    has_id(&game, &s, "d4xd3", 4 * 27 + 2);
    // On the full board no stone can step: no step id names a move.
    assert_eq!(move_with_id(&game, &s, 224 + 4 * 27 + 3), None);
    // Steps follow at 4·56: White's c4 steps east onto the emptied centre pit d4.
    let s = after(8, 7, true, "d4xe4");
    has_id(&game, &s, "swap", 449);
    has_id(&game, &s, "c4-d4", 224 + 4 * 26 + 1);
    has_id(&game, &s, "c4xc5", 4 * 26);
    // `pass` is 8·W·H; without the pie rule there is no `swap` id.
    let line = "d2xe2 f1xf2 e5xd5 b5xb4 b2xb1 d1-d2 c3xc4 f2xe2 e3xe4 a2xa1 b1xa1 b3xa3 \
                a5xa4 a3-b3 e1xe2 f3-e3 c4xb4 b3-c3 e4xe3 d3xd4 f4xf5 d4-d3 e3xd3 d2xe2 \
                c1xc2 c3xd3 a1-a2 e2-e3 a2-a3";
    let small = Invector::new(6, 5, true).unwrap();
    has_id(&small, &after(6, 5, true, line), "pass", 240);
    let space = Invector::new(6, 5, false).unwrap().action_space();
    assert_eq!(space.decisions, 241);
}

#[test]
fn action_ids_keep_their_contract_on_every_board() {
    // (width, height, pie, playouts, least number of distinct ids to meet). A row of 6
    // has 10 captures, 4 steps (towards c1 and d1) and `pass`, and with the pie rule
    // `swap`: every one is met.
    for (w, h, pie, playouts, least) in [
        (8, 7, true, 60, 270),
        (8, 7, false, 60, 270),
        (5, 4, true, 150, 85),
        (4, 5, false, 150, 85),
        (6, 1, true, 100, 16),
        (1, 6, false, 100, 15),
    ] {
        let game = Invector::new(w, h, pie).unwrap();
        let report = check_action_ids(&game, playouts, (w * 16 + h) as u64)
            .unwrap_or_else(|e| panic!("{w}x{h} pie={pie}: {e}"));
        let space = game.action_space();
        assert!(
            report.decisions_seen >= least,
            "{w}x{h} pie={pie}: {report:?} of {space:?}"
        );
        assert!(report.longest <= space.max_game_length);
    }
}

/// The most plies any game from `state` can still last, by exhaustive search (the state
/// graph is acyclic: see the bound's derivation), memoised by hash.
fn longest_game(state: &mut InvectorState, memo: &mut HashMap<u64, u32>) -> u32 {
    if state.turn() == Turn::Over {
        return 0;
    }
    if let Some(&plies) = memo.get(&state.hash()) {
        return plies;
    }
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    let mut most = 0;
    for m in moves {
        let undo = state.apply(m);
        most = most.max(1 + longest_game(state, memo));
        state.undo(undo);
    }
    memo.insert(state.hash(), most);
    most
}

#[test]
fn the_length_bound_holds_over_every_game_of_small_boards() {
    // (width, height, the longest game without the pie rule, the bound 2·D + W·H − 1)
    for (w, h, longest, bound) in [
        (2, 1, 1, 1),
        (1, 2, 1, 1),
        (4, 1, 5, 7),
        (3, 2, 9, 13),
        (6, 1, 12, 17),
        (2, 5, 24, 33),
    ] {
        for pie in [false, true] {
            let game = Invector::new(w, h, pie).unwrap();
            let space = game.action_space();
            assert_eq!(space.max_game_length, bound + u32::from(pie), "{w}x{h}");
            let plies = longest_game(&mut game.initial_state(), &mut HashMap::new());
            // A swap adds a ply to every game that reaches White's first decision.
            let swap = u32::from(pie && longest > 1);
            assert_eq!(plies, longest + swap, "{w}x{h} pie={pie}");
            assert!(plies <= space.max_game_length);
        }
    }
}

// The designer's knobs: `lose_at`, `hole`, `stride` and `handicap`.

/// The rules of `width × height` (pie rule `pie`) with `knobs` turned.
fn knobbed(width: usize, height: usize, pie: bool, knobs: InvectorKnobs) -> Invector {
    Invector::new(width, height, pie)
        .unwrap()
        .with_knobs(knobs)
        .unwrap_or_else(|e| panic!("{width}x{height} {knobs:?}: {e}"))
}

/// The start of `game` after `moves`.
fn played(game: &Invector, moves: &str) -> InvectorState {
    let mut s = game.initial_state();
    play_moves(&mut s, moves).unwrap_or_else(|e| panic!("[{moves}]: {e}"));
    s
}

/// The knobs with `lose_at`, `hole`, `stride` and `handicap` as given.
fn knobs(lose_at: u8, hole: u8, stride: u8, handicap: u8) -> InvectorKnobs {
    InvectorKnobs {
        lose_at,
        hole,
        stride,
        handicap,
    }
}

#[test]
fn conformance_with_every_knob_turned() {
    // Each knob away from its default on its own, then all together, on boards of both
    // shapes; every game ends by elimination within the bound the action space states.
    for (w, h, pie, k) in [
        (5, 4, true, knobs(3, 0, 1, 0)),
        (6, 5, false, knobs(0, 1, 1, 0)),
        (8, 7, true, knobs(0, 2, 1, 0)),
        (8, 7, false, knobs(0, 0, 3, 0)),
        (1, 16, true, knobs(0, 0, 7, 0)),
        (5, 4, false, knobs(0, 0, 1, 2)),
        (8, 7, false, knobs(0, 0, 1, 4)),
        (7, 6, true, knobs(2, 1, 2, 1)),
        (16, 7, false, knobs(16, 3, 7, 16)),
    ] {
        let game = knobbed(w, h, pie, k);
        let playouts = 150;
        let cfg = Conformance {
            playouts,
            seed: (w * 100 + h) as u64,
            max_plies: game.action_space().max_game_length,
            ..Conformance::default()
        };
        let report = check_conformance(&game, &cfg)
            .unwrap_or_else(|e| panic!("{w}x{h} pie={pie} {k:?}: {e}"));
        assert_eq!(
            report.end_reasons,
            [("elimination", playouts as u64)],
            "{w}x{h} {k:?}"
        );
        assert!(report.transpositions > 0, "{w}x{h} {k:?}: {report:?}");
    }
}

#[test]
fn knobs_at_their_defaults_keep_the_game_and_its_text() {
    let specs = Invector::param_specs();
    let p = Params::parse(specs, &[]).unwrap();
    assert_eq!(p.canonical(), "height=7,pie=true,width=8");
    assert_eq!(Invector::from_params(&p).unwrap(), Invector::default());
    assert_eq!(Invector::default().knobs(), InvectorKnobs::default());
    assert_eq!(InvectorKnobs::default(), knobs(0, 0, 1, 0));
    // Named at their defaults, the knobs leave the text as it was.
    let named = [
        ("lose_at", "0"),
        ("hole", "0"),
        ("stride", "1"),
        ("handicap", "0"),
    ];
    assert_eq!(
        Params::parse(specs, &named).unwrap().canonical(),
        "height=7,pie=true,width=8"
    );
    // Turned, they are named and reach the rules.
    let turned = [
        ("lose_at", "2"),
        ("hole", "1"),
        ("stride", "3"),
        ("handicap", "1"),
        ("pie", "false"),
    ];
    let p = Params::parse(specs, &turned).unwrap();
    assert_eq!(
        p.canonical(),
        "handicap=1,height=7,hole=1,lose_at=2,pie=false,stride=3,width=8"
    );
    let game = Invector::from_params(&p).unwrap();
    assert_eq!(game, knobbed(8, 7, false, knobs(2, 1, 3, 1)));
    assert_eq!(game.knobs(), knobs(2, 1, 3, 1));
}

#[test]
fn bad_knob_values_are_refused_with_the_valid_range() {
    let specs = Invector::param_specs();
    for (name, range) in [
        ("lose_at", "0..16"),
        ("hole", "0..10"),
        ("stride", "1..7"),
        ("handicap", "0..16"),
    ] {
        let e = Params::parse(specs, &[(name, "999")]).unwrap_err();
        assert_eq!(
            e.0,
            format!("{name}=999 is not valid: expected integer {range}")
        );
    }
    let e = Params::parse(specs, &[("stride", "0")]).unwrap_err();
    assert_eq!(e.0, "stride=0 is not valid: expected integer 1..7");
    // In range, but not on this board: the rules say what fits. 5 × 4 has 10 stones
    // a side, and its corners are 3 from the centre.
    let refusal = |overrides: &[(&str, &str)]| {
        let mut all = vec![("width", "5"), ("height", "4")];
        all.extend_from_slice(overrides);
        Invector::from_params(&Params::parse(specs, &all).unwrap())
            .unwrap_err()
            .0
    };
    assert_eq!(
        refusal(&[("lose_at", "10")]),
        "invector 5x4 with hole=0 starts each side with 10 stones: lose_at must be 0..9"
    );
    assert_eq!(
        refusal(&[("hole", "4")]),
        "invector 5x4 with hole=4 starts empty: hole must be 0..3 on this board"
    );
    // hole=1 empties the two centre pits, one stone of each colour.
    assert_eq!(
        refusal(&[("hole", "1"), ("lose_at", "3"), ("handicap", "6")]),
        "invector 5x4 with hole=1 and lose_at=3 starts Black with 9 stones: handicap must be 0..5"
    );
    // The builder checks the same, and its own ranges too.
    let e = Invector::new(5, 4, true)
        .unwrap()
        .with_knobs(knobs(0, 0, 8, 0))
        .unwrap_err();
    assert_eq!(e.0, "invector stride=8 is not allowed: it must be 1..7");
    // The edges of what fits are accepted.
    for k in [knobs(9, 0, 1, 0), knobs(0, 3, 1, 0), knobs(3, 1, 7, 5)] {
        knobbed(5, 4, true, k);
    }
}

#[test]
fn lose_at_ends_the_game_when_a_side_is_down_to_that_many_stones() {
    // 5 × 4 starts with 10 stones a side: with lose_at=9 the first capture wins.
    let game = knobbed(5, 4, true, knobs(9, 0, 1, 0));
    let s = played(&game, "c3xd3");
    assert_eq!(s.stones(Colour::White).count_ones(), 9);
    assert_eq!(s.outcome(), Some(Outcome::Win(0)));
    assert_eq!(s.end_reason(), Some(EndReason::Rule("elimination")));
    assert!(legal(&s).is_empty());
    // At the rulebook's 0 the same capture is only the start.
    assert_eq!(after(5, 4, true, "c3xd3").turn(), Turn::Seat(1));
    // With lose_at=8 both sides are down to 9 after two captures, and the third,
    // bringing White to 8, ends the game.
    let game = knobbed(5, 4, false, knobs(8, 0, 1, 0));
    let s = played(&game, "c3xd3 b3xb2");
    assert_eq!(s.turn(), Turn::Seat(0));
    let s = played(&game, "c3xd3 b3xb2 a1xa2");
    assert_eq!(s.stones(Colour::White).count_ones(), 8);
    assert_eq!(s.stones(Colour::Black).count_ones(), 9);
    assert_eq!(s.outcome(), Some(Outcome::Win(0)));
}

#[test]
fn hole_starts_the_pits_near_the_centre_empty() {
    // 8 × 7: the centre pits are d4 and e4; hole=1 empties them, hole=2 also the six
    // pits next to them.
    let game = knobbed(8, 7, true, knobs(0, 1, 1, 0));
    let s = game.initial_state();
    let moves = legal(&s);
    for step in ["d5-d4", "d3-d4", "c4-d4", "e5-e4", "e3-e4", "f4-e4"] {
        let black = moves.contains(&step.to_string());
        // Black moves first: only its stones (x + y even) step; d5, d3 and c4 are
        // White's.
        assert_eq!(black, ["e5-e4", "e3-e4", "f4-e4"].contains(&step), "{step}");
    }
    assert_eq!(
        (
            s.stones(Colour::Black).count_ones(),
            s.stones(Colour::White).count_ones()
        ),
        (27, 27)
    );
    assert_ne!(s.hash(), start(8, 7, true).hash());
    assert_eq!(s.hash(), s.recompute_hash());
    // On the full board no stone can step.
    assert!(legal(&start(8, 7, true)).iter().all(|m| m.contains('x')));
    let s = knobbed(8, 7, true, knobs(0, 2, 1, 0)).initial_state();
    assert_eq!(
        (
            s.stones(Colour::Black).count_ones(),
            s.stones(Colour::White).count_ones()
        ),
        (24, 24)
    );
    refused(&s, "d6xd5", &["d5 holds no white stone to capture"]);
    assert!(legal(&s).contains(&"d6-d5".to_string()));
}

#[test]
fn stride_lets_a_step_slide_straight_towards_the_centre() {
    // 8 × 7 with hole=2: d4, e4, c4, f4, d3, d5, e3, e5 start empty. Black's d6 and b4
    // are 2 from the centre, so with stride 2 each may slide onto a centre pit.
    let game = knobbed(8, 7, true, knobs(0, 2, 2, 0));
    let s = game.initial_state();
    let moves = legal(&s);
    for slide in ["d6-d4", "b4-d4", "d6-d5", "b4-c4"] {
        assert!(moves.contains(&slide.to_string()), "{slide}: {moves:?}");
    }
    // Ignoring the knob would refuse the slide as too far.
    let rulebook = knobbed(8, 7, true, knobs(0, 2, 1, 0)).initial_state();
    refused(
        &rulebook,
        "d6-d4",
        &["d4 is not orthogonally adjacent to d6"],
    );
    let mut slides = moves.clone();
    slides.retain(|m| !legal(&rulebook).contains(m));
    assert_eq!(slides, ["b4-d4", "d2-d4", "d6-d4"]);
    // The slide moves the stone two pits.
    let after_slide = played(&game, "d6-d4");
    assert!(after_slide.stones(Colour::Black) & 1u128 << (3 * 8 + 3) != 0);
    assert!(after_slide.stones(Colour::Black) & 1u128 << (5 * 8 + 3) == 0);
    // White's d7 would slide over Black's d6; a slide is at most the stride; and each
    // pit must be nearer the centre than the last.
    refused(
        &s,
        "d6-d3",
        &["not orthogonally adjacent", "nor in line within 2 pits"],
    );
    let s = played(&game, "b4-c4");
    refused(&s, "d7-d5", &["d6 blocks the step"]);
    refused(
        &s,
        "g4-d4",
        &["d4 is not orthogonally adjacent to g4 nor in line within 2 pits of it"],
    );
    let wide = played(&knobbed(8, 7, true, knobs(0, 2, 3, 0)), "b4-c4");
    refused(
        &wide,
        "g4-d4",
        &["a step must get closer to the centre: d4 is at distance 0, e4 at 0"],
    );
    assert!(legal(&wide).contains(&"g4-e4".to_string()));
    // A capture still takes only a neighbour.
    refused(&wide, "a4xc4", &["a capture takes an adjacent stone"]);
}

/// Whether the seat to move in `s` wins with best play (memoised by the hash).
fn mover_wins(s: &mut InvectorState, memo: &mut HashMap<u64, bool>) -> bool {
    if let Some(&known) = memo.get(&s.hash()) {
        return known;
    }
    let Turn::Seat(mover) = s.turn() else {
        unreachable!("asked only while the game goes on")
    };
    let mut moves = Vec::new();
    s.legal_moves(&mut moves);
    let wins = moves.into_iter().any(|m| {
        let undo = s.apply(m);
        let won = match s.turn() {
            Turn::Over => s.outcome() == Some(Outcome::Win(mover)),
            Turn::Seat(next) => mover_wins(s, memo) == (next == mover),
            Turn::Chance => unreachable!(),
        };
        s.undo(undo);
        won
    });
    memo.insert(s.hash(), wins);
    wins
}

#[test]
fn handicap_leaves_out_blacks_outermost_stones_and_can_hand_the_game_to_seat_1() {
    // 8 × 7: a1 and a7 are Black's corners, 6 from the centre; then g1, the lowest of
    // Black's pits 5 from it.
    let cell = |name: &str| {
        let b = name.as_bytes();
        let (x, y) = (
            (b[0] - b'a') as usize,
            name[1..].parse::<usize>().unwrap() - 1,
        );
        1u128 << (y * 8 + x)
    };
    let s = knobbed(8, 7, false, knobs(0, 0, 1, 3)).initial_state();
    let full = start(8, 7, false);
    let missing = full.stones(Colour::Black) & !s.stones(Colour::Black);
    assert_eq!(missing, cell("a1") | cell("a7") | cell("g1"));
    assert_eq!(s.stones(Colour::White), full.stones(Colour::White));
    assert_eq!(s.empty(), missing);
    assert_eq!(s.hash(), s.recompute_hash());
    assert_ne!(s.hash(), full.hash());
    // Black still moves first, and every first move is still a capture.
    assert_eq!(s.turn(), Turn::Seat(0));
    assert!(legal(&s).iter().all(|m| m.contains('x')));
    // Solved exactly without the pie rule: seat 0 wins the rulebook game on these
    // boards, and seat 1 wins once Black starts short.
    for (w, h, handicap) in [(6, 1, 1), (2, 5, 2), (5, 2, 2)] {
        let winner = |k: InvectorKnobs| {
            let mut s = knobbed(w, h, false, k).initial_state();
            if mover_wins(&mut s, &mut HashMap::new()) {
                0
            } else {
                1
            }
        };
        assert_eq!(winner(InvectorKnobs::default()), 0, "{w}x{h}");
        assert_eq!(winner(knobs(0, 0, 1, handicap)), 1, "{w}x{h}");
    }
}

#[test]
#[ignore = "solves 5 x 4 and 4 x 5 twice each: about 20 s and 350 MB"]
fn handicap_1_hands_the_5x4_game_to_seat_1() {
    // Without the pie rule seat 0 wins 5 × 4 and 4 × 5 with best play (about 2.5 million
    // positions each); one Black stone short (a1), it loses them.
    for (w, h) in [(5, 4), (4, 5)] {
        for (handicap, winner) in [(0, 0), (1, 1)] {
            let mut s = knobbed(w, h, false, knobs(0, 0, 1, handicap)).initial_state();
            let seat0 = mover_wins(&mut s, &mut HashMap::new());
            assert_eq!(usize::from(!seat0), winner, "{w}x{h} handicap={handicap}");
        }
    }
}

#[test]
fn action_ids_and_the_length_bound_follow_the_knobs() {
    // Steps are numbered by cell, direction and length: 4·W·H·(1 + stride) + 1 ids,
    // one more with the pie rule.
    let game = knobbed(8, 7, true, knobs(0, 2, 2, 0));
    let space = game.action_space();
    assert_eq!(space.decisions, 4 * 56 * 3 + 2);
    let s = game.initial_state();
    // d6 is cell 43; south is 2: the one-pit step, then the two-pit slide.
    has_id(&game, &s, "d6-d5", 224 + 2 * (4 * 43 + 2));
    has_id(&game, &s, "d6-d4", 224 + 2 * (4 * 43 + 2) + 1);
    // The bound counts the stones and distances of the start: hole=2 takes away 8
    // stones and 6 of distance (six pits 1 from the centre, two at 0) from 56 and 180.
    assert_eq!(space.max_game_length, 2 * (180 - 6) + (56 - 8) - 1 + 1);
    // lose_at shortens the captures; the handicap the stones and distance (a1, 6).
    let space = knobbed(8, 7, false, knobs(3, 0, 1, 1)).action_space();
    assert_eq!(space.max_game_length, 2 * (180 - 6) + 55 - 2 * 3 - 1);
    for (w, h, pie, k, playouts) in [
        (8, 7, true, knobs(0, 2, 3, 0), 40),
        (5, 4, false, knobs(1, 1, 2, 1), 100),
        (1, 16, true, knobs(0, 0, 7, 2), 100),
    ] {
        let game = knobbed(w, h, pie, k);
        let report = check_action_ids(&game, playouts, (w * 16 + h) as u64)
            .unwrap_or_else(|e| panic!("{w}x{h} {k:?}: {e}"));
        assert!(report.longest <= game.action_space().max_game_length);
    }
    // Over every game of small boards, no game is longer than the bound.
    for (w, h, k) in [
        (3, 2, knobs(0, 0, 2, 0)),
        (6, 1, knobs(0, 1, 2, 1)),
        (2, 5, knobs(1, 0, 2, 0)),
        (4, 3, knobs(0, 1, 2, 2)),
        (5, 2, knobs(2, 0, 1, 1)),
    ] {
        for pie in [false, true] {
            let game = knobbed(w, h, pie, k);
            let plies = longest_game(&mut game.initial_state(), &mut HashMap::new());
            let bound = game.action_space().max_game_length;
            assert!(plies <= bound, "{w}x{h} pie={pie} {k:?}: {plies} > {bound}");
        }
    }
}
