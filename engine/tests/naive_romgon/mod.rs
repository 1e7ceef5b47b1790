//! A naive reference implementation of Romgon, written from the rules spec
//! (described in `docs/games/romgon.md`) alone, for checking the engine.
//!
//! It shares no code with the engine: the board is a plain 7 × 9 array of optional
//! pieces addressed by (row, column), every pattern is computed from the doubled-column
//! coordinates by literal arithmetic, attacks are found by listing every enemy piece's
//! attacked cells, the history keeps whole boards (compared cell by cell, no hashing),
//! and the shuttle counters are a `HashMap`. Every action is tried on a cloned position.
//! It is slow and obvious on purpose. [`Mutation`] breaks one rule at a time, to show
//! that the comparisons with the engine notice.
//!
//! Every test binary that includes this module uses a different part of it.
#![allow(dead_code)]

mod action;
mod board;

use std::collections::HashMap;

use action::letter;
pub use action::NaiveMove;
pub use board::{all_cells, parse_cell};
use board::{ring, ring_of, shift, step, AXES, DEAD, DIRS, FACINGS};

/// A cell as (row, column).
pub type Cell = (usize, usize);

/// A colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Colour {
    /// Moves first, seat 0.
    Black,
    /// Seat 1.
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

    /// The seat that plays it.
    pub fn seat(self) -> usize {
        match self {
            Colour::Black => 0,
            Colour::White => 1,
        }
    }

    /// The cell this colour's Rhombus must reach.
    pub fn goal(self) -> Cell {
        match self {
            Colour::Black => (3, 0),
            Colour::White => (3, 8),
        }
    }
}

/// A piece type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Square.
    S,
    /// Triangle.
    T,
    /// Circle.
    C,
    /// Rhombus.
    R,
    /// Hexagon.
    H,
}

/// A piece: colour, type, and facing (triangle, 0..6) or axis (hexagon, 0..3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece {
    /// Owner.
    pub colour: Colour,
    /// Type.
    pub kind: Kind,
    /// Facing or axis; 0 for the others.
    pub orient: usize,
}

/// A deliberately broken rule; [`Mutation::None`] plays the spec.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mutation {
    /// The rules as written.
    None,
    /// Actions may leave the own Rhombus attacked.
    NoSelfAttack,
    /// Shape Defence plays the Original exemption.
    ShapeLikeOriginal,
    /// No deadlock rule.
    NoDeadlock,
    /// The second occurrence of a position already loses.
    Twofold,
    /// A shuttle counter loses one move early (at 4 under the rulebook).
    ShuttleAtFour,
    /// A circle's ring slide stops at the end of the listed order (no wrap-around).
    CircleNoWrap,
    /// A hexagon has only its two axis neighbours.
    HexagonNoFan,
    /// A capture may also be followed by a new orientation.
    TurnAfterCapture,
}

/// Rules for the naive implementation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Rhombus Original instead of Shape Defence.
    pub original: bool,
    /// rotation=step instead of any.
    pub step: bool,
    /// Length cap.
    pub max_actions: u32,
    /// The shuttle count that loses (5 in the rulebook).
    pub shuttle_limit: u32,
    /// A broken rule, or none.
    pub mutation: Mutation,
}

impl Rules {
    /// The rules with no mutation.
    pub fn new(original: bool, step: bool, max_actions: u32) -> Rules {
        Rules {
            original,
            step,
            max_actions,
            shuttle_limit: 5,
            mutation: Mutation::None,
        }
    }

    /// The same rules with another shuttle limit.
    pub fn with_shuttle_limit(self, shuttle_limit: u32) -> Rules {
        Rules {
            shuttle_limit,
            ..self
        }
    }

    /// The same rules with a broken rule.
    pub fn with(self, mutation: Mutation) -> Rules {
        Rules { mutation, ..self }
    }
}

/// The board: `board[r][c]`.
pub type Board = [[Option<Piece>; 9]; 7];

/// Who won, if the game is over: `Some(None)` a draw.
pub type Winner = Option<Option<Colour>>;

/// A position with its history.
#[derive(Clone, Debug)]
pub struct Position {
    /// The rules.
    pub rules: Rules,
    /// The pieces.
    pub board: Board,
    /// Whose turn.
    pub to_move: Colour,
    /// Actions played.
    pub ply: u32,
    /// Every position so far (board and side to move), the current one included.
    pub history: Vec<(Board, Colour)>,
    /// Shuttle counters by (colour, kind, lower cell, higher cell).
    pub counters: HashMap<(Colour, Kind, Cell, Cell), u32>,
    /// The result, once over.
    pub winner: Winner,
    /// Why it ended.
    pub reason: Option<&'static str>,
}

