//! The visit-count factors of UCT's score, each computed once per count and kept.
//!
//! Selection scores every child of every decision node it passes, as
//! `mean + c·sqrt(ln N / n)`, which took two divisions and a square root per child
//! and a logarithm per node: in a dice game's tree of small decision nodes, a fifth
//! of a search. Written as `s·total·(1/n) + c·sqrt(ln N)·sqrt(1/n)`, every factor
//! depends on one visit count alone, and the counts met are mostly small integers, so
//! a table filled on demand turns the score into a few multiplications. A factor is
//! the same number whether read from the table or computed (one function computes
//! both), so the table changes no selection.

/// The counts below this many are kept (96 KiB of tables at most). Visits fall
/// quickly with depth, so larger counts are met only in the top few plies of a long
/// search, and computed each time.
const KEPT: usize = 1 << 12;

/// The factors of a child's score for its visit count `n ≥ 1`: `1/n`, for the mean,
/// and `sqrt(1/n)`, for the exploration term.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct ChildFactors {
    /// `1 / n`.
    pub(crate) inverse: f64,
    /// `sqrt(1 / n)`.
    pub(crate) inverse_sqrt: f64,
}

/// UCT's per-count factors, filled on demand (see the module docs). Kept by a tree
/// between searches, so a warmed-up agent computes none of the small ones.
#[derive(Clone, Debug, Default)]
pub(crate) struct UctCounts {
    /// `sqrt(ln max(N, 1))` by parent visit count `N`.
    parent: Vec<f64>,
    /// [`ChildFactors`] by child visit count `n` (entry 0 unused: an unvisited child
    /// scores infinity).
    child: Vec<ChildFactors>,
}

impl UctCounts {
    /// `sqrt(ln max(n, 1))`: the exploration term's factor of a parent visited `n`
    /// times.
    #[inline]
    pub(crate) fn parent(&mut self, n: u32) -> f64 {
        lookup(&mut self.parent, n, parent_factor)
    }

    /// The factors of a child visited `n ≥ 1` times.
    #[inline]
    pub(crate) fn child(&mut self, n: u32) -> ChildFactors {
        lookup(&mut self.child, n, child_factors)
    }
}

/// `factor(n)` from `table`, which is filled on demand up to the kept counts.
#[inline(always)]
fn lookup<T: Copy, F: Fn(usize) -> T>(table: &mut Vec<T>, n: u32, factor: F) -> T {
    let n = n as usize;
    match table.get(n) {
        Some(&value) => value,
        None if n >= KEPT => factor(n),
        None => fill(table, n, factor),
    }
}

/// Extends `table` to the kept count `n` by `factor`, and returns `factor(n)`.
#[cold]
#[inline(never)]
fn fill<T: Copy>(table: &mut Vec<T>, n: usize, factor: impl Fn(usize) -> T) -> T {
    table.extend((table.len()..=n).map(factor));
    table[n]
}

#[inline]
fn parent_factor(n: usize) -> f64 {
    (n as f64).max(1.0).ln().sqrt()
}

#[inline]
fn child_factors(n: usize) -> ChildFactors {
    let inverse = 1.0 / n as f64;
    ChildFactors {
        inverse,
        inverse_sqrt: inverse.sqrt(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_count_gets_the_factors_computed_directly() {
        let mut counts = UctCounts::default();
        // Out of order, repeated, past the kept range, and a parent never visited.
        for n in [5u32, 0, 1, 2, 70_000, 4, 5, 4095, 4096, 3, u32::MAX] {
            let parent = f64::from(n).max(1.0).ln().sqrt();
            assert_eq!(counts.parent(n).to_bits(), parent.to_bits(), "parent {n}");
            if n > 0 {
                let inverse = 1.0 / f64::from(n);
                let expected = ChildFactors {
                    inverse,
                    inverse_sqrt: inverse.sqrt(),
                };
                assert_eq!(counts.child(n), expected, "child {n}");
            }
        }
        assert_eq!(
            counts.parent.len(),
            KEPT,
            "filled up to the largest kept count"
        );
        assert_eq!(counts.child.len(), KEPT);
        // The score's factors multiply out to UCT's terms (to rounding).
        let (total, visits, parent_visits) = (7.5, 12u32, 300u32);
        let f = counts.child(visits);
        let mean = total / f64::from(visits);
        let explore = (f64::from(parent_visits).ln() / f64::from(visits)).sqrt();
        assert!((total * f.inverse - mean).abs() < 1e-15);
        assert!((counts.parent(parent_visits) * f.inverse_sqrt - explore).abs() < 1e-15);
    }
}
