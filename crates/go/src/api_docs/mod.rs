//! Go API types as documentation of the CRDs generated from them. controller-gen writes a
//! CRD's field descriptions from the Go types' doc comments, but a build may strip them
//! (KServe's sets `crd:maxDescLen=0`), and a CRD lists properties alphabetically, not in the
//! order the type's author wrote them. Here the Go type behind each of the project's CRD
//! versions is walked alongside the schema, field by field through the json names:
//! * a field without a description gets its Go field's doc comment (or its type's), and is
//!   marked `go_doc`;
//! * `+kubebuilder:validation:` markers the schema rows do not already show are kept;
//! * siblings are put in the Go struct's order (embedded `inline` structs in place);
//! * the schema's `same_as` keeps pointing at the first copy in the new order.
//!
//! Per file ([`collect`]) each `type` declaration is recorded with its doc comment, markers
//! and, for a struct, its fields (json name, doc, markers, type shape). Per project
//! ([`ApiDocs::build`]) type names resolve to import paths; once the manifests' CRDs are
//! known ([`annotate`]) each version's schema is matched with the type named after its kind
//! in a package declaring the CRD's group and version. Nothing is guessed: below a Go type
//! outside the repository (`corev1.PodSpec`) or one whose shape does not match the schema
//! (a list where the schema has a map), the CRD's text stands alone, and a CRD version left
//! without any description says why in a diagnostic.

mod annotate;
mod resolve;

pub use annotate::annotate;
pub use resolve::ApiDocs;

use tree_sitter::Node;

use super::facts::api_docs::{DocDecl, DocField, Shape, Wrap};
use super::syntax::{FIELD, KindName, line_of, string_literal, text};

/// Nesting of collections and pointers followed in a type expression.
const MAX_TYPE_NESTING: usize = 16;
/// Embedded structs followed into, and named types followed to what they are defined as.
const MAX_INDIRECTION: usize = 4;

// ---- per file --------------------------------------------------------------------------

/// Records the `type` declarations of a top-level `type_declaration`.
pub fn collect(decl: Node, src: &[u8], out: &mut Vec<DocDecl>) {
    let parenthesized = decl.child(1).is_some_and(|c| c.kind_name() == "(");
    let mut cursor = decl.walk();
    for spec in decl.named_children(&mut cursor) {
        if spec.kind_name() != "type_spec" {
            continue;
        }
        let (Some(name), Some(ty)) = (
            spec.child_by_field_id(FIELD.name),
            spec.child_by_field_id(FIELD.ty),
        ) else {
            continue;
        };
        // Comments above a grouped declaration describe the group; each spec has its own.
        let (doc, markers) = doc_of(
            &leading_comments(if parenthesized { spec } else { decl }),
            src,
        );
        let (fields, underlying) = if ty.kind_name() == "struct_type" {
            (Some(struct_fields(ty, src)), None)
        } else {
            (None, Some(shape(ty, src)))
        };
        out.push(DocDecl {
            name: text(name, src).to_string(),
            line: line_of(name),
            doc,
            markers,
            fields,
            underlying,
        });
    }
}

