//! The changes pages: `/projects/P/changes/` (each revision `compare = […]` lists against
//! the pinned one) and `/changes/` across projects, breaking changes first. Every row links
//! to its page in the portal (while it exists at the pinned revision) and to its source
//! line at both commits.

use super::kinds::PortalPage;
use super::table::{Anchors, Cell, Section, TableRow, api_page, section};
use super::views::{ControllerLink, Link};
use derive::diff::{Category, ChangeKind, ProjectDiff, RowChange, format};
use model::Project;

/// A comparison of the portal, or why it could not be made.
pub type Comparison = Result<ProjectDiff, (String, String, String)>;

const LEAD: &str = "What changed in the project between each earlier revision projects.toml lists to compare with and the pinned one, read from the code at both commits: every row of every category, matched by what it is (a moved line is no change). CRD changes are classified: a breaking one can make the API server reject objects the old schema accepted, and lists the other projects of the portal that use the kind.";

const PORTAL_LEAD: &str = "What changed in each project between the earlier revisions projects.toml lists to compare with and the pinned ones, breaking CRD changes first with the projects that use each kind.";

const BREAKING_INTRO: &str = "Changes that can break objects or clients written against the earlier revision: a CRD, version or field removed, a version no longer served, the storage version or scope changed, a type changed, a field newly required, an enum value removed, a validation added or tightened.";

/// The site-relative folder of a project's changes page.
pub fn page_path(project: &str) -> String {
    format!("projects/{project}/changes/")
}

/// The links of a row: its source line at the new commit (the old one for a removed
/// row), and at the old commit: `file:line` and `before` when the place is the same,
/// `before: …` and `after: …` when it moved.
fn sources(d: &ProjectDiff, c: &RowChange) -> Vec<Link> {
    let link = |label: String, at: &model::SourceRef, new_side: bool| Link {
        label,
        url: d.link(at, new_side).unwrap_or_default(),
        note: false,
    };
    let place = |at: &model::SourceRef| format!("{}:{}", at.file, at.line);
    match (&c.before, &c.after) {
        (Some(b), Some(a)) if b == a => {
            vec![link(place(a), a, true), link("before".into(), b, false)]
        }
        (Some(b), Some(a)) => vec![
            link(format!("before: {}", place(b)), b, false),
            link(format!("after: {}", place(a)), a, true),
        ],
        (Some(b), None) => vec![link(place(b), b, false)],
        (None, Some(a)) => vec![link(place(a), a, true)],
        (None, None) => Vec::new(),
    }
}

/// The page of the portal that shows the row at the pinned revision, if it still has one.
fn row_page(root: &str, p: &Project, controllers: &[ControllerLink], c: &RowChange) -> String {
    if c.change == ChangeKind::Removed && c.category != Category::CrdField {
        return String::new();
    }
    let base = format!("{root}projects/{}/", p.name);
    match c.category {
        Category::Crd | Category::CrdVersion | Category::CrdField => c
            .kind
            .as_ref()
            .filter(|k| {
                p.findings
                    .crds
                    .iter()
                    .any(|x| x.group == k.group && x.kind == k.kind)
            })
            .map(|k| format!("{root}{}", api_page(&p.name, &k.group, &k.kind)))
            .unwrap_or_default(),
        Category::Controller | Category::Watch | Category::Read | Category::Write => controllers
            .iter()
            .find(|l| l.name == c.controller)
            .map(|l| format!("{root}{}", l.path))
            .unwrap_or_else(|| format!("{base}dataflow/")),
        Category::Webhook => format!("{base}security/#webhooks"),
        Category::Rbac => format!("{base}security/#roles"),
        Category::Route => format!("{base}dataflow/#http-endpoints"),
        Category::Binary | Category::Flag | Category::Env => format!("{base}#binaries"),
        Category::Metric => format!("{base}#metrics"),
        Category::FeatureGate => format!("{base}configuration/#feature-gates"),
        Category::Service | Category::ServicePort => format!("{base}network/#services"),
        Category::Workload | Category::Container => format!("{base}configuration/#workloads"),
        Category::DisruptionBudget => format!("{base}configuration/#availability"),
        Category::ManagerOption | Category::MemoryRisk => format!("{base}configuration/#managers"),
        Category::ConfigMap => format!("{base}configuration/#configmaps"),
        Category::HelmChart | Category::HelmValue => format!("{base}configuration/#helm-charts"),
        Category::Image | Category::Dependency => format!("{base}#dependencies"),
    }
}

