//! Generic tables for the manifest pages: cells that may link, rows with anchors and
//! source links, and sections that keep a project's own rows apart from rows of samples
//! and tooling and from bundled dependency manifests.
//!
//! Templates render these with `sections.html` and `table_rows.html`; every string stays
//! plain text for tera's autoescaping, and a cell's newlines are kept by the stylesheet.

use std::collections::BTreeMap;

use serde::Serialize;

use model::{Area, CallStep, Project, SourceRef};
use source::line_url;

/// One table cell: text, and a link when the text names something with a page or row.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct Cell {
    pub text: String,
    /// Empty when the cell links nowhere.
    pub url: String,
    /// When set, the cell shows these items one per line instead of `text`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub items: Vec<Cell>,
    /// A name that reads as one word (`llm-d-inference-scheduler`): never broken at its
    /// hyphens.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub nowrap: bool,
    /// What goes between `items` (a call path's ` → `); empty: one item per line.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub sep: String,
    /// When set, the items are collapsed behind a `<details>` with this summary.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub summary: String,
}

impl Cell {
    pub fn text(text: impl Into<String>) -> Cell {
        Cell {
            text: text.into(),
            url: String::new(),
            items: Vec::new(),
            nowrap: false,
            sep: String::new(),
            summary: String::new(),
        }
    }

    pub fn link(text: impl Into<String>, url: impl Into<String>) -> Cell {
        Cell {
            text: text.into(),
            url: url.into(),
            items: Vec::new(),
            nowrap: false,
            sep: String::new(),
            summary: String::new(),
        }
    }

    /// A project's name, linking to its page.
    pub fn project(root: &str, name: &str) -> Cell {
        Cell {
            nowrap: true,
            ..Cell::link(name, format!("{root}projects/{name}/"))
        }
    }

    /// Several cells shown one per line, each with its own link; `text` is their texts.
    pub fn list(items: Vec<Cell>) -> Cell {
        Cell {
            text: items
                .iter()
                .map(|c| c.text.as_str())
                .collect::<Vec<_>>()
                .join("\n"),
            url: String::new(),
            items,
            nowrap: false,
            sep: String::new(),
            summary: String::new(),
        }
    }

    /// Items shown on one line with `sep` between them (a call path), each with its link.
    pub fn path(items: Vec<Cell>, sep: &str) -> Cell {
        Cell {
            sep: sep.to_string(),
            text: items
                .iter()
                .map(|c| c.text.as_str())
                .collect::<Vec<_>>()
                .join(sep),
            ..Cell::list(items)
        }
    }

    /// The same cell collapsed behind a `<details>` summary.
    pub fn collapsed(self, summary: impl Into<String>) -> Cell {
        Cell {
            summary: summary.into(),
            ..self
        }
    }

    /// Lines joined with newlines (shown one per line).
    pub fn lines(lines: &[String]) -> Cell {
        Cell::text(lines.join("\n"))
    }
}

/// `1 controller`, `3 controllers`: a count and its noun.
pub fn counted(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// A table row with linkable cells.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct TableRow {
    pub anchor: String,
    pub cells: Vec<Cell>,
    pub sources: Vec<Link>,
}

/// A titled table (or, with no headers, a list of notes) on a page.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct Section {
    pub id: String,
    pub title: String,
    pub intro: String,
    pub headers: Vec<String>,
    pub rows: Vec<TableRow>,
    /// Shown when there are no rows.
    pub empty: String,
    /// Text blocks shown after the intro, before the table (generated RBAC).
    pub code: Vec<CodeBlock>,
    /// A chart of the table's numbers as SVG from `render::svg::bars` (every text escaped),
    /// shown before the table; empty when there is none.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub chart: String,
    /// A sentence on how complete the section is, shown above its code and table.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<Note>,
}

/// How complete a section is (`Section::note`).
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct Note {
    pub text: String,
    /// Nothing is missing; otherwise the note is shown as a warning.
    pub complete: bool,
}

/// A block of generated text a user can copy: its title and the text, shown as code.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct CodeBlock {
    pub title: String,
    pub text: String,
    /// Shown unfolded.
    pub open: bool,
}

/// Source links of a project's rows.
/// ` (name)` after a port number, or nothing for an unnamed port.
pub fn port_name(name: &str) -> String {
    if name.is_empty() {
        String::new()
    } else {
        format!(" ({name})")
    }
}

/// A Service port as `port→targetPort/protocol (name)`. A missing port number is said to
/// be missing (a base manifest an operator completes at run time has none); an empty
/// target port, protocol or name is left out.
pub fn service_port(port: &model::ServicePort) -> String {
    let number = match port.port.as_str() {
        "" => "(no port number)",
        number => number,
    };
    let target = match port.target_port.as_str() {
        "" => String::new(),
        target => format!("→{target}"),
    };
    let protocol = match port.protocol.as_str() {
        "" => String::new(),
        protocol => format!("/{protocol}"),
    };
    format!("{number}{target}{protocol}{}", port_name(&port.name))
}

