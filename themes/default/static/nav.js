// The sidebar as a drawer on narrow screens, "On this page" following the reader, the
// back-to-top button, and tables that become cards on a phone. Every page works without
// it: the menu link opens the drawer through :target, the table of contents shows every
// section, and wide tables scroll inside their frame.
(function () {
  'use strict';
  var body = document.body;
  var sidebar = document.getElementById('sidebar');
  var button = document.getElementById('menu-button');

  // The drawer.
  if (sidebar && button) {
    var setOpen = function (open) {
      body.classList.toggle('nav-open', open);
      button.setAttribute('aria-expanded', open ? 'true' : 'false');
      if (open) {
        var current = sidebar.querySelector('[aria-current="page"]') || sidebar.querySelector('a');
        if (current) current.focus();
      }
    };
    button.addEventListener('click', function (event) {
      event.preventDefault();
      setOpen(!body.classList.contains('nav-open'));
    });
    var close = sidebar.querySelector('.sidebar-close');
    if (close) close.addEventListener('click', function (event) {
      event.preventDefault();
      setOpen(false);
      button.focus();
    });
    document.addEventListener('keydown', function (event) {
      if (event.key === 'Escape' && body.classList.contains('nav-open')) {
        setOpen(false);
        button.focus();
      }
    });
    // A click on the dimmed page (outside the drawer) closes it.
    document.addEventListener('click', function (event) {
      if (body.classList.contains('nav-open') && !sidebar.contains(event.target) && !button.contains(event.target)) setOpen(false);
    });
    sidebar.addEventListener('click', function (event) {
      if (event.target.closest('a') && event.target.closest('nav.toc')) setOpen(false);
    });
    // Keep the current page in view in a long sidebar.
    var here = sidebar.querySelector('nav.toc') || sidebar.querySelector('[aria-current="page"]');
    if (here && here.scrollIntoView && sidebar.scrollHeight > sidebar.clientHeight) {
      var top = here.getBoundingClientRect().top - sidebar.getBoundingClientRect().top;
      if (top > sidebar.clientHeight * 0.6) sidebar.scrollTop = top - sidebar.clientHeight * 0.3;
    }
  }

  // Scroll-spy: the section being read is marked in "On this page".
  var toc = document.querySelector('nav.toc');
  if (toc && 'IntersectionObserver' in window) {
    var links = {};
    toc.querySelectorAll('a[href^="#"]').forEach(function (a) {
      links[decodeURIComponent(a.getAttribute('href').slice(1))] = a;
    });
    var headings = [];
    Object.keys(links).forEach(function (id) {
      var h = document.getElementById(id);
      if (h) headings.push(h);
    });
    var mark = function () {
      var line = window.innerHeight * 0.25;
      var active = null;
      for (var i = 0; i < headings.length; i++) {
        if (headings[i].getBoundingClientRect().top - line <= 0) active = headings[i]; else break;
      }
      if (!active && headings.length) active = headings[0];
      toc.querySelectorAll('a.active').forEach(function (a) { a.classList.remove('active'); });
      toc.querySelectorAll('li.active').forEach(function (li) { li.classList.remove('active'); });
      if (!active) return;
      var link = links[active.id];
      link.classList.add('active');
      for (var li = link.parentElement; li && li !== toc; li = li.parentElement) {
        if (li.tagName === 'LI') li.classList.add('active');
      }
    };
    var pending = false;
    var schedule = function () {
      if (pending) return;
      pending = true;
      window.requestAnimationFrame(function () { pending = false; mark(); });
    };
    window.addEventListener('scroll', schedule, { passive: true });
    window.addEventListener('resize', schedule);
    mark();
  }

  // Back to top, after two screens of scrolling.
  var toTop = document.getElementById('to-top');
  if (toTop) {
    var shown = false;
    var update = function () {
      var show = window.scrollY > window.innerHeight * 2;
      if (show !== shown) { shown = show; toTop.hidden = !show; }
    };
    window.addEventListener('scroll', update, { passive: true });
    update();
  }

  // A table frame that scrolls can be scrolled from the keyboard, and says what it holds.
  var frames = document.querySelectorAll('main .table-wrap, main .diagram-wrap, main pre');
  var scrollable = function () {
    frames.forEach(function (frame) {
      var scrolls = frame.scrollWidth > frame.clientWidth + 1 || frame.scrollHeight > frame.clientHeight + 1;
      if (scrolls && !frame.hasAttribute('tabindex')) {
        frame.tabIndex = 0;
        frame.setAttribute('role', 'region');
        var heading = null;
        for (var e = frame.previousElementSibling; e && !heading; e = e.previousElementSibling) {
          if (/^H[1-6]$/.test(e.tagName)) heading = e;
        }
        var what = frame.tagName === 'PRE' ? 'Code' : 'Table';
        frame.setAttribute('aria-label', heading ? heading.textContent.replace('¶', '').trim() : what);
      }
    });
  };
  window.addEventListener('resize', scrollable);
  window.addEventListener('load', scrollable);
  scrollable();

  // Row links, written here rather than in every page (one per row was about 8% of a
  // site's bytes); without script the ids still take a link, only the way to copy one is
  // missing. A table whose last header is `th.permalink` gets a ¶ cell in each row with an
  // id; in the all-fields table a field's name links its row.
  document.querySelectorAll('main table.fields > tbody > tr[id]').forEach(function (row) {
    var name = row.cells[0] && row.cells[0].querySelector('code');
    if (!name) return;
    var a = document.createElement('a');
    a.href = '#' + row.id;
    name.parentNode.insertBefore(a, name);
    a.appendChild(name);
  });
  document.querySelectorAll('main th.permalink').forEach(function (th) {
    var table = th.closest('table');
    Array.prototype.forEach.call(table.tBodies, function (tbody) {
      Array.prototype.forEach.call(tbody.rows, function (row) {
        if (!row.id) return;
        var cell = row.insertCell(-1);
        cell.className = 'permalink';
        var a = document.createElement('a');
        a.href = '#' + row.id;
        a.setAttribute('aria-label', 'link to this row');
        a.textContent = '¶';
        cell.appendChild(a);
      });
    });
  });

  // On a phone a table becomes one card per row, each cell labelled with its column.
  document.querySelectorAll('main table').forEach(function (table) {
    var head = table.tHead && table.tHead.rows[0];
    if (!head || head.cells.length < 3) return;
    var labels = Array.prototype.map.call(head.cells, function (th) { return th.textContent.trim(); });
    Array.prototype.forEach.call(table.tBodies, function (tbody) {
      Array.prototype.forEach.call(tbody.rows, function (row) {
        Array.prototype.forEach.call(row.cells, function (td, i) {
          if (!td.hasAttribute('data-label')) td.setAttribute('data-label', labels[i] || '');
        });
      });
    });
    table.classList.add('stack');
    if (table.parentElement.classList.contains('table-wrap')) table.parentElement.classList.add('stacked');
  });
})();
