//! The table of builtins: one declaration per builtin, from which everything that names
//! or lists builtins is generated.
//!
//! What it owns: the [`Builtin`] enum and, from the same lines, its name ([`Builtin::name`]),
//! the list of all ([`Builtin::ALL`]), lookup by name ([`Builtin::from_name`]), the usage
//! text the checker shows ([`Builtin::usage`]), the signature the checker types a plain
//! call by ([`Builtin::sig`]), the message of the explanation's working ([`Builtin::message`]),
//! the builtins table of docs/language.md ([`docs_table`]), and how each is evaluated
//! ([`Builtin::kind`]):
//!
//! - a *plain* builtin is a pure function (`crate::base::plain`) that the interpreter, the
//!   compiled evaluator and the explanation's working all call;
//! - a *special form* ([`Special`]: aggregates with a lambda, rankings, apportionment,
//!   draws, the lazy `quotient`, list helpers read in place) is evaluated by hand in each
//!   evaluator, by an exhaustive match over [`Special`].
//!
//! ## Adding a builtin
//! Add its line to the table below; for a plain builtin write its function in
//! `base/plain.rs`; for a special form, the compiler points at every match over
//! [`Special`] that must handle it. Then add a line to docs/language.md (the test
//! `tests/builtins_table.rs` prints the table it expects), a case file and a rendering
//! that use it.

use super::types::Type;
use crate::base::plain::{self, NumberFn, ValuesFn};

/// How a builtin is evaluated.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    /// A pure function of the argument values.
    Values(ValuesFn),
    /// A pure function of one number to a number.
    Number(NumberFn),
    /// A special form, evaluated by hand.
    Special(Special),
}

/// The type of a parameter or result in a fixed signature.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Param {
    Int,
    Date,
    Time,
}

impl Param {
    pub fn ty(self) -> Type {
        match self {
            Param::Int => Type::Int,
            Param::Date => Type::Date,
            Param::Time => Type::Time,
        }
    }
}

/// How the checker types a call.
#[derive(Clone, Copy, Debug)]
pub enum Sig {
    /// Typed by hand in `check::builtins`.
    Hand,
    /// Fixed positional arguments (each lowered as its type, and named in a type error as
    /// its text), no lambda and no named argument; `expected` words a wrong call.
    Fixed { params: &'static [(Param, &'static str)], result: Param, expected: &'static str },
}

/// Where a builtin is documented in docs/language.md's table.
#[derive(Clone, Copy, Debug)]
pub enum Docs {
    /// A row of its own: its cells, `|`-separated, without the outer bars.
    Row(&'static str),
    /// In the row of another builtin.
    With(Builtin),
}

macro_rules! kind {
    (special $V:ident) => {
        Kind::Special(Special::$V)
    };
    (values $V:ident $f:path) => {
        Kind::Values($f)
    };
    (number $V:ident $f:path) => {
        Kind::Number($f)
    };
}

macro_rules! sig {
    () => {
        Sig::Hand
    };
    ($($p:ident $what:literal),+ => $r:ident, $expected:literal) => {
        Sig::Fixed { params: &[$((Param::$p, $what)),+], result: Param::$r, expected: $expected }
    };
}

macro_rules! docs {
    ($row:literal) => {
        Docs::Row($row)
    };
    ((with $W:ident)) => {
        Docs::With(Builtin::$W)
    };
}

/// The special forms' enum, from the lines of the table whose kind is `special`.
macro_rules! specials {
    (@acc [$($done:ident)*]) => {
        /// The builtins evaluated by hand (see the module documentation).
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Special { $($done),* }
    };
    (@acc [$($done:ident)*] special $V:ident, $($rest:tt)*) => {
        specials!(@acc [$($done)* $V] $($rest)*);
    };
    (@acc [$($done:ident)*] $other:ident $V:ident, $($rest:tt)*) => {
        specials!(@acc [$($done)*] $($rest)*);
    };
}

macro_rules! builtins {
    ($(
        $V:ident $name:literal, $kind:ident $(($f:path))?, [$($sig:tt)*],
        usage $usage:literal, docs $docs:tt $(, message $msg:literal)?;
    )*) => {
        /// A builtin function (see the module documentation).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Builtin { $($V),* }

        specials!(@acc [] $($kind $V,)*);

        impl Builtin {
            /// Every builtin, in the table's order.
            pub const ALL: &'static [Builtin] = &[$(Builtin::$V),*];

            /// Its name in a rulebook.
            pub fn name(self) -> &'static str {
                match self { $(Builtin::$V => $name),* }
            }

            /// The builtin of a name.
            pub fn from_name(s: &str) -> Option<Builtin> {
                match s {
                    $($name => Some(Builtin::$V),)*
                    _ => None,
                }
            }

            /// How to call it, for a wrong call's help.
            pub fn usage(self) -> &'static str {
                match self { $(Builtin::$V => $usage),* }
            }

            /// How it is evaluated.
            pub fn kind(self) -> Kind {
                match self { $(Builtin::$V => kind!($kind $V $($f)?)),* }
            }

            /// How the checker types a call of it.
            pub fn sig(self) -> Sig {
                match self { $(Builtin::$V => sig!($($sig)*)),* }
            }

            /// The message id the explanation's working words it with, when it has one.
            pub fn message(self) -> Option<&'static str> {
                match self { $(Builtin::$V => { None $(.or(Some($msg)))? }),* }
            }

