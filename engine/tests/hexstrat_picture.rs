//! Hexstrat's picture: the contract along random playouts under bags that change the
//! terrain and a short cap, the cells' geometry against axial adjacency, and played
//! positions whose squads, grounds, pending reveal, notes and reveal events are checked
//! cell by cell.

use agon_engine::games::hexstrat::{Hexstrat, Setup, SquadSetup, Tile, Unit};
use agon_engine::picture::{
    Cell, CellShape, Depict, Ground, Ink, Mark, Picture, PieceShape, Symbol,
};
use agon_engine::testing::{check_adjacency, check_pictures};
use agon_engine::{play_moves, Game, State};

/// (shape, ink, label, faded) of every piece on the cell named `name`, bottom first.
fn at(picture: &Picture, name: &str) -> Vec<(PieceShape, Ink, String, bool)> {
    let cell = index(picture, name);
    picture
        .pieces
        .iter()
        .filter(|p| p.cell == cell)
        .map(|p| (p.shape, p.ink, p.label.clone().unwrap(), p.inactive))
        .collect()
}

fn index(picture: &Picture, name: &str) -> usize {
    picture
        .cell_named(name)
        .unwrap_or_else(|| panic!("no cell {name}"))
}

fn ground(picture: &Picture, name: &str) -> Ground {
    picture.cells[index(picture, name)].ground
}

/// Axial `(q, r)` of a cell name, as the rules define it (`d4` is the centre).
fn axial(name: &str) -> (i32, i32) {
    let b = name.as_bytes();
    (i32::from(b[0]) - 'd' as i32, i32::from(b[1]) - '4' as i32)
}

#[test]
fn every_picture_keeps_its_contract_under_every_bag() {
    let bags = [
        (15, 10, 10),
        (35, 0, 0),
        (0, 35, 0),
        (0, 0, 35),
        (5, 15, 15),
    ];
    for (plains, forests, mountains) in bags {
        let game = Hexstrat::new(plains, forests, mountains, 20).unwrap();
        let checked = check_pictures(&game, 8, 13).unwrap();
        assert!(checked > 8 * 20, "checked {checked} pictures");
    }
    check_pictures(&Hexstrat::default(), 4, 1).unwrap();
}

#[test]
fn cells_are_the_37_hexagons_and_touch_exactly_where_the_rules_say() {
    let picture = Hexstrat::default().initial_state().picture();
    assert_eq!(picture.cells.len(), 37);
    assert!(picture
        .cells
        .iter()
        .all(|c| c.shape == CellShape::HexPointy));
    let adjacent = |a: &Cell, b: &Cell| {
        let ((qa, ra), (qb, rb)) = (axial(&a.name), axial(&b.name));
        let (dq, dr) = (qb - qa, rb - ra);
        dq.abs() + dr.abs() + (dq + dr).abs() == 2
    };
    check_adjacency(&picture, adjacent).unwrap();
    // South's Headquarters (seat 0, first to move) at the bottom; every tile face down.
    let cell = |name: &str| &picture.cells[index(&picture, name)];
    assert!(cell("d6").y > cell("d4").y && cell("d4").y > cell("d2").y);
    assert!(cell("g4").x > cell("d4").x && cell("d4").x > cell("a4").x);
    assert_eq!(ground(&picture, "d2"), Ground::Zone(Ink::Blue));
    assert_eq!(ground(&picture, "d6"), Ground::Zone(Ink::Red));
    let hidden = picture.cells.iter().filter(|c| c.ground == Ground::Hidden);
    assert_eq!(hidden.count(), 35);
}

