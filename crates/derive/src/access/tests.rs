use super::*;
use model::{Area, Controller, Operation, Origin, Relation, RoleBinding, Watch, Workload};

fn rule(role: &str, group: &str, resource: &str, verbs: &[&str]) -> RbacRule {
    RbacRule {
        role: role.into(),
        groups: vec![group.into()],
        resources: vec![resource.into()],
        resource_names: Vec::new(),
        verbs: verbs.iter().map(|v| v.to_string()).collect(),
        origin: Origin::Manifest,
        templated: false,
        bundled: false,
        area: Area::Component,
        sources: vec![SourceRef::new("config/rbac/role.yaml", 1)],
    }
}

fn project() -> Project {
    Project {
        findings: model::Findings {
            controllers: vec![Controller {
                shape: Default::default(),
                entries: Vec::new(),
                conditions: Vec::new(),
                client_calls: None,
                reads: vec![
                    Operation {
                        via: vec![model::CallStep {
                            function: "pool.helper.lookup".into(),
                            file: "c.go".into(),
                            line: 5,
                        }],
                        condition: String::new(),
                        verb: model::Verb::Get,
                        group: "".into(),
                        version: "v1".into(),
                        kind: "Service".into(),
                        sources: vec![SourceRef::new("h.go", 7)],
                    },
                    Operation {
                        via: Vec::new(),
                        condition: "if cfg.Enabled".into(),
                        verb: model::Verb::List,
                        group: "".into(),
                        version: "v1".into(),
                        kind: "ConfigMap".into(),
                        sources: vec![SourceRef::new("c.go", 8)],
                    },
                    // A read of a kind known only at run time: never a need.
                    Operation {
                        via: Vec::new(),
                        condition: String::new(),
                        verb: model::Verb::Get,
                        group: UNRESOLVED.into(),
                        version: String::new(),
                        kind: String::new(),
                        sources: vec![SourceRef::new("c.go", 9)],
                    },
                ],
                name: "pool".into(),
                reconciler: "PoolReconciler".into(),
                area: Area::Component,
                sources: Vec::new(),
                watches: vec![Watch {
                    condition: String::new(),
                    relation: Relation::For,
                    group: "apps".into(),
                    version: "v1".into(),
                    kind: "Deployment".into(),
                    conditional: false,
                    import_path: None,
                    raw_source: false,
                    sources: vec![SourceRef::new("c.go", 10)],
                }],
                operations: vec![
                    Operation {
                        via: Vec::new(),
                        condition: String::new(),
                        verb: model::Verb::Create,
                        group: "".into(),
                        version: "v1".into(),
                        kind: "Service".into(),
                        sources: vec![SourceRef::new("c.go", 20)],
                    },
                    Operation {
                        via: Vec::new(),
                        condition: String::new(),
                        verb: model::Verb::StatusUpdate,
                        group: "apps".into(),
                        version: "v1".into(),
                        kind: "Deployment".into(),
                        sources: vec![SourceRef::new("c.go", 30)],
                    },
                    Operation {
                        via: Vec::new(),
                        condition: String::new(),
                        verb: model::Verb::Patch,
                        group: "x.io".into(),
                        version: "v1".into(),
                        kind: "Unknown".into(),
                        sources: vec![SourceRef::new("c.go", 40)],
                    },
                ],
            }],
            rbac: vec![
                rule(
                    "ClusterRole/manager",
                    "apps",
                    "deployments",
                    &["get", "list", "watch", "delete"],
                ),
                rule("ClusterRole/manager", "", "services", &["get", "create"]),
                rule("ClusterRole/other", "", "services", &["update"]),
                rule("ClusterRole/manager", "", "secrets", &["get", "list"]),
            ],
            ..Default::default()
        },
        ..Project::default()
    }
}

