//! Kubernetes manifests: multi-document YAML → CRDs, Services, ConfigMaps, webhook
//! configurations, RBAC rules, and Helm `Chart.yaml` metadata.
//!
//! Documents are split here (not by the YAML parser) so every object keeps the line of its
//! own `kind:`; each document is then parsed with serde-saphyr, whose budgets stop alias
//! bombs and runaway nesting. Helm chart templates, and other files whose `{{ … }}`
//! expressions make them unparsable, are not analyzed yet: each gives one diagnostic
//! instead of wrong rows.

use serde_json::Value;

use crate::model::{
    Area, ConfigMap, Crd, CrdVersion, Diagnostic, HelmChart, Origin, RbacRule, Service,
    ServicePort, SourceRef, Webhook, WebhookRule, WebhookType,
};

#[derive(Debug, Default)]
pub struct YamlFindings {
    pub crds: Vec<Crd>,
    pub webhooks: Vec<Webhook>,
    pub services: Vec<Service>,
    pub configmaps: Vec<ConfigMap>,
    pub helm_charts: Vec<HelmChart>,
    pub rbac: Vec<RbacRule>,
    pub diagnostics: Vec<Diagnostic>,
}

/// One document of a multi-document stream, with the 1-based line it starts on.
#[derive(Debug, PartialEq)]
pub struct Document<'a> {
    pub text: &'a str,
    pub first_line: u32,
    /// The line of the top-level `kind:` key, if any.
    pub kind_line: Option<u32>,
}

/// Splits a YAML stream at `---` and `...` lines.
pub fn split_documents(text: &str) -> Vec<Document<'_>> {
    let mut docs = Vec::new();
    let mut start = 0usize;
    let mut start_line = 1u32;
    let mut kind_line = None;
    let mut offset = 0usize;
    let mut line_no = 0u32;
    fn push<'a>(
        docs: &mut Vec<Document<'a>>,
        body: &'a str,
        first_line: u32,
        kind_line: Option<u32>,
    ) {
        if body
            .lines()
            .any(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        {
            docs.push(Document {
                text: body,
                first_line,
                kind_line,
            });
        }
    }
    for line in text.split_inclusive('\n') {
        line_no += 1;
        let content = line.trim_end_matches(['\n', '\r']);
        let is_separator = content == "---"
            || content.starts_with("--- ")
            || content.starts_with("---\t")
            || content == "..."
            || content.starts_with("... ");
        if is_separator {
            push(&mut docs, &text[start..offset], start_line, kind_line);
            // `--- value` keeps its content in the next document.
            start = if content.starts_with("--- ") {
                offset + 4
            } else {
                offset + line.len()
            };
            start_line = if content.starts_with("--- ") {
                line_no
            } else {
                line_no + 1
            };
            kind_line = None;
        } else if kind_line.is_none() && content.starts_with("kind:") {
            kind_line = Some(line_no);
        }
        offset += line.len();
    }
    push(&mut docs, &text[start..], start_line, kind_line);
    docs
}

/// Analyzes one YAML file.
pub fn analyze(path: &str, text: &str, area: Area) -> YamlFindings {
    let mut out = YamlFindings::default();
    let file_name = path.rsplit('/').next().unwrap_or(path);
    if file_name == "Chart.yaml" {
        if let Some(chart) = helm_chart(path, text, area) {
            out.helm_charts.push(chart);
        }
        return out;
    }
    let helm_template = path.contains("/templates/") && text.contains("{{");
    if helm_template {
        out.diagnostics.push(templated(path, text));
        return out;
    }
    for doc in split_documents(text) {
        // Only documents with a top-level kind can be Kubernetes objects; skip the rest
        // (values files, kustomizations without kind, configuration snippets) unparsed.
        let Some(kind_line) = doc.kind_line else {
            continue;
        };
        let value: Value = match serde_saphyr::from_str(doc.text) {
            Ok(v) => v,
            Err(_) if doc.text.contains("{{") => {
                // One diagnostic per file: every document of a template fails alike.
                if !out
                    .diagnostics
                    .iter()
                    .any(|d| d.message.starts_with("templated"))
                {
                    out.diagnostics.push(templated(path, text));
                }
                continue;
            }
            Err(e) => {
                let first = e.to_string().lines().next().unwrap_or("").to_string();
                out.diagnostics.push(Diagnostic::new(
                    path,
                    doc.first_line,
                    format!("YAML not parsed: {first}"),
                ));
                continue;
            }
        };
        object(&value, path, kind_line, area, &mut out);
    }
    out
}

