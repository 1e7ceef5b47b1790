//! Zobrist keys built at compile time.
//!
//! Each game builds its own key tables with [`keys`] from a fixed seed of its choosing,
//! so keys never change between runs, machines or versions unless the seed does (each
//! game pins its initial hash in a test to notice that).

/// One step of splitmix64 (Steele, Lea and Flood): a fast generator whose outputs are
/// well spread even for consecutive seeds, which is all Zobrist keys need.
pub const fn splitmix64(state: u64) -> (u64, u64) {
    let next = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    (next, splitmix64_mix(next))
}

/// splitmix64's output finaliser: a bijection of `u64` that spreads every input bit
/// over the whole word, so nearby inputs give unrelated outputs (also used to mix keys
/// and salts elsewhere).
pub const fn splitmix64_mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// `N` pseudo-random 64-bit keys from `seed`, usable in a `const` or `static`.
pub const fn keys<const N: usize>(seed: u64) -> [u64; N] {
    let mut out = [0u64; N];
    let mut state = seed;
    let mut i = 0;
    while i < N {
        let (next, value) = splitmix64(state);
        state = next;
        out[i] = value;
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct_and_fixed() {
        const K: [u64; 256] = keys(1);
        let mut sorted = K.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), 256);
        // splitmix64's published first output for seed 0.
        assert_eq!(keys::<1>(0)[0], 0xE220_A839_7B1D_CDAF);
    }
}
