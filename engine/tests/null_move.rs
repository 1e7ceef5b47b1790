//! The pass that null-move pruning tries ([`NullMove`]): which games offer it and
//! where. The conformance suite checks its contract at every node of random games;
//! these tests check that the pass is actually offered (a suite that never meets one
//! would check nothing) and declined where each game's docs say.

use agon_engine::games::apv::Apv;
use agon_engine::games::connect4::Connect4;
use agon_engine::games::invector::Invector;
use agon_engine::games::romgon::Romgon;
use agon_engine::{Game, NullMove, PieRule, State, Turn};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Over `games` random games of at most `plies` plies: (decisions met, passes offered).
fn passes_offered<G: Game>(game: &G, games: usize, plies: usize) -> (usize, usize) {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let (mut decisions, mut passes) = (0, 0);
    let mut moves = Vec::new();
    for _ in 0..games {
        let mut state = game.initial_state();
        for _ in 0..plies {
            if !matches!(state.turn(), Turn::Seat(_)) {
                break;
            }
            decisions += 1;
            let mut passed = state.clone();
            passes += usize::from(passed.null_move().is_some());
            moves.clear();
            state.legal_moves(&mut moves);
            state.apply(moves[rng.random_range(0..moves.len())]);
        }
    }
    (decisions, passes)
}

#[test]
fn romgon_and_invector_offer_the_pass_at_nearly_every_decision() {
    for (name, (decisions, passes)) in [
        ("romgon", passes_offered(&Romgon::default(), 20, 200)),
        (
            "invector",
            passes_offered(&Invector::new(8, 7, false).unwrap(), 20, 200),
        ),
    ] {
        assert!(
            passes * 10 >= decisions * 9,
            "{name}: {passes} of {decisions}"
        );
    }
}

#[test]
fn apv_offers_the_pass_at_the_start_of_a_turn_only() {
    // With orders every turn is a primary move then an order decision: about half the
    // decisions start a turn.
    let (decisions, passes) = passes_offered(&Apv::default(), 20, 200);
    assert!(
        passes * 3 >= decisions && passes * 2 <= decisions + 40,
        "{passes} of {decisions}"
    );
    let mut state = Apv::default().initial_state();
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    state.apply(moves[0]);
    assert!(
        state.clone().null_move().is_none(),
        "a pass at the order decision"
    );
    // Without orders every decision starts a turn; the pass counts no turn.
    let state = Apv::new(false, false, 500).unwrap().initial_state();
    let turns = state.turns();
    let mut passed = state.clone();
    passed.null_move().expect("a pass at the start");
    assert_eq!(passed.turns(), turns);
    assert_eq!(passed.turn(), Turn::Seat(1));
}

#[test]
fn invector_has_no_pass_in_the_pie_opening_and_connect4_none_at_all() {
    let mut state = Invector::new(8, 7, true).unwrap().initial_state();
    let mut moves = Vec::new();
    for _ in 0..2 {
        assert!(state.clone().null_move().is_none(), "ply {}", state.ply());
        moves.clear();
        state.legal_moves(&mut moves);
        let step = *moves.iter().find(|&&m| !state.is_pie_swap(m)).unwrap();
        state.apply(step);
    }
    assert!(state.clone().null_move().is_some());
    let (decisions, passes) = passes_offered(&Connect4, 20, 42);
    assert!(decisions > 0 && passes == 0);
}
