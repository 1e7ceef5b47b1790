//! Connect Four checked against hand-built positions and an independent plain-array
//! referee (perft counts are `connect4_perft.rs`'s).
//!
//! - The conformance suite passes with both end reasons seen.
//! - Horizontal, vertical and both diagonal wins, for either seat, and a full-board draw
//!   are detected at exactly the move that makes them.
//! - Notation errors say what is wrong; the initial hash is pinned.
//! - At every node of many seeded random playouts, a naive referee (a 7 × 6 array and a
//!   scan of every cell in every direction, sharing no code with the engine's bitboards)
//!   agrees with the engine on the legal columns, who moves, and whether and how the
//!   game ended; the evaluator is antisymmetric and within its bounds there. A proptest
//!   over move-index sequences checks the same, so a failure shrinks to its shortest
//!   line.

use agon_engine::games::connect4::{Connect4, Connect4Eval, Connect4Move, Connect4State};
use agon_engine::testing::{check_conformance, Conformance};
use agon_engine::{play_moves, EndReason, Evaluator, Game, Outcome, Params, State, Turn};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::naive_connect4;
use naive_connect4::Naive;

fn start() -> Connect4State {
    Connect4.initial_state()
}

/// The state after `moves` (in notation) from the start, each move checked.
fn after(moves: &str) -> Connect4State {
    let mut s = start();
    play_moves(&mut s, moves).unwrap_or_else(|e| panic!("{moves}: {e}"));
    s
}

#[test]
fn game_facts() {
    assert_eq!(Connect4::NAME, "connect4");
    assert!(Connect4::param_specs().is_empty());
    assert_eq!(
        (
            agon_engine::has_chance::<Connect4State>(),
            Connect4::HAS_HIDDEN_INFORMATION
        ),
        (false, false)
    );
    let game = Connect4::from_params(&Params::defaults(Connect4::param_specs())).unwrap();
    let s = game.initial_state();
    assert_eq!(s, start());
    assert_eq!((s.side(0), s.side(1)), ("red", "yellow"));
    assert_eq!(s.turn(), Turn::Seat(0));
    assert_eq!(s.max_moves(), 7);
    assert_eq!((s.ply(), s.outcome(), s.end_reason()), (0, None, None));
}

#[test]
fn initial_hash_is_pinned() {
    let s = start();
    assert_eq!(s.hash(), s.recompute_hash());
    // No stones and red to move: the empty key. The keys themselves are pinned by the
    // hash after a few drops (they change only if the seed or the layout does).
    assert_eq!(s.hash(), 0);
    assert_eq!(after("d").hash(), PINNED_AFTER_D);
    assert_eq!(after("d c a").hash(), PINNED_AFTER_D_C_A);
    // After a drop the key changes, and the same stones reached by two orders agree.
    assert_ne!(after("d").hash(), s.hash());
    assert_eq!(after("a b c").hash(), after("c b a").hash());
    assert_eq!(after("a b c"), after("c b a"));
    assert_ne!(after("a b c").hash(), after("a c b").hash());
}

/// The hash after `d`.
const PINNED_AFTER_D: u64 = 0x3d2a_7c04_f950_037c;
/// The hash after `d c a`.
const PINNED_AFTER_D_C_A: u64 = 0x12d0_b03a_a35b_4fbb;

#[test]
fn conformance() {
    let report = check_conformance(
        &Connect4,
        &Conformance {
            playouts: 1000,
            max_plies: 42,
            ..Conformance::default()
        },
    )
    .unwrap();
    assert_eq!(report.playouts, 1000);
    assert_eq!(report.chance_nodes, 0);
    assert!(report.transpositions > 0, "{report:?}");
    let reasons: Vec<&str> = report.end_reasons.iter().map(|&(r, _)| r).collect();
    assert_eq!(reasons, ["four-in-a-row", "full-board"], "{report:?}");
    assert_eq!(
        report.end_reasons.iter().map(|&(_, n)| n).sum::<u64>(),
        1000
    );
}

