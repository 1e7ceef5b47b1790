//! Hexstrat (a 2017 design, later "Battle for The Shifting Hills"): three squads a side
//! cross a hidden hexagonal midfield to seize the enemy Headquarters or destroy every
//! enemy unit.
//!
//! The terrain is face down for both players, so each reveal is a chance node whose
//! outcomes are the tile types still in the bag, weighted by how many of each remain. A
//! turn is several decisions of one seat: each squad acts at most once (move, attack or
//! recover), and the turn ends with `end` or by itself once every surviving squad has
//! acted. The project's description of the rules and rulings is `docs/games/hexstrat.md`.
//!
//! Representation: geometry and bitboards in `board`, the move and unit types in
//! `moves`, their generation and legality checks in `movegen`, applying them (combat,
//! entering, the end of a turn, seizing) in `apply`, the Zobrist keys in `keys`, combat
//! arithmetic in `combat`, the designer's knobs (the rulebook's numbers a variant may
//! turn) in `knobs`, notation in `notation`, evaluation in `eval`, the board as a
//! [`Picture`](crate::picture::Picture) (which `Display` draws as text) in
//! `picture`, the test-support constructor of hand-built positions in `setup`, and the
//! dense action ids ([`crate::DenseActions`]) with the game's length bound in `actions`. The state is a
//! few dozen bytes and `Copy`, so undo is by copy.

mod actions;
mod apply;
mod board;
mod combat;
mod encoding;
mod eval;
mod keys;
mod knobs;
mod movegen;
mod moves;
mod notation;
mod picture;
mod setup;

use crate::bits::Cells;
use crate::game::{
    End, EndReason, FastPlayout, Game, LengthCap, MoveError, NullMove, PieRule, Seat, State,
    Symmetries, Turn, WithChance,
};
use crate::luck::{pick_weighted, EventId, Luck};
use crate::params::{ConfigError, ParamKind, ParamSpec, Params};

pub use board::{cell_name, parse_cell, CELLS, TILE_CELLS};
use board::{Bitboard, HQ};
use combat::Ground;
pub use combat::Terrain;
pub use eval::{HexstratEval, HexstratWeights};
use keys::{bag_key, hp_key, pending_key, pos_key, seize_key, tile_key};
use keys::{ACTED_KEYS, CAPPED_KEY, IMPEDED_KEYS, KEYS, OPENING_KEY, SEAT1_KEY};
pub use knobs::Knobs;
pub use moves::{HexMove, Tile, Unit};
pub use setup::{Setup, SquadSetup};

/// A middle game of the default rules: 39 plies of an aggressive seeded playout, one of
/// the perft data file's lines; North to act, both sides at full strength near the
/// centre, 13 tiles face up. The criterion benches and `agon bench` search it.
pub const MIDGAME: &str = "M:c3 plains R:e1 plains end R:d7 plains end I:d3 plains \
    M:b3 plains R:d2 M:c7 forest end M:c3 I:d4 plains R:d3 I:c6 mountain R:d6 M:recover \
    R:c4 forest M:d3 I:d5 mountain R:e5 forest M:d6 I:b6 plains I:d4 R:c5 mountain M:e2 plains";

/// Squads in the game: three per side, indexed `seat * 3 + unit`.
pub const SQUADS: usize = 6;
/// Tiles in the bag at the start: one per cell but the two Headquarters.
pub const TILES: u32 = 35;
/// The largest `max_rounds` (the parameter's upper limit).
pub const MAX_ROUNDS: u16 = 1000;
/// The seize count that wins in the rulebook (the `seize_turns` knob turns it).
pub const SEIZE_WINS: u8 = 3;
/// A dead squad's cell.
const NO_CELL: u8 = u8::MAX;

/// The squad index of `unit` of `seat`.
#[inline]
pub const fn squad(seat: Seat, unit: Unit) -> usize {
    seat * 3 + unit as usize
}

/// Hexstrat's rules: the face-down tile bag, the length cap and the designer's knobs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hexstrat {
    /// Tiles of each type in the bag at the start (`Tile as usize`), summing to 35.
    bag: [u8; 3],
    /// Turns of each side after which the game is drawn.
    max_rounds: u16,
    /// The rulebook's numbers as this variant turns them (checked to be in range).
    knobs: Knobs,
}

