# Orden i en motivering, på svenska (Project Fluent).
# Bestämmelsernas text står aldrig här: den citeras som tryckt.

none = ingen
and = och
or = eller
yes = ja
no = nej

## Uträkningar med värdena insatta
op-add = +
op-sub = −
op-mul = ×
op-div = /
whole-division = { $a } ÷ { $b }, avrundat nedåt till ett heltal: { $value }
remainder = { $a } delat med { $b } ger resten { $value }
rounded-up = { $from }, avrundat uppåt: { $to }
rounded-down = { $from }, avrundat nedåt: { $to }
rounded = { $from }, avrundat: { $to }
without-sign = { $from }, utan förtecken: { $to }
clamp-below = { $from } är under { $bound }, alltså { $bound }
clamp-above = { $from } är över { $bound }, alltså { $bound }
largest-of = det största av { $of }: { $value }
smallest-of = det minsta av { $of }: { $value }

## Räkningar och listor
counted = { $n ->
    [0] inga av { $of }
   *[other] { $n } av { $of }: { $items }
  }
# A list of facts too long to read in the brief explanation, said by its count.
list-entries = { $n } poster
# En räkning vars poster är för långa att nämna: arbetet nedan visar dem.
counted-bare = { $n } av { $of }
all-hold = det gäller alla { $n }
not-all-hold = det gäller inte alla: inte { $items }
none-holds = det gäller ingen av de { $n }
some-hold = det gäller { $items }

## Placeringar och fördelningar
# En placering som ordningstal: 1:a, 2:a, 3:e, 11:e, 21:a.
place = { NUMBER($rank, type: "ordinal") ->
    [one] { $rank }:a
   *[other] { $rank }:e
  }
# Detsamma, för en placering given som $place.
ordinal-place = { NUMBER($place, type: "ordinal") ->
    [one] { $place }:a
   *[other] { $place }:e
  }
ranking-row = { place } { $item } { $key }
tied-at-cut = (lika vid gränsen, kommer med)
tied-on-remainder = (lika på resten om den sista platsen)
ranking-top = Ställning: { $table }. De första { $places } platserna, inklusive de som står lika vid gränsen: { $n ->
    [one] 1 går vidare
   *[other] { $n } går vidare
  }
ranking-first-out = { $item } kommer på { place } plats med { $key }, under gränsen
ranking-best = { $table }
ordered-by = efter { $key }: { $values }
tie-broken = { $items } står lika; { $key } skiljer dem åt: { $values }
tie-broken-bare = { $items } står lika; { $key } skiljer dem åt
tie-kept = { $items } står lika efter alla kriterier och delar platsen
order-key = kriterium { $n }
standings-row = { ordinal-place } { $items }
standings-shared = { ordinal-place } { $items } (delar platsen)
standings = Ställning: { $table }
apportion = { $seats } platser fördelade efter vikt (totalt { $total }), var och en får kvotens heltalsdel, { $left ->
    [0] inga platser blir över
    [one] den 1 plats som blir över går till den största resten
   *[other] de { $left } platser som blir över går till de största resterna
  }: { $rows }
apportion-row = { $item } { $weight } → kvot { $quota } → { $seats }
# An apportionment's answer: each item with the places it gets.
apportioned = { $item }: { $seats }
# Tabeller i uträkningen: rubriker, kolumnrubriker och orden bredvid.
table-ranking = Rangordnade efter { $key }
table-standings = Ställning
table-each = { $key }, för var och en
table-apportion = Fördelningen av de { $seats } platserna
table-decides = raderna som avgör
col-place = Placering
col-name = Namn
col-quota = Kvot
col-whole = Heltalsdel
col-remainder = Rest
col-places = Platser
ranking-cut = De första { $places } platserna, inklusive de som står lika vid gränsen: { $n ->
    [one] 1 går vidare
   *[other] { $n } går vidare
  }
