//! 3Will-3Agent-3D (K. J. L. Percival), a race of eight agents per side across an
//! 8 × 8 board, driven by a die, with stacking, cards and a challenge of every
//! declared victory. The project's description of the rules and of its readings is
//! `docs/games/threewill.md`.
//!
//! A turn is a chain of nodes: a roll (chance), the standard operation (a decision),
//! then a stacking throw (chance) or, after a plain move, `free`/`done` decisions each
//! followed by a Free roll and a Free operation. A declared victory is challenged once
//! per game: the challenger picks an agent (a decision), then the hidden card is
//! revealed (chance). Every one of these is one ply; see [`Phase`].
//!
//! Dense action ids ([`crate::DenseActions`]) and the game's length bound are in
//! `actions`.
//!
//! Representation: a [`Board`] of one byte per square plus a few counters, so the
//! state is small and `Copy`, and undo is by copy. Geometry and the stacking protocol
//! in `board`, moves in `moves` and their generation in `movegen`, the Zobrist keys
//! in `keys`, notation in `notation`, evaluation in `eval`, the picture (which `Display`
//! draws as text) in `picture`.

mod actions;
mod board;
mod encoding;
mod eval;
mod keys;
mod movegen;
mod moves;
mod notation;
mod picture;

use crate::game::{
    illegal_move, End, FastPlayout, Game, LengthCap, MoveError, NullMove, Outcome, PieRule, Seat,
    State, Symmetries, Turn, WithChance,
};
use crate::luck::{pick_weighted, EventId, Luck};
use crate::params::{ConfigError, ParamKind, ParamSpec, Params};

pub use board::{Board, RowMasks, BLACK, EMPTY, WHITE};
pub use eval::{ThreeWillEval, ThreeWillWeights};
pub use moves::{StepKind, ThreeWillMove};

use board::{colour_of, enemy};
use keys::{cell_key, dr_key, free_key, phase_key, CHALLENGE_KEY, KEYS, MOVER_KEY};

/// A middle game of the default rules: the first turns of a seeded random playout
/// (stacking hits and misses, passes), Black to roll. The criterion benches and `agon
/// bench` search it.
pub const MIDGAME: &str =
    "3 pass 2 f7*e7 miss 2 pass 3 d7*e7 hit 6 b2-a1 1 e7-e6 4 f2-g3 6 b7-b8 3 e2*d2 hit";

/// The largest `max_turns`.
pub const MAX_TURNS: u32 = 100_000;
/// The most cards a game can have: [`Knobs::MAX_DR_CARDS`] dealt to each side and
/// [`Knobs::MAX_BLACK_FREE_CARDS`] more for Black (the rulebook game has 8).
pub const MAX_CARDS: u8 = 2 * Knobs::MAX_DR_CARDS + Knobs::MAX_BLACK_FREE_CARDS;
/// Faces of the die.
const FACES: u32 = 6;

/// The designer's knobs: the numbers of the rules beyond the turn cap. The default is
/// the rulebook game; [`ThreeWill::with_knobs`] checks a setting.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Knobs {
    /// Double Risk cards dealt to each side (0..=8; the rulebook deals 4).
    pub dr_cards: u8,
    /// Faces of the six that make a stacking throw hit (1..=5; the rulebook's 1, the
    /// directive's face repeated).
    pub hit_faces: u8,
    /// Own agents locked on the objective row that win (1..=`agents`; the rulebook's 3).
    pub locks_to_win: u8,
    /// Agents per side (1..=8; the rulebook's 8), set up on the middle columns of the
    /// base's next row.
    pub agents: u8,
    /// Free cards Black (seat 1) holds at the start, cards added to the game (0..=4;
    /// the rulebook's 0): the second player's compensation, extra operations.
    pub black_free_cards: u8,
}

