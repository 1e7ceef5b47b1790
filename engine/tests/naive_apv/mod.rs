//! A naive reference implementation of APV, written from the rules spec
//! (described in `docs/games/apv.md`) alone, for checking the engine.
//!
//! It shares no code with the engine: the board is a 9 × 9 array of optional units
//! indexed by axial coordinates (cells with `|q + r| > 4` simply never used), every rule
//! is a literal loop over directions and distances, the turn is a small state machine
//! that follows the spec's three parts word by word, and it has its own printer and
//! parser of the notation. It trades speed for being obviously right (positions are
//! cloned per move). Tests use it to derive perft counts, to cross-check the engine node
//! by node, to count the rare events (fired, fizzled and blocked orders, Limited Orders
//! refusals) below a position, and (through [`Mutation`]) to show that those comparisons
//! notice a broken rule.
//!
//! Every test binary that includes this module uses a different part of it.
#![allow(dead_code)]

use std::fmt;

/// The six directions, in the spec's order.
pub const DIRS: [(i32, i32); 6] = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)];

/// A unit type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Pivot,
    Axis,
    Veil,
    Turned,
}

/// A deliberately broken rule, to show that the tests' comparisons are sensitive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mutation {
    /// The rules as written.
    None,
    /// An Axis may slide over occupied cells (only its destination must be empty).
    AxisJumps,
    /// A fired order moves its unit whenever the destination is empty, even through a
    /// blocked Axis path.
    FiringIgnoresPath,
    /// An order may name the unit that just made the primary move.
    OrderJustMoved,
    /// No end check after a fired order (only after primary moves).
    NoEndCheckAfterFiring,
    /// Both Pivots shut in by one displacement: the side that moved wins, not a draw.
    BothImmobilisedMoverWins,
    /// Limited Orders is ignored: a side may always order.
    LimitedIgnored,
    /// The cap is checked after the next side's order fires instead of before.
    CapAfterFiring,
    /// The knob `order_delay` is ignored: every order fires at the next turn.
    DelayIgnored,
    /// A waiting order outlives a primary move of its unit (and then fizzles, its cell
    /// being empty), instead of being cancelled by it.
    OrderOutlivesItsUnit,
    /// The knob `south_extra` is ignored: South starts with North's army.
    ExtraIgnored,
}

/// The rules' parameters and (for sensitivity tests) a mutation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    pub orders: bool,
    pub limited: bool,
    pub max_turns: u32,
    /// The designer's knobs: Axes, Veils and Turned Veils per side in the setup.
    pub army: [usize; 3],
    /// The designer's knob `south_extra`: one more unit of this kind for South.
    pub extra: Option<Kind>,
    /// The designer's knob `order_delay`: an order fires at the start of this many-th
    /// turn of its side after it was issued.
    pub delay: u32,
    pub mutation: Mutation,
}

/// The setup's cells for Axes, Veils and Turned Veils, North's, in the order the
/// documented knobs fill them (South's are these turned half a turn).
const SLOTS: [(Kind, [Cell; 4]); 3] = [
    (Kind::Axis, [(-1, 3), (1, 3), (-2, 3), (2, 2)]),
    (Kind::Veil, [(-1, 2), (1, 2), (-2, 2), (2, 1)]),
    (Kind::Turned, [(0, 3), (0, 2), (0, 1), (1, 1)]),
];

impl Rules {
    pub fn new(orders: bool, limited: bool, max_turns: u32) -> Rules {
        Rules {
            orders,
            limited,
            max_turns,
            army: [2, 2, 2],
            extra: None,
            delay: 1,
            mutation: Mutation::None,
        }
    }

    /// The same rules with the designer's knobs.
    pub fn with_knobs(self, army: [usize; 3], extra: Option<Kind>, delay: u32) -> Rules {
        Rules {
            army,
            extra,
            delay,
            ..self
        }
    }

    /// The same rules with a mutation.
    pub fn with(self, mutation: Mutation) -> Rules {
        Rules { mutation, ..self }
    }

    /// The spec's initial position.
    pub fn start(&self) -> Position {
        let mut board = [[None; 9]; 9];
        let mut put = |side: usize, kind: Kind, (q, r): Cell| {
            let (q, r) = if side == 0 { (q, r) } else { (-q, -r) };
            let square = &mut board[(q + 4) as usize][(r + 4) as usize];
            assert!(square.is_none());
            *square = Some((side, kind));
        };
        for side in 0..2 {
            put(side, Kind::Pivot, (0, 4));
            for (i, (kind, cells)) in SLOTS.iter().enumerate() {
                let mut n = self.army[i];
                if side == 1 && self.extra == Some(*kind) && self.mutation != Mutation::ExtraIgnored
                {
                    n += 1;
                }
                for &c in &cells[..n] {
                    put(side, *kind, c);
                }
            }
        }
        Position {
            rules: *self,
            board,
            pending: [None, None],
            waits: [0, 0],
            to_move: 0,
            moved: None,
            issued_last: [false, false],
            result: None,
            turns: 0,
            plies: 0,
        }
    }
}

