//! Exact rational numbers: every amount, count and fraction a clause computes.
//!
//! Thirds stay thirds (40/3 + 80/3 = 40); rounding happens only where a clause
//! asks for it (`ceil`, `floor`, `round`) or for display. Overflow is an error,
//! never a wrap or a panic.
//!
//! Whole numbers (denominator 1, most amounts in practice) take a fast path in
//! arithmetic and comparison: plain checked integer operations, no greatest common
//! divisor and no division; the rational path is taken as soon as a fraction appears.

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

// `add`, `sub`, `mul`, `div` and `neg` are checked: they return `None` on overflow (or a
// division by zero) instead of a number, so they are not the operator traits.
#[allow(clippy::should_implement_trait)]
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

    /// Reads a plain decimal `-?D+(.D+)?` or a fraction `-?D+/D+` exactly, or says why not.
    /// Trailing zeros after the point cost nothing: `24.000…0` is 24 however many zeros.
    pub fn parse(s: &str) -> Result<Num, NumError> {
        let (neg, body) = match s.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, s),
        };
        let n = match body.split_once('/') {
            Some((a, b)) => {
                let (a, b) = (digits(a)?, digits(b)?);
                if b == 0 {
                    return Err(NumError::ZeroDenominator);
                }
                Num::ratio(a, b).ok_or(NumError::TooLarge)?
            }
            None => {
                let (int, frac) = match body.split_once('.') {
                    Some((i, f)) => (i, f),
                    None => (body, ""),
                };
                if body.contains('.') && frac.is_empty() {
                    return Err(NumError::NotANumber);
                }
                let int = digits(int)?;
                let frac = frac.trim_end_matches('0');
                if frac.is_empty() {
                    Num::int(int)
                } else {
                    let d = 10i128.checked_pow(frac.len() as u32).ok_or(NumError::TooLarge)?;
                    let f = digits(frac)?;
                    let n = int.checked_mul(d).and_then(|x| x.checked_add(f)).ok_or(NumError::TooLarge)?;
                    Num::ratio(n, d).ok_or(NumError::TooLarge)?
                }
            }
        };
        if neg { n.neg().ok_or(NumError::TooLarge) } else { Ok(n) }
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

    #[inline]
    pub fn add(self, o: Num) -> Option<Num> {
        if self.d == 1 && o.d == 1 {
            // Whole numbers: no common denominator to find.
            return Some(Num::int(self.n.checked_add(o.n)?));
        }
        self.add_fractions(o)
    }
    /// [`Num::add`] of a fraction, kept out of line.
    #[inline(never)]
    fn add_fractions(self, o: Num) -> Option<Num> {
        let g = gcd(self.d, o.d).max(1);
        let d = (self.d / g).checked_mul(o.d)?;
        let n = self.n.checked_mul(o.d / g)?.checked_add(o.n.checked_mul(self.d / g)?)?;
        Num::ratio(n, d)
    }
    pub fn neg(self) -> Option<Num> {
        Some(Num { n: self.n.checked_neg()?, d: self.d })
    }
    #[inline]
    pub fn sub(self, o: Num) -> Option<Num> {
        if self.d == 1 && o.d == 1 {
            return Some(Num::int(self.n.checked_sub(o.n)?));
        }
        self.add(o.neg()?)
    }
    #[inline]
    pub fn mul(self, o: Num) -> Option<Num> {
        if self.d == 1
            && o.d == 1
            && let (Ok(a), Ok(b)) = (i64::try_from(self.n), i64::try_from(o.n))
        {
            // Two 64-bit factors: their product always fits, one multiplication.
            return Some(Num::int(i128::from(a) * i128::from(b)));
        }
        self.mul_wide(o)
    }
    /// [`Num::mul`] of fractions or of factors past 64 bits, kept out of line.
    #[inline(never)]
    fn mul_wide(self, o: Num) -> Option<Num> {
        if self.d == 1 && o.d == 1 {
            return Some(Num::int(self.n.checked_mul(o.n)?));
        }
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
    /// Half away from zero: 2.5 → 3, -2.5 → -3, -2.4 → -2. Never overflows.
    pub fn round(self) -> Num {
        let (q, r) = (self.n.div_euclid(self.d), self.n.rem_euclid(self.d));
        // self = q + r/d with 0 <= r < d; compare r with the distance d - r to q + 1.
        let up = if self.n >= 0 { r >= self.d - r } else { r > self.d - r };
        Num::int(if up { q + 1 } else { q })
    }
    /// The fractional part, in [0, 1).
    pub fn fract(self) -> Num {
        Num { n: self.n.rem_euclid(self.d), d: self.d }
    }

    /// Decimal digits `(sign, integer part, fraction digits)`: exactly when `places` is
    /// `None` and the value is a finite decimal, otherwise rounded half away from zero
    /// to `places` digits. Long division on the exact value; no precision limit.
    pub fn decimal_digits(self, places: Option<u32>) -> (bool, String, String) {
        let neg = self.n < 0;
        let (n, d) = (self.n.unsigned_abs(), self.d as u128);
        let (mut int, mut r) = (n / d, n % d);
        let mut frac: Vec<u8> = Vec::new();
        let limit = places.map_or(usize::MAX, |p| p as usize);
        while r != 0 && frac.len() < limit {
            // 10 r / d without overflow: r < d < 2^127, so acc + r < 2^128.
            let (mut acc, mut digit) = (0u128, 0u8);
            for _ in 0..10 {
                acc += r;
                if acc >= d {
                    acc -= d;
                    digit += 1;
                }
            }
            frac.push(digit);
            r = acc;
        }
        if places.is_some() && r != 0 && r >= d - r {
            // Round the magnitude up, carrying through the digits.
            let mut i = frac.len();
            loop {
                if i == 0 {
                    int += 1;
                    break;
                }
                i -= 1;
                if frac[i] == 9 {
                    frac[i] = 0;
                } else {
                    frac[i] += 1;
                    break;
                }
            }
        }
        let frac: String = frac.iter().map(|d| char::from(b'0' + d)).collect();
        let neg = neg && (int != 0 || frac.bytes().any(|c| c != b'0'));
        (neg, int.to_string(), frac)
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
    #[inline]
    fn cmp(&self, o: &Num) -> Ordering {
        if self.d == o.d {
            // Whole numbers (or a common denominator): the numerators decide.
            return self.n.cmp(&o.n);
        }
        self.cmp_fractions(o)
    }
}

impl Num {
    /// [`Ord::cmp`] of two numbers with different denominators, kept out of line.
    #[inline(never)]
    fn cmp_fractions(&self, o: &Num) -> Ordering {
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
            let (neg, int, frac) = self.decimal_digits(None);
            write!(f, "{}{int}.{frac}", if neg { "-" } else { "" })
        } else {
            write!(f, "{}/{}", self.n, self.d)
        }
    }
}

