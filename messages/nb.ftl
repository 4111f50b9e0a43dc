# Ordene i en begrunnelse, på norsk bokmål (Project Fluent).
# Bestemmelsenes tekst står aldri her: den siteres som trykt.

none = ingen
and = og
or = eller
yes = ja
no = nei

## Regnestykker med verdiene satt inn
op-add = +
op-sub = −
op-mul = ×
op-div = /
whole-division = { $a } ÷ { $b }, rundet ned til et helt tall: { $value }
remainder = { $a } delt på { $b } gir resten { $value }
rounded-up = { $from }, rundet opp: { $to }
rounded-down = { $from }, rundet ned: { $to }
rounded = { $from }, avrundet: { $to }
without-sign = { $from }, uten fortegn: { $to }
clamp-below = { $from } er under { $bound }, altså { $bound }
clamp-above = { $from } er over { $bound }, altså { $bound }
largest-of = den største av { $of }: { $value }
smallest-of = den minste av { $of }: { $value }

## Opptellinger og lister
counted = { $n ->
    [0] ingen av { $of }
   *[other] { $n } av { $of }: { $items }
  }
# A list of facts too long to read in the brief explanation, said by its count.
list-entries = { $n } oppføringer
# En opptelling der postene er for lange å nevne: arbeidet nedenfor viser dem.
counted-bare = { $n } av { $of }
all-hold = det gjelder alle { $n }
not-all-hold = det gjelder ikke alle: ikke { $items }
none-holds = det gjelder ingen av de { $n }
some-hold = det gjelder { $items }

## Plasseringer og fordelinger
# En plassering som ordenstall: 1., 2., 11.
place = { $rank }.
ordinal-place = { $place }.
ranking-row = { place } { $item } { $key }
tied-at-cut = (likt ved grensen, kommer med)
tied-on-remainder = (likt på resten om den siste plassen)
ranking-top = Stilling: { $table }. De første { $places } plassene, medregnet dem som står likt ved grensen: { $n ->
    [one] 1 går videre
   *[other] { $n } går videre
  }
ranking-first-out = { $item } er nr. { $rank } med { $key }, under grensen
ranking-best = { $table }
ordered-by = etter { $key }: { $values }
tie-broken = { $items } står likt; { $key } skiller dem: { $values }
tie-broken-bare = { $items } står likt; { $key } skiller dem
tie-kept = { $items } står likt etter alle kriterier og deler plassen
order-key = kriterium { $n }
standings-row = { ordinal-place } { $items }
standings-shared = { ordinal-place } { $items } (deler plassen)
standings = Stilling: { $table }
apportion = { $seats } plasser fordelt etter vekt (i alt { $total }), hver får kvotens heltall, { $left ->
    [0] ingen plasser til overs
    [one] den 1 plassen til overs går til den største resten
   *[other] de { $left } plassene til overs går til de største restene
  }: { $rows }
apportion-row = { $item } { $weight } → kvote { $quota } → { $seats }
# An apportionment's answer: each item with the places it gets.
apportioned = { $item }: { $seats }
# Tabeller i utregningen: titler, kolonneoverskrifter og ordene ved siden av.
table-ranking = Rangert etter { $key }
table-standings = Stilling
table-each = { $key }, for hver enkelt
table-apportion = Fordelingen av de { $seats } plassene
table-decides = radene som avgjør
col-place = Plass
col-name = Navn
col-quota = Kvote
col-whole = Heltall
col-remainder = Rest
col-places = Plasser
ranking-cut = De første { $places } plassene, medregnet dem som står likt ved grensen: { $n ->
    [one] 1 går videre
   *[other] { $n } går videre
  }
ranking-shared = { $items } deler { place } plass med { $key }
ranking-alone = { $item } er nr. { $rank } med { $key }
standings-share = { $items } deler { ordinal-place } plass
apportion-sum = { $seats } plasser fordelt etter vekt (i alt { $total }), hver får kvotens heltall, { $left ->
    [0] ingen plasser til overs
    [one] den 1 plassen til overs går til den største resten
   *[other] de { $left } plassene til overs går til de største restene
  }

