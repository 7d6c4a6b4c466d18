//! The kind pages: `/kinds/` (every kind of the portal by API group, with what each
//! project does with it) and `/kinds/GROUP/KIND/` (per project: definitions, watches,
//! writes, webhooks and RBAC grants, each row anchored and linked to its source lines).
//! The core group is `core` in URLs; `kind_url` is the one place kind page URLs are made.

use std::collections::BTreeMap;

use serde::Serialize;

use super::table::Link;
use super::table::{Anchors, Cell, Section, TableRow, api_page, source_links};
pub use super::table::{kind_page, kind_url};
use super::views::controller_url_by_name;
use model::{KindEntry, Portal, Project, SourceRef};

/// A portal-wide page made of sections of tables (kind pages, platform pages).
#[derive(Serialize)]
pub struct PortalPage {
    /// The output folder, relative to the site root.
    #[serde(skip)]
    pub path: String,
    pub page_title: String,
    pub lead: String,
    /// Links shown under the lead (e.g. the API reference of a kind).
    pub links: Vec<Link>,
    pub sections: Vec<Section>,
}

/// A cell naming a kind, linked to its page when the portal indexes the kind (a kind only
/// mentioned by a bundled or sample manifest has no page).
pub fn kind_cell(portal: &Portal, root: &str, group: &str, kind: &str, label: String) -> Cell {
    if portal
        .kinds
        .iter()
        .any(|k| k.group == group && k.kind == kind)
    {
        Cell::link(label, kind_url(root, group, kind))
    } else {
        Cell::text(label)
    }
}

/// `Kind (group)`, or just the kind for the core group.
pub fn kind_title(group: &str, kind: &str) -> String {
    if group.is_empty() {
        format!("{kind} (core)")
    } else {
        format!("{kind} ({group})")
    }
}

/// Source links of a row of another project, looked up by name.
pub fn sources_of(projects: &[Project], project: &str, sources: &[SourceRef]) -> Vec<Link> {
    match projects.iter().find(|p| p.name == project) {
        Some(p) => source_links(p, sources),
        None => source_links(&Project::default(), sources),
    }
}

/// What one project does with a kind, as short words for badges.
fn touches(k: &KindEntry, project: &str) -> Vec<&'static str> {
    let mut out = Vec::new();
    if k.defined_by.iter().any(|p| p == project) {
        out.push("defines");
    } else if k.definitions.iter().any(|d| d.project == project) {
        out.push("ships CRD");
    }
    if k.watched_by.iter().any(|w| w.project == project) {
        out.push("watches");
    }
    if k.written_by.iter().any(|w| w.project == project) {
        out.push("writes");
    }
    if k.webhooks.iter().any(|w| w.project == project) {
        out.push("webhook");
    }
    if k.grants.iter().any(|g| g.project == project) {
        out.push("RBAC");
    }
    out
}

fn projects_of(k: &KindEntry) -> Vec<&str> {
    let mut names: Vec<&str> = k.definitions.iter().map(|d| d.project.as_str()).collect();
    names.extend(k.watched_by.iter().map(|w| w.project.as_str()));
    names.extend(k.written_by.iter().map(|w| w.project.as_str()));
    names.extend(k.webhooks.iter().map(|w| w.project.as_str()));
    names.extend(k.grants.iter().map(|g| g.project.as_str()));
    names.sort();
    names.dedup();
    names
}

