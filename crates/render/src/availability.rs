//! The "Availability and resources" sections of the configuration page: one row per
//! workload (replicas, the budgets and autoscalers that cover it, requests, limits and
//! probes per container, anti-affinity, spread and priority, and the flags of
//! `derive::availability`), then the PodDisruptionBudgets and HorizontalPodAutoscalers with
//! what each covers. Rows of samples and bundled manifests go through the page's `Router`.

use super::table::section;
use super::table::{Anchors, Cell, Router, Section, TableRow, source_links};
use derive::availability::{Replicas, Row, rows};
use kubernetes::names::qualified;
use std::collections::HashMap;

use model::{Autoscaler, Container, DisruptionBudget, Probe, Project, SourceRef, Workload};

fn probe_text(name: &str, p: &Option<Probe>) -> Option<String> {
    let p = p.as_ref()?;
    if p.templated {
        return Some(
            format!("{name}: templated {}", p.target)
                .trim_end()
                .to_string(),
        );
    }
    let mut s = format!("{name}: {} {}", p.kind, p.target);
    if !p.timing.is_empty() {
        s.push_str(&format!(" ({})", p.timing.join(", ")));
    }
    Some(s.trim_end().to_string())
}

/// A container's resources and probes, one line each.
fn container_lines(c: &Container) -> Vec<String> {
    let mut lines = vec![format!("{}{}:", if c.init { "init " } else { "" }, c.name)];
    let resources = |what: &str, list: &[String]| {
        if list.is_empty() {
            format!("  {what}: none")
        } else {
            format!("  {what}: {}", list.join(", "))
        }
    };
    if c.resources_templated && c.requests.is_empty() && c.limits.is_empty() {
        lines.push("  resources: templated".into());
    } else {
        lines.push(resources("requests", &c.requests));
        lines.push(resources("limits", &c.limits));
    }
    if !c.init {
        for (name, p) in [
            ("liveness", &c.liveness_probe),
            ("readiness", &c.readiness_probe),
            ("startup", &c.startup_probe),
        ] {
            lines.push(format!(
                "  {}",
                probe_text(name, p).unwrap_or_else(|| format!("{name}: none"))
            ));
        }
    }
    lines
}

fn replicas_text(r: &Row) -> Vec<String> {
    let mut lines = vec![match &r.replicas {
        Replicas::Known {
            count,
            defaulted: true,
        } => format!("{count} (not written: the default)"),
        Replicas::Known { count, .. } => count.to_string(),
        Replicas::Unknown(text) => text.clone(),
        Replicas::NotApplicable if r.workload.kind == "DaemonSet" => "one per node".into(),
        Replicas::NotApplicable => "—".into(),
    }];
    for h in &r.autoscalers {
        lines.push(format!(
            "HPA {}: {}{}",
            h.name,
            replica_range(h),
            if h.metrics.is_empty() {
                String::new()
            } else {
                format!(" on {}", h.metrics.join("; "))
            }
        ));
    }
    for (b, sure) in &r.budgets {
        lines.push(format!(
            "PDB {}: {}{}",
            b.name,
            budget_limit(b),
            if *sure { "" } else { " (may cover: templated)" }
        ));
    }
    lines
}

/// An autoscaler's replica range, `min–max` (Kubernetes' default minimum is 1).
fn replica_range(h: &Autoscaler) -> String {
    let min = if h.min_replicas.is_empty() {
        "1"
    } else {
        &h.min_replicas
    };
    format!("{min}–{}", h.max_replicas)
}

/// A budget's or autoscaler's name cell, marked when templated.
fn object_name(namespace: &str, name: &str, templated: bool) -> Cell {
    Cell::text(format!(
        "{}{}",
        qualified(namespace, name),
        if templated { " (templated)" } else { "" }
    ))
}

fn budget_limit(b: &DisruptionBudget) -> String {
    match (b.min_available.as_str(), b.max_unavailable.as_str()) {
        ("", "") => "no limit written".into(),
        (min, "") => format!("minAvailable {min}"),
        ("", max) => format!("maxUnavailable {max}"),
        (min, max) => format!("minAvailable {min}, maxUnavailable {max}"),
    }
}

