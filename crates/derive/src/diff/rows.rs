//! Every category but CRDs: each row reduced to an identity (`key`), a readable `subject`,
//! the fields compared, and where it is; rows with equal keys are then compared field by
//! field.

use std::collections::BTreeMap;

use super::{Category, ChangeKind, RowChange};
use model::{Binary, Ecosystem, Project, SourceRef};

/// A row as compared: what identifies it, what it shows, and where it is.
pub struct Row {
    pub category: Category,
    /// The identity: rows of the two sides with equal keys are the same row.
    pub key: String,
    pub subject: String,
    /// `(name, value)` pairs compared in order; an empty value is "none".
    pub fields: Vec<(&'static str, String)>,
    pub source: Option<SourceRef>,
    /// The controller the row belongs to, if any.
    pub controller: String,
    /// The items of the fields that are sets (`verbs`, `env`): compared as sets, their
    /// changes shown as what was added and removed.
    pub sets: Vec<(&'static str, Vec<String>)>,
}

impl Row {
    fn new(category: Category, key: String, subject: String, source: Option<&SourceRef>) -> Row {
        Row {
            category,
            key,
            subject,
            fields: Vec::new(),
            source: source.cloned(),
            controller: String::new(),
            sets: Vec::new(),
        }
    }

    /// A field whose items are a set: `verbs get, list`.
    fn set(mut self, name: &'static str, items: &[String]) -> Row {
        self.sets.push((name, items.to_vec()));
        self.field(name, joined(items))
    }

    fn of_controller(mut self, name: &str) -> Row {
        self.controller = name.to_string();
        self
    }

    fn field(mut self, name: &'static str, value: impl Into<String>) -> Row {
        self.fields.push((name, value.into()));
        self
    }

    /// `type string, default ":8080"`: the fields that have a value.
    fn summary(&self) -> String {
        self.fields
            .iter()
            .filter(|(_, v)| !v.is_empty())
            .map(|(n, v)| format!("{n} {}", shown(v)))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// The changes of every category but CRDs.
pub fn changes(old: &Project, new: &Project) -> Vec<RowChange> {
    compare(rows_of(old), rows_of(new))
}

/// Pairs the rows of one identity at the two sides: those in the same file first, then
/// the rest in order. Returns the pairs, the old rows left (removed) and the new (added).
pub fn pair<T>(
    old: Vec<T>,
    new: Vec<T>,
    file: impl Fn(&T) -> Option<&str>,
) -> (Vec<(T, T)>, Vec<T>, Vec<T>) {
    let mut news: Vec<Option<T>> = new.into_iter().map(Some).collect();
    let mut pairs = Vec::new();
    let mut unmatched = Vec::new();
    for o in old {
        let same_file = news
            .iter()
            .position(|n| n.as_ref().is_some_and(|n| file(n) == file(&o)));
        match same_file.and_then(|i| news[i].take()) {
            Some(n) => pairs.push((o, n)),
            None => unmatched.push(o),
        }
    }
    let mut rest = news.into_iter().flatten();
    let mut removed = Vec::new();
    for o in unmatched {
        match rest.next() {
            Some(n) => pairs.push((o, n)),
            None => removed.push(o),
        }
    }
    (pairs, removed, rest.collect())
}

/// Matches rows by key (see [`pair`]) and reports the unmatched and the different.
pub fn compare(old: Vec<Row>, new: Vec<Row>) -> Vec<RowChange> {
    type Group = (Vec<Row>, Vec<Row>);
    let mut groups: BTreeMap<(Category, String), Group> = BTreeMap::new();
    for r in old {
        groups
            .entry((r.category, r.key.clone()))
            .or_default()
            .0
            .push(r);
    }
    for r in new {
        groups
            .entry((r.category, r.key.clone()))
            .or_default()
            .1
            .push(r);
    }
    let mut out = Vec::new();
    for (_, (mut olds, mut news)) in groups {
        // The same row twice in one file (a read made on two call paths) is one row.
        olds = distinct(olds);
        news = distinct(news);
        let (pairs, removed, added) = pair(olds, news, |r| file(&r.source));
        for (o, n) in pairs {
            out.extend(changed(&o, n));
        }
        for (r, change) in removed
            .into_iter()
            .map(|r| (r, ChangeKind::Removed))
            .chain(added.into_iter().map(|r| (r, ChangeKind::Added)))
        {
            let (before, after) = match change {
                ChangeKind::Removed => (r.source.clone(), None),
                _ => (None, r.source.clone()),
            };
            out.push(RowChange {
                category: r.category,
                detail: r.summary(),
                subject: r.subject,
                change,
                breaking: false,
                kind: None,
                controller: r.controller,
                consumers: Vec::new(),
                before,
                after,
            });
        }
    }
    out
}

/// The rows without those equal to an earlier one in the same file.
fn distinct(rows: Vec<Row>) -> Vec<Row> {
    let mut out: Vec<Row> = Vec::with_capacity(rows.len());
    for r in rows {
        let repeated = out
            .iter()
            .any(|o| file(&o.source) == file(&r.source) && o.fields == r.fields);
        if !repeated {
            out.push(r);
        }
    }
    out
}

fn file(source: &Option<SourceRef>) -> Option<&str> {
    source.as_ref().map(|s| s.file.as_str())
}

/// The row at both sides, if anything but its line differs.
fn changed(old: &Row, new: Row) -> Option<RowChange> {
    let mut parts: Vec<String> = Vec::new();
    let items = |row: &Row, name: &str| {
        row.sets
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, items)| items.clone())
    };
    for (name, after) in &new.fields {
        let before = old
            .fields
            .iter()
            .find(|(n, _)| n == name)
            .map_or("", |(_, v)| v.as_str());
        if let (Some(was), Some(is)) = (items(old, name), items(&new, name)) {
            let added: Vec<String> = is.iter().filter(|i| !was.contains(i)).cloned().collect();
            let removed: Vec<String> = was.iter().filter(|i| !is.contains(i)).cloned().collect();
            let mut what = Vec::new();
            if !added.is_empty() {
                what.push(format!("added {}", joined(&added)));
            }
            if !removed.is_empty() {
                what.push(format!("removed {}", joined(&removed)));
            }
            if !what.is_empty() {
                parts.push(format!("{name}: {}", what.join("; ")));
            }
        } else if before != after {
            parts.push(format!(
                "{name}: {} → {}",
                shown(or_none(before)),
                shown(or_none(after))
            ));
        }
    }
    if let (Some(a), Some(b)) = (file(&old.source), file(&new.source))
        && a != b
    {
        parts.push(format!("moved: {a} → {b}"));
    }
    (!parts.is_empty()).then(|| RowChange {
        category: new.category,
        subject: new.subject,
        change: ChangeKind::Changed,
        detail: parts.join("; "),
        breaking: false,
        kind: None,
        controller: new.controller,
        consumers: Vec::new(),
        before: old.source.clone(),
        after: new.source,
    })
}

/// Characters of one field's value a change shows (a container's arguments can run to
/// kilobytes; the model has them all).
const VALUE_SHOWN: usize = 200;

fn shown(v: &str) -> String {
    if v.chars().count() <= VALUE_SHOWN {
        return v.to_string();
    }
    let head: String = v.chars().take(VALUE_SHOWN).collect();
    format!("{head}…")
}

fn or_none(v: &str) -> &str {
    if v.is_empty() { "none" } else { v }
}

fn joined(values: &[String]) -> String {
    values.join(", ")
}

/// `apps/v1 Deployment`; the version is a field, not part of an identity (a kind moving
/// from v1beta1 to v1 is the same kind, changed).
fn group_kind(group: &str, kind: &str) -> String {
    if group.is_empty() {
        kind.to_string()
    } else {
        format!("{kind}.{group}")
    }
}

/// `apps/deployments`, `configmaps` (the core group): each group with each resource.
fn group_resources(groups: &[String], resources: &[String]) -> Vec<String> {
    groups
        .iter()
        .flat_map(|g| {
            resources.iter().map(move |res| {
                if g.is_empty() {
                    res.clone()
                } else {
                    format!("{g}/{res}")
                }
            })
        })
        .collect()
}

/// Go import paths as the repository lays them out: the module path of its go.mod files
/// replaced by `.`, so that renaming the module (`github.com/a/x` → `github.com/b/y`) is
/// one change of the module row, not a change of every package-keyed row.
struct Packages<'a>(Vec<&'a str>);

impl<'a> Packages<'a> {
    fn of(p: &'a Project) -> Packages<'a> {
        let mut modules: Vec<&str> = p
            .findings
            .module_files
            .iter()
            .filter(|m| m.ecosystem == Ecosystem::Go && !m.module.is_empty())
            .map(|m| m.module.as_str())
            .collect();
        // The longest first: a nested module's packages are its own.
        modules.sort_by_key(|m| std::cmp::Reverse(m.len()));
        Packages(modules)
    }

    fn local(&self, package: &str) -> String {
        for m in &self.0 {
            if package == *m {
                return ".".into();
            }
            if let Some(rest) = package.strip_prefix(m).and_then(|r| r.strip_prefix('/')) {
                return format!("./{rest}");
            }
        }
        package.to_string()
    }

    /// `./pkg/sync.Run`, or `main` for a function of the module's root package.
    fn qualified(&self, package: &str, function: &str) -> String {
        match self.local(package).as_str() {
            "." => function.to_string(),
            local => format!("{local}.{function}"),
        }
    }

    /// A program's name, or the library package whose flags an entry holds.
    fn program(&self, b: &Binary) -> String {
        if b.is_package() {
            format!("package {}", self.local(&b.package))
        } else {
            b.name.clone()
        }
    }
}

/// The rows a project's pages list as its own: not from tests, docs or samples, and not
/// bundled from another project.
fn rows_of(p: &Project) -> Vec<Row> {
    let packages = Packages::of(p);
    SECTIONS
        .iter()
        .flat_map(|section| section(p, &packages))
        .collect()
}

/// The own rows of one part of the model.
type Section = fn(&Project, &Packages) -> Vec<Row>;

/// The parts of the model, in the order their rows are listed.
const SECTIONS: &[Section] = &[
    controller_rows,
    package_operation_rows,
    informer_rows,
    webhook_rows,
    rbac_rows,
    route_rows,
    binary_rows,
    feature_gate_rows,
    metric_rows,
    service_rows,
    workload_rows,
    disruption_budget_rows,
    manager_option_rows,
    memory_risk_rows,
    configmap_rows,
    helm_chart_rows,
    image_rows,
    module_file_rows,
    dependency_rows,
];

/// Each controller, its watches, reads and writes.
fn controller_rows(p: &Project, _: &Packages) -> Vec<Row> {
    let mut rows = Vec::new();
    for c in p
        .findings
        .controllers
        .iter()
        .filter(|c| c.area.is_component())
    {
        rows.push(
            Row::new(
                Category::Controller,
                c.name.clone(),
                format!("controller {}", c.name),
                c.sources.first(),
            )
            .field("reconciler", c.reconciler.clone())
            .of_controller(&c.name),
        );
        for w in &c.watches {
            let what = group_kind(&w.group, &w.kind);
            let relation = w.relation.label().to_lowercase();
            rows.push(
                Row::new(
                    Category::Watch,
                    format!("{}|{relation}|{what}", c.name),
                    format!("{} {relation} {what}", c.name),
                    w.sources.first(),
                )
                .field("version", w.version.clone())
                .field("condition", w.condition.clone())
                .of_controller(&c.name),
            );
        }
        for (category, ops) in [(Category::Read, &c.reads), (Category::Write, &c.operations)] {
            for o in ops {
                let what = group_kind(&o.group, &o.kind);
                rows.push(
                    Row::new(
                        category,
                        format!("{}|{}|{what}", c.name, o.verb),
                        format!("{} {} {what}", c.name, o.verb),
                        o.sources.first(),
                    )
                    .field("version", o.version.clone())
                    .of_controller(&c.name),
                );
            }
        }
    }
    rows
}

/// Client writes outside every controller, by package and function.
fn package_operation_rows(p: &Project, packages: &Packages) -> Vec<Row> {
    let mut rows = Vec::new();
    for o in p
        .findings
        .package_operations
        .iter()
        .filter(|o| o.area.is_component())
    {
        let what = group_kind(&o.group, &o.kind);
        let function = packages.qualified(&o.package, &o.function);
        rows.push(
            Row::new(
                Category::Write,
                format!("{function}|{}|{what}", o.verb),
                format!("{function} {} {what}", o.verb),
                o.sources.first(),
            )
            .field("version", o.version.clone()),
        );
    }
    rows
}

/// Informers outside every controller, by package and function.
fn informer_rows(p: &Project, packages: &Packages) -> Vec<Row> {
    let mut rows = Vec::new();
    for i in p
        .findings
        .informers
        .iter()
        .filter(|i| i.area.is_component())
    {
        let what = group_kind(&i.group, &i.kind);
        let function = packages.qualified(&i.package, &i.function);
        rows.push(
            Row::new(
                Category::Watch,
                format!("{function}|informer|{what}"),
                format!("{function} informer {what}"),
                i.sources.first(),
            )
            .field("version", i.version.clone()),
        );
    }
    rows
}

fn webhook_rows(p: &Project, _: &Packages) -> Vec<Row> {
    let mut rows = Vec::new();
    for w in p
        .findings
        .webhooks
        .iter()
        .filter(|w| w.area.is_component() && !w.bundled)
    {
        let name = if w.name.is_empty() { &w.path } else { &w.name };
        let rules: Vec<String> = w
            .rules
            .iter()
            .map(|r| {
                format!(
                    "{} {}",
                    joined(&r.operations),
                    joined(&group_resources(&r.groups, &r.resources))
                )
            })
            .collect();
        rows.push(
            Row::new(
                Category::Webhook,
                format!("{}|{name}|{}", w.kind.label(), w.origin.label()),
                format!("{} webhook {name}", w.kind.label()),
                w.sources.first(),
            )
            .field("path", w.path.clone())
            .field("failure policy", w.failure_policy.clone())
            .field("service", w.service.clone())
            .field(
                "serves",
                w.object.as_ref().map(|g| g.display()).unwrap_or_default(),
            )
            .field("rules", rules.join("; ")),
        );
    }
    rows
}

fn rbac_rows(p: &Project, _: &Packages) -> Vec<Row> {
    let mut rows = Vec::new();
    for r in p
        .findings
        .rbac
        .iter()
        .filter(|r| r.area.is_component() && !r.bundled)
    {
        let resources = group_resources(&r.groups, &r.resources);
        let what = format!(
            "{}{}",
            if resources.is_empty() {
                "no API resource (nonResourceURLs)".to_string()
            } else {
                joined(&resources)
            },
            if r.resource_names.is_empty() {
                String::new()
            } else {
                format!(" ({})", joined(&r.resource_names))
            }
        );
        rows.push(
            Row::new(
                Category::Rbac,
                format!("{}|{what}", r.role),
                format!("{} on {what}", r.role),
                r.sources.first(),
            )
            .set("verbs", &r.verbs),
        );
    }
    rows
}

/// HTTP and gRPC routes.
fn route_rows(p: &Project, _: &Packages) -> Vec<Row> {
    let mut rows = Vec::new();
    for e in p
        .findings
        .http_endpoints
        .iter()
        .filter(|e| e.area.is_component())
    {
        let route = format!("{} {}{}", e.method, e.host, e.path);
        rows.push(
            Row::new(Category::Route, route.clone(), route, e.sources.first())
                .field("handler", e.handler.clone())
                .field("framework", e.framework.clone()),
        );
    }
    rows
}

/// Each program (not a library's flag set), its flags and environment variables.
fn binary_rows(p: &Project, packages: &Packages) -> Vec<Row> {
    let mut rows = Vec::new();
    for b in p.findings.binaries.iter().filter(|b| b.area.is_component()) {
        let name = packages.program(b);
        if !b.is_package() {
            rows.push(
                Row::new(
                    Category::Binary,
                    name.clone(),
                    format!("program {name}"),
                    b.sources.first(),
                )
                .field("package", packages.local(&b.package)),
            );
        }
        for f in &b.flags {
            rows.push(
                Row::new(
                    Category::Flag,
                    format!("{name}|{}", f.name),
                    format!("--{} ({name})", f.name),
                    f.sources.first(),
                )
                .field("type", f.kind.clone())
                .field("default", f.default.clone())
                .field("shorthand", f.shorthand.clone())
                .field("registered by", f.library.clone()),
            );
        }
        for e in &b.env {
            rows.push(Row::new(
                Category::Env,
                format!("{name}|{}", e.name),
                format!("${} ({name})", e.name),
                e.sources.first(),
            ));
        }
    }
    rows
}

fn feature_gate_rows(p: &Project, _: &Packages) -> Vec<Row> {
    let mut rows = Vec::new();
    for g in p
        .findings
        .feature_gates
        .iter()
        .filter(|g| g.area.is_component())
    {
        rows.push(
            Row::new(
                Category::FeatureGate,
                g.name.clone(),
                format!("feature gate {}", g.name),
                g.sources.first(),
            )
            .field("default", g.default.clone())
            .field("stage", g.stage.clone())
            .field("locked", if g.locked { "yes" } else { "" }),
        );
    }
    rows
}

fn metric_rows(p: &Project, _: &Packages) -> Vec<Row> {
    let mut rows = Vec::new();
    for m in p.findings.metrics.iter().filter(|m| m.area.is_component()) {
        rows.push(
            Row::new(
                Category::Metric,
                m.name.clone(),
                format!("metric {}", m.name),
                m.sources.first(),
            )
            .field("type", m.kind.clone())
            .set("labels", &m.labels)
            .field("help", if m.help_expr { "" } else { &m.help }),
        );
    }
    rows
}

/// Each Service and its ports.
fn service_rows(p: &Project, _: &Packages) -> Vec<Row> {
    let mut rows = Vec::new();
    for s in p
        .findings
        .services
        .iter()
        .filter(|s| s.area.is_component() && !s.bundled)
    {
        let name = format!("{}/{}", s.namespace, s.name);
        rows.push(
            Row::new(
                Category::Service,
                name.clone(),
                format!("Service {name}"),
                s.sources.first(),
            )
            .field("type", s.service_type.clone())
            .set("selector", &s.selector),
        );
        for port in &s.ports {
            let id = if port.name.is_empty() {
                &port.port
            } else {
                &port.name
            };
            rows.push(
                Row::new(
                    Category::ServicePort,
                    format!("{name}|{id}"),
                    format!("Service {name} port {id}"),
                    s.sources.first(),
                )
                .field("port", port.port.clone())
                .field("target", port.target_port.clone())
                .field("protocol", port.protocol.clone()),
            );
        }
    }
    rows
}

/// Each workload and its containers.
fn workload_rows(p: &Project, _: &Packages) -> Vec<Row> {
    let mut rows = Vec::new();
    for w in p
        .findings
        .workloads
        .iter()
        .filter(|w| w.area.is_component() && !w.bundled)
    {
        let name = format!("{} {}/{}", w.kind, w.namespace, w.name);
        rows.push(
            Row::new(
                Category::Workload,
                name.clone(),
                name.clone(),
                w.sources.first(),
            )
            .field("replicas", w.replicas.clone())
            .field("service account", w.service_account.clone())
            .field("priority class", w.priority_class.clone()),
        );
        for c in &w.containers {
            let env: Vec<String> = c
                .env
                .iter()
                .map(|e| match (&e.value, e.from.as_str()) {
                    (Some(v), _) => format!("{}={v}", e.name),
                    (None, "") => e.name.clone(),
                    (None, from) => format!("{} from {from}", e.name),
                })
                .collect();
            rows.push(
                Row::new(
                    Category::Container,
                    format!("{name}|{}", c.name),
                    format!(
                        "{name}, {}container {}",
                        if c.init { "init " } else { "" },
                        c.name
                    ),
                    w.sources.first(),
                )
                .field("command", c.command.join(" "))
                .field("args", c.args.join(" "))
                .set("env", &env)
                .set("requests", &c.requests)
                .set("limits", &c.limits),
            );
        }
    }
    rows
}

fn disruption_budget_rows(p: &Project, _: &Packages) -> Vec<Row> {
    let mut rows = Vec::new();
    for b in p
        .findings
        .disruption_budgets
        .iter()
        .filter(|b| b.area.is_component() && !b.bundled)
    {
        let name = format!("{}/{}", b.namespace, b.name);
        rows.push(
            Row::new(
                Category::DisruptionBudget,
                name.clone(),
                format!("PodDisruptionBudget {name}"),
                b.sources.first(),
            )
            .field("apiVersion", b.api_version.clone())
            .field("minAvailable", b.min_available.clone())
            .field("maxUnavailable", b.max_unavailable.clone())
            .set("selector", &b.selector),
        );
    }
    rows
}

/// The settings of each manager's options.
fn manager_option_rows(p: &Project, packages: &Packages) -> Vec<Row> {
    let mut rows = Vec::new();
    for m in p.findings.managers.iter().filter(|m| m.area.is_component()) {
        let manager = packages.qualified(&m.package, &m.function);
        for o in &m.options {
            let what = match (&o.object, &o.namespace) {
                (Some(k), _) => format!("{} {}", o.name, group_kind(&k.group, &k.kind)),
                (None, Some(ns)) => format!("{} {ns}", o.name),
                (None, None) => o.name.clone(),
            };
            let value = match &o.flag {
                Some(f) => format!("--{} (default {})", f.name, f.default),
                None => o.value.clone(),
            };
            rows.push(
                Row::new(
                    Category::ManagerOption,
                    format!("{manager}|{what}|{}", o.condition),
                    format!("{manager} {what}"),
                    o.sources.first(),
                )
                .field("value", value)
                .field("condition", o.condition.clone()),
            );
        }
    }
    rows
}

fn memory_risk_rows(p: &Project, _: &Packages) -> Vec<Row> {
    let mut rows = Vec::new();
    for r in &p.findings.memory_risks {
        let kind = r
            .kind
            .as_ref()
            .map(|k| group_kind(&k.group, &k.kind))
            .unwrap_or_default();
        let label = r.risk.label();
        rows.push(
            Row::new(
                Category::MemoryRisk,
                format!("{label}|{kind}|{}", joined(&r.controllers)),
                format!("{label}{}{}", if kind.is_empty() { "" } else { ": " }, kind),
                r.evidence.first(),
            )
            .set("controllers", &r.controllers),
        );
    }
    rows
}

fn configmap_rows(p: &Project, _: &Packages) -> Vec<Row> {
    let mut rows = Vec::new();
    for c in p
        .findings
        .configmaps
        .iter()
        .filter(|c| c.area.is_component() && !c.bundled)
    {
        let name = format!("{}/{}", c.namespace, c.name);
        rows.push(
            Row::new(
                Category::ConfigMap,
                name.clone(),
                format!("ConfigMap {name}"),
                c.sources.first(),
            )
            .set("keys", &c.keys),
        );
    }
    rows
}

/// Each chart and its values.
fn helm_chart_rows(p: &Project, _: &Packages) -> Vec<Row> {
    let mut rows = Vec::new();
    for h in p
        .findings
        .helm_charts
        .iter()
        .filter(|h| h.area.is_component())
    {
        rows.push(
            Row::new(
                Category::HelmChart,
                h.name.clone(),
                format!("chart {}", h.name),
                h.sources.first(),
            )
            .field("version", h.version.clone())
            .field("appVersion", h.app_version.clone()),
        );
        for v in &h.values {
            rows.push(
                Row::new(
                    Category::HelmValue,
                    format!("{}|{}", h.name, v.key),
                    format!("{} {}", h.name, v.key),
                    v.sources.first(),
                )
                .field("type", v.value_type.clone())
                .field("default", v.default.clone()),
            );
        }
    }
    rows
}

fn image_rows(p: &Project, _: &Packages) -> Vec<Row> {
    let mut rows = Vec::new();
    for i in p
        .findings
        .images
        .iter()
        .filter(|i| i.area.is_component() && !i.bundled)
    {
        rows.push(
            Row::new(
                Category::Image,
                format!("{}|{}", i.origin.label(), i.context),
                format!("{} ({})", i.context, i.origin.label()),
                i.sources.first(),
            )
            .field("image", i.reference.clone()),
        );
    }
    rows
}

/// The go.mod and Cargo.toml files' own modules, listed with the dependencies.
fn module_file_rows(p: &Project, _: &Packages) -> Vec<Row> {
    let mut rows = Vec::new();
    for m in p
        .findings
        .module_files
        .iter()
        .filter(|m| m.area.is_component())
    {
        rows.push(
            Row::new(
                Category::Dependency,
                format!("{}|{}", m.ecosystem.label(), m.source.file),
                format!("{} (its own module)", m.source.file),
                Some(&m.source),
            )
            .field("module", m.module.clone())
            .field("go", m.go.clone())
            .field("toolchain", m.toolchain.clone()),
        );
    }
    rows
}

fn dependency_rows(p: &Project, _: &Packages) -> Vec<Row> {
    let mut rows = Vec::new();
    for d in p
        .findings
        .dependencies
        .iter()
        .filter(|d| d.area.is_component())
    {
        let table = [d.kind.as_str(), d.target.as_str()]
            .iter()
            .filter(|s| !s.is_empty())
            .copied()
            .collect::<Vec<_>>()
            .join(" ");
        rows.push(
            Row::new(
                Category::Dependency,
                format!(
                    "{}|{}|{}|{table}",
                    d.ecosystem.label(),
                    d.source.file,
                    d.module
                ),
                format!(
                    "{} ({}{})",
                    d.module,
                    d.source.file,
                    if table.is_empty() {
                        String::new()
                    } else {
                        format!(", {table}")
                    }
                ),
                Some(&d.source),
            )
            .field("version", d.version.clone())
            .field("indirect", if d.indirect { "yes" } else { "" })
            .field("replaced by", d.replaced_by.clone()),
        );
    }
    rows
}

#[cfg(test)]
mod tests;
