//! APV: Axis, Pivot, Veil ("Rules of Engagement"), by Andrew R. Garcia (2025).
//!
//! A containment game on a hexagon of 61 cells. Nothing is captured: a side wins when
//! the opposing Pivot has no empty neighbour after some displacement, and loses if its
//! own Pivot is the one shut in. Each turn is up to three parts: the side's pending
//! *future order* fires (automatic, and only if the move is still legal), then a primary
//! move, then an order decision (`order:d7-d5` or `no-order`) for a unit other than the
//! one that just moved. The two decisions are consecutive decisions of the same seat.
//! The project's own description of the rules and rulings is `docs/games/apv.md`.
//! Besides the rulebook's switches, the designer's knobs ([`ApvKnobs`]) set the size of
//! each army, how long an order waits, and an extra unit for South.
//!
//! Representation: one 64-bit bitboard per side and unit type (`board` holds the
//! compile-time geometry), moves and unit targets in `moves`, notation in
//! `notation`, evaluation in `eval`, the compact `Debug` in `display`, the board as a
//! [`Picture`](crate::picture::Picture) (which `Display` draws as text) in `picture`, dense
//! action ids and the bound on a game's length in `actions`. The
//! state is a few dozen bytes and `Clone`, so undo is by copy.

mod actions;
mod board;
mod display;
mod encoding;
mod eval;
mod moves;
mod notation;
mod picture;

use crate::bits::Cells;
use crate::game::{
    illegal_move, End, FastPlayout, Game, LengthCap, MoveError, NoChance, NullMove, Outcome,
    PieRule, Seat, State, Symmetries, Turn,
};
use crate::params::{ConfigError, ParamKind, ParamSpec, Params};
use crate::zobrist;

use board::CELLS;
pub use board::{Bitboard, Geometry, GEO, NONE};
pub use eval::ApvEval;
pub use moves::{ApvMove, MoveKind, Unit};

/// A middle game of the default rules after eight full turns of random play: North to
/// make its primary move (its order b8-a8 has just fired), South's order pending; orders
/// fire, fizzle and end games below it (it is a line of `engine/tests/data/apv.perft`).
/// The criterion benches and `agon bench` search it.
pub const MIDGAME: &str = "e7-c8 order:d8-h4 f3-f5 order:d2-b4 d7-b9 order:h4-h2 d3-d5 \
     order:b4-d2 h2-b8 order:c8-d6 f5-h3 order:f2-g2 d6-c5 order:b8-a8 g2-f3 order:d2-a5";

/// Side names by seat: seat 0 plays side A (North), seat 1 side B (South).
pub const SIDES: [&str; 2] = ["north", "south"];

/// APV's rules: whether future orders exist, the Limited Orders variant, the length
/// cap, and the designer's knobs ([`ApvKnobs`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Apv {
    orders: bool,
    limited_orders: bool,
    max_turns: u32,
    knobs: ApvKnobs,
}

/// The most units of one type (Axis, Veil or Turned Veil) a side can be given by the
/// knobs; South's extra unit may make it one more.
pub const MAX_UNITS_OF_A_TYPE: u8 = 3;

/// The longest an order can be made to wait, in turns of its own side.
pub const MAX_ORDER_DELAY: u8 = 3;

/// The cells, in North's frame `(q, r)`, that the setup gives each side's Axes, Veils
/// and Turned Veils, in the order they are filled: the rulebook's two, then a third for
/// a side given three, then a fourth for South's extra unit. South's cells are these
/// turned half a turn. None is a neighbour of the Pivot's cell e9 (its liberty d9 stays
/// empty, so no Pivot starts shut in), and all lie in North's half (`r` ≥ 1), so the
/// two sides' cells never meet.
const SETUP_SLOTS: [[(i32, i32); 4]; 3] = [
    // Axes: d8, f8, then c8 and g7.
    [(-1, 3), (1, 3), (-2, 3), (2, 2)],
    // Veils: d7, f7, then c7 and g6.
    [(-1, 2), (1, 2), (-2, 2), (2, 1)],
    // Turned Veils: e8, e7, then e6 and f6.
    [(0, 3), (0, 2), (0, 1), (1, 1)],
];