/// Plays `moves`; the game must go on until the last one, which must end it with
/// `outcome` and `reason`.
fn ends_exactly_at(moves: &str, outcome: Outcome, reason: &'static str) {
    let list: Vec<&str> = moves.split_whitespace().collect();
    let mut s = start();
    for (i, text) in list.iter().enumerate() {
        assert!(s.turn() != Turn::Over, "{moves}: over before move {i}");
        play_moves(&mut s, text).unwrap();
    }
    assert_eq!(s.turn(), Turn::Over, "{moves}\n{s}");
    assert_eq!(s.outcome(), Some(outcome), "{moves}\n{s}");
    assert_eq!(s.end_reason(), Some(EndReason::Rule(reason)), "{moves}");
    let mut moves_left = Vec::new();
    s.legal_moves(&mut moves_left);
    assert!(moves_left.is_empty());
    let e = Connect4Eval::default();
    let (lo, hi) = e.bounds();
    let expected = match outcome {
        Outcome::Win(0) => hi,
        Outcome::Win(_) => lo,
        Outcome::Draw => 0,
    };
    assert_eq!(e.evaluate(&s, 0), expected);
    assert_eq!(e.evaluate(&s, 1), -expected);
}

#[test]
fn horizontal_wins() {
    ends_exactly_at("a a b b c c d", Outcome::Win(0), "four-in-a-row");
    ends_exactly_at("d d e e f f c", Outcome::Win(0), "four-in-a-row");
    // Yellow on row 2 at the right edge, over a row 1 shared by both.
    ends_exactly_at("d e f g a d a e b f b g", Outcome::Win(1), "four-in-a-row");
}

#[test]
fn vertical_wins() {
    ends_exactly_at("a b a b a b a", Outcome::Win(0), "four-in-a-row");
    ends_exactly_at("a b a b a b c b", Outcome::Win(1), "four-in-a-row");
    // At the top of a column: rows 3-6 of g.
    ends_exactly_at("g a g g a g b g b g", Outcome::Win(1), "four-in-a-row");
}

#[test]
fn rising_diagonal_wins() {
    // Red a1 b2 c3 d4.
    ends_exactly_at("a b b c c d c d d g d", Outcome::Win(0), "four-in-a-row");
}

#[test]
fn falling_diagonal_wins() {
    // The mirror image: red g1 f2 e3 d4.
    ends_exactly_at("g f f e e d e d d a d", Outcome::Win(0), "four-in-a-row");
}

/// A whole game in which nobody makes four in a row (found by a seeded random search
/// and checked move by move here and by the naive referee below).
const DRAWN_GAME: &str =
    "d e e g a d f c g f a g f a d g f g b d b d g f c a f d e e a b b b a b e c e c c c";

#[test]
fn full_board_draw() {
    assert_eq!(DRAWN_GAME.split_whitespace().count(), 42);
    ends_exactly_at(DRAWN_GAME, Outcome::Draw, "full-board");
    let mut s = start();
    let mut referee = Naive::default();
    for text in DRAWN_GAME.split_whitespace() {
        let m = s.parse_move(text).unwrap();
        s.apply(m);
        referee.drop(m.column());
        assert_eq!(referee.winner(), None);
    }
    assert!(referee.is_full());
    let expected = "\
a6  R     Y     Y     Y     R     R     R  g6
a5  R     Y     R     Y     R     Y     Y  g5
a4  Y     R     Y     Y     Y     R     Y  g4
a3  Y     Y     Y     R     R     R     Y  g3
a2  R     R     R     Y     R     Y     R  g2
a1  R     R     Y     R     Y     R     Y  g1
draw: the board is full
legend: R red stone (seat 0) · Y yellow stone (seat 1) · [ ] the last move";
    assert_eq!(s.to_string(), expected);
}

