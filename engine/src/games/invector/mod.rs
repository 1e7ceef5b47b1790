//! Invector by Mark Steere (2006): a capture game on a Kōnane board.
//!
//! A full checkerboard of Black and White stones; a stone captures an orthogonally
//! adjacent enemy by replacement, or steps onto an adjacent empty pit one step closer
//! to the centre. A player with neither must pass; White may swap colours instead of
//! its first move (pie rule); whoever captures the opponent's last stone wins. The
//! project's own description of the rules and its rulings is `docs/games/invector.md`.
//!
//! Representation: one 128-bit bitboard per colour (`board`), move generation by
//! whole-board shifts (`moves`), notation in `notation`, evaluation in `eval`, the
//! picture of a position in `picture`, dense action ids and the bound on a game's
//! length in `actions`, and the designer's knobs (the rule numbers made parameters) in
//! `knobs`.
//! The state is small and `Copy`-like, so undo is by copy.

mod actions;
mod board;
mod encoding;
mod eval;
mod knobs;
mod moves;
mod notation;
mod picture;
mod symmetry;

use std::fmt;

use crate::bits::Cells;
use crate::game::{
    End, FastPlayout, Game, LengthCap, NoChance, NullMove, PieRule, Seat, State, Symmetries,
    Symmetry, Turn,
};
use crate::params::{ConfigError, ParamKind, ParamSpec, Params};
use crate::zobrist;

use board::{Bitboard, Geometry};
pub use eval::InvectorEval;
pub use knobs::InvectorKnobs;
pub use moves::{InvectorMove, MoveKind};
use symmetry::SYMMETRIES;

/// Black holds a1 at the start and moves first; White may swap with the pie rule.
pub use crate::games::colour::Colour;

/// A middle game of the default 8×7 board after 16 random plies (seed 7): 41 stones,
/// empty pits on both sides of the centre, so steps and captures mix. The criterion
/// benches and `agon bench` search it.
pub const MIDGAME: &str = "d4xd5 g4xg5 c5xc6 b5xb6 g1xh1 b1xa1 b2xb3 g2xf2 a3xa4 f7xf6 c7xb7 g6xh6 c1xd1 h3xh4 d2xe2 c2-d2";

/// Invector's rules: board size, whether the pie rule is on, and the designer's knobs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Invector {
    width: usize,
    height: usize,
    pie: bool,
    knobs: InvectorKnobs,
}

impl Invector {
    /// The rules for a `width × height` board. Exactly one of the sides must be even,
    /// both in 1..=16, and the board at most 128 cells.
    pub fn new(width: usize, height: usize, pie: bool) -> Result<Invector, ConfigError> {
        if !(1..=16).contains(&width) || !(1..=16).contains(&height) {
            return Err(ConfigError(format!(
                "invector board {width}x{height} is not allowed: width and height must be 1..16"
            )));
        }
        if width % 2 == height % 2 {
            return Err(ConfigError(format!(
                "invector board {width}x{height} is not allowed: exactly one of width and height must be even"
            )));
        }
        if width * height > 128 {
            return Err(ConfigError(format!(
                "invector board {width}x{height} is not allowed: at most 128 cells (it has {})",
                width * height
            )));
        }
        Ok(Invector {
            width,
            height,
            pie,
            knobs: InvectorKnobs::default(),
        })
    }

    /// These rules with the designer's knobs set to `knobs` (the rulebook's values are
    /// [`InvectorKnobs::default`]). An error names the knob that does not fit this board
    /// and its valid range here.
    pub fn with_knobs(self, knobs: InvectorKnobs) -> Result<Invector, ConfigError> {
        knobs.check(Geometry::get(self.width, self.height))?;
        Ok(Invector { knobs, ..self })
    }

    /// Board width (columns).
    pub fn width(&self) -> usize {
        self.width
    }

    /// Board height (rows).
    pub fn height(&self) -> usize {
        self.height
    }

    /// Whether White may swap on its first turn.
    pub fn pie(&self) -> bool {
        self.pie
    }

    /// The designer's knobs.
    pub fn knobs(&self) -> InvectorKnobs {
        self.knobs
    }
}