/// `/kinds/`: one section per API group, one row per kind, per-project badges.
pub fn index(portal: &Portal, projects: &[Project], root: &str) -> PortalPage {
    let mut groups: BTreeMap<&str, Vec<&KindEntry>> = BTreeMap::new();
    for k in &portal.kinds {
        groups.entry(k.group.as_str()).or_default().push(k);
    }
    let mut anchors = Anchors::new();
    let mut sections = Vec::new();
    for (group, kinds) in groups {
        let name = if group.is_empty() { "core" } else { group };
        let rows = kinds
            .iter()
            .map(|k| TableRow {
                anchor: anchors.unique(&["kind", name, &k.kind]),
                cells: vec![
                    Cell::link(k.kind.clone(), kind_url(root, &k.group, &k.kind)),
                    Cell::list(
                        projects_of(k)
                            .into_iter()
                            .map(|p| {
                                Cell::link(
                                    format!("{p}: {}", touches(k, p).join(" · ")),
                                    format!(
                                        "{}#{}",
                                        kind_url(root, &k.group, &k.kind),
                                        super::views::anchor(&["project", p])
                                    ),
                                )
                            })
                            .collect(),
                    ),
                ],
                sources: Vec::new(),
            })
            .collect();
        sections.push(Section {
            id: anchors.unique(&["group", name]),
            title: name.to_string(),
            intro: String::new(),
            headers: vec!["Kind".into(), "Projects".into(), String::new()],
            rows,
            empty: String::new(),
            code: Vec::new(),
            chart: String::new(),
            note: None,
        });
    }
    let unresolved = portal
        .unresolved_kinds
        .iter()
        .map(|u| TableRow {
            anchor: anchors.unique(&[
                "unresolved",
                &u.project,
                &u.usage,
                &u.what,
                &u.sources
                    .first()
                    .map(|s| format!("{}-{}", s.file, s.line))
                    .unwrap_or_default(),
            ]),
            cells: vec![
                Cell::project(root, &u.project),
                Cell::text(u.usage.clone()),
                Cell::text(u.what.clone()),
                Cell::text(u.by.clone()),
            ],
            sources: sources_of(projects, &u.project, &u.sources),
        })
        .collect();
    sections.push(Section {
        id: "unresolved".into(),
        title: "Unresolved kind mentions".into(),
        intro: "Watches and writes whose kind the analyzer could not resolve, and webhook or RBAC resources that no known kind has as its plural. They are not placed in the index: a wrong row is worse than a missing one. Each project's diagnostics say why.".into(),
        headers: vec![
            "Project".into(),
            "Usage".into(),
            "As written".into(),
            "By".into(),
            "Source".into(),
            String::new(),
        ],
        rows: unresolved,
        empty: "None.".into(),
        code: Vec::new(),
        chart: String::new(),
        note: None,
    });
    PortalPage {
        path: "kinds/".into(),
        page_title: "Kinds".into(),
        lead: format!(
            "Every kind the {} projects define, watch, write, admit with a webhook, or grant access to, by API group. A project's rows come from its own component: tests, samples and bundled dependency manifests are not counted, except CRDs, which are listed with how they are shipped.",
            portal.projects.len()
        ),
        links: Vec::new(),
        sections,
    }
}

/// One page per kind of the index.
pub fn pages(portal: &Portal, projects: &[Project], root: &str) -> Vec<PortalPage> {
    portal
        .kinds
        .iter()
        .map(|k| page(k, projects, root))
        .collect()
}

