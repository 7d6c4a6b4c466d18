use super::*;
use model::{Area, Controller, Operation, Relation, Watch};

fn op(verb: model::Verb, group: &str, kind: &str, line: u32, via: &[&str]) -> Operation {
    Operation {
        verb,
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
                    shape: Default::default(),
                    entries: Vec::new(),
                    conditions: Vec::new(),
                    client_calls: None,
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
                        op(model::Verb::Get, "", "ConfigMap", 5, &["pool.Loader.Load"]),
                        op(model::Verb::List, "", "Service", 6, &[]),
                        op(model::Verb::Get, UNRESOLVED, "", 7, &[]),
                    ],
                    operations: vec![
                        op(
                            model::Verb::CreateOrUpdate,
                            "",
                            "ConfigMap",
                            20,
                            &["pool.Loader.Load", "pool.Loader.store"],
                        ),
                        op(model::Verb::Apply, "apps", "Deployment", 21, &[]),
                        op(model::Verb::StatusUpdate, "apps", "Deployment", 22, &[]),
                        op(model::Verb::DeleteAllOf, "", "Service", 23, &[]),
                        op(model::Verb::Delete, "x.io", "Gadget", 24, &[]),
                    ],
                },
                // A sample controller has no least privilege of its own.
                Controller {
                    shape: Default::default(),
                    entries: Vec::new(),
                    conditions: Vec::new(),
                    client_calls: None,
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
# Lower bound: this controller's client calls were not counted, so rules for calls the analyzer did not see may be missing.
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
        completeness: Completeness {
            complete: false,
            note: "Lower bound: no Reconcile method of R\nrules: [] was found".into(),
        },
    };
    assert_eq!(
        cluster_role("Demo", &p),
        "apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: demo-odd-name--least-privilege
# Lower bound: no Reconcile method of R rules: [] was found
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

/// A controller of `project()`'s shape with these client calls and watches of resolved
/// kinds only.
fn counted_controller(calls: Option<model::ClientCalls>) -> Controller {
    let mut c = project().findings.controllers[0].clone();
    c.watches.retain(|w| w.is_resolved());
    c.operations.retain(|o| o.group != "x.io");
    c.client_calls = calls;
    c
}

fn unresolved_call(verb: model::Verb, line: u32) -> model::UnresolvedCall {
    model::UnresolvedCall {
        verb,
        sources: vec![SourceRef::new("r.go", line)],
        reason: "cannot tell the kind".into(),
    }
}

#[test]
fn completeness_names_what_is_missing() {
    let note = |c: &Controller, unknown: &[Unknown]| {
        let c = completeness(c, unknown);
        (c.complete, c.note)
    };
    let calls = |found, unresolved: Vec<model::UnresolvedCall>, incomplete: &str| {
        Some(model::ClientCalls {
            found,
            resolved: found - unresolved.len(),
            unresolved,
            incomplete: incomplete.into(),
        })
    };
    assert_eq!(
        note(&counted_controller(calls(6, Vec::new(), "")), &[]),
        (
            true,
            "Complete: every client call this controller's Reconcile reaches was resolved (6 calls).".into()
        )
    );
    let unresolved = vec![
        unresolved_call(model::Verb::Update, 30),
        unresolved_call(model::Verb::Delete, 31),
        unresolved_call(model::Verb::Update, 32),
    ];
    assert_eq!(
        note(&counted_controller(calls(9, unresolved, "")), &[]),
        (
            false,
            "Lower bound: 3 client calls in this controller's reach were not resolved to a kind (delete, update ×2): rules for them are missing.".into()
        )
    );
    assert_eq!(
        note(&counted_controller(calls(0, Vec::new(), "")), &[]),
        (
            false,
            "Lower bound: no client calls were found in this controller's reach, so the role holds only its cache's reads.".into()
        )
    );
    assert_eq!(
        note(
            &counted_controller(calls(
                0,
                Vec::new(),
                "no Reconcile method of PoolReconciler was found, so no call from it was followed"
            )),
            &[]
        ),
        (
            false,
            "Lower bound: no Reconcile method of PoolReconciler was found, so no call from it was followed: calls beyond it are not counted.".into()
        )
    );
    // project()'s own controller: an unresolved watch and a kind without a plural, on
    // top of one unresolved call.
    let mut pool = project().findings.controllers[0].clone();
    pool.client_calls = calls(8, vec![unresolved_call(model::Verb::Get, 7)], "");
    let all = derive(
        &Project {
            findings: model::Findings {
                controllers: vec![pool],
                ..Default::default()
            },
            ..Project::default()
        },
        &ResourceNames::new(&[]),
    );
    assert_eq!(
        all[0].completeness.note,
        "Lower bound: 1 client call in this controller's reach was not resolved to a kind (get): rules for it are missing; 1 watch of an unresolved kind: its get, list and watch rules are missing; 1 kind is left out because its resource name is not known."
    );
}
