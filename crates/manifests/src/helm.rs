//! Helm charts: `Chart.yaml` (name, versions exactly as written, description,
//! dependencies), `values.yaml` flattened to keys with type, default and description, and
//! `values.schema.json`. Each file is read on its own; `assemble` joins them by chart
//! folder once a project's files are all read.
//!
//! Values are flattened by walking the lines of values.yaml (indentation gives the key
//! path, the comment block right above a key its description) and checking every key
//! against the parsed document, which gives its type and guards the line walk: a key the
//! parser does not have is not listed. Descriptions follow helm-docs: a block starting with
//! `# --` is the description (continued by the comment lines after it, `# @default -- x`
//! overriding the shown default); otherwise the plain comment lines above the key, minus
//! lines that look like commented-out YAML.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::Value;

use super::yaml::documents::parse;
use model::{Area, ChartDependency, Diagnostic, HelmChart, HelmValue, SourceRef};

/// Keys nested deeper than this in values.yaml or values.schema.json are not listed.
const MAX_DEPTH: usize = 32;
/// At most this many keys are listed per values file.
const MAX_VALUES: usize = 5_000;

/// The folder of a repository-relative path ("" at the root).
pub fn dir_of(path: &str) -> &str {
    path.rsplit_once('/').map(|(d, _)| d).unwrap_or("")
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct ChartYaml {
    name: Option<String>,
    version: Option<String>,
    #[serde(rename = "appVersion")]
    app_version: Option<String>,
    description: Option<String>,
    dependencies: Vec<DependencyYaml>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct DependencyYaml {
    name: Option<String>,
    version: Option<String>,
    repository: Option<String>,
    condition: Option<String>,
    alias: Option<String>,
}

/// A Chart.yaml. Versions are read into strings, which keeps them as written (`1.10`).
pub fn chart(
    path: &str,
    text: &str,
    area: Area,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<HelmChart> {
    let parsed: ChartYaml = match serde_saphyr::from_str_with_options::<ChartYaml>(
        text,
        super::yaml::documents::options(false),
    ) {
        Ok(c) => c,
        Err(e) => {
            diagnostics.push(Diagnostic::new(
                path,
                1,
                format!(
                    "Chart.yaml not parsed: {}",
                    e.to_string()
                        .lines()
                        .next()
                        .unwrap_or("")
                        .trim_start_matches("error: ")
                ),
            ));
            return None;
        }
    };
    let Some(name) = parsed.name.filter(|n| !n.is_empty()) else {
        diagnostics.push(Diagnostic::new(
            path,
            1,
            "Chart.yaml has no `name`: not listed",
        ));
        return None;
    };
    let line = text
        .lines()
        .position(|l| l.starts_with("name:"))
        .map(|i| i as u32 + 1)
        .unwrap_or(1);
    Some(HelmChart {
        name,
        version: parsed.version.unwrap_or_default(),
        app_version: parsed.app_version.unwrap_or_default(),
        description: parsed.description.unwrap_or_default().trim().to_string(),
        dependencies: parsed
            .dependencies
            .into_iter()
            .map(|d| ChartDependency {
                name: d.name.unwrap_or_default(),
                version: d.version.unwrap_or_default(),
                repository: d.repository.unwrap_or_default(),
                condition: d.condition.unwrap_or_default(),
                alias: d.alias.unwrap_or_default(),
            })
            .collect(),
        values: Vec::new(),
        values_schema: String::new(),
        area,
        sources: vec![SourceRef::new(path, line)],
    })
}

/// A values key with its path as parts, for joining with the schema.
#[derive(Debug, Clone, PartialEq)]
pub struct ValueKey {
    pub parts: Vec<String>,
    pub value: HelmValue,
}

/// The keys of one values.yaml.
#[cfg(test)]
pub fn values(path: &str, text: &str, diagnostics: &mut Vec<Diagnostic>) -> Vec<ValueKey> {
    values_and_document(path, text, diagnostics).0
}

/// The keys of one values.yaml, and the document as parsed.
pub fn values_and_document(
    path: &str,
    text: &str,
    diagnostics: &mut Vec<Diagnostic>,
) -> (Vec<ValueKey>, Option<Value>) {
    let parsed = match parse(text) {
        Ok(v) => v,
        Err(e) => {
            diagnostics.push(Diagnostic::new(
                path,
                1,
                format!("values file not parsed: {e}"),
            ));
            return (Vec::new(), None);
        }
    };
    let mut out = Vec::new();
    let mut stack: Vec<(usize, String)> = Vec::new();
    let mut comments: Vec<&str> = Vec::new();
    // Lines deeper than this indentation belong to a block scalar or list being skipped;
    // `list_at` also skips further `- ` items at that indentation.
    let mut skip: Option<(usize, bool)> = None;
    let mut cut = false;
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        if trimmed.is_empty() {
            comments.clear();
            continue;
        }
        if let Some((at, list)) = skip {
            if indent > at || (list && indent == at && trimmed.starts_with('-')) {
                continue;
            }
            skip = None;
        }
        if let Some(c) = trimmed.strip_prefix('#') {
            comments.push(c);
            continue;
        }
        if trimmed.starts_with('-') {
            skip = Some((indent, true));
            comments.clear();
            continue;
        }
        let Some((key, rest)) = split_key(trimmed) else {
            comments.clear();
            continue;
        };
        while stack.last().is_some_and(|(at, _)| *at >= indent) {
            stack.pop();
        }
        if stack.len() >= MAX_DEPTH {
            cut = true;
            comments.clear();
            continue;
        }
        stack.push((indent, key));
        let parts: Vec<String> = stack.iter().map(|(_, k)| k.clone()).collect();
        let (description, default_override) = describe(&comments);
        comments.clear();
        let rest = rest.trim();
        if rest.starts_with('|') || rest.starts_with('>') {
            skip = Some((indent, false));
        }
        let Some(v) = lookup(&parsed, &parts) else {
            continue;
        };
        let is_map = matches!(v, Value::Object(m) if !m.is_empty());
        if is_map && description.is_empty() {
            continue;
        }
        if out.len() >= MAX_VALUES {
            cut = true;
            break;
        }
        let default = default_override.unwrap_or_else(|| shown_default(rest, v));
        out.push(ValueKey {
            value: HelmValue {
                key: parts.join("."),
                value_type: type_name(v).into(),
                default,
                description,
                schema_type: String::new(),
                required: false,
                enum_values: Vec::new(),
                sources: vec![SourceRef::new(path, i as u32 + 1)],
            },
            parts,
        });
    }
    if cut {
        diagnostics.push(Diagnostic::new(
            path,
            1,
            format!(
                "values file nests deeper than {MAX_DEPTH} levels or has more than {MAX_VALUES} keys: the key list is cut"
            ),
        ));
    }
    (out, Some(parsed))
}

/// `key: rest` of one line (the key unquoted), or `None` when the line is not a key.
fn split_key(line: &str) -> Option<(String, &str)> {
    let (key, rest) = if let Some(q) = line.strip_prefix('"').or(line.strip_prefix('\'')) {
        let quote = line.chars().next()?;
        let end = q.find(quote)?;
        let after = q[end + 1..].strip_prefix(':')?;
        (q[..end].to_string(), after)
    } else {
        let at = line
            .find(": ")
            .or_else(|| line.strip_suffix(':').map(|l| l.len()))?;
        let key = &line[..at];
        if key.contains(['{', '[', '#']) {
            return None;
        }
        (key.to_string(), line.get(at + 1..).unwrap_or(""))
    };
    Some((key, rest))
}

fn lookup<'a>(v: &'a Value, parts: &[String]) -> Option<&'a Value> {
    let mut cur = v;
    for p in parts {
        cur = cur.as_object()?.get(p)?;
    }
    Some(cur)
}

