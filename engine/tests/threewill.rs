//! 3Will passes the conformance suite, and behaves as `docs/games/threewill.md` says in
//! hand-built positions: every cell of the rules' 36-case stacking table, the
//! locked-bottom ejection, an enemy dragged onto its objective row, leaps, the card
//! economy, challenges that overturn a victory or create a new one, the length cap,
//! the chance weights, the pinned initial hash, and the dense action ids with their
//! length bound; then the designer's knobs, each doing what it says and the whole
//! toolkit (conformance, ids, encoding, evaluator) holding at turned settings. Perft
//! counts are in `threewill_perft.rs`.

use agon_engine::games::threewill::{
    Knobs, Phase, ThreeWill, ThreeWillEval, ThreeWillMove, ThreeWillState, BLACK, EMPTY, WHITE,
};
use agon_engine::testing::extreme_weights::check_evaluator_at_extreme_weights;
use agon_engine::testing::{
    check_action_ids, check_conformance, check_encoding, play_with_ids, turns_along, Cap, CapUnit,
    Conformance,
};
use agon_engine::{
    play_moves, ActionSpace, DenseActions, Encode, EndReason, Evaluator, EventId, Game, Luck,
    Outcome, Params, State, Turn,
};

/// The square named `name` (`a1` = 0 … `h8` = 63).
fn sq(name: &str) -> u8 {
    let b = name.as_bytes();
    (b[1] - b'1') * 8 + (b[0] - b'a')
}

/// A position from `stacks` written `("d4", "W/B")` (top first), `mover` to roll.
fn position(stacks: &[(&str, &str)], mover: usize, dr: [u8; 2], free: [u8; 2]) -> ThreeWillState {
    position_in(&ThreeWill::default(), stacks, mover, dr, free)
}

/// [`position`] under the rules `game`.
fn position_in(
    game: &ThreeWill,
    stacks: &[(&str, &str)],
    mover: usize,
    dr: [u8; 2],
    free: [u8; 2],
) -> ThreeWillState {
    let list: Vec<(u8, u8, u8)> = stacks
        .iter()
        .map(|&(name, stack)| {
            let (top, held) = parse_stack(stack);
            (sq(name), top, held)
        })
        .collect();
    game.custom_state(&list, mover, dr, free, false)
}

/// `W`, `B`, `W/B` … as (top, held); `0` is an empty square.
fn parse_stack(text: &str) -> (u8, u8) {
    let colour = |c: &str| match c {
        "W" => WHITE,
        "B" => BLACK,
        "0" => EMPTY,
        _ => panic!("bad stack {text}"),
    };
    match text.split_once('/') {
        Some((t, h)) => (colour(t), colour(h)),
        None => (colour(text), EMPTY),
    }
}

fn stack_at(s: &ThreeWillState, name: &str) -> (u8, u8) {
    (s.board().top(sq(name)), s.board().held(sq(name)))
}

fn play(s: &mut ThreeWillState, moves: &str) {
    play_moves(s, moves).unwrap_or_else(|e| panic!("{moves}: {e}\n{s}"));
}

fn legal(s: &ThreeWillState) -> Vec<String> {
    let mut v = Vec::new();
    s.legal_moves(&mut v);
    v.iter().map(|&m| s.format_move(m)).collect()
}

#[test]
fn conformance_default_rules() {
    let cfg = Conformance {
        playouts: 60,
        seed: 1,
        cap: Some(Cap {
            unit: CapUnit::Turns,
            limit: 400,
        }),
        ..Conformance::default()
    };
    let report = check_conformance(&ThreeWill::default(), &cfg).unwrap();
    assert!(report.chance_nodes > 0, "{report:?}");
    let reasons: Vec<_> = report.end_reasons.iter().map(|(r, _)| *r).collect();
    assert!(reasons.contains(&"objective"), "{report:?}");
}

#[test]
fn conformance_short_cap() {
    let cfg = Conformance {
        playouts: 200,
        seed: 2,
        cap: Some(Cap {
            unit: CapUnit::Turns,
            limit: 30,
        }),
        ..Conformance::default()
    };
    let report = check_conformance(&ThreeWill::new(30).unwrap(), &cfg).unwrap();
    assert!(
        report.end_reasons.iter().any(|(r, _)| *r == "cap"),
        "{report:?}"
    );
}

#[test]
fn initial_hash_is_pinned() {
    let s = ThreeWill::default().initial_state();
    assert_eq!(s.hash(), s.recompute_hash());
    assert_eq!(
        s.hash(),
        0x497e_72cc_9d55_ebef,
        "pinned initial hash changed"
    );
}

