//! Hexstrat's encoding: the squads, the face-up terrain, the cells still face down and
//! a move waiting on its reveal, on the board as the view's seat sees it; the squads'
//! strengths and states, the seize counts, the tiles left in the bag and the turns
//! played beside it.
//!
//! **The view's frame.** South's view (seat 0) sees the board as it is; North's view
//! (seat 1) sees it turned half a turn, `(q, r)` to `(−q, −r)`. The half turn maps each
//! Headquarters onto the other and the rules are unchanged by it with the sides
//! swapped, so in every view the view's own Headquarters is `d2` and the enemy's `d6`,
//! and one network serves both seats.
//!
//! **The grid** is 7 × 7: the cell at axial `(q, r)` (in the view's frame) lies at row
//! `r + 3`, column `q + 3`. That is the hexagon's axial layout: a cell's six neighbours
//! are the grid's left and right cells, the two above at the same column and one to the
//! right, and the two below at the same column and one to the left, so a pattern means
//! the same thing anywhere on the board. The 12 grid cells with `|q + r| > 3` (the top
//! rows' left end, the bottom rows' right end) are off the board and never active. The
//! half turn of the board is the grid's own half turn, `(row, col)` to
//! `(6 − row, 6 − col)`.
//!
//! **Planes** (16):
//! - `my-infantry`, `my-rocketeer`, `my-mech`, `their-infantry`, `their-rocketeer`,
//!   `their-mech`: the cell of that squad (one cell each while it lives; the three of a
//!   side share their Headquarters at the start);
//! - `plains`, `forest`, `mountain`: a face-up tile of that type;
//! - `face-down`: a tile not yet revealed. Its type is unknown to both players and is
//!   never read: the state does not even hold it, each reveal being drawn from the bag
//!   when it happens;
//! - `my-infantry-reveal` … `their-mech-reveal`: the face-down cell that squad (always
//!   one of the side whose turn it is) is moving onto, waiting for the reveal.
//!
//! **Scalars**:
//! - `to-move` (max 1): 1 if the turn is the view's seat's (its decision, or its reveal
//!   pending), 0 if the other seat's or the game is over;
//! - `my-infantry-units` … `their-mech-units` (max 6, 6, 4 in the rulebook; a type's
//!   starting strength with North's bonus under the knobs, for both views): units left
//!   in each squad, 0 once destroyed;
//! - `my-infantry-impeded` … `their-mech-impeded` (max 1): the squad is impeded, its
//!   only action being to recover;
//! - `my-infantry-acted` … `their-mech-acted` (max 1): the squad has acted this turn
//!   (only the squads of the side whose turn it is ever have);
//! - `my-seize`, `their-seize` (max 3, the `seize_turns` knob): the seat's seize count
//!   (its Infantry on the enemy Headquarters), which wins on reaching its maximum;
//! - `bag-plains`, `bag-forest`, `bag-mountain` (max 35, the whole bag): face-down
//!   tiles of that type left, which weigh the next reveal. Public: every reveal is seen
//!   by both sides;
//! - `turns` (max `2 × max_rounds`): turns completed, both sides counted; the game is
//!   drawn when it reaches its maximum.
//!
//! The identifier is `hexstrat/1:<max_rounds>`: the cap is the `turns` scalar's
//! maximum. Knobs that change a scalar's maximum add to it, only when turned:
//! `:units=<I>-<R>-<M>+<north_bonus>` for the squads' strengths and `:seize=<n>` for the
//! winning seize count (`hexstrat/1:60:units=8-6-4+1`). The bag's make-up changes how
//! many tiles of each type come out, not what any feature or scalar says (the bag
//! scalars are scaled by the whole bag of 35), so it is left out of it; so are the
//! terrain bonuses and the length of seat 0's first turn, which change what a move does,
//! not what a feature or scalar says.

use super::board::{Bitboard, CELLS, COORDS, RADIUS};
use super::combat;
use super::moves::{HexMove, Tile, Unit};
use super::{squad, HexstratState, Knobs, SEIZE_WINS, TILES};
use crate::bits::Cells;
use crate::encoding::{Encode, Encoding, FeatureChanges, Plane, Scalar};
use crate::game::{opponent, Seat};

/// Grid rows and columns: the hexagon's diameter.
const SIDE: u32 = 2 * RADIUS as u32 + 1;
/// Grid cells per plane.
const GRID: u32 = SIDE * SIDE;

