//! Writing YAML text from a small tree of maps, lists and scalars, each node with an
//! optional end-of-line comment. Every key and scalar that comes from a repository is
//! written plain only when it is a simple word YAML reads back as the same string, and as a
//! JSON (so YAML) double-quoted string otherwise; comments lose their line breaks. The
//! text is always valid YAML; HTML escaping is the template's job.

use serde_json::Value as Json;

pub enum Value {
    /// A scalar or flow collection, already YAML text (`""`, `0`, `Always`, `{}`).
    Scalar(String),
    Map(Vec<(String, Node)>),
    List(Vec<Node>),
}

pub struct Node {
    pub value: Value,
    /// Shown after the node's first line, `# ` added.
    pub comment: String,
}

impl Node {
    pub fn scalar(text: impl Into<String>) -> Node {
        Node {
            value: Value::Scalar(text.into()),
            comment: String::new(),
        }
    }

    pub fn map(entries: Vec<(String, Node)>) -> Node {
        Node {
            value: Value::Map(entries),
            comment: String::new(),
        }
    }

    pub fn list(items: Vec<Node>) -> Node {
        Node {
            value: Value::List(items),
            comment: String::new(),
        }
    }

    pub fn with_comment(mut self, comment: &str) -> Node {
        self.comment = one_line(comment);
        self
    }
}

/// The lines of a block mapping at the top level.
pub fn write(entries: &[(String, Node)]) -> Vec<String> {
    let mut out = Vec::new();
    write_map(entries, 0, &mut out);
    out
}

fn write_map(entries: &[(String, Node)], indent: usize, out: &mut Vec<String>) {
    for (key, node) in entries {
        let head = format!("{:indent$}{}:", "", scalar(key));
        write_value(head, node, indent + 2, out);
    }
}

/// `head` (`key:` or `-`) followed by the node: inline when it fits on the line, else as a
/// block indented to `indent`.
fn write_value(head: String, node: &Node, indent: usize, out: &mut Vec<String>) {
    let inline = match &node.value {
        Value::Scalar(text) => Some(text.as_str()),
        Value::Map(entries) if entries.is_empty() => Some("{}"),
        Value::List(items) if items.is_empty() => Some("[]"),
        _ => None,
    };
    let line = match inline {
        Some(text) => format!("{head} {text}"),
        None => head,
    };
    out.push(with_comment(line, &node.comment));
    match &node.value {
        Value::Map(entries) if inline.is_none() => write_map(entries, indent, out),
        Value::List(items) if inline.is_none() => {
            for item in items {
                write_item(item, indent, out);
            }
        }
        _ => {}
    }
}

/// A list item at `indent`: `- value`, or a block whose first line starts with `- `.
fn write_item(node: &Node, indent: usize, out: &mut Vec<String>) {
    if let Value::Map(entries) = &node.value
        && !entries.is_empty()
        && node.comment.is_empty()
    {
        let first = out.len();
        write_map(entries, indent + 2, out);
        // `    name: x` becomes `  - name: x`: the map starts on the item's line.
        out[first].replace_range(indent..indent + 2, "- ");
        return;
    }
    write_value(format!("{:indent$}-", ""), node, indent + 2, out);
}

fn with_comment(line: String, comment: &str) -> String {
    if comment.is_empty() {
        line
    } else {
        format!("{line}  # {comment}")
    }
}

/// `text` on one line: control characters (line breaks included) become spaces.
fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// A string as a YAML scalar: plain when it is a simple word that YAML reads back as the
/// same string (not a number, boolean or null), else JSON-quoted.
pub fn scalar(s: &str) -> String {
    if is_plain(s) {
        s.to_string()
    } else {
        Json::String(s.to_string()).to_string()
    }
}

/// Words YAML 1.1 or 1.2 reads as booleans or null.
const SPECIAL: [&str; 12] = [
    "y", "n", "yes", "no", "on", "off", "true", "false", "null", "~", "nan", "inf",
];

fn is_plain(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || "-._/".contains(c))
        && !SPECIAL.contains(&s.to_ascii_lowercase().as_str())
}

/// A JSON text (a schema's default or enum member) as one line of YAML: scalars as
/// scalars, arrays and objects in flow style. Text that is not JSON is shown as a string.
pub fn from_json(text: &str) -> String {
    match serde_json::from_str::<Json>(text) {
        Ok(value) => flow(&value),
        Err(_) => scalar(text),
    }
}

fn flow(value: &Json) -> String {
    match value {
        Json::String(s) => scalar(s),
        Json::Array(items) => {
            let items: Vec<String> = items.iter().map(flow).collect();
            format!("[{}]", items.join(", "))
        }
        Json::Object(map) => {
            let entries: Vec<String> = map
                .iter()
                .map(|(k, v)| format!("{}: {}", scalar(k), flow(v)))
                .collect();
            format!("{{{}}}", entries.join(", "))
        }
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests;
