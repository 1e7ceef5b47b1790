//! 3Will's move generation: the steps of an operation under a directive (with the
//! wrap of a Free operation across a side edge), the agents a challenger may pick, and
//! the legality check behind `try_apply`.

use crate::bits::Cells;
use crate::game::{Seat, State, Turn};

use super::board::{self, colour_of, enemy, locked, objective_row, white_steps, EMPTY, WHITE};
use super::moves::{StepKind, ThreeWillMove};
use super::ThreeWillState;

impl ThreeWillState {
    /// Whether the mover can pay for a stacking attempt (a DR card, or a bank card to
    /// hand over as a Free card).
    #[inline]
    fn can_pay(&self) -> bool {
        self.dr[self.mover] > 0 || self.bank() > 0
    }

    /// The target of a step from `sq` by `(dx, dy)` (already oriented for the mover):
    /// `Some((to, wrapped))`, wrapping across a side edge only if `wrap`.
    #[inline]
    fn step_target(sq: u8, (dx, dy): (i8, i8), wrap: bool) -> Option<(u8, bool)> {
        let x = (sq % 8) as i8 + dx;
        let y = (sq / 8) as i8 + dy;
        if !(0..board::SIZE).contains(&y) {
            return None;
        }
        if (0..board::SIZE).contains(&x) {
            Some((y as u8 * 8 + x as u8, false))
        } else if wrap {
            Some((y as u8 * 8 + x.rem_euclid(board::SIZE) as u8, true))
        } else {
            None
        }
    }

    /// The mover's operations under directive `face`; `pass` when no (non-leap) plain
    /// move exists.
    pub(super) fn operations(&self, free_op: bool, face: u8, out: &mut Vec<ThreeWillMove>) {
        let c = colour_of(self.mover);
        let sign: i8 = if c == WHITE { 1 } else { -1 };
        let can_pay = self.can_pay();
        let mut plain = false;
        // The mover's active agents in square order: row by row, skipping the objective
        // row (agents there are locked), each row's tops of colour `c` read as one mask.
        for y in (0..board::SIZE as u8).filter(|&y| y != objective_row(c)) {
            for bit in Cells(self.board.row_masks(y, c).tops) {
                let from = y * 8 + (bit / 8) as u8;
                debug_assert!(self.board.top(from) == c && !locked(c, from));
                for &(dx, dy) in white_steps(face) {
                    let Some((to, wrapped)) =
                        Self::step_target(from, (dx * sign, dy * sign), free_op)
                    else {
                        continue;
                    };
                    let top = self.board.top(to);
                    let kind = if top == EMPTY {
                        plain |= !wrapped;
                        if wrapped {
                            StepKind::Leap
                        } else {
                            StepKind::Plain
                        }
                    } else if can_pay && !locked(top, to) {
                        StepKind::Stack
                    } else {
                        continue;
                    };
                    out.push(ThreeWillMove::Step { from, to, kind });
                }
            }
        }
        if !plain {
            out.push(ThreeWillMove::Pass);
        }
    }

    /// Calls `f(square, held)` for each agent the challenger may pick when `claimant`
    /// declares victory, in square order, top before held: the claimant's agents on its
    /// objective row if it has `locks_to_win` locked, and its agents holding an enemy
    /// agent if the enemy has no active agent.
    pub(super) fn for_each_pick(&self, claimant: Seat, mut f: impl FnMut(u8, bool)) {
        let c = colour_of(claimant);
        let primary = self.board.locked_count(c) >= self.rules.locks_to_win();
        let supplementary = !self.board.has_active(enemy(c));
        let row = objective_row(c);
        for sq in 0..64u8 {
            let (top, held) = (self.board.top(sq), self.board.held(sq));
            let on_row = primary && sq / 8 == row;
            if (on_row && top == c) || (supplementary && top == c && held == enemy(c)) {
                f(sq, false);
            }
            if on_row && held == c {
                f(sq, true);
            }
        }
    }

    /// Whether `m` is legal here (for `debug_assert!` and `try_apply`).
    pub(super) fn is_legal(&self, m: ThreeWillMove) -> bool {
        let mut v = Vec::new();
        match self.turn() {
            Turn::Over => false,
            Turn::Chance => {
                let mut o = Vec::new();
                self.chance_outcomes(&mut o);
                o.iter().any(|&(x, _)| x == m)
            }
            Turn::Seat(_) => {
                self.legal_moves(&mut v);
                v.contains(&m)
            }
        }
    }
}