fn struct_fields(ty: Node, src: &[u8]) -> Vec<DocField> {
    let mut out = Vec::new();
    // Each field with the nodes before it in its list (comments and tokens included, as
    // `prev_sibling` sees them), once: asking a node for its previous sibling walks its
    // parent's children from the first.
    let mut fields: Vec<(Node, Vec<Node>)> = Vec::new();
    let mut tc = ty.walk();
    for list in ty.named_children(&mut tc) {
        let mut lc = list.walk();
        let siblings: Vec<Node> = list.children(&mut lc).collect();
        for (i, f) in siblings.iter().enumerate() {
            if f.kind_name() == "field_declaration" {
                fields.push((*f, leading_comments_in(&siblings[..i], *f)));
            }
        }
    }
    for (field, comments) in fields {
        let Some(fty) = field.child_by_field_id(FIELD.ty) else {
            continue;
        };
        let tag = field
            .child_by_field_id(FIELD.tag)
            .and_then(|t| string_literal(t, src))
            .unwrap_or_default();
        let json = tag_value(&tag, "json");
        if json.as_deref() == Some("-") {
            continue;
        }
        let (json_name, inline_option) = match json.as_deref() {
            Some(v) => {
                let mut parts = v.split(',');
                let name = parts.next().unwrap_or("").to_string();
                (name, parts.any(|o| o == "inline"))
            }
            None => (String::new(), false),
        };
        let (doc, markers) = doc_of(&comments, src);
        let shape = shape(fty, src);
        let names: Vec<&str> = crate::syntax::field_children(field, FIELD.name)
            .into_iter()
            .map(|n| text(n, src))
            .collect();
        if names.is_empty() {
            // An embedded struct: promoted unless the tag names it.
            out.push(DocField {
                inline: json_name.is_empty() || inline_option,
                json: if inline_option {
                    String::new()
                } else {
                    json_name
                },
                doc,
                markers,
                shape,
            });
            continue;
        }
        for name in names {
            // Unexported fields are not serialized.
            if !name.starts_with(|c: char| c.is_uppercase()) {
                continue;
            }
            out.push(DocField {
                json: if json_name.is_empty() {
                    name.to_string()
                } else {
                    json_name.clone()
                },
                inline: inline_option,
                doc: doc.clone(),
                markers: markers.clone(),
                shape: shape.clone(),
            });
        }
    }
    out
}

/// The value of `key` in a Go struct tag (`json:"name,omitempty" yaml:"…"`), as
/// `reflect.StructTag.Get` reads it.
fn tag_value(tag: &str, key: &str) -> Option<String> {
    let mut rest = tag;
    loop {
        rest = rest.trim_start();
        let colon = rest.find(':')?;
        let name = &rest[..colon];
        let after = rest[colon + 1..].strip_prefix('"')?;
        let mut value = String::new();
        let mut chars = after.char_indices();
        let mut end = None;
        while let Some((i, c)) = chars.next() {
            match c {
                '\\' => {
                    if let Some((_, e)) = chars.next() {
                        value.push(e);
                    }
                }
                '"' => {
                    end = Some(i + 1);
                    break;
                }
                c => value.push(c),
            }
        }
        let end = end?;
        if name == key {
            return Some(value);
        }
        rest = &after[end..];
    }
}

/// The type a type expression names, inside its collections.
fn shape(node: Node, src: &[u8]) -> Shape {
    let mut wrappers = Vec::new();
    let mut n = node;
    for _ in 0..MAX_TYPE_NESTING {
        let next = match n.kind_name() {
            "pointer_type" | "parenthesized_type" => n.named_child(0),
            "generic_type" => n.child_by_field_id(FIELD.ty),
            "slice_type" | "array_type" | "implicit_length_array_type" => {
                wrappers.push(Wrap::Slice);
                n.child_by_field_id(FIELD.element)
            }
            "map_type" => {
                wrappers.push(Wrap::Map);
                n.child_by_field_id(FIELD.value)
            }
            "qualified_type" => {
                return Shape {
                    qualifier: n
                        .child_by_field_id(FIELD.package)
                        .map(|p| text(p, src).to_string()),
                    name: n
                        .child_by_field_id(FIELD.name)
                        .map(|p| text(p, src).to_string())
                        .unwrap_or_default(),
                    wrappers,
                };
            }
            "type_identifier" => {
                let name = text(n, src);
                // `[]byte` is a base64 string in JSON, not a list.
                if name == "byte" && wrappers.last() == Some(&Wrap::Slice) {
                    wrappers.pop();
                    return Shape {
                        qualifier: None,
                        name: String::new(),
                        wrappers,
                    };
                }
                return Shape {
                    qualifier: None,
                    name: name.to_string(),
                    wrappers,
                };
            }
            _ => None,
        };
        match next {
            Some(next) => n = next,
            None => break,
        }
    }
    Shape {
        qualifier: None,
        name: String::new(),
        wrappers,
    }
}

