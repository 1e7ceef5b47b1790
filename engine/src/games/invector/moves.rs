//! Invector's moves and their generation from bitboards.

use crate::bits::Cells;
use crate::game::Move;

use super::board::{Bitboard, Geometry, DIRECTIONS};

/// What kind of decision a move is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MoveKind {
    /// Onto an orthogonally adjacent enemy stone, which is removed.
    Capture,
    /// Onto an adjacent empty cell one step closer to the centre.
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

/// Appends every step of `own` stones onto `empty` cells closer to the centre.
#[inline]
pub fn steps(g: &Geometry, own: Bitboard, empty: Bitboard, out: &mut Vec<InvectorMove>) {
    for d in DIRECTIONS {
        let offset = g.offset(d);
        for to in Cells(g.shift(own & g.closer(d), d) & empty) {
            out.push(InvectorMove::new(
                MoveKind::Step,
                (to as isize - offset) as usize,
                to,
            ));
        }
    }
}

/// Whether `own` stones have any capture or step at all (cheaper than listing them).
#[inline]
pub fn can_move(g: &Geometry, own: Bitboard, enemy: Bitboard, empty: Bitboard) -> bool {
    DIRECTIONS
        .iter()
        .any(|&d| g.shift(own, d) & enemy != 0 || g.shift(own & g.closer(d), d) & empty != 0)
}