/// The first squad plane; a squad's plane is `owner × 3 + unit` from it, owner 0 for
/// the view's seat.
const SQUAD_PLANES: usize = 0;
/// The first terrain plane, in [`Tile::ALL`] order; the face-down plane follows.
const TILE_PLANES: usize = 6;
/// The face-down plane.
const FACE_DOWN_PLANE: usize = 9;
/// The first pending-reveal plane, laid out as the squad planes.
const REVEAL_PLANES: usize = 10;

/// A [`Plane`] from its name and meaning.
macro_rules! plane {
    ($name:expr, $meaning:expr) => {
        Plane {
            name: $name,
            meaning: $meaning,
        }
    };
}

/// A [`Scalar`] from its name, meaning and maximum.
macro_rules! scalar {
    ($name:expr, $meaning:expr, $max:expr) => {
        Scalar {
            name: $name,
            meaning: $meaning,
            max: $max,
        }
    };
}

const PLANES: [Plane; 16] = [
    plane!("my-infantry", "the Infantry squad of the view's seat"),
    plane!("my-rocketeer", "the Rocketeer squad of the view's seat"),
    plane!("my-mech", "the Mech squad of the view's seat"),
    plane!("their-infantry", "the Infantry squad of the other seat"),
    plane!("their-rocketeer", "the Rocketeer squad of the other seat"),
    plane!("their-mech", "the Mech squad of the other seat"),
    plane!("plains", "a face-up Plains tile"),
    plane!("forest", "a face-up Forest tile"),
    plane!("mountain", "a face-up Mountain tile"),
    plane!("face-down", "a tile not yet revealed, of unknown type"),
    plane!(
        "my-infantry-reveal",
        "the face-down cell the view's Infantry is moving onto, awaiting its reveal"
    ),
    plane!(
        "my-rocketeer-reveal",
        "the face-down cell the view's Rocketeer is moving onto, awaiting its reveal"
    ),
    plane!(
        "my-mech-reveal",
        "the face-down cell the view's Mech is moving onto, awaiting its reveal"
    ),
    plane!(
        "their-infantry-reveal",
        "the face-down cell the other seat's Infantry is moving onto, awaiting its reveal"
    ),
    plane!(
        "their-rocketeer-reveal",
        "the face-down cell the other seat's Rocketeer is moving onto, awaiting its reveal"
    ),
    plane!(
        "their-mech-reveal",
        "the face-down cell the other seat's Mech is moving onto, awaiting its reveal"
    ),
];

/// The first units scalar: the view's three squads, then the other seat's.
const UNITS_SCALARS: usize = 1;
/// The first seize scalar: the view's, then the other seat's.
const SEIZE_SCALARS: usize = 19;

/// The scalars up to the bag's, with the rulebook's maxima (`encoding` sets those the
/// knobs turn); `turns`, whose maximum is the rules' cap, follows.
const SCALARS: [Scalar; 24] = [
    scalar!(
        "to-move",
        "1 if the turn is the view's seat's (its decision or its reveal), else 0",
        1
    ),
    scalar!("my-infantry-units", "units left in the view's Infantry", 6),
    scalar!(
        "my-rocketeer-units",
        "units left in the view's Rocketeer",
        6
    ),
    scalar!("my-mech-units", "units left in the view's Mech", 4),
    scalar!(
        "their-infantry-units",
        "units left in the other Infantry",
        6
    ),
    scalar!(
        "their-rocketeer-units",
        "units left in the other Rocketeer",
        6
    ),
    scalar!("their-mech-units", "units left in the other Mech", 4),
    scalar!(
        "my-infantry-impeded",
        "1 if the view's Infantry is impeded",
        1
    ),
    scalar!(
        "my-rocketeer-impeded",
        "1 if the view's Rocketeer is impeded",
        1
    ),
    scalar!("my-mech-impeded", "1 if the view's Mech is impeded", 1),
    scalar!(
        "their-infantry-impeded",
        "1 if the other Infantry is impeded",
        1
    ),
    scalar!(
        "their-rocketeer-impeded",
        "1 if the other Rocketeer is impeded",
        1
    ),
    scalar!("their-mech-impeded", "1 if the other Mech is impeded", 1),
    scalar!(
        "my-infantry-acted",
        "1 if the view's Infantry acted this turn",
        1
    ),
    scalar!(
        "my-rocketeer-acted",
        "1 if the view's Rocketeer acted this turn",
        1
    ),
    scalar!("my-mech-acted", "1 if the view's Mech acted this turn", 1),
    scalar!(
        "their-infantry-acted",
        "1 if the other Infantry acted this turn",
        1
    ),
    scalar!(
        "their-rocketeer-acted",
        "1 if the other Rocketeer acted this turn",
        1
    ),
    scalar!("their-mech-acted", "1 if the other Mech acted this turn", 1),
    scalar!(
        "my-seize",
        "the view's seize count; reaching its maximum wins",
        SEIZE_WINS as i32
    ),
    scalar!(
        "their-seize",
        "the other seat's seize count; reaching its maximum wins",
        SEIZE_WINS as i32
    ),
    scalar!("bag-plains", "Plains tiles still face down", TILES as i32),
    scalar!("bag-forest", "Forest tiles still face down", TILES as i32),
    scalar!(
        "bag-mountain",
        "Mountain tiles still face down",
        TILES as i32
    ),
];

