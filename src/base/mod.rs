//! The bottom layer, which every other module stands on and which stands on none of them:
//! values ([`value`]) and the slots that hold them ([`slots`]), exact numbers ([`num`]),
//! dates ([`date`]), times of day ([`time`]), moments ([`datetime`]), the pure builtin
//! functions over values ([`plain`]), languages and their tags ([`lang`]), the lookup of
//! the bundled message files ([`messages`], with each language's way of printing numbers
//! in [`units`]), and the type-keyed caches later stages keep beside a program ([`cache`]).
//! Nothing here names a rulebook, a program or a stage above.

pub mod cache;
pub mod date;
pub mod datetime;
pub mod lang;
pub mod messages;
pub mod num;
pub mod plain;
pub mod slots;
pub mod time;
pub mod units;
pub mod value;