#[test]
fn two_move_orders_reaching_one_position_hash_alike() {
    let game = ThreeWill::default();
    let mut a = game.initial_state();
    play(&mut a, "1 c2-c3 1 c7-c6 1 d2-d3");
    let mut b = game.initial_state();
    play(&mut b, "1 d2-d3 1 c7-c6 1 c2-c3");
    assert_eq!(a, b);
    assert_eq!(a.hash(), b.hash());
    // The same board with another card count is another position.
    let mut c = game.initial_state();
    play(&mut c, "3 b2*a2 miss 1 c7-c6 1 d2-d3");
    assert_ne!(c.hash(), a.hash());
}

/// The rules' table: rows are the target before, columns the source before, a cell
/// is "source after + target after".
const TABLE: [(&str, [&str; 6]); 6] = [
    ("W", ["0+W/W", "0+B/W", "B+W/W", "W+B/W", "W+W/W", "B+B/W"]),
    ("B", ["0+W/B", "0+B/B", "B+W/B", "W+B/B", "W+W/B", "B+B/B"]),
    (
        "W/B",
        ["B+W/W", "B+B/W", "B/B+W/W", "W/B+B/W", "W/B+W/W", "B/B+B/W"],
    ),
    (
        "B/W",
        ["W+W/B", "W+B/B", "B/W+W/B", "W/W+B/B", "W/W+W/B", "B/W+B/B"],
    ),
    (
        "W/W",
        ["W+W/W", "W+B/W", "B/W+W/W", "W/W+B/W", "W/W+W/W", "B/W+B/W"],
    ),
    (
        "B/B",
        ["B+W/B", "B+B/B", "B/B+W/B", "W/B+B/B", "W/B+W/B", "B/B+B/B"],
    ),
];
const SOURCES: [&str; 6] = ["W", "B", "W/B", "B/W", "W/W", "B/B"];

#[test]
fn stacking_table_all_36_cases() {
    for (target, row) in TABLE {
        for (source, cell) in SOURCES.iter().zip(row) {
            // The mover is the source's top; it steps forward (face 1) from d4 to d5
            // (White) or from d5 to d4 (Black). A spare agent of each colour elsewhere
            // keeps both sides active.
            let white = source.starts_with('W');
            let (from, to) = if white { ("d4", "d5") } else { ("d5", "d4") };
            let mut s = position(
                &[(from, source), (to, target), ("a3", "W"), ("h6", "B")],
                if white { 0 } else { 1 },
                [4, 4],
                [0, 0],
            );
            play(&mut s, &format!("1 {from}*{to} hit"));
            let (src_after, tgt_after) = cell.split_once('+').unwrap();
            let label = format!("source {source} onto target {target}");
            assert_eq!(
                stack_at(&s, from),
                parse_stack(src_after),
                "{label}: source"
            );
            assert_eq!(stack_at(&s, to), parse_stack(tgt_after), "{label}: target");
            // The attempt ended the turn.
            assert_eq!(s.phase(), Phase::Roll { free_op: false }, "{label}");
            assert_eq!(s.mover(), if white { 1 } else { 0 }, "{label}");
        }
    }
}

#[test]
fn a_locked_bottom_stays_and_the_middle_agent_is_ejected() {
    // d8 holds B on a White agent locked on its objective row.
    let mut s = position(
        &[("d7", "W"), ("d8", "B/W"), ("a3", "W"), ("h6", "B")],
        0,
        [4, 4],
        [0, 0],
    );
    play(&mut s, "1 d7*d8 hit");
    assert_eq!(stack_at(&s, "d8"), (WHITE, WHITE));
    assert_eq!(stack_at(&s, "d7"), (BLACK, EMPTY));
    assert_eq!(s.board().locked_count(WHITE), 2);
}

#[test]
fn a_locked_held_agent_stays_behind_on_a_plain_move() {
    let mut s = position(
        &[("d8", "B/W"), ("a3", "W"), ("h6", "B")],
        1,
        [4, 4],
        [0, 0],
    );
    play(&mut s, "1 d8-d7");
    assert_eq!(stack_at(&s, "d8"), (WHITE, EMPTY));
    assert_eq!(stack_at(&s, "d7"), (BLACK, EMPTY));
    // An unlocked held agent is carried.
    let mut s = position(
        &[("d5", "B/W"), ("a3", "W"), ("h6", "B")],
        1,
        [4, 4],
        [0, 0],
    );
    play(&mut s, "1 d5-d4");
    assert_eq!(stack_at(&s, "d4"), (BLACK, WHITE));
    assert_eq!(stack_at(&s, "d5"), (EMPTY, EMPTY));
}

