//! Documents: a YAML stream split into documents, each parsed into a `serde_json::Value`
//! with its object identity (apiVersion, kind, metadata) read out.
//!
//! Documents are split here, not by the parser, so every object keeps the line of its own
//! `kind:` as its source. Each document is parsed with serde-saphyr under a budget (depth,
//! nodes, aliases), which turns alias bombs and runaway nesting into errors instead of
//! hangs or stack overflows. A document with template actions (`{{ … }}`) is parsed after
//! masking them (`template`) and its object is marked templated; if even the masked text
//! does not parse, kind and name are read from the lines themselves.

use serde_json::Value;

use super::template;
use super::value::{plain_value, str_at, string_map, type_name};

/// One document of a multi-document stream, with the 1-based line it starts on.
#[derive(Debug, PartialEq)]
pub struct Document<'a> {
    pub text: &'a str,
    pub first_line: u32,
    /// The line of the top-level `kind:` key, if any.
    pub kind_line: Option<u32>,
}

/// Splits a YAML stream at `---` and `...` lines.
pub fn split_documents(text: &str) -> Vec<Document<'_>> {
    let mut docs = Vec::new();
    let mut start = 0usize;
    let mut start_line = 1u32;
    let mut kind_line = None;
    let mut offset = 0usize;
    let mut line_no = 0u32;
    fn push<'a>(
        docs: &mut Vec<Document<'a>>,
        body: &'a str,
        first_line: u32,
        kind_line: Option<u32>,
    ) {
        if body
            .lines()
            .any(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        {
            docs.push(Document {
                text: body,
                first_line,
                kind_line,
            });
        }
    }
    for line in text.split_inclusive('\n') {
        line_no += 1;
        let content = line.trim_end_matches(['\n', '\r']);
        let is_separator = content == "---"
            || content.starts_with("--- ")
            || content.starts_with("---\t")
            || content == "..."
            || content.starts_with("... ");
        if is_separator {
            push(&mut docs, &text[start..offset], start_line, kind_line);
            // `--- value` keeps its content in the next document.
            start = if content.starts_with("--- ") {
                offset + 4
            } else {
                offset + line.len()
            };
            start_line = if content.starts_with("--- ") {
                line_no
            } else {
                line_no + 1
            };
            kind_line = None;
        } else if kind_line.is_none() && content.starts_with("kind:") {
            kind_line = Some(line_no);
        }
        offset += line.len();
    }
    push(&mut docs, &text[start..], start_line, kind_line);
    docs
}

/// The parser options: strict YAML for plain files; for masked templates, duplicate keys
/// (both branches of an `if`) keep the last value instead of failing.
pub(crate) fn options(lenient: bool) -> serde_saphyr::Options {
    // The default budget (64 levels of nesting, 250,000 nodes, 50,000 aliases) is kept:
    // the deepest real manifest seen (a KServe CRD) nests 36 levels, and deserializing into
    // a value recurses once per level, so the depth limit is also what keeps a worker's
    // stack safe (a debug build overflows a 2 MiB stack at about 90 levels).
    let mut options = serde_saphyr::Options::default();
    // Comments are not read from the parsed value (helm.rs reads them by its own line
    // walk). With comment events on, the parser buffers the comments between a key and
    // its value and fails past 32 of them ("too many buffered comments"): a values.yaml
    // with a long commented-out block was not parsed at all. Off, they are only skipped.
    options.emit_comments = false;
    if lenient {
        options.duplicate_keys = serde_saphyr::DuplicateKeyPolicy::LastWins;
    }
    options
}

/// Parses one document (or any YAML text) into a value, or the first line of the error.
pub fn parse(text: &str) -> Result<Value, String> {
    parse_with(text, false)
}

fn parse_with(text: &str, lenient: bool) -> Result<Value, String> {
    serde_saphyr::from_str_with_options::<Value>(text, options(lenient)).map_err(|e| {
        e.to_string()
            .lines()
            .next()
            .unwrap_or("")
            .trim_start_matches("error: ")
            .to_string()
    })
}

/// A Kubernetes object read from one document.
#[derive(Debug)]
pub struct Object {
    /// The API group: "" for the core group (`apiVersion: v1`).
    pub group: String,
    pub kind: String,
    pub name: String,
    pub namespace: String,
    pub labels: Vec<(String, String)>,
    pub value: Value,
    /// The line of the document's `kind:`.
    pub line: u32,
    /// The first line of the document, for searches within it.
    pub first_line: u32,
    pub templated: bool,
}