impl Knobs {
    /// The largest `dr_cards`.
    pub const MAX_DR_CARDS: u8 = 8;
    /// The largest `hit_faces` (six would make every attempt hit: no risk left).
    pub const MAX_HIT_FACES: u8 = 5;
    /// The largest `agents` (one per column).
    pub const MAX_AGENTS: u8 = 8;
    /// The largest `black_free_cards`.
    pub const MAX_BLACK_FREE_CARDS: u8 = 4;

    /// Why these knobs do not make a game, if they do not: a value out of its range, or
    /// more locks to win than agents.
    fn check(&self) -> Result<(), ConfigError> {
        let ranges = [
            ("dr_cards", self.dr_cards, 0, Knobs::MAX_DR_CARDS),
            ("hit_faces", self.hit_faces, 1, Knobs::MAX_HIT_FACES),
            ("locks_to_win", self.locks_to_win, 1, Knobs::MAX_AGENTS),
            ("agents", self.agents, 1, Knobs::MAX_AGENTS),
            (
                "black_free_cards",
                self.black_free_cards,
                0,
                Knobs::MAX_BLACK_FREE_CARDS,
            ),
        ];
        for (name, value, min, max) in ranges {
            if !(min..=max).contains(&value) {
                return Err(ConfigError(format!(
                    "threewill {name}={value} is not allowed: expected {min}..{max}"
                )));
            }
        }
        if self.locks_to_win > self.agents {
            return Err(ConfigError(format!(
                "threewill locks_to_win={} is not allowed with agents={}: expected 1..{}",
                self.locks_to_win, self.agents, self.agents
            )));
        }
        Ok(())
    }
}

impl Default for Knobs {
    /// The rulebook: 4 DR cards each, a hit on one face, 3 locks to win, 8 agents a
    /// side, no Free card for Black.
    fn default() -> Self {
        Knobs {
            dr_cards: 4,
            hit_faces: 1,
            locks_to_win: 3,
            agents: 8,
            black_free_cards: 0,
        }
    }
}

/// 3Will's rules: the turn cap and the designer's [`Knobs`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ThreeWill {
    max_turns: u32,
    knobs: Knobs,
}

impl ThreeWill {
    /// The rules with a draw after `max_turns` turns (1..=100000).
    pub fn new(max_turns: u32) -> Result<ThreeWill, ConfigError> {
        ThreeWill::with_knobs(max_turns, Knobs::default())
    }

    /// The rules with a draw after `max_turns` turns (1..=100000) and these knobs;
    /// refused with one line naming the valid range if a value is out of it.
    pub fn with_knobs(max_turns: u32, knobs: Knobs) -> Result<ThreeWill, ConfigError> {
        if !(1..=MAX_TURNS).contains(&max_turns) {
            return Err(ConfigError(format!(
                "threewill max_turns={max_turns} is not allowed: expected 1..{MAX_TURNS}"
            )));
        }
        knobs.check()?;
        Ok(ThreeWill { max_turns, knobs })
    }

    /// Turns (both sides counted) after which the game is drawn.
    pub fn max_turns(&self) -> u32 {
        self.max_turns
    }

    /// The designer's knobs of these rules.
    pub fn knobs(&self) -> Knobs {
        self.knobs
    }

    /// Cards in the game: the DR cards dealt to both sides and Black's Free cards.
    pub fn cards(&self) -> u8 {
        2 * self.knobs.dr_cards + self.knobs.black_free_cards
    }

    /// Weight of a challenge reveal that lets the victory stand, against 1 for each
    /// twin: `agents²`. The hidden card is uniform over 0..=agents and the twin uniform
    /// among the challenger's agents, so the win stands with chance agents / (agents +
    /// 1) and each twin has 1 / ((agents + 1) · agents): 64 against 1 with 8 agents.
    pub fn stands_weight(&self) -> u32 {
        u32::from(self.knobs.agents).pow(2)
    }

    /// Own agents locked on the objective row that win (the primary condition).
    pub fn locks_to_win(&self) -> u32 {
        u32::from(self.knobs.locks_to_win)
    }

    /// Whether `colour` meets a victory condition on `board` under these rules.
    fn meets_victory(&self, board: &Board, colour: u8) -> bool {
        board.meets_victory(colour, self.locks_to_win())
    }