/// The numbers of APV's rules that a designer turns to rebalance the game: the size of
/// each side's army, how long a future order waits, and an extra unit for the second
/// player. [`Default`] is the rulebook game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ApvKnobs {
    /// Axes each side starts with, 0 to [`MAX_UNITS_OF_A_TYPE`] (rulebook 2).
    pub axes: u8,
    /// Veils each side starts with, 0 to [`MAX_UNITS_OF_A_TYPE`] (rulebook 2).
    pub veils: u8,
    /// Turned Veils each side starts with, 0 to [`MAX_UNITS_OF_A_TYPE`] (rulebook 2).
    pub turned_veils: u8,
    /// At the start of which of its own turns an order fires, counted from the turn
    /// after it was issued: 1 (the rulebook: the next one) to [`MAX_ORDER_DELAY`]. A
    /// side still has at most one pending order, so while one waits its order decisions
    /// offer only `no-order`; a primary move of the ordered unit cancels the order.
    pub order_delay: u8,
    /// An extra unit of this type (not the Pivot) in South's setup, to make up for
    /// North's first move; `None` in the rulebook.
    pub south_extra: Option<Unit>,
}

impl Default for ApvKnobs {
    /// The rulebook: two units of each type, orders that fire at the next turn, no
    /// extra unit.
    fn default() -> Self {
        ApvKnobs {
            axes: 2,
            veils: 2,
            turned_veils: 2,
            order_delay: 1,
            south_extra: None,
        }
    }
}

impl ApvKnobs {
    /// The names of the knob `south_extra`'s values, `none` first, then by [`Unit`]
    /// index from the Axis on.
    const EXTRA_NAMES: [&'static str; 4] = ["none", "axis", "veil", "turned-veil"];

    /// Units of each type (Pivot, Axis, Veil, Turned Veil) in `side`'s setup.
    pub fn army(&self, side: Seat) -> [u8; 4] {
        let mut army = [1, self.axes, self.veils, self.turned_veils];
        if let (1, Some(extra)) = (side, self.south_extra) {
            army[extra as usize] += 1;
        }
        army
    }
}

impl Apv {
    /// The rules with these parameters. Limited Orders restricts future orders, so it
    /// needs them on.
    pub fn new(orders: bool, limited_orders: bool, max_turns: u32) -> Result<Apv, ConfigError> {
        if limited_orders && !orders {
            return Err(ConfigError(
                "limited_orders=true restricts future orders, so it needs orders=true".into(),
            ));
        }
        if max_turns == 0 {
            return Err(ConfigError("max_turns must be at least 1".into()));
        }
        Ok(Apv {
            orders,
            limited_orders,
            max_turns,
            knobs: ApvKnobs::default(),
        })
    }

    /// These rules with the designer's knobs `knobs`. Each count is at most
    /// [`MAX_UNITS_OF_A_TYPE`], the delay 1 to [`MAX_ORDER_DELAY`] (and more than 1 only
    /// with orders on), and the extra unit is not a Pivot.
    pub fn with_knobs(self, knobs: ApvKnobs) -> Result<Apv, ConfigError> {
        let max = MAX_UNITS_OF_A_TYPE;
        for (name, n) in [
            ("axes", knobs.axes),
            ("veils", knobs.veils),
            ("turned_veils", knobs.turned_veils),
        ] {
            if n > max {
                return Err(ConfigError(format!(
                    "{name}={n}: a side has 0..{max} of them"
                )));
            }
        }
        if !(1..=MAX_ORDER_DELAY).contains(&knobs.order_delay) {
            return Err(ConfigError(format!(
                "order_delay={}: an order waits 1..{MAX_ORDER_DELAY} turns",
                knobs.order_delay
            )));
        }
        if knobs.order_delay > 1 && !self.orders {
            return Err(ConfigError(format!(
                "order_delay={} delays future orders, so it needs orders=true (or order_delay=1)",
                knobs.order_delay
            )));
        }
        if knobs.south_extra == Some(Unit::Pivot) {
            return Err(ConfigError(
                "south_extra: the extra unit is an axis, a veil or a turned-veil".into(),
            ));
        }
        Ok(Apv { knobs, ..self })
    }

    /// The designer's knobs of these rules.
    pub fn knobs(&self) -> ApvKnobs {
        self.knobs
    }

    /// Whether future orders exist (otherwise a turn is just the primary move).
    pub fn orders(&self) -> bool {
        self.orders
    }

    /// Whether a side may issue an order only if it issued none in its previous turn.
    pub fn limited_orders(&self) -> bool {
        self.limited_orders
    }

