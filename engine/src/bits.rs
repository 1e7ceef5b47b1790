//! Bitboards as sets of cells: the one iterator over their set bits that every game's
//! board uses.

/// A word used as a set of cells: bit `i` set means cell `i` is in the set.
pub trait CellSet: Copy {
    /// Whether the set is empty.
    fn is_empty(self) -> bool;
    /// The lowest cell of a non-empty set.
    fn lowest(self) -> usize;
    /// The set without its lowest cell (a non-empty set).
    fn without_lowest(self) -> Self;
}

macro_rules! cell_set {
    ($($word:ty),*) => {$(
        impl CellSet for $word {
            #[inline]
            fn is_empty(self) -> bool {
                self == 0
            }
            #[inline]
            fn lowest(self) -> usize {
                self.trailing_zeros() as usize
            }
            #[inline]
            fn without_lowest(self) -> Self {
                self & (self - 1)
            }
        }
    )*};
}

cell_set!(u64, u128);

/// Iterates over the cells (bit indices) of a bitboard, lowest first.
#[derive(Clone, Copy, Debug)]
pub struct Cells<B>(pub B);

impl<B: CellSet> Iterator for Cells<B> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0.is_empty() {
            return None;
        }
        let c = self.0.lowest();
        self.0 = self.0.without_lowest();
        Some(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_come_lowest_first_in_both_widths() {
        assert_eq!(Cells(0b1010_0001u64).collect::<Vec<_>>(), [0, 5, 7]);
        assert_eq!(Cells(1u128 << 100 | 2).collect::<Vec<_>>(), [1, 100]);
        assert_eq!(Cells(0u64).next(), None);
    }
}