/// What a row's cells need of its project.
struct Context<'a> {
    root: &'a str,
    project: &'a Project,
    controllers: Vec<ControllerLink>,
}

fn consumers_cell(c: &RowChange) -> Cell {
    if c.consumers.is_empty() {
        return Cell::text("no other project");
    }
    Cell::lines(
        &c.consumers
            .iter()
            .map(|u| format!("{}: {} {}", u.project, u.who, u.how))
            .collect::<Vec<_>>(),
    )
}

/// What happened, in one cell: the detail of a changed row, `added: …` or `removed: …`.
fn change_text(c: &RowChange) -> String {
    match (c.change, c.detail.is_empty()) {
        (ChangeKind::Changed, _) => c.detail.clone(),
        (kind, true) => kind.label().to_string(),
        (kind, false) => format!("{}: {}", kind.label(), c.detail),
    }
}

/// One row: [project and the revision compared,] what (linked), change, [used by,] source
/// links.
fn row(
    cx: &Context,
    d: &ProjectDiff,
    c: &RowChange,
    anchors: &mut Anchors,
    across: bool,
) -> TableRow {
    let mut cells = Vec::new();
    if across {
        cells.push(Cell::list(vec![
            Cell {
                url: format!("{}{}", cx.root, page_path(&d.project)),
                ..Cell::project(cx.root, &d.project)
            },
            Cell::text(format!("since {}", d.from.rev)),
        ]));
    }
    let page = row_page(cx.root, cx.project, &cx.controllers, c);
    cells.push(if page.is_empty() {
        Cell::text(c.subject.clone())
    } else {
        Cell::link(c.subject.clone(), page)
    });
    cells.push(Cell::text(change_text(c)));
    if c.breaking {
        cells.push(consumers_cell(c));
    }
    TableRow {
        anchor: anchors.unique(&[&d.project, &d.from.rev, &c.subject, c.change.label()]),
        cells,
        sources: sources(d, c),
    }
}

/// The category sections of the non-breaking rows (and the breaking section first).
fn sections_of(
    rows: Vec<(&Context, &ProjectDiff, &RowChange)>,
    prefix: &str,
    across: bool,
    anchors: &mut Anchors,
) -> Vec<Section> {
    let mut lead_headers: Vec<&str> = if across { vec!["Project"] } else { Vec::new() };
    lead_headers.extend(["What", "Change"]);
    let mut breaking_headers = lead_headers.clone();
    breaking_headers.extend(["Used by", "Source"]);
    let mut headers = lead_headers;
    headers.push("Source");
    let id = |s: &str| {
        if prefix.is_empty() {
            s.to_string()
        } else {
            format!("{prefix}-{s}")
        }
    };
    let breaking: Vec<TableRow> = rows
        .iter()
        .filter(|(_, _, c)| c.breaking)
        .map(|(cx, d, c)| row(cx, d, c, anchors, across))
        .collect();
    let mut out = vec![section(
        &id("breaking"),
        "Breaking changes",
        BREAKING_INTRO,
        &breaking_headers,
        breaking,
        "None.",
    )];
    let mut categories: Vec<Category> = rows
        .iter()
        .filter(|(_, _, c)| !c.breaking)
        .map(|(_, _, c)| c.category)
        .collect();
    categories.sort();
    categories.dedup();
    for category in categories {
        let table: Vec<TableRow> = rows
            .iter()
            .filter(|(_, _, c)| !c.breaking && c.category == category)
            .map(|(cx, d, c)| row(cx, d, c, anchors, across))
            .collect();
        let slug = format!("{category:?}").to_lowercase();
        out.push(section(
            &id(&slug),
            category.title(),
            "",
            &headers,
            table,
            "None.",
        ));
    }
    out
}

