//! A heuristic evaluator for APV, built on containment.
//!
//! A side wins by taking away the last empty neighbour (liberty) of the enemy Pivot, so
//! the evaluator looks at each Pivot's liberties and at how soon the other side can fill
//! them:
//!
//! - **liberties**: a Pivot with few liberties is close to being shut in; the penalty
//!   grows steeply as they run out (`danger`);
//! - **who fills them soonest**: each liberty of the enemy Pivot that one of our units
//!   reaches in one move is a threat (`fill_now`), one it reaches in two moves a
//!   threat in the making (`fill_soon`); a liberty our pending order will fill is
//!   nearly certain (`order_fill`). A Pivot whose every liberty can be filled next
//!   move is in real danger, so that case weighs extra (`all_covered`);
//! - **room**: empty cells two steps from the Pivot through an empty neighbour, where it
//!   can flee (`room`);
//! - **escape space**: every empty cell the Pivot can walk to in at most
//!   [`ESCAPE_STEPS`] steps over empty cells (`escape`). Shutting a Pivot in takes
//!   many turns in the open, and the terms above see only its last moves; this one
//!   rewards the attacker for each cell it takes out of the Pivot's reach on the way,
//!   so a side has a plan (crowd the enemy Pivot, keep its own in the open) long before
//!   a liberty can be filled;
//! - **mobility**: the number of primary moves (`mobility`), counted up to
//!   [`MOBILITY_COUNTED`], the most the rulebook's army can have (a larger army, which
//!   the knobs allow, gains nothing above it, so the win score stays the same).
//!
//! The weights are [`ApvWeights`]. Each term is computed for both sides and subtracted, so the value is antisymmetric.
//! No move is noisy: every move is a quiet displacement, and the search already sees
//! the immediate threats through the terms above.

use crate::bits::Cells;
use crate::declare_weights;
use crate::game::Seat;
use crate::weights::{Terms, WeightedEval};

use super::board::{Bitboard, GEO};
use super::moves::Unit;
use super::ApvState;

declare_weights! {
    /// The weights of [`ApvEval`].
    pub struct ApvWeights {
        /// penalty for one's own Pivot having 1, 2, ..., 6 liberties (`danger_1` = one)
        danger: [i32; 6] = [400, 160, 70, 30, 10, 0], 0..=4000;
        /// per enemy liberty one of our units can fill with its next move
        fill_now: i32 = 40, 0..=400;
        /// per enemy liberty one of our units can fill in two moves (and not one)
        fill_soon: i32 = 12, 0..=120;
        /// per enemy liberty our pending order will fill (if still legal when it fires)
        order_fill: i32 = 60, 0..=600;
        /// when we can fill each of the enemy Pivot's at most two liberties in one move
        all_covered: i32 = 150, 0..=1500;
        /// per empty cell the Pivot can reach in two steps
        room: i32 = 4, 0..=40;
        /// per empty cell the Pivot can walk to in at most `ESCAPE_STEPS` steps
        escape: i32 = 4, 0..=40;
        /// per primary move
        mobility: i32 = 2, 0..=20;
    }
}

/// The most primary moves the mobility term counts: the rulebook army's bound (a Pivot
/// 6, two Axes 24 each, four Veils and Turned Veils 6 each).
pub const MOBILITY_COUNTED: u32 = 6 + 2 * 24 + 4 * 6;

/// How many Pivot steps the escape space looks ahead.
pub const ESCAPE_STEPS: u32 = 3;

/// The least score of a won game, kept whatever the weights (search results and MCTS
/// leaf values are scaled by it, so the default weights play as they always did).
pub const WIN: i32 = 10_000;

/// Containment, room and mobility from a seat's point of view (see the module docs).
pub type ApvEval = WeightedEval<ApvTerms>;

/// What [`ApvEval`] precomputes from its weights.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ApvTerms {
    /// The penalty by number of liberties, 0..=6: `danger` with 0 for none (which only
    /// a finished game has).
    danger_by_liberties: [i32; 7],
}

/// What one side's units reach: per unit type, the union of their one-move targets.
struct Reach {
    by_type: [Bitboard; 4],
    all: Bitboard,
    moves: u32,
}

impl Reach {
    fn of(s: &ApvState, side: Seat, occupied: Bitboard) -> Reach {
        let mut by_type = [0; 4];
        let mut moves = 0;
        for unit in Unit::ALL {
            for from in Cells(s.units(side, unit)) {
                let t = unit.targets(from, occupied);
                moves += t.count_ones();
                by_type[unit as usize] |= t;
            }
        }
        Reach {
            by_type,
            all: by_type.iter().fold(0, |a, b| a | b),
            moves,
        }
    }

