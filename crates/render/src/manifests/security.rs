//! The security page (`/projects/P/security/`): ServiceAccounts, role bindings, roles,
//! admission webhooks, Secrets, cert-manager objects and security contexts.

use kubernetes::names::qualified;
use kubernetes::names::role_key;
use model::{Project, ServiceAccount, Webhook};

use super::{BUNDLED_INTRO, SectionsPage, role_anchor, rule_line};
use crate::api::Header;
use crate::subjects::{Namespaces, Resolved};
use crate::table::{Anchors, Cell, KindLinks, Router, Section, TableRow, section, source_links};

/// The security page of `p`: one section per function below, then the bundled and samples
/// sections.
pub fn security(p: &Project, links: &KindLinks) -> SectionsPage {
    let mut router = Router::new();
    let mut anchors = Anchors::new();
    let namespaces = Namespaces::new(p);
    let mut sections = vec![service_accounts(p, &namespaces, &mut router, &mut anchors)];
    sections.push(role_bindings(p, &namespaces, &mut router, &mut anchors));
    sections.push(roles(p, links, &mut router, &mut anchors));
    sections.push(webhooks(p, links, &mut router, &mut anchors));
    sections.push(secrets(p, &mut router, &mut anchors));
    sections.push(certificates(p, &mut router, &mut anchors));
    sections.push(security_contexts(p, &mut router, &mut anchors));
    sections.extend(router.finish(BUNDLED_INTRO));
    SectionsPage {
        header: Header::of(p),
        page_title: "Security".into(),
        lead: "Who may do what: ServiceAccounts, roles and bindings, admission webhooks, Secrets and certificates, security contexts.".into(),
        sections,
        diagram: String::new(),
    }
}

/// The ServiceAccounts grouped by the account the cluster sees (and by area and bundling),
/// each with the first reason found for its namespace: one row per account as the cluster
/// sees it (`subjects`), so a ServiceAccount written without a namespace that kustomize
/// puts in one is the same as one written with it.
fn accounts<'p>(
    p: &'p Project,
    namespaces: &Namespaces,
) -> Vec<(Resolved, Vec<&'p ServiceAccount>)> {
    let mut accounts: Vec<(Resolved, Vec<&ServiceAccount>)> = Vec::new();
    for s in &p.findings.service_accounts {
        let r = namespaces.account(&s.namespace, &s.name);
        match accounts.iter_mut().find(|(seen, rows)| {
            seen.subject == r.subject && (rows[0].area, rows[0].bundled) == (s.area, s.bundled)
        }) {
            Some((seen, rows)) => {
                if seen.why.is_empty() {
                    seen.why = r.why;
                }
                rows.push(s);
            }
            None => accounts.push((r, vec![s])),
        }
    }
    accounts
}

/// Each ServiceAccount and the bindings that grant it roles.
fn service_accounts(
    p: &Project,
    namespaces: &Namespaces,
    router: &mut Router,
    anchors: &mut Anchors,
) -> Section {
    let accounts = accounts(p, namespaces);
    let sas = accounts
        .into_iter()
        .filter_map(|(r, rows)| {
            let s = rows[0];
            let used_by: Vec<String> = p
                .findings
                .role_bindings
                .iter()
                .filter(|b| {
                    b.subjects
                        .iter()
                        .any(|subj| namespaces.subject(b, subj).subject == r.subject)
                })
                .map(|b| format!("{} → {}", b.name, b.role))
                .fold(Vec::new(), |mut acc: Vec<String>, x| {
                    if !acc.contains(&x) {
                        acc.push(x);
                    }
                    acc
                });
            let name = r
                .subject
                .strip_prefix("ServiceAccount ")
                .unwrap_or(&r.subject);
            let (namespace, short) = name.split_once('/').unwrap_or(("", name));
            let mut image_pull_secrets: Vec<&str> = Vec::new();
            let mut sources = Vec::new();
            for row in &rows {
                for secret in &row.image_pull_secrets {
                    if !image_pull_secrets.contains(&secret.as_str()) {
                        image_pull_secrets.push(secret);
                    }
                }
                sources.extend(row.sources.iter().cloned());
            }
            let row = TableRow {
                anchor: anchors.unique(&["serviceaccount", namespace, short]),
                cells: vec![
                    if r.why.is_empty() {
                        Cell::text(name)
                    } else {
                        Cell::text(format!("{name}\n({})", r.why))
                    },
                    Cell::lines(&used_by),
                    Cell::text(image_pull_secrets.join(", ")),
                ],
                sources: source_links(p, &sources),
            };
            router.route("ServiceAccount", s.area, s.bundled, row)
        })
        .collect();
    section(
        "service-accounts",
        "ServiceAccounts",
        "Each ServiceAccount and the bindings that grant it roles.",
        &[
            "Name",
            "Bindings → roles",
            "Image pull secrets",
            "Source",
            "",
        ],
        sas,
        "No ServiceAccounts were found.",
    )
}