#[test]
fn a_dragged_enemy_locks_on_its_objective_and_wins_for_its_side() {
    // Black has two agents locked on row 1; White's stacking from c1 ejects the Black
    // agent held at c2 into c1, Black's objective row: Black declares victory.
    let mut s = position(
        &[
            ("a1", "B"),
            ("b1", "B"),
            ("c1", "W"),
            ("c2", "W/B"),
            ("a3", "W"),
            ("h6", "B"),
        ],
        0,
        [4, 4],
        [0, 0],
    );
    play(&mut s, "1 c1*c2 hit");
    assert_eq!(stack_at(&s, "c1"), (BLACK, EMPTY));
    assert_eq!(s.board().locked_count(BLACK), 3);
    assert_eq!(s.phase(), claim(1, false));
    assert_eq!(s.turn(), Turn::Seat(0), "White, the challenger, picks");
    assert_eq!(legal(&s), ["pick:a1", "pick:b1", "pick:c1"]);
    play(&mut s, "pick:c1");
    let mut outcomes = Vec::new();
    s.chance_outcomes(&mut outcomes);
    let weights: Vec<(String, u32)> = outcomes
        .iter()
        .map(|&(m, w)| (s.format_move(m), w))
        .collect();
    // One twin per White agent on the board: three in this hand-built position (a
    // real game always has eight, which gives the rules' 64 : 1 × 8).
    assert_eq!(weights.len(), 4, "stands and one twin per White agent");
    assert_eq!(weights[0], ("stands".to_string(), 64));
    assert!(weights[1..].iter().all(|(_, w)| *w == 1), "{weights:?}");
    play(&mut s, "stands");
    assert_eq!(s.outcome(), Some(Outcome::Win(1)));
    assert_eq!(s.end_reason(), Some(EndReason::Rule("objective")));
}

#[test]
fn leaps_wrap_round_a_side_edge_only_in_a_free_operation() {
    let stacks = [
        ("a4", "W/B"),
        ("c3", "W"),
        ("a7", "W"),
        ("h7", "B"),
        ("g6", "B"),
    ];
    // Standard operation under 5 (forward-left): a4 has no step, so no leap.
    let mut s = position(&stacks, 0, [3, 4], [1, 0]);
    play(&mut s, "5");
    assert!(
        !legal(&s).iter().any(|m| m.starts_with("a4")),
        "{:?}",
        legal(&s)
    );
    // A plain move, then a Free operation: the leap carries the held agent.
    play(&mut s, "c3-b4");
    assert_eq!(s.phase(), Phase::FreeChoice);
    play(&mut s, "free 5");
    let moves = legal(&s);
    assert!(moves.contains(&"a4~h5".to_string()), "{moves:?}");
    // a7 steps to h8 across the edge: an empty square, a leap too; g6 is a target
    // across no edge, so it is not offered from a7.
    assert!(moves.contains(&"a7~h8".to_string()), "{moves:?}");
    assert_eq!(s.free_cards(0), 0);
    assert_eq!(s.bank(), 1);
    play(&mut s, "a4~h5");
    assert_eq!(stack_at(&s, "h5"), (WHITE, BLACK));
    assert_eq!(stack_at(&s, "a4"), (EMPTY, EMPTY));
    // The leap ended the turn.
    assert_eq!((s.mover(), s.phase()), (1, Phase::Roll { free_op: false }));
}

#[test]
fn a_wrapped_stacking_attempt_and_pass_in_a_free_operation() {
    // Face 3 (left) in a Free operation: a4 wraps onto h4 (Black), a stacking attempt
    // across the edge; b3-a3 is a plain move, so pass is not offered.
    let mut s = position(
        &[("a4", "W"), ("b2", "W"), ("h4", "B"), ("h7", "B")],
        0,
        [3, 4],
        [1, 0],
    );
    play(&mut s, "1 b2-b3 free 3");
    let moves = legal(&s);
    assert!(moves.contains(&"a4*h4".to_string()), "{moves:?}");
    assert!(moves.contains(&"b3-a3".to_string()), "{moves:?}");
    assert!(!moves.contains(&"pass".to_string()), "{moves:?}");
    play(&mut s, "a4*h4 hit");
    assert_eq!(stack_at(&s, "h4"), (WHITE, BLACK));
}

#[test]
fn cards_pay_with_dr_then_with_a_bank_card_handed_over_as_free() {
    let stacks = [("d4", "W"), ("d5", "B"), ("a3", "W"), ("h6", "B")];
    // A DR card goes to the bank.
    let mut s = position(&stacks, 0, [1, 4], [0, 0]);
    play(&mut s, "1 d4*d5");
    assert_eq!((s.dr_cards(0), s.bank()), (0, 4));
    // Without DR, a bank card goes to the opponent as a Free card.
    let mut s = position(&stacks, 0, [0, 4], [0, 0]);
    play(&mut s, "1 d4*d5");
    assert_eq!((s.free_cards(1), s.bank()), (1, 3));
    // Without either, no attempt: only a3's plain move remains.
    let mut s = position(&stacks, 0, [0, 4], [0, 4]);
    assert_eq!(s.bank(), 0);
    play(&mut s, "1");
    assert_eq!(legal(&s), ["a3-a4"]);
    // With a3 blocked too, pass is the only, forced decision.
    let mut s = position(&[("d4", "W"), ("d5", "B"), ("h6", "B")], 0, [0, 4], [0, 4]);
    play(&mut s, "1");
    assert_eq!(legal(&s), ["pass"]);
    // With a card, the attempt is optional: pass is offered beside it.
    let mut s = position(&[("d4", "W"), ("d5", "B"), ("h6", "B")], 0, [1, 4], [0, 0]);
    play(&mut s, "1");
    assert_eq!(legal(&s), ["d4*d5", "pass"]);
}

