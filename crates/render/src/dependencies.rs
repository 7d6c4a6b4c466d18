//! Dependencies: the project overview's "Dependencies" section (notable modules first, the
//! rest folded) and the platform page `/platform/dependencies/`, the version matrix of the
//! modules two or more projects require (rows whose versions differ flagged, each cell
//! linking its manifest line) followed by the images two or more projects name.
//!
//! Notable: controller-runtime, `k8s.io/*`, the modules of the portal's other projects
//! (their API modules), and for Rust `kube`, `kube-*` and `k8s-openapi`.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use super::kinds::PortalPage;
use super::table::{Anchors, Cell, Section, TableRow, counted, source_links};
use model::{Dependency, Ecosystem, Project};
use source::line_url;

/// The overview's dependency tables.
#[derive(Serialize, Default)]
pub struct DependenciesView {
    /// Each go.mod and Cargo.toml: what it declares about itself.
    pub files: Vec<TableRow>,
    /// Notable requirements of the component.
    pub notable: Vec<TableRow>,
    /// Every other requirement of the component.
    pub other: Vec<TableRow>,
    /// Requirements of manifests under tests, docs, samples and tooling.
    pub samples: Vec<TableRow>,
}

/// The module paths the portal's projects declare, for "API modules of other projects".
pub fn portal_modules(projects: &[Project]) -> BTreeMap<String, String> {
    projects
        .iter()
        .flat_map(|p| {
            p.findings
                .module_files
                .iter()
                .filter(|f| f.ecosystem == Ecosystem::Go && !f.module.is_empty())
                .map(|f| (f.module.clone(), p.name.clone()))
        })
        .collect()
}

/// Why a dependency is notable, or None.
fn notable(d: &Dependency, project: &str, modules: &BTreeMap<String, String>) -> Option<String> {
    let m = d.module.as_str();
    match d.ecosystem {
        Ecosystem::Go => {
            if m == "sigs.k8s.io/controller-runtime" {
                return Some("controller-runtime".into());
            }
            if m.starts_with("k8s.io/") {
                return Some("Kubernetes".into());
            }
            modules
                .iter()
                .find(|(module, owner)| {
                    owner.as_str() != project
                        && (m == module.as_str() || m.starts_with(&format!("{module}/")))
                })
                .map(|(_, owner)| format!("module of project {owner}"))
        }
        Ecosystem::Cargo => (m == "kube" || m.starts_with("kube-") || m == "k8s-openapi")
            .then(|| "Kubernetes".into()),
    }
}

/// `direct`, `indirect`, `dev`, `build (cfg(unix))`, `workspace`.
fn how(d: &Dependency) -> String {
    let mut s = match (d.ecosystem, d.indirect, d.kind.as_str()) {
        (Ecosystem::Go, true, _) => "indirect".to_string(),
        (Ecosystem::Go, false, _) => "direct".to_string(),
        (Ecosystem::Cargo, _, "") => "normal".to_string(),
        (Ecosystem::Cargo, _, k) => k.to_string(),
    };
    if !d.target.is_empty() {
        s.push_str(&format!(" ({})", d.target));
    }
    s
}

/// Version, or the path/git source Cargo takes it from, and where a workspace entry is.
fn version(d: &Dependency) -> String {
    let mut parts = Vec::new();
    if !d.version.is_empty() {
        parts.push(d.version.clone());
    }
    if !d.path.is_empty() {
        parts.push(format!("path {}", d.path));
    }
    if !d.git.is_empty() {
        parts.push(format!("git {}", d.git));
    }
    if let Some(w) = &d.workspace {
        parts.push(format!("from the workspace ({}:{})", w.file, w.line));
    }
    parts.join("; ")
}

fn row(p: &Project, d: &Dependency, why: &str, anchors: &mut Anchors) -> TableRow {
    TableRow {
        anchor: anchors.unique(&["dependency", &d.module, &d.source.file]),
        cells: vec![
            Cell::text(d.module.clone()),
            Cell::text(version(d)),
            Cell::text(how(d)),
            Cell::text(d.replaced_by.clone()),
            Cell::text(d.features.join(", ")),
            Cell::text(why),
        ],
        sources: source_links(p, std::slice::from_ref(&d.source)),
    }
}

