use super::*;

#[test]
fn chart_versions_and_dependencies_as_written() {
    let mut d = Vec::new();
    let c = chart(
            "charts/x/Chart.yaml",
            "apiVersion: v2\nname: x\ndescription: An example chart\nversion: 1.10\nappVersion: \"v0.18.0\" # app\ndependencies:\n- name: redis\n  version: 17.3.0\n  repository: https://charts.example.io\n  condition: redis.enabled\n",
            Area::Component,
            &mut d,
        )
        .unwrap();
    assert!(d.is_empty());
    assert_eq!(
        (c.name.as_str(), c.version.as_str(), c.app_version.as_str()),
        ("x", "1.10", "v0.18.0")
    );
    assert_eq!(c.description, "An example chart");
    assert_eq!(c.sources[0].line, 2);
    assert_eq!(
        c.dependencies,
        vec![ChartDependency {
            name: "redis".into(),
            version: "17.3.0".into(),
            repository: "https://charts.example.io".into(),
            condition: "redis.enabled".into(),
            alias: String::new()
        }]
    );
}

const VALUES: &str = r#"# -- Number of manager replicas.
replicaCount: 1

image:
  # -- Image repository.
  repository: example.io/manager
  # The tag; defaults to the chart's appVersion.
  # tag: latest
  tag: "" # empty
  pullPolicy: IfNotPresent

# -- Extra arguments
# passed to the manager.
# @default -- none
extraArgs: []

tolerations:
- key: a
  operator: Exists
resources:
  limits:
    cpu: 500m
script: |
  echo hi
  key: not-a-key
after: true
"#;

#[test]
fn values_are_flattened_with_comments() {
    let mut d = Vec::new();
    let keys = values("charts/x/values.yaml", VALUES, &mut d);
    assert!(d.is_empty(), "{d:?}");
    let rows: Vec<(&str, &str, &str, &str, u32)> = keys
        .iter()
        .map(|k| {
            (
                k.value.key.as_str(),
                k.value.value_type.as_str(),
                k.value.default.as_str(),
                k.value.description.as_str(),
                k.value.sources[0].line,
            )
        })
        .collect();
    assert_eq!(
        rows,
        vec![
            ("replicaCount", "int", "1", "Number of manager replicas.", 2),
            (
                "image.repository",
                "string",
                "example.io/manager",
                "Image repository.",
                6
            ),
            (
                "image.tag",
                "string",
                "\"\"",
                "The tag; defaults to the chart's appVersion.",
                9
            ),
            ("image.pullPolicy", "string", "IfNotPresent", "", 10),
            (
                "extraArgs",
                "list",
                "none",
                "Extra arguments passed to the manager.",
                15
            ),
            (
                "tolerations",
                "list",
                "[{\"key\":\"a\",\"operator\":\"Exists\"}]",
                "",
                17
            ),
            ("resources.limits.cpu", "string", "500m", "", 22),
            (
                "script",
                "string",
                "\"echo hi\\nkey: not-a-key\\n\"",
                "",
                23
            ),
            ("after", "bool", "true", "", 26),
        ]
    );
}

/// (key, description) of each listed value.
fn described(text: &str) -> Vec<(String, String)> {
    let mut d = Vec::new();
    let keys = values("charts/x/values.yaml", text, &mut d);
    assert!(d.is_empty(), "{d:?}");
    keys.into_iter()
        .map(|k| (k.value.key, k.value.description))
        .collect()
}

#[test]
fn a_long_comment_block_does_not_stop_the_parse() {
    // 40 comment lines between a key and its first child: the parser's comment buffer
    // (32 events) used to fail the whole file.
    let block: String = (0..40).map(|i| format!("  # example line {i}\n")).collect();
    let text = format!(
        "controller:\n{block}  # -- Image of the manager.\n  image: example.io/m\nafter: 1\n"
    );
    assert_eq!(
        described(&text),
        vec![
            (
                "controller.image".to_string(),
                "Image of the manager.".to_string()
            ),
            ("after".to_string(), String::new()),
        ]
    );
    let mut d = Vec::new();
    let c = chart(
        "charts/x/Chart.yaml",
        &format!(
            "apiVersion: v2\nname: x\ndependencies:\n{}- name: y\n",
            block.replace("  #", "#")
        ),
        Area::Component,
        &mut d,
    );
    assert!(d.is_empty(), "{d:?}");
    assert_eq!(c.unwrap().dependencies.len(), 1);
}