    /// Completed turns (both sides counted) after which the game is a draw.
    pub fn max_turns(&self) -> u32 {
        self.max_turns
    }
}

impl Default for Apv {
    /// Orders on, Limited Orders off, a 500-turn cap: the spec's defaults.
    fn default() -> Self {
        Apv {
            orders: true,
            limited_orders: false,
            max_turns: 500,
            knobs: ApvKnobs::default(),
        }
    }
}

/// The range of the unit-count knobs, as declared.
const COUNT: ParamKind = ParamKind::Int {
    min: 0,
    max: MAX_UNITS_OF_A_TYPE as i64,
};

const PARAMS: &[ParamSpec] = &[
    ParamSpec {
        name: "axes",
        kind: COUNT,
        default: Some("2"),
        omitted_at_default: true,
        help: "Axes each side starts with (the third on c8 / g2)",
    },
    ParamSpec {
        name: "limited_orders",
        kind: ParamKind::Bool,
        default: Some("false"),
        omitted_at_default: false,
        help: "a side may issue an order only if it issued none in its previous turn",
    },
    ParamSpec {
        name: "max_turns",
        kind: ParamKind::Int {
            min: 1,
            max: 1_000_000,
        },
        default: Some("500"),
        omitted_at_default: false,
        help: "the game is a draw once this many turns (both sides counted) are complete",
    },
    ParamSpec {
        name: "order_delay",
        kind: ParamKind::Int {
            min: 1,
            max: MAX_ORDER_DELAY as i64,
        },
        default: Some("1"),
        omitted_at_default: true,
        help: "an order fires at the start of this many-th own turn after it is issued; \
               while it waits no other order may be issued",
    },
    ParamSpec {
        name: "orders",
        kind: ParamKind::Bool,
        default: Some("true"),
        omitted_at_default: false,
        help: "future orders exist (false: a turn is just the primary move)",
    },
    ParamSpec {
        name: "south_extra",
        kind: ParamKind::Choice(&ApvKnobs::EXTRA_NAMES),
        default: Some("none"),
        omitted_at_default: true,
        help: "second-player compensation: South (seat 1) starts with one more unit of this type",
    },
    ParamSpec {
        name: "turned_veils",
        kind: COUNT,
        default: Some("2"),
        omitted_at_default: true,
        help: "Turned Veils each side starts with (the third on e6 / e4)",
    },
    ParamSpec {
        name: "veils",
        kind: COUNT,
        default: Some("2"),
        omitted_at_default: true,
        help: "Veils each side starts with (the third on c7 / g3)",
    },
];

impl Game for Apv {
    type State = ApvState;
    const NAME: &'static str = "apv";
    const ABOUT: &'static str =
        "APV (Axis, Pivot, Veil) by Andrew R. Garcia: hex containment with future orders";
    const HAS_HIDDEN_INFORMATION: bool = false;

    fn param_specs() -> &'static [ParamSpec] {
        PARAMS
    }

    fn from_params(params: &Params) -> Result<Self, ConfigError> {
        let params = params.filled(PARAMS);
        let flag = |name| params.bool(name).expect("declared with a default");
        let max_turns = params.int("max_turns").expect("declared with a default");
        // The declared ranges keep every count within a u8.
        let small = |name| params.int(name).expect("declared with a default") as u8;
        let extra = params
            .choice("south_extra")
            .expect("declared with a default");
        let south_extra = (extra != "none").then(|| {
            let index = ApvKnobs::EXTRA_NAMES
                .iter()
                .position(|&w| w == extra)
                .expect("a declared choice");
            Unit::ALL[index]
        });
        Apv::new(
            flag("orders"),
            flag("limited_orders"),
            u32::try_from(max_turns).map_err(|_| ConfigError("max_turns is too large".into()))?,
        )?
        .with_knobs(ApvKnobs {
            axes: small("axes"),
            veils: small("veils"),
            turned_veils: small("turned_veils"),
            order_delay: small("order_delay"),
            south_extra,
        })
    }

    fn initial_state(&self) -> ApvState {
        // Side A (North) and B (South) mirror each other under (q, r) -> (-q, -r), but for
        // the number of units each is given.
        let place = |cells: &[(i32, i32)], sign: i32| {
            cells.iter().fold(0, |bb: Bitboard, &(q, r)| {
                bb | 1
                    << GEO
                        .cell(sign * q, sign * r)
                        .expect("setup cells are on the board")
            })
        };
        let units = [0, 1].map(|side| {
            let army = self.knobs.army(side);
            let sign = if side == 0 { 1 } else { -1 };
            let mut bb = [place(&[(0, 4)], sign), 0, 0, 0];
            for (unit, slots) in SETUP_SLOTS.iter().enumerate() {
                bb[unit + 1] = place(&slots[..usize::from(army[unit + 1])], sign);
            }
            bb
        });
        let mut s = self.fresh_state(units, [None; 2], 0);
        s.hash = s.recompute_hash();
        s
    }
}

impl Apv {
    /// A state of these rules with these units and orders, `to_move` to make its primary
    /// move, no turn played, and hash 0 (the caller computes it).
    fn fresh_state(
        &self,
        units: [[Bitboard; 4]; 2],
        orders: [Option<Order>; 2],
        to_move: Seat,
    ) -> ApvState {
        ApvState {
            rules: *self,
            units,
            occupied: units.map(|s| s.iter().fold(0, |a, b| a | b)),
            orders,
            waits: [0; 2],
            to_move,
            moved: NONE,
            issued: [false; 2],
            end: None,
            turns: 0,
            ply: 0,
            turn_start: 0,
            hash: 0,
        }
    }

