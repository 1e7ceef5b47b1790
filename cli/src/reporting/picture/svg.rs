//! Pictures drawn as SVG: the one renderer of every game's board.
//!
//! A drawing is split in two layers so that a page replaying a game can store the
//! unchanging part once: the [`board`] (cells and their coordinates, fixed by the game's
//! parameters) and the [`overlay`] (last-move highlights, pieces, marks: what a move
//! changes). Each layer is a list of complete SVG elements, one string each, in drawing
//! order; the same position always gives the same strings, byte for byte.

use std::fmt::Write;

use agon_engine::picture::{CellShape, Ground, Ink, Key, Mark, Picture, Piece, PieceShape, Symbol};

use super::layout::{outline, Layout, UNIT};

/// A piece's radius, pixels.
const PIECE: f32 = 0.29 * UNIT;
/// Height of one legend line or note line, pixels.
const LINE: f32 = 26.0;
/// Orange of the last move's highlight and of facing pointers.
const ACCENT: &str = "#ef6c00";

/// The cells with their coordinates: one `<polygon>` and one `<text>` per cell.
pub fn board(picture: &Picture, layout: &Layout) -> Vec<String> {
    let mut out = Vec::with_capacity(2 * picture.cells.len());
    for cell in &picture.cells {
        out.push(format!(
            r##"<polygon points="{}" fill="{}" stroke="#6d5d45" stroke-width="1"/>"##,
            points(&outline(layout, cell)),
            ground_fill(cell.ground)
        ));
        // A square's coordinate sits in its top-left corner, a hexagon's under its top
        // vertex: both clear of a piece on the cell.
        let (cx, cy) = layout.centre(cell);
        let (x, y, anchor) = match cell.shape {
            CellShape::Square => (cx - 0.45 * UNIT, cy - 0.3 * UNIT, "start"),
            _ => (cx, cy - 0.31 * UNIT, "middle"),
        };
        let ink = if cell.ground == Ground::Hidden {
            "#e4e4ee"
        } else {
            "#5d5448"
        };
        out.push(format!(
            r##"<text x="{x:.1}" y="{y:.1}" font-size="9" fill="{ink}" text-anchor="{anchor}">{}</text>"##,
            escape(&cell.name)
        ));
    }
    out
}

/// What sits on the board: a highlight on each cell of `changed` (the last move), then
/// the pieces (stacks fanned out, bottom first), then the marks.
pub fn overlay(picture: &Picture, layout: &Layout, changed: &[usize]) -> Vec<String> {
    let mut out = Vec::new();
    for &index in changed {
        out.push(format!(
            r##"<polygon points="{}" fill="#ffd54f" fill-opacity="0.6" stroke="{ACCENT}" stroke-width="3"/>"##,
            points(&outline(layout, &picture.cells[index]))
        ));
    }
    for (i, piece) in picture.pieces.iter().enumerate() {
        let below = picture.pieces[..i]
            .iter()
            .filter(|p| p.cell == piece.cell)
            .count();
        let stack = below
            + picture.pieces[i..]
                .iter()
                .filter(|p| p.cell == piece.cell)
                .count();
        let (cx, cy) = layout.centre(&picture.cells[piece.cell]);
        let (dx, dy, r) = place_in_stack(below, stack);
        out.push(draw_piece(piece, cx + dx, cy + dy, r));
    }
    for mark in &picture.marks {
        out.push(match *mark {
            Mark::Arrow { from, to, ink } => arrow(
                layout.centre(&picture.cells[from]),
                layout.centre(&picture.cells[to]),
                ink,
            ),
            Mark::Pending { cell } => pending(layout.centre(&picture.cells[cell])),
        });
    }
    out
}