fn type_name(v: &Value) -> &'static str {
    match v {
        Value::String(_) => "string",
        Value::Number(n) if n.is_i64() || n.is_u64() => "int",
        Value::Number(_) => "float",
        Value::Bool(_) => "bool",
        Value::Array(_) => "list",
        Value::Object(_) => "object",
        Value::Null => "null",
    }
}

/// The default as written on the key's line, else the parsed value as compact JSON.
fn shown_default(rest: &str, v: &Value) -> String {
    let written = strip_comment(rest);
    if !written.is_empty() && !written.starts_with('|') && !written.starts_with('>') {
        return written.to_string();
    }
    let json = v.to_string();
    if json.chars().count() > 120 {
        let cut: String = json.chars().take(117).collect();
        format!("{cut}…")
    } else {
        json
    }
}

/// Text before a ` #` comment that is not inside quotes.
fn strip_comment(s: &str) -> &str {
    let mut quote = None;
    let bytes = s.as_bytes();
    for (i, c) in s.char_indices() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '"' || c == '\'' => quote = Some(c),
            None if c == '#' && (i == 0 || bytes.get(i - 1) == Some(&b' ')) => {
                return s[..i].trim();
            }
            None => {}
        }
    }
    s.trim()
}

/// The description from a comment block, and a `@default --` override.
fn describe(comments: &[&str]) -> (String, Option<String>) {
    let texts: Vec<&str> = comments
        .iter()
        .map(|c| c.strip_prefix(' ').unwrap_or(c))
        .collect();
    let mut default = None;
    if let Some(start) = texts
        .iter()
        .rposition(|t| t.trim_start().starts_with("-- ") || t.trim() == "--")
    {
        let mut parts = Vec::new();
        for (j, t) in texts[start..].iter().enumerate() {
            let t = t.trim();
            if let Some(d) = t.strip_prefix("@default --") {
                default = Some(d.trim().to_string());
            } else if j == 0 {
                parts.push(t.trim_start_matches("--").trim());
            } else if !t.starts_with('@') {
                parts.push(t);
            }
        }
        return (parts.join(" ").trim().to_string(), default);
    }
    (prose(&texts).join(" "), default)
}

