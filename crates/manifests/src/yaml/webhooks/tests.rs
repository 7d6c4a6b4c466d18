use super::*;
use crate::yaml::documents::{Read, read, split_documents};

#[test]
fn entries_with_rules_service_and_their_own_lines() {
    let text = r#"apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: widget-validator
webhooks:
- name: vwidget.example.io
  clientConfig:
    service:
      name: webhook-service
      namespace: system
      path: /validate-widget
  rules:
  - operations: [CREATE, UPDATE]
    apiGroups: [example.io]
    apiVersions: [v1]
    resources: [widgets]
    scope: Namespaced
- name: vgizmo.example.io
  failurePolicy: Ignore
  clientConfig:
    url: https://gizmo.example.io/validate
"#;
    let docs = split_documents(text);
    let Read::Object(o) = read(&docs[0], false) else {
        panic!()
    };
    let hooks = extract(&o, docs[0].text, "config/webhook.yaml", Area::Component);
    assert_eq!(hooks.len(), 2);
    let a = &hooks[0];
    assert_eq!(
        (
            a.name.as_str(),
            a.service.as_str(),
            a.path.as_str(),
            a.failure_policy.as_str()
        ),
        (
            "vwidget.example.io",
            "system/webhook-service",
            "/validate-widget",
            "Fail (default)"
        )
    );
    assert_eq!(a.sources, vec![SourceRef::new("config/webhook.yaml", 6)]);
    assert_eq!(
        a.rules,
        vec![WebhookRule {
            operations: vec!["CREATE".into(), "UPDATE".into()],
            groups: vec!["example.io".into()],
            versions: vec!["v1".into()],
            resources: vec!["widgets".into()],
            scope: "Namespaced".into()
        }]
    );
    let b = &hooks[1];
    assert_eq!(b.service, "https://gizmo.example.io/validate");
    assert_eq!(b.failure_policy, "Ignore");
    assert_eq!(b.sources[0].line, 18);
    assert_eq!(b.configuration, "widget-validator");
}

#[test]
fn a_kustomize_entry_and_its_rendered_copy_are_one_webhook() {
    let text = "apiVersion: admissionregistration.k8s.io/v1\nkind: MutatingWebhookConfiguration\nmetadata:\n  name: m\nwebhooks:\n- name: a.example.io\n  clientConfig:\n    service: {name: svc, namespace: ns}\n";
    let docs = split_documents(text);
    let Read::Object(o) = read(&docs[0], false) else {
        panic!()
    };
    let rendered = extract(
        &o,
        docs[0].text,
        "charts/x/files/hooks.yaml",
        Area::Component,
    );
    let mut base = extract(
        &o,
        docs[0].text,
        "config/webhook/hooks.yaml",
        Area::Component,
    );
    base[0].service = "$(NS)/$(SVC)".into();
    base[0].resolved_service = "ns/svc".into();
    base[0].substitutions.push(model::Substitution {
        field: "clientConfig.service.name".into(),
        written: "$(SVC)".into(),
        value: "svc".into(),
        origin: "vars: SVC = metadata.name of Service svc".into(),
        sources: vec![SourceRef::new("config/default/kustomization.yaml", 9)],
    });
    let mut hooks = vec![rendered[0].clone(), base[0].clone()];
    merge_deployed(&mut hooks);
    assert_eq!(hooks.len(), 1);
    assert_eq!(hooks[0].service, "$(NS)/$(SVC)");
    assert_eq!(
        hooks[0].sources,
        vec![
            SourceRef::new("charts/x/files/hooks.yaml", 6),
            SourceRef::new("config/webhook/hooks.yaml", 6)
        ]
    );
}