/// Where the piece `index` (from the bottom) of a stack of `size` pieces on one cell is
/// drawn: its offset from the cell's centre in pixels (`y` down) and its radius. A lone
/// piece sits in the middle at full size. A stack is laid out side by side, never one
/// piece over another's centre, so that every piece's label stays readable: rows of two
/// from the bottom piece on, left to right, the first row a little above the centre and
/// the rows below it, all clear of the coordinate at the top of a square or a hexagon;
/// an odd last piece sits centred under the pair above, tucked up between them. Up to
/// three pieces (three squads on a Headquarters) are drawn with a radius of 0.19 units;
/// a larger stack is shrunk until it fits a hexagon.
fn place_in_stack(index: usize, size: usize) -> (f32, f32, f32) {
    // In board units: a stacked piece's radius, half the distance between the two
    // pieces of a row, the first row's offset below the centre, the distance between
    // rows of two, and that from a pair to a lone piece centred under it.
    const RADIUS: f32 = 0.19;
    const HALF_GAP: f32 = 0.24;
    const FIRST_ROW: f32 = -0.06;
    const ROW_PITCH: f32 = 0.40;
    const TUCKED: f32 = 0.33;
    if size <= 1 {
        return (0.0, 0.0, PIECE);
    }
    let rows = size.div_ceil(2);
    let shrink = if size <= 3 {
        1.0
    } else {
        2.0 / (rows + 1) as f32
    };
    let row = index / 2;
    let alone = size - 2 * row == 1;
    let (dx, dy) = if alone {
        (0.0, FIRST_ROW + ROW_PITCH * (row - 1) as f32 + TUCKED)
    } else if index % 2 == 0 {
        (-HALF_GAP, FIRST_ROW + ROW_PITCH * row as f32)
    } else {
        (HALF_GAP, FIRST_ROW + ROW_PITCH * row as f32)
    };
    (
        dx * shrink * UNIT,
        dy * shrink * UNIT,
        RADIUS * shrink * UNIT,
    )
}

/// The legend: each key's symbol and meaning, then the last-move highlight, one per line
/// from `(0, 0)`. Returns the elements, the width and the height.
pub fn legend(keys: &[Key]) -> (Vec<String>, f32, f32) {
    let mut out = Vec::new();
    let mut widest = 0usize;
    let lines = keys
        .iter()
        .map(|k| (Some(k.symbol), k.meaning.as_str()))
        .chain([(None, "the last move")]);
    for (row, (symbol, meaning)) in lines.enumerate() {
        let (x, y) = (16.0, LINE * row as f32 + LINE / 2.0);
        out.push(match symbol {
            Some(symbol) => legend_symbol(symbol, x, y),
            None => swatch(x, y, "#ffd54f", ACCENT),
        });
        out.push(format!(
            r##"<text x="36" y="{:.1}" font-size="13" fill="#222">{}</text>"##,
            y + 4.5,
            escape(meaning)
        ));
        widest = widest.max(meaning.chars().count());
    }
    let width = 44.0 + 7.0 * widest as f32;
    (out, width, LINE * (keys.len() + 1) as f32)
}

/// One position as a standalone SVG document: the board with `changed` highlighted, the
/// notes under it and the legend to its right.
pub fn document(picture: &Picture, changed: &[usize]) -> String {
    let layout = Layout::of(&picture.cells);
    let (keys, legend_width, legend_height) = legend(&picture.legend);
    // Notes run under the board and the legend both, as they may be wider than the board.
    let notes_top = layout.height.max(legend_height + 10.0) + 8.0;
    let widest_note = picture
        .notes
        .iter()
        .map(|n| n.chars().count())
        .max()
        .unwrap_or(0);
    let width = (layout.width + 16.0 + legend_width).max(20.0 + 7.6 * widest_note as f32);
    let height = notes_top + LINE * picture.notes.len() as f32;
    let mut svg = format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0}" height="{h:.0}" viewBox="0 0 {w:.0} {h:.0}" font-family="DejaVu Sans, Arial, sans-serif">
<rect width="100%" height="100%" fill="#ffffff"/>
"##,
        w = width.ceil(),
        h = height.ceil()
    );
    for element in board(picture, &layout)
        .iter()
        .chain(&overlay(picture, &layout, changed))
    {
        svg.push_str(element);
        svg.push('\n');
    }
    for (i, note) in picture.notes.iter().enumerate() {
        let _ = writeln!(
            svg,
            r##"<text x="10" y="{:.1}" font-size="14" fill="#222">{}</text>"##,
            notes_top + LINE * i as f32 + 16.0,
            escape(note)
        );
    }
    let _ = writeln!(
        svg,
        r#"<g transform="translate({:.1},10)">"#,
        layout.width + 16.0
    );
    for element in keys {
        svg.push_str(&element);
        svg.push('\n');
    }
    svg.push_str("</g>\n</svg>\n");
    svg
}

