//! The manifest pages of a project, built as generic sections of tables:
//! `/projects/P/configuration/` (workloads, their availability and resources (`availability`), ConfigMaps, Helm charts and their values,
//! kustomizations), `/projects/P/network/` (Services, ports, Ingresses, Routes and Gateway
//! API objects, NetworkPolicies) and `/projects/P/security/` (ServiceAccounts, Roles and
//! bindings, webhooks, Secrets, cert-manager objects, security contexts).
//!
//! Rows of tests, docs and samples and rows of bundled dependency manifests are moved to
//! the two trailing sections of each page (`table::Router`), never mixed with the
//! project's own.

use serde::Serialize;

use super::api::Header;
use super::table::{
    Anchors, Cell, KindLinks, Router, Section, TableRow, port_name, section, service_port,
    source_links,
};
use super::views::anchor;
use kubernetes::names::qualified;
use kubernetes::names::role_key;
use model::{Project, Webhook};

#[derive(Serialize)]
pub struct SectionsPage {
    #[serde(flatten)]
    pub header: Header,
    pub page_title: String,
    pub lead: String,
    pub sections: Vec<Section>,
    /// A graph of the page (service map, RBAC) as SVG from `render::svg` (every text
    /// escaped), filled by `render::graphs`; empty when there is none.
    pub diagram: String,
}

const BUNDLED_INTRO: &str = "Objects in manifest folders that belong to another project (see the Bundled dependency manifests section of the dataflow page for the evidence), and CRDs whose API group no in-repo Go API package declares.";

/// One policy rule as `verbs: group/resource … (names …)`.
pub fn rule_line(rule: &model::PolicyRule) -> String {
    let mut what: Vec<String> = rule
        .groups
        .iter()
        .flat_map(|g| {
            rule.resources.iter().map(move |res| {
                if g.is_empty() {
                    res.clone()
                } else {
                    format!("{g}/{res}")
                }
            })
        })
        .collect();
    what.extend(rule.non_resource_urls.iter().cloned());
    format!(
        "{}: {}{}",
        rule.verbs.join(","),
        what.join(" "),
        if rule.resource_names.is_empty() {
            String::new()
        } else {
            format!(" (names {})", rule.resource_names.join(","))
        }
    )
}

/// The role row anchor used on the security page, so bindings can link to their role.
fn role_anchor(role: &str) -> String {
    anchor(&["role", role])
}

