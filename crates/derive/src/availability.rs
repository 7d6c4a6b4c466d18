//! Availability and resources per workload: the PodDisruptionBudgets and
//! HorizontalPodAutoscalers that cover each workload, its containers' requests, limits and
//! probes with the kustomize patches that build it applied, and flags for what is missing.
//!
//! Stage: link (a pure function of one project, like `access`); the configuration page and
//! the platform chart render the result.
//!
//! Matching: a budget covers a workload when its selector matches the pod template's
//! labels (`matchLabels` and `matchExpressions`; an empty selector matches every pod in
//! policy/v1 and none in v1beta1) in the same namespace; an autoscaler when its
//! `scaleTargetRef` names the workload's kind and name. Same namespace: written the same
//! (both empty included), or both objects built by one kustomization that sets a
//! namespace. Only objects of the same area (component or samples) are matched.
//!
//! Flags, for Deployments and StatefulSets (the long-running kinds): a container without
//! requests, without a memory limit, without a readiness or a liveness probe; more than one
//! replica (or an autoscaler that may scale past one) without pod anti-affinity or topology
//! spread; more than one replica, or an autoscaler, without a budget; a budget that allows
//! no eviction at all (`maxUnavailable: 0`, `minAvailable` 100% or at least the replicas),
//! which blocks node drains. **Invariant:** nothing is guessed. When a value is a template
//! Helm did not render, or a template line writes YAML that was not rendered, or a
//! kustomization patches the workload in a way portolan does not read, the check says so
//! (`Note`) instead of flagging.

use std::collections::HashMap;

use kubernetes::names::qualified;
use model::{Area, Autoscaler, Container, DisruptionBudget, Kustomization, Project, Workload};

/// What a flag is about; the platform chart counts flags by this.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum FlagKind {
    NoRequests,
    NoMemoryLimit,
    NoReadinessProbe,
    NoLivenessProbe,
    NoSpread,
    NoBudget,
    BlocksDrain,
}

impl FlagKind {
    pub const ALL: [FlagKind; 7] = [
        FlagKind::NoRequests,
        FlagKind::NoMemoryLimit,
        FlagKind::NoReadinessProbe,
        FlagKind::NoLivenessProbe,
        FlagKind::NoSpread,
        FlagKind::NoBudget,
        FlagKind::BlocksDrain,
    ];

    pub fn label(self) -> &'static str {
        match self {
            FlagKind::NoRequests => "no requests",
            FlagKind::NoMemoryLimit => "no memory limit",
            FlagKind::NoReadinessProbe => "no readiness probe",
            FlagKind::NoLivenessProbe => "no liveness probe",
            FlagKind::NoSpread => "replicas without anti-affinity or spread",
            FlagKind::NoBudget => "no PodDisruptionBudget",
            FlagKind::BlocksDrain => "budget blocks drains",
        }
    }
}

/// A finding on one workload: a flag, or a check that could not be made (`certain` false).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub kind: FlagKind,
    /// The containers or objects concerned, or why the check could not be made.
    pub detail: String,
    /// False when a template or an unread patch leaves the answer open: shown as a note,
    /// never counted as a flag.
    pub certain: bool,
}

/// The replica count of a workload as far as the manifests tell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Replicas {
    /// Written, or Kubernetes' default of 1 when not written (`defaulted`).
    Known { count: u64, defaulted: bool },
    /// Written as something that is not a number (a template, `${VAR}`): kept as text.
    Unknown(String),
    /// A kind without replicas (DaemonSet: one per node; Job, CronJob, Pod).
    NotApplicable,
}

/// One workload with its budgets, autoscalers, patches applied and findings.
pub struct Row<'p> {
    pub workload: &'p Workload,
    /// The containers with the workload's patches applied (by container name).
    pub containers: Vec<Container>,
    pub replicas: Replicas,
    pub priority_class: String,
    pub anti_affinity: Vec<String>,
    pub topology_spread: Vec<String>,
    /// Budgets whose selector matches the pods; `false`: may match (templated).
    pub budgets: Vec<(&'p DisruptionBudget, bool)>,
    pub autoscalers: Vec<&'p Autoscaler>,
    pub findings: Vec<Finding>,
}

impl Row<'_> {
    pub fn flags(&self) -> impl Iterator<Item = &Finding> {
        self.findings.iter().filter(|f| f.certain)
    }
}

/// Whether flags apply to a kind: the long-running, replicated ones.
pub fn long_running(kind: &str) -> bool {
    matches!(kind, "Deployment" | "StatefulSet")
}

fn templated_text(s: &str) -> bool {
    s.contains("{{") || s.contains("${") || s.contains("$(")
}

