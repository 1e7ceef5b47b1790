//! Invector's picture: the contract on several board sizes with and without the pie
//! rule, the true geometry (cells 1 apart, row 1 at the bottom), and a hand-played line
//! whose stones, seats and notes are checked cell by cell, across a pie swap; and the
//! contract and notes with the designer's knobs turned.

use agon_engine::games::invector::{Invector, InvectorKnobs, InvectorMove, InvectorState};
use agon_engine::picture::{CellShape, Depict, Ground, Ink, Picture, PieceShape};
use agon_engine::testing::check_pictures;
use agon_engine::{play_moves, Game, State, Turn};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

#[test]
fn every_picture_keeps_its_contract() {
    for (width, height, pie) in [(8, 7, true), (8, 7, false), (5, 4, true), (5, 4, false)] {
        let game = Invector::new(width, height, pie).unwrap();
        let checked = check_pictures(&game, 6, 11).unwrap();
        assert!(checked > 6 * 10, "{width}x{height}: checked {checked}");
    }
    let checked = check_pictures(&Invector::new(4, 9, true).unwrap(), 4, 3).unwrap();
    assert!(checked > 4 * 10, "4x9: checked {checked}");
}

#[test]
fn pictures_keep_their_contract_and_name_the_turned_knobs() {
    let turned = |lose_at, hole, stride, handicap| {
        let knobs = InvectorKnobs {
            lose_at,
            hole,
            stride,
            handicap,
        };
        Invector::new(5, 4, false)
            .unwrap()
            .with_knobs(knobs)
            .unwrap()
    };
    for game in [turned(2, 1, 2, 1), turned(0, 0, 1, 3)] {
        let checked = check_pictures(&game, 6, 5).unwrap();
        assert!(checked > 6 * 5, "{game:?}: checked {checked}");
    }
    // lose_at and stride rule play, so the notes say so; the winner's note counts the
    // loser's stones left.
    let game = turned(9, 0, 2, 0);
    let notes = game.initial_state().picture().notes;
    assert!(notes.contains(&"a side left with 9 stones or fewer loses".to_string()));
    assert!(notes.contains(&"a step slides up to 2 pits towards the centre".to_string()));
    let mut s = game.initial_state();
    play_moves(&mut s, "c3xd3").unwrap();
    assert!(s
        .picture()
        .notes
        .contains(&"black (seat 0) wins: white has 9 stones left".to_string()));
    // At the rulebook's values, no such note.
    let notes = Invector::new(5, 4, false)
        .unwrap()
        .initial_state()
        .picture()
        .notes;
    assert!(notes
        .iter()
        .all(|n| !n.contains("loses") && !n.contains("slides")));
}

/// The cell named `name`.
fn cell(picture: &Picture, name: &str) -> usize {
    picture
        .cells
        .iter()
        .position(|c| c.name == name)
        .unwrap_or_else(|| panic!("no cell {name}"))
}

#[test]
fn cells_are_the_board_at_its_true_size() {
    for (width, height) in [(8usize, 7usize), (5, 4), (4, 9)] {
        let game = Invector::new(width, height, true).unwrap();
        let picture = game.initial_state().picture();
        assert_eq!(picture.cells.len(), width * height);
        let columns = "abcdefghijklmnop".as_bytes();
        for x in 0..width {
            for y in 0..height {
                let name = format!("{}{}", columns[x] as char, y + 1);
                let c = &picture.cells[cell(&picture, &name)];
                assert_eq!(c.shape, CellShape::Square);
                // a1 at the origin, columns to the right, rows upwards, 1 apart.
                assert_eq!((c.x, c.y), (x as f32, y as f32), "{name}");
            }
        }
        let centres: Vec<&str> = picture
            .cells
            .iter()
            .filter(|c| c.ground == Ground::Terrain(0))
            .map(|c| c.name.as_str())
            .collect();
        let expected: &[&str] = match (width, height) {
            (8, 7) => &["d4", "e4"],
            (5, 4) => &["c2", "c3"],
            _ => &["b5", "c5"],
        };
        assert_eq!(centres, expected, "{width}x{height}");
    }
}

