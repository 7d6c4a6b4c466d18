//! Memory risks of a project's controller-runtime managers, from rows already in the model:
//! the managers' options (`go::manager`), the controllers' watches, the package informers
//! and the workloads' containers. Per project, after assembly; pure.
//!
//! **Invariant:** a risk is reported only with its evidence, and only when what it depends
//! on is known: no cache risk for a manager whose cache scope is unknown
//! (`Manager::cache_unknown`), no container risk unless the container is matched to the
//! manager's program (the rule is in `match_container`; `Manager::deployment` says how, or
//! why no container was matched), no risk for a templated workload, whose limits may come
//! from values.

use std::collections::BTreeMap;

use model::{
    Area, Binary, Controller, Gvk, Manager, ManagerOption, MemoryRisk, MemoryRiskType,
    PackageInformer, Relation, SourceRef, Workload,
};

/// Kinds whose objects are numerous or large in real clusters, so a cluster-wide cache of
/// them costs memory in proportion to the cluster rather than to what the operator manages:
/// Secrets and ConfigMaps (every namespace has several, and they hold whole files and
/// certificates), Pods (the most numerous object, each with a large spec and status),
/// Events (created continuously; `events.k8s.io` is the same objects), and Nodes (few,
/// but each carries its images list and large status).
const LARGE_KINDS: &[(&str, &str)] = &[
    ("", "Secret"),
    ("", "ConfigMap"),
    ("", "Pod"),
    ("", "Event"),
    ("events.k8s.io", "Event"),
    ("", "Node"),
];

/// The risks of every component manager of a project, and the package informers of a
/// project that has one. Fills each manager's `deployment`.
pub fn risks(
    managers: &mut [Manager],
    controllers: &[Controller],
    informers: &[PackageInformer],
    workloads: &[Workload],
    binaries: &[Binary],
) -> Vec<MemoryRisk> {
    let mut out = Vec::new();
    let own_managers = managers
        .iter()
        .filter(|m| m.area == Area::Component)
        .count();
    for m in managers.iter_mut().filter(|m| m.area == Area::Component) {
        if m.cache_unknown.is_empty() {
            cluster_wide(m, controllers, &mut out);
            no_transform(m, &mut out);
        }
        containers(m, own_managers, workloads, binaries, &mut out);
    }
    // Informers are "outside the manager's cache" only in a project that has a manager
    // (a kube-rs watcher, or a program with no manager, has no such cache to be outside).
    let informers = if own_managers == 0 {
        &[][..]
    } else {
        informers
    };
    for inf in informers.iter().filter(|i| i.area == Area::Component) {
        let gvk = Gvk {
            group: inf.group.clone(),
            version: inf.version.clone(),
            kind: inf.kind.clone(),
        };
        let what = if gvk.kind == model::UNRESOLVED {
            "a kind portolan could not resolve".to_string()
        } else {
            gvk.display()
        };
        out.push(MemoryRisk {
            risk: MemoryRiskType::InformerOutsideCache,
            manager: None,
            message: format!(
                "{what} is informed by `{}` in {}, outside every controller: unless it is a manager's own cache (`GetInformer`), it keeps its own copy of every object it lists, apart from any manager's cache",
                inf.function, inf.package
            ),
            kind: Some(gvk),
            controllers: Vec::new(),
            evidence: inf.sources.clone(),
        });
    }
    out
}

/// Options of the cache by name (every option under `Cache.`, and `Client.Cache.`).
fn cache_options<'m>(m: &'m Manager, name: &str) -> impl Iterator<Item = &'m ManagerOption> {
    let name = name.to_string();
    m.options.iter().filter(move |o| o.name == name)
}

/// Whether the options restrict what the cache holds of `kind` in every namespace: a
/// default namespace list, label or field selector, the older `Namespace`/`Namespaces`, a
/// `ByObject` entry for the kind with a label, field or namespace, or the kind left out of
/// the cache (`DisableFor`). An option that is set under a condition or from a flag still
/// counts: the risk is reported only when nothing could restrict the kind.
fn restricted(m: &Manager, kind: &Gvk) -> bool {
    let namespaced = |o: &ManagerOption| o.namespace.as_deref().is_some_and(|n| !n.is_empty());
    let everywhere = cache_options(m, "Cache.DefaultNamespaces").any(namespaced)
        || ["Cache.DefaultLabelSelector", "Cache.DefaultFieldSelector"]
            .iter()
            .any(|n| cache_options(m, n).any(|o| o.value != "everything"))
        || cache_options(m, "Cache.Namespaces").any(|o| o.value != "[]")
        || cache_options(m, "Namespace").any(|o| o.expr || o.flag.is_some() || !o.value.is_empty());
    if everywhere {
        return true;
    }
    let same = |o: &ManagerOption| {
        o.object
            .as_ref()
            .is_some_and(|g| g.group == kind.group && g.kind == kind.kind)
    };
    m.options
        .iter()
        .filter(|o| same(o))
        .any(|o| match o.name.as_str() {
            "Cache.ByObject.Label" | "Cache.ByObject.Field" => o.value != "everything",
            "Cache.ByObject.Namespaces"
            | "Cache.ByObject.Namespaces.LabelSelector"
            | "Cache.ByObject.Namespaces.FieldSelector" => {
                namespaced(o) || o.name != "Cache.ByObject.Namespaces"
            }
            "Client.Cache.DisableFor" => true,
            _ => false,
        })
}

