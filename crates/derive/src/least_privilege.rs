//! Least privilege per controller: the smallest RBAC rules that let a controller do what
//! its code was seen to do, each verb traced to the code that needs it, written as
//! `+kubebuilder:rbac` markers and as a ClusterRole.
//!
//! Stage: link (a pure function of one project and the portal's resource names, like
//! `access`); the security page renders the result.
//!
//! What a controller needs: `get`, `list` and `watch` on every kind it watches (the cache
//! needs all three), the verb of every read it makes through a client, and the verbs of
//! every write as `access::write_verbs` maps them (`apply` → `patch`, `delete_all_of` →
//! `deletecollection`, `create_or_update` → `get` + `create` + `update`, status writes on
//! `KIND/status`). **Invariant:** nothing is guessed: a kind whose resource name (plural)
//! is not known is listed in `unknown`, never put in a rule, and calls of unresolved kinds
//! are only counted. The rules cover what the analyzer saw, so they are a lower bound: what
//! the manager itself does (leader election, events) is not in them.

use std::collections::{BTreeMap, BTreeSet};

use crate::access::{read_verbs, write_verbs};
use kubernetes::resources::ResourceNames;
use model::{CallStep, Project, SourceRef, UNRESOLVED};

/// One place in the code that needs a verb.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Trace {
    /// `watch (For)`, `read get`, `write create_or_update`.
    pub why: String,
    pub sources: Vec<SourceRef>,
    /// The call path from `Reconcile` to the call (empty for watches and calls in `Reconcile`).
    pub via: Vec<CallStep>,
}

/// One verb on one resource, with every place that needs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerbNeed {
    pub group: String,
    pub kind: String,
    /// `deployments` or `deployments/status`.
    pub resource: String,
    pub verb: String,
    pub traces: Vec<Trace>,
}

/// A kind the controller uses whose resource name is not known: left out of the rules.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Unknown {
    pub group: String,
    pub kind: String,
    /// `status` when the unknown resource is the kind's status subresource.
    pub subresource: Option<String>,
    pub verbs: Vec<String>,
    pub traces: Vec<Trace>,
}

/// A rule: one API group, resources that need exactly the same verbs.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Rule {
    pub group: String,
    pub resources: Vec<String>,
    /// Sorted alphabetically, as controller-gen writes them.
    pub verbs: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Privileges {
    pub controller: String,
    /// The controller's position in the project's `controllers`: several controllers
    /// may share a name.
    pub index: usize,
    /// Sorted by group, resource, verb.
    pub needs: Vec<VerbNeed>,
    pub rules: Vec<Rule>,
    pub unknown: Vec<Unknown>,
    /// Watches, reads and writes whose kind is not resolved (see the diagnostics).
    pub unresolved: usize,
}

/// The least privileges of each component controller of `p`, in the project's order.
pub fn derive(p: &Project, names: &ResourceNames) -> Vec<Privileges> {
    p.findings
        .controllers
        .iter()
        .enumerate()
        .filter(|(_, c)| c.area.is_component())
        .map(|(index, c)| controller(index, c, names))
        .collect()
}