impl Object {
    fn from_value(value: Value, line: u32, first_line: u32, templated: bool) -> Object {
        let api_version = str_at(&value, &["apiVersion"]).to_string();
        let group = api_version
            .rsplit_once('/')
            .map(|(g, _)| g.to_string())
            .unwrap_or_default();
        Object {
            kind: str_at(&value, &["kind"]).to_string(),
            name: str_at(&value, &["metadata", "name"]).to_string(),
            namespace: str_at(&value, &["metadata", "namespace"]).to_string(),
            labels: string_map(value.get("metadata").and_then(|m| m.get("labels"))),
            group,
            value,
            line,
            first_line,
            templated,
        }
    }

    /// The value of a label, or "".
    pub fn label(&self, key: &str) -> &str {
        self.labels
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
            .unwrap_or("")
    }
}

/// Where a parse error points, as the file's line, and the message without the
/// document-relative `line N column M: ` prefix (the column is kept in the message).
pub fn locate_error(message: &str, first_line: u32) -> (u32, String) {
    let located = message.strip_prefix("line ").and_then(|rest| {
        let (line, rest) = rest.split_once(" column ")?;
        let (column, rest) = rest.split_once(": ")?;
        let line: u32 = line.parse().ok()?;
        Some((
            first_line + line.saturating_sub(1),
            format!("{rest} (column {column})"),
        ))
    });
    located.unwrap_or((first_line, message.to_string()))
}

/// What reading one document gave.
pub enum Read {
    Object(Object),
    /// Not an object (no top-level `kind:`): values files, configuration snippets.
    NotAnObject,
    /// A plain YAML error, at the file line it points to.
    Failed {
        line: u32,
        message: String,
    },
    /// Parsed, but not one object Kubernetes could read (not a mapping, a `kind` that is not
    /// a string, a list of objects): skipped, and said so.
    Skipped {
        line: u32,
        message: String,
    },
    /// A mapping without `kind` among the objects of a file: skipped, and said so unless the
    /// file is a patch (where such a document is normal).
    Incomplete {
        line: u32,
        message: String,
    },
    /// A template that did not parse even masked: kind and name were read from its lines
    /// (the object carries nothing else).
    TemplateFallback {
        object: Object,
        message: String,
    },
}

/// Reads one document. `helm_template` says the file is a chart template, which is masked
/// even when it happens to parse as it is (its values are not what gets applied).
pub fn read(doc: &Document, helm_template: bool) -> Read {
    let Some(kind_line) = doc.kind_line else {
        return Read::NotAnObject;
    };
    let templated = template::has_actions(doc.text);
    if !(templated && helm_template) {
        match parse(doc.text) {
            Ok(v) => return checked(v, kind_line, doc.first_line, false),
            Err(message) if !templated => {
                let (line, message) = locate_error(&message, doc.first_line);
                return Read::Failed { line, message };
            }
            Err(_) => {}
        }
    }
    let masked = template::mask(doc.text);
    match parse_with(&masked.text, true) {
        Ok(mut v) => {
            template::restore_value(&mut v, &masked.actions);
            checked(v, kind_line, doc.first_line, true)
        }
        Err(message) => Read::TemplateFallback {
            object: Object::from_value(
                identity_from_lines(doc.text),
                kind_line,
                doc.first_line,
                true,
            ),
            message,
        },
    }
}

/// The object a parsed document holds, or why it is skipped: a document that is not a
/// mapping, or whose `kind` is not a non-empty string, is no object Kubernetes could read.
fn checked(value: Value, kind_line: u32, first_line: u32, templated: bool) -> Read {
    let problem = match value.get("kind") {
        _ if !value.is_object() => Some((
            kind_line,
            format!(
                "the document is {}, not a mapping: it is skipped",
                type_name(&value)
            ),
        )),
        Some(Value::String(kind)) if !kind.trim().is_empty() => None,
        Some(Value::String(_)) => {
            Some((kind_line, "`kind` is empty: the object is skipped".into()))
        }
        Some(other) => Some((
            kind_line,
            format!(
                "`kind` is {}, not a string: the object is skipped",
                type_name(other)
            ),
        )),
        None => Some((
            kind_line,
            "the document has no `kind`: it is skipped".into(),
        )),
    };
    match problem {
        None => Read::Object(Object::from_value(value, kind_line, first_line, templated)),
        Some((line, message)) => Read::Skipped { line, message },
    }
}

