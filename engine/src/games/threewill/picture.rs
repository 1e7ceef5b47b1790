//! 3Will's picture: the 8 × 8 squares with White's base at the bottom, agents as
//! discs (stars once locked), stacks bottom first, and the cards, directive and
//! challenge in the notes.

use std::fmt;

use crate::game::{End, EndReason, Outcome, Seat, State};
use crate::picture::{
    text, Cell, CellShape, Depict, Ground, Ink, Key, Mark, Picture, Piece, PieceShape, Symbol,
};

use super::board::{colour_of, locked, objective_row, BLACK, EMPTY, WHITE};
use super::notation::{agent, square};
use super::{Phase, ThreeWillMove, ThreeWillState};

/// The ink of an agent of `colour` ([`WHITE`] or [`BLACK`]).
fn ink(colour: u8) -> Ink {
    if colour == WHITE {
        Ink::White
    } else {
        Ink::Black
    }
}

/// The shape of an agent: a disc, or a star once it stands locked on its objective
/// row (it counts towards its side's victory and can no longer move).
fn shape(locked: bool) -> PieceShape {
    if locked {
        PieceShape::Star
    } else {
        PieceShape::Disc
    }
}

/// What die face `face` directs, from the mover's point of view.
fn directive(face: u8) -> &'static str {
    match face {
        1 => "straight forward",
        2 => "straight right",
        3 => "straight left",
        4 => "diagonal forward-right",
        5 => "diagonal forward-left",
        _ => "back: straight or either back diagonal",
    }
}

impl fmt::Display for ThreeWillState {
    /// The position's picture drawn as text with its legend ([`text::display`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        text::display(&self.picture(), f)
    }
}

impl Depict for ThreeWillState {
    /// Cells in square order from `a1` (square `y * 8 + x`), named as the notation names
    /// squares; each side's objective row is a zone in that side's ink. A square's
    /// agents are listed bottom first: the held agent (faded), then the top one, faded
    /// too when locked. A pending stacking throw is an arrow from the mover to the
    /// target with a ring on the target; a pending reveal rings the picked agent.
    fn picture(&self) -> Picture {
        let mut cells = Vec::with_capacity(64);
        let mut pieces = Vec::new();
        for sq in 0..64u8 {
            let row = sq / 8;
            let ground = if row == objective_row(WHITE) {
                Ground::Zone(Ink::White)
            } else if row == objective_row(BLACK) {
                Ground::Zone(Ink::Black)
            } else {
                Ground::Plain
            };
            cells.push(Cell {
                x: f32::from(sq % 8),
                y: f32::from(row),
                shape: CellShape::Square,
                name: square(sq),
                ground,
            });
            // Bottom first: the held agent, then the top one.
            let stack = [(self.board().held(sq), true), (self.board().top(sq), false)];
            for (colour, held) in stack.into_iter().filter(|&(c, _)| c != EMPTY) {
                let lock = locked(colour, sq);
                let piece = Piece::new(sq.into(), shape(lock), ink(colour));
                pieces.push(if held || lock {
                    piece.inactive()
                } else {
                    piece
                });
            }
        }
        let marks = match self.phase() {
            Phase::Throw { from, to } => vec![
                Mark::Arrow {
                    from: from.into(),
                    to: to.into(),
                    ink: ink(colour_of(self.mover())),
                },
                Mark::Pending { cell: to.into() },
            ],
            Phase::Reveal { sq, .. } => vec![Mark::Pending { cell: sq.into() }],
            _ => Vec::new(),
        };
        Picture {
            cells,
            pieces,
            marks,
            notes: self.notes(),
            legend: legend(),
        }
    }

    /// `"rolled 4: diagonal forward-right"`, `"the throw hits: c2 stacks onto c3"`,
    /// `"the throw misses: nothing moves"`, `"the card is revealed: the victory
    /// stands"` or `"the card is revealed: the picked agent's twin is c5; they swap
    /// places"`.
    fn event(&self, m: ThreeWillMove) -> String {
        match (m, self.phase()) {
            (ThreeWillMove::Face(f), _) => format!("rolled {f}: {}", directive(f)),
            (ThreeWillMove::Hit, Phase::Throw { from, to }) => format!(
                "the throw hits: {} stacks onto {}",
                square(from),
                square(to)
            ),
            (ThreeWillMove::Miss, _) => "the throw misses: nothing moves".to_string(),
            (ThreeWillMove::Stands, _) => "the card is revealed: the victory stands".to_string(),
            (ThreeWillMove::Twin { sq, held }, _) => format!(
                "the card is revealed: the picked agent's twin is {}; they swap places",
                agent(sq, held)
            ),
            _ => self.format_move(m),
        }
    }
}

