//! Where a picture's cells land on the page: board units (`y` up) to pixels (`y` down).

use agon_engine::picture::{Cell, CellShape};

/// Pixels per board unit: a square cell is this wide.
pub const UNIT: f32 = 48.0;
/// Space around the board, in pixels.
const MARGIN: f32 = 10.0;
/// A hexagon's centre-to-vertex distance when it is 1 across its flats.
pub const HEX_RADIUS: f32 = 0.577_350_26;

/// The mapping from board units to pixels, fixed by the cells alone (so every position of
/// one game, and every game of one variant, is drawn at the same place and size).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Layout {
    left: f32,
    top: f32,
    /// Width of the board area, pixels.
    pub width: f32,
    /// Height of the board area, pixels.
    pub height: f32,
}

impl Layout {
    /// The smallest frame holding every cell whole, plus a margin.
    pub fn of(cells: &[Cell]) -> Self {
        if cells.is_empty() {
            return Layout {
                left: 0.0,
                top: 0.0,
                width: 2.0 * MARGIN,
                height: 2.0 * MARGIN,
            };
        }
        let (mut left, mut right) = (f32::MAX, f32::MIN);
        let (mut bottom, mut top) = (f32::MAX, f32::MIN);
        for cell in cells {
            let (dx, dy) = half_extent(cell.shape);
            left = left.min(cell.x - dx);
            right = right.max(cell.x + dx);
            bottom = bottom.min(cell.y - dy);
            top = top.max(cell.y + dy);
        }
        Layout {
            left,
            top,
            width: (right - left) * UNIT + 2.0 * MARGIN,
            height: (top - bottom) * UNIT + 2.0 * MARGIN,
        }
    }

    /// The pixel position of the board point `(x, y)`.
    pub fn point(&self, x: f32, y: f32) -> (f32, f32) {
        (
            (x - self.left) * UNIT + MARGIN,
            (self.top - y) * UNIT + MARGIN,
        )
    }

    /// The pixel position of a cell's centre.
    pub fn centre(&self, cell: &Cell) -> (f32, f32) {
        self.point(cell.x, cell.y)
    }
}

/// Half the width and half the height of a cell of this shape, in board units.
fn half_extent(shape: CellShape) -> (f32, f32) {
    match shape {
        CellShape::Square => (0.5, 0.5),
        CellShape::HexPointy => (0.5, HEX_RADIUS),
        CellShape::HexFlat => (HEX_RADIUS, 0.5),
    }
}

/// The corners of a cell, in pixels, clockwise on screen from the top (or top-left).
pub fn outline(layout: &Layout, cell: &Cell) -> Vec<(f32, f32)> {
    let (cx, cy) = layout.centre(cell);
    let corners: &[(f32, f32)] = match cell.shape {
        CellShape::Square => &[(-0.5, 0.5), (0.5, 0.5), (0.5, -0.5), (-0.5, -0.5)],
        CellShape::HexPointy => &HEX_POINTY,
        CellShape::HexFlat => &HEX_FLAT,
    };
    corners
        .iter()
        .map(|&(dx, dy)| (cx + dx * UNIT, cy - dy * UNIT))
        .collect()
}

const H: f32 = HEX_RADIUS / 2.0;
/// A pointy-topped hexagon's corners (board units, y up), from the top clockwise.
const HEX_POINTY: [(f32, f32); 6] = [
    (0.0, HEX_RADIUS),
    (0.5, H),
    (0.5, -H),
    (0.0, -HEX_RADIUS),
    (-0.5, -H),
    (-0.5, H),
];
/// A flat-topped hexagon's corners (board units, y up), from the top left clockwise.
const HEX_FLAT: [(f32, f32); 6] = [
    (-H, 0.5),
    (H, 0.5),
    (HEX_RADIUS, 0.0),
    (H, -0.5),
    (-H, -0.5),
    (-HEX_RADIUS, 0.0),
];

#[cfg(test)]
mod tests {
    use super::*;
    use agon_engine::picture::Ground;

    fn cell(x: f32, y: f32, shape: CellShape) -> Cell {
        Cell {
            x,
            y,
            shape,
            name: String::new(),
            ground: Ground::Plain,
        }
    }

    #[test]
    fn squares_map_row_one_to_the_bottom() {
        let cells = [
            cell(0.0, 0.0, CellShape::Square),
            cell(1.0, 1.0, CellShape::Square),
        ];
        let layout = Layout::of(&cells);
        assert_eq!(
            (layout.width, layout.height),
            (2.0 * UNIT + 20.0, 2.0 * UNIT + 20.0)
        );
        assert_eq!(
            layout.centre(&cells[0]),
            (10.0 + UNIT / 2.0, 10.0 + 1.5 * UNIT)
        );
        assert_eq!(
            layout.centre(&cells[1]),
            (10.0 + 1.5 * UNIT, 10.0 + UNIT / 2.0)
        );
    }

    #[test]
    fn neighbouring_hexagons_share_an_edge() {
        let a = cell(0.0, 0.0, CellShape::HexPointy);
        let b = cell(1.0, 0.0, CellShape::HexPointy);
        let layout = Layout::of(&[a.clone(), b.clone()]);
        let (oa, ob) = (outline(&layout, &a), outline(&layout, &b));
        // a's right edge (corners 1, 2) is b's left edge (corners 5, 4).
        for (p, q) in [(oa[1], ob[5]), (oa[2], ob[4])] {
            assert!(
                (p.0 - q.0).abs() < 1e-3 && (p.1 - q.1).abs() < 1e-3,
                "{p:?} {q:?}"
            );
        }
    }
}
