//! The platform pages, across projects: `/platform/architecture/` (projects, controllers,
//! binaries, CRDs they define, kinds they share), `/platform/network/` (Services, ingress
//! objects, NetworkPolicies), `/platform/rbac/` (ServiceAccounts, bindings and roles, with
//! wildcard and dangerous grants flagged) and `/platform/secrets/` (every Secret defined or
//! referenced). Rows come from each project's own component: samples and bundled dependency
//! manifests stay on the project pages.

use super::kinds::{PortalPage, kind_cell, kind_title};
use super::table::{Anchors, Cell, Section, TableRow, counted, service_port, source_links};
use super::views::controller_url;
use derive::link;
use kubernetes::names::qualified;
use kubernetes::names::role_key;
use model::{Portal, Project};

fn section(id: &str, title: &str, intro: &str, headers: &[&str], rows: Vec<TableRow>) -> Section {
    let mut headers: Vec<String> = headers.iter().map(|h| h.to_string()).collect();
    headers.push("Source".into());
    headers.push(String::new());
    Section {
        id: id.into(),
        title: title.into(),
        intro: intro.into(),
        headers,
        rows,
        empty: "None.".into(),
        code: Vec::new(),
        chart: String::new(),
        note: None,
    }
}

/// A chart of counts per project with the same numbers as a table (Project, What, Count).
/// Each bar and row links to `link(project)`.
fn chart_section(
    id: &str,
    title: &str,
    intro: &str,
    counts: &[(String, String, u64, String)],
    root: &str,
) -> Section {
    let chart = super::svg::bars::BarChart {
        id: format!("chart-{id}"),
        title: title.to_string(),
        description: intro.to_string(),
        bars: counts
            .iter()
            .map(|(project, what, value, link)| super::svg::bars::Bar {
                group: project.clone(),
                label: what.clone(),
                value: *value,
                link: link.clone(),
            })
            .collect(),
    };
    let mut anchors = Anchors::new();
    let rows = counts
        .iter()
        .map(|(project, what, value, link)| TableRow {
            anchor: anchors.unique(&[id, project, what]),
            cells: vec![
                Cell::project(root, project),
                Cell::link(what.clone(), link.clone()),
                Cell::text(value.to_string()),
            ],
            sources: Vec::new(),
        })
        .collect();
    Section {
        id: id.into(),
        title: title.into(),
        intro: intro.into(),
        headers: vec!["Project".into(), "What".into(), "Count".into()],
        rows,
        empty: "No project has any.".into(),
        code: Vec::new(),
        chart: if counts.is_empty() {
            String::new()
        } else {
            super::svg::bars::render(&chart)
        },
        note: None,
    }
}

/// How a Secret is used, from its references' `(how)`: each category once.
fn secret_uses(s: &model::Secret) -> Vec<&'static str> {
    let mut uses = Vec::new();
    for r in &s.referenced_by {
        let how = r
            .rsplit_once(" (")
            .map(|(_, h)| h.trim_end_matches(')'))
            .unwrap_or("");
        let category = if how.starts_with("env") {
            "read into the environment"
        } else if how.contains("volume") {
            "mounted as a volume"
        } else if how == "imagePullSecrets" || how == "secrets" {
            "image pull or ServiceAccount"
        } else if how.starts_with("TLS") {
            "TLS of an ingress or gateway"
        } else {
            "other reference"
        };
        if !uses.contains(&category) {
            uses.push(category);
        }
    }
    if uses.is_empty() {
        uses.push("defined, not referenced");
    }
    uses
}

/// Own rows only: component area and not bundled.
fn own(area: model::Area, bundled: bool) -> bool {
    area.is_component() && !bundled
}

/// Links between the platform pages: the platform page types' sidebar links.
pub fn nav(root: &str) -> Vec<super::views::Link> {
    super::pages::platform_links()
        .map(|(path, label)| super::views::Link {
            label: label.to_string(),
            url: format!("{root}{path}"),
            note: false,
        })
        .collect()
}

const OWN_ROWS: &str = "Rows from each project's own component; tests, samples and bundled dependency manifests are on the project pages.";

