use super::*;
use model::Area;

#[test]
fn paths_join_within_the_repository() {
    assert_eq!(
        join("config/default", "../webhook").as_deref(),
        Some("config/webhook")
    );
    assert_eq!(join("", "./a.yaml").as_deref(), Some("a.yaml"));
    assert_eq!(join("config", "../../x"), None);
}

const DEFAULT: &str = r#"apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
namespace: widget-system
namePrefix: widget-
resources:
- ../webhook
- ../manager
- https://github.com/example/remote/config?ref=v1
patches:
- path: manager_patch.yaml
- patch: |-
    - op: add
images:
- name: controller
  newName: example.io/widget
  newTag: v1.2.0
configMapGenerator:
- name: widget-config
  literals:
  - LOG_LEVEL=info
  files:
  - settings.json
  - extra=conf/extra.txt
  envs:
  - params.env
secretGenerator:
- name: widget-creds
  literals:
  - password=hunter2
vars:
- name: SERVICE_NAME
  objref:
    kind: Service
    version: v1
    name: webhook-service
- name: SERVICE_NAMESPACE
  objref:
    kind: Service
    version: v1
    name: webhook-service
  fieldref:
    fieldpath: metadata.namespace
replacements:
- source:
    kind: Service
    name: webhook-service
  targets:
  - select:
      kind: ValidatingWebhookConfiguration
      name: other
    fieldPaths:
    - webhooks.*.clientConfig.service.name
"#;

#[test]
fn fields_of_the_wrong_type_are_diagnostics_at_their_lines() {
    let text = "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nnamespace: [a]\nnamePrefix: 7\nresources: \"notalist\"\ncomponents:\n- ../c\n- {path: x}\nimages:\n- app\n- name: app\n  newTag: v2\npatches:\n# every entry commented out\ncommonLabels: [x]\n";
    let mut d = Vec::new();
    let k = read("k/kustomization.yaml", text, Area::Component, &mut d).unwrap();
    let got: Vec<(u32, &str)> = d.iter().map(|d| (d.line, d.message.as_str())).collect();
    assert_eq!(
        got,
        [
            (
                3,
                "`namespace` should be a string, not a list: it is ignored"
            ),
            (
                4,
                "`namePrefix` should be a string, not a number: it is read as written"
            ),
            (
                15,
                "`commonLabels` should be a mapping, not a list: it is ignored"
            ),
            (
                5,
                "`resources` should be a list, not a string: it is ignored"
            ),
            (
                6,
                "`components` entry 2 should be a string, not a mapping: it is ignored"
            ),
            (
                9,
                "`images` entry 1 should be a mapping, not a string: it is ignored"
            ),
        ]
    );
    assert!(k.model.resources.is_empty());
    assert_eq!(k.model.components, ["../c"]);
    assert_eq!(k.local, [("c".to_string(), 7)]);
    assert_eq!(k.model.images, ["app → app:v2"]);
    assert_eq!(k.model.namespace, "");
    assert_eq!(k.model.name_prefix, "7");
}

#[test]
fn a_kustomization_that_is_not_a_mapping_is_a_diagnostic() {
    let mut d = Vec::new();
    assert!(read("kustomization.yaml", "- a.yaml\n", Area::Component, &mut d).is_none());
    assert_eq!(
        d,
        [Diagnostic::new(
            "kustomization.yaml",
            1,
            "the kustomization is a list, not a mapping: nothing in it is read"
        )]
    );
    d.clear();
    assert!(read("kustomization.yaml", "", Area::Component, &mut d).is_some());
    assert!(d.is_empty());
}

#[test]
fn kustomization_fields() {
    let mut d = Vec::new();
    let k = read(
        "config/default/kustomization.yaml",
        DEFAULT,
        Area::Component,
        &mut d,
    )
    .unwrap();
    assert!(d.is_empty(), "{d:?}");
    let m = &k.model;
    assert_eq!(m.dir, "config/default");
    assert_eq!(m.namespace, "widget-system");
    assert_eq!(m.name_prefix, "widget-");
    assert_eq!(
        k.local,
        vec![
            ("config/webhook".to_string(), 6),
            ("config/manager".to_string(), 7)
        ]
    );
    assert_eq!(m.patches, vec!["manager_patch.yaml", "(inline)"]);
    assert_eq!(k.patch_files, vec!["config/default/manager_patch.yaml"]);
    assert_eq!(m.images, vec!["controller → example.io/widget:v1.2.0"]);
    let g = &m.config_map_generators[0];
    assert_eq!(g.keys, vec!["LOG_LEVEL", "extra", "settings.json"]);
    assert_eq!(g.env_files, vec!["params.env"]);
    assert_eq!(g.sources[0].line, 18);
    assert_eq!(k.configmaps[0].namespace, "widget-system");
    assert_eq!(
        k.configmaps[0].generated_by,
        "config/default/kustomization.yaml"
    );
    assert_eq!(m.secret_generators[0].keys, vec!["password"]);
    assert!(!format!("{:?}", k).contains("hunter2"));
    assert_eq!(k.secret_uses[0].name, "widget-creds");
    assert_eq!(
        m.vars,
        vec![
            KustomizeVar {
                name: "SERVICE_NAME".into(),
                object: "Service webhook-service".into(),
                field_path: "metadata.name".into(),
                sources: vec![SourceRef::new("config/default/kustomization.yaml", 31)]
            },
            KustomizeVar {
                name: "SERVICE_NAMESPACE".into(),
                object: "Service webhook-service".into(),
                field_path: "metadata.namespace".into(),
                sources: vec![SourceRef::new("config/default/kustomization.yaml", 36)]
            },
        ]
    );
    assert_eq!(m.replacements[0].sources[0].line, 44);
    assert_eq!(
        m.replacements[0].targets,
        vec!["ValidatingWebhookConfiguration other: webhooks.*.clientConfig.service.name"]
    );
}

