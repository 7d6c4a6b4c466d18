use super::*;
use model::{
    Area, Controller, Crd, Gvk, Operation, Origin, PackageOperation, RbacRule, Watch, Webhook,
    WebhookRule, WebhookType,
};

fn src(file: &str, line: u32) -> Vec<SourceRef> {
    vec![SourceRef::new(file, line)]
}

fn operator() -> Project {
    Project {
        name: "operator".into(),
        findings: model::Findings {
            crds: vec![Crd {
                group: "pools.io".into(),
                kind: "Pool".into(),
                plural: "pools".into(),
                sources: src("config/crd/pools.yaml", 3),
                ..Crd::default()
            }],
            controllers: vec![Controller {
                shape: Default::default(),
                entries: Vec::new(),
                conditions: Vec::new(),
                client_calls: None,
                reads: Vec::new(),
                name: "server".into(),
                reconciler: "ServerReconciler".into(),
                area: Area::Component,
                sources: Vec::new(),
                watches: Vec::new(),
                operations: vec![
                    Operation {
                        via: Vec::new(),
                        condition: String::new(),
                        verb: model::Verb::Create,
                        group: "pools.io".into(),
                        version: "v1".into(),
                        kind: "Pool".into(),
                        sources: src("server.go", 40),
                    },
                    Operation {
                        via: Vec::new(),
                        condition: String::new(),
                        verb: model::Verb::Create,
                        group: "pools.io".into(),
                        version: "v1".into(),
                        kind: "Pool".into(),
                        sources: src("server.go", 12),
                    },
                    Operation {
                        via: Vec::new(),
                        condition: String::new(),
                        verb: model::Verb::Delete,
                        group: UNRESOLVED.into(),
                        version: String::new(),
                        kind: "Thing".into(),
                        sources: src("server.go", 50),
                    },
                ],
            }],
            package_operations: vec![PackageOperation {
                package: "pkg/pools".into(),
                function: "Ensure".into(),
                verb: model::Verb::Patch,
                group: "pools.io".into(),
                version: "v1".into(),
                kind: "Pool".into(),
                area: Area::Component,
                sources: src("pkg/pools/ensure.go", 7),
            }],
            webhooks: vec![Webhook {
                name: "vpool.pools.io".into(),
                kind: WebhookType::Validating,
                path: "/validate".into(),
                failure_policy: "Fail".into(),
                service: String::new(),
                configuration: "vcfg".into(),
                origin: Origin::Manifest,
                object: None,
                rules: vec![WebhookRule {
                    operations: vec!["CREATE".into()],
                    groups: vec!["pools.io".into()],
                    versions: vec!["v1".into()],
                    resources: vec!["pools".into(), "gizmos".into()],
                    scope: String::new(),
                }],
                resolved_service: String::new(),
                substitutions: Vec::new(),
                templated: false,
                bundled: false,
                area: Area::Component,
                sources: src("config/webhook.yaml", 9),
            }],
            rbac: vec![
                RbacRule {
                    role: "ClusterRole/manager".into(),
                    groups: vec!["pools.io".into()],
                    resources: vec!["pools/status".into()],
                    resource_names: Vec::new(),
                    verbs: vec!["update".into()],
                    origin: Origin::Marker,
                    templated: false,
                    bundled: false,
                    area: Area::Component,
                    sources: src("server.go", 5),
                },
                RbacRule {
                    role: "ClusterRole/admin".into(),
                    groups: vec!["pools.io".into()],
                    resources: vec!["*".into()],
                    resource_names: Vec::new(),
                    verbs: vec!["*".into()],
                    origin: Origin::Manifest,
                    templated: false,
                    bundled: false,
                    area: Area::Component,
                    sources: src("config/admin.yaml", 8),
                },
            ],
            ..Default::default()
        },
        ..Project::default()
    }
}

