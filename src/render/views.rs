//! View structs: what templates see. Built from the model with every display string,
//! link and anchor computed here, so templates hold no logic beyond loops and ifs.

use std::collections::{HashMap, HashSet};

use serde::Serialize;

use super::manifests;
use super::table::{Cell, KindLinks, TableRow, api_page, service_port, source_links};
use crate::config::Site;
use crate::link;
use crate::model::{Area, Counts, Origin, Portal, Project, SourceRef};

#[derive(Serialize)]
pub struct Chrome {
    pub title: String,
    /// The base path, e.g. `/atlas/`: every link starts with it.
    pub root: String,
    /// Every project, for the header; empty past `NAV_PROJECTS`, when the header links to
    /// the home page's cards instead (a list in every page would make the site grow with
    /// the square of the number of projects).
    pub projects: Vec<NavItem>,
    pub project_count: usize,
    /// Top-level pages from `content/`, sorted by weight then title.
    pub pages: Vec<super::content::NavEntry>,
    /// Load the theme's `static/mermaid.min.js` to draw mermaid blocks of markdown.
    pub mermaid_js: bool,
}

#[derive(Serialize)]
pub struct NavItem {
    pub name: String,
    pub title: String,
}

/// The most projects the header of every page lists by name.
pub const NAV_PROJECTS: usize = 30;

impl Chrome {
    pub fn new(site: &Site, portal: &Portal) -> Chrome {
        Chrome {
            title: site.title.clone(),
            root: site.base_path.clone(),
            projects: portal
                .projects
                .iter()
                .take_while(|_| portal.projects.len() <= NAV_PROJECTS)
                .map(|p| NavItem {
                    name: p.name.clone(),
                    title: p.title.clone(),
                })
                .collect(),
            project_count: portal.projects.len(),
            pages: Vec::new(),
            mermaid_js: site.mermaid_js,
        }
    }
}

#[derive(Serialize)]
pub struct Empty {}

#[derive(Serialize)]
pub struct Home {
    pub cards: Vec<Card>,
    pub totals: Counts,
    /// The totals as `render::counts` items, and the sentence that explains the "+N in
    /// samples" and "+N bundled" after a count (empty when no project has such rows).
    pub total_items: Vec<super::counts::CountItem>,
    pub counts_note: String,
    pub shared_kinds: Vec<SharedKind>,
    /// The cross-project graph as SVG from `render::svg` (every text escaped), or empty.
    pub graph: String,
}

#[derive(Serialize)]
pub struct Card {
    pub name: String,
    pub title: String,
    pub description: String,
    pub repository: String,
    pub commit_short: String,
    pub counts: Counts,
    /// The headline counts as `render::counts` items.
    pub count_items: Vec<super::counts::CountItem>,
    pub error: String,
}

#[derive(Serialize)]
pub struct SharedKind {
    pub kind: String,
    /// The kind's page.
    pub url: String,
    pub defined_by: String,
    /// `defined_by` is outside the portal (Kubernetes, a well-known API module).
    pub outside: bool,
    pub watched_by: String,
}

