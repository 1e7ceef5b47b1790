//! A heuristic evaluator for 3Will: progress towards three locked agents, mobility,
//! held enemies and cards.
//!
//! For each side: its locked agents (counted up to the three that win) weigh most;
//! then the three unlocked agents of its colour nearest their objective row, by
//! remaining rows (the primary victory needs three, so the others matter less); its
//! active agents (the supplementary victory is the enemy having none); enemy agents it
//! holds under its own tops; and its cards (DR cards buy stacking attempts, Free cards
//! extra operations). The value is one side's total minus the other's, so it is
//! antisymmetric between the seats.

use crate::eval::Evaluator;
use crate::game::{Outcome, Seat, State};

use super::board::{colour_of, enemy, locked, objective_row, Board};
use super::ThreeWillState;

/// Score of a won game; heuristic scores stay strictly inside `(-WIN, WIN)`.
pub const WIN: i32 = 10_000;
/// Per locked agent, up to three.
const LOCKED: i32 = 400;
/// Per row an agent among the three nearest still has to go (at most 7).
const ROW: i32 = 30;
/// Per active agent.
const ACTIVE: i32 = 25;
/// Per enemy agent held under one of the side's tops.
const HELD_ENEMY: i32 = 30;
/// Per DR card and per Free card.
const DR_CARD: i32 = 10;
const FREE_CARD: i32 = 15;

/// The evaluator (see the module docs).
#[derive(Clone, Copy, Debug, Default)]
pub struct ThreeWillEval;

/// One side's heuristic total; at most 3·400 + 8·25 + 8·30 + 8·15 = 1760, so a
/// difference of two stays inside `(-WIN, WIN)`.
fn side_score(s: &ThreeWillState, seat: Seat) -> i32 {
    let b: &Board = s.board();
    let c = colour_of(seat);
    let row = i32::from(objective_row(c));
    let locked_n = b.locked_count(c).min(3) as i32;
    // Remaining rows of the unlocked agents of colour c, three smallest.
    let mut nearest = [8i32; 3];
    let mut active = 0;
    let mut held_enemy = 0;
    for sq in 0..64u8 {
        let y = i32::from(sq / 8);
        for (agent, is_top) in [(b.top(sq), true), (b.held(sq), false)] {
            if agent != c || locked(c, sq) {
                continue;
            }
            let d = (row - y).abs();
            if d < nearest[2] {
                nearest[2] = d;
                nearest.sort_unstable();
            }
            if is_top {
                active += 1;
            }
        }
        if b.top(sq) == c && b.held(sq) == enemy(c) {
            held_enemy += 1;
        }
    }
    // Slots filled by locked agents need no distance.
    let distance: i32 = nearest[..(3 - locked_n) as usize].iter().map(|&d| d.min(7)).sum();
    locked_n * LOCKED - distance * ROW
        + active * ACTIVE
        + held_enemy * HELD_ENEMY
        + i32::from(s.dr_cards(seat)) * DR_CARD
        + i32::from(s.free_cards(seat)) * FREE_CARD
}

impl Evaluator<ThreeWillState> for ThreeWillEval {
    fn evaluate(&self, s: &ThreeWillState, seat: Seat) -> i32 {
        if let Some(outcome) = s.outcome() {
            return match outcome {
                Outcome::Win(w) if w == seat => WIN,
                Outcome::Win(_) => -WIN,
                Outcome::Draw => 0,
            };
        }
        (side_score(s, seat) - side_score(s, 1 - seat)).clamp(1 - WIN, WIN - 1)
    }

    fn bounds(&self) -> (i32, i32) {
        (-WIN, WIN)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::threewill::ThreeWill;
    use crate::{play_moves, Game};

    #[test]
    fn start_is_even_and_progress_counts() {
        let mut s = ThreeWill::default().initial_state();
        assert_eq!(ThreeWillEval.evaluate(&s, 0), 0);
        play_moves(&mut s, "1 c2-c3").unwrap();
        // One agent a row nearer: +30 for White.
        assert_eq!(ThreeWillEval.evaluate(&s, 0), ROW);
        assert_eq!(ThreeWillEval.evaluate(&s, 1), -ROW);
    }
}