/// The grid cell (`row × SIDE + col`) of each board cell, South's frame.
const GRID_CELL: [u32; CELLS] = grid_cells();

const fn grid_cells() -> [u32; CELLS] {
    let mut table = [0; CELLS];
    let mut c = 0;
    while c < CELLS {
        let (q, r) = COORDS[c];
        table[c] = (r + RADIUS) as u32 * SIDE + (q + RADIUS) as u32;
        c += 1;
    }
    table
}

/// The cell `c` in `view`'s frame: the cells are numbered row by row symmetrically, so
/// the half turn maps cell `c` to `36 − c`.
#[inline]
fn view_cell(view: Seat, c: usize) -> usize {
    if view == 1 {
        CELLS - 1 - c
    } else {
        c
    }
}

/// The cells of `bb` in `view`'s frame (the half turn reverses the 37 low bits).
#[inline]
fn view_cells(view: Seat, bb: Bitboard) -> Bitboard {
    if view == 1 {
        bb.reverse_bits() >> (64 - CELLS)
    } else {
        bb
    }
}

/// The feature of `plane` at board cell `c`, seen by `view`.
#[inline]
fn feature(plane: usize, view: Seat, c: usize) -> u32 {
    plane as u32 * GRID + GRID_CELL[view_cell(view, c)]
}

/// The plane, counted from `first` (the squad or the reveal planes), of `seat`'s
/// `unit` seen by `view`.
#[inline]
fn squad_plane(first: usize, view: Seat, seat: Seat, unit: Unit) -> usize {
    first + usize::from(seat != view) * 3 + unit as usize
}

/// Appends the features of `plane` at the cells of `bb`, in increasing order.
#[inline]
fn push_cells(out: &mut Vec<u32>, plane: usize, view: Seat, bb: Bitboard) {
    let base = plane as u32 * GRID;
    out.extend(Cells(view_cells(view, bb)).map(|c| base + GRID_CELL[c]));
}

impl HexstratState {
    /// Pushes the changes of `seat`'s `unit` squad stepping from its cell onto `to`.
    #[inline]
    fn step_changes(
        &self,
        view: Seat,
        seat: Seat,
        unit: Unit,
        to: usize,
        changes: &mut FeatureChanges,
    ) {
        let plane = squad_plane(SQUAD_PLANES, view, seat, unit);
        let from = self.cell[squad(seat, unit)] as usize;
        changes.off.push(feature(plane, view, from));
        changes.on.push(feature(plane, view, to));
    }
}

impl Encode for HexstratState {
    fn encoding(&self) -> Encoding {
        let knobs = self.rules.knobs();
        let mut scalars = SCALARS.to_vec();
        for unit in Unit::ALL {
            // North's starting strength, the larger of the two seats'.
            let most = i32::from(knobs.start_units(1, unit));
            scalars[UNITS_SCALARS + unit as usize].max = most;
            scalars[UNITS_SCALARS + 3 + unit as usize].max = most;
        }
        for seize in &mut scalars[SEIZE_SCALARS..SEIZE_SCALARS + 2] {
            seize.max = i32::from(knobs.seize_turns);
        }
        let cap = 2 * self.rules.max_rounds();
        scalars.push(scalar!(
            "turns",
            "turns completed, both sides counted; the game is drawn when it reaches its maximum",
            cap as i32
        ));
        let mut id = format!("hexstrat/1:{}", self.rules.max_rounds());
        let book = Knobs::RULEBOOK;
        if (knobs.units, knobs.north_bonus) != (book.units, book.north_bonus) {
            let [i, r, m] = knobs.units;
            id += &format!(":units={i}-{r}-{m}+{}", knobs.north_bonus);
        }
        if knobs.seize_turns != book.seize_turns {
            id += &format!(":seize={}", knobs.seize_turns);
        }
        Encoding {
            id,
            rows: SIDE,
            cols: SIDE,
            planes: PLANES.to_vec(),
            scalars,
        }
    }

