//! Common random numbers: chance outcomes drawn by the identity of the chance event
//! rather than from one running random stream.
//!
//! A tournament plays games in pairs, the same start with the seats swapped, and wants
//! the two games of a pair to get the same luck so that the pair cancels it. With one
//! running stream per pair, the `k`-th draw serves whatever chance event happens to come
//! `k`-th; as soon as the two games differ (a different decision, one more roll), the
//! draws serve different events and the luck no longer matches. Instead, each chance
//! event of a game names itself with an [`EventId`] (for dice games, "the `k`-th chance
//! event of turn `t`"), and a [`Luck`] answers uniform draws as a pure function of that
//! identity. The same event then gets the same outcome in both games of a pair however
//! the games got there; [`crate::State::common_outcome`] is the game's side of this.

use rand::RngCore;

/// The identity of one chance event of a game (see [`crate::State::common_outcome`]).
///
/// A plain 64-bit number; a game chooses how to build it, e.g. with
/// [`EventId::of_turn`]. Two chance events of one game must never share an identity.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct EventId(pub u64);

impl EventId {
    /// The `k`-th chance event (from 0) of turn `turn` (from 0): `turn` in the high 32
    /// bits, `k` in the low 32.
    #[inline]
    pub const fn of_turn(turn: u32, k: u32) -> EventId {
        EventId((turn as u64) << 32 | k as u64)
    }
}

/// A source of exact uniform draws keyed by chance-event identity: the luck of one pair
/// of games.
///
/// Contract of an implementation:
/// - [`Luck::below`] is a pure function of the luck's own key, `event`, `draw` and `n`:
///   asked twice, it answers the same;
/// - for each `(event, draw)` the answer is exactly uniform on `0..n` (no modulo bias:
///   rejection sampling or an equivalent);
/// - answers for different `(event, draw)` keys are independent.
///
/// The provided methods build weighted choices and permutations on top of `below`.
pub trait Luck {
    /// Draw number `draw` of event `event`: a uniform integer in `0..n`. `n` must be at
    /// least 1.
    fn below(&self, event: EventId, draw: u32, n: u64) -> u64;

    /// An outcome of `outcomes` with probability weight / total weight, from draw 0 of
    /// `event`. Outcomes are taken in the order given, so the same event with the same
    /// outcome list always gives the same outcome. Panics if `outcomes` is empty or
    /// every weight is 0.
    fn weighted<M: Copy>(&self, event: EventId, outcomes: &[(M, u32)]) -> M {
        let total: u64 = outcomes.iter().map(|&(_, w)| u64::from(w)).sum();
        assert!(total > 0, "a weighted choice needs a positive total weight");
        pick_weighted(outcomes, self.below(event, 0, total))
    }

    /// Shuffles `items` into a uniformly random order (Fisher–Yates from the last
    /// position down, position `i` swapped with draw `i` of `event`, uniform on
    /// `0..=i`). The same event always gives the same permutation.
    fn shuffle<T>(&self, event: EventId, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(event, i as u32, i as u64 + 1);
            items.swap(i, j as usize);
        }
    }
}

/// The 32-byte ChaCha key made of four little-endian `u64` words: the layout of every
/// keyed random stream in the toolkit (a tournament's streams, the chance agents'
/// playouts), so that any ChaCha8 implementation can reproduce them from the words.
pub fn chacha_key(words: [u64; 4]) -> [u8; 32] {
    let mut key = [0u8; 32];
    for (chunk, word) in key.chunks_exact_mut(8).zip(words) {
        chunk.copy_from_slice(&word.to_le_bytes());
    }
    key
}

/// A uniform integer in `0..n` (`n` ≥ 1) from `rng`, exactly: 64-bit words at or above
/// the largest multiple of `n` that fits (`2^64 - (2^64 mod n)`) are rejected, so every
/// remainder is equally likely.
pub fn uniform_below(rng: &mut impl RngCore, n: u64) -> u64 {
    assert!(n > 0, "a uniform draw needs n >= 1");
    // 2^64 mod n, computed without 2^64.
    let rejected = (u64::MAX % n + 1) % n;
    loop {
        let x = rng.next_u64();
        if x <= u64::MAX - rejected {
            return x % n;
        }
    }
}

