//! The project overview (`/projects/P/`) and dataflow (`/projects/P/dataflow/`) pages:
//! one view, built here table by table. Rows from tests, docs, samples and tooling move
//! to the "Samples and tooling" list, rows of bundled dependency manifests to their own.

use serde::Serialize;

use super::super::manifests;
use super::super::table::{
    Anchors, Cell, KindLinks, TableRow, api_page, service_port, source_links,
};
use super::binaries::{BinariesAndMetrics, binaries_and_metrics};
use super::controllers::{self, ControllerView};
use super::{BinaryView, Row, SampleRow, anchor, kind_label, line_of, plain};
use model::{Area, Counts, Origin, Project, SourceRef};

#[derive(Serialize)]
pub struct ProjectPage {
    pub name: String,
    pub title: String,
    pub description: String,
    pub repository: String,
    pub commit: String,
    pub commit_short: String,
    pub error: String,
    pub stats: model::Stats,
    pub counts: Counts,
    /// Every count as `render::counts` items.
    pub count_items: Vec<super::super::counts::CountItem>,
    pub controllers: Vec<ControllerView>,
    pub sample_controllers: Vec<ControllerView>,
    pub services: Vec<Row>,
    pub crds: Vec<TableRow>,
    pub webhooks: Vec<TableRow>,
    pub http_endpoints: Vec<Row>,
    pub configmaps: Vec<Row>,
    pub helm_charts: Vec<Row>,
    pub rbac: Vec<Row>,
    /// Rows from tests, docs, samples and tooling, shown apart.
    pub samples: Vec<SampleRow>,
    /// Client writes no controller's Reconcile reaches, by package.
    pub package_operations: Vec<Row>,
    /// Client reads no controller's Reconcile reaches, by package.
    pub package_reads: Vec<Row>,
    /// The Go code's client calls found against resolved and listed; None when not counted.
    pub client_calls: Option<super::client_calls::CallsView>,
    /// Informers outside any controller, by package.
    pub informers: Vec<Row>,
    /// Programs of the component, then the flag sets of library packages no program is
    /// shown to reach; those from tests, docs, samples and tooling apart.
    pub binaries: Vec<BinaryView>,
    pub sample_binaries: Vec<BinaryView>,
    pub metrics: Vec<Row>,
    pub sample_metrics: Vec<Row>,
    /// External connections of the component (databases, caches, queues, gRPC and HTTP
    /// endpoints, object stores); those of tests and tooling apart.
    pub connections: Vec<Row>,
    pub sample_connections: Vec<Row>,
    /// Rows of bundled dependency manifests (another project's objects), shown apart.
    pub bundled: Vec<SampleRow>,
    /// The folders of bundled dependency manifests, with the evidence.
    pub bundles: Vec<Row>,
    /// Number of CRD rows, which have pages under `api/`.
    pub api_kinds: usize,
    pub diagnostics: Vec<Row>,
    /// The Reconciliation Flow diagrams (summary, then per controller), filled by
    /// `render::flow` for the dataflow page.
    pub flows: Vec<super::super::flow::FlowView>,
    /// The go.mod and Cargo.toml requirements, filled by `render::dependencies` (which
    /// needs the portal's other projects to tell their API modules).
    pub dependencies: super::super::dependencies::DependenciesView,
}

/// Where rows that are not the project's own go: bundled dependency manifests and
/// samples are listed apart, each with what it is.
#[derive(Default)]
struct Apart {
    samples: Vec<SampleRow>,
    bundled: Vec<SampleRow>,
}

impl Apart {
    /// The row back when it is the project's own; otherwise kept in its list.
    fn keep(&mut self, what: &str, area: Area, is_bundled: bool, row: Row) -> Option<Row> {
        let list = if is_bundled {
            &mut self.bundled
        } else if area.is_component() {
            return Some(row);
        } else {
            &mut self.samples
        };
        list.push(SampleRow {
            what: what.to_string(),
            row,
        });
        None
    }
}