/// The prose lines of a plain comment block: commented-out YAML is left out, and so is
/// everything indented under a commented-out line (nested keys, list items, the text of a
/// block scalar), which read alone would look like prose.
fn prose<'a>(texts: &[&'a str]) -> Vec<&'a str> {
    let mut out = Vec::new();
    // The indentation of the commented-out line whose block we are in.
    let mut block: Option<usize> = None;
    for t in texts {
        let trimmed = t.trim();
        if trimmed.is_empty() {
            continue;
        }
        let indent = t.len() - t.trim_start().len();
        if block.is_some_and(|at| indent > at) {
            continue;
        }
        if looks_like_yaml(trimmed) {
            block = Some(indent);
            continue;
        }
        block = None;
        out.push(trimmed);
    }
    out
}

/// A commented-out line of YAML (`key: value`, `- item`, `---`) rather than prose.
fn looks_like_yaml(t: &str) -> bool {
    if t.starts_with("- ") || t.starts_with("---") {
        return true;
    }
    match t.split_once(':') {
        Some((k, rest)) => {
            !k.is_empty()
                && (rest.is_empty() || rest.starts_with(' '))
                && k.chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-' | '/' | '"'))
        }
        None => false,
    }
}

/// One property of a values.schema.json.
#[derive(Debug, Clone, PartialEq)]
pub struct SchemaKey {
    pub parts: Vec<String>,
    pub schema_type: String,
    pub description: String,
    pub required: bool,
    pub enum_values: Vec<String>,
    pub default: String,
    pub line: u32,
}

