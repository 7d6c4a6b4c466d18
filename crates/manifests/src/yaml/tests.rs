//! Tests of one project's manifests put together: several files in, rows out.

use std::collections::BTreeSet;

use super::*;
use model::SourceRef;

/// Analyzes `files` (path, text) as one project whose Go API packages declare `own`.
fn project(files: &[(&str, &str)], own: &[&str]) -> (Findings, Vec<Diagnostic>) {
    let (found, _, diagnostics) = project_counted(files, own);
    (found, diagnostics)
}

/// `project`, with the counts of files read specially.
fn project_counted(
    files: &[(&str, &str)],
    own: &[&str],
) -> (Findings, YamlCounts, Vec<Diagnostic>) {
    let analyzed = files
        .iter()
        .map(|(path, text)| {
            let area = source::walk::classify(path);
            if path.ends_with("values.schema.json") {
                analyze_values_schema(path, text, area)
            } else if path.ends_with(".tpl") {
                analyze_helpers(path, text, area)
            } else {
                analyze(path, text, area)
            }
        })
        .collect();
    let own: BTreeSet<String> = own.iter().map(|g| g.to_string()).collect();
    let mut diagnostics = Vec::new();
    let mut found = Findings::default();
    let counts = resolve(analyzed, &own, &mut found, &mut diagnostics);
    (found, counts, diagnostics)
}

fn sources(rows: &[SourceRef]) -> Vec<String> {
    rows.iter()
        .map(|s| format!("{}:{}", s.file, s.line))
        .collect()
}

const CRD: &str = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: pens.zoo.example.io\nspec:\n  group: zoo.example.io\n  names: {kind: Pen, plural: pens}\n  scope: Namespaced\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema:\n        type: object\n        properties:\n          spec:\n            type: object\n            properties:\n              size: {type: integer}\n";

#[test]
fn a_crd_in_two_files_is_one_row_and_a_different_copy_another() {
    let minimal = CRD.replace(
        "            properties:\n              size: {type: integer}\n",
        "            x-kubernetes-preserve-unknown-fields: true\n",
    );
    let (f, d) = project(
        &[
            ("charts/zoo/crds/pens.yaml", CRD),
            ("config/crd/bases/pens.yaml", CRD),
            ("config/crd/minimal/pens.yaml", &minimal),
        ],
        &["zoo.example.io"],
    );
    assert!(d.is_empty(), "{d:?}");
    assert_eq!(f.crds.len(), 2);
    assert_eq!(
        sources(&f.crds[0].sources),
        vec![
            "charts/zoo/crds/pens.yaml:2",
            "config/crd/bases/pens.yaml:2"
        ]
    );
    assert_eq!(f.crds[0].schema[0].fields.len(), 2);
    assert_eq!(
        sources(&f.crds[1].sources),
        vec!["config/crd/minimal/pens.yaml:2"]
    );
    assert!(f.crds[1].schema[0].fields[0].preserve_unknown_fields);
    assert!(!f.crds[0].bundled);
}

#[test]
fn multi_document_files_give_one_row_per_object_at_its_kind_line() {
    let text = "# objects of the manager\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: a\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\ndata: {k: v}\n---\napiVersion: v1\nmetadata:\n  name: c\nkind: Service\n";
    let (f, d) = project(&[("config/all.yaml", text)], &[]);
    assert!(d.is_empty(), "{d:?}");
    let services: Vec<(String, Vec<String>)> = f
        .services
        .iter()
        .map(|s| (s.name.clone(), sources(&s.sources)))
        .collect();
    assert_eq!(
        services,
        vec![
            ("a".to_string(), vec!["config/all.yaml:4".to_string()]),
            ("c".to_string(), vec!["config/all.yaml:17".to_string()])
        ]
    );
    assert_eq!(sources(&f.configmaps[0].sources), vec!["config/all.yaml:9"]);
}