/// The overview and dataflow pages of a project. `root` is the site's base path and
/// `kind_links` locates every CRD of the portal, for links from rules to kinds.
pub fn project_page(p: &Project, root: &str, kind_links: &KindLinks) -> ProjectPage {
    let mut apart = Apart::default();
    let (component, sample) = super::super::main_first::ordered(p);
    let controllers = component
        .into_iter()
        .map(|c| {
            let url = controllers::page_of(p, c)
                .map(|path| format!("{root}{path}"))
                .unwrap_or_default();
            controllers::view(p, c, kind_links, url)
        })
        .collect();
    let sample_controllers = sample
        .into_iter()
        .map(|c| controllers::view(p, c, kind_links, String::new()))
        .collect();
    let services = services(p, &mut apart);
    let crds = crds(p, root, &mut apart);
    let webhooks = webhooks(p, kind_links, &mut apart);
    let http_endpoints = http_endpoints(p, &mut apart);
    let configmaps = configmaps(p, &mut apart);
    let helm_charts = helm_charts(p, &mut apart);
    let rbac = rbac(p, &mut apart);
    let package_operations = package_rows(
        p,
        &p.findings.package_operations,
        "Client write",
        &mut apart,
    );
    let package_reads = package_rows(p, &p.findings.package_reads, "Client read", &mut apart);
    let informers = informers(p, &mut apart);
    let BinariesAndMetrics {
        binaries,
        sample_binaries,
        metrics,
        sample_metrics,
    } = binaries_and_metrics(p);
    let (connections, sample_connections) = connections(p);
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
        count_items: super::super::counts::items(
            &Counts::of(p),
            super::super::counts::Detail::Full,
        ),
        controllers,
        sample_controllers,
        services,
        crds,
        webhooks,
        http_endpoints,
        configmaps,
        helm_charts,
        rbac,
        samples: apart.samples,
        package_operations,
        package_reads,
        client_calls: super::client_calls::view(
            p,
            p.findings.client_calls.as_ref(),
            super::client_calls::Scope::Project,
        ),
        informers,
        binaries,
        sample_binaries,
        metrics,
        sample_metrics,
        connections,
        sample_connections,
        bundled: apart.bundled,
        bundles: bundles(p),
        api_kinds: p.findings.crds.len(),
        diagnostics: diagnostics(p),
        flows: Vec::new(),
        dependencies: Default::default(),
    }
}

/// External connections: the component's, then those of tests and tooling.
fn connections(p: &Project) -> (Vec<Row>, Vec<Row>) {
    let mut anchors = Anchors::new();
    let mut own = Vec::new();
    let mut samples = Vec::new();
    for c in &p.findings.connections {
        let (file, line) = super::super::connections::anchor_parts(c);
        let row = Row {
            anchor: anchors.unique(&["connection", &c.kind, &file, &line]),
            cells: super::super::connections::connection_cells(p, c),
            sources: source_links(p, &c.sources),
        };
        if c.area.is_component() {
            own.push(row);
        } else {
            samples.push(row);
        }
    }
    (own, samples)
}

/// Services with their ports.
fn services(p: &Project, apart: &mut Apart) -> Vec<Row> {
    p.findings
        .services
        .iter()
        .filter_map(|s| {
            let ports = s
                .ports
                .iter()
                .map(service_port)
                .collect::<Vec<_>>()
                .join(", ");
            apart.keep(
                "Service",
                s.area,
                s.bundled,
                Row {
                    anchor: anchor(&["service", &s.namespace, &s.name]),
                    cells: vec![s.name.clone(), s.namespace.clone(), ports],
                    sources: source_links(p, &s.sources),
                },
            )
        })
        .collect()
}

