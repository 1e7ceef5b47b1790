//! A heuristic evaluator for Hexstrat: unit strength weighted by matchups, the march
//! towards the enemy Headquarters, and the seize threat.
//!
//! Each side scores its squads and the difference is the value, so the evaluation is
//! exactly antisymmetric between the seats:
//!
//! - **Strength**: every unit is worth [`UNIT`], plus [`MATCHUP`] times the squad's
//!   average edge over the enemy squads, `ATK(own → enemy) − ATK(enemy → own)`, weighted
//!   by the enemy squads' units. A Mech facing mostly Infantry is worth more than one
//!   facing Rocketeers, as the attack table says.
//! - **March**: each step closer to the enemy Headquarters is worth [`ADVANCE`] for a
//!   squad, and [`ADVANCE_INFANTRY`] for the Infantry (only it can seize). Standing on
//!   Forest or Mountain (a defence bonus) is worth [`COVER`]; being impeded costs
//!   [`IMPEDED`].
//! - **Seize threat**: a running seize count is worth [`SEIZE`]`[count]` (at 2 the side
//!   wins at its next turn unless the Infantry is destroyed first), and an Infantry next
//!   to an enemy Headquarters that no enemy squad guards is worth [`HQ_THREAT`].
//!
//! A finished game scores ±[`WIN`] (0 for the cap's draw); heuristic values are clamped
//! strictly inside, so the bounds `(−WIN, WIN)` contain every score, as Star1/Star2
//! need. `WIN` is small enough that `mcts:rollout=eval`, which scales values by it,
//! sees material differences as rewards of a useful size.

use crate::eval::Evaluator;
use crate::game::{Outcome, Seat, State};

use super::board::{DISTANCE, HQ, NEIGHBOURS};
use super::combat::ATTACK;
use super::moves::{Tile, Unit};
use super::HexstratState;

/// Worth of one unit.
pub const UNIT: i32 = 10;
/// Worth of one unit per point of average attack edge over the enemy squads.
pub const MATCHUP: i32 = 2;
/// Worth of each step towards the enemy Headquarters, for a Rocketeer or Mech.
pub const ADVANCE: i32 = 1;
/// Worth of each step towards the enemy Headquarters, for the Infantry.
pub const ADVANCE_INFANTRY: i32 = 4;
/// Worth of standing on Forest or Mountain.
pub const COVER: i32 = 2;
/// Cost of being impeded.
pub const IMPEDED: i32 = 3;
/// Worth of a seize count of 0, 1 and 2.
pub const SEIZE: [i32; 3] = [0, 150, 450];
/// Worth of an Infantry next to an enemy Headquarters holding no enemy squad.
pub const HQ_THREAT: i32 = 40;
/// Score of a won game. The heuristic part stays far below it: 16 units × (10 + 2 · 2)
/// for strength, 3 squads × 5 steps × 4 for the march, 450 + 40 for the seize.
pub const WIN: i32 = 1000;
/// The farthest a cell lies from a Headquarters.
const FARTHEST: i32 = 5;

/// Strength, march and seize threat (see the module docs).
#[derive(Clone, Copy, Debug, Default)]
pub struct HexstratEval;

