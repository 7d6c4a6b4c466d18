use super::*;
use crate::yaml::documents::{Read, read, split_documents};

fn crd_of(text: &str) -> (Option<Crd>, Vec<Diagnostic>) {
    let docs = split_documents(text);
    let Read::Object(o) = read(&docs[0], false) else {
        panic!("not an object")
    };
    let mut d = Vec::new();
    (extract(&o, "crd.yaml", Area::Component, &mut d), d)
}

const WIDGET: &str = r#"apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.io
spec:
  group: example.io
  names:
    kind: Widget
    plural: widgets
    shortNames: [wd, wds]
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    additionalPrinterColumns:
    - name: Ready
      type: string
      jsonPath: .status.ready
      priority: 1
    schema:
      openAPIV3Schema:
        description: Widget is a widget.
        type: object
        properties:
          spec:
            type: object
            required: [size]
            properties:
              size:
                type: integer
                default: 3
                description: How big.
              mode:
                type: string
                enum: [Fast, Slow]
              ports:
                type: array
                items:
                  type: object
                  required: [port]
                  properties:
                    port: {type: integer, format: int32}
                    name: {type: string, pattern: "^[a-z]+$"}
              labels:
                type: object
                additionalProperties: {type: string}
              verbs:
                type: array
                items: {type: string, enum: [get, list]}
              primary: &c
                type: object
                properties:
                  image: {type: string}
                  tag: {type: string}
                  pull: {type: string}
              backup: *c
              port: {x-kubernetes-int-or-string: true}
  - name: v1beta1
    served: true
    storage: false
    deprecated: true
"#;

#[test]
fn names_versions_columns_and_fields() {
    let (crd, diags) = crd_of(WIDGET);
    assert!(diags.is_empty(), "{diags:?}");
    let crd = crd.unwrap();
    assert_eq!(crd.short_names, vec!["wd", "wds"]);
    assert_eq!(crd.sources, vec![SourceRef::new("crd.yaml", 2)]);
    assert!(crd.versions[1].deprecated);
    assert_eq!(
        crd.versions[0].printer_columns,
        vec![CrdPrinterColumn {
            name: "Ready".into(),
            column_type: "string".into(),
            json_path: ".status.ready".into(),
            description: String::new(),
            priority: 1
        }]
    );
    assert_eq!(crd.schema.len(), 1);
    let s = &crd.schema[0];
    assert_eq!(s.description, "Widget is a widget.");
    let rows: Vec<(String, u32, String, bool)> = s
        .fields
        .iter()
        .map(|f| (f.path.clone(), f.depth, f.field_type.clone(), f.required))
        .collect();
    let expect = [
        ("spec", 0, "object", false),
        ("spec.backup", 1, "object", false),
        ("spec.backup.image", 2, "string", false),
        ("spec.backup.pull", 2, "string", false),
        ("spec.backup.tag", 2, "string", false),
        ("spec.labels{}", 1, "object", false),
        ("spec.mode", 1, "string", false),
        ("spec.port", 1, "int-or-string", false),
        ("spec.ports[]", 1, "array", false),
        ("spec.ports[].name", 2, "string", false),
        ("spec.ports[].port", 2, "integer", true),
        ("spec.primary", 1, "object", false),
        ("spec.size", 1, "integer", true),
        ("spec.verbs[]", 1, "array", false),
    ];
    let expect: Vec<(String, u32, String, bool)> = expect
        .iter()
        .map(|(p, d, t, r)| (p.to_string(), *d, t.to_string(), *r))
        .collect();
    assert_eq!(rows, expect);
    let by = |p: &str| s.fields.iter().find(|f| f.path == p).unwrap();
    assert_eq!(by("spec.primary").same_as.as_deref(), Some("spec.backup"));
    assert_eq!(by("spec.size").default.as_deref(), Some("3"));
    assert_eq!(by("spec.size").description, "How big.");
    assert_eq!(by("spec.mode").enum_values, vec!["\"Fast\"", "\"Slow\""]);
    assert_eq!(by("spec.verbs[]").enum_values, vec!["\"get\"", "\"list\""]);
    assert_eq!(by("spec.verbs[]").items, "string");
    assert_eq!(by("spec.ports[]").items, "object");
    assert_eq!(by("spec.ports[].port").format, "int32");
    assert_eq!(by("spec.ports[].name").pattern, "^[a-z]+$");
    assert_eq!(by("spec.labels{}").additional_properties, "string");
}