pub fn architecture(portal: &Portal, projects: &[Project], root: &str) -> PortalPage {
    let mut anchors = Anchors::new();
    // Each table's anchors have their own first word, so the tables can take theirs one
    // after the other.
    let connections = connection_rows(projects, root, &mut anchors);
    let summary = project_rows(projects, root, &mut anchors);
    let controllers = controller_rows(portal, projects, root, &mut anchors);
    let binaries = binary_rows(projects, root, &mut anchors);
    let crds = crd_rows(portal, projects, root, &mut anchors);
    let shared = shared_kind_rows(portal, root, &mut anchors);
    let availability = availability_chart(projects, root);
    PortalPage {
        path: "platform/architecture/".into(),
        page_title: "Platform architecture".into(),
        lead: format!(
            "The projects of the portal, their controllers and binaries, the CRDs they define, the kinds they share and the external services they connect to. {OWN_ROWS}"
        ),
        links: nav(root),
        sections: vec![
            section(
                "projects",
                "Projects",
                "",
                &["Project", "Title", "Repository at commit", "Counts"],
                summary,
            ),
            section(
                "controllers",
                "Controllers",
                "Each controller and the kinds it watches.",
                &["Project", "Controller", "Watches", "Writes"],
                controllers,
            ),
            section(
                "binaries",
                "Binaries",
                "Programs built from `package main` folders.",
                &["Project", "Binary", "Package", "Configuration"],
                binaries,
            ),
            section(
                "crds",
                "CRDs defined",
                "Each project's own CRDs (bundled copies of other projects' CRDs are not listed).",
                &["Project", "Kind", "Group", "Scope"],
                crds,
            ),
            section(
                "shared-kinds",
                "Kinds shared across projects",
                "Kinds defined in one project and watched in another, or watched by several.",
                &["Kind", "Projects"],
                shared,
            ),
            availability,
            section(
                "connections",
                "External connections",
                "Databases, caches, queues, gRPC and HTTP endpoints and object stores each project's code connects to, with the constant, flag or environment variable that sets the target.",
                &["Project", "Kind", "Library", "Call", "Target", "Programs"],
                connections,
            ),
        ],
    }
}

/// Each project's own connections to external services.
fn connection_rows(projects: &[Project], root: &str, anchors: &mut Anchors) -> Vec<TableRow> {
    let mut connections = Vec::new();
    for p in projects {
        for conn in p
            .findings
            .connections
            .iter()
            .filter(|c| c.area.is_component())
        {
            let (file, line) = super::connections::anchor_parts(conn);
            let anchor = anchors.unique(&["connection", &p.name, &file, &line]);
            connections.push(super::connections::connection_row(p, root, conn, anchor));
        }
    }
    connections
}

/// One row per project: title, repository at commit, and its own counts.
fn project_rows(projects: &[Project], root: &str, anchors: &mut Anchors) -> Vec<TableRow> {
    let mut summary = Vec::new();
    for p in projects {
        let c = model::Counts::of(p);
        summary.push(TableRow {
            anchor: anchors.unique(&["project", &p.name]),
            cells: vec![
                Cell::project(root, &p.name),
                Cell::text(p.title.clone()),
                Cell::text(if p.commit.is_empty() {
                    p.repository.clone()
                } else {
                    format!(
                        "{} @ {}",
                        p.repository,
                        p.commit.chars().take(12).collect::<String>()
                    )
                }),
                Cell::text(format!(
                    "{}, {}, {}, {}{}",
                    counted(c.own.controllers, "controller", "controllers"),
                    counted(c.own.binaries, "binary", "binaries"),
                    counted(c.own.crds, "CRD", "CRDs"),
                    counted(c.own.webhooks, "webhook", "webhooks"),
                    p.error
                        .as_deref()
                        .map(|e| format!("; failed: {e}"))
                        .unwrap_or_default()
                )),
            ],
            sources: Vec::new(),
        });
    }
    summary
}

