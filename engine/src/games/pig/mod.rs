//! Pig, the folk dice game, with OpenSpiel's rules and defaults so that results are
//! comparable with OpenSpiel's `pig`.
//!
//! On a turn a player rolls a die as often as they like, adding each face to a turn
//! total; a 1 loses the turn total and ends the turn, and `hold` banks the turn total
//! and ends it. The first player whose banked score reaches `target` wins; after
//! `horizon` decisions without a winner the game is a draw. The project's description
//! of the rules, and of how they match OpenSpiel's, is `docs/games/pig.md`.
//!
//! Representation: a handful of counters, so the state is `Copy`-sized and undo is by
//! copy; `apply` only updates counters (the Zobrist key is computed from them when
//! asked), and a random playout draws a decision and its die at once and applies them
//! without a branch on the coin ([`FastPlayout::fast_random_plies`]), so a playout ply
//! costs a couple of nanoseconds. Moves in `moves`, notation in `notation`, evaluation in
//! `eval`, the picture of a position (the table: scores, turn total, die) in `picture`,
//! the playout loop in `playout`.

mod encoding;
mod eval;
mod moves;
mod notation;
mod picture;
mod playout;

use crate::actions::{ActionSpace, DenseActions};
use crate::game::{
    illegal_move, End, FastPlayout, Game, LengthCap, MoveError, NullMove, Outcome, PieRule, Seat,
    State, Symmetries, Turn, WithChance,
};
use crate::luck::{EventId, Luck};
use crate::params::{ConfigError, ParamKind, ParamSpec, Params};
use crate::zobrist;

pub use eval::PigEval;
pub use moves::{PigMove, MAX_DIE};

/// A middle game of the default rules: seat 0 to act with a turn total of 9, 9 points
/// against 0. `agon bench` searches it.
pub const MIDGAME: &str = "roll 5 roll 4 hold roll 6 roll 1 roll 3 roll 6";

/// The largest `target` (the `target` parameter's upper limit).
pub const MAX_TARGET: u32 = 1000;
/// The largest `horizon` (the `horizon` parameter's upper limit).
pub const MAX_HORIZON: u32 = 100_000;

/// Pig's rules: points to win, faces of the die, the decision cap, and the points seat 1
/// starts with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pig {
    target: u32,
    die: u32,
    horizon: u32,
    bonus: u32,
}

impl Pig {
    /// The rules with a `target` score (1..=1000), a die of `die` faces (2..=20) and a
    /// draw after `horizon` decisions (1..=100000).
    pub fn new(target: u32, die: u32, horizon: u32) -> Result<Pig, ConfigError> {
        let check = |name: &str, value: u32, min: u32, max: u32| {
            if (min..=max).contains(&value) {
                Ok(())
            } else {
                Err(ConfigError(format!(
                    "pig {name}={value} is not allowed: expected {min}..{max}"
                )))
            }
        };
        check("target", target, 1, MAX_TARGET)?;
        check("die", die, 2, MAX_DIE)?;
        check("horizon", horizon, 1, MAX_HORIZON)?;
        Ok(Pig {
            target,
            die,
            horizon,
            bonus: 0,
        })
    }

    /// The same rules with seat 1, the second to act, starting with `bonus` points
    /// banked: the compensation for moving second. Refused unless `bonus` is below the
    /// target (a seat that starts at the target has already won).
    pub fn with_bonus(self, bonus: u32) -> Result<Pig, ConfigError> {
        if bonus >= self.target {
            return Err(ConfigError(format!(
                "pig bonus={bonus} is not allowed with target={}: expected 0..{}",
                self.target,
                self.target - 1
            )));
        }
        Ok(Pig { bonus, ..self })
    }

    /// Banked points that win.
    pub fn target(&self) -> u32 {
        self.target
    }

    /// Faces of the die (`1..=die`, equally likely).
    pub fn die(&self) -> u32 {
        self.die
    }

    /// Decisions (rolls and holds, not chance outcomes) after which the game is drawn.
    pub fn horizon(&self) -> u32 {
        self.horizon
    }

    /// Points seat 1 has banked at the start (0 in the rulebook game).
    pub fn bonus(&self) -> u32 {
        self.bonus
    }
}