fn webhook(service: &str, configuration: &str) -> Webhook {
    Webhook {
        name: "vwidget.example.io".into(),
        kind: WebhookType::Validating,
        path: "/validate".into(),
        failure_policy: "Fail".into(),
        service: service.into(),
        configuration: configuration.into(),
        rules: Vec::new(),
        resolved_service: String::new(),
        substitutions: Vec::new(),
        templated: false,
        bundled: false,
        origin: Default::default(),
        object: None,
        area: Area::Component,
        sources: vec![SourceRef::new("config/webhook/manifests.yaml", 6)],
    }
}

fn setup() -> (Overlays, BTreeMap<String, Vec<ObjectName>>, Vec<Diagnostic>) {
    let mut d = Vec::new();
    let default = read(
        "config/default/kustomization.yaml",
        DEFAULT,
        Area::Component,
        &mut d,
    )
    .unwrap();
    let hook = read(
        "config/webhook/kustomization.yaml",
        "resources:\n- manifests.yaml\n- service.yaml\n",
        Area::Component,
        &mut d,
    )
    .unwrap();
    let manifests: BTreeSet<String> = [
        "config/webhook/manifests.yaml",
        "config/webhook/service.yaml",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let o = overlays(vec![default, hook], &manifests, &mut d);
    let mut objects = BTreeMap::new();
    objects.insert(
        "config/webhook/service.yaml".to_string(),
        vec![ObjectName {
            kind: "Service".into(),
            name: "webhook-service".into(),
            namespace: "system".into(),
        }],
    );
    (o, objects, d)
}

#[test]
fn overlays_follow_folders_and_report_missing_entries() {
    let (o, _, d) = setup();
    assert_eq!(
        o.includes[0].iter().collect::<Vec<_>>(),
        vec![
            "config/webhook/manifests.yaml",
            "config/webhook/service.yaml"
        ]
    );
    // `../manager` is a folder without a kustomization among the analyzed files.
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0].line, 7);
    assert!(d[0].message.contains("config/manager"));
}

#[test]
fn vars_explain_a_webhook_service() {
    let (o, objects, _) = setup();
    let mut w = webhook("$(SERVICE_NAMESPACE)/$(SERVICE_NAME)", "widget-validator");
    explain_webhook(&mut w, &o, &objects);
    assert_eq!(w.resolved_service, "widget-system/widget-webhook-service");
    assert_eq!(
        w.substitutions,
        vec![
            Substitution {
                field: "clientConfig.service.name".into(),
                written: "$(SERVICE_NAME)".into(),
                value: "widget-webhook-service".into(),
                origin: "vars: SERVICE_NAME = metadata.name of Service webhook-service".into(),
                sources: vec![SourceRef::new("config/default/kustomization.yaml", 31)],
            },
            Substitution {
                field: "clientConfig.service.namespace".into(),
                written: "$(SERVICE_NAMESPACE)".into(),
                value: "widget-system".into(),
                origin: "vars: SERVICE_NAMESPACE = metadata.namespace of Service webhook-service"
                    .into(),
                sources: vec![SourceRef::new("config/default/kustomization.yaml", 36)],
            },
        ]
    );
}

#[test]
fn replacements_target_the_named_configuration_only() {
    let (o, objects, _) = setup();
    let mut w = webhook("system/placeholder", "other");
    explain_webhook(&mut w, &o, &objects);
    assert_eq!(w.resolved_service, "system/widget-webhook-service");
    assert_eq!(
        w.substitutions[0].origin,
        "replacements: metadata.name of Service webhook-service"
    );
    let mut untouched = webhook("system/placeholder", "widget-validator");
    explain_webhook(&mut untouched, &o, &objects);
    assert!(untouched.substitutions.is_empty());
    assert_eq!(untouched.resolved_service, "");
    assert_eq!(
        webhook_field("webhooks.[name=a].clientConfig.service.namespace", "a"),
        Some("namespace")
    );
    assert_eq!(
        webhook_field("webhooks.0.clientConfig.service.name", "a"),
        None
    );
}
