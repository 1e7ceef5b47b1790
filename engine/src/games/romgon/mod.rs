//! Romgon (rulebook v1.0, romgon.net): a race-and-capture game on a 51-cell hexagonal
//! board. Each side brings its Rhombus onto the enemy base, or captures or deadlocks the
//! enemy Rhombus; repeating a position a third time, shuttling a piece type five times
//! (the `shuttle_limit` knob) over the same pair of cells, or having no legal action
//! loses. The designer's knobs ([`RomgonKnobs`]) also thin out the setup and give a
//! handicap. The project's own description of the rules and the rulings it plays is
//! `docs/games/romgon.md`.
//!
//! Representation: bitboards by colour, type and orientation (`board`), move
//! generation from per-cell pattern tables with the no-self-attack filter (`moves`),
//! notation in `notation`, evaluation in `eval`, the board as a
//! [`Picture`](crate::picture::Picture) in `picture`, dense action ids and the bound on
//! a game's length in `actions`.
//!
//! The state carries two rule memories besides the board:
//! - the **shuttle counters**, one per (colour, type, unordered pair of cells): they
//!   decide future losses, so they are part of `Eq` and of the hash;
//! - the **history** of position keys since the start (index = ply), which the
//!   threefold-repetition rule reads. It is path history, so it is left out of `Eq` and
//!   the hash (as the game API asks). Only the stretch since the last capture is ever
//!   scanned: a capture can never be undone, so earlier positions cannot recur.
//!
//! Undo is by a small record (the copyable part of the state and which counter to
//! decrement); the history is a `Vec` reserved up front, so `apply` never allocates.

mod actions;
mod board;
mod encoding;
mod eval;
mod keys;
mod moves;
mod notation;
mod picture;

use std::fmt;

use crate::bits::Cells;
use crate::game::{
    illegal_move, End, FastPlayout, Game, LengthCap, MoveError, NoChance, NullMove, Outcome,
    PieRule, Seat, State, Symmetries, Turn,
};
use crate::params::{ConfigError, ParamKind, ParamSpec, Params};

use board::{bit, cell, cell_name, Bitboard, Board, Geometry, CELLS, SHUTTLE_PAIRS};
pub use board::{Colour, Kind, Piece};
pub use eval::RomgonEval;
use keys::{counter_key, piece_key, result_key, KEYS, KEY_SIDE};
use moves::MoveRules;
pub use moves::{ActionKind, Defence, RomgonMove, Rotation};

/// A middle game of the default rules after 13 actions of a random playout (seed 5), White
/// to move: both sides' triangles and hexagons out, a black triangle on the dead zone's
/// edge, and deadlocks within three plies (it is a line of the perft data file). The
/// criterion benches and `agon bench` search it.
pub const MIDGAME: &str =
    "t1-6>2-6@SW T1-0>2-1@SW t2-6>3-7@E C2-0>1-0 t5-6>5-5@NW H4-0>3-2@E t5-5>4-5@W \
     H3-2>4-0@E h2-7>2-6@E T2-1@NE t4-5>3-5@SE T2-1@E s0-5>1-5";

/// Romgon's rules: defence variant, rotation policy, length cap and the designer's
/// knobs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Romgon {
    defence: Defence,
    rotation: Rotation,
    max_actions: u32,
    knobs: RomgonKnobs,
}

/// The designer's knobs: the numbers of the setup and of the shuttle rule that a designer
/// turns to rebalance the game. [`RomgonKnobs::default`] is the rulebook game; every
/// value that [`Romgon::with_knobs`] accepts gives a legal, finite game.
///
/// Piece counts only remove pieces from the rulebook setup (more would need starting
/// cells the rulebook does not name). A side's pieces of one type go
/// in a fixed order, so that the two setups stay each other's image under the board's
/// half-turn: White's Square `0-0` goes before `6-0` and Black's `6-5` before `0-5`;
/// White's Triangle `1-0` before `5-0` and Black's `5-6` before `1-6`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RomgonKnobs {
    /// Squares a side starts with, 0..=2 (rulebook 2).
    pub squares: u8,
    /// Triangles a side starts with, 0..=2 (rulebook 2).
    pub triangles: u8,
    /// Circles a side starts with, 0..=1 (rulebook 1).
    pub circles: u8,
    /// Hexagons a side starts with, 0..=1 (rulebook 1).
    pub hexagons: u8,
    /// The shuttle count that loses: the non-capturing move of a colour's pieces of one
    /// type that makes this many over the same pair of cells loses, 2..=9 (rulebook 5).
    pub shuttle_limit: u8,
    /// Squares taken away from one side's `squares`, to compensate the other: a
    /// positive value takes them from seat 0 (Black, which moves first), a negative one
    /// from seat 1 (White). At most `squares` either way (rulebook 0).
    pub handicap: i8,
}

