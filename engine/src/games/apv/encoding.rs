//! APV's encoding: the units of both sides, the pending future orders and the unit that
//! just made its primary move, on a 9 × 9 grid seen from the view's side; whose decision
//! is next, the turns played toward the cap and, under Limited Orders, which sides are
//! barred from their next order.
//!
//! **The view's frame.** North's view (seat 0) sees the board as it is; South's view
//! (seat 1) sees it turned half a turn, `(q, r)` read as `(-q, -r)`. The setup is its
//! own image under that turn with the sides swapped, and every unit's moves (steps,
//! slides, two-step jumps and diagonal jumps in all six directions) are unchanged by it,
//! so both views of the same situation are the same picture: the view's Pivot starts at
//! row 8, column 4, and one network serves both seats.
//!
//! **The grid** is 9 × 9: the cell at axial `(q, r)` (in the view's frame) lies at row
//! `r + 4`, column `q + 4`. That is the hexagon's axial layout: a cell's six neighbours
//! are the cells left and right of it in its row, the same column and the one to the
//! left in the next row, and the same column and the one to the right in the previous
//! row, so a pattern means the same anywhere on the board. The 20 grid cells with
//! `|q + r| > 4` (two triangular corners: high rows at high columns, low rows at low
//! columns) are off the board and never active. In North's frame `e9` is row 8,
//! column 4, and `e1` row 0, column 4.
//!
//! **Planes**, first the units, then (when orders exist) the orders and the phase:
//! - `my-pivot`, `my-axis`, `my-veil`, `my-turned-veil`, then the same four as
//!   `their-…`: a unit of that type and owner;
//! - `my-order-unit`, `my-order-target`, `their-order-unit`, `their-order-target`: the
//!   unit a side's pending future order names and the cell it is ordered to (the order
//!   is shown as issued, whether or not it would still be legal when it fires);
//! - `just-moved`: during the order decision, the unit that made the primary move of
//!   this turn (it may not be ordered); no cell is active while a primary move is due,
//!   so the plane also tells the phase of the turn.
//!
//! With `orders=false` only the eight unit planes exist.
//!
//! **Scalars**:
//! - `to-move` (max 1): 1 if the view's seat makes the next decision, 0 if the other
//!   seat does or the game is over;
//! - `turns` (max `max_turns`): completed turns, both sides counted, toward the draw at
//!   the cap;
//! - under Limited Orders only, `my-order-barred` and `their-order-barred` (max 1): that
//!   side issued an order at its most recent order decision, so its next order decision
//!   has only `no-order`;
//! - with an `order_delay` above 1 only, `my-order-wait` and `their-order-wait` (max the
//!   delay): at the start of which of that side's turns from now its pending order
//!   fires, 0 without one.
//!
//! The identifier is `apv/1:<mode>:<max_turns>`, the mode `orders`, `limited-orders` or
//! `no-orders`, followed by `:delay<d>` for an `order_delay` d above 1: the mode and the
//! delay decide which planes and scalars exist, the cap is the `turns` scalar's maximum
//! (and the delay the waits'). The army's size (the unit-count knobs and South's extra
//! unit) changes no plane: a unit plane holds every unit of its type and owner.
//!
//! APV has no hidden information: everything here is public.

use super::board::{Bitboard, CELLS, GEO};
use super::moves::{ApvMove, MoveKind, Unit};
use super::ApvState;
use crate::bits::Cells;
use crate::encoding::{Encode, Encoding, FeatureChanges, Plane, Scalar};
use crate::game::{opponent, Seat, State, Turn};

/// Grid rows and columns: `r + 4` and `q + 4`.
const SIDE: usize = 9;
/// Grid cells per plane.
const GRID: u32 = (SIDE * SIDE) as u32;

/// Unit planes per owner, in [`Unit`] order.
const UNIT_PLANES: usize = 4;
/// The first order plane: the view's ordered unit; then its target, the opponent's
/// ordered unit and its target.
const ORDER_PLANE: usize = 2 * UNIT_PLANES;
/// The plane of the unit that just made the primary move.
const MOVED_PLANE: usize = ORDER_PLANE + 4;

