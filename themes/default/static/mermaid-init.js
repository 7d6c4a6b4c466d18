// Loaded only when projects.toml sets mermaid_js = true, after the theme's own
// static/mermaid.min.js: draws the <pre class="mermaid"> blocks of markdown pages.
(function () {
  if (typeof window.mermaid === "undefined") return;
  var dark = document.documentElement.dataset.theme === "dark" ||
    (!document.documentElement.dataset.theme && window.matchMedia("(prefers-color-scheme: dark)").matches);
  window.mermaid.initialize({ startOnLoad: true, securityLevel: "strict", theme: dark ? "dark" : "default" });
})();
