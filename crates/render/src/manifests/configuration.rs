//! The configuration page (`/projects/P/configuration/`): workloads with their
//! availability and resources, ConfigMaps, Helm charts and their values, kustomizations,
//! feature gates, platform detection, images, Dockerfiles and managers' memory.

use kubernetes::names::qualified;
use model::{HelmChart, Project};

use super::{BUNDLED_INTRO, SectionsPage};
use crate::api::Header;
use crate::table::{Anchors, Cell, Router, Section, TableRow, section, source_links};
use crate::views::anchor;

/// The configuration page of `p`: one section per function below (and those of
/// `availability`, `images` and `memory`), then the bundled and samples sections.
pub fn configuration(p: &Project) -> SectionsPage {
    let mut router = Router::new();
    let mut anchors = Anchors::new();
    let mut sections = vec![workloads(p, &mut router, &mut anchors)];
    sections.extend(crate::availability::sections(p, &mut router, &mut anchors));
    sections.push(configmaps(p, &mut router, &mut anchors));
    sections.push(helm_charts(p, &mut router, &mut anchors));
    sections.extend(
        p.findings
            .helm_charts
            .iter()
            .map(|h| chart_values(p, h, &mut anchors)),
    );
    sections.push(kustomizations(p, &mut router, &mut anchors));
    sections.push(feature_gates(p, &mut router, &mut anchors));
    sections.push(platform_checks(p, &mut router, &mut anchors));
    sections.push(crate::images::images_section(p, &mut router, &mut anchors));
    sections.push(crate::images::dockerfiles_section(
        p,
        &mut router,
        &mut anchors,
    ));
    sections.extend(crate::memory::project_sections(
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

/// Deployments, StatefulSets, DaemonSets, Jobs, CronJobs and Pods: containers, environment,
/// mounted ConfigMaps and Secrets.
fn workloads(p: &Project, router: &mut Router, anchors: &mut Anchors) -> Section {
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
    section(
        "workloads",
        "Workloads",
        "Deployments, StatefulSets, DaemonSets, Jobs, CronJobs and Pods: containers with their images, commands and arguments; environment variables (literal values only when they do not look secret; never a Secret's value); the ConfigMaps and Secrets each pod uses.",
        &[
            "Kind",
            "Name",
            "Containers",
            "Environment",
            "ConfigMaps and Secrets",
            "Service account",
            "Source",
            "",
        ],
        workloads,
        "No workload manifests were found.",
    )
}

/// ConfigMap manifests and configMapGenerator entries with their keys.
fn configmaps(p: &Project, router: &mut Router, anchors: &mut Anchors) -> Section {
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
    section(
        "configmaps",
        "ConfigMaps",
        "ConfigMap manifests and kustomize configMapGenerator entries, with their keys.",
        &["Name", "Namespace", "Keys", "From", "Source", ""],
        configmaps,
        "No ConfigMaps were found.",
    )
}

/// Each Helm chart's Chart.yaml, linking to its values section.
fn helm_charts(p: &Project, router: &mut Router, anchors: &mut Anchors) -> Section {
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
    section(
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
    )
}

/// The values of one Helm chart, from values.yaml (and values.schema.json).
fn chart_values(p: &Project, h: &HelmChart, anchors: &mut Anchors) -> Section {
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
    section(
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
    )
}

/// Each kustomization.yaml: what it includes, its transformations, the objects it builds.
fn kustomizations(p: &Project, router: &mut Router, anchors: &mut Anchors) -> Section {
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
    section(
        "kustomizations",
        "Kustomizations",
        "Each kustomization.yaml: what it includes, how it transforms it, and the objects it builds from files in the repository (names as written, before prefixes and namespaces are applied).",
        &[
            "Folder",
            "Resources",
            "Transformations",
            "Objects",
            "Source",
            "",
        ],
        kustomizations,
        "No kustomizations were found.",
    )
}

/// Feature gates registered with component-base's featuregate.
fn feature_gates(p: &Project, router: &mut Router, anchors: &mut Anchors) -> Section {
    let gates = p
        .findings
        .feature_gates
        .iter()
        .filter_map(|g| {
            let row = TableRow {
                anchor: anchors.unique(&["feature-gate", &g.name]),
                cells: crate::connections::gate_cells(g),
                sources: source_links(p, &g.sources),
            };
            router.route("Feature gate", g.area, false, row)
        })
        .collect();
    section(
        "feature-gates",
        "Feature gates",
        "Feature gates registered with `k8s.io/component-base/featuregate` (`FeatureSpec` maps handed to `DefaultMutableFeatureGate.Add`): the default, the stage, and whether the gate is locked to its default.",
        &["Gate", "Default", "Stage", "Notes", "Source", ""],
        gates,
        "No feature-gate registrations were found.",
    )
}

/// Code that asks the cluster what it serves, and what depends on the answer.
fn platform_checks(p: &Project, router: &mut Router, anchors: &mut Anchors) -> Section {
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
                cells: crate::connections::check_cells(p, c),
                sources: source_links(p, &c.sources),
            };
            router.route("Platform check", c.area, false, row)
        })
        .collect();
    section(
        "platform-checks",
        "Platform detection",
        "Code that asks the cluster what it serves: discovery calls (`ServerGroups`, `ServerResourcesForGroupVersion`), calls of repository helpers that make one or are named like `IsOpenShift`, and no-kind-match error checks. Each row says what is checked, the `if` whose branch depends on the answer, and the watches and writes written inside that branch (only what the code shows).",
        &[
            "Checks",
            "How",
            "In function",
            "Branch",
            "Switches",
            "Source",
            "",
        ],
        checks,
        "No platform checks were found.",
    )
}