fn page(k: &KindEntry, projects: &[Project], root: &str) -> PortalPage {
    let mut anchors = Anchors::new();
    // Where a project touches the kind is in the sections below: this table has no sources.
    let mut summary = kind_section(
        "projects",
        "By project",
        &["Project", "How it touches the kind"],
        summary_rows(k, root, &mut anchors),
        "No project touches this kind.",
    );
    summary.headers = vec![
        "Project".into(),
        "How it touches the kind".into(),
        String::new(),
    ];
    let links = k
        .defined_by
        .iter()
        .map(|p| Link {
            label: format!("API reference ({p})"),
            url: format!("{root}{}", api_page(p, &k.group, &k.kind)),
            note: false,
        })
        .collect();
    PortalPage {
        path: kind_page(&k.group, &k.kind),
        page_title: kind_title(&k.group, &k.kind),
        lead: lead(k),
        links,
        sections: vec![
            summary,
            kind_section(
                "definitions",
                "CRDs",
                &["Project", "How", "Reference"],
                definition_rows(k, projects, root, &mut anchors),
                "No project ships a CRD for this kind.",
            ),
            kind_section(
                "watches",
                "Watches",
                &["Project", "Controller", "Relation"],
                watch_rows(k, projects, root, &mut anchors),
                "No controller or informer watches this kind.",
            ),
            kind_section(
                "writes",
                "Writes",
                &["Project", "Controller or package", "Verb"],
                write_rows(k, projects, root, &mut anchors),
                "No client write of this kind was found.",
            ),
            kind_section(
                "webhooks",
                "Admission webhooks",
                &["Project", "Webhook", "Type", "Operations", "Origin"],
                webhook_rows(k, projects, root, &mut anchors),
                "No admission webhook is called for this kind.",
            ),
            kind_section(
                "rbac",
                "RBAC grants",
                &["Project", "Role", "Resource", "Verbs", "Origin"],
                grant_rows(k, projects, root, &mut anchors),
                "No RBAC rule names this kind's resource.",
            ),
        ],
    }
}

/// Who defines the kind, or where it comes from when no project does.
fn lead(k: &KindEntry) -> String {
    if k.defined_by.is_empty() {
        match &k.defined_outside {
            Some(who) => format!(
                "No project of the portal defines this kind: it is {}.",
                if who == "Kubernetes" {
                    "Kubernetes' own".to_string()
                } else {
                    format!("defined by {who}")
                }
            ),
            None => "No project of the portal defines this kind with a CRD of its own.".into(),
        }
    } else {
        format!("Defined by {}.", k.defined_by.join(", "))
    }
}

/// A section of a kind page: its headers, then Source and the row link column.
fn kind_section(
    id: &str,
    title: &str,
    headers: &[&str],
    rows: Vec<TableRow>,
    empty: &str,
) -> Section {
    let mut headers: Vec<String> = headers.iter().map(|h| h.to_string()).collect();
    headers.push("Source".into());
    headers.push(String::new());
    Section {
        id: id.into(),
        title: title.into(),
        intro: String::new(),
        headers,
        rows,
        empty: empty.into(),
        code: Vec::new(),
        chart: String::new(),
        note: None,
    }
}

/// Each project touching the kind and how.
fn summary_rows(k: &KindEntry, root: &str, anchors: &mut Anchors) -> Vec<TableRow> {
    projects_of(k)
        .into_iter()
        .map(|p| TableRow {
            anchor: anchors.unique(&["project", p]),
            cells: vec![Cell::project(root, p), Cell::text(touches(k, p).join(", "))],
            sources: Vec::new(),
        })
        .collect()
}

/// The CRDs defining the kind: own, bundled, or in tests, docs and samples.
fn definition_rows(
    k: &KindEntry,
    projects: &[Project],
    root: &str,
    anchors: &mut Anchors,
) -> Vec<TableRow> {
    let src = |project: &str, sources: &[SourceRef]| sources_of(projects, project, sources);
    k.definitions
        .iter()
        .map(|d| TableRow {
            anchor: anchors.unique(&["define", &d.project, &d.how]),
            cells: vec![
                Cell::project(root, &d.project),
                Cell::text(match d.how.as_str() {
                    "component" => "defines it (its own CRD)",
                    "bundled" => "ships another project's CRD (bundled)",
                    _ => "CRD in tests, docs or samples",
                }),
                if d.how == "samples" {
                    Cell::text("")
                } else {
                    Cell::link(
                        "API reference",
                        format!("{root}{}", api_page(&d.project, &k.group, &k.kind)),
                    )
                },
            ],
            sources: src(&d.project, &d.sources),
        })
        .collect()
}