#[test]
fn cel_rules_are_kept_on_their_field_and_are_part_of_a_subtrees_identity() {
    let text = r#"apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: rs.example.io
spec:
  group: example.io
  names: {kind: R, plural: rs}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        x-kubernetes-validations:
        - rule: "self.metadata.name != 'x'"
        properties:
          a:
            type: object
            x-kubernetes-validations:
            - {rule: "self.p < self.q", message: "p & q", reason: FieldValueInvalid, fieldPath: .p}
            - {message: not a rule}
            properties: {p: {type: integer}, q: {type: integer}, r: {type: string}}
          b:
            type: object
            properties: {p: {type: integer}, q: {type: integer}, r: {type: string}}
          c:
            type: array
            items:
              type: object
              x-kubernetes-validations:
              - {rule: "has(self.p)", messageExpression: "'p'"}
              properties: {p: {type: integer}}
"#;
    let (crd, _) = crd_of(text);
    let schema = &crd.unwrap().schema[0];
    assert_eq!(schema.rules.len(), 1);
    let by = |p: &str| schema.fields.iter().find(|f| f.path == p).unwrap();
    assert_eq!(
        by("a").rules,
        vec![CelRule {
            rule: "self.p < self.q".into(),
            message: "p & q".into(),
            message_expression: String::new(),
            reason: "FieldValueInvalid".into(),
            field_path: ".p".into(),
            each: false,
            from_marker: false,
        }]
    );
    // Same fields, but `a` has a rule: `b` is listed in full, not as a copy of `a`.
    assert_eq!(by("b").same_as, None);
    assert!(by("b").rules.is_empty());
    let c = by("c[]");
    assert_eq!(c.rules.len(), 1);
    assert!(c.rules[0].each);
    assert_eq!(c.rules[0].message_expression, "'p'");
}

#[test]
fn subtrees_differing_in_a_maps_values_are_not_the_same() {
    // `limits{}` values have a pattern under `primary`, none under `backup`: the
    // subtrees look alike but `field_of` shows the pattern, so neither refers to the other.
    let resources = |pattern: &str| {
        format!(
            "{{type: object, properties: {{claims: {{type: string}}, limits: {{type: object, additionalProperties: {{type: string{pattern}}}}}, requests: {{type: string}}}}}}"
        )
    };
    let text = format!(
        "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: a.b\nspec:\n  group: b\n  names: {{kind: A, plural: as}}\n  versions:\n  - name: v1\n    schema:\n      openAPIV3Schema: {{properties: {{primary: {}, backup: {}}}}}\n",
        resources(", pattern: '^[0-9]+$'"),
        resources(""),
    );
    let (crd, _) = crd_of(&text);
    let crd = crd.unwrap();
    let fields = &crd.schema[0].fields;
    assert!(fields.iter().all(|f| f.same_as.is_none()), "{fields:#?}");
    let limits = |p: &str| fields.iter().find(|f| f.path == p).unwrap().pattern.clone();
    assert_eq!(limits("primary.limits{}"), "^[0-9]+$");
    assert_eq!(limits("backup.limits{}"), "");
}

#[test]
fn a_fragment_is_a_diagnostic() {
    let (crd, diags) = crd_of(
        "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: x\nspec:\n  conversion:\n    strategy: Webhook\n",
    );
    assert!(crd.is_none());
    assert_eq!(diags.len(), 1);
    assert_eq!(diags[0].line, 2);
}

#[test]
fn v1beta1_shared_schema_and_columns() {
    let (crd, _) = crd_of(
        "apiVersion: apiextensions.k8s.io/v1beta1\nkind: CustomResourceDefinition\nmetadata:\n  name: a.b\nspec:\n  group: b\n  version: v1\n  names: {kind: A, plural: as}\n  additionalPrinterColumns:\n  - {name: Age, type: date, JSONPath: .metadata.creationTimestamp}\n  validation:\n    openAPIV3Schema:\n      properties:\n        spec: {type: object}\n",
    );
    let crd = crd.unwrap();
    assert_eq!(crd.versions[0].name, "v1");
    assert_eq!(
        crd.versions[0].printer_columns[0].json_path,
        ".metadata.creationTimestamp"
    );
    assert_eq!(crd.schema[0].fields[0].path, "spec");
}

#[test]
fn deep_schemas_are_cut_with_a_diagnostic() {
    let mut text = String::from(
        "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: a.b\nspec:\n  group: b\n  names: {kind: A, plural: as}\n  versions:\n  - name: v1\n    schema:\n      openAPIV3Schema: ",
    );
    // Flow style keeps the YAML depth (two levels per field) under the parser's budget.
    for _ in 0..26 {
        text.push_str("{properties: {a: ");
    }
    text.push_str("{type: string}");
    for _ in 0..26 {
        text.push_str("}}");
    }
    text.push('\n');
    let (crd, diags) = crd_of(&text);
    let crd = crd.unwrap();
    assert!(crd.schema[0].truncated);
    assert_eq!(crd.schema[0].fields.len(), MAX_DEPTH as usize);
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert!(diags[0].message.contains("deeper than 24"));
}