/// The doc comment of `node`: the comments on the lines right above it, none of them
/// trailing code on its own line.
/// `leading_comments` of `node`, given the nodes before it in its parent (`before`).
fn leading_comments_in<'t>(before: &[Node<'t>], node: Node<'t>) -> Vec<Node<'t>> {
    let mut out = Vec::new();
    let mut next_row = node.start_position().row;
    let mut i = before.len();
    while i > 0 {
        let c = before[i - 1];
        if c.kind_name() != "comment" || c.end_position().row + 1 != next_row {
            break;
        }
        let trailing = i >= 2 && {
            let p = before[i - 2];
            p.kind_name() != "comment" && p.end_position().row == c.start_position().row
        };
        if trailing {
            break;
        }
        out.push(c);
        next_row = c.start_position().row;
        i -= 1;
    }
    out.reverse();
    out
}

fn leading_comments(node: Node) -> Vec<Node> {
    let mut out = Vec::new();
    let mut next_row = node.start_position().row;
    let mut current = node.prev_sibling();
    while let Some(c) = current {
        if c.kind_name() != "comment" || c.end_position().row + 1 != next_row {
            break;
        }
        let trailing = c.prev_sibling().is_some_and(|p| {
            p.kind_name() != "comment" && p.end_position().row == c.start_position().row
        });
        if trailing {
            break;
        }
        out.push(c);
        next_row = c.start_position().row;
        current = c.prev_sibling();
    }
    out.reverse();
    out
}

/// A doc comment's text (marker and `TODO` lines dropped, cut at a `---` line as
/// controller-gen does, lines kept) and its `+kubebuilder:validation:` markers without that prefix.
fn doc_of(comments: &[Node], src: &[u8]) -> (String, Vec<String>) {
    let mut lines: Vec<&str> = Vec::new();
    let mut markers = Vec::new();
    let mut cut = false;
    for comment in comments {
        let raw = text(*comment, src);
        if is_directive(raw) {
            continue;
        }
        let body: Vec<&str> = match raw.strip_prefix("//") {
            Some(line) => vec![line],
            None => raw
                .trim_start_matches("/*")
                .trim_end_matches("*/")
                .lines()
                .collect(),
        };
        for line in body {
            let line = line.strip_prefix(' ').unwrap_or(line).trim_end();
            if let Some(marker) = line.trim_start().strip_prefix('+') {
                if let Some(v) = marker.strip_prefix("kubebuilder:validation:")
                    && !matches!(v, "Optional" | "Required")
                {
                    markers.push(v.to_string());
                }
                continue;
            }
            // As controller-gen and Kubernetes' API docs read a doc comment: a line
            // starting with `---` ends it, lines starting with `TODO` are notes.
            if line.trim_start().starts_with("---") {
                cut = true;
            }
            if !cut && !line.trim_start().starts_with("TODO") {
                lines.push(line);
            }
        }
    }
    while lines.last().is_some_and(|l| l.trim().is_empty()) {
        lines.pop();
    }
    let start = lines.iter().take_while(|l| l.trim().is_empty()).count();
    (lines[start..].join("\n"), markers)
}

/// A Go directive (`//nolint:x`, `//go:generate`, `//line f:1`), which is not part of
/// a doc comment's text (as `go/ast`'s `CommentGroup.Text` reads it).
fn is_directive(comment: &str) -> bool {
    let Some(rest) = comment.strip_prefix("//") else {
        return false;
    };
    if ["line ", "extern ", "export "]
        .iter()
        .any(|p| rest.starts_with(p))
    {
        return true;
    }
    let word = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit();
    let name_end = rest.find(|c: char| !word(c)).unwrap_or(rest.len());
    name_end > 0 && rest[name_end..].starts_with(':') && rest[name_end + 1..].starts_with(word)
}

#[cfg(test)]
mod tests;