/// The grid cell (`row × 9 + col`) of each board cell in the view's frame. Cells are
/// numbered row by row (`r`, then `q`, ascending), as the grid is, so the table rises.
const GRID_CELL: [u32; CELLS] = grid_cells();

const fn grid_cells() -> [u32; CELLS] {
    let mut table = [0; CELLS];
    let mut c = 0;
    while c < CELLS {
        table[c] = ((GEO.r[c] + 4) as usize * SIDE + (GEO.q[c] + 4) as usize) as u32;
        c += 1;
    }
    table
}

macro_rules! plane {
    ($name:expr, $meaning:expr) => {
        Plane {
            name: $name,
            meaning: $meaning,
        }
    };
}

const PLANES: [Plane; MOVED_PLANE + 1] = [
    plane!("my-pivot", "the Pivot of the view's seat"),
    plane!("my-axis", "an Axis of the view's seat"),
    plane!("my-veil", "a Veil of the view's seat"),
    plane!("my-turned-veil", "a Turned Veil of the view's seat"),
    plane!("their-pivot", "the Pivot of the other seat"),
    plane!("their-axis", "an Axis of the other seat"),
    plane!("their-veil", "a Veil of the other seat"),
    plane!("their-turned-veil", "a Turned Veil of the other seat"),
    plane!(
        "my-order-unit",
        "the unit named by the view's pending future order"
    ),
    plane!(
        "my-order-target",
        "the cell the view's pending future order moves its unit to"
    ),
    plane!(
        "their-order-unit",
        "the unit named by the other seat's pending future order"
    ),
    plane!(
        "their-order-target",
        "the cell the other seat's pending future order moves its unit to"
    ),
    plane!(
        "just-moved",
        "the unit that made this turn's primary move, during the order decision"
    ),
];

/// A board cell in `view`'s frame: South's view turns the board half a turn, which
/// maps cell `c` to `60 - c`.
#[inline]
fn frame(view: Seat, cell: usize) -> usize {
    if view == 0 {
        cell
    } else {
        CELLS - 1 - cell
    }
}

/// A set of cells in `view`'s frame (see [`frame`]).
#[inline]
fn frame_set(view: Seat, cells: Bitboard) -> Bitboard {
    if view == 0 {
        cells
    } else {
        cells.reverse_bits() >> (64 - CELLS)
    }
}

/// The feature of `plane` at board cell `cell`, seen by `view`.
#[inline]
fn feature(view: Seat, plane: usize, cell: usize) -> u32 {
    plane as u32 * GRID + GRID_CELL[frame(view, cell)]
}

/// The plane of `owner`'s units of type `unit`, seen by `view`.
#[inline]
fn unit_plane(view: Seat, owner: Seat, unit: Unit) -> usize {
    usize::from(owner != view) * UNIT_PLANES + unit as usize
}

/// The plane of `owner`'s ordered unit (its target's is the next one), seen by `view`.
#[inline]
fn order_plane(view: Seat, owner: Seat) -> usize {
    ORDER_PLANE + 2 * usize::from(owner != view)
}

impl ApvState {
    /// Appends the features of `side`'s pending order switching on (`on`) or off, for
    /// `view`.
    fn order_features(&self, side: Seat, view: Seat, out: &mut Vec<u32>) {
        if let Some(o) = self.order(side) {
            let plane = order_plane(view, side);
            out.push(feature(view, plane, o.from.into()));
            out.push(feature(view, plane + 1, o.to.into()));
        }
    }
}

