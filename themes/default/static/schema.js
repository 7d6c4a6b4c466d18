// The CRD reference's field tree. The page holds the schema's first two levels; a field
// opens to its children from the kind's all-fields page (every field of every version in
// one table, fetched once, on the first open: the site keeps one copy of each field), a
// repeated subtree ("Same fields as") opens to the first copy's fields in place, and a
// deep link (#field-spec-predictor-model) opens the path to its field.
// Without script the first levels show and the all-fields page lists every field.
(function () {
  'use strict';
  var schemas = document.querySelectorAll('.schema[data-fields]');
  if (!schemas.length || !window.fetch) return;

  var MAX_MATCHES = 200;

  function parentOf(path) {
    var at = path.lastIndexOf('.');
    return at < 0 ? null : path.slice(0, at);
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function Schema(root) {
    this.root = root;
    this.tree = root.querySelector('.schema-tree');
    this.url = root.getAttribute('data-fields');
    this.version = root.getAttribute('data-anchor');
    this.data = null;
    this.loading = null;
  }

  function textOf(node) { return node ? node.textContent : ''; }

  // A field from its row of the all-fields table (the template's own markup): the row
  // carries depth (its class, `dN`), children and a repeated subtree's source; the cells
  // the rest.
  function fieldOf(tr) {
    var cells = tr.cells, desc = cells[3], description = '';
    for (var n = desc.firstChild; n && n.nodeType === 3; n = n.nextSibling) description += n.nodeValue;
    var same = desc.querySelector('em a');
    return {
      anchor: tr.id,
      depth: +((/(?:^|\s)d(\d+)(?:\s|$)/.exec(tr.className) || [0, 0])[1]),
      children: +(tr.getAttribute('data-children') || 0),
      same_as: tr.getAttribute('data-same-as') || '',
      same_as_anchor: same ? same.getAttribute('href').slice(1) : '',
      name: textOf(cells[0].querySelector('code')),
      path: textOf(cells[0].querySelector('small')),
      required: !!cells[0].querySelector('.req'),
      type_text: textOf(cells[1].querySelector('code')),
      default: textOf(cells[2].querySelector('code')),
      description: description,
      enum_text: textOf(desc.querySelector('.enum code')),
      constraints: textOf(desc.querySelector('small.constraints')),
      ruleNodes: Array.prototype.slice.call(desc.querySelectorAll('p.rule'))
    };
  }

  // Every field, indexed by path and by anchor, and the children of each path in order.
  Schema.prototype.load = function () {
    var self = this;
    if (self.data) return Promise.resolve(self.data);
    if (!self.loading) {
      self.setStatus('Loading the fields…');
      self.loading = fetch(self.url).then(function (r) {
        if (!r.ok) throw new Error('HTTP ' + r.status);
        return r.text();
      }).then(function (html) {
        var page = new DOMParser().parseFromString(html, 'text/html');
        var table = Array.prototype.filter.call(page.querySelectorAll('table.fields'), function (t) {
          return t.getAttribute('data-version') === self.version;
        })[0];
        if (!table) throw new Error('version ' + self.version + ' is not on the all-fields page');
        var fields = Array.prototype.map.call(table.tBodies[0].rows, fieldOf);
        var byPath = {}, byAnchor = {}, children = {};
        fields.forEach(function (f) {
          byPath[f.path] = f;
          byAnchor[f.anchor] = f;
          var parent = !f.depth ? '' : parentOf(f.path);
          (children[parent] = children[parent] || []).push(f);
        });
        self.data = { fields: fields, byPath: byPath, byAnchor: byAnchor, children: children };
        self.setStatus('');
        return self.data;
      }, function (e) {
        self.loading = null;
        self.setStatus('The fields could not be loaded (' + e.message + '); see the all-fields page.');
        throw e;
      });
    }
    return self.loading;
  };

  Schema.prototype.setStatus = function (text) {
    var s = this.root.querySelector('.schema-status');
    if (s) s.textContent = text;
  };

  // The children shown under `path`: its own, or for a repeated subtree the first copy's.
  Schema.prototype.childrenOf = function (path, sourcePath) {
    var d = this.data;
    var own = d.children[sourcePath] || [];
    if (!own.length) {
      var f = d.byPath[sourcePath];
      if (f && f.same_as) return { list: d.children[f.same_as] || [], from: f.same_as };
    }
    return { list: own, from: sourcePath };
  };

  // One field's row, as schema_field.html draws it. `shownPath` is where it appears (under
  // a repeated subtree, not the first copy's path); only a field at its own path keeps its id.
  Schema.prototype.item = function (f, shownPath) {
    var li = el('li', 'field');
    li.setAttribute('role', 'treeitem');
    li.setAttribute('data-path', shownPath);
    li.setAttribute('data-source', f.path);
    if (shownPath === f.path) li.id = f.anchor;
    var row = el('div', 'field-row');
    if (f.children) {
      var button = el('button', 'toggle');
      button.type = 'button';
      button.setAttribute('aria-label', 'Open ' + f.name);
      button.tabIndex = -1;
      row.appendChild(button);
      li.setAttribute('aria-expanded', 'false');
    }
    row.appendChild(el('code', 'name', f.name));
    row.appendChild(document.createTextNode(' '));
    row.appendChild(el('code', 'type', f.type_text));
    if (f.required) { row.appendChild(document.createTextNode(' ')); row.appendChild(el('span', 'req', 'required')); }
    if (f.children) { row.appendChild(document.createTextNode(' ')); row.appendChild(el('span', 'meta count', f.children + (f.children === 1 ? ' field' : ' fields'))); }
    if (f.default) {
      var def = el('span', 'default', 'default ');
      def.appendChild(el('code', '', f.default));
      row.appendChild(document.createTextNode(' '));
      row.appendChild(def);
    }
    if (shownPath === f.path) {
      var a = el('a', 'permalink', '¶');
      a.href = '#' + f.anchor;
      a.setAttribute('aria-label', 'link to this field');
      row.appendChild(a);
    }
    var rules = f.ruleNodes || [];
    if (f.description || f.enum_text || f.constraints || f.same_as || rules.length) {
      var doc = el('div', 'field-doc');
      if (f.description) doc.appendChild(el('p', 'desc', f.description));
      if (f.enum_text) { var p = el('p', '', 'One of: '); p.appendChild(el('code', '', f.enum_text)); doc.appendChild(p); }
      if (f.constraints) { var c = el('p'); c.appendChild(el('small', '', f.constraints)); doc.appendChild(c); }
      if (f.same_as) { var s = el('p'); var em = el('em', '', 'Same fields as '); em.appendChild(el('code', '', f.same_as)); s.appendChild(em); doc.appendChild(s); }
      // The all-fields page's rule paragraphs, as that page shows them.
      rules.forEach(function (r) { doc.appendChild(document.importNode(r, true)); });
      row.appendChild(doc);
    }
    li.appendChild(row);
    return li;
  };

  // Opens `li`, drawing its children the first time.
  Schema.prototype.open = function (li) {
    var self = this;
    if (li.getAttribute('aria-expanded') === null) return Promise.resolve(li);
    if (li.querySelector(':scope > ul')) {
      li.setAttribute('aria-expanded', 'true');
      return Promise.resolve(li);
    }
    return self.load().then(function () {
      var shown = li.getAttribute('data-path');
      var source = li.getAttribute('data-source') || shown;
      var kids = self.childrenOf(shown, source);
      var ul = el('ul');
      ul.setAttribute('role', 'group');
      kids.list.forEach(function (f) {
        var tail = f.path.slice(kids.from.length);
        ul.appendChild(self.item(f, shown + tail));
      });
      li.appendChild(ul);
      li.setAttribute('aria-expanded', 'true');
      return li;
    });
  };

  Schema.prototype.close = function (li) {
    if (li.getAttribute('aria-expanded') !== null) li.setAttribute('aria-expanded', 'false');
  };

  // Opens every field on the way to `path` (a shown path) and returns its item.
  Schema.prototype.reveal = function (path) {
    var self = this;
    var parts = [];
    for (var p = path; p !== null; p = parentOf(p)) parts.unshift(p);
    var step = function (i) {
      var li = self.tree.querySelector('li[data-path="' + CSS.escape(parts[i]) + '"]');
      if (!li) return Promise.resolve(null);
      if (i === parts.length - 1) return Promise.resolve(li);
      return self.open(li).then(function () { return step(i + 1); });
    };
    return step(0);
  };

  Schema.prototype.expandAll = function () {
    var self = this;
    return self.load().then(function () {
      var openAll = function (scope) {
        var closed = scope.querySelectorAll('li[aria-expanded="false"]');
        if (!closed.length) return Promise.resolve();
        return Promise.all(Array.prototype.map.call(closed, function (li) { return self.open(li); }))
          .then(function () { return openAll(scope); });
      };
      return openAll(self.tree);
    });
  };

  Schema.prototype.collapseAll = function () {
    this.tree.querySelectorAll('li[aria-expanded="true"]').forEach(function (li) {
      if (li.parentElement !== this.tree) li.setAttribute('aria-expanded', 'false');
    }, this);
  };

  // The filter: fields whose path contains the text, listed; a click opens the field.
  Schema.prototype.filter = function (text, list) {
    var self = this;
    list.textContent = '';
    var q = text.trim().toLowerCase();
    if (!q) { list.hidden = true; return; }
    self.load().then(function (d) {
      if (list.getAttribute('data-for') !== text) return;
      var matches = d.fields.filter(function (f) {
        return f.path.toLowerCase().indexOf(q) >= 0 || (f.description || '').toLowerCase().indexOf(q) >= 0;
      });
      list.hidden = false;
      self.setStatus(matches.length + (matches.length === 1 ? ' field matches' : ' fields match') + (matches.length > MAX_MATCHES ? '; the first ' + MAX_MATCHES + ' are listed' : ''));
      matches.slice(0, MAX_MATCHES).forEach(function (f) {
        var li = el('li');
        var a = el('a', '', f.path);
        a.href = '#' + f.anchor;
        li.appendChild(a);
        li.appendChild(document.createTextNode(' '));
        li.appendChild(el('code', 'type', f.type_text));
        list.appendChild(li);
      });
    });
  };

  // Opens the path to the field with this anchor (drawn or not, it may sit in a closed
  // field) and scrolls it into view.
  function goTo(schemaList, anchor) {
    schemaList.forEach(function (s) {
      var drawn = document.getElementById(anchor);
      if (drawn && !s.root.contains(drawn)) return;
      s.load().then(function (d) {
        var f = d.byAnchor[anchor];
        if (!f) return;
        s.reveal(f.path).then(function (li) {
          if (!li) return;
          li.classList.add('targeted');
          li.scrollIntoView({ block: 'start' });
        });
      }).catch(function () {});
    });
  }

  var all = Array.prototype.map.call(schemas, function (root) {
    var s = new Schema(root);
    var tools = root.querySelector('.schema-tools');
    if (tools) tools.hidden = false;
    var list = el('ul', 'schema-matches');
    list.hidden = true;
    if (tools) tools.after(list);
    root.querySelectorAll('button.toggle').forEach(function (b) { b.hidden = false; });
    root.addEventListener('click', function (event) {
      var row = event.target.closest('.field-row');
      if (row && event.target.closest('button.toggle, code.name, .count')) {
        var li = row.parentElement;
        if (li.getAttribute('aria-expanded') === 'true') s.close(li);
        else if (li.getAttribute('aria-expanded') === 'false') s.open(li).then(function () {
          var t = li.querySelector('button.toggle');
          if (t) t.focus({ preventScroll: true });
        });
      }
      var match = event.target.closest('.schema-matches a');
      if (match) {
        event.preventDefault();
        var anchor = match.getAttribute('href').slice(1);
        history.pushState(null, '', '#' + anchor);
        goTo([s], anchor);
      }
    });
    // Keyboard: the toggles are the tree's stops (Tab moves between rows with a button).
    root.querySelectorAll('button.toggle').forEach(function (b) { b.tabIndex = 0; });
    root.addEventListener('keydown', function (event) {
      var li = event.target.closest && event.target.closest('li.field');
      if (!li) return;
      if (event.key === 'ArrowRight') { s.open(li); event.preventDefault(); }
      if (event.key === 'ArrowLeft') { s.close(li); event.preventDefault(); }
    });
    // Toggles drawn later are reachable by keyboard too.
    new MutationObserver(function () {
      root.querySelectorAll('button.toggle[tabindex="-1"]').forEach(function (b) { b.tabIndex = 0; });
    }).observe(s.tree, { childList: true, subtree: true });
    var expand = root.querySelector('.expand-all');
    if (expand) expand.addEventListener('click', function () {
      expand.disabled = true;
      s.setStatus('Opening every field…');
      s.expandAll().then(function () { s.setStatus(''); expand.disabled = false; });
    });
    var collapse = root.querySelector('.collapse-all');
    if (collapse) collapse.addEventListener('click', function () { s.collapseAll(); });
    var input = root.querySelector('.schema-filter');
    if (input) input.addEventListener('input', function () {
      list.setAttribute('data-for', input.value);
      s.filter(input.value, list);
    });
    return s;
  });

  var fromHash = function () {
    var anchor = decodeURIComponent(location.hash.slice(1));
    if (anchor.indexOf('field-') === 0 || anchor.indexOf('variant-') === 0) goTo(all, anchor);
  };
  window.addEventListener('hashchange', fromHash);
  fromHash();
  // A link to a field not drawn yet points at the all-fields page (for readers without
  // script, and for link checks); here it opens the field in this page's tree instead.
  document.addEventListener('click', function (event) {
    var a = event.target.closest && event.target.closest('a.in-tree');
    if (!a || event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey) return;
    event.preventDefault();
    var anchor = decodeURIComponent(a.hash.slice(1));
    history.pushState(null, '', '#' + anchor);
    goTo(all, anchor);
  });
})();
