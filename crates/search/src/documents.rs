//! Search documents, read from the rendered pages: one per page, one per table row of the
//! tables a template marks with `data-search="CATEGORY"`, and one per heading so marked
//! (a controller: its name and what its section's tables say).
//!
//! Reading the pages rather than the model means a result's URL is the page and row
//! anchor that was actually rendered (so it always resolves, and `check` verifies it),
//! and a theme decides what is searchable. The HTML is portolan's own template output, so
//! a small scanner is enough; it never fails, whatever the input.

use serde::Serialize;

use render::OutputFile;

/// One search document.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Document {
    pub title: String,
    /// Everything else the document says, searched with a lower weight than the title.
    pub body: String,
    /// The project's name, or empty for pages about the whole portal.
    pub project: String,
    pub category: String,
    /// Site-relative URL (no base path), with the row's `#anchor` for rows.
    pub url: String,
    /// The title of the page the document is on (its own title for a page): results are
    /// grouped under it.
    pub page: String,
    /// Where on its page a row sits: the section heading above it (empty for pages and
    /// marked headings).
    pub context: String,
    /// The first words of the body, shown under the title.
    pub snippet: String,
    /// Kubernetes kinds the document links to (`kind:` queries), as `Kind` names.
    pub kinds: Vec<String>,
}

/// Snippets are cut to this many characters.
const SNIPPET_CHARS: usize = 160;

/// The documents of every HTML page of the site (except the 404 and search pages), in
/// path order. `root` is the site's base path (`/` or `/atlas/`), used to recognize links
/// to kind pages.
///
/// Each URL is one document, and a row that says exactly what an earlier row of the same
/// page and section says (a field of a CRD's second, identical variant; for CRD fields,
/// of any earlier version) is left out: a reader would see the same result twice.
#[cfg(test)]
pub fn collect(files: &[OutputFile], root: &str) -> Vec<Document> {
    let mut pages: Vec<&OutputFile> = files.iter().filter(|f| is_page(&f.path)).collect();
    pages.sort_by(|a, b| a.path.cmp(&b.path));
    let mut out = Vec::new();
    let mut urls = std::collections::HashSet::new();
    for file in pages {
        out.extend(page_documents(file, root, &mut urls));
    }
    out
}

/// Whether a site file is a page with documents (not the search page itself).
pub fn is_page(path: &str) -> bool {
    path.ends_with("index.html") && path != "search/index.html"
}

/// The documents of one page, leaving out any whose URL is in `urls` (and adding theirs).
pub fn page_documents(
    file: &OutputFile,
    root: &str,
    urls: &mut std::collections::HashSet<String>,
) -> Vec<Document> {
    let html = String::from_utf8_lossy(&file.bytes);
    let url = file.path.trim_end_matches("index.html").to_string();
    let mut docs = Vec::new();
    read_page(&html, &url, root, &mut docs);
    let mut said = std::collections::HashSet::new();
    docs.into_iter()
        .filter(|d| {
            // A CRD field that reads the same in another version of the page is the same
            // answer: one document (the first version shown, the storage version), not
            // one per version. A field that changed between versions stays apart.
            let context = if d.category == "crd-field" {
                String::new()
            } else {
                d.context.clone()
            };
            said.insert((d.title.clone(), d.category.clone(), context, d.body.clone()))
                && urls.insert(d.url.clone())
        })
        .collect()
}

/// What a page is, from its URL: its project and category.
fn classify(url: &str) -> (String, &'static str) {
    let parts: Vec<&str> = url.split('/').filter(|s| !s.is_empty()).collect();
    match parts.as_slice() {
        ["kinds", _, _] => (String::new(), "kind"),
        // A bundled kind's shared reference.
        ["kinds", _, _, _] => (String::new(), "api"),
        ["projects", p, "api", _, _] => (p.to_string(), "api"),
        ["projects", p, "docs", ..] => (p.to_string(), "doc"),
        ["projects", p, ..] => (p.to_string(), "page"),
        _ => (String::new(), "page"),
    }
}

