//! The changes between two CRD schemas (two served versions of one CRD, or one version at
//! two commits), each classified as breaking or compatible for the objects and clients
//! written against the old schema.
//!
//! Fields are matched by their path (each object's keys; `containers[]` and `containers`
//! are the same key, so a field that became a list is a change of type). A field is added,
//! removed, or changed in its type, required flag, default, enum, format, pattern, limits
//! (`minimum`, `maxLength`, …), CEL rules, validation markers, nullability or acceptance of
//! unknown fields, and, when asked, its description. An added or removed field is one row
//! with the number of fields under it, not a row per field. A repeated subtree (`same_as`)
//! is compared as the fields it stands for (see `schema::tree`). At most [`MAX_VISITS`]
//! fields are compared; a cut comparison says so.
//!
//! **Breaking** is what can make the API server reject an object the old schema accepted,
//! or drop what a client reads: a field removed, its type or format changed, a field newly
//! required (or added as required), an enum value removed (or an enum imposed), a pattern
//! added or changed, a limit added or tightened, a new CEL rule or validation marker, no
//! longer nullable or no longer accepting unknown fields. Everything else (an optional field
//! added, an enum value added, a limit loosened, a default or description changed) is
//! compatible. A changed pattern or rule is breaking: portolan cannot prove it looser.

use std::collections::HashMap;

use super::tree::{Tree, type_text};
use model::{CelRule, CrdSchema, SchemaField};

/// Fields compared per pair of schemas.
pub const MAX_VISITS: usize = 50_000;
/// Enum members listed in a change before `…`.
const ENUM_SHOWN: usize = 6;
/// Characters of a pattern or rule shown in a change.
const TEXT_SHOWN: usize = 60;

/// One property of a field that changed, and whether the change can break old objects.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Aspect {
    pub text: String,
    pub breaking: bool,
}

impl Aspect {
    fn breaking(text: impl Into<String>) -> Aspect {
        Aspect {
            text: text.into(),
            breaking: true,
        }
    }

    fn compatible(text: impl Into<String>) -> Aspect {
        Aspect {
            text: text.into(),
            breaking: false,
        }
    }
}

/// What happened to a field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    Added,
    Removed,
    Changed,
}

impl Change {
    pub fn label(self) -> &'static str {
        match self {
            Change::Added => "added",
            Change::Removed => "removed",
            Change::Changed => "changed",
        }
    }
}

/// One field added, removed or changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldChange {
    /// The field's path in the schema it is in (the old one for a removed field).
    pub path: String,
    pub change: Change,
    pub aspects: Vec<Aspect>,
}

impl FieldChange {
    pub fn breaking(&self) -> bool {
        self.aspects.iter().any(|a| a.breaking)
    }

    /// `type: string → integer; now required`.
    pub fn detail(&self) -> String {
        self.aspects
            .iter()
            .map(|a| a.text.as_str())
            .collect::<Vec<_>>()
            .join("; ")
    }
}

/// All changes from `old` to `new`, fields in the new schema's order, removed fields last.
pub struct SchemaChanges {
    pub changes: Vec<FieldChange>,
    /// The comparison stopped at [`MAX_VISITS`] fields.
    pub cut: bool,
}

/// The changes from `old` to `new`; with `descriptions`, a changed description is one too.
/// Rules and unknown-field acceptance of the schema root are a change of the path `.`.
pub fn between(old: &CrdSchema, new: &CrdSchema, descriptions: bool) -> SchemaChanges {
    let mut walk = Walk {
        old: Side::new(&old.fields),
        new: Side::new(&new.fields),
        changes: Vec::new(),
        visits: 0,
        cut: false,
        descriptions,
    };
    let mut root = rule_changes(&old.rules, &new.rules);
    root.extend(flag_changes(&[(
        old.preserve_unknown_fields,
        new.preserve_unknown_fields,
        "accepts any fields",
    )]));
    if descriptions && old.description != new.description {
        root.push(Aspect::compatible("description changed"));
    }
    if !root.is_empty() {
        walk.changes.push(FieldChange {
            path: ".".into(),
            change: Change::Changed,
            aspects: root,
        });
    }
    let (old_roots, new_roots) = (
        walk.old.tree.roots().to_vec(),
        walk.new.tree.roots().to_vec(),
    );
    walk.compare(&old_roots, &new_roots, "");
    SchemaChanges {
        changes: walk.changes,
        cut: walk.cut,
    }
}

