//! 3Will's board drawing: the [`Display`](fmt::Display) of a position.

use std::fmt;

use crate::game::{End, Outcome, Seat, State};

use super::board::{locked, EMPTY};
use super::{notation, Phase, ThreeWillState};

impl fmt::Display for ThreeWillState {
    /// The board from row 8 down (each square `.`, `W`, `B`, or top/held such as
    /// `W/B`; a `!` marks a locked top), then one line with the cards, the challenge,
    /// the turn count and what happens next.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = |c: u8| ['.', 'W', 'B'][c as usize];
        for y in (0..8u8).rev() {
            write!(f, "{} ", y + 1)?;
            for x in 0..8u8 {
                let sq = y * 8 + x;
                let (top, held) = (self.board.top(sq), self.board.held(sq));
                let lock = if locked(top, sq) { '!' } else { ' ' };
                if held == EMPTY {
                    write!(f, " {}{lock}  ", name(top))?;
                } else {
                    write!(f, " {}/{}{lock}", name(top), name(held))?;
                }
            }
            writeln!(f)?;
        }
        writeln!(f, "   a    b    c    d    e    f    g    h")?;
        write!(
            f,
            "white DR {} free {} | black DR {} free {} | bank {} | challenge {} | turn {} of {} | ",
            self.dr[0],
            self.free[0],
            self.dr[1],
            self.free[1],
            self.bank(),
            if self.challenge_used { "made" } else { "open" },
            self.turns,
            self.rules.max_turns
        )?;
        let who = |s: Seat| format!("{} (seat {s})", self.side(s));
        match self.phase {
            Phase::Roll { free_op } => write!(
                f,
                "{} rolls{}",
                who(self.mover),
                if free_op { " for a Free operation" } else { "" }
            ),
            Phase::Operate { free_op, face } => write!(
                f,
                "{} operates under directive {face}{}",
                who(self.mover),
                if free_op { " (Free operation)" } else { "" }
            ),
            Phase::Throw { from, to } => write!(
                f,
                "{} throws for {}*{}",
                who(self.mover),
                notation::square(from),
                notation::square(to)
            ),
            Phase::FreeChoice => write!(f, "{} decides free or done", who(self.mover)),
            Phase::Pick { claimant, .. } => {
                write!(
                    f,
                    "{} declares victory; {} picks",
                    who(claimant),
                    who(1 - claimant)
                )
            }
            Phase::Reveal { claimant, .. } => {
                write!(
                    f,
                    "{}'s victory is challenged: the card is revealed",
                    who(claimant)
                )
            }
            Phase::Over {
                end:
                    End {
                        outcome: Outcome::Win(w),
                        reason,
                        ..
                    },
            } => write!(f, "{} wins ({reason})", who(w)),
            Phase::Over { .. } => write!(f, "draw at the turn cap"),
        }
    }
}
