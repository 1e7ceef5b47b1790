//! Exactly uniform draws below small bounds that spend a generator's 64-bit words a
//! few bits at a time: the draws of random playouts.
//!
//! A playout makes one draw per ply, almost always below a small number (2 for Pig's
//! roll or hold, 6 for its die, a few dozen moves). Taking a whole 32- or 64-bit
//! word for each, as `random_range` does, makes the generator a large share of a cheap
//! ply; here a draw below `n` takes `⌈log2 n⌉ + 8` bits of a buffered word (only
//! `log2 n` for a power of two), so one ChaCha word serves several plies.
//!
//! Exactness: a draw below `n` takes `k` fresh bits `v`, uniform on `0..2^k` with
//! `2^k ≥ n`, and answers `⌊v·n / 2^k⌋` unless the low part `v·n mod 2^k` falls below
//! `2^k mod n`, in which case it draws again (Lemire's multiply-and-reject method, with
//! a `k`-bit word): every answer then has exactly `⌊2^k / n⌋` accepted values of `v`.
//! The 8 spare bits make a redraw rarer than 1 in 256, and a power of two never
//! redraws. Bounds above [`MAX_FRUGAL`] are drawn with `random_range` directly.

use rand::{Rng, RngCore};

/// The largest bound drawn from buffered bits: `⌈log2 n⌉ + 8` bits must fit in 32.
pub(crate) const MAX_FRUGAL: u64 = 1 << 24;

/// A buffer of unused random bits over a generator (see the module docs). The draws
/// depend on the generator's words and on the buffer, so a sequence of draws is
/// reproduced by a fresh `Frugal` over a generator in the same state.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Frugal {
    /// Unused bits, lowest first.
    word: u64,
    /// How many of `word`'s low bits are unused.
    left: u32,
}

impl Frugal {
    /// An empty buffer (its first draw takes a word from the generator).
    pub(crate) fn new() -> Self {
        Frugal::default()
    }

    /// A uniform draw from `0..n` (`n ≥ 1`). Inlined: a playout calls it every ply, and
    /// a call would keep the state being played in memory instead of registers.
    #[inline(always)]
    pub(crate) fn below<R: RngCore>(&mut self, rng: &mut R, n: u64) -> u64 {
        debug_assert!(n >= 1, "a draw below 0");
        if n <= MAX_FRUGAL {
            let log = u64::BITS - (n - 1).leading_zeros();
            if n.is_power_of_two() {
                return self.bits(rng, log);
            }
            let k = log + 8;
            if let Some(answer) = answer(self.bits(rng, k), n, k) {
                return answer;
            }
        }
        self.below_again(rng, n)
    }

    /// [`Frugal::below`] after a rejected word, or for a bound above [`MAX_FRUGAL`]:
    /// rare, so kept out of line.
    #[cold]
    #[inline(never)]
    fn below_again<R: RngCore>(&mut self, rng: &mut R, n: u64) -> u64 {
        if n > MAX_FRUGAL {
            return rng.random_range(0..n);
        }
        let k = u64::BITS - (n - 1).leading_zeros() + 8;
        loop {
            if let Some(answer) = answer(self.bits(rng, k), n, k) {
                return answer;
            }
        }
    }

    /// The next `k` (≤ 32) buffered bits, refilling from `rng` (the rest of a word too
    /// short is dropped).
    #[inline(always)]
    fn bits<R: RngCore>(&mut self, rng: &mut R, k: u32) -> u64 {
        if self.left < k {
            self.word = rng.next_u64();
            self.left = u64::BITS;
        }
        let v = self.word & ((1u64 << k) - 1);
        // `k` may be 0 (n = 1) or the word's whole remaining width; a shift by 64
        // would overflow, so shift in two steps.
        self.word = (self.word >> (k / 2)) >> (k - k / 2);
        self.left -= k;
        v
    }
}

/// The draw below `n` that the `k`-bit word `v` gives (`2^k ≥ n`), or `None` if `v` is
/// rejected (see the module docs).
#[inline]
fn answer(v: u64, n: u64, k: u32) -> Option<u64> {
    let product = v * n;
    let low = product & ((1 << k) - 1);
    // The threshold `2^k mod n` is below `n`, so it is only computed (a division) in
    // the rare case that the low part is below `n` too.
    (low >= n || low >= (1u64 << k) % n).then_some(product >> k)
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::*;
    use crate::agent::AgentRng;

    /// Counts of each answer of `draws` draws below `n`.
    fn histogram(n: u64, draws: usize, seed: u64) -> Vec<u64> {
        let mut rng = AgentRng::seed_from_u64(seed);
        let mut frugal = Frugal::new();
        let mut counts = vec![0u64; n as usize];
        for _ in 0..draws {
            let v = frugal.below(&mut rng, n);
            assert!(v < n, "{v} drawn below {n}");
            counts[v as usize] += 1;
        }
        counts
    }

    #[test]
    fn every_answer_is_below_the_bound_and_each_is_drawn_about_equally_often() {
        for n in [1u64, 2, 3, 6, 7, 8, 20, 100, 255, 256, 1000] {
            let draws = 4000 * n as usize;
            let counts = histogram(n, draws, n);
            // Chi-squared against the uniform: with n - 1 degrees of freedom, a value
            // above n - 1 + 6·sqrt(2(n - 1)) is beyond four standard deviations of it.
            let expected = draws as f64 / n as f64;
            let chi2: f64 = counts
                .iter()
                .map(|&c| (c as f64 - expected).powi(2) / expected)
                .sum();
            let dof = (n - 1) as f64;
            assert!(
                chi2 <= dof + 6.0 * (2.0 * dof).sqrt(),
                "n={n}: chi2 {chi2} {counts:?}"
            );
        }
    }

    #[test]
    fn the_rejection_makes_every_answer_exactly_as_likely() {
        // Enumerate all 2^k words of the k-bit draw below n: each answer must be given
        // by exactly ⌊2^k / n⌋ of them, the rest rejected.
        for n in [3u64, 5, 6, 7, 11, 100, 255] {
            let log = u64::BITS - (n - 1).leading_zeros();
            let k = log + 8;
            let mut counts = vec![0u64; n as usize];
            for v in 0..(1u64 << k) {
                if let Some(a) = answer(v, n, k) {
                    counts[a as usize] += 1;
                }
            }
            let each = (1u64 << k) / n;
            assert!(counts.iter().all(|&c| c == each), "n={n}: {counts:?}");
        }
    }

    #[test]
    fn a_fresh_buffer_over_the_same_generator_draws_the_same_numbers() {
        let draw = |seed| {
            let mut rng = AgentRng::seed_from_u64(seed);
            let mut frugal = Frugal::new();
            (0..200)
                .map(|i| frugal.below(&mut rng, [2, 6, 1, 37, 1 << 30][i % 5]))
                .collect::<Vec<_>>()
        };
        assert_eq!(draw(5), draw(5));
        assert_ne!(draw(5), draw(6));
    }

    #[test]
    fn a_power_of_two_takes_exactly_its_bits() {
        // 64 coin flips spend one word: the 65th draw comes from the next.
        let mut rng = AgentRng::seed_from_u64(3);
        let word = AgentRng::seed_from_u64(3).next_u64();
        let mut frugal = Frugal::new();
        let flips: u64 = (0..64).map(|i| frugal.below(&mut rng, 2) << i).sum();
        assert_eq!(flips, word);
    }
}
