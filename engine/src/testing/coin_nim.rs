//! Coin Nim: a tiny two-seat game with chance, for testing the API and chance search.
//!
//! A pile of `stones`. The seat to move takes one or two stones; taking the last stone
//! wins. Otherwise a biased coin is tossed (heads weight 1, tails weight 2): on heads the
//! same seat decides again (two consecutive decisions by one seat), on tails the other
//! seat moves. After `cap` decisions without a winner the game is a draw. Small enough
//! to solve by hand, yet it has every shape search must handle: chance nodes with
//! unequal integer weights, same-seat consecutive decisions, wins, losses and draws.

use std::fmt;

use crate::actions::{ActionSpace, DenseActions};
use crate::declare_weights;
use crate::game::{
    End, FastPlayout, Game, LengthCap, Move, MoveError, NullMove, Outcome, PieRule, Seat, State,
    Symmetries, Turn, WithChance,
};
use crate::params::{ConfigError, ParamKind, ParamSpec, Params};
use crate::picture::{
    text, Cell, CellShape, Depict, Ground, Ink, Key, Picture, Piece, PieceShape, Symbol,
};
use crate::weights::{Terms, WeightedEval};
use crate::zobrist;

/// A decision or coin outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CoinNimMove {
    /// Take this many stones (1 or 2): `take1`, `take2`.
    Take(u8),
    /// The coin shows heads (weight 1): `heads`.
    Heads,
    /// The coin shows tails (weight 2): `tails`.
    Tails,
}

impl Move for CoinNimMove {
    fn pack(self) -> u32 {
        match self {
            CoinNimMove::Take(n) => u32::from(n),
            CoinNimMove::Heads => 3,
            CoinNimMove::Tails => 4,
        }
    }
    fn unpack(code: u32) -> Option<Self> {
        match code {
            1 | 2 => Some(CoinNimMove::Take(code as u8)),
            3 => Some(CoinNimMove::Heads),
            4 => Some(CoinNimMove::Tails),
            _ => None,
        }
    }
}

/// The rules: pile size and decision cap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CoinNim {
    /// Stones at the start (1..=60).
    pub stones: u8,
    /// Decisions after which an unfinished game is a draw (1..=60).
    pub cap: u8,
}

impl Default for CoinNim {
    fn default() -> Self {
        CoinNim { stones: 7, cap: 6 }
    }
}

const PARAMS: &[ParamSpec] = &[
    ParamSpec {
        name: "stones",
        kind: ParamKind::Int { min: 1, max: 60 },
        default: Some("7"),
        omitted_at_default: false,
        help: "stones in the pile at the start",
    },
    ParamSpec {
        name: "cap",
        kind: ParamKind::Int { min: 1, max: 60 },
        default: Some("6"),
        omitted_at_default: false,
        help: "decisions after which the game is drawn",
    },
];

impl Game for CoinNim {
    type State = CoinNimState;
    const NAME: &'static str = "coin-nim";
    const ABOUT: &'static str =
        "test game: take 1 or 2 stones, a biased coin decides who moves next";
    const HAS_HIDDEN_INFORMATION: bool = false;

    fn param_specs() -> &'static [ParamSpec] {
        PARAMS
    }

    fn from_params(params: &Params) -> Result<Self, ConfigError> {
        let stones = params.int("stones").unwrap_or(7);
        let cap = params.int("cap").unwrap_or(6);
        Ok(CoinNim {
            stones: stones as u8,
            cap: cap as u8,
        })
    }

    fn initial_state(&self) -> CoinNimState {
        let mut s = CoinNimState {
            pile: self.stones,
            mover: 0,
            coin_pending: false,
            decisions: 0,
            cap: self.cap,
            winner: None,
            ply: 0,
            turns: 0,
            turn_open: false,
            hash: 0,
        };
        s.hash = s.recompute_hash();
        s
    }
}

