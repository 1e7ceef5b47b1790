//! Connect Four's encoding: the stones on the 6 × 7 grid (row 0 at the bottom, column 0
//! is `a`), as the view's and the opponent's, and whether the view is to move.

use super::board::{cell, COLUMNS, ROWS};
use super::{Connect4Move, Connect4State};
use crate::encoding::{Encode, Encoding, FeatureChanges, Plane, Scalar};
use crate::game::{opponent, Seat};

const PLANES: [Plane; 2] = [
    Plane {
        name: "mine",
        meaning: "a stone of the view's seat",
    },
    Plane {
        name: "theirs",
        meaning: "a stone of the other seat",
    },
];

const SCALARS: [Scalar; 1] = [Scalar {
    name: "to-move",
    meaning: "1 if the view's seat moves next, else 0",
    max: 1,
}];

const CELLS: u32 = (ROWS * COLUMNS) as u32;

/// The feature of a stone of `owner` at `row`, `column`, seen by `view`.
fn stone(view: Seat, owner: Seat, row: usize, column: usize) -> u32 {
    u32::from(owner != view) * CELLS + (row * COLUMNS + column) as u32
}

impl Encode for Connect4State {
    fn encoding(&self) -> Encoding {
        Encoding {
            id: "connect4/1".into(),
            rows: ROWS as u32,
            cols: COLUMNS as u32,
            planes: PLANES.to_vec(),
            scalars: SCALARS.to_vec(),
        }
    }

    fn features(&self, view: Seat, out: &mut Vec<u32>) {
        for owner in [view, opponent(view)] {
            for row in 0..ROWS {
                for column in 0..COLUMNS {
                    if self.stones(owner) & cell(column, row) != 0 {
                        out.push(stone(view, owner, row, column));
                    }
                }
            }
        }
    }

    fn scalars(&self, view: Seat, out: &mut Vec<i32>) {
        out.push(i32::from(!self.is_over() && self.seat_to_move() == view));
    }

    fn feature_changes(&self, m: Connect4Move, view: Seat, changes: &mut FeatureChanges) {
        let column = m.column();
        changes.on.push(stone(
            view,
            self.seat_to_move(),
            self.height(column),
            column,
        ));
    }
}

#[cfg(test)]
mod tests {
    use crate::game::{play_moves, Game};
    use crate::games::connect4::Connect4;
    use crate::testing::{check_encoding, views};

    #[test]
    fn the_contract_holds_along_random_games() {
        let report = check_encoding(&Connect4, 200, 1).unwrap();
        assert!(report.changes > 5_000, "{report:?}");
        assert_eq!(report.most_active, 42);
    }

    #[test]
    fn stones_are_the_views_or_the_opponents() {
        let mut s = Connect4.initial_state();
        play_moves(&mut s, "d d c").unwrap();
        let [red, yellow] = views(&s);
        // Red has d1 (row 0, column 3) and c1; yellow has d2 (row 1, column 3).
        assert_eq!(red.0, [2, 3, 42 + 10]);
        assert_eq!(yellow.0, [10, 42 + 2, 42 + 3]);
        assert_eq!(
            (red.1, yellow.1),
            (vec![0], vec![1]),
            "yellow moves after three stones"
        );
    }
}
