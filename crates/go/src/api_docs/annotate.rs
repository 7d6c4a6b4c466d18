//! A CRD version's schema walked alongside its Go type (see the module above).

use std::collections::{BTreeSet, HashMap};

use super::resolve::{ApiDocs, FieldDoc, Flat, Key, Target};
use crate::facts::api_docs::Wrap;
use model::{CelRule, Crd, CrdSchema, Diagnostic, GoTypeOrigin, SchemaField, SourceRef};

/// Gives each version of the project's own CRDs what its Go type says (see the module doc).
pub fn annotate(crds: &mut [Crd], docs: &ApiDocs, diagnostics: &mut Vec<Diagnostic>) {
    let mut said = Vec::new();
    for crd in crds.iter_mut().filter(|c| !c.bundled) {
        let at = crd.sources.first().cloned();
        let title = |version: &str| format!("CRD {} {}/{version}", crd.kind, crd.group);
        for schema in &mut crd.schema {
            let undescribed = schema.fields.iter().all(|f| f.description.is_empty());
            let Some(root) = docs.root(&crd.group, &schema.version, &crd.kind) else {
                if undescribed && !schema.fields.is_empty() {
                    said.push(at_crd(
                        at.as_ref(),
                        format!(
                            "{} has no field descriptions, and no Go type {} was found in a package of its group and version: the reference shows none",
                            title(&schema.version),
                            crd.kind
                        ),
                    ));
                }
                continue;
            };
            let missing = annotate_schema(schema, &root, docs);
            if let Some(t) = docs.types.get(&root) {
                schema.go_type = Some(GoTypeOrigin {
                    package: root.0.clone(),
                    name: root.1.clone(),
                    source: SourceRef::new(&t.file, t.line),
                });
                if schema.description.is_empty() && !t.doc.is_empty() {
                    schema.description = t.doc.clone();
                }
                // Rules about the whole object, from the kind's type, where the CRD has none.
                if schema.rules.is_empty() {
                    schema.rules = t
                        .markers
                        .iter()
                        .filter_map(|m| m.strip_prefix("XValidation:").and_then(cel_rule))
                        .collect();
                }
            }
            if undescribed && !missing.is_empty() {
                said.push(at_crd(
                    at.as_ref(),
                    format!(
                        "{} has no field descriptions; {} of {} fields got theirs from the doc comments of the Go type {}.{}, {} have none: {}",
                        title(&schema.version),
                        schema.fields.len() - missing.count(),
                        schema.fields.len(),
                        root.0,
                        root.1,
                        missing.count(),
                        missing.explain()
                    ),
                ));
            }
        }
    }
    diagnostics.extend(once_per_copy(said));
}

/// One diagnostic for the copies of a CRD a repository ships (KServe's `config/crd/full`
/// and its charts' `templates`): the same words at the first file, naming the others.
fn once_per_copy(said: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let mut out: Vec<(Diagnostic, Vec<String>)> = Vec::new();
    for d in said {
        match out.iter_mut().find(|(first, _)| first.message == d.message) {
            Some((_, others)) => others.push(d.file),
            None => out.push((d, Vec::new())),
        }
    }
    out.into_iter()
        .map(|(mut d, others)| {
            if !others.is_empty() {
                let shown: Vec<&str> = others.iter().take(3).map(String::as_str).collect();
                let more = if others.len() > shown.len() {
                    ", …"
                } else {
                    ""
                };
                d.message = format!(
                    "{} (the same in {} other cop{} of this CRD: {}{more})",
                    d.message,
                    others.len(),
                    if others.len() == 1 { "y" } else { "ies" },
                    shown.join(", ")
                );
            }
            d
        })
        .collect()
}

fn at_crd(source: Option<&SourceRef>, message: String) -> Diagnostic {
    match source {
        Some(s) => Diagnostic::new(&s.file, s.line, message),
        None => Diagnostic::new("", 0, message),
    }
}

/// Why fields kept no description: paths by reason.
#[derive(Default)]
struct Missing {
    /// Under (or promoted from) a type of a package outside the repository.
    outside: BTreeSet<String>,
    outside_fields: usize,
    /// The Go type has no field with this json name.
    not_in_go: Vec<String>,
    /// The Go field, and its type, have no doc comment.
    undocumented: Vec<String>,
    /// Under a Go type whose shape differs from the schema's (or an unnamed type).
    unmatched: Vec<String>,
    /// Declared twice in the Go type (see `Known::Ambiguous`).
    ambiguous: Vec<String>,
}