///
/// A row whose object shows values rendered from Helm templates with the chart's defaults
/// (`Project::helm_rendered`) gets a note after its links saying which and from what.
pub fn source_links(p: &Project, sources: &[SourceRef]) -> Vec<Link> {
    let mut links: Vec<Link> = sources
        .iter()
        .map(|s| Link {
            label: format!("{}:{}", s.file, s.line),
            url: line_url(&p.source_url, &p.commit, &s.file, s.line).unwrap_or_default(),
            note: false,
        })
        .collect();
    let rendered: Vec<String> = p
        .findings
        .helm_rendered
        .iter()
        .filter(|r| sources.contains(&r.source))
        .map(|r| format!("{} → {}", r.template, r.value))
        .fold(Vec::new(), |mut seen, r| {
            if !seen.contains(&r) {
                seen.push(r);
            }
            seen
        });
    if !rendered.is_empty() {
        links.push(Link {
            label: format!(
                "Rendered with the chart's default values: {}",
                rendered.join("; ")
            ),
            url: String::new(),
            note: true,
        });
    }
    links
}

/// A call path's functions as they read best in a row: the package left out of
/// `pkg.Type.Method`, and the type too when the previous step has the same one
/// (`Predictor.Reconcile → reconcileCanaryDeployments`); `pkg.Func` stays whole.
pub fn short_functions(via: &[CallStep]) -> Vec<String> {
    let mut previous_type = "";
    via.iter()
        .map(|step| {
            let parts: Vec<&str> = step.function.split('.').collect();
            if parts.len() < 3 {
                previous_type = "";
                return step.function.clone();
            }
            let shown = if parts[1] == previous_type {
                parts[2..].join(".")
            } else {
                parts[1..].join(".")
            };
            previous_type = parts[1];
            shown
        })
        .collect()
}

/// Paths longer than this are collapsed behind their first and last step.
const SHORT_PATH: usize = 3;

/// A call path's steps, each linked to the line where it is called.
pub fn call_steps(p: &Project, via: &[CallStep]) -> Vec<Cell> {
    short_functions(via)
        .into_iter()
        .zip(via)
        .map(
            |(name, step)| match line_url(&p.source_url, &p.commit, &step.file, step.line) {
                Some(url) => Cell::link(name, url),
                None => Cell::text(name),
            },
        )
        .collect()
}

/// The call path from a controller's `Reconcile` to a call, collapsed behind its first and
/// last step when long.
pub fn call_path(p: &Project, via: &[CallStep]) -> Cell {
    let items = call_steps(p, via);
    let steps = items.len();
    let summary = (steps > SHORT_PATH).then(|| {
        format!(
            "{} → … → {} ({steps} calls)",
            items[0].text,
            items[steps - 1].text
        )
    });
    let cell = Cell::path(items, " → ");
    match summary {
        Some(s) => cell.collapsed(s),
        None => cell,
    }
}

/// Where a row goes: the project's own table, "Samples and tooling", or "Bundled".
pub struct Router {
    samples: Vec<TableRow>,
    bundled: Vec<TableRow>,
}

impl Router {
    pub fn new() -> Router {
        Router {
            samples: Vec::new(),
            bundled: Vec::new(),
        }
    }

    /// Keeps an own component row; moves other rows apart, prefixed with what they are.
    /// Bundled takes precedence over samples: a dependency's manifest is not the project's
    /// sample either.
    pub fn route(
        &mut self,
        what: &str,
        area: Area,
        bundled: bool,
        row: TableRow,
    ) -> Option<TableRow> {
        if !bundled && area.is_component() {
            return Some(row);
        }
        let mut cells = vec![Cell::text(what)];
        cells.push(Cell {
            text: row
                .cells
                .iter()
                .map(|c| c.text.as_str())
                .filter(|t| !t.is_empty())
                .collect::<Vec<_>>()
                .join(" · "),
            url: row
                .cells
                .iter()
                .find(|c| !c.url.is_empty())
                .map(|c| c.url.clone())
                .unwrap_or_default(),
            items: Vec::new(),
            nowrap: false,
            sep: String::new(),
            summary: String::new(),
        });
        let moved = TableRow {
            anchor: row.anchor,
            cells,
            sources: row.sources,
        };
        if bundled {
            self.bundled.push(moved);
        } else {
            self.samples.push(moved);
        }
        None
    }

