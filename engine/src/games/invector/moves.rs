//! Invector's moves and their generation from bitboards.

use crate::bits::Cells;
use crate::game::Move;

use super::board::{Bitboard, Direction, Geometry, DIRECTIONS};

/// What kind of decision a move is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MoveKind {
    /// Onto an orthogonally adjacent enemy stone, which is removed.
    Capture,
    /// Onto an adjacent empty cell one step closer to the centre (or, with a `stride`
    /// above 1, a straight slide over empty cells, each closer than the one before).
    Step,
    /// The forced skip of a player with no capture and no step.
    Pass,
    /// White's pie-rule swap as the second decision of the game.
    Swap,
}

/// One Invector decision. `from` and `to` are cell indices (`y * W + x`), zero for
/// `Pass` and `Swap`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct InvectorMove {
    /// The kind of decision.
    pub kind: MoveKind,
    /// The moving stone's cell.
    pub from: u8,
    /// The destination cell.
    pub to: u8,
}

impl InvectorMove {
    /// The forced pass.
    pub const PASS: InvectorMove = InvectorMove {
        kind: MoveKind::Pass,
        from: 0,
        to: 0,
    };
    /// The pie-rule swap.
    pub const SWAP: InvectorMove = InvectorMove {
        kind: MoveKind::Swap,
        from: 0,
        to: 0,
    };

    /// A capture or step between two cells.
    #[inline]
    pub const fn new(kind: MoveKind, from: usize, to: usize) -> Self {
        InvectorMove {
            kind,
            from: from as u8,
            to: to as u8,
        }
    }
}

impl Move for InvectorMove {
    /// Bits 0–7 `from`, 8–15 `to`, 16–17 the kind.
    fn pack(self) -> u32 {
        u32::from(self.from) | u32::from(self.to) << 8 | (self.kind as u32) << 16
    }

    fn unpack(code: u32) -> Option<Self> {
        let kind = match code >> 16 {
            0 => MoveKind::Capture,
            1 => MoveKind::Step,
            2 => MoveKind::Pass,
            3 => MoveKind::Swap,
            _ => return None,
        };
        let (from, to) = ((code & 0xFF) as u8, (code >> 8 & 0xFF) as u8);
        let plain = matches!(kind, MoveKind::Pass | MoveKind::Swap);
        if from >= 128 || to >= 128 || (plain && (from | to) != 0) {
            return None;
        }
        Some(InvectorMove { kind, from, to })
    }
}

/// Appends every capture of `own` stones onto `enemy` stones.
#[inline]
pub fn captures(g: &Geometry, own: Bitboard, enemy: Bitboard, out: &mut Vec<InvectorMove>) {
    for d in DIRECTIONS {
        let offset = g.offset(d);
        for to in Cells(g.shift(own, d) & enemy) {
            out.push(InvectorMove::new(
                MoveKind::Capture,
                (to as isize - offset) as usize,
                to,
            ));
        }
    }
}

/// Appends every step of `own` stones onto `empty` cells: up to `stride` pits in one
/// direction, each empty and closer to the centre than the one before. By direction,
/// then length, then cell (with a stride of 1: by direction, then cell).
#[inline]
pub fn steps(
    g: &Geometry,
    own: Bitboard,
    empty: Bitboard,
    stride: u8,
    out: &mut Vec<InvectorMove>,
) {
    for d in DIRECTIONS {
        let offset = g.offset(d);
        // The cells the stones reach after `len` pits.
        let mut reached = own;
        for len in 1..=stride as isize {
            reached = g.shift(reached & g.closer(d), d) & empty;
            if reached == 0 {
                break;
            }
            for to in Cells(reached) {
                out.push(InvectorMove::new(
                    MoveKind::Step,
                    (to as isize - len * offset) as usize,
                    to,
                ));
            }
        }
    }
}

/// Why a stone may not step from one cell to another (see [`slide`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SlideFault {
    /// The cells are not in one row or column (or are the same cell, or off the board).
    NotInLine,
    /// The cells are in line but farther apart than the stride.
    TooFar,
    /// This cell on the way (the destination included) is not empty.
    Blocked(usize),
    /// The step from the first cell to the second does not get closer to the centre.
    NotCloser(usize, usize),
}

/// The direction and number of pits from `from` to `to` when they share a row or a
/// column (and differ), else `None`. Cells off the board have no line.
pub fn line(g: &Geometry, from: usize, to: usize) -> Option<(Direction, usize)> {
    if from >= g.cells() || to >= g.cells() || from == to {
        return None;
    }
    let (fx, fy) = (from % g.width, from / g.width);
    let (tx, ty) = (to % g.width, to / g.width);
    if fy == ty {
        let d = if tx > fx {
            Direction::East
        } else {
            Direction::West
        };
        Some((d, fx.abs_diff(tx)))
    } else if fx == tx {
        let d = if ty > fy {
            Direction::North
        } else {
            Direction::South
        };
        Some((d, fy.abs_diff(ty)))
    } else {
        None
    }
}

/// Checks that a stone on `from` may step to `to` over `empty` cells with `stride`: the
/// cells in one line at most `stride` pits apart, every cell after `from` empty and
/// closer to the centre than the one before. The first fault on the way is the answer.
pub fn slide(
    g: &Geometry,
    from: usize,
    to: usize,
    empty: Bitboard,
    stride: u8,
) -> Result<(), SlideFault> {
    let (d, len) = line(g, from, to).ok_or(SlideFault::NotInLine)?;
    if len > usize::from(stride) {
        return Err(SlideFault::TooFar);
    }
    let offset = g.offset(d);
    let mut here = from;
    for _ in 0..len {
        let next = (here as isize + offset) as usize;
        if empty & 1u128 << next == 0 {
            return Err(SlideFault::Blocked(next));
        }
        if g.distance[next] >= g.distance[here] {
            return Err(SlideFault::NotCloser(here, next));
        }
        here = next;
    }
    Ok(())
}

/// Whether `own` stones have any capture or step at all (cheaper than listing them).
#[inline]
pub fn can_move(g: &Geometry, own: Bitboard, enemy: Bitboard, empty: Bitboard) -> bool {
    DIRECTIONS
        .iter()
        .any(|&d| g.shift(own, d) & enemy != 0 || g.shift(own & g.closer(d), d) & empty != 0)
}