    /// A position of these rules with `to_move` about to make its primary move:
    /// `units[side][unit as usize]` are the cells of each side's units of each type,
    /// and `orders` the pending orders (the mover's fires at once, as at the start of
    /// its turn, and the other side's at the start of its next turn, whatever the
    /// `order_delay`). For hand-built test positions; the unit counts may differ from the
    /// setup's, but each side has exactly one Pivot, no cell holds two units, each
    /// order names one of its side's units and a cell that unit could move to, and
    /// neither Pivot may already be shut in. The turn counter starts at zero.
    pub fn position(
        &self,
        units: [[Bitboard; 4]; 2],
        to_move: Seat,
        orders: [Option<Order>; 2],
    ) -> Result<ApvState, String> {
        let mut seen: Bitboard = 0;
        for side in units {
            for bb in side {
                if bb & !board::FULL != 0 || bb & seen != 0 {
                    return Err("a unit off the board or two units on one cell".into());
                }
                seen |= bb;
            }
        }
        if units
            .iter()
            .any(|s| s[Unit::Pivot as usize].count_ones() != 1)
            || to_move > 1
        {
            return Err("each side needs exactly one Pivot; seat 0 or 1 to move".into());
        }
        // The mover's order fires as `end_turn` hands it the move.
        let mut s = self.fresh_state(units, orders, 1 - to_move);
        for (side, o) in orders.iter().enumerate() {
            if let Some(o) = o {
                let from = usize::from(o.from);
                let legal = from < CELLS
                    && s.unit_at(side, from)
                        .is_some_and(|u| u.targets(from, s.occupied()) & 1 << o.to != 0);
                if !legal {
                    return Err(format!("the order of {} is not a legal move", SIDES[side]));
                }
                if !self.orders {
                    return Err("orders are off in these rules".into());
                }
            }
        }
        if s.liberties(0) == 0 || s.liberties(1) == 0 {
            return Err("a Pivot is already shut in".into());
        }
        if self.limited_orders {
            s.issued = orders.map(|o| o.is_some());
        }
        s.waits = orders.map(|o| u8::from(o.is_some()));
        // Hand the move to `to_move` the way a turn ends (its order fires).
        s.hash = s.recompute_hash();
        s.next_side();
        debug_assert_eq!(s.hash, s.recompute_hash());
        Ok(s)
    }
}

/// A pending future order: the unit on `from` moves to `to` when it fires.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Order {
    /// The ordered unit's cell (it cannot move before the order fires: only its own
    /// side moves it, and the order fires at the start of that side's next turn).
    pub from: u8,
    /// The ordered destination.
    pub to: u8,
}

/// How a game ended, as the state stores and hashes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Finish {
    /// Exactly one Pivot was immobilised: this seat (the other Pivot's owner) won.
    Win(Seat),
    /// Both Pivots were immobilised by the same displacement: a draw.
    BothImmobilised,
    /// The turn cap was reached: a draw.
    Cap,
}

impl Finish {
    /// The end as the game API states it. The turn cap counts turns, which the hash
    /// leaves out, so it ends the game by history.
    #[inline]
    const fn end(self) -> End {
        match self {
            Finish::Win(s) => End::win(s, "immobilised"),
            Finish::BothImmobilised => End::rule(Outcome::Draw, "both-immobilised"),
            Finish::Cap => End::cap(Outcome::Draw, true),
        }
    }
}

/// Zobrist keys, 64-cell strides: units by side and type (`[0, 512)`), pending orders'
/// source cells (`[512, 640)`) and destinations (`[640, 768)`) by side, the cell of the
/// unit that just made the primary move during an order decision (`[768, 832)`), then
/// South to move, the two Limited Orders flags, the four ends, and by side the waits of
/// 2 to [`MAX_ORDER_DELAY`] turns of a pending order (a wait of 1, the only one of the
/// rulebook, has no key, so the rulebook's hashes are those of before the knob).
const KEYS: [u64; 839 + 2 * (MAX_ORDER_DELAY as usize - 1)] = zobrist::keys(0x00A9_0A9F);
const KEY_ORDER_FROM: usize = 512;
const KEY_ORDER_TO: usize = 640;
const KEY_MOVED: usize = 768;
const KEY_SOUTH: u64 = KEYS[832];
const KEY_ISSUED: usize = 833;
const KEY_END: usize = 835;
const KEY_WAIT: usize = 839;