/// A cell as axial coordinates.
pub type Cell = (i32, i32);

/// Whether a cell is on the hexagon.
pub fn on_board((q, r): Cell) -> bool {
    q.abs() <= 4 && r.abs() <= 4 && (q + r).abs() <= 4
}

/// The spec's name of a cell.
pub fn name((q, r): Cell) -> String {
    let letters = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'];
    format!("{}{}", letters[(q + 4) as usize], r + 5)
}

/// One decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NaiveMove {
    Primary(Cell, Cell),
    Order(Cell, Cell),
    NoOrder,
}

impl fmt::Display for NaiveMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            NaiveMove::Primary(a, b) => write!(f, "{}-{}", name(a), name(b)),
            NaiveMove::Order(a, b) => write!(f, "order:{}-{}", name(a), name(b)),
            NaiveMove::NoOrder => write!(f, "no-order"),
        }
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NaiveResult {
    /// This side won: the other Pivot was shut in.
    Win(usize),
    /// Both Pivots shut in at once.
    BothShut,
    /// The turn cap.
    Cap,
}

/// Who decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NaiveTurn {
    Seat(usize),
    Over,
}

/// Rare events counted below a position by [`perft_events`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Events {
    /// Orders that fired and moved their unit.
    pub fired: u64,
    /// Orders that fired but could not move (destination taken, or path blocked).
    pub fizzled: u64,
    /// Of the fizzled ones: Axis orders whose destination was empty but whose path was
    /// blocked.
    pub axis_blocked: u64,
    /// Order decisions where Limited Orders left `no-order` as the only choice.
    pub limited: u64,
    /// Games ended by a fired order.
    pub ended_by_order: u64,
    /// Games ended by the turn cap.
    pub capped: u64,
    /// Games ended by a win (one Pivot shut in).
    pub won: u64,
    /// Games drawn because both Pivots were shut in at once.
    pub both_shut: u64,
}

/// A position of the naive implementation.
#[derive(Clone, Debug)]
pub struct Position {
    pub rules: Rules,
    /// `board[q + 4][r + 4]`: the unit there, with its side.
    pub board: [[Option<(usize, Kind)>; 9]; 9],
    /// Each side's pending order: the ordered unit's cell and its destination.
    pub pending: [Option<(Cell, Cell)>; 2],
    /// For each pending order, how many of its side's turn starts are still to come
    /// before it fires (it fires at the one that brings this to zero).
    pub waits: [u32; 2],
    pub to_move: usize,
    /// `Some(cell)` during the order decision: where the primary move ended.
    pub moved: Option<Cell>,
    pub issued_last: [bool; 2],
    pub result: Option<NaiveResult>,
    pub turns: u32,
    pub plies: usize,
}

impl Position {
    /// The unit on a cell (off-board cells hold nothing).
    pub fn at(&self, c: Cell) -> Option<(usize, Kind)> {
        if on_board(c) {
            self.board[(c.0 + 4) as usize][(c.1 + 4) as usize]
        } else {
            None
        }
    }

    fn set(&mut self, c: Cell, v: Option<(usize, Kind)>) {
        self.board[(c.0 + 4) as usize][(c.1 + 4) as usize] = v;
    }

    fn empty(&self, c: Cell) -> bool {
        on_board(c) && self.at(c).is_none()
    }

    pub fn turn(&self) -> NaiveTurn {
        if self.result.is_some() {
            NaiveTurn::Over
        } else {
            NaiveTurn::Seat(self.to_move)
        }
    }

    /// Every cell of the board, `q` then `r` ascending.
    pub fn cells() -> impl Iterator<Item = Cell> {
        (-4..=4)
            .flat_map(|q| (-4..=4).map(move |r| (q, r)))
            .filter(|&c| on_board(c))
    }