impl Default for RomgonKnobs {
    /// The rulebook: two squares and two triangles, a circle and a hexagon a side, the
    /// fifth shuttle move loses, no handicap.
    fn default() -> Self {
        RomgonKnobs {
            squares: 2,
            triangles: 2,
            circles: 1,
            hexagons: 1,
            shuttle_limit: 5,
            handicap: 0,
        }
    }
}

/// The most squares or triangles a side has (the rulebook's).
const MAX_PAIR: u8 = 2;
/// The most circles or hexagons a side has (the rulebook's).
const MAX_SINGLE: u8 = 1;
/// The least shuttle limit: a piece may move over a pair of cells once, not back.
const MIN_SHUTTLE_LIMIT: u8 = 2;
/// The largest shuttle limit (the counters' keys are made up to it).
const MAX_SHUTTLE_LIMIT: u8 = 9;

impl RomgonKnobs {
    /// Checks every knob against its range, and the handicap against the squares.
    fn check(&self) -> Result<(), ConfigError> {
        let range = |name: &str, value: u8, min: u8, max: u8| {
            if (min..=max).contains(&value) {
                Ok(())
            } else {
                Err(ConfigError(format!(
                    "romgon: {name}={value} is out of range {min}..{max}"
                )))
            }
        };
        range("squares", self.squares, 0, MAX_PAIR)?;
        range("triangles", self.triangles, 0, MAX_PAIR)?;
        range("circles", self.circles, 0, MAX_SINGLE)?;
        range("hexagons", self.hexagons, 0, MAX_SINGLE)?;
        range(
            "shuttle_limit",
            self.shuttle_limit,
            MIN_SHUTTLE_LIMIT,
            MAX_SHUTTLE_LIMIT,
        )?;
        if self.handicap.unsigned_abs() > self.squares {
            let most = self.squares;
            return Err(ConfigError(format!(
                "romgon: handicap={} takes more squares than squares={most} gives; \
                 with squares={most} the handicap must be in -{most}..{most}",
                self.handicap
            )));
        }
        Ok(())
    }

    /// The squares `colour` starts with, after the handicap.
    fn squares_of(&self, colour: Colour) -> u8 {
        let taken = match colour {
            Colour::Black => self.handicap.max(0),
            Colour::White => (-self.handicap).max(0),
        };
        self.squares - taken.unsigned_abs()
    }
}

impl Romgon {
    /// The rules with these options. `max_actions` must be at least 1.
    pub fn new(
        defence: Defence,
        rotation: Rotation,
        max_actions: u32,
    ) -> Result<Romgon, ConfigError> {
        if max_actions == 0 {
            return Err(ConfigError("romgon: max_actions must be at least 1".into()));
        }
        Ok(Romgon {
            defence,
            rotation,
            max_actions,
            knobs: RomgonKnobs::default(),
        })
    }

    /// The same rules with these knobs (see [`RomgonKnobs`]); an error names a knob out
    /// of its range, or a handicap larger than the squares it takes from.
    pub fn with_knobs(self, knobs: RomgonKnobs) -> Result<Romgon, ConfigError> {
        knobs.check()?;
        Ok(Romgon { knobs, ..self })
    }

    /// The designer's knobs.
    pub fn knobs(&self) -> RomgonKnobs {
        self.knobs
    }

    /// The shuttle count that loses.
    pub fn shuttle_limit(&self) -> u8 {
        self.knobs.shuttle_limit
    }