impl Missing {
    fn record(&mut self, path: &str, why: &Known) {
        match why {
            Known::Outside(p) => {
                self.outside.insert(p.clone());
                self.outside_fields += 1;
            }
            Known::NotInGo => self.not_in_go.push(path.to_string()),
            Known::Ambiguous => self.ambiguous.push(path.to_string()),
            Known::Type(_) | Known::Unmatched => self.unmatched.push(path.to_string()),
        }
    }

    fn count(&self) -> usize {
        self.outside_fields
            + self.not_in_go.len()
            + self.undocumented.len()
            + self.unmatched.len()
            + self.ambiguous.len()
    }

    fn is_empty(&self) -> bool {
        self.count() == 0
    }

    fn explain(&self) -> String {
        let examples = |paths: &[String]| {
            let shown: Vec<&str> = paths.iter().take(3).map(String::as_str).collect();
            let more = if paths.len() > shown.len() {
                ", …"
            } else {
                ""
            };
            format!("{}{more}", shown.join(", "))
        };
        let mut parts = Vec::new();
        if self.outside_fields > 0 {
            let packages: Vec<&str> = self.outside.iter().take(4).map(String::as_str).collect();
            let more = if self.outside.len() > packages.len() {
                ", …"
            } else {
                ""
            };
            parts.push(format!(
                "{} under types outside the repository ({}{more})",
                self.outside_fields,
                packages.join(", ")
            ));
        }
        if !self.undocumented.is_empty() {
            parts.push(format!(
                "{} whose Go field has no doc comment ({})",
                self.undocumented.len(),
                examples(&self.undocumented)
            ));
        }
        if !self.not_in_go.is_empty() {
            parts.push(format!(
                "{} the Go type does not have ({})",
                self.not_in_go.len(),
                examples(&self.not_in_go)
            ));
        }
        if !self.unmatched.is_empty() {
            parts.push(format!(
                "{} under a Go type whose shape differs from the schema ({})",
                self.unmatched.len(),
                examples(&self.unmatched)
            ));
        }
        if !self.ambiguous.is_empty() {
            parts.push(format!(
                "{} declared twice in the Go type, by an inline struct ({})",
                self.ambiguous.len(),
                examples(&self.ambiguous)
            ));
        }
        parts.join("; ")
    }
}

/// What the Go side knows at one field: the type its children are in, or why not.
#[derive(Clone, PartialEq)]
enum Known {
    Type(Target),
    /// Inside a type of this package outside the repository.
    Outside(String),
    /// The parent is a known struct, but it has no field of this name.
    NotInGo,
    /// The json name appears twice in the struct (an inline struct repeats it): which
    /// one the CRD shows is not decided here.
    Ambiguous,
    Unmatched,
}

/// A schema field matched with the Go side.
struct FieldMatch<'d> {
    /// The Go field and its place among its struct's fields.
    go: Option<(usize, &'d FieldDoc)>,
    /// What the field's children are in, or why there is no Go field.
    known: Known,
}

/// Annotates one schema from the Go type `root` (see the module doc); says why fields
/// kept no description.
fn annotate_schema(schema: &mut CrdSchema, root: &Key, docs: &ApiDocs) -> Missing {
    let fields = &mut schema.fields;
    let root = Known::Type(Target {
        key: Some(root.clone()),
        wrappers: Vec::new(),
    });
    // Order first: which copy of a repeated subtree is listed in full depends on it.
    let order: Vec<usize> = match_fields(fields, ("", &root), docs)
        .iter()
        .map(|m| m.go.map_or(usize::MAX, |(at, _)| at))
        .collect();
    reorder(fields, &parent_indices(fields), &order);
    first_copies_first(fields);
    // A subtree repeated in the CRD may come from Go types that document it differently
    // (the CRD's descriptions were what told the copies apart): list those copies in full.
    let mut decided = BTreeSet::new();
    while let Some((copy, first, differs)) = next_copy(fields, &root, docs, &decided) {
        if !(differs && expand_copy(fields, copy, first)) {
            decided.insert(fields[copy].path.clone());
        }
    }
    let matched = match_fields(fields, ("", &root), docs);
    describe(fields, &matched, docs)
}