impl Hexstrat {
    /// The rules with a bag of `plains`, `forests` and `mountains` tiles (which must sum
    /// to 35, the face-down cells) and a draw after `max_rounds` turns of each side
    /// (1..=1000).
    pub fn new(
        plains: u32,
        forests: u32,
        mountains: u32,
        max_rounds: u32,
    ) -> Result<Hexstrat, ConfigError> {
        let total = plains + forests + mountains;
        if total != TILES {
            return Err(ConfigError(format!(
                "hexstrat tile bag plains={plains}, forests={forests}, mountains={mountains} \
                 holds {total} tiles: the 35 face-down cells need exactly 35"
            )));
        }
        if !(1..=u32::from(MAX_ROUNDS)).contains(&max_rounds) {
            return Err(ConfigError(format!(
                "hexstrat max_rounds={max_rounds} is not allowed: expected 1..{MAX_ROUNDS}"
            )));
        }
        Ok(Hexstrat {
            bag: [plains as u8, forests as u8, mountains as u8],
            max_rounds: max_rounds as u16,
            knobs: Knobs::RULEBOOK,
        })
    }

    /// These rules with the designer's `knobs` (the squads, the seize count, the terrain
    /// bonuses, the compensation of seat 1) in place of the current ones. Refuses a knob
    /// outside its range with one line naming it and the valid range.
    pub fn with_knobs(self, knobs: Knobs) -> Result<Hexstrat, ConfigError> {
        knobs.check()?;
        Ok(Hexstrat { knobs, ..self })
    }

    /// The designer's knobs of these rules ([`Knobs::RULEBOOK`] unless turned).
    pub fn knobs(&self) -> Knobs {
        self.knobs
    }

    /// Tiles of type `tile` in the bag at the start.
    pub fn tiles(&self, tile: Tile) -> u32 {
        u32::from(self.bag[tile as usize])
    }

    /// Turns of each side after which the game is drawn.
    pub fn max_rounds(&self) -> u32 {
        u32::from(self.max_rounds)
    }

    /// Turns (of both sides together) after which the game is drawn.
    fn turn_cap(&self) -> u16 {
        2 * self.max_rounds
    }

    /// Whether seat 0's first turn is cut short (the `opening_actions` knob below 3).
    fn short_opening(&self) -> bool {
        usize::from(self.knobs.opening_actions) < Unit::ALL.len()
    }
}

impl Default for Hexstrat {
    /// The spec's defaults: 15 Plains, 10 Forest, 10 Mountain; 60 turns each; the
    /// rulebook's knobs.
    fn default() -> Self {
        Hexstrat {
            bag: [15, 10, 10],
            max_rounds: 60,
            knobs: Knobs::RULEBOOK,
        }
    }
}

/// A designer's knob: an integer parameter left out of the canonical text at its
/// default, so that a spec which does not turn it names the rulebook game as before.
const fn knob(
    name: &'static str,
    min: i64,
    max: i64,
    default: &'static str,
    help: &'static str,
) -> ParamSpec {
    ParamSpec {
        name,
        kind: ParamKind::Int { min, max },
        default: Some(default),
        omitted_at_default: true,
        help,
    }
}

const MAX_SQUAD: i64 = Knobs::MAX_SQUAD as i64;
const MAX_BONUS: i64 = Terrain::MAX_BONUS as i64;

