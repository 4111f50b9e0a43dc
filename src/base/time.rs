//! Times of day (`18:15`), as whole minutes after midnight, and the arithmetic the
//! language allows on them: a duration added or taken away (never past midnight either
//! way), and the duration from one time to another. A moment that may fall on either side of
//! midnight is a [`super::datetime::DateTime`].

use super::num::Num;
use std::fmt;

/// A time of day, `00:00` to `23:59`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Time {
    minutes: u16,
}

/// Why a time cannot be moved by a duration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Moved {
    /// The duration is not a whole number of minutes.
    NotWhole,
    /// The result lies on another day.
    OtherDay,
}

impl Time {
    pub const MINUTES_IN_DAY: i64 = 1440;
    pub const MIDNIGHT: Time = Time { minutes: 0 };

    /// `None` outside 00:00–23:59.
    pub fn from_hm(h: u32, m: u32) -> Option<Time> {
        (h < 24 && m < 60).then(|| Time { minutes: (h * 60 + m) as u16 })
    }

    pub fn from_minutes(m: i64) -> Option<Time> {
        (0..Self::MINUTES_IN_DAY).contains(&m).then_some(Time { minutes: m as u16 })
    }

    /// Parses `HH:MM` or `H:MM` (a facts file's `"18:15"`), also with `:00` seconds
    /// (`18:15:00`, as TOML writes a local time).
    pub fn parse(s: &str) -> Option<Time> {
        let mut it = s.split(':');
        let (h, m) = (it.next()?, it.next()?);
        match it.next() {
            None => {}
            Some("00") => {}
            Some(_) => return None,
        }
        if it.next().is_some() {
            return None;
        }
        Self::parts(h, m)
    }

    /// Reads the `H.MM` of a number written where a time is expected (`18.15`).
    pub fn from_decimal(s: &str) -> Option<Time> {
        let (h, m) = s.split_once('.')?;
        Self::parts(h, m)
    }

    fn parts(h: &str, m: &str) -> Option<Time> {
        let digits = |x: &str| !x.is_empty() && x.bytes().all(|b| b.is_ascii_digit());
        if !(1..=2).contains(&h.len()) || m.len() != 2 || !digits(h) || !digits(m) {
            return None;
        }
        Time::from_hm(h.parse().ok()?, m.parse().ok()?)
    }

    pub fn minutes(self) -> i64 {
        self.minutes as i64
    }

    pub fn hm(self) -> (u32, u32) {
        ((self.minutes / 60) as u32, (self.minutes % 60) as u32)
    }

    /// This time moved by `d` minutes (back with `back`).
    pub fn add(self, d: Num, back: bool) -> Result<Time, Moved> {
        if !d.is_integer() {
            return Err(Moved::NotWhole);
        }
        let d = i64::try_from(d.numer()).map_err(|_| Moved::OtherDay)?;
        let d = if back { d.checked_neg().ok_or(Moved::OtherDay)? } else { d };
        self.minutes().checked_add(d).and_then(Time::from_minutes).ok_or(Moved::OtherDay)
    }

    /// The minutes from `earlier` to `self` (negative when `earlier` is later).
    pub fn since(self, earlier: Time) -> Num {
        Num::int((self.minutes() - earlier.minutes()) as i128)
    }
}

impl Moved {
    pub fn message(self) -> &'static str {
        match self {
            Moved::NotWhole => "a time of day moves by whole minutes only",
            Moved::OtherDay => "the time of day would fall on another day",
        }
    }
}

impl fmt::Display for Time {
    /// The form facts files and the language write: `18:15`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (h, m) = self.hm();
        write!(f, "{h:02}:{m:02}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_show() {
        assert_eq!(Time::parse("18:15").unwrap().minutes(), 1095);
        assert_eq!(Time::parse("9:30").unwrap().to_string(), "09:30");
        assert_eq!(Time::parse("18:15:00").unwrap().minutes(), 1095);
        assert_eq!(Time::from_decimal("18.15").unwrap().minutes(), 1095);
        for bad in ["24:00", "18:60", "18:5", "118:15", "18:15:30", "18", "", "a:bc", "18:15:00:00"] {
            assert!(Time::parse(bad).is_none(), "{bad}");
        }
        assert!(Time::from_decimal("18.5").is_none());
        assert!(Time::from_decimal("18.75").is_none());
    }

    #[test]
    fn moves_within_the_day() {
        let t = Time::parse("18:00").unwrap();
        assert_eq!(t.add(Num::int(15), false).unwrap().to_string(), "18:15");
        assert_eq!(t.add(Num::int(15), true).unwrap().to_string(), "17:45");
        assert_eq!(t.add(Num::int(6 * 60), false), Err(Moved::OtherDay));
        assert_eq!(t.add(Num::int(18 * 60 + 1), true), Err(Moved::OtherDay));
        assert_eq!(t.add(Num::ratio(1, 2).unwrap(), false), Err(Moved::NotWhole));
        assert_eq!(Time::parse("18:20").unwrap().since(t), Num::int(20));
        assert_eq!(t.since(Time::parse("18:20").unwrap()), Num::int(-20));
    }
}
