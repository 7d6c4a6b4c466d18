//! View structs: what templates see. Built from the model with every display string,
//! link and anchor computed here, so templates hold no logic beyond loops and ifs.

use serde::Serialize;

use super::sequence;
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

#[derive(Serialize)]
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
    pub commit: String,
    pub commit_short: String,
    pub error: String,
    pub stats: crate::model::Stats,
    pub counts: Counts,
    pub controllers: Vec<ControllerView>,
    pub sample_controllers: Vec<ControllerView>,
    pub services: Vec<Row>,
    pub crds: Vec<Row>,
    pub webhooks: Vec<Row>,
    pub http_endpoints: Vec<Row>,
    pub configmaps: Vec<Row>,
    pub helm_charts: Vec<Row>,
    pub rbac: Vec<Row>,
    /// Rows from tests, docs, samples and tooling, shown apart.
    pub samples: Vec<SampleRow>,
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

/// Makes anchors unique within one table: the same method and path may be served by two
/// binaries with different handlers, so later rows get `-2`, `-3`, ….
#[derive(Default)]
struct Anchors {
    seen: std::collections::HashMap<String, usize>,
}

impl Anchors {
    fn unique(&mut self, anchor: String) -> String {
        let n = self.seen.entry(anchor.clone()).or_insert(0);
        *n += 1;
        if *n == 1 {
            anchor
        } else {
            format!("{anchor}-{n}")
        }
    }
}

pub fn dataflow(p: &Project) -> ProjectPage {
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
    let mut take = |what: &str, area: Area, row: Row| -> Option<Row> {
        if area.is_component() {
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
                Row {
                    anchor: anchor(&["service", &s.namespace, &s.name]),
                    cells: vec![s.name.clone(), s.namespace.clone(), ports],
                    sources: links(&s.sources),
                },
            )
        })
        .collect();
    let crds = p
        .crds
        .iter()
        .filter_map(|c| {
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
            take(
                "CRD",
                c.area,
                Row {
                    anchor: anchor(&["crd", &c.group, &c.kind]),
                    cells: vec![
                        c.kind.clone(),
                        c.group.clone(),
                        c.plural.clone(),
                        c.scope.clone(),
                        versions,
                    ],
                    sources: links(&c.sources),
                },
            )
        })
        .collect();
    let webhooks = p
        .webhooks
        .iter()
        .filter_map(|w| {
            take(
                "Webhook",
                w.area,
                Row {
                    anchor: anchor(&["webhook", &w.configuration, &w.name]),
                    cells: vec![
                        w.name.clone(),
                        format!("{:?}", w.kind).to_lowercase(),
                        w.path.clone(),
                        w.failure_policy.clone(),
                        w.service.clone(),
                    ],
                    sources: links(&w.sources),
                },
            )
        })
        .collect();
    let mut endpoint_anchors = Anchors::default();
    let http_endpoints = p
        .http_endpoints
        .iter()
        .filter_map(|e| {
            let location = format!("{}{}", e.host, e.path);
            let mut path = location.clone();
            if e.unresolved {
                path.push_str(" (unresolved)");
            }
            let mut handler = e.handler.clone();
            if e.implicit {
                handler.push_str(" (implicit)");
            }
            take(
                "HTTP endpoint",
                e.area,
                Row {
                    anchor: endpoint_anchors.unique(anchor(&["endpoint", &e.method, &location])),
                    cells: vec![e.method.clone(), path, handler, e.framework.clone()],
                    sources: links(&e.sources),
                },
            )
        })
        .collect();
    let configmaps = p
        .configmaps
        .iter()
        .filter_map(|c| {
            take(
                "ConfigMap",
                c.area,
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
        http_endpoints,
        configmaps,
        helm_charts,
        rbac,
        samples,
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
        assert_eq!(
            anchor(&["endpoint", "POST", "/v1/chat/completions"]),
            "endpoint-post-v1-chat-completions"
        );
        let mut seen = Anchors::default();
        assert_eq!(
            seen.unique("endpoint-any-readyz".into()),
            "endpoint-any-readyz"
        );
        assert_eq!(
            seen.unique("endpoint-any-readyz".into()),
            "endpoint-any-readyz-2"
        );
    }
}
