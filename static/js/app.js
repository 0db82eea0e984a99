// Lock Lab progressive enhancement. Everything works without this file;
// it only makes narrow screens nicer: when the timeline picture is wider
// than its box, scroll it so the "now" line is in view, on load and after
// every htmx swap.
(function () {
  "use strict";
  function showNow() {
    var wrap = document.querySelector(".svgwrap");
    var now = wrap && wrap.querySelector("line.now");
    if (!now || wrap.scrollWidth <= wrap.clientWidth) {
      return;
    }
    var offset = now.getBoundingClientRect().left - wrap.getBoundingClientRect().left;
    wrap.scrollLeft += offset - wrap.clientWidth * 0.6;
  }
  document.addEventListener("DOMContentLoaded", showNow);
  document.addEventListener("htmx:afterSettle", showNow);
})();
