//! Connect Four notation: a move is its column letter, `a` (left) to `g` (right).
//!
//! Cells, used only to describe positions, are the column letter then the row number
//! from `1` at the bottom (`d1` is the bottom of the centre column).

use crate::game::MoveError;

use super::board::COLUMNS;
use super::moves::Connect4Move;
use super::Connect4State;

/// The letter of `column` (0 is `a`).
pub fn column_letter(column: usize) -> char {
    debug_assert!(column < COLUMNS);
    (b'a' + column as u8) as char
}

/// Prints a move: its column letter.
pub fn format_move(m: Connect4Move) -> String {
    column_letter(m.column()).to_string()
}

/// Reads a move and checks that it can be played here, with the reason if not.
pub fn parse_move(s: &Connect4State, text: &str) -> Result<Connect4Move, MoveError> {
    let err = |reason: String| MoveError::new(text, reason);
    if s.is_over() {
        return Err(err("the game is over".into()));
    }
    let column = match text.as_bytes() {
        &[b] if b.is_ascii_lowercase() && usize::from(b - b'a') < COLUMNS => usize::from(b - b'a'),
        _ => {
            return Err(err(format!(
                "{text:?} is not a column (one letter, a to {})",
                column_letter(COLUMNS - 1)
            )))
        }
    };
    let m = Connect4Move::new(column).expect("column checked above");
    if s.is_full(column) {
        return Err(err(format!("column {text} is full")));
    }
    Ok(m)
}

#[cfg(test)]
mod tests {
    use crate::games::connect4::{Connect4, Connect4Move};
    use crate::{play_moves, Game, State};

    #[test]
    fn errors_say_what_is_wrong() {
        let mut s = Connect4.initial_state();
        let reason = |s: &crate::games::connect4::Connect4State, t: &str| {
            s.parse_move(t).unwrap_err().reason
        };
        for text in ["h", "", "C", "cc", "c1"] {
            assert_eq!(
                reason(&s, text),
                format!("{text:?} is not a column (one letter, a to g)")
            );
        }
        assert_eq!(s.parse_move("c"), Ok(Connect4Move::new(2).unwrap()));
        play_moves(&mut s, "c c c c c c").unwrap();
        assert_eq!(reason(&s, "c"), "column c is full");
        play_moves(&mut s, "a b a b a b a").unwrap();
        assert_eq!(reason(&s, "d"), "the game is over");
    }
}
