// Adds a "Copy" button to each "mermaid source" toggle of a dataflow page and to each block
// of generated text (the security page's least-privilege RBAC). The pages work without it:
// the text can be selected by hand (or downloaded as a .mmd file).
(function () {
  'use strict';
  if (!navigator.clipboard) return;
  document.querySelectorAll('details.mermaid-source, details.copy-source').forEach(function (details) {
    var code = details.querySelector('pre code');
    var summary = details.querySelector('summary');
    if (!code || !summary) return;
    var button = document.createElement('button');
    button.type = 'button';
    button.className = 'copy';
    button.textContent = 'Copy';
    button.addEventListener('click', function (event) {
      event.preventDefault(); // a click inside <summary> would also toggle the details
      navigator.clipboard.writeText(code.textContent).then(
        function () { button.textContent = 'Copied'; },
        function () { button.textContent = 'Copy failed'; }
      );
      setTimeout(function () { button.textContent = 'Copy'; }, 2000);
    });
    summary.appendChild(button);
  });
})();