/// The category of a row of a table marked `data-search="NAME"`: the name, with section
/// ids of generic tables folded into one category (`values-CHART` → `helm-value`).
fn row_category(name: &str) -> String {
    if name.starts_with("values-") {
        return "helm-value".into();
    }
    match name {
        "configmaps" => "configmap",
        "services" => "service",
        "webhooks" => "webhook",
        "roles" | "role-bindings" | "service-accounts" => "rbac",
        other => other,
    }
    .into()
}

/// What a category is called where people read it (the search page's facets, a
/// result's line): `rbac-versus-code` → `RBAC versus code`. The id stays what
/// `category:` and `--category` take.
pub fn category_label(id: &str) -> String {
    let named = match id {
        "kind" => "Kinds",
        "page" => "Pages",
        "doc" => "Docs",
        "api" => "API reference",
        "controller" => "Controllers",
        "watch" => "Watches",
        "write" => "Writes",
        "read" => "Reads",
        "informer" => "Informers",
        "endpoint" => "Endpoints",
        "webhook" => "Webhooks",
        "crd" => "CRDs",
        "crd-field" => "CRD fields",
        "flag" => "Flags",
        "env" => "Environment variables",
        "metric" => "Metrics",
        "configmap" => "ConfigMaps",
        "service" => "Services",
        "helm-value" => "Helm values",
        "helm-chart" => "Helm charts",
        "rbac" => "RBAC",
        "command" => "Commands",
        _ => "",
    };
    if !named.is_empty() {
        return named.into();
    }
    // Section ids of generic tables: words, with the usual capitals.
    let words: Vec<String> = id
        .split(['-', '_'])
        .filter(|w| !w.is_empty())
        .enumerate()
        .map(|(i, w)| match w {
            "rbac" | "crd" | "api" | "tls" | "http" | "url" | "dns" | "id" | "cpu" | "gpu" => {
                w.to_uppercase()
            }
            "crds" => "CRDs".into(),
            "configmap" => "ConfigMap".into(),
            "configmaps" => "ConfigMaps".into(),
            "grpc" => "gRPC".into(),
            _ if i == 0 => {
                let mut chars = w.chars();
                chars
                    .next()
                    .map(|c| c.to_uppercase().chain(chars).collect())
                    .unwrap_or_default()
            }
            _ => w.to_string(),
        })
        .collect();
    if words.is_empty() {
        id.to_string()
    } else {
        words.join(" ")
    }
}

#[derive(Default)]
struct Row {
    anchor: String,
    cells: Vec<String>,
    kinds: Vec<String>,
    cell: Option<String>,
    skip_cell: bool,
}

/// Reads one page: its title (the `<h1>`), its text, and its searchable rows.
fn read_page(html: &str, url: &str, root: &str, out: &mut Vec<Document>) {
    let (project, category) = classify(url);
    let Some(main) = main_of(html) else {
        return;
    };
    let mut reader = Reader::new(format!("{root}kinds/"));
    for event in scan(main) {
        reader.event(event);
    }
    let page = reader.page;
    if page.title.is_empty() {
        return;
    }
    out.push(page_document(&page, url, &project, category));
    // Rows of the cross-project pages repeat the projects' own rows: index them once.
    if project.is_empty() {
        return;
    }
    out.extend(section_documents(&page, url, &project));
    for (category, section, r) in page.rows {
        out.extend(row_document(
            &page.title,
            url,
            &project,
            category,
            section,
            r,
        ));
    }
}

/// What a page's `<main>` says, as [`Reader`] collects it.
#[derive(Default)]
struct Page {
    title: String,
    body: String,
    /// Where the body's text after the `<h1>` starts.
    after_title: usize,
    /// Headings marked `data-search`: (category, anchor, text, the rows under it).
    sections: Vec<(String, String, String, Vec<usize>)>,
    /// The rows of marked tables: (category, the section heading above, the row).
    rows: Vec<(String, String, Row)>,
    /// Kinds the page links to outside rows.
    kinds: Vec<String>,
}

/// Reads a page's `<main>` event by event into a [`Page`].
struct Reader<'h> {
    /// `ROOT/kinds/`: links to kind pages start with it.
    kinds_prefix: String,
    page: Page,
    heading: Option<(u8, String)>,
    /// The open heading's `data-search` category and id, if it is marked.
    marked: Option<(String, String)>,
    /// The marked heading whose rows are being read.
    open_section: Option<usize>,
    /// The text of the last heading below the title.
    section: String,
    table: Option<String>,
    row: Option<Row>,
    /// The skipped element being read past (its tag name) and how many elements of the
    /// same name are open inside it.
    skipping: Option<(&'h str, usize)>,
    in_permalink: bool,
}