fn scheduling(r: &Row) -> Vec<String> {
    let mut lines = Vec::new();
    lines.extend(r.anti_affinity.iter().map(|a| format!("anti-affinity {a}")));
    lines.extend(r.topology_spread.iter().map(|t| format!("spread {t}")));
    if !r.priority_class.is_empty() {
        lines.push(format!("priorityClassName {}", r.priority_class));
    }
    lines
}

/// The sections, with their rows of samples and bundled manifests routed apart.
pub fn sections(p: &Project, router: &mut Router, anchors: &mut Anchors) -> Vec<Section> {
    let rows = rows(p);
    let workloads = workload_section(p, &rows, router, anchors);
    let coverage = Coverage::of(&rows);
    vec![
        workloads,
        budget_section(p, &coverage, router, anchors),
        autoscaler_section(p, &coverage, router, anchors),
    ]
}

/// One row per workload: replicas, containers' resources and probes, scheduling, flags.
fn workload_section(
    p: &Project,
    rows: &[Row],
    router: &mut Router,
    anchors: &mut Anchors,
) -> Section {
    let workloads = rows
        .iter()
        .filter_map(|r| {
            let w = r.workload;
            let findings = findings(r);
            let (name, sources) = name_and_sources(w);
            let row = TableRow {
                anchor: anchors.unique(&["availability", &w.kind, &w.namespace, &w.name]),
                cells: vec![
                    Cell::text(format!(
                        "{}{}",
                        w.kind,
                        if w.templated { " (templated)" } else { "" }
                    )),
                    Cell::text(name),
                    Cell::lines(&replicas_text(r)),
                    Cell::lines(
                        &r.containers
                            .iter()
                            .flat_map(container_lines)
                            .collect::<Vec<_>>(),
                    ),
                    Cell::lines(&scheduling(r)),
                    Cell::lines(&findings),
                ],
                sources: source_links(p, &sources),
            };
            router.route(&format!("{} availability", w.kind), w.area, w.bundled, row)
        })
        .collect();
    section(
        "availability",
        "Availability and resources",
        "Per workload: replicas with the autoscalers (HPA) and disruption budgets (PDB) that cover it, each container's requests, limits and probes (kustomize patches that build the workload applied), and how its pods are spread. ⚠ flags a Deployment or StatefulSet with a container without requests, without a memory limit or without a readiness or liveness probe; more than one replica (or an autoscaler) without anti-affinity or topology spread, or without a PodDisruptionBudget; a budget that allows no eviction, which blocks node drains. ? marks a check a Helm template or an unread patch leaves open.",
        &[
            "Kind",
            "Name",
            "Replicas, HPA, PDB",
            "Containers: resources and probes",
            "Scheduling",
            "Flags",
            "Source",
            "",
        ],
        workloads,
        "No workload manifests were found.",
    )
}

/// A workload's flags (⚠) and the checks a template or an unread patch leaves open (?).
fn findings(r: &Row) -> Vec<String> {
    let mut findings: Vec<String> = r
        .flags()
        .map(|f| format!("⚠ {}: {}", f.kind.label(), f.detail))
        .collect();
    findings.extend(
        r.findings
            .iter()
            .filter(|f| !f.certain)
            .map(|f| format!("? {}: {}", f.kind.label(), f.detail)),
    );
    findings
}

/// A workload's name with the patches that build it, and the sources of both.
fn name_and_sources(w: &Workload) -> (String, Vec<SourceRef>) {
    let mut sources: Vec<SourceRef> = w.sources.clone();
    let mut patched = Vec::new();
    for patch in &w.patches {
        sources.extend(patch.sources.iter().cloned());
        patched.extend(
            patch
                .sources
                .iter()
                .map(|s| format!("{}:{}", s.file, s.line)),
        );
    }
    let mut name = qualified(&w.namespace, &w.name);
    if !patched.is_empty() {
        name.push_str(&format!("\nwith patches {}", patched.join(", ")));
    }
    if let Some(first) = w.missing_patches.first() {
        name.push_str(&format!(
            "\n{} not in the repository, e.g. {first}",
            super::table::counted(w.missing_patches.len(), "patch file", "patch files")
        ));
    }
    if !w.unread_patches.is_empty() {
        name.push_str(&format!(
            "\nmay be changed by {}, not read",
            w.unread_patches.join(", ")
        ));
    }
    (name, sources)
}

