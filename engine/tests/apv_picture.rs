//! APV's picture: the contract along random playouts under every rule set, the cells'
//! geometry against the board's own adjacency, and a hand-played position whose units,
//! pending order and notes are checked cell by cell.

use agon_engine::games::apv::{Apv, GEO};
use agon_engine::picture::{Cell, CellShape, Depict, Ink, Mark, Picture, PieceShape, Symbol};
use agon_engine::testing::{check_adjacency, check_pictures};
use agon_engine::{play_moves, Game};

/// The (shape, ink) of every piece on the cell named `name`.
fn at(picture: &Picture, name: &str) -> Vec<(PieceShape, Ink)> {
    let cell = index(picture, name);
    picture
        .pieces
        .iter()
        .filter(|p| p.cell == cell)
        .map(|p| (p.shape, p.ink))
        .collect()
}

fn index(picture: &Picture, name: &str) -> usize {
    picture
        .cell_named(name)
        .unwrap_or_else(|| panic!("no cell {name}"))
}

/// The board's cell index of a name, read as the rules define names (`e5` the centre).
fn cell(name: &str) -> usize {
    let b = name.as_bytes();
    let (q, r) = (i32::from(b[0]) - 'e' as i32, i32::from(b[1]) - '5' as i32);
    GEO.cell(q, r)
        .unwrap_or_else(|| panic!("{name} is not a cell"))
}

#[test]
fn every_picture_keeps_its_contract_under_every_rule_set() {
    for (orders, limited) in [(true, false), (false, false), (true, true)] {
        let game = Apv::new(orders, limited, 60).unwrap();
        let checked = check_pictures(&game, 10, 11).unwrap();
        assert!(checked > 10 * 20, "checked {checked} pictures");
    }
    check_pictures(&Apv::default(), 3, 3).unwrap();
}

#[test]
fn cells_are_the_61_hexagons_and_touch_exactly_where_the_board_is_adjacent() {
    let picture = Apv::default().initial_state().picture();
    assert_eq!(picture.cells.len(), 61);
    for (i, c) in picture.cells.iter().enumerate() {
        assert_eq!(c.shape, CellShape::HexPointy);
        assert_eq!(cell(&c.name), i, "{} is cell {i}", c.name);
    }
    let adjacent = |a: &Cell, b: &Cell| GEO.neighbours[cell(&a.name)] & 1 << cell(&b.name) != 0;
    check_adjacency(&picture, adjacent).unwrap();
    // North's home row 9 is at the top; the letters run west to east.
    let cell = |name: &str| &picture.cells[index(&picture, name)];
    assert!(cell("e9").y > cell("e5").y && cell("e5").y > cell("e1").y);
    assert!(cell("i5").x > cell("e5").x && cell("e5").x > cell("a5").x);
}

#[test]
fn a_played_position_shows_each_unit_the_pending_order_and_the_decision() {
    let mut state = Apv::default().initial_state();
    // North's Veil jumps d7-d5 and orders its other Veil f7-f5; South's Turned Veil
    // jumps e3-f4 and now decides its own order.
    play_moves(&mut state, "d7-d5 order:f7-f5 e3-f4").unwrap();
    let picture = state.picture();
    let (w, b) = (Ink::White, Ink::Black);
    assert_eq!(at(&picture, "d5"), [(PieceShape::Square, w)]);
    assert_eq!(at(&picture, "d7"), []);
    assert_eq!(at(&picture, "f7"), [(PieceShape::Square, w)]);
    assert_eq!(at(&picture, "e9"), [(PieceShape::Star, w)]);
    assert_eq!(at(&picture, "d8"), [(PieceShape::Disc, w)]);
    assert_eq!(at(&picture, "e8"), [(PieceShape::Diamond, w)]);
    assert_eq!(at(&picture, "f4"), [(PieceShape::Diamond, b)]);
    assert_eq!(at(&picture, "e3"), []);
    assert_eq!(at(&picture, "e1"), [(PieceShape::Star, b)]);
    assert_eq!(at(&picture, "f2"), [(PieceShape::Disc, b)]);
    assert_eq!(at(&picture, "d3"), [(PieceShape::Square, b)]);
    assert_eq!(picture.pieces.len(), 14);
    assert_eq!(
        picture.marks,
        [Mark::Arrow {
            from: index(&picture, "f7"),
            to: index(&picture, "f5"),
            ink: w
        }]
    );
    assert_eq!(
        picture.notes,
        [
            "south (seat 1) to issue an order or no-order (not for the unit on f4, which just moved)",
            "north has ordered f7-f5: it fires at the start of north's next turn",
            "turn 2 of 500",
        ]
    );
    // The legend is the same for every position and names every unit of each side.
    assert_eq!(
        picture.legend,
        Apv::default().initial_state().picture().legend
    );
    assert_eq!(picture.legend.len(), 10);
    let star = Symbol::Piece {
        shape: PieceShape::Star,
        ink: b,
        facing: false,
    };
    let key = picture.legend.iter().find(|k| k.symbol == star).unwrap();
    assert_eq!(key.meaning, "south Pivot (seat 1)");
}

#[test]
fn the_order_fires_and_the_end_is_told() {
    let mut state = Apv::default().initial_state();
    play_moves(&mut state, "d7-d5 order:f7-f5 e3-f4 no-order").unwrap();
    let picture = state.picture();
    assert_eq!(at(&picture, "f5"), [(PieceShape::Square, Ink::White)]);
    assert_eq!(at(&picture, "f7"), []);
    assert!(picture.marks.is_empty());
    assert_eq!(
        picture.notes,
        ["north (seat 0) to make its primary move", "turn 3 of 500"]
    );
    let mut capped = Apv::new(false, false, 2).unwrap().initial_state();
    play_moves(&mut capped, "d7-d5 e3-f4").unwrap();
    assert_eq!(capped.picture().notes, ["draw: all 2 turns played"]);
    // North's Axis slides f5-f1 and shuts South's Pivot in on e1.
    let bit = |name: &str| 1u64 << cell(name);
    let north = [bit("e9"), bit("f5"), bit("d2") | bit("e2"), 0];
    let south = [bit("e1"), 0, 0, 0];
    let mut won = Apv::default()
        .position([north, south], 0, [None, None])
        .unwrap();
    play_moves(&mut won, "f5-f1").unwrap();
    assert_eq!(
        won.picture().notes,
        ["north (seat 0) wins: south's Pivot is shut in"]
    );
}
