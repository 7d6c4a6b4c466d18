//! "Cache and memory": a project's controller-runtime managers with their options and
//! memory risks, as sections of the configuration page (`project_sections`), of each
//! controller's page (`controller_sections`: the manager it runs in and the risks about
//! it), and the portal-wide `/platform/cache/` page (`platform`).

use super::kinds::PortalPage;
use super::table::section;
use super::table::{Anchors, Cell, Router, Section, TableRow, source_links};
use model::{Manager, ManagerOption, MemoryRisk, Project};

/// The manager's name for people: the programs that create it (their binary names) and
/// the function, else the function and its package.
pub fn manager_label(p: &Project, m: &Manager) -> String {
    let programs: Vec<&str> = p
        .findings
        .binaries
        .iter()
        .filter(|b| !b.is_package() && m.binaries.contains(&b.package))
        .map(|b| b.name.as_str())
        .collect();
    if programs.is_empty() {
        format!("{} in {}", m.function, m.package)
    } else {
        // The package's last two elements tell programs built under one name apart.
        let parts: Vec<&str> = m.package.rsplit('/').take(2).collect();
        let short: Vec<&str> = parts.into_iter().rev().collect();
        format!(
            "{} ({} in {})",
            programs.join(", "),
            m.function,
            short.join("/")
        )
    }
}

/// The label of the manager a risk names, by its `NewManager` source.
fn risk_manager(p: &Project, r: &MemoryRisk) -> String {
    r.manager
        .as_ref()
        .and_then(|at| {
            p.findings
                .managers
                .iter()
                .find(|m| m.sources.first() == Some(at))
        })
        .map(|m| manager_label(p, m))
        .unwrap_or_default()
}

/// The cache's scope in a few lines: namespaces, default selectors, restricted and
/// uncached kinds, the default transform; or why it is unknown.
pub fn cache_scope(m: &Manager) -> Vec<String> {
    if !m.cache_unknown.is_empty() {
        return vec![format!("unknown: {}", m.cache_unknown)];
    }
    let named = |name: &'static str| m.options.iter().filter(move |o| o.name == name);
    let mut lines = Vec::new();
    let namespaces: Vec<String> = named("Cache.DefaultNamespaces")
        .chain(named("Namespace"))
        .map(|o| match (&o.namespace, &o.flag) {
            (Some(ns), _) if ns.is_empty() => "all namespaces".to_string(),
            (Some(ns), _) => ns.clone(),
            (None, Some(f)) => format!("--{} (default {})", f.name, shown(&f.default)),
            (None, None) => shown(&o.value),
        })
        .collect();
    lines.push(if namespaces.is_empty() {
        "namespaces: all".to_string()
    } else {
        format!("namespaces: {}", namespaces.join(", "))
    });
    for name in ["Cache.DefaultLabelSelector", "Cache.DefaultFieldSelector"] {
        for o in named(name) {
            lines.push(format!(
                "{}: {}",
                name.trim_start_matches("Cache."),
                o.value
            ));
        }
    }
    let mut restricted: Vec<String> = m
        .options
        .iter()
        .filter(|o| o.name.starts_with("Cache.ByObject"))
        .filter_map(|o| o.object.as_ref().map(|g| g.kind.clone()))
        .collect();
    restricted.dedup();
    if !restricted.is_empty() {
        lines.push(format!("by object: {}", restricted.join(", ")));
    }
    let uncached: Vec<String> = named("Client.Cache.DisableFor")
        .filter_map(|o| o.object.as_ref().map(|g| g.kind.clone()))
        .collect();
    if !uncached.is_empty() {
        lines.push(format!("not cached: {}", uncached.join(", ")));
    }
    lines.push(match named("Cache.DefaultTransform").next() {
        Some(o) => format!("default transform: {}", o.value),
        None => "default transform: none".to_string(),
    });
    lines
}

/// An empty string as `""`, so an empty value reads as one.
fn shown(v: &str) -> String {
    if v.is_empty() {
        "\"\"".to_string()
    } else {
        v.to_string()
    }
}

