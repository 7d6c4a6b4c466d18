use super::*;
use model::Area;
use model::{Gvk, Webhook, WebhookType};

fn webhook(origin: Origin, name: &str, path: &str, object: Option<(&str, &str)>) -> Webhook {
    Webhook {
        name: name.into(),
        kind: if path == "/convert" {
            WebhookType::Conversion
        } else {
            WebhookType::Validating
        },
        path: path.into(),
        failure_policy: String::new(),
        service: String::new(),
        configuration: if origin == Origin::Manifest {
            "vcfg".into()
        } else {
            String::new()
        },
        origin,
        object: object.map(|(version, kind)| Gvk {
            group: "x.io".into(),
            version: version.into(),
            kind: kind.into(),
        }),
        rules: vec![],
        resolved_service: String::new(),
        substitutions: Vec::new(),
        templated: false,
        bundled: false,
        area: Area::Component,
        sources: vec![],
    }
}

#[test]
fn main_controllers_come_first() {
    let controller = |name: &str, group: &str, kind: &str| model::Controller {
        shape: Default::default(),
        entries: Vec::new(),
        conditions: Vec::new(),
        client_calls: None,
        name: name.into(),
        reconciler: String::new(),
        area: Area::Component,
        sources: Vec::new(),
        watches: vec![model::Watch {
            relation: model::Relation::For,
            group: group.into(),
            version: "v1".into(),
            kind: kind.into(),
            conditional: false,
            condition: String::new(),
            import_path: None,
            raw_source: false,
            sources: Vec::new(),
        }],
        operations: Vec::new(),
        reads: Vec::new(),
    };
    let crd = |kind: &str, bundled: bool| model::Crd {
        group: "example.io".into(),
        kind: kind.into(),
        bundled,
        ..model::Crd::default()
    };
    let p = Project {
        findings: model::Findings {
            controllers: vec![
                controller("configmap", "", "ConfigMap"),
                controller("gadget", "example.io", "Gadget"),
                controller("pod", "", "Pod"),
                controller("widget", "example.io", "Widget"),
            ], // Gadget's CRD is only shipped (another project's): not this project's own kind.
            crds: vec![crd("Widget", false), crd("Gadget", true)],
            ..Default::default()
        },
        ..Project::default()
    };
    let page = project_page(&p, "/", &KindLinks::default());
    let names: Vec<&str> = page.controllers.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["widget", "configmap", "gadget", "pod"]);
}

#[test]
fn operation_rows_show_when_and_via_with_unique_anchors() {
    let step = |function: &str, line: u32| model::CallStep {
        function: function.into(),
        file: "c.go".into(),
        line,
    };
    let op = |via: Vec<model::CallStep>, condition: &str| model::Operation {
        verb: model::Verb::Delete,
        group: "apps".into(),
        version: "v1".into(),
        kind: "Deployment".into(),
        sources: vec![SourceRef::new("p.go", 9)],
        via,
        condition: condition.into(),
    };
    let p = Project {
        source_url: "https://example.com/{commit}/{path}#L{line}".into(),
        commit: "abc".into(),
        findings: model::Findings {
            controllers: vec![model::Controller {
                shape: Default::default(),
                entries: Vec::new(),
                conditions: Vec::new(),
                client_calls: None,
                name: "pool".into(),
                reconciler: "PoolReconciler".into(),
                area: Area::Component,
                sources: Vec::new(),
                watches: Vec::new(),
                // One call reached through two paths: two rows, two anchors.
                operations: vec![
                    op(
                        vec![step("comp.Pred.Reconcile", 3), step("comp.Pred.sweep", 5)],
                        "for i := range items",
                    ),
                    op(
                        vec![
                            step("comp.Expl.Reconcile", 4),
                            step("raw.New", 6),
                            step("comp.Pred.Reconcile", 7),
                            step("comp.Pred.sweep", 8),
                        ],
                        "",
                    ),
                ],
                reads: Vec::new(),
            }],
            ..Default::default()
        },
        ..Project::default()
    };
    let page = project_page(&p, "/", &KindLinks::default());
    let rows = &page.controllers[0].operations;
    let anchors: Vec<&str> = rows.iter().map(|r| r.anchor.as_str()).collect();
    assert_eq!(
        anchors,
        [
            "op-pool-delete-apps-deployment-p-go-9",
            "op-pool-delete-apps-deployment-p-go-9-2"
        ]
    );
    assert_eq!(rows[0].cells[2].text, "for i := range items");
    let via = &rows[0].cells[3];
    assert_eq!(via.text, "Pred.Reconcile → sweep");
    assert_eq!(via.items[0].url, "https://example.com/abc/c.go#L3");
    assert_eq!(via.summary, "");
    // Four calls: collapsed behind the first and last step.
    let long = &rows[1].cells[3];
    assert_eq!(
        long.text,
        "Expl.Reconcile → raw.New → Pred.Reconcile → sweep"
    );
    assert_eq!(long.summary, "Expl.Reconcile → … → sweep (4 calls)");
}

#[test]
fn webhook_rows_show_their_origin_and_keep_unique_anchors() {
    let p = Project {
        findings: model::Findings {
            webhooks: vec![
                webhook(Origin::Manifest, "v.x.io", "/validate-x", None),
                webhook(Origin::Manifest, "v.x.io", "/validate-x", None),
                webhook(Origin::Marker, "v.x.io", "/validate-x", None),
                webhook(Origin::Code, "", "/convert", Some(("v1", "Thing"))),
                webhook(Origin::Code, "", "/convert", Some(("v2", "Thing"))),
            ],
            ..Default::default()
        },
        ..Project::default()
    };
    let page = project_page(&p, "/", &KindLinks::default());
    let rows: Vec<(&str, &str, &str)> = page
        .webhooks
        .iter()
        .map(|r| {
            (
                r.anchor.as_str(),
                r.cells[0].text.as_str(),
                r.cells[7].text.as_str(),
            )
        })
        .collect();
    assert_eq!(
        rows,
        vec![
            ("webhook-vcfg-v-x-io", "v.x.io", "manifest"),
            ("webhook-vcfg-v-x-io-2", "v.x.io", "manifest"),
            ("webhook-marker-v-x-io-validate-x", "v.x.io", "marker"),
            (
                "webhook-code-conversion-x-io-v1-thing",
                "(served for x.io/v1 Thing)",
                "code"
            ),
            (
                "webhook-code-conversion-x-io-v2-thing",
                "(served for x.io/v2 Thing)",
                "code"
            ),
        ]
    );
}