/// One schema's tree, with the walk's chain of expanded subtrees and its counts.
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
    changes: Vec<FieldChange>,
    visits: usize,
    cut: bool,
    descriptions: bool,
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
                    // A new required field rejects every old object that lacks it.
                    let aspect = if self.new.tree.field(n).required {
                        Aspect::breaking(detail)
                    } else {
                        Aspect::compatible(detail)
                    };
                    self.push(self.new.path(prefix, n), Change::Added, vec![aspect]);
                }
            }
        }
        // The old fields left, in their order.
        for &o in old {
            if old_by_key.remove(self.old.tree.key(o)).is_some() {
                let detail = self.old.describe(o);
                self.push(
                    self.old.path(prefix, o),
                    Change::Removed,
                    vec![Aspect::breaking(detail)],
                );
            }
        }
    }

    /// A field in both schemas: its own changes, then its children's.
    fn matched(&mut self, o: usize, n: usize, prefix: &str) {
        let path = self.new.path(prefix, n);
        let aspects = differences(
            self.old.tree.field(o),
            self.new.tree.field(n),
            self.descriptions,
        );
        if !aspects.is_empty() {
            self.push(path.clone(), Change::Changed, aspects);
        }
        let (old_children, new_children) = (self.old.children(o), self.new.children(n));
        self.old.chain.push(self.old.tree.origin(o));
        self.new.chain.push(self.new.tree.origin(n));
        self.compare(&old_children, &new_children, &path);
        self.old.chain.pop();
        self.new.chain.pop();
    }

    fn push(&mut self, path: String, change: Change, aspects: Vec<Aspect>) {
        self.changes.push(FieldChange {
            path,
            change,
            aspects,
        });
    }
}

/// What changed in a field's own schema, one aspect per property.
pub fn differences(a: &SchemaField, b: &SchemaField, descriptions: bool) -> Vec<Aspect> {
    let mut out = Vec::new();
    let (ta, tb) = (type_text(a), type_text(b));
    if ta != tb {
        out.push(Aspect::breaking(format!("type: {ta} → {tb}")));
    }
    if a.required != b.required {
        out.push(if b.required {
            Aspect::breaking("now required")
        } else {
            Aspect::compatible("now optional")
        });
    }
    let or_none = |s: &str| if s.is_empty() { "none" } else { s }.to_string();
    let default = |f: &SchemaField| or_none(f.default.as_deref().unwrap_or(""));
    if default(a) != default(b) {
        out.push(Aspect::compatible(format!(
            "default: {} → {}",
            default(a),
            default(b)
        )));
    }
    // Dropping a format or pattern accepts more; adding or changing one may reject.
    for (what, before, after) in [
        ("format", &a.format, &b.format),
        ("pattern", &a.pattern, &b.pattern),
    ] {
        if before != after {
            let text = format!(
                "{what}: {} → {}",
                or_none(&shortened(before)),
                or_none(&shortened(after))
            );
            out.push(if after.is_empty() {
                Aspect::compatible(text)
            } else {
                Aspect::breaking(text)
            });
        }
    }
    out.extend(enum_change(&a.enum_values, &b.enum_values));
    out.extend(limit_changes(&a.limits, &b.limits));
    out.extend(flag_changes(&[
        (a.nullable, b.nullable, "nullable"),
        (
            a.preserve_unknown_fields,
            b.preserve_unknown_fields,
            "accepts any fields",
        ),
    ]));
    out.extend(rule_changes(&a.rules, &b.rules));
    out.extend(marker_changes(&a.validation, &b.validation));
    if descriptions && a.description != b.description {
        out.push(Aspect::compatible("description changed"));
    }
    out
}

/// `now nullable` is compatible; `no longer nullable` is breaking.
fn flag_changes(flags: &[(bool, bool, &str)]) -> Vec<Aspect> {
    flags
        .iter()
        .filter(|(before, after, _)| before != after)
        .map(|&(_, after, what)| {
            if after {
                Aspect::compatible(format!("now {what}"))
            } else {
                Aspect::breaking(format!("no longer {what}"))
            }
        })
        .collect()
}

/// CEL rules matched by their rule text: a new one is breaking, a dropped one compatible.
fn rule_changes(a: &[CelRule], b: &[CelRule]) -> Vec<Aspect> {
    let has = |rules: &[CelRule], r: &CelRule| rules.iter().any(|x| x.rule == r.rule);
    let mut out: Vec<Aspect> = b
        .iter()
        .filter(|r| !has(a, r))
        .map(|r| Aspect::breaking(format!("new CEL rule `{}`", shortened(&r.rule))))
        .collect();
    out.extend(
        a.iter()
            .filter(|r| !has(b, r))
            .map(|r| Aspect::compatible(format!("CEL rule `{}` dropped", shortened(&r.rule)))),
    );
    out
}