    fn features(&self, view: Seat, out: &mut Vec<u32>) {
        for seat in [view, opponent(view)] {
            for unit in Unit::ALL {
                if let Some(c) = self.squad_cell(seat, unit) {
                    out.push(feature(
                        squad_plane(SQUAD_PLANES, view, seat, unit),
                        view,
                        c,
                    ));
                }
            }
        }
        for t in Tile::ALL {
            push_cells(
                out,
                TILE_PLANES + t as usize,
                view,
                self.face_up[t as usize],
            );
        }
        push_cells(out, FACE_DOWN_PLANE, view, self.face_down());
        if let Some((seat, unit, c)) = self.pending_reveal() {
            out.push(feature(
                squad_plane(REVEAL_PLANES, view, seat, unit),
                view,
                c,
            ));
        }
    }

    fn scalars(&self, view: Seat, out: &mut Vec<i32>) {
        let seats = [view, opponent(view)];
        out.push(i32::from(self.result.is_none() && self.to_move == view));
        for seat in seats {
            out.extend(Unit::ALL.map(|u| i32::from(self.units(seat, u))));
        }
        for seat in seats {
            out.extend(Unit::ALL.map(|u| i32::from(self.is_impeded(seat, u))));
        }
        for seat in seats {
            out.extend(Unit::ALL.map(|u| i32::from(self.has_acted(seat, u))));
        }
        for seat in seats {
            out.push(i32::from(self.seize_count(seat)));
        }
        out.extend(Tile::ALL.map(|t| self.in_bag(t) as i32));
        out.push(self.turns_played() as i32);
    }

    /// Exact for every decision and outcome, from the squads, the terrain and the combat
    /// arithmetic: `end` and `recover` change no feature (only scalars); a move onto a
    /// face-down cell marks it as awaiting the reveal; a move onto a face-up cell or a
    /// Headquarters steps the squad; an attack removes a destroyed defender and advances
    /// the attacker into the emptied cell (unless another defender stays there, a Mech
    /// would stand on a Mountain, or the attack routed the defending side and ended the
    /// game), or removes an attacker destroyed by the strike-back; a reveal turns the
    /// cell face up with its type, clears the pending mark and moves the squad in unless
    /// it is a Mech that a Mountain blocks. Strength, flags, seize counts and the end of
    /// the game are scalars.
    fn feature_changes(&self, m: HexMove, view: Seat, changes: &mut FeatureChanges) {
        match m {
            HexMove::End | HexMove::Recover(_) => {}
            HexMove::Reveal(tile) => {
                let (seat, unit, to) = self.pending_reveal().expect("a reveal is pending");
                changes.off.push(feature(FACE_DOWN_PLANE, view, to));
                let reveal = squad_plane(REVEAL_PLANES, view, seat, unit);
                changes.off.push(feature(reveal, view, to));
                changes
                    .on
                    .push(feature(TILE_PLANES + tile as usize, view, to));
                if !blocked(unit, Some(tile)) {
                    self.step_changes(view, seat, unit, to, changes);
                }
            }
            HexMove::Go {
                squad: unit,
                to,
                target,
            } => {
                let seat = self.to_move;
                let enemy = opponent(seat);
                let to = usize::from(to);
                let defenders = self.squads_on(enemy, to);
                if defenders == 0 {
                    if self.is_face_down(to) {
                        let reveal = squad_plane(REVEAL_PLANES, view, seat, unit);
                        changes.on.push(feature(reveal, view, to));
                    } else {
                        self.step_changes(view, seat, unit, to, changes);
                    }
                    return;
                }
                let sq = squad(seat, unit);
                let dq = match target {
                    Some(t) => squad(enemy, t),
                    None => defenders.trailing_zeros() as usize,
                };
                let defender = Unit::from_index(dq % 3);
                let from = self.cell[sq] as usize;
                let (attacker_ground, defender_ground) = (self.ground(from), self.ground(to));
                let terrain = self.rules.knobs().terrain;
                let hit = terrain.damage(unit, attacker_ground, defender, defender_ground);
                if self.hp[dq] <= hit {
                    let plane = squad_plane(SQUAD_PLANES, view, enemy, defender);
                    changes.off.push(feature(plane, view, to));
                    let routed = self.alive(enemy) == 1 << dq;
                    let others_stay = defenders != 1 << dq;
                    if !routed && !others_stay && !blocked(unit, defender_ground) {
                        self.step_changes(view, seat, unit, to, changes);
                    }
                } else {
                    let back = terrain.damage(defender, defender_ground, unit, attacker_ground);
                    if self.hp[sq] <= back {
                        let plane = squad_plane(SQUAD_PLANES, view, seat, unit);
                        changes.off.push(feature(plane, view, from));
                    }
                }
            }
        }
    }
}