    /// Whether some unit reaches `cell` in two moves: a unit of type `T` reaches `x`
    /// from `y` exactly when it reaches `y` from `x` (every move shape is symmetric,
    /// and an Axis's path is the same both ways), so it is enough that the one-move
    /// targets meet the cells `T` reaches from `x`.
    fn in_two(&self, cell: usize, occupied: Bitboard) -> bool {
        Unit::ALL
            .into_iter()
            .any(|u| self.by_type[u as usize] & u.targets(cell, occupied) != 0)
    }
}

impl ApvEval {
    /// The attack of `side` on the enemy Pivot, and the safety of its own Pivot.
    fn side_score(&self, s: &ApvState, side: Seat, own: &Reach) -> i32 {
        let w = self.weights();
        let occupied = s.occupied();
        let enemy_libs = s.liberties(1 - side);
        let mut score = 0;
        let ordered = s
            .order(side)
            .filter(|o| {
                let from = usize::from(o.from);
                s.unit_at(side, from)
                    .is_some_and(|u| u.targets(from, occupied) & 1 << o.to != 0)
            })
            .map_or(0, |o| 1u64 << o.to);
        for x in Cells(enemy_libs) {
            score += if ordered & 1 << x != 0 {
                w.order_fill
            } else if own.all & 1 << x != 0 {
                w.fill_now
            } else if own.in_two(x, occupied) {
                w.fill_soon
            } else {
                0
            };
        }
        let n = enemy_libs.count_ones();
        if n <= 2 && enemy_libs & !(own.all | ordered) == 0 {
            score += w.all_covered;
        }
        let libs = s.liberties(side);
        score -= self.terms().danger_by_liberties[libs.count_ones() as usize];
        let second_ring = Cells(libs).fold(0, |acc, c| acc | GEO.neighbours[c]) & !occupied;
        score += w.room * (second_ring & !libs).count_ones() as i32;
        score += w.escape * escape_space(s.pivot(side), occupied).count_ones() as i32;
        score + w.mobility * own.moves.min(MOBILITY_COUNTED) as i32
    }
}

/// The empty cells a Pivot on `from` can walk to in at most [`ESCAPE_STEPS`] steps over
/// empty cells (`from` itself not included).
fn escape_space(from: usize, occupied: Bitboard) -> Bitboard {
    let mut reached: Bitboard = 0;
    let mut frontier: Bitboard = 1 << from;
    for _ in 0..ESCAPE_STEPS {
        frontier = Cells(frontier).fold(0, |acc, c| acc | GEO.neighbours[c]) & !occupied & !reached;
        reached |= frontier;
    }
    reached
}

impl Terms for ApvTerms {
    type State = ApvState;
    type Weights = ApvWeights;

    /// No APV move is noisy: a primary move fills one cell, and what it threatens is
    /// the evaluator's business ([`Terms::is_noisy`] keeps its default).
    fn may_have_noisy_moves(_: &ApvEval, _: &ApvState) -> bool {
        false
    }

    fn from_weights(weights: &ApvWeights) -> Self {
        let mut danger_by_liberties = [0; 7];
        danger_by_liberties[1..].copy_from_slice(&weights.danger);
        ApvTerms {
            danger_by_liberties,
        }
    }

    /// The win score is [`WIN`] or, for larger weights, one more than the most a
    /// difference of two sides' scores can be. A side's score is its gains less its
    /// danger penalty, with no weight negative: gains are at most one fill bonus for
    /// each of the enemy Pivot's at most six liberties, `all_covered` once, `room` for
    /// each of the 12 cells two steps from the Pivot, `escape` for each of the 36 cells
    /// at most three steps from it (6 + 12 + 18) and `mobility` for each of at most
    /// [`MOBILITY_COUNTED`] (78) primary moves; so a difference is at most the
    /// most gains plus the largest danger penalty (1,258 with the defaults).
    fn win(&self, w: &ApvWeights) -> i32 {
        let fill = w.order_fill.max(w.fill_now).max(w.fill_soon);
        let gains = 6 * fill
            + w.all_covered
            + 12 * w.room
            + 36 * w.escape
            + MOBILITY_COUNTED as i32 * w.mobility;
        let most = gains + w.danger.iter().copied().max().unwrap_or(0);
        WIN.max(most + 1)
    }

    fn heuristic(eval: &ApvEval, s: &ApvState, seat: Seat) -> i32 {
        let occupied = s.occupied();
        let reach = [Reach::of(s, 0, occupied), Reach::of(s, 1, occupied)];
        let me = eval.side_score(s, seat, &reach[seat]);
        let them = eval.side_score(s, 1 - seat, &reach[1 - seat]);
        me - them
    }
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::eval::Evaluator;
    use crate::games::apv::board::CELLS;
    use crate::games::apv::{Apv, Order};
    use crate::weights::Tunable;
    use crate::{play_moves, Game, State};