const PARAMS: &[ParamSpec] = &[
    knob(
        "forest_defence",
        0,
        MAX_BONUS,
        "1",
        "defence bonus of a squad standing on a Forest",
    ),
    ParamSpec {
        name: "forests",
        kind: ParamKind::Int { min: 0, max: 35 },
        default: Some("10"),
        omitted_at_default: false,
        help: "Forest tiles in the face-down bag (plains + forests + mountains = 35)",
    },
    knob(
        "infantry_units",
        1,
        MAX_SQUAD,
        "6",
        "units each side's Infantry squad starts with",
    ),
    ParamSpec {
        name: "max_rounds",
        kind: ParamKind::Int {
            min: 1,
            max: MAX_ROUNDS as i64,
        },
        default: Some("60"),
        omitted_at_default: false,
        help: "turns of each side after which the game is drawn",
    },
    knob(
        "mech_units",
        1,
        MAX_SQUAD,
        "4",
        "units each side's Mech squad starts with",
    ),
    knob(
        "mountain_attack",
        0,
        MAX_BONUS,
        "1",
        "attack bonus of a squad attacking or striking back from a Mountain",
    ),
    knob(
        "mountain_defence",
        0,
        MAX_BONUS,
        "1",
        "defence bonus of a squad standing on a Mountain",
    ),
    ParamSpec {
        name: "mountains",
        kind: ParamKind::Int { min: 0, max: 35 },
        default: Some("10"),
        omitted_at_default: false,
        help: "Mountain tiles in the face-down bag",
    },
    knob(
        "north_bonus",
        0,
        Knobs::MAX_NORTH_BONUS as i64,
        "0",
        "extra units every squad of seat 1 (North) starts with: compensates moving second",
    ),
    knob(
        "opening_actions",
        1,
        3,
        "3",
        "squads seat 0 may act with in the game's first turn: below 3 compensates seat 1",
    ),
    ParamSpec {
        name: "plains",
        kind: ParamKind::Int { min: 0, max: 35 },
        default: Some("15"),
        omitted_at_default: false,
        help: "Plains tiles in the face-down bag",
    },
    knob(
        "rocketeer_units",
        1,
        MAX_SQUAD,
        "6",
        "units each side's Rocketeer squad starts with",
    ),
    knob(
        "seize_turns",
        2,
        Knobs::MAX_SEIZE_TURNS as i64,
        "3",
        "the seize count that wins (own turns begun with the Infantry on the enemy HQ)",
    ),
];

impl Game for Hexstrat {
    type State = HexstratState;
    const NAME: &'static str = "hexstrat";
    const ABOUT: &'static str =
        "Hexstrat (2017 design): squads cross hidden hex terrain to seize the enemy HQ or rout it";
    const HAS_HIDDEN_INFORMATION: bool = true;

    fn param_specs() -> &'static [ParamSpec] {
        PARAMS
    }

    fn from_params(params: &Params) -> Result<Self, ConfigError> {
        let params = params.filled(PARAMS);
        let get = |name| params.int(name).expect("declared with a default") as u32;
        // Every knob's range is its declared one, so the narrowing cannot wrap.
        let knob = |name| get(name) as u8;
        Hexstrat::new(
            get("plains"),
            get("forests"),
            get("mountains"),
            get("max_rounds"),
        )?
        .with_knobs(Knobs {
            units: [
                knob("infantry_units"),
                knob("rocketeer_units"),
                knob("mech_units"),
            ],
            north_bonus: knob("north_bonus"),
            seize_turns: knob("seize_turns"),
            terrain: Terrain {
                forest_defence: knob("forest_defence"),
                mountain_attack: knob("mountain_attack"),
                mountain_defence: knob("mountain_defence"),
            },
            opening_actions: knob("opening_actions"),
        })
    }

    fn initial_state(&self) -> HexstratState {
        let mut s = HexstratState {
            rules: *self,
            face_up: [0; 3],
            bag: self.bag,
            cell: [0; SQUADS],
            hp: [0; SQUADS],
            impeded: 0,
            acted: 0,
            seize: [0; 2],
            to_move: 0,
            pending: None,
            result: None,
            turns: 0,
            ply: 0,
            turn_start: 0,
            hash: 0,
        };
        for seat in 0..2 {
            for unit in Unit::ALL {
                let sq = squad(seat, unit);
                s.cell[sq] = HQ[seat] as u8;
                s.hp[sq] = self.knobs.start_units(seat, unit);
            }
        }
        s.hash = s.recompute_hash();
        s
    }
}

