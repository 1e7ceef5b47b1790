//! Romgon's actions and their generation: pattern targets per piece from the
//! [`Geometry`] tables, orientation choices after a non-capturing move, rotation-only
//! actions, and the no-self-attack filter.

use crate::bits::Cells;
use crate::game::Move;

use super::board::{bit, Bitboard, Board, Colour, Geometry, Kind, Piece, CELLS, KINDS};

/// What kind of action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ActionKind {
    /// A move to an empty cell (a triangle or hexagon then takes `orient`).
    Move = 0,
    /// A move onto an enemy piece, which is removed; orientation unchanged.
    Capture = 1,
    /// A triangle or hexagon stays and takes the different orientation `orient`.
    Rotate = 2,
}

/// One Romgon action. `orient` is the final facing or axis after a non-capturing move
/// of a triangle or hexagon, or the new one of a rotation; it is 0 for every other
/// action (so that each action has exactly one value). A rotation has `to == from`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RomgonMove {
    /// What kind of action.
    pub kind: ActionKind,
    /// The acting piece's cell.
    pub from: u8,
    /// The destination cell (`from` for a rotation).
    pub to: u8,
    /// Final orientation (see the type docs).
    pub orient: u8,
}

impl RomgonMove {
    /// A new action.
    #[inline]
    pub const fn new(kind: ActionKind, from: usize, to: usize, orient: u8) -> Self {
        RomgonMove {
            kind,
            from: from as u8,
            to: to as u8,
            orient,
        }
    }
}

impl Move for RomgonMove {
    /// Bits 0–5 `from`, 6–11 `to`, 12–14 `orient`, 15–16 the kind.
    fn pack(self) -> u32 {
        u32::from(self.from)
            | u32::from(self.to) << 6
            | u32::from(self.orient) << 12
            | (self.kind as u32) << 15
    }

    fn unpack(code: u32) -> Option<Self> {
        let kind = match code >> 15 {
            0 => ActionKind::Move,
            1 => ActionKind::Capture,
            2 => ActionKind::Rotate,
            _ => return None,
        };
        let (from, to, orient) = (code & 63, code >> 6 & 63, (code >> 12 & 7) as u8);
        let valid = from < 51
            && to < 51
            && orient < 6
            && match kind {
                ActionKind::Rotate => from == to,
                ActionKind::Capture => from != to && orient == 0,
                ActionKind::Move => from != to,
            };
        valid.then(|| RomgonMove::new(kind, from as usize, to as usize, orient))
    }
}

/// How a triangle or hexagon may end after a non-capturing move or rotate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rotation {
    /// Any facing or axis.
    Any,
    /// At most one 60° step (a triangle); a hexagon may take any axis either way.
    Step,
}

/// Which defence variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Defence {
    /// Standard Romgon: the Rhombus may not enter an attacked enemy base.
    Shape,
    /// Rhombus Original: entering the enemy base is always legal, and counts as a
    /// deadlock escape.
    Original,
}

/// The orientations `kind` may end with, starting from `current`, as a bitmask over
/// 0..6 (bit `o` for orientation `o`), current included.
#[inline]
pub fn final_orientations(kind: Kind, current: u8, rotation: Rotation) -> u8 {
    match (kind, rotation) {
        (Kind::Triangle, Rotation::Any) => 0b11_1111,
        (Kind::Triangle, Rotation::Step) => {
            let c = u32::from(current);
            (1 << c | 1 << ((c + 1) % 6) | 1 << ((c + 5) % 6)) as u8
        }
        (Kind::Hexagon, _) => 0b111,
        _ => 1,
    }
}

/// Cells a piece of `colour` on `from` may move or capture to by its pattern, ignoring
/// the self-attack rule: every pattern target not held by a friendly piece (and, for a
/// Rhombus, not by the enemy Rhombus; a diagonal Rhombus move needs an empty cell;
/// circles slide along the ring or change zone onto an empty cell).
#[inline]
pub fn targets(g: &Geometry, board: &Board, colour: Colour, piece: Piece, from: usize) -> Bitboard {
    let own = board.colour[colour as usize];
    let occupied = board.occupied();
    let reach = match piece.kind {
        Kind::Square => g.square[from],
        Kind::Triangle => g.triangle[usize::from(piece.orient)][from],
        Kind::Hexagon => g.hexagon[usize::from(piece.orient)][from],
        Kind::Rhombus => {
            let enemy_rhombus = board.pieces(colour.other(), Kind::Rhombus);
            (g.rhombus[from] & !enemy_rhombus) | (g.rhombus_diagonal[from] & !occupied)
        }
        Kind::Circle => g.ring_reach(from, occupied) | (g.zone_change[from] & !occupied),
    };
    reach & !own
}

/// The rules' knobs that move generation needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MoveRules {
    /// Defence variant.
    pub defence: Defence,
    /// Rotation policy.
    pub rotation: Rotation,
}

