// Lock Lab, before the first paint (loaded without defer, so it is tiny):
// mark the page as scripted, so the controls that need JavaScript show
// from the start instead of appearing later and pushing the page down,
// and apply the learner's saved theme and presenter mode without a flash.
(function () {
  "use strict";
  var root = document.documentElement;
  root.classList.add("js");
  try {
    var t = window.localStorage.getItem("locklab:theme");
    if (t === "dark" || t === "light") { root.setAttribute("data-theme", t); }
    if (window.localStorage.getItem("locklab:presenter") === "1") { root.classList.add("presenter"); }
  } catch (e) { /* storage refused: defaults */ }
})();