    /// The initial pieces, in the piece-list format of [`Romgon::position`]: the
    /// rulebook setup less the pieces the knobs remove (see [`RomgonKnobs`]).
    pub fn setup(&self) -> String {
        let k = &self.knobs;
        // Each side's pieces of a type, in the order they are kept: the first n stand.
        let lists: [(&[&str], u8); 10] = [
            (&["S6-0", "S0-0"], k.squares_of(Colour::White)),
            (&["T5-0@E", "T1-0@E"], k.triangles),
            (&["C2-0"], k.circles),
            (&["R3-0"], 1),
            (&["H4-0@E"], k.hexagons),
            (&["s0-5", "s6-5"], k.squares_of(Colour::Black)),
            (&["t1-6@W", "t5-6@W"], k.triangles),
            (&["c4-7"], k.circles),
            (&["r3-8"], 1),
            (&["h2-7@E"], k.hexagons),
        ];
        lists
            .iter()
            .flat_map(|(pieces, n)| &pieces[..usize::from(*n)])
            .copied()
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The defence variant.
    pub fn defence(&self) -> Defence {
        self.defence
    }

    /// The rotation policy.
    pub fn rotation(&self) -> Rotation {
        self.rotation
    }

    /// Actions after which the game is drawn.
    pub fn max_actions(&self) -> u32 {
        self.max_actions
    }

    fn move_rules(&self) -> MoveRules {
        MoveRules {
            defence: self.defence,
            rotation: self.rotation,
        }
    }

    /// **Test support**: a position built from a list of pieces, with `to_move` to act,
    /// no history before it (it counts as occurring once) and every shuttle counter at
    /// zero. Pieces are written as in the notation, `<P><cell>` with `@<o>` for a
    /// triangle's facing or a hexagon's axis (default E), separated by spaces, e.g.
    /// `"R3-0 r3-8 T1-0@E h2-7@SE"`. Each side needs exactly one Rhombus, and no more
    /// of a type than the rulebook setup has (2 squares, 2 triangles, 1 circle, 1
    /// hexagon), whatever the knobs; a circle may not stand in the dead zone, nor a
    /// Rhombus on its goal. The enemy Rhombus may stand attacked (then the
    /// Rhombus-captured rule can be played out). If the side to move has no legal
    /// action, the game is over by draglock.
    pub fn position(&self, pieces: &str, to_move: Colour) -> Result<RomgonState, String> {
        let g = Geometry::get();
        let mut board = Board::default();
        for token in pieces.split_whitespace() {
            let (p, piece) = notation::parse_piece(token)?;
            if board.occupied() & bit(p) != 0 {
                return Err(format!("{token}: cell {} is given twice", cell_name(p)));
            }
            if piece.kind == Kind::Circle && g.zone[p] == board::Zone::Dead {
                return Err(format!("{token}: a circle never stands in the dead zone"));
            }
            if piece.kind == Kind::Rhombus && p == piece.colour.goal() {
                return Err(format!("{token}: a Rhombus on its goal has already won"));
            }
            board.put(p, piece);
        }
        for colour in [Colour::Black, Colour::White] {
            for (kind, most) in [
                (Kind::Square, 2),
                (Kind::Triangle, 2),
                (Kind::Circle, 1),
                (Kind::Rhombus, 1),
                (Kind::Hexagon, 1),
            ] {
                let n = board.pieces(colour, kind).count_ones();
                if n > most || (kind == Kind::Rhombus && n != 1) {
                    let allowed = if kind == Kind::Rhombus {
                        "exactly 1".to_string()
                    } else {
                        format!("at most {most}")
                    };
                    return Err(format!(
                        "{} has {n} × {} (allowed: {allowed})",
                        colour.name(),
                        kind.name(),
                    ));
                }
            }
        }
        Ok(RomgonState::from_board(*self, board, to_move))
    }
}

impl Default for Romgon {
    /// Shape Defence, any rotation, 600 actions, the rulebook's knobs: the spec's
    /// defaults.
    fn default() -> Self {
        Romgon {
            defence: Defence::Shape,
            rotation: Rotation::Any,
            max_actions: 600,
            knobs: RomgonKnobs::default(),
        }
    }
}

/// The parameters, by name. The designer's knobs (every one but `defence`,
/// `max_actions` and `rotation`) are left out of the canonical text at their rulebook
/// default.
const PARAMS: &[ParamSpec] = &[
    ParamSpec {
        name: "circles",
        kind: ParamKind::Int {
            min: 0,
            max: MAX_SINGLE as i64,
        },
        default: Some("1"),
        omitted_at_default: true,
        help: "circles a side starts with",
    },
    ParamSpec {
        name: "defence",
        kind: ParamKind::Choice(&["shape", "original"]),
        default: Some("shape"),
        omitted_at_default: false,
        help: "shape: a Rhombus may not enter an attacked enemy base; original: it always may",
    },
    ParamSpec {
        name: "handicap",
        kind: ParamKind::Int {
            min: -(MAX_PAIR as i64),
            max: MAX_PAIR as i64,
        },
        default: Some("0"),
        omitted_at_default: true,
        help: "squares taken from seat 0 (positive, compensates seat 1) or seat 1 (negative)",
    },
    ParamSpec {
        name: "hexagons",
        kind: ParamKind::Int {
            min: 0,
            max: MAX_SINGLE as i64,
        },
        default: Some("1"),
        omitted_at_default: true,
        help: "hexagons a side starts with",
    },
    ParamSpec {
        name: "max_actions",
        kind: ParamKind::Int {
            min: 1,
            max: 100_000,
        },
        default: Some("600"),
        omitted_at_default: false,
        help: "the game is drawn after this many actions (a toolkit safeguard)",
    },
    ParamSpec {
        name: "rotation",
        kind: ParamKind::Choice(&["any", "step"]),
        default: Some("any"),
        omitted_at_default: false,
        help: "any: any final facing or axis; step: a triangle turns at most 60 degrees",
    },
    ParamSpec {
        name: "shuttle_limit",
        kind: ParamKind::Int {
            min: MIN_SHUTTLE_LIMIT as i64,
            max: MAX_SHUTTLE_LIMIT as i64,
        },
        default: Some("5"),
        omitted_at_default: true,
        help: "the move making this many of one type over the same two cells loses",
    },
    ParamSpec {
        name: "squares",
        kind: ParamKind::Int {
            min: 0,
            max: MAX_PAIR as i64,
        },
        default: Some("2"),
        omitted_at_default: true,
        help: "squares a side starts with (before the handicap)",
    },
    ParamSpec {
        name: "triangles",
        kind: ParamKind::Int {
            min: 0,
            max: MAX_PAIR as i64,
        },
        default: Some("2"),
        omitted_at_default: true,
        help: "triangles a side starts with",
    },
];

impl Game for Romgon {
    type State = RomgonState;
    const NAME: &'static str = "romgon";
    const ABOUT: &'static str =
        "Romgon: race your Rhombus to the enemy base on a 51-cell hex board";
    const HAS_HIDDEN_INFORMATION: bool = false;

