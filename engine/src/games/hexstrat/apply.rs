//! Applying a Hexstrat decision or outcome: moves, reveals, attacks and their combat,
//! entering a cell (impeded by Forest for a Mech or by the enemy Headquarters, the seize
//! count), destroying a squad, and the end of a turn with the cap and the seize win.

use crate::game::{End, Outcome, Seat, State};

use super::board::HQ;
use super::combat::Ground;
use super::keys::{
    bag_key, hp_key, pending_key, pos_key, seize_key, tile_key, ACTED_KEYS, CAPPED_KEY,
    IMPEDED_KEYS, KEYS, OPENING_KEY, SEAT1_KEY,
};
use super::moves::{HexMove, Tile, Unit};
use super::{squad, HexstratState, NO_CELL, SQUADS};

impl HexstratState {
    /// Plays `m` (legal here) and returns the position before it, for `undo`: the body of
    /// [`State::apply`].
    pub(super) fn play(&mut self, m: HexMove) -> HexstratState {
        debug_assert!(
            self.illegal_because(m).is_none(),
            "illegal move {m:?}: {:?} in {self:?}",
            self.illegal_because(m)
        );
        let undo = *self;
        let seat = self.to_move;
        match m {
            HexMove::End => self.end_turn(),
            HexMove::Recover(unit) => {
                let sq = squad(seat, unit);
                self.set_flag(false, sq, false);
                self.set_flag(true, sq, true);
                self.end_turn_if_all_acted();
            }
            HexMove::Go {
                squad: unit,
                to,
                target,
            } => {
                let sq = squad(seat, unit);
                let to = to as usize;
                let defenders = self.squads_on(1 - seat, to);
                if defenders != 0 {
                    let dq = match target {
                        Some(t) => squad(1 - seat, t),
                        None => defenders.trailing_zeros() as usize,
                    };
                    self.attack(sq, dq, to);
                    self.end_turn_if_all_acted();
                } else if self.face_down() & 1 << to != 0 {
                    self.pending = Some((sq as u8, to as u8));
                    self.hash ^= pending_key(sq as u8, to as u8);
                } else {
                    self.enter(sq, to);
                    self.set_flag(true, sq, true);
                    self.end_turn_if_all_acted();
                }
            }
            HexMove::Reveal(tile) => {
                let (sq, to) = self.pending.take().expect("a reveal is pending");
                self.hash ^= pending_key(sq, to);
                let (sq, to) = (sq as usize, to as usize);
                let t = tile as usize;
                self.face_up[t] |= 1 << to;
                self.hash ^=
                    tile_key(to, tile) ^ bag_key(t, self.bag[t]) ^ bag_key(t, self.bag[t] - 1);
                self.bag[t] -= 1;
                if !unit_blocked(Unit::from_index(sq % 3), Some(tile)) {
                    self.enter(sq, to);
                }
                self.set_flag(true, sq, true);
                self.end_turn_if_all_acted();
            }
        }
        self.ply += 1;
        if self.turns != undo.turns {
            // This ply ended a turn: the next one begins with the next ply.
            self.turn_start = self.ply;
        }
        debug_assert_eq!(self.hash, self.recompute_hash());
        undo
    }

    /// Flips `sq`'s bit in `flags` (the impeded or acted set) and its key.
    #[inline]
    fn set_flag(&mut self, acted: bool, sq: usize, on: bool) {
        let (flags, keys) = if acted {
            (&mut self.acted, ACTED_KEYS)
        } else {
            (&mut self.impeded, IMPEDED_KEYS)
        };
        if (*flags & 1 << sq != 0) != on {
            *flags ^= 1 << sq;
            self.hash ^= KEYS[keys + sq];
        }
    }

    #[inline]
    fn set_seize(&mut self, seat: Seat, count: u8) {
        self.hash ^= seize_key(seat, self.seize[seat]) ^ seize_key(seat, count);
        self.seize[seat] = count;
    }

    #[inline]
    fn set_hp(&mut self, sq: usize, hp: u8) {
        self.hash ^= hp_key(sq, self.hp[sq]) ^ hp_key(sq, hp);
        self.hp[sq] = hp;
    }