fn piece_of(token: &str) -> (Cell, Piece) {
    let mut chars = token.chars();
    let l = chars.next().unwrap();
    let rest: String = chars.collect();
    let kind = match l.to_ascii_uppercase() {
        'S' => Kind::S,
        'T' => Kind::T,
        'C' => Kind::C,
        'R' => Kind::R,
        'H' => Kind::H,
        _ => panic!("bad piece {token}"),
    };
    let colour = if l.is_ascii_uppercase() {
        Colour::White
    } else {
        Colour::Black
    };
    let (cell_text, orient) = match rest.split_once('@') {
        Some((c, o)) => {
            let list: &[&str] = if kind == Kind::T { &FACINGS } else { &AXES };
            (c.to_string(), list.iter().position(|&n| n == o).unwrap())
        }
        None => (rest.clone(), 0),
    };
    (
        parse_cell(&cell_text).unwrap(),
        Piece {
            colour,
            kind,
            orient,
        },
    )
}

impl Position {
    /// The initial position.
    pub fn start(rules: Rules) -> Position {
        Position::setup(
            rules,
            "S0-0 S6-0 T1-0@E T5-0@E C2-0 R3-0 H4-0@E s0-5 s6-5 t1-6@W t5-6@W c4-7 r3-8 h2-7@E",
            Colour::Black,
        )
    }

    /// A position from a piece list (the engine's test-support format), no history.
    pub fn setup(rules: Rules, pieces: &str, to_move: Colour) -> Position {
        let mut board: Board = [[None; 9]; 7];
        for token in pieces.split_whitespace() {
            let (cell, piece) = piece_of(token);
            board[cell.0][cell.1] = Some(piece);
        }
        let mut p = Position {
            rules,
            board,
            to_move,
            ply: 0,
            history: vec![(board, to_move)],
            counters: HashMap::new(),
            winner: None,
            reason: None,
        };
        if p.legal_moves().is_empty() {
            p.winner = Some(Some(to_move.other()));
            p.reason = Some("draglock");
        }
        p
    }

    fn get(&self, cell: Cell) -> Option<Piece> {
        self.board[cell.0][cell.1]
    }

    fn rhombus(&self, colour: Colour) -> Option<Cell> {
        all_cells().into_iter().find(|&c| {
            self.get(c)
                .is_some_and(|p| p.colour == colour && p.kind == Kind::R)
        })
    }

    /// Cells along the ring from `cell` over empty cells, plus the first occupied cell
    /// each way.
    fn ring_walk(&self, cell: Cell) -> Vec<Cell> {
        let Some((z, i)) = ring_of(cell) else {
            return Vec::new();
        };
        let cells = ring(z);
        let n = cells.len() as i32;
        let mut out = Vec::new();
        for dir in [1i32, -1] {
            let mut k = 1;
            while k < n {
                let j = i as i32 + dir * k;
                if self.rules.mutation == Mutation::CircleNoWrap && !(0..n).contains(&j) {
                    break;
                }
                let q = cells[j.rem_euclid(n) as usize];
                if !out.contains(&q) {
                    out.push(q);
                }
                if self.get(q).is_some() {
                    break;
                }
                k += 1;
            }
        }
        out
    }

    /// Cells the pattern of the piece on `cell` covers, whatever stands there (a
    /// circle: its ring walk; a Rhombus: its pattern cells, not the diagonal ones).
    fn pattern(&self, cell: Cell, p: Piece) -> Vec<Cell> {
        let mut out = Vec::new();
        match p.kind {
            Kind::S => {
                for (dr, dx) in [(-1, 1), (-1, -1), (1, 1), (1, -1)] {
                    out.extend(shift(cell, dr, dx));
                }
            }
            Kind::T => {
                for d in [(p.orient + 5) % 6, p.orient, (p.orient + 1) % 6] {
                    out.extend(step(cell, d));
                }
            }
            Kind::H => {
                for e in [p.orient, p.orient + 3] {
                    out.extend(step(cell, e));
                    if self.rules.mutation == Mutation::HexagonNoFan {
                        continue;
                    }
                    for side in [(e + 5) % 6, (e + 1) % 6] {
                        let (dr, dx) = (DIRS[e].0 + DIRS[side].0, DIRS[e].1 + DIRS[side].1);
                        out.extend(shift(cell, dr, dx));
                    }
                }
            }
            Kind::R => {
                for (dr, dx) in [(0, 2), (0, 4), (0, -2), (0, -4), (-2, 0), (2, 0)] {
                    out.extend(shift(cell, dr, dx));
                }
            }
            Kind::C => out = self.ring_walk(cell),
        }
        out
    }