impl Default for Pig {
    /// OpenSpiel's defaults: first to 100 with a d6, drawn after 1000 decisions.
    fn default() -> Self {
        Pig {
            target: 100,
            die: 6,
            horizon: 1000,
            bonus: 0,
        }
    }
}

const PARAMS: &[ParamSpec] = &[
    ParamSpec {
        name: "bonus",
        kind: ParamKind::Int {
            min: 0,
            max: MAX_TARGET as i64 - 1,
        },
        default: Some("0"),
        omitted_at_default: true,
        help: "points seat 1 (the second to act) starts with, to make up for moving second; below target",
    },
    ParamSpec {
        name: "die",
        kind: ParamKind::Int {
            min: 2,
            max: MAX_DIE as i64,
        },
        default: Some("6"),
        omitted_at_default: false,
        help: "faces of the die (OpenSpiel: diceoutcomes)",
    },
    ParamSpec {
        name: "horizon",
        kind: ParamKind::Int {
            min: 1,
            max: MAX_HORIZON as i64,
        },
        default: Some("1000"),
        omitted_at_default: false,
        help: "decisions (rolls and holds) after which the game is drawn",
    },
    ParamSpec {
        name: "target",
        kind: ParamKind::Int {
            min: 1,
            max: MAX_TARGET as i64,
        },
        default: Some("100"),
        omitted_at_default: false,
        help: "banked points that win (OpenSpiel: winscore)",
    },
];

impl Game for Pig {
    type State = PigState;
    const NAME: &'static str = "pig";
    const ABOUT: &'static str =
        "Pig (OpenSpiel rules): roll to build a turn total, hold to bank it, a 1 loses it";
    const HAS_HIDDEN_INFORMATION: bool = false;

    fn param_specs() -> &'static [ParamSpec] {
        PARAMS
    }

    fn from_params(params: &Params) -> Result<Self, ConfigError> {
        let params = params.filled(PARAMS);
        let get = |name| {
            let v = params.int(name).expect("declared with a default");
            u32::try_from(v).map_err(|_| ConfigError(format!("pig {name}={v} is not allowed")))
        };
        Pig::new(get("target")?, get("die")?, get("horizon")?)?.with_bonus(get("bonus")?)
    }

    fn initial_state(&self) -> PigState {
        PigState {
            rules: *self,
            scores: [0, self.bonus],
            turn_total: 0,
            mover: 0,
            rolling: false,
            decisions: 0,
            turns: 0,
            rolls: 0,
            ply: 0,
            turn_start: 0,
            die_shows: 0,
        }
    }
}

impl DenseActions for Pig {
    /// OpenSpiel's numbering: decisions `roll` 0 and `hold` 1, faces `1..=die` as
    /// outcomes `0..die`. A game is over once `horizon` decisions are made, and only a
    /// roll is followed by a chance outcome, one that the last decision never gets: no
    /// game is longer than `2 · horizon - 1` plies, and none has more than `horizon`
    /// decisions (OpenSpiel's bound for its `pig`).
    fn action_space(&self) -> ActionSpace {
        ActionSpace {
            decisions: 2,
            chance_outcomes: self.die,
            max_game_length: 2 * self.horizon - 1,
            max_decisions: self.horizon,
        }
    }

    fn action_id(&self, m: PigMove) -> u32 {
        match m {
            PigMove::Roll => 0,
            PigMove::Hold => 1,
            PigMove::Face(f) => u32::from(f) - 1,
        }
    }
}

/// Slots per counter in the key table: scores and turn totals never exceed
/// `target - 1 + die` (a player below the target rolls at most one more face before they
/// must hold), so 1024 slots hold every value of the largest rules.
const SLOTS: usize = 1024;
const _: () = assert!(MAX_TARGET + MAX_DIE - 1 < SLOTS as u32);
/// The decision counter is keyed in two base-1024 digits: `SLOTS` keys for the low
/// digit and `HIGH_SLOTS` for the high one.
const HIGH_SLOTS: usize = MAX_HORIZON as usize / SLOTS + 1;

