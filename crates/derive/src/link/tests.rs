use super::*;
use model::{Area, Controller, Crd, Operation, SourceRef, Watch};

fn crd(group: &str, kind: &str, bundled: bool) -> Crd {
    Crd {
        group: group.into(),
        kind: kind.into(),
        plural: String::new(),
        scope: "Namespaced".into(),
        versions: Vec::new(),
        short_names: Vec::new(),
        schema: Vec::new(),
        templated: false,
        bundled,
        area: Area::Component,
        sources: Vec::new(),
    }
}

#[test]
fn bundled_crds_do_not_make_a_project_define_a_kind() {
    let p = Project {
        name: "scheduler".into(),
        findings: model::Findings {
            crds: vec![
                crd("pools.example.io", "Pool", false),
                // The same kind twice (two contents) is one definition.
                crd("pools.example.io", "Pool", false),
                crd("gateway.networking.k8s.io", "Gateway", true),
            ],
            ..Default::default()
        },
        ..Project::default()
    };
    let portal = link("t", &[p]);
    let defined: Vec<(&str, &[String])> = portal
        .kinds
        .iter()
        .map(|k| (k.kind.as_str(), k.defined_by.as_slice()))
        .collect();
    // The bundled Gateway is indexed (its definitions say `bundled`), defined by no one.
    assert_eq!(
        defined,
        vec![
            ("Gateway", &[][..]),
            ("Pool", &["scheduler".to_string()][..])
        ]
    );
    assert_eq!(portal.kinds[0].definitions[0].how, "bundled");
    assert_eq!(portal.projects[0].counts.own.crds, 1);
}

fn watch(relation: Relation, group: &str, kind: &str) -> Watch {
    Watch {
        condition: String::new(),
        relation,
        group: group.into(),
        version: "v1".into(),
        kind: kind.into(),
        conditional: false,
        import_path: None,
        raw_source: false,
        sources: vec![SourceRef::new("a.go", 1)],
    }
}

fn controller(watches: Vec<Watch>, operations: Vec<Operation>) -> Controller {
    Controller {
        shape: Default::default(),
        entries: Vec::new(),
        conditions: Vec::new(),
        client_calls: None,
        reads: Vec::new(),
        name: "c".into(),
        reconciler: String::new(),
        area: Area::Component,
        sources: Vec::new(),
        watches,
        operations,
    }
}

fn op(verb: model::Verb, group: &str, kind: &str) -> Operation {
    Operation {
        via: Vec::new(),
        condition: String::new(),
        verb,
        group: group.into(),
        version: "v1".into(),
        kind: kind.into(),
        sources: Vec::new(),
    }
}

fn end(project: &str, how: &[&str]) -> ConnectionEnd {
    ConnectionEnd {
        project: project.into(),
        how: how.iter().map(|h| h.to_string()).collect(),
    }
}

fn kind(group: &str, kind: &str) -> ConnectionKind {
    ConnectionKind {
        group: group.into(),
        kind: kind.into(),
    }
}

