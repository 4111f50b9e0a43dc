# Ordene på HTML-siden for spillerne, på norsk bokmål (Project Fluent).
# Begrunnelsens egne ord står i nb.ftl.

page-rulings = Avgjørelser
page-contents = Innhold
page-event = Turnering
page-date = Dato
page-director = Turneringsleder
page-rulebook = Bestemmelser
page-full = Regelnavn og hele utledningen
page-back = Tilbake til innholdet
page-none = Ingen avgjørelse å vise.
