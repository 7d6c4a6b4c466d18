//! Controllers: the rows of each one (watches, writes, reads) for the dataflow overview,
//! and one page per component controller at `/projects/P/controllers/NAME/`.

use std::collections::HashMap;

use serde::Serialize;

use super::super::flow::FlowView;
use super::super::table::{
    Anchors, Cell, KindLinks, Section, TableRow, UniqueNames, call_path, path_segment, source_links,
};
use super::{Link, anchor, kind_cell, kind_label, line_of};
use model::{Controller, Operation, Project, Relation, StatusCondition};

#[derive(Serialize)]
pub struct ControllerView {
    pub anchor: String,
    pub name: String,
    pub reconciler: String,
    /// How it is built, when not with controller-runtime's builder (`informers and a work
    /// queue`, `Knative reconciler`).
    pub shape: String,
    /// The functions its reconciling starts from, when not its reconciler's `Reconcile`.
    pub entries: Vec<String>,
    /// The controller's own page (empty for sample controllers, which have none).
    pub url: String,
    /// The kind it reconciles (its `For` watch), as a label.
    pub reconciles: String,
    /// A main controller reconciles one of the project's own CRDs.
    pub main: bool,
    pub sources: Vec<Link>,
    /// Kind cells link to the kind pages.
    pub watches: Vec<TableRow>,
    pub operations: Vec<TableRow>,
    /// Gets, lists and watches through a client, in the same columns as `operations`.
    pub reads: Vec<TableRow>,
    /// Status conditions it sets: type, kind, statuses, reasons, call path.
    pub conditions: Vec<TableRow>,
    /// Its client calls found against resolved; None when not counted.
    pub client_calls: Option<super::client_calls::CallsView>,
}

/// One component controller's page.
#[derive(Serialize)]
pub struct ControllerPage {
    /// Site-relative folder, `projects/P/controllers/NAME/`.
    pub path: String,
    pub name: String,
    pub title: String,
    pub controller: ControllerView,
    /// Its sequence diagram, when it has one.
    pub flow: Option<FlowView>,
    /// RBAC needed against granted, and its least-privilege rules.
    pub rbac: Vec<Section>,
    /// Cache and memory: the manager it runs in, its options, the memory risks about it.
    pub memory: Vec<Section>,
}

/// Each component controller's position in `p.controllers` and page folder name, unique
/// in the project (`-2`, `-3` after a name taken), in model order.
fn slugs(p: &Project) -> Vec<(usize, String)> {
    let mut names = UniqueNames::default();
    p.findings
        .controllers
        .iter()
        .enumerate()
        .filter(|(_, c)| c.area.is_component())
        .map(|(index, c)| (index, names.name(&path_segment(&c.name))))
        .collect()
}

/// The position of `c` (one of `p`'s own) in `p.controllers`.
fn index_of(p: &Project, c: &Controller) -> Option<usize> {
    p.findings
        .controllers
        .iter()
        .position(|k| std::ptr::eq(k, c))
}

/// A component controller's page: its name, how the sidebar names it, and its
/// site-relative folder.
pub struct ControllerLink {
    pub name: String,
    /// The name, followed, when several controllers share it, by the folder of its setup,
    /// or its `file:line` when that is shared too
    /// (`providerrevision (internal/controller/pkg/revision)`).
    pub label: String,
    pub path: String,
}