/// White has two agents on its objective row (d8, e8), and f7 steps up beside them
/// with `1 f7-f8`: a declared win. a2 is another White agent, a7 and h3 are Black's.
const CLAIM: &[(&str, &str)] = &[
    ("d8", "W"),
    ("e8", "W"),
    ("f7", "W"),
    ("a2", "W"),
    ("a7", "B"),
    ("h3", "B"),
];

/// The challenge phase after `claimant` declares a win, with a Free operation due after
/// it or not.
fn claim(claimant: usize, free_due: bool) -> Phase {
    Phase::Pick { claimant, free_due }
}

#[test]
fn a_challenge_that_overturns_a_win_resumes_play() {
    let mut s = position(CLAIM, 0, [4, 4], [0, 0]);
    play(&mut s, "1 f7-f8");
    assert_eq!(s.phase(), claim(0, false));
    assert_eq!(legal(&s), ["pick:d8", "pick:e8", "pick:f8"]);
    play(&mut s, "pick:f8 twin:a7");
    assert_eq!(stack_at(&s, "f8"), (BLACK, EMPTY));
    assert_eq!(stack_at(&s, "a7"), (WHITE, EMPTY));
    assert!(s.challenge_used());
    assert_eq!(s.turn(), Turn::Chance);
    assert_eq!((s.mover(), s.phase()), (1, Phase::Roll { free_op: false }));
    // A later victory is final: no second challenge.
    play(&mut s, "1 h3-h2 1 a7-a8");
    assert_eq!(s.outcome(), Some(Outcome::Win(0)));
}

#[test]
fn a_challenge_can_resume_at_the_free_decision() {
    let mut s = position(CLAIM, 0, [3, 4], [1, 0]);
    play(&mut s, "1 f7-f8");
    assert_eq!(s.phase(), claim(0, true));
    play(&mut s, "pick:d8 twin:h3");
    assert_eq!(s.phase(), Phase::FreeChoice);
}

/// The challenge tests' position, White to roll: White's agents at d8 and e8, its only
/// active agent at f7 and one held under Black's at a5; Black's agents at a5, at c4 (on
/// one of its own) and at h3; four DR cards a side and no Free card.
fn white_about_to_declare() -> ThreeWillState {
    position(
        &[
            ("d8", "W"),
            ("e8", "W"),
            ("f7", "W"),
            ("a5", "B/W"),
            ("c4", "B/B"),
            ("h3", "B"),
        ],
        0,
        [4, 4],
        [0, 0],
    )
}

#[test]
fn a_challenge_that_creates_a_new_win_for_the_challenger() {
    // White's only active agent f7 locks as White's third: White declares. The twin is
    // a Black agent held at c4: after the swap White has two locked and no active agent
    // (both its other agents are held), so Black wins by the supplementary condition.
    let mut s = white_about_to_declare();
    play(&mut s, "1 f7-f8 pick:d8 twin:c4/2");
    assert_eq!(stack_at(&s, "c4"), (BLACK, WHITE));
    assert_eq!(stack_at(&s, "d8"), (BLACK, EMPTY));
    assert_eq!(s.outcome(), Some(Outcome::Win(1)));
    assert_eq!(s.end_reason(), Some(EndReason::Rule("inactive")));
}

#[test]
fn supplementary_picks_are_agents_holding_an_enemy() {
    // Black stacks onto White's last active agent: White has none left.
    let mut s = position(
        &[("d5", "B"), ("d4", "W"), ("a5", "B/W"), ("h3", "B")],
        1,
        [4, 4],
        [0, 0],
    );
    play(&mut s, "1 d5*d4 hit");
    assert_eq!(s.phase(), claim(1, false));
    assert_eq!(legal(&s), ["pick:d4", "pick:a5"]);
    play(&mut s, "pick:a5 stands");
    assert_eq!(s.outcome(), Some(Outcome::Win(1)));
    assert_eq!(s.end_reason(), Some(EndReason::Rule("inactive")));
    assert!(!s.ended_by_history());
}

#[test]
fn the_cap_ends_the_game_when_its_last_turn_ends() {
    let mut s = ThreeWill::new(2).unwrap().initial_state();
    play(&mut s, "1 c2-c3");
    assert_eq!(s.turns_completed(), 1);
    play(&mut s, "1 c7-c6");
    assert_eq!(s.outcome(), Some(Outcome::Draw));
    assert_eq!(s.end_reason(), Some(EndReason::Cap));
    // The cap counts turns, which the hash leaves out: search must not store this end.
    assert!(s.ended_by_history());
}