/// The stones on `name`: (shape, ink) of each.
fn stones(picture: &Picture, name: &str) -> Vec<(PieceShape, Ink)> {
    let c = cell(picture, name);
    picture
        .pieces
        .iter()
        .filter(|p| p.cell == c)
        .inspect(|p| assert!(p.label.is_none() && p.facing.is_none() && !p.inactive))
        .map(|p| (p.shape, p.ink))
        .collect()
}

fn after(game: &Invector, moves: &str) -> InvectorState {
    let mut s = game.initial_state();
    play_moves(&mut s, moves).unwrap_or_else(|e| panic!("{moves}: {e}"));
    s
}

#[test]
fn stones_keep_their_colour_through_a_swap() {
    let game = Invector::new(5, 4, true).unwrap();
    let black = (PieceShape::Disc, Ink::Black);
    let white = (PieceShape::Disc, Ink::White);

    let offered = after(&game, "a1xb1").picture();
    assert_eq!(stones(&offered, "a1"), []);
    assert_eq!(stones(&offered, "b1"), [black]);
    assert_eq!(stones(&offered, "a2"), [white]);
    assert_eq!(stones(&offered, "e1"), [black]);
    assert_eq!(stones(&offered, "e4"), [white]);
    assert_eq!(offered.pieces.len(), 19);
    assert_eq!(
        offered.notes,
        [
            "stones of black (seat 0): 10",
            "stones of white (seat 1): 9",
            "white (seat 1) to move, or to swap colours (pie rule)",
        ]
    );

    // Seat 0 now plays White and moves; the stones did not change colour.
    let picture = after(&game, "a1xb1 swap a2xb2").picture();
    assert_eq!(stones(&picture, "a1"), []);
    assert_eq!(stones(&picture, "b1"), [black]);
    assert_eq!(stones(&picture, "a2"), []);
    assert_eq!(stones(&picture, "b2"), [white]);
    assert_eq!(stones(&picture, "c1"), [black]);
    assert_eq!(stones(&picture, "c2"), [white]);
    assert_eq!(
        picture.notes,
        [
            "stones of black (seat 1): 9",
            "stones of white (seat 0): 9",
            "black (seat 1) to move: capture, or step towards the centre",
            "the seats swapped colours (pie rule)",
        ]
    );
    assert!(picture.marks.is_empty());
    // Invector has no chance; an event is the move's notation.
    let state = after(&game, "a1xb1 swap a2xb2");
    let m = state.parse_move("b1xb2").unwrap();
    assert_eq!(state.event(m), "b1xb2");
}

#[test]
fn the_end_names_the_winner_by_seat_and_colour() {
    // 1 × 2: Black on a1 captures White's only stone.
    let game = Invector::new(1, 2, false).unwrap();
    let picture = after(&game, "a1xa2").picture();
    assert_eq!(stones(&picture, "a2"), [(PieceShape::Disc, Ink::Black)]);
    assert_eq!(
        picture.notes.last().map(String::as_str),
        Some("black (seat 0) wins: white has no stones left")
    );
}

#[test]
fn a_forced_pass_is_said_in_the_notes() {
    // Random play on 5 x 4 meets a player with neither capture nor step.
    let game = Invector::new(5, 4, false).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let mut moves = Vec::new();
    for _ in 0..200 {
        let mut state = game.initial_state();
        while let Turn::Seat(_) = state.turn() {
            moves.clear();
            state.legal_moves(&mut moves);
            if moves == [InvectorMove::PASS] {
                let seat = state.turn().seat().unwrap();
                let mover = format!("{} (seat {seat})", state.side(seat));
                let notes = state.picture().notes;
                assert_eq!(
                    notes[2],
                    format!("{mover} must pass: no capture and no step")
                );
                return;
            }
            state.apply(moves[rng.random_range(0..moves.len())]);
        }
    }
    panic!("no forced pass in 200 random games");
}
