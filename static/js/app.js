// Lock Lab progressive enhancement. Everything works without this file;
// it only adds two comforts, on load and after every htmx swap:
// - on narrow screens, when the timeline picture is wider than its box,
//   scroll it so the "now" line is in view;
// - progress, kept in this browser only (localStorage, never sent to the
//   server): a lesson page records its URL and whether it is the last
//   step, and the lesson list shows "finished" or "continue" from that;
// - on the timeline's command line, Up and Down walk the commands typed on
//   this timeline, and after a command is sent the line keeps the focus.
(function () {
  "use strict";
  function showNow() {
    var wrap = document.querySelector(".svgwrap");
    var now = wrap && wrap.querySelector("line.now");
    if (!now || wrap.scrollWidth <= wrap.clientWidth) {
      return;
    }
    // Keep the story's start in view when "now" fits on the first screen;
    // otherwise bring "now" in at seven tenths of the width, leaving room
    // for the marks and words drawn just after it.
    var offset = now.getBoundingClientRect().left - wrap.getBoundingClientRect().left;
    if (offset > wrap.clientWidth * 0.8) {
      wrap.scrollLeft += offset - wrap.clientWidth * 0.7;
    }
    wrap.classList.toggle("scrolled", wrap.scrollLeft > 0);
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

  // Progress is the learner's, not a language's: a step read in /ja/ is
  // offered again in /en/. inPageLang is a lesson address of any
  // language in this page's (the first part of its path); foreign says
  // whether it was in another (its step title is then in that language,
  // so the offers leave the title out).
  function pagePrefix() { return location.pathname.split("/")[1] || ""; }
  function inPageLang(u) { return u.replace(/^\/[^\/]+\//, "/" + pagePrefix() + "/"); }
  function foreign(u) { return u.split("/")[1] !== pagePrefix(); }

  // record notes where the learner is in a lesson: the page's canonical
  // path and query (data-url), and "done" once the final step shows.
  function record() {
    var lab = document.getElementById("lab");
    var slug = lab && lab.getAttribute("data-lesson");
    if (!slug) {
      return;
    }
    var here = lab.getAttribute("data-url") || location.pathname + location.search;
    var offer = document.getElementById("resume-offer");
    var was = null;
    try { was = JSON.parse(load("at:" + slug) || "null"); } catch (err) { was = null; }
    if (offer && atShape(was, slug) && inPageLang(was.url) !== here && +was.step > 1 && load("done:" + slug) !== "1") {
      // a look at the first step does not forget where the learner was
      var a = offer.querySelector("a");
      a.href = inPageLang(was.url);
      a.textContent = foreign(was.url) ? fill(offer.getAttribute("data-short"), [was.step]) : fill(offer.getAttribute("data-label"), [was.step, was.title]);
      offer.hidden = false;
      return;
    }
    store("last:" + slug, here);
    var st = document.getElementById("step-title");
    if (lab.getAttribute("data-step") && st) {
      store("at:" + slug, JSON.stringify({ url: here, step: lab.getAttribute("data-step"), title: st.textContent.trim() }));
    }
    // the last step read anywhere in the course, for the home page's
    // "Continue: lesson N, step M — title" (in this page's language)
    var crumb = lab.querySelector(".crumbs span:last-child");
    var title = document.getElementById("step-title");
    var num = crumb && /^(\d+)\./.exec(crumb.textContent.trim());
    if (num && title && lab.getAttribute("data-step")) {
      store("resume:" + document.documentElement.lang, JSON.stringify({ slug: slug, url: lab.getAttribute("data-url") || location.pathname + location.search,
        lesson: num[1], step: lab.getAttribute("data-step"), title: title.textContent.trim() }));
      store("latest", document.documentElement.lang);
    }
    if (lab.querySelector(".finished")) {
      store("done:" + slug, "1");
    }
    // A checkpoint answered on this page: right or wrong, per step (the
    // last answer counts). The ending page adds them up.
    var fb = lab.querySelector(".feedback");
    var step = lab.getAttribute("data-step");
    if (fb && step) {
      store("cp:" + slug + ":" + step, fb.classList.contains("right") ? "1" : "0");
    }
  }

  // fill is the ending page's progress: per lesson, finished or not and
  // its checkpoint results, from what record() kept in this browser.
  function fill(tpl, args) {
    return tpl.replace(/\{(\d)\}/g, function (_, i) { return args[+i]; });
  }

  // What progress may hold, field by field: only what record() and
  // recordChallenge() themselves write. A lesson's address is a path of
  // this site's lesson pages, never another site's (a restored
  // "//evil.example/…" would have become the home page's Continue
  // button); every value read back is held to the same shapes, so one
  // stored before this check cannot be used either.
  var slugRe = /^[a-z0-9-]{1,40}$/, numRe = /^[0-9]{1,3}$/, langRe = /^[a-z]{2,3}(-[A-Za-z0-9]{1,8})?$/;
  function lessonURL(u, slug) {
    var m = typeof u === "string" && u.length <= 4200 &&
      /^\/([a-z]{2,3}(?:-[A-Za-z0-9]{1,8})?)\/lessons\/([a-z0-9-]{1,40})(\?[A-Za-z0-9._~%&=,:+\-]*)?$/.exec(u);
    return !!m && (!slug || m[2] === slug);
  }
  function shortText(t) { return typeof t === "string" && t.length <= 200; }
  function atShape(v, slug) {
    return !!v && typeof v === "object" && lessonURL(v.url, slug) && numRe.test(String(v.step)) && shortText(v.title);
  }
  function resumeShape(v) {
    return !!v && typeof v === "object" && slugRe.test(v.slug) && lessonURL(v.url, v.slug) &&
      numRe.test(String(v.lesson)) && numRe.test(String(v.step)) && shortText(v.title);
  }
  function json(v) { try { return JSON.parse(v); } catch (err) { return null; } }
  // validProgress: key (without "locklab:") may hold v; by the key's
  // first part, its other parts and the value's shape.
  var progressShapes = {
    at: function (p, v) { return p.length === 2 && slugRe.test(p[1]) && atShape(json(v), p[1]); },
    last: function (p, v) { return p.length === 2 && slugRe.test(p[1]) && lessonURL(v, p[1]); },
    resume: function (p, v) { return p.length === 2 && langRe.test(p[1]) && resumeShape(json(v)); },
    latest: function (p, v) { return p.length === 1 && langRe.test(v); },
    done: function (p, v) { return p.length === 2 && slugRe.test(p[1]) && v === "1"; },
    cp: function (p, v) { return p.length === 3 && slugRe.test(p[1]) && numRe.test(p[2]) && (v === "0" || v === "1"); }
  };
  function validProgress(k, v) {
    var p = k.split(":");
    return Object.prototype.hasOwnProperty.call(progressShapes, p[0]) && progressShapes[p[0]](p, v);
  }
  function progress() {
    var list = document.querySelector("ul.progress-list");
    if (!list) {
      return;
    }
    var items = list.querySelectorAll("li[data-slug]");
    var done = 0;
    for (var i = 0; i < items.length; i++) {
      var li = items[i];
      var slug = li.getAttribute("data-slug");
      var finished = load("done:" + slug) === "1";
      if (finished) {
        done++;
      }
      var right = 0, answered = 0;
      for (var step = 1; step <= 40; step++) {
        var v = load("cp:" + slug + ":" + step);
        if (v === "1" || v === "0") {
          answered++;
          if (v === "1") {
            right++;
          }
        }
      }
      var text = (finished ? "\u2713 " + list.getAttribute("data-finished") : list.getAttribute("data-notyet")) + " · " +
        (answered ? fill(list.getAttribute("data-checkpoints"), [right, answered, li.getAttribute("data-cps")]) : list.getAttribute("data-nocheckpoints"));
      li.querySelector(".status").textContent = text;
      li.classList.toggle("done", finished);
    }
    var sum = document.querySelector(".done-of");
    if (sum) {
      sum.textContent = fill(sum.getAttribute("data-label"), [done, items.length]);
      sum.hidden = false;
    }
    var note = document.querySelector(".nojs-note");
    if (note) {
      note.hidden = true;
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
      last = lessonURL(last, slug) ? inPageLang(last) : "";
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

  // After a swap the new step is where the learner reads: its title comes
  // into view when it went off the top (the dialog column's buttons, or
  // any swap on a narrow screen, where the timeline sits above the text
  // and a control sits below it). A play tick keeps the page where the
  // learner holds it, to watch the timeline.
  // A command the command line refused answers 400 with the timeline it
  // was typed on and the line kept in the form: swap it in like a step
  // (other 4xx and 5xx pages carry no timeline and are not swapped).
  document.addEventListener("htmx:beforeSwap", function (e) {
    var x = e.detail && e.detail.xhr;
    if (x && x.status === 400 && x.responseText.indexOf('id="cli-refused"') >= 0) {
      e.detail.shouldSwap = true;
      e.detail.isError = false;
    }
  });
  var fromDialog = false;
  document.addEventListener("htmx:beforeRequest", function (e) {
    var elt = e.detail && e.detail.elt;
    fromDialog = !!(elt && elt.closest && elt.closest(".dialog"));
  });
  function stepIntoView() {
    var t = document.getElementById("step-title");
    if (!t || document.documentElement.getAttribute("data-playing") === "1") { return; }
    var narrow = window.matchMedia && window.matchMedia("(max-width: 900px)").matches;
    var top = t.getBoundingClientRect().top;
    if (top < 0 || (narrow && top > window.innerHeight * 0.6) || (fromDialog && top > window.innerHeight)) {
      t.scrollIntoView({ block: "start" });
    }
    if (narrow) { pictureToo(t); }
  }
  // pictureToo brings the timeline in above the title when both fit on
  // the screen (less the phone's bar of Undo and Next): the step is what
  // the picture shows and what the dialog says of it, read together.
  function pictureToo(t) {
    var pic = document.querySelector(".svgwrap");
    if (!pic) { return; }
    var bar = document.querySelector(".stepnav");
    var room = window.innerHeight;
    if (bar && window.getComputedStyle(bar).position === "fixed") { room -= bar.offsetHeight; }
    var from = pic.getBoundingClientRect().top - 8;
    var to = t.getBoundingClientRect().bottom;
    if (from < to && to - from <= room) {
      window.scrollBy(0, from);
    }
  }

  // resume fills the home page's way back to the last step read, unless
  // that lesson is finished
  function resume() {
    var p = document.getElementById("resume");
    if (!p) { return; }
    // the step read last, in whichever language it was read
    var lang = load("latest");
    if (!lang || !langRe.test(lang)) { lang = document.documentElement.lang; }
    var r = json(load("resume:" + lang) || "null");
    if (!resumeShape(r) || load("done:" + r.slug) === "1") { return; }
    var a = p.querySelector("a");
    a.href = inPageLang(r.url);
    a.textContent = (foreign(r.url) ? fill(p.getAttribute("data-short"), [r.lesson, r.step]) : fill(p.getAttribute("data-label"), [r.lesson, r.step, r.title])) + " →";
    p.hidden = false;
  }

  // Challenges: what this browser solved (a break's best moves), fixed
  // or answered (a prediction: right once is right), in one key; the
  // lists mark them from it. The progress box copies all progress as a
  // link whose #fragment carries it (no server sees a fragment), restores
  // it from such a link, and forgets it.
  function challenges() {
    var all = null;
    try { all = JSON.parse(load("challenges") || "{}"); } catch (err) { all = null; }
    return all && typeof all === "object" ? all : {};
  }
  function recordChallenge() {
    var box = document.querySelector(".challenge[data-challenge][data-kind]");
    if (!box) { return; }
    var id = box.getAttribute("data-challenge"), kind = box.getAttribute("data-kind"), got = box.getAttribute("data-solved");
    var all = challenges(), was = all[id] || {};
    if (kind === "break" && +got > 0) {
      if (!was.moves || +got < was.moves) { was.moves = +got; }
    } else if (kind === "fix" && got === "1") {
      was.fixed = true;
    } else if (kind === "predict" && (got === "right" || got === "wrong")) {
      was.answer = was.answer === "right" ? "right" : got;
    } else {
      return;
    }
    all[id] = was;
    store("challenges", JSON.stringify(all));
  }
  function markChallenges() {
    var all = challenges();
    var lists = document.querySelectorAll("ol.challenges");
    for (var i = 0; i < lists.length; i++) {
      var ol = lists[i], items = ol.querySelectorAll("li[data-challenge]");
      for (var j = 0; j < items.length; j++) {
        var c = all[items[j].getAttribute("data-challenge")], st = items[j].querySelector(".status");
        if (!st) { continue; }
        // a prediction answered wrong says so (✗), not only "answered"
        st.textContent = !c ? "" : c.moves === 1 ? ol.getAttribute("data-solved-one-label") :
          c.moves ? fill(ol.getAttribute("data-solved-label"), [c.moves]) :
          c.fixed ? ol.getAttribute("data-fixed-label") :
          c.answer ? (c.answer === "right" ? "\u2713 " : "\u2717 ") + ol.getAttribute("data-answered-label") : "";
      }
    }
  }
  // countChallenges fills each "Challenges" link (a lesson's header and
  // list entry, the end page) with how many of its challenges this
  // browser solved: a break in any number of moves, a fix, a prediction
  // answered right.
  function countChallenges() {
    var all = challenges();
    var links = document.querySelectorAll(".chal-count a[data-challenges]");
    for (var i = 0; i < links.length; i++) {
      var ids = links[i].getAttribute("data-challenges").split(" "), n = 0;
      for (var j = 0; j < ids.length; j++) {
        var c = all[ids[j]];
        if (c && (c.moves > 0 || c.fixed || c.answer === "right")) { n++; }
      }
      links[i].textContent = fill(links[i].getAttribute("data-label"), [n, ids.length]);
    }
  }
  // countCheckpoints fills each lesson's checkpoint count (the list, a
  // lesson's header) with the answers this browser kept: how many right
  // of how many answered, of the lesson's; shown once one is answered.
  function countCheckpoints() {
    var els = document.querySelectorAll(".cp-count[data-slug]");
    for (var i = 0; i < els.length; i++) {
      var slug = els[i].getAttribute("data-slug"), right = 0, answered = 0;
      for (var step = 1; step <= 40; step++) {
        var v = load("cp:" + slug + ":" + step);
        if (v === "1" || v === "0") {
          answered++;
          if (v === "1") { right++; }
        }
      }
      els[i].textContent = fill(els[i].getAttribute("data-label"), [right, answered, els[i].getAttribute("data-cps")]);
      els[i].hidden = answered === 0;
    }
  }
  var progressKey = /^locklab:(at|last|resume|latest|done|cp|challenges)(:|$)/;
  function progressKeys() {
    var out = [];
    try {
      for (var i = 0; i < window.localStorage.length; i++) {
        var k = window.localStorage.key(i);
        if (progressKey.test(k)) { out.push(k); }
      }
    } catch (err) { /* no storage: nothing kept */ }
    return out;
  }
  // restoreProgress takes the progress a copied link carries, once: the
  // best of both for challenges, the link's for the rest; it reports
  // whether it took anything.
  function restoreProgress() {
    var m = /^#progress=([A-Za-z0-9_\-]+)$/.exec(location.hash);
    if (!m) { return false; }
    var data = null;
    try {
      data = JSON.parse(decodeURIComponent(escape(window.atob(m[1].replace(/-/g, "+").replace(/_/g, "/")))));
    } catch (err) { data = null; }
    history.replaceState(history.state, "", location.pathname + location.search);
    if (!data || typeof data !== "object") { return false; }
    var mine = challenges(), taken = 0;
    Object.keys(data).forEach(function (k) {
      var v = data[k];
      if (typeof v !== "string" || v.length > 4000 || !progressKey.test("locklab:" + k)) { return; }
      if (k !== "challenges") {
        if (validProgress(k, v)) { store(k, v); taken++; }
        return;
      }
      var theirs = null;
      try { theirs = JSON.parse(v); } catch (err) { theirs = null; }
      if (!theirs || typeof theirs !== "object") { return; }
      Object.keys(theirs).forEach(function (id) {
        if (!/^[A-Za-z0-9._~:/+-]{1,300}$/.test(id)) { return; }
        var a = mine[id] || {}, b = theirs[id] || {};
        if (+b.moves > 0 && +b.moves < 1000 && (b.moves | 0) === +b.moves && (!a.moves || b.moves < a.moves)) { a.moves = +b.moves; }
        if (b.fixed === true) { a.fixed = true; }
        if (b.answer === "right" || (b.answer === "wrong" && !a.answer)) { a.answer = b.answer; }
        mine[id] = a;
        taken++;
      });
      store("challenges", JSON.stringify(mine));
    });
    // "restored" only if something was: a link whose every entry was
    // refused restores nothing, and must not say otherwise
    return taken > 0;
  }
  function progressBox() {
    var copy = document.getElementById("copy-progress"), forget = document.getElementById("forget-progress");
    var note = document.getElementById("progress-note");
    if (!copy || !forget || !note || copy.getAttribute("data-ready")) { return; }
    copy.setAttribute("data-ready", "1");
    copy.parentNode.hidden = false;
    var nj = document.querySelector(".chal-progress .nojs-note");
    if (nj) { nj.hidden = true; }
    if (restoreProgress()) { note.textContent = note.getAttribute("data-restored"); }
    copy.addEventListener("click", function () {
      var data = {};
      progressKeys().forEach(function (k) { data[k.slice(8)] = window.localStorage.getItem(k); });
      var enc = window.btoa(unescape(encodeURIComponent(JSON.stringify(data)))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
      var link = location.origin + location.pathname + "#progress=" + enc;
      var shown = function () {
        note.textContent = copy.getAttribute("data-done") + " ";
        var field = document.createElement("input");
        field.type = "text";
        field.readOnly = true;
        field.value = link;
        field.setAttribute("aria-label", copy.textContent);
        note.appendChild(field);
        field.select();
      };
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(link).then(shown, shown);
      } else {
        shown();
      }
    });
    // marks: the lists' marks and counts, from what is stored now
    var marks = function () {
      markChallenges();
      countChallenges();
      countCheckpoints();
    };
    forget.addEventListener("click", function () {
      progressKeys().forEach(function (k) { try { window.localStorage.removeItem(k); } catch (err) { /* ignored */ } });
      note.textContent = forget.getAttribute("data-done");
      marks();
    });
    // a progress link pasted into this tab's address bar changes only
    // the fragment: no load, so take it here (a tester found it did
    // nothing in an open list)
    window.addEventListener("hashchange", function () {
      if (restoreProgress()) {
        note.textContent = note.getAttribute("data-restored");
        marks();
      }
    });
  }

  // A challenge played on a phone: a move keeps the control pressed
  // where the thumb is (the page scrolls by what the swap moved it), and
  // the move that solves it brings "Solved" on screen — rather than
  // going back to the step's title, a screen or two above the moves.
  var anchor = null;
  document.addEventListener("htmx:beforeRequest", function (e) {
    var el = e.detail && e.detail.elt;
    if (el && el.id && el.closest && el.closest("#lab") && document.querySelector("#lab .challenge[data-kind=break]")) {
      // the control itself, else its group (a verb a move takes away:
      // A's acquire once A holds), else the controls
      var group = el.closest(".controls [role=group]");
      var sel = group ? ".controls ." + group.className.trim().split(/\s+/).join(".") : ".controls";
      var box = group || el.closest(".controls") || el;
      anchor = { id: el.id, top: el.getBoundingClientRect().top, group: sel, gtop: box.getBoundingClientRect().top,
        solved: !!document.querySelector("#lab .challenge .solved") };
    }
  });
  function keepAnchor() {
    var a = anchor;
    anchor = null;
    if (!a) { return false; }
    var solved = document.querySelector("#lab .challenge .solved");
    if (solved && !a.solved) {
      solved.scrollIntoView({ block: "center" });
      return true;
    }
    var el = document.getElementById(a.id), top = a.top;
    if (!el) { el = document.querySelector(a.group) || document.querySelector(".controls"); top = a.gtop; }
    if (!el) { return false; }
    window.scrollBy(0, el.getBoundingClientRect().top - top);
    // and the moves the swap offers now (a resume after a wait) where
    // they fit beside it: the controls' foot on screen, the pressed
    // control still under the thumb
    var box = el.closest(".controls") || document.querySelector("#lab .controls");
    if (box) {
      var r = box.getBoundingClientRect(), over = r.bottom - window.innerHeight + 8;
      if (over > 0) { window.scrollBy(0, Math.min(over, Math.max(0, el.getBoundingClientRect().top - 8))); }
    }
    return true;
  }
  function update(e) {
    // "Now" in view, on arrival too: a step loaded fresh on a phone is
    // about its last events, not the story's start (showNow keeps the
    // start when "now" fits beside it); after an action, the step too.
    showNow();
    // (the lesson's own swap: not the language menu's or the live
    // region's, which settle first)
    var own = !e || !e.detail || !e.detail.elt || e.detail.elt.id === "lab";
    if (e && e.type === "htmx:afterSettle" && own && !keepAnchor()) { stepIntoView(); }
    record();
    decorate();
    progress();
    resume();
    recordChallenge();
    progressBox();
    markChallenges();
    countChallenges();
    countCheckpoints();
  }
  document.addEventListener("DOMContentLoaded", update);
  // and again once the page has its final size (a phone's browser may lay
  // the page out at another width first, and fonts arrive late): a
  // scroll worked out for another width leaves "now" at the edge
  window.addEventListener("load", showNow);
  var resized = 0;
  window.addEventListener("resize", function () {
    window.clearTimeout(resized);
    resized = window.setTimeout(showNow, 100);
  });
  document.addEventListener("htmx:afterSettle", update);
  document.addEventListener("htmx:historyRestore", update);
  // A live class's phone (class.js swapped in the room's new state): the
  // timeline at "now", and what the room is looking at on screen — a
  // question just asked, else the newest line the teacher showed — where
  // the student may have scrolled away from it.
  document.addEventListener("locklab:classupdate", function (e) {
    showNow();
    var d = e.detail || {};
    var ask = document.querySelector("form.cs-answer");
    var lines = document.querySelectorAll(".dialog .line");
    // a question not answered yet comes first: the room waits on it
    var open = ask && !document.getElementById("my-answer");
    var result = d.newResult && document.getElementById("cs-revealed");
    var target = open && (d.newQuestion || d.newLine) ? ask : (result || (d.newLine && lines.length ? lines[lines.length - 1] : null));
    if (!target) { return; }
    var r = target.getBoundingClientRect(), h = window.innerHeight;
    var bar = document.querySelector(".stepnav");
    if (bar && window.getComputedStyle(bar).position === "fixed") { h -= bar.offsetHeight; }
    if (r.top < 0 || r.bottom > h) {
      // the least scroll that shows it whole, or its top if it is taller
      window.scrollBy(0, r.height > h || r.top < 0 ? r.top - 8 : r.bottom - h + 8);
    }
  });
})();

// Keyboard shortcuts, the help dialog, the theme choice, presenter mode and
// play mode. Each is an enhancement: every action they take is a link or a
// button that also works by hand, and every state they reach is a URL.
(function () {
  "use strict";
  var root = document.documentElement;
  var store = window.localStorage;

  function get(k) { try { return store.getItem(k); } catch (e) { return null; } }
  function set(k, v) { try { if (v === null) { store.removeItem(k); } else { store.setItem(k, v); } } catch (e) { /* private mode */ } }
  function click(id) { var el = document.getElementById(id); if (el) { el.click(); return true; } return false; }

  // theme: automatic (system) → dark → light → automatic
  function applyTheme() {
    var t = get("locklab:theme");
    if (t === "dark" || t === "light") { root.setAttribute("data-theme", t); } else { root.removeAttribute("data-theme"); }
    // The button says which theme is on, in the page's language (the
    // words come from the server as data-auto / data-dark / data-light).
    var b = document.getElementById("theme");
    var state = b && b.querySelector(".theme-state");
    if (b && state) {
      var k = (t === "dark" || t === "light") ? t : "auto";
      b.setAttribute("data-state", k);
      state.textContent = (b.getAttribute("data-sep") || ": ") + b.getAttribute("data-" + k);
    }
  }
  function cycleTheme() {
    var t = get("locklab:theme");
    set("locklab:theme", t === null ? "dark" : (t === "dark" ? "light" : null));
    applyTheme();
  }
  applyTheme();

  // presenter mode: one dialog line at a time; "next" reveals the next line
  // before it moves to the next step
  function presenting() { return root.classList.contains("presenter"); }
  function hideLines() {
    var lines = document.querySelectorAll(".dialog .line");
    for (var i = 1; i < lines.length; i++) { lines[i].classList.add("pending"); }
    labelNext();
  }
  // labelNext: while lines are held back, Next says it shows a line, and
  // how many are left; then it is the step's Next again. A live class's
  // "Next step" after a reveal says the same: it is what → does.
  function labelNext() {
    var left = document.querySelectorAll(".dialog .line.pending").length;
    var d = document.querySelector(".dialog[data-more]");
    var bs = document.querySelectorAll("#next, #class-next");
    for (var i = 0; i < bs.length; i++) {
      var b = bs[i];
      if (!b.hasAttribute("data-label")) { b.setAttribute("data-label", b.textContent); }
      b.textContent = presenting() && left > 0 && d ? d.getAttribute("data-more").replace("{0}", left) + " ↓" : b.getAttribute("data-label");
    }
  }
  window.LockLabLabelNext = labelNext;
  function linesShown() {
    return document.querySelectorAll(".dialog .line:not(.pending)").length;
  }
  // lineIntoView scrolls the page to the least that puts line on screen
  // (its bottom, without pushing its top off), and back to the top when
  // it fits there: on a projector the room reads the newest line, with
  // the timeline above it where both fit, without anyone touching a
  // mouse.
  function lineIntoView(line) {
    if (!line) { return; }
    var r = line.getBoundingClientRect(), h = window.innerHeight, y = window.scrollY;
    var top = r.top + y, bottom = r.bottom + y;
    var want = bottom <= h ? 0 : Math.max(0, Math.min(bottom - h + 16, top - 8));
    if (Math.abs(want - y) >= 1) { window.scrollTo(0, want); }
  }
  function newestLine() {
    var shown = document.querySelectorAll(".dialog .line:not(.pending)");
    return shown.length ? shown[shown.length - 1] : null;
  }
  function revealLine() {
    var next = document.querySelector(".dialog .line.pending");
    if (!next) { return false; }
    next.classList.remove("pending");
    lineIntoView(next);
    labelNext();
    document.dispatchEvent(new CustomEvent("locklab:lines", { detail: linesShown() }));
    return true;
  }
  // hideLine takes back the last line shown (never the first).
  function hideLine() {
    var shown = document.querySelectorAll(".dialog .line:not(.pending)");
    if (shown.length < 2) { return false; }
    shown[shown.length - 1].classList.add("pending");
    labelNext();
    document.dispatchEvent(new CustomEvent("locklab:lines", { detail: linesShown() }));
    return true;
  }
  // advance is presenter mode's one rule, for the button and every key
  // that means "next": the next held-back line, then the next step.
  function advance() {
    // a live class's lobby: the first press starts the class (the lines
    // wait for the room)
    if (window.LockLabClassStart && window.LockLabClassStart()) { return; }
    if (presenting() && revealLine()) { return; }
    // a live class's teacher: the class's own next move (start, reveal,
    // the step after the reveal) comes before the lesson's Next
    if (window.LockLabClassNext && window.LockLabClassNext()) { return; }
    click("next");
  }
  // back is ←: the last line shown, then the guided step before (all of
  // its lines: the room has seen them), or, off the path, Undo.
  var backed = false;
  function back() {
    if (presenting() && hideLine()) { return; }
    if (document.getElementById("prev")) {
      backed = true;
      click("prev");
      return;
    }
    click("undo");
  }
  // clicker: the keys of a presentation clicker step the lesson (else
  // they scroll the page as usual): in presenter mode or on a live
  // class's teacher page, where there is a lesson's dialog to step
  function clicker() {
    return !!document.querySelector(".dialog") && (presenting() || !!document.querySelector("#classroom[data-role=teacher]"));
  }
  window.LockLabLines = function () { return presenting() ? linesShown() : -1; };
  // LockLabReveal shows the first n lines (a live class's teacher page,
  // reloaded on a step whose lines the room has seen)
  window.LockLabReveal = function (n) {
    while (presenting() && linesShown() < n && revealLine()) { /* one more */ }
  };
  // presented: a step just drawn in presenter mode holds its lines back
  // (all of them shown when ← came back to it) and puts the newest on
  // screen; the room's phones hear how many (class.js).
  function presented() {
    hideLines();
    if (backed) {
      backed = false;
      while (revealLine()) { /* every line */ }
    }
    // (a class's lobby fills the screen: its code and Start stay in view)
    if (!document.querySelector("#classbar.lobby")) { lineIntoView(newestLine()); }
    document.dispatchEvent(new CustomEvent("locklab:lines", { detail: linesShown() }));
  }
  // The share box's embed snippets: a button copies its field (the
  // field is selected too, so a refused clipboard still leaves it ready
  // for Ctrl+C), and says so on itself and in the live region.
  document.addEventListener("click", function (e) {
    var b = e.target && e.target.closest && e.target.closest("button[data-copy]");
    var field = b && document.getElementById(b.getAttribute("data-copy"));
    if (!field) { return; }
    field.focus();
    field.select();
    var done = function () {
      b.firstChild.textContent = b.getAttribute("data-done");
      var live = document.getElementById("live");
      if (live) { live.textContent = b.getAttribute("data-done"); }
    };
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(field.value).then(done, function () { /* selected: Ctrl+C */ });
    }
  });
  // The on-screen Next (and a class's Next step after a reveal), in
  // presenter mode, shows a held-back line first (caught before htmx's
  // own listener, or the form's submit, sees the click).
  document.addEventListener("click", function (e) {
    var b = e.target && e.target.closest && e.target.closest("#next, #class-next");
    if (b && presenting() && revealLine()) {
      e.preventDefault();
      e.stopPropagation();
    }
  }, true);
  function applyPresenter() {
    var on = get("locklab:presenter") === "1";
    root.classList.toggle("presenter", on);
    var b = document.getElementById("present");
    if (b) { b.setAttribute("aria-pressed", on ? "true" : "false"); }
    if (on) {
      presented(); // says how many lines show
      return;
    }
    var p = document.querySelectorAll(".dialog .line.pending");
    for (var i = 0; i < p.length; i++) { p[i].classList.remove("pending"); }
    labelNext();
    // every line shows again: the step's last one comes on screen (a
    // presenter who turns the mode off mid-step reads on from there)
    if (p.length > 0) { lineIntoView(newestLine()); }
    document.dispatchEvent(new CustomEvent("locklab:lines", { detail: -1 }));
  }
  // a projector's zoom changed (or the window): the newest line stays
  // on screen
  var rezoom = 0;
  window.addEventListener("resize", function () {
    window.clearTimeout(rezoom);
    rezoom = window.setTimeout(function () { if (presenting() && !document.querySelector("#classbar.lobby")) { lineIntoView(newestLine()); } }, 150);
  });
  // togglePresenter: turned on in a class under way, every line the room
  // has already read stays shown (a tester saw the step start over at one
  // line, on every phone); on a page of one's own it starts presenting
  // the step from its first line.
  function togglePresenter() {
    var on = !presenting();
    set("locklab:presenter", on ? "1" : null);
    if (on && document.querySelector("#classroom[data-role=teacher]") && !document.querySelector("#classbar.lobby")) {
      backed = true;
    }
    applyPresenter();
  }

  // play mode: simulated time runs by itself, one second per tick. A tick
  // asks for the next state only after the previous one has been swapped
  // in and settled (never a queue of requests under load), and the whole
  // run is one "wait.Ns" at the end of the URL, counting up: the first
  // tick pushes a history entry, the later ones replace it.
  var playing = false, timer = null, base = null, waited = 0, inflight = false;
  function playButton() { return document.getElementById("play"); }
  function speedMs() {
    var speed = document.getElementById("speed");
    return speed ? parseInt(speed.value, 10) || 500 : 500;
  }
  // tickURL is the address of the run's next second: the state the run
  // started from, plus one wait of every second played so far.
  function tickURL() {
    var link = document.getElementById("wait-1s");
    if (!link) { return null; }
    var u = new URL(link.getAttribute("href"), location.href);
    var d = (u.searchParams.get("do") || "").split(",");
    d.pop(); // this page's "wait.1s"
    if (base === null) {
      var last = d.length ? d[d.length - 1] : "";
      var m = /^wait\.(\d+)s$/.exec(last);
      if (m) { waited = parseInt(m[1], 10); d.pop(); } else { waited = 0; }
      base = d.join(",");
    }
    var w = "wait." + (waited + 1) + "s";
    u.searchParams.set("do", base ? base + "," + w : w);
    return u.pathname + "?" + u.searchParams.toString().replace(/%2C/g, ",");
  }
  function tick() {
    timer = null;
    if (!playing || inflight) { return; }
    var url = tickURL();
    if (!url || !window.htmx) { stop(); return; }
    inflight = true;
    var first = waited === 0 || !history.state || !history.state.locklabPlay;
    window.htmx.ajax("GET", url, { target: "#lab", select: "#lab", swap: "outerHTML show:none" }).then(function () {
      inflight = false;
      waited++;
      if (first) { history.pushState({ locklabPlay: true }, "", url); } else { history.replaceState({ locklabPlay: true }, "", url); }
      settled();
    }, function () { inflight = false; stop(); });
  }
  // settled: the swap is on screen; the next tick waits one period.
  function settled() {
    if (playing && !inflight && timer === null) {
      if (!document.getElementById("wait-1s")) { stop(); return; }
      timer = window.setTimeout(tick, speedMs());
    }
  }
  function start() {
    stop();
    playing = true; base = null;
    root.setAttribute("data-playing", "1");
    showPlay();
    tick();
  }
  function stop() {
    playing = false;
    root.removeAttribute("data-playing");
    if (timer !== null) { window.clearTimeout(timer); timer = null; }
    showPlay();
  }
  function showPlay() {
    var b = playButton();
    if (!b) { return; }
    var box = b.parentNode;
    b.textContent = playing ? box.getAttribute("data-pause") : box.getAttribute("data-play");
    b.setAttribute("aria-pressed", playing ? "true" : "false");
  }
  function togglePlay() { if (playing) { stop(); } else { start(); } }

  // keys 1–3 answer the checkpoint on screen (pick and submit)
  function answer(n) {
    var form = document.querySelector("form.checkpoint");
    var radio = form && form.querySelectorAll('input[name="guess"]')[n - 1];
    if (!radio) { return false; }
    radio.checked = true;
    if (form.requestSubmit) { form.requestSubmit(); } else { form.submit(); }
    return true;
  }

  // wiring, again after every htmx swap (the lesson region is replaced)
  function wire() {
    // the legend is folded for phones; a wide screen has room for it
    var legend = document.querySelector("details.legendbox");
    if (legend && !legend.getAttribute("data-wired")) {
      legend.setAttribute("data-wired", "1");
      if (window.matchMedia("(min-width: 900px)").matches) { legend.open = true; }
    }
    var box = document.querySelector(".play");
    if (box) {
      var b = playButton();
      if (b && !b.getAttribute("data-wired")) {
        b.setAttribute("data-wired", "1");
        b.addEventListener("click", togglePlay);
      }
      var speed = document.getElementById("speed");
      if (speed && !speed.getAttribute("data-wired")) {
        speed.setAttribute("data-wired", "1");
        var saved = get("locklab:speed");
        if (saved) { speed.value = saved; }
        speed.addEventListener("change", function () { set("locklab:speed", speed.value); });
      }
      showPlay();
    }
    if (presenting()) { presented(); }
  }

  // presetKeepsEdits: a preset link loads the preset into its own piece
  // and keeps what the other pieces hold now, graded or not (the link
  // was built from the last grade: a script typed since would be lost).
  document.addEventListener("click", function (e) {
    var a = e.target && e.target.closest && e.target.closest("form.design-form a.preset");
    if (!a || e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) { return; }
    var form = a.closest("form");
    var piece = a.closest("fieldset.piece");
    var name = piece && piece.id.replace(/^piece-/, "");
    var link = new URL(a.href, location.href);
    if (!name) { return; }
    var q = new URLSearchParams(new FormData(form));
    if (link.searchParams.has(name)) { q.set(name, link.searchParams.get(name)); } else { q.delete(name); } // absent: the default
    e.preventDefault();
    location.href = link.pathname + "?" + q.toString() + link.hash;
  });
  // stale marks the design page's grade out of date while the form
  // differs from the design that was graded (and says so, politely, to a
  // screen reader); changing it back clears the mark.
  function stale() {
    var form = document.querySelector("form.design-form");
    var note = document.getElementById("grade-stale");
    var result = document.querySelector(".design-result");
    if (!form || !note || !result) { return; }
    var graded = new URLSearchParams(new FormData(form)).toString();
    var check = function () {
      var changed = new URLSearchParams(new FormData(form)).toString() !== graded;
      result.classList.toggle("stale", changed);
      note.textContent = changed ? note.getAttribute("data-text") : "";
    };
    ["input", "change", "keyup", "paste", "cut"].forEach(function (t) {
      form.addEventListener(t, function () { window.setTimeout(check, 0); });
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    wire();
    stale();
    applyPresenter();
    var help = document.getElementById("help");
    if (help) { help.addEventListener("click", function () { var d = document.getElementById("shortcuts"); if (d && d.showModal) { d.showModal(); } }); }
    var theme = document.getElementById("theme");
    if (theme) { theme.addEventListener("click", cycleTheme); }
    var present = document.getElementById("present");
    if (present) { present.addEventListener("click", togglePresenter); }
    // class.js waits for this: the lines held back before it posts how
    // many the room sees
    window.LockLabReady = true;
    document.dispatchEvent(new Event("locklab:ready"));
    // On a phone the header's tools fold behind Menu (the CSS hides them
    // until the header is open); Escape folds them again.
    var menu = document.getElementById("menu-toggle");
    if (menu) {
      var header = menu.closest("header");
      var setMenu = function (open) { header.classList.toggle("menu-open", open); menu.setAttribute("aria-expanded", open ? "true" : "false"); };
      menu.addEventListener("click", function () { setMenu(!header.classList.contains("menu-open")); });
      header.addEventListener("keydown", function (e) { if (e.key === "Escape" && header.classList.contains("menu-open")) { setMenu(false); menu.focus(); } });
    }
  });
  document.addEventListener("htmx:afterSettle", function () { wire(); settled(); });
  // Leaving the page by hand (a link, back) ends a run.
  window.addEventListener("popstate", function () { if (playing) { stop(); } });

  document.addEventListener("keydown", function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey) { return; }
    var t = e.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA" || t.isContentEditable)) { return; }
    var d = document.getElementById("shortcuts");
    if (d && d.open) { return; }
    switch (e.key) {
    case "n": advance(); break;
    case "ArrowRight": case "PageDown": case " ":
      // a presentation clicker's keys (clicker: presenter mode, or a
      // class's teacher page; elsewhere, as on a class's summary, they
      // scroll the page as usual); Space still presses a focused button
      // or link other than Next and the header's own (Space on
      // "Presenter mode", focused by the click that turned it on, is the
      // clicker's next)
      if (!clicker() || (e.key === " " && t && t.closest && t.closest("a, button") && !t.closest("#next, header.site"))) { return; }
      advance();
      break;
    case "ArrowLeft": case "PageUp":
      if (!clicker()) { return; }
      back();
      break;
    case "u": click("undo"); break;
    case "p": if (playButton()) { togglePlay(); } break;
    case "f": togglePresenter(); break;
    case "t": cycleTheme(); break;
    case "l": click("lang-switch"); break;
    case "?": if (d && d.showModal) { d.showModal(); } break;
    case "1": case "2": case "3": if (!answer(parseInt(e.key, 10))) { return; } break;
    default: return;
    }
    e.preventDefault();
  });
})();

// The command line: Up and Down bring back the commands of this timeline
// (data-history, oldest first); the form itself sends with Enter, with or
// without this file.
(function () {
  "use strict";
  var pos = -1, sent = false;
  document.addEventListener("keydown", function (e) {
    var t = e.target;
    if (!t || t.id !== "cli-input" || (e.key !== "ArrowUp" && e.key !== "ArrowDown")) { return; }
    var hist = [];
    try { hist = JSON.parse(t.getAttribute("data-history") || "[]"); } catch (err) { return; }
    if (!hist.length) { return; }
    if (pos < 0) { pos = hist.length; }
    pos += e.key === "ArrowUp" ? -1 : 1;
    pos = Math.max(0, Math.min(hist.length, pos));
    t.value = pos < hist.length ? hist[pos] : "";
    e.preventDefault();
  });
  document.addEventListener("submit", function (e) {
    if (e.target && e.target.classList && e.target.classList.contains("cli")) { sent = true; }
  }, true);
  // The code editor (highlighting, completion) comes only when the line
  // is first used, so a lesson's first load does not carry it.
  var loading = false;
  document.addEventListener("focusin", function (e) {
    var t = e.target, src = t && t.id === "cli-input" && t.getAttribute("data-editor-src");
    if (!src || loading || window.LockLabEditor) { return; }
    loading = true;
    var s = document.createElement("script");
    s.src = src;
    document.head.appendChild(s);
  });
  document.addEventListener("htmx:afterSettle", function () {
    pos = -1;
    var input = document.getElementById("cli-input");
    if (sent && input && !window.LockLabEditor) { input.focus(); } // the editor refocuses its own line
    sent = false;
  });
})();
