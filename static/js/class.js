// Lock Lab live class: loaded only by class pages. Without it a student's
// page still shows the teacher's step, answers as a form and has a Refresh
// link; with it the page follows the teacher over Server-Sent Events.
// - students: on "move", swap #classroom for the fragment the event
//   carries (or, for a bare notice, fetch it); on
//   "end", reload (the page then says the class has ended);
// - the teacher: every state the lesson page reaches (htmx swaps of #lab)
//   is posted as the class's move, and the class bar is re-fetched when
//   the stream says votes or the connected count changed.
// EventSource reconnects by itself and sends Last-Event-ID, so a phone
// that slept catches up with the move it missed.
(function () {
  "use strict";
  var root = document.getElementById("classroom");
  if (!root || !window.EventSource || !window.fetch) {
    return;
  }
  var role = root.getAttribute("data-role");
  var base = root.getAttribute("data-base");
  var events = root.getAttribute("data-events") + "?since=" + encodeURIComponent(root.getAttribute("data-seq") || "0");

  function say(text) {
    var live = document.getElementById("live");
    if (live && text) {
      live.textContent = text;
    }
  }
  function status(on) {
    var el = document.getElementById("cs-live");
    if (el) {
      el.textContent = el.getAttribute(on ? "data-on" : "data-off");
      el.classList.toggle("off", !on);
    }
  }

  // one fetch at a time; a notice during a fetch asks for one more after it
  function serial(fn) {
    var busy = false;
    var again = false;
    function run() {
      if (busy) {
        again = true;
        return;
      }
      busy = true;
      again = false;
      fn().catch(function () {}).then(function () {
        busy = false;
        if (again) {
          run();
        }
      });
    }
    return run;
  }

  function parse(html) {
    return new DOMParser().parseFromString(html, "text/html");
  }

  // the newest move the stream announced, and the one the page shows: a
  // fetch that fails (the phone went offline right after the event) is
  // tried again until the page has caught up
  var latest = Number(root.getAttribute("data-seq")) || 0;
  function shown() {
    var cur = document.getElementById("classroom");
    return Number(cur && cur.getAttribute("data-seq")) || 0;
  }
  var retry = null;
  function retryLater() {
    if (!retry) {
      retry = setTimeout(function () {
        retry = null;
        if (latest > shown()) {
          refreshStudent();
        }
      }, 3000);
    }
  }

  // show puts a student fragment (fetched, or carried by the move event
  // itself) in place of the page's, unless the page already shows a
  // later move
  function show(html) {
    var doc = parse(html);
    var next = doc.getElementById("classroom");
    var cur = document.getElementById("classroom");
    if (!next || !cur) {
      return;
    }
    if ((Number(next.getAttribute("data-seq")) || 0) < shown()) {
      return;
    }
    var form = cur.querySelector("form.cs-answer input:checked");
    // what is new for the room: a question asked since, a line more (or
    // another step); app.js brings it on screen
    var asked = function (el) {
      var f = el.querySelector("form.cs-answer");
      return f ? (f.querySelector("input[name=step]") || {}).value || "1" : "";
    };
    var lineKey = function (el) {
      var t = el.querySelector("#step-title");
      return (t ? t.textContent : "") + "|" + el.querySelectorAll(".dialog .line").length;
    };
    // and a question's result just revealed (the tally, the answer, this
    // phone's choice): a phone that followed the lines down had it above
    // the screen
    var detail = { newQuestion: asked(next) !== "" && asked(next) !== asked(cur), newLine: lineKey(next) !== lineKey(cur),
      newResult: !!next.querySelector("#cs-revealed") && !cur.querySelector("#cs-revealed") };
    cur.replaceWith(next);
    var title = doc.querySelector("title");
    if (title) {
      document.title = title.textContent;
    }
    // keep a choice the student made but did not send yet, if the
    // same question is still open
    if (form) {
      var same = next.querySelector('form.cs-answer input[value="' + form.value + '"]');
      if (same) {
        same.checked = true;
      }
    }
    status(true);
    say(next.getAttribute("data-live"));
    document.dispatchEvent(new CustomEvent("locklab:classupdate", { detail: detail }));
  }

  var refreshStudent = serial(function () {
    return fetch(base, { headers: { "HX-Request": "true" }, credentials: "same-origin" }).then(function (res) {
      if (res.status === 404 || res.status === 410) {
        location.reload(); // the class ended: the page says so
        return;
      }
      if (!res.ok) {
        throw new Error("class page " + res.status);
      }
      return res.text().then(show);
    }).catch(function (err) {
      retryLater();
      throw err;
    });
  });

  // the state the teacher's page shows (do and opt of #lab's address):
  // the bar is always fetched for it, so a bar fetched for an older
  // state can never offer to "show" what the class already sees
  function pageState() {
    var lab = document.getElementById("lab");
    var url = lab && lab.getAttribute("data-url");
    var body = new URLSearchParams();
    if (url) {
      var u = new URL(url, location.href);
      body.set("do", u.searchParams.get("do") || "");
      body.set("opt", u.searchParams.get("opt") || "");
    }
    return body;
  }
  function hereQuery() {
    return "?" + pageState().toString();
  }
  // the dialog lines the room has seen: presenter mode shows them one at
  // a time (app.js), and the phones show no more than the room has seen
  function linesShown() {
    return window.LockLabLines ? window.LockLabLines() : -1;
  }

  // swapBar puts the fetched bar and question (ClassAsk, in the dialog
  // column) in place of the page's
  function swapBar(html) {
    var doc = parse(html);
    // the focus (a clicker's Reveal, Next step) stays on its button when
    // a refresh (votes, phones coming and going) replaces the bar under it
    var had = document.activeElement;
    var keep = had && had.id && had.closest && had.closest("#classbar, #cb-question") ? had.id : "";
    var ask = doc.getElementById("cb-question");
    var curAsk = document.getElementById("cb-question");
    if (ask && curAsk) {
      var was = curAsk.querySelector("details.cb-last[open]");
      curAsk.replaceWith(ask);
      var last = ask.querySelector("details.cb-last");
      if (was && last) {
        last.open = true;
      }
    }
    var next = doc.getElementById("classbar");
    var cur = document.getElementById("classbar");
    if (next && cur) {
      // a folded part the teacher opened stays open
      var folds = ["cb-qr", "cb-end", "cb-people"];
      for (var i = 0; i < folds.length; i++) {
        var open = cur.querySelector("details." + folds[i] + "[open]");
        var fold = next.querySelector("details." + folds[i]);
        if (open && fold) {
          fold.open = true;
        }
      }
      cur.replaceWith(next);
    }
    var again = keep && document.activeElement !== had && document.getElementById(keep);
    if (again && again.focus) {
      again.focus({ preventScroll: true });
    }
    // a new "Next step" says what → does
    if (window.LockLabLabelNext) {
      window.LockLabLabelNext();
    }
  }

  var refreshBar = serial(function () {
    var q = hereQuery();
    return fetch(base + "/bar" + q, { credentials: "same-origin" }).then(function (res) {
      if (res.ok) {
        return res.text().then(swapBar);
      }
    });
  });

  // the teacher's page reached a new state: it becomes the class's
  var lastPosted = null;
  function postMove() {
    var lab = document.getElementById("lab");
    var url = lab && lab.getAttribute("data-url");
    if (!url) {
      return;
    }
    var u = new URL(url, location.href);
    var body = pageState();
    body.set("lines", String(linesShown()));
    var key = body.toString();
    // the address bar: the teacher's page, so a reload stays in the class
    // (/teach/at for a lesson's first step: /teach alone is wherever the
    // room is)
    var search = u.search;
    var path = base + (search ? "/teach" : "/teach/at");
    if (location.pathname !== path || location.search !== search) {
      history.replaceState(history.state, "", path + search);
    }
    // every language's link follows the class to its step: the path's
    // first segment is the language's code (hreflang is its HTML tag,
    // "zh-Hans", which is no path)
    document.querySelectorAll("#lang-menu a[href]").forEach(function (a) {
      var code = a.getAttribute("href").split("/")[1];
      if (code) { a.setAttribute("href", base.replace(/^\/[a-z]+\//, "/" + code + "/") + "/teach" + search); }
    });
    if (key === lastPosted) {
      return;
    }
    lastPosted = key;
    send(key);
  }
  // send posts the moves one at a time, the newest last: two in flight
  // could arrive in either order and leave the room (and every phone) on
  // the older one — a step's every line, say, after the teacher's page
  // had held all but one back.
  var posting = false, queued = null;
  function send(key) {
    if (posting) {
      queued = key;
      return;
    }
    posting = true;
    fetch(base + "/move", {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Class": "1" },
      body: key
    }).then(function (res) {
      if (res.ok) {
        return res.text().then(swapBar);
      }
      if (res.status === 404 || res.status === 410) {
        location.reload();
      }
    }).catch(function () {
      lastPosted = null; // try again at the next state
    }).then(function () {
      posting = false;
      var k = queued;
      queued = null;
      if (k !== null) {
        send(k);
      }
    });
  }

  // EventSource retries a dropped stream by itself, but gives up for good
  // when a reconnection is answered with an error (the server is
  // restarting, holds too many streams, or the class ended): then, after
  // a few seconds (spread out, so a whole class does not come back at
  // the same instant), look whether the class is still there and open a
  // new stream from the move the page shows.
  var es = null;
  var reopen = null;
  // leaving: this page sent a form that loads another (End class goes to
  // the summary): the stream's "end" must not reload over it
  var leaving = false;
  document.addEventListener("submit", function (e) {
    var f = e.target;
    if (f && f.matches && !f.matches(".cb-reveal, .cb-start, .cb-show, .cb-lock")) {
      leaving = true;
    }
  });
  function connect(url) {
    es = new EventSource(url);
    es.addEventListener("open", function () {
      status(true);
      if (role !== "teacher" && latest > shown()) {
        refreshStudent();
      }
    });
    es.addEventListener("error", function () {
      status(false);
      if (es.readyState === EventSource.CLOSED && !reopen) {
        reopen = setTimeout(function () {
          reopen = null;
          var probe = role === "teacher" ? base + "/bar" + hereQuery() : base;
          fetch(probe, { headers: { "HX-Request": "true" }, credentials: "same-origin" }).then(function (res) {
            if (res.status === 404 || res.status === 410) {
              location.reload(); // the class ended: the page says so
              return;
            }
            connect(root.getAttribute("data-events") + "?since=" + (role === "teacher" ? latest : shown()));
          }, function () {
            connect(root.getAttribute("data-events") + "?since=" + (role === "teacher" ? latest : shown()));
          });
        }, 4000 + Math.random() * 8000);
      }
    });
    es.addEventListener("end", function () {
      es.close();
      if (!leaving) {
        location.reload(); // the page says the class ended
      }
    });
    if (role === "teacher") {
      es.addEventListener("move", refreshBar);
      es.addEventListener("votes", refreshBar);
      es.addEventListener("here", refreshBar);
    } else {
      es.addEventListener("move", function (e) {
        latest = Math.max(latest, Number(e.lastEventId) || 0);
        // the event carries the new step's fragment; a bare notice (the
        // server could not draw it) means: fetch it
        if (e.data && e.data.charAt(0) === "<") {
          show(e.data);
        } else {
          refreshStudent();
        }
      });
    }
  }
  // The bar's own forms (Start, Reveal, Reveal anyway, Show this step,
  // Lock) go by fetch and bring back the bar, so the lesson below, and
  // the lines presenter mode has shown, stay as they are. The rest (Next
  // step after a reveal, the next lesson, End class) load a page.
  function barForm(e) {
    var form = e.target;
    if (!form || !form.closest || !form.closest("#classbar, #cb-question") ||
      !(form.matches(".cb-reveal, .cb-start, .cb-show, .cb-lock"))) {
      return;
    }
    e.preventDefault();
    var body = new URLSearchParams(new FormData(form));
    body.set("lines", String(linesShown()));
    fetch(form.action, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Class": "1" },
      body: body.toString()
    }).then(function (res) {
      if (res.ok) {
        return res.text().then(function (html) {
          swapBar(html);
          var focus = document.querySelector("#cb-question #reveal, #cb-question #class-next");
          if (focus && focus.focus) {
            focus.focus({ preventScroll: true });
            // "Only 2 of 3 answered… Reveal anyway" grows the box: the
            // teacher sees what the next press will do (it was below a
            // 1080 px projector's edge). After a reveal the newest line
            // stays where it was.
            if (focus.id === "reveal") { focus.scrollIntoView({ block: "nearest" }); }
            // After a reveal the tally is what the room reads: on
            // screen, with the newest line where both fit.
            if (focus.id === "class-next") { askIntoView(); }
          }
        });
      }
      form.submit(); // let the page say what went wrong
    }, function () {
      form.submit();
    });
  }

  // askIntoView brings the class's question (or its tally) on screen
  // where it is not: all of it where it fits with the newest line above
  // it, else from its top. It reports whether it scrolled.
  function askIntoView() {
    var box = document.querySelector("#cb-question .cb-votes, #cb-question .cb-result");
    if (!box) {
      return false;
    }
    var r = box.getBoundingClientRect(), y = window.scrollY, h = window.innerHeight;
    if (r.top >= 0 && r.bottom <= h) {
      return false;
    }
    var bottom = r.bottom + y, want = Math.min(bottom - h + 16, r.top + y - 8);
    var lines = document.querySelectorAll(".dialog .line:not(.pending)");
    var top = lines.length ? lines[lines.length - 1].getBoundingClientRect().top + y : bottom;
    if (bottom - top <= h) {
      want = Math.min(top, Math.max(bottom - h, Math.min(want, top - 8)));
    }
    window.scrollTo(0, Math.max(0, want));
    return true;
  }

  // a clicker's first "next" in the lobby (app.js's advance) starts the
  // class, before any line is shown
  window.LockLabClassStart = function () {
    var b = document.querySelector("#classbar #start-class");
    if (b) {
      b.click();
      return true;
    }
    return false;
  };
  // a clicker's "next" once every line is shown is the class's next
  // move: reveal the open question, then the next step
  window.LockLabClassNext = function () {
    var b = document.querySelector("#cb-question #reveal, #cb-question #class-next");
    // an open question off the screen's edge (on a 1280 x 720 projector
    // at 150 % a line with code fills the screen above it): the first
    // press shows the question, with the focus on Reveal; the next
    // reveals. The room reads what it answers before its tally.
    if (b && b.id === "reveal" && document.activeElement !== b && askIntoView()) {
      b.focus({ preventScroll: true });
      return true;
    }
    if (b) {
      b.click();
      return true;
    }
    // the lesson's last step: the next press is "Continue the class with
    // the next lesson". A tester's clicker did nothing there, the button
    // just off the projector's screen: the first press brings it into
    // view and gives it the focus, the next one (on it) goes on.
    var nl = !document.getElementById("next") && document.getElementById("next-lesson");
    if (nl) {
      if (document.activeElement === nl) {
        nl.click();
      } else {
        nl.scrollIntoView({ block: "nearest" });
        nl.focus({ preventScroll: true });
      }
      return true;
    }
    return false;
  };

  connect(events);
  if (role === "teacher") {
    document.addEventListener("htmx:afterSettle", postMove);
    document.addEventListener("locklab:lines", postMove);
    document.addEventListener("submit", barForm);
    // q shows or hides the QR code for latecomers
    document.addEventListener("keydown", function (e) {
      var t = e.target;
      if (e.key !== "q" || e.ctrlKey || e.metaKey || e.altKey ||
        (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT" || t.isContentEditable))) {
        return;
      }
      var qr = document.getElementById("cb-qr");
      if (qr) {
        qr.open = !qr.open;
        e.preventDefault();
      }
    });
    // after app.js has held the lines back (presenter mode): the lines
    // the room has already seen of this step stay shown after a reload
    var first = function () {
      var n = Number(root.getAttribute("data-lines"));
      var bar = document.getElementById("classbar");
      if (n > 0 && window.LockLabReveal && bar && pageState().toString() === root.getAttribute("data-class-state")) {
        window.LockLabReveal(n);
      }
      postMove();
    };
    // after app.js has held the lines back: before, every line shows,
    // and the room would be told so
    if (window.LockLabReady) {
      first();
    } else {
      document.addEventListener("locklab:ready", first);
    }
  } else {
    window.addEventListener("online", function () {
      if (latest > shown()) {
        refreshStudent();
      }
    });
  }
  window.addEventListener("pagehide", function () {
    es.close();
  });
})();
