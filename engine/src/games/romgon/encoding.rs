//! Romgon's encoding: the pieces with their facings and axes, the shuttle counters as
//! marks on the cells they join, and the turn, repetition and length-cap counters.
//!
//! **The view's frame.** The board is seen from the view's side: Black's view (seat 0)
//! sees it as it is, White's view (seat 1) sees it turned half a turn (cell `r-c`
//! becomes `(6 - r)-(n(r) - 1 - c)`, and a facing turns by three steps: E reads as W,
//! SE as NW). The rules are unchanged by that turn with the colours swapped, and the
//! setup is its own image (with any piece counts; only a `handicap` makes the two sides
//! differ), so both views of the start are the same picture: the view's base is always
//! `3-8` and its goal always `3-0`, and one network serves both seats without learning
//! which colour it plays. A Hexagon's axis is unchanged by the turn.
//!
//! **The grid** is 7 × 9: cell `r-c` (in the view's frame) lies at row `r`, column
//! `c + max(0, r - 3)`. That is the hexagonal board's axial layout: the six neighbours
//! of a cell are the grid's left and right cells, the two above at the same column and
//! one to the left, and the two below at the same column and one to the right (E, W,
//! NE, NW, SW, SE), so a grid pattern means the same thing anywhere on the board. The
//! 12 grid cells outside the board (the top rows' right end, the bottom rows' left
//! end) are never active. The half-turn of the board is the grid's own half-turn,
//! `(row, col)` to `(6 - row, 8 - col)`.
//!
//! **Planes** (64), first the view's ("my-…"), then the opponent's ("their-…"):
//! - 12 piece planes per side, one per piece state: `square`, `triangle-e`,
//!   `triangle-se`, `triangle-sw`, `triangle-w`, `triangle-nw`, `triangle-ne` (a
//!   Triangle facing that way in the view's frame), `circle`, `rhombus`, `hexagon-e`
//!   (axis E–W), `hexagon-se` (SE–NW), `hexagon-sw` (SW–NE). Each piece is on exactly
//!   one plane.
//! - 20 shuttle planes per side, `<type>-shuttle-<t>` for each piece type and
//!   t = 1..=4: the cell is an end of a cell pair over which that side's pieces of that
//!   type have made at least `t` non-capturing moves (the shuttle counter of the pair is
//!   at least `t`; under the rulebook a counter reaching 5 loses, so `t = 4` marks cells
//!   where one more such move may lose; the levels are counts, whatever the
//!   `shuttle_limit`, so a plane means the same under every limit). This is the
//!   counters' largest value at each cell, not the
//!   counters themselves: which pair of two marked cells is the hot one is left to the
//!   network, as 2 × 1,033 counters would not fit a board picture.
//!
//! **Scalars**:
//! - `to-move` (max 1): 1 if the view's seat acts next, 0 if the other does or the game
//!   is over;
//! - `repeats` (max 2): how many times the present position (pieces, orientations and
//!   side to move) occurred before; a third occurrence loses for the side that made
//!   it, so 2 is seen only at a game lost by repetition;
//! - `actions` (max `max_actions`): actions played, toward the length cap's draw.
//!
//! The identifier is `romgon/1:<max_actions>`: the cap is the `actions` scalar's
//! maximum. The defence and rotation parameters and the designer's knobs (piece counts,
//! handicap, shuttle limit) change which positions and actions occur, not what any
//! feature says, so they are left out of it.
//!
//! Romgon has no hidden information: everything here is public.

use std::sync::OnceLock;

use super::board::{
    Bitboard, Board, Colour, Geometry, Kind, Piece, CELLS, KINDS, ROW_LEN, ROW_START, SHUTTLE_PAIRS,
};
use super::moves::{ActionKind, RomgonMove};
use super::RomgonState;
use crate::bits::Cells;
use crate::encoding::{Encode, Encoding, FeatureChanges, Plane, Scalar};
use crate::game::Seat;