impl<'h> Reader<'h> {
    fn new(kinds_prefix: String) -> Reader<'h> {
        Reader {
            kinds_prefix,
            page: Page::default(),
            heading: None,
            marked: None,
            open_section: None,
            section: String::new(),
            table: None,
            row: None,
            skipping: None,
            in_permalink: false,
        }
    }

    fn event(&mut self, event: Event<'h>) {
        match event {
            Event::Open {
                name,
                attrs,
                closed,
            } => self.open(name, attrs, closed),
            Event::Close { name } => self.close(name),
            Event::Text(text) => {
                if self.skipping.is_some() || self.in_permalink {
                    return;
                }
                let text = decode(text);
                push_text(&mut self.row, &mut self.heading, &mut self.page.body, &text);
            }
        }
    }

    fn open(&mut self, name: &'h str, attrs: &str, closed: bool) {
        let empty = closed || is_void(name);
        if let Some((open, depth)) = self.skipping.as_mut() {
            if *open == name && !empty {
                *depth += 1;
            }
            return;
        }
        if skipped(name, attrs) {
            if !empty {
                self.skipping = Some((name, 0));
            }
            return;
        }
        match name {
            "h1" | "h2" | "h3" => {
                self.heading = Some((name.as_bytes()[1], String::new()));
                self.marked = attr(attrs, "data-search").zip(attr(attrs, "id"));
            }
            "table" => self.table = attr(attrs, "data-search").map(|c| row_category(&c)),
            "tr" if self.table.is_some() => {
                self.row = attr(attrs, "id").map(|anchor| Row {
                    anchor,
                    ..Row::default()
                })
            }
            "td" => {
                if let Some(r) = self.row.as_mut() {
                    r.skip_cell = attr(attrs, "class").as_deref() == Some("permalink");
                    r.cell = Some(String::new());
                }
            }
            "a" => {
                self.in_permalink = attr(attrs, "class").as_deref() == Some("permalink");
                if let Some(kind) = attr(attrs, "href")
                    .and_then(|h| h.strip_prefix(&self.kinds_prefix).map(kind_of_link))
                    .flatten()
                {
                    match self.row.as_mut() {
                        Some(r) => push_unique(&mut r.kinds, kind),
                        None => push_unique(&mut self.page.kinds, kind),
                    }
                }
            }
            // A line break inside a cell ends the cell's first line (its name).
            "br" => push_text(&mut self.row, &mut self.heading, &mut self.page.body, "\n"),
            _ => {}
        }
    }

    fn close(&mut self, name: &str) {
        if let Some((open, depth)) = self.skipping.as_mut() {
            if *open == name {
                match depth.checked_sub(1) {
                    Some(d) => *depth = d,
                    None => self.skipping = None,
                }
            }
            return;
        }
        match name {
            "h1" | "h2" | "h3" => self.close_heading(),
            "a" => self.in_permalink = false,
            "td" => {
                if let Some(r) = self.row.as_mut()
                    && let Some(cell) = r.cell.take()
                    && !r.skip_cell
                {
                    r.cells.push(cell);
                }
            }
            "tr" => self.close_row(),
            "table" => self.table = None,
            "p" | "li" | "div" | "dd" | "dt" | "th" | "pre" => {
                push_text(&mut self.row, &mut self.heading, &mut self.page.body, " ")
            }
            _ => {}
        }
    }

    /// Keeps the row just read if it is in a marked table, under the marked heading above.
    fn close_row(&mut self) {
        let (Some(r), Some(cat)) = (self.row.take(), self.table.as_ref()) else {
            return;
        };
        if let Some(members) = self
            .open_section
            .and_then(|i| self.page.sections.get_mut(i))
        {
            members.3.push(self.page.rows.len());
        }
        self.page.rows.push((cat.clone(), self.section.clone(), r));
    }

    /// The page's title (its first `<h1>`) or a section heading.
    fn close_heading(&mut self) {
        let Some((level, text)) = self.heading.take() else {
            return;
        };
        let page = &mut self.page;
        let text = squash(&text);
        let is_title = level == b'1' && page.title.is_empty();
        if is_title {
            page.title = text.clone();
        } else {
            self.section = text.clone();
        }
        // Any heading ends the section of the one before.
        self.open_section = self.marked.take().map(|(category, id)| {
            page.sections.push((category, id, text.clone(), Vec::new()));
            page.sections.len() - 1
        });
        append(&mut page.body, &text);
        if is_title {
            page.after_title = page.body.len();
        }
    }
}