/// RoleBindings and ClusterRoleBindings, linking to roles defined in the repository.
fn role_bindings(
    p: &Project,
    namespaces: &Namespaces,
    router: &mut Router,
    anchors: &mut Anchors,
) -> Section {
    let bindings = p
        .findings
        .role_bindings
        .iter()
        .filter_map(|b| {
            let role_row = role_anchor(&b.role);
            let row = TableRow {
                anchor: anchors.unique(&["binding", &b.kind, &b.namespace, &b.name]),
                cells: vec![
                    Cell::text(b.kind.clone()),
                    Cell::text(qualified(&b.namespace, &b.name)),
                    Cell::lines(
                        &b.subjects
                            .iter()
                            .map(|subj| {
                                let r = namespaces.subject(b, subj);
                                if r.why.is_empty() {
                                    r.subject
                                } else {
                                    format!("{} ({})", r.subject, r.why)
                                }
                            })
                            .collect::<Vec<_>>(),
                    ),
                    if p.findings
                        .roles
                        .iter()
                        .any(|r| role_key(&r.kind, &r.namespace, &r.name) == b.role)
                    {
                        Cell::link(b.role.clone(), format!("#{role_row}"))
                    } else {
                        Cell::text(b.role.clone())
                    },
                ],
                sources: source_links(p, &b.sources),
            };
            router.route(&b.kind, b.area, b.bundled, row)
        })
        .collect();
    section(
        "role-bindings",
        "Role bindings",
        "Subjects → role. A role defined in the repository links to its rules.",
        &["Kind", "Name", "Subjects", "Role", "Source", ""],
        bindings,
        "No RoleBindings or ClusterRoleBindings were found.",
    )
}

/// Roles and ClusterRoles with their rules and the portal's CRDs they name.
fn roles(p: &Project, links: &KindLinks, router: &mut Router, anchors: &mut Anchors) -> Section {
    let mut seen_roles = std::collections::BTreeSet::new();
    let roles = p
        .findings
        .roles
        .iter()
        .filter_map(|r| {
            let key = role_key(&r.kind, &r.namespace, &r.name);
            let anchor_text = if seen_roles.insert(key.clone()) {
                anchors.unique(&["role", &key])
            } else {
                anchors.unique(&["role", &key, "copy"])
            };
            let rules: Vec<String> = r.rules.iter().map(rule_line).collect();
            let mut kinds = Vec::new();
            for rule in &r.rules {
                for cell in links.resource_cells(&rule.groups, &rule.resources) {
                    if !cell.url.is_empty() && !kinds.contains(&cell) {
                        kinds.push(cell);
                    }
                }
            }
            let mut cells = vec![
                Cell::text(key.clone()),
                Cell::lines(&rules),
                Cell::text(r.aggregation.join(", ")),
            ];
            cells.push(Cell::list(kinds));
            let row = TableRow {
                anchor: anchor_text,
                cells,
                sources: source_links(p, &r.sources),
            };
            router.route(&r.kind, r.area, r.bundled, row)
        })
        .collect();
    section(
        "roles",
        "Roles and ClusterRoles",
        "Rules as verbs: group/resource. Custom resources of the portal's CRDs link to their API reference.",
        &[
            "Role",
            "Rules",
            "Aggregated from",
            "CRDs named",
            "Source",
            "",
        ],
        roles,
        "No Roles or ClusterRoles were found.",
    )
}

/// Admission webhooks with their service, rules and the CRDs they name.
fn webhooks(p: &Project, links: &KindLinks, router: &mut Router, anchors: &mut Anchors) -> Section {
    let hooks = p
        .findings
        .webhooks
        .iter()
        .filter_map(|w| {
            let (rules, kinds) = webhook_rules(w, links);
            let row = TableRow {
                anchor: anchors.unique(&["webhook", &w.configuration, &w.name]),
                cells: vec![
                    Cell::text(w.name.clone()),
                    Cell::text(format!("{:?}", w.kind).to_lowercase()),
                    Cell::text(webhook_service(w)),
                    Cell::text(w.path.clone()),
                    Cell::text(w.failure_policy.clone()),
                    Cell::text(rules),
                    Cell::list(kinds),
                ],
                sources: source_links(p, &w.sources),
            };
            router.route("Webhook", w.area, w.bundled, row)
        })
        .collect();
    section(
        "webhooks",
        "Admission webhooks",
        "",
        &[
            "Name",
            "Type",
            "Service",
            "Path",
            "Failure policy",
            "Rules (operations groups resources)",
            "CRDs",
            "Source",
            "",
        ],
        hooks,
        "No webhook configurations were found.",
    )
}