/// The most budgets a row lists: a budget covering more is still matched for the flags.
const MAX_BUDGETS: usize = 100;

/// Lookups built once per project, so matching stays near linear in workloads, budgets
/// and autoscalers (a repository with thousands of each must not take quadratic time).
struct Index<'p> {
    /// `Kind namespace/name` → the own kustomizations (not bundled) that build it.
    built_by: HashMap<&'p str, Vec<&'p Kustomization>>,
    /// Budgets by their first `matchLabels` pair that is not a template; `None`: budgets
    /// without one (expressions only, empty or templated selectors), tried for every pod.
    budgets_by_label: HashMap<Option<&'p str>, Vec<&'p DisruptionBudget>>,
    autoscalers_by_target: HashMap<(&'p str, &'p str), Vec<&'p Autoscaler>>,
}

impl<'p> Index<'p> {
    fn new(p: &'p Project) -> Index<'p> {
        let mut built_by: HashMap<&str, Vec<&Kustomization>> = HashMap::new();
        for k in p.findings.kustomizations.iter().filter(|k| !k.bundled) {
            for o in &k.objects {
                built_by.entry(o.as_str()).or_default().push(k);
            }
        }
        let mut budgets_by_label: HashMap<Option<&str>, Vec<&DisruptionBudget>> = HashMap::new();
        for b in &p.findings.disruption_budgets {
            let key = b
                .selector
                .iter()
                .find(|l| !templated_text(l))
                .map(String::as_str);
            budgets_by_label.entry(key).or_default().push(b);
        }
        let mut autoscalers_by_target: HashMap<(&str, &str), Vec<&Autoscaler>> = HashMap::new();
        for h in &p.findings.autoscalers {
            autoscalers_by_target
                .entry((h.target_kind.as_str(), h.target_name.as_str()))
                .or_default()
                .push(h);
        }
        Index {
            built_by,
            budgets_by_label,
            autoscalers_by_target,
        }
    }

    /// The kustomizations of `area` that build the object `id` (`Kind namespace/name`).
    fn building(&self, area: Area, id: &str) -> impl Iterator<Item = &'p Kustomization> + '_ {
        self.built_by
            .get(id)
            .into_iter()
            .flatten()
            .copied()
            .filter(move |k| k.area == area)
    }

    /// Same namespace: written the same, or one kustomization with a namespace builds both.
    fn same_namespace(&self, w: &Workload, kind: &str, namespace: &str, name: &str) -> bool {
        if namespace == w.namespace {
            return true;
        }
        let other = format!("{kind} {}", qualified(namespace, name));
        let workload = format!("{} {}", w.kind, qualified(&w.namespace, &w.name));
        self.building(w.area, &workload)
            .any(|k| !k.namespace.is_empty() && k.objects.contains(&other))
    }
}

/// The rows of a project, in the order of its workloads.
pub fn rows(p: &Project) -> Vec<Row<'_>> {
    let index = Index::new(p);
    p.findings
        .workloads
        .iter()
        .map(|w| row(&index, w))
        .collect()
}

fn row<'p>(index: &Index<'p>, w: &'p Workload) -> Row<'p> {
    let containers: Vec<Container> = w.patched_containers();
    let pod = Pod::patched(index, w);
    let replicas = replicas(w, pod.replicas);
    let budgets = budgets(index, w, &pod.labels);
    let autoscalers: Vec<&Autoscaler> = index
        .autoscalers_by_target
        .get(&(w.kind.as_str(), w.name.as_str()))
        .into_iter()
        .flatten()
        .copied()
        .filter(|h| {
            h.area == w.area
                && index.same_namespace(w, "HorizontalPodAutoscaler", &h.namespace, &h.name)
        })
        .collect();
    let mut r = Row {
        workload: w,
        containers,
        replicas,
        priority_class: pod.priority_class,
        anti_affinity: pod.anti_affinity,
        topology_spread: pod.topology_spread,
        budgets,
        autoscalers,
        findings: Vec::new(),
    };
    if long_running(&w.kind) {
        r.findings = findings(&r);
    }
    r
}

/// A workload's pod settings with its patches applied, and its pod labels with those the
/// kustomizations that build it add.
struct Pod {
    replicas: String,
    priority_class: String,
    anti_affinity: Vec<String>,
    topology_spread: Vec<String>,
    labels: Vec<String>,
}