/// Each project's own controllers and the kinds they watch.
fn controller_rows(
    portal: &Portal,
    projects: &[Project],
    root: &str,
    anchors: &mut Anchors,
) -> Vec<TableRow> {
    let mut controllers = Vec::new();
    for p in projects {
        for ctl in p
            .findings
            .controllers
            .iter()
            .filter(|c| c.area.is_component())
        {
            let kinds: Vec<Cell> = ctl
                .watches
                .iter()
                .filter(|w| w.is_resolved())
                .map(|w| {
                    kind_cell(
                        portal,
                        root,
                        &w.group,
                        &w.kind,
                        format!("{} {}", w.relation.label(), kind_title(&w.group, &w.kind)),
                    )
                })
                .collect();
            controllers.push(TableRow {
                anchor: anchors.unique(&["controller", &p.name, &ctl.name]),
                cells: vec![
                    Cell::project(root, &p.name),
                    Cell::link(ctl.name.clone(), controller_url(root, p, ctl)),
                    Cell::list(kinds),
                    Cell::text(ctl.operations.len().to_string()),
                ],
                sources: source_links(p, &ctl.sources),
            });
        }
    }
    controllers
}

/// Each project's own programs (`package main` folders).
fn binary_rows(projects: &[Project], root: &str, anchors: &mut Anchors) -> Vec<TableRow> {
    let mut binaries = Vec::new();
    for p in projects {
        for b in p
            .findings
            .binaries
            .iter()
            .filter(|b| b.area.is_component() && !b.is_package())
        {
            binaries.push(TableRow {
                anchor: anchors.unique(&["binary", &p.name, &b.package]),
                cells: vec![
                    Cell::project(root, &p.name),
                    Cell::text(b.name.clone()),
                    Cell::text(b.package.clone()),
                    Cell::text(format!(
                        "{}, {}",
                        counted(b.flags.len(), "flag", "flags"),
                        counted(b.env.len(), "environment variable", "environment variables")
                    )),
                ],
                sources: source_links(p, &b.sources),
            });
        }
    }
    binaries
}

/// Each project's own CRDs, one row per kind.
fn crd_rows(
    portal: &Portal,
    projects: &[Project],
    root: &str,
    anchors: &mut Anchors,
) -> Vec<TableRow> {
    let mut crds = Vec::new();
    for p in projects {
        let mut seen = std::collections::BTreeSet::new();
        for crd in p.findings.crds.iter().filter(|c| own(c.area, c.bundled)) {
            if !seen.insert((&crd.group, &crd.kind)) {
                continue;
            }
            crds.push(TableRow {
                anchor: anchors.unique(&["crd", &p.name, &crd.group, &crd.kind]),
                cells: vec![
                    Cell::project(root, &p.name),
                    kind_cell(portal, root, &crd.group, &crd.kind, crd.kind.clone()),
                    Cell::text(crd.group.clone()),
                    Cell::text(crd.scope.clone()),
                ],
                sources: source_links(p, &crd.sources),
            });
        }
    }
    crds
}

/// The kinds several projects touch, and how each does.
fn shared_kind_rows(portal: &Portal, root: &str, anchors: &mut Anchors) -> Vec<TableRow> {
    link::shared_kinds(portal)
        .into_iter()
        .map(|k| {
            let mut projects: Vec<String> = k
                .definitions
                .iter()
                .filter(|d| d.how == "component")
                .map(|d| format!("{}: defines", d.project))
                .collect();
            projects.extend(k.watched_by.iter().map(|w| {
                format!(
                    "{}: {} watches ({})",
                    w.project,
                    w.controller,
                    w.relation.label()
                )
            }));
            projects.extend(
                k.written_by
                    .iter()
                    .map(|w| format!("{}: writes ({})", w.project, w.verb)),
            );
            projects.dedup();
            TableRow {
                anchor: anchors.unique(&["shared", &k.group, &k.kind]),
                cells: vec![
                    kind_cell(
                        portal,
                        root,
                        &k.group,
                        &k.kind,
                        kind_title(&k.group, &k.kind),
                    ),
                    Cell::lines(&projects),
                ],
                sources: Vec::new(),
            }
        })
        .collect()
}

/// The availability flags of each project's own workloads, charted per project.
fn availability_chart(projects: &[Project], root: &str) -> Section {
    let mut flag_counts = Vec::new();
    for p in projects {
        for (kind, n) in derive::availability::own_flag_counts(p) {
            if n > 0 {
                flag_counts.push((
                    p.name.clone(),
                    kind.label().to_string(),
                    n as u64,
                    format!("{root}projects/{}/configuration/#availability", p.name),
                ));
            }
        }
    }
    chart_section(
        "availability-flags",
        "Availability flags per project",
        "Deployments and StatefulSets of each project's own manifests flagged on the configuration page, by flag: a container without requests, memory limit, readiness or liveness probe; replicas without anti-affinity or spread, or without a PodDisruptionBudget; a budget that blocks node drains. Checks a template leaves open are not counted.",
        &flag_counts,
        root,
    )
}