impl Default for Invector {
    /// 8 × 7 with the pie rule: the spec's default.
    fn default() -> Self {
        Invector {
            width: 8,
            height: 7,
            pie: true,
            knobs: InvectorKnobs::default(),
        }
    }
}

const PARAMS: &[ParamSpec] = &[
    ParamSpec {
        name: "handicap",
        kind: ParamKind::Int {
            min: 0,
            max: knobs::HANDICAP_MAX as i64,
        },
        default: Some("0"),
        omitted_at_default: true,
        help: "Black starts this many stones short, farthest from the centre first (compensates seat 1)",
    },
    ParamSpec {
        name: "height",
        kind: ParamKind::Int { min: 1, max: 16 },
        default: Some("7"),
        omitted_at_default: false,
        help: "rows; exactly one of width and height is even, width*height <= 128",
    },
    ParamSpec {
        name: "hole",
        kind: ParamKind::Int {
            min: 0,
            max: knobs::HOLE_MAX as i64,
        },
        default: Some("0"),
        omitted_at_default: true,
        help: "pits nearer the centre than this start empty (0: a full board)",
    },
    ParamSpec {
        name: "lose_at",
        kind: ParamKind::Int {
            min: 0,
            max: knobs::LOSE_AT_MAX as i64,
        },
        default: Some("0"),
        omitted_at_default: true,
        help: "a side left with this many stones or fewer after a capture loses",
    },
    ParamSpec {
        name: "pie",
        kind: ParamKind::Bool,
        default: Some("true"),
        omitted_at_default: false,
        help: "White may swap colours instead of its first move",
    },
    ParamSpec {
        name: "stride",
        kind: ParamKind::Int {
            min: 1,
            max: knobs::STRIDE_MAX as i64,
        },
        default: Some("1"),
        omitted_at_default: true,
        help: "a step slides up to this many pits straight towards the centre",
    },
    ParamSpec {
        name: "width",
        kind: ParamKind::Int { min: 1, max: 16 },
        default: Some("8"),
        omitted_at_default: false,
        help: "columns (a, b, c, ... from the left)",
    },
];

impl Game for Invector {
    type State = InvectorState;
    const NAME: &'static str = "invector";
    const ABOUT: &'static str =
        "Invector by Mark Steere: capture by replacement, step towards the centre";
    const HAS_HIDDEN_INFORMATION: bool = false;

    fn param_specs() -> &'static [ParamSpec] {
        PARAMS
    }

    fn from_params(params: &Params) -> Result<Self, ConfigError> {
        let params = params.filled(PARAMS);
        let get = |name| params.int(name).expect("declared with a default");
        // The declared ranges keep every knob within a u8.
        let knob = |name| get(name) as u8;
        Invector::new(
            get("width") as usize,
            get("height") as usize,
            params.bool("pie").expect("declared with a default"),
        )?
        .with_knobs(InvectorKnobs {
            lose_at: knob("lose_at"),
            hole: knob("hole"),
            stride: knob("stride"),
            handicap: knob("handicap"),
        })
    }

    fn initial_state(&self) -> InvectorState {
        let geo = Geometry::get(self.width, self.height);
        let mut s = InvectorState {
            geo,
            stones: self.knobs.start(geo),
            to_move: Colour::Black,
            swapped: false,
            pie: self.pie,
            knobs: self.knobs,
            winner: None,
            ply: 0,
            hash: 0,
            image_keys: [0; SYMMETRIES - 1],
        };
        s.hash = s.recompute_hash();
        s.image_keys = s.recompute_image_keys();
        s
    }

    /// With the pie rule, White is offered the swap at the game's second decision.
    fn pie_swap_decision(&self) -> Option<u32> {
        self.pie.then_some(1)
    }
}

/// Zobrist keys: 128 cells × 2 colours, then White to move, colours swapped, and the
/// swap still available (pie rule, second decision).
const KEYS: [u64; 259] = zobrist::keys(0x0014_EC70);
const KEY_WHITE_TO_MOVE: u64 = KEYS[256];
const KEY_SWAPPED: u64 = KEYS[257];
const KEY_SWAP_AVAILABLE: u64 = KEYS[258];

