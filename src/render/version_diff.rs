//! The changes between the served versions of one CRD: oldest to newest by Kubernetes'
//! version priority (`v1alpha1` → `v1beta1` → `v1`), each version against the one before.
//!
//! Fields are matched by their path (each object's keys; `containers[]` and `containers`
//! are the same key, so a field that became a list is a change of type). A field is added,
//! removed, or changed in its type, required flag, default, enum, format, pattern,
//! nullability or acceptance of unknown fields; descriptions are not compared. An added or
//! removed field is one row with the number of fields under it, not a row per field. A
//! repeated subtree (`same_as`) is compared as the fields it stands for (see
//! `schema_tree`). At most [`MAX_CHANGES`] rows are listed per pair, the rest counted, and
//! at most [`MAX_VISITS`] fields compared; a cut comparison says so.

use std::cmp::Reverse;
use std::collections::HashMap;

use serde::Serialize;

use super::schema_tree::{Tree, type_text};
use crate::model::{Crd, CrdSchema, SchemaField};

/// Rows listed per pair of versions.
const MAX_CHANGES: usize = 100;
/// Fields compared per pair of versions.
const MAX_VISITS: usize = 50_000;
/// Enum members listed in a change before `…`.
const ENUM_SHOWN: usize = 6;
/// Characters of a pattern shown in a change.
const PATTERN_SHOWN: usize = 60;

#[derive(Serialize)]
pub struct VersionDiff {
    /// The heading's anchor on the kind page (set by the page).
    pub anchor: String,
    pub from: String,
    pub to: String,
    pub changes: Vec<Change>,
    /// Changes found past [`MAX_CHANGES`], not listed.
    pub more: usize,
    /// The comparison stopped at [`MAX_VISITS`] fields.
    pub cut: bool,
}

#[derive(Serialize)]
pub struct Change {
    /// The field's path in the version it is in (`from` for a removed field, else `to`).
    pub path: String,
    /// `added`, `removed` or `changed`.
    pub change: &'static str,
    pub detail: String,
    /// The field's anchor on the kind page, when it has one (set by the page).
    pub anchor: String,
    /// Whether the page draws the field before a reader opens the tree (set by the page).
    pub drawn: bool,
}

/// The differences between consecutive served versions with a schema, oldest first; none
/// for a CRD with fewer than two.
pub fn served_versions(c: &Crd) -> Vec<VersionDiff> {
    let mut schemas: Vec<&CrdSchema> = c
        .versions
        .iter()
        .filter(|v| v.served)
        .filter_map(|v| c.schema.iter().find(|s| s.version == v.name))
        .collect();
    schemas.sort_by_key(|s| priority(&s.version));
    schemas.windows(2).map(|w| between(w[0], w[1])).collect()
}

/// Kubernetes' version priority, lowest first: versions not of the form `vN[alpha|betaM]`
/// (in reverse alphabetical order), then alpha, beta and GA versions, each by major and
/// minor number.
fn priority(name: &str) -> (u8, u64, u64, Reverse<&str>) {
    let parsed = name.strip_prefix('v').and_then(|rest| {
        let digits = rest
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(rest.len());
        let major: u64 = rest[..digits].parse().ok()?;
        let (stage, minor) = match &rest[digits..] {
            "" => (3, "0"),
            tail => tail
                .strip_prefix("beta")
                .map(|m| (2, m))
                .or_else(|| tail.strip_prefix("alpha").map(|m| (1, m)))?,
        };
        let minor: u64 = minor
            .parse()
            .ok()
            .filter(|_| minor.starts_with(|c: char| c.is_ascii_digit()))?;
        Some((stage, major, minor))
    });
    let (stage, major, minor) = parsed.unwrap_or((0, 0, 0));
    (stage, major, minor, Reverse(name))
}

/// The changes from `old` to `new`.
pub fn between(old: &CrdSchema, new: &CrdSchema) -> VersionDiff {
    let mut walk = Walk {
        old: Side::new(&old.fields),
        new: Side::new(&new.fields),
        changes: Vec::new(),
        visits: 0,
        cut: false,
    };
    let (old_roots, new_roots) = (
        walk.old.tree.roots().to_vec(),
        walk.new.tree.roots().to_vec(),
    );
    walk.compare(&old_roots, &new_roots, "");
    let more = walk.changes.len().saturating_sub(MAX_CHANGES);
    walk.changes.truncate(MAX_CHANGES);
    VersionDiff {
        anchor: String::new(),
        from: old.version.clone(),
        to: new.version.clone(),
        changes: walk.changes,
        more,
        cut: walk.cut,
    }
}

