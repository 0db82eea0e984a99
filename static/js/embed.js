// Lock Lab inside another site's iframe: show the picture's "now", and
// tell the page around the frame
// how tall the embed is, so it can size the frame to fit without a
// scroll bar, whenever that changes (a control swaps the timeline, the
// event log is opened, the frame gets narrower). The message, sent to any
// origin (it carries nothing private), is
//   { type: "locklab:height", height: <CSS pixels>, href: <embed address> }
// A page that does not listen keeps the frame's own height; the embed
// scrolls inside it. Without JavaScript nothing is sent.
(function () {
  "use strict";
  // As on the site (app.js's showNow): where the picture is wider than
  // the frame, bring "now" into view rather than the story's start.
  function scrollToNow() {
    var wrap = document.querySelector(".svgwrap");
    var now = wrap && wrap.querySelector("line.now");
    if (!now || wrap.scrollWidth <= wrap.clientWidth) { return; }
    var at = now.getBoundingClientRect().left - wrap.getBoundingClientRect().left;
    if (at > wrap.clientWidth * 0.8) { wrap.scrollLeft += at - wrap.clientWidth * 0.7; }
  }
  window.addEventListener("load", scrollToNow);
  document.addEventListener("htmx:afterSettle", scrollToNow);
  if (window.parent === window) { return; }
  var last = 0;
  function send() {
    var h = Math.ceil(document.body.getBoundingClientRect().height);
    if (h === last || h === 0) { return; }
    last = h;
    window.parent.postMessage({ type: "locklab:height", height: h, href: window.location.href }, "*");
  }
  if (window.ResizeObserver) {
    new window.ResizeObserver(send).observe(document.body);
  }
  window.addEventListener("load", send);
  document.addEventListener("htmx:afterSettle", send);
  document.addEventListener("toggle", send, true);
  send();
})();
