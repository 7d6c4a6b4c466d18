use super::*;
use model::{Controller, Crd, Operation, Watch};

pub(crate) fn watch(relation: Relation, group: &str, kind: &str) -> Watch {
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

pub(crate) fn op(verb: model::Verb, group: &str, kind: &str, line: u32) -> Operation {
    Operation {
        via: Vec::new(),
        condition: String::new(),
        verb,
        group: group.into(),
        version: "v1".into(),
        kind: kind.into(),
        sources: vec![SourceRef::new("r.go", line)],
    }
}

pub(crate) fn crd(group: &str, kind: &str, bundled: bool) -> Crd {
    Crd {
        group: group.into(),
        kind: kind.into(),
        plural: String::new(),
        scope: String::new(),
        versions: vec![],
        short_names: vec![],
        schema: vec![],
        templated: false,
        bundled,
        area: Default::default(),
        sources: vec![],
    }
}

/// A small project: one controller with a duplicate watch, an informer, writes of two
/// kinds (one twice with two verbs) and two CRDs, one bundled.
pub(crate) fn project() -> Project {
    Project {
        name: "demo".into(),
        title: "Demo".into(),
        source_url: "https://github.com/o/demo/blob/{commit}/{path}#L{line}".into(),
        commit: "abc".into(),
        findings: model::Findings {
            crds: vec![
                crd("example.io", "Widget", false),
                crd("gateway.networking.k8s.io", "Gateway", true),
                crd("example.io", "Widget", false),
            ],
            controllers: vec![Controller {
                shape: Default::default(),
                entries: Vec::new(),
                conditions: Vec::new(),
                client_calls: None,
                reads: vec![
                    op(model::Verb::List, "", "ConfigMap", 60),
                    op(model::Verb::Get, "", "ConfigMap", 61),
                    op(model::Verb::Get, "", "ConfigMap", 62),
                ],
                name: "widget".into(),
                reconciler: "WidgetReconciler".into(),
                area: Default::default(),
                sources: vec![SourceRef::new("main.go", 9)],
                watches: vec![
                    watch(Relation::For, "example.io", "Widget"),
                    watch(Relation::Owns, "apps", "Deployment"),
                    watch(Relation::Owns, "apps", "Deployment"),
                    watch(Relation::Informer, "", "ConfigMap"),
                    watch(Relation::Watches, "gateway.networking.k8s.io", "Gateway"),
                ],
                operations: vec![
                    op(model::Verb::Update, "apps", "Deployment", 20),
                    op(model::Verb::Create, "apps", "Deployment", 30),
                    op(model::Verb::Create, "apps", "Deployment", 40),
                    op(model::Verb::Patch, "", "Service", 50),
                ],
            }],
            ..Default::default()
        },
        ..Project::default()
    }
}

#[test]
fn controller_messages_are_exact_and_unique() {
    let kinds = KindPages::none("/atlas/");
    let links = Links {
        root: "/atlas/",
        kinds: &kinds,
    };
    let p = project();
    let d = controller(&p, &p.findings.controllers[0], &links);
    let url = |f: &str, l: u32| format!("https://github.com/o/demo/blob/abc/{f}#L{l}");
    let msg = |from, to, kind, label: &str, link: String, source: &str| {
        Step::Message(Message {
            from,
            to,
            kind,
            label: label.into(),
            link,
            source: source.into(),
            group: None,
        })
    };
    assert_eq!(
        d.participants,
        vec![
            Participant {
                id: "api".into(),
                label: "Kubernetes API".into(),
                link: "/atlas/projects/demo/dataflow/#controllers".into(),
            },
            Participant {
                id: "c0".into(),
                label: "widget controller".into(),
                link: url("main.go", 9),
            },
        ]
    );
    use MessageKind::*;
    assert_eq!(
        d.steps,
        vec![
            msg(
                0,
                1,
                Watch,
                "Watch example.io/v1 Widget (reconcile)",
                url("a.go", 1),
                "a.go:1"
            ),
            msg(
                0,
                1,
                Watch,
                "Watch apps/v1 Deployment (owned)",
                url("a.go", 1),
                "a.go:1"
            ),
            msg(
                0,
                1,
                Informer,
                "Watch v1 ConfigMap (informer)",
                url("a.go", 1),
                "a.go:1"
            ),
            msg(
                0,
                1,
                Watch,
                "Watch gateway.networking.k8s.io/v1 Gateway (watch)",
                url("a.go", 1),
                "a.go:1"
            ),
            msg(
                1,
                0,
                Read,
                "get/list v1 ConfigMap",
                url("r.go", 60),
                "r.go:60"
            ),
            msg(
                1,
                0,
                Write,
                "create/update apps/v1 Deployment",
                url("r.go", 20),
                "r.go:20"
            ),
            msg(1, 0, Write, "patch v1 Service", url("r.go", 50), "r.go:50"),
            Step::Note(Note {
                over: (0, 1),
                heading: "Defines".into(),
                items: vec![NoteItem {
                    text: "Widget (example.io)".into(),
                    link: "/atlas/projects/demo/api/example.io/Widget/".into(),
                }],
            }),
        ]
    );
    let Step::Message(informer) = &d.steps[2] else {
        panic!("not a message")
    };
    assert!(informer.dashed());
}

#[test]
fn kinds_with_a_page_link_to_it() {
    let p = project();
    let portal = derive::link::link("t", std::slice::from_ref(&p));
    let kinds = KindPages::of("/atlas/", &portal);
    let links = Links {
        root: "/atlas/",
        kinds: &kinds,
    };
    let d = controller(&p, &p.findings.controllers[0], &links);
    let Step::Message(first) = &d.steps[0] else {
        panic!("not a message")
    };
    assert_eq!(first.link, "/atlas/kinds/example.io/Widget/");
    let Some(Step::Note(note)) = d.steps.last() else {
        panic!("no note")
    };
    assert_eq!(note.items[0].link, "/atlas/kinds/example.io/Widget/");
}

#[test]
fn summary_adds_packages_and_services() {
    let mut p = project();
    p.findings.informers.push(model::PackageInformer {
        package: "internal/cache".into(),
        function: "Start".into(),
        group: "".into(),
        version: "v1".into(),
        kind: "Secret".into(),
        area: Default::default(),
        sources: vec![SourceRef::new("c.go", 3)],
    });
    p.findings.services.push(model::Service {
        name: "webhook".into(),
        namespace: "system".into(),
        ports: vec![model::ServicePort {
            name: String::new(),
            port: "443".into(),
            target_port: "9443".into(),
            protocol: "TCP".into(),
        }],
        service_type: String::new(),
        selector: vec![],
        templated: false,
        bundled: false,
        area: Default::default(),
        sources: vec![],
    });
    let kinds = KindPages::none("/");
    let d = summary(
        &p,
        &Links {
            root: "/",
            kinds: &kinds,
        },
    );
    let ids: Vec<&str> = d.participants.iter().map(|x| x.id.as_str()).collect();
    assert_eq!(ids, ["api", "c0", "p0"]);
    assert_eq!(d.participants[2].label, "package internal/cache");
    assert_eq!(
        short_packages(&[
            "github.com/kserve/kserve/pkg/controller/reconcilers/hpa",
            "example.com/a/b",
            "example.com/op/v1/isvc/reconcilers/config",
            "example.com/op/v2/llm/reconcilers/config",
            "example.com/op/v3/llm/reconcilers/config",
        ]),
        [
            "…/reconcilers/hpa",
            "example.com/a/b",
            // Two segments are shared, so three; then four where three still are.
            "…/isvc/reconcilers/config",
            "…/v2/llm/reconcilers/config",
            "…/v3/llm/reconcilers/config",
        ]
    );
    let labels: Vec<String> = d
        .steps
        .iter()
        .map(|s| match s {
            Step::Message(m) => format!("{}->{} {}", m.from, m.to, m.label),
            Step::Note(n) => format!(
                "note {}: {}",
                n.heading,
                n.items
                    .iter()
                    .map(|i| i.text.as_str())
                    .collect::<Vec<_>>()
                    .join("; ")
            ),
        })
        .collect();
    assert_eq!(
        labels,
        [
            "0->1 Watch example.io/v1 Widget (reconcile)",
            "0->1 Watch apps/v1 Deployment (owned)",
            "0->1 Watch v1 ConfigMap (informer)",
            "0->1 Watch gateway.networking.k8s.io/v1 Gateway (watch)",
            "1->0 get/list v1 ConfigMap",
            "1->0 create/update apps/v1 Deployment",
            "1->0 patch v1 Service",
            "0->2 Watch v1 Secret (informer)",
            "note Defines: Widget (example.io)",
            "note Exposes: webhook (443)",
        ]
    );
}