/// One version's tree, with the walk's chain of expanded subtrees and its counts.
struct Side<'a> {
    tree: Tree<'a>,
    chain: Vec<usize>,
    /// Fields under each expanded subtree (by origin), once counted.
    sizes: HashMap<usize, usize>,
}

impl<'a> Side<'a> {
    fn new(fields: &'a [SchemaField]) -> Side<'a> {
        Side {
            tree: Tree::new(fields),
            chain: Vec::new(),
            sizes: HashMap::new(),
        }
    }

    fn children(&self, i: usize) -> Vec<usize> {
        self.tree.children(i, &self.chain).to_vec()
    }

    /// The number of fields under field `i`, its repeated subtrees expanded.
    fn size_under(&mut self, i: usize) -> usize {
        let origin = self.tree.origin(i);
        if let Some(&n) = self.sizes.get(&origin) {
            return n;
        }
        let children = self.children(i);
        self.chain.push(origin);
        let n = children.iter().map(|&c| 1 + self.size_under(c)).sum();
        self.chain.pop();
        self.sizes.insert(origin, n);
        n
    }

    /// `object, required, 12 fields under it`; `string, default "Daily"`.
    fn describe(&mut self, i: usize) -> String {
        let f = self.tree.field(i);
        let mut parts = vec![type_text(f)];
        if f.required {
            parts.push("required".into());
        }
        if let Some(default) = &f.default {
            parts.push(format!("default {default}"));
        }
        match self.size_under(i) {
            0 => {}
            1 => parts.push("1 field under it".into()),
            n => parts.push(format!("{n} fields under it")),
        }
        parts.join(", ")
    }

    fn path(&self, prefix: &str, i: usize) -> String {
        let segment = format!("{}{}", self.tree.key(i), self.tree.shape(i));
        if prefix.is_empty() {
            segment
        } else {
            format!("{prefix}.{segment}")
        }
    }
}

struct Walk<'a> {
    old: Side<'a>,
    new: Side<'a>,
    changes: Vec<Change>,
    visits: usize,
    cut: bool,
}

impl Walk<'_> {
    /// Compares sibling fields (`old` and `new` under the same path `prefix`) by key.
    fn compare(&mut self, old: &[usize], new: &[usize], prefix: &str) {
        let mut old_by_key: HashMap<&str, usize> = HashMap::new();
        for &o in old.iter().rev() {
            old_by_key.insert(self.old.tree.key(o), o);
        }
        for &n in new {
            if self.visits >= MAX_VISITS {
                self.cut = true;
                return;
            }
            self.visits += 1;
            match old_by_key.remove(self.new.tree.key(n)) {
                Some(o) => self.matched(o, n, prefix),
                None => {
                    let detail = self.new.describe(n);
                    self.push(self.new.path(prefix, n), "added", detail);
                }
            }
        }
        // The old fields left, in their order.
        for &o in old {
            if old_by_key.remove(self.old.tree.key(o)).is_some() {
                let detail = self.old.describe(o);
                self.push(self.old.path(prefix, o), "removed", detail);
            }
        }
    }

    /// A field in both versions: its own changes, then its children's.
    fn matched(&mut self, o: usize, n: usize, prefix: &str) {
        let path = self.new.path(prefix, n);
        let detail = differences(self.old.tree.field(o), self.new.tree.field(n));
        if !detail.is_empty() {
            self.push(path.clone(), "changed", detail.join("; "));
        }
        let (old_children, new_children) = (self.old.children(o), self.new.children(n));
        self.old.chain.push(self.old.tree.origin(o));
        self.new.chain.push(self.new.tree.origin(n));
        self.compare(&old_children, &new_children, &path);
        self.old.chain.pop();
        self.new.chain.pop();
    }

    fn push(&mut self, path: String, change: &'static str, detail: String) {
        self.changes.push(Change {
            path,
            change,
            detail,
            anchor: String::new(),
            drawn: false,
        });
    }
}

