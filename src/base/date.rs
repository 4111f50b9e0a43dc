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

    /// The day `days` after 1970-01-01 (before it for negative `days`); `None` outside the
    /// years 1 to 9999.
    pub fn from_days(days: i64) -> Option<Date> {
        let d = Date { days };
        (1..=9999).contains(&d.ymd().0).then_some(d)
    }

    /// The day `days` after 1970-01-01, for a count already known to lie in the years 1 to
    /// 9999 (a moment's day).
    pub(crate) fn from_days_known(days: i64) -> Date {
        Date { days }
    }

    pub fn add_days(self, n: i64) -> Option<Date> {
        Date::from_days(self.days.checked_add(n)?)
    }

    /// The day of the week, 1 (Monday) to 7 (Sunday), as ISO 8601 numbers them.
    pub fn weekday(self) -> u32 {
        // 1970-01-01 was a Thursday (4).
        ((self.days + 3).rem_euclid(7) + 1) as u32
    }

    /// The first day after this one that falls on `weekday` (1 Monday … 7 Sunday); with
    /// `back`, the last day before it.
    pub fn next_weekday(self, weekday: u32, back: bool) -> Option<Date> {
        let now = self.weekday() as i64;
        let want = weekday as i64;
        let step = if back { -((now - want - 1).rem_euclid(7) + 1) } else { (want - now - 1).rem_euclid(7) + 1 };
        self.add_days(step)
    }

    /// The same day `n` months later (earlier for negative `n`), the month's last day when the
    /// day does not exist there (31 January + 1 month is the last day of February).
    pub fn add_months(self, n: i64) -> Option<Date> {
        let (y, m, d) = self.ymd();
        let total = y.checked_mul(12)?.checked_add(m as i64 - 1)?.checked_add(n)?;
        let (ny, nm) = (total.div_euclid(12), (total.rem_euclid(12) + 1) as u32);
        Date::from_ymd(ny, nm, d.min(days_in_month(ny, nm)))
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
    fn weekdays_and_months() {
        let d = |s: &str| Date::parse(s).unwrap();
        assert_eq!(d("2008-09-06").weekday(), 6); // a Saturday
        assert_eq!(d("2008-09-06").next_weekday(4, false), Some(d("2008-09-11")));
        assert_eq!(d("2008-09-11").next_weekday(4, false), Some(d("2008-09-18")));
        assert_eq!(d("2008-09-11").next_weekday(4, true), Some(d("2008-09-04")));
        assert_eq!(d("2008-01-31").add_months(1), Some(d("2008-02-29")));
        assert_eq!(d("2008-03-15").add_months(-3), Some(d("2007-12-15")));
        assert_eq!(d("2008-02-29").add_months(12), Some(d("2009-02-28")));
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