ranking-shared = { $items } delar { place } plats med { $key }
ranking-alone = { $item } kommer på { place } plats med { $key }
standings-share = { $items } delar { ordinal-place } plats
apportion-sum = { $seats } platser fördelade efter vikt (totalt { $total }), var och en får kvotens heltalsdel, { $left ->
    [0] inga platser blir över
    [one] den 1 plats som blir över går till den största resten
   *[other] de { $left } platser som blir över går till de största resterna
  }

## Villkor som meningar
subject = { $left } är { $value }
cmp-lt-yes = { $subject }, vilket är mindre än { $right }
cmp-lt-no = { $subject }, vilket inte är mindre än { $right }
cmp-le-yes = { $subject }, vilket är högst { $right }
cmp-le-no = { $subject }, vilket är mer än { $right }
cmp-gt-yes = { $subject }, vilket är mer än { $right }
cmp-gt-no = { $subject }, vilket inte är mer än { $right }
cmp-ge-yes = { $subject }, vilket är minst { $right }
cmp-ge-no = { $subject }, vilket är mindre än { $right }
cmp-eq-yes = { $subject }, samma som { $right }
cmp-eq-no = { $subject }, inte { $right }
cmp-ne-yes = { $subject }, inte { $right }
cmp-ne-no = { $subject }, samma som { $right }
range-yes = { $subject }, vilket är från { $lo } till { $hi }
range-no = { $subject }, vilket inte är från { $lo } till { $hi }
range-open-yes = { $subject }, vilket är från { $lo } och före { $hi }
range-open-no = { $subject }, vilket inte är från { $lo } och före { $hi }
range-from-yes = { $subject }, vilket är { $lo } eller mer
range-from-no = { $subject }, vilket är under { $lo }
range-to-yes = { $subject }, vilket är { $hi } eller mindre
range-to-no = { $subject }, vilket är över { $hi }
range-below-yes = { $subject }, vilket är under { $hi }
range-below-no = { $subject }, vilket inte är under { $hi }
among-yes = { $subject }, som är bland { $list }
among-no = { $subject }, som inte är bland { $list }
holds-yes = { $left }: ja
holds-no = { $left }: nej

test-places = { $n ->
    [one] 1 plats
   *[other] { $n } platser
  }

## Ramen kring ett avgörande
answer = Svar
why = Motivering
needs = Saknas
facts-used = Använda uppgifter
clauses = Citerade bestämmelser
gloss = Engelsk översättning
# The marks around a clause quoted as printed, in this language's typography.
quote-open = ”
quote-close = ”
paraphrase = Omskrivning (den tryckta texten finns inte till hands)
error = Bestämmelserna kan inte avgöra detta
# Ett villkor i den avgörande bestämmelsen som inte var uppfyllt, sagt som det är (bara skälet).
condition-held = { $reason }
does-not-apply = { $clause } är inte tillämplig: { $reason }
waits-for = { $clause } kan ännu inte tillämpas: den kräver { $reason }
waits-for-needed = { $clause } kan ännu inte tillämpas: den väntar på det som saknas
requires = den gäller bara när { $what }
here = (här: { $value })
number-of = antalet av { $what }

## Vad en regel krävde, sagt positivt
rel-lt = { $left } är mindre än { $right }
rel-le = { $left } är högst { $right }
rel-gt = { $left } är mer än { $right }
rel-ge = { $left } är minst { $right }
rel-eq = { $left } är { $right }
rel-ne = { $left } inte är { $right }
rel-range = { $left } är från { $lo } till { $hi }
rel-not-range = { $left } inte är från { $lo } till { $hi }
rel-range-open = { $left } är från { $lo } och före { $hi }
rel-not-range-open = { $left } är före { $lo } eller från { $hi }
rel-range-from = { $left } är { $lo } eller mer
rel-not-range-from = { $left } är under { $lo }
rel-range-to = { $left } är { $hi } eller mindre
rel-not-range-to = { $left } är över { $hi }
rel-range-below = { $left } är under { $hi }
rel-not-range-below = { $left } är { $hi } eller mer
rel-among = { $left } är en av { $list }
rel-not-among = { $left } inte är någon av { $list }
rel-bool = ”{ $left }” är { $want } (här: { $have })
bare-ne = { $left } är inte { $right }