    fn param_specs() -> &'static [ParamSpec] {
        PARAMS
    }

    fn from_params(params: &Params) -> Result<Self, ConfigError> {
        let params = params.filled(PARAMS);
        let defence = match params.choice("defence").expect("declared with a default") {
            "original" => Defence::Original,
            _ => Defence::Shape,
        };
        let rotation = match params.choice("rotation").expect("declared with a default") {
            "step" => Rotation::Step,
            _ => Rotation::Any,
        };
        let max_actions = params.int("max_actions").expect("declared with a default") as u32;
        // The declared ranges fit these types; `with_knobs` checks them again.
        let int = |name| params.int(name).expect("declared with a default");
        let knobs = RomgonKnobs {
            squares: int("squares") as u8,
            triangles: int("triangles") as u8,
            circles: int("circles") as u8,
            hexagons: int("hexagons") as u8,
            shuttle_limit: int("shuttle_limit") as u8,
            handicap: int("handicap") as i8,
        };
        Romgon::new(defence, rotation, max_actions)?.with_knobs(knobs)
    }

    fn initial_state(&self) -> RomgonState {
        self.position(&self.setup(), Colour::Black)
            .expect("the setup is a valid position")
    }
}

/// History entries reserved up front (more are reserved only for caps above this).
const HISTORY_RESERVE: usize = 1024;

/// The copyable part of a state: everything but the counters and the history. It is
/// also the undo record's main part.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Core {
    board: Board,
    to_move: Colour,
    /// Key of the pieces and the side to move: what repetition compares.
    pos_key: u64,
    /// Key of the shuttle counters.
    counter_key: u64,
    /// Ply of the last capture (0 if none): positions before it cannot recur.
    irreversible: u32,
    ply: u32,
    /// How the game ended, once it has. `Eq` and the hash cover only its outcome.
    end: Option<End>,
}

/// What [`RomgonState::undo`] needs: the core before the action, and the shuttle
/// counter it raised, if any.
#[derive(Clone, Copy, Debug)]
pub struct RomgonUndo {
    core: Core,
    counter: Option<u16>,
}

/// A position of Romgon, with the rule memories described in the module docs.
///
/// `Eq` and the hash cover the pieces with their orientations, the side to move, the
/// shuttle counters and the result; not the ply count or the history.
pub struct RomgonState {
    rules: Romgon,
    geo: &'static Geometry,
    core: Core,
    /// Shuttle counters: index `colour * SHUTTLE_PAIRS + pair` (see
    /// [`Geometry::shuttle_pair`]).
    counters: [u8; 2 * SHUTTLE_PAIRS],
    /// Position key after each ply, from the initial position (index 0) on.
    history: Vec<u64>,
}

impl Clone for RomgonState {
    fn clone(&self) -> Self {
        let mut history = Vec::with_capacity(self.history.capacity());
        history.extend_from_slice(&self.history);
        RomgonState {
            rules: self.rules,
            geo: self.geo,
            core: self.core,
            counters: self.counters,
            history,
        }
    }

    /// Reuses the history's allocation (MCTS restores its root this way every
    /// iteration).
    fn clone_from(&mut self, source: &Self) {
        self.rules = source.rules;
        self.geo = source.geo;
        self.core = source.core;
        self.counters = source.counters;
        self.history.clear();
        self.history.reserve(source.history.capacity());
        self.history.extend_from_slice(&source.history);
    }
}

impl RomgonState {
    /// A position with no history and zero counters; checks for draglock.
    fn from_board(rules: Romgon, board: Board, to_move: Colour) -> RomgonState {
        let mut s = RomgonState {
            rules,
            geo: Geometry::get(),
            core: Core {
                board,
                to_move,
                pos_key: 0,
                counter_key: 0,
                irreversible: 0,
                ply: 0,
                end: None,
            },
            counters: [0; 2 * SHUTTLE_PAIRS],
            history: Vec::with_capacity((rules.max_actions as usize + 1).min(HISTORY_RESERVE)),
        };
        s.core.pos_key = s.position_key();
        s.history.push(s.core.pos_key);
        if !s.has_action(to_move) {
            s.core.end = Some(End::win(to_move.other() as usize, "draglock"));
        }
        s
    }

    /// The rules this state plays.
    pub fn rules(&self) -> Romgon {
        self.rules
    }

    /// The pieces.
    fn board(&self) -> &Board {
        &self.core.board
    }

    /// The colour to move (meaningless once the game is over).
    pub fn colour_to_move(&self) -> Colour {
        self.core.to_move
    }