impl Pod {
    fn patched(index: &Index, w: &Workload) -> Pod {
        let mut replicas_text = w.replicas.clone();
        let mut priority_class = w.priority_class.clone();
        let mut anti_affinity = w.anti_affinity.clone();
        let mut topology_spread = w.topology_spread.clone();
        let mut pod_labels = w.pod_labels.clone();
        for patch in &w.patches {
            if !patch.replicas.is_empty() {
                replicas_text = patch.replicas.clone();
            }
            if !patch.priority_class.is_empty() {
                priority_class = patch.priority_class.clone();
            }
            if !patch.anti_affinity.is_empty() {
                anti_affinity = patch.anti_affinity.clone();
            }
            if !patch.topology_spread.is_empty() {
                topology_spread = patch.topology_spread.clone();
            }
            for l in &patch.pod_labels {
                let key = l.split('=').next().unwrap_or(l);
                pod_labels.retain(|x| x.split('=').next() != Some(key));
                pod_labels.push(l.clone());
            }
        }
        let workload_id = format!("{} {}", w.kind, qualified(&w.namespace, &w.name));
        for k in index.building(w.area, &workload_id) {
            for l in k.selector_labels.iter().chain(&k.template_labels) {
                if !pod_labels.contains(l) {
                    pod_labels.push(l.clone());
                }
            }
        }
        Pod {
            replicas: replicas_text,
            priority_class,
            anti_affinity,
            topology_spread,
            labels: pod_labels,
        }
    }
}

/// The replica count of `w` from its (patched) `replicas_text`.
fn replicas(w: &Workload, replicas_text: String) -> Replicas {
    let replicated = matches!(w.kind.as_str(), "Deployment" | "StatefulSet" | "ReplicaSet");
    match replicas_text.parse::<u64>() {
        _ if !replicated => Replicas::NotApplicable,
        Ok(count) => Replicas::Known {
            count,
            defaulted: false,
        },
        Err(_) if replicas_text.is_empty() && !w.unrendered_yaml => Replicas::Known {
            count: 1,
            defaulted: true,
        },
        Err(_) if replicas_text.is_empty() => Replicas::Unknown("templated".into()),
        Err(_) => Replicas::Unknown(replicas_text),
    }
}

/// The budgets of `w`'s area and namespace whose selector (with the labels the
/// kustomizations that build the budget add) matches `pod_labels`; at most `MAX_BUDGETS`
/// unless a sure match would be left out.
fn budgets<'p>(
    index: &Index<'p>,
    w: &Workload,
    pod_labels: &[String],
) -> Vec<(&'p DisruptionBudget, bool)> {
    let mut candidates: Vec<&DisruptionBudget> = Vec::new();
    for key in pod_labels
        .iter()
        .map(|l| Some(l.as_str()))
        .chain(std::iter::once(None))
    {
        candidates.extend(index.budgets_by_label.get(&key).into_iter().flatten());
    }
    let mut budgets: Vec<(&DisruptionBudget, bool)> = Vec::new();
    for b in candidates {
        if b.area != w.area
            || !index.same_namespace(w, "PodDisruptionBudget", &b.namespace, &b.name)
        {
            continue;
        }
        let id = format!("PodDisruptionBudget {}", qualified(&b.namespace, &b.name));
        let added: Vec<&String> = index
            .building(b.area, &id)
            .flat_map(|k| &k.selector_labels)
            .collect();
        let matched = if added.is_empty() {
            selects(b, pod_labels, w.unrendered_yaml)
        } else {
            let mut with_labels = b.clone();
            for l in added {
                if !with_labels.selector.contains(l) {
                    with_labels.selector.push(l.clone());
                }
            }
            selects(&with_labels, pod_labels, w.unrendered_yaml)
        };
        if let Some(sure) = matched {
            // A sure match is kept over the cap, so the flags still see it.
            if budgets.len() < MAX_BUDGETS || (sure && !budgets.iter().any(|(_, s)| *s)) {
                budgets.push((b, sure));
            }
        }
    }
    budgets
}

