//! View structs: what templates see. Built from the model with every display string,
//! link and anchor computed here, so templates hold no logic beyond loops and ifs.

use serde::Serialize;

use super::manifests;
use super::sequence;
use super::table::{Cell, KindLinks, TableRow, api_page};
use crate::config::Site;
use crate::link;
use crate::model::{Area, Counts, Portal, Project, SourceRef};
use crate::source::line_url;

#[derive(Serialize)]
pub struct Chrome {
    pub title: String,
    /// The base path, e.g. `/atlas/`: every link starts with it.
    pub root: String,
    pub projects: Vec<NavItem>,
}

#[derive(Serialize)]
pub struct NavItem {
    pub name: String,
    pub title: String,
}

impl Chrome {
    pub fn new(site: &Site, portal: &Portal) -> Chrome {
        Chrome {
            title: site.title.clone(),
            root: site.base_path.clone(),
            projects: portal
                .projects
                .iter()
                .map(|p| NavItem {
                    name: p.name.clone(),
                    title: p.title.clone(),
                })
                .collect(),
        }
    }
}

#[derive(Serialize)]
pub struct Empty {}

#[derive(Serialize)]
pub struct Home {
    pub cards: Vec<Card>,
    pub totals: Counts,
    pub shared_kinds: Vec<SharedKind>,
}

#[derive(Serialize)]
pub struct Card {
    pub name: String,
    pub title: String,
    pub description: String,
    pub repository: String,
    pub commit_short: String,
    pub counts: Counts,
    pub error: String,
}

#[derive(Serialize)]
pub struct SharedKind {
    pub kind: String,
    pub defined_by: String,
    pub watched_by: String,
}

pub fn home(portal: &Portal) -> Home {
    let mut totals = Counts::default();
    for p in &portal.projects {
        let c = &p.counts;
        totals.controllers += c.controllers;
        totals.watches += c.watches;
        totals.crds += c.crds;
        totals.webhooks += c.webhooks;
        totals.http_endpoints += c.http_endpoints;
        totals.services += c.services;
        totals.configmaps += c.configmaps;
        totals.helm_charts += c.helm_charts;
        totals.rbac += c.rbac;
        totals.diagnostics += c.diagnostics;
    }
    Home {
        cards: portal
            .projects
            .iter()
            .map(|p| Card {
                name: p.name.clone(),
                title: p.title.clone(),
                description: p.description.clone(),
                repository: p.repository.clone(),
                commit_short: p.commit.chars().take(12).collect(),
                counts: p.counts.clone(),
                error: p.error.clone().unwrap_or_default(),
            })
            .collect(),
        totals,
        shared_kinds: link::shared_kinds(portal)
            .into_iter()
            .map(|k| SharedKind {
                kind: if k.group.is_empty() {
                    k.kind.clone()
                } else {
                    format!("{} ({})", k.kind, k.group)
                },
                defined_by: k.defined_by.join(", "),
                watched_by: k
                    .watched_by
                    .iter()
                    .map(|w| format!("{}/{} ({})", w.project, w.controller, w.relation.label()))
                    .collect::<Vec<_>>()
                    .join(", "),
            })
            .collect(),
    }
}

#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct Link {
    pub label: String,
    /// Empty when the project has no source link template.
    pub url: String,
}

#[derive(Serialize)]
pub struct ProjectPage {
    pub name: String,
    pub title: String,
    pub description: String,
    pub repository: String,
    pub commit: String,
    pub commit_short: String,
    pub error: String,
    pub stats: crate::model::Stats,
    pub counts: Counts,
    pub controllers: Vec<ControllerView>,
    pub sample_controllers: Vec<ControllerView>,
    pub services: Vec<Row>,
    pub crds: Vec<TableRow>,
    pub webhooks: Vec<TableRow>,
    pub configmaps: Vec<Row>,
    pub helm_charts: Vec<Row>,
    pub rbac: Vec<Row>,
    /// Rows from tests, docs, samples and tooling, shown apart.
    pub samples: Vec<SampleRow>,
    /// Rows of bundled dependency manifests (another project's objects), shown apart.
    pub bundled: Vec<SampleRow>,
    /// The folders of bundled dependency manifests, with the evidence.
    pub bundles: Vec<Row>,
    /// Number of CRD rows, which have pages under `api/`.
    pub api_kinds: usize,
    pub diagnostics: Vec<Row>,
}

#[derive(Serialize)]
pub struct ControllerView {
    pub anchor: String,
    pub name: String,
    pub reconciler: String,
    pub sources: Vec<Link>,
    pub watches: Vec<Row>,
    pub mermaid: String,
}