    /// The piece on `r-c`, if any (`None` also for a cell off the board).
    pub fn piece_at(&self, r: usize, c: usize) -> Option<Piece> {
        cell(r, c).and_then(|p| self.core.board.piece(p))
    }

    /// The shuttle counter of `colour`'s `kind` pieces between cells `a` and `b`
    /// (cell indices), or `None` if that type never moves between them.
    pub fn shuttle_count(&self, colour: Colour, kind: Kind, a: usize, b: usize) -> Option<u8> {
        let pair = self.geo.shuttle_pair[(kind as usize * CELLS + a) * CELLS + b];
        (pair != u16::MAX)
            .then(|| self.counters[colour as usize * SHUTTLE_PAIRS + usize::from(pair)])
    }

    /// How many times the current position (pieces, orientations, side to move) has
    /// occurred, this time included.
    pub fn occurrences(&self) -> usize {
        self.times_seen(self.core.pos_key, self.core.ply as usize + 1)
    }

    /// How many times the position with key `key` stood in the history since the last
    /// capture, at the plies before `before` with the same side to move as at
    /// `before - 1`.
    fn times_seen(&self, key: u64, before: usize) -> usize {
        (self.core.irreversible as usize..before)
            .rev()
            .step_by(2)
            .filter(|&i| self.history[i] == key)
            .count()
    }

    /// The geometry (shared by every state).
    fn geometry(&self) -> &'static Geometry {
        self.geo
    }

    /// Whether `colour` has any legal action here. A side whose Rhombus stands
    /// unattacked and that has a triangle or hexagon can always turn it (a rotation
    /// moves nothing, so it cannot expose the Rhombus): that answers at once in nearly
    /// every position, without generating actions.
    fn has_action(&self, colour: Colour) -> bool {
        can_rotate_safely(self.geo, &self.core.board, colour)
            || self.generates_action(&self.core.board, colour)
    }

    /// Whether the move generator finds a legal action of `colour` on `board` (this
    /// position's, or one after an action under test), under this game's rules.
    fn generates_action(&self, board: &Board, colour: Colour) -> bool {
        moves::generate(
            self.geo,
            self.rules.move_rules(),
            board,
            colour,
            &mut Vec::new(),
            true,
        )
    }

    /// Key of the pieces and the side to move, from scratch.
    fn position_key(&self) -> u64 {
        let mut key = 0;
        for p in Cells(self.core.board.occupied()) {
            key ^= piece_key(p, self.core.board.piece(p).expect("occupied"));
        }
        if self.core.to_move == Colour::White {
            key ^= KEYS[KEY_SIDE];
        }
        key
    }

    /// Whether `m` is a legal action here (constant time; the conformance suite checks
    /// that it agrees with `legal_moves`).
    pub fn is_legal(&self, m: RomgonMove) -> bool {
        self.core.end.is_none()
            && moves::is_legal(
                self.geo,
                self.rules.move_rules(),
                &self.core.board,
                self.core.to_move,
                m,
            )
    }

    /// The end rules after `mover`'s action, in the rules' order; `moved` is the
    /// acting piece (now on `to`), `captured` what it took, `shuttle` whether a counter
    /// reached the limit.
    fn end_after(
        &self,
        mover: Colour,
        moved: Piece,
        to: usize,
        captured: Option<Piece>,
        shuttle: bool,
    ) -> Option<End> {
        let win = |c: Colour, word| End::win(c as usize, word);
        let opponent = mover.other();
        let board = &self.core.board;
        if moved.kind == Kind::Rhombus && to == mover.goal() {
            return Some(win(mover, "fortress"));
        }
        if captured.is_some_and(|p| p.kind == Kind::Rhombus) {
            return Some(win(mover, "capture"));
        }
        // Whether the opponent's Rhombus stands unattacked, asked once for the deadlock
        // and the draglock rules.
        let opponent_safe = board
            .rhombus(opponent)
            .is_some_and(|home| !board.attacked(self.geo, home, mover));
        if !opponent_safe && moves::deadlocked(self.geo, self.rules.defence, board, opponent) {
            return Some(win(mover, "deadlock"));
        }
        if self.occurrences() >= 3 {
            // The threefold rule reads the position history, which the hash leaves out.
            return Some(End::by_history(
                Outcome::Win(opponent as usize),
                "repetition",
            ));
        }
        if shuttle {
            return Some(win(opponent, "shuttle"));
        }
        // A safe turn is an action (as in `has_action`); only otherwise generate.
        let opponent_can_act =
            opponent_safe && has_turner(board, opponent) || self.generates_action(board, opponent);
        if !opponent_can_act {
            return Some(win(mover, "draglock"));
        }
        if self.core.ply >= self.rules.max_actions {
            // The cap reads the ply count, which the hash leaves out.
            return Some(End::cap(Outcome::Draw, true));
        }
        None
    }
}

