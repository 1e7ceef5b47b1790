//! A heuristic evaluator for 3Will: progress towards three locked agents, mobility,
//! held enemies and cards.
//!
//! For each side: each of its agents is worth something by its place (a locked agent
//! most, an active one more the nearer its objective row; a held one nothing, it cannot
//! move), the best `locks_to_win` in full (the primary victory needs that many locked,
//! three in the rulebook game) and the others at a quarter; then its active agents (the
//! supplementary victory is the enemy having none), enemy agents it holds under its own
//! tops, and its cards (DR cards buy stacking attempts, Free cards extra operations).
//! The value is one side's total minus the other's, so it is antisymmetric between the
//! seats.

use crate::declare_weights;
use crate::eval::Evaluator;
use crate::game::{Seat, State};
use crate::weights::{Terms, WeightedEval};

use super::board::{colour_of, enemy, objective_row, Board};

use super::moves::{StepKind, ThreeWillMove};
use super::{Phase, ThreeWillState, MAX_CARDS};

declare_weights! {
    /// The weights of [`ThreeWillEval`].
    pub struct ThreeWillWeights {
        /// one agent locked on its objective row
        locked: i32 = 400, 0..=4000;
        /// one active top 1, 2, ..., 7 rows from its objective row (`progress_1` = one row)
        progress: [i32; 7] = [200, 120, 75, 45, 25, 12, 5], 0..=2000;
        /// per active agent
        active: i32 = 20, 0..=200;
        /// per enemy agent held under one of the side's tops
        held_enemy: i32 = 30, 0..=300;
        /// per Double Risk card
        dr_card: i32 = 10, 0..=100;
        /// per Free card
        free_card: i32 = 15, 0..=150;
        /// a Free operation the side has bought and not yet made (the extra move's worth)
        free_operation: i32 = 0, 0..=400;
        /// 1: a pending stacking throw scores the mean of its hit and miss (0: as it stands)
        throw_mean: i32 = 0, 0..=1;
    }
}

/// The least score of a won game, kept whatever the weights (search results and MCTS
/// leaf values are scaled by it, so the default weights play as they always did).
pub const WIN: i32 = 10_000;

/// The evaluator (see the module docs).
pub type ThreeWillEval = WeightedEval<ThreeWillTerms>;

/// What [`ThreeWillEval`] precomputes from its weights.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ThreeWillTerms {
    /// Worth of one agent by its place: locked (index 0), or an active top `d` rows
    /// from its objective row (index `d`).
    worth: [i32; 8],
    /// The places by falling worth (ties in place order): the order in which the best
    /// `locks_to_win` agents are taken. With the default weights, nearest rows first.
    best_first: [usize; 8],
}

impl ThreeWillEval {
    /// One side's heuristic total: the `locks_to_win` best agent worths in full (that
    /// many locked agents win), the others' at a quarter, plus mobility, held enemies
    /// and cards.
    ///
    /// It works a row at a time (a byte mask per row, see [`Board::row_masks`]): the
    /// worth of an agent depends only on its row, so agents are counted by place and
    /// the best `locks_to_win` taken from the places of highest worth first. Greedy
    /// playouts call this for every move they weigh, so it is most of their cost.
    fn side_score(&self, s: &ThreeWillState, seat: Seat) -> i32 {
        let w = self.weights();
        let b: &Board = s.board();
        let c = colour_of(seat);
        let row = objective_row(c);
        // Agents by place: index 0 locked, index d an active top d rows from the
        // objective.
        let mut by_place = [0u32; 8];
        by_place[0] = b.locked_count(c);
        let (mut active, mut held_enemy) = (0, 0);
        for y in (0..8u8).filter(|&y| y != row) {
            let own = b.row_masks(y, c);
            let enemy_held = b.row_masks(y, enemy(c)).helds;
            by_place[usize::from(row.abs_diff(y))] += own.tops.count_ones();
            active += own.tops.count_ones() as i32;
            held_enemy += (own.tops & enemy_held).count_ones() as i32;
        }
        let (mut best, mut total, mut slots) = (0, 0, s.rules().locks_to_win());
        let terms = self.terms();
        for &d in &terms.best_first {
            let n = by_place[d];
            let full = n.min(slots);
            slots -= full;
            best += full as i32 * terms.worth[d];
            total += n as i32 * terms.worth[d];
        }
        best + (total - best) / 4
            + active * w.active
            + held_enemy * w.held_enemy
            + i32::from(s.dr_cards(seat)) * w.dr_card
            + i32::from(s.free_cards(seat)) * w.free_card
            + self.free_operation_due(s, seat)
    }