            /// Where docs/language.md documents it.
            pub fn docs(self) -> Docs {
                match self { $(Builtin::$V => docs!($docs)),* }
            }
        }
    };
}

builtins! {
    Count "count", special, [],
        usage "count(list) or count(list, x => condition)",
        docs "`count(xs)`, `count(xs, x => cond)` | how many (that satisfy the condition)";
    Sum "sum", special, [],
        usage "sum(list) or sum(list, x => amount)",
        docs "`sum(xs)`, `sum(xs, x => amount)` | exact total";
    All "all", special, [],
        usage "all(list, x => condition)",
        docs "`all(xs, x => cond)`, `any(xs, x => cond)` | three-valued: one `false` (`true`) decides";
    Any "any", special, [],
        usage "any(list, x => condition)",
        docs (with All);
    Filter "filter", special, [],
        usage "filter(list, x => condition)",
        docs "`filter(xs, x => cond)`, `map(xs, x => value)` | ";
    Map "map", special, [],
        usage "map(list, x => value)",
        docs (with Filter);
    Most "most", special, [],
        usage "most(list, x => key): the items with the greatest key, ties included",
        docs "`most(xs, x => key)`, `least(xs, x => key)` | the items with the greatest (smallest) key, ties included";
    Least "least", special, [],
        usage "least(list, x => key): the items with the smallest key, ties included",
        docs (with Most);
    Top "top", special, [],
        usage "top(list, x => key, n): the items ranked n or better, ties at the cut included",
        docs "`top(xs, x => key, n)` | ranking with ties: items ranked `n` or better (rank = 1 + number strictly better), so ties at the cut are included";
    Min "min", special, [],
        usage "min(a, b, …) or min(list)",
        docs "`min(a, b, …)`, `max(a, b, …)`, `min(xs)`, `max(xs)` | ",
        message "smallest-of";
    Max "max", special, [],
        usage "max(a, b, …) or max(list)",
        docs (with Min),
        message "largest-of";
    Ceil "ceil", number(plain::ceil), [],
        usage "ceil(number)",
        docs "`ceil(x)`, `floor(x)`, `round(x)` | only where a clause rounds; on plain numbers: `ceil(late / 1 week)` counts started weeks",
        message "rounded-up";
    Floor "floor", number(plain::floor), [],
        usage "floor(number)",
        docs (with Ceil),
        message "rounded-down";
    Round "round", number(plain::round), [],
        usage "round(number)",
        docs (with Ceil),
        message "rounded";
    Abs "abs", number(plain::abs), [],
        usage "abs(number)",
        docs "`abs(x)` | ",
        message "without-sign";
    Age "age", values(plain::age), [Date "the birth date", Date "the date" => Int, "expected a birth date and a date"],
        usage "age(birth_date, on_date)",
        docs "`age(born, on)` | whole years completed on a date";
    Apportion "apportion", special, [],
        usage "apportion(seats, list, x => weight, tie: lot)",
        docs "`apportion(seats, xs, x => weight, tie: lot)` | largest-remainder apportionment; a tie on the remainder at the cut is drawn by the lot (a list of winners). The seats are not negative and the weights neither; an error when they are, and when there are seats but nothing to apportion them by (no items, or every weight 0). No seats give each item 0. A written negative number of seats, or a weight written as a negative number or 0, is a `check` error";
    Draw "draw", special, [],
        usage "draw(lot, candidates) or draw(lot, candidates, how_many)",
        docs "`draw(lot, candidates)`, `draw(lot, candidates, n)` | the result of a draw among candidates (or of `n` of them; nothing to draw when there are no more candidates than places)";
    Choose "choose", special, [],
        usage "choose(decision, candidates) or choose(decision, candidates, how_many)",
        docs "`choose(decision, candidates)`, `choose(decision, candidates, n)` | a person's choice among candidates (or of `n` of them)";
    Distinct "distinct", special, [],
        usage "distinct(list)",
        docs "`distinct(xs)`, `contains(xs, x)`, `concat(xs, ys, …)` | ";
    Contains "contains", special, [],
        usage "contains(list, value)",
        docs (with Distinct);
    First "first", special, [],
        usage "first(list): its first item",
        docs "`first(xs)`, `only(xs)` | the first item; the one item (an error unless there is exactly one)";
    Only "only", special, [],
        usage "only(list): its one item (an error unless there is exactly one)",
        docs (with First);
    Concat "concat", special, [],
        usage "concat(list, list, …)",
        docs (with Distinct);
    At "at", special, [],
        usage "at(list, n): the n-th item, counting from 1",
        docs "`at(xs, n)`, `position(xs, x)` | the n-th item, and where an item stands, counting from 1: `at(apportion(70, districts, d => d.members), position(districts, d))` is district `d`'s places";
    Position "position", special, [],
        usage "position(list, value): where the value stands, counting from 1",
        docs (with At);
    Place "place", special, [],
        usage "place(ranking, value): 1 + the number ranked ahead of the value in a `rank …`",
        docs "`place(ranking, x)` | the place of `x` in a `rank …`: 1 + the number of items ranked ahead of it";
    Quotient "quotient", special, [],
        usage "quotient(a, b, if_zero: value): a / b, or the value when b is 0",
        docs "`quotient(a, b, if_zero: v)` | `a / b`, or `v` when `b` is 0";
    Date "date", values(plain::make_date), [Int "the year", Int "the month", Int "the day" => Date, "expected a year, a month and a day"],
        usage "date(year, month, day): the date of a year, month and day",
        docs "`date(year, month, day)` | the date of its parts: `date(season_year, 9, 1)` is 1 September of the season's year (an error if there is no such day)";
    Year "year", values(plain::year), [Date "the date" => Int, "expected a date"],
        usage "year(date)",
        docs "`year(d)`, `month(d)`, `day(d)` | a date's parts (`month` 1 to 12)";
    Month "month", values(plain::month), [Date "the date" => Int, "expected a date"],
        usage "month(date): 1 (January) to 12",
        docs (with Year);
    Day "day", values(plain::day), [Date "the date" => Int, "expected a date"],
        usage "day(date): the day of the month",
        docs (with Year);
    Weekday "weekday", values(plain::weekday), [Date "the date" => Int, "expected a date"],
        usage "weekday(date): 1 (Monday) to 7 (Sunday)",
        docs "`weekday(d)` | 1 (Monday) to 7 (Sunday)";
    NextWeekday "next_weekday", values(plain::next_weekday), [],
        usage "next_weekday(date, weekday): the first such weekday after the date; the weekday is 1 (Monday) to 7 (Sunday) or a variant of a 7-day enum",
        docs "`next_weekday(d, w)`, `previous_weekday(d, w)` | the first such weekday after `d` (the last before it); `w` is 1 to 7 or a variant of a rulebook's own enum of the seven days, Monday first: `type Ugedag = enum { mandag, tirsdag, onsdag, torsdag, fredag, lørdag, søndag }`, `next_weekday(spilledag, torsdag)`";
    PreviousWeekday "previous_weekday", values(plain::previous_weekday), [],
        usage "previous_weekday(date, weekday): the last such weekday before the date; the weekday is 1 (Monday) to 7 (Sunday) or a variant of a 7-day enum",
        docs (with NextWeekday);
    AddMonths "add_months", values(plain::add_months), [Date "the date", Int "the number of months or years" => Date, "expected a date and a whole number"],
        usage "add_months(date, n): the same day n months later (the month's last day if it has fewer)",
        docs "`add_months(d, n)`, `add_years(d, n)` | the same day `n` months (years) later, the month's last day when it has fewer days (31 January + 1 month is 28 or 29 February)";
    AddYears "add_years", values(plain::add_years), [Date "the date", Int "the number of months or years" => Date, "expected a date and a whole number"],
        usage "add_years(date, n): the same day n years later (28 February for 29 February)",
        docs (with AddMonths);
    Hour "hour", values(plain::hour), [Time "the time" => Int, "expected a time of day"],
        usage "hour(time): 0 to 23",
        docs "`hour(t)`, `minute(t)` | a time of day's parts: `hour(18:15)` is 18, `minute(18:15)` is 15";
    Minute "minute", values(plain::minute), [Time "the time" => Int, "expected a time of day"],
        usage "minute(time): 0 to 59",
        docs (with Hour);
    Time "time", values(plain::make_time), [Int "the hour", Int "the minute" => Time, "expected an hour and a minute"],
        usage "time(hour, minute): the time of day of an hour and a minute",
        docs "`time(h, m)` | the time of day of its parts: `time(start_hour, 30)` (an error if there is no such time: `h` is 0 to 23, `m` 0 to 59)";
}

/// The builtins table of docs/language.md, as it must read there: its header and one
/// row per builtin documented on a row of its own, in the table's order.
pub fn docs_table() -> String {
    let mut out = String::from("| builtin | meaning |\n|---|---|\n");
    for b in Builtin::ALL {
        if let Docs::Row(row) = b.docs() {
            out.push_str("| ");
            out.push_str(row.trim_end());
            out.push_str(" |\n");
        }
    }
    out
}