impl DenseActions for CoinNim {
    /// Decisions `take1` 0 and `take2` 1; outcomes heads 0 and tails 1. Every decision
    /// is followed by one toss, and the game is drawn after `cap` decisions.
    fn action_space(&self) -> ActionSpace {
        ActionSpace {
            decisions: 2,
            chance_outcomes: 2,
            max_game_length: 2 * u32::from(self.cap),
            max_decisions: u32::from(self.cap),
        }
    }

    fn action_id(&self, m: CoinNimMove) -> u32 {
        match m {
            CoinNimMove::Take(n) => u32::from(n) - 1,
            CoinNimMove::Heads => 0,
            CoinNimMove::Tails => 1,
        }
    }
}

/// A position of Coin Nim.
#[derive(Clone, Debug)]
pub struct CoinNimState {
    pile: u8,
    /// The seat that moved last (while `coin_pending`) or moves next.
    mover: Seat,
    coin_pending: bool,
    decisions: u8,
    cap: u8,
    winner: Option<Seat>,
    ply: u32,
    /// Turns begun: a turn is a seat's takes up to a tails (heads continue it).
    turns: u32,
    /// Whether the current turn has begun (a take since the last tails).
    turn_open: bool,
    hash: u64,
}

impl PartialEq for CoinNimState {
    fn eq(&self, o: &Self) -> bool {
        (
            self.pile,
            self.mover,
            self.coin_pending,
            self.decisions,
            self.cap,
            self.winner,
        ) == (
            o.pile,
            o.mover,
            o.coin_pending,
            o.decisions,
            o.cap,
            o.winner,
        )
    }
}
impl Eq for CoinNimState {}

/// Keys: 64 pile sizes, 64 decision counts, mover, coin pending, winner 0, winner 1.
const KEYS: [u64; 132] = zobrist::keys(0xC011_417E);

impl CoinNimState {
    /// Stones left.
    pub fn pile(&self) -> u8 {
        self.pile
    }
}

impl State for CoinNimState {
    type Chance = WithChance;
    type Move = CoinNimMove;
    type Undo = CoinNimState;

    fn turn(&self) -> Turn {
        if self.winner.is_some() || (self.decisions >= self.cap && !self.coin_pending) {
            Turn::Over
        } else if self.coin_pending {
            Turn::Chance
        } else {
            Turn::Seat(self.mover)
        }
    }

    fn legal_moves(&self, out: &mut Vec<CoinNimMove>) {
        if let Turn::Seat(_) = self.turn() {
            out.push(CoinNimMove::Take(1));
            if self.pile >= 2 {
                out.push(CoinNimMove::Take(2));
            }
        }
    }

    fn chance_outcomes(&self, out: &mut Vec<(CoinNimMove, u32)>) {
        if self.turn() == Turn::Chance {
            out.push((CoinNimMove::Heads, 1));
            out.push((CoinNimMove::Tails, 2));
        }
    }

    fn max_moves(&self) -> usize {
        2
    }

    fn apply(&mut self, m: CoinNimMove) -> CoinNimState {
        debug_assert!(self.clone().try_apply(m).is_ok(), "illegal {m:?}");
        let undo = self.clone();
        self.apply_unchecked(m);
        undo
    }

    fn undo(&mut self, undo: CoinNimState) {
        *self = undo;
    }

    fn try_apply(&mut self, m: CoinNimMove) -> Result<CoinNimState, MoveError> {
        let ok = match (self.turn(), m) {
            (Turn::Seat(_), CoinNimMove::Take(n)) => (n == 1 || n == 2) && n <= self.pile,
            (Turn::Chance, CoinNimMove::Heads | CoinNimMove::Tails) => true,
            _ => false,
        };
        if ok {
            let undo = self.clone();
            self.apply_unchecked(m);
            Ok(undo)
        } else {
            Err(MoveError::new(
                self.format_move(m),
                "not legal in this position",
            ))
        }
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn recompute_hash(&self) -> u64 {
        let mut h = KEYS[self.pile as usize] ^ KEYS[64 + self.decisions as usize];
        if self.mover == 1 {
            h ^= KEYS[128];
        }
        if self.coin_pending {
            h ^= KEYS[129];
        }
        if let Some(w) = self.winner {
            h ^= KEYS[130 + w];
        }
        h
    }

    /// The decision count the cap reads is part of the hash, so the cap does not end
    /// the game by history.
    fn end(&self) -> Option<End> {
        match (self.turn(), self.winner) {
            (Turn::Over, Some(w)) => Some(End::win(w, "last-stone")),
            (Turn::Over, None) => Some(End::cap(Outcome::Draw, false)),
            _ => None,
        }
    }

    fn side(&self, seat: Seat) -> &'static str {
        ["first", "second"][seat]
    }