    /// [`ThreeWillWeights::free_operation`] if `seat` has spent a Free card and not yet
    /// made the operation it bought, else 0.
    fn free_operation_due(&self, s: &ThreeWillState, seat: Seat) -> i32 {
        match s.phase() {
            Phase::Roll { free_op: true } | Phase::Operate { free_op: true, .. }
                if s.mover() == seat =>
            {
                self.weights().free_operation
            }
            _ => 0,
        }
    }

    /// The weighted mean of the evaluations after the pending stacking throw's hit and
    /// miss, rounded towards zero, so that it stays antisymmetric between the seats and
    /// strictly inside the bounds (a miss is never a finished game, and a throw always
    /// has a miss). The outcomes come as an array, not a list on the heap: greedy
    /// playouts evaluate here for every stacking attempt they weigh.
    fn throw_mean(&self, s: &ThreeWillState, seat: Seat) -> i32 {
        let (mut sum, mut total) = (0i64, 0i64);
        for (outcome, weight) in s.throw_outcomes() {
            let mut after = *s;
            after.apply(outcome);
            sum += i64::from(weight) * i64::from(self.evaluate(&after, seat));
            total += i64::from(weight);
        }
        (sum / total) as i32
    }
}

impl Terms for ThreeWillTerms {
    type State = ThreeWillState;
    type Weights = ThreeWillWeights;

    fn from_weights(weights: &ThreeWillWeights) -> Self {
        let mut worth = [weights.locked; 8];
        worth[1..].copy_from_slice(&weights.progress);
        let mut best_first = [0, 1, 2, 3, 4, 5, 6, 7];
        best_first.sort_by_key(|&d| std::cmp::Reverse(worth[d]));
        ThreeWillTerms { worth, best_first }
    }

    /// The win score is [`WIN`] or, for larger weights, one more than the most a side's
    /// total can be under any rules the knobs allow (the other side's is never
    /// negative, since no weight is): of its at most eight agents at most eight count in
    /// full (`locks_to_win` of them, the rest at a quarter), each at most the largest
    /// worth; at most eight are active and eight enemies held; a side holds at most
    /// the [`MAX_CARDS`] of the game with the most cards. With the defaults that is
    /// 3,900.
    fn win(&self, w: &ThreeWillWeights) -> i32 {
        let largest = self.worth.iter().copied().max().unwrap_or(0);
        let most = 8 * (largest + w.active + w.held_enemy)
            + i32::from(MAX_CARDS) * w.dr_card.max(w.free_card)
            + w.free_operation;
        WIN.max(most + 1)
    }

    fn heuristic(eval: &ThreeWillEval, s: &ThreeWillState, seat: Seat) -> i32 {
        if eval.weights().throw_mean != 0 && matches!(s.phase(), Phase::Throw { .. }) {
            return eval.throw_mean(s, seat);
        }
        eval.side_score(s, seat) - eval.side_score(s, 1 - seat)
    }