/// A position of Invector.
///
/// `Eq` and the hash cover the stones, the colour to move, which seat plays which
/// colour, whether the swap is available and the winner; not the ply count. `Eq` also
/// compares the rules the state follows (pie rule and knobs), which are fixed for a
/// game and so left out of the hash.
#[derive(Clone)]
pub struct InvectorState {
    geo: &'static Geometry,
    /// Stones by colour (`Colour as usize`).
    stones: [Bitboard; 2],
    to_move: Colour,
    /// After a pie-rule swap, seat 0 plays White.
    swapped: bool,
    pie: bool,
    /// The designer's knobs: `lose_at` and `stride` are read in play.
    knobs: InvectorKnobs,
    winner: Option<Seat>,
    ply: u32,
    hash: u64,
    /// The stones' part of the Zobrist keys of the position's images under symmetries
    /// 1, 2 and 3 (see the `symmetry` module), kept up to date move by move as `hash`
    /// is, so that [`Symmetries::canonical_key`] costs a few operations.
    image_keys: [u64; SYMMETRIES - 1],
}

impl InvectorState {
    /// The board geometry.
    fn geometry(&self) -> &'static Geometry {
        self.geo
    }

    /// The stones of `colour`.
    pub fn stones(&self, colour: Colour) -> Bitboard {
        self.stones[colour as usize]
    }

    /// The colour to move (meaningless once the game is over).
    pub fn colour_to_move(&self) -> Colour {
        self.to_move
    }

    /// The colour `seat` plays.
    pub fn colour_of(&self, seat: Seat) -> Colour {
        if (seat == 1) != self.swapped {
            Colour::White
        } else {
            Colour::Black
        }
    }

    /// The seat playing `colour`.
    pub fn seat_of(&self, colour: Colour) -> Seat {
        (colour as usize) ^ usize::from(self.swapped)
    }

    /// Empty cells.
    #[inline]
    pub fn empty(&self) -> Bitboard {
        self.geo.full & !(self.stones[0] | self.stones[1])
    }

    /// Whether White may still decide `swap` (pie rule on, the game's second decision).
    #[inline]
    pub fn swap_available(&self) -> bool {
        self.pie && self.ply == 1 && self.winner.is_none()
    }

    #[inline]
    fn swap_key(&self) -> u64 {
        if self.swap_available() {
            KEY_SWAP_AVAILABLE
        } else {
            0
        }
    }

    /// Captures and steps of the side to move (no pass or swap).
    fn piece_moves(&self, out: &mut Vec<InvectorMove>) {
        let own = self.stones[self.to_move as usize];
        let enemy = self.stones[self.to_move.other() as usize];
        moves::captures(self.geo, own, enemy, out);
        moves::steps(self.geo, own, self.empty(), self.knobs.stride, out);
    }

    /// Whether `m` is a legal decision here (the check behind `try_apply` and the debug
    /// check in `apply`). Captures, steps and swaps are checked directly, in constant
    /// time; only `pass` needs the move list.
    fn is_legal(&self, m: InvectorMove) -> bool {
        if self.winner.is_some() {
            return false;
        }
        let own = self.stones[self.to_move as usize];
        let enemy = self.stones[self.to_move.other() as usize];
        let (from, to) = (usize::from(m.from), usize::from(m.to));
        let adjacent = || from < self.geo.cells() && self.geo.neighbours[from] & 1u128 << to != 0;
        match m.kind {
            MoveKind::Capture => adjacent() && own & 1u128 << from != 0 && enemy & 1u128 << to != 0,
            MoveKind::Step => {
                own & 1u128 << from != 0
                    && moves::slide(self.geo, from, to, self.empty(), self.knobs.stride).is_ok()
            }
            MoveKind::Pass => !moves::can_move(self.geo, own, enemy, self.empty()),
            MoveKind::Swap => self.swap_available(),
        }
    }

    /// Moves a stone of the side to move, keeping the keys up to date.
    #[inline]
    fn move_stone(&mut self, colour: Colour, from: usize, to: usize) {
        let c = colour as usize;
        self.stones[c] ^= 1u128 << from | 1u128 << to;
        self.hash ^= KEYS[c * 128 + from] ^ KEYS[c * 128 + to];
        self.toggle_image_keys(c * 128 + from);
        self.toggle_image_keys(c * 128 + to);
    }

    /// Adds or removes, in the images' keys, the stone `stone` (`colour * 128 + cell`).
    #[inline]
    fn toggle_image_keys(&mut self, stone: usize) {
        let images = &self.geo.images.stone_key[1..];
        for (key, stone_key) in self.image_keys.iter_mut().zip(images) {
            *key ^= stone_key[stone];
        }
    }

    /// The stones' part of the images' keys computed from scratch.
    fn recompute_image_keys(&self) -> [u64; SYMMETRIES - 1] {
        let mut keys = [0; SYMMETRIES - 1];
        for (colour, &stones) in self.stones.iter().enumerate() {
            for p in Cells(stones) {
                for (key, stone_key) in keys.iter_mut().zip(&self.geo.images.stone_key[1..]) {
                    *key ^= stone_key[colour * 128 + p];
                }
            }
        }
        keys
    }
}

