//! Connect Four: drop stones into a 7 × 6 upright grid; four in a row wins.
//!
//! Two players take turns dropping a stone of their colour into one of the seven
//! columns, where it falls to the lowest empty cell. Whoever first lines up four of
//! their stones horizontally, vertically or diagonally wins (`four-in-a-row`); if the
//! board fills up first, the game is a draw (`full-board`). Seat 0 plays `red` and
//! moves first, seat 1 plays `yellow`. The project's description of the rules and
//! notation is `docs/games/connect4.md`.
//!
//! Representation: one bitboard per seat in the classic 7-bits-per-column layout
//! (`board`), with four-in-a-row found by shifts; a move is a column (`moves`),
//! written as its letter (`notation`); evaluation counts open windows (`eval`). The
//! state is three words, so undo is by copy.
//!
//! ```
//! use agon_engine::games::connect4::Connect4;
//! use agon_engine::{play_moves, EndReason, Game, Outcome, State, Turn};
//!
//! let mut state = Connect4.initial_state();
//! play_moves(&mut state, "d d e e f f").unwrap();
//! assert_eq!(state.turn(), Turn::Seat(0));
//! play_moves(&mut state, "g").unwrap();
//! assert_eq!(state.outcome(), Some(Outcome::Win(0)));
//! assert_eq!(state.end_reason(), Some(EndReason::Rule("four-in-a-row")));
//! ```

mod board;
mod encoding;
mod eval;
mod moves;
mod notation;
mod picture;

use std::fmt;

use crate::actions::{ActionSpace, DenseActions};
use crate::game::{
    self, FastPlayout, Game, LengthCap, MoveError, NoChance, NullMove, Outcome, PieRule, Seat,
    State, Symmetries, Turn,
};
use crate::params::{ConfigError, ParamSpec, Params};
use crate::zobrist;

use board::{Bitboard, BOTTOM, CELLS, COLUMNS, FULL};
pub use eval::{Connect4Eval, Connect4Weights};
pub use moves::Connect4Move;

/// A middle game: 12 stones, both sides building in the centre. `agon bench` searches it.
pub const MIDGAME: &str = "d d c e e c f b d d g a";

/// End reason of a game won by four in a row.
pub const FOUR_IN_A_ROW: &str = "four-in-a-row";
/// End reason of a game drawn because the board filled up with no four in a row.
pub const FULL_BOARD: &str = "full-board";

/// The colour each seat plays: seat 0 `red` (moves first), seat 1 `yellow`.
pub const SIDES: [&str; 2] = ["red", "yellow"];

/// Connect Four's rules: the standard 7 × 6 game, with no parameters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Connect4;

impl Game for Connect4 {
    type State = Connect4State;
    const NAME: &'static str = "connect4";
    const ABOUT: &'static str = "Connect Four: drop stones into 7 columns, four in a row wins";
    const HAS_HIDDEN_INFORMATION: bool = false;

    fn param_specs() -> &'static [ParamSpec] {
        &[]
    }

    fn from_params(_params: &Params) -> Result<Self, ConfigError> {
        Ok(Connect4)
    }

    fn initial_state(&self) -> Connect4State {
        let mut s = Connect4State {
            stones: [0, 0],
            wins: [0, 0],
            end: None,
            hash: 0,
        };
        s.hash = s.recompute_hash();
        s
    }
}

impl DenseActions for Connect4 {
    /// A drop's id is its column (`a` 0 ... `g` 6), as OpenSpiel numbers them; every
    /// ply fills a cell, so no game is longer than the board has cells (every ply a
    /// decision: there is no chance).
    fn action_space(&self) -> ActionSpace {
        ActionSpace {
            decisions: COLUMNS as u32,
            chance_outcomes: 0,
            max_game_length: CELLS as u32,
            max_decisions: CELLS as u32,
        }
    }

    fn action_id(&self, m: Connect4Move) -> u32 {
        m.column() as u32
    }
}