    /// The two trailing sections of a page.
    pub fn finish(self, bundled_intro: &str) -> Vec<Section> {
        vec![
            Section {
                id: "bundled".into(),
                title: "Bundled dependency manifests".into(),
                intro: bundled_intro.into(),
                headers: vec!["What".into(), "Details".into()],
                rows: self.bundled,
                empty: "None.".into(),
                code: Vec::new(),
                chart: String::new(),
                note: None,
            },
            Section {
                id: "samples".into(),
                title: "Samples and tooling".into(),
                intro: "Rows from tests, docs, samples, examples and hack folders: not part of the component itself.".into(),
                headers: vec!["What".into(), "Details".into()],
                rows: self.samples,
                empty: "None.".into(),
                code: Vec::new(),
                chart: String::new(),
                note: None,
            },
        ]
    }
}

impl Default for Router {
    fn default() -> Self {
        Router::new()
    }
}

/// A labelled link (a row's source line, a page), or a note shown as text.
#[derive(Serialize, Clone, Debug, Default, PartialEq)]
pub struct Link {
    pub label: String,
    /// Empty when the project has no source link template.
    pub url: String,
    /// Not a link but a note on the row's provenance (a value rendered from a Helm
    /// template with the chart's defaults), shown as text: `table::source_links`.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub note: bool,
}

/// Links from kinds and resources to the kind pages of the portal (`/kinds/GROUP/KIND/`),
/// and to a CRD's API reference for a resource whose kind has no kind page.
#[derive(Default)]
pub struct KindLinks {
    /// (group, plural) → (kind, URL).
    by_plural: BTreeMap<(String, String), (String, String)>,
    /// (group, kind) → kind page URL, for every kind of the index.
    pages: BTreeMap<(String, String), String>,
    names: kubernetes::resources::ResourceNames,
}

/// A section of a project page's tables.
pub fn section(
    id: &str,
    title: &str,
    intro: &str,
    headers: &[&str],
    rows: Vec<TableRow>,
    empty: &str,
) -> Section {
    Section {
        id: id.into(),
        title: title.into(),
        intro: intro.into(),
        headers: headers.iter().map(|h| h.to_string()).collect(),
        rows,
        empty: empty.into(),
        code: Vec::new(),
        chart: String::new(),
        note: None,
    }
}

/// A path segment from repository text: letters, digits, `.`, `-` and `_` are kept, any
/// other run of characters becomes `-`, so a page path can never leave its folder.
pub fn path_segment(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') {
            out.push(c);
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    let trimmed = out.trim_matches(|c| c == '-' || c == '.');
    if trimmed.is_empty() {
        "_".into()
    } else {
        trimmed.to_string()
    }
}

/// A kind's or API group's path segment, different for different names, so two kinds
/// never share a page: a valid name (letters and digits, with `.` and `-` inside) is kept
/// as it is, any other has each byte that is not a letter or digit written `_XX` (a valid
/// name has no `_`, so the two forms never meet); the empty name is `_`.
pub fn name_segment(s: &str) -> String {
    let edge = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric());
    let valid = edge(s.chars().next())
        && edge(s.chars().last())
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-');
    if valid {
        return s.to_string();
    }
    if s.is_empty() {
        return "_".into();
    }
    let mut out = String::with_capacity(s.len() + 8);
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() {
            out.push(b as char);
        } else {
            out.push_str(&format!("_{b:02x}"));
        }
    }
    out
}

/// A stable anchor from parts of a row's identity: lowercase, `-`-separated.
pub fn anchor(parts: &[&str]) -> String {
    let mut out = String::new();
    for part in parts {
        if !out.is_empty() {
            out.push('-');
        }
        let mut last_dash = true;
        for c in part.chars() {
            if c.is_ascii_alphanumeric() {
                out.push(c.to_ascii_lowercase());
                last_dash = false;
            } else if !last_dash {
                out.push('-');
                last_dash = true;
            }
        }
        while out.ends_with('-') {
            out.pop();
        }
    }
    out
}

/// The URL of a kind's page under `root` (the base path); group `""` is `core`.
pub fn kind_url(root: &str, group: &str, kind: &str) -> String {
    format!("{root}{}", kind_page(group, kind))
}

/// The site-relative folder of a kind's page.
pub fn kind_page(group: &str, kind: &str) -> String {
    // A literal `core` group (no API server serves one) must not take the core group's page.
    let group = match group {
        "" => "core".to_string(),
        "core" => "_core".to_string(),
        g => name_segment(g),
    };
    format!("kinds/{group}/{}/", name_segment(kind))
}

/// The site-relative folder of a CRD's reference page (without the base path).
pub fn api_page(project: &str, group: &str, kind: &str) -> String {
    format!(
        "projects/{project}/api/{}/{}/",
        name_segment(group),
        name_segment(kind)
    )
}