/// The cells changed between two pictures of one game: those whose pieces or ground
/// differ, and those a new mark touches. A ply that only places a mark (APV's order, an
/// attempt awaiting its throw, a move waiting for a tile) so has its cells highlighted
/// like a move, and a tile turned face up is highlighted even where no piece enters it;
/// a mark that goes (an order that fizzles, or one left when the game ends) highlights
/// nothing, as nothing happened there.
pub fn changed_cells(before: &Picture, after: &Picture) -> Vec<usize> {
    let on = |picture: &Picture, cell: usize| -> Vec<Piece> {
        picture
            .pieces
            .iter()
            .filter(|p| p.cell == cell)
            .cloned()
            .collect()
    };
    let touches = |mark: &Mark, cell: usize| match *mark {
        Mark::Arrow { from, to, .. } => from == cell || to == cell,
        Mark::Pending { cell: at } => at == cell,
    };
    (0..after.cells.len())
        .filter(|&cell| {
            on(before, cell) != on(after, cell)
                || before.cells.get(cell).map(|c| c.ground) != Some(after.cells[cell].ground)
                || after
                    .marks
                    .iter()
                    .any(|m| touches(m, cell) && !before.marks.contains(m))
        })
        .collect()
}

fn legend_symbol(symbol: Symbol, x: f32, y: f32) -> String {
    match symbol {
        Symbol::Piece { shape, ink, facing } => {
            let mut piece = Piece::new(0, shape, ink);
            if facing {
                piece = piece.facing(0);
            }
            draw_piece(&piece, x, y, 0.75 * PIECE)
        }
        Symbol::Ground(ground) => swatch(x, y, ground_fill(ground), "#6d5d45"),
        Symbol::Arrow(ink) => arrow((x - 12.0, y), (x + 22.0, y), ink),
        Symbol::Pending => pending_sized((x, y), 10.0),
        Symbol::Inactive => draw_piece(
            &Piece::new(0, PieceShape::Disc, Ink::Neutral).inactive(),
            x,
            y,
            0.75 * PIECE,
        ),
    }
}

fn swatch(x: f32, y: f32, fill: &str, stroke: &str) -> String {
    format!(
        r#"<rect x="{:.1}" y="{:.1}" width="20" height="20" fill="{fill}" stroke="{stroke}" stroke-width="2"/>"#,
        x - 10.0,
        y - 10.0
    )
}