/// Zobrist keys: one per (seat, bit index) for the 49 bits of the layout (sentinel bits
/// included, so that indexing needs no conversion; their keys are never used), then
/// yellow to move.
const KEYS: [u64; 2 * 49 + 1] = zobrist::keys(0xC04E_C7F0);
const KEY_YELLOW_TO_MOVE: u64 = KEYS[2 * 49];

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum End {
    /// This seat made four in a row.
    Four(Seat),
    /// The board is full with no four in a row.
    Full,
}

/// A position of Connect Four.
///
/// The stones determine everything else (the side to move is the seat with fewer
/// stones, seat 0 on a tie; the ply count is the number of stones; the winning cells and
/// the end follow from the stones), so `Eq` and the hash cover exactly the stones.
#[derive(Clone, PartialEq, Eq)]
pub struct Connect4State {
    /// Stones by seat (bitboards laid out as in [`board`]).
    stones: [Bitboard; 2],
    /// Each seat's winning cells: the empty cells where its stone would complete four
    /// ([`board::winning_cells`]), kept up to date by `apply` so that the game-end test
    /// and the evaluator's search hints cost a few bit operations.
    wins: [Bitboard; 2],
    /// Set once the game is over.
    end: Option<End>,
    hash: u64,
}

impl Connect4State {
    /// The stones of `seat`.
    #[inline]
    pub fn stones(&self, seat: Seat) -> Bitboard {
        self.stones[seat]
    }

    /// Every occupied cell.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.stones[0] | self.stones[1]
    }

    /// The empty cells where a stone of `seat` would complete four in a row, whether a
    /// stone can be dropped there yet or not.
    #[inline]
    pub fn winning_cells(&self, seat: Seat) -> Bitboard {
        self.wins[seat]
    }

    /// The seat whose turn it is, or would be if the game were not over.
    #[inline]
    pub fn seat_to_move(&self) -> Seat {
        (self.occupied().count_ones() & 1) as Seat
    }

    /// Whether the game is over.
    #[inline]
    pub fn is_over(&self) -> bool {
        self.end.is_some()
    }

    /// Whether `column` (0 is `a`) has no empty cell left.
    #[inline]
    pub fn is_full(&self, column: usize) -> bool {
        self.occupied() & board::top_cell(column) != 0
    }

    /// The cell a stone dropped into the non-full `column` lands on: adding the
    /// column's bottom bit carries through its occupied cells (always the lowest ones)
    /// onto the first empty one.
    #[inline]
    fn landing(&self, column: usize) -> Bitboard {
        (self.occupied() + (BOTTOM & board::column_mask(column))) & board::column_mask(column)
    }

    /// Stones in `column` (0 is `a`): the row, from 0, where the next stone lands.
    #[inline]
    pub fn height(&self, column: usize) -> usize {
        (self.occupied() & board::column_mask(column)).count_ones() as usize
    }
}

impl State for Connect4State {
    type Chance = NoChance;
    type Move = Connect4Move;
    type Undo = Connect4State;

    #[inline]
    fn turn(&self) -> Turn {
        match self.end {
            Some(_) => Turn::Over,
            None => Turn::Seat(self.seat_to_move()),
        }
    }

    #[inline]
    fn legal_moves(&self, out: &mut Vec<Connect4Move>) {
        if self.end.is_some() {
            return;
        }
        let occupied = self.occupied();
        for column in 0..COLUMNS {
            if occupied & board::top_cell(column) == 0 {
                out.push(Connect4Move::new(column).expect("column < COLUMNS"));
            }
        }
    }

    fn max_moves(&self) -> usize {
        COLUMNS
    }