/// A strategic-merge patch's containers over the base's, by name: requests and limits
/// merged key by key, probes replaced; a container only the patch has is added.
/// Whether a budget's selector matches pod labels: `Some(true)` it does, `Some(false)` it
/// may (a template leaves it open), `None` it does not.
pub fn selects(b: &DisruptionBudget, labels: &[String], labels_open: bool) -> Option<bool> {
    if b.selector.is_empty() && b.selector_expressions.is_empty() {
        if b.templated {
            return Some(false);
        }
        return (b.api_version != "policy/v1beta1").then_some(true);
    }
    let value_of = |key: &str| {
        labels
            .iter()
            .find_map(|l| l.split_once('=').filter(|(k, _)| *k == key).map(|(_, v)| v))
    };
    let mut sure = true;
    for want in &b.selector {
        let (key, value) = want.split_once('=').unwrap_or((want, ""));
        match value_of(key) {
            Some(v) if v == value => {}
            Some(v) if templated_text(v) || templated_text(value) => sure = false,
            None if labels_open || templated_text(key) => sure = false,
            _ => return None,
        }
    }
    for e in &b.selector_expressions {
        let mut parts = e.splitn(3, ' ');
        let key = parts.next().unwrap_or("");
        let op = parts.next().unwrap_or("");
        let values: Vec<&str> = parts.next().unwrap_or("").split(',').collect();
        let have = value_of(key);
        if templated_text(e) || (have.is_none() && labels_open) {
            sure = false;
            continue;
        }
        let ok = match op {
            "In" => have.is_some_and(|v| values.contains(&v)),
            "NotIn" => have.is_none_or(|v| !values.contains(&v)),
            "Exists" => have.is_some(),
            "DoesNotExist" => have.is_none(),
            _ => {
                sure = false;
                true
            }
        };
        if !ok {
            return None;
        }
    }
    Some(sure)
}

/// `n` or `n%` as written; `None` for anything else (a template).
fn count_or_percent(s: &str) -> Option<(u64, bool)> {
    match s.strip_suffix('%') {
        Some(n) => n.trim().parse().ok().map(|n| (n, true)),
        None => s.trim().parse().ok().map(|n| (n, false)),
    }
}

/// Why a budget allows no voluntary eviction of `replicas` pods, if it does not.
fn blocks_drain(b: &DisruptionBudget, replicas: Option<u64>, autoscaled: bool) -> Option<String> {
    match count_or_percent(&b.max_unavailable) {
        Some((0, _)) => return Some(format!("maxUnavailable {}", b.max_unavailable)),
        Some(_) => return None,
        None => {}
    }
    match (count_or_percent(&b.min_available), replicas) {
        (Some((100, true)), _) => Some("minAvailable 100%".into()),
        (Some((n, false)), Some(r)) if n >= r && n > 0 => Some(format!(
            "minAvailable {n} with {}{}",
            if autoscaled {
                "the autoscaler's minimum of "
            } else {
                ""
            },
            if r == 1 {
                "1 replica".to_string()
            } else {
                format!("{r} replicas")
            }
        )),
        _ => None,
    }
}

fn findings(r: &Row) -> Vec<Finding> {
    let mut out = container_findings(r);
    let replicas = match r.replicas {
        Replicas::Known { count, .. } => Some(count),
        Replicas::Unknown(_) | Replicas::NotApplicable => None,
    };
    let scales_past_one = r.autoscalers.iter().any(|h| {
        h.max_replicas.parse::<u64>().is_ok_and(|n| n > 1) || templated_text(&h.max_replicas)
    });
    let several = replicas.is_some_and(|n| n > 1) || scales_past_one;
    spread_findings(r, replicas, several, &mut out);
    budget_findings(r, replicas, several, &mut out);
    out
}

/// Whether nothing leaves the workload's findings open: no template line wrote YAML that
/// was not rendered, and no kustomization patches it in a way portolan does not read.
fn settled(w: &Workload) -> bool {
    !w.unrendered_yaml && w.unread_patches.is_empty()
}

/// `what`, with why a finding about it is only a note (see [`settled`]).
fn why_open(w: &Workload, what: &str) -> String {
    if w.unrendered_yaml {
        format!("{what}: a template line writes YAML that was not rendered")
    } else {
        format!(
            "{what}: may be changed by {}, not read",
            w.unread_patches.join(", ")
        )
    }
}

/// A flag when `certain`, else a note saying why it is open.
fn note_or_flag(
    w: &Workload,
    out: &mut Vec<Finding>,
    kind: FlagKind,
    detail: String,
    certain: bool,
) {
    out.push(Finding {
        kind,
        detail: if certain {
            detail
        } else {
            why_open(w, &detail)
        },
        certain,
    })
}

/// The flags of the main containers: requests, memory limit, readiness and liveness probes.
fn container_findings(r: &Row) -> Vec<Finding> {
    let mut out = Vec::new();
    per_container(
        r,
        &mut out,
        FlagKind::NoRequests,
        &|c| c.requests.is_empty(),
        &|c| c.resources_templated || c.requests.iter().any(|x| templated_text(x)),
    );
    per_container(
        r,
        &mut out,
        FlagKind::NoMemoryLimit,
        &|c| !c.limits.iter().any(|l| l.starts_with("memory=")),
        &|c| c.resources_templated || c.limits.iter().any(|x| templated_text(x)),
    );
    per_container(
        r,
        &mut out,
        FlagKind::NoReadinessProbe,
        &|c| c.readiness_probe.is_none(),
        &|c| c.readiness_probe.as_ref().is_some_and(|p| p.templated),
    );
    per_container(
        r,
        &mut out,
        FlagKind::NoLivenessProbe,
        &|c| c.liveness_probe.is_none(),
        &|c| c.liveness_probe.as_ref().is_some_and(|p| p.templated),
    );
    out
}