    /// A position at the start of a turn (`mover` about to roll), for tests and
    /// analysis of hand-built positions: `stacks` lists `(square, top, held)` with
    /// colours [`WHITE`], [`BLACK`] or [`EMPTY`] (no held agent); every other square is
    /// empty. `dr` and `free` are the cards each seat holds; the rest are in the bank.
    /// Panics on a held agent without a top, more agents of a colour than the rules'
    /// `agents`, more DR cards than `dr_cards` or more cards than [`ThreeWill::cards`]
    /// in all, or a position in which a side
    /// already meets a victory condition (the rules never leave one pending at the
    /// start of a turn).
    pub fn custom_state(
        &self,
        stacks: &[(u8, u8, u8)],
        mover: Seat,
        dr: [u8; 2],
        free: [u8; 2],
        challenge_used: bool,
    ) -> ThreeWillState {
        let mut board = Board::empty();
        for &(sq, top, held) in stacks {
            assert!(
                top != EMPTY && top <= BLACK && held <= BLACK,
                "bad stack on {sq}"
            );
            board.set_cell(sq, top | held << 2);
        }
        let agents = u32::from(self.knobs.agents);
        for c in [WHITE, BLACK] {
            let n: u32 = (0..64)
                .map(|sq| u32::from(board.top(sq) == c) + u32::from(board.held(sq) == c))
                .sum();
            assert!(n <= agents, "more than {agents} agents of colour {c}");
            assert!(
                !self.meets_victory(&board, c),
                "colour {c} already meets a victory"
            );
        }
        assert!(
            dr.iter().all(|&n| n <= self.knobs.dr_cards),
            "more DR cards than the {} dealt",
            self.knobs.dr_cards
        );
        assert!(
            dr[0] + dr[1] + free[0] + free[1] <= self.cards(),
            "more than {} cards",
            self.cards()
        );
        self.state_at(board, mover, dr, free, challenge_used)
    }
    /// The state of these rules with this board and these cards, `mover` about to roll
    /// with no turn played, its hash computed.
    fn state_at(
        &self,
        board: Board,
        mover: Seat,
        dr: [u8; 2],
        free: [u8; 2],
        challenge_used: bool,
    ) -> ThreeWillState {
        let mut s = ThreeWillState {
            rules: *self,
            board,
            mover,
            dr,
            free,
            challenge_used,
            phase: Phase::Roll { free_op: false },
            turns: 0,
            chances: 0,
            ply: 0,
            turn_start: 0,
            hash: 0,
        };
        s.hash = s.recompute_hash();
        s
    }
}

impl Default for ThreeWill {
    /// The spec's cap, 400 turns, and the rulebook's knobs.
    fn default() -> Self {
        ThreeWill {
            max_turns: 400,
            knobs: Knobs::default(),
        }
    }
}

/// An integer parameter over `min..=max`.
const fn int(min: u8, max: u8) -> ParamKind {
    ParamKind::Int {
        min: min as i64,
        max: max as i64,
    }
}

/// The turn cap, then the designer's knobs (left out of a spec's canonical text at
/// their rulebook defaults, so the rulebook game keeps its name).
const PARAMS: &[ParamSpec] = &[
    ParamSpec {
        name: "max_turns",
        kind: ParamKind::Int {
            min: 1,
            max: MAX_TURNS as i64,
        },
        default: Some("400"),
        omitted_at_default: false,
        help: "draw after this many turns (both sides counted)",
    },
    ParamSpec {
        name: "dr_cards",
        kind: int(0, Knobs::MAX_DR_CARDS),
        default: Some("4"),
        omitted_at_default: true,
        help: "Double Risk cards dealt to each side (each pays one stacking attempt)",
    },
    ParamSpec {
        name: "hit_faces",
        kind: int(1, Knobs::MAX_HIT_FACES),
        default: Some("1"),
        omitted_at_default: true,
        help: "faces of six on which a stacking throw hits",
    },
    ParamSpec {
        name: "locks_to_win",
        kind: int(1, Knobs::MAX_AGENTS),
        default: Some("3"),
        omitted_at_default: true,
        help: "own agents locked on the objective row that win (at most agents)",
    },
    ParamSpec {
        name: "agents",
        kind: int(1, Knobs::MAX_AGENTS),
        default: Some("8"),
        omitted_at_default: true,
        help: "agents per side, set up on the middle columns",
    },
    ParamSpec {
        name: "black_free_cards",
        kind: int(0, Knobs::MAX_BLACK_FREE_CARDS),
        default: Some("0"),
        omitted_at_default: true,
        help: "Free cards black (seat 1) starts with: compensation for moving second",
    },
];

