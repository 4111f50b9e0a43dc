//! Calendar dates (proleptic Gregorian), as days since 1970-01-01.

use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Date {
    days: i64,
}

fn is_leap(y: i64) -> bool {
    (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
}

fn days_in_month(y: i64, m: u32) -> u32 {
    match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if is_leap(y) => 29,
        2 => 28,
        _ => 0,
    }
}

impl Date {
    /// `None` for an impossible date (30 February, month 13, year outside 1..=9999).
    pub fn from_ymd(y: i64, m: u32, d: u32) -> Option<Date> {
        if !(1..=9999).contains(&y) || !(1..=12).contains(&m) || d == 0 || d > days_in_month(y, m) {
            return None;
        }
        // days_from_civil (H. Hinnant)
        let y = if m <= 2 { y - 1 } else { y };
        let era = y.div_euclid(400);
        let yoe = y - era * 400;
        let mp = (m as i64 + 9) % 12;
        let doy = (153 * mp + 2) / 5 + d as i64 - 1;
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        Some(Date { days: era * 146097 + doe - 719468 })
    }

    /// Parses `YYYY-MM-DD`.
    pub fn parse(s: &str) -> Option<Date> {
        let mut it = s.split('-');
        let (y, m, d) = (it.next()?, it.next()?, it.next()?);
        if it.next().is_some() || y.len() != 4 || m.len() != 2 || d.len() != 2 {
            return None;
        }
        Date::from_ymd(y.parse().ok()?, m.parse().ok()?, d.parse().ok()?)
    }

    pub fn ymd(self) -> (i64, u32, u32) {
        let z = self.days + 719468;
        let era = z.div_euclid(146097);
        let doe = z - era * 146097;
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
        let y = yoe + era * 400;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
        let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
        (if m <= 2 { y + 1 } else { y }, m, d)
    }

    pub fn days(self) -> i64 {
        self.days
    }

    pub fn add_days(self, n: i64) -> Option<Date> {
        let days = self.days.checked_add(n)?;
        let d = Date { days };
        let (y, _, _) = d.ymd();
        (1..=9999).contains(&y).then_some(d)
    }

    /// Whole years completed on `on` by someone born on `self` ("fyldt N år").
    pub fn age_on(self, on: Date) -> i64 {
        let (by, bm, bd) = self.ymd();
        let (oy, om, od) = on.ymd();
        let mut age = oy - by;
        if (om, od) < (bm, bd) {
            age -= 1;
        }
        age
    }
}

impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (y, m, d) = self.ymd();
        write!(f, "{y:04}-{m:02}-{d:02}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        for s in ["1970-01-01", "2007-09-01", "2008-02-29", "2000-02-29", "1999-12-31"] {
            assert_eq!(Date::parse(s).unwrap().to_string(), s);
        }
        assert!(Date::parse("2007-02-29").is_none());
        assert!(Date::parse("2007-13-01").is_none());
    }

    #[test]
    fn ages() {
        let born = Date::parse("1983-01-01").unwrap();
        assert_eq!(born.age_on(Date::parse("2008-01-01").unwrap()), 25);
        assert_eq!(born.age_on(Date::parse("2007-12-31").unwrap()), 24);
        let leap = Date::parse("2000-02-29").unwrap();
        assert_eq!(leap.age_on(Date::parse("2001-02-28").unwrap()), 0);
        assert_eq!(leap.age_on(Date::parse("2001-03-01").unwrap()), 1);
    }
}