/// A file with template expressions (Helm, Jinja) is not YAML until rendered; reading it as
/// YAML would give wrong rows or parse errors. Points at its first template expression.
fn templated(path: &str, text: &str) -> Diagnostic {
    let line = text
        .lines()
        .position(|l| l.contains("{{"))
        .map(|i| i as u32 + 1)
        .unwrap_or(1);
    Diagnostic::new(
        path,
        line,
        "templated YAML (`{{ … }}`) is not analyzed yet: objects it renders are not listed",
    )
}

fn str_at<'a>(v: &'a Value, path: &[&str]) -> &'a str {
    let mut cur = v;
    for key in path {
        match cur.get(key) {
            Some(next) => cur = next,
            None => return "",
        }
    }
    cur.as_str().unwrap_or("")
}

/// A scalar as text: strings as written, numbers and booleans in their canonical form.
fn scalar(v: Option<&Value>) -> String {
    match v {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Number(n)) => n.to_string(),
        Some(Value::Bool(b)) => b.to_string(),
        _ => String::new(),
    }
}

fn strings(v: Option<&Value>) -> Vec<String> {
    v.and_then(Value::as_array)
        .map(|a| a.iter().map(|x| scalar(Some(x))).collect())
        .unwrap_or_default()
}

fn object(v: &Value, path: &str, line: u32, area: Area, out: &mut YamlFindings) {
    let api_version = str_at(v, &["apiVersion"]);
    let kind = str_at(v, &["kind"]);
    let name = str_at(v, &["metadata", "name"]).to_string();
    let namespace = str_at(v, &["metadata", "namespace"]).to_string();
    let sources = vec![SourceRef::new(path, line)];
    let group = api_version.rsplit_once('/').map(|(g, _)| g).unwrap_or("");
    match (group, kind) {
        ("apiextensions.k8s.io", "CustomResourceDefinition") => {
            out.crds.push(crd(v, area, sources))
        }
        ("", "Service") => out
            .services
            .push(service(v, name, namespace, area, sources)),
        ("", "ConfigMap") => {
            let mut keys: Vec<String> = ["data", "binaryData"]
                .iter()
                .filter_map(|k| v.get(k).and_then(Value::as_object))
                .flat_map(|m| m.keys().cloned())
                .collect();
            keys.sort();
            out.configmaps.push(ConfigMap {
                name,
                namespace,
                keys,
                area,
                sources,
            });
        }
        (
            "admissionregistration.k8s.io",
            "MutatingWebhookConfiguration" | "ValidatingWebhookConfiguration",
        ) => {
            let kind = if kind.starts_with("Mutating") {
                WebhookType::Mutating
            } else {
                WebhookType::Validating
            };
            for w in v
                .get("webhooks")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                out.webhooks
                    .push(webhook(w, kind, &name, area, sources.clone()));
            }
        }
        ("rbac.authorization.k8s.io", "ClusterRole" | "Role") => {
            let role = if kind == "Role" && !namespace.is_empty() {
                format!("Role/{namespace}/{name}")
            } else {
                format!("{kind}/{name}")
            };
            for rule in v
                .get("rules")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                let mut resources = strings(rule.get("resources"));
                resources.extend(strings(rule.get("nonResourceURLs")));
                out.rbac.push(RbacRule {
                    role: role.clone(),
                    groups: strings(rule.get("apiGroups")),
                    resources,
                    resource_names: strings(rule.get("resourceNames")),
                    verbs: strings(rule.get("verbs")),
                    origin: Origin::Manifest,
                    area,
                    sources: sources.clone(),
                });
            }
        }
        _ => {}
    }
}

fn crd(v: &Value, area: Area, sources: Vec<SourceRef>) -> Crd {
    let spec = v.get("spec").cloned().unwrap_or(Value::Null);
    let mut versions: Vec<CrdVersion> = spec
        .get("versions")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|ver| CrdVersion {
            name: scalar(ver.get("name")),
            served: ver.get("served").and_then(Value::as_bool).unwrap_or(false),
            storage: ver.get("storage").and_then(Value::as_bool).unwrap_or(false),
        })
        .collect();
    if versions.is_empty() {
        // apiextensions v1beta1 allowed a single `spec.version`.
        let single = scalar(spec.get("version"));
        if !single.is_empty() {
            versions.push(CrdVersion {
                name: single,
                served: true,
                storage: true,
            });
        }
    }
    Crd {
        group: str_at(&spec, &["group"]).to_string(),
        kind: str_at(&spec, &["names", "kind"]).to_string(),
        plural: str_at(&spec, &["names", "plural"]).to_string(),
        scope: str_at(&spec, &["scope"]).to_string(),
        versions,
        area,
        sources,
    }
}

