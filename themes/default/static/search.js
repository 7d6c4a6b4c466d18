// portolan search: reads the static index export (search/manifest.json and its shards)
// and ranks exactly as `portolan search` does (see src/search/engine.rs). No dependencies.
// The tokenizer and query parser mirror src/search/tokens.rs and query.rs; both are
// checked against tests/search-tokens.json.
(function () {
  "use strict";

  var MAX_WORD_CHARS = 64, MAX_WORDS = 16;
  var PAGE = 20; // results the search page shows first, and adds per click on "Show more"
  var WORD = /[\p{Alphabetic}\p{N}]+/gu;
  var DIGIT = /\p{N}/u, UPPER = /\p{Uppercase}/u;

  function words(text) {
    var out = [], m;
    WORD.lastIndex = 0;
    while ((m = WORD.exec(text))) {
      if (Array.from(m[0]).length <= MAX_WORD_CHARS) out.push({ text: m[0], at: m.index });
    }
    return out;
  }
  function cls(c) { return DIGIT.test(c) ? 2 : UPPER.test(c) ? 1 : 0; }
  // Camel-case and digit-boundary parts of a word (0 lower, 1 upper, 2 digit).
  function parts(word) {
    var cs = Array.from(word), out = [], cur = cs.length ? cs[0] : "";
    for (var i = 1; i < cs.length; i++) {
      var p = cls(cs[i - 1]), h = cls(cs[i]), n = i + 1 < cs.length ? cls(cs[i + 1]) : -1;
      var cut = (p === 0 && h === 1) || (p === 2 && h !== 2) || (p !== 2 && h === 2) ||
        (p === 1 && h === 1 && n === 0);
      if (cut) { out.push(cur); cur = ""; }
      cur += cs[i];
    }
    if (cs.length) out.push(cur);
    return out;
  }
  function tokenize(text) {
    var out = [];
    words(text).forEach(function (w) {
      out.push(w.text.toLowerCase());
      var ps = parts(w.text);
      if (ps.length > 1) ps.forEach(function (p) { out.push(p.toLowerCase()); });
    });
    return out;
  }
  function leaves(text) {
    var out = [];
    words(text).forEach(function (w) {
      parts(w.text).forEach(function (p) { out.push(p.toLowerCase()); });
    });
    return out;
  }
  function pairs(ls) {
    var out = [];
    for (var i = 0; i + 1 < ls.length; i++) out.push(ls[i] + " " + ls[i + 1]);
    return out;
  }
  function queryWords(text) {
    return words(text).map(function (w) { return w.text.toLowerCase(); });
  }

  // The query language of src/search/query.rs.
  function parse(text) {
    var q = { words: [], pairs: [], kinds: [], projects: [], categories: [], notes: [] };
    var rest = text, lastPlain = -1;
    for (;;) {
      rest = rest.replace(/^\s+/, "");
      if (!rest) break;
      if (rest[0] === '"') {
        var end = rest.indexOf('"', 1);
        var phrase = end < 0 ? rest.slice(1) : rest.slice(1, end);
        queryWords(phrase).forEach(function (w) { q.words.push({ text: w, prefix: false }); });
        q.pairs = q.pairs.concat(pairs(leaves(phrase)));
        lastPlain = -1;
        rest = end < 0 ? "" : rest.slice(end + 1);
        continue;
      }
      var m = /^[^\s"]+/.exec(rest), chunk = m[0];
      rest = rest.slice(chunk.length);
      var colon = chunk.indexOf(":");
      if (colon >= 0) {
        var field = chunk.slice(0, colon).toLowerCase(), value = chunk.slice(colon + 1);
        var list = field === "kind" ? q.kinds : field === "project" ? q.projects : field === "category" ? q.categories : null;
        if (list) {
          if (value) list.push(value.toLowerCase());
          else q.notes.push("`" + chunk.slice(0, colon) + ":` needs a value; it was left out");
          lastPlain = -1;
          continue;
        }
      }
      queryWords(chunk).forEach(function (w) { q.words.push({ text: w, prefix: false }); });
      lastPlain = q.words.length;
    }
    var typing = !/\s$/.test(text) && !/"$/.test(text);
    var last = q.words[q.words.length - 1];
    if (typing && lastPlain === q.words.length && last && Array.from(last.text).length >= 2) last.prefix = true;
    var seen = {};
    q.words = q.words.filter(function (w) {
      var k = w.text + (w.prefix ? "*" : "");
      return seen[k] ? false : (seen[k] = true);
    });
    if (q.words.length > MAX_WORDS) {
      q.notes.push("only the first " + MAX_WORDS + " of " + q.words.length + " words were used");
      q.words = q.words.slice(0, MAX_WORDS);
      q.words.forEach(function (w) { w.prefix = false; });
    }
    var empty = !q.words.length && !q.pairs.length && !q.kinds.length && !q.projects.length && !q.categories.length;
    if (empty && !q.notes.length && text.trim()) q.notes.push("the query has no letters or digits to search for");
    return q;
  }

  function withinOneEdit(a, b) {
    a = Array.from(a); b = Array.from(b);
    var s = a.length <= b.length ? a : b, l = a.length <= b.length ? b : a;
    if (l.length - s.length > 1) return false;
    var i = 0;
    while (i < s.length && s[i] === l[i]) i++;
    if (s.length === l.length && i + 1 < s.length && s[i] === l[i + 1] && s[i + 1] === l[i] &&
      s.slice(i + 2).join("") === l.slice(i + 2).join("")) return true;
    var x = s.slice(i + (s.length === l.length ? 1 : 0)).join(""), y = l.slice(i + 1).join("");
    return x === y;
  }

  // ---- the static index ----
  var root = (document.querySelector('meta[name="portolan-root"]') || {}).content || "/";
  var manifest = null, shards = {}, chunks = {}, facetsOf = null;

  function getJSON(url) {
    return fetch(url).then(function (r) {
      if (!r.ok) throw new Error(url + ": " + r.status);
      return r.json();
    });
  }
  // A failed download is forgotten, so the next query tries again.
  function cached(store, key, url, then) {
    if (!store[key]) {
      store[key] = getJSON(url).then(then || function (v) { return v; }).catch(function (e) { delete store[key]; throw e; });
    }
    return store[key];
  }
  var ready = false; // the index answered once: later queries need at most a shard or two
  function loadManifest() {
    if (!manifest) {
      manifest = getJSON(root + "search/manifest.json").then(function (m) {
        var expand = function (runs) {
          var out = [];
          runs.forEach(function (r) { for (var i = 0; i < r[1]; i++) out.push(r[0]); });
          return out;
        };
        facetsOf = { project: expand(m.project_runs), category: expand(m.category_runs) };
        return m;
      }).catch(function (e) { manifest = null; throw e; });
    }
    return manifest;
  }
  function startsWith(s, p) { return s.lastIndexOf(p, 0) === 0; }
  // The shard a text belongs to: the longest key it begins with.
  function shardFor(m, text) {
    var best = -1;
    m.shards.forEach(function (k, i) {
      if (startsWith(text, k) && (best < 0 || k.length > m.shards[best].length)) best = i;
    });
    return best;
  }
  // Every shard that may hold a text beginning with `prefix`.
  function shardsUnder(m, prefix) {
    var out = [];
    m.shards.forEach(function (k, i) { if (startsWith(k, prefix)) out.push(i); });
    var own = shardFor(m, prefix);
    if (own >= 0 && out.indexOf(own) < 0) out.push(own);
    return out;
  }
  function shard(m, i) {
    if (i < 0) return Promise.resolve({});
    return cached(shards, i, root + "search/t/" + m.shard_files[i] + ".json");
  }
  function shardsFor(m, list) {
    return Promise.all(list.map(function (i) { return shard(m, i); })).then(function (objs) {
      var all = {};
      objs.forEach(function (o) { for (var k in o) all[k] = o[k]; });
      return all;
    });
  }
  function chunk(m, i) {
    return cached(chunks, i, root + "search/d/" + m.doc_files[i] + ".json", expandChunk);
  }
  // A chunk as written (export.rs `chunk_json`): a title or anchor `[n, rest]` is the
  // previous document's first n characters and then rest; a context is an index into `c`.
  function expandChunk(c) {
    var title = "", anchor = "";
    var shared = function (previous, v) { return typeof v === "string" ? v : previous.slice(0, v[0]) + v[1]; };
    c.d = c.d.map(function (d) {
      title = shared(title, d[0]);
      anchor = shared(anchor, d[2]);
      return [title, d[1], anchor, c.c[d[3]], d[4]];
    });
    return c;
  }

  function scored(entries, prefix) {
    var out = [];
    for (var t in entries) {
      if (t.indexOf(" ") < 0 && t[0] !== "=" && startsWith(t, prefix)) out.push(t);
    }
    return out;
  }
  function mostFrequent(entries, terms, n) {
    return terms.sort(function (a, b) {
      return entries[b][0] - entries[a][0] || (a < b ? -1 : a > b ? 1 : 0);
    }).slice(0, n);
  }
  // A word's candidate terms with their factors (src/search/engine.rs `candidates`).
  function candidates(m, w) {
    var r = m.ranking, chars = Array.from(w.text), firstTwo = chars.slice(0, 2).join("");
    var fuzzy = chars.length >= r.fuzzy_min_chars;
    // The word's own shard first: a word of the index needs nothing else.
    return shardsFor(m, [shardFor(m, w.text)]).then(function (own) {
      if (own[w.text] && own[w.text][0] > 0) return { entries: own, terms: [[w.text, 1]] };
      var needs = [];
      if (w.prefix) needs = needs.concat(shardsUnder(m, w.text));
      if (fuzzy) needs = needs.concat(shardsUnder(m, firstTwo));
      return shardsFor(m, needs).then(function (e) {
        var out = [];
        if (w.prefix) {
          var longer = scored(e, w.text).filter(function (t) { return t !== w.text; });
          mostFrequent(e, longer, r.max_prefix).forEach(function (t) { out.push([t, r.prefix_factor]); });
        }
        if (fuzzy) {
          var near = scored(e, firstTwo).filter(function (t) {
            return withinOneEdit(t, w.text) && !out.some(function (o) { return o[0] === t; });
          });
          mostFrequent(e, near, r.max_fuzzy).forEach(function (t) { out.push([t, r.fuzzy_factor]); });
        }
        return { entries: e, terms: out };
      });
    });
  }
  // Postings are base-64 varints (src/search/export.rs `varints`): each number in groups
  // of 5 bits, lowest first, a character per group, plus 32 while more groups follow.
  var VARINT_DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  var VARINT_VALUE = {};
  for (var k = 0; k < VARINT_DIGITS.length; k++) VARINT_VALUE[VARINT_DIGITS.charAt(k)] = k;
  function numbers(text) {
    var out = [], n = 0, scale = 1;
    for (var i = 0; i < text.length; i++) {
      var d = VARINT_VALUE[text.charAt(i)];
      n += (d & 31) * scale;
      if (d & 32) scale *= 32;
      else { out.push(n); n = 0; scale = 1; }
    }
    return out;
  }
  // A term's entry is [frequency, postings]: id delta, score in hundredths, ….
  function wordScores(c) {
    var best = {};
    c.terms.forEach(function (tf) {
      var list = numbers(c.entries[tf[0]][1]), id = 0;
      for (var i = 0; i + 1 < list.length; i += 2) {
        id += list[i];
        var s = tf[1] * list[i + 1] / 100;
        if (!(id in best) || s > best[id]) best[id] = s;
      }
    });
    return best;
  }
  function idsOf(m, keys) {
    var needs = keys.map(function (k) { return shardFor(m, k[0] === "=" ? k.slice(1) : k); });
    return shardsFor(m, needs).then(function (e) {
      var set = {};
      keys.forEach(function (k) {
        var id = 0;
        numbers(e[k] || "").forEach(function (d) { id += d; set[id] = (set[id] || 0) + 1; });
      });
      return set;
    });
  }

  // The kinds a query names (src/search/engine.rs `named_kinds`): its `kind:` values and
  // its words written together.
  function namedKinds(q) {
    var out = q.kinds.slice();
    var joined = q.words.map(function (w) { return w.text; }).join("");
    if (joined && out.indexOf(joined) < 0) out.push(joined);
    return out;
  }
  // Ranks the documents for `q`: { hits: [{id, score}], total, anyWord }.
  function rank(q) {
    return loadManifest().then(function (m) {
      var jobs = q.words.map(function (w) { return candidates(m, w).then(wordScores); });
      var pairJob = q.pairs.length ? idsOf(m, q.pairs) : null;
      var kindJob = q.kinds.length ? idsOf(m, q.kinds.map(function (k) { return "=" + k; })) : null;
      var named = namedKinds(q);
      var nameJob = named.length ? idsOf(m, named.map(function (k) { return "=" + k; })) : null;
      return Promise.all([Promise.all(jobs), pairJob, kindJob, nameJob]).then(function (res) {
        var per = res[0], pairSet = res[1], kindSet = res[2], nameSet = res[3] || {};
        var pass = function (id) {
          if (pairSet && pairSet[id] !== q.pairs.length) return false;
          if (kindSet && !kindSet[id]) return false;
          var p = m.projects[facetsOf.project[id]], c = m.categories[facetsOf.category[id]];
          if (q.projects.length && q.projects.indexOf(p) < 0) return false;
          if (q.categories.length && q.categories.indexOf(c) < 0) return false;
          return true;
        };
        // Sums each document's word scores; with `all`, only documents with every word.
        var collect = function (all) {
          var scores = {}, counts = {}, hits = [], id;
          // Filters only: every document they keep scores 1.
          if (!per.length) for (id = 0; id < m.docs; id++) { scores[id] = 1; counts[id] = 0; }
          per.forEach(function (s) {
            for (var d in s) { scores[d] = (scores[d] || 0) + s[d]; counts[d] = (counts[d] || 0) + 1; }
          });
          for (id in scores) {
            if ((!all || counts[id] === per.length) && pass(+id)) {
              var category = m.categories[facetsOf.category[+id]];
              var weight = m.ranking.category_weights[category] || 1;
              if (category === "kind" && nameSet[id]) weight *= m.ranking.kind_name_factor;
              hits.push({ id: +id, score: scores[id] * weight });
            }
          }
          hits.sort(function (a, b) { return b.score - a.score || a.id - b.id; });
          return hits;
        };
        var hits = collect(true), anyWord = false;
        if (!hits.length && per.length > 1) { hits = collect(false); anyWord = hits.length > 0; }
        return { hits: hits, anyWord: anyWord, manifest: m };
      });
    });
  }
  // Titles, URLs and snippets of the first `n` hits.
  function describe(r, n) {
    var m = r.manifest, top = r.hits.slice(0, n);
    return Promise.all(top.map(function (h) { return chunk(m, Math.floor(h.id / m.chunk)); })).then(function (cs) {
      return top.map(function (h, i) {
        // A chunk lists its pages once: {p: [[url, title]], d: [[title, page, anchor, context, snippet]]}.
        var c = cs[i], d = c.d[h.id % m.chunk], p = c.p[d[1]];
        return {
          id: h.id, score: h.score, title: d[0], url: root + p[0] + (d[2] ? "#" + d[2] : ""), page: p[1], context: d[3], snippet: d[4],
          project: m.projects[facetsOf.project[h.id]], category: m.categories[facetsOf.category[h.id]]
        };
      });
    });
  }
  // The preview server answers from tantivy itself (`/api/search`, src/search/api.rs)
  // and says so with window.PORTOLAN_SEARCH_API; a static site uses the shards.
  function searchApi(api, text, n) {
    return getJSON(api + "?q=" + encodeURIComponent(text) + "&limit=" + n).then(function (r) {
      r.query = parse(text);
      ready = true;
      return r;
    });
  }
  function search(text, n) {
    if (window.PORTOLAN_SEARCH_API) return searchApi(window.PORTOLAN_SEARCH_API, text, n);
    var q = parse(text);
    if (!q.words.length && !q.pairs.length && !q.kinds.length && !q.projects.length && !q.categories.length) {
      return Promise.resolve({ results: [], total: 0, notes: q.notes, anyWord: false, facets: { project: {}, category: {} }, labels: {}, query: q });
    }
    return rank(q).then(function (r) {
      return describe(r, n).then(function (results) {
        var facets = { project: {}, category: {} };
        r.hits.forEach(function (h) {
          var p = r.manifest.projects[facetsOf.project[h.id]], c = r.manifest.categories[facetsOf.category[h.id]];
          facets.project[p] = (facets.project[p] || 0) + 1;
          facets.category[c] = (facets.category[c] || 0) + 1;
        });
        ready = true;
        return { results: results, total: r.hits.length, notes: q.notes, anyWord: r.anyWord, facets: facets, labels: r.manifest.category_labels || {}, query: q };
      });
    });
  }

  // ---- the page ----
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text != null) e.textContent = text;
    return e;
  }
  // Text with the words the query matches wrapped in <mark> (text nodes only: no HTML).
  function highlight(text, q) {
    var frag = document.createDocumentFragment(), at = 0;
    var match = function (w) {
      var candidates = [w.toLowerCase()].concat(parts(w).map(function (p) { return p.toLowerCase(); }));
      return q.words.some(function (qw) {
        return candidates.some(function (c) { return qw.prefix ? startsWith(c, qw.text) : c === qw.text; });
      });
    };
    words(text).forEach(function (w) {
      if (!match(w.text)) return;
      frag.appendChild(document.createTextNode(text.slice(at, w.at)));
      frag.appendChild(el("mark", null, w.text));
      at = w.at + w.text.length;
    });
    frag.appendChild(document.createTextNode(text.slice(at)));
    return frag;
  }
  function label(labels, category) { return (labels && labels[category]) || category; }
  // Results grouped by the page they are on, in the order of each page's best result:
  // [{ url, title, project, lead: the page's own result or null, rows: [results] }].
  function byPage(results) {
    var groups = [], seen = {};
    results.forEach(function (r) {
      var url = r.url.split("#")[0], g = seen[url];
      if (!g) {
        g = seen[url] = { url: url, title: r.page || r.title, project: r.project, lead: null, rows: [] };
        groups.push(g);
      }
      if (r.url === url && !g.lead) g.lead = r; else g.rows.push(r);
    });
    return groups;
  }
  // One result. A page's own result leads its group (title, what it is, snippet); a row
  // under it says where on the page it is (the section above it).
  function resultItem(r, q, labels, lead) {
    var li = el("li", "result " + (lead ? "result-page" : "result-row"));
    var a = el("a");
    a.href = r.url;
    a.appendChild(highlight(r.title, q));
    li.appendChild(a);
    var where = lead
      ? label(labels, r.category) + (r.project ? " · " + r.project : "")
      : label(labels, r.category) + (r.context ? " · " + r.context : "");
    li.appendChild(el("span", "result-meta", where));
    if (r.snippet && r.snippet !== r.title) {
      var p = el("span", "result-snippet");
      p.appendChild(highlight(r.snippet, q));
      li.appendChild(p);
    }
    return li;
  }
  // A group's heading when the page itself is not a result: its title, linked.
  function groupTitle(g, q) {
    var li = el("li", "group-title");
    var a = el("a");
    a.href = g.url;
    a.appendChild(highlight(g.title, q));
    li.appendChild(a);
    if (g.project) li.appendChild(el("span", "result-meta", g.project));
    return li;
  }
  // The items of each group, in order: its heading or lead result, then its rows.
  function groupItems(g, q, labels) {
    var out = [g.lead ? resultItem(g.lead, q, labels, true) : groupTitle(g, q)];
    g.rows.forEach(function (r) { out.push(resultItem(r, q, labels, false)); });
    return out;
  }

  // The box in every page's header: results as you type, arrows and Enter, `/` focuses.
  function enhanceBox(form) {
    var input = form.querySelector("input[type=search]");
    if (!input) return;
    var list = el("ul", "search-dropdown");
    list.id = "search-dropdown";
    list.setAttribute("role", "listbox");
    list.setAttribute("aria-label", "Search results");
    list.hidden = true;
    form.appendChild(list);
    input.setAttribute("aria-controls", list.id);
    input.setAttribute("aria-autocomplete", "list");
    var selected = -1, seq = 0;
    var items = function () { return list.querySelectorAll("li.result"); };
    var select = function (i) {
      var all = items();
      if (!all.length) return;
      selected = (i + all.length) % all.length;
      all.forEach(function (li, j) { li.setAttribute("aria-selected", j === selected ? "true" : "false"); });
      all[selected].scrollIntoView({ block: "nearest" });
    };
    var say = function (cls, text) {
      list.textContent = "";
      list.appendChild(el("li", cls, text));
      list.hidden = false;
    };
    input.addEventListener("input", function () {
      var text = input.value, mine = ++seq;
      if (!text.trim()) { list.hidden = true; list.textContent = ""; return; }
      // The first query downloads the index: say so at once; later ones only when slow.
      var slow = setTimeout(function () {
        if (mine === seq) say("empty search-loading", ready ? "Searching…" : "Loading the search index…");
      }, ready ? 300 : 0);
      search(text, 8).then(function (res) {
        clearTimeout(slow);
        if (mine !== seq) return;
        list.textContent = "";
        selected = -1;
        byPage(res.results).forEach(function (g) {
          groupItems(g, res.query, res.labels).forEach(function (li) {
            li.setAttribute("role", li.classList.contains("result") ? "option" : "presentation");
            list.appendChild(li);
          });
        });
        if (!res.results.length) list.appendChild(el("li", "empty", res.notes[0] || "No results for “" + text.trim() + "”"));
        list.hidden = false;
      }).catch(function (e) {
        clearTimeout(slow);
        if (mine !== seq) return;
        say("empty search-error", "Search is unavailable: " + e.message);
      });
    });
    input.addEventListener("keydown", function (e) {
      if (e.key === "ArrowDown") { select(selected + 1); e.preventDefault(); }
      else if (e.key === "ArrowUp") { select(selected - 1); e.preventDefault(); }
      else if (e.key === "Escape") { list.hidden = true; }
      else if (e.key === "Enter" && selected >= 0) {
        var a = items()[selected].querySelector("a");
        if (a) { e.preventDefault(); location.href = a.href; }
      }
    });
    document.addEventListener("click", function (e) { if (!form.contains(e.target)) list.hidden = true; });
  }

  // The full search page: results grouped by page, with facets, kept in the URL
  // (?q=&project=&category=); a loading, an error and a no-results state.
  function searchPage(box) {
    var form = box.querySelector("form"), input = form.querySelector("input[type=search]");
    var status = box.querySelector("#search-status"), facetsBox = box.querySelector("#search-facets");
    var out = box.querySelector("#search-results");
    var params = new URLSearchParams(location.search);
    var chosen = { project: params.get("project") || "", category: params.get("category") || "" };
    input.value = params.get("q") || "";
    var seq = 0, shown = PAGE;
    var more = el("button", "more", "Show more results");
    more.type = "button";
    more.hidden = true;
    out.parentNode.insertBefore(more, out.nextSibling);
    more.addEventListener("click", function () { shown += PAGE; run(true); });
    var setStatus = function (state, text) {
      status.className = state ? "search-" + state : "";
      status.textContent = text;
      out.setAttribute("aria-busy", state === "loading" ? "true" : "false");
    };
    var facetButton = function (f, name, text, pressed) {
      var b = el("button", "facet-value", text);
      b.type = "button";
      b.setAttribute("aria-pressed", pressed ? "true" : "false");
      b.addEventListener("click", function () { chosen[f] = chosen[f] === name ? "" : name; run(); });
      return b;
    };
    var showFacets = function (res) {
      facetsBox.textContent = "";
      ["project", "category"].forEach(function (f) {
        var counts = res.facets[f] || {};
        // Pages about the whole portal (kinds, platform) have no project: no filter
        // selects them, and the category facet counts them already.
        var names = Object.keys(counts).filter(function (n) { return n; });
        var name = function (n) { return f === "category" ? label(res.labels, n) : n; };
        names.sort(function (a, b) { return counts[b] - counts[a] || (name(a) < name(b) ? -1 : 1); });
        if (chosen[f] && names.indexOf(chosen[f]) < 0) names.unshift(chosen[f]);
        if (!names.length) return;
        var group = el("div", "facet");
        group.appendChild(el("span", "facet-name", f === "project" ? "Project" : "Category"));
        names.forEach(function (n) {
          group.appendChild(facetButton(f, n, name(n) + " (" + (counts[n] || 0) + ")", chosen[f] === n));
        });
        facetsBox.appendChild(group);
      });
    };
    // No result: say so where the results go, with what to try.
    var noResults = function (text) {
      var li = el("li", "no-results");
      li.appendChild(el("p", null, "No results for “" + text.trim() + "”" + (chosen.project || chosen.category ? " with the filters chosen." : ".")));
      if (chosen.project || chosen.category) {
        var all = el("button", "more", "Search without filters");
        all.type = "button";
        all.addEventListener("click", function () { chosen.project = ""; chosen.category = ""; run(); });
        li.appendChild(all);
      } else {
        li.appendChild(el("p", "meta", "Every word must match (a word of five letters or more may have one typo). Try fewer or other words, a kind's name, or part of a name: the last word also matches as a prefix."));
      }
      out.appendChild(li);
    };
    var run = function (keep) {
      if (keep !== true) shown = PAGE;
      var text = input.value, mine = ++seq;
      var full = text;
      if (chosen.project) full += " project:" + chosen.project;
      if (chosen.category) full += " category:" + chosen.category;
      var url = new URL(location.href);
      if (text) url.searchParams.set("q", text); else url.searchParams.delete("q");
      ["project", "category"].forEach(function (f) {
        if (chosen[f]) url.searchParams.set(f, chosen[f]); else url.searchParams.delete(f);
      });
      if (url.href !== location.href) history.replaceState(null, "", url);
      if (!text.trim()) {
        setStatus("", "Type to search every project, kind, controller, route, flag and value.");
        out.textContent = ""; facetsBox.textContent = ""; more.hidden = true;
        return;
      }
      // The first query downloads the index: say so at once; later ones only when slow.
      var slow = setTimeout(function () {
        if (mine === seq) setStatus("loading", ready ? "Searching…" : "Loading the search index…");
      }, ready ? 300 : 0);
      search(/\s$/.test(text) ? full + " " : full, shown).then(function (res) {
        clearTimeout(slow);
        if (mine !== seq) return;
        out.textContent = "";
        byPage(res.results).forEach(function (g) {
          var li = el("li", "result-group"), list = el("ul", "group-items");
          groupItems(g, res.query, res.labels).forEach(function (item) { list.appendChild(item); });
          li.appendChild(list);
          out.appendChild(li);
        });
        var notes = res.notes.slice();
        if (res.anyWord) notes.push("no result has every word; these have some of them");
        more.hidden = res.total <= res.results.length;
        var count = res.total ? res.total + (res.total === 1 ? " result" : " results") : "No results";
        setStatus(res.total ? "" : "empty", count + (notes.length ? ". " + notes.join("; ") : ""));
        if (!res.total) noResults(text);
        showFacets(res);
      }).catch(function (e) {
        clearTimeout(slow);
        if (mine !== seq) return;
        out.textContent = ""; facetsBox.textContent = ""; more.hidden = true;
        setStatus("error", "Search is unavailable: " + e.message + ". Check the connection and search again.");
      });
    };
    form.addEventListener("submit", function (e) { e.preventDefault(); run(); });
    input.addEventListener("input", run);
    run();
  }

  window.portolanSearch = { tokenize: tokenize, leaves: leaves, pairs: pairs, parse: parse, search: search, withinOneEdit: withinOneEdit };

  function start() {
    var header = document.querySelector("form.site-search");
    if (header) enhanceBox(header);
    var page = document.getElementById("search-page");
    if (page) searchPage(page);
    document.addEventListener("keydown", function (e) {
      if (e.key !== "/" || e.ctrlKey || e.metaKey || e.altKey) return;
      var t = e.target, tag = t && t.tagName;
      if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || (t && t.isContentEditable)) return;
      var input = document.querySelector("#search-page input[type=search]") || document.querySelector("form.site-search input[type=search]");
      if (input) { e.preventDefault(); input.focus(); input.select(); }
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