/// A position of Hexstrat.
///
/// `Eq` and the hash cover the face-up tiles, the bag, every squad's cell and units,
/// the impeded flags, which squads have acted this turn, both seize counts, the side to
/// move, the pending reveal (its squad and cell), a draw by the cap, and, under rules
/// that cut seat 0's first turn short, whether this is that turn; `Eq` also compares
/// the rules and the result. Left out of both, as the design guide asks of a
/// plain counter used only for a length cap: the number of turns played (and the ply
/// count). A search that reaches the same position at different turn numbers may thus
/// share a table entry whose value assumed a different distance from the cap; with the
/// default cap of 120 turns this matters only for searches that look past the cap.
#[derive(Clone, Copy, Debug)]
pub struct HexstratState {
    rules: Hexstrat,
    /// Face-up tiles by type (`Tile as usize`); cells in none of them and not a
    /// Headquarters are face down.
    face_up: [Bitboard; 3],
    /// Face-down tiles left by type; their sum is the number of face-down cells.
    bag: [u8; 3],
    /// Each squad's cell, [`NO_CELL`] once destroyed.
    cell: [u8; SQUADS],
    /// Each squad's units (its HP); 0 once destroyed.
    hp: [u8; SQUADS],
    /// Bit `sq`: squad `sq` is impeded (never set for a destroyed squad).
    impeded: u8,
    /// Bit `sq`: squad `sq` has acted this turn (only the mover's squads; never set for
    /// a destroyed squad).
    acted: u8,
    /// Each seat's seize count: non-zero exactly while its Infantry stands on the enemy
    /// Headquarters since entering it.
    seize: [u8; 2],
    /// The seat whose turn it is (also while its reveal is pending).
    to_move: Seat,
    /// A move onto a face-down cell waiting for its reveal: (squad, cell).
    pending: Option<(u8, u8)>,
    result: Option<End>,
    /// Turns completed (both sides together).
    turns: u16,
    ply: u32,
    /// The ply count when the current turn began: `turns()` counts the current turn
    /// once a ply has been played in it. Path data, like `ply`.
    turn_start: u32,
    hash: u64,
}

impl HexstratState {
    /// The rules of this game.
    pub fn rules(&self) -> Hexstrat {
        self.rules
    }

    /// The seat whose turn it is, also while its reveal is pending (meaningless once the
    /// game is over).
    pub fn mover(&self) -> Seat {
        self.to_move
    }

    /// Units left in `unit`'s squad of `seat` (0 once destroyed).
    pub fn units(&self, seat: Seat, unit: Unit) -> u8 {
        self.hp[squad(seat, unit)]
    }

    /// The cell of `unit`'s squad of `seat`, `None` once destroyed.
    pub fn squad_cell(&self, seat: Seat, unit: Unit) -> Option<usize> {
        let c = self.cell[squad(seat, unit)];
        (c != NO_CELL).then_some(c as usize)
    }

    /// Whether `unit`'s squad of `seat` is impeded.
    pub fn is_impeded(&self, seat: Seat, unit: Unit) -> bool {
        self.impeded & 1 << squad(seat, unit) != 0
    }

    /// Whether `unit`'s squad of `seat` has acted this turn.
    pub fn has_acted(&self, seat: Seat, unit: Unit) -> bool {
        self.acted & 1 << squad(seat, unit) != 0
    }

    /// `seat`'s seize count (0 when its Infantry is not on the enemy Headquarters).
    pub fn seize_count(&self, seat: Seat) -> u8 {
        self.seize[seat]
    }

    /// The face-up tile on `cell`, `None` if face down or a Headquarters.
    pub fn tile(&self, cell: usize) -> Option<Tile> {
        Tile::ALL
            .into_iter()
            .find(|&t| self.face_up[t as usize] & 1 << cell != 0)
    }

    /// Whether `cell` holds a face-down tile.
    pub fn is_face_down(&self, cell: usize) -> bool {
        self.face_down() & 1 << cell != 0
    }

    /// Face-down tiles of type `tile` still in the bag.
    pub fn in_bag(&self, tile: Tile) -> u32 {
        u32::from(self.bag[tile as usize])
    }

    /// The pending reveal: the squad (seat, type) moving and the face-down cell.
    pub fn pending_reveal(&self) -> Option<(Seat, Unit, usize)> {
        self.pending.map(|(sq, c)| {
            (
                sq as usize / 3,
                Unit::from_index(sq as usize % 3),
                c as usize,
            )
        })
    }

    /// Turns completed so far (both sides together; [`State::turns`] also counts a turn
    /// in progress).
    pub fn turns_played(&self) -> u32 {
        u32::from(self.turns)
    }

    /// Whether this is seat 0's first turn under rules that cut it short to
    /// `opening_actions` squads: the game's first turn, which changes when the turn
    /// ends, so the hash and `Eq` tell it from a later turn of the same look.
    #[inline]
    fn in_short_opening(&self) -> bool {
        self.turns == 0 && self.to_move == 0 && self.rules.short_opening()
    }

    /// Face-down cells.
    #[inline]
    fn face_down(&self) -> Bitboard {
        TILE_CELLS & !(self.face_up[0] | self.face_up[1] | self.face_up[2])
    }

