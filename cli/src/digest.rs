//! A stable fingerprint of bytes, used by every file that must notice a change: an
//! openings file, a weights file, an outside program, a row of games.csv, study.csv.
//! A leaf module, so that whoever needs it imports nothing else with it.

/// FNV-1a, 64 bits (offset basis 0xcbf29ce484222325, prime 0x100000001b3): a stable
/// fingerprint of a file's contents, not a cryptographic hash.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_matches_the_published_test_vectors() {
        // From the FNV reference test suite (Noll, "FNV hash" test vectors):
        // FNV-1a 64 of "" is the offset basis, of "a" is af63dc4c8601ec8c, of "foobar"
        // is 85944171f73967e8.
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a(b"foobar"), 0x8594_4171_f739_67e8);
    }
}