impl PartialEq for InvectorState {
    fn eq(&self, o: &Self) -> bool {
        std::ptr::eq(self.geo, o.geo)
            && self.stones == o.stones
            && self.to_move == o.to_move
            && self.swapped == o.swapped
            && self.pie == o.pie
            && self.knobs == o.knobs
            && self.swap_available() == o.swap_available()
            && self.winner == o.winner
    }
}

impl Eq for InvectorState {}

impl State for InvectorState {
    type Chance = NoChance;
    type Move = InvectorMove;
    type Undo = InvectorState;

    #[inline]
    fn turn(&self) -> Turn {
        match self.winner {
            Some(_) => Turn::Over,
            None => Turn::Seat(self.seat_of(self.to_move)),
        }
    }

    fn legal_moves(&self, out: &mut Vec<InvectorMove>) {
        if self.winner.is_some() {
            return;
        }
        let start = out.len();
        self.piece_moves(out);
        if out.len() == start {
            out.push(InvectorMove::PASS);
        }
        if self.swap_available() {
            out.push(InvectorMove::SWAP);
        }
    }

    fn max_moves(&self) -> usize {
        // Each cell has at most 4 neighbours, and each (cell, direction) pair gives one
        // capture or up to `stride` steps (one a length), never both; plus pass and swap.
        4 * self.geo.cells() * usize::from(self.knobs.stride) + 2
    }

    fn apply(&mut self, m: InvectorMove) -> InvectorState {
        debug_assert!(self.is_legal(m), "illegal move {m:?}");
        let undo = self.clone();
        let before = self.swap_key();
        let mover = self.to_move;
        match m.kind {
            MoveKind::Capture => {
                let enemy = mover.other() as usize;
                self.stones[enemy] &= !(1u128 << m.to);
                self.hash ^= KEYS[enemy * 128 + m.to as usize];
                self.toggle_image_keys(enemy * 128 + m.to as usize);
                self.move_stone(mover, m.from.into(), m.to.into());
                if self.stones[enemy].count_ones() <= u32::from(self.knobs.lose_at) {
                    self.winner = Some(self.seat_of(mover));
                }
            }
            MoveKind::Step => self.move_stone(mover, m.from.into(), m.to.into()),
            MoveKind::Pass => {}
            MoveKind::Swap => {
                self.swapped = true;
                self.hash ^= KEY_SWAPPED;
            }
        }
        // A swap keeps White to move: the seat that now plays White moves next.
        if m.kind != MoveKind::Swap && self.winner.is_none() {
            self.to_move = mover.other();
            self.hash ^= KEY_WHITE_TO_MOVE;
        }
        self.ply += 1;
        self.hash ^= before ^ self.swap_key();
        debug_assert_eq!(self.hash, self.recompute_hash());
        debug_assert_eq!(self.image_keys, self.recompute_image_keys());
        undo
    }

    fn try_apply(&mut self, m: InvectorMove) -> Result<InvectorState, crate::game::MoveError> {
        if self.winner.is_some() {
            Err(crate::game::MoveError::new(
                self.format_move(m),
                "the game is over",
            ))
        } else if self.is_legal(m) {
            Ok(self.apply(m))
        } else {
            Err(crate::game::illegal_move(
                self,
                m,
                "not a legal move in this position",
            ))
        }
    }