/// The overview's tables for one project.
pub fn project(p: &Project, modules: &BTreeMap<String, String>) -> DependenciesView {
    let mut anchors = Anchors::new();
    let mut view = DependenciesView::default();
    for f in &p.findings.module_files {
        let mut said = Vec::new();
        if !f.go.is_empty() {
            said.push(format!("go {}", f.go));
        }
        if !f.toolchain.is_empty() {
            said.push(format!("toolchain {}", f.toolchain));
        }
        if !f.replaces.is_empty() {
            said.push(counted(f.replaces.len(), "replace", "replaces"));
        }
        let requires = p
            .findings
            .dependencies
            .iter()
            .filter(|d| d.source.file == f.source.file)
            .count();
        said.push(counted(requires, "requirement", "requirements"));
        if !f.area.is_component() {
            said.push("tests, docs, samples or tooling".into());
        }
        view.files.push(TableRow {
            anchor: anchors.unique(&["module-file", &f.source.file]),
            cells: vec![
                Cell::text(f.source.file.clone()),
                Cell::text(f.ecosystem.label()),
                Cell::text(if f.module.is_empty() {
                    "(workspace)".to_string()
                } else {
                    f.module.clone()
                }),
                Cell::text(said.join(", ")),
            ],
            sources: source_links(p, std::slice::from_ref(&f.source)),
        });
    }
    for d in &p.findings.dependencies {
        if !d.area.is_component() {
            view.samples.push(row(p, d, "", &mut anchors));
            continue;
        }
        match notable(d, &p.name, modules) {
            Some(why) => view.notable.push(row(p, d, &why, &mut anchors)),
            None => view.other.push(row(p, d, "", &mut anchors)),
        }
    }
    view
}

/// One project's versions of a module, each linking its manifest line.
fn version_cells(p: &Project, deps: &[&Dependency]) -> Cell {
    Cell::list(
        deps.iter()
            .map(|d| {
                let mut text = if d.version.is_empty() {
                    version(d)
                } else {
                    d.version.clone()
                };
                if d.indirect {
                    text.push_str(" (indirect)");
                }
                if !d.replaced_by.is_empty() {
                    text.push_str(&format!(" ⇒ {}", d.replaced_by));
                }
                let url = line_url(&p.source_url, &p.commit, &d.source.file, d.source.line)
                    .unwrap_or_default();
                Cell::link(text, url)
            })
            .collect(),
    )
}

/// The version a row compares: a replacement's target version wins over the requirement.
fn effective(d: &Dependency) -> String {
    match d.replaced_by.split_once(' ') {
        Some((_, v)) => v.to_string(),
        None if !d.replaced_by.is_empty() => d.replaced_by.clone(),
        None => version(d),
    }
}

/// `/platform/dependencies/`.
pub fn platform(projects: &[Project], root: &str, links: Vec<super::views::Link>) -> PortalPage {
    let mut anchors = Anchors::new();
    // (ecosystem, module) → project index → its rows.
    let mut by_module: BTreeMap<(Ecosystem, String), BTreeMap<usize, Vec<&Dependency>>> =
        BTreeMap::new();
    for (i, p) in projects.iter().enumerate() {
        for d in p
            .findings
            .dependencies
            .iter()
            .filter(|d| d.area.is_component())
        {
            by_module
                .entry((d.ecosystem, d.module.clone()))
                .or_default()
                .entry(i)
                .or_default()
                .push(d);
        }
    }
    let mut differing = 0;
    let mut rows = Vec::new();
    for ((ecosystem, module), users) in &by_module {
        if users.len() < 2 {
            continue;
        }
        let versions: BTreeSet<String> = users.values().flatten().map(|d| effective(d)).collect();
        let differs = versions.len() > 1;
        differing += usize::from(differs);
        let mut cells = vec![
            Cell::text(module.clone()),
            Cell::text(ecosystem.label()),
            Cell::text(if differs {
                format!("differ ({})", versions.len())
            } else {
                "same".to_string()
            }),
        ];
        for (i, p) in projects.iter().enumerate() {
            cells.push(match users.get(&i) {
                Some(deps) => version_cells(p, deps),
                None => Cell::text(""),
            });
        }
        let kubernetes = match ecosystem {
            Ecosystem::Go => {
                module == "sigs.k8s.io/controller-runtime" || module.starts_with("k8s.io/")
            }
            Ecosystem::Cargo => {
                module == "kube" || module.starts_with("kube-") || module == "k8s-openapi"
            }
        };
        rows.push((
            (!differs, !kubernetes),
            TableRow {
                anchor: anchors.unique(&["module", module]),
                cells,
                sources: Vec::new(),
            },
        ));
    }
    // Differing rows first, Kubernetes modules first among them, then by module.
    rows.sort_by_key(|(order, _)| *order);
    let mut headers = vec!["Module".to_string(), "Kind".into(), "Versions".into()];
    headers.extend(projects.iter().map(|p| p.name.clone()));
    headers.push(String::new());
    let matrix = Section {
        id: "matrix".into(),
        title: "Version matrix".into(),
        intro: format!(
            "Modules and crates that two or more projects require (their own component's go.mod and Cargo.toml files, not those of tests or tools), with the version each requires; a `replace` target counts as the version. {} of {} differ and come first, controller-runtime and Kubernetes modules first among them. Each version links its manifest line.",
            differing,
            rows.len()
        ),
        headers,
        rows: rows.into_iter().map(|(_, r)| r).collect(),
        empty: "No module is required by two or more projects.".into(),
        chart: String::new(),
        note: None,
        code: Vec::new(),
    };
    PortalPage {
        path: "platform/dependencies/".into(),
        page_title: "Dependencies and images".into(),
        lead: "What the projects share: the modules their manifests require, and the container images their deployment files name.".into(),
        links,
        sections: vec![matrix, super::images::platform_section(projects, root)],
    }
}

#[cfg(test)]
mod tests;