/// Grid rows.
const ROWS: usize = 7;
/// Grid columns.
const COLS: usize = 9;
/// Grid cells per plane.
const GRID: u32 = (ROWS * COLS) as u32;

/// Piece planes per side: square, six triangle facings, circle, rhombus, three hexagon
/// axes.
const PIECE_PLANES: usize = 12;
/// Shuttle levels encoded: counters of at least 1, 2, 3 and 4.
const LEVELS: u8 = 4;
/// Shuttle planes per side: a level per piece type.
const SHUTTLE_PLANES: usize = KINDS.len() * LEVELS as usize;
/// Planes per side.
const SIDE_PLANES: usize = PIECE_PLANES + SHUTTLE_PLANES;

/// The grid cell (`row × COLS + col`) of each board cell, in the view's frame.
const GRID_CELL: [u32; CELLS] = grid_cells();

const fn grid_cells() -> [u32; CELLS] {
    let mut table = [0; CELLS];
    let mut r = 0;
    while r < ROWS {
        let shift = r.saturating_sub(3);
        let mut c = 0;
        while c < ROW_LEN[r] {
            table[ROW_START[r] + c] = (r * COLS + c + shift) as u32;
            c += 1;
        }
        r += 1;
    }
    table
}

/// A [`Plane`] from its name and meaning.
macro_rules! plane {
    ($name:expr, $meaning:expr) => {
        Plane {
            name: $name,
            meaning: $meaning,
        }
    };
}

/// The shuttle plane of one side (`$who`, `$whose` as in `side_planes!`), piece type
/// and level.
macro_rules! shuttle {
    ($who:literal, $whose:literal, $kind:literal, $level:literal) => {
        plane!(
            concat!($who, "-", $kind, "-shuttle-", $level),
            concat!(
                "an end of a cell pair over which the ",
                $kind,
                "s of ",
                $whose,
                " made at least ",
                $level,
                " non-capturing moves"
            )
        )
    };
}

/// Declares the planes of one side: `$who` prefixes the names, `$whose` ends the
/// meanings.
macro_rules! side_planes {
    ($who:literal, $whose:literal) => {
        [
            plane!(concat!($who, "-square"), concat!("a square of ", $whose)),
            plane!(
                concat!($who, "-triangle-e"),
                concat!("a triangle of ", $whose, " facing E")
            ),
            plane!(
                concat!($who, "-triangle-se"),
                concat!("a triangle of ", $whose, " facing SE")
            ),
            plane!(
                concat!($who, "-triangle-sw"),
                concat!("a triangle of ", $whose, " facing SW")
            ),
            plane!(
                concat!($who, "-triangle-w"),
                concat!(
                    "a triangle of ",
                    $whose,
                    " facing W (toward the view's goal)"
                )
            ),
            plane!(
                concat!($who, "-triangle-nw"),
                concat!("a triangle of ", $whose, " facing NW")
            ),
            plane!(
                concat!($who, "-triangle-ne"),
                concat!("a triangle of ", $whose, " facing NE")
            ),
            plane!(concat!($who, "-circle"), concat!("a circle of ", $whose)),
            plane!(
                concat!($who, "-rhombus"),
                concat!("the rhombus of ", $whose)
            ),
            plane!(
                concat!($who, "-hexagon-e"),
                concat!("a hexagon of ", $whose, " with axis E-W")
            ),
            plane!(
                concat!($who, "-hexagon-se"),
                concat!("a hexagon of ", $whose, " with axis SE-NW")
            ),
            plane!(
                concat!($who, "-hexagon-sw"),
                concat!("a hexagon of ", $whose, " with axis SW-NE")
            ),
            shuttle!($who, $whose, "square", 1),
            shuttle!($who, $whose, "square", 2),
            shuttle!($who, $whose, "square", 3),
            shuttle!($who, $whose, "square", 4),
            shuttle!($who, $whose, "triangle", 1),
            shuttle!($who, $whose, "triangle", 2),
            shuttle!($who, $whose, "triangle", 3),
            shuttle!($who, $whose, "triangle", 4),
            shuttle!($who, $whose, "circle", 1),
            shuttle!($who, $whose, "circle", 2),
            shuttle!($who, $whose, "circle", 3),
            shuttle!($who, $whose, "circle", 4),
            shuttle!($who, $whose, "rhombus", 1),
            shuttle!($who, $whose, "rhombus", 2),
            shuttle!($who, $whose, "rhombus", 3),
            shuttle!($who, $whose, "rhombus", 4),
            shuttle!($who, $whose, "hexagon", 1),
            shuttle!($who, $whose, "hexagon", 2),
            shuttle!($who, $whose, "hexagon", 3),
            shuttle!($who, $whose, "hexagon", 4),
        ]
    };
}

