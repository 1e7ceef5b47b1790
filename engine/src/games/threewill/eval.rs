//! A heuristic evaluator for 3Will: progress towards three locked agents, mobility,
//! held enemies and cards.
//!
//! For each side: each of its agents is worth something by its place (a locked agent
//! most, an active one more the nearer its objective row; a held one nothing, it cannot
//! move), the best three in full (the primary victory needs three) and the others at a
//! quarter; then its active agents (the supplementary victory is the enemy having
//! none), enemy agents it holds under its own tops, and its cards (DR cards buy
//! stacking attempts, Free cards extra operations). The value is one side's total minus
//! the other's, so it is antisymmetric between the seats.

use crate::eval::Evaluator;
use crate::game::Seat;

use super::board::{colour_of, enemy, objective_row, Board};

use super::moves::{StepKind, ThreeWillMove};
use super::ThreeWillState;

/// Score of a won game; heuristic scores stay strictly inside `(-WIN, WIN)`.
pub const WIN: i32 = 10_000;
/// Worth of one agent by its place: locked on its objective row, or an active top
/// `d` rows from it (index `d`, 1..=7; index 0 unused). Progress is worth more the
/// nearer the row, since the last rows are the ones a roll can finish.
const LOCKED: i32 = 400;
const PROGRESS: [i32; 8] = [0, 200, 120, 75, 45, 25, 12, 5];
/// Per active agent.
const ACTIVE: i32 = 20;
/// Per enemy agent held under one of the side's tops.
const HELD_ENEMY: i32 = 30;
/// Per DR card and per Free card.
const DR_CARD: i32 = 10;
const FREE_CARD: i32 = 15;

/// The evaluator (see the module docs).
#[derive(Clone, Copy, Debug, Default)]
pub struct ThreeWillEval;

/// One side's heuristic total: the three best agent worths in full (three locked
/// agents win), the others' at a quarter, plus mobility, held enemies and cards. At
/// most 3·400 + 5·200/4 + 8·20 + 8·30 + 8·15 = 1970, so a difference of two stays
/// inside `(-WIN, WIN)`.
///
/// It works a row at a time (a byte mask per row, see [`Board::row_masks`]): the worth
/// of an agent depends only on its row, and worths fall strictly with the distance to
/// the objective row, so the best three are taken from the nearest rows first. Greedy
/// playouts call this for every move they weigh, so it is most of their cost.
fn side_score(s: &ThreeWillState, seat: Seat) -> i32 {
    let b: &Board = s.board();
    let c = colour_of(seat);
    let row = objective_row(c);
    // Agents by worth: index 0 locked, index d an active top d rows from the objective.
    let mut by_worth = [0u32; 8];
    by_worth[0] = b.locked_count(c);
    let (mut active, mut held_enemy) = (0, 0);
    for y in (0..8u8).filter(|&y| y != row) {
        let own = b.row_masks(y, c);
        let enemy_held = b.row_masks(y, enemy(c)).helds;
        by_worth[usize::from(row.abs_diff(y))] += own.tops.count_ones();
        active += own.tops.count_ones() as i32;
        held_enemy += (own.tops & enemy_held).count_ones() as i32;
    }
    let worth = |d: usize| if d == 0 { LOCKED } else { PROGRESS[d] };
    let (mut best, mut total, mut slots) = (0, 0, 3u32);
    for (d, &n) in by_worth.iter().enumerate() {
        let full = n.min(slots);
        slots -= full;
        best += full as i32 * worth(d);
        total += n as i32 * worth(d);
    }
    best + (total - best) / 4
        + active * ACTIVE
        + held_enemy * HELD_ENEMY
        + i32::from(s.dr_cards(seat)) * DR_CARD
        + i32::from(s.free_cards(seat)) * FREE_CARD
}

impl Evaluator<ThreeWillState> for ThreeWillEval {
    fn heuristic(&self, s: &ThreeWillState, seat: Seat) -> i32 {
        (side_score(s, seat) - side_score(s, 1 - seat)).clamp(1 - WIN, WIN - 1)
    }

    fn bounds(&self) -> (i32, i32) {
        (-WIN, WIN)
    }

