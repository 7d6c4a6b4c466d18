use super::*;
use model::minimal::field;

fn schema(fields: Vec<SchemaField>) -> CrdSchema {
    model::minimal::schema("v1", fields)
}

fn kennel(namespaced: bool) -> Kind<'static> {
    Kind {
        group: "kennel.example.io",
        version: "v1",
        kind: "Kennel",
        namespaced,
    }
}

fn required(mut f: SchemaField) -> SchemaField {
    f.required = true;
    f
}

#[test]
fn header_and_an_empty_spec() {
    let s = schema(vec![
        field("apiVersion", "string"),
        field("kind", "string"),
        field("metadata", "object"),
        field("spec", "object"),
        field("spec.size", "integer"),
        field("status", "object"),
        required(field("status.phase", "string")),
    ]);
    assert_eq!(
        example(&kennel(true), &s),
        "apiVersion: kennel.example.io/v1
kind: Kennel
metadata:
  name: example
  namespace: default
spec: {}"
    );
    assert!(!example(&kennel(false), &s).contains("namespace"));
}

#[test]
fn required_fields_defaults_and_enums() {
    let mut capacity = field("spec.capacity", "integer");
    capacity.default = Some("4".into());
    let mut policy = required(field("spec.policy", "string"));
    policy.enum_values = vec!["\"Morning\"".into(), "\"Evening\"".into()];
    let mut mode = field("spec.mode", "string");
    mode.enum_values = vec!["\"Fast\"".into(), "\"Slow\"".into()];
    mode.default = Some("\"Slow\"".into());
    let mut args = required(field("spec.args[]", "array"));
    args.items = "string".into();
    let mut labels = required(field("spec.labels{}", "object"));
    labels.additional_properties = "string".into();
    let s = schema(vec![
        required(field("spec", "object")),
        capacity,
        policy,
        mode,
        field("spec.note", "string"),
        required(field("spec.runs[]", "array")),
        required(field("spec.runs[].name", "string")),
        field("spec.runs[].length", "integer"),
        args,
        labels,
        required(field("spec.enabled", "boolean")),
        required(field("spec.extra", "")),
    ]);
    let text = example(&kennel(false), &s);
    let spec = text.split_once("spec:\n").unwrap().1;
    assert_eq!(
        spec,
        "  capacity: 4
  policy: Morning  # one of: Morning, Evening
  mode: Slow  # one of: Fast, Slow
  runs:
    - name: \"\"
  args:
    - \"\"
  labels: {}
  enabled: false
  extra: {}"
    );
}

#[test]
fn a_required_field_under_an_optional_parent_is_not_shown() {
    let s = schema(vec![
        field("spec", "object"),
        field("spec.tls", "object"),
        required(field("spec.tls.secret", "string")),
        required(field("spec.port", "int-or-string")),
    ]);
    assert!(example(&kennel(false), &s).ends_with("spec:\n  port: 0"));
}

#[test]
fn a_repeated_subtree_is_expanded_from_its_first_copy() {
    let mut night = required(field("spec.night", "object"));
    night.same_as = Some("spec.day".into());
    let s = schema(vec![
        field("spec", "object"),
        field("spec.day", "object"),
        required(field("spec.day.start", "string")),
        field("spec.day.end", "string"),
        night,
    ]);
    assert!(example(&kennel(false), &s).ends_with("spec:\n  night:\n    start: \"\""));
}

#[test]
fn a_subtree_that_contains_itself_does_not_loop() {
    let mut child = required(field("spec.child", "object"));
    child.same_as = Some("spec".into());
    let s = schema(vec![
        field("spec", "object"),
        required(field("spec.name", "string")),
        child,
    ]);
    // spec.child has spec's own fields: expanding it would never end, so it stays empty.
    assert!(example(&kennel(false), &s).ends_with(
        "spec:
  name: \"\"
  child: {}"
    ));
}

#[test]
fn preserved_unknown_fields_and_long_defaults() {
    let mut config = required(field("spec.config", "object"));
    config.preserve_unknown_fields = true;
    let mut env = field("spec.env", "object");
    env.default = Some(format!("{{\"a\":\"{}\"}}", "x".repeat(200)));
    let s = schema(vec![field("spec", "object"), config, env]);
    assert!(example(&kennel(false), &s).ends_with(
        "spec:
  config: {}  # any fields
  env: {}  # has a long default: see the field"
    ));
}

#[test]
fn a_long_example_is_cut_and_says_so() {
    let mut fields = vec![required(field("spec", "object"))];
    for n in 0..MAX_LINES + 10 {
        fields.push(required(field(&format!("spec.f{n}"), "string")));
    }
    let mut s = schema(fields);
    s.truncated = true;
    let text = example(&kennel(false), &s);
    assert_eq!(
        text.lines().filter(|l| l.starts_with("  f")).count(),
        MAX_LINES - 1
    );
    assert!(text.contains("# … cut at 100 fields"));
    assert!(text.ends_with("deeper fields are not shown"));
}
