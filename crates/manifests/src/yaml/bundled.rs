//! Own versus bundled: telling a project's own manifests from another project's manifests
//! it ships for installation (Gateway API CRDs, an Istio control plane).
//!
//! The rule, decided on evidence only:
//! * A CRD is **own** when an in-repo Go API package declares its group
//!   (`model::Project::api_packages`), else **bundled**. A repository with no Go API
//!   package therefore has only bundled CRDs.
//! * A manifest **folder** is **bundled dependency manifests** when every object in it
//!   carries evidence of belonging to another project, and at least one carries *identity*
//!   evidence. Identity evidence is: a bundled CRD; the label `app.kubernetes.io/part-of`
//!   naming a well-known project; a Namespace object creating a well-known project's
//!   namespace (`istio-system`, or a name ending in `-istio-system`). Supporting evidence
//!   is an object placed in such a namespace, or whose own API group belongs to a
//!   well-known project (`telemetry.istio.io` Telemetry). Supporting evidence alone never
//!   makes a folder bundled: a folder of ServiceMonitors is the project's own monitoring
//!   configuration, and an Ingress the project puts into `istio-system` is its own.
//! * Well-known projects come from the table [`FAMILIES`]. A family is never foreign to a
//!   project that declares one of its groups itself (the Istio repository is not bundling
//!   Istio).
//!
//! Objects of a bundled folder carry `bundled: true`; nothing is removed from the model.

use std::collections::{BTreeMap, BTreeSet};

use model::Bundle;

/// A well-known project whose manifests other repositories ship.
pub struct Family {
    pub name: &'static str,
    /// API groups, matched exactly or as a suffix after a dot (`istio.io` matches
    /// `networking.istio.io`).
    pub groups: &'static [&'static str],
    /// Namespaces, matched exactly or as a suffix after a dash.
    pub namespaces: &'static [&'static str],
    /// Values of the `app.kubernetes.io/part-of` label.
    pub part_of: &'static [&'static str],
}

pub const FAMILIES: [Family; 10] = [
    Family {
        name: "Istio",
        groups: &["istio.io"],
        namespaces: &["istio-system"],
        part_of: &["istio"],
    },
    Family {
        name: "Knative",
        groups: &["knative.dev"],
        namespaces: &["knative-serving", "knative-eventing"],
        part_of: &["knative-serving", "knative-eventing"],
    },
    Family {
        name: "cert-manager",
        groups: &["cert-manager.io"],
        namespaces: &["cert-manager"],
        part_of: &["cert-manager"],
    },
    Family {
        name: "Gateway API",
        groups: &["gateway.networking.k8s.io", "gateway.networking.x-k8s.io"],
        namespaces: &[],
        part_of: &["gateway-api"],
    },
    Family {
        name: "KEDA",
        groups: &["keda.sh"],
        namespaces: &["keda"],
        part_of: &["keda-operator"],
    },
    Family {
        name: "Prometheus Operator",
        groups: &["monitoring.coreos.com"],
        namespaces: &[],
        part_of: &["kube-prometheus", "prometheus-operator"],
    },
    Family {
        name: "Envoy Gateway",
        groups: &["gateway.envoyproxy.io"],
        namespaces: &["envoy-gateway-system"],
        part_of: &["envoy-gateway"],
    },
    Family {
        name: "kgateway",
        groups: &["gateway.kgateway.dev"],
        namespaces: &["kgateway-system"],
        part_of: &["kgateway"],
    },
    Family {
        name: "OpenTelemetry Operator",
        groups: &["opentelemetry.io"],
        namespaces: &["opentelemetry-operator-system"],
        part_of: &["opentelemetry-operator"],
    },
    Family {
        name: "LeaderWorkerSet",
        groups: &["leaderworkerset.x-k8s.io"],
        namespaces: &["lws-system"],
        part_of: &["lws"],
    },
];

/// What the bundling rule needs to know about one object.
#[derive(Debug, Clone, PartialEq)]
pub struct ObjectId {
    pub group: String,
    pub kind: String,
    pub name: String,
    pub namespace: String,
    /// The `app.kubernetes.io/part-of` label.
    pub part_of: String,
    /// For a CRD: the group it defines.
    pub crd_group: String,
}