/// What changed in a field's own schema, one phrase per property.
fn differences(a: &SchemaField, b: &SchemaField) -> Vec<String> {
    let mut out = Vec::new();
    let (ta, tb) = (type_text(a), type_text(b));
    if ta != tb {
        out.push(format!("type: {ta} → {tb}"));
    }
    if a.required != b.required {
        out.push(
            if b.required {
                "now required"
            } else {
                "now optional"
            }
            .into(),
        );
    }
    let or_none = |s: Option<&str>| s.filter(|s| !s.is_empty()).unwrap_or("none").to_string();
    let pairs = [
        (
            "default",
            or_none(a.default.as_deref()),
            or_none(b.default.as_deref()),
        ),
        ("format", or_none(Some(&a.format)), or_none(Some(&b.format))),
        (
            "pattern",
            or_none(Some(&shortened(&a.pattern))),
            or_none(Some(&shortened(&b.pattern))),
        ),
    ];
    for (what, before, after) in pairs {
        if before != after {
            out.push(format!("{what}: {before} → {after}"));
        }
    }
    out.extend(enum_change(&a.enum_values, &b.enum_values));
    let flags = [
        (a.nullable, b.nullable, "nullable"),
        (
            a.preserve_unknown_fields,
            b.preserve_unknown_fields,
            "accepts any fields",
        ),
    ];
    for (before, after, what) in flags {
        if before != after {
            out.push(if after {
                format!("now {what}")
            } else {
                format!("no longer {what}")
            });
        }
    }
    out
}

/// `enum: added "C"; removed "A"`, or an enum that appears or goes.
fn enum_change(a: &[String], b: &[String]) -> Option<String> {
    let added: Vec<&String> = b.iter().filter(|v| !a.contains(v)).collect();
    let removed: Vec<&String> = a.iter().filter(|v| !b.contains(v)).collect();
    match (a.is_empty(), b.is_empty()) {
        (_, _) if added.is_empty() && removed.is_empty() => None,
        (true, false) => Some(format!("now one of: {}", listed(&added))),
        (false, true) => Some(format!("no longer limited to: {}", listed(&removed))),
        _ => {
            let mut parts = Vec::new();
            if !added.is_empty() {
                parts.push(format!("added {}", listed(&added)));
            }
            if !removed.is_empty() {
                parts.push(format!("removed {}", listed(&removed)));
            }
            Some(format!("enum: {}", parts.join("; ")))
        }
    }
}

/// `"A", "B", … (9 in all)`.
fn listed(values: &[&String]) -> String {
    let mut shown: Vec<&str> = values.iter().take(ENUM_SHOWN).map(|v| v.as_str()).collect();
    let all = format!("… ({} in all)", values.len());
    if values.len() > ENUM_SHOWN {
        shown.push(&all);
    }
    shown.join(", ")
}

