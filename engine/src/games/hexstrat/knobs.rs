//! The designer's knobs of Hexstrat: the rulebook's numbers a variant may turn (the
//! squads' strengths, the seize count that wins, the terrain bonuses) and the two that
//! compensate seat 1 for moving second (extra units for North, a shorter first turn for
//! South), with their ranges and the check that a [`Knobs`] lies within them.
//!
//! [`Knobs::RULEBOOK`] is the game as the rulebook has it; every knob at that value
//! gives exactly the rules played before the knobs existed.

use crate::params::ConfigError;

use super::combat::Terrain;
use super::moves::Unit;

/// The rules' turnable numbers. Build one from [`Knobs::RULEBOOK`] and give it to
/// [`Hexstrat::with_knobs`](super::Hexstrat::with_knobs), which checks the ranges.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Knobs {
    /// Units each side's squad of a type starts with, by [`Unit`] index (Infantry,
    /// Rocketeer, Mech): 1 to [`Knobs::MAX_SQUAD`] each; the rulebook's 6, 6, 4.
    pub units: [u8; 3],
    /// Extra units every squad of seat 1 (North) starts with, 0 to
    /// [`Knobs::MAX_NORTH_BONUS`]; the rulebook's 0. Compensates the second seat.
    pub north_bonus: u8,
    /// The seize count that wins: an Infantry on the enemy Headquarters starts at 1 and
    /// its side wins at the start of the own turn when the count reaches this; 2 to
    /// [`Knobs::MAX_SEIZE_TURNS`], the rulebook's 3.
    pub seize_turns: u8,
    /// The terrain bonuses of Forest and Mountain.
    pub terrain: Terrain,
    /// Squads seat 0 (South) may act with in the game's first turn, 1 to 3; the turn
    /// ends by itself once that many have acted. The rulebook's 3 (no limit).
    /// Compensates the second seat.
    pub opening_actions: u8,
}

impl Knobs {
    /// The rulebook's numbers.
    pub const RULEBOOK: Knobs = Knobs {
        units: [6, 6, 4],
        north_bonus: 0,
        seize_turns: 3,
        terrain: Terrain::RULEBOOK,
        opening_actions: 3,
    };

    /// The most units a squad may be given at the start, before North's bonus.
    pub const MAX_SQUAD: u8 = 9;
    /// The most extra units North's squads may be given.
    pub const MAX_NORTH_BONUS: u8 = 3;
    /// The most units a squad can ever hold: the strongest squad with North's bonus.
    pub const MAX_UNITS: u8 = Knobs::MAX_SQUAD + Knobs::MAX_NORTH_BONUS;
    /// The largest seize count that may be asked for a win.
    pub const MAX_SEIZE_TURNS: u8 = 9;

    /// Units `seat`'s squad of type `unit` starts with (its largest strength).
    #[inline]
    pub const fn start_units(&self, seat: usize, unit: Unit) -> u8 {
        self.units[unit as usize] + if seat == 1 { self.north_bonus } else { 0 }
    }

    /// Refuses a knob outside its range with one line naming it and the valid range.
    pub(super) fn check(&self) -> Result<(), ConfigError> {
        let names = ["infantry_units", "rocketeer_units", "mech_units"];
        let mut ranges: Vec<(&str, u8, u8, u8)> = names
            .iter()
            .zip(self.units)
            .map(|(&name, v)| (name, v, 1, Knobs::MAX_SQUAD))
            .collect();
        let t = self.terrain;
        ranges.extend([
            ("north_bonus", self.north_bonus, 0, Knobs::MAX_NORTH_BONUS),
            ("seize_turns", self.seize_turns, 2, Knobs::MAX_SEIZE_TURNS),
            ("forest_defence", t.forest_defence, 0, Terrain::MAX_BONUS),
            ("mountain_attack", t.mountain_attack, 0, Terrain::MAX_BONUS),
            (
                "mountain_defence",
                t.mountain_defence,
                0,
                Terrain::MAX_BONUS,
            ),
            ("opening_actions", self.opening_actions, 1, 3),
        ]);
        match ranges.iter().find(|(_, v, lo, hi)| !(lo..=hi).contains(&v)) {
            Some((name, v, lo, hi)) => Err(ConfigError(format!(
                "hexstrat {name}={v} is not allowed: expected {lo}..{hi}"
            ))),
            None => Ok(()),
        }
    }
}

impl Default for Knobs {
    /// [`Knobs::RULEBOOK`].
    fn default() -> Self {
        Knobs::RULEBOOK
    }
}