/// Whether a squad of type `unit` may not stand on `ground`: a Mech on a Mountain.
#[inline]
fn blocked(unit: Unit, ground: combat::Ground) -> bool {
    unit == Unit::Mech && ground == Some(Tile::Mountain)
}

#[cfg(test)]
mod tests {
    use super::super::board::{cell_at, DIRECTIONS, HQ};
    use super::super::{parse_cell, Hexstrat, Setup, SquadSetup};
    use super::*;
    use crate::game::{play_moves, Game, State};
    use crate::testing::{check_encoding, check_move_changes, views};

    /// `f` without its face-down features.
    fn face_up_only(f: &[u32]) -> Vec<u32> {
        f.iter()
            .copied()
            .filter(|&x| x / GRID != FACE_DOWN_PLANE as u32)
            .collect()
    }

    /// The cell named `name`.
    fn cell(name: &str) -> usize {
        parse_cell(name).unwrap()
    }

    /// Plays `line` from `s`, checking before each move, from both views, that the
    /// announced changes are exactly the difference it makes.
    fn play_checking_changes(s: &mut HexstratState, line: &str) {
        for text in line.split_whitespace() {
            let m = s.parse_move(text).unwrap();
            check_move_changes(s, m).unwrap_or_else(|e| panic!("{text}: {e}"));
            s.try_apply(m).unwrap();
        }
    }

    #[test]
    fn the_contract_holds_along_random_games() {
        let report = check_encoding(&Hexstrat::default(), 200, 1).unwrap();
        assert!(report.changes > 80_000, "{report:?}");
    }

    #[test]
    fn the_contract_holds_under_other_bags_and_caps() {
        // A bag heavy in Mountains (Mechs blocked on reveals and attacks), one of
        // Forests only, and a short cap that ends games by the draw.
        for (i, (plains, forests, mountains, rounds)) in
            [(5, 5, 25, 60), (0, 35, 0, 60), (15, 10, 10, 8)]
                .into_iter()
                .enumerate()
        {
            let game = Hexstrat::new(plains, forests, mountains, rounds).unwrap();
            let id = game.initial_state().encoding().id;
            assert_eq!(id, format!("hexstrat/1:{rounds}"));
            let report = check_encoding(&game, 200, 2 + i as u64).unwrap();
            assert!(report.changes > 20_000, "{:?}: {report:?}", game);
        }
    }

    #[test]
    fn the_grid_is_the_axial_layout_and_turns_with_the_view() {
        // Grid steps of the six directions (dq, dr): dq columns and dr rows.
        for c in 0..CELLS {
            let (q, r) = COORDS[c];
            for (dq, dr) in DIRECTIONS {
                if let Some(n) = cell_at(q + dq, r + dr) {
                    let step = GRID_CELL[n] as i32 - GRID_CELL[c] as i32;
                    assert_eq!(step, i32::from(dr) * SIDE as i32 + i32::from(dq));
                }
            }
            assert_eq!(COORDS[view_cell(1, c)], (-q, -r));
            assert_eq!(GRID_CELL[view_cell(1, c)], GRID - 1 - GRID_CELL[c]);
        }
        // Each view sees its own Headquarters at d2: row 1, column 3.
        assert_eq!(feature(0, 0, HQ[0]), 10);
        assert_eq!(feature(0, 1, HQ[1]), 10);
    }