/// The document of the page itself.
fn page_document(page: &Page, url: &str, project: &str, category: &str) -> Document {
    // The snippet starts after the title, which the result shows already.
    let snippet = cut(&squash(&page.body[page.after_title..]), SNIPPET_CHARS);
    let body = squash(&page.body);
    let kinds = if category == "kind" {
        // A kind page is about its own kind, whatever else it links to.
        url.trim_end_matches('/')
            .rsplit('/')
            .next()
            .map(|k| vec![k.to_string()])
            .unwrap_or_default()
    } else {
        page.kinds.clone()
    };
    Document {
        title: page.title.clone(),
        body,
        project: project.to_string(),
        category: category.into(),
        url: url.into(),
        page: page.title.clone(),
        context: String::new(),
        snippet,
        kinds,
    }
}

/// One document per marked heading: what the rows of its section say.
fn section_documents(page: &Page, url: &str, project: &str) -> Vec<Document> {
    let mut out = Vec::new();
    for (category, id, heading_text, members) in &page.sections {
        let said: Vec<String> = members
            .iter()
            .filter_map(|&i| page.rows.get(i))
            .map(|(_, _, r)| squash(&r.cells.join(" ")))
            .collect();
        let body = said.join(" · ");
        out.push(Document {
            title: heading_text.clone(),
            body: body.clone(),
            project: project.to_string(),
            category: category.clone(),
            url: format!("{url}#{id}"),
            page: page.title.clone(),
            context: String::new(),
            snippet: cut(&body, SNIPPET_CHARS),
            kinds: members
                .iter()
                .filter_map(|&i| page.rows.get(i))
                .flat_map(|(_, _, r)| r.kinds.iter().cloned())
                .fold(Vec::new(), |mut acc, k| {
                    push_unique(&mut acc, k);
                    acc
                }),
        });
    }
    out
}

/// The document of one row of a marked table under `section`, on the page titled
/// `page_title`; none for a row whose cells are all empty.
fn row_document(
    page_title: &str,
    url: &str,
    project: &str,
    category: String,
    section: String,
    r: Row,
) -> Option<Document> {
    // Each non-empty cell as its first line and the rest.
    let split: Vec<(String, String)> = r
        .cells
        .iter()
        .filter_map(|c| {
            let c = c.trim_start();
            let (line, rest) = c.split_once('\n').unwrap_or((c, ""));
            let line = squash(line);
            (!line.is_empty()).then(|| (line, squash(rest)))
        })
        .collect();
    let text = r
        .cells
        .iter()
        .map(|c| squash(c))
        .filter(|c| !c.is_empty())
        .collect::<Vec<_>>()
        .join(" · ");
    // The row's name: the first line of its first cell, and of the second when the
    // row has more (a verb and its kind, a flag and its type). A CRD field's name is
    // its path (the first cell's last line): `storageUri` is a field of many objects,
    // `spec.predictor.model.storageUri` one of them.
    let (first, _) = split.first()?;
    let field_path = r
        .cells
        .first()
        .filter(|_| category == "crd-field")
        .and_then(|c| c.split('\n').map(squash).rfind(|l| !l.is_empty()))
        .filter(|path| path != first);
    let (row_title, named) = match (&field_path, split.get(1)) {
        (Some(path), _) => (path.clone(), 1),
        (None, Some((second, _))) if split.len() > 2 => (format!("{first} {second}"), 2),
        _ => (first.clone(), 1),
    };
    // The snippet says what the title does not: of a field's first cell, what
    // follows its name (`required`; the path is the title), or the rest of the cells
    // the title is made of; then the other cells.
    let snippet = split
        .iter()
        .enumerate()
        .flat_map(|(i, (line, rest))| match (&field_path, i) {
            (Some(path), 0) => {
                let name = path.rsplit('.').next().unwrap_or_default();
                [line.strip_prefix(name).unwrap_or(line).trim_start(), ""]
            }
            _ if i < named => ["", rest.as_str()],
            _ => [line.as_str(), rest.as_str()],
        })
        .filter(|part| !part.is_empty())
        .collect::<Vec<_>>()
        .join(" · ");
    // The section above a row names its controller or binary; above a CRD field it
    // is the version, which every field shares: left out, it would only make
    // "version" and "served" match thousands of fields.
    let body = if category == "crd-field" {
        text.clone()
    } else {
        format!("{text} {section}")
    };
    Some(Document {
        title: row_title,
        body,
        project: project.to_string(),
        category,
        url: format!("{url}#{}", r.anchor),
        page: page_title.to_string(),
        context: section,
        snippet: cut(&snippet, SNIPPET_CHARS),
        kinds: r.kinds,
    })
}