#[test]
fn connections_join_writers_and_definers_to_watchers() {
    let operator = Project {
        name: "operator".into(),
        findings: model::Findings {
            crds: vec![crd("serving.example.io", "Model", false)],
            controllers: vec![controller(
                vec![
                    watch(Relation::For, "serving.example.io", "Model"),
                    watch(Relation::Owns, "routes.example.io", "Route"),
                ],
                vec![
                    op(model::Verb::Create, "pools.example.io", "Pool"),
                    op(model::Verb::Update, "pools.example.io", "Pool"),
                    // Kubernetes' own kinds never connect projects.
                    op(model::Verb::Create, "apps", "Deployment"),
                    op(model::Verb::Patch, UNRESOLVED, "?"),
                ],
            )],
            ..Default::default()
        },
        ..Project::default()
    };
    let scheduler = Project {
        name: "scheduler".into(),
        findings: model::Findings {
            crds: vec![
                crd("pools.example.io", "Pool", false),
                // A bundled copy of another project's CRD defines nothing.
                crd("serving.example.io", "Model", true),
            ],
            controllers: vec![controller(
                vec![
                    watch(Relation::For, "pools.example.io", "Pool"),
                    watch(Relation::Informer, "serving.example.io", "Model"),
                    watch(Relation::Owns, "apps", "Deployment"),
                    watch(Relation::Watches, "routes.example.io", "Route"),
                ],
                vec![op(model::Verb::Create, "apps", "Deployment")],
            )],
            ..Default::default()
        },
        ..Project::default()
    };
    // The scheduler defines Pool and watches it, but only the operator's writes of
    // Pool face another project: the scheduler stays off the writing side.
    assert_eq!(
        connections(&[operator, scheduler]),
        vec![Connection {
            kinds: vec![
                kind("pools.example.io", "Pool"),
                kind("routes.example.io", "Route"),
                kind("serving.example.io", "Model"),
            ],
            from: vec![end(
                "operator",
                &["writes (create, update)", "owns", "defines"]
            )],
            to: vec![end("scheduler", &["for", "watches", "informer"])],
        }]
    );
}

#[test]
fn a_kind_every_project_shares_is_one_box_not_a_pair_each() {
    let n = 300;
    let projects: Vec<Project> = (0..n)
        .map(|i| Project {
            name: format!("p{i}"),
            findings: model::Findings {
                crds: vec![crd("shared.example.io", "Widget", false)],
                controllers: vec![controller(
                    vec![watch(Relation::For, "shared.example.io", "Widget")],
                    vec![],
                )],
                ..Default::default()
            },
            ..Project::default()
        })
        .collect();
    let boxes = connections(&projects);
    assert_eq!(boxes.len(), 1);
    assert_eq!(boxes[0].kinds, vec![kind("shared.example.io", "Widget")]);
    let names: Vec<String> = (0..n).map(|i| format!("p{i}")).collect();
    let side = |ends: &[ConnectionEnd]| ends.iter().map(|e| e.project.clone()).collect::<Vec<_>>();
    assert_eq!(side(&boxes[0].from), names);
    assert_eq!(side(&boxes[0].to), names);
    assert_eq!(boxes[0].from[7].how, vec!["defines".to_string()]);
    assert_eq!(boxes[0].to[7].how, vec!["for".to_string()]);
}

#[test]
fn kinds_with_other_sides_are_other_boxes() {
    let writer = |name: &str, kinds: &[&str]| Project {
        name: name.into(),
        findings: model::Findings {
            crds: kinds
                .iter()
                .map(|k| crd("x.example.io", k, false))
                .collect(),
            ..Default::default()
        },
        ..Project::default()
    };
    let watcher = |name: &str, kinds: &[&str]| Project {
        name: name.into(),
        findings: model::Findings {
            controllers: vec![controller(
                kinds
                    .iter()
                    .map(|k| watch(Relation::Watches, "x.example.io", k))
                    .collect(),
                vec![],
            )],
            ..Default::default()
        },
        ..Project::default()
    };
    let boxes = connections(&[
        writer("a", &["A1", "A2", "Lonely"]),
        watcher("b", &["A1", "A2", "B"]),
        watcher("c", &["A2"]),
        writer("d", &["B"]),
    ]);
    let summary: Vec<(Vec<&str>, Vec<&str>, Vec<&str>)> = boxes
        .iter()
        .map(|b| {
            (
                b.kinds.iter().map(|k| k.kind.as_str()).collect(),
                b.from.iter().map(|e| e.project.as_str()).collect(),
                b.to.iter().map(|e| e.project.as_str()).collect(),
            )
        })
        .collect();
    assert_eq!(
        summary,
        vec![
            (vec!["A1"], vec!["a"], vec!["b"]),
            (vec!["A2"], vec!["a"], vec!["b", "c"]),
            (vec!["B"], vec!["d"], vec!["b"]),
        ]
    );
}
