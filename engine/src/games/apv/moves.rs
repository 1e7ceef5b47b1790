//! APV's units, decisions and the targets of each unit type from bitboards.

use crate::game::Move;

use super::board::{Bitboard, CELLS, GEO};

/// The four unit types. The discriminant indexes per-type bitboards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Unit {
    /// Steps to a neighbour; the unit whose immobilisation loses.
    Pivot = 0,
    /// Slides any distance along one of the six directions over empty cells.
    Axis = 1,
    /// Jumps two cells along a direction.
    Veil = 2,
    /// Jumps to a "diagonal" cell, the sum of two consecutive directions.
    Turned = 3,
}

impl Unit {
    /// Every type, in index order.
    pub const ALL: [Unit; 4] = [Unit::Pivot, Unit::Axis, Unit::Veil, Unit::Turned];

    /// The name players use.
    pub const fn name(self) -> &'static str {
        match self {
            Unit::Pivot => "Pivot",
            Unit::Axis => "Axis",
            Unit::Veil => "Veil",
            Unit::Turned => "Turned Veil",
        }
    }

    /// The empty cells a unit of this type on `from` may move to, `occupied` being
    /// every unit of both sides.
    #[inline]
    pub fn targets(self, from: usize, occupied: Bitboard) -> Bitboard {
        let empty = !occupied & super::board::FULL;
        match self {
            Unit::Pivot => GEO.neighbours[from] & empty,
            Unit::Axis => GEO.axis_targets(from, occupied),
            Unit::Veil => GEO.veil[from] & empty,
            Unit::Turned => GEO.turned[from] & empty,
        }
    }
}

/// What kind of decision a move is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MoveKind {
    /// The primary move of a unit, `d8-a8`.
    Primary = 0,
    /// A future order for a unit, `order:d7-d5`, issued after the primary move.
    Order = 1,
    /// The order decision declined, `no-order`.
    NoOrder = 2,
}

/// One APV decision. `from` and `to` are cell indices; both zero for `NoOrder`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ApvMove {
    /// The kind of decision.
    pub kind: MoveKind,
    /// The unit's cell.
    pub from: u8,
    /// The destination.
    pub to: u8,
}

impl ApvMove {
    /// Declining to issue an order.
    pub const NO_ORDER: ApvMove = ApvMove {
        kind: MoveKind::NoOrder,
        from: 0,
        to: 0,
    };

    /// A primary move or an order between two cells.
    #[inline]
    pub const fn new(kind: MoveKind, from: usize, to: usize) -> ApvMove {
        ApvMove {
            kind,
            from: from as u8,
            to: to as u8,
        }
    }
}

impl Move for ApvMove {
    /// Bits 0–5 `from`, 6–11 `to`, 12–13 the kind.
    fn pack(self) -> u32 {
        u32::from(self.from) | u32::from(self.to) << 6 | (self.kind as u32) << 12
    }

    fn unpack(code: u32) -> Option<ApvMove> {
        let kind = match code >> 12 {
            0 => MoveKind::Primary,
            1 => MoveKind::Order,
            2 => MoveKind::NoOrder,
            _ => return None,
        };
        let (from, to) = ((code & 63) as u8, (code >> 6 & 63) as u8);
        let valid = match kind {
            MoveKind::NoOrder => from == 0 && to == 0,
            _ => usize::from(from) < CELLS && usize::from(to) < CELLS && from != to,
        };
        valid.then_some(ApvMove { kind, from, to })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pack_round_trips_and_rejects_junk() {
        for m in [
            ApvMove::NO_ORDER,
            ApvMove::new(MoveKind::Primary, 0, 60),
            ApvMove::new(MoveKind::Order, 60, 1),
        ] {
            assert_eq!(ApvMove::unpack(m.pack()), Some(m));
        }
        assert_eq!(ApvMove::unpack(3 << 12), None);
        assert_eq!(ApvMove::unpack(61), None);
        assert_eq!(ApvMove::unpack(2 << 12 | 1), None);
    }
}
