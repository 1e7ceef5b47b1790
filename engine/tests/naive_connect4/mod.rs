//! A naive Connect Four written for the tests alone: a plain 7 × 6 array, indexed
//! `[column][row]` from the bottom left, and a scan of every cell in every direction for
//! four in a row. It shares no code with the engine's bitboards (its own notation
//! reader too), trading speed for being obviously right: the tests use it as a referee
//! at every node of random playouts and to derive perft counts.
//!
//! Every test binary that includes this module uses a different part of it.
#![allow(dead_code)]

/// A position: who holds each cell (seat 0 moves first) and how many stones are down.
#[derive(Clone, Debug, Default)]
pub struct Naive {
    /// `cells[column][row]`, row 0 at the bottom.
    pub cells: [[Option<usize>; 6]; 7],
    /// Stones on the board; the seat to move is `stones % 2`.
    pub stones: usize,
}

impl Naive {
    /// Stones in `column` (0 is `a`).
    pub fn height(&self, column: usize) -> usize {
        self.cells[column].iter().filter(|c| c.is_some()).count()
    }

    /// Drops the mover's stone into `column`; panics if it is full.
    pub fn drop(&mut self, column: usize) {
        let row = self.height(column);
        assert!(row < 6, "column {column} is full");
        self.cells[column][row] = Some(self.stones % 2);
        self.stones += 1;
    }

    /// Whether all 42 cells are filled.
    pub fn is_full(&self) -> bool {
        self.stones == 42
    }

    /// Whether `seat` has four in a row: every start cell, every direction.
    pub fn has_four(&self, seat: usize) -> bool {
        for c in 0..7i32 {
            for r in 0..6i32 {
                for (dc, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
                    let line = (0..4).all(|k| {
                        let (x, y) = (c + k * dc, r + k * dr);
                        (0..7).contains(&x)
                            && (0..6).contains(&y)
                            && self.cells[x as usize][y as usize] == Some(seat)
                    });
                    if line {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// The seat with four in a row. Play stops at the first four, so at most one has.
    pub fn winner(&self) -> Option<usize> {
        match (self.has_four(0), self.has_four(1)) {
            (true, true) => panic!("both seats have four in a row"),
            (true, false) => Some(0),
            (false, true) => Some(1),
            (false, false) => None,
        }
    }

    /// Whether the game is over (a four or a full board).
    pub fn is_over(&self) -> bool {
        self.winner().is_some() || self.is_full()
    }

    /// The columns open to the mover, in order; none once the game is over.
    pub fn legal_columns(&self) -> Vec<usize> {
        if self.is_over() {
            return Vec::new();
        }
        (0..7).filter(|&c| self.height(c) < 6).collect()
    }

    /// The position after `moves` (column letters `a`-`g`, space separated) from the
    /// start, or why a move cannot be played.
    pub fn play(moves: &str) -> Result<Naive, String> {
        let mut p = Naive::default();
        for m in moves.split_whitespace() {
            let column = match m.as_bytes() {
                [c @ b'a'..=b'g'] => usize::from(c - b'a'),
                _ => return Err(format!("{m:?} is not a column")),
            };
            if !p.legal_columns().contains(&column) {
                return Err(format!("{m} cannot be played after {} stones", p.stones));
            }
            p.drop(column);
        }
        Ok(p)
    }

    /// Paths of exactly `depth` plies, none below a finished game.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut total = 0;
        for column in self.legal_columns() {
            let mut next = self.clone();
            next.drop(column);
            total += next.perft(depth - 1);
        }
        total
    }

    /// For each legal column (as its letter), the perft count below it at `depth`.
    pub fn divide(&self, depth: u32) -> Vec<(String, u64)> {
        self.legal_columns()
            .into_iter()
            .map(|column| {
                let mut next = self.clone();
                next.drop(column);
                let letter = char::from(b'a' + column as u8).to_string();
                (letter, next.perft(depth.saturating_sub(1)))
            })
            .collect()
    }
}
