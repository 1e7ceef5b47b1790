//! Pictures drawn as text: the one text rendering of every game's positions. The picture
//! is laid out on a character grid, with the coordinates of each line's end cells, the
//! arrows and notes under it and a legend. A position's `Display` ([`display`]), `agon
//! show`, `agon play` and `agon replay` all draw with it, so a position reads the same
//! wherever it is printed.

use std::collections::{BTreeMap, HashMap};
use std::fmt;

use super::{CellShape, Ground, Ink, Mark, Picture, Symbol};

/// `picture` as a position's `Display` writes it: [`draw`] with nothing highlighted, then
/// its [`legend`], without the last line's newline (so that the position composes like
/// any other displayed value).
pub fn display(picture: &Picture, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    let text = draw(picture, &[]) + &legend(picture);
    f.write_str(text.trim_end_matches('\n'))
}

/// Characters per board unit across.
const COLUMNS_PER_UNIT: f32 = 6.0;

/// `picture` as lines of text: the board (`[..]` around the cells in `changed`), then
/// the arrows and the notes. [`legend`] says what its letters mean.
pub fn draw(picture: &Picture, changed: &[usize]) -> String {
    let letters = letters(picture);
    let mut lines: BTreeMap<i32, Vec<(i32, usize)>> = BTreeMap::new();
    let (ystep, top, left) = grid(picture);
    for (index, cell) in picture.cells.iter().enumerate() {
        let line = ((top - cell.y) / ystep).round() as i32;
        let column = ((cell.x - left) * COLUMNS_PER_UNIT).round() as i32;
        lines.entry(line).or_default().push((column, index));
    }
    let name_width = picture
        .cells
        .iter()
        .map(|c| c.name.len())
        .max()
        .unwrap_or(0);
    let mut out = String::new();
    for cells in lines.values_mut() {
        cells.sort();
        let mut row = String::new();
        for &(column, index) in cells.iter() {
            let mut token = token(picture, index, &letters);
            if changed.contains(&index) {
                token = format!("[{token}]");
            }
            let start = (column + 1 - (token.chars().count() as i32) / 2).max(0) as usize;
            let width = row.chars().count();
            let pad = if start > width {
                start - width
            } else {
                usize::from(width > 0)
            };
            row.push_str(&" ".repeat(pad));
            row.push_str(&token);
        }
        let first = &picture.cells[cells[0].1].name;
        let last = &picture.cells[cells[cells.len() - 1].1].name;
        out.push_str(&format!("{first:>name_width$} {row}  {last}\n"));
    }
    for mark in &picture.marks {
        if let Mark::Arrow { from, to, ink } = *mark {
            let meaning = picture
                .legend
                .iter()
                .find(|k| k.symbol == Symbol::Arrow(ink))
                .map_or("arrow", |k| k.meaning.as_str());
            out.push_str(&format!(
                "{} -> {}: {meaning}\n",
                picture.cells[from].name, picture.cells[to].name
            ));
        }
    }
    for note in &picture.notes {
        out.push_str(note);
        out.push('\n');
    }
    out
}

/// The vertical grid step and the board's top and left edges, in board units.
fn grid(picture: &Picture) -> (f32, f32, f32) {
    let step = |values: Vec<f32>| {
        let mut sorted = values;
        sorted.sort_by(f32::total_cmp);
        sorted
            .windows(2)
            .map(|w| w[1] - w[0])
            .filter(|d| *d > 1e-3)
            .fold(f32::MAX, f32::min)
    };
    let ystep = step(picture.cells.iter().map(|c| c.y).collect());
    let ystep = if ystep == f32::MAX { 1.0 } else { ystep };
    let top = picture.cells.iter().map(|c| c.y).fold(f32::MIN, f32::max);
    let left = picture.cells.iter().map(|c| c.x).fold(f32::MAX, f32::min);
    (ystep, top, left)
}