/// The tests of whether a quiet action of the side to move wins at once, with what they
/// share for one position worked out once. A quiet action wins only by a fortress (the
/// Rhombus onto its goal), a deadlock or a draglock. Past the first ply the enemy
/// Rhombus stands unattacked (the no-self-attack rule; its one exception, a Rhombus
/// entering the enemy base, ends the game), so an action attacks it only if it places
/// a square, triangle or hexagon where it attacks it (known from the attack tables
/// alone), moves a circle, or leaves the Rhombus's ring where the actor has a circle;
/// and unattacked, with a triangle or hexagon to turn, the enemy has an action. What
/// remains is tested on the board after the action, without the end checks `apply`
/// runs. On the first ply (a set-up position may start in check) every action is
/// tested on the board.
struct QuietWins<'a> {
    state: &'a RomgonState,
    /// The enemy Rhombus's cell.
    home: usize,
    /// The cells whose actions are tested on the board after them.
    looked_at: Bitboard,
    squares: Bitboard,
    triangles: Bitboard,
    hexagons: Bitboard,
    enemy_turns: bool,
}

impl<'a> QuietWins<'a> {
    /// The tests for `state`; `None` where any action may end the game (the game is
    /// over, or the enemy has no Rhombus).
    fn of(state: &'a RomgonState) -> Option<QuietWins<'a>> {
        let (g, board) = (state.geo, &state.core.board);
        let mover = state.core.to_move;
        let enemy = mover.other();
        let home = board.rhombus(enemy).filter(|_| state.core.end.is_none())?;
        let looked_at = if state.core.ply == 0 {
            !0
        } else {
            debug_assert!(!board.attacked(g, home, mover));
            let zone = g.zone[home];
            let own_circles = board.pieces(mover, Kind::Circle);
            let ring_open =
                zone != board::Zone::Dead && own_circles & g.zone_cells[zone as usize] != 0;
            own_circles
                | if ring_open {
                    g.zone_cells[zone as usize]
                } else {
                    0
                }
        };
        Some(QuietWins {
            state,
            home,
            looked_at,
            squares: board.pieces(mover, Kind::Square),
            triangles: board.pieces(mover, Kind::Triangle),
            hexagons: board.pieces(mover, Kind::Hexagon),
            enemy_turns: has_turner(board, enemy),
        })
    }

    /// Whether the legal quiet action `m` may win: `false` is a promise.
    fn may_win(&self, m: RomgonMove) -> bool {
        let (g, board) = (self.state.geo, &self.state.core.board);
        let mover = self.state.core.to_move;
        let (from, to) = (usize::from(m.from), usize::from(m.to));
        let from_bit = bit(from);
        let orient = usize::from(m.orient);
        // The acting piece's type, and whether the action may attack the enemy Rhombus
        // (`false`: it does not).
        let (kind, may_attack) = if from_bit & self.looked_at != 0 {
            match board.kind_at(from) {
                Some(kind) => (kind, true),
                None => return true,
            }
        } else if from_bit & self.squares != 0 {
            (Kind::Square, g.square[self.home] & bit(to) != 0)
        } else if from_bit & self.triangles != 0 {
            (
                Kind::Triangle,
                g.triangle_from[orient][self.home] & bit(to) != 0,
            )
        } else if from_bit & self.hexagons != 0 {
            (Kind::Hexagon, g.hexagon[orient][self.home] & bit(to) != 0)
        } else {
            // The Rhombus, away from the ring: it attacks nothing.
            (Kind::Rhombus, false)
        };
        if kind == Kind::Rhombus && to == mover.goal() {
            return true;
        }
        if !may_attack && self.enemy_turns {
            // Unattacked with a piece to turn: neither deadlocked nor out of actions.
            return false;
        }
        let piece = |orient| Piece {
            colour: mover,
            kind,
            orient,
        };
        let mut after = *board;
        after.remove(from, piece(board.orient_at(kind, from)));
        after.put(to, piece(m.orient));
        // Attacked, the enemy Rhombus is lost exactly when it is deadlocked (else it has
        // a move); unattacked, when the enemy has no action at all.
        let enemy = mover.other();
        if after.attacked(g, self.home, mover) {
            moves::deadlocked(g, self.state.rules.defence, &after, enemy)
        } else {
            !self.state.generates_action(&after, enemy)
        }
    }
}

/// Whether `colour`'s Rhombus stands unattacked on `board` and `colour` has a triangle
/// or hexagon, which can then always turn: a legal action that moves nothing, and
/// proof that the Rhombus is neither in check nor deadlocked.
fn can_rotate_safely(g: &Geometry, board: &Board, colour: Colour) -> bool {
    has_turner(board, colour)
        && board
            .rhombus(colour)
            .is_some_and(|home| !board.attacked(g, home, colour.other()))
}

/// Whether `colour` has a triangle or hexagon, a piece that can turn in place.
fn has_turner(board: &Board, colour: Colour) -> bool {
    board.pieces(colour, Kind::Triangle) | board.pieces(colour, Kind::Hexagon) != 0
}

impl PartialEq for RomgonState {
    fn eq(&self, o: &Self) -> bool {
        self.rules == o.rules
            && self.core.board == o.core.board
            && self.core.to_move == o.core.to_move
            && self.outcome() == o.outcome()
            && self.counters == o.counters
    }
}

impl Eq for RomgonState {}

impl State for RomgonState {
    type Chance = NoChance;
    type Move = RomgonMove;
    type Undo = RomgonUndo;

