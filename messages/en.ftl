# The words of an explanation, in English (Project Fluent).
# Clause texts are never here: they are quoted as printed, with their glosses.

none = none
and = and
or = or
yes = yes
no = no

## Arithmetic, with the values put in
op-add = +
op-sub = −
op-mul = ×
op-div = /
whole-division = { $a } ÷ { $b }, rounded down to a whole number: { $value }
remainder = { $a } divided by { $b } leaves { $value } over
rounded-up = { $from }, rounded up: { $to }
rounded-down = { $from }, rounded down: { $to }
rounded = { $from }, rounded: { $to }
without-sign = { $from }, without its sign: { $to }
clamp-below = { $from } is below { $bound }, so { $bound }
clamp-above = { $from } is above { $bound }, so { $bound }
largest-of = the largest of { $of }: { $value }
smallest-of = the smallest of { $of }: { $value }

## Counts and lists
counted = { $n ->
    [0] none of the { $of }
   *[other] { $n } of { $of }: { $items }
  }
# A list of facts too long to read in the brief explanation, said by its count.
list-entries = { $n } entries
# A count whose items are records too long to list: the working below shows them.
counted-bare = { $n } of { $of }
all-hold = all { $n } hold
not-all-hold = not all hold: not { $items }
none-holds = none of the { $n } holds
some-hold = it holds for { $items }

## Rankings and apportionments
# An ordinal place: 1st, 2nd, 3rd, 4th, 11th, 21st.
place = { NUMBER($rank, type: "ordinal") ->
    [one] { $rank }st
    [two] { $rank }nd
    [few] { $rank }rd
   *[other] { $rank }th
  }
# The same, for a place given as $place.
ordinal-place = { NUMBER($place, type: "ordinal") ->
    [one] { $place }st
    [two] { $place }nd
    [few] { $place }rd
   *[other] { $place }th
  }
ranking-row = { place } { $item } { $key }
tied-at-cut = (tied at the cut, included)
tied-on-remainder = (tied on the remainder for the last place)
ranking-top = Standings: { $table }. The first { $places } places, ties at the cut included: { $n ->
    [one] 1 goes through
   *[other] { $n } go through
  }
ranking-first-out = { $item } is { place } with { $key }, below the cut
ranking-best = { $table }
ordered-by = by { $key }: { $values }
tie-broken = { $items } are level; { $key } separates them: { $values }
tie-broken-bare = { $items } are level; { $key } separates them
tie-kept = { $items } are level on every tie-break and share the place
order-key = criterion { $n }
standings-row = { ordinal-place } { $items }
standings-shared = { ordinal-place } { $items } (sharing the place)
standings = Standings: { $table }
apportion = { $seats } places shared by weight (total { $total }), each its quota's whole number, { $left ->
    [0] none left over
    [one] the 1 place left over to the largest remainder
   *[other] the { $left } places left over to the largest remainders
  }: { $rows }
apportion-row = { $item } { $weight } → quota { $quota } → { $seats }
# An apportionment's answer: each item with the places it gets.
apportioned = { $item }: { $seats }
# Tables of the working: captions, headers, and the words beside them.
table-ranking = Ranked by { $key }
table-standings = Standings
table-each = { $key }, one by one
table-apportion = How the { $seats } places are shared
table-decides = the rows that decide
col-place = Place
col-name = Name
col-quota = Quota
col-whole = Whole part
col-remainder = Remainder
col-places = Places
ranking-cut = The first { $places } places, ties at the cut included: { $n ->
    [one] 1 goes through
   *[other] { $n } go through
  }
ranking-shared = { $items } share { place } place with { $key }
ranking-alone = { $item } is { place } with { $key }
standings-share = { $items } share { ordinal-place } place
apportion-sum = { $seats } places shared by weight (total { $total }), each its quota's whole number, { $left ->
    [0] none left over
    [one] the 1 place left over to the largest remainder
   *[other] the { $left } places left over to the largest remainders
  }

## Conditions as sentences
subject = { $left } is { $value }
cmp-lt-yes = { $subject }, which is less than { $right }
cmp-lt-no = { $subject }, which is not less than { $right }
cmp-le-yes = { $subject }, which is at most { $right }
cmp-le-no = { $subject }, which is more than { $right }
cmp-gt-yes = { $subject }, which is more than { $right }
cmp-gt-no = { $subject }, which is not more than { $right }
cmp-ge-yes = { $subject }, which is at least { $right }
cmp-ge-no = { $subject }, which is less than { $right }
cmp-eq-yes = { $subject }, the same as { $right }
cmp-eq-no = { $subject }, not { $right }
cmp-ne-yes = { $subject }, not { $right }
cmp-ne-no = { $subject }, the same as { $right }
range-yes = { $subject }, which is from { $lo } to { $hi }
range-no = { $subject }, which is not from { $lo } to { $hi }
range-open-yes = { $subject }, which is from { $lo } and before { $hi }
range-open-no = { $subject }, which is not from { $lo } and before { $hi }
range-from-yes = { $subject }, which is { $lo } or more
range-from-no = { $subject }, which is below { $lo }
range-to-yes = { $subject }, which is { $hi } or less
range-to-no = { $subject }, which is above { $hi }
range-below-yes = { $subject }, which is below { $hi }
range-below-no = { $subject }, which is not below { $hi }
among-yes = { $subject }, which is one of { $list }
among-no = { $subject }, which is not one of { $list }
holds-yes = { $left }: yes
holds-no = { $left }: no