## Betingelser som setninger
subject = { $left } er { $value }
cmp-lt-yes = { $subject }, som er mindre enn { $right }
cmp-lt-no = { $subject }, som ikke er mindre enn { $right }
cmp-le-yes = { $subject }, som er høyst { $right }
cmp-le-no = { $subject }, som er mer enn { $right }
cmp-gt-yes = { $subject }, som er mer enn { $right }
cmp-gt-no = { $subject }, som ikke er mer enn { $right }
cmp-ge-yes = { $subject }, som er minst { $right }
cmp-ge-no = { $subject }, som er mindre enn { $right }
cmp-eq-yes = { $subject }, det samme som { $right }
cmp-eq-no = { $subject }, ikke { $right }
cmp-ne-yes = { $subject }, ikke { $right }
cmp-ne-no = { $subject }, det samme som { $right }
range-yes = { $subject }, som er fra { $lo } til { $hi }
range-no = { $subject }, som ikke er fra { $lo } til { $hi }
range-open-yes = { $subject }, som er fra { $lo } og før { $hi }
range-open-no = { $subject }, som ikke er fra { $lo } og før { $hi }
range-from-yes = { $subject }, som er { $lo } eller mer
range-from-no = { $subject }, som er under { $lo }
range-to-yes = { $subject }, som er { $hi } eller mindre
range-to-no = { $subject }, som er over { $hi }
range-below-yes = { $subject }, som er under { $hi }
range-below-no = { $subject }, som ikke er under { $hi }
among-yes = { $subject }, som er blant { $list }
among-no = { $subject }, som ikke er blant { $list }
holds-yes = { $left }: ja
holds-no = { $left }: nei

test-places = { $n ->
    [one] 1 plass
   *[other] { $n } plasser
  }

## Rammen rundt en avgjørelse
answer = Svar
why = Begrunnelse
needs = Mangler
facts-used = Opplysninger som er brukt
clauses = Siterte bestemmelser
gloss = Engelsk oversettelse
# The marks around a clause quoted as printed, in this language's typography.
quote-open = «
quote-close = »
paraphrase = Omskrivning (den trykte teksten foreligger ikke)
error = Bestemmelsene kan ikke avgjøre dette
# En betingelse i den avgjørende bestemmelsen som ikke var oppfylt, sagt som den er (bare begrunnelsen).
condition-held = { $reason }
does-not-apply = { $clause } kommer ikke til anvendelse: { $reason }
waits-for = { $clause } kan ennå ikke anvendes: den krever { $reason }
waits-for-needed = { $clause } kan ennå ikke anvendes: den venter på det som mangler
requires = den gjelder bare når { $what }
here = (her: { $value })
number-of = antallet av { $what }

## Hva en regel krevde, sagt positivt
rel-lt = { $left } er mindre enn { $right }
rel-le = { $left } er høyst { $right }
rel-gt = { $left } er mer enn { $right }
rel-ge = { $left } er minst { $right }
rel-eq = { $left } er { $right }
rel-ne = { $left } ikke er { $right }
rel-range = { $left } er fra { $lo } til { $hi }
rel-not-range = { $left } ikke er fra { $lo } til { $hi }
rel-range-open = { $left } er fra { $lo } og før { $hi }
rel-not-range-open = { $left } er før { $lo } eller fra { $hi }
rel-range-from = { $left } er { $lo } eller mer
rel-not-range-from = { $left } er under { $lo }
rel-range-to = { $left } er { $hi } eller mindre
rel-not-range-to = { $left } er over { $hi }
rel-range-below = { $left } er under { $hi }
rel-not-range-below = { $left } er { $hi } eller mer
rel-among = { $left } er en av { $list }
rel-not-among = { $left } ikke er noen av { $list }
rel-bool = «{ $left }» er { $want } (her: { $have })
bare-ne = { $left } er ikke { $right }