pub fn network(portal: &Portal, projects: &[Project], root: &str) -> PortalPage {
    let mut anchors = Anchors::new();
    // Each table's anchors have their own first word, so the tables can take theirs one
    // after the other.
    let services = service_rows(projects, root, &mut anchors);
    let ingresses = ingress_rows(portal, projects, root, &mut anchors);
    let policies = policy_rows(projects, root, &mut anchors);
    PortalPage {
        path: "platform/network/".into(),
        page_title: "Network topology".into(),
        lead: format!(
            "Every Service, ingress object and NetworkPolicy across the projects, with ports and selectors. {OWN_ROWS}"
        ),
        links: nav(root),
        sections: vec![
            section(
                "services",
                "Services",
                "",
                &[
                    "Project",
                    "Service",
                    "Type",
                    "Ports (port→target/protocol)",
                    "Selects pods",
                ],
                services,
            ),
            section(
                "ingresses",
                "Ingresses, Routes and Gateway API objects",
                "",
                &[
                    "Project",
                    "Kind",
                    "Name",
                    "Hosts and listeners",
                    "Parents",
                    "Rules (match → backend)",
                ],
                ingresses,
            ),
            section(
                "network-policies",
                "NetworkPolicies",
                "",
                &[
                    "Project",
                    "Name",
                    "Pods",
                    "Policy types",
                    "Ingress from",
                    "Egress to",
                ],
                policies,
            ),
        ],
    }
}

/// Each project's own Services with their type, ports and selector.
fn service_rows(projects: &[Project], root: &str, anchors: &mut Anchors) -> Vec<TableRow> {
    let mut services = Vec::new();
    for p in projects {
        for s in p
            .findings
            .services
            .iter()
            .filter(|s| own(s.area, s.bundled))
        {
            let ports: Vec<String> = s.ports.iter().map(service_port).collect();
            services.push(TableRow {
                anchor: anchors.unique(&["service", &p.name, &s.namespace, &s.name]),
                cells: vec![
                    Cell::project(root, &p.name),
                    Cell::text(qualified(&s.namespace, &s.name)),
                    Cell::text(if s.service_type.is_empty() {
                        "ClusterIP".to_string()
                    } else {
                        s.service_type.clone()
                    }),
                    Cell::lines(&ports),
                    Cell::text(if s.selector.is_empty() {
                        "(no selector)".to_string()
                    } else {
                        s.selector.join(", ")
                    }),
                ],
                sources: source_links(p, &s.sources),
            });
        }
    }
    services
}

/// Each project's own Ingresses, Routes and Gateway API objects.
fn ingress_rows(
    portal: &Portal,
    projects: &[Project],
    root: &str,
    anchors: &mut Anchors,
) -> Vec<TableRow> {
    let mut ingresses = Vec::new();
    for p in projects {
        for i in p
            .findings
            .ingresses
            .iter()
            .filter(|i| own(i.area, i.bundled))
        {
            let mut front = i.hosts.clone();
            front.extend(i.listeners.iter().cloned());
            ingresses.push(TableRow {
                anchor: anchors.unique(&["ingress", &p.name, &i.kind, &i.namespace, &i.name]),
                cells: vec![
                    Cell::project(root, &p.name),
                    kind_cell(portal, root, &i.group, &i.kind, i.kind.clone()),
                    Cell::text(qualified(&i.namespace, &i.name)),
                    Cell::lines(&front),
                    Cell::lines(&i.parents),
                    Cell::lines(&i.rules),
                ],
                sources: source_links(p, &i.sources),
            });
        }
    }
    ingresses
}