#[test]
fn patches_are_not_rows_and_their_fragments_are_not_diagnostics() {
    let fragment = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: pens.zoo.example.io\nspec:\n  conversion: {strategy: Webhook}\n";
    let svc = "apiVersion: v1\nkind: Service\nmetadata:\n  name: patched\n";
    let (f, d) = project(
        &[
            (
                "config/crd/kustomization.yaml",
                "resources:\n- pens.yaml\npatches:\n- path: fix.yaml\n",
            ),
            ("config/crd/pens.yaml", CRD),
            ("config/crd/fix.yaml", fragment),
            ("config/default/webhook_patch.yaml", svc),
            ("config/default/patches/svc.yaml", svc),
            ("config/stray/fragment.yaml", fragment),
        ],
        &["zoo.example.io"],
    );
    assert_eq!(f.crds.len(), 1);
    assert!(f.services.is_empty());
    // Only the fragment that no kustomization patches and no name marks as a patch.
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(
        (d[0].file.as_str(), d[0].line),
        ("config/stray/fragment.yaml", 2)
    );
}

#[test]
fn documents_that_are_no_object_are_diagnostics_at_their_lines() {
    let manifests = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: good\n---\napiVersion: v1\nkind: 42\nmetadata:\n  name: numeric\n---\napiVersion: v1\nkind: [Service]\n---\nkind: \"\"\n---\n--- |\n  kind: ConfigMap\n---\njust a string\n---\nmetadata:\n  name: kindless\n---\n{apiVersion: v1, kind: ConfigMap, metadata: {name: flow}}\n---\nkind: Service\nbroken: [\n";
    let listed = "# objects in a list\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: listed\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: listed-too\n";
    let (f, d) = project(
        &[
            ("config/all.yaml", manifests),
            ("config/listed.yaml", listed),
            // Not manifests: a list of values, a document mentioning kind in passing.
            ("hack/values.yaml", "- a\n- b\n"),
            ("hack/ci.yaml", "steps:\n- run: kind create cluster\n"),
        ],
        &[],
    );
    let names: Vec<&str> = f.configmaps.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["good", "flow"]);
    assert_eq!(
        sources(&f.configmaps[1].sources),
        vec!["config/all.yaml:24"]
    );
    let mut got: Vec<(&str, u32, &str)> = d
        .iter()
        .map(|d| (d.file.as_str(), d.line, d.message.as_str()))
        .collect();
    got.sort();
    assert_eq!(
        got,
        [
            (
                "config/all.yaml",
                7,
                "`kind` is a number, not a string: the object is skipped"
            ),
            (
                "config/all.yaml",
                12,
                "`kind` is a list, not a string: the object is skipped"
            ),
            (
                "config/all.yaml",
                14,
                "`kind` is empty: the object is skipped"
            ),
            (
                "config/all.yaml",
                16,
                "the document is a string, not a mapping: it is skipped"
            ),
            (
                "config/all.yaml",
                19,
                "the document is a string, not a mapping: it is skipped"
            ),
            (
                "config/all.yaml",
                21,
                "the document has no `kind`: it is skipped"
            ),
            (
                "config/all.yaml",
                27,
                "YAML not parsed: unclosed bracket '[' (column 9)"
            ),
            (
                "config/listed.yaml",
                2,
                "the document is a list of 2 entries, not one object: Kubernetes reads one object per document (separate them with `---`, or use `kind: List` with `items:`); they are skipped"
            ),
        ]
    );
}

#[test]
fn another_projects_folder_and_crds_are_bundled() {
    let istiod = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: istiod\n  namespace: istio-system\n  labels: {app.kubernetes.io/part-of: istio}\n---\napiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingWebhookConfiguration\nmetadata:\n  name: istio-validator\n  labels: {app.kubernetes.io/part-of: istio}\nwebhooks:\n- name: validation.istio.io\n  clientConfig:\n    service: {name: istiod, namespace: istio-system}\n";
    let own_svc =
        "apiVersion: v1\nkind: Service\nmetadata:\n  name: zoo\n  namespace: istio-system\n";
    let gateway_crd = CRD
        .replace("zoo.example.io", "gateway.networking.k8s.io")
        .replace("Pen", "Gateway");
    let (f, _) = project(
        &[
            ("deploy/istio/istiod.yaml", istiod),
            ("deploy/crds/gateway.yaml", &gateway_crd),
            ("config/crd/pens.yaml", CRD),
            ("config/mesh/svc.yaml", own_svc),
        ],
        &["zoo.example.io"],
    );
    let bundles: Vec<(&str, &str)> = f
        .bundled_manifests
        .iter()
        .map(|b| (b.dir.as_str(), b.project.as_str()))
        .collect();
    assert_eq!(
        bundles,
        vec![("deploy/crds", "Gateway API"), ("deploy/istio", "Istio")]
    );
    assert!(f.webhooks[0].bundled);
    assert!(f.workloads[0].bundled);
    let crds: Vec<(&str, bool)> = f
        .crds
        .iter()
        .map(|c| (c.kind.as_str(), c.bundled))
        .collect();
    assert_eq!(crds, vec![("Gateway", true), ("Pen", false)]);
    // A lone object in an Istio namespace, in a folder of its own, stays the project's.
    assert!(!f.services[0].bundled);
}

