//! Invector's encoding: the stones of the view's colour and of the other colour on the
//! board's own `H × W` grid, whether the view is to move, and whether the pie rule's
//! swap is still open.
//!
//! **The grid** is the board: cell `(x, y)` (column `x` from `a`, row `y` from `1` at
//! the bottom) lies at grid row `y`, column `x`, so its grid cell `y × W + x` is its
//! bit on the board. Every grid cell is a pit.
//!
//! **Planes**:
//! - `mine`: a stone of the colour the view's seat plays;
//! - `theirs`: a stone of the colour the other seat plays.
//!
//! Owners follow the seats, not the colours: after a pie-rule swap, every stone changes
//! plane. The colours themselves mean nothing else to the rules (who moves is a scalar,
//! the distance to the centre is fixed by the grid), so they are left out.
//!
//! **Scalars**:
//! - `to-move` (max 1): 1 if the view's seat decides next, 0 if the other does or the
//!   game is over;
//! - `swap-open` (max 1): 1 if the decision about to be made may be the pie rule's
//!   `swap` (White's first decision with the pie rule on), else 0.
//!
//! The identifier is `invector/1:<W>x<H>`: the size sets the grid. The pie rule only
//! decides whether `swap-open` is ever 1, so it is left out, and so are the designer's
//! knobs: they change the start and the rules, not what a feature means. Invector has
//! no length cap and no hidden information.

use super::{InvectorMove, InvectorState, MoveKind};
use crate::bits::Cells;
use crate::encoding::{Encode, Encoding, FeatureChanges, Plane, Scalar};
use crate::game::Seat;
use crate::games::colour::Colour;

const PLANES: [Plane; 2] = [
    Plane {
        name: "mine",
        meaning: "a stone of the colour the view's seat plays",
    },
    Plane {
        name: "theirs",
        meaning: "a stone of the colour the other seat plays",
    },
];

const SCALARS: [Scalar; 2] = [
    Scalar {
        name: "to-move",
        meaning: "1 if the view's seat decides next, else 0",
        max: 1,
    },
    Scalar {
        name: "swap-open",
        meaning: "1 if the next decision may be the pie rule's swap, else 0",
        max: 1,
    },
];

impl InvectorState {
    /// The feature of a stone of `colour` at `cell`, seen by `view`.
    fn stone_feature(&self, view: Seat, colour: Colour, cell: usize) -> u32 {
        let plane = usize::from(self.colour_of(view) != colour);
        (plane * self.geo.cells() + cell) as u32
    }
}

impl Encode for InvectorState {
    fn encoding(&self) -> Encoding {
        Encoding {
            id: format!("invector/1:{}x{}", self.geo.width, self.geo.height),
            rows: self.geo.height as u32,
            cols: self.geo.width as u32,
            planes: PLANES.to_vec(),
            scalars: SCALARS.to_vec(),
        }
    }

    fn features(&self, view: Seat, out: &mut Vec<u32>) {
        let mine = self.colour_of(view);
        for colour in [mine, mine.other()] {
            out.extend(
                Cells(self.stones(colour)).map(|cell| self.stone_feature(view, colour, cell)),
            );
        }
    }

    fn scalars(&self, view: Seat, out: &mut Vec<i32>) {
        let to_move = self.winner.is_none() && self.seat_of(self.to_move) == view;
        out.extend([i32::from(to_move), i32::from(self.swap_available())]);
    }