/// Each project's own NetworkPolicies.
fn policy_rows(projects: &[Project], root: &str, anchors: &mut Anchors) -> Vec<TableRow> {
    let mut policies = Vec::new();
    for p in projects {
        for n in p
            .findings
            .network_policies
            .iter()
            .filter(|n| own(n.area, n.bundled))
        {
            policies.push(TableRow {
                anchor: anchors.unique(&["networkpolicy", &p.name, &n.namespace, &n.name]),
                cells: std::iter::once(Cell::project(root, &p.name))
                    .chain(super::manifests::network_policy_cells(n))
                    .collect(),
                sources: source_links(p, &n.sources),
            });
        }
    }
    policies
}

/// Flags of a rule that grants more than least privilege: wildcards, reading Secrets,
/// and the verbs that let a subject raise its own privileges.
pub fn dangers(groups: &[String], resources: &[String], verbs: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let has = |list: &[String], x: &str| list.iter().any(|v| v == x);
    if has(verbs, "*") {
        out.push("all verbs (*)".to_string());
    }
    if has(resources, "*") {
        out.push("all resources (*)".to_string());
    }
    if has(groups, "*") {
        out.push("all API groups (*)".to_string());
    }
    let core = has(groups, "") || has(groups, "*");
    if core && (has(resources, "secrets") || has(resources, "*")) {
        let reads: Vec<&str> = ["get", "list", "watch"]
            .into_iter()
            .filter(|v| has(verbs, v) || has(verbs, "*"))
            .collect();
        if !reads.is_empty() {
            out.push(format!("reads Secrets ({})", reads.join(", ")));
        }
    }
    for v in ["escalate", "bind", "impersonate"] {
        if has(verbs, v) {
            out.push(v.to_string());
        }
    }
    out
}

fn rule_lines(rules: &[model::PolicyRule]) -> Vec<String> {
    rules
        .iter()
        .map(|r| {
            let mut what: Vec<String> = r
                .groups
                .iter()
                .flat_map(|g| {
                    r.resources.iter().map(move |res| {
                        if g.is_empty() {
                            res.clone()
                        } else {
                            format!("{g}/{res}")
                        }
                    })
                })
                .collect();
            what.extend(r.non_resource_urls.iter().cloned());
            format!("{}: {}", r.verbs.join(","), what.join(" "))
        })
        .collect()
}

pub fn rbac(projects: &[Project], root: &str) -> PortalPage {
    let mut anchors = Anchors::new();
    // Each table's anchors have their own first word, so the tables can take theirs one
    // after the other.
    let accounts = account_rows(projects, root, &mut anchors);
    let bindings = binding_rows(projects, root, &mut anchors);
    let roles = role_rows(projects, root, &mut anchors);
    let markers = marker_rows(projects, root, &mut anchors);
    let chart = rules_chart(projects, root);
    PortalPage {
        path: "platform/rbac/".into(),
        page_title: "RBAC surface".into(),
        lead: format!(
            "Every ServiceAccount, binding and role across the projects. Flagged: wildcards (*), reading Secrets (get, list, watch), and the escalate, bind and impersonate verbs. {OWN_ROWS}"
        ),
        links: nav(root),
        sections: vec![
            chart,
            section(
                "service-accounts",
                "ServiceAccounts",
                "",
                &["Project", "ServiceAccount", "Bindings → roles"],
                accounts,
            ),
            section(
                "role-bindings",
                "Role bindings",
                "A ClusterRoleBinding grants its role in every namespace; a RoleBinding in its own.",
                &["Project", "Binding", "Scope", "Subjects", "Role"],
                bindings,
            ),
            section(
                "roles",
                "Roles and ClusterRoles",
                "",
                &[
                    "Project",
                    "Role",
                    "Scope",
                    "Rules (verbs: resources)",
                    "Flagged",
                ],
                roles,
            ),
            section(
                "markers",
                "Rules from +kubebuilder:rbac markers",
                "controller-gen writes these into the role it is told to generate; the role is named by the markers' folder when the marker does not name it.",
                &["Project", "Role", "Rule", "Flagged"],
                markers,
            ),
        ],
    }
}