    #[test]
    fn both_views_of_the_start_are_the_same_picture() {
        let s = Hexstrat::default().initial_state();
        let e = s.encoding();
        assert_eq!((e.id.as_str(), e.rows, e.cols), ("hexstrat/1:60", 7, 7));
        assert_eq!(
            (e.planes.len(), e.features(), e.scalars.len()),
            (16, 784, 25)
        );
        let [(south, to_move), (north, waits)] = views(&s);
        assert_eq!(south, north);
        // Three squads on each Headquarters (grid 10 and 38) and 35 face-down tiles.
        assert_eq!(
            &south[..6],
            [10, 49 + 10, 98 + 10, 147 + 38, 196 + 38, 245 + 38]
        );
        assert_eq!(south.len(), 6 + 35);
        let full = [6, 6, 4, 6, 6, 4];
        let rest = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 15, 10, 10, 0];
        assert_eq!(to_move, [&[1][..], &full, &rest].concat());
        assert_eq!(waits, [&[0][..], &full, &rest].concat());
    }

    #[test]
    fn squads_terrain_and_a_pending_reveal_as_each_view_sees_them() {
        let mut s = Hexstrat::default().initial_state();
        // South's Mech to c3 (Plains) and Rocketeer to e1 (Forest), end; North's
        // Infantry to d5 (Mountain), then its Mech steps toward the face-down c6.
        play_moves(&mut s, "M:c3 plains R:e1 forest end I:d5 mountain M:c6").unwrap();
        let e = s.encoding();
        let set = |cells: &[(usize, u32, u32)]| {
            let mut f: Vec<u32> = cells.iter().map(|&(p, r, c)| e.feature(p, r, c)).collect();
            f.sort_unstable();
            f
        };
        let [(south, south_scalars), (north, north_scalars)] = views(&s);
        let face_down: Vec<u32> = south
            .iter()
            .copied()
            .filter(|&x| x / GRID == FACE_DOWN_PLANE as u32)
            .collect();
        // South's view, the board as it is: (q, r) at row r + 3, column q + 3.
        #[rustfmt::skip]
        let expected = set(&[
            (0, 1, 3), (1, 0, 4), (2, 2, 2), // my I on d2, R on e1, M on c3
            (3, 4, 3), (4, 5, 3), (5, 5, 3), // their I on d5, R and M on d6
            (6, 2, 2), (7, 0, 4), (8, 4, 3), // plains c3, forest e1, mountain d5
            (15, 5, 2),                      // their Mech waits on c6's reveal
        ]);
        assert_eq!(face_up_only(&south), expected);
        // North's view, turned half a turn: (row, col) -> (6 - row, 6 - col).
        #[rustfmt::skip]
        let expected = set(&[
            (0, 2, 3), (1, 1, 3), (2, 1, 3), // my I on d5, R and M on d6
            (3, 5, 3), (4, 6, 2), (5, 4, 4), // their I on d2, R on e1, M on c3
            (6, 4, 4), (7, 6, 2), (8, 2, 3), // plains c3, forest e1, mountain d5
            (12, 1, 4),                      // my Mech waits on c6's reveal
        ]);
        assert_eq!(face_up_only(&north), expected);
        // 32 tiles face down, c6 still among them, c3 no longer.
        assert_eq!(face_down.len(), 32);
        assert!(face_down.contains(&e.feature(FACE_DOWN_PLANE, 5, 2)));
        assert!(!face_down.contains(&e.feature(FACE_DOWN_PLANE, 2, 2)));
        // To move, units, impeded, acted (North's Infantry), seize counts, bag, turns.
        #[rustfmt::skip]
        assert_eq!(
            south_scalars,
            [0, 6, 6, 4, 6, 6, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 14, 9, 9, 1]
        );
        #[rustfmt::skip]
        assert_eq!(
            north_scalars,
            [1, 6, 6, 4, 6, 6, 4, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 14, 9, 9, 1]
        );
    }

    #[test]
    fn combat_and_blocked_mechs_change_exactly_what_they_touch() {
        let setup = Setup {
            tiles: vec![
                ("d3", Tile::Plains),
                ("d4", Tile::Mountain),
                ("c4", Tile::Plains),
                ("e3", Tile::Forest),
                ("e4", Tile::Mountain),
            ],
            squads: vec![
                SquadSetup::new(0, Unit::Mech, "d3", 4),
                SquadSetup::new(0, Unit::Infantry, "c4", 6),
                SquadSetup::new(0, Unit::Rocketeer, "e3", 1),
                SquadSetup::new(1, Unit::Infantry, "d4", 2),
                SquadSetup::new(1, Unit::Rocketeer, "e4", 6),
            ],
            ..Setup::default()
        };
        let mut s = Hexstrat::default().position(&setup).unwrap();
        // The Mech destroys the Infantry on the Mountain (4 - 1 = 3 hits against 2
        // units) but may not advance onto it; South's Infantry then steps onto the
        // empty Mountain; the Rocketeer (1 unit) deals nothing to the Rocketeer on the
        // Mountain and dies to its strike-back (1 + 1 - 1).
        play_checking_changes(&mut s, "M:d4 I:d4 R:e4");
        assert_eq!(s.squad_cell(0, Unit::Mech), Some(cell("d3")));
        assert_eq!(s.squad_cell(0, Unit::Infantry), Some(cell("d4")));
        assert_eq!(s.squad_cell(0, Unit::Rocketeer), None);
        assert_eq!(s.squad_cell(1, Unit::Infantry), None);
        // A Mech revealing a Mountain stays where it is.
        let mut t = Hexstrat::new(0, 0, 35, 60).unwrap().initial_state();
        play_checking_changes(&mut t, "M:c3 mountain I:d3 mountain R:e2 mountain");
        assert_eq!(t.squad_cell(0, Unit::Mech), Some(HQ[0]));
        assert_eq!(t.squad_cell(0, Unit::Infantry), Some(cell("d3")));
    }

    #[test]
    fn an_attack_on_a_stack_names_its_target_and_does_not_advance() {
        let setup = Setup {
            tiles: vec![("d5", Tile::Plains)],
            squads: vec![
                SquadSetup::new(0, Unit::Mech, "d5", 4),
                SquadSetup::new(1, Unit::Infantry, "d6", 2),
                SquadSetup::new(1, Unit::Rocketeer, "d6", 6),
                SquadSetup::new(1, Unit::Mech, "d6", 4),
            ],
            ..Setup::default()
        };
        let mut s = Hexstrat::default().position(&setup).unwrap();
        // The Infantry is destroyed but two squads stay; then the Rocketeer survives
        // and strikes back (3 hits of the Mech's 4 units).
        play_checking_changes(&mut s, "M:d6/I end M:d6/R");
        assert_eq!(s.squad_cell(0, Unit::Mech), Some(cell("d5")));
        assert_eq!(
            (s.units(0, Unit::Mech), s.units(1, Unit::Rocketeer)),
            (1, 4)
        );
    }

    #[test]
    fn a_rout_leaves_the_attacker_where_it_stood() {
        let setup = Setup {
            tiles: vec![("d4", Tile::Plains), ("d5", Tile::Plains)],
            squads: vec![
                SquadSetup::new(0, Unit::Mech, "d4", 4),
                SquadSetup::new(1, Unit::Infantry, "d5", 1),
            ],
            ..Setup::default()
        };
        let mut s = Hexstrat::default().position(&setup).unwrap();
        play_checking_changes(&mut s, "M:d5");
        assert_eq!(s.outcome(), Some(crate::game::Outcome::Win(0)));
        let [(south, scalars), _] = views(&s);
        // Only the Mech on d4 (row 3, column 3) and the two Plains (d4, and d5 at row
        // 4, column 3) beside the face-down tiles.
        assert_eq!(
            face_up_only(&south),
            [2 * 49 + 24, 6 * 49 + 24, 6 * 49 + 31]
        );
        assert_eq!(scalars[0], 0, "nobody moves once the game is over");
    }

    #[test]
    fn the_bag_is_public_and_the_face_down_types_are_not_encoded() {
        // Two rules whose face-down tiles differ in every possible way encode their
        // starts with the same features; only the public counts of the bag differ.
        let plains = Hexstrat::new(35, 0, 0, 60).unwrap().initial_state();
        let mountains = Hexstrat::new(0, 0, 35, 60).unwrap().initial_state();
        assert_eq!(plains.encoding(), mountains.encoding());
        let [(a, x), (b, y)] = views(&plains);
        let [(c, z), (d, w)] = views(&mountains);
        assert_eq!((a, b), (c, d));
        assert_eq!((&x[..21], &y[..21]), (&z[..21], &w[..21]));
        assert_eq!(
            (&x[21..], &z[21..]),
            (&[35, 0, 0, 0][..], &[0, 0, 35, 0][..])
        );
    }
}
