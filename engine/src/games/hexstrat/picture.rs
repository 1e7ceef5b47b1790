//! Hexstrat's picture: the hexagon of 37 cells with South's Headquarters (seat 0, which
//! moves first) at the bottom, face-down tiles hidden and revealed ones by terrain, each
//! squad labelled with its units, and a pending reveal ringed with the move that waits
//! for it.

use std::fmt;

use crate::game::{Outcome, Seat, State};
use crate::picture::{
    text, Cell, CellShape, Depict, Ground, Ink, Key, Mark, Picture, Piece, PieceShape, Symbol,
};

use super::board::{cell_name, COORDS, HQ};
use super::moves::{HexMove, Tile, Unit};
use super::{HexstratState, CELLS};

/// Each seat's ink: South (seat 0) blue, North (seat 1) red.
const INKS: [Ink; 2] = [Ink::Blue, Ink::Red];

/// The side names by seat, as [`State::side`] gives them.
const SIDES: [&str; 2] = ["south", "north"];

/// The height of a row of pointy-top hexagons 1 across their flats: √3 / 2.
const ROW_HEIGHT: f32 = 0.866_025_4;

/// Each squad type's outline: Infantry a disc, Rocketeer a triangle, Mech a square.
const fn shape(unit: Unit) -> PieceShape {
    match unit {
        Unit::Infantry => PieceShape::Disc,
        Unit::Rocketeer => PieceShape::Triangle,
        Unit::Mech => PieceShape::Square,
    }
}

/// The ground of a revealed tile. The indices pick the renderer's fixed palette's
/// grass green for plains, dark green for forest and brown for mountain.
const fn terrain(tile: Tile) -> Ground {
    Ground::Terrain(match tile {
        Tile::Plains => 0,
        Tile::Forest => 4,
        Tile::Mountain => 5,
    })
}

/// "a, b or c".
fn one_of(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [most @ .., last] => format!("{} or {last}", most.join(", ")),
    }
}

/// Every symbol a Hexstrat picture draws: each squad of each side, the Headquarters,
/// the three terrains, face-down tiles, the move waiting for a reveal, the ring
/// around the tile being revealed and the faded style of a squad that cannot act.
fn legend() -> Vec<Key> {
    let mut keys = Vec::new();
    for (seat, (&ink, side)) in INKS.iter().zip(SIDES).enumerate() {
        keys.extend(Unit::ALL.map(|unit| {
            let meaning = format!(
                "{side} {} squad (seat {seat}), labelled with its units",
                unit.name()
            );
            Key::piece(shape(unit), ink, false, meaning)
        }));
    }
    for (seat, &ink) in INKS.iter().enumerate() {
        keys.push(Key::new(
            Symbol::Ground(Ground::Zone(ink)),
            format!(
                "{}'s Headquarters, {}'s target",
                SIDES[seat],
                SIDES[1 - seat]
            ),
        ));
    }
    let meanings = [
        "plains",
        "forest: +1 defence; a Mech entering is impeded",
        "mountain: +1 attack and defence; no Mech enters",
    ];
    for (tile, meaning) in Tile::ALL.into_iter().zip(meanings) {
        keys.push(Key::new(Symbol::Ground(terrain(tile)), meaning));
    }
    keys.push(Key::new(Symbol::Ground(Ground::Hidden), "face-down tile"));
    for (&ink, side) in INKS.iter().zip(SIDES) {
        keys.push(Key::new(
            Symbol::Arrow(ink),
            format!("{side} squad's move waiting for the tile to be revealed"),
        ));
    }
    keys.push(Key::new(Symbol::Pending, "tile about to be revealed"));
    keys.push(Key::new(
        Symbol::Inactive,
        "faded: a squad that has acted this turn, or is impeded",
    ));
    keys
}

impl HexstratState {
    /// Cell `c`'s ground: a Headquarters in its owner's ink, a revealed terrain, or
    /// hidden.
    fn picture_ground(&self, c: usize) -> Ground {
        match HQ.iter().position(|&hq| hq == c) {
            Some(seat) => Ground::Zone(INKS[seat]),
            None => self.tile(c).map_or(Ground::Hidden, terrain),
        }
    }

    /// The line saying who decides what, what chance is pending, or how the game ended.
    fn status_note(&self) -> String {
        let side = |s: Seat| format!("{} (seat {s})", SIDES[s]);
        if let Some(end) = self.end() {
            return match end.outcome {
                Outcome::Draw => format!("draw: all {} turns played", self.turns),
                Outcome::Win(w) if end.reason.word() == "seize" => format!(
                    "{} wins: its Infantry held {}'s Headquarters for {} turns (seize)",
                    side(w),
                    SIDES[1 - w],
                    self.rules.knobs.seize_turns
                ),
                Outcome::Win(w) => format!(
                    "{} wins: {} has no units left (rout)",
                    side(w),
                    SIDES[1 - w]
                ),
            };
        }
        if let Some((seat, unit, c)) = self.pending_reveal() {
            return format!(
                "a tile at {} is about to be revealed for {}'s {}",
                cell_name(c),
                SIDES[seat],
                unit.name()
            );
        }
        let seat = self.to_move;
        let ready: Vec<String> = Unit::ALL
            .into_iter()
            .filter(|&u| self.units(seat, u) > 0 && !self.has_acted(seat, u))
            .map(|u| {
                let recover = if self.is_impeded(seat, u) {
                    " (recover only)"
                } else {
                    ""
                };
                format!("{}{recover}", u.name())
            })
            .collect();
        format!(
            "{} to act with its {}, or end its turn",
            side(seat),
            one_of(&ready)
        )
    }