/// The controllers and informers watching the kind.
fn watch_rows(
    k: &KindEntry,
    projects: &[Project],
    root: &str,
    anchors: &mut Anchors,
) -> Vec<TableRow> {
    let src = |project: &str, sources: &[SourceRef]| sources_of(projects, project, sources);
    k.watched_by
        .iter()
        .map(|w| {
            let who = if w.package.is_empty() {
                w.controller.clone()
            } else {
                format!("{} (package {})", w.controller, w.package)
            };
            let who_cell = if w.package.is_empty() {
                Cell::link(
                    who,
                    controller_url_by_name(root, projects, &w.project, &w.controller),
                )
            } else {
                Cell::text(who)
            };
            TableRow {
                anchor: anchors.unique(&[
                    "watch",
                    &w.project,
                    &w.package,
                    &w.controller,
                    w.relation.label(),
                ]),
                cells: vec![
                    Cell::project(root, &w.project),
                    who_cell,
                    Cell::text(w.relation.label()),
                ],
                sources: src(&w.project, &w.sources),
            }
        })
        .collect()
}

/// The client writes of the kind.
fn write_rows(
    k: &KindEntry,
    projects: &[Project],
    root: &str,
    anchors: &mut Anchors,
) -> Vec<TableRow> {
    let src = |project: &str, sources: &[SourceRef]| sources_of(projects, project, sources);
    k.written_by
        .iter()
        .map(|w| {
            let who = if w.controller.is_empty() {
                Cell::text(format!(
                    "{}.{} (package, outside controllers)",
                    w.package, w.function
                ))
            } else {
                Cell::link(
                    w.controller.clone(),
                    controller_url_by_name(root, projects, &w.project, &w.controller),
                )
            };
            TableRow {
                anchor: anchors.unique(&[
                    "write",
                    &w.project,
                    &w.controller,
                    &w.package,
                    &w.function,
                    w.verb.as_str(),
                ]),
                cells: vec![
                    Cell::project(root, &w.project),
                    who,
                    Cell::text(w.verb.to_string()),
                ],
                sources: src(&w.project, &w.sources),
            }
        })
        .collect()
}

/// The admission webhooks called for the kind.
fn webhook_rows(
    k: &KindEntry,
    projects: &[Project],
    root: &str,
    anchors: &mut Anchors,
) -> Vec<TableRow> {
    let src = |project: &str, sources: &[SourceRef]| sources_of(projects, project, sources);
    k.webhooks
        .iter()
        .map(|w| TableRow {
            anchor: anchors.unique(&["webhook", &w.project, &w.webhook, w.webhook_type.label()]),
            cells: vec![
                Cell::project(root, &w.project),
                Cell::text(w.webhook.clone()),
                Cell::text(w.webhook_type.label()),
                Cell::text(if w.operations.is_empty() {
                    "(set by the webhook configuration)".to_string()
                } else {
                    w.operations.join(", ")
                }),
                Cell::text(w.origin.label()),
            ],
            sources: src(&w.project, &w.sources),
        })
        .collect()
}

/// The RBAC rules naming the kind's resource.
fn grant_rows(
    k: &KindEntry,
    projects: &[Project],
    root: &str,
    anchors: &mut Anchors,
) -> Vec<TableRow> {
    let src = |project: &str, sources: &[SourceRef]| sources_of(projects, project, sources);
    k.grants
        .iter()
        .map(|g| TableRow {
            anchor: anchors.unique(&["grant", &g.project, &g.role, &g.resource]),
            cells: vec![
                Cell::project(root, &g.project),
                Cell::link(
                    g.role.clone(),
                    format!("{root}projects/{}/security/#roles", g.project),
                ),
                Cell::text(if g.wildcard {
                    format!("{} (wildcard)", g.resource)
                } else {
                    g.resource.clone()
                }),
                Cell::text(g.verbs.join(", ")),
                Cell::text(g.origin.label()),
            ],
            sources: src(&g.project, &g.sources),
        })
        .collect()
}

#[cfg(test)]
mod tests;
