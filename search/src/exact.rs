//! Exact rational values for chance search: expected values of integer evaluations,
//! kept as reduced fractions so that two searches that compute the same expectation
//! agree bit for bit, whatever order they added it up in.

use std::cmp::Ordering;
use std::fmt;
use std::ops::{Add, Neg, Sub};

/// A rational number `num / den` in lowest terms with `den > 0`, so that equal values
/// have equal representations (`==` is exact equality of the numbers).
///
/// Range: every operation is checked and panics on `i128` overflow (a broken invariant
/// of the caller, not a wrong answer). Chance search only ever forms values whose
/// denominator divides the product of the chance weight totals along one path, with
/// numerators at most that product times an `i32` evaluation; comparisons multiply two
/// such values, so searches stay exact while that product is below about 2⁴⁸ (for Pig
/// with a d6: 18 chance events on one line, i.e. depth 18; with Coin Nim's 3: 30).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Exact {
    num: i128,
    den: i128,
}

const OVERFLOW: &str = "exact chance value overflows i128: search shallower";

/// The greatest common divisor of `|a|` and `|b|` (0 for two zeros).
pub(crate) fn gcd(mut a: i128, mut b: i128) -> i128 {
    a = a.abs();
    b = b.abs();
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl Exact {
    /// Zero.
    pub const ZERO: Exact = Exact { num: 0, den: 1 };

    /// The integer `v`.
    pub const fn int(v: i64) -> Exact {
        Exact {
            num: v as i128,
            den: 1,
        }
    }

    /// `num / den` in lowest terms. Panics if `den == 0`.
    pub fn new(num: i128, den: i128) -> Exact {
        assert!(den != 0, "a fraction with denominator 0");
        let g = gcd(num, den).max(1);
        let sign = if den < 0 { -1 } else { 1 };
        Exact {
            num: sign * num / g,
            den: sign * den / g,
        }
    }

    /// The numerator (lowest terms; carries the sign).
    pub const fn num(self) -> i128 {
        self.num
    }

    /// The denominator (lowest terms, positive).
    pub const fn den(self) -> i128 {
        self.den
    }

    /// `self · w`.
    pub fn mul_int(self, w: i128) -> Exact {
        let g = gcd(w, self.den).max(1);
        Exact::new(self.num.checked_mul(w / g).expect(OVERFLOW), self.den / g)
    }

    /// `self / w`, `w > 0`.
    pub fn div_int(self, w: i128) -> Exact {
        let g = gcd(self.num, w).max(1);
        Exact::new(self.num / g, self.den.checked_mul(w / g).expect(OVERFLOW))
    }

    /// The greatest multiple of `1 / grid` at most `self` (`grid > 0`).
    pub fn floor_to(self, grid: i128) -> Exact {
        let scaled = self.num.checked_mul(grid).expect(OVERFLOW);
        Exact::new(scaled.div_euclid(self.den), grid)
    }

    /// The least multiple of `1 / grid` at least `self` (`grid > 0`).
    pub fn ceil_to(self, grid: i128) -> Exact {
        -(-self).floor_to(grid)
    }

    /// The nearest `f64` (for reporting only; search never decides on it).
    pub fn to_f64(self) -> f64 {
        self.num as f64 / self.den as f64
    }
}

impl Add for Exact {
    type Output = Exact;

    /// `self + other`, over the least common denominator.
    fn add(self, other: Exact) -> Exact {
        let g = gcd(self.den, other.den);
        let l = (self.den / g).checked_mul(other.den).expect(OVERFLOW);
        let a = self.num.checked_mul(l / self.den).expect(OVERFLOW);
        let b = other.num.checked_mul(l / other.den).expect(OVERFLOW);
        Exact::new(a.checked_add(b).expect(OVERFLOW), l)
    }
}

impl Neg for Exact {
    type Output = Exact;

    fn neg(self) -> Exact {
        Exact {
            num: -self.num,
            den: self.den,
        }
    }
}

impl Sub for Exact {
    type Output = Exact;

    fn sub(self, other: Exact) -> Exact {
        self + -other
    }
}

impl Ord for Exact {
    fn cmp(&self, other: &Exact) -> Ordering {
        let a = self.num.checked_mul(other.den).expect(OVERFLOW);
        let b = other.num.checked_mul(self.den).expect(OVERFLOW);
        a.cmp(&b)
    }
}

impl PartialOrd for Exact {
    fn partial_cmp(&self, other: &Exact) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Exact {
    /// `7` or `-35/6`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.den == 1 {
            write!(f, "{}", self.num)
        } else {
            write!(f, "{}/{}", self.num, self.den)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic_is_exact_and_canonical() {
        let third = Exact::new(1, 3);
        let sixth = Exact::new(-2, -12);
        assert_eq!(third + sixth, Exact::new(1, 2));
        assert_eq!(third - third, Exact::ZERO);
        assert_eq!(Exact::new(3, -6), Exact::new(-1, 2));
        assert_eq!(third.mul_int(3), Exact::int(1));
        assert_eq!(Exact::int(5).div_int(10), Exact::new(1, 2));
        assert!(Exact::new(-1, 3) < Exact::new(-1, 4));
        assert_eq!(Exact::new(-35, 6).to_string(), "-35/6");
        assert_eq!(Exact::new(-35, 6).floor_to(2), Exact::int(-6));
        assert_eq!(Exact::new(-35, 6).ceil_to(2), Exact::new(-11, 2));
        assert_eq!(Exact::new(5, 4).ceil_to(4), Exact::new(5, 4));
    }
}