fn scheduler() -> Project {
    Project {
        name: "scheduler".into(),
        findings: model::Findings {
            crds: vec![Crd {
                group: "pools.io".into(),
                kind: "Pool".into(),
                plural: "pools".into(),
                bundled: true,
                sources: src("deploy/crds.yaml", 1),
                ..Crd::default()
            }],
            controllers: vec![Controller {
                shape: Default::default(),
                entries: Vec::new(),
                conditions: Vec::new(),
                client_calls: None,
                reads: Vec::new(),
                name: "pool".into(),
                reconciler: "PoolReconciler".into(),
                area: Area::Component,
                sources: Vec::new(),
                watches: vec![Watch {
                    condition: String::new(),
                    relation: Relation::For,
                    group: "pools.io".into(),
                    version: "v1".into(),
                    kind: "Pool".into(),
                    conditional: false,
                    import_path: None,
                    raw_source: false,
                    sources: src("pool.go", 20),
                }],
                operations: Vec::new(),
            }],
            webhooks: vec![Webhook {
                name: String::new(),
                kind: WebhookType::Mutating,
                path: "/mutate-pool".into(),
                failure_policy: String::new(),
                service: String::new(),
                configuration: String::new(),
                origin: Origin::Code,
                object: Some(Gvk {
                    group: "pools.io".into(),
                    version: "v1".into(),
                    kind: "Pool".into(),
                }),
                rules: Vec::new(),
                resolved_service: String::new(),
                substitutions: Vec::new(),
                templated: false,
                bundled: false,
                area: Area::Component,
                sources: src("hook.go", 3),
            }],
            ..Default::default()
        },
        ..Project::default()
    }
}

#[test]
fn every_way_a_project_touches_a_kind_is_indexed() {
    let (kinds, unresolved) = build(&[operator(), scheduler()]);
    assert_eq!(kinds.len(), 1);
    let pool = &kinds[0];
    assert_eq!(
        (pool.group.as_str(), pool.kind.as_str()),
        ("pools.io", "Pool")
    );
    assert_eq!(pool.defined_by, vec!["operator".to_string()]);
    // `pools.io` is in no table of portolan's: nobody outside is named.
    assert_eq!(pool.defined_outside, None);
    assert_eq!(
        pool.definitions,
        vec![
            KindDefinition {
                project: "operator".into(),
                how: "component".into(),
                sources: src("config/crd/pools.yaml", 3),
            },
            KindDefinition {
                project: "scheduler".into(),
                how: "bundled".into(),
                sources: src("deploy/crds.yaml", 1),
            },
        ]
    );
    assert_eq!(
        pool.watched_by,
        vec![KindWatcher {
            project: "scheduler".into(),
            controller: "pool".into(),
            relation: Relation::For,
            package: String::new(),
            sources: src("pool.go", 20),
        }]
    );
    assert_eq!(
        pool.written_by,
        vec![
            KindWriter {
                project: "operator".into(),
                controller: String::new(),
                package: "pkg/pools".into(),
                function: "Ensure".into(),
                verb: model::Verb::Patch,
                sources: src("pkg/pools/ensure.go", 7),
            },
            // Two creates by one controller: one row, both lines.
            KindWriter {
                project: "operator".into(),
                controller: "server".into(),
                package: String::new(),
                function: String::new(),
                verb: model::Verb::Create,
                sources: vec![
                    SourceRef::new("server.go", 12),
                    SourceRef::new("server.go", 40)
                ],
            },
        ]
    );
    assert_eq!(
        pool.webhooks,
        vec![
            KindWebhook {
                project: "operator".into(),
                webhook: "vpool.pools.io".into(),
                webhook_type: WebhookType::Validating,
                operations: vec!["CREATE".into()],
                origin: Origin::Manifest,
                sources: src("config/webhook.yaml", 9),
            },
            KindWebhook {
                project: "scheduler".into(),
                webhook: "/mutate-pool".into(),
                webhook_type: WebhookType::Mutating,
                operations: Vec::new(),
                origin: Origin::Code,
                sources: src("hook.go", 3),
            },
        ]
    );
    assert_eq!(
        pool.grants,
        vec![
            KindGrant {
                project: "operator".into(),
                role: "ClusterRole/admin".into(),
                resource: "*".into(),
                verbs: vec!["*".into()],
                wildcard: true,
                origin: Origin::Manifest,
                sources: src("config/admin.yaml", 8),
            },
            KindGrant {
                project: "operator".into(),
                role: "ClusterRole/manager".into(),
                resource: "pools/status".into(),
                verbs: vec!["update".into()],
                wildcard: false,
                origin: Origin::Marker,
                sources: src("server.go", 5),
            },
        ]
    );
    // `gizmos` is no known plural and the deleted Thing has no group: never guessed.
    assert_eq!(
        unresolved,
        vec![
            UnresolvedKind {
                project: "operator".into(),
                usage: "webhook".into(),
                what: "pools.io/gizmos".into(),
                by: "vpool.pools.io".into(),
                sources: src("config/webhook.yaml", 9),
            },
            UnresolvedKind {
                project: "operator".into(),
                usage: "write".into(),
                what: "delete Thing".into(),
                by: "server".into(),
                sources: src("server.go", 50),
            },
        ]
    );
}
