# Ordene i en begrundelse, på dansk (Project Fluent).
# Bestemmelsernes tekst står aldrig her: den citeres som trykt.

none = ingen
and = og
or = eller
yes = ja
no = nej

## Regnestykker med værdierne sat ind
op-add = +
op-sub = −
op-mul = ×
op-div = /
whole-division = { $a } ÷ { $b }, rundet ned til et helt tal: { $value }
remainder = { $a } delt med { $b } giver resten { $value }
rounded-up = { $from }, rundet op: { $to }
rounded-down = { $from }, rundet ned: { $to }
rounded = { $from }, afrundet: { $to }
without-sign = { $from }, uden fortegn: { $to }
clamp-below = { $from } er under { $bound }, altså { $bound }
clamp-above = { $from } er over { $bound }, altså { $bound }
largest-of = den største af { $of }: { $value }
smallest-of = den mindste af { $of }: { $value }

## Optællinger og lister
counted = { $n ->
    [0] ingen af de { $of }
   *[other] { $n } af { $of }: { $items }
  }
# A list of facts too long to read in the brief explanation, said by its count.
list-entries = { $n } poster
# En optælling, hvis poster er for lange at nævne: arbejdet nedenfor viser dem.
counted-bare = { $n } af { $of }
all-hold = det gælder alle { $n }
not-all-hold = det gælder ikke alle: ikke { $items }
none-holds = det gælder ingen af de { $n }
some-hold = det gælder { $items }

## Placeringer og fordelinger
# En placering som ordenstal: 1., 2., 11.
place = { $rank }.
ordinal-place = { $place }.
ranking-row = { place } { $item } { $key }
tied-at-cut = (lige ved grænsen, kommer med)
tied-on-remainder = (lige på brøkdelen om den sidste plads)
ranking-top = Stilling: { $table }. De første { $places } pladser, inklusive dem der står lige ved grænsen: { $n ->
    [one] 1 går videre
   *[other] { $n } går videre
  }
ranking-first-out = { $item } er nr. { $rank } med { $key }, under grænsen
ranking-best = { $table }
ordered-by = efter { $key }: { $values }
tie-broken = { $items } står lige; { $key } skiller dem: { $values }
tie-broken-bare = { $items } står lige; { $key } skiller dem
tie-kept = { $items } står lige efter alle kriterier og deler pladsen
order-key = kriterium { $n }
standings-row = { ordinal-place } { $items }
standings-shared = { ordinal-place } { $items } (deler pladsen)
standings = Stilling: { $table }
apportion = { $seats } pladser fordelt efter vægt (i alt { $total }), hver kvotens hele tal, { $left ->
    [0] ingen pladser tilovers
    [one] den 1 plads tilovers til den største brøkdel
   *[other] de { $left } pladser tilovers til de største brøkdele
  }: { $rows }
apportion-row = { $item } { $weight } → kvote { $quota } → { $seats }
# An apportionment's answer: each item with the places it gets.
apportioned = { $item }: { $seats }
# Tabeller i udregningen: titler, kolonneoverskrifter og ordene ved siden af.
table-ranking = Rangeret efter { $key }
table-standings = Stilling
table-each = { $key }, for hver enkelt
table-apportion = Fordelingen af de { $seats } pladser
table-decides = de rækker, der afgør
col-place = Plads
col-name = Navn
col-quota = Kvote
col-whole = Hele tal
col-remainder = Brøkdel
col-places = Pladser
ranking-cut = De første { $places } pladser, inklusive dem der står lige ved grænsen: { $n ->
    [one] 1 går videre
   *[other] { $n } går videre
  }
ranking-shared = { $items } deler { place } plads med { $key }
ranking-alone = { $item } er nr. { $rank } med { $key }
standings-share = { $items } deler { ordinal-place } plads
apportion-sum = { $seats } pladser fordelt efter vægt (i alt { $total }), hver kvotens hele tal, { $left ->
    [0] ingen pladser tilovers
    [one] den 1 plads tilovers til den største brøkdel
   *[other] de { $left } pladser tilovers til de største brøkdele
  }