fn group_in(group: &str, family: &Family) -> bool {
    family
        .groups
        .iter()
        .any(|g| group == *g || group.strip_suffix(g).is_some_and(|p| p.ends_with('.')))
}

fn namespace_in(namespace: &str, family: &Family) -> bool {
    family
        .namespaces
        .iter()
        .any(|n| namespace == *n || namespace.strip_suffix(n).is_some_and(|p| p.ends_with('-')))
}

/// The families that can be foreign to a project with these own groups.
fn foreign_families(own: &BTreeSet<String>) -> Vec<&'static Family> {
    FAMILIES
        .iter()
        .filter(|f| !own.iter().any(|g| group_in(g, f)))
        .collect()
}

/// Whether a CRD of `group` is bundled in a project with these own groups.
pub fn crd_is_bundled(group: &str, own: &BTreeSet<String>) -> bool {
    !own.contains(group)
}

/// Evidence that an object belongs to another project: (project, evidence, identity?).
fn evidence(
    o: &ObjectId,
    families: &[&'static Family],
    own: &BTreeSet<String>,
) -> Option<(String, String, bool)> {
    let family_of_group = |g: &str| families.iter().find(|f| group_in(g, f));
    if o.kind == "CustomResourceDefinition" && o.group == "apiextensions.k8s.io" {
        if !crd_is_bundled(&o.crd_group, own) {
            return None;
        }
        let project = family_of_group(&o.crd_group)
            .map(|f| f.name.to_string())
            .unwrap_or_else(|| format!("API group {}", o.crd_group));
        return Some((
            project,
            format!(
                "CRD group {} is not declared by an in-repo Go API package",
                o.crd_group
            ),
            true,
        ));
    }
    if let Some(f) = families
        .iter()
        .find(|f| f.part_of.contains(&o.part_of.as_str()))
    {
        return Some((
            f.name.into(),
            format!("label app.kubernetes.io/part-of={}", o.part_of),
            true,
        ));
    }
    if o.kind == "Namespace" && o.group.is_empty() {
        if let Some(f) = families.iter().find(|f| namespace_in(&o.name, f)) {
            return Some((f.name.into(), format!("Namespace {}", o.name), true));
        }
    } else if let Some(f) = families.iter().find(|f| namespace_in(&o.namespace, f)) {
        return Some((f.name.into(), format!("namespace {}", o.namespace), false));
    }
    if let Some(f) = family_of_group(&o.group) {
        return Some((f.name.into(), format!("API group {}", o.group), false));
    }
    None
}

/// The folders whose objects all belong to another project, by folder.
pub fn bundled_dirs(
    objects_by_dir: &BTreeMap<String, Vec<ObjectId>>,
    own: &BTreeSet<String>,
) -> Vec<Bundle> {
    let families = foreign_families(own);
    let mut out = Vec::new();
    for (dir, objects) in objects_by_dir {
        if objects.is_empty() {
            continue;
        }
        let mut projects: BTreeMap<String, usize> = BTreeMap::new();
        let mut texts: BTreeSet<String> = BTreeSet::new();
        let mut identity = false;
        let mut all = true;
        for o in objects {
            match evidence(o, &families, own) {
                Some((project, text, is_identity)) => {
                    *projects.entry(project).or_default() += 1;
                    texts.insert(text);
                    identity |= is_identity;
                }
                None => {
                    all = false;
                    break;
                }
            }
        }
        if !(all && identity) {
            continue;
        }
        let mut ranked: Vec<(String, usize)> = projects.into_iter().collect();
        ranked.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        out.push(Bundle {
            dir: dir.clone(),
            project: ranked
                .iter()
                .map(|(p, _)| p.as_str())
                .collect::<Vec<_>>()
                .join(", "),
            objects: objects.len(),
            evidence: texts.into_iter().take(6).collect(),
        });
    }
    out
}

#[cfg(test)]
mod tests;