/// Each project's own ServiceAccounts and the bindings naming them.
fn account_rows(projects: &[Project], root: &str, anchors: &mut Anchors) -> Vec<TableRow> {
    let mut accounts = Vec::new();
    for p in projects {
        for s in p
            .findings
            .service_accounts
            .iter()
            .filter(|s| own(s.area, s.bundled))
        {
            let bound: Vec<String> = p
                .findings
                .role_bindings
                .iter()
                .filter(|b| own(b.area, b.bundled))
                .filter(|b| {
                    b.subjects.iter().any(|subj| {
                        subj == &format!("ServiceAccount {}", qualified(&s.namespace, &s.name))
                            || subj == &format!("ServiceAccount {}", s.name)
                    })
                })
                .map(|b| format!("{} {} → {}", b.kind, b.name, b.role))
                .collect();
            accounts.push(TableRow {
                anchor: anchors.unique(&["serviceaccount", &p.name, &s.namespace, &s.name]),
                cells: vec![
                    Cell::project(root, &p.name),
                    Cell::text(qualified(&s.namespace, &s.name)),
                    Cell::lines(&bound),
                ],
                sources: source_links(p, &s.sources),
            });
        }
    }
    accounts
}

/// Each project's own role bindings and their scope.
fn binding_rows(projects: &[Project], root: &str, anchors: &mut Anchors) -> Vec<TableRow> {
    let mut bindings = Vec::new();
    for p in projects {
        for b in p
            .findings
            .role_bindings
            .iter()
            .filter(|b| own(b.area, b.bundled))
        {
            bindings.push(TableRow {
                anchor: anchors.unique(&["binding", &p.name, &b.kind, &b.namespace, &b.name]),
                cells: vec![
                    Cell::project(root, &p.name),
                    Cell::text(qualified(&b.namespace, &b.name)),
                    Cell::text(if b.kind == "ClusterRoleBinding" {
                        "cluster-wide"
                    } else {
                        "namespaced"
                    }),
                    Cell::lines(&b.subjects),
                    Cell::text(b.role.clone()),
                ],
                sources: source_links(p, &b.sources),
            });
        }
    }
    bindings
}

/// Each project's own roles with their rules, dangerous grants flagged.
fn role_rows(projects: &[Project], root: &str, anchors: &mut Anchors) -> Vec<TableRow> {
    let mut roles = Vec::new();
    for p in projects {
        for r in p.findings.roles.iter().filter(|r| own(r.area, r.bundled)) {
            let flags: Vec<String> = r
                .rules
                .iter()
                .flat_map(|rule| dangers(&rule.groups, &rule.resources, &rule.verbs))
                .fold(Vec::new(), |mut acc, f| {
                    if !acc.contains(&f) {
                        acc.push(f);
                    }
                    acc
                });
            roles.push(TableRow {
                anchor: anchors.unique(&[
                    "role",
                    &p.name,
                    &role_key(&r.kind, &r.namespace, &r.name),
                ]),
                cells: vec![
                    Cell::project(root, &p.name),
                    Cell::text(role_key(&r.kind, &r.namespace, &r.name)),
                    Cell::text(if r.kind == "ClusterRole" {
                        "cluster-wide"
                    } else {
                        "namespaced"
                    }),
                    Cell::lines(&rule_lines(&r.rules)),
                    Cell::lines(&flags),
                ],
                sources: source_links(p, &r.sources),
            });
        }
    }
    roles
}

/// The rules of each project's own `+kubebuilder:rbac` markers.
fn marker_rows(projects: &[Project], root: &str, anchors: &mut Anchors) -> Vec<TableRow> {
    let mut markers = Vec::new();
    for p in projects {
        for r in p
            .findings
            .rbac
            .iter()
            .filter(|r| own(r.area, r.bundled) && r.origin == model::Origin::Marker)
        {
            let rule = model::PolicyRule {
                groups: r.groups.clone(),
                resources: r.resources.clone(),
                verbs: r.verbs.clone(),
                resource_names: r.resource_names.clone(),
                non_resource_urls: Vec::new(),
            };
            markers.push(TableRow {
                anchor: anchors.unique(&[
                    "marker",
                    &p.name,
                    &r.role,
                    &r.sources
                        .first()
                        .map(|s| format!("{}-{}", s.file, s.line))
                        .unwrap_or_default(),
                ]),
                cells: vec![
                    Cell::project(root, &p.name),
                    Cell::text(r.role.clone()),
                    Cell::lines(&rule_lines(std::slice::from_ref(&rule))),
                    Cell::lines(&dangers(&r.groups, &r.resources, &r.verbs)),
                ],
                sources: source_links(p, &r.sources),
            });
        }
    }
    markers
}