/// A position of APV.
///
/// `Eq` and the hash cover the units, the pending orders and their waits, the side to
/// move and its
/// phase (primary move, or order decision with the cell of the unit that just moved),
/// the Limited Orders flags and how the game ended; not the turn and ply counters, which
/// only count towards the length cap.
#[derive(Clone)]
pub struct ApvState {
    rules: Apv,
    /// `units[side][unit as usize]`: the cells of that side's units of that type.
    units: [[Bitboard; 4]; 2],
    /// All units of each side.
    occupied: [Bitboard; 2],
    /// Each side's pending future order.
    orders: [Option<Order>; 2],
    /// For each pending order, at the start of which of its side's turns from now it
    /// fires (1: the next); 0 without one. Only `order_delay` above 1 makes it more
    /// than 1.
    waits: [u8; 2],
    /// The side (= seat) to move.
    to_move: Seat,
    /// [`NONE`] while the primary move is awaited; during the order decision, the cell
    /// of the unit that just made the primary move (it may not be ordered).
    moved: u8,
    /// Limited Orders only (always false otherwise): each side issued an order in its
    /// most recent order decision.
    issued: [bool; 2],
    end: Option<Finish>,
    /// Completed turns, for the cap.
    turns: u32,
    ply: u32,
    /// The ply count when the current turn began: `turns()` counts the current turn
    /// once a ply has been played in it. Path data, like `ply`.
    turn_start: u32,
    hash: u64,
}

impl ApvState {
    /// The rules this position is played under.
    pub fn rules(&self) -> Apv {
        self.rules
    }

    /// The cells of `side`'s units of type `unit`.
    #[inline]
    pub fn units(&self, side: Seat, unit: Unit) -> Bitboard {
        self.units[side][unit as usize]
    }

    /// Every unit of `side`.
    #[inline]
    pub fn side_units(&self, side: Seat) -> Bitboard {
        self.occupied[side]
    }