impl Encode for ApvState {
    fn encoding(&self) -> Encoding {
        let rules = self.rules();
        let mode = match (rules.orders(), rules.limited_orders()) {
            (false, _) => "no-orders",
            (true, false) => "orders",
            (true, true) => "limited-orders",
        };
        let planes = if rules.orders() {
            &PLANES[..]
        } else {
            &PLANES[..ORDER_PLANE]
        };
        let mut scalars = vec![
            Scalar {
                name: "to-move",
                meaning: "1 if the view's seat makes the next decision, else 0",
                max: 1,
            },
            Scalar {
                name: "turns",
                meaning: "turns completed, both sides counted; the game is drawn at the maximum",
                max: i32::try_from(rules.max_turns()).expect("max_turns is at most 1,000,000"),
            },
        ];
        if rules.limited_orders() {
            scalars.extend([
                Scalar {
                    name: "my-order-barred",
                    meaning: "1 if the view's seat issued an order at its last order decision \
                              and so may not issue one at its next",
                    max: 1,
                },
                Scalar {
                    name: "their-order-barred",
                    meaning: "1 if the other seat issued an order at its last order decision \
                              and so may not issue one at its next",
                    max: 1,
                },
            ]);
        }
        let delay = rules.knobs().order_delay;
        let mut id = format!("apv/1:{mode}:{}", rules.max_turns());
        if delay > 1 {
            id.push_str(&format!(":delay{delay}"));
            scalars.extend([
                Scalar {
                    name: "my-order-wait",
                    meaning: "at the start of which of the view's turns from now its pending \
                              order fires (1: the next), 0 without one",
                    max: i32::from(delay),
                },
                Scalar {
                    name: "their-order-wait",
                    meaning: "at the start of which of the other seat's turns from now its \
                              pending order fires (1: the next), 0 without one",
                    max: i32::from(delay),
                },
            ]);
        }
        Encoding {
            id,
            rows: SIDE as u32,
            cols: SIDE as u32,
            planes: planes.to_vec(),
            scalars,
        }
    }

    fn features(&self, view: Seat, out: &mut Vec<u32>) {
        let mut plane_cells = |plane: usize, cells: Bitboard| {
            for c in Cells(frame_set(view, cells)) {
                out.push(plane as u32 * GRID + GRID_CELL[c]);
            }
        };
        for owner in [view, opponent(view)] {
            for unit in Unit::ALL {
                plane_cells(unit_plane(view, owner, unit), self.units(owner, unit));
            }
        }
        if !self.rules().orders() {
            return;
        }
        for owner in [view, opponent(view)] {
            let (from, to) = self
                .order(owner)
                .map_or((0, 0), |o| (1 << o.from, 1 << o.to));
            let plane = order_plane(view, owner);
            plane_cells(plane, from);
            plane_cells(plane + 1, to);
        }
        plane_cells(MOVED_PLANE, self.just_moved().map_or(0, |c| 1 << c));
    }

    fn scalars(&self, view: Seat, out: &mut Vec<i32>) {
        out.push(i32::from(self.turn() == Turn::Seat(view)));
        out.push(self.turns_completed() as i32);
        if self.rules().limited_orders() {
            out.push(i32::from(self.issued_last_turn(view)));
            out.push(i32::from(self.issued_last_turn(opponent(view))));
        }
        if self.rules().knobs().order_delay > 1 {
            out.push(i32::from(self.order_wait(view)));
            out.push(i32::from(self.order_wait(opponent(view))));
        }
    }