/// The rules of each project's own roles, cluster-wide and namespaced, and how many are
/// flagged, charted per project.
fn rules_chart(projects: &[Project], root: &str) -> Section {
    let mut counts = Vec::new();
    for p in projects {
        let roles: Vec<&model::Role> = p
            .findings
            .roles
            .iter()
            .filter(|r| own(r.area, r.bundled))
            .collect();
        let rules = |cluster: bool| {
            roles
                .iter()
                .filter(|r| (r.kind == "ClusterRole") == cluster)
                .map(|r| r.rules.len() as u64)
                .sum::<u64>()
        };
        let flagged = roles
            .iter()
            .flat_map(|r| &r.rules)
            .filter(|rule| !dangers(&rule.groups, &rule.resources, &rule.verbs).is_empty())
            .count() as u64;
        let rbac = format!("{root}projects/{}/security/#roles", p.name);
        let (cluster, namespaced) = (rules(true), rules(false));
        if cluster + namespaced == 0 {
            continue;
        }
        for (what, n) in [
            ("rules in ClusterRoles", cluster),
            ("rules in Roles", namespaced),
            ("flagged rules", flagged),
        ] {
            counts.push((p.name.clone(), what.to_string(), n, rbac.clone()));
        }
    }
    chart_section(
        "rules-per-project",
        "RBAC rules per project",
        "Rules of each project's own Roles and ClusterRoles, and how many of them are flagged (wildcards, reading Secrets, escalate, bind, impersonate).",
        &counts,
        root,
    )
}

pub fn secrets(projects: &[Project], root: &str) -> PortalPage {
    let mut anchors = Anchors::new();
    let mut rows = Vec::new();
    for p in projects {
        for s in p.findings.secrets.iter().filter(|s| own(s.area, s.bundled)) {
            rows.push(TableRow {
                anchor: anchors.unique(&["secret", &p.name, &s.namespace, &s.name]),
                cells: vec![
                    Cell::project(root, &p.name),
                    Cell::text(qualified(&s.namespace, &s.name)),
                    Cell::text(s.secret_type.clone()),
                    Cell::text(s.keys.join(", ")),
                    Cell::lines(&if s.defined_by.is_empty() {
                        vec!["not in the repository (created at install or run time)".to_string()]
                    } else {
                        s.defined_by.clone()
                    }),
                    Cell::lines(&s.referenced_by),
                ],
                sources: source_links(p, &s.sources),
            });
        }
    }
    let mut counts = Vec::new();
    for p in projects {
        let mut by_use: Vec<(&str, u64)> = Vec::new();
        for s in p.findings.secrets.iter().filter(|s| own(s.area, s.bundled)) {
            for u in secret_uses(s) {
                match by_use.iter_mut().find(|(x, _)| *x == u) {
                    Some((_, n)) => *n += 1,
                    None => by_use.push((u, 1)),
                }
            }
        }
        by_use.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        for (what, n) in by_use {
            counts.push((
                p.name.clone(),
                what.to_string(),
                n,
                format!("{root}projects/{}/security/#secrets", p.name),
            ));
        }
    }
    let chart = chart_section(
        "secrets-by-use",
        "Secrets per project by how they are used",
        "Each Secret counts once for each way it is used: read into the environment (env, envFrom), mounted (volumes, projected volumes), pulled with or listed by a ServiceAccount, TLS of an Ingress or Gateway; a Secret nothing references counts as defined only.",
        &counts,
        root,
    );
    PortalPage {
        path: "platform/secrets/".into(),
        page_title: "Secrets inventory".into(),
        lead: format!(
            "Every Secret the projects define or reference, by whom and how it is used (mounted, read into the environment, pulled with, written by a Certificate). Values are never read. {OWN_ROWS}"
        ),
        links: nav(root),
        sections: vec![
            chart,
            section(
                "secrets",
                "Secrets",
                "",
                &[
                    "Project",
                    "Secret",
                    "Type",
                    "Keys",
                    "Defined by",
                    "Referenced by (how used)",
                ],
                rows,
            ),
        ],
    }
}

#[cfg(test)]
mod tests;
