# Orden på HTML-sidan för spelarna, på svenska (Project Fluent).
# Motiveringens egna ord står i sv.ftl.

page-rulings = Avgöranden
page-contents = Innehåll
page-event = Tävling
page-date = Datum
page-director = Tävlingsledare
page-rulebook = Bestämmelser
page-full = Regelnamn och hela härledningen
page-back = Tillbaka till innehållet
page-none = Inget avgörande att visa.