#[test]
fn throws_weigh_one_against_five_and_rolls_are_fair() {
    let mut s = ThreeWill::default().initial_state();
    let mut o = Vec::new();
    s.chance_outcomes(&mut o);
    assert_eq!(o.iter().map(|&(_, w)| w).collect::<Vec<_>>(), [1; 6]);
    play(&mut s, "3 b2*a2");
    o.clear();
    s.chance_outcomes(&mut o);
    assert_eq!(o, [(ThreeWillMove::Hit, 1), (ThreeWillMove::Miss, 5)]);
}

#[test]
fn black_moves_mirror_white() {
    let mut s = ThreeWill::default().initial_state();
    play(&mut s, "1 c2-c3 5");
    // Black's forward-left is towards h: g7-h6, never a7 off the board.
    let moves = legal(&s);
    assert_eq!(moves.len(), 7);
    assert!(moves.contains(&"g7-h6".to_string()), "{moves:?}");
}

#[test]
fn evaluator_stays_inside_its_bounds() {
    let (lo, hi) = ThreeWillEval::default().bounds();
    let mut s = ThreeWill::default().initial_state();
    play(&mut s, "1 c2-c3 1 c7-c6");
    for seat in 0..2 {
        let v = ThreeWillEval::default().evaluate(&s, seat);
        assert!(lo < v && v < hi);
        assert_eq!(v, -ThreeWillEval::default().evaluate(&s, 1 - seat));
    }
}

#[test]
fn a_turn_runs_from_the_roll_to_the_end_of_the_operation() {
    let start = ThreeWill::default().initial_state();
    // White rolls and moves (no Free card, so the move ends the turn); Black likewise.
    assert_eq!(
        turns_along(&start, "1 c2-c3 1 c7-c6 2").unwrap(),
        [1, 1, 2, 2, 3]
    );
    // The cap ends the game when its last turn ends: exactly 2 turns.
    let mut s = ThreeWill::new(2).unwrap().initial_state();
    play(&mut s, "1 c2-c3 1 c7-c6");
    assert_eq!(
        (s.end_reason(), s.turns(), s.ply()),
        (Some(EndReason::Cap), 2, 4)
    );
}

#[test]
fn dense_ids_number_steps_by_square_and_direction() {
    let game = ThreeWill::default();
    assert_eq!(
        game.action_space(),
        ActionSpace {
            decisions: 1155,
            chance_outcomes: 137,
            max_game_length: 2399,
            max_decisions: 1599,
        }
    );
    // Faces 1..6 are 0..5; a step is from × 8 + direction (N 0 clockwise to NW 7),
    // attempts from 512: b2*a2 goes west (6), Black's c7-c6 south (4).
    let mut s = game.initial_state();
    play_with_ids(
        &s.rules(),
        &mut s,
        &[("3", 2), ("b2*a2", 512 + 9 * 8 + 6), ("miss", 7)],
    );
    play_with_ids(&s.rules(), &mut s, &[("1", 0), ("c7-c6", 50 * 8 + 4)]);
    // A leap shares the slot layout of plain moves: a4~h5 wraps north-west.
    let mut s = position(
        &[
            ("a4", "W/B"),
            ("c3", "W"),
            ("a7", "W"),
            ("h7", "B"),
            ("g6", "B"),
        ],
        0,
        [3, 4],
        [1, 0],
    );
    play_with_ids(
        &s.rules(),
        &mut s,
        &[("5", 4), ("c3-b4", 18 * 8 + 7), ("free", 1025), ("5", 4)],
    );
    let leap = s.parse_move("a7~h8").unwrap();
    assert_eq!(game.action_id(leap), 48 * 8 + 7);
    play_with_ids(&s.rules(), &mut s, &[("a4~h5", 24 * 8 + 7)]);
    // A wrapped attempt goes west from a4 onto h4; a hit is 6.
    let mut s = position(
        &[("a4", "W"), ("b2", "W"), ("h4", "B"), ("h7", "B")],
        0,
        [3, 4],
        [1, 0],
    );
    play_with_ids(
        &s.rules(),
        &mut s,
        &[
            ("1", 0),
            ("b2-b3", 9 * 8),
            ("free", 1025),
            ("3", 2),
            ("a4*h4", 512 + 24 * 8 + 6),
            ("hit", 6),
        ],
    );
    // pass 1024, done 1026; picks from 1027 and twins from 9, square × 2 + held.
    let mut s = position(&[("d4", "W"), ("d5", "B"), ("h6", "B")], 0, [0, 4], [0, 4]);
    play_with_ids(&s.rules(), &mut s, &[("1", 0), ("pass", 1024)]);
    let mut s = position(CLAIM, 0, [3, 4], [1, 0]);
    play_with_ids(
        &s.rules(),
        &mut s,
        &[
            ("1", 0),
            ("f7-f8", 53 * 8),
            ("pick:d8", 1027 + 59 * 2),
            ("twin:h3", 9 + 23 * 2),
            ("done", 1026),
        ],
    );
    let mut s = white_about_to_declare();
    play_with_ids(
        &s.rules(),
        &mut s,
        &[
            ("1", 0),
            ("f7-f8", 424),
            ("pick:d8", 1145),
            ("twin:c4/2", 62),
        ],
    );
    let mut s = position(
        &[("d5", "B"), ("d4", "W"), ("a5", "B/W"), ("h3", "B")],
        1,
        [4, 4],
        [0, 0],
    );
    play_with_ids(
        &s.rules(),
        &mut s,
        &[
            ("1", 0),
            ("d5*d4", 512 + 35 * 8 + 4),
            ("hit", 6),
            ("pick:a5", 1027 + 32 * 2),
            ("stands", 8),
        ],
    );
}