impl Game for ThreeWill {
    type State = ThreeWillState;
    const NAME: &'static str = "threewill";
    const ABOUT: &'static str =
        "3Will-3Agent-3D: dice-driven race of stacking agents, with cards and a challenge";
    const HAS_HIDDEN_INFORMATION: bool = true;

    fn param_specs() -> &'static [ParamSpec] {
        PARAMS
    }

    fn from_params(params: &Params) -> Result<Self, ConfigError> {
        let params = params.filled(PARAMS);
        let int = |name: &str| params.int(name).expect("declared with a default");
        // `with_knobs` refuses a value out of range (possible in a `Params` built by
        // hand); one that does not fit a byte becomes 255, out of every knob's range.
        let small = |name: &str| u8::try_from(int(name)).unwrap_or(u8::MAX);
        let knobs = Knobs {
            dr_cards: small("dr_cards"),
            hit_faces: small("hit_faces"),
            locks_to_win: small("locks_to_win"),
            agents: small("agents"),
            black_free_cards: small("black_free_cards"),
        };
        ThreeWill::with_knobs(u32::try_from(int("max_turns")).unwrap_or(0), knobs)
    }

    fn initial_state(&self) -> ThreeWillState {
        let k = self.knobs;
        self.state_at(
            Board::start(k.agents),
            0,
            [k.dr_cards; 2],
            [0, k.black_free_cards],
            false,
        )
    }
}

/// Where in the turn a position stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// The mover rolls (chance): the standard roll, or a Free roll (`free_op`).
    Roll {
        /// Whether the operation that follows is a Free operation.
        free_op: bool,
    },
    /// The mover chooses an operation under directive `face`.
    Operate {
        /// Whether it is a Free operation (leaps allowed, `pass` offered differently).
        free_op: bool,
        /// The directive's die face, 1..=6.
        face: u8,
    },
    /// A paid stacking attempt from `from` onto `to` awaits its throw (chance).
    Throw {
        /// Source square.
        from: u8,
        /// Target square.
        to: u8,
    },
    /// After a plain move, the mover (who holds a Free card) decides `free` or `done`.
    FreeChoice,
    /// `claimant` declared victory; its opponent picks an agent in the winning context.
    Pick {
        /// The seat that declared victory.
        claimant: Seat,
        /// Whether a `free`/`done` decision is due if play resumes.
        free_due: bool,
    },
    /// The hidden card is revealed (chance) for the picked agent.
    Reveal {
        /// The seat that declared victory.
        claimant: Seat,
        /// Whether a `free`/`done` decision is due if play resumes.
        free_due: bool,
        /// The picked agent's square.
        sq: u8,
        /// Whether the picked agent is the held one of that square.
        held: bool,
    },
    /// The game is over.
    Over {
        /// The result and the reason (`objective`, `inactive`, or the cap, a draw).
        end: End,
    },
}

