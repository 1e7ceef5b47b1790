//! 3Will's picture: the contract on the default rules, a short cap and turned knobs
//! (whose counts the notes show), the board's
//! geometry (a1 at the bottom left, squares 1 apart, the objective rows as zones), and
//! hand-played positions whose agents (held, locked), marks, notes and events are
//! checked square by square.

use agon_engine::games::threewill::{
    Knobs, ThreeWill, ThreeWillMove, ThreeWillState, BLACK, WHITE,
};
use agon_engine::picture::{Depict, Ground, Ink, Mark, Picture, PieceShape, Symbol};
use agon_engine::testing::check_pictures;
use agon_engine::{play_moves, Game};

#[test]
fn every_picture_keeps_its_contract() {
    let checked = check_pictures(&ThreeWill::default(), 3, 9).unwrap();
    assert!(checked > 3 * 100, "checked {checked}");
    let checked = check_pictures(&ThreeWill::new(12).unwrap(), 10, 4).unwrap();
    assert!(checked > 10 * 12, "checked {checked}");
}

#[test]
fn pictures_keep_their_contract_with_the_knobs_turned() {
    let knobs = Knobs {
        dr_cards: 6,
        hit_faces: 2,
        locks_to_win: 4,
        agents: 5,
        black_free_cards: 3,
    };
    let game = ThreeWill::with_knobs(30, knobs).unwrap();
    let checked = check_pictures(&game, 6, 2).unwrap();
    assert!(checked > 6 * 30, "checked {checked}");
    let notes = game.initial_state().picture().notes;
    assert_eq!(
        notes[..3],
        [
            "white (seat 0): DR cards 6, Free cards 0, agents locked 0 of 4",
            "black (seat 1): DR cards 6, Free cards 3, agents locked 0 of 4",
            "cards in the bank: 0",
        ]
    );
}

/// The cell named `name`.
fn cell(picture: &Picture, name: &str) -> usize {
    picture.cells.iter().position(|c| c.name == name).unwrap()
}

/// The agents on `name`, bottom first: (shape, ink, inactive).
fn on(picture: &Picture, name: &str) -> Vec<(PieceShape, Ink, bool)> {
    let c = cell(picture, name);
    picture
        .pieces
        .iter()
        .filter(|p| p.cell == c)
        .inspect(|p| assert!(p.label.is_none() && p.facing.is_none()))
        .map(|p| (p.shape, p.ink, p.inactive))
        .collect()
}

fn after(state: &ThreeWillState, moves: &str) -> ThreeWillState {
    let mut s = *state;
    play_moves(&mut s, moves).unwrap_or_else(|e| panic!("{moves}: {e}"));
    s
}

const WHITE_AGENT: (PieceShape, Ink, bool) = (PieceShape::Disc, Ink::White, false);
const BLACK_AGENT: (PieceShape, Ink, bool) = (PieceShape::Disc, Ink::Black, false);

#[test]
fn the_board_has_white_at_the_bottom() {
    let picture = ThreeWill::default().initial_state().picture();
    assert_eq!(picture.cells.len(), 64);
    for (i, c) in picture.cells.iter().enumerate() {
        let (x, y) = (i % 8, i / 8);
        assert_eq!(c.name, format!("{}{}", (b'a' + x as u8) as char, y + 1));
        assert_eq!((c.x, c.y), (x as f32, y as f32));
        let ground = match y {
            7 => Ground::Zone(Ink::White),
            0 => Ground::Zone(Ink::Black),
            _ => Ground::Plain,
        };
        assert_eq!(c.ground, ground, "{}", c.name);
    }
    assert_eq!(on(&picture, "c2"), [WHITE_AGENT]);
    assert_eq!(on(&picture, "f7"), [BLACK_AGENT]);
    assert_eq!(on(&picture, "c1"), []);
    assert_eq!(picture.pieces.len(), 16);
}