    #[inline]
    fn turn(&self) -> Turn {
        match self.core.end {
            Some(_) => Turn::Over,
            None => Turn::Seat(self.core.to_move as usize),
        }
    }

    fn legal_moves(&self, out: &mut Vec<RomgonMove>) {
        if self.core.end.is_none() {
            moves::generate(
                self.geo,
                self.rules.move_rules(),
                &self.core.board,
                self.core.to_move,
                out,
                false,
            );
        }
    }

    fn max_moves(&self) -> usize {
        // Per side at most: 2 triangles × (3 targets × 6 facings + 5 rotations), a
        // hexagon 6 × 3 + 2, 2 squares × 4, a Rhombus 6 + 4, a circle 21 slide targets
        // + 6 zone changes: 111.
        128
    }

    fn apply(&mut self, m: RomgonMove) -> RomgonUndo {
        debug_assert!(self.is_legal(m), "illegal move {m:?}");
        let undo_core = self.core;
        let mover = self.core.to_move;
        let (from, to) = (usize::from(m.from), usize::from(m.to));
        let board = &mut self.core.board;
        let piece = board.piece(from).expect("a piece acts");
        let mut key = self.core.pos_key;
        let mut captured = None;
        let mut counter = None;
        let mut shuttle = false;
        match m.kind {
            ActionKind::Capture => {
                let victim = board.piece(to).expect("a capture takes a piece");
                board.remove(to, victim);
                board.remove(from, piece);
                board.put(to, piece);
                key ^= piece_key(to, victim) ^ piece_key(from, piece) ^ piece_key(to, piece);
                captured = Some(victim);
                self.core.irreversible = self.core.ply + 1;
            }
            // A rotation is a move to its own cell (`to == from`) that no shuttle
            // counter sees.
            ActionKind::Rotate | ActionKind::Move => {
                let placed = Piece {
                    orient: m.orient,
                    ..piece
                };
                board.remove(from, piece);
                board.put(to, placed);
                key ^= piece_key(from, piece) ^ piece_key(to, placed);
                if m.kind == ActionKind::Move {
                    let pair =
                        self.geo.shuttle_pair[(piece.kind as usize * CELLS + from) * CELLS + to];
                    debug_assert_ne!(pair, u16::MAX, "a move outside the shuttle pairs");
                    let id = mover as usize * SHUTTLE_PAIRS + usize::from(pair);
                    let old = self.counters[id];
                    self.counters[id] = old + 1;
                    self.core.counter_key ^= counter_key(id, old) ^ counter_key(id, old + 1);
                    counter = Some(id as u16);
                    shuttle = old + 1 >= self.rules.knobs.shuttle_limit;
                }
            }
        }
        self.core.pos_key = key ^ KEYS[KEY_SIDE];
        self.core.to_move = mover.other();
        self.core.ply += 1;
        self.history.push(self.core.pos_key);
        if let Some(end) = self.end_after(mover, piece, to, captured, shuttle) {
            self.core.end = Some(end);
        }
        debug_assert_eq!(self.hash(), self.recompute_hash());
        RomgonUndo {
            core: undo_core,
            counter,
        }
    }

    /// A quiet action ends the game only by a fortress, a deadlock or a draglock (see
    /// [`QuietWins`]), a repetition, a shuttle counter reaching
    /// its limit or the cap; a capture may end it in other ways. Each is ruled out here
    /// from the board after the action, without the end checks `apply` runs.
    fn may_end_game(&self, m: RomgonMove) -> bool {
        if self.core.end.is_some()
            || m.kind == ActionKind::Capture
            || self.core.ply + 1 >= self.rules.max_actions
        {
            return true;
        }
        let board = &self.core.board;
        let (from, to) = (usize::from(m.from), usize::from(m.to));
        let Some(piece) = board.piece(from) else {
            return true;
        };
        if QuietWins::of(self).map_or(true, |wins| wins.may_win(m)) {
            return true;
        }
        let mover = self.core.to_move;
        let limit = self.rules.knobs.shuttle_limit;
        if m.kind == ActionKind::Move
            && self
                .shuttle_count(mover, piece.kind, from, to)
                .is_some_and(|count| count + 1 >= limit)
        {
            return true;
        }
        // Threefold: the position after the action already seen twice since the last
        // capture, with the same side to move.
        let placed = Piece {
            orient: m.orient,
            ..piece
        };
        let key =
            self.core.pos_key ^ piece_key(from, piece) ^ piece_key(to, placed) ^ KEYS[KEY_SIDE];
        self.times_seen(key, self.core.ply as usize) >= 2
    }

