use super::super::tests::{op, project};
use super::super::{Links, Step, summary};
use super::*;
use crate::table::KindPages;
use model::Project;

/// `demo`'s summary with its one controller writing these operations and nothing else.
fn summary_of(operations: Vec<model::Operation>) -> Vec<Message> {
    let mut p: Project = project();
    let c = &mut p.findings.controllers[0];
    c.operations = operations;
    c.watches.clear();
    c.reads.clear();
    p.findings.crds.clear();
    let kinds = KindPages::none("/");
    let links = Links {
        root: "/",
        kinds: &kinds,
    };
    summary(&p, &links)
        .steps
        .into_iter()
        .filter_map(|s| match s {
            Step::Message(m) => Some(m),
            Step::Note(_) => None,
        })
        .collect()
}

const KINDS: [(&str, &str); 8] = [
    ("apps", "Deployment"),
    ("", "Service"),
    ("autoscaling", "HorizontalPodAutoscaler"),
    ("", "ConfigMap"),
    ("", "Secret"),
    ("networking.k8s.io", "Ingress"),
    ("keda.sh", "ScaledObject"),
    ("", "ServiceAccount"),
];

#[test]
fn eight_kinds_written_with_the_same_verbs_are_one_arrow() {
    let ops = KINDS
        .iter()
        .enumerate()
        .flat_map(|(i, (group, kind))| {
            let line = 10 * i as u32;
            [
                op(model::Verb::Update, group, kind, line),
                op(model::Verb::Create, group, kind, line + 1),
            ]
        })
        .collect();
    let messages = summary_of(ops);
    assert_eq!(messages.len(), 1, "{messages:#?}");
    let m = &messages[0];
    assert_eq!((m.from, m.to, m.kind), (1, 0, MessageKind::Write));
    assert_eq!(
        m.label,
        "create/update Deployment, Service, HorizontalPodAutoscaler and 5 more"
    );
    assert!(m.label.chars().count() <= MESSAGE_CHARS);
    // The first kind's first call, and a link to the group's row on the dataflow page.
    assert_eq!(m.source, "r.go:0");
    assert_eq!(
        m.link,
        "/projects/demo/dataflow/#arrow-widget-controller-kubernetes-api-create-update"
    );
    let group = m.group.as_ref().expect("grouped");
    assert_eq!(group.what, "create/update");
    let texts: Vec<&str> = group.members.iter().map(|k| k.text.as_str()).collect();
    assert_eq!(
        texts,
        [
            "apps/v1 Deployment",
            "v1 Service",
            "autoscaling/v1 HorizontalPodAutoscaler",
            "v1 ConfigMap",
            "v1 Secret",
            "networking.k8s.io/v1 Ingress",
            "keda.sh/v1 ScaledObject",
            "v1 ServiceAccount",
        ]
    );
    // Each kind links where its own arrow would: here (no kind pages) its source line.
    assert_eq!(
        group.members[1].link,
        "https://github.com/o/demo/blob/abc/r.go#L10"
    );
    assert_eq!(
        group.title(),
        format!("create/update, 8 kinds: {}", texts.join(", "))
    );
}

#[test]
fn different_verbs_are_different_arrows_in_order_of_first_appearance() {
    let ops = KINDS
        .iter()
        .enumerate()
        .map(|(i, (group, kind))| {
            let verb = if i % 3 == 2 {
                model::Verb::Delete
            } else {
                model::Verb::Patch
            };
            op(verb, group, kind, i as u32)
        })
        .collect();
    let labels: Vec<String> = summary_of(ops).into_iter().map(|m| m.label).collect();
    assert_eq!(
        labels,
        [
            "patch Deployment, Service, ConfigMap, Secret, ScaledObject and 1 more",
            "delete HorizontalPodAutoscaler, Ingress",
        ]
    );
}

#[test]
fn one_kind_keeps_its_own_arrow_and_a_shared_name_its_group() {
    let messages = summary_of(vec![
        op(model::Verb::Create, "", "Service", 1),
        op(model::Verb::Create, "serving.knative.dev", "Service", 2),
        op(model::Verb::Delete, "apps", "Deployment", 3),
    ]);
    let labels: Vec<&str> = messages.iter().map(|m| m.label.as_str()).collect();
    assert_eq!(
        labels,
        [
            "create v1 Service, serving.knative.dev/v1 Service",
            "delete apps/v1 Deployment",
        ]
    );
    assert_eq!(messages[1].group, None);
    assert_eq!(
        messages[1].link,
        "https://github.com/o/demo/blob/abc/r.go#L3"
    );
}

#[test]
fn unresolved_kinds_are_never_grouped() {
    let unknown = |line| op(model::Verb::Create, model::UNRESOLVED, "", line);
    let messages = summary_of(vec![
        unknown(1),
        op(model::Verb::Create, "", "Secret", 2),
        unknown(3),
    ]);
    let labels: Vec<&str> = messages.iter().map(|m| m.label.as_str()).collect();
    // The two calls of an unknown kind are one arrow already; it is not grouped with the
    // Secret's, which has the same verb.
    assert_eq!(labels, ["create unknown kind", "create v1 Secret"]);
    assert!(messages.iter().all(|m| m.group.is_none()));
}

#[test]
fn a_label_lists_what_fits_and_counts_the_rest() {
    let names: Vec<String> = (0..30).map(|i| format!("Kind{i:02}")).collect();
    let l = label("get", &names, "");
    assert_eq!(
        l,
        "get Kind00, Kind01, Kind02, Kind03, Kind04, Kind05, Kind06 and 23 more"
    );
    assert!(l.chars().count() <= MESSAGE_CHARS);
    // A single name longer than the cut is still named (the drawing cuts it).
    let long = ["X".repeat(100), "Y".into()];
    assert_eq!(
        label("Watch", &long, " (owned)"),
        format!("Watch {} and 1 more (owned)", long[0])
    );
}