/// Zobrist keys: each seat's score, the turn total, and the decision counter's low and
/// high digits (33 KiB, so a `static`: one copy, not one per use).
static KEYS: [u64; 4 * SLOTS + HIGH_SLOTS] = zobrist::keys(0x0019_D1CE);
const SCORE_KEYS: usize = 0;
const TURN_TOTAL_KEYS: usize = 2 * SLOTS;
const LOW_DECISION_KEYS: usize = 3 * SLOTS;
const HIGH_DECISION_KEYS: usize = 4 * SLOTS;
/// Keys of the two flags: seat 1 to move, and a roll pending.
const FLAG_KEYS: [u64; 2] = zobrist::keys(0x0019_F1A6);
const KEY_SEAT1_TO_MOVE: u64 = FLAG_KEYS[0];
const KEY_ROLLING: u64 = FLAG_KEYS[1];

#[inline]
fn score_key(seat: Seat, score: u32) -> u64 {
    KEYS[SCORE_KEYS + seat * SLOTS + score as usize]
}

#[inline]
fn turn_total_key(total: u32) -> u64 {
    KEYS[TURN_TOTAL_KEYS + total as usize]
}

#[inline]
fn decisions_key(decisions: u32) -> u64 {
    let d = decisions as usize;
    KEYS[LOW_DECISION_KEYS + d % SLOTS] ^ KEYS[HIGH_DECISION_KEYS + d / SLOTS]
}

/// A position of Pig.
///
/// `Eq` and the hash cover both banked scores, the turn total, whose turn it is, whether
/// a roll is pending, and the number of decisions made so far; `Eq` also compares the
/// rules. The decision counter is part of the position on purpose: the value of a
/// position depends on how many decisions remain before the horizon (with one left, the
/// game is drawn unless the mover can hold to win), so a table shared by positions at
/// different distances from the horizon could return a value that is wrong here. Leaving
/// it out would find more transpositions but is only safe when no search ever sees the
/// horizon; an exact search (expectimax, Star1/Star2 with a table) of a 1000-decision
/// game cannot promise that, so the counter stays in. Not covered: the ply count
/// (decisions plus chance outcomes, which the decision counter and the position already
/// determine up to the order of play), the turn and roll counters that only name
/// chance events for [`State::common_outcome`], and the face the die shows, which only
/// the picture reads.
#[derive(Clone, Copy, Debug)]
pub struct PigState {
    rules: Pig,
    /// Banked points per seat.
    scores: [u32; 2],
    /// Points of the current turn, not yet banked (at risk while rolling).
    turn_total: u32,
    /// The seat whose turn it is (also while its roll is pending).
    mover: Seat,
    /// Whether the mover has rolled and the die has not yet been read.
    rolling: bool,
    /// Decisions (rolls and holds) made so far; the game is drawn at `horizon`.
    decisions: u32,
    /// Turns completed (a hold or a 1 ends a turn); names chance events only.
    turns: u32,
    /// Dice read so far in the current turn; names chance events only.
    rolls: u32,
    ply: u32,
    /// The ply count when the current turn began: `turns()` counts the current turn
    /// once a ply has been played in it. Path data, like `ply`.
    turn_start: u32,
    /// The face the die shows on the table: the last face read, until a hold clears
    /// it (0: blank), so a 1 stays in view after it ends a turn. Path data, like `ply`,
    /// read by the picture alone.
    die_shows: u8,
}

impl PigState {
    /// The rules of this game.
    pub fn rules(&self) -> Pig {
        self.rules
    }

    /// The banked score of `seat`.
    pub fn score(&self, seat: Seat) -> u32 {
        self.scores[seat]
    }

    /// Points rolled in the current turn and not yet banked.
    pub fn turn_total(&self) -> u32 {
        self.turn_total
    }

    /// The seat whose turn it is, also while its roll is pending (meaningless once the
    /// game is over).
    pub fn mover(&self) -> Seat {
        self.mover
    }

    /// Whether a roll is pending (the node is a chance node unless the game is over).
    pub fn rolling(&self) -> bool {
        self.rolling
    }

    /// Decisions (rolls and holds) made so far.
    pub fn decisions(&self) -> u32 {
        self.decisions
    }

    /// Turns completed so far (a hold or a 1 ends a turn); turn `t` (from 0) is seat
    /// `t % 2`'s.
    pub fn turns_completed(&self) -> u32 {
        self.turns
    }

