//! Seed derivation: every random stream of a run comes from the master seed and the
//! stream's identity, never from the thread that happens to run it.
//!
//! Each stream is a ChaCha8 generator (rand_chacha's `ChaCha8Rng`, the same as
//! [`agon_search::AgentRng`]) whose 256-bit key is four little-endian `u64` words, read
//! from its ChaCha stream (nonce) number, which is 0 unless the table says otherwise:
//!
//! | stream | key words | ChaCha stream |
//! |---|---|---|
//! | chance, deal `d`, event `e`, draw `d'` | `seed`, `1`, `d`, `e` | `d'` |
//! | agent of seat `s` in game `g` | `seed`, `2`, `g`, `s` | 0 |
//! | random opening, deal `d` | `seed`, `3`, `d`, `0` | 0 |
//! | `agon tune`'s choice of positions of game `g` | `seed`, `4`, `g`, `0` | 0 |
//! | random openings drawn without replacement (one stream for all deals) | `seed`, `5`, `0`, `0` | 0 |
//!
//! (the second word separates the kinds of stream). ChaCha is a pseudo-random function
//! of its key and stream number, so distinct keys give independent streams even though
//! the keys themselves are simple; any implementation of ChaCha8 with the key above and
//! nonce as given reproduces a run's randomness.
//!
//! The *deal* `d` of game `g` is what its opening and luck are drawn by
//! ([`crate::running::tournament::schedule::Seating::deal`]):
//!
//! - in a match (two or more agents) it is the pair, `d = floor(g / 2)`: both games of a
//!   pair (games `2p` and `2p+1`, seats swapped) get the same opening and the same
//!   chance outcomes, so the pair compares the agents on equal terms;
//! - in self-play (one agent) it is the game itself, `d = g`: swapping the seats of one
//!   agent changes nothing, so a shared deal would make game `2p+1` a replay of game
//!   `2p`; instead every game gets its own opening and luck.
//!
//! Agent streams are per game and seat in both cases, so agents that draw from their
//! stream (random tie-breaks, playouts, `noise`) play each game their own way.
//!
//! Chance uses common random numbers ([`agon_engine::luck`]): a chance outcome is not
//! the next value of a running stream but a function of the deal, the event's identity
//! `e` (chosen by the game, e.g. "the `k`-th roll of turn `t`") and the draw number `d'`
//! within the event. Each draw is a uniform integer below `n` from the first 64-bit
//! words of its stream (little-endian, as `next_u64`), by rejection: a word `x` is kept
//! when `x < 2^64 - (2^64 mod n)` and gives `x mod n`, otherwise the next word is read.
//! Games of one deal share [`PairLuck`]`(seed, d)`, so the same event gets the same
//! outcome in both games of a match's pair. The random opening of deal `d` is one
//! running stream, shared by the games of the deal, which thus open alike.
//! `agon play` and `agon analyse` use the streams of game 0 (deal 0).

use agon_engine::luck::chacha_key;
pub use agon_engine::luck::uniform_below;
use agon_engine::{EventId, Luck};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Second key word of chance streams.
const CHANCE_STREAM: u64 = 1;
/// Second key word of agent streams.
const AGENT_STREAM: u64 = 2;
/// Second key word of random-opening streams.
const OPENING_STREAM: u64 = 3;
/// Second key word of the streams that pick `agon tune`'s positions.
const SAMPLE_STREAM: u64 = 4;
/// Second key word of the stream of random openings drawn without replacement.
const DISTINCT_OPENING_STREAM: u64 = 5;

/// The luck of deal `deal` (a match's pair, or one self-play game): the chance outcomes
/// of its games, drawn by event identity (see the table above).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PairLuck {
    seed: u64,
    deal: u64,
}

impl PairLuck {
    /// The luck of deal `deal` of the run with master seed `seed`.
    pub fn new(seed: u64, deal: u64) -> PairLuck {
        PairLuck { seed, deal }
    }
}

impl Luck for PairLuck {
    fn below(&self, event: EventId, draw: u32, n: u64) -> u64 {
        let mut rng =
            ChaCha8Rng::from_seed(chacha_key([self.seed, CHANCE_STREAM, self.deal, event.0]));
        rng.set_stream(u64::from(draw));
        uniform_below(&mut rng, n)
    }
}

/// The stream of the agent in seat `seat` of game `game`.
pub fn agent_rng(seed: u64, game: u64, seat: usize) -> ChaCha8Rng {
    ChaCha8Rng::from_seed(chacha_key([seed, AGENT_STREAM, game, seat as u64]))
}

/// The stream of the random openings of deal `deal` (shared by the games of the deal).
pub fn opening_rng(seed: u64, deal: u64) -> ChaCha8Rng {
    ChaCha8Rng::from_seed(chacha_key([seed, OPENING_STREAM, deal, 0]))
}

