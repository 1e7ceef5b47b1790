//! Natural logarithms of visit counts for UCT's exploration term, each computed once
//! and kept.
//!
//! Selection takes `ln N` of the parent's visit count at every decision node it
//! passes, and a dice game's tree is mostly small decision nodes, so the logarithm
//! was a tenth of a Pig search. A count's logarithm never changes, and the counts met
//! are the small integers, so a table filled on demand answers nearly every one with a
//! read; its values are those of the same computation, so no selection changes.

/// The counts below this many are kept (512 KiB of table at most); larger counts,
/// met only near the root of long searches, are computed each time.
const KEPT: usize = 1 << 16;

/// `ln max(n, 1)` for visit counts `n`, filled on demand (see the module docs). Kept by
/// a tree between searches, so a warmed-up agent computes none of the small ones.
#[derive(Clone, Debug, Default)]
pub(crate) struct LnCounts {
    table: Vec<f64>,
}

impl LnCounts {
    /// `ln max(n, 1)`, exactly as computed directly.
    #[inline]
    pub(crate) fn ln(&mut self, n: u32) -> f64 {
        match self.table.get(n as usize) {
            Some(&ln) => ln,
            None => self.fill_to(n),
        }
    }

    /// Extends the table to `n` (if it is kept) and returns its logarithm.
    #[cold]
    #[inline(never)]
    fn fill_to(&mut self, n: u32) -> f64 {
        let n = n as usize;
        if n >= KEPT {
            return ln_of(n);
        }
        self.table.extend((self.table.len()..=n).map(ln_of));
        self.table[n]
    }
}

/// The logarithm UCT takes of a visit count (an unvisited parent counts as 1).
fn ln_of(n: usize) -> f64 {
    (n as f64).max(1.0).ln()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_count_gets_the_logarithm_computed_directly() {
        let mut counts = LnCounts::default();
        // Out of order, repeated, past the kept range, and zero (ln 1).
        for n in [5u32, 0, 1, 2, 70_000, 4, 5, 65_535, 65_536, 3, u32::MAX] {
            let direct = f64::from(n).max(1.0).ln();
            assert_eq!(counts.ln(n).to_bits(), direct.to_bits(), "n = {n}");
        }
        assert_eq!(
            counts.table.len(),
            KEPT,
            "filled up to the largest kept count"
        );
    }
}