    /// Whether the game has ended: a banked score reached the target, or the horizon.
    #[inline]
    fn is_over(&self) -> bool {
        self.scores[0] >= self.rules.target
            || self.scores[1] >= self.rules.target
            || self.decisions >= self.rules.horizon
    }

    /// Whether the mover's score plus turn total reaches the target, so that `hold` is
    /// the only decision (OpenSpiel's rule: once holding wins, rolling is not allowed).
    #[inline]
    fn must_hold(&self) -> bool {
        self.scores[self.mover] + self.turn_total >= self.rules.target
    }

    /// Whether `m` is legal here (the check behind `try_apply` and `apply`'s debug check).
    fn is_legal(&self, m: PigMove) -> bool {
        match (self.turn(), m) {
            (Turn::Seat(_), PigMove::Hold) => true,
            (Turn::Seat(_), PigMove::Roll) => !self.must_hold(),
            (Turn::Chance, PigMove::Face(f)) => (1..=self.rules.die).contains(&u32::from(f)),
            _ => false,
        }
    }

    /// Ends the mover's turn: the other seat decides next, with a turn total of 0.
    #[inline]
    fn pass_turn(&mut self) {
        self.turn_total = 0;
        self.mover = 1 - self.mover;
        self.turns += 1;
        self.rolls = 0;
    }
}

impl PartialEq for PigState {
    fn eq(&self, o: &Self) -> bool {
        self.rules == o.rules
            && self.scores == o.scores
            && self.turn_total == o.turn_total
            && self.mover == o.mover
            && self.rolling == o.rolling
            && self.decisions == o.decisions
    }
}

impl Eq for PigState {}

impl State for PigState {
    type Chance = WithChance;
    type Move = PigMove;
    type Undo = PigState;

    #[inline]
    fn turn(&self) -> Turn {
        if self.is_over() {
            Turn::Over
        } else if self.rolling {
            Turn::Chance
        } else {
            Turn::Seat(self.mover)
        }
    }

    fn legal_moves(&self, out: &mut Vec<PigMove>) {
        if let Turn::Seat(_) = self.turn() {
            if !self.must_hold() {
                out.push(PigMove::Roll);
            }
            out.push(PigMove::Hold);
        }
    }

    fn chance_outcomes(&self, out: &mut Vec<(PigMove, u32)>) {
        if self.turn() == Turn::Chance {
            // A fair die: every face has weight 1.
            out.extend((1..=self.rules.die as u8).map(|f| (PigMove::Face(f), 1)));
        }
    }

    /// The `k`-th die of turn `t` (both from 0) is event [`EventId::of_turn`]`(t, k)`:
    /// in the two games of a pair, the seat playing turn `t` (the same seat in both)
    /// reads the same faces in the same order, whatever either game's agents did on
    /// earlier turns. Each face has weight 1, so the weighted choice is a fair die.
    fn common_outcome<L: Luck>(&self, luck: &L) -> PigMove {
        debug_assert_eq!(self.turn(), Turn::Chance);
        // The weighted choice over faces 1..=die of weight 1, without a list.
        let index = luck.below(
            EventId::of_turn(self.turns, self.rolls),
            0,
            self.rules.die.into(),
        );
        PigMove::Face(1 + index as u8)
    }

    fn max_moves(&self) -> usize {
        (self.rules.die as usize).max(2)
    }

    // Always inlined: a random playout applies a move every ply and drops the undo
    // token, and only an inlined `apply` lets the compiler skip copying the whole state
    // into that token (a call writes it, then reads it back at the next ply).
    #[inline(always)]
    fn apply(&mut self, m: PigMove) -> PigState {
        debug_assert!(self.is_legal(m), "illegal move {m:?} in {self:?}");
        let undo = *self;
        let turns = self.turns;
        match m {
            PigMove::Roll => {
                self.rolling = true;
                self.decisions += 1;
            }
            PigMove::Hold => {
                self.scores[self.mover] += self.turn_total;
                self.pass_turn();
                self.decisions += 1;
                self.die_shows = 0;
            }
            PigMove::Face(1) => {
                self.rolling = false;
                self.pass_turn();
                self.die_shows = 1;
            }
            PigMove::Face(f) => {
                self.rolling = false;
                self.turn_total += u32::from(f);
                self.rolls += 1;
                self.die_shows = f;
            }
        }
        self.ply += 1;
        if self.turns != turns {
            // This ply ended a turn: the next one begins with the next ply.
            self.turn_start = self.ply;
        }
        undo
    }