/// One piece as a `<g>`: its outline in its ink, a facing pointer, its label.
fn draw_piece(piece: &Piece, cx: f32, cy: f32, r: f32) -> String {
    let (fill, stroke, text) = ink_colours(piece.ink);
    let faded = if piece.inactive {
        r#" opacity="0.5" stroke-dasharray="3 2""#
    } else {
        ""
    };
    let mut g = format!(r#"<g stroke="{stroke}" stroke-width="1.5"{faded}>"#);
    let facing = piece.facing.map(f32::from);
    let polygon = |corners: &[(f32, f32)]| {
        let pts: Vec<(f32, f32)> = corners
            .iter()
            .map(|&(angle, radius)| at(cx, cy, angle, radius * r))
            .collect();
        format!(r#"<polygon points="{}" fill="{fill}"/>"#, points(&pts))
    };
    let body = match piece.shape {
        PieceShape::Disc => {
            format!(r#"<circle cx="{cx:.1}" cy="{cy:.1}" r="{r:.1}" fill="{fill}"/>"#)
        }
        PieceShape::Ring => format!(
            r#"<circle cx="{cx:.1}" cy="{cy:.1}" r="{:.1}" fill="none" stroke-width="7"/><circle cx="{cx:.1}" cy="{cy:.1}" r="{:.1}" fill="none" stroke="{fill}" stroke-width="4"/>"#,
            r * 0.8,
            r * 0.8
        ),
        PieceShape::Square => polygon(&[(45.0, 1.2), (135.0, 1.2), (225.0, 1.2), (315.0, 1.2)]),
        PieceShape::Diamond => polygon(&[(90.0, 1.2), (0.0, 1.2), (270.0, 1.2), (180.0, 1.2)]),
        PieceShape::Triangle => {
            let a = facing.unwrap_or(90.0);
            polygon(&[(a, 1.25), (a + 120.0, 1.0), (a + 240.0, 1.0)])
        }
        PieceShape::Hexagon => {
            polygon(&(0..6).map(|k| (k as f32 * 60.0, 1.08)).collect::<Vec<_>>())
        }
        PieceShape::Star => polygon(
            &(0..10)
                .map(|k| (90.0 + k as f32 * 36.0, if k % 2 == 0 { 1.25 } else { 0.55 }))
                .collect::<Vec<_>>(),
        ),
        PieceShape::Die => format!(
            r##"<rect x="{:.1}" y="{:.1}" width="{s:.1}" height="{s:.1}" rx="4" fill="#ffffff" stroke="#222"/>"##,
            cx - r * 0.85,
            cy - r * 0.85,
            s = r * 1.7
        ),
    };
    g.push_str(&body);
    if let (Some(a), false) = (facing, piece.shape == PieceShape::Triangle) {
        let tip = at(cx, cy, a, 1.45 * r);
        let left = at(cx, cy, a + 28.0, 0.85 * r);
        let right = at(cx, cy, a - 28.0, 0.85 * r);
        let _ = write!(
            g,
            r##"<polygon points="{}" fill="{ACCENT}" stroke="#222" stroke-width="1"/>"##,
            points(&[tip, left, right])
        );
    }
    if let Some(label) = &piece.label {
        // A small piece of a stack keeps a label of at least 9 pixels, the size of a
        // cell's coordinate, which still fits inside it.
        let (colour, size) = if piece.shape == PieceShape::Die {
            ("#111", r * 1.1)
        } else {
            (text, (r * 0.8).max(9.0))
        };
        let _ = write!(
            g,
            r#"<text x="{cx:.1}" y="{:.1}" font-size="{size:.0}" font-weight="bold" fill="{colour}" stroke="none" text-anchor="middle">{}</text>"#,
            cy + size * 0.36,
            escape(label)
        );
    }
    g.push_str("</g>");
    g
}

fn arrow(from: (f32, f32), to: (f32, f32), ink: Ink) -> String {
    let (fill, stroke, _) = ink_colours(ink);
    let (dx, dy) = (to.0 - from.0, to.1 - from.1);
    let length = (dx * dx + dy * dy).sqrt().max(1e-3);
    let (ux, uy) = (dx / length, dy / length);
    let trim = (0.22 * UNIT).min(length / 4.0);
    let start = (from.0 + ux * trim, from.1 + uy * trim);
    let tip = (to.0 - ux * trim, to.1 - uy * trim);
    let base = (tip.0 - ux * 11.0, tip.1 - uy * 11.0);
    let head = [
        tip,
        (base.0 - uy * 7.0, base.1 + ux * 7.0),
        (base.0 + uy * 7.0, base.1 - ux * 7.0),
    ];
    format!(
        r#"<g><line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="{stroke}" stroke-width="7"/><line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="{fill}" stroke-width="4"/><polygon points="{}" fill="{fill}" stroke="{stroke}" stroke-width="1.5"/></g>"#,
        start.0,
        start.1,
        base.0,
        base.1,
        start.0,
        start.1,
        base.0,
        base.1,
        points(&head)
    )
}

fn pending(centre: (f32, f32)) -> String {
    pending_sized(centre, 0.42 * UNIT)
}

fn pending_sized((cx, cy): (f32, f32), r: f32) -> String {
    format!(
        r##"<circle cx="{cx:.1}" cy="{cy:.1}" r="{r:.1}" fill="none" stroke="#c2185b" stroke-width="3" stroke-dasharray="6 4"/>"##
    )
}

/// Fill, outline and label colour of an ink.
fn ink_colours(ink: Ink) -> (&'static str, &'static str, &'static str) {
    match ink {
        Ink::White => ("#f7f4ec", "#1b1b1b", "#1b1b1b"),
        Ink::Black => ("#262626", "#000000", "#ffffff"),
        Ink::Red => ("#d7263d", "#5c0b16", "#ffffff"),
        Ink::Yellow => ("#f4c20d", "#5c4a00", "#1b1b1b"),
        Ink::Blue => ("#2f6fd6", "#0d2557", "#ffffff"),
        Ink::Neutral => ("#ffffff", "#444444", "#1b1b1b"),
    }
}

/// A cell's fill: a board's wood, a side's tint, a terrain from a fixed palette, or the
/// slate of a face-down tile.
fn ground_fill(ground: Ground) -> &'static str {
    const TERRAINS: [&str; 8] = [
        "#8cc084", "#a3a3a3", "#7fb3e0", "#e3cf8f", "#4f8a4a", "#b68a5c", "#d9e6ee", "#c9a0dc",
    ];
    match ground {
        Ground::Plain => "#eadfc6",
        Ground::Zone(Ink::White) => "#fbf9f3",
        Ground::Zone(Ink::Black) => "#bdb5a5",
        Ground::Zone(Ink::Red) => "#f2c2c2",
        Ground::Zone(Ink::Yellow) => "#f7e6a4",
        Ground::Zone(Ink::Blue) => "#c7d6f2",
        Ground::Zone(Ink::Neutral) => "#dcdcdc",
        Ground::Terrain(i) => TERRAINS[usize::from(i) % TERRAINS.len()],
        Ground::Hidden => "#69697e",
    }
}

/// The point `radius` pixels from `(cx, cy)` at `degrees` counter-clockwise from east.
fn at(cx: f32, cy: f32, degrees: f32, radius: f32) -> (f32, f32) {
    let a = degrees.to_radians();
    (cx + radius * a.cos(), cy - radius * a.sin())
}

fn points(pts: &[(f32, f32)]) -> String {
    let text: Vec<String> = pts.iter().map(|(x, y)| format!("{x:.1},{y:.1}")).collect();
    text.join(" ")
}

/// `text` safe inside an SVG or HTML element.
pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Where the coordinate of a hexagon sits, relative to its centre, in pixels: the
    /// text's baseline, and how far its glyphs reach up and to each side.
    const LABEL_BASELINE: f32 = -0.31 * UNIT;
    const LABEL_HALF_WIDTH: f32 = 8.0;

    #[test]
    fn a_stack_is_laid_out_side_by_side_inside_its_cell_and_under_its_coordinate() {
        assert_eq!(place_in_stack(0, 1), (0.0, 0.0, PIECE));
        for size in 2..=7 {
            let places: Vec<(f32, f32, f32)> = (0..size).map(|i| place_in_stack(i, size)).collect();
            for (i, &(x, y, r)) in places.iter().enumerate() {
                // A piece's outline reaches at most 1.25 r from its centre (a
                // triangle's tip); none covers another's centre, where its label is.
                for &(x2, y2, r2) in &places[i + 1..] {
                    let apart = (x - x2).hypot(y - y2);
                    assert!(apart >= r + r2, "{size}: {i} overlaps at {apart}");
                }
                let top = y - 1.25 * r;
                let beside = x.abs() - 1.25 * r > LABEL_HALF_WIDTH;
                assert!(
                    top > LABEL_BASELINE || beside,
                    "{size}: {i} covers the coordinate"
                );
                // Inside the pointy-top hexagon, a square's corners (1.2 r out) too:
                // within its apothem (half a unit) of the centre along each of its six
                // edge normals (east, and every 60 degrees).
                for k in 0..6 {
                    let a = (60.0 * k as f32).to_radians();
                    let out = x * a.cos() + y * a.sin() + 1.2 * r;
                    assert!(
                        out <= 0.5 * UNIT + 0.5,
                        "{size}: {i} leaves the cell by {out}"
                    );
                }
            }
        }
        // Two pieces share a row, left then right; a third is centred under them.
        let (a, b, c) = (
            place_in_stack(0, 3),
            place_in_stack(1, 3),
            place_in_stack(2, 3),
        );
        assert!(a.0 < 0.0 && b.0 > 0.0 && a.1 == b.1);
        assert!(c.0 == 0.0 && c.1 > a.1);
    }
}