    /// Ordering only: a step that locks an agent first, then a stacking attempt onto an
    /// enemy standing on the mover's objective row (a hit locks the mover and buries a
    /// blocker), `free`, forward steps (the nearer the objective, the earlier), other
    /// attempts on enemies, `done`, sideways steps, backward steps (the rearmost agent's
    /// first: it loses least), attempts onto the mover's own agents, `pass`.
    fn move_hint(_: &ThreeWillEval, s: &ThreeWillState, m: ThreeWillMove) -> u8 {
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
    use crate::eval::Evaluator;
    use crate::games::threewill::board::locked;
    use crate::games::threewill::ThreeWill;
    use crate::testing::extreme_weights::extreme_settings;
    use crate::weights::Tunable;
    use crate::{play_moves, sample_outcome, Game, State, Turn};

    /// The side's total square by square, as the module docs define it, without row
    /// masks: the reference the row-at-a-time [`side_score`] must equal.
    fn reference_side_score(e: &ThreeWillEval, s: &ThreeWillState, seat: Seat) -> i32 {
        let w = e.weights();
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
                    worth(w.locked);
                }
                continue;
            }
            if top == c {
                active += 1;
                worth(w.progress[(row - y).unsigned_abs() as usize - 1]);
                if held == enemy(c) {
                    held_enemy += 1;
                }
            }
        }
        let bought = match s.phase() {
            Phase::Roll { free_op } | Phase::Operate { free_op, .. } => {
                free_op && s.mover() == seat
            }
            _ => false,
        };
        best.iter().sum::<i32>()
            + rest / 4
            + active * w.active
            + held_enemy * w.held_enemy
            + i32::from(s.dr_cards(seat)) * w.dr_card
            + i32::from(s.free_cards(seat)) * w.free_card
            + i32::from(bought) * w.free_operation
    }

    #[test]
    fn the_row_masks_score_what_the_square_by_square_reference_scores() {
        // The default weights, and the extremes, whose worths do not fall with the
        // distance (all equal, or alternating).
        let evaluators: Vec<ThreeWillEval> = std::iter::once(ThreeWillWeights::default())
            .chain(extreme_settings::<ThreeWillWeights>())
            .map(ThreeWillEval::with_weights)
            .collect();
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut positions = 0;
        for _ in 0..40 {
            let mut s = ThreeWill::default().initial_state();
            while s.turn() != Turn::Over {
                for (e, seat) in evaluators.iter().flat_map(|e| [(e, 0), (e, 1)]) {
                    let reference = reference_side_score(e, &s, seat);
                    assert_eq!(e.side_score(&s, seat), reference, "{e:?} {s}");
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
        let e = ThreeWillEval::default();
        assert_eq!(e.evaluate(&s, 0), 0);
        play_moves(&mut s, "1 c2-c3").unwrap();
        // One agent a row nearer: from 6 rows to go to 5, among White's best three.
        let gain = e.weights().progress[4] - e.weights().progress[5];
        assert_eq!(e.evaluate(&s, 0), gain);
        assert_eq!(e.evaluate(&s, 1), -gain);
    }

    #[test]
    fn a_bought_free_operation_is_worth_its_weight_to_the_mover_alone() {
        let knobs = super::super::Knobs {
            black_free_cards: 1,
            ..Default::default()
        };
        let mut s = ThreeWill::with_knobs(400, knobs).unwrap().initial_state();
        play_moves(&mut s, "1 c2-c3 1 c7-c6").unwrap();
        assert_eq!(s.phase(), Phase::FreeChoice);
        let weights = ThreeWillWeights {
            free_operation: 70,
            ..Default::default()
        };
        let (with, without) = (
            ThreeWillEval::with_weights(weights),
            ThreeWillEval::default(),
        );
        assert_eq!(with.evaluate(&s, 1), without.evaluate(&s, 1));
        let before = with.evaluate(&s, 1);
        // `free` spends the card and buys the operation: through its roll and up to
        // the move it pays for, Black is worth 70 more than without the term.
        for moves in ["free", "1"] {
            play_moves(&mut s, moves).unwrap();
            assert_eq!(with.evaluate(&s, 1), without.evaluate(&s, 1) + 70, "{s}");
            assert_eq!(with.evaluate(&s, 0), -with.evaluate(&s, 1));
        }
        assert_eq!(with.evaluate(&s, 1), before - 15 + 70);
        play_moves(&mut s, "c6-c5").unwrap();
        assert_eq!(with.evaluate(&s, 1), without.evaluate(&s, 1));
    }

    #[test]
    fn a_pending_throw_scores_the_mean_of_its_hit_and_miss_when_asked() {
        let mut s = ThreeWill::default().initial_state();
        // The c-file agents walk towards each other, then White attempts to stack.
        play_moves(&mut s, "1 c2-c3 1 c7-c6 1 c3-c4 1 c6-c5 1 c4*c5").unwrap();
        assert!(matches!(s.phase(), Phase::Throw { .. }));
        let mean = ThreeWillEval::with_weights(ThreeWillWeights {
            throw_mean: 1,
            ..Default::default()
        });
        let plain = ThreeWillEval::default();
        let after = |outcome: &str| {
            let mut t = s;
            play_moves(&mut t, outcome).unwrap();
            plain.evaluate(&t, 0)
        };
        let (hit, miss) = (after("hit"), after("miss"));
        assert_ne!(hit, miss);
        assert_eq!(mean.evaluate(&s, 0), (hit + 5 * miss) / 6);
        assert_eq!(mean.evaluate(&s, 1), -mean.evaluate(&s, 0));
        // As it stands, the card is spent and nothing moved: the miss's score.
        assert_eq!(plain.evaluate(&s, 0), miss);
        // Elsewhere the flag changes nothing.
        let mut t = s;
        play_moves(&mut t, "miss").unwrap();
        assert_eq!(mean.evaluate(&t, 0), plain.evaluate(&t, 0));
    }

    #[test]
    fn bounds_hold_at_extreme_weights() {
        crate::testing::extreme_weights::check_evaluator_at_extreme_weights::<_, ThreeWillEval>(
            &ThreeWill::default().initial_state(),
            20,
            1,
        )
        .unwrap();
    }
}