    /// A capture takes the enemy stone off its cell and moves the mover's stone onto
    /// it (a game-ending capture too: the stones are all the features), a step moves a
    /// stone, a pass changes nothing, and a swap moves every stone to the other plane,
    /// since the seats exchange colours.
    fn feature_changes(&self, m: InvectorMove, view: Seat, changes: &mut FeatureChanges) {
        let mover = self.to_move;
        let (from, to) = (usize::from(m.from), usize::from(m.to));
        match m.kind {
            MoveKind::Capture => {
                changes.off.push(self.stone_feature(view, mover, from));
                changes
                    .off
                    .push(self.stone_feature(view, mover.other(), to));
                changes.on.push(self.stone_feature(view, mover, to));
            }
            MoveKind::Step => {
                changes.off.push(self.stone_feature(view, mover, from));
                changes.on.push(self.stone_feature(view, mover, to));
            }
            MoveKind::Pass => {}
            MoveKind::Swap => {
                // The view's seat changes colour: a stone of either colour goes to the
                // plane the other colour had.
                for colour in [Colour::Black, Colour::White] {
                    for cell in Cells(self.stones(colour)) {
                        changes.off.push(self.stone_feature(view, colour, cell));
                        changes
                            .on
                            .push(self.stone_feature(view, colour.other(), cell));
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{play_moves, Game, State};
    use crate::games::invector::{Invector, InvectorKnobs};
    use crate::testing::{check_encoding, views};

    #[test]
    fn the_contract_holds_along_random_games() {
        let report = check_encoding(&Invector::default(), 200, 1).unwrap();
        assert!(report.changes > 20_000, "{report:?}");
        assert_eq!(report.most_active, 56);
        // Other sizes, with and without the pie rule: on 3 × 2 one first reply in eight
        // is the swap, and 1 × 2 is decided by its first move.
        for (w, h, pie, games, least) in [
            (5, 4, false, 300, 5_000),
            (3, 2, true, 500, 3_000),
            (1, 2, true, 50, 100),
        ] {
            let rules = Invector::new(w, h, pie).unwrap();
            let report = check_encoding(&rules, games, 2).unwrap();
            assert!(report.changes >= least, "{w}x{h}: {report:?}");
        }
    }

    #[test]
    fn the_contract_holds_with_the_knobs_turned() {
        // Slides move a stone more than one pit, a hole and a handicap start with empty
        // pits, and lose_at ends games with stones of both colours on the board.
        for (w, h, pie, knobs) in [(8, 7, true, (0, 2, 3, 1)), (5, 4, false, (4, 1, 2, 2))] {
            let (lose_at, hole, stride, handicap) = knobs;
            let knobs = InvectorKnobs {
                lose_at,
                hole,
                stride,
                handicap,
            };
            let rules = Invector::new(w, h, pie).unwrap().with_knobs(knobs).unwrap();
            let report = check_encoding(&rules, 100, 3).unwrap();
            assert!(report.changes > 1_000, "{w}x{h}: {report:?}");
        }
    }

    #[test]
    fn the_identifier_and_grid_are_the_board() {
        let e = Invector::new(5, 4, true)
            .unwrap()
            .initial_state()
            .encoding();
        assert_eq!((e.id.as_str(), e.rows, e.cols), ("invector/1:5x4", 4, 5));
        assert_eq!(e.features(), 40);
        let e = Invector::default().initial_state().encoding();
        assert_eq!((e.id.as_str(), e.rows, e.cols), ("invector/1:8x7", 7, 8));
    }

    #[test]
    fn stones_follow_the_seats_through_a_swap() {
        // 4 × 3: cell y·4 + x; Black starts on a1 c1 b2 d2 a3 c3 (0 2 5 7 8 10), White
        // on b1 d1 a2 c2 b3 d3 (1 3 4 6 9 11).
        let mut s = Invector::new(4, 3, true).unwrap().initial_state();
        play_moves(&mut s, "a1xa2").unwrap();
        // Black (seat 0) moved a1 onto a2; White (seat 1) may swap.
        assert_eq!(
            views(&s)[0],
            (vec![2, 4, 5, 7, 8, 10, 13, 15, 18, 21, 23], vec![0, 1])
        );
        assert_eq!(
            views(&s)[1],
            (vec![1, 3, 6, 9, 11, 14, 16, 17, 19, 20, 22], vec![1, 1])
        );
        let mut changes = FeatureChanges::default();
        s.feature_changes(InvectorMove::SWAP, 0, &mut changes);
        // Every stone changes plane: seat 0 will see what seat 1 sees now.
        changes.off.sort_unstable();
        changes.on.sort_unstable();
        let [mine, theirs] = views(&s);
        assert_eq!((changes.off, changes.on), (mine.0, theirs.0));
        // Seat 0 now plays White and moves: c2 takes b2.
        play_moves(&mut s, "swap c2xb2").unwrap();
        assert_eq!(
            views(&s)[0],
            (vec![1, 3, 5, 9, 11, 14, 16, 19, 20, 22], vec![0, 0])
        );
        assert_eq!(
            views(&s)[1],
            (vec![2, 4, 7, 8, 10, 13, 15, 17, 21, 23], vec![1, 0])
        );
        assert_eq!(s.turn(), crate::game::Turn::Seat(1));
    }
}
