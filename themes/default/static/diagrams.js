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
      navigator.clipboard.writeText(code.textContent).then(
        function () { button.textContent = 'Copied'; },
        function () { button.textContent = 'Copy failed'; }
      );
      setTimeout(function () { button.textContent = 'Copy'; }, 2000);
    });
    // Beside the toggle, not inside it: a button inside <summary> is a control in a control.
    details.parentNode.insertBefore(button, details);
  });
})();

// Zoom, fit, pan and full screen for every diagram portolan draws. The SVG stays as it
// was drawn without script (its frame scrolls); with it, a toolbar above the frame zooms
// (also Ctrl + wheel), fits the width, shows 100 %, and opens the frame full screen, and
// the drawing pans by dragging. On a narrow screen a wide diagram starts fitted.
(function () {
  'use strict';
  var NARROW = 640;
  document.querySelectorAll('.diagram-wrap').forEach(function (wrap) {
    var svg = wrap.querySelector('svg.diagram');
    if (!svg) return;
    var w0 = parseFloat(svg.getAttribute('width'));
    var h0 = parseFloat(svg.getAttribute('height'));
    if (!(w0 > 0 && h0 > 0)) return;
    var scale = 1;
    var tools = document.createElement('div');
    tools.className = 'diagram-tools';
    tools.setAttribute('role', 'toolbar');
    tools.setAttribute('aria-label', 'Diagram view');
    var level = document.createElement('span');
    level.className = 'zoom-level';
    level.setAttribute('aria-live', 'polite');
    // A button named by its text; `label` names a symbol (− +) and titles the others.
    function button(text, label, action) {
      var b = document.createElement('button');
      b.type = 'button';
      b.className = 'button';
      b.textContent = text;
      if (text.length === 1) b.setAttribute('aria-label', label);
      b.title = label;
      b.addEventListener('click', action);
      tools.appendChild(b);
      return b;
    }
    function apply() {
      svg.setAttribute('width', String(Math.round(w0 * scale)));
      svg.setAttribute('height', String(Math.round(h0 * scale)));
      level.textContent = Math.round(scale * 100) + ' %';
    }
    function zoom(factor, cx, cy) {
      var before = scale;
      scale = Math.min(4, Math.max(0.1, scale * factor));
      // Keep the point under the cursor (or the frame's centre) where it was.
      var x = cx === undefined ? wrap.clientWidth / 2 : cx;
      var y = cy === undefined ? wrap.clientHeight / 2 : cy;
      var px = (wrap.scrollLeft + x) / before, py = (wrap.scrollTop + y) / before;
      apply();
      wrap.scrollLeft = px * scale - x;
      wrap.scrollTop = py * scale - y;
    }
    function fit() {
      scale = Math.min(1, (wrap.clientWidth - 2) / w0);
      apply();
    }
    button('−', 'Zoom out', function () { zoom(1 / 1.25); });
    tools.appendChild(level);
    button('+', 'Zoom in', function () { zoom(1.25); });
    button('Fit width', 'Fit the diagram to the width', fit);
    button('100 %', 'Actual size', function () { scale = 1; apply(); });
    if (wrap.requestFullscreen) {
      button('Full screen', 'Show the diagram full screen', function () {
        if (document.fullscreenElement === wrap) document.exitFullscreen();
        else wrap.requestFullscreen().catch(function () {});
      });
    }
    if (w0 > wrap.clientWidth) {
      var cue = document.createElement('span');
      cue.className = 'diagram-cue';
      cue.textContent = 'Wider than the page: drag or scroll to pan.';
      tools.appendChild(cue);
    }
    wrap.parentNode.insertBefore(tools, wrap);
    apply();
    if (window.innerWidth < NARROW && w0 > wrap.clientWidth) fit();

    wrap.addEventListener('wheel', function (event) {
      if (!event.ctrlKey) return;
      event.preventDefault();
      var r = wrap.getBoundingClientRect();
      zoom(event.deltaY < 0 ? 1.1 : 1 / 1.1, event.clientX - r.left, event.clientY - r.top);
    }, { passive: false });
    // Drag to pan (not from a link: a click on a box or an arrow still follows it).
    var drag = null;
    wrap.addEventListener('pointerdown', function (event) {
      if (event.button !== 0 || event.target.closest('a')) return;
      drag = { x: event.clientX, y: event.clientY, left: wrap.scrollLeft, top: wrap.scrollTop };
      wrap.classList.add('dragging');
    });
    window.addEventListener('pointermove', function (event) {
      if (!drag) return;
      wrap.scrollLeft = drag.left - (event.clientX - drag.x);
      wrap.scrollTop = drag.top - (event.clientY - drag.y);
    });
    window.addEventListener('pointerup', function () {
      drag = null;
      wrap.classList.remove('dragging');
    });
  });
})();

// A link to a row inside a closed <details> (a grouped arrow's row in the table under a
// summary diagram, a row of a long folded table) opens it (browsers that reveal a closed
// <details> for a fragment do so without script).
(function () {
  'use strict';
  function reveal() {
    var id = decodeURIComponent(location.hash.slice(1));
    var row = id && document.getElementById(id);
    var details = row && row.closest('details:not([open])');
    if (!details) return;
    for (var d = details; d; d = d.parentElement && d.parentElement.closest('details:not([open])')) {
      d.open = true;
    }
    row.scrollIntoView();
  }
  window.addEventListener('hashchange', reveal);
  reveal();
})();
