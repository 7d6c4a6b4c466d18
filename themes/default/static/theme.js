// The light/dark toggle. An inline script in <head> applies a stored choice before the
// first paint; this one shows the button and stores new choices. Without JavaScript the
// page follows the system setting and the button stays hidden.
(function () {
  var button = document.getElementById("theme-toggle");
  if (!button) return;
  var root = document.documentElement;
  function current() {
    var chosen = root.dataset.theme;
    if (chosen === "light" || chosen === "dark") return chosen;
    return window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
  }
  function show() {
    var dark = current() === "dark";
    button.setAttribute("aria-pressed", dark ? "true" : "false");
    button.title = dark ? "Switch to light mode" : "Switch to dark mode";
  }
  button.addEventListener("click", function () {
    var next = current() === "dark" ? "light" : "dark";
    root.dataset.theme = next;
    try { localStorage.setItem("portolan-theme", next); } catch (e) { /* private mode */ }
    show();
  });
  button.hidden = false;
  show();
})();
