# The words of the HTML page for players, in English (Project Fluent).
# The explanation's own words are in en.ftl.

page-rulings = Rulings
page-contents = Contents
page-event = Event
page-date = Date
page-director = Tournament director
page-rulebook = Conditions
page-full = Rule names and the full derivation
page-back = Back to the contents
page-none = No ruling to show.