/// The one stream from which the random openings of all deals are drawn in turn, each
/// unlike those before it ([`crate::running::opening::Opening::Distinct`]).
pub fn distinct_opening_rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::from_seed(chacha_key([seed, DISTINCT_OPENING_STREAM, 0, 0]))
}

/// The stream that picks which positions of game `game` `agon tune` samples.
pub fn sample_rng(seed: u64, game: u64) -> ChaCha8Rng {
    ChaCha8Rng::from_seed(chacha_key([seed, SAMPLE_STREAM, game, 0]))
}

#[cfg(test)]
mod tests {
    use rand::RngCore;

    use super::*;

    #[test]
    fn keys_are_little_endian_words() {
        let k = chacha_key([1, 2, 0x0102, 0]);
        assert_eq!(&k[0..8], &[1, 0, 0, 0, 0, 0, 0, 0]);
        assert_eq!(&k[8..16], &[2, 0, 0, 0, 0, 0, 0, 0]);
        assert_eq!(&k[16..24], &[2, 1, 0, 0, 0, 0, 0, 0]);
        assert_eq!(&k[24..32], &[0; 8]);
    }

    #[test]
    fn streams_are_reproducible_and_distinct() {
        let first = |mut r: ChaCha8Rng| r.next_u64();
        let luck = |seed, pair, event, draw| {
            PairLuck::new(seed, pair).below(EventId(event), draw, u64::MAX)
        };
        assert_eq!(luck(7, 3, 5, 1), luck(7, 3, 5, 1));
        assert_eq!(first(agent_rng(7, 3, 1)), first(agent_rng(7, 3, 1)));
        assert_eq!(first(opening_rng(7, 3)), first(opening_rng(7, 3)));
        let all = [
            luck(7, 3, 0, 0),
            luck(7, 4, 0, 0),
            luck(8, 3, 0, 0),
            luck(7, 3, 1, 0),
            luck(7, 3, 0, 1),
            first(agent_rng(7, 3, 0)),
            first(agent_rng(7, 3, 1)),
            first(agent_rng(7, 4, 0)),
            first(opening_rng(7, 3)),
            first(opening_rng(7, 4)),
            first(sample_rng(7, 3)),
        ];
        for i in 0..all.len() {
            for j in 0..i {
                assert_ne!(all[i], all[j], "streams {i} and {j} coincide");
            }
        }
    }
}

#[cfg(test)]
mod luck_tests {
    use rand::RngCore;

    use super::*;

    /// A generator that returns the given words in order.
    struct Words(Vec<u64>);

    impl RngCore for Words {
        fn next_u32(&mut self) -> u32 {
            self.next_u64() as u32
        }
        fn next_u64(&mut self) -> u64 {
            self.0.remove(0)
        }
        fn fill_bytes(&mut self, _: &mut [u8]) {
            unreachable!("only words are drawn")
        }
    }

    #[test]
    fn rejection_keeps_exactly_the_words_below_the_largest_multiple() {
        // n = 3: 2^64 = 3 * 6148914691236517205 + 1, so only u64::MAX (= 2^64 - 1) is
        // rejected; the next word, 7, gives 7 mod 3 = 1.
        assert_eq!(uniform_below(&mut Words(vec![u64::MAX, 7]), 3), 1);
        assert_eq!(
            uniform_below(&mut Words(vec![u64::MAX - 1]), 3),
            (u64::MAX - 1) % 3
        );
        // n = 6: 2^64 mod 6 = 4, so the four largest words are rejected.
        let words = vec![u64::MAX, u64::MAX - 3, u64::MAX - 4];
        assert_eq!(uniform_below(&mut Words(words), 6), (u64::MAX - 4) % 6);
        // A power of two rejects nothing.
        assert_eq!(uniform_below(&mut Words(vec![u64::MAX]), 8), 7);
        assert_eq!(uniform_below(&mut Words(vec![u64::MAX]), 1), 0);
    }

    #[test]
    fn pair_luck_draws_are_uniform() {
        // 6000 events of pair 0, seed 1, each a die: expected 1000 per face. Pearson's
        // statistic with 5 degrees of freedom stays below 20.52 (the 0.999 quantile) for
        // a uniform sampler; the draws are fixed, so the test is deterministic.
        let luck = PairLuck::new(1, 0);
        let mut counts = [0u32; 6];
        for e in 0..6000 {
            counts[luck.below(EventId(e), 0, 6) as usize] += 1;
        }
        let chi2: f64 = counts
            .iter()
            .map(|&c| (f64::from(c) - 1000.0).powi(2) / 1000.0)
            .sum();
        assert!(chi2 < 20.52, "{counts:?}: chi-square {chi2}");
    }
}
