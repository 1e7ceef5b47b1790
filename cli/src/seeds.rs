//! Seed derivation: every random stream of a run comes from the master seed and the
//! stream's identity, never from the thread that happens to run it.
//!
//! Each stream is a ChaCha8 generator (rand_chacha's `ChaCha8Rng`, the same as
//! [`agon_search::AgentRng`]) whose 256-bit key is four little-endian `u64` words:
//!
//! | stream | key words |
//! |---|---|
//! | chance, pair `p` | `seed`, `1`, `p`, `0` |
//! | agent of seat `s` in game `g` | `seed`, `2`, `g`, `s` |
//!
//! (the second word separates the two kinds of stream). ChaCha is a pseudo-random
//! function of its key, so distinct keys give independent streams even though the keys
//! themselves are simple; any implementation of ChaCha8 with the key above, stream 0 and
//! nonce 0 reproduces a run's randomness. Both games of pair `p` (games `2p` and `2p+1`)
//! start a chance generator from the same key, so they draw from the same chance stream.
//! `agon play` and `agon analyse` use the streams of game 0 (pair 0).

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Second key word of chance streams.
const CHANCE_STREAM: u64 = 1;
/// Second key word of agent streams.
const AGENT_STREAM: u64 = 2;

/// The 32-byte ChaCha key made of four little-endian words.
fn key(words: [u64; 4]) -> [u8; 32] {
    let mut key = [0u8; 32];
    for (chunk, word) in key.chunks_exact_mut(8).zip(words) {
        chunk.copy_from_slice(&word.to_le_bytes());
    }
    key
}

/// The chance stream of pair `pair` (shared by its two games).
pub fn chance_rng(seed: u64, pair: u64) -> ChaCha8Rng {
    ChaCha8Rng::from_seed(key([seed, CHANCE_STREAM, pair, 0]))
}

/// The stream of the agent in seat `seat` of game `game`.
pub fn agent_rng(seed: u64, game: u64, seat: usize) -> ChaCha8Rng {
    ChaCha8Rng::from_seed(key([seed, AGENT_STREAM, game, seat as u64]))
}

#[cfg(test)]
mod tests {
    use rand::RngCore;

    use super::*;

    #[test]
    fn keys_are_little_endian_words() {
        let k = key([1, 2, 0x0102, 0]);
        assert_eq!(&k[0..8], &[1, 0, 0, 0, 0, 0, 0, 0]);
        assert_eq!(&k[8..16], &[2, 0, 0, 0, 0, 0, 0, 0]);
        assert_eq!(&k[16..24], &[2, 1, 0, 0, 0, 0, 0, 0]);
        assert_eq!(&k[24..32], &[0; 8]);
    }

    #[test]
    fn streams_are_reproducible_and_distinct() {
        let first = |mut r: ChaCha8Rng| r.next_u64();
        assert_eq!(first(chance_rng(7, 3)), first(chance_rng(7, 3)));
        assert_eq!(first(agent_rng(7, 3, 1)), first(agent_rng(7, 3, 1)));
        let all = [
            first(chance_rng(7, 3)),
            first(chance_rng(7, 4)),
            first(chance_rng(8, 3)),
            first(agent_rng(7, 3, 0)),
            first(agent_rng(7, 3, 1)),
            first(agent_rng(7, 4, 0)),
        ];
        for i in 0..all.len() {
            for j in 0..i {
                assert_ne!(all[i], all[j], "streams {i} and {j} coincide");
            }
        }
    }
}
