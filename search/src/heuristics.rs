//! Move-ordering knowledge that a search learns while it searches: killer moves and
//! the history table, for alpha-beta and (with `history=true`) the chance searches'
//! decision nodes.
//!
//! Both only rank moves; ordering never adds or drops a move, so it changes how much is
//! searched but never the value found. Ties keep the game's generation order, so a
//! search stays reproducible.

use agon_engine::Seat;

/// Killer slots per ply.
const KILLERS: usize = 2;

/// No move: a code no killer slot starts with (codes of real moves are compared with
/// it and a game whose move packs to `u32::MAX` merely loses a killer slot).
const NONE: u32 = u32::MAX;

/// History entries per seat: move codes are hashed into this many counters. Game move
/// codes are sparse (Invector packs two cells and a kind), so hashing keeps the table
/// small and cache-resident; a collision only blurs ordering.
const HISTORY_SIZE: usize = 1 << 12;

/// The value history counters approach but never reach. Each cut-off moves its
/// counter a share `bonus / HISTORY_LIMIT` of the way there ("gravity"), so recent
/// cut-offs outweigh old ones and no counter overflows, at a constant cost per update.
/// (Halving the whole table whenever one counter reached the limit cost a tenth of a
/// Connect Four proof's time: at a solver's depths every bonus is large.)
const HISTORY_LIMIT: i32 = 1 << 20;

/// Ordering scores: the table move, then noisy moves, then the quiet moves by the
/// evaluator's hint (a `u8`, the most significant part), the killer rank within equal
/// hints (a step of [`KILLER_STEP`] each) and their history within equal killer ranks,
/// and last the moves that concede an immediate win. Games without hints thus order
/// killers before history; Connect Four's threat-count hints before killers, which,
/// ranked above the hints, made its proofs search 3.6 times the nodes.
pub(crate) const TT_MOVE_SCORE: i32 = i32::MAX;
pub(crate) const NOISY_SCORE: i32 = 1 << 30;
pub(crate) const KILLER_STEP: i32 = 1 << 20;
pub(crate) const HINT_SHIFT: u32 = 22;
pub(crate) const CONCEDES_SCORE: i32 = i32::MIN;
const _: () = assert!(HISTORY_LIMIT <= KILLER_STEP);
const _: () = assert!(3 * KILLER_STEP <= 1 << HINT_SHIFT);
const _: () = assert!(((u8::MAX as i32) << HINT_SHIFT) + (1 << HINT_SHIFT) <= NOISY_SCORE);

/// Killer moves (quiet moves that caused a cut-off at the same ply, in a sibling
/// position) and the history table (quiet moves weighted by the depth of the cut-offs
/// they caused), for one search thread.
#[derive(Clone, Debug)]
pub(crate) struct Heuristics {
    killers: Vec<[u32; KILLERS]>,
    history: Vec<i32>,
}

impl Heuristics {
    /// Empty heuristics for searches of up to `plies` plies.
    pub(crate) fn new(plies: usize) -> Self {
        Heuristics {
            killers: vec![[NONE; KILLERS]; plies],
            history: vec![0; 2 * HISTORY_SIZE],
        }
    }

    /// Forgets everything (the start of a search: what was learnt about another position
    /// orders this one worse than generation order).
    pub(crate) fn clear(&mut self) {
        self.killers.fill([NONE; KILLERS]);
        self.history.fill(0);
    }

    /// Records that quiet move `code` of `seat` caused a cut-off at `ply` with `depth`
    /// plies left.
    pub(crate) fn record_cutoff(&mut self, seat: Seat, ply: usize, depth: u32, code: u32) {
        let slots = &mut self.killers[ply];
        if slots[0] != code {
            slots[1] = slots[0];
            slots[0] = code;
        }
        let bonus = (depth * depth).min(HISTORY_LIMIT as u32) as i32;
        let h = &mut self.history[index(seat, code)];
        // h + bonus * (1 - h / LIMIT), in i64 so the product cannot overflow; stays below
        // the limit when it starts below it.
        *h += (i64::from(bonus) * i64::from(HISTORY_LIMIT - *h) / i64::from(HISTORY_LIMIT)) as i32;
    }