#[test]
fn a_stacking_attempt_and_its_hit() {
    let start = ThreeWill::default().initial_state();
    assert_eq!(
        start.event(ThreeWillMove::Face(4)),
        "rolled 4: diagonal forward-right"
    );
    let operating = after(&start, "1 a2-a3 1 a7-a6 1 a3-a4 1 a6-a5 1");
    assert!(operating
        .picture()
        .notes
        .contains(&"directive 1: straight forward".to_string()));

    let throw = after(&operating, "a4*a5");
    let picture = throw.picture();
    let (a4, a5) = (cell(&picture, "a4"), cell(&picture, "a5"));
    assert_eq!(
        picture.marks,
        [
            Mark::Arrow {
                from: a4,
                to: a5,
                ink: Ink::White
            },
            Mark::Pending { cell: a5 },
        ]
    );
    assert_eq!(
        throw.event(ThreeWillMove::Hit),
        "the throw hits: a4 stacks onto a5"
    );
    assert_eq!(
        throw.event(ThreeWillMove::Miss),
        "the throw misses: nothing moves"
    );

    let picture = after(&throw, "hit").picture();
    assert_eq!(on(&picture, "a4"), []);
    // The black agent is held under the white one: bottom first, faded, as the
    // legend's key for the faded style says.
    assert_eq!(
        on(&picture, "a5"),
        [(PieceShape::Disc, Ink::Black, true), WHITE_AGENT]
    );
    let faded = picture.legend.iter().find(|k| k.symbol == Symbol::Inactive);
    assert_eq!(
        faded.map(|k| k.meaning.as_str()),
        Some("faded: inactive, an agent held under another or locked on its objective row")
    );
    assert!(picture.marks.is_empty());
    assert_eq!(
        picture.notes,
        [
            "white (seat 0): DR cards 3, Free cards 0, agents locked 0 of 3",
            "black (seat 1): DR cards 4, Free cards 0, agents locked 0 of 3",
            "cards in the bank: 1",
            "challenge: open; the first declared victory is challenged",
            "turn 6 of 400",
            "black (seat 1) is about to roll the die",
        ]
    );
}

/// The square named `name` (`a1` = 0).
fn sq(name: &str) -> u8 {
    let b = name.as_bytes();
    (b[1] - b'1') * 8 + (b[0] - b'a')
}

#[test]
fn locked_agents_are_stars_and_a_challenge_rings_the_pick() {
    let stacks = [
        (sq("a8"), WHITE, 0),
        (sq("b8"), WHITE, BLACK),
        (sq("c7"), WHITE, 0),
        (sq("d1"), BLACK, 0),
        (sq("h5"), BLACK, 0),
    ];
    let state = ThreeWill::default().custom_state(&stacks, 0, [4, 4], [0, 0], false);
    let picture = state.picture();
    let locked_white = (PieceShape::Star, Ink::White, true);
    assert_eq!(on(&picture, "a8"), [locked_white]);
    assert_eq!(
        on(&picture, "b8"),
        [(PieceShape::Disc, Ink::Black, true), locked_white]
    );
    assert_eq!(on(&picture, "c7"), [WHITE_AGENT]);
    assert_eq!(on(&picture, "d1"), [(PieceShape::Star, Ink::Black, true)]);
    assert_eq!(on(&picture, "h5"), [BLACK_AGENT]);
    assert_eq!(
        picture.notes[0],
        "white (seat 0): DR cards 4, Free cards 0, agents locked 2 of 3"
    );

    // c7-c8 locks a third agent: White declares victory, Black picks a8.
    let reveal = after(&state, "1 c7-c8 pick:a8");
    let picture = reveal.picture();
    assert_eq!(
        picture.marks,
        [Mark::Pending {
            cell: cell(&picture, "a8")
        }]
    );
    assert_eq!(
        picture.notes.last().unwrap(),
        "white (seat 0)'s victory is challenged: the hidden card is revealed for the agent on a8"
    );
    assert_eq!(
        reveal.event(ThreeWillMove::Twin {
            sq: sq("h5"),
            held: false
        }),
        "the card is revealed: the picked agent's twin is h5; they swap places"
    );
    assert_eq!(
        reveal.event(ThreeWillMove::Stands),
        "the card is revealed: the victory stands"
    );
    let over = after(&reveal, "stands").picture();
    assert_eq!(
        over.notes[3..],
        [
            "challenge: made; a declared victory is final",
            "1 of 400 turns played",
            "white (seat 0) wins: three of its agents locked on its objective row",
        ]
    );
}
