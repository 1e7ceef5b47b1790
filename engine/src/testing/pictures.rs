//! The contract of [`Depict::picture`], checked along seeded random playouts.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::game::{sample_outcome, Game, State, Turn};
use crate::picture::{Cell, Depict, Ground, Mark, Picture, Symbol};

/// Plays `playouts` seeded random games from the start and checks every position's
/// picture: cells the same as the start's (places, shapes, names; grounds may change),
/// unique cell names, every piece's and mark's cell in range, every label at most 3
/// characters, and a legend entry for every piece kind, ground and mark drawn, and for
/// the faded style when a piece is inactive. Returns how many pictures were
/// checked, or the first broken property with the moves that led there.
pub fn check_pictures<G: Game>(game: &G, playouts: u32, seed: u64) -> Result<usize, String>
where
    G::State: Depict,
{
    let start = game.initial_state();
    let first = start.picture();
    let names: std::collections::HashSet<&str> =
        first.cells.iter().map(|c| c.name.as_str()).collect();
    if names.len() != first.cells.len() {
        return Err("two cells share a name".into());
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut checked = 0;
    let mut moves = Vec::new();
    for _ in 0..playouts {
        let mut state = start.clone();
        let mut line = Vec::new();
        loop {
            let picture = state.picture();
            check_one(&first, &picture).map_err(|e| format!("after `{}`: {e}", line.join(" ")))?;
            checked += 1;
            let m = match state.turn() {
                Turn::Over => break,
                Turn::Chance => sample_outcome(&state, &mut rng),
                Turn::Seat(_) => {
                    moves.clear();
                    state.legal_moves(&mut moves);
                    moves[rand::Rng::random_range(&mut rng, 0..moves.len())]
                }
            };
            line.push(state.format_move(m));
            state.apply(m);
        }
    }
    Ok(checked)
}

/// Checks that the cells of `picture` lie where the rules' adjacency puts them: the
/// centres of two cells that `adjacent` calls neighbours are 1 apart, and those of any
/// other two cells more than 1 apart (both within 1e-4), so neighbouring cells touch and
/// no others do. Returns the first pair that breaks this, by name.
pub fn check_adjacency(
    picture: &Picture,
    adjacent: impl Fn(&Cell, &Cell) -> bool,
) -> Result<(), String> {
    for (i, a) in picture.cells.iter().enumerate() {
        for b in &picture.cells[i + 1..] {
            let distance = (a.x - b.x).hypot(a.y - b.y);
            let fits = if adjacent(a, b) {
                (distance - 1.0).abs() < 1e-4
            } else {
                distance > 1.0 + 1e-4
            };
            if !fits {
                return Err(format!(
                    "{} and {} are {distance} apart, and the rules call them {}",
                    a.name,
                    b.name,
                    if adjacent(a, b) {
                        "neighbours"
                    } else {
                        "not neighbours"
                    }
                ));
            }
        }
    }
    Ok(())
}

fn check_one(first: &Picture, picture: &Picture) -> Result<(), String> {
    // Grounds may change (a tile turned face up); places, shapes and names may not.
    let same =
        |(a, b): (&Cell, &Cell)| (a.x, a.y, a.shape, &a.name) == (b.x, b.y, b.shape, &b.name);
    if picture.cells.len() != first.cells.len() || !picture.cells.iter().zip(&first.cells).all(same)
    {
        return Err("the cells differ from the start position's".into());
    }
    let cells = picture.cells.len();
    let has = |symbol: Symbol| picture.legend.iter().any(|k| k.symbol == symbol);
    for piece in &picture.pieces {
        if piece.cell >= cells {
            return Err(format!("a piece on cell {} of {cells}", piece.cell));
        }
        if piece.label.as_ref().is_some_and(|l| l.chars().count() > 3) {
            return Err(format!("label {:?} is longer than 3", piece.label));
        }
        let symbol = Symbol::Piece {
            shape: piece.shape,
            ink: piece.ink,
            facing: piece.facing.is_some(),
        };
        if !has(symbol) {
            return Err(format!("no legend entry for {symbol:?}"));
        }
        if piece.inactive && !has(Symbol::Inactive) {
            return Err("an inactive piece, and no legend entry for the faded style".into());
        }
    }
    for cell in &picture.cells {
        if cell.ground != Ground::Plain && !has(Symbol::Ground(cell.ground)) {
            return Err(format!("no legend entry for ground {:?}", cell.ground));
        }
    }
    for mark in &picture.marks {
        let (symbol, inside) = match *mark {
            Mark::Arrow { from, to, ink } => (Symbol::Arrow(ink), from < cells && to < cells),
            Mark::Pending { cell } => (Symbol::Pending, cell < cells),
        };
        if !inside {
            return Err(format!("{mark:?} points outside the board"));
        }
        if !has(symbol) {
            return Err(format!("no legend entry for {symbol:?}"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::picture::{CellShape, Key};

    fn picture(ground: Ground, x: f32) -> Picture {
        Picture {
            cells: vec![Cell {
                x,
                y: 0.0,
                shape: CellShape::HexPointy,
                name: "d4".into(),
                ground,
            }],
            legend: vec![
                Key::new(Symbol::Ground(Ground::Hidden), "face-down tile"),
                Key::new(Symbol::Ground(Ground::Terrain(1)), "forest"),
            ],
            ..Picture::default()
        }
    }

    #[test]
    fn adjacency_asks_neighbours_to_touch_and_no_others() {
        let mut row = picture(Ground::Hidden, 0.0);
        let mut far = row.cells[0].clone();
        far.x = 1.0;
        far.name = "e4".into();
        row.cells.push(far);
        assert_eq!(check_adjacency(&row, |_, _| true), Ok(()));
        assert!(check_adjacency(&row, |_, _| false)
            .unwrap_err()
            .starts_with("d4 and e4 are 1 apart"));
        row.cells[1].x = 1.5;
        assert!(check_adjacency(&row, |_, _| true).is_err());
        assert_eq!(check_adjacency(&row, |_, _| false), Ok(()));
    }

    #[test]
    fn an_inactive_piece_needs_the_faded_styles_key() {
        use crate::picture::{Ink, Piece, PieceShape};
        let first = picture(Ground::Hidden, 0.0);
        let mut faded = first.clone();
        faded
            .legend
            .push(Key::piece(PieceShape::Disc, Ink::Red, false, "red squad"));
        faded
            .pieces
            .push(Piece::new(0, PieceShape::Disc, Ink::Red).inactive());
        assert_eq!(
            check_one(&first, &faded),
            Err("an inactive piece, and no legend entry for the faded style".into())
        );
        faded
            .legend
            .push(Key::new(Symbol::Inactive, "faded: a squad that has acted"));
        assert_eq!(check_one(&first, &faded), Ok(()));
    }

    #[test]
    fn a_cell_may_change_its_ground_but_not_its_place() {
        let first = picture(Ground::Hidden, 0.0);
        assert_eq!(check_one(&first, &picture(Ground::Terrain(1), 0.0)), Ok(()));
        assert!(check_one(&first, &picture(Ground::Hidden, 0.5)).is_err());
        assert!(check_one(&first, &picture(Ground::Terrain(2), 0.0))
            .unwrap_err()
            .contains("no legend entry"));
    }
}