/// Matches every field with its Go field, parents before children.
/// `fields` may be a subtree: its shallowest fields are then the children of `root`, at
/// path `base`.
fn match_fields<'d>(
    fields: &[SchemaField],
    (base, root_known): (&str, &Known),
    docs: &'d ApiDocs,
) -> Vec<FieldMatch<'d>> {
    let parents = parent_indices(fields);
    let mut flat_cache: HashMap<Key, Flat<'d>> = HashMap::new();
    let mut out: Vec<FieldMatch<'d>> = Vec::with_capacity(fields.len());
    for i in 0..fields.len() {
        let parent = parents[i].map_or(root_known, |p| &out[p].known);
        let missed = |known: Known| FieldMatch { go: None, known };
        let m = match parent {
            Known::Type(t) => match docs.struct_of(t) {
                Some((key, decl)) => {
                    let flat = flat_cache
                        .entry(key.clone())
                        .or_insert_with(|| docs.flat_fields(decl));
                    let (name, wraps) = segment(fields, &parents, base, i);
                    let mut same_name = flat
                        .fields
                        .iter()
                        .enumerate()
                        .filter(|(_, f)| f.json == name);
                    match (same_name.next(), same_name.next()) {
                        (Some((at, go)), None) => FieldMatch {
                            go: Some((at, *go)),
                            known: match docs.inside(&go.target, &wraps) {
                                Some(t) => Known::Type(t),
                                None => docs
                                    .outside(&go.target)
                                    .map_or(Known::Unmatched, |p| Known::Outside(p.to_string())),
                            },
                        },
                        (Some(_), Some(_)) => missed(Known::Ambiguous),
                        (None, _) => missed(match flat.closed.first() {
                            Some(p) => Known::Outside(p.clone()),
                            None => Known::NotInGo,
                        }),
                    }
                }
                None => missed(
                    docs.outside(t)
                        .map_or(Known::Unmatched, |p| Known::Outside(p.to_string())),
                ),
            },
            // Below a field with no Go type, nothing is known either.
            Known::Outside(p) => missed(Known::Outside(p.clone())),
            _ => missed(Known::Unmatched),
        };
        out.push(m);
    }
    out
}

/// The first field listed as `same_as` an earlier copy that is not decided yet, that
/// copy, and whether the Go side documents the subtree differently under the two.
fn next_copy(
    fields: &[SchemaField],
    root: &Known,
    docs: &ApiDocs,
    decided: &BTreeSet<String>,
) -> Option<(usize, usize, bool)> {
    let position: HashMap<&str, usize> = fields
        .iter()
        .enumerate()
        .map(|(i, f)| (f.path.as_str(), i))
        .collect();
    let (copy, first) = fields.iter().enumerate().find_map(|(i, f)| {
        let first = *position.get(f.same_as.as_deref()?)?;
        (!decided.contains(&f.path)).then_some((i, first))
    })?;
    let matched = match_fields(fields, ("", root), docs);
    let subtree = &fields[first + 1..subtree_end(fields, first)];
    let base = fields[first].path.as_str();
    let says = |known: &Known| -> Vec<Option<GoSays>> {
        match_fields(subtree, (base, known), docs)
            .iter()
            .map(|m| go_says(m, docs))
            .collect()
    };
    let differs = says(&matched[copy].known) != says(&matched[first].known);
    Some((copy, first, differs))
}

/// The end (exclusive) of the subtree of `fields[at]` in a pre-order list.
fn subtree_end(fields: &[SchemaField], at: usize) -> usize {
    let depth = fields[at].depth;
    at + 1
        + fields[at + 1..]
            .iter()
            .take_while(|f| f.depth > depth)
            .count()
}

/// What the Go side says of a matched field: its doc comment (the field's, or its
/// type's) and its markers with its type's.
#[derive(PartialEq)]
struct GoSays<'d> {
    doc: &'d str,
    markers: Vec<&'d str>,
}

fn go_says<'d>(m: &FieldMatch<'d>, docs: &'d ApiDocs) -> Option<GoSays<'d>> {
    let (_, go) = m.go?;
    let named = docs.type_doc(&go.target);
    let doc = if go.doc.is_empty() {
        named.map_or("", |t| t.doc.as_str())
    } else {
        go.doc.as_str()
    };
    let type_markers = named.map_or(&[][..], |t| t.markers.as_slice());
    Some(GoSays {
        doc,
        markers: go
            .markers
            .iter()
            .chain(type_markers)
            .map(String::as_str)
            .collect(),
    })
}