pub fn home(portal: &Portal, root: &str) -> Home {
    let mut totals = Counts::default();
    for p in &portal.projects {
        totals.add(&p.counts);
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
                count_items: super::counts::items(&p.counts, super::counts::Detail::Card),
                error: p.error.clone().unwrap_or_default(),
            })
            .collect(),
        total_items: super::counts::items(&totals, super::counts::Detail::Full),
        counts_note: if portal
            .projects
            .iter()
            .any(|p| super::counts::any(&p.counts.samples) || super::counts::any(&p.counts.bundled))
        {
            super::counts::NOTE.to_string()
        } else {
            String::new()
        },
        totals,
        shared_kinds: link::shared_kinds(portal)
            .into_iter()
            .map(|k| SharedKind {
                kind: if k.group.is_empty() {
                    k.kind.clone()
                } else {
                    format!("{} ({})", k.kind, k.group)
                },
                url: super::kinds::kind_url(root, &k.group, &k.kind),
                // A kind no project defines is Kubernetes' own or a well-known module's.
                defined_by: if k.defined_by.is_empty() {
                    k.defined_outside.clone().unwrap_or_default()
                } else {
                    k.defined_by.join(", ")
                },
                outside: k.defined_by.is_empty() && k.defined_outside.is_some(),
                // One mention per controller and relation: the kind page lists every watch.
                watched_by: {
                    let mut seen = HashSet::new();
                    k.watched_by
                        .iter()
                        .map(|w| format!("{}/{} ({})", w.project, w.controller, w.relation.label()))
                        .filter(|w| seen.insert(w.clone()))
                        .collect::<Vec<_>>()
                        .join(", ")
                },
            })
            .collect(),
        graph: String::new(),
    }
}

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
    /// Every count as `render::counts` items.
    pub count_items: Vec<super::counts::CountItem>,
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
    /// Informers outside any controller, by package.
    pub informers: Vec<Row>,
    /// Programs of the component, then the flag sets of library packages no program is
    /// shown to reach; those from tests, docs, samples and tooling apart.
    pub binaries: Vec<BinaryView>,
    pub sample_binaries: Vec<BinaryView>,
    pub metrics: Vec<Row>,
    pub sample_metrics: Vec<Row>,
    /// Rows of bundled dependency manifests (another project's objects), shown apart.
    pub bundled: Vec<SampleRow>,
    /// The folders of bundled dependency manifests, with the evidence.
    pub bundles: Vec<Row>,
    /// Number of CRD rows, which have pages under `api/`.
    pub api_kinds: usize,
    pub diagnostics: Vec<Row>,
    /// The Reconciliation Flow diagrams (summary, then per controller), filled by
    /// `render::flow` for the dataflow page.
    pub flows: Vec<super::flow::FlowView>,
}

#[derive(Serialize)]
pub struct BinaryView {
    pub anchor: String,
    /// The binary's name, or the library package's import path.
    pub title: String,
    pub package: String,
    /// True for a library package's flags and environment reads.
    pub is_package: bool,
    pub sources: Vec<Link>,
    /// Where the name comes from when it is not the folder's (a build file, cobra `Use`).
    pub name_from: Vec<Link>,
    pub flags: Vec<Row>,
    /// Flags a library registers for the program (klog, zap, controller-runtime).
    pub library_flags: Vec<Row>,
    /// cobra commands: path, description, the flags registered on each.
    pub commands: Vec<Row>,
    pub env: Vec<Row>,
}