#[test]
fn a_played_turn_shows_the_squads_the_reveals_and_the_decision() {
    let mut state = Hexstrat::default().initial_state();
    let start = state.picture();
    assert_eq!(
        at(&start, "d6"),
        [
            (PieceShape::Disc, Ink::Red, "6".to_string(), false),
            (PieceShape::Triangle, Ink::Red, "6".to_string(), false),
            (PieceShape::Square, Ink::Red, "4".to_string(), false),
        ]
    );
    // South's Infantry steps onto d3: the tile waits to be revealed.
    play_moves(&mut state, "I:d3").unwrap();
    let pending = state.picture();
    let (d2, d3) = (index(&pending, "d2"), index(&pending, "d3"));
    assert_eq!(
        pending.marks,
        [
            Mark::Arrow {
                from: d2,
                to: d3,
                ink: Ink::Blue
            },
            Mark::Pending { cell: d3 }
        ]
    );
    assert_eq!(
        pending.notes[0],
        "a tile at d3 is about to be revealed for south's Infantry"
    );
    let forest = state.parse_move("forest").unwrap();
    assert_eq!(state.event(forest), "revealed forest at d3");
    // Forest it is; then the Mech enters a forest at c2 and is impeded there.
    play_moves(&mut state, "forest M:c2 forest").unwrap();
    let picture = state.picture();
    let blue = |shape, label: &str, faded| (shape, Ink::Blue, label.to_string(), faded);
    assert_eq!(at(&picture, "d3"), [blue(PieceShape::Disc, "6", true)]);
    assert_eq!(at(&picture, "c2"), [blue(PieceShape::Square, "4", true)]);
    assert_eq!(at(&picture, "d2"), [blue(PieceShape::Triangle, "6", false)]);
    assert_eq!(ground(&picture, "d3"), Ground::Terrain(4));
    assert_eq!(ground(&picture, "c2"), Ground::Terrain(4));
    assert_eq!(ground(&picture, "e2"), Ground::Hidden);
    assert!(picture.marks.is_empty());
    assert_eq!(
        picture.notes,
        [
            "south (seat 0) to act with its Rocketeer, or end its turn",
            "impeded (can only recover): south Mech on c2",
            "acted this turn: south Infantry on d3, south Mech on c2",
            "face down: 15 plains, 8 forest, 10 mountain",
            "turn 1 of 120",
        ]
    );
    assert_eq!(picture.legend, start.legend);
    assert_eq!(picture.legend.len(), 16);
    // The faded squads (the Infantry that acted, the impeded Mech) have their key.
    assert!(picture.pieces.iter().any(|p| p.inactive));
    let faded = picture.legend.iter().find(|k| k.symbol == Symbol::Inactive);
    assert_eq!(
        faded.map(|k| k.meaning.as_str()),
        Some("faded: a squad that has acted this turn, or is impeded")
    );
}

#[test]
fn a_seize_is_counted_and_told() {
    let mut state = Hexstrat::default()
        .position(&Setup {
            tiles: vec![("d5", Tile::Plains), ("a7", Tile::Plains)],
            squads: vec![
                SquadSetup::new(0, Unit::Infantry, "d5", 6),
                SquadSetup::new(1, Unit::Rocketeer, "a7", 5),
            ],
            ..Setup::default()
        })
        .unwrap();
    play_moves(&mut state, "I:d6").unwrap();
    assert_eq!(
        state.picture().notes,
        [
            "north (seat 1) to act with its Rocketeer, or end its turn",
            "impeded (can only recover): south Infantry on d6",
            "south's Infantry holds north's Headquarters: seize count 1 of 3",
            "face down: 13 plains, 10 forest, 10 mountain",
            "turn 2 of 120",
        ]
    );
    play_moves(&mut state, "end end end").unwrap();
    let picture = state.picture();
    assert_eq!(
        picture.notes[0],
        "south (seat 0) wins: its Infantry held north's Headquarters for 3 turns (seize)"
    );
    assert_eq!(
        at(&picture, "d6"),
        [(PieceShape::Disc, Ink::Blue, "6".to_string(), true)]
    );
    assert_eq!(
        at(&picture, "a7"),
        [(PieceShape::Triangle, Ink::Red, "5".to_string(), false)]
    );
    let mut capped = Hexstrat::new(15, 10, 10, 1).unwrap().initial_state();
    play_moves(&mut capped, "end end").unwrap();
    assert_eq!(
        capped.picture().notes,
        [
            "draw: all 2 turns played",
            "face down: 15 plains, 10 forest, 10 mountain"
        ]
    );
}
