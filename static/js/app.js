// Lock Lab progressive enhancement. Everything works without this file;
// it only adds two comforts, on load and after every htmx swap:
// - on narrow screens, when the timeline picture is wider than its box,
//   scroll it so the "now" line is in view;
// - progress, kept in this browser only (localStorage, never sent to the
//   server): a lesson page records its URL and whether it is the last
//   step, and the lesson list shows "finished" or "continue" from that.
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

  // Storage can be missing or refuse (private modes, full quota): progress
  // is a nicety, so failures are ignored.
  function load(key) {
    try {
      return window.localStorage.getItem("locklab:" + key);
    } catch (e) {
      return null;
    }
  }
  function store(key, value) {
    try {
      window.localStorage.setItem("locklab:" + key, value);
    } catch (e) {
      // ignored
    }
  }

  // record notes where the learner is in a lesson: the page's canonical
  // path and query (data-url), and "done" once the final step shows.
  function record() {
    var lab = document.getElementById("lab");
    var slug = lab && lab.getAttribute("data-lesson");
    if (!slug) {
      return;
    }
    store("last:" + slug, lab.getAttribute("data-url") || location.pathname + location.search);
    if (lab.querySelector(".finished")) {
      store("done:" + slug, "1");
    }
  }

  // decorate marks the lesson list: a badge on finished lessons, a link
  // back to the last step of started ones. The words come from the
  // server (data-*-label), so they are in the page's language; a stored
  // URL is used only if it is a step of that lesson in that language.
  function decorate() {
    var list = document.querySelector("ol.lessons[data-done-label]");
    if (!list) {
      return;
    }
    var items = list.querySelectorAll("li[data-slug]");
    for (var i = 0; i < items.length; i++) {
      var li = items[i];
      var slug = li.getAttribute("data-slug");
      var path = li.getAttribute("data-path");
      if (li.querySelector(".progress-mark")) {
        continue;
      }
      if (load("done:" + slug) === "1") {
        var badge = document.createElement("span");
        badge.className = "progress-mark badge";
        var tick = document.createElement("span");
        tick.setAttribute("aria-hidden", "true");
        tick.textContent = "\u2713 ";
        badge.appendChild(tick);
        badge.appendChild(document.createTextNode(list.getAttribute("data-done-label")));
        li.querySelector("a").appendChild(badge);
        continue;
      }
      var last = load("last:" + slug);
      // The bare path is step 1: continuing there is just starting.
      if (last && path && last.indexOf(path + "?") === 0) {
        var p = document.createElement("p");
        p.className = "progress-mark continue";
        var a = document.createElement("a");
        a.href = last;
        a.textContent = list.getAttribute("data-continue-label") + " →";
        p.appendChild(a);
        li.appendChild(p);
      }
    }
  }

  function update() {
    showNow();
    record();
    decorate();
  }
  document.addEventListener("DOMContentLoaded", update);
  document.addEventListener("htmx:afterSettle", update);
  document.addEventListener("htmx:historyRestore", update);
})();