    /// The ground under a squad standing on `cell` (a Headquarters gives none).
    #[inline]
    fn ground(&self, cell: usize) -> Ground {
        let bit = 1 << cell;
        if self.face_up[Tile::Plains as usize] & bit != 0 {
            Some(Tile::Plains)
        } else if self.face_up[Tile::Forest as usize] & bit != 0 {
            Some(Tile::Forest)
        } else if self.face_up[Tile::Mountain as usize] & bit != 0 {
            Some(Tile::Mountain)
        } else {
            None
        }
    }

    /// Cells holding a squad of `seat`.
    #[inline]
    fn occupied(&self, seat: Seat) -> Bitboard {
        let mut b = 0;
        for sq in seat * 3..seat * 3 + 3 {
            if self.hp[sq] > 0 {
                b |= 1 << self.cell[sq];
            }
        }
        b
    }

    /// Bit `sq` for every living squad of `seat`.
    #[inline]
    fn alive(&self, seat: Seat) -> u8 {
        let mut m = 0;
        for sq in seat * 3..seat * 3 + 3 {
            if self.hp[sq] > 0 {
                m |= 1 << sq;
            }
        }
        m
    }

    /// The living squads of `seat` on `cell`, as a bit per squad index.
    #[inline]
    fn squads_on(&self, seat: Seat, cell: usize) -> u8 {
        let mut m = 0;
        for sq in seat * 3..seat * 3 + 3 {
            if self.hp[sq] > 0 && self.cell[sq] as usize == cell {
                m |= 1 << sq;
            }
        }
        m
    }
}

/// The event of [`State::common_outcome`]'s layout shuffle (Hexstrat has no other
/// kind of chance event).
pub const LAYOUT_EVENT: EventId = EventId(0);

/// The tile that the layout given by `order` (every cell once) puts under `cell`, when
/// the cells of `face_down` are still face down and `bag` holds their tiles (counts by
/// [`Tile::ALL`] order, summing to the face-down cells): the face-down cells taken in
/// `order` receive the bag's tiles, all Plains first, then Forest, then Mountain.
fn layout_tile(order: &[u8; CELLS], face_down: Bitboard, bag: [u8; 3], cell: u8) -> Tile {
    debug_assert_eq!(
        face_down.count_ones(),
        bag.iter().map(|&n| u32::from(n)).sum::<u32>(),
        "the bag holds the tiles of the face-down cells"
    );
    debug_assert!(face_down & 1 << cell != 0, "cell {cell} is face down");
    let mut rank = order
        .iter()
        .take_while(|&&c| c != cell)
        .filter(|&&c| face_down & 1 << c != 0)
        .count();
    for t in Tile::ALL {
        let n = usize::from(bag[t as usize]);
        if rank < n {
            return t;
        }
        rank -= n;
    }
    unreachable!("a face-down cell's rank is below the number of face-down cells")
}

impl PartialEq for HexstratState {
    fn eq(&self, o: &Self) -> bool {
        self.rules == o.rules
            && self.face_up == o.face_up
            && self.bag == o.bag
            && self.cell == o.cell
            && self.hp == o.hp
            && self.impeded == o.impeded
            && self.acted == o.acted
            && self.seize == o.seize
            && self.to_move == o.to_move
            && self.pending == o.pending
            && self.result == o.result
            && self.in_short_opening() == o.in_short_opening()
    }
}

impl Eq for HexstratState {}

impl State for HexstratState {
    type Chance = WithChance;
    type Move = HexMove;
    type Undo = HexstratState;

    #[inline]
    fn turn(&self) -> Turn {
        if self.result.is_some() {
            Turn::Over
        } else if self.pending.is_some() {
            Turn::Chance
        } else {
            Turn::Seat(self.to_move)
        }
    }

    fn legal_moves(&self, out: &mut Vec<HexMove>) {
        if self.result.is_none() && self.pending.is_none() {
            self.generate(out);
        }
    }

    fn chance_outcomes(&self, out: &mut Vec<(HexMove, u32)>) {
        if self.result.is_none() && self.pending.is_some() {
            for t in Tile::ALL {
                let n = self.bag[t as usize];
                if n > 0 {
                    out.push((HexMove::Reveal(t), u32::from(n)));
                }
            }
        }
    }