/// Go validation markers (`Minimum=1`, `MaxLength=63`, `XValidation:rule="…"`): one
/// whose keyword is at both sides compares its value like a limit (`Minimum=1` →
/// `Minimum=0` loosens); a new one is breaking, a dropped one compatible.
fn marker_changes(a: &[String], b: &[String]) -> Vec<Aspect> {
    let keyword = |m: &str| -> String {
        let k = m.split_once('=').map_or(m, |(k, _)| k);
        // `XValidation:rule=…` markers are told apart by their whole text.
        if k.contains(':') {
            m.to_string()
        } else {
            k.to_string()
        }
    };
    let value = |m: &str| m.split_once('=').map_or("", |(_, v)| v).to_string();
    let find = |list: &[String], k: &str| list.iter().find(|m| keyword(m) == k).cloned();
    let mut out = Vec::new();
    for m in b.iter().filter(|m| !a.contains(m)) {
        let k = keyword(m);
        match find(a, &k) {
            Some(old) => {
                let text = format!("validation marker {k}: {} → {}", value(&old), value(m));
                let lower = k.to_ascii_lowercase();
                let tighter = match (
                    larger_is_tighter(&lower),
                    value(&old).parse::<f64>(),
                    value(m).parse::<f64>(),
                ) {
                    (Some(larger), Ok(x), Ok(y)) => (y > x) == larger,
                    _ => true,
                };
                out.push(if tighter {
                    Aspect::breaking(text)
                } else {
                    Aspect::compatible(text)
                });
            }
            None => out.push(Aspect::breaking(format!(
                "new validation marker {}",
                shortened(m)
            ))),
        }
    }
    for m in a.iter().filter(|m| !b.contains(m)) {
        if find(b, &keyword(m)).is_none() {
            out.push(Aspect::compatible(format!(
                "validation marker {} dropped",
                shortened(m)
            )));
        }
    }
    out
}

/// Whether a larger value of the limit accepts less (`minimum`) or more (`maximum`); `None`
/// for a limit whose every change may reject (`multipleOf`).
fn larger_is_tighter(keyword: &str) -> Option<bool> {
    if keyword.starts_with("min") {
        Some(true)
    } else if keyword.starts_with("max") {
        Some(false)
    } else {
        None
    }
}

/// Limits (`keyword=value`) added, dropped, tightened or loosened.
fn limit_changes(a: &[String], b: &[String]) -> Vec<Aspect> {
    let split = |l: &String| -> (String, String) {
        let (k, v) = l.split_once('=').unwrap_or((l.as_str(), ""));
        (k.to_string(), v.to_string())
    };
    let (old, new): (Vec<_>, Vec<_>) =
        (a.iter().map(split).collect(), b.iter().map(split).collect());
    let value_of = |list: &[(String, String)], k: &str| {
        list.iter()
            .find(|(key, _)| key == k)
            .map(|(_, v)| v.clone())
    };
    let mut out = Vec::new();
    for (k, v) in &new {
        match value_of(&old, k) {
            None if v == "false" => {}
            None => out.push(Aspect::breaking(format!("new limit {k}={v}"))),
            Some(before) if &before == v => {}
            Some(before) => {
                let text = format!("{k}: {before} → {v}");
                let tighter = match (
                    larger_is_tighter(k),
                    before.parse::<f64>(),
                    v.parse::<f64>(),
                ) {
                    (Some(larger), Ok(x), Ok(y)) => (y > x) == larger,
                    // `exclusiveMinimum: false → true` and `uniqueItems` accept less.
                    _ => v == "true" || larger_is_tighter(k).is_none() && v != "false",
                };
                out.push(if tighter {
                    Aspect::breaking(text)
                } else {
                    Aspect::compatible(text)
                });
            }
        }
    }
    for (k, v) in &old {
        if value_of(&new, k).is_none() && v != "false" {
            out.push(Aspect::compatible(format!("limit {k}={v} dropped")));
        }
    }
    out
}

/// `enum: added "C"; removed "A"`, or an enum that appears or goes. A removed value (or a
/// new enum) rejects old objects that use it; added values only accept more.
fn enum_change(a: &[String], b: &[String]) -> Option<Aspect> {
    let added: Vec<&String> = b.iter().filter(|v| !a.contains(v)).collect();
    let removed: Vec<&String> = a.iter().filter(|v| !b.contains(v)).collect();
    match (a.is_empty(), b.is_empty()) {
        (_, _) if added.is_empty() && removed.is_empty() => None,
        (true, false) => Some(Aspect::breaking(format!("now one of: {}", listed(&added)))),
        (false, true) => Some(Aspect::compatible(format!(
            "no longer limited to: {}",
            listed(&removed)
        ))),
        _ => {
            let mut parts = Vec::new();
            if !added.is_empty() {
                parts.push(format!("added {}", listed(&added)));
            }
            if !removed.is_empty() {
                parts.push(format!("removed {}", listed(&removed)));
            }
            let text = format!("enum: {}", parts.join("; "));
            Some(if removed.is_empty() {
                Aspect::compatible(text)
            } else {
                Aspect::breaking(text)
            })
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

fn shortened(text: &str) -> String {
    if text.chars().count() <= TEXT_SHOWN {
        return text.to_string();
    }
    let head: String = text.chars().take(TEXT_SHOWN).collect();
    format!("{head}…")
}

#[cfg(test)]
mod tests;