const MY_PLANES: [Plane; SIDE_PLANES] = side_planes!("my", "the view's seat");
const THEIR_PLANES: [Plane; SIDE_PLANES] = side_planes!("their", "the other seat");

const SCALARS: [Scalar; 2] = [
    Scalar {
        name: "to-move",
        meaning: "1 if the view's seat acts next, else 0",
        max: 1,
    },
    Scalar {
        name: "repeats",
        meaning: "earlier occurrences of this position with this side to move",
        max: 2,
    },
];

/// Whether `view` sees the board turned half a turn (White's view).
#[inline]
fn turned(view: Seat) -> bool {
    view == Colour::White as usize
}

/// The cell `p` in `view`'s frame.
#[inline]
fn view_cell(view: Seat, p: usize) -> usize {
    if turned(view) {
        CELLS - 1 - p
    } else {
        p
    }
}

/// The cells of `bb` in `view`'s frame: the half-turn maps cell `p` to `50 - p`, which
/// is reversing the 51 low bits.
#[inline]
fn view_cells(view: Seat, bb: Bitboard) -> Bitboard {
    if turned(view) {
        bb.reverse_bits() >> (64 - CELLS)
    } else {
        bb
    }
}

/// A triangle's facing `f` as `view` sees it, and back (the half-turn is its own
/// inverse).
#[inline]
fn view_facing(view: Seat, f: u8) -> u8 {
    if turned(view) {
        (f + 3) % 6
    } else {
        f
    }
}

/// The first plane of `colour`'s side, seen by `view`.
#[inline]
fn side(view: Seat, colour: Colour) -> usize {
    usize::from(colour as usize != view) * SIDE_PLANES
}

/// The plane, within a side, of a piece of `kind` with orientation `orient` as the
/// view's frame sees it.
#[inline]
fn piece_plane(kind: Kind, orient: u8) -> usize {
    let o = usize::from(orient);
    match kind {
        Kind::Square => 0,
        Kind::Triangle => 1 + o,
        Kind::Circle => 7,
        Kind::Rhombus => 8,
        Kind::Hexagon => 9 + o,
    }
}

/// The feature of `piece` standing on `p`, seen by `view`.
#[inline]
fn piece_feature(view: Seat, piece: Piece, p: usize) -> u32 {
    let orient = match piece.kind {
        Kind::Triangle => view_facing(view, piece.orient),
        _ => piece.orient,
    };
    let plane = side(view, piece.colour) + piece_plane(piece.kind, orient);
    plane as u32 * GRID + GRID_CELL[view_cell(view, p)]
}

/// The plane of `colour`'s shuttle level `level` (1..=4) for `kind`, seen by `view`.
#[inline]
fn shuttle_plane(view: Seat, colour: Colour, kind: Kind, level: u8) -> usize {
    side(view, colour) + PIECE_PLANES + kind as usize * LEVELS as usize + usize::from(level - 1)
}