    #[inline]
    fn undo(&mut self, undo: InvectorState) {
        *self = undo;
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn recompute_hash(&self) -> u64 {
        let mut h = 0;
        for c in 0..2 {
            for p in Cells(self.stones[c]) {
                h ^= KEYS[c * 128 + p];
            }
        }
        if self.to_move == Colour::White {
            h ^= KEY_WHITE_TO_MOVE;
        }
        if self.swapped {
            h ^= KEY_SWAPPED;
        }
        h ^ self.swap_key()
    }

    #[inline]
    fn end(&self) -> Option<End> {
        self.winner.map(|w| End::win(w, "elimination"))
    }

    fn side(&self, seat: Seat) -> &'static str {
        self.colour_of(seat).name()
    }

    fn ply(&self) -> u32 {
        self.ply
    }

    /// A turn is one decision (a step, a capture, a `pass` or the pie rule's `swap`), so
    /// turns are plies.
    fn turns(&self) -> u32 {
        self.ply
    }

    fn format_move(&self, m: InvectorMove) -> String {
        notation::format_move(self.geo, m)
    }

    fn parse_move(&self, text: &str) -> Result<InvectorMove, crate::game::MoveError> {
        notation::parse_move(self, text)
    }
}

impl FastPlayout for InvectorState {}

impl Symmetries for InvectorState {
    /// The least of the keys of the position's images under the board's mirrors and
    /// half turn (see the `symmetry` module), each leaving out which seat plays which
    /// colour.
    fn canonical_key(&self) -> (u64, Symmetry) {
        let images = &self.geo.images;
        let swapped = if self.swapped { KEY_SWAPPED } else { 0 };
        let mut best = (self.hash ^ swapped, 0);
        let swap_available = self.swap_available();
        for (s, &key) in (1..).zip(&self.image_keys) {
            if !symmetry::applies(&self.geo.images, s, swap_available) {
                continue;
            }
            let white = (self.to_move == Colour::White) != images.swaps_colours[s];
            let key = key ^ if white { KEY_WHITE_TO_MOVE } else { 0 } ^ self.swap_key();
            if key < best.0 {
                best = (key, s as Symmetry);
            }
        }
        best
    }

    fn map_move(&self, m: InvectorMove, symmetry: Symmetry) -> InvectorMove {
        match m.kind {
            MoveKind::Capture | MoveKind::Step => {
                let cell = &self.geo.images.cell[usize::from(symmetry)];
                InvectorMove {
                    kind: m.kind,
                    from: cell[usize::from(m.from)],
                    to: cell[usize::from(m.to)],
                }
            }
            MoveKind::Pass | MoveKind::Swap => m,
        }
    }
}

impl PieRule for InvectorState {
    fn is_pie_swap(&self, m: InvectorMove) -> bool {
        m.kind == MoveKind::Swap
    }
}

/// The pass is the rules' own pass, allowed anywhere but in the pie rule's opening
/// plies (where a pass would move the swap to another ply).
impl NullMove for InvectorState {
    fn null_move(&mut self) -> Option<InvectorState> {
        if self.winner.is_some() || (self.pie && self.ply < 2) {
            return None;
        }
        let undo = self.clone();
        self.to_move = self.to_move.other();
        self.hash ^= KEY_WHITE_TO_MOVE;
        self.ply += 1;
        debug_assert_eq!(self.hash, self.recompute_hash());
        Some(undo)
    }
}

impl LengthCap for InvectorState {}

impl fmt::Debug for InvectorState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("InvectorState")
            .field("size", &(self.geo.width, self.geo.height))
            .field("black", &format_args!("{:#x}", self.stones[0]))
            .field("white", &format_args!("{:#x}", self.stones[1]))
            .field("to_move", &self.to_move)
            .field("swapped", &self.swapped)
            .field("pie", &self.pie)
            .field("knobs", &self.knobs)
            .field("winner", &self.winner)
            .field("ply", &self.ply)
            .field("hash", &format_args!("{:#x}", self.hash))
            .finish()
    }
}