/// The section that opens a comparison: `v1 (0123456789ab) → 89abcdef0123`, its counts.
fn headline(d: &ProjectDiff, id: &str) -> Section {
    section(
        id,
        &format!(
            "{} → {}",
            format::revision(&d.from),
            format::revision(&d.to)
        ),
        &format!("{}.", format::summary(d)),
        &[],
        Vec::new(),
        "",
    )
}

/// A project's changes page, one group of sections per compared revision; none when the
/// project lists no revision to compare with.
pub fn project(p: &Project, comparisons: &[&Comparison], root: &str) -> Option<PortalPage> {
    if comparisons.is_empty() {
        return None;
    }
    let cx = Context {
        root,
        project: p,
        controllers: super::views::controller_links(p),
    };
    let mut anchors = Anchors::new();
    let mut sections = Vec::new();
    let several = comparisons.len() > 1;
    for c in comparisons {
        match c {
            Ok(d) => {
                let prefix = if several {
                    super::table::path_segment(&d.from.rev)
                } else {
                    String::new()
                };
                let rows = d.changes.iter().map(|c| (&cx, d, c)).collect();
                let mut found = sections_of(rows, &prefix, false, &mut anchors);
                if several && let Some(first) = found.first_mut() {
                    first.title = format!("Breaking changes since {}", d.from.rev);
                }
                let id = if several {
                    format!("{prefix}-summary")
                } else {
                    "summary".to_string()
                };
                sections.push(headline(d, &id));
                sections.extend(found);
            }
            Err((_, rev, why)) => sections.push(section(
                &format!("not-compared-{}", super::table::path_segment(rev)),
                &format!("Not compared with {rev}"),
                why,
                &[],
                Vec::new(),
                "",
            )),
        }
    }
    Some(PortalPage {
        path: page_path(&p.name),
        page_title: "Changes".into(),
        lead: LEAD.into(),
        links: Vec::new(),
        sections,
    })
}

/// The `/changes/` page across projects; none when no project lists a revision to compare.
pub fn portal(projects: &[Project], comparisons: &[Comparison], root: &str) -> Option<PortalPage> {
    if comparisons.is_empty() {
        return None;
    }
    let contexts: Vec<Context> = projects
        .iter()
        .map(|p| Context {
            root,
            project: p,
            controllers: super::views::controller_links(p),
        })
        .collect();
    let mut summary = Vec::new();
    let mut rows = Vec::new();
    let mut anchors = Anchors::new();
    for c in comparisons {
        match c {
            Ok(d) => {
                let Some(cx) = contexts.iter().find(|cx| cx.project.name == d.project) else {
                    continue;
                };
                let (added, removed, changed) = d.tally();
                summary.push(TableRow {
                    anchor: anchors.unique(&["summary", &d.project, &d.from.rev]),
                    cells: vec![
                        Cell {
                            url: format!("{root}{}", page_path(&d.project)),
                            ..Cell::project(root, &d.project)
                        },
                        Cell::text(d.from.rev.clone()),
                        Cell::text(d.to.rev.clone()),
                        Cell::text(d.breaking.to_string()),
                        Cell::text(added.to_string()),
                        Cell::text(removed.to_string()),
                        Cell::text(changed.to_string()),
                    ],
                    sources: Vec::new(),
                });
                rows.extend(d.changes.iter().map(|c| (cx, d, c)));
            }
            Err((project, rev, why)) => summary.push(TableRow {
                anchor: anchors.unique(&["summary", project, rev]),
                cells: vec![
                    Cell::project(root, project),
                    Cell::text(rev.clone()),
                    Cell::text(format!("not compared: {why}")),
                    Cell::text(""),
                    Cell::text(""),
                    Cell::text(""),
                    Cell::text(""),
                ],
                sources: Vec::new(),
            }),
        }
    }
    let mut sections = sections_of(rows, "", true, &mut anchors);
    sections.insert(
        1,
        section(
            "comparisons",
            "Comparisons",
            "Each earlier revision against the pinned one; the project links to its changes page.",
            &[
                "Project", "From", "To", "Breaking", "Added", "Removed", "Changed",
            ],
            summary,
            "None.",
        ),
    );
    Some(PortalPage {
        path: "changes/".into(),
        page_title: "Changes".into(),
        lead: PORTAL_LEAD.into(),
        links: Vec::new(),
        sections,
    })
}