#[test]
fn commented_out_yaml_is_not_a_description() {
    let text = "# foo:\n#   bar: 1\nreal: 2\n\n# The sidecar to run.\n# sidecar:\n#   script: |\n#     echo starting\n#     run the thing\n#   resources: {}\nsidecar: {}\n\n# Plain words directly above.\nplain: true\n\n# -- helm-docs text\n# continued.\ndocs: 1\n\n# Example:\n#   - name: a\n#     value: b\nextra: []\n";
    assert_eq!(
        described(text),
        vec![
            ("real".to_string(), String::new()),
            ("sidecar".to_string(), "The sidecar to run.".to_string()),
            (
                "plain".to_string(),
                "Plain words directly above.".to_string()
            ),
            ("docs".to_string(), "helm-docs text continued.".to_string()),
            ("extra".to_string(), String::new()),
        ]
    );
}

#[test]
fn schema_joins_values_and_adds_its_own_keys() {
    let mut d = Vec::new();
    let schema_text = r#"{
  "type": "object",
  "required": ["replicaCount"],
  "properties": {
    "replicaCount": {"type": "integer", "minimum": 1},
    "mode": {"type": "string", "enum": ["a", "b"], "description": "Run mode."}
  }
}"#;
    let s = schema("charts/x/values.schema.json", schema_text, &mut d);
    assert_eq!(s.len(), 2);
    assert_eq!((s[0].parts[0].as_str(), s[0].line), ("mode", 6));
    assert_eq!((s[1].parts[0].as_str(), s[1].line), ("replicaCount", 5));
    let v = values("charts/x/values.yaml", "replicaCount: 1\n", &mut d);
    let c = chart(
        "charts/x/Chart.yaml",
        "name: x\nversion: 0.1.0\n",
        Area::Component,
        &mut d,
    )
    .unwrap();
    let charts = assemble(vec![
        ("charts/x/Chart.yaml".into(), ChartPart::Chart(c)),
        ("charts/x/values.schema.json".into(), ChartPart::Schema(s)),
        ("charts/x/values.yaml".into(), ChartPart::Values(v)),
        ("other/values.yaml".into(), ChartPart::Values(Vec::new())),
    ]);
    assert_eq!(charts.len(), 1);
    let c = &charts[0];
    assert_eq!(c.values_schema, "charts/x/values.schema.json");
    assert_eq!(c.values[0].key, "replicaCount");
    assert_eq!(c.values[0].schema_type, "integer");
    assert!(c.values[0].required);
    assert_eq!(c.values[1].key, "mode");
    assert_eq!(c.values[1].enum_values, vec!["\"a\"", "\"b\""]);
    assert_eq!(c.values[1].description, "Run mode.");
    assert_eq!(
        c.values[1].sources,
        vec![SourceRef::new("charts/x/values.schema.json", 6)]
    );
    assert!(d.is_empty(), "{d:?}");
}

#[test]
fn broken_files_are_diagnostics() {
    let mut d = Vec::new();
    assert!(chart("c/Chart.yaml", "name: [x\n", Area::Component, &mut d).is_none());
    assert!(values("c/values.yaml", "a:\n\tb: 1\n", &mut d).is_empty());
    let deep = format!(
        "{}{}",
        "{\"properties\":{\"a\":".repeat(200),
        "}".repeat(400)
    );
    assert!(schema("c/values.schema.json", &deep, &mut d).is_empty());
    assert_eq!(d.len(), 3, "{d:?}");
}