/// The component controllers in page order with their pages.
pub fn controller_links(p: &Project) -> Vec<ControllerLink> {
    let slugs = slugs(p);
    fn at(c: &Controller) -> Option<(&str, u32)> {
        c.sources.first().map(|s| (s.file.as_str(), s.line))
    }
    fn folder(c: &Controller) -> Option<&str> {
        at(c).map(|(file, _)| file.rsplit_once('/').map_or("", |(d, _)| d))
    }
    let mut names: HashMap<&str, usize> = HashMap::new();
    let mut folders: HashMap<(&str, Option<&str>), usize> = HashMap::new();
    for c in p
        .findings
        .controllers
        .iter()
        .filter(|c| c.area.is_component())
    {
        *names.entry(&c.name).or_default() += 1;
        *folders.entry((&c.name, folder(c))).or_default() += 1;
    }
    super::super::main_first::ordered(p)
        .0
        .into_iter()
        .filter_map(|c| {
            let index = index_of(p, c)?;
            let (_, slug) = slugs.iter().find(|(i, _)| *i == index)?;
            let label = match (folder(c), at(c)) {
                _ if names[c.name.as_str()] < 2 => c.name.clone(),
                (Some(dir), _) if !dir.is_empty() && folders[&(c.name.as_str(), Some(dir))] < 2 => {
                    format!("{} ({dir})", c.name)
                }
                (_, Some((file, line))) => format!("{} ({file}:{line})", c.name),
                _ => c.name.clone(),
            };
            Some(ControllerLink {
                name: c.name.clone(),
                label,
                path: page_path(p, slug),
            })
        })
        .collect()
}

/// The site-relative folder of a component controller's page (`c` one of `p`'s own).
pub fn page_of(p: &Project, c: &Controller) -> Option<String> {
    let index = index_of(p, c)?;
    slugs(p)
        .into_iter()
        .find(|(i, _)| *i == index)
        .map(|(_, slug)| page_path(p, &slug))
}

/// A controller's page under `root`, or its row on the dataflow page when it has none (a
/// controller of tests or samples).
pub fn url_of(root: &str, p: &Project, c: &Controller) -> String {
    match page_of(p, c) {
        Some(page) => format!("{root}{page}"),
        None => dataflow_row(root, &p.name, &c.name),
    }
}

/// The page of the controller a row of another table names (project and controller name,
/// as the kind index keeps them): its own page when exactly one component controller of
/// the project has the name, else its row on the dataflow page.
pub fn url_by_name(root: &str, projects: &[Project], project: &str, name: &str) -> String {
    let page = projects.iter().find(|p| p.name == project).and_then(|p| {
        let mut named = p
            .findings
            .controllers
            .iter()
            .filter(|c| c.area.is_component() && c.name == name);
        match (named.next(), named.next()) {
            (Some(c), None) => page_of(p, c),
            _ => None,
        }
    });
    match page {
        Some(page) => format!("{root}{page}"),
        None => dataflow_row(root, project, name),
    }
}

/// A controller's row on its project's dataflow page.
fn dataflow_row(root: &str, project: &str, name: &str) -> String {
    format!(
        "{root}projects/{project}/dataflow/#{}",
        anchor(&["controller", name])
    )
}

/// The site-relative folder of a controller's page.
pub fn page_path(p: &Project, slug: &str) -> String {
    format!("projects/{}/controllers/{slug}/", p.name)
}

/// A controller's rows. `url` is its page, empty when it has none.
pub fn view(p: &Project, c: &Controller, kind_links: &KindLinks, url: String) -> ControllerView {
    let reconciles = c
        .watches
        .iter()
        .find(|w| w.relation == Relation::For)
        .map(|w| w.gvk().display())
        .unwrap_or_default();
    let mut view = ControllerView {
        anchor: anchor(&["controller", &c.name]),
        name: c.name.clone(),
        reconciler: c.reconciler.clone(),
        shape: if c.shape.is_builder() {
            String::new()
        } else {
            c.shape.label().to_string()
        },
        entries: c.entries.clone(),
        url,
        reconciles,
        main: super::super::main_first::is_main(p, c),
        sources: source_links(p, &c.sources),
        watches: c
            .watches
            .iter()
            .map(|w| {
                let kind = if w.is_resolved() {
                    w.gvk().display()
                } else if w.raw_source {
                    format!("raw source {}", w.kind)
                } else {
                    format!(
                        "{}.{} (unresolved)",
                        w.import_path.as_deref().unwrap_or("?"),
                        w.kind
                    )
                };
                TableRow {
                    anchor: anchor(&["watch", &c.name, w.relation.label(), &w.group, &w.kind]),
                    cells: vec![
                        Cell::text(w.relation.label()),
                        kind_cell(kind_links, &w.group, &w.kind, kind),
                        Cell::text(when(w.conditional, &w.condition)),
                    ],
                    sources: source_links(p, &w.sources),
                }
            })
            .collect(),
        operations: c
            .operations
            .iter()
            .map(|o| operation_row(p, kind_links, &c.name, "op", o))
            .collect(),
        reads: c
            .reads
            .iter()
            .map(|o| operation_row(p, kind_links, &c.name, "read", o))
            .collect(),
        conditions: c
            .conditions
            .iter()
            .map(|s| condition_row(p, kind_links, &c.name, s))
            .collect(),
        client_calls: super::client_calls::view(
            p,
            c.client_calls.as_ref(),
            super::client_calls::Scope::Controller,
        ),
    };
    // One call reached through two paths, or one kind watched twice the same way, would
    // otherwise repeat an id.
    let mut anchors = Anchors::new();
    for row in view
        .watches
        .iter_mut()
        .chain(view.operations.iter_mut())
        .chain(view.reads.iter_mut())
        .chain(view.conditions.iter_mut())
    {
        row.anchor = anchors.unique(&[&row.anchor]);
    }
    view
}

