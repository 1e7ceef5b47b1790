//! Tug: a token on a line of cells `0..=LENGTH`, a game whose end depends on the path.
//!
//! Each decision moves the token one cell left or right. The token reaching cell 0 wins
//! for seat 0, reaching `LENGTH` wins for seat 1, whoever moved it there. The position is
//! the token's cell and the seat to move; a decision that makes a position occur for
//! the third time loses for the seat that made it (a threefold-repetition rule, as
//! Romgon has). The counts of earlier positions are path history: left out of `Eq` and
//! the hash, as the game API requires, so the same position can be lost, won or still
//! open depending on how it was reached. That is what the tests of
//! [`State::ended_by_history`] need: a table that stored a repetition-dependent value
//! would answer wrongly for another path. Every line ends within `3 · positions` plies.
//!
//! Used by `tests/repetition.rs`.

use std::fmt;

use agon_engine::{
    End, Evaluator, FastPlayout, LengthCap, Move, MoveError, NoChance, NullMove, Outcome, PieRule,
    Seat, State, Symmetries, Turn,
};

/// The last cell; the token starts in the middle.
pub const LENGTH: u8 = 6;

/// Move the token one cell left (towards seat 0's goal) or right.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Step {
    /// One cell towards 0.
    Left,
    /// One cell towards `LENGTH`.
    Right,
}

impl Move for Step {
    fn pack(self) -> u32 {
        self as u32
    }
    fn unpack(code: u32) -> Option<Self> {
        match code {
            0 => Some(Step::Left),
            1 => Some(Step::Right),
            _ => None,
        }
    }
}

/// A Tug position with its path history.
#[derive(Clone, Debug)]
pub struct Tug {
    pub cell: u8,
    pub mover: Seat,
    /// How often each position (`2 · cell + mover`) has occurred on the path so far.
    pub seen: [u8; 2 * (LENGTH as usize + 1)],
    pub end: Option<(Outcome, bool)>,
    pub ply: u32,
}

impl Default for Tug {
    fn default() -> Self {
        let mut t = Tug {
            cell: LENGTH / 2,
            mover: 0,
            seen: [0; 2 * (LENGTH as usize + 1)],
            end: None,
            ply: 0,
        };
        t.seen[t.index()] = 1;
        t
    }
}

impl Tug {
    fn index(&self) -> usize {
        2 * self.cell as usize + self.mover
    }
}

impl PartialEq for Tug {
    /// Positions, not paths: the history is left out.
    fn eq(&self, o: &Self) -> bool {
        (self.cell, self.mover, self.end) == (o.cell, o.mover, o.end)
    }
}
impl Eq for Tug {}

impl fmt::Display for Tug {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cell {} mover {} seen {:?} end {:?}",
            self.cell, self.mover, self.seen, self.end
        )
    }
}

impl State for Tug {
    type Chance = NoChance;
    type Move = Step;
    type Undo = Tug;

    fn turn(&self) -> Turn {
        match self.end {
            Some(_) => Turn::Over,
            None => Turn::Seat(self.mover),
        }
    }
    fn legal_moves(&self, out: &mut Vec<Step>) {
        if self.end.is_none() {
            out.extend([Step::Left, Step::Right]);
        }
    }
    fn max_moves(&self) -> usize {
        2
    }
    fn apply(&mut self, m: Step) -> Tug {
        let undo = self.clone();
        let player = self.mover;
        self.cell = match m {
            Step::Left => self.cell - 1,
            Step::Right => self.cell + 1,
        };
        self.mover = 1 - self.mover;
        self.ply += 1;
        let i = self.index();
        self.seen[i] += 1;
        self.end = if self.cell == 0 {
            Some((Outcome::Win(0), false))
        } else if self.cell == LENGTH {
            Some((Outcome::Win(1), false))
        } else if self.seen[i] == 3 {
            Some((Outcome::Win(1 - player), true))
        } else {
            None
        };
        undo
    }
    fn undo(&mut self, undo: Tug) {
        *self = undo;
    }
    fn hash(&self) -> u64 {
        self.recompute_hash()
    }
    fn recompute_hash(&self) -> u64 {
        let end = match self.end {
            None => 0,
            Some((Outcome::Draw, _)) => 1,
            Some((Outcome::Win(w), _)) => 2 + w as u64,
        };
        // A multiplicative mix, so that table indices spread.
        (u64::from(self.cell) | (self.mover as u64) << 8 | end << 16 | 1 << 32)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }
    fn end(&self) -> Option<End> {
        self.end.map(|(o, repeated)| {
            if repeated {
                End::by_history(o, "repetition")
            } else {
                End::rule(o, "goal")
            }
        })
    }
    fn side(&self, seat: Seat) -> &'static str {
        ["left", "right"][seat]
    }
    fn ply(&self) -> u32 {
        self.ply
    }
    /// The search tests never read turns; each decision counts as one.
    fn turns(&self) -> u32 {
        self.ply
    }
    fn format_move(&self, m: Step) -> String {
        format!("{m:?}").to_lowercase()
    }
    fn parse_move(&self, text: &str) -> Result<Step, MoveError> {
        match (text, self.end) {
            (_, Some(_)) => Err(MoveError::new(text, "the game is over")),
            ("left", None) => Ok(Step::Left),
            ("right", None) => Ok(Step::Right),
            _ => Err(MoveError::new(text, "expected left or right")),
        }
    }
}

impl FastPlayout for Tug {}

impl Symmetries for Tug {}

impl PieRule for Tug {}

impl NullMove for Tug {}

impl LengthCap for Tug {}

/// Nearness of the token to a seat's goal, plus a little for having the move.
#[derive(Clone, Copy, Debug, Default)]
pub struct TugEval;

impl Evaluator<Tug> for TugEval {
    fn heuristic(&self, s: &Tug, seat: Seat) -> i32 {
        let for_seat0 =
            10 * (i32::from(LENGTH) - 2 * i32::from(s.cell)) + if s.mover == 0 { 3 } else { -3 };
        if seat == 0 {
            for_seat0
        } else {
            -for_seat0
        }
    }
    fn bounds(&self) -> (i32, i32) {
        (-1000, 1000)
    }
}