## Betingelser som sætninger
subject = { $left } er { $value }
cmp-lt-yes = { $subject }, hvilket er mindre end { $right }
cmp-lt-no = { $subject }, hvilket ikke er mindre end { $right }
cmp-le-yes = { $subject }, hvilket er højst { $right }
cmp-le-no = { $subject }, hvilket er mere end { $right }
cmp-gt-yes = { $subject }, hvilket er mere end { $right }
cmp-gt-no = { $subject }, hvilket ikke er mere end { $right }
cmp-ge-yes = { $subject }, hvilket er mindst { $right }
cmp-ge-no = { $subject }, hvilket er mindre end { $right }
cmp-eq-yes = { $subject }, det samme som { $right }
cmp-eq-no = { $subject }, ikke { $right }
cmp-ne-yes = { $subject }, ikke { $right }
cmp-ne-no = { $subject }, det samme som { $right }
range-yes = { $subject }, hvilket er fra { $lo } til { $hi }
range-no = { $subject }, hvilket ikke er fra { $lo } til { $hi }
range-open-yes = { $subject }, hvilket er fra { $lo } og før { $hi }
range-open-no = { $subject }, hvilket ikke er fra { $lo } og før { $hi }
range-from-yes = { $subject }, hvilket er { $lo } eller mere
range-from-no = { $subject }, hvilket er under { $lo }
range-to-yes = { $subject }, hvilket er { $hi } eller mindre
range-to-no = { $subject }, hvilket er over { $hi }
range-below-yes = { $subject }, hvilket er under { $hi }
range-below-no = { $subject }, hvilket ikke er under { $hi }
among-yes = { $subject }, som er blandt { $list }
among-no = { $subject }, som ikke er blandt { $list }
holds-yes = { $left }: ja
holds-no = { $left }: nej

test-places = { $n ->
    [one] 1 plads
   *[other] { $n } pladser
  }

## Rammen om en afgørelse
answer = Svar
why = Begrundelse
needs = Mangler
facts-used = Anvendte oplysninger
clauses = Citerede bestemmelser
gloss = Engelsk oversættelse
# The marks around a clause quoted as printed, in this language's typography.
quote-open = »
quote-close = «
paraphrase = Omskrivning (den trykte tekst foreligger ikke)
error = Bestemmelserne kan ikke afgøre dette
# En betingelse i den afgørende bestemmelse, som ikke var opfyldt, sagt som den er (kun begrundelsen).
condition-held = { $reason }
does-not-apply = { $clause } finder ikke anvendelse: { $reason }
waits-for = { $clause } kan endnu ikke anvendes: det kræver { $reason }
waits-for-needed = { $clause } kan endnu ikke anvendes: det afventer det, der mangler
requires = den gælder kun, når { $what }
here = (her: { $value })
number-of = antallet af { $what }

## Hvad en regel krævede, sagt positivt
rel-lt = { $left } er mindre end { $right }
rel-le = { $left } er højst { $right }
rel-gt = { $left } er mere end { $right }
rel-ge = { $left } er mindst { $right }
rel-eq = { $left } er { $right }
rel-ne = { $left } ikke er { $right }
rel-range = { $left } er fra { $lo } til { $hi }
rel-not-range = { $left } ikke er fra { $lo } til { $hi }
rel-range-open = { $left } er fra { $lo } og før { $hi }
rel-not-range-open = { $left } er før { $lo } eller fra { $hi }
rel-range-from = { $left } er { $lo } eller mere
rel-not-range-from = { $left } er under { $lo }
rel-range-to = { $left } er { $hi } eller mindre
rel-not-range-to = { $left } er over { $hi }
rel-range-below = { $left } er under { $hi }
rel-not-range-below = { $left } er { $hi } eller mere
rel-among = { $left } er en af { $list }
rel-not-among = { $left } ikke er nogen af { $list }
rel-bool = »{ $left }« er { $want } (her: { $have })
bare-ne = { $left } er ikke { $right }