/// The pages of the project's component controllers. `flows` are the dataflow page's
/// diagrams (the summary first, then one per component controller in model order) and
/// `rbac` the security page's sections of one controller, by its position in
/// `p.controllers` (names may repeat).
pub fn controller_pages(
    p: &Project,
    kind_links: &KindLinks,
    root: &str,
    flows: &[FlowView],
    rbac: &dyn Fn(usize) -> Vec<Section>,
) -> Vec<ControllerPage> {
    let slugs = slugs(p);
    let (component, _) = super::super::main_first::ordered(p);
    component
        .into_iter()
        .filter_map(|c| {
            let index = index_of(p, c)?;
            let (position, (_, slug)) = slugs.iter().enumerate().find(|(_, (i, _))| *i == index)?;
            let path = page_path(p, slug);
            Some(ControllerPage {
                name: p.name.clone(),
                title: p.title.clone(),
                controller: view(p, c, kind_links, format!("{root}{path}")),
                flow: flows.get(position + 1).cloned(),
                rbac: rbac(index),
                memory: crate::memory::controller_sections(p, &c.name),
                path,
            })
        })
        .collect()
}

/// A watch's guard for the "When" column: its condition, `yes` for a conditional watch
/// whose condition text is unknown, empty when it always runs.
fn when(conditional: bool, condition: &str) -> String {
    match (conditional, condition) {
        (_, c) if !c.is_empty() => c.to_string(),
        (true, _) => "yes".into(),
        (false, _) => String::new(),
    }
}

/// A status condition the controller sets: type, kind, statuses, reasons, call path.
fn condition_row(
    p: &Project,
    kind_links: &KindLinks,
    controller: &str,
    s: &StatusCondition,
) -> TableRow {
    TableRow {
        anchor: anchor(&[
            "condition",
            controller,
            &s.condition_type,
            &line_of(&s.sources),
        ]),
        cells: vec![
            Cell::text(s.condition_type.clone()),
            kind_cell(
                kind_links,
                &s.group,
                &s.kind,
                kind_label(&s.group, &s.version, &s.kind),
            ),
            Cell::text(s.status.join(", ")),
            Cell::text(s.reasons.join(", ")),
            call_path(p, &s.via),
        ],
        sources: source_links(p, &s.sources),
    }
}

/// A controller's write or read: verb, kind, the guarding condition ("When", empty =
/// always) and the call path from `Reconcile` ("Via", empty = in `Reconcile` itself).
fn operation_row(
    p: &Project,
    kind_links: &KindLinks,
    controller: &str,
    prefix: &str,
    o: &Operation,
) -> TableRow {
    TableRow {
        anchor: anchor(&[
            prefix,
            controller,
            o.verb.as_str(),
            &o.group,
            &o.kind,
            &line_of(&o.sources),
        ]),
        cells: vec![
            Cell::text(o.verb.to_string()),
            kind_cell(
                kind_links,
                &o.group,
                &o.kind,
                kind_label(&o.group, &o.version, &o.kind),
            ),
            Cell::text(o.condition.clone()),
            call_path(p, &o.via),
        ],
        sources: source_links(p, &o.sources),
    }
}

#[cfg(test)]
mod tests;