    /// The tile under a cell comes from one layout of the whole bag per [`Luck`]: the
    /// cells in the order of one shuffle (event [`LAYOUT_EVENT`], draws 1 to 36), and
    /// the reveal of cell `c` is the tile that layout gives it: the face-down cells in
    /// shuffle order get the bag's tiles in [`Tile::ALL`] order (Plains first), and
    /// `c` shows the one it gets. Starting from the initial position, every reveal then
    /// reads one fixed random layout of the 35 tiles (removing a revealed cell and its
    /// tile from both lists leaves the others' tiles unchanged), which is the same
    /// distribution as drawing from the bag: given the reveals so far, the hidden cells
    /// hold a uniformly random arrangement of exactly the tiles left in the bag. The same
    /// cell thus shows the same tile in both games of a pair, whoever reveals it when.
    /// After reveals that did not come from this layout (a given opening), the rule still
    /// gives each tile with probability (tiles of its type left) / (tiles left), since
    /// the cell's place among the face-down cells in a shuffle independent of those
    /// reveals is uniform.
    fn common_outcome<L: Luck>(&self, luck: &L) -> HexMove {
        let (_, cell) = self.pending.expect("a reveal is pending");
        let mut order: [u8; CELLS] = std::array::from_fn(|c| c as u8);
        luck.shuffle(LAYOUT_EVENT, &mut order);
        HexMove::Reveal(layout_tile(&order, self.face_down(), self.bag, cell))
    }

    fn max_moves(&self) -> usize {
        // Per squad at most 6 neighbours, one of which may be the enemy Headquarters
        // with its 3 squads named one by one (5 + 3 moves), or a recover; plus `end`.
        3 * 8 + 1
    }

    fn apply(&mut self, m: HexMove) -> HexstratState {
        self.play(m)
    }

    fn try_apply(&mut self, m: HexMove) -> Result<HexstratState, MoveError> {
        match self.illegal_because(m) {
            None => Ok(self.apply(m)),
            Some(reason) => Err(MoveError::new(self.format_move(m), reason)),
        }
    }

    #[inline]
    fn undo(&mut self, undo: HexstratState) {
        *self = undo;
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn recompute_hash(&self) -> u64 {
        let mut h = 0;
        for sq in 0..SQUADS {
            h ^= hp_key(sq, self.hp[sq]);
            if self.hp[sq] > 0 {
                h ^= pos_key(sq, self.cell[sq]);
            }
            if self.impeded & 1 << sq != 0 {
                h ^= KEYS[IMPEDED_KEYS + sq];
            }
            if self.acted & 1 << sq != 0 {
                h ^= KEYS[ACTED_KEYS + sq];
            }
        }
        for t in Tile::ALL {
            for c in Cells(self.face_up[t as usize]) {
                h ^= tile_key(c, t);
            }
            h ^= bag_key(t as usize, self.bag[t as usize]);
        }
        h ^= seize_key(0, self.seize[0]) ^ seize_key(1, self.seize[1]);
        if self.to_move == 1 {
            h ^= KEYS[SEAT1_KEY];
        }
        if let Some((sq, c)) = self.pending {
            h ^= pending_key(sq, c);
        }
        if self.end_reason() == Some(EndReason::Cap) {
            h ^= KEYS[CAPPED_KEY];
        }
        if self.in_short_opening() {
            h ^= KEYS[OPENING_KEY];
        }
        h
    }

    #[inline]
    fn end(&self) -> Option<End> {
        self.result
    }

    fn side(&self, seat: Seat) -> &'static str {
        ["south", "north"][seat]
    }

    fn ply(&self) -> u32 {
        self.ply
    }

    /// A turn is one side's run of actions (moves, attacks, recovers, their reveals) up
    /// to `end` or the last squad's action; both sides' turns counted, the unit of the
    /// cap (`2 × max_rounds`). A seize or the cap, checked between turns, begins none.
    fn turns(&self) -> u32 {
        u32::from(self.turns) + u32::from(self.ply > self.turn_start)
    }

    fn format_move(&self, m: HexMove) -> String {
        notation::format_move(m)
    }

    fn parse_move(&self, text: &str) -> Result<HexMove, MoveError> {
        notation::parse_move(self, text)
    }
}

