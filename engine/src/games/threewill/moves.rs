//! 3Will's moves: every decision and every chance outcome of a turn.

use crate::game::Move;

/// How an agent steps in a standard or Free operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum StepKind {
    /// Onto an empty square inside the board (`c2-c3`).
    Plain,
    /// A stacking attempt onto an unlocked top (`c2*c3`, also across a side edge in a
    /// Free operation: `a4*h5`).
    Stack,
    /// A dimensional leap across a side edge onto an empty square (`a4~h5`), only in a
    /// Free operation.
    Leap,
}

/// A decision of a seat or an outcome of a chance event.
///
/// Squares are `y * 8 + x` (a1 = 0, h8 = 63); `held` names the lower agent of a
/// square (`/2` in notation) rather than its top.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ThreeWillMove {
    /// The die shows this face, 1..=6 (`1` … `6`).
    Face(u8),
    /// The stacking throw repeats the directive's face (`hit`).
    Hit,
    /// The stacking throw shows another face (`miss`).
    Miss,
    /// A step of the active agent on `from` to `to`.
    Step {
        /// The mover's square.
        from: u8,
        /// The target square (after wrapping, for a leap or a wrapped attempt).
        to: u8,
        /// Plain move, stacking attempt or leap.
        kind: StepKind,
    },
    /// End the turn without moving (`pass`).
    Pass,
    /// Spend a Free card on a Free operation (`free`).
    Free,
    /// End the turn after a plain move (`done`).
    Done,
    /// The challenger picks an agent in the winning context (`pick:e8`, `pick:e8/2`).
    Pick {
        /// Its square.
        sq: u8,
        /// Whether it is the held agent of that square.
        held: bool,
    },
    /// The revealed card lets the victory stand (`stands`).
    Stands,
    /// The revealed card makes this challenger agent the picked agent's twin: the two
    /// swap places (`twin:c5`, `twin:c5/2`).
    Twin {
        /// Its square.
        sq: u8,
        /// Whether it is the held agent of that square.
        held: bool,
    },
}

/// Code layout: small codes for the plain words and faces, then picks (16..144), twins
/// (144..272) and steps from 512 (kind × 4096 + from × 64 + to).
const PICK: u32 = 16;
const TWIN: u32 = 144;
const STEP: u32 = 512;

impl Move for ThreeWillMove {
    fn pack(self) -> u32 {
        let slot = |sq: u8, held: bool| u32::from(sq) * 2 + u32::from(held);
        match self {
            ThreeWillMove::Face(f) => u32::from(f),
            ThreeWillMove::Hit => 7,
            ThreeWillMove::Miss => 8,
            ThreeWillMove::Pass => 9,
            ThreeWillMove::Free => 10,
            ThreeWillMove::Done => 11,
            ThreeWillMove::Stands => 12,
            ThreeWillMove::Pick { sq, held } => PICK + slot(sq, held),
            ThreeWillMove::Twin { sq, held } => TWIN + slot(sq, held),
            ThreeWillMove::Step { from, to, kind } => {
                STEP + kind as u32 * 4096 + u32::from(from) * 64 + u32::from(to)
            }
        }
    }

    fn unpack(code: u32) -> Option<Self> {
        let slot = |c: u32| ((c / 2) as u8, c % 2 == 1);
        Some(match code {
            1..=6 => ThreeWillMove::Face(code as u8),
            7 => ThreeWillMove::Hit,
            8 => ThreeWillMove::Miss,
            9 => ThreeWillMove::Pass,
            10 => ThreeWillMove::Free,
            11 => ThreeWillMove::Done,
            12 => ThreeWillMove::Stands,
            c if (PICK..TWIN).contains(&c) => {
                let (sq, held) = slot(c - PICK);
                ThreeWillMove::Pick { sq, held }
            }
            c if (TWIN..TWIN + 128).contains(&c) => {
                let (sq, held) = slot(c - TWIN);
                ThreeWillMove::Twin { sq, held }
            }
            c if (STEP..STEP + 3 * 4096).contains(&c) => {
                let r = c - STEP;
                let kind = [StepKind::Plain, StepKind::Stack, StepKind::Leap][(r / 4096) as usize];
                ThreeWillMove::Step {
                    from: (r % 4096 / 64) as u8,
                    to: (r % 64) as u8,
                    kind,
                }
            }
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pack_round_trips() {
        let mut all = vec![
            ThreeWillMove::Hit,
            ThreeWillMove::Miss,
            ThreeWillMove::Pass,
            ThreeWillMove::Free,
            ThreeWillMove::Done,
            ThreeWillMove::Stands,
        ];
        all.extend((1..=6).map(ThreeWillMove::Face));
        for sq in 0..64 {
            for held in [false, true] {
                all.push(ThreeWillMove::Pick { sq, held });
                all.push(ThreeWillMove::Twin { sq, held });
            }
            for to in 0..64 {
                for kind in [StepKind::Plain, StepKind::Stack, StepKind::Leap] {
                    all.push(ThreeWillMove::Step { from: sq, to, kind });
                }
            }
        }
        let mut codes: Vec<u32> = all.iter().map(|m| m.pack()).collect();
        for m in &all {
            assert_eq!(ThreeWillMove::unpack(m.pack()), Some(*m));
        }
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), all.len());
        assert_eq!(ThreeWillMove::unpack(0), None);
        assert_eq!(ThreeWillMove::unpack(13), None);
    }
}