/// The piece type and the two cells of each shuttle pair, index for index with the
/// pair numbers of [`Geometry::shuttle_pair`].
fn pair_cells() -> &'static [(Kind, u8, u8)] {
    static PAIR_CELLS: OnceLock<Vec<(Kind, u8, u8)>> = OnceLock::new();
    PAIR_CELLS.get_or_init(|| {
        let table = &Geometry::get().shuttle_pair;
        let mut cells = vec![(Kind::Square, 0, 0); SHUTTLE_PAIRS];
        for kind in KINDS {
            for a in 0..CELLS {
                for b in a + 1..CELLS {
                    let pair = table[(kind as usize * CELLS + a) * CELLS + b];
                    if pair != u16::MAX {
                        cells[usize::from(pair)] = (kind, a as u8, b as u8);
                    }
                }
            }
        }
        cells
    })
}

/// The piece states, side-plane order, as (type, orientation in the view's frame).
const PIECE_STATES: [(Kind, u8); PIECE_PLANES] = [
    (Kind::Square, 0),
    (Kind::Triangle, 0),
    (Kind::Triangle, 1),
    (Kind::Triangle, 2),
    (Kind::Triangle, 3),
    (Kind::Triangle, 4),
    (Kind::Triangle, 5),
    (Kind::Circle, 0),
    (Kind::Rhombus, 0),
    (Kind::Hexagon, 0),
    (Kind::Hexagon, 1),
    (Kind::Hexagon, 2),
];

/// The cells of `colour`'s pieces of `kind` whose orientation, seen by `view`, is
/// `orient`.
fn pieces_in_state(board: &Board, view: Seat, colour: Colour, kind: Kind, orient: u8) -> Bitboard {
    let pieces = board.pieces(colour, kind);
    match kind {
        Kind::Triangle => pieces & board.facing[usize::from(view_facing(view, orient))],
        Kind::Hexagon => pieces & board.axis[usize::from(orient)],
        _ => pieces,
    }
}

impl RomgonState {
    /// The shuttle counter of `colour` with pair number `pair`.
    #[inline]
    fn counter(&self, colour: Colour, pair: u16) -> u8 {
        self.counters[colour as usize * SHUTTLE_PAIRS + usize::from(pair)]
    }

    /// Whether some counter of `colour`'s `kind` pieces on a pair with an end on `p`
    /// stands at `level` or more.
    fn shuttle_reaches(&self, colour: Colour, kind: Kind, p: usize, level: u8) -> bool {
        let row = &self.geo.shuttle_pair[(kind as usize * CELLS + p) * CELLS..][..CELLS];
        row.iter()
            .any(|&pair| pair != u16::MAX && self.counter(colour, pair) >= level)
    }
}

impl Encode for RomgonState {
    fn encoding(&self) -> Encoding {
        let mut planes = MY_PLANES.to_vec();
        planes.extend(THEIR_PLANES);
        let mut scalars = SCALARS.to_vec();
        scalars.push(Scalar {
            name: "actions",
            meaning: "actions played; the game is drawn when it reaches its maximum",
            max: self.rules.max_actions as i32,
        });
        Encoding {
            id: format!("romgon/1:{}", self.rules.max_actions),
            rows: ROWS as u32,
            cols: COLS as u32,
            planes,
            scalars,
        }
    }