pub fn configuration(p: &Project) -> SectionsPage {
    let mut router = Router::new();
    let mut anchors = Anchors::new();
    let mut sections = Vec::new();

    let workloads = p
        .findings
        .workloads
        .iter()
        .filter_map(|w| {
            let containers: Vec<String> = w
                .containers
                .iter()
                .map(|c| {
                    let mut s = format!(
                        "{}{}: {}",
                        if c.init { "init " } else { "" },
                        c.name,
                        c.image
                    );
                    if !c.command.is_empty() {
                        s.push_str(&format!("\n  command: {}", c.command.join(" ")));
                    }
                    if !c.args.is_empty() {
                        // Long argument lists (scripts) are cut here; the model has them all.
                        let args = c.args.join(" ");
                        let shown: String = args.chars().take(300).collect();
                        let more = if shown.len() < args.len() { " …" } else { "" };
                        s.push_str(&format!("\n  args: {shown}{more}"));
                    }
                    s
                })
                .collect();
            let env: Vec<String> = w
                .containers
                .iter()
                .flat_map(|c| {
                    c.env
                        .iter()
                        .map(|e| match (&e.value, e.from.as_str()) {
                            (Some(v), _) => format!("{}={v}", e.name),
                            (None, from) => format!("{} ← {from}", e.name),
                        })
                        .chain(c.env_from.iter().map(|f| format!("(all of) {f}")))
                })
                .collect();
            let mut mounts: Vec<String> = w
                .config_maps
                .iter()
                .map(|c| format!("ConfigMap {c}"))
                .collect();
            mounts.extend(w.secrets.iter().map(|s| format!("Secret {s}")));
            let row = TableRow {
                anchor: anchors.unique(&["workload", &w.kind, &w.namespace, &w.name]),
                cells: vec![
                    Cell::text(format!(
                        "{}{}",
                        w.kind,
                        if w.templated { " (templated)" } else { "" }
                    )),
                    Cell::text(qualified(&w.namespace, &w.name)),
                    Cell::lines(&containers),
                    Cell::lines(&env),
                    Cell::lines(&mounts),
                    Cell::text(w.service_account.clone()),
                ],
                sources: source_links(p, &w.sources),
            };
            router.route(&w.kind, w.area, w.bundled, row)
        })
        .collect();
    sections.push(section(
        "workloads",
        "Workloads",
        "Deployments, StatefulSets, DaemonSets, Jobs, CronJobs and Pods: containers with their images, commands and arguments; environment variables (literal values only when they do not look secret; never a Secret's value); the ConfigMaps and Secrets each pod uses.",
        &["Kind", "Name", "Containers", "Environment", "ConfigMaps and Secrets", "Service account", "Source", ""],
        workloads,
        "No workload manifests were found.",
    ));
    sections.extend(super::availability::sections(p, &mut router, &mut anchors));

    let configmaps = p
        .findings
        .configmaps
        .iter()
        .filter_map(|c| {
            let mut keys = c.keys.join(", ");
            if !c.env_files.is_empty() {
                keys.push_str(&format!(
                    "{}keys of {}",
                    if keys.is_empty() { "" } else { "; " },
                    c.env_files.join(", ")
                ));
            }
            let row = TableRow {
                anchor: anchors.unique(&["configmap", &c.namespace, &c.name]),
                cells: vec![
                    Cell::text(format!(
                        "{}{}",
                        c.name,
                        if c.templated { " (templated)" } else { "" }
                    )),
                    Cell::text(c.namespace.clone()),
                    Cell::text(keys),
                    Cell::text(if c.generated_by.is_empty() {
                        "manifest".to_string()
                    } else {
                        format!("configMapGenerator in {}", c.generated_by)
                    }),
                ],
                sources: source_links(p, &c.sources),
            };
            router.route("ConfigMap", c.area, c.bundled, row)
        })
        .collect();
    sections.push(section(
        "configmaps",
        "ConfigMaps",
        "ConfigMap manifests and kustomize configMapGenerator entries, with their keys.",
        &["Name", "Namespace", "Keys", "From", "Source", ""],
        configmaps,
        "No ConfigMaps were found.",
    ));

    let charts = p
        .findings
        .helm_charts
        .iter()
        .filter_map(|h| {
            let deps: Vec<String> = h
                .dependencies
                .iter()
                .map(|d| {
                    format!(
                        "{} {}{}{}",
                        d.name,
                        d.version,
                        if d.repository.is_empty() {
                            String::new()
                        } else {
                            format!(" from {}", d.repository)
                        },
                        if d.condition.is_empty() {
                            String::new()
                        } else {
                            format!(" if {}", d.condition)
                        }
                    )
                })
                .collect();
            let row = TableRow {
                anchor: anchors.unique(&["chart", &h.name]),
                cells: vec![
                    Cell::link(h.name.clone(), format!("#{}", anchor(&["values", &h.name]))),
                    Cell::text(h.version.clone()),
                    Cell::text(h.app_version.clone()),
                    Cell::text(h.description.clone()),
                    Cell::lines(&deps),
                    Cell::text(format!(
                        "{} keys{}",
                        h.values.len(),
                        if h.values_schema.is_empty() {
                            ""
                        } else {
                            ", with values.schema.json"
                        }
                    )),
                ],
                sources: source_links(p, &h.sources),
            };
            router.route("Helm chart", h.area, false, row)
        })
        .collect();
    sections.push(section(
        "helm-charts",
        "Helm charts",
        "Chart.yaml of each chart, versions exactly as written.",
        &[
            "Chart",
            "Version",
            "App version",
            "Description",
            "Dependencies",
            "Values",
            "Source",
            "",
        ],
        charts,
        "No Helm charts were found.",
    ));
    for h in &p.findings.helm_charts {
        let rows = h
            .values
            .iter()
            .map(|v| {
                let mut t = v.value_type.clone();
                if !v.schema_type.is_empty() && v.schema_type != v.value_type {
                    t.push_str(&format!(" (schema: {})", v.schema_type));
                }
                if v.required {
                    t.push_str(", required");
                }
                let mut desc = v.description.clone();
                if !v.enum_values.is_empty() {
                    desc.push_str(&format!(
                        "{}One of: {}",
                        if desc.is_empty() { "" } else { "\n" },
                        v.enum_values.join(", ")
                    ));
                }
                TableRow {
                    anchor: anchors.unique(&["value", &h.name, &v.key]),
                    cells: vec![
                        Cell::text(v.key.clone()),
                        Cell::text(t),
                        Cell::text(v.default.clone()),
                        Cell::text(desc),
                    ],
                    sources: source_links(p, &v.sources),
                }
            })
            .collect();
        sections.push(section(
            &anchor(&["values", &h.name]),
            &format!("Values of chart {}", h.name),
            if h.values_schema.is_empty() {
                "From values.yaml; descriptions from the comment above each key."
            } else {
                "From values.yaml and values.schema.json; descriptions from the comment above each key, else from the schema."
            },
            &["Key", "Type", "Default", "Description", "Source", ""],
            rows,
            "This chart has no values.",
        ));
    }

    let kustomizations = p
        .findings
        .kustomizations
        .iter()
        .filter_map(|k| {
            let mut settings = Vec::new();
            if !k.namespace.is_empty() {
                settings.push(format!("namespace: {}", k.namespace));
            }
            if !k.name_prefix.is_empty() {
                settings.push(format!("namePrefix: {}", k.name_prefix));
            }
            if !k.name_suffix.is_empty() {
                settings.push(format!("nameSuffix: {}", k.name_suffix));
            }
            settings.extend(k.images.iter().map(|i| format!("image {i}")));
            settings.extend(k.patches.iter().map(|x| format!("patch {x}")));
            for g in &k.config_map_generators {
                settings.push(format!(
                    "configMapGenerator {}: {}",
                    g.name,
                    g.keys.join(", ")
                ));
            }
            for g in &k.secret_generators {
                settings.push(format!(
                    "secretGenerator {}: keys {}",
                    g.name,
                    g.keys.join(", ")
                ));
            }
            for v in &k.vars {
                settings.push(format!(
                    "var $({}) = {} of {}",
                    v.name, v.field_path, v.object
                ));
            }
            for r in &k.replacements {
                settings.push(format!(
                    "replacement: {} of {} → {}",
                    r.field_path,
                    r.object,
                    r.targets.join("; ")
                ));
            }
            let mut includes = k.resources.clone();
            includes.extend(k.components.iter().map(|c| format!("component {c}")));
            let row = TableRow {
                anchor: anchors.unique(&["kustomization", &k.dir]),
                cells: vec![
                    Cell::text(if k.dir.is_empty() {
                        "(root)".into()
                    } else {
                        k.dir.clone()
                    }),
                    Cell::lines(&includes),
                    Cell::lines(&settings),
                    Cell::lines(&k.objects),
                ],
                sources: source_links(p, &k.sources),
            };
            router.route("Kustomization", k.area, k.bundled, row)
        })
        .collect();
    sections.push(section(
        "kustomizations",
        "Kustomizations",
        "Each kustomization.yaml: what it includes, how it transforms it, and the objects it builds from files in the repository (names as written, before prefixes and namespaces are applied).",
        &["Folder", "Resources", "Transformations", "Objects", "Source", ""],
        kustomizations,
        "No kustomizations were found.",
    ));
    let gates = p
        .findings
        .feature_gates
        .iter()
        .filter_map(|g| {
            let row = TableRow {
                anchor: anchors.unique(&["feature-gate", &g.name]),
                cells: super::connections::gate_cells(g),
                sources: source_links(p, &g.sources),
            };
            router.route("Feature gate", g.area, false, row)
        })
        .collect();
    sections.push(section(
        "feature-gates",
        "Feature gates",
        "Feature gates registered with `k8s.io/component-base/featuregate` (`FeatureSpec` maps handed to `DefaultMutableFeatureGate.Add`): the default, the stage, and whether the gate is locked to its default.",
        &["Gate", "Default", "Stage", "Notes", "Source", ""],
        gates,
        "No feature-gate registrations were found.",
    ));
    let checks = p
        .findings
        .platform_checks
        .iter()
        .filter_map(|c| {
            let line = c
                .sources
                .first()
                .map(|s| s.line.to_string())
                .unwrap_or_default();
            let row = TableRow {
                anchor: anchors.unique(&["platform-check", &c.function, &line]),
                cells: super::connections::check_cells(p, c),
                sources: source_links(p, &c.sources),
            };
            router.route("Platform check", c.area, false, row)
        })
        .collect();
    sections.push(section(
        "platform-checks",
        "Platform detection",
        "Code that asks the cluster what it serves: discovery calls (`ServerGroups`, `ServerResourcesForGroupVersion`), calls of repository helpers that make one or are named like `IsOpenShift`, and no-kind-match error checks. Each row says what is checked, the `if` whose branch depends on the answer, and the watches and writes written inside that branch (only what the code shows).",
        &["Checks", "How", "In function", "Branch", "Switches", "Source", ""],
        checks,
        "No platform checks were found.",
    ));
    sections.push(super::images::images_section(p, &mut router, &mut anchors));
    sections.push(super::images::dockerfiles_section(
        p,
        &mut router,
        &mut anchors,
    ));
    sections.extend(super::memory::project_sections(
        p,
        &mut router,
        &mut anchors,
    ));
    sections.extend(router.finish(BUNDLED_INTRO));
    SectionsPage {
        header: Header::of(p),
        page_title: "Configuration".into(),
        lead: "How the project is configured and deployed: workloads with their availability and resources, ConfigMaps, Helm values, kustomize overlays, the images they name and the Dockerfiles that build them, feature gates, platform detection, and its controller-runtime managers with their cache and memory risks.".into(),
        sections,
        diagram: String::new(),
    }
}

