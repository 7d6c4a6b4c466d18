//! Deprecated and removed Kubernetes API versions the projects use (see `deprecations`):
//! a section of each project's configuration page and the `/platform/kubernetes-apis/`
//! page across projects, removed ones first, each use with its file and line.

use super::kinds::PortalPage;
use super::table::section;
use super::table::{Anchors, Cell, Section, TableRow, source_links};
use kubernetes::KubeVersion;
use kubernetes::deprecations::{self, Finding, Status};
use model::{Place, Project};

const SOURCE: &str = "https://kubernetes.io/docs/reference/using-api/deprecation-guide/";

/// What the tables are checked against, for the section's intro.
fn intro(target: Option<KubeVersion>) -> String {
    let against = match target {
        Some(t) => format!("Checked against Kubernetes {t} (site.target_kubernetes): "),
        None => "No site.target_kubernetes is set, so each use shows when its API is deprecated and removed; set it to judge them: ".into(),
    };
    format!(
        "{against}every apiVersion of the manifests and Helm templates, and every kind the code watches, reads or writes, looked up in portolan's table of Kubernetes API deprecations and removals (from the Kubernetes Deprecated API Migration Guide, {SOURCE})."
    )
}

fn status_cell(f: &Finding) -> Cell {
    let when = Status::Later.label(f.entry);
    Cell::text(match f.status {
        Status::Removed => format!("removed at the target ({when})"),
        Status::Deprecated => format!("deprecated at the target ({when})"),
        Status::Later => when,
    })
}

fn place(f: &Finding) -> &'static str {
    match f.place {
        Place::Own => "own",
        Place::Samples => "samples and tooling",
        Place::Bundled => "bundled",
    }
}

fn row(p: &Project, f: &Finding, anchors: &mut Anchors, project_cell: Option<Cell>) -> TableRow {
    let first = f.sources.first();
    let mut cells: Vec<Cell> = project_cell.into_iter().collect();
    cells.extend([
        Cell::text(f.api()),
        status_cell(f),
        Cell::text(f.how.clone()),
        Cell::text(place(f)),
        Cell::text(f.entry.replacement.clone()),
    ]);
    TableRow {
        anchor: anchors.unique(&[
            &p.name,
            &f.api(),
            first.map_or("", |s| s.file.as_str()),
            &first.map_or(0, |s| s.line).to_string(),
        ]),
        cells,
        sources: source_links(p, &f.sources),
    }
}

const HEADERS: [&str; 6] = ["API", "Status", "Use", "Where", "Use instead", "Source"];

/// The project's section.
pub fn project_section(p: &Project, target: Option<KubeVersion>) -> Section {
    let mut anchors = Anchors::new();
    let rows = deprecations::findings(p, target)
        .iter()
        .map(|f| row(p, f, &mut anchors, None))
        .collect();
    section(
        "kubernetes-apis",
        "Deprecated and removed Kubernetes APIs",
        &intro(target),
        &HEADERS,
        rows,
        "None: no manifest, template or code of the project uses an API version the table lists.",
    )
}

/// The page across projects.
pub fn platform(
    projects: &[Project],
    target: Option<KubeVersion>,
    root: &str,
    links: Vec<super::views::Link>,
) -> PortalPage {
    let mut anchors = Anchors::new();
    let mut found: Vec<(&Project, Finding)> = projects
        .iter()
        .flat_map(|p| {
            deprecations::findings(p, target)
                .into_iter()
                .map(move |f| (p, f))
        })
        .collect();
    found.sort_by(|(a, f), (b, g)| {
        (f.status, f.place as u8, &a.name).cmp(&(g.status, g.place as u8, &b.name))
    });
    let rows = found
        .iter()
        .map(|(p, f)| row(p, f, &mut anchors, Some(Cell::project(root, &p.name))))
        .collect();
    let mut headers = vec!["Project"];
    headers.extend(HEADERS);
    PortalPage {
        path: "platform/kubernetes-apis/".into(),
        page_title: "Kubernetes API versions".into(),
        lead: match target {
            Some(t) => format!(
                "The deprecated and removed Kubernetes API versions each project uses, judged for Kubernetes {t}: removed ones first."
            ),
            None => "The deprecated and removed Kubernetes API versions each project uses.".into(),
        },
        links,
        sections: vec![section(
            "kubernetes-apis",
            "Deprecated and removed Kubernetes APIs",
            &intro(target),
            &headers,
            rows,
            "None: no project uses an API version the table lists.",
        )],
    }
}