    fn ply(&self) -> u32 {
        self.ply
    }

    /// A turn is one seat's takes with their coins, up to a tails.
    fn turns(&self) -> u32 {
        self.turns
    }

    fn format_move(&self, m: CoinNimMove) -> String {
        match m {
            CoinNimMove::Take(n) => format!("take{n}"),
            CoinNimMove::Heads => "heads".into(),
            CoinNimMove::Tails => "tails".into(),
        }
    }

    fn parse_move(&self, text: &str) -> Result<CoinNimMove, MoveError> {
        let m = match text {
            "take1" => CoinNimMove::Take(1),
            "take2" => CoinNimMove::Take(2),
            "heads" => CoinNimMove::Heads,
            "tails" => CoinNimMove::Tails,
            _ => {
                return Err(MoveError::new(
                    text,
                    "expected take1, take2, heads or tails",
                ))
            }
        };
        self.clone().try_apply(m)?;
        Ok(m)
    }
}

impl FastPlayout for CoinNimState {}

impl Symmetries for CoinNimState {}

impl PieRule for CoinNimState {}

impl NullMove for CoinNimState {}

impl LengthCap for CoinNimState {}

impl CoinNimState {
    fn apply_unchecked(&mut self, m: CoinNimMove) {
        match m {
            CoinNimMove::Take(n) => {
                if !self.turn_open {
                    self.turn_open = true;
                    self.turns += 1;
                }
                self.pile -= n;
                self.decisions += 1;
                if self.pile == 0 {
                    self.winner = Some(self.mover);
                } else if self.decisions < self.cap {
                    self.coin_pending = true;
                }
            }
            CoinNimMove::Heads => self.coin_pending = false,
            CoinNimMove::Tails => {
                self.turn_open = false;
                self.coin_pending = false;
                self.mover = 1 - self.mover;
            }
        }
        self.ply += 1;
        self.hash = self.recompute_hash();
    }
}

impl fmt::Display for CoinNimState {
    /// The position's picture drawn as text with its legend ([`text::display`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        text::display(&self.picture(), f)
    }
}

declare_weights! {
    /// The weights of [`CoinNimEval`].
    pub struct CoinNimWeights {
        /// the value of a pile that is not a multiple of 3, for the side to move
        edge: i32 = 10, 0..=100;
    }
}

/// Evaluator for Coin Nim: a pile that is a multiple of 3 is bad for the side to move
/// (classic take-1-or-2 Nim), seen from `seat`. Good enough to test search.
pub type CoinNimEval = WeightedEval<CoinNimTerms>;

/// The terms of [`CoinNimEval`], which precomputes nothing from its weights.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CoinNimTerms;

/// The least value of a win for [`CoinNimEval`] (the value with the default weights).
pub const COIN_NIM_WIN: i32 = 100;

impl Terms for CoinNimTerms {
    type State = CoinNimState;
    type Weights = CoinNimWeights;

    fn from_weights(_: &CoinNimWeights) -> Self {
        CoinNimTerms
    }

    /// The win score is [`COIN_NIM_WIN`] or, for a larger edge, one more than the edge:
    /// every heuristic value is plus or minus the edge.
    fn win(&self, weights: &CoinNimWeights) -> i32 {
        COIN_NIM_WIN.max(weights.edge + 1)
    }