    fn try_apply(&mut self, m: PigMove) -> Result<PigState, MoveError> {
        if self.is_legal(m) {
            Ok(self.apply(m))
        } else {
            Err(illegal_move(self, m, "not a legal move in this position"))
        }
    }

    #[inline]
    fn undo(&mut self, undo: PigState) {
        *self = undo;
    }

    /// Computed on demand from the counters (six table reads), not kept up to date
    /// ply by ply: playouts apply far more moves than anything reads keys, so an
    /// incremental key would cost every ply and save almost nothing.
    #[inline]
    fn hash(&self) -> u64 {
        self.recompute_hash()
    }

    #[inline]
    fn recompute_hash(&self) -> u64 {
        let mut h = score_key(0, self.scores[0])
            ^ score_key(1, self.scores[1])
            ^ turn_total_key(self.turn_total)
            ^ decisions_key(self.decisions);
        if self.mover == 1 {
            h ^= KEY_SEAT1_TO_MOVE;
        }
        if self.rolling {
            h ^= KEY_ROLLING;
        }
        h
    }

    /// The decision counter the `horizon` cap reads is part of the position, so the
    /// cap does not end the game by history.
    #[inline]
    fn end(&self) -> Option<End> {
        if !self.is_over() {
            None
        } else if let Some(w) = (0..2).find(|&s| self.scores[s] >= self.rules.target) {
            // A hold that reaches the target as the horizon's last decision still wins,
            // as in OpenSpiel (its returns look at the scores first).
            Some(End::win(w, "target"))
        } else {
            Some(End::cap(Outcome::Draw, false))
        }
    }

    fn side(&self, seat: Seat) -> &'static str {
        ["first", "second"][seat]
    }

    fn ply(&self) -> u32 {
        self.ply
    }

    /// A turn is one player's rolls up to a hold or a 1 (its dice included). The
    /// `horizon` cap counts decisions, not turns.
    fn turns(&self) -> u32 {
        self.turns + u32::from(self.ply > self.turn_start)
    }

    fn format_move(&self, m: PigMove) -> String {
        notation::format_move(m)
    }

    fn parse_move(&self, text: &str) -> Result<PigMove, MoveError> {
        notation::parse_move(self, text)
    }
}

impl FastPlayout for PigState {
    /// A fair die: draw `d` below `die` is face `d + 1`, the `d`-th outcome of weight 1.
    /// Always inlined, as `apply` is: a random playout calls it every other ply.
    #[inline(always)]
    fn outcome_for_draw(
        &self,
        draw: impl FnOnce(u64) -> u64,
        _: &mut Vec<(PigMove, u32)>,
    ) -> PigMove {
        debug_assert_eq!(self.turn(), Turn::Chance);
        PigMove::Face(1 + draw(self.rules.die.into()) as u8)
    }

    /// `roll` (index 0) and `hold` (index 1), or `hold` alone when holding wins. Always
    /// inlined, as `apply` is.
    #[inline(always)]
    fn move_for_draw(&self, draw: impl FnOnce(u32) -> u32, _: &mut Vec<PigMove>) -> PigMove {
        debug_assert!(matches!(self.turn(), Turn::Seat(_)));
        if self.must_hold() {
            draw(1);
            PigMove::Hold
        } else if draw(2) == 0 {
            PigMove::Roll
        } else {
            PigMove::Hold
        }
    }

    /// A decision and its die in one draw, applied without a branch on the coin
    /// (`playout`'s docs).
    #[inline(always)]
    fn fast_random_plies(&mut self, max_plies: u32, draw: impl FnMut(u64) -> u64) -> u32 {
        playout::fused_random_plies(self, max_plies, draw)
    }
}

impl Symmetries for PigState {}

impl PieRule for PigState {}

impl NullMove for PigState {}

impl LengthCap for PigState {
    /// The position with no decisions made: the decision count is read by the
    /// `horizon` cap alone, so positions that differ only in it reset alike.
    #[inline]
    fn cap_reset(&self) -> Self {
        PigState {
            decisions: 0,
            ..*self
        }
    }
}
