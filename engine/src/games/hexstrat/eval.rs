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
use crate::game::{Seat, State};

use super::board::{DISTANCE, HQ, NEIGHBOURS};
use super::combat::{damage, ATTACK};
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
pub const SEIZE: [i32; 3] = [0, 250, 600];
/// Worth of a free Infantry next to an enemy Headquarters holding no enemy squad (it
/// can enter and start a seize count next turn).
pub const HQ_THREAT: i32 = 120;
/// Worth of a free Infantry two and three steps from an unguarded enemy Headquarters.
pub const HQ_APPROACH: [i32; 2] = [60, 20];
/// Worth of a units lead, scaled by the units on the board: `LEAD · 16 · (mine −
/// theirs) / (mine + theirs)`, so trades pay when ahead and a rout is sought.
pub const LEAD: i32 = 10;
/// Worth of each step closer (within 6) to an enemy squad, per point of attack edge
/// over it (negative for a squad that beats ours), plus one more per step when
/// ahead in units (a side ahead seeks trades, one behind avoids them).
pub const HUNT: i32 = 2;
/// Worth of one unit of damage the side to move can deal now (a free squad that has
/// not acted, next to an enemy), net of the strike-back it would take; the best such
/// attack per squad counts.
pub const INITIATIVE: i32 = 4;
/// Score of a won game. The heuristic part stays below it in practice (16 units ×
/// (10 + 2 · 2) for strength, 160 for the lead, 3 squads × 5 steps × 4 for the march,
/// 600 for a seize count) and is clamped strictly inside it regardless.
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
        let own_units: i32 = Unit::ALL.iter().map(|&u| i32::from(s.units(seat, u))).sum();
        // +1 when ahead in units, −1 when behind.
        let ahead = (own_units - enemy_units).signum();
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
            for e in Unit::ALL {
                if let Some(at) = s.squad_cell(enemy, e) {
                    let a = i32::from(ATTACK[unit as usize][e as usize]);
                    let d = i32::from(ATTACK[e as usize][unit as usize]);
                    let near = 6 - i32::from(DISTANCE[cell][at]);
                    score += near * HUNT * ((a - d) + ahead);
                }
            }
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
            let free = !s.is_impeded(seat, unit);
            if unit == Unit::Infantry && !hq_guarded && free {
                score += match DISTANCE[cell][enemy_hq] {
                    1 => HQ_THREAT,
                    2 => HQ_APPROACH[0],
                    3 => HQ_APPROACH[1],
                    _ => 0,
                };
            }
            if free && s.mover() == seat && !s.has_acted(seat, unit) && s.outcome().is_none() {
                score += INITIATIVE * Self::best_attack(s, seat, unit, cell);
            }
        }
        score + SEIZE[usize::from(s.seize_count(seat)).min(2)]
    }

    /// The best net damage (dealt minus struck back, at least 0) that `seat`'s `unit`
    /// on `cell` could deal by attacking an adjacent enemy squad now.
    fn best_attack(s: &HexstratState, seat: Seat, unit: Unit, cell: usize) -> i32 {
        let enemy = 1 - seat;
        let mut best = 0;
        for e in Unit::ALL {
            let Some(at) = s.squad_cell(enemy, e) else {
                continue;
            };
            if NEIGHBOURS[cell] & 1 << at == 0 {
                continue;
            }
            let (own_ground, their_ground) = (s.tile(cell), s.tile(at));
            let dealt = i32::from(damage(unit, own_ground, e, their_ground))
                .min(i32::from(s.units(enemy, e)));
            let back = if dealt >= i32::from(s.units(enemy, e)) {
                0
            } else {
                i32::from(damage(e, their_ground, unit, own_ground))
            };
            best = best.max(dealt - back);
        }
        best
    }
}

impl Evaluator<HexstratState> for HexstratEval {
    fn heuristic(&self, s: &HexstratState, seat: Seat) -> i32 {
        let units = |p: Seat| -> i32 { Unit::ALL.iter().map(|&u| i32::from(s.units(p, u))).sum() };
        let (mine, theirs) = (units(seat), units(1 - seat));
        let lead = LEAD * 16 * (mine - theirs) / (mine + theirs).max(1);
        let diff = Self::side_score(s, seat) - Self::side_score(s, 1 - seat) + lead;
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
    use crate::{Game, Outcome};

    #[test]
    fn the_start_is_level_and_values_are_antisymmetric() {
        let mut s = Hexstrat::default().initial_state();
        let e = HexstratEval;
        assert_eq!(e.evaluate(&s, 0), 0);
        s.apply(s.parse_move("I:d3").unwrap());
        s.apply(s.parse_move("plains").unwrap());
        // The Infantry stepped towards d6, one step closer to each enemy squad: its
        // edges are 0 (Infantry), +1 (Rocketeer), −2 (Mech), summing to −1; theirs over
        // it 0, −1, +2, summing to +1: HUNT · (−1) for it, HUNT · (+1) against it.
        let expected = ADVANCE_INFANTRY - 2 * HUNT;
        assert_eq!(e.evaluate(&s, 0), expected);
        assert_eq!(e.evaluate(&s, 1), -expected);
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
