//! A naive reference implementation of Invector, written from the rules spec
//! (described in `docs/games/invector.md`) alone, for checking the engine.
//!
//! It shares no code with the engine: the board is a plain `Vec` of cells, every rule is
//! a straightforward loop over cells and directions, and it has its own printer and
//! parser for the notation. It trades speed for being obviously right (positions are
//! cloned per move, stones counted by scanning): the tests use it to derive perft
//! counts, to cross-check the engine's legal moves node by node, and (through
//! [`Mutation`]) to show that those comparisons notice a broken rule.
//!
//! Every test binary that includes this module uses a different part of it.
#![allow(dead_code)]

use std::fmt;

/// A colour of stones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Colour {
    /// Plays first (seat 0 unless the pie rule swapped the seats).
    Black,
    /// Plays second; may swap on its first turn.
    White,
}

impl Colour {
    /// The other colour.
    pub fn other(self) -> Colour {
        match self {
            Colour::Black => Colour::White,
            Colour::White => Colour::Black,
        }
    }

    /// The colour as the engine names sides.
    pub fn name(self) -> &'static str {
        match self {
            Colour::Black => "black",
            Colour::White => "white",
        }
    }
}

/// A deliberately broken rule, to show that the tests' comparisons are sensitive.
/// [`Mutation::None`] plays the rules of the spec.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mutation {
    /// The rules as written.
    None,
    /// A stone may also step from one centre pit to the other (both have D = 0).
    CentreStep,
    /// After a swap, the next decision may be a swap again.
    SwapAfterSwap,
    /// A stuck player has no decision at all instead of a forced `pass`.
    NoForcedPass,
    /// A step may also go to an empty neighbour at the same distance (D(q) <= D(p)).
    StepSideways,
    /// A capture may only go up or down the board, not left or right.
    VerticalCapturesOnly,
    /// The game does not end when a side loses its last stone (play goes on).
    NoElimination,
}

/// Board size, variant and (for sensitivity tests) a mutation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Columns, W.
    pub width: usize,
    /// Rows, H.
    pub height: usize,
    /// Whether White may swap on its first turn.
    pub pie: bool,
    /// A broken rule, or [`Mutation::None`].
    pub mutation: Mutation,
}

impl Rules {
    /// Checks the size against the spec: 1 <= W, H <= 16, W·H <= 128, exactly one even.
    pub fn new(width: usize, height: usize, pie: bool) -> Result<Rules, String> {
        if !(1..=16).contains(&width) || !(1..=16).contains(&height) {
            return Err(format!("{width}x{height}: sides must be 1..16"));
        }
        if width * height > 128 {
            return Err(format!("{width}x{height}: more than 128 cells"));
        }
        if (width % 2 == 0) == (height % 2 == 0) {
            return Err(format!("{width}x{height}: exactly one side must be even"));
        }
        Ok(Rules {
            width,
            height,
            pie,
            mutation: Mutation::None,
        })
    }

    /// The same rules with a mutation.
    pub fn with(self, mutation: Mutation) -> Rules {
        Rules { mutation, ..self }
    }

    /// The two centre pits, as (x, y).
    pub fn centre_pits(&self) -> [(usize, usize); 2] {
        let (w, h) = (self.width, self.height);
        if w % 2 == 0 {
            // W even, H odd: side by side on the middle row.
            [(w / 2 - 1, (h - 1) / 2), (w / 2, (h - 1) / 2)]
        } else {
            // W odd, H even: one above the other in the middle column.
            [((w - 1) / 2, h / 2 - 1), ((w - 1) / 2, h / 2)]
        }
    }

    /// D(p): the smaller Manhattan distance from (x, y) to a centre pit.
    pub fn distance(&self, x: usize, y: usize) -> usize {
        let mut best = usize::MAX;
        for (cx, cy) in self.centre_pits() {
            let d = x.abs_diff(cx) + y.abs_diff(cy);
            if d < best {
                best = d;
            }
        }
        best
    }

    /// Whether (x, y) is one of the centre pits.
    pub fn is_centre(&self, x: usize, y: usize) -> bool {
        self.centre_pits().contains(&(x, y))
    }

    /// The starting position.
    pub fn start(&self) -> Position {
        let mut cells = Vec::new();
        for y in 0..self.height {
            for x in 0..self.width {
                // a1 = (0, 0) is Black: a full checkerboard.
                if (x + y) % 2 == 0 {
                    cells.push(Some(Colour::Black));
                } else {
                    cells.push(Some(Colour::White));
                }
            }
        }
        Position {
            rules: *self,
            cells,
            black_seat: 0,
            to_move: Colour::Black,
            plies: 0,
            last_was_swap: false,
            winner: None,
        }
    }

    /// The rules as a short label, e.g. `5x4 pie=true`.
    pub fn label(&self) -> String {
        format!("{}x{} pie={}", self.width, self.height, self.pie)
    }
}