fn manager_row(p: &Project, m: &Manager, anchors: &mut Anchors) -> TableRow {
    let at = m
        .sources
        .first()
        .map(|s| format!("{}:{}", s.file, s.line))
        .unwrap_or_default();
    TableRow {
        anchor: anchors.unique(&["manager", &at]),
        cells: vec![
            Cell::text(manager_label(p, m)),
            Cell::text(if m.controllers.is_empty() {
                "none attributed".to_string()
            } else {
                m.controllers.join(", ")
            }),
            Cell::lines(&cache_scope(m)),
            Cell::text(m.deployment.clone()),
        ],
        sources: source_links(p, &m.sources),
    }
}

fn option_row(p: &Project, label: &str, o: &ManagerOption, anchors: &mut Anchors) -> TableRow {
    let mut what = Vec::new();
    if let Some(g) = &o.object {
        what.push(g.display());
    }
    if let Some(ns) = &o.namespace {
        what.push(if ns.is_empty() {
            "all namespaces".to_string()
        } else {
            format!("namespace {ns}")
        });
    }
    let value = if o.expr {
        format!("{} (expression, not evaluated)", o.value)
    } else {
        shown(&o.value)
    };
    let flag = o
        .flag
        .as_ref()
        .map(|f| format!("--{} (default {})", f.name, shown(&f.default)))
        .unwrap_or_default();
    let line = o.sources.first().map(|s| s.line).unwrap_or_default();
    TableRow {
        anchor: anchors.unique(&["option", label, &o.name, &line.to_string()]),
        cells: vec![
            Cell::text(label),
            Cell::text(o.name.clone()),
            Cell::lines(&what),
            Cell::text(value),
            Cell::text(flag),
            Cell::text(o.condition.clone()),
        ],
        sources: source_links(p, &o.sources),
    }
}

fn risk_row(p: &Project, r: &MemoryRisk, anchors: &mut Anchors) -> TableRow {
    let kind = r.kind.as_ref().map(|g| g.display()).unwrap_or_default();
    TableRow {
        anchor: anchors.unique(&["risk", r.risk.label(), &kind, &risk_manager(p, r)]),
        cells: vec![
            Cell::text(r.risk.label()),
            Cell::text(risk_manager(p, r)),
            Cell::text(kind),
            Cell::text(r.message.clone()),
        ],
        sources: source_links(p, &r.evidence),
    }
}

const MANAGER_HEADERS: &[&str] = &[
    "Manager",
    "Controllers",
    "Cache scope",
    "Runs in",
    "Source",
    "",
];
const OPTION_HEADERS: &[&str] = &[
    "Manager", "Option", "For", "Value", "Flag", "When", "Source", "",
];
const RISK_HEADERS: &[&str] = &["Risk", "Manager", "Kind", "Finding", "Source", ""];

const OPTIONS_INTRO: &str = "Each setting of the options given to the manager, also when they are built in a variable, assigned field by field, or returned by a function of the repository. A value read from a flag shows the flag and its default; a value portolan cannot evaluate is shown as the Go expression. \"When\" is the condition the setting is made under.";

const RISKS_INTRO: &str = "Kinds that are large in real clusters (Secrets, ConfigMaps, Pods, Events, Nodes) watched with no namespace, label or field restriction in the manager's cache; no transform stripping managedFields; the manager's container without a memory limit or GOMEMLIMIT; informers started outside the controllers. Each finding links its evidence. A manager whose cache scope is unknown gets no cache finding.";

/// The configuration page's "Cache and memory" sections; managers of samples and tooling
/// go to the page's trailing section through `router`.
pub fn project_sections(p: &Project, router: &mut Router, anchors: &mut Anchors) -> Vec<Section> {
    let mut managers = Vec::new();
    let mut options = Vec::new();
    for m in &p.findings.managers {
        let row = manager_row(p, m, anchors);
        if let Some(row) = router.route("Manager", m.area, false, row) {
            managers.push(row);
            let label = manager_label(p, m);
            options.extend(m.options.iter().map(|o| option_row(p, &label, o, anchors)));
        }
    }
    let risks = p
        .findings
        .memory_risks
        .iter()
        .map(|r| risk_row(p, r, anchors))
        .collect();
    vec![
        section(
            "managers",
            "Cache and memory: managers",
            "Each controller-runtime manager (ctrl.NewManager, manager.New): the controllers its program sets up, what its cache holds, and the workload container it runs in (matched by the binary its command runs; the column says how, or why no container is matched).",
            MANAGER_HEADERS,
            managers,
            "No controller-runtime manager was found.",
        ),
        section(
            "manager-options",
            "Manager options",
            OPTIONS_INTRO,
            OPTION_HEADERS,
            options,
            "No options were read.",
        ),
        section(
            "memory-risks",
            "Memory risks",
            RISKS_INTRO,
            RISK_HEADERS,
            risks,
            "No memory risk was found.",
        ),
    ]
}

