//! Hexstrat's combat arithmetic: attack values by unit types and terrain bonuses.
//!
//! Damage never depends on a squad's size, only on the two types and the two cells'
//! terrain; what is done with the damage (removal, strike-back, advance) is the rules'
//! business in `mod.rs`.

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

/// Attack bonus of the ground a squad attacks (or strikes back) from.
#[inline]
pub const fn attack_bonus(ground: Ground) -> u8 {
    match ground {
        Some(Tile::Mountain) => 1,
        _ => 0,
    }
}

/// Defence bonus of the ground a squad takes damage on.
#[inline]
pub const fn defence_bonus(ground: Ground) -> u8 {
    match ground {
        Some(Tile::Forest | Tile::Mountain) => 1,
        _ => 0,
    }
}

/// Units lost by a squad of type `target` on `target_ground` when hit by a squad of
/// type `hitter` on `hitter_ground`: `max(0, ATK + attack bonus − defence bonus)`. The
/// same formula serves the attack and the strike-back, with the roles swapped.
#[inline]
pub const fn damage(
    hitter: Unit,
    hitter_ground: Ground,
    target: Unit,
    target_ground: Ground,
) -> u8 {
    (ATTACK[hitter as usize][target as usize] + attack_bonus(hitter_ground))
        .saturating_sub(defence_bonus(target_ground))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn damage_follows_the_table_and_the_bonuses() {
        use Tile::*;
        use Unit::*;
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
}