/// A decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NaiveMove {
    /// Onto an empty, closer neighbour: from (x, y), to (x, y).
    Step((usize, usize), (usize, usize)),
    /// Onto a neighbour holding an enemy stone, which is removed.
    Capture((usize, usize), (usize, usize)),
    /// The forced skip of a stuck player.
    Pass,
    /// The pie rule: the seats exchange colours.
    Swap,
}

/// A cell's name: column letter and row number (`a1` is (0, 0)).
pub fn cell_name(x: usize, y: usize) -> String {
    let letter = (b'a' + x as u8) as char;
    format!("{letter}{}", y + 1)
}

impl fmt::Display for NaiveMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            NaiveMove::Step((fx, fy), (tx, ty)) => {
                write!(f, "{}-{}", cell_name(fx, fy), cell_name(tx, ty))
            }
            NaiveMove::Capture((fx, fy), (tx, ty)) => {
                write!(f, "{}x{}", cell_name(fx, fy), cell_name(tx, ty))
            }
            NaiveMove::Pass => f.write_str("pass"),
            NaiveMove::Swap => f.write_str("swap"),
        }
    }
}

/// Who acts: a seat, or nobody because the game is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NaiveTurn {
    /// This seat decides.
    Seat(usize),
    /// The game is over.
    Over,
}

/// One position: the cells, who plays which colour, whose turn, and the result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    /// The rules this position is played under.
    pub rules: Rules,
    /// Row-major cells, index `y * width + x`.
    cells: Vec<Option<Colour>>,
    /// Which seat plays Black (1 after a swap).
    black_seat: usize,
    /// The colour whose decision it is.
    to_move: Colour,
    /// Decisions made since the start.
    plies: usize,
    /// Whether the last decision was a swap (only [`Mutation::SwapAfterSwap`] looks).
    last_was_swap: bool,
    /// The winning seat once the game is over.
    winner: Option<usize>,
}

/// The four orthogonal directions.
const DIRECTIONS: [(isize, isize); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];

impl Position {
    /// The stone on (x, y), if any.
    pub fn at(&self, x: usize, y: usize) -> Option<Colour> {
        self.cells[y * self.rules.width + x]
    }

    fn set(&mut self, x: usize, y: usize, value: Option<Colour>) {
        let w = self.rules.width;
        self.cells[y * w + x] = value;
    }

    /// The neighbour of (x, y) in direction (dx, dy), if on the board.
    fn neighbour(&self, x: usize, y: usize, (dx, dy): (isize, isize)) -> Option<(usize, usize)> {
        let nx = x as isize + dx;
        let ny = y as isize + dy;
        if nx < 0 || ny < 0 || nx >= self.rules.width as isize || ny >= self.rules.height as isize {
            return None;
        }
        Some((nx as usize, ny as usize))
    }

    /// The seat playing `colour`.
    pub fn seat_of(&self, colour: Colour) -> usize {
        match colour {
            Colour::Black => self.black_seat,
            Colour::White => 1 - self.black_seat,
        }
    }

    /// The colour `seat` plays.
    pub fn colour_of(&self, seat: usize) -> Colour {
        if seat == self.black_seat {
            Colour::Black
        } else {
            Colour::White
        }
    }

    /// Who decides now.
    pub fn turn(&self) -> NaiveTurn {
        if self.winner.is_some() {
            NaiveTurn::Over
        } else {
            NaiveTurn::Seat(self.seat_of(self.to_move))
        }
    }

    /// The winning seat, once the game is over.
    pub fn winner(&self) -> Option<usize> {
        self.winner
    }

    /// Decisions made so far.
    pub fn plies(&self) -> usize {
        self.plies
    }

    /// Stones of `colour` on the board.
    pub fn count(&self, colour: Colour) -> usize {
        self.cells.iter().filter(|c| **c == Some(colour)).count()
    }

    /// Every legal decision, in a fixed order (captures and steps by cell, then pass,
    /// then swap).
    pub fn legal_moves(&self) -> Vec<NaiveMove> {
        let mut out = Vec::new();
        if self.winner.is_some() {
            return out;
        }
        let rules = self.rules;
        let me = self.to_move;
        for y in 0..rules.height {
            for x in 0..rules.width {
                if self.at(x, y) != Some(me) {
                    continue;
                }
                for dir in DIRECTIONS {
                    let Some((nx, ny)) = self.neighbour(x, y, dir) else {
                        continue;
                    };
                    match self.at(nx, ny) {
                        Some(c) if c != me => {
                            let vertical = dir.0 == 0;
                            if rules.mutation == Mutation::VerticalCapturesOnly && !vertical {
                                continue;
                            }
                            out.push(NaiveMove::Capture((x, y), (nx, ny)));
                        }
                        Some(_) => {}
                        None => {
                            let from = rules.distance(x, y);
                            let to = rules.distance(nx, ny);
                            let closer = to < from;
                            let allowed = match rules.mutation {
                                Mutation::CentreStep => {
                                    closer || (rules.is_centre(x, y) && rules.is_centre(nx, ny))
                                }
                                Mutation::StepSideways => to <= from,
                                _ => closer,
                            };
                            if allowed {
                                out.push(NaiveMove::Step((x, y), (nx, ny)));
                            }
                        }
                    }
                }
            }
        }
        if out.is_empty() && rules.mutation != Mutation::NoForcedPass {
            out.push(NaiveMove::Pass);
        }
        // The pie rule: only as the second decision of the game (White's first turn).
        let swap_now = rules.pie && self.plies == 1;
        let swap_again =
            rules.mutation == Mutation::SwapAfterSwap && rules.pie && self.last_was_swap;
        if swap_now || swap_again {
            out.push(NaiveMove::Swap);
        }
        out
    }

