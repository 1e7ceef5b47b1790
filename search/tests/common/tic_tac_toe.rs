//! Tic-tac-toe: the usual 3×3 game, with an evaluator counting open lines.

use std::fmt;

// `mix`: a reproducible mix of a few fields into a 64-bit key.
use agon_engine::zobrist::splitmix64_mix as mix;
use agon_engine::{
    End, Evaluator, FastPlayout, LengthCap, Move, MoveError, NoChance, NullMove, Outcome, PieRule,
    Seat, State, Symmetries, Turn,
};

/// Mark this cell (0..9, row by row from the top left).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cell(pub u8);

impl Move for Cell {
    fn pack(self) -> u32 {
        u32::from(self.0)
    }
    fn unpack(code: u32) -> Option<Self> {
        (code < 9).then_some(Cell(code as u8))
    }
}

const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

/// A tic-tac-toe position: cells hold 0 (empty), 1 (seat 0) or 2 (seat 1).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct TicTacToe {
    pub cells: [u8; 9],
    pub ply_count: u32,
}

impl TicTacToe {
    fn winner(&self) -> Option<Seat> {
        LINES.iter().find_map(|l| {
            let c = self.cells[l[0]];
            (c != 0 && c == self.cells[l[1]] && c == self.cells[l[2]]).then(|| c as usize - 1)
        })
    }
    fn mover(&self) -> Seat {
        self.cells.iter().filter(|&&c| c != 0).count() % 2
    }
}

impl fmt::Display for TicTacToe {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, c) in self.cells.iter().enumerate() {
            write!(f, "{}", ['.', 'x', 'o'][*c as usize])?;
            if i % 3 == 2 && i < 8 {
                write!(f, "/")?;
            }
        }
        Ok(())
    }
}

impl State for TicTacToe {
    type Chance = NoChance;
    type Move = Cell;
    type Undo = Cell;

    fn turn(&self) -> Turn {
        if self.winner().is_some() || self.cells.iter().all(|&c| c != 0) {
            Turn::Over
        } else {
            Turn::Seat(self.mover())
        }
    }
    fn legal_moves(&self, out: &mut Vec<Cell>) {
        if let Turn::Seat(_) = self.turn() {
            out.extend((0..9).filter(|&i| self.cells[i as usize] == 0).map(Cell));
        }
    }
    fn max_moves(&self) -> usize {
        9
    }
    fn apply(&mut self, m: Cell) -> Cell {
        debug_assert_eq!(self.cells[m.0 as usize], 0);
        self.cells[m.0 as usize] = self.mover() as u8 + 1;
        self.ply_count += 1;
        m
    }
    fn undo(&mut self, m: Cell) {
        self.cells[m.0 as usize] = 0;
        self.ply_count -= 1;
    }
    fn hash(&self) -> u64 {
        self.recompute_hash()
    }
    fn recompute_hash(&self) -> u64 {
        mix(self.cells.iter().fold(0u64, |h, &c| h * 3 + u64::from(c)))
    }
    fn end(&self) -> Option<End> {
        match (self.turn(), self.winner()) {
            (Turn::Over, Some(w)) => Some(End::win(w, "line")),
            (Turn::Over, None) => Some(End::rule(Outcome::Draw, "full")),
            _ => None,
        }
    }
    fn side(&self, seat: Seat) -> &'static str {
        ["x", "o"][seat]
    }
    fn ply(&self) -> u32 {
        self.ply_count
    }
    /// The search tests never read turns; each decision counts as one.
    fn turns(&self) -> u32 {
        self.ply_count
    }
    fn format_move(&self, m: Cell) -> String {
        format!("c{}", m.0)
    }
    fn parse_move(&self, text: &str) -> Result<Cell, MoveError> {
        let m = text
            .strip_prefix('c')
            .and_then(|d| d.parse::<u8>().ok())
            .filter(|&d| d < 9)
            .map(Cell)
            .ok_or_else(|| MoveError::new(text, "expected c0..c8"))?;
        super::legal_here(self, m, text)
    }
}

impl FastPlayout for TicTacToe {}

impl Symmetries for TicTacToe {}

impl PieRule for TicTacToe {}

impl NullMove for TicTacToe {}

impl LengthCap for TicTacToe {}

/// Open lines: a line holding only one seat's marks is worth 1, 4 or 9 to it
/// (by mark count), plus 2 for the centre.
#[derive(Clone, Copy, Debug, Default)]
pub struct TicTacToeEval;

impl Evaluator<TicTacToe> for TicTacToeEval {
    fn heuristic(&self, s: &TicTacToe, seat: Seat) -> i32 {
        let me = seat as u8 + 1;
        let mut v = 0;
        for l in LINES {
            let mine = l.iter().filter(|&&i| s.cells[i] == me).count() as i32;
            let theirs = l
                .iter()
                .filter(|&&i| s.cells[i] != 0 && s.cells[i] != me)
                .count() as i32;
            if theirs == 0 {
                v += mine * mine;
            } else if mine == 0 {
                v -= theirs * theirs;
            }
        }
        v + match s.cells[4] {
            0 => 0,
            c if c == me => 2,
            _ => -2,
        }
    }
    fn bounds(&self) -> (i32, i32) {
        (-100, 100)
    }
    /// After the mark (if it does not end the game), the opponent holds two of some line
    /// whose third cell is empty.
    fn opponent_wins_next(&self, s: &TicTacToe, m: Cell) -> bool {
        let mut after = s.clone();
        after.apply(m);
        if after.outcome().is_some() {
            return false;
        }
        let them = after.mover() as u8 + 1;
        LINES.iter().any(|l| {
            l.iter().filter(|&&i| after.cells[i] == them).count() == 2
                && l.iter().any(|&i| after.cells[i] == 0)
        })
    }
    /// Centre first, then corners, then edges.
    fn move_hint(&self, _s: &TicTacToe, m: Cell) -> u8 {
        match m.0 {
            4 => 2,
            0 | 2 | 6 | 8 => 1,
            _ => 0,
        }
    }
}