    /// Every unit of both sides.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.occupied[0] | self.occupied[1]
    }

    /// The cell of `side`'s Pivot.
    #[inline]
    pub fn pivot(&self, side: Seat) -> usize {
        self.units[side][Unit::Pivot as usize].trailing_zeros() as usize
    }

    /// Whether the turn under way is the last the cap allows.
    fn turn_ends_in_cap(&self) -> bool {
        self.turns + 1 >= self.rules.max_turns
    }

    /// Whether the order decision due here (whichever order, or none) may end the
    /// game: it ends the turn on the board as it is, so only the cap or the other
    /// side's pending order, firing at once, can.
    fn order_decision_may_end_game(&self) -> bool {
        let next = 1 - self.to_move;
        self.turn_ends_in_cap()
            || (self.waits[next] <= 1
                && self.orders[next].is_some_and(|o| {
                    let (from, to) = (usize::from(o.from), usize::from(o.to));
                    self.unit_at(next, from)
                        .is_some_and(|u| u.targets(from, self.occupied()) & 1 << to != 0)
                        && self.shuts_a_pivot_in(self.occupied(), from, to)
                }))
    }

    /// The empty neighbours of `side`'s Pivot.
    #[inline]
    pub fn liberties(&self, side: Seat) -> Bitboard {
        GEO.neighbours[self.pivot(side)] & !self.occupied()
    }

    /// `side`'s pending future order.
    pub fn order(&self, side: Seat) -> Option<Order> {
        self.orders[side]
    }

    /// At the start of which of `side`'s turns from now its pending order fires (1: the
    /// next one); 0 without a pending order.
    pub fn order_wait(&self, side: Seat) -> u8 {
        self.waits[side]
    }

    /// The side to move (meaningless once the game is over).
    pub fn side_to_move(&self) -> Seat {
        self.to_move
    }

    /// During an order decision, the cell of the unit that just made the primary move;
    /// `None` while the primary move is awaited.
    pub fn just_moved(&self) -> Option<usize> {
        (self.moved != NONE).then_some(usize::from(self.moved))
    }

    /// Under Limited Orders, whether `side` issued an order in its previous turn.
    pub fn issued_last_turn(&self, side: Seat) -> bool {
        self.issued[side]
    }

    /// Completed turns, counted towards the cap ([`State::turns`] also counts a turn in
    /// progress).
    pub fn turns_completed(&self) -> u32 {
        self.turns
    }

    /// The unit of `side` on `cell`, if any.
    #[inline]
    pub fn unit_at(&self, side: Seat, cell: usize) -> Option<Unit> {
        Unit::ALL
            .into_iter()
            .find(|&u| self.units[side][u as usize] & 1 << cell != 0)
    }

    /// Whether the order decision may name a unit: always, unless Limited Orders
    /// forbids it this turn, or the side's previous order still waits (only with an
    /// `order_delay` above 1: with the rulebook's it has fired at the start of the turn).
    #[inline]
    pub fn may_issue_order(&self) -> bool {
        !(self.rules.limited_orders && self.issued[self.to_move])
            && self.orders[self.to_move].is_none()
    }

    /// Appends every move of `side`'s units (except the one on `skip`, a cell or
    /// [`NONE`]) as decisions of `kind`.
    #[inline]
    fn unit_moves(&self, side: Seat, kind: MoveKind, skip: u8, out: &mut Vec<ApvMove>) {
        let occupied = self.occupied();
        let skip = if skip == NONE { 0 } else { 1 << skip };
        for unit in Unit::ALL {
            for from in Cells(self.units[side][unit as usize] & !skip) {
                for to in Cells(unit.targets(from, occupied)) {
                    out.push(ApvMove::new(kind, from, to));
                }
            }
        }
    }

    /// Whether `m` is a legal decision here: the check behind `try_apply` and the debug
    /// check of `apply`, in constant time.
    fn is_legal(&self, m: ApvMove) -> bool {
        if self.end.is_some() {
            return false;
        }
        let side = self.to_move;
        let unit_move = |from: usize, to: usize| {
            from < CELLS
                && to < CELLS
                && self
                    .unit_at(side, from)
                    .is_some_and(|u| u.targets(from, self.occupied()) & 1 << to != 0)
        };
        match m.kind {
            MoveKind::Primary => self.moved == NONE && unit_move(m.from.into(), m.to.into()),
            MoveKind::Order => {
                self.moved != NONE
                    && self.may_issue_order()
                    && m.from != self.moved
                    && unit_move(m.from.into(), m.to.into())
            }
            MoveKind::NoOrder => self.moved != NONE && m == ApvMove::NO_ORDER,
        }
    }

    /// Moves a unit, keeping bitboards and hash up to date.
    #[inline]
    fn move_unit(&mut self, side: Seat, unit: Unit, from: usize, to: usize) {
        let bits = 1 << from | 1 << to;
        self.units[side][unit as usize] ^= bits;
        self.occupied[side] ^= bits;
        let base = side * 256 + unit as usize * 64;
        self.hash ^= KEYS[base + from] ^ KEYS[base + to];
    }

    #[inline]
    fn order_key(side: Seat, o: Order) -> u64 {
        KEYS[KEY_ORDER_FROM + side * 64 + usize::from(o.from)]
            ^ KEYS[KEY_ORDER_TO + side * 64 + usize::from(o.to)]
    }

    #[inline]
    fn wait_key(side: Seat, wait: u8) -> u64 {
        if wait < 2 {
            0
        } else {
            KEYS[KEY_WAIT + side * (MAX_ORDER_DELAY as usize - 1) + usize::from(wait) - 2]
        }
    }

    /// Sets `side`'s order wait, keeping the hash up to date.
    #[inline]
    fn set_wait(&mut self, side: Seat, wait: u8) {
        self.hash ^= Self::wait_key(side, self.waits[side]) ^ Self::wait_key(side, wait);
        self.waits[side] = wait;
    }

    /// Removes `side`'s pending order, if any, keeping the hash up to date.
    #[inline]
    fn take_order(&mut self, side: Seat) -> Option<Order> {
        let o = self.orders[side].take()?;
        self.hash ^= Self::order_key(side, o);
        self.set_wait(side, 0);
        Some(o)
    }

    #[inline]
    fn moved_key(moved: u8) -> u64 {
        if moved == NONE {
            0
        } else {
            KEYS[KEY_MOVED + usize::from(moved)]
        }
    }

    #[inline]
    fn end_key(end: Option<Finish>) -> u64 {
        match end {
            None => 0,
            Some(Finish::Win(s)) => KEYS[KEY_END + s],
            Some(Finish::BothImmobilised) => KEYS[KEY_END + 2],
            Some(Finish::Cap) => KEYS[KEY_END + 3],
        }
    }

    /// The end check after a displacement: records the end if a Pivot is shut in.
    /// Returns whether the game is over.
    #[inline]
    fn end_check(&mut self) -> bool {
        let north = self.liberties(0) == 0;
        let south = self.liberties(1) == 0;
        let end = match (north, south) {
            (false, false) => return false,
            (true, true) => Finish::BothImmobilised,
            (true, false) => Finish::Win(1),
            (false, true) => Finish::Win(0),
        };
        self.end = Some(end);
        self.hash ^= Self::end_key(Some(end));
        true
    }

    /// Whether moving the unit on `from` to `to` on a board `occupied` leaves a Pivot
    /// with no empty neighbour (the mover's own included, and the mover itself if it is
    /// a Pivot).
    #[inline]
    fn shuts_a_pivot_in(&self, occupied: Bitboard, from: usize, to: usize) -> bool {
        let step = 1 << from | 1 << to;
        let occupied = occupied ^ step;
        let mut pivots = self.units[0][Unit::Pivot as usize] | self.units[1][Unit::Pivot as usize];
        if pivots & 1 << from != 0 {
            pivots ^= step;
        }
        Cells(pivots).any(|p| GEO.neighbours[p] & !occupied == 0)
    }

    /// Ends the current turn: counts it, applies the cap, then hands the move to the
    /// other side.
    fn end_turn(&mut self) {
        self.turns += 1;
        if self.turns >= self.rules.max_turns {
            self.end = Some(Finish::Cap);
            self.hash ^= Self::end_key(self.end);
            return;
        }
        self.next_side();
    }

    /// Gives the move to the other side and counts its pending order's wait down: when
    /// it runs out, the order fires (with the end check after it).
    fn next_side(&mut self) {
        self.to_move = 1 - self.to_move;
        self.hash ^= KEY_SOUTH;
        let side = self.to_move;
        if self.waits[side] > 1 {
            self.set_wait(side, self.waits[side] - 1);
            return;
        }
        if let Some(o) = self.take_order(side) {
            let (from, to) = (usize::from(o.from), usize::from(o.to));
            let unit = self
                .unit_at(side, from)
                .expect("an ordered unit stays put until its order fires");
            if unit.targets(from, self.occupied()) & 1 << to != 0 {
                self.move_unit(side, unit, from, to);
                self.end_check();
            }
        }
    }
}