## Overskrifter og setningene i rammen rundt en avgjørelse
ruling = Avgjørelse
why-not = Regler som ikke kom til anvendelse
rule = regel
overrides = som unntak fra
also = og likeledes
row = rad
outside = utenfor disse bestemmelsene
# Linjen for avgjørelsen selv i den korte begrunnelsen, når svaret er for langt til å gjenta.
answer-above = svaret ovenfor
not-decided = ikke avgjort av bestemmelsene
undetermined = ennå ikke avgjort
no-ruling = ingen avgjørelse
condition-false = vilkåret er ikke oppfylt
decided-by = avgjort av { $who }
# En avgjørelse, sagt som det som ble avgjort: $who avgjorde, $what er avgjørelsens uttrykk,
# $answer er yes, no eller other (da er $value det som ble avgjort).
decision-found = { $answer ->
    [yes] { $who } svarte ja på { $what }
    [no] { $who } svarte nei på { $what }
   *[other] { $who } avgjorde { $what }: { $value }
  }
# $n er antallet nærmeste bestemmelser, $clauses listen over dem.
silent = { $n ->
    [0] bestemmelsene avgjør ikke { $what } i dette tilfellet
    [one] bestemmelsene avgjør ikke { $what } i dette tilfellet; den nærmeste bestemmelsen er { $clauses }
   *[other] bestemmelsene avgjør ikke { $what } i dette tilfellet; de nærmeste bestemmelsene er { $clauses }
  }
# $has-doc, $has-citation og $has-among (yes eller no) sier om delen er der.
needs-fact = krever { $has-doc ->
    [no] opplysningen { $name }
   *[yes] { $doc }
  }{ $has-citation ->
    [no] {""}
   *[yes] , jf. { $citation }
  }
needs-field = krever { $field } for { $record }
needs-decision = krever en avgjørelse fra { $who }{ $has-citation ->
    [no] {""}
   *[yes] {" "}etter { $citation }
  }{ $has-doc ->
    [no] {""}
   *[yes] : { $doc }
  }{ $has-among ->
    [no] {""}
   *[yes] {" "}(valg mellom { $among })
  }
needs-lot = avgjøres ved loddtrekning{ $has-citation ->
    [no] {""}
   *[yes] {" "}etter { $citation }
  } mellom { $among }, foretatt av { $who }{ $has-doc ->
    [no] {""}
   *[yes] {" "}({ $doc })
  }
pattern-mismatch = den gjelder andre tilfeller ({ $param } her: { $value })
pattern-mismatch-unnamed = den gjelder andre tilfeller (her: { $value })

## Verdier: hvordan ja/nei, tomme lister, tall, beløp, varigheter og datoer vises.
value-yes = ja
value-no = nei
value-none = ingen
# Feltet som navngir en post: en post med det vises ved navnet sitt.
record-name-field = navn
# Tusenskilletegnet er et hardt mellomrom.
number-thousands = {"\u00A0"}
number-decimal = ,
unit-per = per
money-USD = { $amount } USD
money-DKK = { $amount } DKK
money-DKK-whole = { $amount } DKK
money-other = { $amount } { $currency }
duration-week-one = uke
duration-week-other = uker
duration-day-one = dag
duration-day-other = dager
duration-hour-one = time
duration-hour-other = timer
duration-minute-one = minutt
duration-minute-other = minutter
time-of-day = kl. { $hours }.{ $minutes }
date-full = { $day }. { $month } { $year }
date-time = { $date } { $time }
month-1 = januar
month-2 = februar
month-3 = mars
month-4 = april
month-5 = mai
month-6 = juni
month-7 = juli
month-8 = august
month-9 = september
month-10 = oktober
month-11 = november
month-12 = desember