    /// Ordering only: a step that locks an agent first, then a stacking attempt onto an
    /// enemy standing on the mover's objective row (a hit locks the mover and buries a
    /// blocker), `free`, forward steps (the nearer the objective, the earlier), other
    /// attempts on enemies, `done`, sideways steps, backward steps (the rearmost agent's
    /// first: it loses least), attempts onto the mover's own agents, `pass`.
    fn move_hint(&self, s: &ThreeWillState, m: ThreeWillMove) -> u8 {
        let c = colour_of(s.mover());
        let row = i32::from(objective_row(c));
        let distance = |sq: u8| (row - i32::from(sq / 8)).unsigned_abs() as u8;
        match m {
            ThreeWillMove::Step { from, to, kind } => {
                let (before, after) = (distance(from), distance(to));
                let top = s.board().top(to);
                match kind {
                    StepKind::Stack if top == enemy(c) && after == 0 => 220,
                    StepKind::Stack if top == enemy(c) => 110,
                    StepKind::Stack => 30,
                    _ if after == 0 => 250,
                    _ if after < before => 140 + 8 * (7 - after),
                    _ if after == before => 100,
                    _ => 40 + 5 * before,
                }
            }
            ThreeWillMove::Free => 150,
            ThreeWillMove::Done => 105,
            _ => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::games::threewill::board::locked;
    use crate::games::threewill::ThreeWill;
    use crate::{play_moves, sample_outcome, Game, State, Turn};

    /// The side's total square by square, as the module docs define it, without row
    /// masks: the reference the row-at-a-time [`side_score`] must equal.
    fn reference_side_score(s: &ThreeWillState, seat: Seat) -> i32 {
        let b: &Board = s.board();
        let c = colour_of(seat);
        let row = i32::from(objective_row(c));
        let mut best = [0i32; 3];
        let mut rest = 0;
        let mut active = 0;
        let mut held_enemy = 0;
        for sq in 0..64u8 {
            let y = i32::from(sq / 8);
            let (top, held) = (b.top(sq), b.held(sq));
            let mut worth = |w: i32| {
                if w > best[2] {
                    rest += best[2];
                    best[2] = w;
                    best.sort_unstable_by(|x, y| y.cmp(x));
                } else {
                    rest += w;
                }
            };
            if locked(c, sq) {
                let n = i32::from(top == c) + i32::from(held == c);
                for _ in 0..n {
                    worth(LOCKED);
                }
                continue;
            }
            if top == c {
                active += 1;
                worth(PROGRESS[(row - y).unsigned_abs() as usize]);
                if held == enemy(c) {
                    held_enemy += 1;
                }
            }
        }
        best.iter().sum::<i32>()
            + rest / 4
            + active * ACTIVE
            + held_enemy * HELD_ENEMY
            + i32::from(s.dr_cards(seat)) * DR_CARD
            + i32::from(s.free_cards(seat)) * FREE_CARD
    }

    #[test]
    fn the_row_masks_score_what_the_square_by_square_reference_scores() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut positions = 0;
        for _ in 0..40 {
            let mut s = ThreeWill::default().initial_state();
            while s.turn() != Turn::Over {
                for seat in 0..2 {
                    assert_eq!(side_score(&s, seat), reference_side_score(&s, seat), "{s}");
                }
                positions += 1;
                let m = match s.turn() {
                    Turn::Chance => sample_outcome(&s, &mut rng),
                    _ => {
                        let mut moves = Vec::new();
                        s.legal_moves(&mut moves);
                        moves[rng.random_range(0..moves.len())]
                    }
                };
                s.apply(m);
            }
        }
        assert!(positions > 10_000, "{positions}");
    }

    #[test]
    fn start_is_even_and_progress_counts() {
        let mut s = ThreeWill::default().initial_state();
        assert_eq!(ThreeWillEval.evaluate(&s, 0), 0);
        play_moves(&mut s, "1 c2-c3").unwrap();
        // One agent a row nearer: from 6 rows to go to 5, among White's best three.
        let gain = PROGRESS[5] - PROGRESS[6];
        assert_eq!(ThreeWillEval.evaluate(&s, 0), gain);
        assert_eq!(ThreeWillEval.evaluate(&s, 1), -gain);
    }
}