/// A table row: an anchor, its cells (already display text) and its source links.
#[derive(Serialize)]
pub struct Row {
    pub anchor: String,
    pub cells: Vec<String>,
    pub sources: Vec<Link>,
}

#[derive(Serialize)]
pub struct SampleRow {
    pub what: String,
    pub row: Row,
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

/// A row with plain cells, for the samples and bundled lists.
fn plain(row: &TableRow) -> Row {
    Row {
        anchor: row.anchor.clone(),
        cells: row.cells.iter().map(|c| c.text.clone()).collect(),
        sources: row.sources.clone(),
    }
}

/// The dataflow and overview pages of a project. `root` is the site's base path and
/// `kind_links` locates every CRD of the portal, for links from rules to kinds.
pub fn dataflow(p: &Project, root: &str, kind_links: &KindLinks) -> ProjectPage {
    let links = |sources: &[SourceRef]| -> Vec<Link> {
        sources
            .iter()
            .map(|s| Link {
                label: format!("{}:{}", s.file, s.line),
                url: line_url(&p.source_url, &p.commit, &s.file, s.line).unwrap_or_default(),
            })
            .collect()
    };
    let mut samples = Vec::new();
    let mut bundled = Vec::new();
    // Rows of bundled dependency manifests and of samples are listed apart.
    let mut take = |what: &str, area: Area, is_bundled: bool, row: Row| -> Option<Row> {
        if is_bundled {
            bundled.push(SampleRow {
                what: what.to_string(),
                row,
            });
            None
        } else if area.is_component() {
            Some(row)
        } else {
            samples.push(SampleRow {
                what: what.to_string(),
                row,
            });
            None
        }
    };
    let controller_view = |c: &crate::model::Controller| ControllerView {
        anchor: anchor(&["controller", &c.name]),
        name: c.name.clone(),
        reconciler: c.reconciler.clone(),
        sources: links(&c.sources),
        watches: c
            .watches
            .iter()
            .map(|w| {
                let kind = if w.is_resolved() {
                    w.gvk().display()
                } else {
                    format!(
                        "{}.{} (unresolved)",
                        w.import_path.as_deref().unwrap_or("?"),
                        w.kind
                    )
                };
                Row {
                    anchor: anchor(&["watch", &c.name, w.relation.label(), &w.group, &w.kind]),
                    cells: vec![
                        w.relation.label().to_string(),
                        kind,
                        if w.conditional {
                            "yes".into()
                        } else {
                            String::new()
                        },
                    ],
                    sources: links(&w.sources),
                }
            })
            .collect(),
        mermaid: sequence::controller_diagram(p, c),
    };
    let (component, sample): (Vec<_>, Vec<_>) =
        p.controllers.iter().partition(|c| c.area.is_component());

    let services = p
        .services
        .iter()
        .filter_map(|s| {
            let ports = s
                .ports
                .iter()
                .map(|port| {
                    let name = if port.name.is_empty() {
                        String::new()
                    } else {
                        format!(" ({})", port.name)
                    };
                    format!("{}→{}/{}{name}", port.port, port.target_port, port.protocol)
                })
                .collect::<Vec<_>>()
                .join(", ");
            take(
                "Service",
                s.area,
                s.bundled,
                Row {
                    anchor: anchor(&["service", &s.namespace, &s.name]),
                    cells: vec![s.name.clone(), s.namespace.clone(), ports],
                    sources: links(&s.sources),
                },
            )
        })
        .collect();
    // One row per distinct content: a kind shipped with two schemas says so.
    let variants = |c: &crate::model::Crd| {
        p.crds
            .iter()
            .filter(|o| o.group == c.group && o.kind == c.kind)
            .count()
    };
    let mut crds = Vec::new();
    for (i, c) in p.crds.iter().enumerate() {
        let versions = c
            .versions
            .iter()
            .map(|v| {
                let mut flags = Vec::new();
                if v.storage {
                    flags.push("storage");
                }
                if !v.served {
                    flags.push("not served");
                }
                if flags.is_empty() {
                    v.name.clone()
                } else {
                    format!("{} ({})", v.name, flags.join(", "))
                }
            })
            .collect::<Vec<_>>()
            .join(", ");
        let fields = c.schema.iter().map(|s| s.fields.len()).max().unwrap_or(0);
        let n = variants(c);
        let schema = if n > 1 {
            format!("{fields} fields; one of {n} different definitions of this kind")
        } else {
            format!("{fields} fields")
        };
        let nth = i.to_string();
        let row = TableRow {
            anchor: anchor(&["crd", &c.group, &c.kind, if n > 1 { &nth } else { "" }]),
            cells: vec![
                Cell::link(
                    c.kind.clone(),
                    format!("{}{}", root, api_page(&p.name, &c.group, &c.kind)),
                ),
                Cell::text(c.group.clone()),
                Cell::text(c.plural.clone()),
                Cell::text(c.scope.clone()),
                Cell::text(versions),
                Cell::text(schema),
            ],
            sources: links(&c.sources),
        };
        if take("CRD", c.area, c.bundled, plain(&row)).is_some() {
            crds.push(row);
        }
    }
    let mut webhooks = Vec::new();
    for w in &p.webhooks {
        let (rules, kinds) = manifests::webhook_rules(w, kind_links);
        let row = TableRow {
            anchor: anchor(&["webhook", &w.configuration, &w.name]),
            cells: vec![
                Cell::text(w.name.clone()),
                Cell::text(format!("{:?}", w.kind).to_lowercase()),
                Cell::text(w.path.clone()),
                Cell::text(w.failure_policy.clone()),
                Cell::text(manifests::webhook_service(w)),
                Cell::text(rules),
                Cell::list(kinds),
            ],
            sources: links(&w.sources),
        };
        if take("Webhook", w.area, w.bundled, plain(&row)).is_some() {
            webhooks.push(row);
        }
    }
    let configmaps = p
        .configmaps
        .iter()
        .filter_map(|c| {
            take(
                "ConfigMap",
                c.area,
                c.bundled,
                Row {
                    anchor: anchor(&["configmap", &c.namespace, &c.name]),
                    cells: vec![c.name.clone(), c.namespace.clone(), c.keys.join(", ")],
                    sources: links(&c.sources),
                },
            )
        })
        .collect();
    let helm_charts = p
        .helm_charts
        .iter()
        .filter_map(|h| {
            take(
                "Helm chart",
                h.area,
                false,
                Row {
                    anchor: anchor(&["chart", &h.name]),
                    cells: vec![h.name.clone(), h.version.clone(), h.app_version.clone()],
                    sources: links(&h.sources),
                },
            )
        })
        .collect();
    let rbac = p
        .rbac
        .iter()
        .enumerate()
        .filter_map(|(i, r)| {
            let groups = r.groups.iter().map(|g| {
                if g.is_empty() {
                    "core".to_string()
                } else {
                    g.clone()
                }
            });
            take(
                "RBAC rule",
                r.area,
                r.bundled,
                Row {
                    anchor: anchor(&["rbac", &r.role, &i.to_string()]),
                    cells: vec![
                        r.role.clone(),
                        groups.collect::<Vec<_>>().join(", "),
                        r.resources.join(", "),
                        r.verbs.join(", "),
                    ],
                    sources: links(&r.sources),
                },
            )
        })
        .collect();
    let bundles = p
        .bundled_manifests
        .iter()
        .map(|b| Row {
            anchor: anchor(&["bundle", &b.dir]),
            cells: vec![
                b.dir.clone(),
                b.project.clone(),
                b.objects.to_string(),
                b.evidence.join("; "),
            ],
            sources: Vec::new(),
        })
        .collect();
    let diagnostics = p
        .diagnostics
        .iter()
        .enumerate()
        .map(|(i, d)| Row {
            anchor: format!("diagnostic-{}", i + 1),
            cells: vec![d.message.clone()],
            sources: links(&[SourceRef::new(&d.file, d.line)]),
        })
        .collect();
    ProjectPage {
        name: p.name.clone(),
        title: p.title.clone(),
        description: p.description.clone(),
        repository: p.repository.clone(),
        commit: p.commit.clone(),
        commit_short: p.commit.chars().take(12).collect(),
        error: p.error.clone().unwrap_or_default(),
        stats: p.stats.clone(),
        counts: Counts::of(p),
        controllers: component.into_iter().map(&controller_view).collect(),
        sample_controllers: sample.into_iter().map(&controller_view).collect(),
        services,
        crds,
        webhooks,
        configmaps,
        helm_charts,
        rbac,
        samples,
        bundled,
        bundles,
        api_kinds: p.crds.len(),
        diagnostics,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anchors_are_stable_slugs() {
        assert_eq!(
            anchor(&["watch", "widget", "Owns", "apps", "Deployment"]),
            "watch-widget-owns-apps-deployment"
        );
        assert_eq!(anchor(&["service", "", "a b"]), "service-a-b");
        assert_eq!(anchor(&["crd", "x.io", "<K>"]), "crd-x-io-k");
    }
}