/// Lists the subtree of `fields[first]` under `fields[copy]` too (renamed), unless that
/// would pass the schema's field limit.
fn expand_copy(fields: &mut Vec<SchemaField>, copy: usize, first: usize) -> bool {
    let size = subtree_end(fields, first) - first - 1;
    if fields.len() + size > manifests::yaml::crd::MAX_FIELDS {
        return false;
    }
    let copied: Vec<SchemaField> = fields[first + 1..first + 1 + size]
        .iter()
        .map(|f| rebased(f, &fields[first], &fields[copy]))
        .collect();
    fields[copy].same_as = None;
    fields.splice(copy + 1..copy + 1, copied);
    true
}

/// Writes the Go docs and markers into the fields; says why fields kept no description.
fn describe(fields: &mut [SchemaField], matched: &[FieldMatch], docs: &ApiDocs) -> Missing {
    let mut missing = Missing::default();
    for (field, m) in fields.iter_mut().zip(matched) {
        let Some(says) = go_says(m, docs) else {
            if field.description.is_empty() {
                missing.record(&field.path, &m.known);
            }
            continue;
        };
        if field.description.is_empty() {
            if says.doc.is_empty() {
                missing.undocumented.push(field.path.clone());
            } else {
                field.description = says.doc.to_string();
                field.go_doc = true;
            }
        }
        let crd_rules = field.rules.iter().any(|r| !r.from_marker);
        for marker in says.markers {
            if let Some(rule) = marker.strip_prefix("XValidation:").and_then(cel_rule) {
                // The CRD's own rules are what the API server checks; a marker's rule is
                // shown only where the CRD in the repository has none.
                if !crd_rules && !field.rules.contains(&rule) {
                    field.rules.push(rule);
                }
                continue;
            }
            if !shown_by_schema(field, marker) && !field.validation.iter().any(|v| v == marker) {
                field.validation.push(marker.to_string());
            }
        }
    }
    missing
}

/// The rule of an `XValidation` marker's arguments (`rule="…",message="…"`, quoted strings
/// with commas and escaped quotes), or None when they do not parse or name no rule.
pub fn cel_rule(args: &str) -> Option<CelRule> {
    let args = crate::markers::parse_args(args).ok()?;
    let value = |key: &str| {
        args.iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.join(";"))
            .unwrap_or_default()
    };
    let rule = value("rule");
    (!rule.is_empty()).then(|| CelRule {
        rule,
        message: value("message"),
        message_expression: value("messageExpression"),
        reason: value("reason"),
        field_path: value("fieldPath"),
        each: false,
        from_marker: true,
    })
}

/// A validation marker whose rule the schema row shows already.
fn shown_by_schema(field: &SchemaField, marker: &str) -> bool {
    let name = marker.split(['=', ':']).next().unwrap_or("");
    match name {
        "Enum" => !field.enum_values.is_empty(),
        "Pattern" => !field.pattern.is_empty(),
        "Format" => !field.format.is_empty(),
        "Type" | "Schemaless" | "EmbeddedResource" | "XPreserveUnknownFields" | "Nullable" => true,
        // A limit the schema states too: `MaxItems=16` as `maxItems=16`.
        _ => {
            let mut chars = marker.chars();
            chars.next().is_some_and(|first| {
                let limit = format!("{}{}", first.to_ascii_lowercase(), chars.as_str());
                field.limits.contains(&limit)
            })
        }
    }
}

/// The property name of field `i` and the collections its path adds (`containers[]`).
/// `base` is the path the list's shallowest fields are under (empty for a whole schema).
fn segment(
    fields: &[SchemaField],
    parents: &[Option<usize>],
    base: &str,
    i: usize,
) -> (String, Vec<Wrap>) {
    let path = &fields[i].path;
    let parent = parents[i].map_or(base, |p| fields[p].path.as_str());
    let own = match parent {
        "" => path.as_str(),
        parent => path
            .strip_prefix(parent)
            .and_then(|s| s.strip_prefix('.'))
            .unwrap_or(path),
    };
    let mut name = own;
    let mut wraps = Vec::new();
    loop {
        if let Some(n) = name.strip_suffix("[]") {
            wraps.push(Wrap::Slice);
            name = n;
        } else if let Some(n) = name.strip_suffix("{}") {
            wraps.push(Wrap::Map);
            name = n;
        } else {
            break;
        }
    }
    wraps.reverse();
    (name.to_string(), wraps)
}

/// The index of each field's parent in a pre-order list (the nearest earlier field one
/// level up).
fn parent_indices(fields: &[SchemaField]) -> Vec<Option<usize>> {
    kubernetes::schema_tree::parents_by_depth(fields.iter().map(|f| f.depth))
}