    fn cell(name: &str) -> usize {
        let b = name.as_bytes();
        GEO.cell(
            i32::from(b[0]) - i32::from(b'e'),
            i32::from(b[1]) - i32::from(b'5'),
        )
        .unwrap()
    }

    fn position(units: &[(usize, Unit, &str)], orders: [Option<Order>; 2]) -> ApvState {
        let mut bb = [[0; 4]; 2];
        for &(side, unit, c) in units {
            bb[side][unit as usize] |= 1 << cell(c);
        }
        Apv::default().position(bb, 0, orders).unwrap()
    }

    #[test]
    fn symmetric_at_the_start_and_antisymmetric_after() {
        let e = ApvEval::default();
        let mut s = Apv::default().initial_state();
        assert_eq!(e.evaluate(&s, 0), 0);
        play_moves(&mut s, "d8-a8 order:d7-d5 d2-a5").unwrap();
        assert_eq!(e.evaluate(&s, 0), -e.evaluate(&s, 1));
    }

    #[test]
    fn bounds_contain_every_score_and_terminals_sit_on_them() {
        let e = ApvEval::default();
        let (lo, hi) = e.bounds();
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let mut moves = Vec::new();
        let mut finished = 0;
        for _ in 0..100 {
            let mut s = Apv::default().initial_state();
            while s.outcome().is_none() {
                for seat in 0..2 {
                    let v = e.evaluate(&s, seat);
                    assert!(lo < v && v < hi, "{v}");
                    assert_eq!(v, -e.evaluate(&s, 1 - seat));
                }
                moves.clear();
                s.legal_moves(&mut moves);
                s.apply(moves[rng.random_range(0..moves.len())]);
            }
            let v = e.evaluate(&s, 0);
            assert!(v == lo || v == 0 || v == hi, "{v}");
            assert_eq!(v, -e.evaluate(&s, 1));
            finished += 1;
        }
        assert_eq!(finished, 100);
    }

    #[test]
    fn escape_space_is_every_empty_cell_within_three_steps() {
        let distance = |a: usize, b: usize| {
            let (dq, dr) = (
                i32::from(GEO.q[a]) - i32::from(GEO.q[b]),
                i32::from(GEO.r[a]) - i32::from(GEO.r[b]),
            );
            (dq.abs() + dr.abs() + (dq + dr).abs()) / 2
        };
        // On an otherwise empty board: the cells 1 to 3 steps away (36 from the centre,
        // fewer from a corner, where the board's edge cuts the space).
        for from in [cell("e5"), cell("e9"), cell("b6")] {
            let expected = (0..CELLS)
                .filter(|&c| (1..=ESCAPE_STEPS as i32).contains(&distance(from, c)))
                .count();
            assert_eq!(
                escape_space(from, 1 << from).count_ones() as usize,
                expected
            );
        }
        assert_eq!(escape_space(cell("e5"), 1 << cell("e5")).count_ones(), 36);
        // A closed ring two steps out leaves only the six liberties; one gap in it lets
        // the Pivot through to the gap and the three cells beyond it.
        let centre = cell("e5");
        let ring: Bitboard = (0..CELLS)
            .filter(|&c| distance(centre, c) == 2)
            .fold(0, |acc, c| acc | 1 << c);
        let walled = escape_space(centre, ring | 1 << centre);
        assert_eq!(walled, GEO.neighbours[centre]);
        let gap = cell("e7");
        let through = escape_space(centre, (ring & !(1 << gap)) | 1 << centre);
        assert_eq!(through.count_ones(), 6 + 1 + 3);
        assert_ne!(through & 1 << gap, 0);
    }

    #[test]
    fn crowding_the_enemy_pivot_scores_through_its_escape_space() {
        // South's Pivot on e3, near its edge, with North's six units two steps from it
        // (its liberties all empty); North's Pivot alone in the open on e6.
        let crowded = position(
            &[
                (0, Unit::Pivot, "e6"),
                (1, Unit::Pivot, "e3"),
                (0, Unit::Axis, "c4"),
                (0, Unit::Axis, "g2"),
                (0, Unit::Veil, "e5"),
                (0, Unit::Veil, "c3"),
                (0, Unit::Turned, "g3"),
                (0, Unit::Turned, "f4"),
            ],
            [None; 2],
        );
        let escape = |side| escape_space(crowded.pivot(side), crowded.occupied()).count_ones();
        assert!(escape(1) < escape(0), "{} {}", escape(1), escape(0));
        let without = ApvEval::with_weights(ApvWeights {
            escape: 0,
            ..ApvWeights::default()
        });
        let with = ApvEval::default();
        let gained = with.evaluate(&crowded, 0) - without.evaluate(&crowded, 0);
        assert_eq!(gained, 4 * (escape(0) as i32 - escape(1) as i32));
        assert!(gained > 0);
        assert_eq!(
            with.evaluate(&crowded, 1) - without.evaluate(&crowded, 1),
            -gained
        );
    }

