//! An example manifest for one served version of a CRD, generated from its schema: what a
//! user must write and what the API server fills in.
//!
//! `apiVersion`, `kind` and `metadata` (a name, and a namespace for a namespaced kind)
//! come first, then `spec` (always, when the schema has it) and any other top-level field
//! that is required or has a default; `status` never. Below that, a field is shown when it
//! is required or has a default, and only under a field that is shown. A field's value is
//! its default; else an enum's first member (with the others in a comment); else its
//! fields, when some are shown; else a placeholder for its type (`""`, `0`, `false`, `{}`;
//! a required array holds one item). A repeated subtree (`same_as`) is expanded from its
//! first copy (see `schema::tree`). The example stops at [`MAX_LINES`] lines and says so; a
//! schema portolan cut is said to be cut.

use super::yaml_text::{self, Node};
use derive::schema::tree::Tree;
use model::{CrdSchema, SchemaField};

/// At most this many lines of fields are written.
const MAX_LINES: usize = 100;

/// Enum members listed in a comment before `…`.
const ENUM_SHOWN: usize = 6;

/// A default longer than this is shown as a placeholder with a comment instead.
const MAX_DEFAULT: usize = 120;

/// The kind an example is for.
pub struct Kind<'a> {
    pub group: &'a str,
    pub version: &'a str,
    pub kind: &'a str,
    pub namespaced: bool,
}

/// The example manifest of `schema`, as YAML text.
pub fn example(kind: &Kind, schema: &CrdSchema) -> String {
    let mut builder = Builder {
        tree: Tree::new(&schema.fields),
        budget: MAX_LINES,
        cut: false,
    };
    let mut entries = header(kind);
    entries.extend(builder.top_level());
    let mut lines = yaml_text::write(&entries);
    if builder.cut {
        lines.push(format!(
            "# … cut at {MAX_LINES} fields: the field reference lists the rest"
        ));
    }
    if schema.truncated {
        lines.push(
            "# portolan cut this schema at its depth or size limit: deeper fields are not shown"
                .into(),
        );
    }
    lines.join("\n")
}

fn header(kind: &Kind) -> Vec<(String, Node)> {
    let api_version = if kind.group.is_empty() {
        kind.version.to_string()
    } else {
        format!("{}/{}", kind.group, kind.version)
    };
    let mut metadata = vec![("name".to_string(), Node::scalar("example"))];
    if kind.namespaced {
        metadata.push(("namespace".to_string(), Node::scalar("default")));
    }
    vec![
        (
            "apiVersion".into(),
            Node::scalar(yaml_text::scalar(&api_version)),
        ),
        ("kind".into(), Node::scalar(yaml_text::scalar(kind.kind))),
        ("metadata".into(), Node::map(metadata)),
    ]
}

/// Top-level fields written by [`header`] or never shown.
const NOT_FROM_SCHEMA: [&str; 4] = ["apiVersion", "kind", "metadata", "status"];

struct Builder<'a> {
    tree: Tree<'a>,
    /// Fields still to be written before the example is cut.
    budget: usize,
    cut: bool,
}

impl Builder<'_> {
    /// `spec` first, then the other top-level fields a user must write.
    fn top_level(&mut self) -> Vec<(String, Node)> {
        let mut roots: Vec<usize> = self
            .tree
            .roots()
            .iter()
            .copied()
            .filter(|&i| {
                let key = self.tree.key(i);
                !NOT_FROM_SCHEMA.contains(&key) && (key == "spec" || shown(self.tree.field(i)))
            })
            .collect();
        roots.sort_by_key(|&i| self.tree.key(i) != "spec");
        self.entries(&roots, &mut Vec::new())
    }

    /// The entries for `fields` (siblings), within the line budget.
    fn entries(&mut self, fields: &[usize], chain: &mut Vec<usize>) -> Vec<(String, Node)> {
        let mut out = Vec::new();
        for &i in fields {
            if self.budget == 0 {
                self.cut = true;
                break;
            }
            self.budget -= 1;
            out.push((self.tree.key(i).to_string(), self.node(i, chain)));
        }
        out
    }

    /// The value of field `i` under its key: its default, or the value its shape holds.
    fn node(&mut self, i: usize, chain: &mut Vec<usize>) -> Node {
        let f = self.tree.field(i);
        if let Some(default) = &f.default {
            return default_node(f, default);
        }
        self.shaped(i, chain)
    }

    /// The field's shape (`[]`, `{}`, …) around its own value: a required array holds one
    /// item (an inner array or map stays empty); a map is empty (its keys are the user's).
    fn shaped(&mut self, i: usize, chain: &mut Vec<usize>) -> Node {
        let shape = self.tree.shape(i);
        match shape.get(..2) {
            None => self.own_value(i, chain),
            Some("{}") => Node::map(Vec::new()),
            Some(_) if !self.tree.field(i).required => Node::list(Vec::new()),
            Some(_) => Node::list(vec![match &shape[2..] {
                "" => self.own_value(i, chain),
                inner if inner.starts_with("[]") => Node::list(Vec::new()),
                _ => Node::map(Vec::new()),
            }]),
        }
    }

    /// The field's own value (an array's item): an enum member, its shown fields, or a
    /// placeholder.
    fn own_value(&mut self, i: usize, chain: &mut Vec<usize>) -> Node {
        let f = self.tree.field(i);
        if let Some(first) = f.enum_values.first() {
            return Node::scalar(yaml_text::from_json(first)).with_comment(&enum_comment(f));
        }
        let children: Vec<usize> = self
            .tree
            .children(i, chain)
            .iter()
            .copied()
            .filter(|&c| shown(self.tree.field(c)))
            .collect();
        if children.is_empty() {
            let item_type = if self.tree.shape(i).is_empty() {
                &f.field_type
            } else {
                &f.items
            };
            return placeholder(f, item_type);
        }
        chain.push(self.tree.origin(i));
        let entries = self.entries(&children, chain);
        chain.pop();
        Node::map(entries)
    }
}

/// A field a user must write, or one the API server fills in.
fn shown(f: &SchemaField) -> bool {
    f.required || f.default.is_some()
}

fn default_node(f: &SchemaField, default: &str) -> Node {
    if default.len() > MAX_DEFAULT {
        return placeholder(f, &f.field_type).with_comment("has a long default: see the field");
    }
    let node = Node::scalar(yaml_text::from_json(default));
    if f.enum_values.len() > 1 {
        node.with_comment(&enum_comment(f))
    } else {
        node
    }
}

/// `one of: A, B, C, …` (at most [`ENUM_SHOWN`] members).
fn enum_comment(f: &SchemaField) -> String {
    let mut shown: Vec<String> = f
        .enum_values
        .iter()
        .take(ENUM_SHOWN)
        .map(|v| yaml_text::from_json(v))
        .collect();
    if f.enum_values.len() > ENUM_SHOWN {
        shown.push(format!("… ({} in all)", f.enum_values.len()));
    }
    format!("one of: {}", shown.join(", "))
}

/// A value of type `of` (the field's, or its items') for the user to replace.
fn placeholder(f: &SchemaField, of: &str) -> Node {
    let value = match of {
        "string" => "\"\"",
        "integer" | "number" | "int-or-string" => "0",
        "boolean" => "false",
        "array" => "[]",
        _ => "{}",
    };
    let node = Node::scalar(value);
    if f.preserve_unknown_fields && value == "{}" {
        node.with_comment("any fields")
    } else {
        node
    }
}

#[cfg(test)]
mod tests;
