//! CustomResourceDefinitions: names, scope, versions (served/storage/deprecated), short
//! names, printer columns and the OpenAPI v3 schema of each version as a flat field list.
//!
//! The schema is walked without recursion. CRD schemas repeat whole subtrees (KServe's
//! InferenceService embeds a PodSpec in each of its components: 12,833 fields in all), so a
//! subtree identical to one already listed is listed once: the later field carries
//! `same_as` with the earlier path and its children are not repeated. Identity is the
//! subtree's content (types, formats, enums, defaults, descriptions, required flags and
//! property names, and CEL rules: `x-kubernetes-validations`, kept on the field they are
//! on), not the field's own description. Beyond [`MAX_DEPTH`] levels or
//! [`MAX_FIELDS`] fields per version the list is cut, marked truncated, with a diagnostic.

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};

use kubernetes::schema_tree::{MAX_DEPTH, parents_by_depth};
use serde_json::Value;

use super::documents::Object;
use super::value::{array_at, at, scalar, str_at, strings};
use model::{
    Area, CelRule, Crd, CrdPrinterColumn, CrdSchema, CrdVersion, Diagnostic, SchemaField, SourceRef,
};

/// At most this many fields are listed per version.
pub const MAX_FIELDS: usize = 5_000;
/// Subtrees with fewer fields than this are repeated rather than referred to.
const SAME_AS_MIN_FIELDS: usize = 4;

/// The CRD an object defines, or `None` (with a diagnostic) when it lacks a group or kind:
/// such a document is a fragment (a patch) rather than a definition.
pub fn extract(
    o: &Object,
    path: &str,
    area: Area,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Crd> {
    let spec = o.value.get("spec").unwrap_or(&Value::Null);
    let group = str_at(spec, &["group"]).to_string();
    let kind = str_at(spec, &["names", "kind"]).to_string();
    if group.is_empty() || kind.is_empty() {
        diagnostics.push(Diagnostic::new(
            path,
            o.line,
            format!(
                "CustomResourceDefinition `{}` has no spec.group or spec.names.kind: a fragment (kustomize patch?), not listed",
                o.name
            ),
        ));
        return None;
    }
    // apiextensions v1beta1 allowed one schema and one column list for every version.
    let shared_schema = at(spec, &["validation", "openAPIV3Schema"]);
    let shared_columns = array_at(spec, &["additionalPrinterColumns"]);
    let mut versions = Vec::new();
    let mut schema = Vec::new();
    for ver in array_at(spec, &["versions"]) {
        let name = scalar(ver.get("name"));
        let columns = ver
            .get("additionalPrinterColumns")
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or(shared_columns);
        versions.push(CrdVersion {
            name: name.clone(),
            served: ver.get("served").and_then(Value::as_bool).unwrap_or(false),
            storage: ver.get("storage").and_then(Value::as_bool).unwrap_or(false),
            deprecated: ver
                .get("deprecated")
                .and_then(Value::as_bool)
                .unwrap_or(false),
            printer_columns: printer_columns(columns),
        });
        if let Some(s) = at(ver, &["schema", "openAPIV3Schema"]).or(shared_schema) {
            schema.push(fields(s, &name, path, o.line, diagnostics));
        }
    }
    if versions.is_empty() {
        let single = scalar(spec.get("version"));
        if !single.is_empty() {
            versions.push(CrdVersion {
                name: single.clone(),
                served: true,
                storage: true,
                deprecated: false,
                printer_columns: printer_columns(shared_columns),
            });
            if let Some(s) = shared_schema {
                schema.push(fields(s, &single, path, o.line, diagnostics));
            }
        }
    }
    Some(Crd {
        group,
        kind,
        plural: str_at(spec, &["names", "plural"]).to_string(),
        scope: str_at(spec, &["scope"]).to_string(),
        versions,
        short_names: strings(at(spec, &["names", "shortNames"])),
        schema,
        templated: o.templated,
        bundled: false,
        area,
        sources: vec![SourceRef::new(path, o.line)],
    })
}

fn printer_columns(columns: &[Value]) -> Vec<CrdPrinterColumn> {
    columns
        .iter()
        .map(|c| CrdPrinterColumn {
            name: scalar(c.get("name")),
            column_type: scalar(c.get("type")),
            // v1 spells it `jsonPath`, v1beta1 `JSONPath`.
            json_path: scalar(c.get("jsonPath").or(c.get("JSONPath"))),
            description: scalar(c.get("description")),
            priority: c.get("priority").and_then(Value::as_i64).unwrap_or(0),
        })
        .collect()
}

/// One field of the flattened tree, before emission.
struct Node<'a> {
    /// The property's own schema (description, type, …).
    schema: &'a Value,
    /// The schema whose `properties` are this field's children: the property itself, or
    /// the innermost `items`/`additionalProperties` below it.
    inner: &'a Value,
    /// The property name, as written.
    name: String,
    path: String,
    depth: u32,
    required: bool,
    items: String,
    additional: String,
    /// Number of fields in the subtree, this one included.
    size: usize,
    /// Content of the subtree below this field (see the module documentation).
    subtree: u64,
    /// This field's own content including its description, for its parent's identity.
    own: u64,
}