/// A position of 3Will.
///
/// `Eq` and the hash cover the stacks (and so the locks), the seat to move, each seat's
/// DR and Free cards (the bank is the rest of the game's cards), whether the challenge
/// was made, and the phase with its directive, pending attempt or pick. The turn
/// counter, used only for the length cap, is left out of both, as chess leaves out its
/// move number; so are the ply count and the count of chance events in the turn (which
/// only names chance events). The rules (knobs included) are part of `Eq` but not of
/// the hash: they are fixed for a game.
#[derive(Clone, Copy, Debug)]
pub struct ThreeWillState {
    rules: ThreeWill,
    board: Board,
    /// The seat whose turn it is.
    mover: Seat,
    /// Double Risk cards per seat.
    dr: [u8; 2],
    /// Free cards per seat.
    free: [u8; 2],
    /// Whether the game's one challenge has been made.
    challenge_used: bool,
    phase: Phase,
    /// Turns completed.
    turns: u32,
    /// Chance events (rolls, throws, reveals) met so far in the current turn; names
    /// chance events for [`State::common_outcome`] only.
    chances: u32,
    ply: u32,
    /// The ply count when the current turn began: `turns()` counts the current turn
    /// once a ply has been played in it. Path data, like `ply`.
    turn_start: u32,
    hash: u64,
}

impl PartialEq for ThreeWillState {
    fn eq(&self, o: &Self) -> bool {
        self.rules == o.rules
            && self.board == o.board
            && self.mover == o.mover
            && self.dr == o.dr
            && self.free == o.free
            && self.challenge_used == o.challenge_used
            && self.phase == o.phase
    }
}

impl Eq for ThreeWillState {}

impl ThreeWillState {
    /// The outcomes of a challenge reveal against `claimant`, with their weights: the
    /// win stands, or the picked agent's twin is one of the challenger's agents (in
    /// square order, top before held). The first `n` entries of the array are used.
    fn reveal_outcomes(&self, claimant: Seat) -> ([(ThreeWillMove, u32); 9], usize) {
        let mut out = [(ThreeWillMove::Stands, self.rules.stands_weight()); 9];
        let mut n = 1;
        let c = colour_of(1 - claimant);
        for sq in 0..64u8 {
            for (held, colour) in [(false, self.board.top(sq)), (true, self.board.held(sq))] {
                if colour == c {
                    out[n] = (ThreeWillMove::Twin { sq, held }, 1);
                    n += 1;
                }
            }
        }
        (out, n)
    }