impl FastPlayout for HexstratState {
    /// The tile types in `chance_outcomes` order, each weighted by its tiles left in
    /// the bag, picked from an array on the stack rather than a list on the heap (a type
    /// with no tiles left weighs nothing, so skipping it as `chance_outcomes` does
    /// changes no pick).
    #[inline]
    fn outcome_for_draw(
        &self,
        draw: impl FnOnce(u64) -> u64,
        _: &mut Vec<(HexMove, u32)>,
    ) -> HexMove {
        debug_assert_eq!(self.turn(), Turn::Chance);
        let outcomes = Tile::ALL.map(|t| (HexMove::Reveal(t), u32::from(self.bag[t as usize])));
        let total = self.bag.iter().map(|&n| u64::from(n)).sum();
        pick_weighted(&outcomes, draw(total))
    }
}

impl Symmetries for HexstratState {}

impl PieRule for HexstratState {}

impl NullMove for HexstratState {}

impl LengthCap for HexstratState {}

#[cfg(test)]
mod tests {
    use super::*;

    /// The identity order with `cell` moved to just after the `rank`-th (from 0) cell of
    /// `face_down` other than itself, so that exactly `rank` face-down cells precede it.
    fn order_with_rank(face_down: Bitboard, cell: u8, rank: usize) -> [u8; CELLS] {
        let mut others: Vec<u8> = (0..CELLS as u8).filter(|&c| c != cell).collect();
        let at = if rank == 0 {
            0
        } else {
            let nth = Cells(face_down & !(1 << cell)).nth(rank - 1).unwrap() as u8;
            others.iter().position(|&c| c == nth).unwrap() + 1
        };
        others.insert(at, cell);
        others.try_into().unwrap()
    }

    #[test]
    fn every_place_of_a_cell_among_the_face_down_cells_gives_the_bag_weights() {
        // A uniform shuffle puts a face-down cell at each of the k places among the k
        // face-down cells equally often; over those places the tiles must come out
        // exactly as often as the bag holds them, for the full bag and a partial one.
        let cases = [
            (TILE_CELLS, [15, 10, 10]),
            (TILE_CELLS, [0, 35, 0]),
            (0b1011_0110_0000_0000u64 & TILE_CELLS, [1, 0, 4]),
        ];
        for (face_down, bag) in cases {
            assert_eq!(
                face_down.count_ones(),
                bag.iter().map(|&n| u32::from(n)).sum()
            );
            for cell in Cells(face_down) {
                let mut counts = [0u8; 3];
                for rank in 0..face_down.count_ones() as usize {
                    let order = order_with_rank(face_down, cell as u8, rank);
                    counts[layout_tile(&order, face_down, bag, cell as u8) as usize] += 1;
                }
                assert_eq!(counts, bag, "cell {cell}, bag {bag:?}");
            }
        }
    }

    #[test]
    fn revealing_the_cells_in_any_order_reads_one_layout_of_the_bag() {
        // Order: a fixed scramble of the cells. Reveal all 35 face-down cells in three
        // different orders, each time drawing from the bag what layout_tile says: every
        // order sees the same tile under each cell, and the bag empties exactly.
        let order: [u8; CELLS] = std::array::from_fn(|i| ((i * 17 + 5) % CELLS) as u8);
        let cells: Vec<u8> = Cells(TILE_CELLS).map(|c| c as u8).collect();
        let reveal_orders = [
            cells.clone(),
            cells.iter().rev().copied().collect::<Vec<_>>(),
            cells
                .iter()
                .copied()
                .filter(|c| c % 2 == 0)
                .chain(cells.iter().copied().filter(|c| c % 2 == 1))
                .collect(),
        ];
        let mut layouts = Vec::new();
        for reveals in reveal_orders {
            let (mut face_down, mut bag) = (TILE_CELLS, [15u8, 10, 10]);
            let mut layout = [None; CELLS];
            for cell in reveals {
                let t = layout_tile(&order, face_down, bag, cell);
                assert!(bag[t as usize] > 0, "cell {cell} drew an exhausted {t:?}");
                bag[t as usize] -= 1;
                face_down &= !(1 << cell);
                layout[cell as usize] = Some(t);
            }
            assert_eq!((face_down, bag), (0, [0, 0, 0]));
            layouts.push(layout);
        }
        assert_eq!(layouts[0], layouts[1]);
        assert_eq!(layouts[0], layouts[2]);
    }
}