fn service(
    v: &Value,
    name: String,
    namespace: String,
    area: Area,
    sources: Vec<SourceRef>,
) -> Service {
    let ports = v
        .get("spec")
        .and_then(|s| s.get("ports"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|p| {
            let protocol = scalar(p.get("protocol"));
            ServicePort {
                name: scalar(p.get("name")),
                port: scalar(p.get("port")),
                target_port: scalar(p.get("targetPort")),
                protocol: if protocol.is_empty() {
                    "TCP".into()
                } else {
                    protocol
                },
            }
        })
        .collect();
    Service {
        name,
        namespace,
        ports,
        area,
        sources,
    }
}

fn webhook(
    w: &Value,
    kind: WebhookType,
    configuration: &str,
    area: Area,
    sources: Vec<SourceRef>,
) -> Webhook {
    let client = w.get("clientConfig").cloned().unwrap_or(Value::Null);
    let (service, path) = match client.get("service") {
        Some(svc) => {
            let ns = str_at(svc, &["namespace"]);
            let name = str_at(svc, &["name"]);
            let service = if ns.is_empty() {
                name.to_string()
            } else {
                format!("{ns}/{name}")
            };
            (service, str_at(svc, &["path"]).to_string())
        }
        None => (str_at(&client, &["url"]).to_string(), String::new()),
    };
    let policy = scalar(w.get("failurePolicy"));
    Webhook {
        name: scalar(w.get("name")),
        kind,
        path,
        // admissionregistration/v1 defaults an absent failurePolicy to Fail.
        failure_policy: if policy.is_empty() {
            "Fail (default)".into()
        } else {
            policy
        },
        service,
        configuration: configuration.to_string(),
        origin: Origin::Manifest,
        object: None,
        rules: w
            .get("rules")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .map(|r| WebhookRule {
                groups: strings(r.get("apiGroups")),
                versions: strings(r.get("apiVersions")),
                resources: strings(r.get("resources")),
                operations: strings(r.get("operations")),
            })
            .collect(),
        area,
        sources,
    }
}

/// Chart.yaml metadata with versions exactly as written (YAML would turn `1.10` into 1.1).
fn helm_chart(path: &str, text: &str, area: Area) -> Option<HelmChart> {
    let mut name = None;
    let mut version = String::new();
    let mut app_version = String::new();
    let mut line_of_name = 1;
    for (i, line) in text.lines().enumerate() {
        let Some((key, value)) = line.split_once(':') else {
            continue;
        };
        if key.starts_with([' ', '\t', '-']) {
            continue;
        }
        let value = raw_scalar(value);
        match key {
            "name" => {
                name = Some(value);
                line_of_name = i as u32 + 1;
            }
            "version" => version = value,
            "appVersion" => app_version = value,
            _ => {}
        }
    }
    Some(HelmChart {
        name: name?,
        version,
        app_version,
        area,
        sources: vec![SourceRef::new(path, line_of_name)],
    })
}

/// The text of a plain or quoted scalar on one line, without a trailing comment.
fn raw_scalar(value: &str) -> String {
    let v = value.trim();
    for quote in ['"', '\''] {
        if let Some(rest) = v.strip_prefix(quote) {
            return rest.split(quote).next().unwrap_or("").to_string();
        }
    }
    v.split(" #").next().unwrap_or("").trim().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documents_keep_their_kind_lines() {
        let text = "---\napiVersion: v1\nkind: ConfigMap\n---\n# only a comment\n---\napiVersion: v1\nmetadata:\n  kind: nested\nkind: Service\n";
        let docs = split_documents(text);
        assert_eq!(docs.len(), 2);
        assert_eq!(docs[0].first_line, 2);
        assert_eq!(docs[0].kind_line, Some(3));
        assert_eq!(docs[1].kind_line, Some(10));
    }

    #[test]
    fn service_configmap_and_crd() {
        let text = r#"apiVersion: v1
kind: Service
metadata:
  name: metrics
  namespace: system
spec:
  ports:
  - name: https
    port: 8443
    targetPort: https
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: cfg
data:
  b: "1"
  a: |
    x
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.io
spec:
  group: example.io
  names:
    kind: Widget
    plural: widgets
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
"#;
        let f = analyze("config/all.yaml", text, Area::Component);
        assert!(f.diagnostics.is_empty(), "{:?}", f.diagnostics);
        assert_eq!(f.services.len(), 1);
        let s = &f.services[0];
        assert_eq!(
            (s.name.as_str(), s.namespace.as_str()),
            ("metrics", "system")
        );
        assert_eq!(s.ports[0].port, "8443");
        assert_eq!(s.ports[0].target_port, "https");
        assert_eq!(s.ports[0].protocol, "TCP");
        assert_eq!(s.sources, vec![SourceRef::new("config/all.yaml", 2)]);
        assert_eq!(f.configmaps[0].keys, vec!["a".to_string(), "b".to_string()]);
        assert_eq!(f.configmaps[0].sources[0].line, 13);
        let c = &f.crds[0];
        assert_eq!(
            (c.group.as_str(), c.kind.as_str(), c.plural.as_str()),
            ("example.io", "Widget", "widgets")
        );
        assert_eq!(
            c.versions,
            vec![CrdVersion {
                name: "v1".into(),
                served: true,
                storage: true
            }]
        );
        assert_eq!(c.sources[0].line, 22);
    }

    #[test]
    fn broken_yaml_is_a_diagnostic() {
        let f = analyze(
            "bad.yaml",
            "kind: Service\nmetadata: [unclosed\n",
            Area::Component,
        );
        assert_eq!(f.diagnostics.len(), 1);
        assert_eq!(f.diagnostics[0].line, 1);
        assert!(f.diagnostics[0].message.starts_with("YAML not parsed"));
    }

    #[test]
    fn alias_bomb_is_a_diagnostic_not_a_hang() {
        let mut text = String::from("kind: ConfigMap\na: &a [x,x,x,x,x,x,x,x,x,x]\n");
        for i in 1..12 {
            let prev = if i == 1 {
                "a".to_string()
            } else {
                format!("a{}", i - 1)
            };
            text.push_str(&format!(
                "a{i}: &a{i} [*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev}]\n"
            ));
        }
        let f = analyze("bomb.yaml", &text, Area::Component);
        assert_eq!(f.diagnostics.len(), 1, "{:?}", f.diagnostics);
    }

    #[test]
    fn jinja_placeholders_are_reported_once_per_file() {
        let text = "kind: InferenceGraph\nmetadata:\n  name: {{ graph_name }}\n---\nkind: InferenceGraph\nmetadata:\n  name: {{ other }}\n";
        let f = analyze("test/x.yaml", text, Area::Samples);
        assert_eq!(f.diagnostics.len(), 1, "{:?}", f.diagnostics);
        assert_eq!(f.diagnostics[0].line, 3);
    }

    #[test]
    fn braces_inside_a_valid_document_are_kept_as_written() {
        let text =
            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: tpl\ndata:\n  t: \"{{ .X }}\"\n";
        let f = analyze("config/x.yaml", text, Area::Component);
        assert!(f.diagnostics.is_empty());
        assert_eq!(f.configmaps[0].keys, vec!["t".to_string()]);
    }

    #[test]
    fn chart_versions_are_printed_as_written() {
        let f = analyze(
            "charts/x/Chart.yaml",
            "apiVersion: v2\nname: x\nversion: 1.10\nappVersion: \"v0.18.0\" # app\n",
            Area::Component,
        );
        let c = &f.helm_charts[0];
        assert_eq!(
            (c.name.as_str(), c.version.as_str(), c.app_version.as_str()),
            ("x", "1.10", "v0.18.0")
        );
        assert_eq!(c.sources[0].line, 2);
    }

    #[test]
    fn helm_templates_are_not_misread() {
        let f = analyze(
            "charts/x/templates/svc.yaml",
            "kind: Service\nmetadata:\n  name: {{ .Values.name }}\n",
            Area::Component,
        );
        assert!(f.services.is_empty());
        assert_eq!(f.diagnostics.len(), 1);
    }
}