/// Keys whose content belongs to the children, not to the field itself.
const CHILD_KEYS: [&str; 4] = ["properties", "items", "additionalProperties", "required"];

fn hash_own(schema: &Value, with_description: bool) -> u64 {
    let mut h = DefaultHasher::new();
    if let Some(map) = schema.as_object() {
        for (k, v) in map {
            if CHILD_KEYS.contains(&k.as_str()) || (!with_description && k == "description") {
                continue;
            }
            k.hash(&mut h);
            v.to_string().hash(&mut h);
        }
    }
    h.finish()
}

/// The type shown for a schema: `int-or-string`, the `type`, or "" (any).
fn type_of(schema: &Value) -> String {
    if schema
        .get("x-kubernetes-int-or-string")
        .and_then(Value::as_bool)
        .unwrap_or(false)
    {
        return "int-or-string".into();
    }
    scalar(schema.get("type"))
}

/// Walks `items` and `additionalProperties` down from a property to the schema whose
/// properties are its children, noting the item and value types on the way.
fn descend(schema: &Value) -> (&Value, String, String, String) {
    let mut inner = schema;
    let mut suffix = String::new();
    let mut items = String::new();
    let mut additional = String::new();
    // Bounded: `[][]…` nesting deeper than the field limit is not followed further.
    for _ in 0..MAX_DEPTH {
        if let Some(i) = inner.get("items").filter(|i| i.is_object()) {
            if suffix.is_empty() {
                items = display_type(i);
            }
            suffix.push_str("[]");
            inner = i;
        } else if let Some(a) = inner
            .get("additionalProperties")
            .filter(|a| a.is_object() && inner.get("properties").is_none())
        {
            if suffix.is_empty() {
                additional = display_type(a);
            }
            suffix.push_str("{}");
            inner = a;
        } else {
            break;
        }
    }
    (inner, suffix, items, additional)
}

fn display_type(schema: &Value) -> String {
    let t = type_of(schema);
    if t.is_empty() { "any".into() } else { t }
}