/// A controller page's "Cache and memory" sections: the manager its program runs it in,
/// that manager's options, and the risks about the kinds it watches or its manager.
pub fn controller_sections(p: &Project, controller: &str) -> Vec<Section> {
    let mut anchors = Anchors::new();
    let manager = p
        .findings
        .managers
        .iter()
        .find(|m| m.controllers.iter().any(|c| c == controller));
    let (rows, options) = match manager {
        Some(m) => {
            let label = manager_label(p, m);
            (
                vec![manager_row(p, m, &mut anchors)],
                m.options
                    .iter()
                    .map(|o| option_row(p, &label, o, &mut anchors))
                    .collect(),
            )
        }
        None => (Vec::new(), Vec::new()),
    };
    let at = manager.and_then(|m| m.sources.first());
    let risks = p
        .findings
        .memory_risks
        .iter()
        .filter(|r| match &r.kind {
            Some(_) if !r.controllers.is_empty() => r.controllers.iter().any(|c| c == controller),
            _ => r.manager.is_some() && r.manager.as_ref() == at,
        })
        .map(|r| risk_row(p, r, &mut anchors))
        .collect();
    vec![
        section(
            "cache-manager",
            "Cache and memory: manager",
            "The controller-runtime manager this controller runs in: the one manager created by the program that sets the controller up.",
            MANAGER_HEADERS,
            rows,
            "No manager is shown to run this controller (no program that reaches its builder creates exactly one manager).",
        ),
        section(
            "cache-options",
            "Manager options",
            OPTIONS_INTRO,
            OPTION_HEADERS,
            options,
            "No options were read.",
        ),
        section(
            "cache-risks",
            "Memory risks",
            "The findings about the kinds this controller watches and about its manager.",
            RISK_HEADERS,
            risks,
            "No memory risk was found.",
        ),
    ]
}

/// `/platform/cache/`: every project's own managers and memory risks.
pub fn platform(projects: &[Project], root: &str, links: Vec<super::views::Link>) -> PortalPage {
    let mut anchors = Anchors::new();
    let mut managers = Vec::new();
    let mut risks = Vec::new();
    for p in projects {
        for m in p.findings.managers.iter().filter(|m| m.area.is_component()) {
            let mut row = manager_row(p, m, &mut anchors);
            row.cells.insert(0, Cell::project(root, &p.name));
            let lease: Vec<String> = m
                .options
                .iter()
                .filter(|o| {
                    o.name.starts_with("LeaderElection")
                        || o.name.ends_with("Duration")
                        || o.name == "RenewDeadline"
                        || o.name == "RetryPeriod"
                })
                .map(|o| {
                    format!(
                        "{}: {}",
                        o.name,
                        o.flag
                            .as_ref()
                            .map(|f| format!("--{} (default {})", f.name, shown(&f.default)))
                            .unwrap_or_else(|| if o.expr {
                                format!("{} (expression)", o.value)
                            } else {
                                shown(&o.value)
                            })
                    )
                })
                .collect();
            row.cells.push(Cell::lines(&lease));
            managers.push(row);
        }
        for r in &p.findings.memory_risks {
            let mut row = risk_row(p, r, &mut anchors);
            row.cells.insert(0, Cell::project(root, &p.name));
            risks.push(row);
        }
    }
    let mut manager_headers: Vec<&str> = vec!["Project"];
    manager_headers.extend(&MANAGER_HEADERS[..4]);
    manager_headers.extend(["Leader election", "Source", ""]);
    let mut risk_headers: Vec<&str> = vec!["Project"];
    risk_headers.extend(RISK_HEADERS);
    PortalPage {
        path: "platform/cache/".into(),
        page_title: "Cache and memory".into(),
        lead: "Every project's controller-runtime managers: what their caches hold, leader election, and the memory risks found, each with its evidence. Managers of tests and samples are on the project pages.".into(),
        links,
        sections: vec![
            section(
                "managers",
                "Managers",
                "",
                &manager_headers,
                managers,
                "None.",
            ),
            section("memory-risks", "Memory risks", RISKS_INTRO, &risk_headers, risks, "None."),
        ],
    }
}
