//! Moments: a calendar date with a time of day (`2008-09-06 22:00`), as whole minutes after
//! 1970-01-01 00:00, for times that can fall on either side of midnight. A moment is built from
//! a date and a time (`date + time`), moves by whole minutes across days, and two moments
//! compare and subtract whatever days they fall on.

use super::date::Date;
use super::num::Num;
use super::time::Time;
use std::fmt;

/// A date and a time of day.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct DateTime {
    minutes: i64,
}

/// Why a moment cannot be moved by a duration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Moved {
    /// The duration is not a whole number of minutes.
    NotWhole,
    /// The result lies outside the years 1 to 9999.
    OutOfRange,
}

impl DateTime {
    /// The moment `t` on `d`.
    pub fn new(d: Date, t: Time) -> DateTime {
        DateTime { minutes: d.days() * Time::MINUTES_IN_DAY + t.minutes() }
    }

    /// `None` outside the years 1 to 9999.
    pub fn from_minutes(m: i64) -> Option<DateTime> {
        Date::from_days(m.div_euclid(Time::MINUTES_IN_DAY)).map(|_| DateTime { minutes: m })
    }

    /// Parses `YYYY-MM-DD HH:MM` or `YYYY-MM-DDTHH:MM` (a TOML local date-time), also with
    /// `:00` seconds.
    pub fn parse(s: &str) -> Option<DateTime> {
        let (d, t) = s.split_once(['T', ' '])?;
        let t = t.trim_start();
        // The hour has two digits here, as a TOML date-time writes it.
        if t.split(':').next().is_none_or(|h| h.len() != 2) {
            return None;
        }
        Some(DateTime::new(Date::parse(d)?, Time::parse(t)?))
    }

    pub fn minutes(self) -> i64 {
        self.minutes
    }

    /// The day the moment falls on.
    pub fn date(self) -> Date {
        // Every moment is built from a date or checked to lie in the years 1 to 9999.
        Date::from_days_known(self.minutes.div_euclid(Time::MINUTES_IN_DAY))
    }

    /// The time of day of the moment.
    pub fn time(self) -> Time {
        Time::from_minutes(self.minutes.rem_euclid(Time::MINUTES_IN_DAY)).unwrap_or(Time::MIDNIGHT)
    }

    /// This moment moved by `d` minutes (back with `back`), across days as needed.
    pub fn add(self, d: Num, back: bool) -> Result<DateTime, Moved> {
        if !d.is_integer() {
            return Err(Moved::NotWhole);
        }
        let d = i64::try_from(d.numer()).map_err(|_| Moved::OutOfRange)?;
        let d = if back { d.checked_neg().ok_or(Moved::OutOfRange)? } else { d };
        self.minutes.checked_add(d).and_then(DateTime::from_minutes).ok_or(Moved::OutOfRange)
    }

    /// The minutes from `earlier` to `self` (negative when `earlier` is later).
    pub fn since(self, earlier: DateTime) -> Num {
        Num::int(self.minutes as i128 - earlier.minutes as i128)
    }
}

impl Moved {
    pub fn message(self) -> &'static str {
        match self {
            Moved::NotWhole => "a moment moves by whole minutes only",
            Moved::OutOfRange => "the moment would fall outside the years 1 to 9999",
        }
    }
}

impl fmt::Display for DateTime {
    /// The form facts files write: `2008-09-06 22:00`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.date(), self.time())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dt(s: &str) -> DateTime {
        DateTime::parse(s).unwrap()
    }

    #[test]
    fn parse_and_show() {
        assert_eq!(dt("2008-09-06 22:00").to_string(), "2008-09-06 22:00");
        assert_eq!(dt("2008-09-06T22:00:00").to_string(), "2008-09-06 22:00");
        assert_eq!(dt("1970-01-01 00:00").minutes(), 0);
        assert_eq!(dt("1969-12-31 23:59").minutes(), -1);
        assert_eq!(dt("1969-12-31 23:59").to_string(), "1969-12-31 23:59");
        assert_eq!(dt("0001-01-01 00:00").to_string(), "0001-01-01 00:00");
        for bad in [
            "2008-09-06",
            "22:00",
            "2008-09-06 24:00",
            "2008-02-30 10:00",
            "2008-09-06 9:30",
            "2008-09-06T22:00:30",
            "2008-09-06X22:00",
            "",
        ] {
            assert!(DateTime::parse(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn moves_across_midnight() {
        let t = dt("2008-09-06 23:55");
        assert_eq!(t.add(Num::int(15), false).unwrap(), dt("2008-09-07 00:10"));
        assert_eq!(dt("2008-09-07 00:03").add(Num::int(15), true).unwrap(), dt("2008-09-06 23:48"));
        assert_eq!(dt("2008-12-31 23:59").add(Num::int(1), false).unwrap(), dt("2009-01-01 00:00"));
        assert_eq!(t.add(Num::ratio(1, 2).unwrap(), false), Err(Moved::NotWhole));
        assert_eq!(dt("9999-12-31 23:59").add(Num::int(1), false), Err(Moved::OutOfRange));
        assert_eq!(dt("0001-01-01 00:00").add(Num::int(1), true), Err(Moved::OutOfRange));
        assert_eq!(t.add(Num::int(i64::MAX as i128), false), Err(Moved::OutOfRange));
        assert_eq!(dt("2008-09-07 00:03").since(t), Num::int(8));
        assert_eq!(t.since(dt("2008-09-07 00:03")), Num::int(-8));
        assert!(dt("2008-09-07 00:03") > dt("2008-09-06 23:55"));
    }

    #[test]
    fn parts_round_trip() {
        for s in ["2008-09-06 00:00", "2008-09-06 23:59", "1969-12-31 12:30", "2000-02-29 01:30"] {
            let m = dt(s);
            assert_eq!(DateTime::new(m.date(), m.time()), m, "{s}");
        }
    }
}