/// The properties of a values.schema.json, walked without recursion.
pub fn schema(path: &str, text: &str, diagnostics: &mut Vec<Diagnostic>) -> Vec<SchemaKey> {
    // serde_json stops at 128 levels of nesting with an error, so a deep file cannot
    // overflow the stack here.
    let root: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => {
            diagnostics.push(Diagnostic::new(
                path,
                e.line() as u32,
                format!("values.schema.json not parsed: {e}"),
            ));
            return Vec::new();
        }
    };
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut stack: Vec<(&Value, Vec<String>, usize)> = vec![(&root, Vec::new(), 0)];
    let mut cut = false;
    while let Some((node, parts, from_line)) = stack.pop() {
        let Some(props) = node.get("properties").and_then(Value::as_object) else {
            continue;
        };
        if parts.len() >= MAX_DEPTH || out.len() >= MAX_VALUES {
            cut = true;
            continue;
        }
        let required: Vec<&str> = node
            .get("required")
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let mut children = Vec::new();
        for (name, child) in props {
            let mut p = parts.clone();
            p.push(name.clone());
            let line = lines
                .iter()
                .skip(from_line)
                .position(|l| names_key(l, name))
                .map(|i| from_line + i)
                .unwrap_or(from_line);
            let t = match child.get("type") {
                Some(Value::Array(ts)) => ts
                    .iter()
                    .filter_map(Value::as_str)
                    .collect::<Vec<_>>()
                    .join("|"),
                Some(t) => t.as_str().unwrap_or("").to_string(),
                None => String::new(),
            };
            out.push(SchemaKey {
                parts: p.clone(),
                schema_type: t,
                description: child
                    .get("description")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string(),
                required: required.contains(&name.as_str()),
                enum_values: child
                    .get("enum")
                    .and_then(Value::as_array)
                    .map(|a| a.iter().map(Value::to_string).collect())
                    .unwrap_or_default(),
                default: child
                    .get("default")
                    .map(Value::to_string)
                    .unwrap_or_default(),
                line: line as u32 + 1,
            });
            children.push((child, p, line + 1));
        }
        stack.extend(children.into_iter().rev());
    }
    if cut {
        diagnostics.push(Diagnostic::new(
            path,
            1,
            format!("values.schema.json nests deeper than {MAX_DEPTH} levels or has more than {MAX_VALUES} properties: the list is cut"),
        ));
    }
    out
}

/// Whether a JSON line has `"name":` (the key, not the name inside a list).
fn names_key(line: &str, name: &str) -> bool {
    let quoted = format!("\"{name}\"");
    let mut rest = line;
    while let Some(at) = rest.find(&quoted) {
        rest = &rest[at + quoted.len()..];
        if rest.trim_start().starts_with(':') {
            return true;
        }
    }
    false
}

/// What one chart file gave.
#[derive(Debug, Clone, PartialEq)]
pub enum ChartPart {
    Chart(HelmChart),
    Values(Vec<ValueKey>),
    Schema(Vec<SchemaKey>),
}

/// Joins Chart.yaml, values.yaml and values.schema.json of each chart folder. Values and
/// schemas without a Chart.yaml beside them are not Helm values and are dropped.
pub fn assemble(parts: Vec<(String, ChartPart)>) -> Vec<HelmChart> {
    let mut charts: BTreeMap<String, HelmChart> = BTreeMap::new();
    let mut values: BTreeMap<String, Vec<ValueKey>> = BTreeMap::new();
    let mut schemas: BTreeMap<String, (String, Vec<SchemaKey>)> = BTreeMap::new();
    for (path, part) in parts {
        let dir = dir_of(&path).to_string();
        match part {
            ChartPart::Chart(c) => {
                charts.insert(dir, c);
            }
            ChartPart::Values(v) => {
                values.insert(dir, v);
            }
            ChartPart::Schema(s) => {
                schemas.insert(dir, (path, s));
            }
        }
    }
    let mut out = Vec::new();
    for (dir, mut chart) in charts {
        let mut keys = values.remove(&dir).unwrap_or_default();
        if let Some((schema_path, schema_keys)) = schemas.remove(&dir) {
            chart.values_schema = schema_path.clone();
            for s in schema_keys {
                match keys.iter_mut().find(|k| k.parts == s.parts) {
                    Some(k) => {
                        k.value.schema_type = s.schema_type;
                        k.value.required = s.required;
                        k.value.enum_values = s.enum_values;
                        if k.value.description.is_empty() {
                            k.value.description = s.description;
                        }
                    }
                    None => keys.push(ValueKey {
                        value: HelmValue {
                            key: s.parts.join("."),
                            value_type: s.schema_type.clone(),
                            default: s.default,
                            description: s.description,
                            schema_type: s.schema_type,
                            required: s.required,
                            enum_values: s.enum_values,
                            sources: vec![SourceRef::new(&schema_path, s.line)],
                        },
                        parts: s.parts,
                    }),
                }
            }
        }
        chart.values = keys.into_iter().map(|k| k.value).collect();
        out.push(chart);
    }
    out
}

#[cfg(test)]
mod tests;