    fn heuristic(eval: &CoinNimEval, s: &CoinNimState, seat: Seat) -> i32 {
        let edge = eval.weights().edge;
        let good_for_mover = if s.pile % 3 == 0 { -edge } else { edge };
        if s.mover == seat {
            good_for_mover
        } else {
            -good_for_mover
        }
    }
}

/// One cell, the pile, holding a neutral stone labelled with the stones left.
impl Depict for CoinNimState {
    fn picture(&self) -> Picture {
        let cell = Cell {
            x: 0.0,
            y: 0.0,
            shape: CellShape::Square,
            name: "pile".into(),
            ground: Ground::Plain,
        };
        let pieces = if self.pile > 0 {
            vec![Piece::new(0, PieceShape::Disc, Ink::Neutral).labelled(self.pile.to_string())]
        } else {
            Vec::new()
        };
        let status = match self.turn() {
            Turn::Seat(s) => format!("seat {s} to take one or two stones"),
            Turn::Chance => "the coin is about to be tossed".to_string(),
            Turn::Over => match self.outcome() {
                Some(Outcome::Win(s)) => format!("seat {s} took the last stone and wins"),
                _ => "draw at the decision cap".to_string(),
            },
        };
        let symbol = Symbol::Piece {
            shape: PieceShape::Disc,
            ink: Ink::Neutral,
            facing: false,
        };
        Picture {
            cells: vec![cell],
            pieces,
            marks: Vec::new(),
            notes: vec![status],
            legend: vec![Key::new(symbol, "the pile (stones left)")],
        }
    }

    fn event(&self, m: CoinNimMove) -> String {
        match m {
            CoinNimMove::Heads => format!("heads: seat {} decides again", self.mover),
            _ => format!("tails: seat {} moves", 1 - self.mover),
        }
    }
}

/// Coin Nim's encoding, for the harnesses that need every registry game to have one: no
/// board, only scalars (the stones left, whose decision or coin it is, whether the coin
/// is in the air, the decisions made against the cap).
impl crate::encoding::Encode for CoinNimState {
    fn encoding(&self) -> crate::encoding::Encoding {
        use crate::encoding::Scalar;
        crate::encoding::Encoding {
            id: format!("coin-nim/1:{}", self.cap),
            rows: 1,
            cols: 1,
            planes: Vec::new(),
            scalars: vec![
                Scalar {
                    name: "pile",
                    meaning: "stones left",
                    max: 60,
                },
                Scalar {
                    name: "my-turn",
                    meaning: "1 if the view's seat decides next or just took (the coin pending)",
                    max: 1,
                },
                Scalar {
                    name: "coin",
                    meaning: "1 while the coin is in the air",
                    max: 1,
                },
                Scalar {
                    name: "decisions",
                    meaning: "decisions made, against the cap",
                    max: i32::from(self.cap),
                },
            ],
        }
    }

    fn features(&self, _view: Seat, _out: &mut Vec<u32>) {}

    fn scalars(&self, view: Seat, out: &mut Vec<i32>) {
        out.extend([
            i32::from(self.pile),
            i32::from(self.winner.is_none() && self.mover == view),
            i32::from(self.coin_pending),
            i32::from(self.decisions),
        ]);
    }

    fn feature_changes(
        &self,
        _m: CoinNimMove,
        _view: Seat,
        _changes: &mut crate::encoding::FeatureChanges,
    ) {
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_encoding_keeps_its_contract() {
        let report = crate::testing::check_encoding(
            &CoinNim {
                stones: 20,
                cap: 30,
            },
            100,
            1,
        )
        .expect("contract");
        assert!(report.positions > 500, "{report:?}");
    }

    #[test]
    fn bounds_hold_at_extreme_weights() {
        crate::testing::extreme_weights::check_evaluator_at_extreme_weights::<_, CoinNimEval>(
            &CoinNim::default().initial_state(),
            200,
            1,
        )
        .unwrap();
    }
}