pub fn network(p: &Project) -> SectionsPage {
    let mut router = Router::new();
    let mut anchors = Anchors::new();
    let mut sections = Vec::new();
    let services = p
        .findings
        .services
        .iter()
        .filter_map(|s| {
            let ports: Vec<String> = s.ports.iter().map(service_port).collect();
            let row = TableRow {
                anchor: anchors.unique(&["service", &s.namespace, &s.name]),
                cells: vec![
                    Cell::text(format!(
                        "{}{}",
                        s.name,
                        if s.templated { " (templated)" } else { "" }
                    )),
                    Cell::text(s.namespace.clone()),
                    Cell::text(if s.service_type.is_empty() {
                        "ClusterIP".to_string()
                    } else {
                        s.service_type.clone()
                    }),
                    Cell::lines(&ports),
                    Cell::text(s.selector.join(", ")),
                ],
                sources: source_links(p, &s.sources),
            };
            router.route("Service", s.area, s.bundled, row)
        })
        .collect();
    sections.push(section(
        "services",
        "Services",
        "",
        &[
            "Name",
            "Namespace",
            "Type",
            "Ports (port→target/protocol)",
            "Selector",
            "Source",
            "",
        ],
        services,
        "No Service manifests were found.",
    ));
    let ports = p
        .findings
        .workloads
        .iter()
        .filter(|w| w.containers.iter().any(|c| !c.ports.is_empty()))
        .filter_map(|w| {
            let ports: Vec<String> = w
                .containers
                .iter()
                .flat_map(|c| {
                    c.ports.iter().map(move |port| {
                        format!(
                            "{}: {}/{}{}",
                            c.name,
                            port.port,
                            port.protocol,
                            port_name(&port.name)
                        )
                    })
                })
                .collect();
            let row = TableRow {
                anchor: anchors.unique(&["ports", &w.kind, &w.namespace, &w.name]),
                cells: vec![
                    Cell::text(w.kind.clone()),
                    Cell::text(qualified(&w.namespace, &w.name)),
                    Cell::lines(&ports),
                ],
                sources: source_links(p, &w.sources),
            };
            router.route(&format!("{} ports", w.kind), w.area, w.bundled, row)
        })
        .collect();
    sections.push(section(
        "container-ports",
        "Container ports",
        "Ports the workloads' containers declare.",
        &["Kind", "Name", "Ports", "Source", ""],
        ports,
        "No container declares a port.",
    ));
    let ingresses = p
        .findings
        .ingresses
        .iter()
        .filter_map(|i| {
            let mut front = i.hosts.clone();
            front.extend(i.listeners.iter().cloned());
            let row = TableRow {
                anchor: anchors.unique(&["ingress", &i.kind, &i.namespace, &i.name]),
                cells: vec![
                    Cell::text(format!(
                        "{}{}",
                        i.kind,
                        if i.templated { " (templated)" } else { "" }
                    )),
                    Cell::text(qualified(&i.namespace, &i.name)),
                    Cell::text(i.class.clone()),
                    Cell::lines(&front),
                    Cell::lines(&i.parents),
                    Cell::lines(&i.rules),
                    Cell::text(i.tls_secrets.join(", ")),
                ],
                sources: source_links(p, &i.sources),
            };
            router.route(&i.kind, i.area, i.bundled, row)
        })
        .collect();
    sections.push(section(
        "ingresses",
        "Ingresses, Routes and Gateways",
        "Kubernetes Ingresses, OpenShift Routes, and Gateway API Gateways and routes.",
        &[
            "Kind",
            "Name",
            "Class",
            "Hosts and listeners",
            "Parents",
            "Rules",
            "TLS secrets",
            "Source",
            "",
        ],
        ingresses,
        "None were found.",
    ));
    let policies = p
        .findings
        .network_policies
        .iter()
        .filter_map(|n| {
            let row = TableRow {
                anchor: anchors.unique(&["networkpolicy", &n.namespace, &n.name]),
                cells: network_policy_cells(n),
                sources: source_links(p, &n.sources),
            };
            router.route("NetworkPolicy", n.area, n.bundled, row)
        })
        .collect();
    sections.push(section(
        "network-policies",
        "NetworkPolicies",
        "",
        &[
            "Name",
            "Pods",
            "Policy types",
            "Ingress from",
            "Egress to",
            "Source",
            "",
        ],
        policies,
        "No NetworkPolicies were found.",
    ));
    sections.extend(router.finish(BUNDLED_INTRO));
    SectionsPage {
        header: Header::of(p),
        page_title: "Network".into(),
        lead: "What the project exposes and how traffic reaches it.".into(),
        sections,
        diagram: String::new(),
    }
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

pub fn security(p: &Project, links: &KindLinks) -> SectionsPage {
    let mut router = Router::new();
    let mut anchors = Anchors::new();
    let mut sections = Vec::new();
    // One row per account as the cluster sees it (`subjects`): a ServiceAccount written
    // without a namespace that kustomize puts in one is the same as one written with it.
    let namespaces = super::subjects::Namespaces::new(p);
    let mut accounts: Vec<(super::subjects::Resolved, Vec<&model::ServiceAccount>)> = Vec::new();
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
    sections.push(section(
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
    ));
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
    sections.push(section(
        "role-bindings",
        "Role bindings",
        "Subjects → role. A role defined in the repository links to its rules.",
        &["Kind", "Name", "Subjects", "Role", "Source", ""],
        bindings,
        "No RoleBindings or ClusterRoleBindings were found.",
    ));
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
    sections.push(section(
        "roles",
        "Roles and ClusterRoles",
        "Rules as verbs: group/resource. Custom resources of the portal's CRDs link to their API reference.",
        &["Role", "Rules", "Aggregated from", "CRDs named", "Source", ""],
        roles,
        "No Roles or ClusterRoles were found.",
    ));
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
    sections.push(section(
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
    ));
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
    sections.push(section(
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
    ));
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
    sections.push(section(
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
    ));
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
    sections.push(section(
        "security-contexts",
        "Security contexts",
        "The pod and container securityContext of each workload.",
        &["Kind", "Name", "Settings", "Source", ""],
        contexts,
        "No workloads were found.",
    ));
    sections.extend(router.finish(BUNDLED_INTRO));
    SectionsPage {
        header: Header::of(p),
        page_title: "Security".into(),
        lead: "Who may do what: ServiceAccounts, roles and bindings, admission webhooks, Secrets and certificates, security contexts.".into(),
        sections,
        diagram: String::new(),
    }
}

/// A NetworkPolicy's cells: name, selected pods, policy types, ingress and egress rules.
pub fn network_policy_cells(n: &model::NetworkPolicy) -> Vec<Cell> {
    vec![
        Cell::text(qualified(&n.namespace, &n.name)),
        Cell::text(if n.pod_selector.is_empty() {
            "all pods".to_string()
        } else {
            n.pod_selector.join(", ")
        }),
        Cell::text(n.policy_types.join(", ")),
        Cell::lines(&n.ingress),
        Cell::lines(&n.egress),
    ]
}