fn push_unique(list: &mut Vec<String>, value: String) {
    if !list.contains(&value) {
        list.push(value);
    }
}

/// `GROUP/KIND/…` of a kind page link → `KIND`.
fn kind_of_link(rest: &str) -> Option<String> {
    let mut parts = rest.split(['/', '#']);
    let _group = parts.next().filter(|g| !g.is_empty())?;
    let kind = parts.next().filter(|k| !k.is_empty())?;
    Some(kind.to_string())
}

/// Sends text to where it belongs: the open heading, the open row cell, or the page body.
fn push_text(
    row: &mut Option<Row>,
    heading: &mut Option<(u8, String)>,
    body: &mut String,
    text: &str,
) {
    if let Some((_, h)) = heading.as_mut() {
        h.push_str(text);
        return;
    }
    match row.as_mut() {
        Some(Row {
            cell: Some(cell), ..
        }) => cell.push_str(text),
        Some(_) => {}
        None => body.push_str(text),
    }
}

fn append(body: &mut String, text: &str) {
    body.push(' ');
    body.push_str(text);
    body.push(' ');
}

/// Whether an element's text is left out of the documents: diagrams, scripts, the mermaid
/// source blocks, and the page's chrome, which says the same on every page (navigation,
/// sidebars, tables of contents, breadcrumbs, headers and footers). Themes mark anything
/// else with `data-nosearch`.
fn skipped(name: &str, attrs: &str) -> bool {
    let classes = attr(attrs, "class").unwrap_or_default();
    let has_class = |c: &str| classes.split_whitespace().any(|x| x == c);
    match name {
        "svg" | "script" | "style" | "template" | "nav" | "aside" | "header" | "footer" => true,
        "details" if has_class("mermaid-source") => true,
        _ => has_attr(attrs, "data-nosearch") || has_class("crumbs") || has_class("breadcrumbs"),
    }
}

/// Whether a tag's attribute text has attribute `name`, with or without a value.
fn has_attr(attrs: &str, name: &str) -> bool {
    let mut rest = attrs;
    while let Some(i) = rest.find(name) {
        let before_ok = i == 0 || rest.as_bytes()[i - 1].is_ascii_whitespace();
        let after = &rest[i + name.len()..];
        let after_ok = after
            .chars()
            .next()
            .is_none_or(|c| c == '=' || c == '/' || c.is_whitespace());
        if before_ok && after_ok {
            return true;
        }
        rest = after;
    }
    false
}

/// Tags that never have a closing tag: inside a skipped element they open nothing.
fn is_void(name: &str) -> bool {
    matches!(
        name,
        "area"
            | "base"
            | "br"
            | "col"
            | "embed"
            | "hr"
            | "img"
            | "input"
            | "link"
            | "meta"
            | "source"
            | "track"
            | "wbr"
    )
}

/// Whitespace runs as one space, trimmed; the ¶ of permalinks dropped.
fn squash(text: &str) -> String {
    text.split_whitespace()
        .filter(|w| *w != "¶")
        .collect::<Vec<_>>()
        .join(" ")
}

