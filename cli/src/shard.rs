//! Shards: one of `N` disjoint slices of a tournament, to spread a long run over many
//! machines (`agon tournament --shard I/N`), merged back by [`crate::running::merge`].
//!
//! Slicing: the run's seat-swapped pairs (pair `p` = games `2p` and `2p+1`, see
//! [`crate::running::tournament`]) are cut into `N` contiguous blocks of as equal a size as
//! possible; shard `I` (from 1) holds pairs `floor((I-1)·P/N)` up to, but not including,
//! `floor(I·P/N)`, where `P` is the number of pairs. Contiguous blocks keep every shard's
//! games.csv a slice of the whole run's, so merging is concatenation in shard order, and
//! whole pairs keep each pair's two games (which share a chance stream) together. A game
//! depends only on the plan and its index, so a shard plays exactly the games the
//! single-machine run plays at those indices.

use std::fmt;
use std::ops::Range;

use crate::bad_input::BadInput;

/// Shard `index` of `count` (1 ≤ index ≤ count).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which slice, from 1.
    pub index: u64,
    /// How many slices the run is cut into.
    pub count: u64,
}

impl Shard {
    /// Parses `I/N` (as given to `--shard` and stored in meta.csv).
    pub fn parse(text: &str) -> Result<Shard, BadInput> {
        let bad = || {
            BadInput::new(format!(
                "--shard {text:?} is not valid: expected I/N with 1 <= I <= N (e.g. 2/8)"
            ))
        };
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let parse = |s: &str| -> Result<u64, BadInput> {
            if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
                return Err(bad());
            }
            s.parse().map_err(|_| bad())
        };
        let (index, count) = (parse(i)?, parse(n)?);
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// Fails when the run has fewer pairs than shards (a shard would be empty).
    pub fn check(&self, total_games: u64) -> Result<(), BadInput> {
        let pairs = total_games / 2;
        if self.count > pairs {
            return Err(BadInput::new(format!(
                "--shard {self}: the run has {pairs} seat-swapped pairs, so it can be cut into \
                 at most {pairs} shards"
            )));
        }
        Ok(())
    }

    /// The game indices of this shard in a run of `total_games` games (always even).
    pub fn games(&self, total_games: u64) -> Range<u64> {
        let pairs = total_games / 2;
        // u128: `index · pairs` may exceed u64 for absurd sizes; never truncates.
        let bound = |i: u64| (i as u128 * pairs as u128 / self.count as u128) as u64 * 2;
        bound(self.index - 1)..bound(self.index)
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_accepts_i_of_n_and_refuses_the_rest() {
        assert_eq!(Shard::parse("2/8"), Ok(Shard { index: 2, count: 8 }));
        assert_eq!(Shard::parse("1/1").unwrap().to_string(), "1/1");
        for bad in [
            "0/3", "4/3", "3", "/3", "1/", "a/3", "+1/3", "1/3/5", " 1/3", "",
        ] {
            assert_eq!(
                Shard::parse(bad),
                Err(BadInput::new(format!(
                    "--shard {bad:?} is not valid: expected I/N with 1 <= I <= N (e.g. 2/8)"
                ))),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn shards_are_contiguous_whole_pairs_covering_the_run() {
        // 18 games = 9 pairs in 4 shards: floor(k·9/4) = 0, 2, 4, 6, 9 pairs, so the
        // blocks hold 2, 2, 2 and 3 pairs: games 0..4, 4..8, 8..12, 12..18.
        let ranges: Vec<Range<u64>> = (1..=4)
            .map(|index| Shard { index, count: 4 }.games(18))
            .collect();
        assert_eq!(ranges, vec![0..4, 4..8, 8..12, 12..18]);
        assert_eq!(Shard { index: 1, count: 1 }.games(18), 0..18);
        assert!(Shard { index: 1, count: 9 }.check(18).is_ok());
        assert_eq!(
            Shard {
                index: 1,
                count: 10
            }
            .check(18)
            .unwrap_err()
            .0,
            "--shard 1/10: the run has 9 seat-swapped pairs, so it can be cut into at most 9 \
             shards"
        );
    }
}