#[test]
fn dense_ids_keep_their_contract_and_the_length_bound() {
    let game = ThreeWill::default();
    let report = check_action_ids(&game, 30, 11).unwrap();
    // Faces, throws, and the twins of many a challenge; most of the steps.
    assert!(report.chance_outcomes_seen >= 40, "{report:?}");
    assert!(report.decisions_seen >= 600, "{report:?}");
    // With a short cap the games reach it: the bounds 6 · max_turns − 1 on plies and
    // 4 · max_turns − 1 on decisions hold.
    for max_turns in [1, 4, 12] {
        let game = ThreeWill::new(max_turns).unwrap();
        let space = game.action_space();
        assert_eq!(space.max_game_length, 6 * max_turns - 1);
        assert_eq!(space.max_decisions, 4 * max_turns - 1);
        let report = check_action_ids(&game, 300, u64::from(max_turns)).unwrap();
        assert!(report.longest >= 2 * max_turns, "{report:?}");
        assert!(report.longest <= space.max_game_length, "{report:?}");
        assert!(report.most_decisions >= max_turns, "{report:?}");
        assert!(report.most_decisions <= space.max_decisions, "{report:?}");
    }
}

// The designer's knobs.

/// The rules of the spec parameters `knobs` (`("agents", "5")`, ...), the rest at their
/// defaults, as the command line builds them.
fn variant(knobs: &[(&str, &str)]) -> ThreeWill {
    let params = Params::parse(ThreeWill::param_specs(), knobs).unwrap();
    ThreeWill::from_params(&params).unwrap()
}

/// Every knob turned, alone or with others, over the ends of its range.
const SETTINGS: &[&[(&str, &str)]] = &[
    &[("dr_cards", "0")],
    &[("dr_cards", "8"), ("hit_faces", "5")],
    &[("hit_faces", "3")],
    &[("locks_to_win", "1")],
    &[("locks_to_win", "8")],
    &[("agents", "1"), ("locks_to_win", "1")],
    &[("agents", "5"), ("locks_to_win", "4"), ("dr_cards", "2")],
    &[("black_free_cards", "4")],
    &[
        ("black_free_cards", "4"),
        ("dr_cards", "8"),
        ("hit_faces", "2"),
        ("agents", "6"),
    ],
];

#[test]
fn conformance_with_every_knob_turned() {
    let mut reasons = Vec::new();
    for &knobs in SETTINGS {
        let game = variant(&[&[("max_turns", "150")], knobs].concat());
        let cfg = Conformance {
            playouts: 12,
            seed: 5,
            cap: Some(Cap {
                unit: CapUnit::Turns,
                limit: 150,
            }),
            ..Conformance::default()
        };
        let report = check_conformance(&game, &cfg).unwrap_or_else(|e| panic!("{knobs:?}: {e}"));
        assert!(report.chance_nodes > 0, "{knobs:?}: {report:?}");
        reasons.extend(report.end_reasons.iter().map(|(r, _)| *r));
    }
    for reason in ["objective", "inactive", "cap"] {
        assert!(reasons.contains(&reason), "no {reason} ending: {reasons:?}");
    }
}

#[test]
fn ids_encoding_and_evaluator_hold_with_every_knob_turned() {
    for &knobs in SETTINGS {
        let game = variant(&[&[("max_turns", "40")], knobs].concat());
        check_action_ids(&game, 20, 3).unwrap_or_else(|e| panic!("{knobs:?}: {e}"));
        check_encoding(&game, 6, 3).unwrap_or_else(|e| panic!("{knobs:?}: {e}"));
        check_evaluator_at_extreme_weights::<_, ThreeWillEval>(&game.initial_state(), 4, 3)
            .unwrap_or_else(|e| panic!("{knobs:?}: {e}"));
    }
    // The encoding names a turned setting, and keeps the rulebook's name otherwise.
    let e = variant(&[("dr_cards", "6")]).initial_state().encoding();
    assert_eq!(e.id, "threewill/1:400:6,1,3,8,0");
    let bank = e.scalars.iter().find(|s| s.name == "bank").unwrap();
    assert_eq!(bank.max, 12, "the cards in the game");
    assert_eq!(
        variant(&[]).initial_state().encoding().id,
        "threewill/1:400"
    );
}