    #[test]
    fn pressure_on_the_enemy_pivot_scores() {
        let e = ApvEval::default();
        // South's Pivot on i1 (a corner: h1, h2, i2) with h1 taken: two liberties.
        // North's Veil on g2 can fill i2 at once (g2 + 2·(1, 0)), so North is better.
        let base = [
            (0, Unit::Pivot, "e5"),
            (1, Unit::Pivot, "i1"),
            (1, Unit::Axis, "h1"),
        ];
        let far = position(
            &[base[0], base[1], base[2], (0, Unit::Veil, "a5")],
            [None; 2],
        );
        let near = position(
            &[base[0], base[1], base[2], (0, Unit::Veil, "g2")],
            [None; 2],
        );
        assert!(e.evaluate(&near, 0) > e.evaluate(&far, 0) + e.weights().fill_now / 2);
        // An order that will fill a liberty counts more than a move that could.
        let ordered = Order {
            from: cell("g2") as u8,
            to: cell("i2") as u8,
        };
        let mut bb = [[0u64; 4]; 2];
        for &(side, unit, c) in &[base[0], base[1], base[2], (0, Unit::Veil, "g2")] {
            bb[side][unit as usize] |= 1 << cell(c);
        }
        // South to move, North's order pending (it fires at North's next turn).
        let threat = Apv::default()
            .position(bb, 1, [Some(ordered), None])
            .unwrap();
        let quiet = Apv::default().position(bb, 1, [None; 2]).unwrap();
        assert!(e.evaluate(&threat, 0) > e.evaluate(&quiet, 0));
        // Fewer liberties of one's own Pivot is worse.
        let boxed = position(
            &[
                base[0],
                base[1],
                base[2],
                (0, Unit::Veil, "a5"),
                (1, Unit::Turned, "d5"),
                (1, Unit::Veil, "f5"),
            ],
            [None; 2],
        );
        assert!(e.evaluate(&boxed, 0) < e.evaluate(&far, 0));
    }

    #[test]
    fn bounds_hold_for_the_largest_army() {
        // Mobility counts at most the rulebook army's moves, so a larger army keeps
        // every score inside the same bounds.
        use crate::games::apv::ApvKnobs;
        let big = Apv::default()
            .with_knobs(ApvKnobs {
                axes: 3,
                veils: 3,
                turned_veils: 3,
                south_extra: Some(Unit::Axis),
                ..ApvKnobs::default()
            })
            .unwrap();
        crate::testing::extreme_weights::check_evaluator_at_extreme_weights::<_, ApvEval>(
            &big.initial_state(),
            10,
            2,
        )
        .unwrap();
        // A side with four Axes, three Veils and three Turned Veils spread over the open
        // board has more moves than the rulebook's army can; mobility counts them up to
        // the cap, and the scores stay inside the bounds at every extreme setting.
        let spread = position(
            &[
                (0, Unit::Pivot, "e5"),
                (1, Unit::Pivot, "e1"),
                (0, Unit::Axis, "b7"),
                (0, Unit::Axis, "h3"),
                (0, Unit::Axis, "c4"),
                (0, Unit::Axis, "g6"),
                (0, Unit::Veil, "a5"),
                (0, Unit::Veil, "i5"),
                (0, Unit::Veil, "e9"),
                (0, Unit::Turned, "c8"),
                (0, Unit::Turned, "g2"),
                (0, Unit::Turned, "d6"),
            ],
            [None; 2],
        );
        let moves = [0, 1].map(|side| Reach::of(&spread, side, spread.occupied()).moves);
        assert!(moves[0] > MOBILITY_COUNTED, "{moves:?}");
        // Mobility counts North's moves up to the cap only.
        let still = ApvEval::with_weights(ApvWeights {
            mobility: 0,
            ..ApvWeights::default()
        });
        let counted = ApvEval::default().evaluate(&spread, 0) - still.evaluate(&spread, 0);
        assert_eq!(counted, 2 * (MOBILITY_COUNTED - moves[1]) as i32);
        for weights in crate::testing::extreme_weights::extreme_settings::<ApvWeights>() {
            let e = ApvEval::with_weights(weights);
            let (lo, hi) = e.bounds();
            let v = e.heuristic(&spread, 0);
            assert!(lo < v && v < hi, "{v} outside {lo}..{hi}");
        }
    }

    #[test]
    fn bounds_hold_at_extreme_weights() {
        crate::testing::extreme_weights::check_evaluator_at_extreme_weights::<_, ApvEval>(
            &Apv::default().initial_state(),
            20,
            1,
        )
        .unwrap();
    }
}
