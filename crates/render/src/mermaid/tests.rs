use super::*;
use crate::sequence::{self, Links};
use crate::table::KindPages;

#[test]
fn controller_diagram_as_mermaid() {
    let p = sequence::tests::project();
    let kinds = KindPages::none("/");
    let d = sequence::controller(
        &p,
        &p.findings.controllers[0],
        &Links {
            root: "/",
            kinds: &kinds,
        },
    );
    assert_eq!(
        sequence(&d),
        "sequenceDiagram
    participant api as Kubernetes API
    participant c0 as widget controller
    api->>c0: Watch example.io/v1 Widget (reconcile)
    api->>c0: Watch apps/v1 Deployment (owned)
    api-->>c0: Watch v1 ConfigMap (informer)
    api->>c0: Watch gateway.networking.k8s.io/v1 Gateway (watch)
    c0->>api: get/list v1 ConfigMap
    c0->>api: create/update apps/v1 Deployment
    c0->>api: patch v1 Service
    Note over api,c0: Defines Widget (example.io)
"
    );
}

#[test]
fn repository_text_cannot_break_the_syntax() {
    assert_eq!(
        label("Cfg;<b>#x: %%{init}%% \"q\"\nend"),
        "Cfg__b__x_ ___init___ _q__end"
    );
}

#[test]
fn an_empty_diagram_still_parses() {
    let d = Diagram {
        title: String::new(),
        participants: vec![sequence::Participant {
            id: "api".into(),
            label: "Kubernetes API".into(),
            link: String::new(),
        }],
        steps: vec![],
    };
    assert_eq!(
        sequence(&d),
        "sequenceDiagram\n    participant api as Kubernetes API\n    Note over api: no watches or writes found\n"
    );
}