impl ThreeWillState {
    /// `"white (seat 0)"`.
    fn who(&self, seat: Seat) -> String {
        format!("{} (seat {seat})", self.side(seat))
    }

    /// Each side's cards and locked agents, the bank, the challenge, the turn count,
    /// the directive while operating, and whose decision or which chance is next (or
    /// how the game ended).
    fn notes(&self) -> Vec<String> {
        let mut notes: Vec<String> = (0..2)
            .map(|s| {
                format!(
                    "{}: DR cards {}, Free cards {}, agents locked {} of {}",
                    self.who(s),
                    self.dr_cards(s),
                    self.free_cards(s),
                    self.board().locked_count(colour_of(s)),
                    self.rules().locks_to_win()
                )
            })
            .collect();
        notes.push(format!("cards in the bank: {}", self.bank()));
        notes.push(if self.challenge_used() {
            "challenge: made; a declared victory is final".to_string()
        } else {
            "challenge: open; the first declared victory is challenged".to_string()
        });
        let cap = self.rules().max_turns();
        let turns = self.turns_completed();
        if let Phase::Over { end } = self.phase() {
            // The turn that ended the game counts, finished or not.
            notes.push(format!("{} of {cap} turns played", self.turns()));
            notes.push(self.ending(end));
            return notes;
        }
        notes.push(format!("turn {} of {cap}", turns + 1));
        let mover = self.who(self.mover());
        if let Phase::Operate { face, .. } = self.phase() {
            notes.push(format!("directive {face}: {}", directive(face)));
        }
        notes.push(match self.phase() {
            Phase::Roll { free_op: false } => format!("{mover} is about to roll the die"),
            Phase::Roll { free_op: true } => {
                format!("{mover} is about to roll the die for a Free operation")
            }
            Phase::Operate { free_op, .. } => {
                let free = if free_op {
                    " (Free operation: the side edges wrap)"
                } else {
                    ""
                };
                format!("{mover} to operate under the directive{free}")
            }
            Phase::Throw { from, to } => format!(
                "{mover} throws for the stacking attempt {}*{}: it hits on the directive's face",
                square(from),
                square(to)
            ),
            Phase::FreeChoice => {
                format!("{mover} decides: free (spend a Free card on another operation) or done")
            }
            Phase::Pick { claimant, .. } => format!(
                "{} declares victory; {} challenges and picks an agent",
                self.who(claimant),
                self.who(1 - claimant)
            ),
            Phase::Reveal {
                claimant, sq, held, ..
            } => format!(
                "{}'s victory is challenged: the hidden card is revealed for the agent on {}",
                self.who(claimant),
                agent(sq, held)
            ),
            Phase::Over { .. } => unreachable!("handled above"),
        });
        notes
    }

    /// How the game ended, in words.
    fn ending(&self, end: End) -> String {
        match (end.outcome, end.reason) {
            (Outcome::Win(w), EndReason::Rule("objective")) => format!(
                "{} wins: {} of its agents locked on its objective row",
                self.who(w),
                ["one", "two", "three", "four", "five", "six", "seven", "eight"]
                    [self.rules().locks_to_win() as usize - 1]
            ),
            (Outcome::Win(w), _) => format!(
                "{} wins: {} has no active agent left",
                self.who(w),
                self.side(1 - w)
            ),
            (Outcome::Draw, _) => format!(
                "draw: the {}-turn cap was reached",
                self.rules().max_turns()
            ),
        }
    }
}

/// Both sides' agents (free and locked), the objective rows, the attempt arrows, the
/// pending ring and the faded style of an agent that cannot move; the same for every
/// position.
fn legend() -> Vec<Key> {
    let mut legend = Vec::new();
    for (seat, colour) in [WHITE, BLACK].into_iter().enumerate() {
        let side = ["white", "black"][seat];
        let row = objective_row(colour) + 1;
        let piece = |shape| Symbol::Piece {
            shape,
            ink: ink(colour),
            facing: false,
        };
        legend.push(Key::new(
            piece(PieceShape::Disc),
            format!("{side} agent (seat {seat})"),
        ));
        legend.push(Key::new(
            piece(PieceShape::Star),
            format!("{side} agent locked on its objective row {row}; counts to victory"),
        ));
        let other = ["black", "white"][seat];
        legend.push(Key::new(
            Symbol::Ground(Ground::Zone(ink(colour))),
            format!("row {row}: {side}'s objective, {other}'s base"),
        ));
        legend.push(Key::new(
            Symbol::Arrow(ink(colour)),
            format!("{side} stacking attempt awaiting its throw"),
        ));
    }
    legend.push(Key::new(
        Symbol::Pending,
        "chance pending: the stacking throw, or the card revealed for the picked agent",
    ));
    legend.push(Key::new(
        Symbol::Inactive,
        "faded: inactive, an agent held under another or locked on its objective row",
    ));
    legend
}