#[test]
fn notation_and_its_errors() {
    let s = start();
    for (i, letter) in ["a", "b", "c", "d", "e", "f", "g"].into_iter().enumerate() {
        let m = s.parse_move(letter).unwrap();
        assert_eq!(m, Connect4Move::new(i).unwrap());
        assert_eq!(s.format_move(m), letter);
    }
    let reason = |s: &Connect4State, t: &str| s.parse_move(t).unwrap_err().reason;
    for bad in ["h", "z", "", " a", "A", "ab", "1", "d1", "-"] {
        assert_eq!(
            reason(&s, bad),
            "\"".to_string()
                + &bad.escape_debug().to_string()
                + "\" is not a column (one letter, a to g)"
        );
    }
    let full = after("b b b b b b");
    assert_eq!(reason(&full, "b"), "column b is full");
    let mut tried = full.clone();
    let err = tried.try_apply(Connect4Move::new(1).unwrap()).unwrap_err();
    assert_eq!(
        (err.text.as_str(), err.reason.as_str()),
        ("b", "column b is full")
    );
    assert_eq!(tried, full);
    let over = after("a b a b a b a");
    assert_eq!(reason(&over, "c"), "the game is over");
    let mut tried = over.clone();
    let err = tried.try_apply(Connect4Move::new(2).unwrap()).unwrap_err();
    assert_eq!(err.reason, "the game is over");
    assert_eq!(tried, over);
    assert_eq!(Connect4Move::new(7), None);
}

#[test]
fn naive_referee_agrees_on_random_playouts() {
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let e = Connect4Eval::default();
    let (lo, hi) = e.bounds();
    let (mut nodes, mut wins, mut draws) = (0u64, 0u64, 0u64);
    let mut moves = Vec::new();
    for playout in 0..3000 {
        let mut s = start();
        let mut referee = Naive::default();
        let mut line = String::new();
        loop {
            nodes += 1;
            let winner = referee.winner();
            let expected_turn = if winner.is_some() || referee.is_full() {
                Turn::Over
            } else {
                Turn::Seat(referee.stones % 2)
            };
            assert_eq!(s.turn(), expected_turn, "playout {playout} [{line}]\n{s}");
            let expected_outcome = match (winner, referee.is_full()) {
                (Some(w), _) => Some(Outcome::Win(w)),
                (None, true) => Some(Outcome::Draw),
                (None, false) => None,
            };
            assert_eq!(s.outcome(), expected_outcome, "playout {playout} [{line}]");
            for seat in 0..2 {
                assert!(lo <= e.evaluate(&s, seat) && e.evaluate(&s, seat) <= hi);
            }
            assert_eq!(e.evaluate(&s, 0), -e.evaluate(&s, 1));
            moves.clear();
            s.legal_moves(&mut moves);
            let naive_moves: Vec<usize> = if expected_turn == Turn::Over {
                Vec::new()
            } else {
                (0..7).filter(|&c| referee.height(c) < 6).collect()
            };
            let engine_moves: Vec<usize> = moves.iter().map(|m| m.column()).collect();
            assert_eq!(engine_moves, naive_moves, "playout {playout} [{line}]");
            for c in 0..7 {
                if expected_turn != Turn::Over {
                    assert_eq!(s.height(c), referee.height(c));
                }
            }
            if expected_turn == Turn::Over {
                match winner {
                    Some(_) => wins += 1,
                    None => draws += 1,
                }
                break;
            }
            let m = moves[rng.random_range(0..moves.len())];
            line.push_str(&s.format_move(m));
            line.push(' ');
            s.apply(m);
            referee.drop(m.column());
        }
    }
    eprintln!("{nodes} nodes, {wins} wins, {draws} draws");
    assert!(wins > 0 && draws > 0, "{wins} wins, {draws} draws");
}