#[test]
fn kustomize_generators_overlays_and_explained_webhooks() {
    let default = "namespace: zoo-system\nresources:\n- ../webhook\nconfigMapGenerator:\n- name: zoo-config\n  literals: [MODE=fast]\nsecretGenerator:\n- name: zoo-token\n  literals: [token=s3cr3t-value]\nvars:\n- name: SVC\n  objref: {kind: Service, name: zoo-webhook, apiVersion: v1}\n";
    let hooks = "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingWebhookConfiguration\nmetadata:\n  name: zoo\nwebhooks:\n- name: vpen.zoo.example.io\n  clientConfig:\n    service: {name: $(SVC), namespace: system, path: /validate}\n  rules:\n  - {operations: [CREATE], apiGroups: [zoo.example.io], apiVersions: [v1], resources: [pens]}\n";
    let svc =
        "apiVersion: v1\nkind: Service\nmetadata:\n  name: zoo-webhook\n  namespace: system\n";
    let (f, d) = project(
        &[
            ("config/default/kustomization.yaml", default),
            (
                "config/webhook/kustomization.yaml",
                "resources: [hooks.yaml, svc.yaml]\n",
            ),
            ("config/webhook/hooks.yaml", hooks),
            ("config/webhook/svc.yaml", svc),
        ],
        &["zoo.example.io"],
    );
    assert!(d.is_empty(), "{d:?}");
    let w = &f.webhooks[0];
    assert_eq!(w.service, "system/$(SVC)");
    assert_eq!(w.resolved_service, "system/zoo-webhook");
    assert_eq!(
        w.substitutions[0].origin,
        "vars: SVC = metadata.name of Service zoo-webhook"
    );
    assert_eq!(
        sources(&w.substitutions[0].sources),
        vec!["config/default/kustomization.yaml:11"]
    );
    let cm = &f.configmaps[0];
    assert_eq!(
        (cm.name.as_str(), cm.namespace.as_str(), cm.keys.clone()),
        ("zoo-config", "zoo-system", vec!["MODE".to_string()])
    );
    assert_eq!(f.secrets[0].name, "zoo-token");
    assert_eq!(f.secrets[0].keys, vec!["token"]);
    let overlay = f
        .kustomizations
        .iter()
        .find(|k| k.dir == "config/default")
        .unwrap();
    assert_eq!(
        overlay.objects,
        vec![
            "Service system/zoo-webhook",
            "ValidatingWebhookConfiguration zoo"
        ]
    );
    assert!(!format!("{f:?}").contains("s3cr3t-value"));
}

#[test]
fn a_chart_with_commented_values_and_a_schema() {
    let (f, d) = project(
        &[
            (
                "charts/zoo/Chart.yaml",
                "apiVersion: v2\nname: zoo\nversion: 0.10\nappVersion: v1.0\n",
            ),
            ("charts/zoo/values.yaml", "# -- Pens to open.\npens: 3\n"),
            (
                "charts/zoo/values.schema.json",
                "{\"properties\": {\"pens\": {\"type\": \"integer\"}, \"mode\": {\"type\": \"string\", \"description\": \"How.\"}}}",
            ),
        ],
        &[],
    );
    assert!(d.is_empty(), "{d:?}");
    let c = &f.helm_charts[0];
    assert_eq!(
        (c.version.as_str(), c.app_version.as_str()),
        ("0.10", "v1.0")
    );
    let values: Vec<(&str, &str, &str, &str)> = c
        .values
        .iter()
        .map(|v| {
            (
                v.key.as_str(),
                v.value_type.as_str(),
                v.schema_type.as_str(),
                v.description.as_str(),
            )
        })
        .collect();
    assert_eq!(
        values,
        vec![
            ("pens", "int", "integer", "Pens to open."),
            ("mode", "string", "string", "How.")
        ]
    );
}