/// The outcome of `outcomes` whose weight interval `[sum before, sum before + weight)`
/// holds `pick`, which must be below the total weight. Every value of `pick` maps to one
/// outcome, and exactly `weight` values map to each, so a uniform `pick` gives each
/// outcome with probability weight / total.
pub fn pick_weighted<M: Copy>(outcomes: &[(M, u32)], mut pick: u64) -> M {
    for &(m, w) in outcomes {
        if pick < u64::from(w) {
            return m;
        }
        pick -= u64::from(w);
    }
    panic!("pick is not below the total weight")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A luck whose draws are `(event + draw) mod n`: not random, but it lets a test
    /// enumerate every value a draw can take.
    struct Counting;

    impl Luck for Counting {
        fn below(&self, event: EventId, draw: u32, n: u64) -> u64 {
            (event.0 + u64::from(draw)) % n
        }
    }

    #[test]
    fn event_ids_of_turns_are_distinct() {
        assert_eq!(EventId::of_turn(0, 0), EventId(0));
        assert_eq!(EventId::of_turn(1, 2), EventId((1 << 32) + 2));
        assert_ne!(EventId::of_turn(2, 1), EventId::of_turn(1, 2));
        assert_eq!(EventId::of_turn(u32::MAX, u32::MAX), EventId(u64::MAX));
    }

    #[test]
    fn every_pick_value_maps_to_an_outcome_as_often_as_its_weight() {
        let outcomes = [('a', 3), ('b', 0), ('c', 1), ('d', 5)];
        let mut counts = [0u32; 4];
        for pick in 0..9 {
            let m = pick_weighted(&outcomes, pick);
            counts[(m as u8 - b'a') as usize] += 1;
        }
        assert_eq!(counts, [3, 0, 1, 5]);
        // Over every draw value, `weighted` does the same.
        let mut counts = [0u32; 4];
        for e in 0..9 {
            let m = Counting.weighted(EventId(e), &outcomes);
            counts[(m as u8 - b'a') as usize] += 1;
        }
        assert_eq!(counts, [3, 0, 1, 5]);
    }

    #[test]
    #[should_panic(expected = "positive total weight")]
    fn a_weighted_choice_without_weight_panics() {
        Counting.weighted(EventId(0), &[('a', 0)]);
    }

    #[test]
    fn shuffle_is_fisher_yates_over_the_draws() {
        // Counting with event 0: draw i is i mod (i + 1) = i, so nothing moves.
        let mut items = [0, 1, 2, 3];
        Counting.shuffle(EventId(0), &mut items);
        assert_eq!(items, [0, 1, 2, 3]);
        // Event 1: draw i is (1 + i) mod (i + 1) = 0, so each position i from 3 down
        // swaps with position 0: [0,1,2,3] -> [3,1,2,0] -> [2,1,3,0] -> [1,2,3,0].
        let mut items = [0, 1, 2, 3];
        Counting.shuffle(EventId(1), &mut items);
        assert_eq!(items, [1, 2, 3, 0]);
    }

    #[test]
    fn shuffles_enumerated_over_all_draws_are_uniform() {
        // A luck that answers draw i from a fixed table: enumerating every table of
        // three items (draw 1 in 0..2, draw 2 in 0..3) gives each of the 6 permutations
        // exactly once.
        struct Table([u64; 3]);
        impl Luck for Table {
            fn below(&self, _: EventId, draw: u32, n: u64) -> u64 {
                assert!(self.0[draw as usize] < n);
                self.0[draw as usize]
            }
        }
        let mut seen = std::collections::BTreeSet::new();
        for d1 in 0..2 {
            for d2 in 0..3 {
                let mut items = ['x', 'y', 'z'];
                Table([0, d1, d2]).shuffle(EventId(0), &mut items);
                seen.insert(items);
            }
        }
        assert_eq!(seen.len(), 6);
    }
}
