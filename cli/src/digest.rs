//! A stable fingerprint of bytes, used by every file that must notice a change: an
//! openings file, a weights file, an outside program, a row of games.csv, study.csv.
//! A leaf module, so that whoever needs it imports nothing else with it.

/// FNV-1a, 64 bits (offset basis 0xcbf29ce484222325, prime 0x100000001b3): a stable
/// fingerprint of a file's contents, not a cryptographic hash.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hash = Fnv1a::default();
    hash.update(bytes);
    hash.finish()
}

/// [`fnv1a`] of bytes given in pieces, for a file read a part at a time: the pieces'
/// hash is that of their concatenation.
pub struct Fnv1a(u64);

impl Default for Fnv1a {
    /// The hash of nothing yet.
    fn default() -> Fnv1a {
        Fnv1a(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv1a {
    /// Hashes `bytes` after what came before.
    pub fn update(&mut self, bytes: &[u8]) {
        self.0 = bytes.iter().fold(self.0, |h, &b| {
            (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
        });
    }

    /// The hash of everything given.
    pub fn finish(&self) -> u64 {
        self.0
    }
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
        let mut pieces = Fnv1a::default();
        for piece in ["fo", "", "ob", "ar"] {
            pieces.update(piece.as_bytes());
        }
        assert_eq!(pieces.finish(), fnv1a(b"foobar"));
    }
}