/// What one cell shows: its pieces top first (letter, label, facing arrow, `-` when
/// inactive) joined by `/`, after their terrain's letter and `:` when they stand on one
/// (a forest under a squad matters as much as the squad), or its ground; `*` when
/// something is pending there.
fn token(picture: &Picture, index: usize, letters: &HashMap<Symbol, char>) -> String {
    let pieces: Vec<String> = picture
        .pieces
        .iter()
        .rev()
        .filter(|p| p.cell == index)
        .map(|p| {
            let symbol = Symbol::Piece {
                shape: p.shape,
                ink: p.ink,
                facing: p.facing.is_some(),
            };
            let mut text = letters.get(&symbol).copied().unwrap_or('?').to_string();
            text.push_str(p.label.as_deref().unwrap_or(""));
            if let Some(degrees) = p.facing {
                text.push(arrow_glyph(degrees));
            }
            if p.inactive {
                text.push('-');
            }
            text
        })
        .collect();
    let ground = picture.cells[index].ground;
    let ground_letter = || letters.get(&Symbol::Ground(ground)).copied().unwrap_or('?');
    let mut token = match ground {
        _ if pieces.is_empty() && ground == Ground::Plain => ".".to_string(),
        _ if pieces.is_empty() => ground_letter().to_string(),
        Ground::Terrain(_) => format!("{}:{}", ground_letter(), pieces.join("/")),
        _ => pieces.join("/"),
    };
    if picture
        .marks
        .iter()
        .any(|m| matches!(m, Mark::Pending { cell } if *cell == index))
    {
        token.push('*');
    }
    token
}

/// The nearest of eight arrows to a direction (degrees counter-clockwise from east).
fn arrow_glyph(degrees: u16) -> char {
    const ARROWS: [char; 8] = ['→', '↗', '↑', '↖', '←', '↙', '↓', '↘'];
    ARROWS[((f32::from(degrees) / 45.0).round() as usize) % 8]
}

/// A letter for each piece kind and ground in the legend. A game with one piece kind per
/// ink takes the initial of the meaning (`R` for "red stone"); one with several takes
/// the initial of the words after the side's (`P` for "white Pivot", `T` for "white
/// Turned Veil"), upper case for the first ink in the legend and lower case for the
/// others. Grounds take a lower-case initial of their meaning; a face-down tile is `?`
/// and the sides' zones `+`, `=`, ... in legend order. Clashes move on to the next
/// initial, then to the meaning's other letters.
fn letters(picture: &Picture) -> HashMap<Symbol, char> {
    let mut inks: Vec<Ink> = Vec::new();
    let mut kinds_per_ink: HashMap<Ink, usize> = HashMap::new();
    for key in &picture.legend {
        if let Symbol::Piece { ink, .. } = key.symbol {
            if !inks.contains(&ink) {
                inks.push(ink);
            }
            *kinds_per_ink.entry(ink).or_default() += 1;
        }
    }
    let mut taken: HashMap<Symbol, char> = HashMap::new();
    let mut zones = ['+', '=', '~', '^'].into_iter();
    for key in &picture.legend {
        // The meaning's words up to any comment (`(seat 0)`, `, labelled ...`, `: ...`).
        let words: Vec<&str> = key
            .meaning
            .split(['(', ',', ':', ';'])
            .next()
            .unwrap_or("")
            .split_whitespace()
            .collect();
        let initials = |from: usize| words.iter().skip(from).filter_map(|w| w.chars().next());
        let letters = words.iter().flat_map(|w| w.chars());
        let letter = match key.symbol {
            Symbol::Piece { ink, .. } if kinds_per_ink[&ink] == 1 => {
                pick(initials(0).chain(letters).chain('A'..='Z'), true, &taken)
            }
            // The first word names the side; the kind is in the words after it.
            Symbol::Piece { ink, .. } => pick(
                initials(1)
                    .chain(initials(0))
                    .chain(letters)
                    .chain('A'..='Z'),
                inks[0] == ink,
                &taken,
            ),
            Symbol::Ground(Ground::Hidden) => '?',
            Symbol::Ground(Ground::Zone(_)) => zones.next().unwrap_or('+'),
            Symbol::Ground(_) => pick(initials(0).chain(letters).chain('a'..='z'), false, &taken),
            Symbol::Arrow(_) | Symbol::Pending | Symbol::Inactive => continue,
        };
        taken.insert(key.symbol, letter);
    }
    taken
}