fn controller(index: usize, c: &model::Controller, names: &ResourceNames) -> Privileges {
    // (group, kind, subresource) → verb → traces
    type Key = (String, String, Option<&'static str>);
    let mut by_kind: BTreeMap<Key, BTreeMap<String, BTreeSet<Trace>>> = BTreeMap::new();
    let mut unresolved = 0;
    let mut add = |group: &str, kind: &str, sub, verb: &str, trace: &Trace| {
        by_kind
            .entry((group.to_string(), kind.to_string(), sub))
            .or_default()
            .entry(verb.to_string())
            .or_default()
            .insert(trace.clone());
    };
    for w in &c.watches {
        if !w.is_resolved() {
            unresolved += 1;
            continue;
        }
        let trace = Trace {
            why: format!("watch ({})", w.relation.label()),
            sources: w.sources.clone(),
            via: Vec::new(),
        };
        for verb in ["get", "list", "watch"] {
            add(&w.group, &w.kind, None, verb, &trace);
        }
    }
    for (o, is_read) in c
        .reads
        .iter()
        .map(|o| (o, true))
        .chain(c.operations.iter().map(|o| (o, false)))
    {
        if o.group == UNRESOLVED {
            unresolved += 1;
            continue;
        }
        let (verbs, sub) = if is_read {
            (read_verbs(&o.verb), None)
        } else {
            write_verbs(&o.verb)
        };
        let trace = Trace {
            why: format!("{} {}", if is_read { "read" } else { "write" }, o.verb),
            sources: o.sources.clone(),
            via: o.via.clone(),
        };
        for verb in verbs {
            add(&o.group, &o.kind, sub, verb, &trace);
        }
    }

    let mut needs = Vec::new();
    let mut unknown = Vec::new();
    for ((group, kind, sub), verbs) in by_kind {
        let Some(plural) = names.plural_of(&group, &kind) else {
            let mut traces: Vec<Trace> = verbs.values().flatten().cloned().collect();
            traces.sort();
            traces.dedup();
            unknown.push(Unknown {
                group,
                kind,
                subresource: sub.map(str::to_string),
                verbs: verbs.keys().cloned().collect(),
                traces,
            });
            continue;
        };
        let resource = match sub {
            Some(s) => format!("{plural}/{s}"),
            None => plural.to_string(),
        };
        for (verb, traces) in verbs {
            needs.push(VerbNeed {
                group: group.clone(),
                kind: kind.clone(),
                resource: resource.clone(),
                verb,
                traces: traces.into_iter().collect(),
            });
        }
    }
    needs.sort_by(|a, b| {
        (&a.group, &a.resource, &a.verb, &a.kind).cmp(&(&b.group, &b.resource, &b.verb, &b.kind))
    });
    Privileges {
        controller: c.name.clone(),
        index,
        rules: rules(&needs),
        needs,
        unknown,
        unresolved,
    }
}

/// The needs as rules: per group, the resources with identical verb sets share a rule.
pub fn rules(needs: &[VerbNeed]) -> Vec<Rule> {
    let mut verbs: BTreeMap<(&str, &str), BTreeSet<&str>> = BTreeMap::new();
    for n in needs {
        verbs
            .entry((&n.group, &n.resource))
            .or_default()
            .insert(&n.verb);
    }
    let mut rules: BTreeMap<(&str, Vec<&str>), Vec<String>> = BTreeMap::new();
    for ((group, resource), verbs) in verbs {
        rules
            .entry((group, verbs.into_iter().collect()))
            .or_default()
            .push(resource.to_string());
    }
    let mut out: Vec<Rule> = rules
        .into_iter()
        .map(|((group, verbs), resources)| Rule {
            group: group.to_string(),
            resources,
            verbs: verbs.into_iter().map(str::to_string).collect(),
        })
        .collect();
    out.sort();
    out
}

/// The rules as `+kubebuilder:rbac` marker lines (`groups=core` for the core group, as
/// kubebuilder's scaffolding writes it).
pub fn markers(rules: &[Rule]) -> Vec<String> {
    rules
        .iter()
        .map(|r| {
            format!(
                "// +kubebuilder:rbac:groups={},resources={},verbs={}",
                marker_value(if r.group.is_empty() { "core" } else { &r.group }),
                r.resources
                    .iter()
                    .map(|s| marker_value(s))
                    .collect::<Vec<_>>()
                    .join(";"),
                r.verbs.join(";")
            )
        })
        .collect()
}

/// A value inside a marker: names from CRDs are repository text, so anything a marker
/// gives meaning to (`,`, `;`, `=`, quotes, spaces, newlines) is replaced by `_`.
fn marker_value(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || ".-/*".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// The rules as a ClusterRole named `PROJECT-CONTROLLER-least-privilege`, with a comment
/// for each kind left out because its resource name is not known.
pub fn cluster_role(project: &str, p: &Privileges) -> String {
    let mut out = String::from("apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\n");
    out.push_str(&format!(
        "metadata:\n  name: {}\n",
        object_name(&format!("{project}-{}-least-privilege", p.controller))
    ));
    for u in &p.unknown {
        out.push_str(&format!(
            "# not included: {} ({}){}: resource name unknown; needs {}\n",
            comment(&u.kind),
            comment(if u.group.is_empty() { "core" } else { &u.group }),
            u.subresource
                .as_deref()
                .map(|s| format!(" subresource {}", comment(s)))
                .unwrap_or_default(),
            u.verbs.join(", ")
        ));
    }
    if p.rules.is_empty() {
        out.push_str("rules: []\n");
        return out;
    }
    out.push_str("rules:\n");
    for r in &p.rules {
        out.push_str(&format!("- apiGroups:\n  - {}\n", yaml_scalar(&r.group)));
        out.push_str("  resources:\n");
        for res in &r.resources {
            out.push_str(&format!("  - {}\n", yaml_scalar(res)));
        }
        out.push_str("  verbs:\n");
        for v in &r.verbs {
            out.push_str(&format!("  - {}\n", yaml_scalar(v)));
        }
    }
    out
}

/// A YAML scalar: plain when it is a simple lowercase name, else double-quoted as JSON
/// (valid YAML), so repository text can never change the document's structure.
fn yaml_scalar(s: &str) -> String {
    let plain = !s.is_empty()
        && s.starts_with(|c: char| c.is_ascii_lowercase() || c.is_ascii_digit())
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || ".-/".contains(c));
    if plain {
        s.to_string()
    } else {
        serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
    }
}

/// Text for a YAML comment: one line.
fn comment(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// A Kubernetes object name: lowercase letters, digits, `-` and `.`, at most 253.
fn object_name(s: &str) -> String {
    let name: String = s
        .to_lowercase()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '.' {
                c
            } else {
                '-'
            }
        })
        .take(253)
        .collect();
    name.trim_matches(|c| c == '-' || c == '.').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use model::{Area, Controller, Operation, Relation, Watch};

    fn op(verb: &str, group: &str, kind: &str, line: u32, via: &[&str]) -> Operation {
        Operation {
            verb: verb.into(),
            group: group.into(),
            version: "v1".into(),
            kind: kind.into(),
            sources: vec![SourceRef::new("r.go", line)],
            via: via
                .iter()
                .enumerate()
                .map(|(i, f)| CallStep {
                    function: f.to_string(),
                    file: "c.go".into(),
                    line: 10 + i as u32,
                })
                .collect(),
            condition: String::new(),
        }
    }

    fn project() -> Project {
        let watch = |relation, group: &str, kind: &str| Watch {
            relation,
            group: group.into(),
            version: "v1".into(),
            kind: kind.into(),
            conditional: false,
            condition: String::new(),
            import_path: None,
            raw_source: false,
            sources: vec![SourceRef::new("setup.go", 3)],
        };
        let mut unresolved = watch(Relation::Watches, UNRESOLVED, "Thing");
        unresolved.import_path = Some("example.com/other/api".into());
        Project {
            name: "demo".into(),
            findings: model::Findings {
                controllers: vec![
                    Controller {
                        conditions: Vec::new(),
                        name: "pool".into(),
                        reconciler: "PoolReconciler".into(),
                        area: Area::Component,
                        sources: Vec::new(),
                        watches: vec![
                            watch(Relation::For, "apps", "Deployment"),
                            watch(Relation::Owns, "", "Service"),
                            unresolved,
                        ],
                        reads: vec![
                            op("get", "", "ConfigMap", 5, &["pool.Loader.Load"]),
                            op("list", "", "Service", 6, &[]),
                            op("get", UNRESOLVED, "", 7, &[]),
                        ],
                        operations: vec![
                            op(
                                "create_or_update",
                                "",
                                "ConfigMap",
                                20,
                                &["pool.Loader.Load", "pool.Loader.store"],
                            ),
                            op("apply", "apps", "Deployment", 21, &[]),
                            op("status_update", "apps", "Deployment", 22, &[]),
                            op("delete_all_of", "", "Service", 23, &[]),
                            op("delete", "x.io", "Gadget", 24, &[]),
                        ],
                    },
                    // A sample controller has no least privilege of its own.
                    Controller {
                        conditions: Vec::new(),
                        name: "example".into(),
                        reconciler: String::new(),
                        area: Area::Samples,
                        sources: Vec::new(),
                        watches: vec![watch(Relation::For, "", "Pod")],
                        reads: Vec::new(),
                        operations: Vec::new(),
                    },
                ],
                ..Default::default()
            },
            ..Project::default()
        }
    }

    #[test]
    fn needs_become_minimal_rules_with_every_verb_traced() {
        let all = derive(&project(), &ResourceNames::new(&[]));
        assert_eq!(all.len(), 1);
        let p = &all[0];
        assert_eq!(p.controller, "pool");
        let needs: Vec<(&str, &str, Vec<&str>)> = p
            .needs
            .iter()
            .map(|n| {
                (
                    n.resource.as_str(),
                    n.verb.as_str(),
                    n.traces.iter().map(|t| t.why.as_str()).collect(),
                )
            })
            .collect();
        assert_eq!(
            needs,
            vec![
                ("configmaps", "create", vec!["write create_or_update"]),
                (
                    "configmaps",
                    "get",
                    vec!["read get", "write create_or_update"]
                ),
                ("configmaps", "update", vec!["write create_or_update"]),
                ("services", "deletecollection", vec!["write delete_all_of"]),
                ("services", "get", vec!["watch (Owns)"]),
                ("services", "list", vec!["read list", "watch (Owns)"]),
                ("services", "watch", vec!["watch (Owns)"]),
                ("deployments", "get", vec!["watch (For)"]),
                ("deployments", "list", vec!["watch (For)"]),
                ("deployments", "patch", vec!["write apply"]),
                ("deployments", "watch", vec!["watch (For)"]),
                ("deployments/status", "update", vec!["write status_update"]),
            ]
        );
        // The trace keeps the call path.
        let create = &p.needs[0].traces[0];
        assert_eq!(create.sources, vec![SourceRef::new("r.go", 20)]);
        assert_eq!(
            create
                .via
                .iter()
                .map(|s| s.function.as_str())
                .collect::<Vec<_>>(),
            ["pool.Loader.Load", "pool.Loader.store"]
        );
        assert_eq!(
            p.rules,
            vec![
                Rule {
                    group: "".into(),
                    resources: vec!["configmaps".into()],
                    verbs: vec!["create".into(), "get".into(), "update".into()],
                },
                Rule {
                    group: "".into(),
                    resources: vec!["services".into()],
                    verbs: vec![
                        "deletecollection".into(),
                        "get".into(),
                        "list".into(),
                        "watch".into()
                    ],
                },
                Rule {
                    group: "apps".into(),
                    resources: vec!["deployments".into()],
                    verbs: vec!["get".into(), "list".into(), "patch".into(), "watch".into()],
                },
                Rule {
                    group: "apps".into(),
                    resources: vec!["deployments/status".into()],
                    verbs: vec!["update".into()],
                },
            ]
        );
        // x.io Gadget has no known plural: listed, never guessed.
        assert_eq!(
            p.unknown,
            vec![Unknown {
                group: "x.io".into(),
                kind: "Gadget".into(),
                subresource: None,
                verbs: vec!["delete".into()],
                traces: vec![Trace {
                    why: "write delete".into(),
                    sources: vec![SourceRef::new("r.go", 24)],
                    via: Vec::new(),
                }],
            }]
        );
        // The unresolved watch and the unresolved read.
        assert_eq!(p.unresolved, 2);
    }

    #[test]
    fn resources_with_the_same_verbs_share_a_rule() {
        let need = |group: &str, resource: &str, verb: &str| VerbNeed {
            group: group.into(),
            kind: String::new(),
            resource: resource.into(),
            verb: verb.into(),
            traces: Vec::new(),
        };
        let rules = rules(&[
            need("", "services", "get"),
            need("", "services", "list"),
            need("", "configmaps", "list"),
            need("", "configmaps", "get"),
            need("", "secrets", "get"),
            need("apps", "deployments", "get"),
            need("apps", "deployments", "list"),
        ]);
        assert_eq!(
            markers(&rules),
            [
                "// +kubebuilder:rbac:groups=core,resources=configmaps;services,verbs=get;list",
                "// +kubebuilder:rbac:groups=core,resources=secrets,verbs=get",
                "// +kubebuilder:rbac:groups=apps,resources=deployments,verbs=get;list",
            ]
        );
    }

    #[test]
    fn the_cluster_role_is_exact_yaml() {
        let all = derive(&project(), &ResourceNames::new(&[]));
        assert_eq!(
            cluster_role("demo", &all[0]),
            r#"apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: demo-pool-least-privilege
# not included: Gadget (x.io): resource name unknown; needs delete
rules:
- apiGroups:
  - ""
  resources:
  - configmaps
  verbs:
  - create
  - get
  - update
- apiGroups:
  - ""
  resources:
  - services
  verbs:
  - deletecollection
  - get
  - list
  - watch
- apiGroups:
  - apps
  resources:
  - deployments
  verbs:
  - get
  - list
  - patch
  - watch
- apiGroups:
  - apps
  resources:
  - deployments/status
  verbs:
  - update
"#
        );
    }

    #[test]
    fn repository_text_cannot_change_the_yaml_or_the_markers() {
        let p = Privileges {
            controller: "Odd Name\n".into(),
            index: 0,
            needs: Vec::new(),
            rules: vec![Rule {
                group: "x.io\nkind: Secret".into(),
                resources: vec!["gadgets;verbs=*".into()],
                verbs: vec!["get".into()],
            }],
            unknown: vec![Unknown {
                group: "y.io".into(),
                kind: "Bad\nrules: []".into(),
                subresource: None,
                verbs: vec!["get".into()],
                traces: Vec::new(),
            }],
            unresolved: 0,
        };
        assert_eq!(
            cluster_role("Demo", &p),
            "apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: demo-odd-name--least-privilege
# not included: Bad rules: [] (y.io): resource name unknown; needs get
rules:
- apiGroups:
  - \"x.io\\nkind: Secret\"
  resources:
  - \"gadgets;verbs=*\"
  verbs:
  - get
"
        );
        assert_eq!(
            markers(&p.rules),
            ["// +kubebuilder:rbac:groups=x.io_kind__Secret,resources=gadgets_verbs_*,verbs=get"]
        );
    }
}
