//! APV positions for the tests: cells by name, hand-built positions and positions
//! after a line of moves.

use agon_engine::games::apv::{Apv, ApvState, Bitboard, Order, Unit, GEO};
use agon_engine::{play_moves, Game};

/// The cell named `name` (`e5`).
pub fn cell(name: &str) -> usize {
    let b = name.as_bytes();
    GEO.cell(
        i32::from(b[0]) - i32::from(b'e'),
        i32::from(b[1]) - i32::from(b'5'),
    )
    .unwrap_or_else(|| panic!("{name} is not a cell"))
}

/// A hand-built position: `P`/`A`/`V`/`T` and a cell per unit, upper case North,
/// lower case South; orders as `d7-d9` or empty.
pub fn setup(game: Apv, units: &str, orders: [&str; 2], to_move: usize) -> ApvState {
    let mut bb = [[0 as Bitboard; 4]; 2];
    for token in units.split_whitespace() {
        let letter = token.chars().next().unwrap();
        let side = usize::from(letter.is_ascii_lowercase());
        let unit = match letter.to_ascii_uppercase() {
            'P' => Unit::Pivot,
            'A' => Unit::Axis,
            'V' => Unit::Veil,
            _ => Unit::Turned,
        };
        bb[side][unit as usize] |= 1 << cell(&token[1..]);
    }
    let orders = orders.map(|o| {
        o.split_once('-').map(|(a, b)| Order {
            from: cell(a) as u8,
            to: cell(b) as u8,
        })
    });
    game.position(bb, to_move, orders)
        .unwrap_or_else(|e| panic!("{units}: {e}"))
}

/// Plays `moves` (notation), each checked.
pub fn play(s: &mut ApvState, moves: &str) {
    play_moves(s, moves).unwrap_or_else(|e| panic!("[{moves}]: {e}\n{s}"));
}

/// The position after `moves` from the start of `game`.
pub fn after(game: Apv, moves: &str) -> ApvState {
    let mut s = game.initial_state();
    play(&mut s, moves);
    s
}
