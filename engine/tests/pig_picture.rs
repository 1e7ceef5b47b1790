//! Pig's picture: the contract on the default rules and on small and large variants,
//! and a hand-played line whose places (scores, turn total, die), ring, notes and
//! events are checked piece by piece.

use agon_engine::games::pig::{Pig, PigMove, PigState};
use agon_engine::picture::{Depict, Ink, Mark, Picture, PieceShape};
use agon_engine::testing::check_pictures;
use agon_engine::{play_moves, Game};

#[test]
fn every_picture_keeps_its_contract() {
    for (target, die, horizon) in [(100, 6, 1000), (20, 3, 30), (1000, 20, 400)] {
        let game = Pig::new(target, die, horizon).unwrap();
        let checked = check_pictures(&game, 8, 5).unwrap();
        assert!(checked > 8 * 10, "{target}/{die}: checked {checked}");
    }
}

fn after(game: &Pig, moves: &str) -> PigState {
    let mut s = game.initial_state();
    play_moves(&mut s, moves).unwrap_or_else(|e| panic!("{moves}: {e}"));
    s
}

/// The pieces on the place named `name`: (shape, ink, label) of each.
fn on(picture: &Picture, name: &str) -> Vec<(PieceShape, Ink, Option<String>)> {
    let cell = picture.cells.iter().position(|c| c.name == name).unwrap();
    picture
        .pieces
        .iter()
        .filter(|p| p.cell == cell)
        .inspect(|p| assert!(p.facing.is_none() && !p.inactive))
        .map(|p| (p.shape, p.ink, p.label.clone()))
        .collect()
}

fn piece(shape: PieceShape, ink: Ink, label: Option<&str>) -> (PieceShape, Ink, Option<String>) {
    (shape, ink, label.map(String::from))
}

#[test]
fn the_table_shows_scores_turn_total_and_die() {
    use PieceShape::{Die, Disc, Square};
    let game = Pig::default();
    let start = game.initial_state().picture();
    let names: Vec<&str> = start.cells.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["first", "second", "turn", "die"]);
    assert!(start.cells.iter().all(|c| c.y == 0.0));
    assert_eq!(on(&start, "die"), [piece(Die, Ink::Neutral, None)]);

    let picture = after(&game, "roll 4 roll 5").picture();
    assert_eq!(on(&picture, "first"), [piece(Square, Ink::Red, Some("0"))]);
    assert_eq!(
        on(&picture, "second"),
        [piece(Square, Ink::Blue, Some("0"))]
    );
    assert_eq!(on(&picture, "turn"), [piece(Disc, Ink::Red, Some("9"))]);
    assert_eq!(on(&picture, "die"), [piece(Die, Ink::Neutral, Some("5"))]);
    assert!(picture.marks.is_empty());
    assert_eq!(
        picture.notes,
        [
            "banked score of first (seat 0): 0",
            "banked score of second (seat 1): 0",
            "turn total of first (seat 0): 9, at risk",
            "first (seat 0) to roll or hold",
            "target score: 100; die: d6; decisions made: 2 of 1000",
        ]
    );

    // Seat 1 rolls: the die is in the air, ringed, blank.
    let state = after(&game, "roll 4 roll 5 hold roll");
    let picture = state.picture();
    assert_eq!(on(&picture, "first"), [piece(Square, Ink::Red, Some("9"))]);
    assert_eq!(on(&picture, "turn"), [piece(Disc, Ink::Blue, Some("0"))]);
    assert_eq!(on(&picture, "die"), [piece(Die, Ink::Neutral, None)]);
    assert_eq!(picture.marks, [Mark::Pending { cell: 3 }]);
    assert_eq!(picture.notes[3], "the die is rolling for second (seat 1)");
    assert_eq!(
        state.event(PigMove::Face(6)),
        "rolled 6: the turn total is 6"
    );

    // A 1 stays on the die after it ends the turn.
    let state = after(&game, "roll 4 roll 5 hold roll 3 roll");
    assert_eq!(
        state.event(PigMove::Face(1)),
        "rolled 1: second loses the turn total of 3, and the turn passes"
    );
    let picture = after(&game, "roll 4 roll 5 hold roll 3 roll 1").picture();
    assert_eq!(on(&picture, "die"), [piece(Die, Ink::Neutral, Some("1"))]);
    assert_eq!(on(&picture, "turn"), [piece(Disc, Ink::Red, Some("0"))]);
    assert_eq!(picture.notes[3], "first (seat 0) to roll or hold");
}

#[test]
fn the_end_names_the_winner_and_labels_stay_short() {
    use PieceShape::Square;
    // Fifty 20s bank 1000 points: the label shortens, the note does not.
    let game = Pig::new(1000, 20, 1000).unwrap();
    let line = format!("{}hold", "roll 20 ".repeat(50));
    let picture = after(&game, &line).picture();
    assert_eq!(on(&picture, "first"), [piece(Square, Ink::Red, Some("1k"))]);
    assert!(on(&picture, "turn").is_empty());
    assert_eq!(
        picture.notes[2],
        "first (seat 0) wins: a banked score of 1000 reaches the target"
    );

    let game = Pig::new(10, 6, 2).unwrap();
    let picture = after(&game, "roll 4 hold").picture();
    assert_eq!(
        picture.notes[2],
        "draw: 2 decisions without reaching the target"
    );
}