/// The evaluator's search hints against the referee, for every legal drop at every node
/// of random playouts: `opponent_wins_next` exactly when the game goes on and some reply
/// wins at once; `move_hint` four points per cell (empty, anywhere) where the mover's
/// next stone would then complete four, plus the drop's nearness to the centre (for
/// drops that do not end the game).
#[test]
fn search_hints_agree_with_the_referee() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let e = Connect4Eval::default();
    let (mut conceding, mut threatening) = (0u64, 0u64);
    let mut moves = Vec::new();
    for _ in 0..400 {
        let mut s = start();
        let mut referee = Naive::default();
        while !referee.is_over() {
            let mover = referee.stones % 2;
            moves.clear();
            s.legal_moves(&mut moves);
            for &m in &moves {
                let mut after = referee.clone();
                after.drop(m.column());
                let wins_next = !after.is_over()
                    && after.legal_columns().into_iter().any(|c| {
                        let mut reply = after.clone();
                        reply.drop(c);
                        reply.winner().is_some()
                    });
                assert_eq!(e.opponent_wins_next(&s, m), wins_next, "{s}\n{m:?}");
                conceding += u64::from(wins_next);
                if after.is_over() {
                    // A drop that ends the game is noisy; its hint orders nothing.
                    continue;
                }
                let mut threats = 0;
                for column in 0..7 {
                    for row in 0..6 {
                        if after.cells[column][row].is_none() {
                            let mut filled = after.clone();
                            filled.cells[column][row] = Some(mover);
                            threats += u32::from(filled.has_four(mover));
                        }
                    }
                }
                threatening += u64::from(threats > 0);
                let centrality = 3 - m.column().abs_diff(3) as u32;
                assert_eq!(
                    u32::from(e.move_hint(&s, m)),
                    4 * threats + centrality,
                    "{s}\n{m:?}"
                );
            }
            let m = moves[rng.random_range(0..moves.len())];
            s.apply(m);
            referee.drop(m.column());
        }
    }
    assert!(
        conceding > 1_000 && threatening > 1_000,
        "{conceding} {threatening}"
    );
}

proptest! {
    /// Engine and referee agree along any line: each index picks a legal column
    /// (modulo their number).
    #[test]
    fn engine_and_referee_agree_on_any_line(indices in prop::collection::vec(0usize..7, 0..42)) {
        let mut s = start();
        let mut referee = Naive::default();
        let mut moves = Vec::new();
        for i in indices {
            moves.clear();
            s.legal_moves(&mut moves);
            let over = referee.winner().is_some() || referee.is_full();
            prop_assert_eq!(moves.is_empty(), over);
            if over {
                break;
            }
            let m = moves[i % moves.len()];
            s.apply(m);
            referee.drop(m.column());
            let expected = match referee.winner() {
                Some(w) => Some(Outcome::Win(w)),
                None if referee.is_full() => Some(Outcome::Draw),
                None => None,
            };
            prop_assert_eq!(s.outcome(), expected);
            prop_assert_eq!(s.hash(), s.recompute_hash());
        }
    }
}

#[test]
fn a_turn_is_one_drop() {
    assert_eq!(after("d c d c d c d").turns(), 7);
    assert_eq!(
        after("d c d c d c d").end_reason(),
        Some(EndReason::Rule("four-in-a-row"))
    );
}

#[test]
fn every_picture_keeps_its_contract() {
    let checked = agon_engine::testing::check_pictures(&Connect4, 20, 7).unwrap();
    assert!(checked > 20 * 7, "checked {checked} pictures");
}

#[test]
fn picture_puts_each_stone_on_its_cell() {
    use agon_engine::picture::{Depict, Ink};
    let mut state = Connect4.initial_state();
    play_moves(&mut state, "d d e").unwrap();
    let picture = state.picture();
    assert_eq!(picture.cells.len(), 42);
    let at = |name: &str| {
        let cell = picture.cells.iter().position(|c| c.name == name).unwrap();
        picture
            .pieces
            .iter()
            .filter(|p| p.cell == cell)
            .map(|p| p.ink)
            .collect::<Vec<_>>()
    };
    assert_eq!(at("d1"), [Ink::Red]);
    assert_eq!(at("d2"), [Ink::Yellow]);
    assert_eq!(at("e1"), [Ink::Red]);
    assert_eq!(at("e2"), []);
    assert_eq!(picture.notes, ["yellow (seat 1) to drop a stone"]);
}