#[test]
fn roles_get_the_rules_of_named_templates_they_include() {
    let helpers = "{{/* Rules the manager needs. */}}\n{{- define \"kennel.rules\" -}}\n- apiGroups: [\"\"]\n  resources: [\"pods\"]\n  verbs: [\"get\", \"list\"]\n{{- if .Values.leases }}\n- apiGroups: [\"coordination.k8s.io\"]\n  resources: [\"leases\"]\n  verbs: [\"*\"]\n{{- end }}\n{{- end }}\n\n{{- define \"kennel.labels\" -}}\napp: kennel\n{{- end }}\n{{- define \"kennel.loop\" -}}\n{{ include \"kennel.loop\" . }}\n{{- end }}\n";
    let role = "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: {{ include \"kennel.fullname\" . }}\n  labels:\n    {{- include \"kennel.labels\" . | nindent 4 }}\nrules:\n  {{- include \"kennel.rules\" . | nindent 2 }}\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata:\n  name: looping\nrules:\n{{ include \"kennel.loop\" . }}\n";
    // The same define in another chart is not visible from this one.
    let other = "{{- define \"kennel.rules\" -}}\n- apiGroups: [\"apps\"]\n  resources: [\"deployments\"]\n  verbs: [\"delete\"]\n{{- end }}\n";
    let (f, d) = project(
        &[
            ("charts/kennel/Chart.yaml", "name: kennel\nversion: 0.1.0\n"),
            ("charts/kennel/templates/_helpers.tpl", helpers),
            ("charts/kennel/templates/role.yaml", role),
            ("charts/other/templates/_helpers.tpl", other),
        ],
        &[],
    );
    let rules: Vec<String> = f
        .rbac
        .iter()
        .map(|r| {
            format!(
                "{} {:?} {:?} {:?} templated={} {}",
                r.role,
                r.groups,
                r.resources,
                r.verbs,
                r.templated,
                sources(&r.sources).join(",")
            )
        })
        .collect();
    assert_eq!(
        rules,
        vec![
            "ClusterRole/{{ include \"kennel.fullname\" . }} [\"\"] [\"pods\"] [\"get\", \"list\"] templated=true charts/kennel/templates/role.yaml:2",
            "ClusterRole/{{ include \"kennel.fullname\" . }} [\"coordination.k8s.io\"] [\"leases\"] [\"*\"] templated=true charts/kennel/templates/role.yaml:2",
        ]
    );
    let roles: Vec<String> = f
        .roles
        .iter()
        .map(|r| {
            format!(
                "{} {} rules={} {}",
                r.kind,
                r.name,
                r.rules.len(),
                sources(&r.sources).join(",")
            )
        })
        .collect();
    assert_eq!(
        roles,
        vec![
            "ClusterRole {{ include \"kennel.fullname\" . }} rules=2 charts/kennel/templates/role.yaml:2",
            "Role looping rules=0 charts/kennel/templates/role.yaml:11",
        ]
    );
    let d: Vec<String> = d
        .iter()
        .map(|d| format!("{}:{}: {}", d.file, d.line, d.message))
        .collect();
    assert_eq!(
        d,
        vec![
            "charts/kennel/templates/role.yaml:15: named template `kennel.loop` includes itself or nests deeper than 8 levels: not expanded"
        ]
    );
}

#[test]
fn templated_files_give_rows_marked_templated() {
    let tpl = "{{- if .Values.webhook.enabled }}\napiVersion: admissionregistration.k8s.io/v1\nkind: MutatingWebhookConfiguration\nmetadata:\n  name: {{ .Release.Name }}-mutator\nwebhooks:\n- name: mpen.zoo.example.io\n  clientConfig:\n    service:\n      name: {{ .Release.Name }}-webhook\n      namespace: {{ .Release.Namespace }}\n{{- end }}\n";
    let (f, d) = project(&[("charts/zoo/templates/webhook.yaml", tpl)], &[]);
    assert!(d.is_empty(), "{d:?}");
    let w = &f.webhooks[0];
    assert!(w.templated);
    assert_eq!(w.configuration, "{{ .Release.Name }}-mutator");
    assert_eq!(
        w.service,
        "{{ .Release.Namespace }}/{{ .Release.Name }}-webhook"
    );
    assert_eq!(
        sources(&w.sources),
        vec!["charts/zoo/templates/webhook.yaml:7"]
    );
}