/// Why a text is not read as a number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NumError {
    /// Not of the form `-?D+(.D+)?` or `-?D+/D+`.
    NotANumber,
    /// Numerator or denominator beyond the exact range (see [`LIMIT`]).
    TooLarge,
    ZeroDenominator,
}

/// The exact range, for messages: numerators and denominators below 2^127.
pub const LIMIT: &str = "an exact number has a numerator and a denominator below 2^127 (about 1.7 × 10^38)";

impl fmt::Display for NumError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            NumError::NotANumber => "not a number: write digits with an optional `.` and fraction digits, or `n/d`",
            NumError::TooLarge => LIMIT,
            NumError::ZeroDenominator => "a fraction's denominator must not be 0",
        })
    }
}

fn digits(s: &str) -> Result<i128, NumError> {
    if s.is_empty() || !s.bytes().all(|c| c.is_ascii_digit()) {
        return Err(NumError::NotANumber);
    }
    let mut n: i128 = 0;
    for c in s.bytes() {
        n = n.checked_mul(10).and_then(|x| x.checked_add(i128::from(c - b'0'))).ok_or(NumError::TooLarge)?;
    }
    Ok(n)
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
        assert_eq!(Num::parse("4.00").unwrap().to_string(), "4");
    }

    #[test]
    fn whole_products_at_the_edges() {
        // Within 64 bits on both sides: (2^63 - 1)^2 and (-2^63)^2 = 2^126 fit in an i128.
        let max = Num::int(i64::MAX.into());
        let min = Num::int(i64::MIN.into());
        assert_eq!(max.mul(max), Some(Num::int(85070591730234615847396907784232501249)));
        assert_eq!(min.mul(min), Some(Num::int(1 << 126)));
        assert_eq!(min.mul(max), Some(Num::int(-85070591730234615856620279821087277056)));
        assert_eq!(Num::int(-142).mul(Num::int(2)), Some(Num::int(-284)));
        // Past 64 bits: the checked product, and no value when it overflows.
        assert_eq!(Num::int(1 << 100).mul(Num::int(4)), Some(Num::int(1 << 102)));
        assert_eq!(Num::int(1 << 100).mul(Num::int(1 << 30)), None);
        assert_eq!(Num::int(i128::MIN).mul(Num::int(-1)), None);
    }

    #[test]
    fn order_without_overflow() {
        let big = Num::ratio(i128::MAX - 1, i128::MAX).unwrap();
        let small = Num::ratio(1, 2).unwrap();
        assert!(big > small);
    }
}