/// Puts siblings in Go order (fields the Go type lacks after, in schema order), keeping
/// the list pre-order.
fn reorder(fields: &mut Vec<SchemaField>, parents: &[Option<usize>], order: &[usize]) {
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); fields.len() + 1];
    for (i, p) in parents.iter().enumerate() {
        children[p.map_or(fields.len(), |p| p)].push(i);
    }
    for c in &mut children {
        c.sort_by_key(|&i| (order[i], i));
    }
    let mut sequence = Vec::with_capacity(fields.len());
    let mut stack: Vec<usize> = children[fields.len()].iter().rev().copied().collect();
    while let Some(i) = stack.pop() {
        sequence.push(i);
        stack.extend(children[i].iter().rev());
    }
    let mut old: Vec<Option<SchemaField>> = std::mem::take(fields).into_iter().map(Some).collect();
    *fields = sequence.into_iter().filter_map(|i| old[i].take()).collect();
}

/// After reordering, a field may come before the first copy it says it is the same as:
/// the subtree moves to it, and the other copy refers to it instead.
fn first_copies_first(fields: &mut Vec<SchemaField>) {
    for _ in 0..fields.len() {
        let position: HashMap<&str, usize> = fields
            .iter()
            .enumerate()
            .map(|(i, f)| (f.path.as_str(), i))
            .collect();
        let late = fields.iter().enumerate().find_map(|(i, f)| {
            let first = *position.get(f.same_as.as_deref()?)?;
            (first > i).then_some((i, first))
        });
        let Some((copy, first)) = late else {
            return;
        };
        move_subtree(fields, copy, first);
    }
}

/// Moves the children of `fields[first]` under `fields[copy]` (which comes before it), and
/// points every reference to the old place at the new one.
fn move_subtree(fields: &mut Vec<SchemaField>, copy: usize, first: usize) {
    let (from, to) = (fields[first].clone(), fields[copy].clone());
    let end = subtree_end(fields, first);
    let moved: Vec<SchemaField> = fields
        .drain(first + 1..end)
        .map(|f| rebased(&f, &from, &to))
        .collect();
    let moved_len = moved.len();
    fields.splice(copy + 1..copy + 1, moved);
    for f in fields.iter_mut() {
        if let Some(s) = &f.same_as
            && let Some(rest) = s.strip_prefix(from.path.as_str())
            && (rest.is_empty() || rest.starts_with('.'))
        {
            f.same_as = Some(format!("{}{rest}", to.path));
        }
    }
    fields[copy].same_as = None;
    fields[first + moved_len].same_as = Some(to.path);
}

/// `f`, a field under `from`, as the same field under `to`.
fn rebased(f: &SchemaField, from: &SchemaField, to: &SchemaField) -> SchemaField {
    SchemaField {
        path: format!("{}{}", to.path, &f.path[from.path.len()..]),
        depth: f.depth - from.depth + to.depth,
        ..f.clone()
    }
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod cel_rule_tests {
    use super::{SchemaField, cel_rule, shown_by_schema};

    #[test]
    fn a_limit_marker_the_schema_states_is_not_repeated() {
        let field = SchemaField {
            path: "spec.hostnames[]".into(),
            limits: vec!["maxItems=16".into()],
            ..SchemaField::default()
        };
        assert!(shown_by_schema(&field, "MaxItems=16"));
        // A different value, or a limit the schema does not state (the items' lengths),
        // is the Go marker's own.
        assert!(!shown_by_schema(&field, "MaxItems=8"));
        assert!(!shown_by_schema(&field, "MinLength=1"));
    }

    #[test]
    fn an_xvalidation_marker_with_commas_and_escaped_quotes() {
        let r = cel_rule(
            r#"rule="self.a in [\"x\", \"y\"] || size(self.b) > 0, 1",message="a is \"x\" or \"y\", else b",reason=FieldValueInvalid,fieldPath=".a""#,
        )
        .unwrap();
        assert_eq!(r.rule, r#"self.a in ["x", "y"] || size(self.b) > 0, 1"#);
        assert_eq!(r.message, r#"a is "x" or "y", else b"#);
        assert_eq!(r.reason, "FieldValueInvalid");
        assert_eq!(r.field_path, ".a");
        assert!(r.from_marker);
        assert_eq!(cel_rule(r#"message="no rule""#), None);
        assert_eq!(cel_rule(r#"rule="unterminated"#), None);
    }
}