/// Secrets by name: where they are defined and who uses them.
fn secrets(p: &Project, router: &mut Router, anchors: &mut Anchors) -> Section {
    let secrets = p
        .findings
        .secrets
        .iter()
        .filter_map(|s| {
            let row = TableRow {
                anchor: anchors.unique(&["secret", &s.name]),
                cells: vec![
                    Cell::text(s.name.clone()),
                    Cell::text(s.namespace.clone()),
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
            };
            router.route("Secret", s.area, s.bundled, row)
        })
        .collect();
    section(
        "secrets",
        "Secrets",
        "Secrets by name: where they are defined and who uses them. Values are never read.",
        &[
            "Name",
            "Namespaces",
            "Type",
            "Keys",
            "Defined by",
            "Referenced by",
            "Sources",
            "",
        ],
        secrets,
        "No Secrets are defined or referenced.",
    )
}

/// cert-manager Certificates and Issuers.
fn certificates(p: &Project, router: &mut Router, anchors: &mut Anchors) -> Section {
    let certs = p
        .findings
        .certificates
        .iter()
        .filter_map(|c| {
            let row = TableRow {
                anchor: anchors.unique(&["cert", &c.kind, &c.namespace, &c.name]),
                cells: vec![
                    Cell::text(c.kind.clone()),
                    Cell::text(qualified(&c.namespace, &c.name)),
                    Cell::text(c.issuer.clone()),
                    Cell::text(c.secret_name.clone()),
                    Cell::lines(&c.dns_names),
                ],
                sources: source_links(p, &c.sources),
            };
            router.route(&c.kind, c.area, c.bundled, row)
        })
        .collect();
    section(
        "certificates",
        "cert-manager Certificates and Issuers",
        "",
        &[
            "Kind",
            "Name",
            "Issuer (or issuer type)",
            "Secret written",
            "DNS names",
            "Source",
            "",
        ],
        certs,
        "No cert-manager objects were found.",
    )
}

/// The pod and container securityContext of each workload.
fn security_contexts(p: &Project, router: &mut Router, anchors: &mut Anchors) -> Section {
    let contexts = p
        .findings
        .workloads
        .iter()
        .filter_map(|w| {
            let mut lines = Vec::new();
            if !w.security_context.is_empty() {
                lines.push(format!("pod: {}", w.security_context.join(", ")));
            }
            for c in &w.containers {
                lines.push(format!(
                    "{}: {}",
                    c.name,
                    if c.security_context.is_empty() {
                        "(none)".to_string()
                    } else {
                        c.security_context.join(", ")
                    }
                ));
            }
            let row = TableRow {
                anchor: anchors.unique(&["securitycontext", &w.kind, &w.namespace, &w.name]),
                cells: vec![
                    Cell::text(w.kind.clone()),
                    Cell::text(qualified(&w.namespace, &w.name)),
                    Cell::lines(&lines),
                ],
                sources: source_links(p, &w.sources),
            };
            router.route(
                &format!("{} security context", w.kind),
                w.area,
                w.bundled,
                row,
            )
        })
        .collect();
    section(
        "security-contexts",
        "Security contexts",
        "The pod and container securityContext of each workload.",
        &["Kind", "Name", "Settings", "Source", ""],
        contexts,
        "No workloads were found.",
    )
}

/// The Service column of a webhook: the resolved service with how kustomize gets there.
pub fn webhook_service(w: &Webhook) -> String {
    if w.resolved_service.is_empty() && w.substitutions.is_empty() {
        return w.service.clone();
    }
    let mut s = if w.resolved_service.is_empty() {
        format!("{} (not resolved)", w.service)
    } else {
        w.resolved_service.clone()
    };
    s.push_str(&format!("\nwritten as {}; kustomize:", w.service));
    for sub in &w.substitutions {
        s.push_str(&format!(
            "\n{} {} ← {}{}",
            sub.field.rsplit('.').next().unwrap_or(&sub.field),
            if sub.value.is_empty() {
                "?".to_string()
            } else {
                sub.value.clone()
            },
            sub.origin,
            sub.sources
                .first()
                .map(|src| format!(" ({}:{})", src.file, src.line))
                .unwrap_or_default()
        ));
    }
    s
}

/// The rules of a webhook as lines, and the kinds they name linked to their reference.
pub fn webhook_rules(w: &Webhook, links: &KindLinks) -> (String, Vec<Cell>) {
    let mut lines = Vec::new();
    let mut kinds = Vec::new();
    for r in &w.rules {
        lines.push(format!(
            "{} {} {}",
            r.operations.join(","),
            r.groups
                .iter()
                .map(|g| if g.is_empty() {
                    "core".to_string()
                } else {
                    g.clone()
                })
                .collect::<Vec<_>>()
                .join(","),
            r.resources.join(",")
        ));
        for cell in links.resource_cells(&r.groups, &r.resources) {
            if !cell.url.is_empty() && !kinds.contains(&cell) {
                kinds.push(cell);
            }
        }
    }
    (lines.join("\n"), kinds)
}
