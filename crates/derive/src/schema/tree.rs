//! One CRD version's flat field list (`model::SchemaField`: depth-first, `path` joined with
//! `.`, `[]` for array items and `{}` for map values) as a tree to walk: the fields under
//! each field, a repeated subtree (`same_as`) given the fields of its first copy, and each
//! field's key in its parent object with its shape (`containers[]` is the key
//! `containers` shaped `[]`). The example YAML and the schema diff walk it.
//!
//! A walk that follows `same_as` could loop (a Rust struct that contains itself refers to
//! an ancestor) or nest without end; [`Tree::children`] takes the walk's chain of
//! expanded fields and gives nothing past [`MAX_DEPTH`] levels or for a subtree already
//! being expanded on that chain.

use std::collections::HashMap;

use kubernetes::schema_tree::parents_by_depth;
use model::SchemaField;

/// No walk goes deeper than this many levels (the analyzers list at most 24).
pub const MAX_DEPTH: usize = 32;

/// Hops followed from a `same_as` to the copy whose fields are listed.
const MAX_HOPS: usize = 8;

pub struct Tree<'a> {
    fields: &'a [SchemaField],
    /// The top-level fields, in schema order.
    roots: Vec<usize>,
    /// Each field's own children, in schema order.
    own: Vec<Vec<usize>>,
    /// Where a field's children are listed: itself, or the first copy of a repeated subtree.
    origin: Vec<usize>,
    /// Each field's key in its parent object, and its shape (`[]`, `{}`, `[]{}`, or "").
    keys: Vec<(&'a str, &'a str)>,
}

impl<'a> Tree<'a> {
    pub fn new(fields: &'a [SchemaField]) -> Tree<'a> {
        // The list is depth-first: a field's parent is the nearest earlier one a level up.
        let parents = parents_by_depth(fields.iter().map(|f| f.depth));
        let mut own = vec![Vec::new(); fields.len()];
        let mut roots = Vec::new();
        let mut keys = Vec::with_capacity(fields.len());
        for (i, f) in fields.iter().enumerate() {
            match parents[i] {
                Some(p) => own[p].push(i),
                None => roots.push(i),
            }
            let parent_path = parents[i].map(|p| fields[p].path.as_str());
            keys.push(split_shape(segment(&f.path, parent_path)));
        }
        let origin = origins(fields, &own);
        Tree {
            fields,
            roots,
            own,
            origin,
            keys,
        }
    }

    pub fn roots(&self) -> &[usize] {
        &self.roots
    }

    pub fn field(&self, i: usize) -> &'a SchemaField {
        &self.fields[i]
    }

    /// The key of field `i` in its parent object: `containers` for `spec.containers[]`.
    pub fn key(&self, i: usize) -> &'a str {
        self.keys[i].0
    }

    /// What the key holds around the field's own schema: `[]` an array of it, `{}` a map
    /// of it, `[]{}` an array of maps; "" the field itself.
    pub fn shape(&self, i: usize) -> &'a str {
        self.keys[i].1
    }

    /// Where field `i`'s children are listed: `i` itself, or its repeated subtree's first
    /// copy. A walk keeps the origins it is expanding as its `chain`.
    pub fn origin(&self, i: usize) -> usize {
        self.origin[i]
    }

    /// The fields under field `i` for a walk that is expanding `chain` (the origins of
    /// `i`'s ancestors): none when the walk is [`MAX_DEPTH`] deep or `i`'s subtree is
    /// already on the chain (a subtree that contains itself).
    pub fn children(&self, i: usize, chain: &[usize]) -> &[usize] {
        let origin = self.origin[i];
        if chain.len() >= MAX_DEPTH || chain.contains(&origin) {
            return &[];
        }
        &self.own[origin]
    }
}

/// The type a reader sees: `[]string`, `map[string]integer`, `object`, `any`.
pub fn type_text(f: &SchemaField) -> String {
    match (
        f.field_type.as_str(),
        f.items.as_str(),
        f.additional_properties.as_str(),
    ) {
        ("array", items, _) if !items.is_empty() => format!("[]{items}"),
        (_, _, values) if !values.is_empty() => format!("map[string]{values}"),
        ("", _, _) => "any".into(),
        (t, _, _) => t.to_string(),
    }
}

/// The last segment of `path` under `parent` (`containers[]` for `spec.containers[]` under
/// `spec`); the text after the last `.` when the path does not start with the parent's.
fn segment<'p>(path: &'p str, parent: Option<&str>) -> &'p str {
    parent
        .and_then(|p| path.strip_prefix(p))
        .and_then(|rest| rest.strip_prefix('.'))
        .unwrap_or_else(|| path.rsplit('.').next().unwrap_or(path))
}

/// `containers[]` → (`containers`, `[]`); `labels{}` → (`labels`, `{}`).
fn split_shape(segment: &str) -> (&str, &str) {
    let mut key = segment;
    while let Some(rest) = key.strip_suffix("[]").or_else(|| key.strip_suffix("{}")) {
        key = rest;
    }
    segment.split_at(key.len())
}

/// For each field, the field whose children it has: a repeated subtree's first copy (its
/// `same_as` path, followed while that copy is itself a reference), else the field.
fn origins(fields: &[SchemaField], own: &[Vec<usize>]) -> Vec<usize> {
    let mut by_path: HashMap<&str, usize> = HashMap::new();
    for (i, f) in fields.iter().enumerate() {
        by_path.entry(f.path.as_str()).or_insert(i);
    }
    (0..fields.len())
        .map(|i| {
            let mut at = i;
            for _ in 0..MAX_HOPS {
                if !own[at].is_empty() {
                    break;
                }
                match fields[at].same_as.as_deref().and_then(|p| by_path.get(p)) {
                    Some(&next) => at = next,
                    None => break,
                }
            }
            at
        })
        .collect()
}

#[cfg(test)]
mod tests;