impl HexstratEval {
    /// `seat`'s side of the score.
    fn side_score(s: &HexstratState, seat: Seat) -> i32 {
        let enemy = 1 - seat;
        let enemy_units: i32 = Unit::ALL
            .iter()
            .map(|&u| i32::from(s.units(enemy, u)))
            .sum();
        let enemy_hq = HQ[enemy];
        let hq_guarded = Unit::ALL
            .iter()
            .any(|&u| s.squad_cell(enemy, u) == Some(enemy_hq));
        let mut score = 0;
        for unit in Unit::ALL {
            let Some(cell) = s.squad_cell(seat, unit) else {
                continue;
            };
            let units = i32::from(s.units(seat, unit));
            // Units-weighted attack edge over the enemy squads, times MATCHUP, per unit.
            let edge: i32 = Unit::ALL
                .iter()
                .map(|&e| {
                    let a = i32::from(ATTACK[unit as usize][e as usize]);
                    let d = i32::from(ATTACK[e as usize][unit as usize]);
                    i32::from(s.units(enemy, e)) * (a - d)
                })
                .sum();
            score += units * UNIT;
            if enemy_units > 0 {
                score += units * MATCHUP * edge / enemy_units;
            }
            let steps = FARTHEST - i32::from(DISTANCE[cell][enemy_hq]);
            score += steps
                * if unit == Unit::Infantry {
                    ADVANCE_INFANTRY
                } else {
                    ADVANCE
                };
            if matches!(s.tile(cell), Some(Tile::Forest | Tile::Mountain)) {
                score += COVER;
            }
            if s.is_impeded(seat, unit) {
                score -= IMPEDED;
            }
            if unit == Unit::Infantry && !hq_guarded && NEIGHBOURS[cell] & 1 << enemy_hq != 0 {
                score += HQ_THREAT;
            }
        }
        score + SEIZE[usize::from(s.seize_count(seat)).min(2)]
    }
}

impl Evaluator<HexstratState> for HexstratEval {
    fn evaluate(&self, s: &HexstratState, seat: Seat) -> i32 {
        if let Some(outcome) = s.outcome() {
            return match outcome {
                Outcome::Win(w) if w == seat => WIN,
                Outcome::Win(_) => -WIN,
                Outcome::Draw => 0,
            };
        }
        let diff = Self::side_score(s, seat) - Self::side_score(s, 1 - seat);
        diff.clamp(1 - WIN, WIN - 1)
    }

    fn bounds(&self) -> (i32, i32) {
        (-WIN, WIN)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::hexstrat::{Hexstrat, Setup, SquadSetup};
    use crate::Game;

    #[test]
    fn the_start_is_level_and_values_are_antisymmetric() {
        let mut s = Hexstrat::default().initial_state();
        let e = HexstratEval;
        assert_eq!(e.evaluate(&s, 0), 0);
        s.apply(s.parse_move("I:d3").unwrap());
        s.apply(s.parse_move("plains").unwrap());
        // The Infantry stepped towards d6.
        assert_eq!(e.evaluate(&s, 0), ADVANCE_INFANTRY);
        assert_eq!(e.evaluate(&s, 1), -ADVANCE_INFANTRY);
    }

    #[test]
    fn a_seize_count_outweighs_material_and_a_win_is_the_bound() {
        let rules = Hexstrat::default();
        let setup = Setup {
            tiles: vec![
                ("d5", Tile::Plains),
                ("e6", Tile::Plains),
                ("d1", Tile::Plains),
            ],
            squads: vec![
                SquadSetup::new(0, Unit::Infantry, "d6", 1).impeded(),
                SquadSetup::new(1, Unit::Infantry, "d5", 6),
                SquadSetup::new(1, Unit::Rocketeer, "e6", 6),
                SquadSetup::new(1, Unit::Mech, "d1", 4),
            ],
            to_move: 1,
            seize: [2, 0],
            turns: 10,
        };
        let s = rules.position(&setup).unwrap();
        let e = HexstratEval;
        assert!(e.evaluate(&s, 0) > 0, "{}", e.evaluate(&s, 0));
        // Seat 1 fails to destroy the Infantry and ends its turn: seat 0 seizes.
        let mut t = s;
        t.apply(t.parse_move("end").unwrap());
        assert_eq!(t.outcome(), Some(Outcome::Win(0)));
        assert_eq!(e.evaluate(&t, 0), WIN);
        assert_eq!(e.evaluate(&t, 1), -WIN);
        let (lo, hi) = e.bounds();
        assert!(lo <= e.evaluate(&s, 1) && e.evaluate(&s, 1) <= hi);
    }
}
