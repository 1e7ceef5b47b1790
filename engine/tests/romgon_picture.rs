//! Romgon's picture: the contract along random playouts under every rule set, the cells'
//! geometry against the rules' own adjacency (doubled columns), and played positions
//! whose pieces, facings, grounds and notes are checked cell by cell.

use agon_engine::games::romgon::{Colour, Defence, Romgon, RomgonKnobs, Rotation};
use agon_engine::picture::{Cell, CellShape, Depict, Ground, Ink, Picture, PieceShape};
use agon_engine::testing::{check_adjacency, check_pictures};
use agon_engine::{play_moves, Game};

/// The (shape, ink, facing) of every piece on the cell named `name`.
fn at(picture: &Picture, name: &str) -> Vec<(PieceShape, Ink, Option<u16>)> {
    let cell = index(picture, name);
    picture
        .pieces
        .iter()
        .filter(|p| p.cell == cell)
        .map(|p| (p.shape, p.ink, p.facing))
        .collect()
}

fn index(picture: &Picture, name: &str) -> usize {
    picture
        .cell_named(name)
        .unwrap_or_else(|| panic!("no cell {name}"))
}

/// Row and doubled column of a cell name `r-c`, as the rules define them.
fn row_x(name: &str) -> (i32, i32) {
    let (r, c) = name.split_once('-').unwrap();
    let (r, c): (i32, i32) = (r.parse().unwrap(), c.parse().unwrap());
    (r, 2 * c + (r - 3).abs())
}

#[test]
fn every_picture_keeps_its_contract_under_every_rule_set() {
    for defence in [Defence::Shape, Defence::Original] {
        for rotation in [Rotation::Any, Rotation::Step] {
            let game = Romgon::new(defence, rotation, 120).unwrap();
            let checked = check_pictures(&game, 6, 5).unwrap();
            assert!(checked > 6 * 10, "checked {checked} pictures");
        }
    }
    check_pictures(&Romgon::default(), 2, 9).unwrap();
}

#[test]
fn every_picture_keeps_its_contract_under_the_knobs() {
    let base = RomgonKnobs::default();
    for knobs in [
        RomgonKnobs {
            squares: 0,
            circles: 0,
            shuttle_limit: 2,
            ..base
        },
        RomgonKnobs {
            handicap: -2,
            shuttle_limit: 9,
            ..base
        },
    ] {
        let game = Romgon::new(Defence::Shape, Rotation::Any, 120)
            .unwrap()
            .with_knobs(knobs)
            .unwrap();
        let checked = check_pictures(&game, 3, 7).unwrap();
        assert!(checked > 3 * 10, "checked {checked} pictures");
    }
}

#[test]
fn cells_are_the_51_hexagons_and_touch_exactly_where_the_rules_say() {
    let picture = Romgon::default().initial_state().picture();
    assert_eq!(picture.cells.len(), 51);
    assert!(picture
        .cells
        .iter()
        .all(|c| c.shape == CellShape::HexPointy));
    let adjacent = |a: &Cell, b: &Cell| {
        let ((ra, xa), (rb, xb)) = (row_x(&a.name), row_x(&b.name));
        (ra == rb && (xa - xb).abs() == 2) || ((ra - rb).abs() == 1 && (xa - xb).abs() == 1)
    };
    check_adjacency(&picture, adjacent).unwrap();
    // Row 0 at the top, White's base on the left, Black's on the right, the Dead zone
    // in the middle.
    let cell = |name: &str| &picture.cells[index(&picture, name)];
    assert!(cell("0-0").y > cell("3-0").y && cell("3-0").y > cell("6-0").y);
    assert!(cell("3-8").x > cell("3-4").x && cell("3-4").x > cell("3-0").x);
    assert_eq!(cell("3-0").ground, Ground::Zone(Ink::White));
    assert_eq!(cell("3-8").ground, Ground::Zone(Ink::Black));
    let dead: Vec<&str> = picture
        .cells
        .iter()
        .filter(|c| matches!(c.ground, Ground::Terrain(_)))
        .map(|c| c.name.as_str())
        .collect();
    assert_eq!(dead, ["3-3", "3-4", "3-5"]);
}

#[test]
fn a_played_position_shows_each_piece_with_its_facing() {
    let mut state = Romgon::default().initial_state();
    let start = state.picture();
    assert_eq!(
        at(&start, "1-0"),
        [(PieceShape::Triangle, Ink::White, Some(0))]
    );
    assert_eq!(
        at(&start, "1-6"),
        [(PieceShape::Triangle, Ink::Black, Some(180))]
    );
    // Black's triangle steps west and turns north-west; White turns its hexagon to the
    // SE-NW axis.
    play_moves(&mut state, "t5-6>5-5@NW H4-0@SE").unwrap();
    let picture = state.picture();
    let (w, b) = (Ink::White, Ink::Black);
    assert_eq!(at(&picture, "5-5"), [(PieceShape::Triangle, b, Some(120))]);
    assert_eq!(at(&picture, "5-6"), []);
    assert_eq!(at(&picture, "4-0"), [(PieceShape::Hexagon, w, Some(300))]);
    assert_eq!(at(&picture, "2-7"), [(PieceShape::Hexagon, b, Some(0))]);
    assert_eq!(at(&picture, "3-8"), [(PieceShape::Diamond, b, None)]);
    assert_eq!(at(&picture, "3-0"), [(PieceShape::Diamond, w, None)]);
    assert_eq!(at(&picture, "2-0"), [(PieceShape::Disc, w, None)]);
    assert_eq!(at(&picture, "6-5"), [(PieceShape::Square, b, None)]);
    assert_eq!(picture.pieces.len(), 14);
    assert!(picture.marks.is_empty());
    assert_eq!(
        picture.notes,
        [
            "black (seat 0) to act: move a piece, or turn a triangle or hexagon in place",
            "action 3 of 600"
        ]
    );
    assert_eq!(picture.legend, start.legend);
    assert_eq!(picture.legend.len(), 13);
}

#[test]
fn notes_warn_of_attacks_repetition_and_shuttles_and_tell_the_end() {
    let game = Romgon::default();
    let checked = game.position("R3-0 r3-6 S2-6", Colour::Black).unwrap();
    assert_eq!(
        checked.picture().notes[1],
        "black's rhombus on 3-6 is attacked"
    );
    let mut state = game.initial_state();
    play_moves(
        &mut state,
        "r3-8>3-7 R3-0>3-1 r3-7>3-8 R3-1>3-0 r3-8>3-7 R3-0>3-1 r3-7>3-8",
    )
    .unwrap();
    assert_eq!(
        state.picture().notes,
        [
            "white (seat 1) to act: move a piece, or turn a triangle or hexagon in place",
            "this position has occurred 2 times; a third time loses for the side that makes it",
            "one more black rhombus move between 3-7 and 3-8 loses (shuttle)",
            "action 8 of 600",
        ]
    );
    let mut won = game.position("R3-6 r0-0", Colour::White).unwrap();
    play_moves(&mut won, "R3-6>3-8").unwrap();
    assert_eq!(
        won.picture().notes,
        ["white (seat 1) wins: its rhombus reached black's base"]
    );
}