## Overskrifter og sætningerne i rammen om en afgørelse
ruling = Afgørelse
why-not = Regler der ikke fandt anvendelse
rule = regel
overrides = som undtagelse fra
also = og ligeledes
row = række
outside = uden for disse bestemmelser
# Linjen for afgørelsen selv i den korte begrundelse, når svaret er for langt til at gentage.
answer-above = svaret ovenfor
not-decided = ikke afgjort af bestemmelserne
undetermined = endnu ikke afgjort
no-ruling = ingen afgørelse
condition-false = betingelsen er ikke opfyldt
decided-by = afgjort af { $who }
# En afgørelse, sagt som det, der blev afgjort: $who afgjorde, $what er afgørelsens udtryk,
# $answer er yes, no eller other (så er $value det afgjorte).
decision-found = { $answer ->
    [yes] { $who } svarede ja til { $what }
    [no] { $who } svarede nej til { $what }
   *[other] { $who } afgjorde { $what }: { $value }
  }
# $n er antallet af nærmeste bestemmelser, $clauses listen over dem.
silent = { $n ->
    [0] bestemmelserne afgør ikke { $what } i dette tilfælde
    [one] bestemmelserne afgør ikke { $what } i dette tilfælde; den nærmeste bestemmelse er { $clauses }
   *[other] bestemmelserne afgør ikke { $what } i dette tilfælde; de nærmeste bestemmelser er { $clauses }
  }
# $has-doc, $has-citation og $has-among (yes eller no) siger, om delen er der.
needs-fact = kræver { $has-doc ->
    [no] oplysningen { $name }
   *[yes] { $doc }
  }{ $has-citation ->
    [no] {""}
   *[yes] , jf. { $citation }
  }
needs-field = kræver { $field } for { $record }
needs-decision = kræver en afgørelse fra { $who }{ $has-citation ->
    [no] {""}
   *[yes] {" "}efter { $citation }
  }{ $has-doc ->
    [no] {""}
   *[yes] : { $doc }
  }{ $has-among ->
    [no] {""}
   *[yes] {" "}(valg mellem { $among })
  }
needs-lot = afgøres ved lodtrækning{ $has-citation ->
    [no] {""}
   *[yes] {" "}efter { $citation }
  } mellem { $among }, foretaget af { $who }{ $has-doc ->
    [no] {""}
   *[yes] {" "}({ $doc })
  }
pattern-mismatch = den dækker andre tilfælde ({ $param } her: { $value })
pattern-mismatch-unnamed = den dækker andre tilfælde (her: { $value })

## Værdier: hvordan ja/nej, tomme lister, tal, beløb, varigheder og datoer vises.
value-yes = ja
value-no = nej
value-none = ingen
# Feltet der navngiver en post: en post med det vises ved sit navn.
record-name-field = navn
number-thousands = .
number-decimal = ,
unit-per = pr.
money-USD = ${ $amount }
money-DKK = { $amount } kr.
money-DKK-whole = { $amount } kr.
money-other = { $amount } { $currency }
duration-week-one = uge
duration-week-other = uger
duration-day-one = dag
duration-day-other = dage
duration-hour-one = time
duration-hour-other = timer
duration-minute-one = minut
duration-minute-other = minutter
# A time of day: $hours (9, 18), $hours2 (09, 18), $minutes (00, 15).
time-of-day = kl. { $hours }.{ $minutes }
date-full = { $day }. { $month } { $year }
date-time = { $date } { $time }
month-1 = januar
month-2 = februar
month-3 = marts
month-4 = april
month-5 = maj
month-6 = juni
month-7 = juli
month-8 = august
month-9 = september
month-10 = oktober
month-11 = november
month-12 = december