    #[inline]
    fn apply(&mut self, m: Connect4Move) -> Connect4State {
        debug_assert!(
            !self.is_over() && !self.is_full(m.column()),
            "illegal move {m:?}"
        );
        let undo = self.clone();
        let occupied = self.occupied();
        let dropped = self.landing(m.column());
        let seat = self.seat_to_move();
        self.stones[seat] |= dropped;
        self.hash ^= KEYS[seat * 49 + dropped.trailing_zeros() as usize] ^ KEY_YELLOW_TO_MOVE;
        // Only the new stone can complete a four, exactly if it filled a winning cell.
        if self.wins[seat] & dropped != 0 {
            self.end = Some(End::Four(seat));
        } else if occupied | dropped == FULL {
            self.end = Some(End::Full);
        }
        self.wins[seat] = board::winning_cells(self.stones[seat], occupied | dropped);
        self.wins[1 - seat] &= !dropped;
        debug_assert_eq!(
            self.end.is_some_and(|e| e != End::Full),
            board::has_four(self.stones[seat])
        );
        debug_assert_eq!(self.hash, self.recompute_hash());
        undo
    }

    /// Exact: the stone lands on one of the mover's winning cells, or fills the board.
    #[inline]
    fn may_end_game(&self, m: Connect4Move) -> bool {
        let dropped = self.landing(m.column());
        self.is_over()
            || self.wins[self.seat_to_move()] & dropped != 0
            || self.occupied() | dropped == FULL
    }

    fn try_apply(&mut self, m: Connect4Move) -> Result<Connect4State, MoveError> {
        notation::parse_move(self, &notation::format_move(m))?;
        Ok(self.apply(m))
    }

    #[inline]
    fn undo(&mut self, undo: Connect4State) {
        *self = undo;
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.hash
    }

    fn recompute_hash(&self) -> u64 {
        let mut h = 0;
        for seat in 0..2 {
            // Every cell of the 49-bit layout, sentinel row included, has a key; only
            // stone cells are set, so this is a plain scan without a bit iterator.
            for p in 0..49 {
                if self.stones[seat] >> p & 1 != 0 {
                    h ^= KEYS[seat * 49 + p];
                }
            }
        }
        if self.seat_to_move() == 1 {
            h ^= KEY_YELLOW_TO_MOVE;
        }
        h
    }

    #[inline]
    fn end(&self) -> Option<game::End> {
        self.end.map(|end| match end {
            End::Four(seat) => game::End::win(seat, FOUR_IN_A_ROW),
            End::Full => game::End::rule(Outcome::Draw, FULL_BOARD),
        })
    }

    fn side(&self, seat: Seat) -> &'static str {
        SIDES[seat]
    }

    fn ply(&self) -> u32 {
        self.occupied().count_ones()
    }

    /// A turn is one drop, so turns are plies (at most 42).
    fn turns(&self) -> u32 {
        self.ply()
    }

    fn format_move(&self, m: Connect4Move) -> String {
        notation::format_move(m)
    }

    fn parse_move(&self, text: &str) -> Result<Connect4Move, MoveError> {
        notation::parse_move(self, text)
    }
}

impl FastPlayout for Connect4State {}

impl Symmetries for Connect4State {}

impl PieRule for Connect4State {}

impl NullMove for Connect4State {}

impl LengthCap for Connect4State {}

impl fmt::Debug for Connect4State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Connect4State")
            .field("red", &format_args!("{:#x}", self.stones[0]))
            .field("yellow", &format_args!("{:#x}", self.stones[1]))
            .field("end", &self.end)
            .field("hash", &format_args!("{:#x}", self.hash))
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play_moves;

    #[test]
    fn display_draws_the_board() {
        let mut s = Connect4.initial_state();
        play_moves(&mut s, "d d c").unwrap();
        let expected = "\
a6  .     .     .     .     .     .     .  g6
a5  .     .     .     .     .     .     .  g5
a4  .     .     .     .     .     .     .  g4
a3  .     .     .     .     .     .     .  g3
a2  .     .     .     Y     .     .     .  g2
a1  .     .     R     R     .     .     .  g1
yellow (seat 1) to drop a stone
legend: R red stone (seat 0) · Y yellow stone (seat 1) · [ ] the last move";
        assert_eq!(s.to_string(), expected);
    }

    #[test]
    fn heights_follow_drops() {
        let mut s = Connect4.initial_state();
        play_moves(&mut s, "a a a b").unwrap();
        assert_eq!((s.height(0), s.height(1), s.height(2)), (3, 1, 0));
        assert_eq!(s.ply(), 4);
    }
}