#[test]
fn bad_yaml_is_one_diagnostic_each_and_never_a_panic() {
    let mut bomb = String::from(
        "kind: ConfigMap\nmetadata: {name: lol}\ndata:\n  a: &a [x,x,x,x,x,x,x,x,x,x]\n",
    );
    for i in 1..10 {
        let prev = if i == 1 {
            "a".to_string()
        } else {
            format!("a{}", i - 1)
        };
        bomb.push_str(&format!(
            "  a{i}: &a{i} [{}]\n",
            vec![format!("*{prev}"); 10].join(",")
        ));
    }
    let deep = format!(
        "kind: ConfigMap\ndata: {}{}\n",
        "{a: ".repeat(10_000),
        "}".repeat(10_000)
    );
    let (f, counts, d) = project_counted(
        &[
            ("bad/bomb.yaml", &bomb),
            ("bad/deep.yaml", &deep),
            ("bad/syntax.yaml", "kind: Service\nmetadata: [unclosed\n"),
            ("bad/tabs.yaml", "kind: Service\nmetadata:\n\tname: x\n"),
            ("bad/Chart.yaml", "name: [x\n"),
            ("bad/kustomization.yaml", "resources: {\n"),
            ("bad/values.yaml", "a: [\n"),
            ("bad/values.schema.json", "{\"properties\": "),
        ],
        &[],
    );
    assert!(f.configmaps.is_empty() && f.services.is_empty());
    let files: Vec<&str> = d.iter().map(|d| d.file.as_str()).collect();
    assert_eq!(
        files,
        vec![
            "bad/bomb.yaml",
            "bad/deep.yaml",
            "bad/syntax.yaml",
            "bad/tabs.yaml",
            "bad/Chart.yaml",
            "bad/kustomization.yaml",
            "bad/values.yaml",
            "bad/values.schema.json",
        ]
    );
    assert_eq!(counts.failed_files, 8);
}

#[test]
fn every_prefix_of_real_shaped_files_is_analyzed_without_panic() {
    let hooks = "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingWebhookConfiguration\nmetadata:\n  name: zoo\nwebhooks:\n- name: v.zoo.example.io\n  clientConfig:\n    service: {name: $(SVC), namespace: system}\n  rules:\n  - {operations: [CREATE], apiGroups: [\"\"], resources: [pods]}\n";
    let template = "{{- if .Values.on }}\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ include \"x\" . }}\nspec:\n  template:\n    spec:\n      containers:\n      - name: m\n        image: \"{{ .Values.image }}\"\n        env:\n        - name: TOKEN\n          valueFrom: {secretKeyRef: {name: s, key: k}}\n{{- end }}\n";
    let kustomization = "namespace: n\nresources:\n- ../a\n- b.yaml\nvars:\n- name: V\n  objref: {kind: Service, name: s}\nreplacements:\n- source: {kind: Service, name: s}\n  targets:\n  - select: {kind: ValidatingWebhookConfiguration}\n    fieldPaths: [webhooks.*.clientConfig.service.name]\n";
    let values = "# -- a\na: 1\nb:\n  # plain\n  c: [x]\n  d: |\n    text\ne: {f: 1}\n";
    let chart = "apiVersion: v2\nname: x\nversion: 1.0\ndependencies:\n- name: y\n  version: 2\n";
    let schema = "{\"properties\": {\"a\": {\"type\": \"integer\", \"enum\": [1, 2]}, \"b\": {\"properties\": {\"c\": {}}}}}";
    let inputs = [
        ("config/crd/pens.yaml", CRD),
        ("config/webhook/hooks.yaml", hooks),
        ("charts/x/templates/d.yaml", template),
        ("config/default/kustomization.yaml", kustomization),
        ("charts/x/values.yaml", values),
        ("charts/x/Chart.yaml", chart),
        ("charts/x/values.schema.json", schema),
    ];
    for (path, text) in inputs {
        let cuts: Vec<usize> = (0..=text.len())
            .filter(|i| text.is_char_boundary(*i))
            .collect();
        for &cut in &cuts {
            let prefix = &text[..cut];
            let _ = project(&[(path, prefix)], &["zoo.example.io"]);
        }
    }
}