    fn features(&self, view: Seat, out: &mut Vec<u32>) {
        let board = &self.core.board;
        let mine = if turned(view) {
            Colour::White
        } else {
            Colour::Black
        };
        for colour in [mine, mine.other()] {
            let first = side(view, colour);
            for (i, &(kind, orient)) in PIECE_STATES.iter().enumerate() {
                let cells = pieces_in_state(board, view, colour, kind, orient);
                let base = (first + i) as u32 * GRID;
                out.extend(Cells(view_cells(view, cells)).map(|v| base + GRID_CELL[v]));
            }
            // Each cell's largest counter per type, in the view's frame.
            let mut largest = [[0u8; CELLS]; KINDS.len()];
            for (pair, &(kind, a, b)) in pair_cells().iter().enumerate() {
                let value = self.counter(colour, pair as u16);
                if value > 0 {
                    for p in [a, b] {
                        let top = &mut largest[kind as usize][view_cell(view, p.into())];
                        *top = (*top).max(value);
                    }
                }
            }
            for kind in KINDS {
                for level in 1..=LEVELS {
                    let base = shuttle_plane(view, colour, kind, level) as u32 * GRID;
                    let marked = largest[kind as usize].iter().enumerate();
                    out.extend(
                        marked
                            .filter(|&(_, &top)| top >= level)
                            .map(|(v, _)| base + GRID_CELL[v]),
                    );
                }
            }
        }
    }

    fn scalars(&self, view: Seat, out: &mut Vec<i32>) {
        let to_move = self.core.end.is_none() && self.core.to_move as usize == view;
        out.push(i32::from(to_move));
        out.push(self.occurrences() as i32 - 1);
        out.push(self.core.ply as i32);
    }