    /// The repetition and shuttle rules only ever make the actor lose, and the cap
    /// draws, so a quiet action wins only by a fortress, a deadlock or a draglock,
    /// which [`QuietWins`] tests with what the position's actions share worked out once.
    fn retain_possible_wins(&self, moves: &mut Vec<RomgonMove>) {
        if let Some(wins) = QuietWins::of(self) {
            moves.retain(|&m| m.kind == ActionKind::Capture || wins.may_win(m));
        }
    }

    /// The side to move's Rhombus stands attacked: the opponent would capture it next,
    /// so every legal action answers the threat (the no-self-attack rule).
    fn in_check(&self) -> bool {
        let (board, colour) = (&self.core.board, self.core.to_move);
        self.core.end.is_none()
            && board
                .rhombus(colour)
                .is_some_and(|home| board.attacked(self.geo, home, colour.other()))
    }

    fn try_apply(&mut self, m: RomgonMove) -> Result<RomgonUndo, MoveError> {
        if self.core.end.is_some() {
            return Err(MoveError::new(self.format_move(m), "the game is over"));
        }
        if self.is_legal(m) {
            return Ok(self.apply(m));
        }
        Err(illegal_move(self, m, "not a legal action in this position"))
    }

    #[inline]
    fn undo(&mut self, undo: RomgonUndo) {
        if let Some(id) = undo.counter {
            self.counters[usize::from(id)] -= 1;
        }
        self.history.pop();
        self.core = undo.core;
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.core.pos_key ^ self.core.counter_key ^ result_key(self.outcome())
    }

    fn recompute_hash(&self) -> u64 {
        let mut h = self.position_key() ^ result_key(self.outcome());
        for (id, &value) in self.counters.iter().enumerate() {
            h ^= counter_key(id, value);
        }
        h
    }

    #[inline]
    fn end(&self) -> Option<End> {
        self.core.end
    }

    fn side(&self, seat: Seat) -> &'static str {
        if seat == 0 {
            "black"
        } else {
            "white"
        }
    }

    fn ply(&self) -> u32 {
        self.core.ply
    }

    /// A turn is one action (a move with its final facing, or a turn in place), so
    /// turns are plies, the unit of the `max_actions` cap.
    fn turns(&self) -> u32 {
        self.core.ply
    }

    fn format_move(&self, m: RomgonMove) -> String {
        notation::format_move(&self.core.board, m)
    }

    fn parse_move(&self, text: &str) -> Result<RomgonMove, MoveError> {
        notation::parse_move(self, text)
    }
}

impl FastPlayout for RomgonState {}

impl Symmetries for RomgonState {}

impl PieRule for RomgonState {}

/// The pass moves no piece and ticks no shuttle counter; it is one more ply of the
/// history (for the undo). There is none where the side that would then move has no
/// action or is deadlocked, or at the length cap: those would end the game on a move
/// the rules do not have.
impl NullMove for RomgonState {
    fn null_move(&mut self) -> Option<RomgonUndo> {
        let next = self.core.to_move.other();
        if self.core.end.is_some()
            || self.core.ply + 1 >= self.rules.max_actions
            || !self.has_action(next)
            || moves::deadlocked(self.geo, self.rules.defence, &self.core.board, next)
        {
            return None;
        }
        let undo = RomgonUndo {
            core: self.core,
            counter: None,
        };
        self.core.pos_key ^= KEYS[KEY_SIDE];
        self.core.to_move = next;
        self.core.ply += 1;
        self.history.push(self.core.pos_key);
        debug_assert_eq!(self.hash(), self.recompute_hash());
        Some(undo)
    }
}

impl LengthCap for RomgonState {}

impl fmt::Debug for RomgonState {
    /// Every field; the history as its length and a fingerprint (it can be hundreds of
    /// keys long), the counters as the nonzero ones.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let counters: Vec<(usize, u8)> = self
            .counters
            .iter()
            .enumerate()
            .filter(|&(_, &v)| v != 0)
            .map(|(i, &v)| (i, v))
            .collect();
        let fingerprint = self
            .history
            .iter()
            .fold(0u64, |acc, &k| acc.rotate_left(7) ^ k);
        f.debug_struct("RomgonState")
            .field("rules", &self.rules)
            .field("core", &self.core)
            .field("counters", &counters)
            .field("history_len", &self.history.len())
            .field("history_fingerprint", &format_args!("{fingerprint:#x}"))
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn setup_round_trip() {
        let s = Romgon::default().initial_state();
        assert_eq!(s.board().colour[0].count_ones(), 7);
        assert_eq!(s.board().colour[1].count_ones(), 7);
        assert_eq!(s.hash(), s.recompute_hash());
        let (r, c) = board::row_col(board::BLACK_BASE);
        assert_eq!(s.piece_at(r, c).map(|p| p.kind), Some(Kind::Rhombus));
    }
}
