//! Pig's moves: the two decisions `roll` and `hold`, and the faces of the die.

use crate::game::Move;

/// The most faces a die may have (the `die` parameter's upper limit).
pub const MAX_DIE: u32 = 20;

/// A decision of the seat to move, or the face the die shows.
///
/// The order (`Roll` < `Hold` < faces by value) is the generation order: decisions as
/// OpenSpiel numbers them (roll 0, stop 1), faces from 1 up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PigMove {
    /// Throw the die: the next node is a chance node. Notation `roll`.
    Roll,
    /// Bank the turn total and pass the turn. Notation `hold`.
    Hold,
    /// The die shows this face, `1..=die`. Notation: the number, `1`…`6` on a d6.
    Face(u8),
}

impl Move for PigMove {
    /// `roll` is 0, `hold` 1, face `f` is `f + 1` (2..=21).
    fn pack(self) -> u32 {
        match self {
            PigMove::Roll => 0,
            PigMove::Hold => 1,
            PigMove::Face(f) => u32::from(f) + 1,
        }
    }

    fn unpack(code: u32) -> Option<Self> {
        match code {
            0 => Some(PigMove::Roll),
            1 => Some(PigMove::Hold),
            c if (2..=MAX_DIE + 1).contains(&c) => Some(PigMove::Face((c - 1) as u8)),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pack_round_trips_and_rejects_unknown_codes() {
        let all = [PigMove::Roll, PigMove::Hold]
            .into_iter()
            .chain((1..=MAX_DIE as u8).map(PigMove::Face));
        for m in all {
            assert_eq!(PigMove::unpack(m.pack()), Some(m));
        }
        assert_eq!(PigMove::unpack(MAX_DIE + 2), None);
        assert!(PigMove::Roll < PigMove::Hold && PigMove::Hold < PigMove::Face(1));
    }
}