#[test]
fn missing_and_unused_grants_against_the_union() {
    let report = check(&project(), &ResourceNames::new(&[]));
    assert_eq!(report.basis.service_account, "");
    type Row<'r> = (
        &'r str,
        &'r str,
        Option<&'r str>,
        Vec<&'r str>,
        Vec<&'r str>,
    );
    let rows: Vec<Row> = report
        .rows
        .iter()
        .map(|r| {
            (
                r.who.as_str(),
                r.kind.as_str(),
                r.resource.as_deref(),
                r.granted.iter().map(String::as_str).collect(),
                r.missing.iter().map(String::as_str).collect(),
            )
        })
        .collect();
    assert_eq!(
        rows,
        vec![
            (
                "pool",
                "ConfigMap",
                Some("configmaps"),
                vec![],
                vec!["list"]
            ),
            (
                "pool",
                "Service",
                Some("services"),
                vec!["get", "create", "update"],
                vec![]
            ),
            (
                "pool",
                "Deployment",
                Some("deployments"),
                vec!["get", "list", "watch", "delete"],
                vec![]
            ),
            (
                "pool",
                "Deployment",
                Some("deployments/status"),
                vec![],
                vec!["update"]
            ),
            // No plural known for x.io Unknown: not compared.
            ("pool", "Unknown", None, vec![], vec![]),
        ]
    );
    let unused: Vec<(&str, &str, Vec<&str>)> = report
        .unused
        .iter()
        .map(|u| {
            (
                u.role.as_str(),
                u.resource.as_str(),
                u.verbs.iter().map(String::as_str).collect(),
            )
        })
        .collect();
    assert_eq!(
        unused,
        vec![
            ("ClusterRole/manager", "apps/deployments", vec!["delete"]),
            // The read of Services counts: `get` on services is used.
            ("ClusterRole/other", "services", vec!["update"]),
            ("ClusterRole/manager", "secrets", vec!["get", "list"]),
        ]
    );
    assert_eq!(
        report.unused[2].note,
        "reads of kinds not resolved (dynamic client, unstructured) and reads outside controllers are not counted"
    );
    let service = &report.rows[1];
    let needs: Vec<(&str, &str)> = service
        .needs
        .iter()
        .map(|n| (n.verb.as_str(), n.why.as_str()))
        .collect();
    assert_eq!(needs, [("create", "write create"), ("get", "read get")]);
}

#[test]
fn the_bound_service_account_narrows_the_rules() {
    let mut p = project();
    p.findings.workloads = vec![Workload {
        kind: "Deployment".into(),
        name: "manager".into(),
        namespace: "system".into(),
        replicas: String::new(),
        service_account: "manager".into(),
        ..Workload::default()
    }];
    p.findings.role_bindings = vec![RoleBinding {
        kind: "ClusterRoleBinding".into(),
        name: "manager".into(),
        namespace: String::new(),
        role: "ClusterRole/manager".into(),
        subjects: vec!["ServiceAccount system/manager".into()],
        templated: false,
        bundled: false,
        area: Area::Component,
        sources: Vec::new(),
    }];
    let report = check(&p, &ResourceNames::new(&[]));
    assert_eq!(
        report.basis.service_account,
        "ServiceAccount system/manager"
    );
    assert_eq!(report.basis.roles, vec!["ClusterRole/manager".to_string()]);
    let service = &report.rows[1];
    assert_eq!(
        service.granted,
        vec!["get".to_string(), "create".to_string()]
    );
    assert!(service.missing.is_empty());
    // ClusterRole/other is not bound: its grant is neither counted nor listed.
    assert!(
        report
            .unused
            .iter()
            .all(|u| u.role == "ClusterRole/manager")
    );

    // A bound role that is not in the repository: back to the union, with the reason.
    p.findings.role_bindings[0].role = "ClusterRole/cluster-admin".into();
    let report = check(&p, &ResourceNames::new(&[]));
    assert_eq!(report.basis.service_account, "");
    assert!(
        report
            .basis
            .reason
            .contains("bound to ClusterRole/cluster-admin, whose rules are not in the repository")
    );
}