    /// The killer rank of `code` at `ply`: 2 for the newest killer, 1 for the older,
    /// 0 for none.
    pub(crate) fn killer_rank(&self, ply: usize, code: u32) -> i32 {
        match self.killers[ply] {
            [k, _] if k == code => 2,
            [_, k] if k == code => 1,
            _ => 0,
        }
    }

    /// The history counter of `code` for `seat` (0 .. [`HISTORY_LIMIT`]).
    pub(crate) fn history(&self, seat: Seat, code: u32) -> i32 {
        self.history[index(seat, code)]
    }

    /// The ordering score of quiet move `code` of `seat` at `ply`, whose evaluator's
    /// hint is `hint`: the hint first, then (if `killers`) its killer rank, then (if
    /// `history`) its history counter (see the score constants above).
    pub(crate) fn quiet_score(
        &self,
        hint: u8,
        seat: Seat,
        ply: usize,
        code: u32,
        killers: bool,
        history: bool,
    ) -> i32 {
        let killer = if killers {
            self.killer_rank(ply, code)
        } else {
            0
        };
        let history = if history { self.history(seat, code) } else { 0 };
        (i32::from(hint) << HINT_SHIFT) + killer * KILLER_STEP + history
    }
}

/// The history slot of `code` for `seat`: a multiplicative hash of the code.
#[inline]
fn index(seat: Seat, code: u32) -> usize {
    let h = code.wrapping_mul(0x9E37_79B9) >> (32 - HISTORY_SIZE.trailing_zeros());
    (seat & 1) * HISTORY_SIZE + h as usize
}

/// Moves the highest-scored move of `moves[i..]` to `i` (and its score with it), the
/// first of equals winning. Selecting one move at a time costs only for the moves
/// actually searched, which after a cut-off are few.
#[inline]
pub(crate) fn select_next<M: Copy>(moves: &mut [M], scores: &mut [i32], i: usize) {
    let mut best = i;
    for j in i + 1..moves.len() {
        if scores[j] > scores[best] {
            best = j;
        }
    }
    moves.swap(i, best);
    scores.swap(i, best);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn killers_keep_the_two_newest_distinct_moves() {
        let mut h = Heuristics::new(4);
        h.record_cutoff(0, 1, 3, 10);
        h.record_cutoff(0, 1, 3, 10);
        assert_eq!((h.killer_rank(1, 10), h.killer_rank(1, 11)), (2, 0));
        h.record_cutoff(0, 1, 3, 11);
        assert_eq!((h.killer_rank(1, 11), h.killer_rank(1, 10)), (2, 1));
        h.record_cutoff(0, 1, 3, 12);
        assert_eq!(h.killer_rank(1, 10), 0);
        assert_eq!(h.killer_rank(2, 12), 0, "killers are per ply");
        h.clear();
        assert_eq!(h.killer_rank(1, 12), 0);
    }

    #[test]
    fn history_grows_with_depth_squared_per_seat_and_saturates_below_the_limit() {
        let mut h = Heuristics::new(1);
        h.record_cutoff(1, 0, 4, 7);
        h.record_cutoff(1, 0, 2, 7);
        // 16, then 4 · (1 - 16 / 2^20) rounded down: 3.
        assert_eq!(h.history(1, 7), 19);
        assert_eq!(h.history(0, 7), 0);
        let mut last = h.history(1, 7);
        for _ in 0..1_000 {
            h.record_cutoff(1, 0, 256, 7);
            let now = h.history(1, 7);
            assert!(now >= last && now < HISTORY_LIMIT);
            last = now;
        }
        assert!(last > HISTORY_LIMIT - HISTORY_LIMIT / 100, "{last}");
    }

    #[test]
    fn selection_picks_the_best_and_keeps_ties_in_order() {
        let mut moves = ['a', 'b', 'c', 'd'];
        let mut scores = [1, 5, 5, 2];
        select_next(&mut moves, &mut scores, 0);
        assert_eq!(moves[0], 'b');
        select_next(&mut moves, &mut scores, 1);
        assert_eq!(moves[1], 'c');
        select_next(&mut moves, &mut scores, 2);
        assert_eq!(moves, ['b', 'c', 'd', 'a']);
    }
}