fn shortened(pattern: &str) -> String {
    if pattern.chars().count() <= PATTERN_SHOWN {
        return pattern.to_string();
    }
    let head: String = pattern.chars().take(PATTERN_SHOWN).collect();
    format!("{head}…")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::CrdVersion;
    use crate::render::schema_tree::tests::{field, schema};

    fn rows(d: &VersionDiff) -> Vec<String> {
        d.changes
            .iter()
            .map(|c| format!("{} {}: {}", c.change, c.path, c.detail))
            .collect()
    }

    #[test]
    fn versions_oldest_first_by_kubernetes_priority() {
        let mut names = vec![
            "v10",
            "v2",
            "v1",
            "v11beta2",
            "v10beta3",
            "v3beta1",
            "v12alpha1",
            "v11alpha2",
            "foo1",
            "foo10",
            "v1beta",
            "vx",
        ];
        names.sort_by_key(|n| priority(n));
        assert_eq!(
            names,
            [
                "vx",
                "v1beta",
                "foo10",
                "foo1",
                "v11alpha2",
                "v12alpha1",
                "v3beta1",
                "v10beta3",
                "v11beta2",
                "v1",
                "v2",
                "v10"
            ]
        );
    }

    #[test]
    fn added_removed_and_changed_fields() {
        let mut size = field("spec.size", "integer");
        size.required = true;
        size.format = "int64".into();
        let mut mode = field("spec.mode", "string");
        mode.enum_values = vec!["\"Fast\"".into(), "\"Slow\"".into()];
        mode.default = Some("\"Fast\"".into());
        let old = schema(
            "v1alpha1",
            vec![
                field("spec", "object"),
                size.clone(),
                mode.clone(),
                field("spec.color", "string"),
                field("spec.tags[]", "array"),
            ],
        );
        size.required = false;
        size.format = "int32".into();
        mode.enum_values = vec!["\"Slow\"".into(), "\"Careful\"".into()];
        mode.default = Some("\"Slow\"".into());
        let mut tags = field("spec.tags", "string");
        tags.pattern = "^[a-z]+$".into();
        let new = schema(
            "v1beta1",
            vec![
                field("spec", "object"),
                field("spec.secretName", "string"),
                size,
                mode,
                tags,
                field("status", "object"),
                field("status.phase", "string"),
            ],
        );
        let d = between(&old, &new);
        assert_eq!((d.from.as_str(), d.to.as_str()), ("v1alpha1", "v1beta1"));
        assert_eq!(
            rows(&d),
            [
                "added spec.secretName: string",
                "changed spec.size: now optional; format: int64 → int32",
                "changed spec.mode: default: \"Fast\" → \"Slow\"; enum: added \"Careful\"; removed \"Fast\"",
                "changed spec.tags: type: array → string; pattern: none → ^[a-z]+$",
                "removed spec.color: string",
                "added status: object, 1 field under it",
            ]
        );
        assert_eq!((d.more, d.cut), (0, false));
        assert!(between(&new, &new).changes.is_empty());
    }

    #[test]
    fn an_added_subtree_is_one_row_with_its_size() {
        let old = schema("v1", vec![field("spec", "object")]);
        let mut backup = field("spec.backup", "object");
        backup.same_as = Some("spec.primary".into());
        let mut replicas = field("spec.replicas", "integer");
        replicas.default = Some("1".into());
        let new = schema(
            "v2",
            vec![
                field("spec", "object"),
                replicas,
                field("spec.primary", "object"),
                field("spec.primary.host", "string"),
                field("spec.primary.ports[]", "array"),
                field("spec.primary.ports[].number", "integer"),
                backup,
            ],
        );
        assert_eq!(
            rows(&between(&old, &new)),
            [
                "added spec.replicas: integer, default 1",
                "added spec.primary: object, 3 fields under it",
                "added spec.backup: object, 3 fields under it",
            ]
        );
    }

    #[test]
    fn a_repeated_subtree_compares_as_the_fields_it_stands_for() {
        // v1 lists spec.b's fields as a copy of spec.a; v2 spells them out, one changed.
        let mut b = field("spec.b", "object");
        b.same_as = Some("spec.a".into());
        let old = schema(
            "v1",
            vec![
                field("spec", "object"),
                field("spec.a", "object"),
                field("spec.a.x", "string"),
                field("spec.a.y", "string"),
                b,
            ],
        );
        let new = schema(
            "v2",
            vec![
                field("spec", "object"),
                field("spec.a", "object"),
                field("spec.a.x", "string"),
                field("spec.a.y", "string"),
                field("spec.b", "object"),
                field("spec.b.x", "string"),
                field("spec.b.y", "integer"),
            ],
        );
        assert_eq!(
            rows(&between(&old, &new)),
            ["changed spec.b.y: type: string → integer"]
        );
    }

    #[test]
    fn enums_appearing_and_going_and_flags() {
        let a = field("x", "string");
        let mut b = field("x", "string");
        b.enum_values = vec!["\"A\"".into()];
        b.nullable = true;
        b.preserve_unknown_fields = true;
        assert_eq!(
            differences(&a, &b),
            [
                "now one of: \"A\"",
                "now nullable",
                "now accepts any fields"
            ]
        );
        assert_eq!(
            differences(&b, &a),
            [
                "no longer limited to: \"A\"",
                "no longer nullable",
                "no longer accepts any fields"
            ]
        );
    }

    #[test]
    fn only_served_versions_with_a_schema_oldest_first() {
        let version = |name: &str, served: bool| CrdVersion {
            name: name.into(),
            served,
            storage: false,
            deprecated: false,
            printer_columns: Vec::new(),
        };
        let crd = Crd {
            group: "kennel.example.io".into(),
            kind: "Kennel".into(),
            plural: "kennels".into(),
            scope: "Namespaced".into(),
            versions: vec![
                version("v1", true),
                version("v1beta1", true),
                version("v1alpha1", false),
                version("v1alpha2", true),
            ],
            short_names: Vec::new(),
            schema: vec![
                schema("v1", vec![field("spec", "object")]),
                schema("v1alpha1", vec![]),
                schema("v1alpha2", vec![]),
            ],
            templated: false,
            bundled: false,
            area: Default::default(),
            sources: Vec::new(),
        };
        let diffs = served_versions(&crd);
        let pairs: Vec<(&str, &str)> = diffs
            .iter()
            .map(|d| (d.from.as_str(), d.to.as_str()))
            .collect();
        assert_eq!(pairs, [("v1alpha2", "v1")]);
        assert_eq!(rows(&diffs[0]), ["added spec: object"]);
    }

    #[test]
    fn long_lists_are_counted_not_listed() {
        let old = schema("v1", vec![field("spec", "object")]);
        let mut fields = vec![field("spec", "object")];
        for n in 0..MAX_CHANGES + 5 {
            fields.push(field(&format!("spec.f{n}"), "string"));
        }
        let d = between(&old, &schema("v2", fields));
        assert_eq!((d.changes.len(), d.more), (MAX_CHANGES, 5));
    }
}
