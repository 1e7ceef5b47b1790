//! Hexstrat's combat arithmetic: attack values by unit types and terrain bonuses.
//!
//! Damage never depends on a squad's size, only on the two types and the two cells'
//! terrain; what is done with the damage (removal, strike-back, advance) is the rules'
//! business in `apply`. The attack table is fixed; the terrain bonuses are knobs of the
//! rules ([`Terrain`]), the rulebook's being [`Terrain::RULEBOOK`].

use super::moves::{Tile, Unit};

/// Attack value `ATTACK[attacker][defender]` (indices `Unit as usize`).
pub const ATTACK: [[u8; 3]; 3] = [
    // Infantry against Infantry, Rocketeer, Mech.
    [1, 3, 2],
    // Rocketeer.
    [2, 1, 3],
    // Mech.
    [4, 2, 1],
];

/// The terrain under a squad: a face-up tile or a Headquarters (which gives nothing).
/// A squad never stands on a face-down tile.
pub type Ground = Option<Tile>;

/// The terrain bonuses: what Forest and Mountain add to the attack or the defence of
/// the squad standing on them (Plains and the Headquarters add nothing). Each is a knob
/// of the rules, from 0 to [`Terrain::MAX_BONUS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Terrain {
    /// Defence bonus of a Forest.
    pub forest_defence: u8,
    /// Attack bonus of a Mountain.
    pub mountain_attack: u8,
    /// Defence bonus of a Mountain.
    pub mountain_defence: u8,
}

impl Terrain {
    /// The rulebook's bonuses: Forest +1 defence, Mountain +1 attack and +1 defence.
    pub const RULEBOOK: Terrain = Terrain {
        forest_defence: 1,
        mountain_attack: 1,
        mountain_defence: 1,
    };

    /// The largest bonus a knob may give (an attack of at most 4 + 3 stays small).
    pub const MAX_BONUS: u8 = 3;

    /// Attack bonus of the ground a squad attacks (or strikes back) from.
    #[inline]
    pub const fn attack_bonus(&self, ground: Ground) -> u8 {
        match ground {
            Some(Tile::Mountain) => self.mountain_attack,
            _ => 0,
        }
    }

    /// Defence bonus of the ground a squad takes damage on.
    #[inline]
    pub const fn defence_bonus(&self, ground: Ground) -> u8 {
        match ground {
            Some(Tile::Forest) => self.forest_defence,
            Some(Tile::Mountain) => self.mountain_defence,
            _ => 0,
        }
    }

    /// Units lost by a squad of type `target` on `target_ground` when hit by a squad of
    /// type `hitter` on `hitter_ground`: `max(0, ATK + attack bonus − defence bonus)`.
    /// The same formula serves the attack and the strike-back, with the roles swapped.
    #[inline]
    pub const fn damage(
        &self,
        hitter: Unit,
        hitter_ground: Ground,
        target: Unit,
        target_ground: Ground,
    ) -> u8 {
        (ATTACK[hitter as usize][target as usize] + self.attack_bonus(hitter_ground))
            .saturating_sub(self.defence_bonus(target_ground))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn damage_follows_the_table_and_the_bonuses() {
        use Tile::*;
        use Unit::*;
        let damage = |h, hg, t, tg| Terrain::RULEBOOK.damage(h, hg, t, tg);
        assert_eq!(damage(Mech, None, Infantry, None), 4);
        assert_eq!(damage(Mech, Some(Plains), Infantry, Some(Forest)), 3);
        assert_eq!(damage(Mech, Some(Forest), Infantry, Some(Mountain)), 3);
        assert_eq!(damage(Infantry, Some(Mountain), Rocketeer, None), 4);
        // Never below zero: 1 − 1 = 0.
        assert_eq!(damage(Mech, None, Mech, Some(Forest)), 0);
        assert_eq!(
            damage(Rocketeer, Some(Mountain), Rocketeer, Some(Mountain)),
            1
        );
    }

    #[test]
    fn each_bonus_is_its_own_knob() {
        use Tile::*;
        use Unit::*;
        let terrain = Terrain {
            forest_defence: 3,
            mountain_attack: 0,
            mountain_defence: 2,
        };
        // A Mech (4 against Infantry) into a Forest: 4 − 3; into a Mountain: 4 − 2.
        assert_eq!(terrain.damage(Mech, None, Infantry, Some(Forest)), 1);
        assert_eq!(terrain.damage(Mech, None, Infantry, Some(Mountain)), 2);
        // From a Mountain with no attack bonus: the table's 3.
        assert_eq!(terrain.damage(Infantry, Some(Mountain), Rocketeer, None), 3);
        assert_eq!(terrain.damage(Mech, Some(Plains), Mech, Some(Forest)), 0);
    }
}
