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
mod tests;