#[test]
fn the_rulebook_game_keeps_its_name_and_its_hash() {
    let specs = ThreeWill::param_specs();
    let turned_to_default = Params::parse(
        specs,
        &[
            ("dr_cards", "4"),
            ("hit_faces", "1"),
            ("locks_to_win", "3"),
            ("agents", "8"),
            ("black_free_cards", "0"),
        ],
    )
    .unwrap();
    assert_eq!(turned_to_default.canonical(), "max_turns=400");
    let game = ThreeWill::from_params(&turned_to_default).unwrap();
    assert_eq!(
        (game, game.knobs()),
        (ThreeWill::default(), Knobs::default())
    );
    assert_eq!(game.initial_state().hash(), 0x497e_72cc_9d55_ebef);
    let turned = Params::parse(specs, &[("agents", "6"), ("hit_faces", "2")]).unwrap();
    assert_eq!(turned.canonical(), "agents=6,hit_faces=2,max_turns=400");
}

#[test]
fn dr_cards_deals_that_many_to_each_side() {
    let s = variant(&[("dr_cards", "6")]).initial_state();
    assert_eq!((s.dr_cards(0), s.dr_cards(1), s.bank()), (6, 6, 0));
    assert_eq!(s.rules().cards(), 12);
    // A 2 at the start lets every White agent but h2's attempt to stack on its right
    // neighbour, paying a DR card; with none dealt (and the bank empty) only pass is left.
    let mut s = ThreeWill::default().initial_state();
    play(&mut s, "2");
    assert_eq!(legal(&s).len(), 8, "{:?}", legal(&s));
    let mut s = variant(&[("dr_cards", "0")]).initial_state();
    play(&mut s, "2");
    assert_eq!(legal(&s), ["pass"]);
}

/// A luck whose every draw is `value`.
struct Fixed(u64);

impl Luck for Fixed {
    fn below(&self, _: EventId, _: u32, n: u64) -> u64 {
        assert!(self.0 < n);
        self.0
    }
}

#[test]
fn hit_faces_weighs_the_stacking_throw() {
    let outcomes = |s: &ThreeWillState| {
        let mut o = Vec::new();
        s.chance_outcomes(&mut o);
        o
    };
    let mut s = variant(&[("hit_faces", "3")]).initial_state();
    play(&mut s, "3 b2*a2");
    assert_eq!(
        outcomes(&s),
        [(ThreeWillMove::Hit, 3), (ThreeWillMove::Miss, 3)]
    );
    // Common random numbers draw one of the six faces: the first three hit.
    let common: Vec<ThreeWillMove> = (0..6).map(|v| s.common_outcome(&Fixed(v))).collect();
    assert_eq!(
        common,
        [[ThreeWillMove::Hit; 3], [ThreeWillMove::Miss; 3]].concat()
    );
    let mut s = variant(&[("hit_faces", "5")]).initial_state();
    play(&mut s, "3 b2*a2");
    assert_eq!(
        outcomes(&s),
        [(ThreeWillMove::Hit, 5), (ThreeWillMove::Miss, 1)]
    );
}

/// White has one agent on its objective row (d8) and f7 steps up beside it with `1
/// f7-f8`. a2 is another White agent, a7 and h3 are Black's.
const ONE_LOCKED: &[(&str, &str)] = &[
    ("d8", "W"),
    ("f7", "W"),
    ("a2", "W"),
    ("a7", "B"),
    ("h3", "B"),
];

#[test]
fn locks_to_win_sets_how_many_locked_agents_win() {
    // Two locked agents win with locks_to_win=2: White declares, and wins when it stands.
    let game = variant(&[("locks_to_win", "2")]);
    let mut s = position_in(&game, ONE_LOCKED, 0, [4, 4], [0, 0]);
    play(&mut s, "1 f7-f8");
    assert_eq!(s.phase(), claim(0, false));
    assert_eq!(legal(&s), ["pick:d8", "pick:f8"]);
    play(&mut s, "pick:d8 stands");
    assert_eq!(s.outcome(), Some(Outcome::Win(0)));
    assert_eq!(s.end_reason(), Some(EndReason::Rule("objective")));
    assert!(s.to_string().contains("two of its agents locked"), "{s}");
    // The rulebook's three: the same step is no victory, and Black rolls.
    let mut s = position(ONE_LOCKED, 0, [4, 4], [0, 0]);
    play(&mut s, "1 f7-f8");
    assert_eq!((s.mover(), s.phase()), (1, Phase::Roll { free_op: false }));
    // Four: the rulebook's winning third lock is no victory either.
    let game = variant(&[("locks_to_win", "4")]);
    let mut s = position_in(&game, CLAIM, 0, [4, 4], [0, 0]);
    play(&mut s, "1 f7-f8");
    assert_eq!(s.board().locked_count(WHITE), 3);
    assert_eq!((s.mover(), s.phase()), (1, Phase::Roll { free_op: false }));
}