impl PartialEq for ApvState {
    fn eq(&self, o: &Self) -> bool {
        self.rules == o.rules
            && self.units == o.units
            && self.orders == o.orders
            && self.waits == o.waits
            && self.to_move == o.to_move
            && self.moved == o.moved
            && self.issued == o.issued
            && self.end == o.end
    }
}

impl Eq for ApvState {}

impl State for ApvState {
    type Chance = NoChance;
    type Move = ApvMove;
    type Undo = ApvState;

    #[inline]
    fn turn(&self) -> Turn {
        match self.end {
            Some(_) => Turn::Over,
            None => Turn::Seat(self.to_move),
        }
    }

    fn legal_moves(&self, out: &mut Vec<ApvMove>) {
        if self.end.is_some() {
            return;
        }
        if self.moved == NONE {
            self.unit_moves(self.to_move, MoveKind::Primary, NONE, out);
        } else {
            out.push(ApvMove::NO_ORDER);
            if self.may_issue_order() {
                self.unit_moves(self.to_move, MoveKind::Order, self.moved, out);
            }
        }
    }

    fn max_moves(&self) -> usize {
        // Pivot 6, an Axis at most 24 (four cells along each of six directions from the
        // centre), a Veil or a Turned Veil 6, for the larger army of either side (South
        // may have an extra unit); plus `no-order`. The rulebook's armies: 79.
        let [north, south] = [0, 1].map(|side| {
            let [_, axes, veils, turned] = self.rules.knobs.army(side).map(usize::from);
            6 + 24 * axes + 6 * (veils + turned)
        });
        north.max(south) + 1
    }

    fn apply(&mut self, m: ApvMove) -> ApvState {
        debug_assert!(self.is_legal(m), "illegal move {m:?} in {self:?}");
        let undo = self.clone();
        let side = self.to_move;
        match m.kind {
            MoveKind::Primary => {
                let (from, to) = (usize::from(m.from), usize::from(m.to));
                let unit = self.unit_at(side, from).expect("a legal move moves a unit");
                if self.orders[side].is_some_and(|o| o.from == m.from) {
                    // Moving a unit under a waiting order cancels the order.
                    self.take_order(side);
                }
                self.move_unit(side, unit, from, to);
                if !self.end_check() {
                    if self.rules.orders {
                        self.moved = m.to;
                        self.hash ^= Self::moved_key(m.to);
                    } else {
                        self.end_turn();
                    }
                }
            }
            MoveKind::Order | MoveKind::NoOrder => {
                self.hash ^= Self::moved_key(self.moved);
                self.moved = NONE;
                if m.kind == MoveKind::Order {
                    let o = Order {
                        from: m.from,
                        to: m.to,
                    };
                    self.orders[side] = Some(o);
                    self.hash ^= Self::order_key(side, o);
                    self.set_wait(side, self.rules.knobs.order_delay);
                }
                if self.rules.limited_orders {
                    let issued = m.kind == MoveKind::Order;
                    if self.issued[side] != issued {
                        self.issued[side] = issued;
                        self.hash ^= KEYS[KEY_ISSUED + side];
                    }
                }
                self.end_turn();
            }
        }
        self.ply += 1;
        if self.turns != undo.turns {
            // This ply ended a turn: the next one begins with the next ply.
            self.turn_start = self.ply;
        }
        debug_assert_eq!(self.hash, self.recompute_hash());
        undo
    }