    /// The changes of each decision, derived from the position before it:
    /// - a primary move takes its unit off `from` and puts it on `to` (and cancels the
    ///   side's waiting order if it names that unit, which only an `order_delay` above 1
    ///   allows); unless that shuts a Pivot in (the game ends there), it marks `to` as
    ///   `just-moved` with orders on, and with orders off ends the turn, which changes no
    ///   feature (no orders fire);
    /// - an order decision clears `just-moved` and, for `order:…`, shows the new order;
    ///   then the turn ends: unless the cap is reached, the other side's pending order,
    ///   if its wait runs out now, is removed and, if its move is still legal, its unit
    ///   moves (a wait that only counts down changes a scalar, no feature). A game ended
    ///   by the cap or by the fired order changes nothing more.
    fn feature_changes(&self, m: ApvMove, view: Seat, changes: &mut FeatureChanges) {
        let side = self.side_to_move();
        let rules = self.rules();
        match m.kind {
            MoveKind::Primary => {
                let (from, to) = (usize::from(m.from), usize::from(m.to));
                let unit = self.unit_at(side, from).expect("a legal move moves a unit");
                let plane = unit_plane(view, side, unit);
                changes.off.push(feature(view, plane, from));
                changes.on.push(feature(view, plane, to));
                if !rules.orders() {
                    return;
                }
                if self.order(side).is_some_and(|o| o.from == m.from) {
                    self.order_features(side, view, &mut changes.off);
                }
                let occupied = self.occupied() ^ (1 << from | 1 << to);
                let shut_in = |owner: Seat| {
                    let pivot = if owner == side && unit == Unit::Pivot {
                        to
                    } else {
                        self.pivot(owner)
                    };
                    GEO.neighbours[pivot] & !occupied == 0
                };
                if !shut_in(0) && !shut_in(1) {
                    changes.on.push(feature(view, MOVED_PLANE, to));
                }
            }
            MoveKind::Order | MoveKind::NoOrder => {
                let moved = self
                    .just_moved()
                    .expect("an order decision follows a primary move");
                changes.off.push(feature(view, MOVED_PLANE, moved));
                if m.kind == MoveKind::Order {
                    let plane = order_plane(view, side);
                    changes.on.push(feature(view, plane, m.from.into()));
                    changes.on.push(feature(view, plane + 1, m.to.into()));
                }
                if self.turns_completed() + 1 >= rules.max_turns() {
                    return;
                }
                let other = opponent(side);
                if self.order_wait(other) > 1 {
                    return;
                }
                self.order_features(other, view, &mut changes.off);
                if let Some(o) = self.order(other) {
                    let (from, to) = (usize::from(o.from), usize::from(o.to));
                    let unit = self
                        .unit_at(other, from)
                        .expect("an ordered unit stays put until its order fires");
                    if unit.targets(from, self.occupied()) & 1 << to != 0 {
                        let plane = unit_plane(view, other, unit);
                        changes.off.push(feature(view, plane, from));
                        changes.on.push(feature(view, plane, to));
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{play_moves, Game};
    use crate::games::apv::Apv;
    use crate::testing::{check_encoding, views};

    #[test]
    fn the_contract_holds_along_random_games() {
        let report = check_encoding(&Apv::default(), 200, 1).unwrap();
        assert!(report.changes > 100_000, "{report:?}");
        assert_eq!(
            Apv::default().initial_state().encoding().features(),
            13 * 81
        );
    }

    #[test]
    fn the_contract_holds_without_orders_and_with_limited_orders() {
        let plain = Apv::new(false, false, 500).unwrap();
        let report = check_encoding(&plain, 200, 2).unwrap();
        assert!(report.changes > 50_000, "{report:?}");
        assert_eq!(report.most_active, 14, "{report:?}");
        let e = plain.initial_state().encoding();
        assert_eq!(
            (e.id.as_str(), e.features()),
            ("apv/1:no-orders:500", 8 * 81)
        );
        // A short cap ends many games by the cap, right after an order decision.
        let limited = Apv::new(true, true, 40).unwrap();
        let report = check_encoding(&limited, 200, 3).unwrap();
        assert!(report.changes > 10_000, "{report:?}");
        let e = limited.initial_state().encoding();
        assert_eq!(e.id, "apv/1:limited-orders:40");
        assert_eq!(e.scalars.len(), 4);
        // A cap of 5 turns ends nearly every game at an order decision, with the other
        // side's order still pending and not fired.
        let report = check_encoding(&Apv::new(true, false, 5).unwrap(), 200, 4).unwrap();
        assert_eq!(report.most_active, 18, "{report:?}");
    }

    #[test]
    fn units_orders_and_the_moved_unit_from_both_sides() {
        let mut s = Apv::default().initial_state();
        // Both views of the start are the same picture.
        assert_eq!(views(&s)[0].0, views(&s)[1].0);
        assert_eq!(s.encoding().id, "apv/1:orders:500");
        // North: Veil d7-d5, orders its Axis f8 to h6; South: Veil f3-f5, and South's
        // order decision is due.
        play_moves(&mut s, "d7-d5 order:f8-h6 f3-f5").unwrap();
        // Grid cell (r + 4) × 9 + q + 4 in North's frame; South's is 80 minus it.
        // North: Pivot e9 76, Axes d8 66 and f8 68, Veils d5 39 and f7 59, Turned Veils
        // e7 58 and e8 67, order f8 (68) to h6 (52). South: Pivot e1 4, Axes d2 12 and
        // f2 14, Veils d3 21 and f5 41, Turned Veils e2 13 and e3 22; f5 just moved.
        let north = [
            76, // my-pivot
            81 + 66,
            81 + 68, // my-axis
            162 + 39,
            162 + 59, // my-veil
            243 + 58,
            243 + 67, // my-turned-veil
            324 + 4,  // their-pivot
            405 + 12,
            405 + 14, // their-axis
            486 + 21,
            486 + 41, // their-veil
            567 + 13,
            567 + 22, // their-turned-veil
            648 + 68, // my-order-unit
            729 + 52, // my-order-target
            972 + 41, // just-moved
        ];
        let south = [
            76, // my-pivot: e1
            81 + 66,
            81 + 68, // my-axis: f2, d2
            162 + 39,
            162 + 59, // my-veil: f5, d3
            243 + 58,
            243 + 67, // my-turned-veil: e3, e2
            324 + 4,  // their-pivot: e9
            405 + 12,
            405 + 14, // their-axis: f8, d8
            486 + 21,
            486 + 41, // their-veil: f7, d5
            567 + 13,
            567 + 22, // their-turned-veil: e8, e7
            810 + 12, // their-order-unit: f8
            891 + 28, // their-order-target: h6
            972 + 39, // just-moved: f5
        ];
        assert_eq!(views(&s)[0], (north.to_vec(), vec![0, 1]));
        assert_eq!(views(&s)[1], (south.to_vec(), vec![1, 1]));
        // South declines to order; North's order fires: its Axis goes f8 to h6.
        let m = s.parse_move("no-order").unwrap();
        let mut changes = FeatureChanges::default();
        s.feature_changes(m, 0, &mut changes);
        changes.off.sort_unstable();
        assert_eq!(changes.off, [81 + 68, 648 + 68, 729 + 52, 972 + 41]);
        assert_eq!(changes.on, [81 + 52]);
        s.apply(m);
        assert_eq!(views(&s)[1].1, vec![0, 2]);
    }

    #[test]
    fn the_contract_holds_under_the_knobs_and_a_delay_adds_the_waits() {
        use crate::games::apv::{ApvKnobs, Unit};
        let rulebook = ApvKnobs::default();
        let big = Apv::default()
            .with_knobs(ApvKnobs {
                axes: 3,
                veils: 3,
                turned_veils: 3,
                south_extra: Some(Unit::Veil),
                ..rulebook
            })
            .unwrap();
        let report = check_encoding(&big, 40, 5).unwrap();
        assert!(report.changes > 10_000, "{report:?}");
        // The army's size changes no plane or scalar.
        assert_eq!(
            big.initial_state().encoding(),
            Apv::default().initial_state().encoding()
        );
        let delayed = Apv::new(true, true, 60)
            .unwrap()
            .with_knobs(ApvKnobs {
                order_delay: 3,
                ..rulebook
            })
            .unwrap();
        let report = check_encoding(&delayed, 100, 6).unwrap();
        assert!(report.changes > 10_000, "{report:?}");
        let mut s = delayed.initial_state();
        let e = s.encoding();
        assert_eq!(
            (e.id.as_str(), e.scalars.len()),
            ("apv/1:limited-orders:60:delay3", 6)
        );
        assert_eq!(e.scalars[5].max, 3);
        // North's order waits three of its turns; after South's turn, two.
        play_moves(&mut s, "d7-d5 order:f8-h6").unwrap();
        assert_eq!(views(&s)[0].1, vec![0, 1, 1, 0, 3, 0]);
        play_moves(&mut s, "f3-f5 no-order").unwrap();
        assert_eq!(views(&s)[1].1, vec![0, 2, 0, 1, 0, 2]);
    }

    #[test]
    fn limited_orders_bar_the_side_that_just_ordered() {
        let mut s = Apv::new(true, true, 500).unwrap().initial_state();
        play_moves(&mut s, "d7-d5 order:f8-h6 f3-f5 no-order").unwrap();
        // North ordered at its last decision, South did not.
        assert_eq!(views(&s)[0].1, vec![1, 2, 1, 0]);
        assert_eq!(views(&s)[1].1, vec![0, 2, 0, 1]);
    }
}