/// What each budget and autoscaler covers, found once (by address: two objects may share
/// a name in different files).
struct Coverage {
    by_budget: HashMap<*const DisruptionBudget, Vec<String>>,
    by_autoscaler: HashMap<*const Autoscaler, Vec<String>>,
}

impl Coverage {
    fn of(rows: &[Row]) -> Coverage {
        let name_of = |r: &Row| {
            format!(
                "{} {}",
                r.workload.kind,
                qualified(&r.workload.namespace, &r.workload.name)
            )
        };
        let mut coverage = Coverage {
            by_budget: HashMap::new(),
            by_autoscaler: HashMap::new(),
        };
        for r in rows {
            for (b, _) in &r.budgets {
                coverage
                    .by_budget
                    .entry(*b as *const _)
                    .or_default()
                    .push(name_of(r));
            }
            for h in &r.autoscalers {
                coverage
                    .by_autoscaler
                    .entry(*h as *const _)
                    .or_default()
                    .push(name_of(r));
            }
        }
        coverage
    }

    /// The workloads a budget covers, or a line saying there is none.
    fn budget(&self, b: &DisruptionBudget) -> Vec<String> {
        covered(self.by_budget.get(&(b as *const _)))
    }

    /// The workloads an autoscaler covers, or a line saying there is none.
    fn autoscaler(&self, h: &Autoscaler) -> Vec<String> {
        covered(self.by_autoscaler.get(&(h as *const _)))
    }
}

fn covered(names: Option<&Vec<String>>) -> Vec<String> {
    match names {
        Some(names) if !names.is_empty() => names.clone(),
        _ => vec!["no workload of the repository".to_string()],
    }
}

/// Each PodDisruptionBudget with the workloads it covers.
fn budget_section(
    p: &Project,
    coverage: &Coverage,
    router: &mut Router,
    anchors: &mut Anchors,
) -> Section {
    let budgets = p
        .findings
        .disruption_budgets
        .iter()
        .filter_map(|b| {
            let mut selector = b.selector.clone();
            selector.extend(b.selector_expressions.iter().cloned());
            let row = TableRow {
                anchor: anchors.unique(&["pdb", &b.namespace, &b.name]),
                cells: vec![
                    object_name(&b.namespace, &b.name, b.templated),
                    Cell::text(b.api_version.clone()),
                    Cell::text(budget_limit(b)),
                    Cell::text(if selector.is_empty() {
                        "(empty)".to_string()
                    } else {
                        selector.join(", ")
                    }),
                    Cell::lines(&coverage.budget(b)),
                ],
                sources: source_links(p, &b.sources),
            };
            router.route("PodDisruptionBudget", b.area, b.bundled, row)
        })
        .collect();
    section(
        "disruption-budgets",
        "PodDisruptionBudgets",
        "Each budget with the workloads whose pod labels its selector matches in the same namespace.",
        &[
            "Name",
            "API version",
            "Limit",
            "Selector",
            "Covers",
            "Source",
            "",
        ],
        budgets,
        "No PodDisruptionBudgets were found.",
    )
}

/// Each HorizontalPodAutoscaler with what it scales and the workloads it covers.
fn autoscaler_section(
    p: &Project,
    coverage: &Coverage,
    router: &mut Router,
    anchors: &mut Anchors,
) -> Section {
    let autoscalers = p
        .findings
        .autoscalers
        .iter()
        .filter_map(|h| {
            let row = TableRow {
                anchor: anchors.unique(&["hpa", &h.namespace, &h.name]),
                cells: vec![
                    object_name(&h.namespace, &h.name, h.templated),
                    Cell::text(h.api_version.clone()),
                    Cell::text(format!("{} {}", h.target_kind, h.target_name)),
                    Cell::text(replica_range(h)),
                    Cell::lines(&h.metrics),
                    Cell::lines(&coverage.autoscaler(h)),
                ],
                sources: source_links(p, &h.sources),
            };
            router.route("HorizontalPodAutoscaler", h.area, h.bundled, row)
        })
        .collect();
    section(
        "autoscalers",
        "HorizontalPodAutoscalers",
        "Each autoscaler with the object its scaleTargetRef names.",
        &[
            "Name",
            "API version",
            "Scales",
            "Replicas",
            "Metrics",
            "Covers",
            "Source",
            "",
        ],
        autoscalers,
        "No HorizontalPodAutoscalers were found.",
    )
}