    /// A decision ends the game by a displacement that shuts a Pivot in, or by ending
    /// the turn: the cap, or the other side's pending order firing as its turn starts.
    /// Each is tested on the bitboards without playing the decision.
    fn may_end_game(&self, m: ApvMove) -> bool {
        if self.end.is_some() {
            return true;
        }
        if m.kind == MoveKind::Primary {
            let (from, to) = (usize::from(m.from), usize::from(m.to));
            // With orders on, the order decision follows; without, the turn ends, and
            // no order is ever pending.
            return self.shuts_a_pivot_in(self.occupied(), from, to)
                || (!self.rules.orders && self.turn_ends_in_cap());
        }
        self.order_decision_may_end_game()
    }

    /// A primary move wins only by filling the last liberty of the enemy Pivot (it
    /// fills one cell), so none can while that Pivot has two or more. An order decision
    /// changes nothing on the board: every one of them ends the turn on the same board,
    /// where only the other side's order firing (or the cap, a draw) ends the game, so
    /// the first answers for all.
    fn retain_possible_wins(&self, moves: &mut Vec<ApvMove>) {
        if !self.may_win_now() {
            moves.clear();
        } else if self.moved == NONE {
            moves.retain(|&m| self.may_end_game(m));
        }
    }

    /// An order decision (whichever) ends the game only where the order decision due
    /// may; a primary move is asked on its own.
    fn any_move_may_end_game(&self) -> bool {
        self.end.is_some() || self.moved == NONE || self.order_decision_may_end_game()
    }

    /// The test [`State::retain_possible_wins`] makes of the whole node: a primary move
    /// cannot win while the enemy Pivot has two liberties, and an order decision ends
    /// the game only if any order would.
    fn may_win_now(&self) -> bool {
        if self.end.is_some() {
            true
        } else if self.moved != NONE {
            self.order_decision_may_end_game()
        } else {
            self.liberties(1 - self.to_move).count_ones() < 2
        }
    }

    fn try_apply(&mut self, m: ApvMove) -> Result<ApvState, MoveError> {
        if self.end.is_some() {
            Err(MoveError::new(self.format_move(m), "the game is over"))
        } else if self.is_legal(m) {
            Ok(self.apply(m))
        } else {
            Err(illegal_move(self, m, "not a legal move in this position"))
        }
    }

    #[inline]
    fn undo(&mut self, undo: ApvState) {
        *self = undo;
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn recompute_hash(&self) -> u64 {
        let mut h = 0;
        for side in 0..2 {
            for unit in 0..4 {
                for c in Cells(self.units[side][unit]) {
                    h ^= KEYS[side * 256 + unit * 64 + c];
                }
            }
            if let Some(o) = self.orders[side] {
                h ^= Self::order_key(side, o) ^ Self::wait_key(side, self.waits[side]);
            }
            if self.issued[side] {
                h ^= KEYS[KEY_ISSUED + side];
            }
        }
        if self.to_move == 1 {
            h ^= KEY_SOUTH;
        }
        h ^ Self::moved_key(self.moved) ^ Self::end_key(self.end)
    }

    #[inline]
    fn end(&self) -> Option<End> {
        self.end.map(Finish::end)
    }

    fn side(&self, seat: Seat) -> &'static str {
        SIDES[seat]
    }

    fn ply(&self) -> u32 {
        self.ply
    }

    /// A turn is the primary move and its order decision (the primary move alone with
    /// `orders=false`, or when it ends the game), both sides' turns counted: the unit of
    /// the `max_turns` cap, so a game drawn by the cap has exactly `max_turns` turns.
    fn turns(&self) -> u32 {
        self.turns + u32::from(self.ply > self.turn_start)
    }

    fn format_move(&self, m: ApvMove) -> String {
        notation::format_move(m)
    }

    fn parse_move(&self, text: &str) -> Result<ApvMove, MoveError> {
        notation::parse_move(self, text)
    }
}

impl FastPlayout for ApvState {}

impl Symmetries for ApvState {}

impl PieRule for ApvState {}

/// The pass is offered at the start of a turn only, not at its order decision: the
/// other side is to move and its pending order's wait counts down (and the order fires
/// when it runs out), as at the end of any turn. The
/// pass counts no turn towards the cap. There is none where that order's firing ends
/// the game.
impl NullMove for ApvState {
    fn null_move(&mut self) -> Option<ApvState> {
        if self.end.is_some() || self.moved != NONE {
            return None;
        }
        let undo = self.clone();
        self.next_side();
        if self.end.is_some() {
            *self = undo;
            return None;
        }
        self.ply += 1;
        self.turn_start = self.ply;
        debug_assert_eq!(self.hash, self.recompute_hash());
        Some(undo)
    }
}

impl LengthCap for ApvState {}