fn is_large(g: &Gvk) -> bool {
    LARGE_KINDS
        .iter()
        .any(|(group, kind)| g.group == *group && g.kind == *kind)
}

/// One risk per large kind the manager's controllers watch that the cache does not
/// restrict.
fn cluster_wide(m: &Manager, controllers: &[Controller], out: &mut Vec<MemoryRisk>) {
    // (group, version, kind) → (controllers, evidence).
    type Watchers = (Vec<String>, Vec<SourceRef>);
    let mut by_kind: BTreeMap<(String, String, String), Watchers> = BTreeMap::new();
    for c in controllers
        .iter()
        .filter(|c| c.area == Area::Component && m.controllers.contains(&c.name))
    {
        for w in &c.watches {
            // Builder watches go through the manager's cache; `informer` rows may not.
            if !matches!(
                w.relation,
                Relation::For | Relation::Owns | Relation::Watches
            ) || !w.is_resolved()
            {
                continue;
            }
            let g = w.gvk();
            if !is_large(&g) || restricted(m, &g) {
                continue;
            }
            let entry = by_kind
                .entry((g.group.clone(), g.version.clone(), g.kind.clone()))
                .or_default();
            if !entry.0.contains(&c.name) {
                entry.0.push(c.name.clone());
            }
            entry.1.extend(w.sources.iter().cloned());
        }
    }
    for ((group, version, kind), (names, mut evidence)) in by_kind {
        let gvk = Gvk {
            group,
            version,
            kind,
        };
        evidence.sort();
        evidence.dedup();
        evidence.extend(m.sources.iter().cloned());
        out.push(MemoryRisk {
            risk: MemoryRiskType::ClusterWideKind,
            manager: m.sources.first().cloned(),
            message: format!(
                "{} is watched by {} and the manager's cache restricts it by no namespace, label or field: every {} of the cluster is cached",
                gvk.display(),
                names.join(", "),
                gvk.kind
            ),
            kind: Some(gvk),
            controllers: names,
            evidence,
        });
    }
}

/// The cache keeps `managedFields` unless a default transform strips them.
fn no_transform(m: &Manager, out: &mut Vec<MemoryRisk>) {
    let default = cache_options(m, "Cache.DefaultTransform").next();
    match default {
        // A transform portolan cannot read may strip them: not reported.
        Some(_) => {}
        None => {
            let mut evidence = m.sources.clone();
            evidence.extend(
                m.options
                    .iter()
                    .filter(|o| o.name.starts_with("Cache."))
                    .take(1)
                    .flat_map(|o| o.sources.iter().cloned()),
            );
            let per_object: Vec<String> = m
                .options
                .iter()
                .filter(|o| o.name.ends_with(".Transform"))
                .filter_map(|o| o.object.as_ref().map(Gvk::display))
                .collect();
            let also = if per_object.is_empty() {
                String::new()
            } else {
                format!(
                    " (per-object transforms for {} only)",
                    per_object.join(", ")
                )
            };
            out.push(MemoryRisk {
                risk: MemoryRiskType::NoTransform,
                manager: m.sources.first().cloned(),
                kind: None,
                controllers: Vec::new(),
                message: format!(
                    "the cache options set no DefaultTransform{also}: cached objects keep their managedFields (cache.TransformStripManagedFields drops them)"
                ),
                evidence,
            });
        }
    }
}