/// CRDs, one row per distinct content: a kind shipped with two schemas says so.
fn crds(p: &Project, root: &str, apart: &mut Apart) -> Vec<TableRow> {
    let variants = |c: &model::Crd| {
        p.findings
            .crds
            .iter()
            .filter(|o| o.group == c.group && o.kind == c.kind)
            .count()
    };
    let mut rows = Vec::new();
    for (i, c) in defined_crds_order(&p.findings.crds) {
        let versions = super::super::api::versions_text(c);
        let fields = super::super::api::field_count(c);
        let n = variants(c);
        let richest = n > 1 && !rows.iter().any(|r: &TableRow| r.cells[0].text == c.kind);
        let rules = match super::super::api::rule_count(c) {
            0 => String::new(),
            1 => "; 1 validation rule".to_string(),
            n => format!("; {n} validation rules"),
        };
        let schema = if richest {
            format!("{fields} fields{rules}; the richest of {n} different definitions of this kind")
        } else if n > 1 {
            format!("{fields} fields{rules}; one of {n} different definitions of this kind")
        } else {
            format!("{fields} fields{rules}")
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
            sources: source_links(p, &c.sources),
        };
        if apart.keep("CRD", c.area, c.bundled, plain(&row)).is_some() {
            rows.push(row);
        }
    }
    rows
}

/// The CRDs in model order, except that the variants of one kind (a full and a minimal
/// CRD) come together at the first one's place, richest first (as on the API reference),
/// so a kind's first row shows its full field count. Each keeps its model index, which
/// anchors its row.
fn defined_crds_order(crds: &[model::Crd]) -> Vec<(usize, &model::Crd)> {
    let mut first: std::collections::HashMap<(&str, &str), usize> =
        std::collections::HashMap::new();
    for (i, c) in crds.iter().enumerate() {
        first.entry((&c.group, &c.kind)).or_insert(i);
    }
    let mut order: Vec<(usize, &model::Crd)> = crds.iter().enumerate().collect();
    order.sort_by_key(|(_, c)| {
        (
            first[&(c.group.as_str(), c.kind.as_str())],
            super::super::api::richest_first(c),
        )
    });
    order
}

/// Webhooks from manifests, markers and code. The same webhook can be declared in several
/// places (a kustomize base and a chart): later rows get `-2`, `-3`, … anchors.
fn webhooks(p: &Project, kind_links: &KindLinks, apart: &mut Apart) -> Vec<TableRow> {
    let mut anchors = Anchors::new();
    let mut rows = Vec::new();
    for w in &p.findings.webhooks {
        // Manifest rows keep the anchors they had before webhooks had an origin.
        let row_anchor = match (w.origin, &w.object) {
            (Origin::Manifest, _) => anchor(&["webhook", &w.configuration, &w.name]),
            (Origin::Marker, _) => anchor(&["webhook", "marker", &w.name, &w.path]),
            (Origin::Code, Some(o)) => anchor(&[
                "webhook",
                "code",
                w.kind.label(),
                &o.group,
                &o.version,
                &o.kind,
            ]),
            (Origin::Code, None) => anchor(&["webhook", "code", w.kind.label(), &w.path]),
        };
        // A webhook served by code has no name of its own: the configuration names it.
        let name = match (&w.object, w.name.is_empty()) {
            (Some(object), true) => format!("(served for {})", object.display()),
            _ => w.name.clone(),
        };
        let (rules, kinds) = manifests::webhook_rules(w, kind_links);
        let row = TableRow {
            anchor: anchors.unique(&[&row_anchor]),
            cells: vec![
                Cell::text(name),
                Cell::text(w.kind.label().to_string()),
                Cell::text(w.path.clone()),
                Cell::text(w.failure_policy.clone()),
                Cell::text(manifests::webhook_service(w)),
                Cell::text(rules),
                Cell::list(kinds),
                Cell::text(w.origin.label().to_string()),
            ],
            sources: source_links(p, &w.sources),
        };
        if apart
            .keep("Webhook", w.area, w.bundled, plain(&row))
            .is_some()
        {
            rows.push(row);
        }
    }
    rows
}

/// Routes; one method and path served by two binaries with different handlers gets two anchors.
fn http_endpoints(p: &Project, apart: &mut Apart) -> Vec<Row> {
    let mut anchors = Anchors::new();
    p.findings
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
            apart.keep(
                "HTTP endpoint",
                e.area,
                false,
                Row {
                    anchor: anchors.unique(&["endpoint", &e.method, &location]),
                    cells: vec![e.method.clone(), path, handler, e.framework.clone()],
                    sources: source_links(p, &e.sources),
                },
            )
        })
        .collect()
}