test-places = { $n ->
    [one] 1 place
   *[other] { $n } places
  }

## The frame of a ruling
answer = Answer
why = Why
needs = Still needed
facts-used = Facts used
clauses = Clauses cited
gloss = English gloss
# The marks around a clause quoted as printed, in this language's typography.
quote-open = “
quote-close = ”
# A clause whose printed text is not at hand: its content in other words, never quoted.
paraphrase = Paraphrase (the printed text is not at hand)
error = The conditions cannot rule on this
# A condition of the deciding clause that did not hold, said as it stands (the reason alone).
condition-held = { $reason }
does-not-apply = { $clause } does not apply: { $reason }
waits-for = { $clause } cannot be applied yet: it needs { $reason }
waits-for-needed = { $clause } cannot be applied yet: it waits for what is still needed
requires = it applies only when { $what }
here = (here: { $value })
number-of = the number of { $what }

## What a rule required, stated positively
rel-lt = { $left } is less than { $right }
rel-le = { $left } is at most { $right }
rel-gt = { $left } is more than { $right }
rel-ge = { $left } is at least { $right }
rel-eq = { $left } is { $right }
rel-ne = { $left } is not { $right }
rel-range = { $left } is from { $lo } to { $hi }
rel-not-range = { $left } is not from { $lo } to { $hi }
rel-range-open = { $left } is from { $lo } and before { $hi }
rel-not-range-open = { $left } is before { $lo } or from { $hi }
rel-range-from = { $left } is { $lo } or more
rel-not-range-from = { $left } is below { $lo }
rel-range-to = { $left } is { $hi } or less
rel-not-range-to = { $left } is above { $hi }
rel-range-below = { $left } is below { $hi }
rel-not-range-below = { $left } is { $hi } or more
rel-among = { $left } is one of { $list }
rel-not-among = { $left } is none of { $list }
rel-bool = “{ $left }” is { $want } (here: { $have })
bare-ne = { $left } is not { $right }

## Headings and the sentences of a ruling's frame
ruling = Ruling
why-not = Rules that did not apply
rule = rule
overrides = as an exception to
also = and likewise
row = row
outside = outside these conditions
# The ruling's own line in the brief working when its answer is too long to say again.
answer-above = the answer above
not-decided = not decided by the conditions
undetermined = undetermined
no-ruling = no ruling
condition-false = its condition does not hold
decided-by = decided by { $who }
# A decision given, as what was decided: $who decided, $what is the decision's phrase,
# $answer is yes, no or other (then $value is the value decided).
decision-found = { $answer ->
    [yes] { $who } answered yes to { $what }
    [no] { $who } answered no to { $what }
   *[other] { $who } decided { $what }: { $value }
  }
# $n is the number of nearest clauses, $clauses their list.
silent = { $n ->
    [0] the conditions do not decide { $what } for these facts
    [one] the conditions do not decide { $what } for these facts; the nearest clause is { $clauses }
   *[other] the conditions do not decide { $what } for these facts; the nearest clauses are { $clauses }
  }
# $has-doc, $has-citation and $has-among (yes or no) say whether the part is there.
needs-fact = needs { $has-doc ->
    [no] the fact { $name }
   *[yes] { $doc }
  }{ $has-citation ->
    [no] {""}
   *[yes] , read by { $citation }
  }
needs-field = needs { $field } for { $record }
needs-decision = needs a decision by { $who }{ $has-citation ->
    [no] {""}
   *[yes] {" "}under { $citation }
  }{ $has-doc ->
    [no] {""}
   *[yes] : { $doc }
  }{ $has-among ->
    [no] {""}
   *[yes] {" "}(choosing between { $among })
  }
needs-lot = decided by lot{ $has-citation ->
    [no] {""}
   *[yes] {" "}under { $citation }
  } between { $among }, drawn by { $who }{ $has-doc ->
    [no] {""}
   *[yes] {" "}({ $doc })
  }
pattern-mismatch = it covers other cases ({ $param } here: { $value })
pattern-mismatch-unnamed = it covers other cases (here: { $value })

## Values: how yes/no, empty lists, numbers, money, durations, times of day and dates are shown.
value-yes = yes
value-no = no
value-none = none
# The field that names a record: a record with it is shown by its name.
record-name-field = name
number-thousands = ,
number-decimal = .
unit-per = per
money-USD = ${ $amount }
money-DKK = DKK { $amount }
money-DKK-whole = DKK { $amount }
money-other = { $amount } { $currency }
duration-week-one = week
duration-week-other = weeks
duration-day-one = day
duration-day-other = days
duration-hour-one = hour
duration-hour-other = hours
duration-minute-one = minute
duration-minute-other = minutes
# A time of day: $hours (9, 18), $hours2 (09, 18), $minutes (00, 15).
time-of-day = { $hours }:{ $minutes }
date-full = { $day } { $month } { $year }
date-time = { $time } on { $date }
month-1 = January
month-2 = February
month-3 = March
month-4 = April
month-5 = May
month-6 = June
month-7 = July
month-8 = August
month-9 = September
month-10 = October
month-11 = November
month-12 = December