    /// Whether some piece of `by` attacks `cell`.
    fn attacked(&self, cell: Cell, by: Colour) -> bool {
        all_cells().into_iter().any(|q| match self.get(q) {
            Some(p) if p.colour == by && p.kind != Kind::R => self.pattern(q, p).contains(&cell),
            _ => false,
        })
    }

    /// Rhombus diagonal targets of `cell`: empty or not.
    fn diagonals(cell: Cell) -> Vec<Cell> {
        let mut out = Vec::new();
        for (dr, dx) in [(-1, 1), (-1, -1), (1, 1), (1, -1)] {
            if let Some(q) = shift(cell, dr, dx) {
                if DEAD.contains(&cell) || DEAD.contains(&q) {
                    out.push(q);
                }
            }
        }
        out
    }

    /// Target cells of the piece on `cell` by the movement rules (no self-attack check).
    fn targets(&self, cell: Cell, p: Piece) -> Vec<Cell> {
        let friendly = |q: Cell| self.get(q).is_some_and(|o| o.colour == p.colour);
        let mut out: Vec<Cell> = match p.kind {
            Kind::R => {
                let mut v: Vec<Cell> = self
                    .pattern(cell, p)
                    .into_iter()
                    .filter(|&q| !self.get(q).is_some_and(|o| o.kind == Kind::R))
                    .collect();
                v.extend(
                    Self::diagonals(cell)
                        .into_iter()
                        .filter(|&q| self.get(q).is_none()),
                );
                v
            }
            Kind::C => {
                let mut v = self.ring_walk(cell);
                if let Some((z, _)) = ring_of(cell) {
                    for d in 0..6 {
                        if let Some(q) = step(cell, d) {
                            if let Some((z2, _)) = ring_of(q) {
                                if z.abs_diff(z2) == 1 && self.get(q).is_none() {
                                    v.push(q);
                                }
                            }
                        }
                    }
                }
                v
            }
            _ => self.pattern(cell, p),
        };
        out.retain(|&q| !friendly(q));
        out
    }

    fn finals(&self, p: Piece) -> Vec<usize> {
        match p.kind {
            Kind::T if self.rules.step => {
                vec![p.orient, (p.orient + 1) % 6, (p.orient + 5) % 6]
            }
            Kind::T => (0..6).collect(),
            Kind::H => (0..3).collect(),
            _ => Vec::new(),
        }
    }

    /// Whether `colour`'s Rhombus is attacked (false without one).
    fn in_check(&self, colour: Colour) -> bool {
        self.rhombus(colour)
            .is_some_and(|r| self.attacked(r, colour.other()))
    }

    /// A position with `board` and no history or counters: what attack questions need.
    fn bare(&self, board: Board) -> Position {
        Position {
            rules: self.rules,
            board,
            to_move: self.to_move,
            ply: self.ply,
            history: Vec::new(),
            counters: HashMap::new(),
            winner: None,
            reason: None,
        }
    }

    fn with_move(&self, from: Cell, to: Cell, piece: Piece) -> Position {
        let mut board = self.board;
        board[from.0][from.1] = None;
        board[to.0][to.1] = Some(piece);
        self.bare(board)
    }

    /// Every legal action of the side to move (nothing once over).
    pub fn legal_moves(&self) -> Vec<NaiveMove> {
        if self.winner.is_some() {
            return Vec::new();
        }
        let me = self.to_move;
        let original = self.rules.original || self.rules.mutation == Mutation::ShapeLikeOriginal;
        let check_safe =
            |n: &Position| self.rules.mutation == Mutation::NoSelfAttack || !n.in_check(me);
        let mut out = Vec::new();
        for cell in all_cells() {
            let Some(p) = self.get(cell) else { continue };
            if p.colour != me {
                continue;
            }
            let l = letter(p);
            for to in self.targets(cell, p) {
                let capture = self.get(to).is_some();
                let base_entry = p.kind == Kind::R && to == me.goal() && original;
                if !base_entry && !check_safe(&self.with_move(cell, to, p)) {
                    continue;
                }
                let finals = self.finals(p);
                if capture {
                    if self.rules.mutation == Mutation::TurnAfterCapture && !finals.is_empty() {
                        for o in finals {
                            out.push(NaiveMove::Capture {
                                letter: l,
                                from: cell,
                                to,
                                orient: Some((p.kind, o)),
                            });
                        }
                    } else {
                        out.push(NaiveMove::Capture {
                            letter: l,
                            from: cell,
                            to,
                            orient: None,
                        });
                    }
                } else if finals.is_empty() {
                    out.push(NaiveMove::Move {
                        letter: l,
                        from: cell,
                        to,
                        orient: None,
                    });
                } else {
                    for o in finals {
                        out.push(NaiveMove::Move {
                            letter: l,
                            from: cell,
                            to,
                            orient: Some((p.kind, o)),
                        });
                    }
                }
            }
            for o in self.finals(p) {
                if o == p.orient {
                    continue;
                }
                let mut board = self.board;
                board[cell.0][cell.1] = Some(Piece { orient: o, ..p });
                if check_safe(&self.bare(board)) {
                    out.push(NaiveMove::Rotate {
                        letter: l,
                        at: cell,
                        orient: (p.kind, o),
                    });
                }
            }
        }
        out
    }