/// Reads a document without a top-level `kind:` line. In a file of manifests (`in_manifest`:
/// another document has a `kind:` line) each document should be an object too, so one that
/// is not is said to be skipped; elsewhere (values, configuration) only a document that
/// mentions `kind` is parsed, to find objects written in flow or JSON style and top-level
/// lists of objects. Templates are left alone: their documents are parts, not objects.
pub fn read_unkinded(doc: &Document, in_manifest: bool) -> Read {
    if template::has_actions(doc.text) || !(in_manifest || doc.text.contains("kind")) {
        return Read::NotAnObject;
    }
    let value = match parse(doc.text) {
        Ok(v) => v,
        Err(message) if in_manifest || names_an_object(doc.text) => {
            let (line, message) = locate_error(&message, doc.first_line);
            return Read::Failed { line, message };
        }
        Err(_) => return Read::NotAnObject,
    };
    // Where the document's content starts (after comments and blank lines).
    let line = doc
        .text
        .lines()
        .position(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map_or(doc.first_line, |i| doc.first_line + i as u32);
    match &value {
        Value::Object(map) if map.contains_key("kind") => {
            checked(value, kind_key_line(doc), doc.first_line, false)
        }
        Value::Object(_) if in_manifest => Read::Incomplete {
            line,
            message: "the document has no `kind`: it is skipped".into(),
        },
        Value::Array(items) if items.iter().any(|i| i.get("kind").is_some()) => Read::Skipped {
            line,
            message: format!(
                "the document is a list of {} entries, not one object: Kubernetes reads one object per document (separate them with `---`, or use `kind: List` with `items:`); they are skipped",
                items.len()
            ),
        },
        Value::Null => Read::NotAnObject,
        _ if in_manifest => Read::Incomplete {
            line,
            message: format!(
                "the document is {}, not a mapping: it is skipped",
                type_name(&value)
            ),
        },
        _ => Read::NotAnObject,
    }
}

/// Whether text that does not parse still shows an object's `apiVersion` and `kind` keys
/// in flow or JSON style (`{"apiVersion": "v1", "kind": "ConfigMap", …}`): a manifest
/// whose error is worth a diagnostic, as a block-style one gets.
fn names_an_object(text: &str) -> bool {
    let key = |name: &str| {
        [
            format!("\"{name}\""),
            format!("'{name}'"),
            format!("{name}:"),
        ]
        .iter()
        .any(|k| text.contains(k.as_str()))
    };
    key("apiVersion") && key("kind")
}

/// The line of a `kind` key written other than as a `kind:` line of its own (flow style,
/// JSON, quoted): the first line that has one, else the document's first line.
fn kind_key_line(doc: &Document) -> u32 {
    doc.text
        .lines()
        .position(|l| ["kind:", "kind\":", "kind':"].iter().any(|k| l.contains(k)))
        .map_or(doc.first_line, |i| doc.first_line + i as u32)
}

/// apiVersion, kind and metadata name/namespace read line by line, for a template that does
/// not parse even masked. Only top-level keys and the keys directly under `metadata:` count.
fn identity_from_lines(text: &str) -> Value {
    let mut top = serde_json::Map::new();
    let mut metadata = serde_json::Map::new();
    let mut in_metadata = false;
    let mut metadata_indent = None;
    for line in text.lines() {
        let trimmed = line.trim_start();
        if trimmed.is_empty() || trimmed.starts_with('#') || trimmed.starts_with("{{") {
            continue;
        }
        let indent = line.len() - trimmed.len();
        let Some((key, value)) = trimmed.split_once(':') else {
            continue;
        };
        let value = plain_value(value);
        if indent == 0 {
            in_metadata = key == "metadata";
            metadata_indent = None;
            if matches!(key, "apiVersion" | "kind") {
                top.insert(key.to_string(), Value::String(value));
            }
        } else if in_metadata {
            let first = *metadata_indent.get_or_insert(indent);
            if indent == first && matches!(key, "name" | "namespace") {
                metadata.insert(key.to_string(), Value::String(value));
            }
        }
    }
    top.insert("metadata".into(), Value::Object(metadata));
    Value::Object(top)
}

#[cfg(test)]
mod tests;