/// Whether `colour`'s Rhombus is safe after `colour` moves `piece` from `from` to `to`
/// (a capture if an enemy stands there): the no-self-attack rule, with the Original
/// exemption for a Rhombus entering the enemy base. `in_check` says whether the Rhombus
/// is attacked before the move; when it is not, only a Rhombus move or one that opens
/// an enemy circle's ring onto it can change that.
#[inline]
#[allow(clippy::too_many_arguments)]
pub fn safe_after(
    g: &Geometry,
    rules: MoveRules,
    board: &Board,
    colour: Colour,
    piece: Piece,
    from: usize,
    to: usize,
    in_check: bool,
) -> bool {
    let enemy = colour.other();
    if piece.kind == Kind::Rhombus {
        if rules.defence == Defence::Original && to == colour.goal() {
            return true;
        }
    } else if !in_check {
        let Some(home) = board.rhombus(colour) else {
            return true;
        };
        let zone = g.zone[home];
        let circles = board.pieces(enemy, Kind::Circle) & g.zone_cells[zone as usize];
        if circles == 0 || g.zone[from] != zone {
            return true;
        }
    }
    let mut after = *board;
    if after.colour[enemy as usize] & bit(to) != 0 {
        let victim = after.piece(to).expect("occupied");
        after.remove(to, victim);
    }
    after.remove(from, piece);
    after.put(to, piece);
    match after.rhombus(colour) {
        Some(home) => !after.attacked(g, home, enemy),
        None => true,
    }
}

/// Appends every legal action of `colour` (see the module docs) to `out`, in a fixed
/// order: pieces by type then cell, targets by cell, orientations ascending, then the
/// piece's rotations. With `first_only`, appends nothing and returns at the first one
/// found (to ask whether any exists, without allocating); returns whether it found one.
pub fn generate(
    g: &Geometry,
    rules: MoveRules,
    board: &Board,
    colour: Colour,
    out: &mut Vec<RomgonMove>,
    first_only: bool,
) -> bool {
    let in_check = board
        .rhombus(colour)
        .is_some_and(|home| board.attacked(g, home, colour.other()));
    let enemy = board.colour[colour.other() as usize];
    for kind in KINDS {
        for from in Cells(board.pieces(colour, kind)) {
            let orient = board.orient_at(kind, from);
            let piece = Piece {
                colour,
                kind,
                orient,
            };
            for to in Cells(targets(g, board, colour, piece, from)) {
                if !safe_after(g, rules, board, colour, piece, from, to, in_check) {
                    continue;
                }
                if first_only {
                    return true;
                }
                if enemy & bit(to) != 0 {
                    out.push(RomgonMove::new(ActionKind::Capture, from, to, 0));
                } else {
                    let finals = final_orientations(kind, orient, rules.rotation);
                    for o in 0..6u8 {
                        if finals & 1 << o != 0 {
                            out.push(RomgonMove::new(ActionKind::Move, from, to, o));
                        }
                    }
                }
            }
            // Rotating changes no cell, so it is legal exactly when the Rhombus is safe
            // now.
            if !in_check && kind.orientations() > 1 {
                let finals = final_orientations(kind, orient, rules.rotation) & !(1 << orient);
                if first_only && finals != 0 {
                    return true;
                }
                for o in 0..6u8 {
                    if finals & 1 << o != 0 {
                        out.push(RomgonMove::new(ActionKind::Rotate, from, from, o));
                    }
                }
            }
        }
    }
    false
}

/// Whether `m` is a legal action of `colour` (the side to move) on `board`: the same
/// answer as membership in [`generate`]'s list, in constant time.
pub fn is_legal(
    g: &Geometry,
    rules: MoveRules,
    board: &Board,
    colour: Colour,
    m: RomgonMove,
) -> bool {
    let (from, to) = (usize::from(m.from), usize::from(m.to));
    if from >= CELLS || to >= CELLS || m.orient >= 6 {
        return false;
    }
    let Some(piece) = board.piece(from).filter(|p| p.colour == colour) else {
        return false;
    };
    let in_check = board
        .rhombus(colour)
        .is_some_and(|home| board.attacked(g, home, colour.other()));
    let finals = final_orientations(piece.kind, piece.orient, rules.rotation);
    match m.kind {
        ActionKind::Rotate => {
            from == to
                && piece.kind.orientations() > 1
                && m.orient != piece.orient
                && finals & 1 << m.orient != 0
                && !in_check
        }
        ActionKind::Move | ActionKind::Capture => {
            if targets(g, board, colour, piece, from) & bit(to) == 0 {
                return false;
            }
            let capture = board.colour[colour.other() as usize] & bit(to) != 0;
            let form = match m.kind {
                ActionKind::Capture => capture && m.orient == 0,
                _ => !capture && finals & 1 << m.orient != 0,
            };
            form && safe_after(g, rules, board, colour, piece, from, to, in_check)
        }
    }
}

/// Whether `colour` is deadlocked: its Rhombus is attacked by the other colour and
/// every Rhombus move it has lands on a cell attacked after that move (in Original, a
/// move onto its goal is an escape). Other pieces cannot help.
pub fn deadlocked(g: &Geometry, defence: Defence, board: &Board, colour: Colour) -> bool {
    let Some(home) = board.rhombus(colour) else {
        return false;
    };
    let enemy = colour.other();
    if !board.attacked(g, home, enemy) {
        return false;
    }
    let piece = Piece {
        colour,
        kind: Kind::Rhombus,
        orient: 0,
    };
    let rules = MoveRules {
        defence,
        rotation: Rotation::Any,
    };
    !Cells(targets(g, board, colour, piece, home))
        .any(|to| safe_after(g, rules, board, colour, piece, home, to, true))
}