/// At most `n` characters of `text`, cut at a word boundary, with `…` when cut.
pub fn cut(text: &str, n: usize) -> String {
    if text.chars().count() <= n {
        return text.to_string();
    }
    let end = text.char_indices().nth(n).map_or(text.len(), |(i, _)| i);
    let head = &text[..end];
    let head = head.rfind(' ').map_or(head, |i| &head[..i]);
    format!("{head}…")
}

/// What the page's `<main>` element holds (`<main>` or `<main …attributes>`), up to its
/// last `</main>`.
fn main_of(html: &str) -> Option<&str> {
    let mut from = 0;
    let start = loop {
        let i = html[from..].find("<main")? + from + "<main".len();
        match html[i..].chars().next() {
            Some('>') => break i + 1,
            Some(c) if c.is_whitespace() => break i + html[i..].find('>')? + 1,
            _ => from = i,
        }
    };
    let end = html[start..].rfind("</main>")? + start;
    Some(&html[start..end])
}

enum Event<'a> {
    /// `closed`: written `<tag … />`, so nothing is inside it.
    Open {
        name: &'a str,
        attrs: &'a str,
        closed: bool,
    },
    Close {
        name: &'a str,
    },
    Text(&'a str),
}

/// Tags and text of an HTML fragment; comments and doctypes are dropped. Text inside
/// `<script>` and `<style>` is returned as text, and the caller skips it.
fn scan(html: &str) -> impl Iterator<Item = Event<'_>> {
    let mut rest = html;
    std::iter::from_fn(move || {
        loop {
            if rest.is_empty() {
                return None;
            }
            let Some(lt) = rest.find('<') else {
                let text = rest;
                rest = "";
                return Some(Event::Text(text));
            };
            if lt > 0 {
                let text = &rest[..lt];
                rest = &rest[lt..];
                return Some(Event::Text(text));
            }
            if let Some(after) = rest.strip_prefix("<!--") {
                rest = after.find("-->").map_or("", |i| &after[i + 3..]);
                continue;
            }
            let Some(gt) = rest.find('>') else {
                rest = "";
                return None;
            };
            let tag = &rest[1..gt];
            rest = &rest[gt + 1..];
            if let Some(name) = tag.strip_prefix('/') {
                return Some(Event::Close { name: name.trim() });
            }
            if tag.starts_with('!') || tag.starts_with('?') {
                continue;
            }
            let closed = tag.ends_with('/');
            let tag = tag.trim_end_matches('/');
            let (name, attrs) = tag.split_once(char::is_whitespace).unwrap_or((tag, ""));
            return Some(Event::Open {
                name,
                attrs,
                closed,
            });
        }
    })
}

/// The decoded value of attribute `name` in a tag's attribute text (double-quoted, as
/// templates write them).
fn attr(attrs: &str, name: &str) -> Option<String> {
    let mut rest = attrs;
    while let Some(i) = rest.find(name) {
        let before_ok = i == 0 || rest.as_bytes()[i - 1].is_ascii_whitespace();
        let after = &rest[i + name.len()..];
        if before_ok && let Some(value) = after.strip_prefix("=\"") {
            let end = value.find('"')?;
            return Some(decode(&value[..end]));
        }
        rest = after;
    }
    None
}

/// HTML character references as tera and ammonia write them.
fn decode(text: &str) -> String {
    if !text.contains('&') {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find('&') {
        out.push_str(&rest[..i]);
        rest = &rest[i..];
        let Some(end) = rest.bytes().take(12).position(|b| b == b';') else {
            out.push('&');
            rest = &rest[1..];
            continue;
        };
        let entity = &rest[1..end];
        let c = match entity {
            "amp" => Some('&'),
            "lt" => Some('<'),
            "gt" => Some('>'),
            "quot" => Some('"'),
            "apos" => Some('\''),
            "nbsp" => Some(' '),
            _ => entity
                .strip_prefix("#x")
                .or_else(|| entity.strip_prefix("#X"))
                .and_then(|h| u32::from_str_radix(h, 16).ok())
                .or_else(|| entity.strip_prefix('#').and_then(|d| d.parse().ok()))
                .and_then(char::from_u32),
        };
        match c {
            Some(c) => {
                out.push(c);
                rest = &rest[end + 1..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests;
