//! APV's picture: the contract along random playouts under every rule set, the cells'
//! geometry against the board's own adjacency, and a hand-played position whose units,
//! pending order and notes are checked cell by cell.

use agon_engine::games::apv::{Apv, GEO};
use agon_engine::picture::{Cell, CellShape, Depict, Ink, Mark, Picture, PieceShape, Symbol};
use agon_engine::testing::{check_adjacency, check_pictures};
use agon_engine::{play_moves, Game, State};

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

/// What `moves` then `last` set off beyond `last`, told by the position before `last`.
fn aftermath(game: Apv, moves: &str, last: &str) -> Option<String> {
    let mut state = game.initial_state();
    play_moves(&mut state, moves).unwrap();
    let before = state.clone();
    play_moves(&mut state, last).unwrap();
    before.aftermath(before.parse_move(last).unwrap(), &state)
}

#[test]
fn an_order_that_fires_or_fizzles_is_told_with_the_decision_that_passed_the_turn() {
    let game = Apv::default();
    assert_eq!(
        aftermath(game, "d7-d5 order:f7-f5 e3-f4", "no-order").as_deref(),
        Some("north's order f7-f5 fires: its Veil moves to f5")
    );
    // South's Veil jumps f3-f5 onto the ordered cell.
    assert_eq!(
        aftermath(game, "d7-d5 order:f7-f5 f3-f5", "no-order").as_deref(),
        Some("north's order f7-f5 fizzles: f5 is taken, so nothing moves")
    );
    // A decision that keeps the turn, or passes it to a side without an order: nothing.
    assert_eq!(aftermath(game, "d7-d5", "order:f7-f5"), None);
    assert_eq!(aftermath(game, "d7-d5 no-order e3-f4", "no-order"), None);
    // North's Axis on e5 is ordered to e7; South's Veil jumps e4-e6 into its path.
    let bit = |name: &str| 1u64 << cell(name);
    let north = [bit("e9"), bit("e5"), 0, 0];
    let south = [bit("e1"), 0, bit("e4"), 0];
    let order = agon_engine::games::apv::Order {
        from: cell("e5") as u8,
        to: cell("e7") as u8,
    };
    let mut state = game
        .position([north, south], 1, [Some(order), None])
        .unwrap();
    play_moves(&mut state, "e4-e6").unwrap();
    let before = state.clone();
    play_moves(&mut state, "no-order").unwrap();
    assert_eq!(
        before
            .aftermath(before.parse_move("no-order").unwrap(), &state)
            .as_deref(),
        Some("north's order e5-e7 fizzles: the Axis's path is blocked, so nothing moves")
    );
}

#[test]
fn an_order_left_at_the_end_is_neither_drawn_nor_listed_nor_told() {
    let capped = Apv::new(true, false, 2).unwrap();
    assert_eq!(
        aftermath(capped, "d7-d5 order:f7-f5 e3-f4", "no-order"),
        None
    );
    let mut state = capped.initial_state();
    play_moves(&mut state, "d7-d5 order:f7-f5 e3-f4 no-order").unwrap();
    assert_eq!(state.order(0).map(|o| o.to), Some(cell("f5") as u8));
    let picture = state.picture();
    assert!(picture.marks.is_empty(), "{:?}", picture.marks);
    assert_eq!(picture.notes, ["draw: all 2 turns played"]);
}

#[test]
fn under_limited_orders_the_notes_say_whether_the_side_may_order_this_turn() {
    let limited = Apv::new(true, true, 500).unwrap();
    let notes = |moves: &str| {
        let mut state = limited.initial_state();
        play_moves(&mut state, moves).unwrap();
        state.picture().notes
    };
    assert_eq!(
        notes(""),
        [
            "north (seat 0) to make its primary move",
            "limited orders: north may issue an order this turn",
            "turn 1 of 500"
        ]
    );
    assert_eq!(
        notes("d7-d5 order:f7-f5 e3-f4 no-order")[1..],
        [
            "limited orders: north may not issue an order this turn, as it issued one in its \
             previous turn",
            "turn 3 of 500"
        ]
    );
    assert_eq!(
        notes("d7-d5 order:f7-f5 e3-f4 no-order e9-d9"),
        [
            "north (seat 0) to decide its order: no-order is its only choice",
            "limited orders: north may not issue an order this turn, as it issued one in its \
             previous turn",
            "turn 3 of 500"
        ]
    );
    // South issued none, so it may; the rule set without the variant says nothing.
    assert_eq!(
        notes("d7-d5 order:f7-f5 e3-f4")[1..],
        [
            "north has ordered f7-f5: it fires at the start of north's next turn",
            "limited orders: south may issue an order this turn",
            "turn 2 of 500"
        ]
    );
    let mut plain = Apv::default().initial_state();
    play_moves(&mut plain, "d7-d5 order:f7-f5 e3-f4 no-order").unwrap();
    assert!(plain.picture().notes.iter().all(|n| !n.contains("limited")));
}

#[test]
fn pictures_keep_their_contract_under_the_knobs_and_tell_an_orders_wait() {
    for spec in [
        "apv:axes=3,veils=0,south_extra=turned-veil,max_turns=60",
        "apv:order_delay=3,limited_orders=true,max_turns=60",
    ] {
        let game: Apv = crate::common::parse_game(spec).unwrap();
        let checked = check_pictures(&game, 5, 12).unwrap();
        assert!(checked > 5 * 20, "{spec}: checked {checked} pictures");
    }
    // The extra unit is drawn; a waiting order says when it fires.
    let game: Apv = crate::common::parse_game("apv:order_delay=2,south_extra=axis").unwrap();
    let mut s = game.initial_state();
    assert_eq!(at(&s.picture(), "g2"), [(PieceShape::Disc, Ink::Black)]);
    play_moves(&mut s, "d7-d5 order:f8-h6").unwrap();
    let notes = s.picture().notes.join("\n");
    assert!(
        notes.contains(
            "north has ordered f8-h6: it fires at the start of north's second turn from now"
        ),
        "{notes}"
    );
    assert!(s
        .picture()
        .legend
        .iter()
        .any(|k| k.meaning.contains("fires when its wait runs out")));
}