    /// The rules of this game.
    pub fn rules(&self) -> ThreeWill {
        self.rules
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The seat whose turn it is (also during the opponent's challenge pick).
    pub fn mover(&self) -> Seat {
        self.mover
    }

    /// Where in the turn the position stands.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// Double Risk cards held by `seat`.
    pub fn dr_cards(&self, seat: Seat) -> u8 {
        self.dr[seat]
    }

    /// Free cards held by `seat`.
    pub fn free_cards(&self, seat: Seat) -> u8 {
        self.free[seat]
    }

    /// Cards in the bank.
    pub fn bank(&self) -> u8 {
        self.rules.cards() - self.dr[0] - self.dr[1] - self.free[0] - self.free[1]
    }

    /// Whether the game's challenge has been made.
    pub fn challenge_used(&self) -> bool {
        self.challenge_used
    }

    /// Turns completed so far ([`State::turns`] also counts a turn in progress).
    pub fn turns_completed(&self) -> u32 {
        self.turns
    }

    #[inline]
    fn set_cell(&mut self, sq: u8, cell: u8) {
        self.hash ^= cell_key(sq, self.board.cell(sq)) ^ cell_key(sq, cell);
        self.board.set_cell(sq, cell);
    }

    /// Applies a board change through [`Board`] and updates the keys of the squares
    /// it may touch.
    fn change_board(&mut self, squares: [u8; 2], change: impl FnOnce(&mut Board)) {
        let mut b = self.board;
        change(&mut b);
        for sq in squares {
            self.set_cell(sq, b.cell(sq));
        }
    }

    fn set_dr(&mut self, seat: Seat, n: u8) {
        self.hash ^= dr_key(seat, self.dr[seat]) ^ dr_key(seat, n);
        self.dr[seat] = n;
    }

    fn set_free(&mut self, seat: Seat, n: u8) {
        self.hash ^= free_key(seat, self.free[seat]) ^ free_key(seat, n);
        self.free[seat] = n;
    }

    /// Whether `seat` meets a victory condition.
    fn meets_victory(&self, seat: Seat) -> bool {
        self.rules.meets_victory(&self.board, colour_of(seat))
    }

    /// The stacking throw's outcomes with their weights: a hit on `hit_faces` of the
    /// six faces, a miss on the others.
    fn throw_outcomes(&self) -> [(ThreeWillMove, u32); 2] {
        let hit = u32::from(self.rules.knobs.hit_faces);
        [
            (ThreeWillMove::Hit, hit),
            (ThreeWillMove::Miss, FACES - hit),
        ]
    }

    fn set_phase(&mut self, p: Phase) {
        self.hash ^= phase_key(self.phase) ^ phase_key(p);
        self.phase = p;
    }

    /// After an operation: a side meeting a victory condition (the mover first)
    /// declares it, and is challenged if the challenge is still unused; otherwise play
    /// goes on to the `free`/`done` decision if `free_due`, else the turn ends.
    fn after_operation(&mut self, free_due: bool) {
        for claimant in [self.mover, 1 - self.mover] {
            if self.meets_victory(claimant) {
                let mut can_pick = false;
                if !self.challenge_used {
                    self.for_each_pick(claimant, |_, _| can_pick = true);
                }
                if !can_pick {
                    self.win(claimant);
                } else {
                    self.set_phase(Phase::Pick { claimant, free_due });
                }
                return;
            }
        }
        self.resume(free_due);
    }

    fn resume(&mut self, free_due: bool) {
        if free_due {
            self.set_phase(Phase::FreeChoice);
        } else {
            self.end_turn();
        }
    }

    fn win(&mut self, seat: Seat) {
        let reason = if self.board.locked_count(colour_of(seat)) >= self.rules.locks_to_win() {
            "objective"
        } else {
            "inactive"
        };
        self.set_phase(Phase::Over {
            end: End::win(seat, reason),
        });
    }

    /// Ends the turn: a draw if it was the last one the cap allows, else the other
    /// seat rolls.
    fn end_turn(&mut self) {
        self.turns += 1;
        self.chances = 0;
        if self.turns >= self.rules.max_turns {
            // The cap counts turns, which the hash leaves out.
            self.set_phase(Phase::Over {
                end: End::cap(Outcome::Draw, true),
            });
        } else {
            self.mover = 1 - self.mover;
            self.hash ^= KEYS[MOVER_KEY];
            self.set_phase(Phase::Roll { free_op: false });
        }
    }
}

impl State for ThreeWillState {
    type Chance = WithChance;
    type Move = ThreeWillMove;
    type Undo = ThreeWillState;

    #[inline]
    fn turn(&self) -> Turn {
        match self.phase {
            Phase::Roll { .. } | Phase::Throw { .. } | Phase::Reveal { .. } => Turn::Chance,
            Phase::Operate { .. } | Phase::FreeChoice => Turn::Seat(self.mover),
            Phase::Pick { claimant, .. } => Turn::Seat(1 - claimant),
            Phase::Over { .. } => Turn::Over,
        }
    }

    fn legal_moves(&self, out: &mut Vec<ThreeWillMove>) {
        match self.phase {
            Phase::Operate { free_op, face } => self.operations(free_op, face, out),
            Phase::FreeChoice => out.extend([ThreeWillMove::Free, ThreeWillMove::Done]),
            Phase::Pick { claimant, .. } => {
                self.for_each_pick(claimant, |sq, held| {
                    out.push(ThreeWillMove::Pick { sq, held });
                });
            }
            _ => {}
        }
    }

    fn chance_outcomes(&self, out: &mut Vec<(ThreeWillMove, u32)>) {
        match self.phase {
            Phase::Roll { .. } => out.extend((1..=6).map(|f| (ThreeWillMove::Face(f), 1))),
            Phase::Throw { .. } => out.extend(self.throw_outcomes()),
            Phase::Reveal { claimant, .. } => {
                let (outcomes, n) = self.reveal_outcomes(claimant);
                out.extend_from_slice(&outcomes[..n]);
            }
            _ => {}
        }
    }

    /// The `k`-th chance event of turn `t` (both from 0; a turn's roll, stacking throw,
    /// Free rolls and challenge reveal are counted together) is event
    /// [`EventId::of_turn`]`(t, k)`, drawn as one weighted choice. In the two games of a
    /// pair, turn `t` belongs to the same seat, so the opening roll of each turn matches
    /// whatever happened before, and so do later events of the turn as long as both games
    /// meet the same kinds of event in the same order.
    fn common_outcome<L: Luck>(&self, luck: &L) -> ThreeWillMove {
        // The same weighted choices as over `chance_outcomes`, without a list on the heap
        // (playouts draw here at every chance node).
        let event = EventId::of_turn(self.turns, self.chances);
        match self.phase {
            Phase::Roll { .. } => ThreeWillMove::Face(1 + luck.below(event, 0, 6) as u8),
            Phase::Throw { .. } => luck.weighted(event, &self.throw_outcomes()),
            Phase::Reveal { claimant, .. } => {
                let (outcomes, n) = self.reveal_outcomes(claimant);
                luck.weighted(event, &outcomes[..n])
            }
            _ => panic!("common_outcome called where no chance event is pending"),
        }
    }

    fn max_moves(&self) -> usize {
        // 8 active agents × 3 steps + pass; 16 picks; 1 + 8 reveals.
        25
    }

    fn apply(&mut self, m: ThreeWillMove) -> ThreeWillState {
        debug_assert!(self.is_legal(m), "illegal move {m:?} in {self:?}");
        let undo = *self;
        // Counted before the move, which may end the turn and reset the count.
        if self.turn() == Turn::Chance {
            self.chances += 1;
        }
        match (self.phase, m) {
            (Phase::Roll { free_op }, ThreeWillMove::Face(face)) => {
                self.set_phase(Phase::Operate { free_op, face });
            }
            (Phase::Operate { .. }, ThreeWillMove::Step { from, to, kind }) => match kind {
                StepKind::Stack => {
                    let me = self.mover;
                    if self.dr[me] > 0 {
                        self.set_dr(me, self.dr[me] - 1);
                    } else {
                        self.set_free(1 - me, self.free[1 - me] + 1);
                    }
                    self.set_phase(Phase::Throw { from, to });
                }
                StepKind::Plain | StepKind::Leap => {
                    self.change_board([from, to], |b| b.move_stack(from, to));
                    let free_due = kind == StepKind::Plain && self.free[self.mover] > 0;
                    self.after_operation(free_due);
                }
            },
            (Phase::Operate { .. }, ThreeWillMove::Pass) => self.end_turn(),
            (Phase::Throw { from, to }, ThreeWillMove::Hit) => {
                self.change_board([from, to], |b| b.stack(from, to));
                self.after_operation(false);
            }
            (Phase::Throw { .. }, ThreeWillMove::Miss) => self.end_turn(),
            (Phase::FreeChoice, ThreeWillMove::Free) => {
                self.set_free(self.mover, self.free[self.mover] - 1);
                self.set_phase(Phase::Roll { free_op: true });
            }
            (Phase::FreeChoice, ThreeWillMove::Done) => self.end_turn(),
            (Phase::Pick { claimant, free_due }, ThreeWillMove::Pick { sq, held }) => {
                self.challenge_used = true;
                self.hash ^= KEYS[CHALLENGE_KEY];
                self.set_phase(Phase::Reveal {
                    claimant,
                    free_due,
                    sq,
                    held,
                });
            }
            (Phase::Reveal { claimant, .. }, ThreeWillMove::Stands) => self.win(claimant),
            (
                Phase::Reveal {
                    claimant,
                    free_due,
                    sq,
                    held,
                },
                ThreeWillMove::Twin {
                    sq: tsq,
                    held: theld,
                },
            ) => {
                let (a, b) = (colour_of(claimant), enemy(colour_of(claimant)));
                let put = |cell: u8, held: bool, c: u8| {
                    if held {
                        (cell & 3) | c << 2
                    } else {
                        (cell & !3) | c
                    }
                };
                let cell = put(self.board.cell(sq), held, b);
                self.set_cell(sq, cell);
                let cell = put(self.board.cell(tsq), theld, a);
                self.set_cell(tsq, cell);
                if self.meets_victory(claimant) {
                    self.win(claimant);
                } else if self.meets_victory(1 - claimant) {
                    self.win(1 - claimant);
                } else {
                    self.resume(free_due);
                }
            }
            _ => unreachable!("illegal move {m:?} in phase {:?}", self.phase),
        }
        self.ply += 1;
        if self.turns != undo.turns {
            // This ply ended a turn: the next one begins with the next ply.
            self.turn_start = self.ply;
        }
        debug_assert_eq!(self.hash, self.recompute_hash());
        undo
    }

    fn try_apply(&mut self, m: ThreeWillMove) -> Result<ThreeWillState, MoveError> {
        if self.is_legal(m) {
            Ok(self.apply(m))
        } else {
            Err(illegal_move(self, m, "not a legal move in this position"))
        }
    }

    #[inline]
    fn undo(&mut self, undo: ThreeWillState) {
        *self = undo;
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn recompute_hash(&self) -> u64 {
        let mut h = 0;
        for sq in 0..64 {
            h ^= cell_key(sq, self.board.cell(sq));
        }
        if self.mover == 1 {
            h ^= KEYS[MOVER_KEY];
        }
        if self.challenge_used {
            h ^= KEYS[CHALLENGE_KEY];
        }
        for seat in 0..2 {
            h ^= dr_key(seat, self.dr[seat]) ^ free_key(seat, self.free[seat]);
        }
        h ^ phase_key(self.phase)
    }

    #[inline]
    fn end(&self) -> Option<End> {
        match self.phase {
            Phase::Over { end } => Some(end),
            _ => None,
        }
    }

    fn side(&self, seat: Seat) -> &'static str {
        ["white", "black"][seat]
    }

    fn ply(&self) -> u32 {
        self.ply
    }

    /// A turn is everything from the mover's roll to the end of its operation: throws,
    /// Free operations with their rolls, and a challenge with its pick and reveal
    /// included; both sides' turns counted, the unit of the `max_turns` cap.
    fn turns(&self) -> u32 {
        self.turns + u32::from(self.ply > self.turn_start)
    }

    fn format_move(&self, m: ThreeWillMove) -> String {
        notation::format_move(m)
    }

    fn parse_move(&self, text: &str) -> Result<ThreeWillMove, MoveError> {
        notation::parse_move(self, text)
    }
}

impl FastPlayout for ThreeWillState {
    /// The same outcomes as `chance_outcomes`, in its order, without a list on the heap:
    /// a die face in closed form, a throw by comparing with the hit's weight.
    #[inline]
    fn outcome_for_draw(
        &self,
        draw: impl FnOnce(u64) -> u64,
        _: &mut Vec<(ThreeWillMove, u32)>,
    ) -> ThreeWillMove {
        match self.phase {
            Phase::Roll { .. } => ThreeWillMove::Face(1 + draw(6) as u8),
            Phase::Throw { .. } => {
                if draw(u64::from(FACES)) < u64::from(self.rules.knobs.hit_faces) {
                    ThreeWillMove::Hit
                } else {
                    ThreeWillMove::Miss
                }
            }
            Phase::Reveal { claimant, .. } => {
                let (outcomes, n) = self.reveal_outcomes(claimant);
                let total = outcomes[..n].iter().map(|&(_, w)| u64::from(w)).sum();
                pick_weighted(&outcomes[..n], draw(total))
            }
            _ => panic!("outcome_for_draw called where no chance event is pending"),
        }
    }
}

impl Symmetries for ThreeWillState {}

impl PieRule for ThreeWillState {}

impl NullMove for ThreeWillState {}

impl LengthCap for ThreeWillState {}