/// A note for the main containers whose setting is `templated`, and a flag (or a note,
/// see [`settled`]) for those `missing` it.
fn per_container(
    r: &Row,
    out: &mut Vec<Finding>,
    kind: FlagKind,
    missing: &dyn Fn(&Container) -> bool,
    templated: &dyn Fn(&Container) -> bool,
) {
    let main = r.containers.iter().filter(|c| !c.init);
    let names: Vec<&str> = main
        .clone()
        .filter(|c| missing(c) && !templated(c))
        .map(|c| c.name.as_str())
        .collect();
    let open_names: Vec<&str> = main
        .filter(|c| templated(c))
        .map(|c| c.name.as_str())
        .collect();
    if !open_names.is_empty() {
        out.push(Finding {
            kind,
            detail: format!("templated: {}", open_names.join(", ")),
            certain: false,
        });
    }
    if !names.is_empty() {
        let certain = settled(r.workload);
        out.push(Finding {
            kind,
            detail: if certain {
                names.join(", ")
            } else {
                why_open(r.workload, &names.join(", "))
            },
            certain,
        });
    }
}

/// Several replicas (or an autoscaler past one) without anti-affinity or topology spread;
/// a note when the replicas are not known.
fn spread_findings(r: &Row, replicas: Option<u64>, several: bool, out: &mut Vec<Finding>) {
    let spread_templated = r
        .anti_affinity
        .iter()
        .chain(&r.topology_spread)
        .any(|x| x == "templated");
    if several && r.anti_affinity.is_empty() && r.topology_spread.is_empty() {
        let detail = match replicas {
            Some(n) if n > 1 => format!("{n} replicas"),
            _ => "autoscaled past 1".to_string(),
        };
        note_or_flag(
            r.workload,
            out,
            FlagKind::NoSpread,
            detail,
            settled(r.workload),
        );
    } else if replicas.is_none()
        && !spread_templated
        && r.anti_affinity.is_empty()
        && r.topology_spread.is_empty()
    {
        out.push(Finding {
            kind: FlagKind::NoSpread,
            detail: "replicas not known (templated)".into(),
            certain: false,
        });
    }
}

/// No budget for several replicas or an autoscaler, and budgets that block drains.
fn budget_findings(r: &Row, replicas: Option<u64>, several: bool, out: &mut Vec<Finding>) {
    let covering: Vec<&DisruptionBudget> = r
        .budgets
        .iter()
        .filter(|(_, s)| *s)
        .map(|(b, _)| *b)
        .collect();
    let maybe = r.budgets.iter().any(|(_, s)| !s);
    if (several || !r.autoscalers.is_empty()) && covering.is_empty() {
        let detail = match (replicas, r.autoscalers.first()) {
            (_, Some(h)) => format!("autoscaled by {}", h.name),
            (Some(n), None) => format!("{n} replicas"),
            (None, None) => String::new(),
        };
        if maybe {
            out.push(Finding {
                kind: FlagKind::NoBudget,
                detail: format!("{detail}: a budget's selector is templated"),
                certain: false,
            });
        } else {
            note_or_flag(
                r.workload,
                out,
                FlagKind::NoBudget,
                detail,
                settled(r.workload),
            );
        }
    }
    let least = if r.autoscalers.is_empty() {
        replicas
    } else {
        r.autoscalers
            .iter()
            .map(|h| {
                if h.min_replicas.is_empty() {
                    Some(1)
                } else {
                    h.min_replicas.parse().ok()
                }
            })
            .min()
            .flatten()
    };
    for b in covering {
        if let Some(why) = blocks_drain(b, least, !r.autoscalers.is_empty()) {
            out.push(Finding {
                kind: FlagKind::BlocksDrain,
                detail: format!("{} ({why})", b.name),
                certain: true,
            });
        }
    }
}

/// Flags per kind for a project's own component workloads (not samples, not bundled).
pub fn own_flag_counts(p: &Project) -> Vec<(FlagKind, usize)> {
    let rows = rows(p);
    FlagKind::ALL
        .iter()
        .map(|k| {
            (
                *k,
                rows.iter()
                    .filter(|r| r.workload.area.is_component() && !r.workload.bundled)
                    .filter(|r| r.flags().any(|f| f.kind == *k))
                    .count(),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests;
