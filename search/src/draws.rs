//! Uniform draws for random playouts that spend a generator's 64-bit words a few bits at
//! a time where that is exact: draws below a power of two.
//!
//! A playout makes one draw per ply, often below a power of two: Pig's roll or hold is
//! a coin flip, and a forced move is a draw below 1. Taking a whole word for each, as
//! `random_range` does, makes the generator a large share of a cheap ply; here a draw
//! below `2^k` takes the next `k` bits of a buffered word (none for `k = 0`), which is
//! exactly uniform, so one ChaCha word serves 64 coin flips. Any other bound is one
//! `random_range` call (rand's widening-multiply sampler, unbiased), which measured
//! faster for decisions than taking a few more buffered bits and rejecting (a
//! variable shift, a multiply and a compare that the generator's own buffer already
//! does about as fast).
//!
//! Chance outcomes are the exception ([`Frugal::below_from_bits`]): their totals are
//! small (a die, a bag of tiles, a throw's odds) and a dice game draws one every other
//! ply, where rand's sampler took about 38 instructions a face of Pig's 48-instruction
//! ply. There a draw below `n ≤ 2^16` takes a fixed 16 buffered bits and maps them by
//! Lemire's multiply, `(x·n) >> 16`, rejecting the `2^16 mod n` values of `x` that
//! would make some answers likelier than others: exact, four draws to a word, and the
//! rejection branch is almost never taken (4 in 65,536 for a d6).

use rand::{Rng, RngCore};