    /// Where the unit on `from` may move now.
    pub fn destinations(&self, from: Cell) -> Vec<Cell> {
        let mut out = Vec::new();
        let Some((_, kind)) = self.at(from) else {
            return out;
        };
        let (q, r) = from;
        for i in 0..6 {
            let (dq, dr) = DIRS[i];
            match kind {
                Kind::Pivot => {
                    if self.empty((q + dq, r + dr)) {
                        out.push((q + dq, r + dr));
                    }
                }
                Kind::Axis => {
                    let mut k = 1;
                    loop {
                        let c = (q + k * dq, r + k * dr);
                        if !on_board(c) {
                            break;
                        }
                        if self.at(c).is_some() {
                            if self.rules.mutation == Mutation::AxisJumps {
                                k += 1;
                                continue;
                            }
                            break;
                        }
                        out.push(c);
                        k += 1;
                    }
                }
                Kind::Veil => {
                    if self.empty((q + 2 * dq, r + 2 * dr)) {
                        out.push((q + 2 * dq, r + 2 * dr));
                    }
                }
                Kind::Turned => {
                    let (eq, er) = DIRS[(i + 1) % 6];
                    if self.empty((q + dq + eq, r + dr + er)) {
                        out.push((q + dq + eq, r + dr + er));
                    }
                }
            }
        }
        out
    }

    /// Whether `side`'s Pivot has no empty neighbour.
    pub fn immobilised(&self, side: usize) -> bool {
        for c in Self::cells() {
            if self.at(c) == Some((side, Kind::Pivot)) {
                for (dq, dr) in DIRS {
                    if self.empty((c.0 + dq, c.1 + dr)) {
                        return false;
                    }
                }
                return true;
            }
        }
        panic!("side {side} has no Pivot");
    }

    /// The end check after a displacement by `mover`; true if the game ended.
    fn end_check(&mut self, mover: usize) -> bool {
        let a = self.immobilised(0);
        let b = self.immobilised(1);
        self.result = if a && b {
            if self.rules.mutation == Mutation::BothImmobilisedMoverWins {
                Some(NaiveResult::Win(mover))
            } else {
                Some(NaiveResult::BothShut)
            }
        } else if a {
            Some(NaiveResult::Win(1))
        } else if b {
            Some(NaiveResult::Win(0))
        } else {
            None
        };
        self.result.is_some()
    }

    pub fn legal_moves(&self) -> Vec<NaiveMove> {
        let mut out = Vec::new();
        if self.result.is_some() {
            return out;
        }
        let side = self.to_move;
        match self.moved {
            None => {
                for c in Self::cells() {
                    if let Some((s, _)) = self.at(c) {
                        if s == side {
                            for d in self.destinations(c) {
                                out.push(NaiveMove::Primary(c, d));
                            }
                        }
                    }
                }
            }
            Some(moved) => {
                out.push(NaiveMove::NoOrder);
                if self.limited_forbids() || self.pending[side].is_some() {
                    return out;
                }
                for c in Self::cells() {
                    if c == moved && self.rules.mutation != Mutation::OrderJustMoved {
                        continue;
                    }
                    if let Some((s, _)) = self.at(c) {
                        if s == side {
                            for d in self.destinations(c) {
                                out.push(NaiveMove::Order(c, d));
                            }
                        }
                    }
                }
            }
        }
        out
    }

    /// Whether Limited Orders leaves `no-order` as the only choice of this order
    /// decision.
    pub fn limited_forbids(&self) -> bool {
        self.rules.limited
            && self.issued_last[self.to_move]
            && self.rules.mutation != Mutation::LimitedIgnored
    }

    /// Plays a legal decision, counting rare events into `ev`.
    pub fn apply_counting(&mut self, m: NaiveMove, ev: &mut Events) {
        self.apply_inner(m, ev);
        match self.result {
            Some(NaiveResult::Win(_)) => ev.won += 1,
            Some(NaiveResult::BothShut) => ev.both_shut += 1,
            _ => {}
        }
    }

    fn apply_inner(&mut self, m: NaiveMove, ev: &mut Events) {
        self.plies += 1;
        let side = self.to_move;
        match m {
            NaiveMove::Primary(a, b) => {
                if self.pending[side].is_some_and(|(from, _)| from == a)
                    && self.rules.mutation != Mutation::OrderOutlivesItsUnit
                {
                    // The ordered unit moves: its waiting order is cancelled.
                    self.pending[side] = None;
                }
                let u = self.at(a);
                self.set(a, None);
                self.set(b, u);
                if self.end_check(side) {
                    return;
                }
                if self.rules.orders {
                    self.moved = Some(b);
                    return;
                }
            }
            NaiveMove::Order(a, b) => {
                self.pending[side] = Some((a, b));
                self.waits[side] = if self.rules.mutation == Mutation::DelayIgnored {
                    1
                } else {
                    self.rules.delay
                };
                self.moved = None;
                if self.rules.limited {
                    self.issued_last[side] = true;
                }
            }
            NaiveMove::NoOrder => {
                self.moved = None;
                if self.rules.limited {
                    self.issued_last[side] = false;
                }
            }
        }
        // The turn is over.
        self.turns += 1;
        let cap_first = self.rules.mutation != Mutation::CapAfterFiring;
        if cap_first && self.turns >= self.rules.max_turns {
            self.result = Some(NaiveResult::Cap);
            ev.capped += 1;
            return;
        }
        self.start_turn(ev);
        if !cap_first && self.result.is_none() && self.turns >= self.rules.max_turns {
            self.result = Some(NaiveResult::Cap);
            ev.capped += 1;
        }
    }

