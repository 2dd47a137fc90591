// Filters the question list in place: no network, no library. Each question element
// carries data-diff, data-db, data-v ("0:correct 1:error ..."), data-dis (system
// indexes where EX and ETM disagree) and data-s (its slice groups, "joins=1 nested=no").
(function () {
  "use strict";
  function val(id) { var e = document.getElementById(id); return e ? e.value : ""; }
  function apply() {
    var sys = val("f-sys"), verdict = val("f-verdict"), diff = val("f-diff"), db = val("f-db"), slice = val("f-slice");
    var text = val("f-text").toLowerCase();
    var disBox = document.getElementById("f-dis");
    var dis = disBox ? disBox.checked : false;
    var qs = document.querySelectorAll(".q"), shown = 0;
    for (var i = 0; i < qs.length; i++) {
      var q = qs[i], ok = true;
      if (diff && q.getAttribute("data-diff") !== diff) ok = false;
      if (ok && db && q.getAttribute("data-db") !== db) ok = false;
      if (ok && slice && (" " + (q.getAttribute("data-s") || "") + " ").indexOf(" " + slice + " ") < 0) ok = false;
      if (ok && verdict) {
        var vs = (q.getAttribute("data-v") || "").trim().split(/\s+/), hit = false;
        for (var j = 0; j < vs.length; j++) {
          var p = vs[j].split(":");
          if ((sys === "" || p[0] === sys) && p[1] === verdict) hit = true;
        }
        ok = hit;
      }
      if (ok && dis) {
        var ds = (q.getAttribute("data-dis") || "").trim();
        ok = ds !== "" && (sys === "" || (" " + ds + " ").indexOf(" " + sys + " ") >= 0);
      }
      if (ok && text && q.textContent.toLowerCase().indexOf(text) < 0) ok = false;
      q.hidden = !ok;
      if (ok) shown++;
    }
    var c = document.getElementById("f-count");
    if (c) c.textContent = shown + " of " + qs.length + " questions";
  }
  document.addEventListener("DOMContentLoaded", function () {
    var ids = ["f-sys", "f-verdict", "f-diff", "f-db", "f-slice", "f-dis", "f-text"];
    for (var i = 0; i < ids.length; i++) {
      var e = document.getElementById(ids[i]);
      if (e) { e.addEventListener("input", apply); e.addEventListener("change", apply); }
    }
    apply();
  });
})();
