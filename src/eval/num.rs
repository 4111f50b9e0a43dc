//! Exact rational numbers: every amount, count and fraction a clause computes.
//!
//! Thirds stay thirds (40/3 + 80/3 = 40); rounding happens only where a clause
//! asks for it (`ceil`, `floor`, `round`) or for display. Overflow is an error,
//! never a wrap or a panic.

use rust_decimal::Decimal;
use std::cmp::Ordering;
use std::fmt;

/// numerator / denominator, in lowest terms, denominator > 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Num {
    n: i128,
    d: i128,
}

fn gcd(mut a: i128, mut b: i128) -> i128 {
    a = a.abs();
    b = b.abs();
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a
}

impl Num {
    pub const ZERO: Num = Num { n: 0, d: 1 };
    pub const ONE: Num = Num { n: 1, d: 1 };

    pub fn int(n: i128) -> Num {
        Num { n, d: 1 }
    }

    /// n/d in lowest terms; `None` when d is 0 or the sign flip overflows.
    pub fn ratio(n: i128, d: i128) -> Option<Num> {
        if d == 0 {
            return None;
        }
        let g = gcd(n, d).max(1);
        let (mut n, mut d) = (n / g, d / g);
        if d < 0 {
            n = n.checked_neg()?;
            d = d.checked_neg()?;
        }
        Some(Num { n, d })
    }

    pub fn from_decimal(x: Decimal) -> Option<Num> {
        let scale = x.scale();
        let mantissa = x.mantissa();
        let d = 10i128.checked_pow(scale)?;
        Num::ratio(mantissa, d)
    }

    pub fn numer(self) -> i128 {
        self.n
    }
    pub fn denom(self) -> i128 {
        self.d
    }
    pub fn is_integer(self) -> bool {
        self.d == 1
    }
    pub fn is_negative(self) -> bool {
        self.n < 0
    }
    pub fn as_i64(self) -> Option<i64> {
        if self.d == 1 { i64::try_from(self.n).ok() } else { None }
    }

    pub fn add(self, o: Num) -> Option<Num> {
        let g = gcd(self.d, o.d).max(1);
        let d = (self.d / g).checked_mul(o.d)?;
        let n = self.n.checked_mul(o.d / g)?.checked_add(o.n.checked_mul(self.d / g)?)?;
        Num::ratio(n, d)
    }
    pub fn neg(self) -> Option<Num> {
        Some(Num { n: self.n.checked_neg()?, d: self.d })
    }
    pub fn sub(self, o: Num) -> Option<Num> {
        self.add(o.neg()?)
    }
    pub fn mul(self, o: Num) -> Option<Num> {
        let g1 = gcd(self.n, o.d).max(1);
        let g2 = gcd(o.n, self.d).max(1);
        let n = (self.n / g1).checked_mul(o.n / g2)?;
        let d = (self.d / g2).checked_mul(o.d / g1)?;
        Num::ratio(n, d)
    }
    /// `None` on division by zero or overflow.
    pub fn div(self, o: Num) -> Option<Num> {
        if o.n == 0 {
            return None;
        }
        self.mul(Num::ratio(o.d, o.n)?)
    }
    pub fn floor(self) -> Num {
        Num::int(self.n.div_euclid(self.d))
    }
    pub fn ceil(self) -> Num {
        let f = self.n.div_euclid(self.d);
        Num::int(if self.n.rem_euclid(self.d) == 0 { f } else { f + 1 })
    }
    /// Half away from zero.
    pub fn round(self) -> Num {
        let twice = Num { n: self.n.saturating_mul(2), d: self.d };
        let h = if self.n >= 0 { twice.floor().n + 1 } else { twice.ceil().n - 1 };
        Num::int(h.div_euclid(2))
    }
    /// The fractional part, in [0, 1).
    pub fn fract(self) -> Num {
        Num { n: self.n.rem_euclid(self.d), d: self.d }
    }

    /// A decimal with at most `places` decimals, rounded half away from zero; for display.
    pub fn to_decimal(self, places: u32) -> Option<Decimal> {
        let n = Decimal::try_from_i128_with_scale(self.n, 0).ok()?;
        let d = Decimal::try_from_i128_with_scale(self.d, 0).ok()?;
        let q = n.checked_div(d)?;
        Some(q.round_dp_with_strategy(places, rust_decimal::RoundingStrategy::MidpointAwayFromZero))
    }

    /// Whether the value is a finite decimal (denominator of the form 2^a 5^b).
    pub fn is_terminating(self) -> bool {
        let mut d = self.d;
        while d % 2 == 0 {
            d /= 2;
        }
        while d % 5 == 0 {
            d /= 5;
        }
        d == 1
    }
}

impl PartialOrd for Num {
    fn partial_cmp(&self, o: &Num) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

impl Ord for Num {
    fn cmp(&self, o: &Num) -> Ordering {
        // Compare n1/d1 with n2/d2 without overflow: by integer part, then by fraction.
        let (i1, i2) = (self.n.div_euclid(self.d), o.n.div_euclid(o.d));
        if i1 != i2 {
            return i1.cmp(&i2);
        }
        let (r1, r2) = (self.n.rem_euclid(self.d), o.n.rem_euclid(o.d));
        // r1/d1 vs r2/d2 with 0 <= r < d: compare r1*d2 with r2*d1 where possible.
        match (r1.checked_mul(o.d), r2.checked_mul(self.d)) {
            (Some(a), Some(b)) => a.cmp(&b),
            _ => {
                // Continued-fraction style comparison of the reciprocals.
                if r1 == 0 || r2 == 0 {
                    return r1.cmp(&r2);
                }
                let a = Num { n: self.d, d: r1 };
                let b = Num { n: o.d, d: r2 };
                b.cmp(&a)
            }
        }
    }
}

impl fmt::Display for Num {
    /// Plain exact form: `2150`, `3.75`, `40/3`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.d == 1 {
            write!(f, "{}", self.n)
        } else if self.is_terminating() {
            match self.to_decimal(28) {
                Some(x) => write!(f, "{}", x.normalize()),
                None => write!(f, "{}/{}", self.n, self.d),
            }
        } else {
            write!(f, "{}/{}", self.n, self.d)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thirds_stay_exact() {
        let a = Num::ratio(40, 3).unwrap();
        let b = Num::ratio(80, 3).unwrap();
        assert_eq!(a.add(b).unwrap(), Num::int(40));
        assert_eq!(Num::ratio(20, 3).unwrap(), Num::ratio(40, 6).unwrap());
    }

    #[test]
    fn rounding() {
        assert_eq!(Num::ratio(9, 2).unwrap().ceil(), Num::int(5));
        assert_eq!(Num::ratio(9, 2).unwrap().floor(), Num::int(4));
        assert_eq!(Num::ratio(9, 2).unwrap().round(), Num::int(5));
        assert_eq!(Num::ratio(-9, 2).unwrap().round(), Num::int(-5));
        assert_eq!(Num::int(4).ceil(), Num::int(4));
        assert_eq!(Num::ratio(-1, 3).unwrap().ceil(), Num::int(0));
    }

    #[test]
    fn display() {
        assert_eq!(Num::ratio(15, 4).unwrap().to_string(), "3.75");
        assert_eq!(Num::ratio(40, 3).unwrap().to_string(), "40/3");
        assert_eq!(Num::from_decimal(Decimal::new(400, 2)).unwrap().to_string(), "4");
    }

    #[test]
    fn order_without_overflow() {
        let big = Num::ratio(i128::MAX - 1, i128::MAX).unwrap();
        let small = Num::ratio(1, 2).unwrap();
        assert!(big > small);
    }
}