    /// Whether `colour` is deadlocked (see the rules).
    fn deadlocked(&self, colour: Colour) -> bool {
        if self.rules.mutation == Mutation::NoDeadlock {
            return false;
        }
        let Some(r) = self.rhombus(colour) else {
            return false;
        };
        if !self.attacked(r, colour.other()) {
            return false;
        }
        let p = self.get(r).unwrap();
        let original = self.rules.original || self.rules.mutation == Mutation::ShapeLikeOriginal;
        !self.targets(r, p).into_iter().any(|to| {
            (original && to == colour.goal()) || !self.with_move(r, to, p).in_check(colour)
        })
    }

    /// Plays a legal action.
    pub fn apply(&mut self, m: NaiveMove) {
        let mover = self.to_move;
        let (from, to, new_orient, capture) = match m {
            NaiveMove::Move {
                from, to, orient, ..
            } => (from, to, orient.map(|o| o.1), false),
            NaiveMove::Capture {
                from, to, orient, ..
            } => (from, to, orient.map(|o| o.1), true),
            NaiveMove::Rotate { at, orient, .. } => (at, at, Some(orient.1), false),
        };
        let piece = self.get(from).unwrap();
        let captured = if capture { self.get(to) } else { None };
        let moved = Piece {
            orient: new_orient.unwrap_or(piece.orient),
            ..piece
        };
        self.board[from.0][from.1] = None;
        self.board[to.0][to.1] = Some(moved);
        let mut shuttle = false;
        if let NaiveMove::Move { .. } = m {
            let key = (mover, piece.kind, from.min(to), from.max(to));
            let count = self.counters.entry(key).or_insert(0);
            *count += 1;
            let limit = if self.rules.mutation == Mutation::ShuttleAtFour {
                self.rules.shuttle_limit - 1
            } else {
                self.rules.shuttle_limit
            };
            shuttle = *count >= limit;
        }
        self.to_move = mover.other();
        self.ply += 1;
        self.history.push((self.board, self.to_move));
        let occurrences = self
            .history
            .iter()
            .filter(|(b, c)| *b == self.board && *c == self.to_move)
            .count();
        let repeated = if self.rules.mutation == Mutation::Twofold {
            2
        } else {
            3
        };
        let end = if piece.kind == Kind::R && to == mover.goal() {
            Some((Some(mover), "fortress"))
        } else if captured.is_some_and(|c| c.kind == Kind::R) {
            Some((Some(mover), "capture"))
        } else if self.deadlocked(mover.other()) {
            Some((Some(mover), "deadlock"))
        } else if occurrences >= repeated {
            Some((Some(mover.other()), "repetition"))
        } else if shuttle {
            Some((Some(mover.other()), "shuttle"))
        } else if self.legal_moves().is_empty() {
            Some((Some(mover), "draglock"))
        } else if self.ply >= self.rules.max_actions {
            Some((None, "cap"))
        } else {
            None
        };
        if let Some((w, reason)) = end {
            self.winner = Some(w);
            self.reason = Some(reason);
        }
    }

    /// Plays a space-separated list of actions in the notation (as this module prints
    /// them).
    pub fn play(&mut self, moves: &str) -> Result<(), String> {
        for text in moves.split_whitespace() {
            let m = self
                .legal_moves()
                .into_iter()
                .find(|m| m.to_string() == text)
                .ok_or_else(|| format!("naive: {text} is not legal after {} plies", self.ply))?;
            self.apply(m);
        }
        Ok(())
    }
}

/// Paths of exactly `depth` plies.
pub fn perft(p: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = p.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .into_iter()
        .map(|m| {
            let mut n = p.clone();
            n.apply(m);
            perft(&n, depth - 1)
        })
        .sum()
}

/// Perft below each first move, by its notation.
pub fn divide(p: &Position, depth: u32) -> Vec<(String, u64)> {
    p.legal_moves()
        .into_iter()
        .map(|m| {
            let mut n = p.clone();
            n.apply(m);
            (m.to_string(), perft(&n, depth.saturating_sub(1)))
        })
        .collect()
}
