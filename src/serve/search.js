// The search box of a static rulebook site: looks a word up in the page's prebuilt
// index (search-index.js beside the page) and lists what matches, as links. Without
// JavaScript the box stays hidden and the page reads as it is.
(function () {
  "use strict";
  var form = document.getElementById("site-search");
  var index = window.conditionsSearch;
  if (!form || !index) return;
  var input = document.getElementById("site-q");
  var heading = document.getElementById("site-results-heading");
  var list = document.getElementById("site-results");
  form.hidden = false;
  function show() {
    var word = input.value.trim();
    var q = word.toLowerCase();
    list.textContent = "";
    heading.textContent = "";
    heading.hidden = !q;
    if (!q) return;
    var found = 0;
    for (var i = 0; i < index.entries.length && found < 100; i++) {
      var e = index.entries[i];
      if (e.text.indexOf(q) < 0) continue;
      var li = document.createElement("li");
      li.appendChild(document.createTextNode(e.kind + ": "));
      if (e.href) {
        var a = document.createElement("a");
        a.href = e.href;
        a.textContent = e.label;
        li.appendChild(a);
      } else {
        li.appendChild(document.createTextNode(e.label));
      }
      list.appendChild(li);
      found++;
    }
    heading.textContent = (found ? index.results : index.none).replace("{word}", word);
  }
  form.addEventListener("submit", function (ev) {
    ev.preventDefault();
    show();
  });
  input.addEventListener("input", show);
})();