#[derive(Serialize)]
pub struct ControllerView {
    pub anchor: String,
    pub name: String,
    pub reconciler: String,
    pub sources: Vec<Link>,
    /// Kind cells link to the kind pages.
    pub watches: Vec<TableRow>,
    pub operations: Vec<TableRow>,
    /// Gets, lists and watches through a client, in the same columns as `operations`.
    pub reads: Vec<TableRow>,
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

/// `apps/v1 Deployment`, `v1 Pod`, or `? (unresolved)`.
fn kind_label(group: &str, version: &str, kind: &str) -> String {
    if group == crate::model::UNRESOLVED {
        return "? (kind unknown: see diagnostics)".into();
    }
    crate::model::Gvk {
        group: group.into(),
        version: version.into(),
        kind: kind.into(),
    }
    .display()
}

/// A kind's label, linked to its kind page when the portal has one.
fn kind_cell(kind_links: &KindLinks, group: &str, kind: &str, label: String) -> Cell {
    match kind_links.kind(group, kind) {
        Some(url) => Cell::link(label, url),
        None => Cell::text(label),
    }
}

/// The first source's line, to keep anchors of rows that differ only by line apart.
fn line_of(sources: &[SourceRef]) -> String {
    sources
        .first()
        .map(|s| format!("{}-{}", s.file, s.line))
        .unwrap_or_default()
}

/// Row anchors made unique on the page: one call reached through two paths, or one kind
/// watched twice the same way, would otherwise repeat an id; later rows get `-2`, `-3`.
fn unique_rows(mut view: ControllerView) -> ControllerView {
    let mut anchors = EndpointAnchors::default();
    for row in view
        .watches
        .iter_mut()
        .chain(view.operations.iter_mut())
        .chain(view.reads.iter_mut())
    {
        row.anchor = anchors.unique(std::mem::take(&mut row.anchor));
    }
    view
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

/// A controller's write or read: verb, kind, the guarding condition ("When", empty =
/// always) and the call path from `Reconcile` ("Via", empty = in `Reconcile` itself).
fn operation_row(
    p: &Project,
    kind_links: &KindLinks,
    controller: &str,
    prefix: &str,
    o: &crate::model::Operation,
) -> TableRow {
    TableRow {
        anchor: anchor(&[
            prefix,
            controller,
            &o.verb,
            &o.group,
            &o.kind,
            &line_of(&o.sources),
        ]),
        cells: vec![
            Cell::text(o.verb.clone()),
            kind_cell(
                kind_links,
                &o.group,
                &o.kind,
                kind_label(&o.group, &o.version, &o.kind),
            ),
            Cell::text(o.condition.clone()),
            super::table::call_path(p, &o.via),
        ],
        sources: source_links(p, &o.sources),
    }
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
struct EndpointAnchors {
    seen: std::collections::HashMap<String, usize>,
}

impl EndpointAnchors {
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
    let links = |sources: &[SourceRef]| -> Vec<Link> { source_links(p, sources) };
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
    let controller_view = |c: &crate::model::Controller| {
        unique_rows(ControllerView {
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
                    TableRow {
                        anchor: anchor(&["watch", &c.name, w.relation.label(), &w.group, &w.kind]),
                        cells: vec![
                            Cell::text(w.relation.label()),
                            kind_cell(kind_links, &w.group, &w.kind, kind),
                            Cell::text(when(w.conditional, &w.condition)),
                        ],
                        sources: links(&w.sources),
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
        })
    };
    let (mut component, sample): (Vec<_>, Vec<_>) =
        p.controllers.iter().partition(|c| c.area.is_component());
    // The project's main controllers first: those reconciling a kind it defines itself
    // (the `For` kind is one of its own CRDs); then, among equals, those that watch and
    // write the most; otherwise in source order.
    let own = |group: &str, kind: &str| {
        p.crds.iter().any(|crd| {
            !crd.bundled && crd.area.is_component() && crd.group == group && crd.kind == kind
        })
    };
    component.sort_by_key(|c| {
        let main = c
            .watches
            .iter()
            .any(|w| w.relation == crate::model::Relation::For && own(&w.group, &w.kind));
        (
            !main,
            std::cmp::Reverse(c.watches.len() + c.operations.len()),
        )
    });

    let services = p
        .services
        .iter()
        .filter_map(|s| {
            let ports = s
                .ports
                .iter()
                .map(service_port)
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
    for (i, c) in defined_crds_order(&p.crds) {
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
        let richest = n > 1 && !crds.iter().any(|r: &TableRow| r.cells[0].text == c.kind);
        let schema = if richest {
            format!("{fields} fields; the richest of {n} different definitions of this kind")
        } else if n > 1 {
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
    // The same webhook can be declared in several places (a kustomize base and a chart);
    // later rows with an anchor already taken get `-2`, `-3`, … so every anchor is unique.
    let mut taken: HashMap<String, usize> = HashMap::new();
    let mut webhooks = Vec::new();
    for w in &p.webhooks {
        // Manifest rows keep the anchors they had before webhooks had an origin.
        let mut row_anchor = match (w.origin, &w.object) {
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
        let seen = taken.entry(row_anchor.clone()).or_insert(0);
        *seen += 1;
        if *seen > 1 {
            row_anchor = format!("{row_anchor}-{seen}");
        }
        // A webhook served by code has no name of its own: the configuration names it.
        let name = match (&w.object, w.name.is_empty()) {
            (Some(object), true) => format!("(served for {})", object.display()),
            _ => w.name.clone(),
        };
        let (rules, kinds) = manifests::webhook_rules(w, kind_links);
        let row = TableRow {
            anchor: row_anchor,
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
            sources: links(&w.sources),
        };
        if take("Webhook", w.area, w.bundled, plain(&row)).is_some() {
            webhooks.push(row);
        }
    }
    let mut endpoint_anchors = EndpointAnchors::default();
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
                false,
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
            let mut resources = r.resources.join(", ");
            if !r.resource_names.is_empty() {
                resources.push_str(&format!(" (named {})", r.resource_names.join(", ")));
            }
            take(
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
                    sources: links(&r.sources),
                },
            )
        })
        .collect();
    let package_operations = p
        .package_operations
        .iter()
        .filter_map(|o| {
            take(
                "Client write",
                o.area,
                false,
                Row {
                    anchor: anchor(&["pkgop", &o.package, &o.verb, &o.kind, &line_of(&o.sources)]),
                    cells: vec![
                        o.package.clone(),
                        o.function.clone(),
                        o.verb.clone(),
                        kind_label(&o.group, &o.version, &o.kind),
                    ],
                    sources: links(&o.sources),
                },
            )
        })
        .collect();
    let informers = p
        .informers
        .iter()
        .filter_map(|i| {
            take(
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
                    sources: links(&i.sources),
                },
            )
        })
        .collect();
    let (binaries, sample_binaries, metrics, sample_metrics) = configuration(p, &links);
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
        count_items: super::counts::items(&Counts::of(p), super::counts::Detail::Full),
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
        package_operations,
        informers,
        binaries,
        sample_binaries,
        metrics,
        sample_metrics,
        bundled,
        bundles,
        api_kinds: p.crds.len(),
        diagnostics,
        flows: Vec::new(),
    }
}

/// The CRDs in model order, except that the variants of one kind (a full and a minimal
/// CRD) come together at the first one's place, richest first (as on the API reference),
/// so a kind's first row shows its full field count. Each keeps its model index, which
/// anchors its row.
fn defined_crds_order(crds: &[crate::model::Crd]) -> Vec<(usize, &crate::model::Crd)> {
    let mut first: HashMap<(&str, &str), usize> = HashMap::new();
    for (i, c) in crds.iter().enumerate() {
        first.entry((&c.group, &c.kind)).or_insert(i);
    }
    let mut order: Vec<(usize, &crate::model::Crd)> = crds.iter().enumerate().collect();
    order.sort_by_key(|(_, c)| {
        (
            first[&(c.group.as_str(), c.kind.as_str())],
            super::api::richest_first(c),
        )
    });
    order
}

/// Hands out anchors unique on one page: a repeated one gets `-2`, `-3`, … in row order.
#[derive(Default)]
struct Anchors(std::collections::HashMap<String, usize>);

impl Anchors {
    fn unique(&mut self, base: String) -> String {
        let n = self.0.entry(base.clone()).or_insert(0);
        *n += 1;
        if *n == 1 { base } else { format!("{base}-{n}") }
    }
}

/// The binaries and metrics of the project overview, component ones first, with anchors
/// `binary-NAME`, `flag-NAME-FLAG`, `env-NAME-VAR` and `metric-NAME`.
///
/// Environment rows are anchored per binary (not `env-VAR` alone) because two binaries
/// that read one variable both list it on the same page.
#[allow(clippy::type_complexity)]
fn configuration(
    p: &Project,
    links: &dyn Fn(&[SourceRef]) -> Vec<Link>,
) -> (Vec<BinaryView>, Vec<BinaryView>, Vec<Row>, Vec<Row>) {
    let mut anchors = Anchors::default();
    // A binary is named in anchors by its name, or by its package when names repeat.
    let mut names: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for b in &p.binaries {
        *names.entry(b.name.as_str()).or_insert(0) += 1;
    }
    let (mut binaries, mut sample_binaries) = (Vec::new(), Vec::new());
    for b in &p.binaries {
        let id = if b.is_package() || names.get(b.name.as_str()).copied().unwrap_or(0) > 1 {
            b.package.as_str()
        } else {
            b.name.as_str()
        };
        let mut flag_row = |f: &crate::model::Flag| {
            let mut name = format!("--{}", f.name);
            if !f.shorthand.is_empty() {
                name.push_str(&format!(", -{}", f.shorthand));
            }
            let default = if f.default_expr {
                format!("{} (Go expression)", f.default)
            } else if f.default_env {
                format!("{} (environment variable)", f.default)
            } else if f.kind == "string" {
                format!("{:?}", f.default)
            } else {
                f.default.clone()
            };
            let mut cells = vec![
                name,
                f.kind.clone(),
                default,
                help_text(&f.help, f.help_expr),
            ];
            if !f.library.is_empty() {
                cells.insert(0, f.library.clone());
            }
            Row {
                anchor: anchors.unique(anchor(&["flag", id, &f.name])),
                cells,
                sources: links(&f.sources),
            }
        };
        let flags: Vec<Row> = b
            .flags
            .iter()
            .filter(|f| f.library.is_empty())
            .map(&mut flag_row)
            .collect();
        let library_flags: Vec<Row> = b
            .flags
            .iter()
            .filter(|f| !f.library.is_empty())
            .map(&mut flag_row)
            .collect();
        let commands = b
            .commands
            .iter()
            .map(|c| Row {
                anchor: anchors.unique(anchor(&["command", id, &c.path])),
                cells: vec![
                    c.path.clone(),
                    c.short.clone(),
                    c.flags
                        .iter()
                        .map(|f| format!("--{f}"))
                        .collect::<Vec<_>>()
                        .join(", "),
                ],
                sources: links(&c.sources),
            })
            .collect();
        let env = b
            .env
            .iter()
            .map(|e| Row {
                anchor: anchors.unique(anchor(&["env", id, &e.name])),
                cells: vec![e.name.clone()],
                sources: links(&e.sources),
            })
            .collect();
        let view = BinaryView {
            anchor: anchors.unique(anchor(&[
                if b.is_package() { "package" } else { "binary" },
                id,
            ])),
            title: if b.is_package() {
                b.package.clone()
            } else {
                b.name.clone()
            },
            package: b.package.clone(),
            is_package: b.is_package(),
            sources: links(&b.sources),
            name_from: links(&b.name_from),
            flags,
            library_flags,
            commands,
            env,
        };
        if b.area.is_component() {
            binaries.push(view);
        } else {
            sample_binaries.push(view);
        }
    }
    // Programs before library packages, keeping the model's order within each.
    binaries.sort_by_key(|b| b.is_package);
    sample_binaries.sort_by_key(|b| b.is_package);
    let (mut metrics, mut sample_metrics) = (Vec::new(), Vec::new());
    for m in &p.metrics {
        let row = Row {
            anchor: anchors.unique(anchor(&["metric", &m.name])),
            cells: vec![
                m.name.clone(),
                m.kind.clone(),
                help_text(&m.help, m.help_expr),
                m.labels.join(", "),
            ],
            sources: links(&m.sources),
        };
        if m.area.is_component() {
            metrics.push(row);
        } else {
            sample_metrics.push(row);
        }
    }
    (binaries, sample_binaries, metrics, sample_metrics)
}

fn help_text(help: &str, expr: bool) -> String {
    if expr {
        format!("{help} (Go expression)")
    } else {
        help.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Gvk, Webhook, WebhookType};

    fn webhook(origin: Origin, name: &str, path: &str, object: Option<(&str, &str)>) -> Webhook {
        Webhook {
            name: name.into(),
            kind: if path == "/convert" {
                WebhookType::Conversion
            } else {
                WebhookType::Validating
            },
            path: path.into(),
            failure_policy: String::new(),
            service: String::new(),
            configuration: if origin == Origin::Manifest {
                "vcfg".into()
            } else {
                String::new()
            },
            origin,
            object: object.map(|(version, kind)| Gvk {
                group: "x.io".into(),
                version: version.into(),
                kind: kind.into(),
            }),
            rules: vec![],
            resolved_service: String::new(),
            substitutions: Vec::new(),
            templated: false,
            bundled: false,
            area: Area::Component,
            sources: vec![],
        }
    }

    #[test]
    fn shared_kinds_name_who_defines_them_outside_the_portal() {
        let entry =
            |group: &str, defined_by: &[&str], outside: Option<&str>| crate::model::KindEntry {
                group: group.into(),
                kind: "K".into(),
                defined_by: defined_by.iter().map(|p| p.to_string()).collect(),
                defined_outside: outside.map(str::to_string),
                watched_by: ["a", "b"]
                    .iter()
                    .map(|p| crate::model::KindWatcher {
                        project: p.to_string(),
                        controller: "c".into(),
                        relation: crate::model::Relation::Watches,
                        package: String::new(),
                        sources: Vec::new(),
                    })
                    .collect(),
                ..serde_json::from_str(r#"{"group":"","kind":"","defined_by":[],"watched_by":[]}"#)
                    .expect("a minimal kind entry")
            };
        let portal = crate::model::Portal {
            kinds: vec![
                entry("", &[], Some("Kubernetes")),
                entry("example.io", &["a"], None),
            ],
            ..serde_json::from_str(r#"{"schema_version":1,"title":"t","projects":[],"kinds":[]}"#)
                .expect("a minimal portal")
        };
        let home = home(&portal, "/");
        let cells: Vec<(&str, bool)> = home
            .shared_kinds
            .iter()
            .map(|k| (k.defined_by.as_str(), k.outside))
            .collect();
        assert_eq!(cells, [("Kubernetes", true), ("a", false)]);
    }

    #[test]
    fn main_controllers_come_first() {
        let controller = |name: &str, group: &str, kind: &str| crate::model::Controller {
            name: name.into(),
            reconciler: String::new(),
            area: Area::Component,
            sources: Vec::new(),
            watches: vec![crate::model::Watch {
                relation: crate::model::Relation::For,
                group: group.into(),
                version: "v1".into(),
                kind: kind.into(),
                conditional: false,
                condition: String::new(),
                import_path: None,
                sources: Vec::new(),
            }],
            operations: Vec::new(),
            reads: Vec::new(),
        };
        let crd = |kind: &str, bundled: bool| crate::model::Crd {
            group: "example.io".into(),
            kind: kind.into(),
            bundled,
            ..crate::model::Crd::default()
        };
        let p = Project {
            controllers: vec![
                controller("configmap", "", "ConfigMap"),
                controller("gadget", "example.io", "Gadget"),
                controller("pod", "", "Pod"),
                controller("widget", "example.io", "Widget"),
            ],
            // Gadget's CRD is only shipped (another project's): not this project's own kind.
            crds: vec![crd("Widget", false), crd("Gadget", true)],
            ..Project::default()
        };
        let page = dataflow(&p, "/", &KindLinks::default());
        let names: Vec<&str> = page.controllers.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["widget", "configmap", "gadget", "pod"]);
    }

    #[test]
    fn operation_rows_show_when_and_via_with_unique_anchors() {
        let step = |function: &str, line: u32| crate::model::CallStep {
            function: function.into(),
            file: "c.go".into(),
            line,
        };
        let op = |via: Vec<crate::model::CallStep>, condition: &str| crate::model::Operation {
            verb: "delete".into(),
            group: "apps".into(),
            version: "v1".into(),
            kind: "Deployment".into(),
            sources: vec![SourceRef::new("p.go", 9)],
            via,
            condition: condition.into(),
        };
        let p = Project {
            source_url: "https://example.com/{commit}/{path}#L{line}".into(),
            commit: "abc".into(),
            controllers: vec![crate::model::Controller {
                name: "pool".into(),
                reconciler: "PoolReconciler".into(),
                area: Area::Component,
                sources: Vec::new(),
                watches: Vec::new(),
                // One call reached through two paths: two rows, two anchors.
                operations: vec![
                    op(
                        vec![step("comp.Pred.Reconcile", 3), step("comp.Pred.sweep", 5)],
                        "for i := range items",
                    ),
                    op(
                        vec![
                            step("comp.Expl.Reconcile", 4),
                            step("raw.New", 6),
                            step("comp.Pred.Reconcile", 7),
                            step("comp.Pred.sweep", 8),
                        ],
                        "",
                    ),
                ],
                reads: Vec::new(),
            }],
            ..Project::default()
        };
        let page = dataflow(&p, "/", &KindLinks::default());
        let rows = &page.controllers[0].operations;
        let anchors: Vec<&str> = rows.iter().map(|r| r.anchor.as_str()).collect();
        assert_eq!(
            anchors,
            [
                "op-pool-delete-apps-deployment-p-go-9",
                "op-pool-delete-apps-deployment-p-go-9-2"
            ]
        );
        assert_eq!(rows[0].cells[2].text, "for i := range items");
        let via = &rows[0].cells[3];
        assert_eq!(via.text, "Pred.Reconcile → sweep");
        assert_eq!(via.items[0].url, "https://example.com/abc/c.go#L3");
        assert_eq!(via.summary, "");
        // Four calls: collapsed behind the first and last step.
        let long = &rows[1].cells[3];
        assert_eq!(
            long.text,
            "Expl.Reconcile → raw.New → Pred.Reconcile → sweep"
        );
        assert_eq!(long.summary, "Expl.Reconcile → … → sweep (4 calls)");
    }

    #[test]
    fn webhook_rows_show_their_origin_and_keep_unique_anchors() {
        let p = Project {
            webhooks: vec![
                webhook(Origin::Manifest, "v.x.io", "/validate-x", None),
                webhook(Origin::Manifest, "v.x.io", "/validate-x", None),
                webhook(Origin::Marker, "v.x.io", "/validate-x", None),
                webhook(Origin::Code, "", "/convert", Some(("v1", "Thing"))),
                webhook(Origin::Code, "", "/convert", Some(("v2", "Thing"))),
            ],
            ..Project::default()
        };
        let page = dataflow(&p, "/", &KindLinks::default());
        let rows: Vec<(&str, &str, &str)> = page
            .webhooks
            .iter()
            .map(|r| {
                (
                    r.anchor.as_str(),
                    r.cells[0].text.as_str(),
                    r.cells[7].text.as_str(),
                )
            })
            .collect();
        assert_eq!(
            rows,
            vec![
                ("webhook-vcfg-v-x-io", "v.x.io", "manifest"),
                ("webhook-vcfg-v-x-io-2", "v.x.io", "manifest"),
                ("webhook-marker-v-x-io-validate-x", "v.x.io", "marker"),
                (
                    "webhook-code-conversion-x-io-v1-thing",
                    "(served for x.io/v1 Thing)",
                    "code"
                ),
                (
                    "webhook-code-conversion-x-io-v2-thing",
                    "(served for x.io/v2 Thing)",
                    "code"
                ),
            ]
        );
    }

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
