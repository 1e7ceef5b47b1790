//! 3Will's dense action ids ([`DenseActions`]): steps numbered by their square and
//! compass direction, the plain words, picks and twins by square and level.

use crate::actions::{ActionSpace, DenseActions};

use super::moves::{StepKind, ThreeWillMove};
use super::ThreeWill;

/// Steps onto an empty square: `from × 8 + direction` (plain moves and leaps).
const ONTO_EMPTY: u32 = 0;
/// Stacking attempts: `512 + from × 8 + direction`.
const ATTEMPT: u32 = 512;
/// `pass`.
const PASS: u32 = 1024;
/// `free`.
const FREE: u32 = 1025;
/// `done`.
const DONE: u32 = 1026;
/// Picks: `1027 + square × 2 + held`.
const PICK: u32 = 1027;
/// Decisions in all.
const DECISIONS: u32 = PICK + 128;

// Chance outcomes: faces `1..=6` as 0..6, then these.
/// `hit`.
const HIT: u32 = 6;
/// `miss`.
const MISS: u32 = 7;
/// `stands`.
const STANDS: u32 = 8;
/// Twins: `9 + square × 2 + held`.
const TWIN: u32 = 9;
/// Chance outcomes in all.
const CHANCE_OUTCOMES: u32 = TWIN + 128;

/// The compass direction of a step from `from` to `to`, clockwise from north (towards
/// row 8): N 0, NE 1, E 2, SE 3, S 4, SW 5, W 6, NW 7. A step that wraps across a side
/// edge (a column change of 7) goes the short way round: from column a to column h is
/// west.
fn direction(from: u8, to: u8) -> u32 {
    let dx = match i32::from(to % 8) - i32::from(from % 8) {
        7 => -1,
        -7 => 1,
        d => d,
    };
    let dy = i32::from(to / 8) - i32::from(from / 8);
    match (dx, dy) {
        (0, 1) => 0,
        (1, 1) => 1,
        (1, 0) => 2,
        (1, -1) => 3,
        (0, -1) => 4,
        (-1, -1) => 5,
        (-1, 0) => 6,
        (-1, 1) => 7,
        _ => unreachable!("a step goes to a neighbouring square: {from} to {to}"),
    }
}

impl DenseActions for ThreeWill {
    /// No move is both a decision and a chance outcome.
    ///
    /// Decisions, 1155 of them: a step onto an empty square `from × 8 + direction`
    /// (`0..512`; direction the eight compass points clockwise from north (towards row 8), N 0 to NW 7, so the
    /// same slot is a plain move when the step stays inside the board and a leap when it
    /// wraps across a side edge, and never both), a stacking attempt `512 + from × 8 +
    /// direction` (`512..1024`, wrapped or not), `pass` 1024, `free` 1025, `done` 1026,
    /// and a pick `1027 + square × 2 + held` (`1027..1155`). Chance outcomes, 137: the
    /// die faces `1..=6` as `0..6`, `hit` 6, `miss` 7, `stands` 8, and a twin `9 + square
    /// × 2 + held` (`9..137`). Both sizes are the same for every `max_turns` and every
    /// setting of the knobs (at most 8 agents a side, on the same 64 squares).
    ///
    /// Length: a game is drawn when its `max_turns`-th turn ends, so it has at most
    /// `T = max_turns` turns. A turn is its roll and operation (2 plies), then 3 plies
    /// (`free`, the Free roll, the Free operation) per Free card spent, then at most one
    /// ply more (the throw after a stacking attempt, or `done`; a leap, a pass, a plain
    /// move without a Free card left and a missed or hit throw end the turn at once), and
    /// once per game a challenge's pick and reveal (2 plies; later declarations are
    /// final). A seat gains Free cards only in its opponent's turns, one per turn at
    /// most (a stacking attempt paid from the bank, and an attempt ends the turn), and
    /// starts with none but Black's `F = black_free_cards`, so the Free cards spent in
    /// all turns together number at most `T − 1 + F`. Hence no game is longer than
    /// `3T + 3(T − 1 + F) + 2 = 6 · max_turns − 1 + 3F` plies: 2399 by default.
    ///
    /// Decisions alone: of those plies, the roll, the Free roll, the throw and the
    /// reveal are chance, so a turn is its operation (1 decision), then `free` and the
    /// Free operation (2) per Free card spent, then at most `done` (1), and once per game
    /// the pick (1). Hence no game has more than `2T + 2(T − 1 + F) + 1 = 4 · max_turns −
    /// 1 + 2F` decisions: 1599 by default.
    fn action_space(&self) -> ActionSpace {
        let free_cards = u32::from(self.knobs().black_free_cards);
        ActionSpace {
            decisions: DECISIONS,
            chance_outcomes: CHANCE_OUTCOMES,
            max_game_length: 6 * self.max_turns() - 1 + 3 * free_cards,
            max_decisions: 4 * self.max_turns() - 1 + 2 * free_cards,
        }
    }

    fn action_id(&self, m: ThreeWillMove) -> u32 {
        let slot = |sq: u8, held: bool| u32::from(sq) * 2 + u32::from(held);
        match m {
            ThreeWillMove::Step { from, to, kind } => {
                let base = match kind {
                    StepKind::Plain | StepKind::Leap => ONTO_EMPTY,
                    StepKind::Stack => ATTEMPT,
                };
                base + u32::from(from) * 8 + direction(from, to)
            }
            ThreeWillMove::Pass => PASS,
            ThreeWillMove::Free => FREE,
            ThreeWillMove::Done => DONE,
            ThreeWillMove::Pick { sq, held } => PICK + slot(sq, held),
            ThreeWillMove::Face(f) => u32::from(f) - 1,
            ThreeWillMove::Hit => HIT,
            ThreeWillMove::Miss => MISS,
            ThreeWillMove::Stands => STANDS,
            ThreeWillMove::Twin { sq, held } => TWIN + slot(sq, held),
        }
    }
}