    /// The other side's turn begins: part 1, its pending order fires if still legal,
    /// and the end check follows a displacement.
    pub fn start_turn(&mut self, ev: &mut Events) {
        self.to_move = 1 - self.to_move;
        let next = self.to_move;
        if self.pending[next].is_some() {
            self.waits[next] -= 1;
            if self.waits[next] > 0 {
                return;
            }
        }
        if let Some((a, b)) = self.pending[next].take() {
            let mut legal = self.destinations(a).contains(&b);
            if self.rules.mutation == Mutation::FiringIgnoresPath {
                legal = self.empty(b);
            }
            if legal {
                let u = self.at(a);
                self.set(a, None);
                self.set(b, u);
                ev.fired += 1;
                if self.rules.mutation != Mutation::NoEndCheckAfterFiring && self.end_check(next) {
                    ev.ended_by_order += 1;
                }
            } else {
                ev.fizzled += 1;
                if self.empty(b) && self.at(a).map(|u| u.1) == Some(Kind::Axis) {
                    ev.axis_blocked += 1;
                }
            }
        }
    }

    /// A hand-built position: `units` as (side, kind, cell), pending orders, and
    /// `to_move` about to start its turn (its own order fires first). Under Limited
    /// Orders a side with a pending order issued it in its previous turn.
    pub fn custom(
        rules: Rules,
        units: &[(usize, Kind, Cell)],
        pending: [Option<(Cell, Cell)>; 2],
        to_move: usize,
    ) -> Position {
        let mut p = rules.start();
        p.board = [[None; 9]; 9];
        for &(side, kind, c) in units {
            assert!(on_board(c) && p.at(c).is_none());
            p.set(c, Some((side, kind)));
        }
        p.pending = pending;
        p.waits = pending.map(|o| u32::from(o.is_some()));
        if rules.limited {
            p.issued_last = [pending[0].is_some(), pending[1].is_some()];
        }
        p.to_move = 1 - to_move;
        p.start_turn(&mut Events::default());
        p
    }

    pub fn apply(&mut self, m: NaiveMove) {
        self.apply_counting(m, &mut Events::default());
    }

    /// The legal decisions as text, sorted.
    pub fn legal_texts(&self) -> Vec<String> {
        let mut v: Vec<String> = self.legal_moves().iter().map(|m| m.to_string()).collect();
        v.sort();
        v
    }

    /// Reads a legal decision (exact notation only).
    pub fn parse(&self, text: &str) -> Result<NaiveMove, String> {
        self.legal_moves()
            .into_iter()
            .find(|m| m.to_string() == text)
            .ok_or_else(|| format!("{text} is not legal for the naive rules"))
    }

    /// Plays a space-separated list of decisions.
    pub fn play(&mut self, moves: &str) -> Result<(), String> {
        for t in moves.split_whitespace() {
            let m = self.parse(t)?;
            self.apply(m);
        }
        Ok(())
    }

    /// The result per seat as (winner, is draw).
    pub fn winner(&self) -> Option<usize> {
        match self.result {
            Some(NaiveResult::Win(s)) => Some(s),
            _ => None,
        }
    }
}

/// Number of paths of exactly `depth` decisions.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.legal_moves().len() as u64,
        _ => pos
            .legal_moves()
            .into_iter()
            .map(|m| {
                let mut next = pos.clone();
                next.apply(m);
                perft(&next, depth - 1)
            })
            .sum(),
    }
}

/// Perft, counting the rare events on the way (at every decision applied, the last
/// ply included).
pub fn perft_events(pos: &Position, depth: u32, ev: &mut Events) -> u64 {
    if depth == 0 {
        return 1;
    }
    if pos.moved.is_some() && pos.result.is_none() && pos.limited_forbids() {
        ev.limited += 1;
    }
    let mut total = 0;
    for m in pos.legal_moves() {
        let mut next = pos.clone();
        next.apply_counting(m, ev);
        total += perft_events(&next, depth - 1, ev);
    }
    total
}

/// Perft per first decision, as text.
pub fn divide(pos: &Position, depth: u32) -> Vec<(String, u64)> {
    pos.legal_moves()
        .into_iter()
        .map(|m| {
            let mut next = pos.clone();
            next.apply(m);
            (m.to_string(), perft(&next, depth.saturating_sub(1)))
        })
        .collect()
}