/// The field list of one version's schema.
fn fields(
    root: &Value,
    version: &str,
    path: &str,
    line: u32,
    diagnostics: &mut Vec<Diagnostic>,
) -> CrdSchema {
    let mut nodes: Vec<Node> = Vec::new();
    let mut too_deep = false;
    // Pre-order: a field's subtree is the contiguous run of nodes after it.
    let mut stack: Vec<Pending> = Vec::new();
    push_children(root, "", 0, &mut stack);
    while let Some(Pending {
        schema,
        name,
        path: prefix,
        depth,
    }) = stack.pop()
    {
        if depth >= MAX_DEPTH {
            too_deep = true;
            continue;
        }
        let (inner, suffix, items, additional) = descend(schema);
        let path = format!("{prefix}{suffix}");
        nodes.push(Node {
            schema,
            inner,
            name,
            path: path.clone(),
            depth,
            required: false,
            items,
            additional,
            size: 1,
            subtree: 0,
            own: 0,
        });
        push_children(inner, &path, depth + 1, &mut stack);
    }
    // Required flags: a child is required when its parent's inner schema lists it.
    mark_required(root, &mut nodes);
    // Sizes and subtree identities, children before parents.
    let mut child_acc: Vec<(usize, DefaultHasher)> = Vec::with_capacity(nodes.len());
    for _ in 0..nodes.len() {
        child_acc.push((0, DefaultHasher::new()));
    }
    let parents = parent_indices(&nodes);
    for i in (0..nodes.len()).rev() {
        let (count, hasher) = std::mem::replace(&mut child_acc[i], (0, DefaultHasher::new()));
        let node = &mut nodes[i];
        let mut h = hasher;
        hash_own(node.schema, false).hash(&mut h);
        // An array's items or a map's values: their format, pattern and enum are shown on
        // the field (`field_of`), so two fields differing only there are not the same.
        if !std::ptr::eq(node.inner, node.schema) {
            hash_own(node.inner, false).hash(&mut h);
        }
        node.items.hash(&mut h);
        node.additional.hash(&mut h);
        node.size = 1 + count;
        node.subtree = h.finish();
        node.own = hash_own(node.schema, true);
        if let Some(p) = parents[i] {
            let (c, ph) = &mut child_acc[p];
            *c += node.size;
            node.name.hash(ph);
            node.required.hash(ph);
            node.own.hash(ph);
            node.subtree.hash(ph);
        }
    }
    // Emission with `same_as` for repeated subtrees.
    let mut seen: HashMap<(u64, usize), String> = HashMap::new();
    let mut out = Vec::new();
    let mut truncated = too_deep;
    let mut i = 0;
    while i < nodes.len() {
        if out.len() >= MAX_FIELDS {
            truncated = true;
            diagnostics.push(Diagnostic::new(
                path,
                line,
                format!(
                    "CRD schema of version {version} has more than {MAX_FIELDS} distinct fields: the field list is cut there"
                ),
            ));
            break;
        }
        let node = &nodes[i];
        let mut field = field_of(node);
        let mut next = i + 1;
        if node.size >= SAME_AS_MIN_FIELDS {
            match seen.get(&(node.subtree, node.size)) {
                Some(first) => {
                    field.same_as = Some(first.clone());
                    next = i + node.size;
                }
                None => {
                    seen.insert((node.subtree, node.size), node.path.clone());
                }
            }
        }
        out.push(field);
        i = next;
    }
    if too_deep {
        diagnostics.push(Diagnostic::new(
            path,
            line,
            format!(
                "CRD schema of version {version} nests fields deeper than {MAX_DEPTH} levels: deeper fields are not listed"
            ),
        ));
    }
    CrdSchema {
        version: version.to_string(),
        description: scalar(root.get("description")),
        preserve_unknown_fields: root
            .get("x-kubernetes-preserve-unknown-fields")
            .and_then(Value::as_bool)
            .unwrap_or(false),
        fields: out,
        rules: rules_of(root, false),
        truncated,
        go_type: None,
    }
}

/// A property waiting to be visited.
struct Pending<'a> {
    schema: &'a Value,
    name: String,
    path: String,
    depth: u32,
}

/// Pushes the properties of `inner` (in reverse, so they pop in order).
fn push_children<'a>(inner: &'a Value, prefix: &str, depth: u32, stack: &mut Vec<Pending<'a>>) {
    if let Some(props) = inner.get("properties").and_then(Value::as_object) {
        for (name, child) in props.iter().rev() {
            let path = if prefix.is_empty() {
                name.clone()
            } else {
                format!("{prefix}.{name}")
            };
            stack.push(Pending {
                schema: child,
                name: name.clone(),
                path,
                depth,
            });
        }
    }
}

/// The index of each node's parent (pre-order: the nearest earlier node one level up).
fn parent_indices(nodes: &[Node]) -> Vec<Option<usize>> {
    parents_by_depth(nodes.iter().map(|n| n.depth))
}