    /// Plays a decision (assumed legal).
    pub fn apply(&mut self, m: NaiveMove) {
        let mover = self.to_move;
        self.last_was_swap = false;
        match m {
            NaiveMove::Step((fx, fy), (tx, ty)) => {
                self.set(fx, fy, None);
                self.set(tx, ty, Some(mover));
                self.to_move = mover.other();
            }
            NaiveMove::Capture((fx, fy), (tx, ty)) => {
                self.set(fx, fy, None);
                self.set(tx, ty, Some(mover));
                let elimination = self.rules.mutation != Mutation::NoElimination;
                if elimination && self.count(mover.other()) == 0 {
                    self.winner = Some(self.seat_of(mover));
                }
                self.to_move = mover.other();
            }
            NaiveMove::Pass => {
                self.to_move = mover.other();
            }
            NaiveMove::Swap => {
                // The seats exchange colours; it stays White's turn, so the seat that
                // made the first move (now White) decides next.
                self.black_seat = 1 - self.black_seat;
                self.last_was_swap = true;
            }
        }
        self.plies += 1;
    }

    /// The legal decisions in notation.
    pub fn legal_texts(&self) -> Vec<String> {
        self.legal_moves().iter().map(|m| m.to_string()).collect()
    }

    /// Finds the legal decision written as `text` (`c3-d3` is accepted for the capture
    /// `c3xd3`, as the spec allows).
    pub fn parse(&self, text: &str) -> Result<NaiveMove, String> {
        let moves = self.legal_moves();
        for m in &moves {
            let printed = m.to_string();
            if printed == text {
                return Ok(*m);
            }
            if let NaiveMove::Capture(..) = m {
                if printed.replace('x', "-") == text {
                    return Ok(*m);
                }
            }
        }
        Err(format!(
            "{text:?} is not legal at ply {} on {}; legal: {}",
            self.plies,
            self.rules.label(),
            self.legal_texts().join(" ")
        ))
    }

    /// Plays a space-separated move list.
    pub fn play(&mut self, moves: &str) -> Result<(), String> {
        for text in moves.split_whitespace() {
            let m = self.parse(text)?;
            self.apply(m);
        }
        Ok(())
    }
}

/// Paths of exactly `depth` decisions from `pos` (a finished game counts nothing).
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = pos.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut total = 0;
    for m in moves {
        let mut child = pos.clone();
        child.apply(m);
        total += perft(&child, depth - 1);
    }
    total
}

/// For each first decision, in notation, the perft count below it at `depth`.
pub fn divide(pos: &Position, depth: u32) -> Vec<(String, u64)> {
    let mut out = Vec::new();
    if depth == 0 {
        return out;
    }
    for m in pos.legal_moves() {
        let mut child = pos.clone();
        child.apply(m);
        out.push((m.to_string(), perft(&child, depth - 1)));
    }
    out
}

/// How often each kind of decision and event occurs at the last ply of the paths that
/// perft counts: to choose test positions whose subtrees exercise every rule.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Kinds {
    /// Captures that do not end the game.
    pub captures: u64,
    /// Steps.
    pub steps: u64,
    /// Forced passes.
    pub passes: u64,
    /// Swaps.
    pub swaps: u64,
    /// Captures that end the game.
    pub ends: u64,
}

/// Counts the kinds of every decision within `depth` plies of `pos` (at every ply, not
/// only the last).
pub fn kinds(pos: &Position, depth: u32, into: &mut Kinds) {
    if depth == 0 {
        return;
    }
    for m in pos.legal_moves() {
        let mut child = pos.clone();
        child.apply(m);
        match m {
            NaiveMove::Step(..) => into.steps += 1,
            NaiveMove::Capture(..) if child.winner.is_some() => into.ends += 1,
            NaiveMove::Capture(..) => into.captures += 1,
            NaiveMove::Pass => into.passes += 1,
            NaiveMove::Swap => into.swaps += 1,
        }
        kinds(&child, depth - 1, into);
    }
}

impl fmt::Display for Position {
    /// The board as text, top row first: `b` Black, `w` White, `.` empty.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for y in (0..self.rules.height).rev() {
            for x in 0..self.rules.width {
                let c = match self.at(x, y) {
                    Some(Colour::Black) => 'b',
                    Some(Colour::White) => 'w',
                    None => '.',
                };
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        write!(
            f,
            "to move: {} (seat {}), ply {}",
            self.to_move.name(),
            self.seat_of(self.to_move),
            self.plies
        )
    }
}
