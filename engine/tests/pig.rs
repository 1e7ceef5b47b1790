//! Pig passes the conformance suite on its default rules and on small variants (its
//! perft counts are `pig_perft.rs`'s), and behaves as
//! `docs/games/pig.md` says in hand-built lines: a 1 loses the turn total, `hold`
//! banks it, reaching the target forces a hold that wins, the horizon counts decisions
//! only and ends the game in a draw, notation errors, and the pinned initial hash.

use agon_engine::games::pig::{Pig, PigEval, PigMove, PigState};
use agon_engine::testing::{
    check_conformance, turns_along, Cap, CapUnit, Conformance, ConformanceReport,
};
use agon_engine::{
    play_moves, sample_outcome, EndReason, Evaluator, Game, Outcome, Params, State, Turn,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn pig(target: u32, die: u32, horizon: u32) -> Pig {
    Pig::new(target, die, horizon).unwrap()
}

/// The position after `moves` from the start of `game`.
fn after(game: &Pig, moves: &str) -> PigState {
    let mut s = game.initial_state();
    play_moves(&mut s, moves).unwrap_or_else(|e| panic!("{moves}: {e}"));
    s
}

/// Runs the suite with `playouts` playouts and checks that it met chance nodes.
fn conform(game: &Pig, playouts: usize, seed: u64) -> ConformanceReport {
    let cfg = Conformance {
        playouts,
        seed,
        cap: Some(Cap {
            unit: CapUnit::Decisions,
            limit: game.horizon(),
        }),
        ..Conformance::default()
    };
    let report = check_conformance(game, &cfg).unwrap_or_else(|e| panic!("{game:?}: {e}"));
    assert_eq!(report.playouts, playouts);
    assert!(report.chance_nodes > 0, "{game:?}: {report:?}");
    report
}

#[test]
fn conformance_default_rules() {
    let report = conform(&Pig::default(), 1000, 1);
    // Random play reaches 100 long before 1000 decisions.
    assert_eq!(report.end_reasons, [("target", 1000)]);
    assert!(
        report.transpositions > 0,
        "roll 2 roll 3 and roll 3 roll 2 transpose: {report:?}"
    );
}

#[test]
fn conformance_small_variants_reach_both_end_reasons() {
    let report = conform(&pig(20, 3, 30), 1000, 2);
    let reasons: Vec<_> = report.end_reasons.iter().map(|(r, _)| *r).collect();
    assert_eq!(reasons, ["cap", "target"], "{report:?}");
    assert!(report.transpositions > 0, "{report:?}");
    for (game, seed) in [
        (pig(1, 2, 2), 3),
        (pig(1, 20, 3), 4),
        (pig(10, 20, 5), 5),
        (pig(50, 2, 40), 6),
    ] {
        conform(&game, 1000, seed);
    }
}

#[test]
fn conformance_largest_rules() {
    // Scores up to target - 1 + die = 1019 and a long game exercise the whole key table.
    let report = conform(&pig(1000, 20, 100_000), 100, 7);
    assert_eq!(report.end_reasons, [("target", 100)]);
}

#[test]
fn a_one_loses_the_turn_total_and_passes_the_turn() {
    let s = after(&Pig::default(), "roll 5 roll 6");
    assert_eq!((s.turn_total(), s.turn()), (11, Turn::Seat(0)));
    let s = after(&Pig::default(), "roll 5 roll 6 roll 1");
    assert_eq!((s.turn_total(), s.score(0)), (0, 0));
    assert_eq!(s.turn(), Turn::Seat(1));
    assert_eq!((s.decisions(), s.ply()), (3, 6));
}

#[test]
fn hold_banks_the_turn_total_and_passes_the_turn() {
    let s = after(&Pig::default(), "roll 5 roll 6 hold");
    assert_eq!((s.score(0), s.score(1), s.turn_total()), (11, 0, 0));
    assert_eq!(s.turn(), Turn::Seat(1));
    // Holding with nothing in hand is legal and just passes.
    let s = after(&Pig::default(), "roll 5 roll 6 hold hold");
    assert_eq!((s.score(0), s.score(1), s.turn()), (11, 0, Turn::Seat(0)));
}

#[test]
fn reaching_the_target_forces_a_hold_which_wins() {
    let game = pig(10, 6, 1000);
    // 4 + 6 = 10 in hand: the game is not over yet (nothing is banked) ...
    let s = after(&game, "roll 4 roll 6");
    assert_eq!((s.turn(), s.outcome()), (Turn::Seat(0), None));
    // ... and rolling is no longer allowed: hold is the only decision.
    let mut moves = Vec::new();
    s.legal_moves(&mut moves);
    assert_eq!(moves, [PigMove::Hold]);
    assert_eq!(
        s.parse_move("roll").unwrap_err().reason,
        "seat 0 must hold: score 0 plus turn total 10 reaches the target 10"
    );
    assert!(s.clone().try_apply(PigMove::Roll).is_err());
    let s = after(&game, "roll 4 roll 6 hold");
    assert_eq!(s.turn(), Turn::Over);
    assert_eq!(s.outcome(), Some(Outcome::Win(0)));
    assert_eq!(s.end_reason(), Some(EndReason::Rule("target")));
    assert_eq!((s.score(0), s.decisions()), (10, 3));
    // Overshooting is fine: the banked score may exceed the target.
    let s = after(&game, "hold roll 6 roll 6 hold");
    assert_eq!((s.score(1), s.outcome()), (12, Some(Outcome::Win(1))));
}

#[test]
fn the_horizon_counts_decisions_and_draws() {
    let game = pig(100, 6, 4);
    // Chance outcomes do not count: 3 decisions, 6 plies, still going.
    let s = after(&game, "roll 6 roll 6 roll 6");
    assert_eq!((s.decisions(), s.ply(), s.turn()), (3, 6, Turn::Seat(0)));
    // The fourth decision ends the game, even with a roll pending (OpenSpiel checks
    // the horizon before the chance node): a draw, returns 0 each.
    let s = after(&game, "roll 6 roll 6 roll 6 roll");
    assert_eq!(s.turn(), Turn::Over);
    assert_eq!(s.outcome(), Some(Outcome::Draw));
    assert_eq!(s.end_reason(), Some(EndReason::Cap));
    let mut outcomes = Vec::new();
    s.chance_outcomes(&mut outcomes);
    assert!(outcomes.is_empty());
    assert_eq!(s.parse_move("6").unwrap_err().reason, "the game is over");
    // Banked points do not matter at the horizon: seat 0 leads 18-0 and still draws.
    let s = after(&game, "roll 6 roll 6 roll 6 hold");
    assert_eq!((s.score(0), s.outcome()), (18, Some(Outcome::Draw)));
    assert_eq!(PigEval::default().evaluate(&s, 0), 0);
}

#[test]
fn a_winning_hold_as_the_last_decision_wins() {
    let s = after(&pig(12, 6, 3), "roll 6 roll 6 hold");
    assert_eq!(s.decisions(), 3);
    assert_eq!(s.outcome(), Some(Outcome::Win(0)));
    assert_eq!(s.end_reason(), Some(EndReason::Rule("target")));
}

#[test]
fn notation_errors_say_what_is_wrong() {
    let start = Pig::default().initial_state();
    let reason = |s: &PigState, t: &str| s.parse_move(t).unwrap_err().reason;
    assert_eq!(
        reason(&start, "3"),
        "no roll is pending: seat 0 decides roll or hold"
    );
    assert_eq!(
        reason(&start, "Roll"),
        "expected roll, hold or a face of the die (1..6)"
    );
    let rolling = after(&Pig::default(), "roll");
    assert_eq!(rolling.turn(), Turn::Chance);
    for text in ["roll", "hold", "stop"] {
        assert_eq!(
            reason(&rolling, text),
            "seat 0 has rolled and the die decides now: expected a face 1..6"
        );
    }
    assert_eq!(reason(&rolling, "7"), "a 6-sided die has faces 1..6");
    assert_eq!(reason(&rolling, "0"), "a 6-sided die has faces 1..6");
    let d20 = after(&pig(100, 20, 1000), "roll");
    assert_eq!(d20.parse_move("20").unwrap(), PigMove::Face(20));
    assert_eq!(reason(&d20, "21"), "a 20-sided die has faces 1..20");
    // Seat 1's turn: still no face.
    let seat1 = after(&Pig::default(), "hold");
    assert_eq!(
        reason(&seat1, "5"),
        "no roll is pending: seat 1 decides roll or hold"
    );
    // try_apply gives the same reasons and leaves the state alone.
    let mut s = rolling;
    let e = s.try_apply(PigMove::Hold).unwrap_err();
    assert_eq!(e.text, "hold");
    assert_eq!(s, rolling);
    let e = s.try_apply(PigMove::Face(7)).unwrap_err();
    assert_eq!(
        (e.text.as_str(), e.reason.as_str()),
        ("7", "a 6-sided die has faces 1..6")
    );
    // OpenSpiel's name for hold is read, and printed as ours.
    assert_eq!(start.parse_move("stop").unwrap(), PigMove::Hold);
    assert_eq!(start.format_move(PigMove::Hold), "hold");
}

#[test]
fn chance_nodes_offer_every_face_with_weight_one() {
    for die in [2, 3, 6, 20] {
        let s = after(&pig(100, die, 1000), "roll");
        let mut outcomes = Vec::new();
        s.chance_outcomes(&mut outcomes);
        let expected: Vec<_> = (1..=die as u8).map(|f| (PigMove::Face(f), 1)).collect();
        assert_eq!(outcomes, expected);
        assert_eq!(s.max_moves(), die.max(2) as usize);
        let texts: Vec<_> = outcomes.iter().map(|&(m, _)| s.format_move(m)).collect();
        assert_eq!(texts.first().map(String::as_str), Some("1"));
        assert_eq!(texts.last(), Some(&die.to_string()));
        let mut moves = Vec::new();
        s.legal_moves(&mut moves);
        assert!(moves.is_empty());
    }
}

#[test]
fn initial_hash_is_pinned() {
    let s = Pig::default().initial_state();
    assert_eq!(s.hash(), s.recompute_hash());
    assert_eq!(s.hash(), 0x09CE_30A1_2038_8479);
    // The rules are not in the key: every variant starts from the same key.
    assert_eq!(pig(20, 3, 30).initial_state().hash(), s.hash());
}

#[test]
fn the_decision_count_is_part_of_the_position() {
    // Both reach 5-0 with seat 1 to move, after 2 and after 4 decisions.
    let a = after(&Pig::default(), "roll 5 hold");
    let b = after(&Pig::default(), "hold hold roll 5 hold");
    assert_eq!((a.score(0), a.score(1), a.turn()), (5, 0, Turn::Seat(1)));
    assert_eq!((b.score(0), b.score(1), b.turn()), (5, 0, Turn::Seat(1)));
    assert_ne!(a, b);
    assert_ne!(a.hash(), b.hash());
    // Same decisions in a different order of faces: equal.
    let c = after(&Pig::default(), "roll 2 roll 3 hold");
    let d = after(&Pig::default(), "roll 3 roll 2 hold");
    assert_eq!(c, d);
    assert_eq!(c.hash(), d.hash());
}

#[test]
fn parameters_have_openspiel_defaults_and_checked_ranges() {
    let defaults = Params::defaults(Pig::param_specs());
    assert_eq!(defaults.canonical(), "die=6,horizon=1000,target=100");
    assert_eq!(Pig::from_params(&defaults).unwrap(), Pig::default());
    let p = Params::parse(
        Pig::param_specs(),
        &[("target", "20"), ("die", "3"), ("horizon", "30")],
    )
    .unwrap();
    assert_eq!(Pig::from_params(&p).unwrap(), pig(20, 3, 30));
    for (name, bad) in [
        ("die", "1"),
        ("die", "21"),
        ("target", "0"),
        ("horizon", "0"),
    ] {
        assert!(
            Params::parse(Pig::param_specs(), &[(name, bad)]).is_err(),
            "{name}={bad}"
        );
    }
    assert!(Pig::new(100, 1, 1000).is_err());
    assert!(Pig::new(1001, 6, 1000).is_err());
    assert!(Pig::new(100, 6, 100_001).is_err());
}

#[test]
fn the_bonus_banks_points_for_seat_1_before_the_first_roll() {
    let game = Pig::default().with_bonus(20).unwrap();
    let start = game.initial_state();
    assert_eq!([start.score(0), start.score(1)], [0, 20]);
    assert_ne!(start.hash(), Pig::default().initial_state().hash());
    // Seat 1 needs only 10 more on a target of 30: one hold of 10 wins.
    let short = pig(30, 6, 1000).with_bonus(20).unwrap();
    let end = after(&short, "roll 1 roll 6 roll 4 hold");
    assert_eq!(end.end().map(|e| e.outcome), Some(Outcome::Win(1)));
    conform(&short, 300, 5);
    // Read from a spec: absent or 0 is the rulebook game and its canonical text.
    let given = Params::parse(Pig::param_specs(), &[("bonus", "0")]).unwrap();
    assert_eq!(given.canonical(), "die=6,horizon=1000,target=100");
    let p = Params::parse(Pig::param_specs(), &[("bonus", "7")]).unwrap();
    assert_eq!(p.canonical(), "bonus=7,die=6,horizon=1000,target=100");
    assert_eq!(
        Pig::from_params(&p).unwrap(),
        Pig::default().with_bonus(7).unwrap()
    );
    // A bonus at the target would start a won game.
    let at = Params::parse(Pig::param_specs(), &[("bonus", "20"), ("target", "20")]).unwrap();
    assert_eq!(
        Pig::from_params(&at).unwrap_err().0,
        "pig bonus=20 is not allowed with target=20: expected 0..19"
    );
    assert_eq!(
        Params::parse(Pig::param_specs(), &[("bonus", "1000")])
            .unwrap_err()
            .0,
        "bonus=1000 is not valid: expected integer 0..999"
    );
}

/// The legend under every Pig position's text (the same for every position).
const LEGEND: &str = "\
legend: P first player's banked score (seat 0) · T first player's turn total, at risk (seat 0)
        p second player's banked score (seat 1) · t second player's turn total, at risk (seat 1)
        D the die, showing the last roll · * the die is rolling · [ ] the last move";

#[test]
fn display_shows_scores_turn_total_and_who_acts() {
    let game = pig(10, 6, 1000);
    let shown = |game: &Pig, moves: &str, board: &str| {
        assert_eq!(
            after(game, moves).to_string(),
            format!("{board}{LEGEND}"),
            "{moves}"
        );
    };
    shown(
        &game,
        "roll 3 hold roll 4",
        " first P3    p0    t4    D4  die\n\
banked score of first (seat 0): 3\n\
banked score of second (seat 1): 0\n\
turn total of second (seat 1): 4, at risk\n\
second (seat 1) to roll or hold\n\
target score: 10; die: d6; decisions made: 3 of 1000\n",
    );
    shown(
        &game,
        "roll 3 hold roll",
        " first P3    p0    t0    D*  die\n\
banked score of first (seat 0): 3\n\
banked score of second (seat 1): 0\n\
turn total of second (seat 1): 0, at risk\n\
the die is rolling for second (seat 1)\n\
target score: 10; die: d6; decisions made: 3 of 1000\n",
    );
    shown(
        &game,
        "roll 6 roll 6",
        " first P0    p0    T12   D6  die\n\
banked score of first (seat 0): 0\n\
banked score of second (seat 1): 0\n\
turn total of first (seat 0): 12, at risk\n\
first (seat 0) must hold: holding reaches the target\n\
target score: 10; die: d6; decisions made: 2 of 1000\n",
    );
    shown(
        &game,
        "roll 6 roll 6 hold",
        " first P12   p0     .     D  die\n\
banked score of first (seat 0): 12\n\
banked score of second (seat 1): 0\n\
first (seat 0) wins: a banked score of 12 reaches the target\n\
target score: 10; die: d6; decisions made: 3 of 1000\n",
    );
    shown(
        &pig(10, 6, 1),
        "roll",
        " first P0    p0     .     D  die\n\
banked score of first (seat 0): 0\n\
banked score of second (seat 1): 0\n\
draw: 1 decisions without reaching the target\n\
target score: 10; die: d6; decisions made: 1 of 1\n",
    );
}

#[test]
fn evaluator_is_symmetric_and_within_its_bounds() {
    let (lo, hi) = PigEval::default().bounds();
    assert_eq!(lo, -hi);
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut ends = [0u32; 2];
    for game in [
        Pig::default(),
        pig(1, 20, 50),
        pig(20, 3, 30),
        pig(1000, 20, 500),
    ] {
        for _ in 0..200 {
            let mut s = game.initial_state();
            loop {
                let (v0, v1) = (
                    PigEval::default().evaluate(&s, 0),
                    PigEval::default().evaluate(&s, 1),
                );
                assert_eq!(v0, -v1, "{s}");
                let m = match s.turn() {
                    Turn::Over => {
                        match s.outcome().unwrap() {
                            Outcome::Win(_) => {
                                assert_eq!(v0.abs(), hi, "{s}");
                                ends[0] += 1;
                            }
                            Outcome::Draw => {
                                assert_eq!(v0, 0, "{s}");
                                ends[1] += 1;
                            }
                        }
                        break;
                    }
                    Turn::Chance => sample_outcome(&s, &mut rng),
                    Turn::Seat(_) => {
                        let mut moves = Vec::new();
                        s.legal_moves(&mut moves);
                        moves[rng.random_range(0..moves.len())]
                    }
                };
                // Before the end, strictly inside the bounds: no heuristic value looks
                // like a win.
                assert!(lo < v0 && v0 < hi, "{v0} out of bounds at {s}");
                s.apply(m);
            }
        }
    }
    // Wins and horizon draws both occurred.
    assert!(ends[0] > 0 && ends[1] > 0, "{ends:?}");
}

#[test]
fn a_turn_is_a_players_rolls_up_to_a_hold_or_a_one() {
    let game = Pig::default();
    // Seat 0 rolls a 3 then a 1 (turn over); seat 1 holds at once; seat 0 rolls a 6
    // and holds.
    let turns = turns_along(&game.initial_state(), "roll 3 roll 1 hold roll 6 hold");
    assert_eq!(turns.unwrap(), [1, 1, 1, 1, 2, 3, 3, 3]);
    // The horizon counts decisions: three of them end this game inside its first turn.
    let s = after(&Pig::new(100, 6, 3).unwrap(), "roll 4 roll 5 roll");
    assert_eq!(
        (s.end_reason(), s.turns(), s.decisions()),
        (Some(EndReason::Cap), 1, 3)
    );
}