#[test]
fn agents_sets_up_that_many_on_the_middle_columns() {
    let s = variant(&[("agents", "5")]).initial_state();
    let on = |colour: u8, row: char| -> Vec<String> {
        (b'a'..=b'h')
            .map(|c| format!("{}{row}", c as char))
            .filter(|name| s.board().top(sq(name)) == colour)
            .collect()
    };
    // White from column b; Black on White's squares turned half a turn.
    assert_eq!(on(WHITE, '2'), ["b2", "c2", "d2", "e2", "f2"]);
    assert_eq!(on(BLACK, '7'), ["c7", "d7", "e7", "f7", "g7"]);
    let agents = (0..64).filter(|&q| s.board().top(q) != EMPTY).count();
    assert_eq!(agents, 10, "no other agent anywhere");
    // The hidden card runs over 0..=5: a victory stands 25 to 1 against each twin.
    let game = variant(&[("agents", "5")]);
    let mut s = position_in(&game, CLAIM, 0, [4, 4], [0, 0]);
    play(&mut s, "1 f7-f8 pick:f8");
    let mut o = Vec::new();
    s.chance_outcomes(&mut o);
    let weights: Vec<u32> = o.iter().map(|&(_, w)| w).collect();
    assert_eq!(weights, [25, 1, 1], "stands, then Black's a7 and h3");
    // More locks to win than agents is refused.
    let params = Params::parse(
        ThreeWill::param_specs(),
        &[("agents", "2"), ("locks_to_win", "3")],
    )
    .unwrap();
    let e = ThreeWill::from_params(&params).unwrap_err();
    assert_eq!(
        e.0,
        "threewill locks_to_win=3 is not allowed with agents=2: expected 1..2"
    );
}

#[test]
fn black_free_cards_gives_black_extra_operations_from_the_start() {
    let game = variant(&[("black_free_cards", "2")]);
    let s = game.initial_state();
    assert_eq!((s.free_cards(0), s.free_cards(1)), (0, 2));
    assert_eq!((s.dr_cards(0), s.dr_cards(1), s.bank()), (4, 4, 0));
    assert_eq!(game.cards(), 10);
    // Black's first plain move may be followed by a Free operation...
    let mut s = game.initial_state();
    play(&mut s, "1 c2-c3 1 c7-c6");
    assert_eq!((s.mover(), s.phase()), (1, Phase::FreeChoice));
    play(&mut s, "free 1 c6-c5 free 1 c5-c4");
    assert_eq!((s.free_cards(1), s.bank()), (0, 2));
    // ... which the rulebook game does not have: White rolls.
    let mut s = ThreeWill::default().initial_state();
    play(&mut s, "1 c2-c3 1 c7-c6");
    assert_eq!((s.mover(), s.phase()), (0, Phase::Roll { free_op: false }));
    // Each of those Free operations may lengthen the game by three plies.
    for f in 0..=4 {
        let game = variant(&[("black_free_cards", &f.to_string()), ("max_turns", "10")]);
        assert_eq!(game.action_space().max_game_length, 6 * 10 - 1 + 3 * f);
        assert_eq!(game.action_space().max_decisions, 4 * 10 - 1 + 2 * f);
    }
}

#[test]
fn knob_values_out_of_range_are_refused() {
    let specs = ThreeWill::param_specs();
    for (knob, range) in [
        ("dr_cards", "0..8"),
        ("hit_faces", "1..5"),
        ("locks_to_win", "1..8"),
        ("agents", "1..8"),
        ("black_free_cards", "0..4"),
    ] {
        let e = Params::parse(specs, &[(knob, "999")]).unwrap_err();
        assert_eq!(
            e.0,
            format!("{knob}=999 is not valid: expected integer {range}")
        );
    }
    let refused = |knobs: Knobs| ThreeWill::with_knobs(400, knobs).unwrap_err().0;
    let rulebook = Knobs::default();
    assert_eq!(
        refused(Knobs {
            hit_faces: 6,
            ..rulebook
        }),
        "threewill hit_faces=6 is not allowed: expected 1..5"
    );
    assert_eq!(
        refused(Knobs {
            agents: 0,
            ..rulebook
        }),
        "threewill agents=0 is not allowed: expected 1..8"
    );
    assert_eq!(
        refused(Knobs {
            agents: 2,
            ..rulebook
        }),
        "threewill locks_to_win=3 is not allowed with agents=2: expected 1..2"
    );
}