impl KindLinks {
    /// Every kind of the portal's index, and every project's CRDs (a project's own CRD wins
    /// over another's bundled copy).
    pub fn new(root: &str, projects: &[Project], portal: &model::Portal) -> KindLinks {
        let mut links = KindLinks {
            names: kubernetes::resources::ResourceNames::new(projects),
            ..KindLinks::default()
        };
        for k in &portal.kinds {
            links.pages.insert(
                (k.group.clone(), k.kind.clone()),
                kind_url(root, &k.group, &k.kind),
            );
        }
        for bundled_pass in [false, true] {
            for p in projects {
                for c in p.findings.crds.iter().filter(|c| c.bundled == bundled_pass) {
                    let url = format!("{root}{}", api_page(&p.name, &c.group, &c.kind));
                    links
                        .by_plural
                        .entry((c.group.clone(), c.plural.clone()))
                        .or_insert((c.kind.clone(), url));
                }
            }
        }
        links
    }

    /// The kind page of a kind, when the portal has one.
    pub fn kind(&self, group: &str, kind: &str) -> Option<&str> {
        self.pages
            .get(&(group.to_string(), kind.to_string()))
            .map(String::as_str)
    }

    /// The kind and page of `resource` (a plural, maybe with a `/subresource`) in `group`:
    /// its kind page when it has one, else its API reference.
    pub fn resource(&self, group: &str, resource: &str) -> Option<(&str, &str)> {
        if let Some(kind) = self.names.kind_of(group, resource)
            && let Some(url) = self.kind(group, kind)
        {
            return Some((kind, url));
        }
        let plural = resource.split('/').next().unwrap_or(resource);
        self.by_plural
            .get(&(group.to_string(), plural.to_string()))
            .map(|(k, u)| (k.as_str(), u.as_str()))
    }

    /// Cells for rule resources: each `group/resource` linked when it is a known CRD.
    pub fn resource_cells(&self, groups: &[String], resources: &[String]) -> Vec<Cell> {
        let mut out = Vec::new();
        for g in groups {
            for r in resources {
                let label = if g.is_empty() {
                    r.clone()
                } else {
                    format!("{g}/{r}")
                };
                match self.resource(g, r) {
                    Some((_, url)) => out.push(Cell::link(label, url)),
                    None => out.push(Cell::text(label)),
                }
            }
        }
        out
    }
}

/// The kinds that have a page under `/kinds/`: links to a kind page are made only for
/// these, so no link points at a page the site does not have.
#[derive(Default, Clone, Debug)]
pub struct KindPages {
    root: String,
    kinds: std::collections::BTreeSet<(String, String)>,
}

impl KindPages {
    /// Every kind of the portal's kind index (the kinds the `/kinds/` pages describe).
    pub fn of(root: &str, portal: &model::Portal) -> KindPages {
        KindPages {
            root: root.to_string(),
            kinds: portal
                .kinds
                .iter()
                .map(|k| (k.group.clone(), k.kind.clone()))
                .collect(),
        }
    }

    /// No kind pages (a site rendered without `/kinds/`).
    #[cfg(test)]
    pub fn none(root: &str) -> KindPages {
        KindPages {
            root: root.to_string(),
            kinds: Default::default(),
        }
    }

    /// The kind's page, when it has one.
    pub fn url(&self, group: &str, kind: &str) -> Option<String> {
        self.kinds
            .contains(&(group.to_string(), kind.to_string()))
            .then(|| kind_url(&self.root, group, kind))
    }
}

/// A row anchor made unique on its page by a numeric suffix.
pub struct Anchors(BTreeMap<String, usize>);

impl Anchors {
    pub fn new() -> Anchors {
        Anchors(BTreeMap::new())
    }

    pub fn unique(&mut self, parts: &[&str]) -> String {
        let base = anchor(parts);
        let n = self.0.entry(base.clone()).or_insert(0);
        *n += 1;
        if *n == 1 { base } else { format!("{base}-{n}") }
    }
}

impl Default for Anchors {
    fn default() -> Self {
        Anchors::new()
    }
}

/// Names made unique in the order they are asked for: the first `x` stays `x`, later
/// ones become `x-2`, `x-3`… skipping names already given. Each stem remembers its next
/// number, so n equal names cost n steps, not n² (a page folder per controller of one
/// name tried every earlier number again).
#[derive(Default)]
pub struct UniqueNames {
    taken: std::collections::HashSet<String>,
    next: std::collections::HashMap<String, usize>,
}

impl UniqueNames {
    pub fn name(&mut self, stem: &str) -> String {
        if self.taken.insert(stem.to_string()) {
            return stem.to_string();
        }
        let n = self.next.entry(stem.to_string()).or_insert(1);
        loop {
            *n += 1;
            let candidate = format!("{stem}-{n}");
            if self.taken.insert(candidate.clone()) {
                return candidate;
            }
        }
    }

    /// Marks `name` as given (a name chosen elsewhere that must not be handed out).
    pub fn take(&mut self, name: &str) -> bool {
        self.taken.insert(name.to_string())
    }
}

#[cfg(test)]
mod tests;