    /// Moves squad `sq` into `to` (free of squads, face up or a Headquarters), with the
    /// entry effects. Leaving the enemy Headquarters ends a seize count.
    fn enter(&mut self, sq: usize, to: usize) {
        let seat = sq / 3;
        let unit = Unit::from_index(sq % 3);
        self.hash ^= pos_key(sq, self.cell[sq]) ^ pos_key(sq, to as u8);
        self.cell[sq] = to as u8;
        if unit == Unit::Infantry && self.seize[seat] != 0 {
            // Only the Infantry on the enemy Headquarters has a count, and it just left.
            self.set_seize(seat, 0);
        }
        let enemy_hq = to == HQ[1 - seat];
        if enemy_hq || (unit == Unit::Mech && self.face_up[Tile::Forest as usize] & 1 << to != 0) {
            self.set_flag(false, sq, true);
        }
        if enemy_hq && unit == Unit::Infantry {
            self.set_seize(seat, 1);
        }
    }

    /// Removes squad `sq` (no units left): its cell, flags and any seize count go.
    fn destroy(&mut self, sq: usize) {
        self.set_hp(sq, 0);
        self.hash ^= pos_key(sq, self.cell[sq]);
        self.cell[sq] = NO_CELL;
        self.set_flag(false, sq, false);
        self.set_flag(true, sq, false);
        if sq % 3 == Unit::Infantry as usize {
            self.set_seize(sq / 3, 0);
        }
    }

    /// Squad `sq` attacks the enemy squad `dq` on the adjacent cell `to`; ends the game
    /// by rout if a side has no units left.
    fn attack(&mut self, sq: usize, dq: usize, to: usize) {
        let (attacker, defender) = (Unit::from_index(sq % 3), Unit::from_index(dq % 3));
        let attacker_ground = self.ground(self.cell[sq] as usize);
        let defender_ground = self.ground(to);
        let terrain = self.rules.knobs.terrain;
        let hit = terrain.damage(attacker, attacker_ground, defender, defender_ground);
        let left = self.hp[dq].saturating_sub(hit);
        if left == 0 {
            self.destroy(dq);
            let defending = dq / 3;
            if self.alive(defending) == 0 {
                self.result = Some(End::win(1 - defending, "rout"));
                return;
            }
            let blocked = unit_blocked(attacker, defender_ground);
            if self.squads_on(defending, to) == 0 && !blocked {
                self.enter(sq, to);
            }
        } else {
            self.set_hp(dq, left);
            let back = terrain.damage(defender, defender_ground, attacker, attacker_ground);
            let left = self.hp[sq].saturating_sub(back);
            if left == 0 {
                self.destroy(sq);
                let attacking = sq / 3;
                if self.alive(attacking) == 0 {
                    self.result = Some(End::win(1 - attacking, "rout"));
                }
                return;
            }
            self.set_hp(sq, left);
        }
        self.set_flag(true, sq, true);
    }

    /// Ends the turn if every surviving squad of the mover has acted, or, in seat 0's
    /// shortened first turn, once `opening_actions` of its squads have. (From the start
    /// no squad can reach an enemy in that turn, so none is lost to a strike-back there
    /// and the squads that have acted are the actions taken.)
    #[inline]
    fn end_turn_if_all_acted(&mut self) {
        let alive = self.alive(self.to_move);
        let opening_done = self.in_short_opening()
            && self.acted.count_ones() >= u32::from(self.rules.knobs.opening_actions);
        if self.result.is_none() && (self.acted & alive == alive || opening_done) {
            self.end_turn();
        }
    }

    /// Ends the mover's turn: the cap, then the other side's turn with its seize check.
    fn end_turn(&mut self) {
        if self.in_short_opening() {
            self.hash ^= KEYS[OPENING_KEY];
        }
        for sq in 0..SQUADS {
            self.set_flag(true, sq, false);
        }
        self.turns += 1;
        if self.turns >= self.rules.turn_cap() {
            // The cap counts turns, which the hash leaves out (it keys only that the
            // game was capped).
            self.result = Some(End::cap(Outcome::Draw, true));
            self.hash ^= KEYS[CAPPED_KEY];
            return;
        }
        self.to_move = 1 - self.to_move;
        self.hash ^= KEYS[SEAT1_KEY];
        let seat = self.to_move;
        if self.seize[seat] != 0 {
            let count = self.seize[seat] + 1;
            self.set_seize(seat, count);
            if count >= self.rules.knobs.seize_turns {
                self.result = Some(End::win(seat, "seize"));
            }
        }
    }
}

/// Whether a squad of type `unit` may not stand on `ground` (a Mech on a Mountain).
#[inline]
fn unit_blocked(unit: Unit, ground: Ground) -> bool {
    unit == Unit::Mech && ground == Some(Tile::Mountain)
}