/// The containers the manager runs in, and their memory limit and `GOMEMLIMIT`: one risk
/// of each type per manager, with every container that lacks it as evidence (a repository
/// may ship the same Deployment in many files: kustomize bases, charts, release bundles).
fn containers(
    m: &mut Manager,
    own_managers: usize,
    workloads: &[Workload],
    binaries: &[Binary],
    out: &mut Vec<MemoryRisk>,
) {
    let programs: Vec<&Binary> = binaries.iter().filter(|b| !b.is_package()).collect();
    let names: Vec<&str> = programs
        .iter()
        .filter(|b| m.binaries.contains(&b.package))
        .map(|b| b.name.as_str())
        .collect();
    // A name two programs share (`manager` built from two folders into two images)
    // does not tell their containers apart.
    let shared: Vec<&str> = names
        .iter()
        .copied()
        .filter(|n| {
            programs
                .iter()
                .any(|b| b.name == *n && !m.binaries.contains(&b.package))
        })
        .collect();
    let candidates: Vec<&Workload> = workloads
        .iter()
        .filter(|w| {
            w.area == Area::Component
                && !w.bundled
                && matches!(w.kind.as_str(), "Deployment" | "StatefulSet" | "DaemonSet")
        })
        .collect();
    let (found, how) = if !shared.is_empty() {
        m.deployment = format!(
            "not matched: another program of the repository is also built as `{}`, so a container's command does not say which program it runs",
            shared.join("`, `")
        );
        return;
    } else {
        match match_container(&names, own_managers, &candidates) {
            Ok(found) => found,
            Err(why) => {
                m.deployment = format!("not matched: {why}");
                return;
            }
        }
    };
    let mut shown: Vec<(String, usize)> = Vec::new();
    let mut no_limit: (Vec<String>, Vec<SourceRef>) = Default::default();
    let mut no_gomemlimit: (Vec<String>, Vec<SourceRef>) = Default::default();
    let mut templated = 0;
    let mut unread = 0;
    for (w, ci) in &found {
        // The container as the kustomizations build it (patches add limits and variables).
        let patched = w.patched_containers();
        let c = &patched[*ci];
        let name = format!("{} {}, container {}", w.kind, w.name, c.name);
        match shown.iter_mut().find(|(n, _)| *n == name) {
            Some((_, count)) => *count += 1,
            None => shown.push((name.clone(), 1)),
        }
        if w.templated {
            templated += 1;
            continue;
        }
        if !w.unread_patches.is_empty() {
            unread += 1;
            continue;
        }
        let add = |to: &mut (Vec<String>, Vec<SourceRef>), what: String| {
            if !to.0.contains(&what) {
                to.0.push(what);
            }
            to.1.extend(w.sources.iter().cloned());
            to.1.extend(w.patches.iter().flat_map(|p| p.sources.iter().cloned()));
        };
        if c.memory_limit().is_none() {
            add(&mut no_limit, name.clone());
        }
        if !c.env.iter().any(|e| e.name == "GOMEMLIMIT") {
            let limit = match c.memory_limit() {
                Some(limit) => format!(" (memory limit {limit})"),
                None => String::new(),
            };
            add(&mut no_gomemlimit, format!("{name}{limit}"));
        }
    }
    let files = |n: usize| {
        if n == 1 {
            String::new()
        } else {
            format!(" ({n} files)")
        }
    };
    let listed: Vec<String> = shown
        .iter()
        .map(|(n, count)| format!("{n}{}", files(*count)))
        .collect();
    m.deployment = format!("{}: {how}", listed.join("; "));
    if templated > 0 {
        m.deployment.push_str(&format!(
            "; {templated} templated, whose limits and environment may come from values, not checked"
        ));
    }
    if unread > 0 {
        m.deployment.push_str(&format!(
            "; {unread} changed by kustomize patches portolan does not read (inline or JSON 6902), not checked"
        ));
    }
    for (risk, (what, mut evidence), says) in [
        (
            MemoryRiskType::NoMemoryLimit,
            no_limit,
            "sets no memory limit: a cache that grows with the cluster is stopped only by the node",
        ),
        (
            MemoryRiskType::NoGoMemLimit,
            no_gomemlimit,
            "sets no GOMEMLIMIT: Go's collector does not know the limit, so the heap may grow past it before a collection",
        ),
    ] {
        if what.is_empty() {
            continue;
        }
        evidence.sort();
        evidence.dedup();
        evidence.extend(m.sources.iter().cloned());
        out.push(MemoryRisk {
            risk,
            manager: m.sources.first().cloned(),
            kind: None,
            controllers: Vec::new(),
            message: format!("{} {says}", what.join("; ")),
            evidence,
        });
    }
}

/// The containers a manager's program runs in: the containers whose command's first word
/// is the program's binary name (`/manager` for `manager`), else, when the project has
/// one manager and one own Deployment, StatefulSet or DaemonSet with one container, that
/// one. Otherwise none, with the reason.
#[allow(clippy::type_complexity)]
fn match_container<'w>(
    names: &[&str],
    own_managers: usize,
    candidates: &[&'w Workload],
) -> Result<(Vec<(&'w Workload, usize)>, &'static str), String> {
    let mut by_name = Vec::new();
    for w in candidates {
        for (ci, c) in w.containers.iter().enumerate() {
            if c.init {
                continue;
            }
            let first = c.command.first().map(|c| c.rsplit('/').next().unwrap_or(c));
            if first.is_some_and(|f| names.contains(&f)) {
                by_name.push((*w, ci));
            }
        }
    }
    if !by_name.is_empty() {
        return Ok((by_name, "its command runs the program's binary"));
    }
    let single: Vec<(&Workload, usize)> = candidates
        .iter()
        .flat_map(|w| {
            w.containers
                .iter()
                .enumerate()
                .filter(|(_, c)| !c.init)
                .map(move |(ci, _)| (*w, ci))
        })
        .collect();
    if names.is_empty() {
        return Err(
            "no program is shown to create this manager, so no container is matched".into(),
        );
    }
    match (own_managers, candidates.len(), single.as_slice()) {
        (1, 1, [one]) => Ok((
            vec![*one],
            "the project's one manager and one workload container",
        )),
        (_, 0, _) => Err(
            "the project's manifests have no Deployment, StatefulSet or DaemonSet of its own"
                .into(),
        ),
        _ => Err(format!(
            "no container's command runs {}, and the project has several managers or workload containers",
            names
                .iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(" or ")
        )),
    }
}