## Rubriker och meningarna i ramen kring ett avgörande
ruling = Avgörande
why-not = Regler som inte tillämpades
rule = regel
overrides = som undantag från
also = och likaså
row = rad
outside = utanför dessa bestämmelser
# Raden för avgörandet självt i den korta motiveringen, när svaret är för långt att upprepa.
answer-above = svaret ovan
not-decided = inte avgjort av bestämmelserna
undetermined = ännu inte avgjort
no-ruling = inget avgörande
condition-false = villkoret är inte uppfyllt
decided-by = avgörs av { $who }
# Ett avgörande, sagt som det som avgjordes: $who avgjorde, $what är avgörandets uttryck,
# $answer är yes, no eller other (då är $value det som avgjordes).
decision-found = { $answer ->
    [yes] { $who } svarade ja på { $what }
    [no] { $who } svarade nej på { $what }
   *[other] { $who } avgjorde { $what }: { $value }
  }
# $n är antalet närmaste bestämmelser, $clauses listan över dem.
silent = { $n ->
    [0] bestämmelserna avgör inte { $what } i detta fall
    [one] bestämmelserna avgör inte { $what } i detta fall; den närmaste bestämmelsen är { $clauses }
   *[other] bestämmelserna avgör inte { $what } i detta fall; de närmaste bestämmelserna är { $clauses }
  }
# $has-doc, $has-citation och $has-among (yes eller no) säger om delen finns.
needs-fact = kräver { $has-doc ->
    [no] uppgiften { $name }
   *[yes] { $doc }
  }{ $has-citation ->
    [no] {""}
   *[yes] , jfr { $citation }
  }
needs-field = kräver { $field } för { $record }
needs-decision = kräver ett beslut av { $who }{ $has-citation ->
    [no] {""}
   *[yes] {" "}enligt { $citation }
  }{ $has-doc ->
    [no] {""}
   *[yes] : { $doc }
  }{ $has-among ->
    [no] {""}
   *[yes] {" "}(val mellan { $among })
  }
needs-lot = avgörs genom lottning{ $has-citation ->
    [no] {""}
   *[yes] {" "}enligt { $citation }
  } mellan { $among }, förrättad av { $who }{ $has-doc ->
    [no] {""}
   *[yes] {" "}({ $doc })
  }
pattern-mismatch = den gäller andra fall ({ $param } här: { $value })
pattern-mismatch-unnamed = den gäller andra fall (här: { $value })

## Värden: hur ja/nej, tomma listor, tal, belopp, tidslängder och datum visas.
value-yes = ja
value-no = nej
value-none = ingen
# Fältet som namnger en post: en post med det visas med sitt namn.
record-name-field = namn
# Tusentalsavgränsaren är ett hårt mellanslag.
number-thousands = {"\u00A0"}
number-decimal = ,
unit-per = per
money-USD = { $amount } USD
money-DKK = { $amount } DKK
money-DKK-whole = { $amount } DKK
money-other = { $amount } { $currency }
duration-week-one = vecka
duration-week-other = veckor
duration-day-one = dag
duration-day-other = dagar
duration-hour-one = timme
duration-hour-other = timmar
duration-minute-one = minut
duration-minute-other = minuter
time-of-day = kl. { $hours }.{ $minutes }
date-full = { $day } { $month } { $year }
date-time = { $date } { $time }
month-1 = januari
month-2 = februari
month-3 = mars
month-4 = april
month-5 = maj
month-6 = juni
month-7 = juli
month-8 = augusti
month-9 = september
month-10 = oktober
month-11 = november
month-12 = december