/// ConfigMaps with their keys.
fn configmaps(p: &Project, apart: &mut Apart) -> Vec<Row> {
    p.findings
        .configmaps
        .iter()
        .filter_map(|c| {
            apart.keep(
                "ConfigMap",
                c.area,
                c.bundled,
                Row {
                    anchor: anchor(&["configmap", &c.namespace, &c.name]),
                    cells: vec![c.name.clone(), c.namespace.clone(), c.keys.join(", ")],
                    sources: source_links(p, &c.sources),
                },
            )
        })
        .collect()
}

/// Helm charts with their versions.
fn helm_charts(p: &Project, apart: &mut Apart) -> Vec<Row> {
    p.findings
        .helm_charts
        .iter()
        .filter_map(|h| {
            apart.keep(
                "Helm chart",
                h.area,
                false,
                Row {
                    anchor: anchor(&["chart", &h.name]),
                    cells: vec![h.name.clone(), h.version.clone(), h.app_version.clone()],
                    sources: source_links(p, &h.sources),
                },
            )
        })
        .collect()
}

/// RBAC rules, one row per rule.
fn rbac(p: &Project, apart: &mut Apart) -> Vec<Row> {
    p.findings
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
            let mut resources = r.resources.join(", ");
            if !r.resource_names.is_empty() {
                resources.push_str(&format!(" (named {})", r.resource_names.join(", ")));
            }
            apart.keep(
                "RBAC rule",
                r.area,
                r.bundled,
                Row {
                    anchor: anchor(&["rbac", &r.role, &i.to_string()]),
                    cells: vec![
                        r.role.clone(),
                        groups.collect::<Vec<_>>().join(", "),
                        resources,
                        r.verbs.join(", "),
                        r.origin.label().to_string(),
                    ],
                    sources: source_links(p, &r.sources),
                },
            )
        })
        .collect()
}

/// Client writes or reads no controller's `Reconcile` reaches, by package.
fn package_rows(
    p: &Project,
    rows: &[model::PackageOperation],
    what: &str,
    apart: &mut Apart,
) -> Vec<Row> {
    rows.iter()
        .filter_map(|o| {
            apart.keep(
                what,
                o.area,
                false,
                Row {
                    anchor: anchor(&[
                        "pkgop",
                        &o.package,
                        o.verb.as_str(),
                        &o.kind,
                        &line_of(&o.sources),
                    ]),
                    cells: vec![
                        o.package.clone(),
                        o.function.clone(),
                        o.verb.to_string(),
                        kind_label(&o.group, &o.version, &o.kind),
                    ],
                    sources: source_links(p, &o.sources),
                },
            )
        })
        .collect()
}

/// Informers outside any controller, by package.
fn informers(p: &Project, apart: &mut Apart) -> Vec<Row> {
    p.findings
        .informers
        .iter()
        .filter_map(|i| {
            apart.keep(
                "Informer",
                i.area,
                false,
                Row {
                    anchor: anchor(&["informer", &i.package, &i.kind, &line_of(&i.sources)]),
                    cells: vec![
                        i.package.clone(),
                        i.function.clone(),
                        kind_label(&i.group, &i.version, &i.kind),
                    ],
                    sources: source_links(p, &i.sources),
                },
            )
        })
        .collect()
}

/// The folders of bundled dependency manifests, with the evidence.
fn bundles(p: &Project) -> Vec<Row> {
    p.findings
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
        .collect()
}

fn diagnostics(p: &Project) -> Vec<Row> {
    p.findings
        .diagnostics
        .iter()
        .enumerate()
        .map(|(i, d)| Row {
            anchor: format!("diagnostic-{}", i + 1),
            cells: vec![d.message.clone()],
            sources: source_links(p, &[SourceRef::new(&d.file, d.line)]),
        })
        .collect()
}

#[cfg(test)]
mod tests;