    /// Lines for the squads' states the board shows only faded, the seize counts and
    /// the bag.
    fn state_notes(&self) -> Vec<String> {
        let mut notes = Vec::new();
        let squads = |pick: &dyn Fn(Seat, Unit) -> bool| -> Vec<String> {
            (0..2)
                .flat_map(|seat| Unit::ALL.map(|u| (seat, u)))
                .filter(|&(seat, u)| self.units(seat, u) > 0 && pick(seat, u))
                .map(|(seat, u)| {
                    let c = self.squad_cell(seat, u).expect("a living squad has a cell");
                    format!("{} {} on {}", SIDES[seat], u.name(), cell_name(c))
                })
                .collect()
        };
        let impeded = squads(&|seat, u| self.is_impeded(seat, u));
        if !impeded.is_empty() {
            notes.push(format!(
                "impeded (can only recover): {}",
                impeded.join(", ")
            ));
        }
        let acted = squads(&|seat, u| self.has_acted(seat, u));
        if !acted.is_empty() {
            notes.push(format!("acted this turn: {}", acted.join(", ")));
        }
        for seat in 0..2 {
            let count = self.seize_count(seat);
            if count > 0 {
                notes.push(format!(
                    "{}'s Infantry holds {}'s Headquarters: seize count {count} of {}",
                    SIDES[seat],
                    SIDES[1 - seat],
                    self.rules.knobs.seize_turns
                ));
            }
        }
        let bag = Tile::ALL.map(|t| self.in_bag(t));
        notes.push(if bag == [0; 3] {
            "every tile is face up".to_string()
        } else {
            format!(
                "face down: {} plains, {} forest, {} mountain",
                bag[0], bag[1], bag[2]
            )
        });
        notes
    }
}

impl fmt::Display for HexstratState {
    /// The position's picture drawn as text with its legend ([`text::display`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        text::display(&self.picture(), f)
    }
}

impl Depict for HexstratState {
    /// Cells in index order (row 1 to row 7, `q` ascending), axial `(q, r)` centred at
    /// `x = q + r / 2`, `y = r · √3 / 2`; each living squad a piece labelled with its
    /// units (several on a Headquarters form a stack), faded once it has acted this turn
    /// or while impeded; a pending reveal as a ring on its tile and an arrow from the
    /// moving squad.
    fn picture(&self) -> Picture {
        let cells = (0..CELLS)
            .map(|c| {
                let (q, r) = (f32::from(COORDS[c].0), f32::from(COORDS[c].1));
                Cell {
                    x: q + r / 2.0,
                    y: r * ROW_HEIGHT,
                    shape: CellShape::HexPointy,
                    name: cell_name(c),
                    ground: self.picture_ground(c),
                }
            })
            .collect();
        let mut pieces = Vec::new();
        for (seat, &ink) in INKS.iter().enumerate() {
            for unit in Unit::ALL {
                let Some(c) = self.squad_cell(seat, unit) else {
                    continue;
                };
                let piece =
                    Piece::new(c, shape(unit), ink).labelled(self.units(seat, unit).to_string());
                let resting = self.has_acted(seat, unit) || self.is_impeded(seat, unit);
                pieces.push(if resting { piece.inactive() } else { piece });
            }
        }
        let mut marks = Vec::new();
        if let Some((seat, unit, c)) = self.pending_reveal() {
            let from = self.squad_cell(seat, unit).expect("the moving squad lives");
            marks.push(Mark::Arrow {
                from,
                to: c,
                ink: INKS[seat],
            });
            marks.push(Mark::Pending { cell: c });
        }
        let mut notes = vec![self.status_note()];
        notes.extend(self.state_notes());
        if self.end().is_none() {
            notes.push(format!(
                "turn {} of {}",
                self.turns + 1,
                self.rules.turn_cap()
            ));
        }
        Picture {
            cells,
            pieces,
            marks,
            notes,
            legend: legend(),
        }
    }

    /// A reveal as what it showed and where: `revealed forest at d4`.
    fn event(&self, m: HexMove) -> String {
        match (m, self.pending_reveal()) {
            (HexMove::Reveal(tile), Some((_, _, c))) => {
                format!("revealed {} at {}", tile.word(), cell_name(c))
            }
            _ => self.format_move(m),
        }
    }
}
