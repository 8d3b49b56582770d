// My submissions, while a submission waits or is scored: fetch the page again after 1 s, then
// each time a quarter later up to every 5 s (most scores land within seconds), and
// swap in the table's rows, so the status turns to "scored" without a reload; once nothing
// waits, the upload's "queued" notice goes (a page loaded after that never shows it). Without
// JavaScript the page has a "Check again" link instead (a timed reload would fail WCAG 2.2.1).
(function () {
  "use strict";
  var table = document.querySelector("table.submissions");
  var live = document.getElementById("submissions-status");
  if (!table || !table.dataset.waiting || !window.fetch || !window.DOMParser) {
    return;
  }
  var delay = 1000;
  function schedule() {
    window.setTimeout(refresh, delay);
    delay = Math.min(5000, delay * 1.25);
  }
  function refresh() {
    window.fetch(window.location.href, { credentials: "same-origin" })
      .then(function (response) {
        return response.ok ? response.text() : Promise.reject(response.status);
      })
      .then(function (html) {
        var fresh = new DOMParser().parseFromString(html, "text/html");
        var rows = fresh.querySelector("table.submissions tbody");
        var waiting = fresh.querySelector("table.submissions");
        if (!rows || !waiting) {
          return;
        }
        table.tBodies[0].replaceWith(document.importNode(rows, true));
        table.dataset.waiting = waiting.dataset.waiting || "";
        if (live) {
          live.textContent = table.dataset.waiting
            ? "Updated " + new Date().toLocaleTimeString() + "; still waiting."
            : "All your submissions are done.";
        }
        if (!table.dataset.waiting) {
          // the upload's "queued for scoring" notice is out of date once the scores are in
          document.querySelectorAll(".flash.queued").forEach(function (notice) {
            notice.remove();
          });
        }
        if (table.dataset.waiting) {
          schedule();
        }
      })
      .catch(schedule);
  }
  schedule();
})();