fn pick(
    candidates: impl Iterator<Item = char>,
    upper: bool,
    taken: &HashMap<Symbol, char>,
) -> char {
    candidates
        .filter(|c| c.is_ascii_alphabetic())
        .map(|c| {
            if upper {
                c.to_ascii_uppercase()
            } else {
                c.to_ascii_lowercase()
            }
        })
        .find(|c| !taken.values().any(|t| t == c))
        .unwrap_or('#')
}

/// What every letter and mark of [`draw`]'s pictures of this game means, wrapped to lines
/// of at most 100 characters after `legend: `.
pub fn legend(picture: &Picture) -> String {
    let letters = letters(picture);
    let mut entries: Vec<String> = picture
        .legend
        .iter()
        .filter_map(|key| match key.symbol {
            Symbol::Pending => Some(format!("* {}", key.meaning)),
            Symbol::Inactive => Some(format!("- {}", key.meaning)),
            Symbol::Arrow(_) => None,
            symbol => letters.get(&symbol).map(|c| {
                let facing = matches!(symbol, Symbol::Piece { facing: true, .. });
                format!("{c}{} {}", if facing { "→" } else { "" }, key.meaning)
            }),
        })
        .collect();
    if let Some(terrain) = picture.legend.iter().find_map(|k| match k.symbol {
        Symbol::Ground(ground @ Ground::Terrain(_)) => letters.get(&Symbol::Ground(ground)),
        _ => None,
    }) {
        entries.push(format!("{terrain}:X pieces X standing on ground {terrain}"));
    }
    entries.push("[ ] the last move".into());
    if picture.cells.iter().any(|c| c.shape != CellShape::Square) {
        entries.push("coordinates: first and last cell of each line".into());
    }
    let mut out = String::from("legend:");
    let mut width = out.len();
    for entry in entries {
        let length = entry.chars().count();
        if width > 8 && width + 3 + length > 100 {
            out.push_str("\n       ");
            width = 7;
        } else if width > 7 {
            out.push_str(" ·");
            width += 2;
        }
        out.push(' ');
        out.push_str(&entry);
        width += 1 + length;
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use crate::games::connect4::Connect4;
    use crate::games::pig::Pig;
    use crate::{play_moves, Game};

    /// `game`'s start after `moves` (notation, space-separated).
    fn after<G: Game>(game: &G, moves: &str) -> G::State {
        let mut state = game.initial_state();
        play_moves(&mut state, moves).expect("a legal line");
        state
    }

    #[test]
    fn a_position_displays_as_its_picture_with_the_legend() {
        let expected = "\
a6  .     .     .     .     .     .     .  g6
a5  .     .     .     .     .     .     .  g5
a4  .     .     .     .     .     .     .  g4
a3  .     .     .     .     .     .     .  g3
a2  .     .     .     Y     .     .     .  g2
a1  .     .     .     R     R     .     .  g1
yellow (seat 1) to drop a stone
legend: R red stone (seat 0) · Y yellow stone (seat 1) · [ ] the last move";
        assert_eq!(after(&Connect4, "d d e").to_string(), expected);
    }

    #[test]
    fn a_board_of_one_line_draws_its_counters_and_notes() {
        // The board is one line of four places (`first`, `second`, `turn`, `die`); the
        // line starts with the first's name, right-aligned to the longest, and ends with
        // the last's.
        let expected = " first P0    p0    T7    D4  die
banked score of first (seat 0): 0
banked score of second (seat 1): 0
turn total of first (seat 0): 7, at risk
first (seat 0) to roll or hold
target score: 100; die: d6; decisions made: 2 of 1000
legend: P first player's banked score (seat 0) · T first player's turn total, at risk (seat 0)
        p second player's banked score (seat 1) · t second player's turn total, at risk (seat 1)
        D the die, showing the last roll · * the die is rolling · [ ] the last move";
        assert_eq!(
            format!("{}", after(&Pig::default(), "roll 3 roll 4")),
            expected
        );
    }
}