/// The bits one try of [`Frugal::below_from_bits`] takes, and their mask.
const DRAW_BITS: u32 = 16;
const DRAW_MASK: u64 = (1 << DRAW_BITS) - 1;

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
    /// An empty buffer (its first draw below a power of two takes a word from the
    /// generator).
    pub(crate) fn new() -> Self {
        Frugal::default()
    }

    /// A uniform draw from `0..n` (`n ≥ 1`). Inlined: a playout calls it every ply.
    #[inline(always)]
    pub(crate) fn below<R: RngCore>(&mut self, rng: &mut R, n: u64) -> u64 {
        debug_assert!(n >= 1, "a draw below 0");
        if n.is_power_of_two() {
            return self.bits(rng, n.trailing_zeros());
        }
        match u32::try_from(n) {
            Ok(n) => u64::from(rng.random_range(0..n)),
            Err(_) => rng.random_range(0..n),
        }
    }

    /// A uniform draw from `0..n` (`n ≥ 1`) spending 16 buffered bits per try when
    /// `n ≤ 2^16` (see the module docs: exact, by rejection); a larger `n` is drawn as
    /// [`Frugal::below`] draws it. Inlined: a dice game's playout calls it every other
    /// ply.
    #[inline(always)]
    pub(crate) fn below_from_bits<R: RngCore>(&mut self, rng: &mut R, n: u64) -> u64 {
        debug_assert!(n >= 1, "a draw below 0");
        if n > 1 << DRAW_BITS {
            return self.below_cold(rng, n);
        }
        let product = self.bits(rng, DRAW_BITS) * n;
        if product & DRAW_MASK < n {
            return self.redraw_if_biased(rng, n, product);
        }
        product >> DRAW_BITS
    }

    /// [`Frugal::below_from_bits`]'s rare case, a bound above 2^16, out of line: kept
    /// small, the common path inlines into the playout's chance draw (inlined, the
    /// whole sampler made the draw a call that saved six registers every other ply).
    #[cold]
    #[inline(never)]
    fn below_cold<R: RngCore>(&mut self, rng: &mut R, n: u64) -> u64 {
        self.below(rng, n)
    }

    /// [`Frugal::below_from_bits`]'s rare case out of line: `product`, a draw of 16 bits
    /// times `n`, has a low half below `n`, so it may be one of the biased values.
    /// Rejecting the `2^16 mod n` values of x whose product's low half is below `2^16
    /// mod n` leaves each answer exactly ⌊2^16 / n⌋ values of x.
    #[cold]
    #[inline(never)]
    fn redraw_if_biased<R: RngCore>(&mut self, rng: &mut R, n: u64, mut product: u64) -> u64 {
        let reject_below = (1 << DRAW_BITS) % n;
        while product & DRAW_MASK < reject_below {
            product = self.bits(rng, DRAW_BITS) * n;
        }
        product >> DRAW_BITS
    }

    /// The next `k` (< 64) buffered bits, refilling from `rng` (the rest of a word too
    /// short is dropped).
    #[inline(always)]
    fn bits<R: RngCore>(&mut self, rng: &mut R, k: u32) -> u64 {
        if self.left < k {
            self.word = rng.next_u64();
            self.left = u64::BITS;
        }
        let v = self.word & ((1u64 << k) - 1);
        // `k` may be the word's whole remaining width; a shift by 64 would overflow, so
        // shift in two steps.
        self.word = (self.word >> (k / 2)) >> (k - k / 2);
        self.left -= k;
        v
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::*;
    use crate::agent::AgentRng;

    /// Draws `4000·b` numbers below `n` with `draw` (b = `n` up to `max_buckets`
    /// buckets), checking each is below `n` and that the buckets are filled about
    /// equally: chi-squared against the uniform, with b - 1 degrees of freedom, at most
    /// b - 1 + 6·sqrt(2(b - 1)), four standard deviations above its mean.
    fn check_uniform(n: u64, max_buckets: u64, mut draw: impl FnMut(u64) -> u64) {
        let buckets = n.min(max_buckets);
        let draws = 4000 * buckets;
        let mut counts = vec![0u64; buckets as usize];
        for _ in 0..draws {
            let v = draw(n);
            assert!(v < n, "{v} drawn below {n}");
            counts[(v * buckets / n) as usize] += 1;
        }
        let expected = draws as f64 / buckets as f64;
        let chi2: f64 = counts
            .iter()
            .map(|&c| (c as f64 - expected).powi(2) / expected)
            .sum();
        let dof = (buckets - 1) as f64;
        assert!(chi2 <= dof + 6.0 * (2.0 * dof).sqrt(), "n={n}: chi2 {chi2}");
    }

    #[test]
    fn every_answer_is_below_the_bound_and_each_is_drawn_about_equally_often() {
        for n in [1u64, 2, 3, 4, 6, 7, 8, 20, 64, 100, 256, 1000, 1 << 40] {
            let mut rng = AgentRng::seed_from_u64(n);
            let mut frugal = Frugal::new();
            check_uniform(n, 1000, |n| frugal.below(&mut rng, n));
        }
    }

    /// A generator whose words hold the 16-bit values 0, 1, 2, ... lowest first.
    struct Counting(u64);

    impl RngCore for Counting {
        fn next_u32(&mut self) -> u32 {
            self.next_u64() as u32
        }

        fn next_u64(&mut self) -> u64 {
            let first = self.0;
            self.0 += 4;
            (0..4).map(|i| ((first + i) & 0xffff) << (16 * i)).sum()
        }

        fn fill_bytes(&mut self, _: &mut [u8]) {
            unreachable!("only words are drawn")
        }
    }

    #[test]
    fn a_draw_from_bits_gives_each_answer_exactly_as_many_of_the_16_bit_values() {
        // Spend each 16-bit value once: every answer must come from exactly ⌊2^16/n⌋
        // of them, and the other 2^16 mod n values must be rejected.
        for n in [1u64, 2, 3, 5, 6, 7, 35, 137, 1000, 65535, 65536] {
            let mut rng = Counting(0);
            let mut frugal = Frugal::new();
            let mut counts = vec![0u32; n as usize];
            for _ in 0..(1 << 16) - (1 << 16) % n {
                counts[frugal.below_from_bits(&mut rng, n) as usize] += 1;
            }
            assert_eq!(rng.0, 1 << 16, "n={n}: every value spent, no more");
            assert!(
                counts.iter().all(|&c| u64::from(c) == (1 << 16) / n),
                "n={n}"
            );
        }
    }

    #[test]
    fn draws_from_bits_are_below_the_bound_and_about_uniform_beyond_16_bits_too() {
        for n in [6u64, 35, 1 << 16, (1 << 16) + 1, 1 << 40] {
            let mut rng = AgentRng::seed_from_u64(n);
            let mut frugal = Frugal::new();
            check_uniform(n, 64, |n| frugal.below_from_bits(&mut rng, n));
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
        // 64 coin flips spend one word, lowest bit first; a draw below 1 spends none.
        let mut rng = AgentRng::seed_from_u64(3);
        let word = AgentRng::seed_from_u64(3).next_u64();
        let mut frugal = Frugal::new();
        let flips: u64 = (0..64)
            .map(|i| {
                assert_eq!(frugal.below(&mut rng, 1), 0);
                frugal.below(&mut rng, 2) << i
            })
            .sum();
        assert_eq!(flips, word);
        // Four bits at a time: the next word, in nibbles.
        let mut again = AgentRng::seed_from_u64(3);
        again.next_u64();
        let second = again.next_u64();
        let nibbles: u64 = (0..16).map(|i| frugal.below(&mut rng, 16) << (4 * i)).sum();
        assert_eq!(nibbles, second);
    }
}
