# Ordene på HTML-siden til spillerne, på dansk (Project Fluent).
# Begrundelsens egne ord står i da.ftl.

page-rulings = Afgørelser
page-contents = Indhold
page-event = Turnering
page-date = Dato
page-director = Turneringsleder
page-rulebook = Bestemmelser
page-full = Regelnavne og hele udledningen
page-back = Tilbage til indholdet
page-none = Ingen afgørelse at vise.