fn mark_required(root: &Value, nodes: &mut [Node]) {
    let parents = parent_indices(nodes);
    let root_required = strings(root.get("required"));
    for i in 0..nodes.len() {
        let required = match parents[i] {
            Some(p) => strings(nodes[p].inner.get("required")).contains(&nodes[i].name),
            None => root_required.contains(&nodes[i].name),
        };
        nodes[i].required = required;
    }
}

fn field_of(node: &Node) -> SchemaField {
    let s = node.schema;
    let flag = |key: &str| s.get(key).and_then(Value::as_bool).unwrap_or(false);
    let mut enum_values: Vec<String> = array_at(s, &["enum"]).iter().map(json_text).collect();
    let mut format = scalar(s.get("format"));
    let mut pattern = scalar(s.get("pattern"));
    // An array of enum strings keeps its enum on the items; show it on the field.
    if !std::ptr::eq(node.inner, node.schema) {
        if enum_values.is_empty() {
            enum_values = array_at(node.inner, &["enum"])
                .iter()
                .map(json_text)
                .collect();
        }
        if format.is_empty() {
            format = scalar(node.inner.get("format"));
        }
        if pattern.is_empty() {
            pattern = scalar(node.inner.get("pattern"));
        }
    }
    SchemaField {
        path: node.path.clone(),
        depth: node.depth,
        field_type: type_of(s),
        description: scalar(s.get("description")),
        required: node.required,
        default: s.get("default").map(json_text),
        enum_values,
        format,
        pattern,
        limits: limits_of(s),
        items: node.items.clone(),
        additional_properties: node.additional.clone(),
        nullable: flag("nullable"),
        preserve_unknown_fields: flag("x-kubernetes-preserve-unknown-fields"),
        same_as: None,
        go_doc: false,
        validation: Vec::new(),
        rules: field_rules(node),
    }
}

/// The OpenAPI keywords that bound a value, in the order `SchemaField::limits` lists them.
pub const LIMIT_KEYWORDS: &[&str] = &[
    "minimum",
    "exclusiveMinimum",
    "maximum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "uniqueItems",
    "minProperties",
    "maxProperties",
];

/// A schema node's limits as `keyword=value` (numbers and booleans as JSON text).
fn limits_of(schema: &Value) -> Vec<String> {
    LIMIT_KEYWORDS
        .iter()
        .filter_map(|k| {
            let v = schema.get(*k)?;
            (v.is_number() || v.is_boolean()).then(|| format!("{k}={}", json_text(v)))
        })
        .collect()
}

/// A field's CEL rules: its own, then (an array's items, a map's values) each one's.
fn field_rules(node: &Node) -> Vec<CelRule> {
    let mut out = rules_of(node.schema, false);
    if !std::ptr::eq(node.inner, node.schema) {
        // Only the first level of items or values: the rules the field's row describes.
        let first = node
            .schema
            .get("items")
            .filter(|i| i.is_object())
            .or_else(|| node.schema.get("additionalProperties"));
        if let Some(each) = first {
            out.extend(rules_of(each, true));
        }
    }
    out
}

/// The `x-kubernetes-validations` of one schema node; an entry without a string `rule` is
/// not a rule and is left out.
pub fn rules_of(schema: &Value, each: bool) -> Vec<CelRule> {
    array_at(schema, &["x-kubernetes-validations"])
        .iter()
        .filter_map(|v| {
            let rule = v.get("rule")?.as_str()?.to_string();
            Some(CelRule {
                rule,
                message: str_at(v, &["message"]).to_string(),
                message_expression: str_at(v, &["messageExpression"]).to_string(),
                reason: str_at(v, &["reason"]).to_string(),
                field_path: str_at(v, &["fieldPath"]).to_string(),
                each,
                from_marker: false,
            })
        })
        .collect()
}

/// A value as JSON text; strings without their quotes when used as enum members would be
/// ambiguous with numbers, so they keep them.
fn json_text(v: &Value) -> String {
    v.to_string()
}

#[cfg(test)]
mod tests {
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
}