    /// Exact for every action: a move takes its piece off `from` and puts it, with its
    /// final orientation, on `to`, and raises one shuttle counter, which marks a new
    /// level on each end of its pair that had no counter as high; a capture also takes
    /// the victim off `to` and raises nothing; a rotation changes the piece's plane on
    /// its cell. A game's end changes no feature.
    fn feature_changes(&self, m: RomgonMove, view: Seat, changes: &mut FeatureChanges) {
        let board = &self.core.board;
        let (from, to) = (usize::from(m.from), usize::from(m.to));
        let piece = board.piece(from).expect("a piece acts");
        changes.off.push(piece_feature(view, piece, from));
        match m.kind {
            ActionKind::Capture => {
                let victim = board.piece(to).expect("a capture takes a piece");
                changes.off.push(piece_feature(view, victim, to));
                changes.on.push(piece_feature(view, piece, to));
            }
            ActionKind::Rotate | ActionKind::Move => {
                let placed = Piece {
                    orient: m.orient,
                    ..piece
                };
                changes.on.push(piece_feature(view, placed, to));
            }
        }
        if m.kind != ActionKind::Move {
            return;
        }
        let pair = self.geo.shuttle_pair[(piece.kind as usize * CELLS + from) * CELLS + to];
        let level = self.counter(piece.colour, pair) + 1;
        if level > LEVELS {
            return;
        }
        let plane = shuttle_plane(view, piece.colour, piece.kind, level) as u32;
        for p in [from, to] {
            if !self.shuttle_reaches(piece.colour, piece.kind, p, level) {
                changes
                    .on
                    .push(plane * GRID + GRID_CELL[view_cell(view, p)]);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{play_moves, Game, Outcome, State};
    use crate::games::romgon::{Defence, Romgon, RomgonKnobs, Rotation};
    use crate::testing::{check_encoding, views};

    #[test]
    fn the_contract_holds_along_random_games() {
        let report = check_encoding(&Romgon::default(), 200, 1).unwrap();
        assert!(report.changes > 70_000, "{report:?}");
    }

    #[test]
    fn the_contract_holds_under_other_rules() {
        let game = Romgon::new(Defence::Original, Rotation::Step, 60).unwrap();
        assert_eq!(game.initial_state().encoding().id, "romgon/1:60");
        let report = check_encoding(&game, 200, 2).unwrap();
        assert!(report.changes > 20_000, "{report:?}");
    }

    #[test]
    fn the_contract_holds_under_the_knobs() {
        let knobs = |k: RomgonKnobs| {
            Romgon::new(Defence::Shape, Rotation::Any, 120)
                .unwrap()
                .with_knobs(k)
                .unwrap()
        };
        let base = RomgonKnobs::default();
        // Counters past the four levels (a raised limit), a thin setup, a handicap.
        for game in [
            knobs(RomgonKnobs {
                shuttle_limit: 9,
                ..base
            }),
            knobs(RomgonKnobs {
                squares: 1,
                triangles: 0,
                circles: 0,
                ..base
            }),
            knobs(RomgonKnobs {
                handicap: -2,
                shuttle_limit: 2,
                ..base
            }),
        ] {
            assert_eq!(game.initial_state().encoding().id, "romgon/1:120");
            check_encoding(&game, 30, 3).unwrap_or_else(|e| panic!("{game:?}: {e}"));
        }
        // Thinned out alike, the start is still one picture from both sides; with a
        // handicap the two sides differ.
        let thin = knobs(RomgonKnobs {
            squares: 1,
            triangles: 1,
            ..base
        });
        let [(black, _), (white, _)] = views(&thin.initial_state());
        assert_eq!(black, white);
        let handicap = knobs(RomgonKnobs {
            handicap: 1,
            ..base
        });
        let [(black, _), (white, _)] = views(&handicap.initial_state());
        assert_ne!(black, white);
        // Plane 0 is the view's own squares.
        let my_squares = |features: &[u32]| features.iter().filter(|&&f| f < GRID).count();
        assert_eq!((my_squares(&black), my_squares(&white)), (1, 2));
    }

    #[test]
    fn the_grid_is_the_axial_layout() {
        let g = Geometry::get();
        // Grid steps of E, SE, SW, W, NW, NE.
        let offsets = [1, 10, 9, -1, -10, -9];
        for p in 0..CELLS {
            for (d, &q) in g.step[p].iter().enumerate() {
                if q != super::super::board::NONE {
                    let step = GRID_CELL[usize::from(q)] as i32 - GRID_CELL[p] as i32;
                    assert_eq!(step, offsets[d], "cell {p}, direction {d}");
                }
            }
            assert_eq!(GRID_CELL[CELLS - 1 - p], GRID - 1 - GRID_CELL[p]);
        }
    }

    #[test]
    fn both_views_of_the_start_are_the_same_picture() {
        let s = Romgon::default().initial_state();
        let e = s.encoding();
        assert_eq!((e.id.as_str(), e.rows, e.cols), ("romgon/1:600", 7, 9));
        assert_eq!((e.planes.len(), e.features()), (64, 4032));
        let names = [4, 12, 16, 33, 63].map(|p| e.planes[p].name);
        assert_eq!(
            names,
            [
                "my-triangle-w",
                "my-square-shuttle-1",
                "my-triangle-shuttle-1",
                "their-triangle-e",
                "their-hexagon-shuttle-4"
            ]
        );
        let [(black, to_move), (white, waits)] = views(&s);
        assert_eq!(black, white);
        assert_eq!((to_move, waits), (vec![1, 0, 0], vec![0, 0, 0]));
    }

    #[test]
    fn pieces_facings_and_shuttles_as_each_view_sees_them() {
        let mut s = Romgon::default().initial_state();
        play_moves(&mut s, "t1-6>2-6@SW T1-0>2-1@SW").unwrap();
        let e = s.encoding();
        let set = |cells: &[(usize, u32, u32)]| {
            let mut f: Vec<u32> = cells.iter().map(|&(p, r, c)| e.feature(p, r, c)).collect();
            f.sort_unstable();
            f
        };
        let [(black, black_scalars), (white, white_scalars)] = views(&s);
        // Black's view is the board as it is: grid column = c + max(0, r - 3).
        #[rustfmt::skip]
        let expected = set(&[
            (0, 0, 5), (0, 6, 8),   // my squares on 0-5 and 6-5
            (3, 2, 6),              // my triangle on 2-6 facing SW
            (4, 5, 8),              // my triangle on 5-6 facing W
            (7, 4, 8), (8, 3, 8), (9, 2, 7), // circle 4-7, rhombus 3-8, hexagon 2-7 (E-W)
            (32, 0, 0), (32, 6, 3), // their squares on 0-0 and 6-0
            (33, 5, 2),             // their triangle on 5-0 facing E
            (35, 2, 1),             // their triangle on 2-1 facing SW
            (39, 2, 0), (40, 3, 0), (41, 4, 1), // circle 2-0, rhombus 3-0, hexagon 4-0
            (16, 1, 6), (16, 2, 6), // my triangles moved once between 1-6 and 2-6
            (48, 1, 0), (48, 2, 1), // theirs once between 1-0 and 2-1
        ]);
        assert_eq!(black, expected);
        // White's view is turned half a turn: (row, col) -> (6 - row, 8 - col), and
        // facings turn by three steps.
        #[rustfmt::skip]
        let expected = set(&[
            (0, 6, 8), (0, 0, 5),   // my squares on 0-0 and 6-0
            (6, 4, 7),              // my triangle on 2-1 facing SW, seen facing NE
            (4, 1, 6),              // my triangle on 5-0 facing E, seen facing W
            (7, 4, 8), (8, 3, 8), (9, 2, 7), // circle 2-0, rhombus 3-0, hexagon 4-0
            (32, 6, 3), (32, 0, 0), // their squares on 0-5 and 6-5
            (38, 4, 2),             // their triangle on 2-6 facing SW, seen facing NE
            (33, 1, 0),             // their triangle on 5-6 facing W, seen facing E
            (39, 2, 0), (40, 3, 0), (41, 4, 1), // circle 4-7, rhombus 3-8, hexagon 2-7
            (16, 5, 8), (16, 4, 7), // my triangles between 1-0 and 2-1
            (48, 5, 2), (48, 4, 2), // theirs between 1-6 and 2-6
        ]);
        assert_eq!(white, expected);
        assert_eq!(black_scalars, [1, 0, 2], "Black acts after two actions");
        assert_eq!(white_scalars, [0, 0, 2]);
    }

    #[test]
    fn shuttles_and_repetitions_are_counted() {
        let mut s = Romgon::default().initial_state();
        play_moves(&mut s, "s0-5>1-5 S0-0>1-1 s1-5>0-5 S1-1>0-0").unwrap();
        let start = views(&Romgon::default().initial_state());
        let e = s.encoding();
        let [(black, black_scalars), (_, white_scalars)] = views(&s);
        // The pieces are back where they started; each side's square pair is at 2.
        let mut expected = start[0].0.clone();
        for (plane, r, c) in [(12, 0, 5), (12, 1, 5), (13, 0, 5), (13, 1, 5)] {
            expected.push(e.feature(plane, r, c));
        }
        for (plane, r, c) in [(44, 0, 0), (44, 1, 1), (45, 0, 0), (45, 1, 1)] {
            expected.push(e.feature(plane, r, c));
        }
        expected.sort_unstable();
        assert_eq!(black, expected);
        assert_eq!(black_scalars, [1, 1, 4], "the start occurred once before");
        assert_eq!(white_scalars, [0, 1, 4]);
        // Once more: the start occurs a third time, White loses by repetition, and each
        // square pair is at 4.
        play_moves(&mut s, "s0-5>1-5 S0-0>1-1 s1-5>0-5 S1-1>0-0").unwrap();
        assert_eq!(s.outcome(), Some(Outcome::Win(0)));
        let [(black, black_scalars), (_, white_scalars)] = views(&s);
        let mut expected = start[0].0.clone();
        for level in 0..4 {
            for (r, c) in [(0, 5), (1, 5)] {
                expected.push(e.feature(12 + level, r, c));
            }
            for (r, c) in [(0, 0), (1, 1)] {
                expected.push(e.feature(44 + level, r, c));
            }
        }
        expected.sort_unstable();
        assert_eq!(black, expected);
        assert_eq!(
            (black_scalars, white_scalars),
            (vec![0, 2, 8], vec![0, 2, 8])
        );
    }
}
