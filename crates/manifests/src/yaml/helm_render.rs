//! Rendering Helm template actions with the chart's defaults, where that is sound: so a
//! Service port reads `9002`, not `{{ .Values.port | default 9002 }}`.
//!
//! Only an action inside a line of YAML (`port: {{ … }}`, `name: {{ … }}-webhook`) is
//! rendered, never one alone on its line (those are control flow or blocks, masked as
//! before), and only where `.` is the chart's root context: not inside `with`, `range` or
//! `define` (whose `.` is something else). An action is rendered when it is one of:
//!
//! * `.Values.a.b`, optionally `| default LITERAL` and `| quote`: the value from the
//!   chart's values.yaml (a string of plain characters, a boolean, or an integer Helm prints
//!   as written: below 10⁶, since Helm reads numbers as floats and prints larger ones as
//!   `1e+06`); when values.yaml has no such key or an empty value, the default. Not for a
//!   chart another chart of the repository uses as a dependency (the parent's values may
//!   override its own), nor for a key under a dependency's name or alias (the subchart's
//!   values may supply it).
//! * `.Chart.Name`: the chart's name from Chart.yaml.
//! * `include "x.name" .` where the chart's `x.name` is the standard helper
//!   `default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-"`: the chart's
//!   name (or `nameOverride` from values.yaml), truncated as Helm does.
//!
//! Everything else (`.Release.Name`, `.Release.Namespace`, `printf`, other helpers) keeps
//! its template text: a wrong name is worse than a template. A rendered value is written
//! between private-use marks that carry the action's index (`mark`); `unmark` removes them
//! after expansion and says which line each value ended up on, so the rows read from those
//! lines can be flagged as rendered. Text that already holds such a character is never
//! rendered.

use std::collections::BTreeMap;

use serde_json::Value;

use kubernetes::helm::action_spans;

/// Opens a rendered value: `OPEN index SEP value CLOSE`.
const OPEN: char = '\u{E000}';
const SEP: char = '\u{E001}';
const CLOSE: char = '\u{E002}';
/// The longest value written in place of an action.
const MAX_VALUE: usize = 253;
/// Helm reads numbers as float64 and prints those of 10⁶ or more in exponent form.
const MAX_INT: i64 = 999_999;

/// What rendering needs of one chart.
#[derive(Debug, Default)]
pub struct Chart {
    /// `name` of Chart.yaml.
    pub name: String,
    /// values.yaml as parsed (`None`: the chart has no values.yaml, so `.Values` is empty).
    pub values: Option<Value>,
    /// Whether `.Values` is only this chart's values.yaml: false for a chart another chart
    /// of the repository depends on.
    pub values_are_own: bool,
    /// The chart's dependencies by their key in `.Values` (the alias, else the name): the
    /// subchart's own values fill what the chart's values leave out under that key.
    pub dependencies: Vec<Dependency>,
    /// The defines visible from the chart that are the standard name helper.
    pub name_helpers: Vec<String>,
    /// The folders of its dependencies that are in the repository (`file://`, or under its
    /// `charts/`): their named templates are the chart's too.
    pub subcharts: Vec<String>,
}

/// A dependency of a chart, as far as rendering needs it.
#[derive(Debug, Default)]
pub struct Dependency {
    /// Its key in the parent's `.Values`: the alias, else the name.
    pub key: String,
    /// The subchart's values.yaml, when the subchart is in the repository (`file://`);
    /// `None` for a chart from elsewhere, whose values are unknown.
    pub values: Option<Value>,
}

/// One action rendered: its template text and the value written in its place.
#[derive(Debug, Clone, PartialEq)]
pub struct Rendered {
    pub template: String,
    pub value: String,
}

/// Whether a define's body is the standard name helper of `helm create`.
pub fn is_name_helper(body: &str) -> bool {
    let spans = action_spans(body);
    let [(s, e)] = spans[..] else {
        return false;
    };
    if !body[..s].trim().is_empty() || !body[e..].trim().is_empty() {
        return false;
    }
    let words = body[s + 2..e - 2].trim_matches('-').split_whitespace();
    words.collect::<Vec<_>>()
        == [
            "default",
            ".Chart.Name",
            ".Values.nameOverride",
            "|",
            "trunc",
            "63",
            "|",
            "trimSuffix",
            "\"-\"",
        ]
}

/// Whether `text` holds one of the marks (then it is never rendered).
pub fn has_marks(text: &str) -> bool {
    text.contains([OPEN, SEP, CLOSE])
}

/// Renders the actions of `text` that can be (see the module documentation), written
/// between marks; `table` gets each rendered action, its index in the marks.
pub fn mark(text: &str, chart: &Chart, table: &mut Vec<Rendered>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    // Open blocks: whether each rebinds `.` (`with`, `range`, `define`, `block`).
    let mut blocks: Vec<bool> = Vec::new();
    for (s, e) in action_spans(text) {
        let raw = &text[s..e];
        let Some(inner) = raw.strip_prefix("{{").and_then(|r| r.strip_suffix("}}")) else {
            continue;
        };
        let words = inner.trim_start_matches('-').trim_end_matches('-').trim();
        let keyword = words.split_whitespace().next().unwrap_or("");
        match keyword {
            "with" | "range" | "define" | "block" => blocks.push(true),
            "if" => blocks.push(false),
            "end" => {
                blocks.pop();
            }
            _ => {}
        }
        if blocks.iter().any(|&rebinds| rebinds) || !inline(text, s, e) {
            continue;
        }
        let Some(value) = evaluate(words, chart) else {
            continue;
        };
        out.push_str(&text[at..s]);
        out.push(OPEN);
        out.push_str(&table.len().to_string());
        out.push(SEP);
        out.push_str(&value);
        out.push(CLOSE);
        table.push(Rendered {
            template: raw.to_string(),
            value,
        });
        at = e;
    }
    out.push_str(&text[at..]);
    out
}

/// Whether the action at `s..e` shares its line with other text (not a block of its own).
fn inline(text: &str, s: usize, e: usize) -> bool {
    let line_start = text[..s].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[e..].find('\n').map_or(text.len(), |i| e + i);
    let alone = text[line_start..s].trim().is_empty() && text[e..line_end].trim().is_empty();
    !text[s..e].contains('\n') && !alone
}

/// The text without marks, and for each rendered value the 1-based line it is on.
pub fn unmark(text: &str, table: &[Rendered]) -> (String, Vec<(u32, Rendered)>) {
    let mut out = String::with_capacity(text.len());
    let mut found = Vec::new();
    let mut line = 1u32;
    let mut rest = text;
    while let Some(open) = rest.find(OPEN) {
        let before = &rest[..open];
        line += before.matches('\n').count() as u32;
        out.push_str(before);
        let after = &rest[open + OPEN.len_utf8()..];
        let parsed = after.split_once(SEP).and_then(|(index, tail)| {
            let (value, tail) = tail.split_once(CLOSE)?;
            Some((index.parse::<usize>().ok()?, value, tail))
        });
        match parsed.and_then(|(i, v, tail)| Some((table.get(i)?, v, tail))) {
            Some((r, value, tail)) => {
                out.push_str(value);
                found.push((line, r.clone()));
                rest = tail;
            }
            // Marks are ours and balanced; anything else is left as it is.
            None => {
                out.push(OPEN);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    (out, found)
}

/// The value of one action's words, or `None` when it cannot be known soundly.
fn evaluate(words: &str, chart: &Chart) -> Option<String> {
    let stages: Vec<&str> = words.split('|').map(str::trim).collect();
    let (head, pipeline) = stages.split_first()?;
    let value = if let Some(name) = include_name(head) {
        chart.name_helpers.iter().any(|h| h == name).then_some(())?;
        let name = match values_lookup(chart.values.as_ref(), &["nameOverride"])? {
            Lookup::Found(Value::String(s)) if !s.is_empty() => s.clone(),
            Lookup::Missing | Lookup::Found(Value::Null) | Lookup::Found(Value::String(_)) => {
                chart.name.clone()
            }
            Lookup::Found(_) => return None,
        };
        let name: String = name.chars().take(63).collect();
        Scalar::Text(name.strip_suffix('-').unwrap_or(&name).to_string())
    } else if *head == ".Chart.Name" || *head == "$.Chart.Name" {
        Scalar::Text(chart.name.clone())
    } else {
        let path = head
            .strip_prefix(".Values.")
            .or_else(|| head.strip_prefix("$.Values."))?;
        let parts: Vec<&str> = path.split('.').collect();
        if parts
            .iter()
            .any(|p| p.is_empty() || !p.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
        {
            return None;
        }
        if !chart.values_are_own {
            return None;
        }
        match values_lookup(chart.values.as_ref(), &parts)? {
            Lookup::Found(v) if !v.is_null() => Scalar::of(v)?,
            // A subchart's key the chart leaves out: the subchart's own values decide.
            _ if chart.dependencies.iter().any(|d| d.key == parts[0]) => {
                let dependency = chart.dependencies.iter().find(|d| d.key == parts[0])?;
                match values_lookup(Some(dependency.values.as_ref()?), &parts[1..])? {
                    Lookup::Found(v) if !v.is_null() => Scalar::of(v)?,
                    Lookup::Found(_) => return None,
                    Lookup::Missing => Scalar::Empty,
                }
            }
            _ => Scalar::Empty,
        }
    };
    let mut value = value;
    let mut quoted = false;
    for stage in pipeline {
        let (f, arg) = stage.split_once(char::is_whitespace).unwrap_or((stage, ""));
        match (f, arg.trim()) {
            ("default", lit) if !quoted => {
                if value == Scalar::Empty || value.is_empty() {
                    value = literal(lit)?;
                }
            }
            ("quote", "") => quoted = true,
            _ => return None,
        }
    }
    let text = match value {
        Scalar::Empty => return None,
        Scalar::Text(s) => s,
        Scalar::Int(n) => n.to_string(),
        Scalar::Bool(b) => b.to_string(),
    };
    if text.is_empty() || text.len() > MAX_VALUE || !plain(&text) {
        return None;
    }
    Some(if quoted { format!("\"{text}\"") } else { text })
}

/// A value as Helm would print it.
#[derive(Debug, PartialEq)]
enum Scalar {
    /// Missing or null: prints `<no value>`, unless a `default` follows.
    Empty,
    Text(String),
    Int(i64),
    Bool(bool),
}

impl Scalar {
    fn of(v: &Value) -> Option<Scalar> {
        Some(match v {
            Value::Null => Scalar::Empty,
            Value::String(s) => Scalar::Text(s.clone()),
            Value::Bool(b) => Scalar::Bool(*b),
            Value::Number(n) => Scalar::Int(n.as_i64().filter(|n| n.abs() <= MAX_INT)?),
            _ => return None,
        })
    }

    /// Sprig's `empty`: what `default` replaces.
    fn is_empty(&self) -> bool {
        match self {
            Scalar::Empty => true,
            Scalar::Text(s) => s.is_empty(),
            Scalar::Int(n) => *n == 0,
            Scalar::Bool(b) => !b,
        }
    }
}

/// A Go template literal: a quoted string or an integer.
fn literal(lit: &str) -> Option<Scalar> {
    if let Some(s) = lit.strip_prefix('"').and_then(|l| l.strip_suffix('"')) {
        return (!s.contains(['"', '\\'])).then(|| Scalar::Text(s.to_string()));
    }
    let n: i64 = lit.parse().ok()?;
    (n.abs() <= MAX_INT).then_some(Scalar::Int(n))
}

/// Characters a rendered value may have: those of names, ports and simple values, none
/// that YAML or a template would read specially.
fn plain(s: &str) -> bool {
    s.chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '/'))
        && !s.starts_with(['-', '.'])
}

/// `include "NAME" .` (or `$`): the define's name.
fn include_name(head: &str) -> Option<&str> {
    let rest = head.strip_prefix("include")?.trim_start();
    let rest = rest.strip_prefix('"')?;
    let (name, arg) = rest.split_once('"')?;
    matches!(arg.trim(), "." | "$").then_some(name)
}

enum Lookup<'a> {
    Found(&'a Value),
    Missing,
}

/// A key of a values.yaml (`None`: the chart has none); `None` when a step is not a map
/// (a list, a scalar).
fn values_lookup<'a>(values: Option<&'a Value>, parts: &[&str]) -> Option<Lookup<'a>> {
    let Some(mut cur) = values else {
        return Some(Lookup::Missing);
    };
    for p in parts {
        match cur {
            Value::Object(m) => match m.get(*p) {
                Some(v) => cur = v,
                None => return Some(Lookup::Missing),
            },
            Value::Null => return Some(Lookup::Missing),
            _ => return None,
        }
    }
    Some(Lookup::Found(cur))
}

/// A chart as `charts` reads it: folder, name, and its dependencies as
/// (name, alias, repository).
pub type ChartFacts = (String, String, Vec<(String, String, String)>);

/// The charts of a project by folder, for rendering: only charts whose Chart.yaml was
/// read.
pub fn charts(charts: &[ChartFacts], values: &BTreeMap<String, Value>) -> BTreeMap<String, Chart> {
    let mut out = BTreeMap::new();
    for (dir, name, deps) in charts {
        let mut subcharts = Vec::new();
        let dependencies = deps
            .iter()
            .map(|(name, alias, repo)| {
                // An in-repo subchart: `file://../x`, or one under this chart's `charts/`.
                let subchart = match repo.strip_prefix("file://") {
                    Some(rel) => crate::kustomize::join(dir, rel),
                    None if repo.is_empty() => Some(format!("{dir}/charts/{name}")),
                    None => None,
                }
                .filter(|d| charts.iter().any(|(c, _, _)| c == d));
                subcharts.extend(subchart.clone());
                Dependency {
                    key: if alias.is_empty() { name } else { alias }.clone(),
                    values: subchart.map(|d| {
                        values
                            .get(&d)
                            .cloned()
                            .unwrap_or_else(|| Value::Object(Default::default()))
                    }),
                }
            })
            .collect();
        out.insert(
            dir.clone(),
            Chart {
                name: name.clone(),
                values: values.get(dir).cloned(),
                values_are_own: true,
                dependencies,
                name_helpers: Vec::new(),
                subcharts,
            },
        );
    }
    // A chart another chart depends on (under its `charts/`, or named by a `file://`
    // repository) gets values from its parent too.
    let mut used: Vec<String> = Vec::new();
    for (dir, _, deps) in charts {
        for (_, _, repo) in deps {
            if let Some(rel) = repo.strip_prefix("file://")
                && let Some(path) = crate::kustomize::join(dir, rel)
            {
                used.push(path);
            }
        }
    }
    for (dir, chart) in out.iter_mut() {
        // Under another chart's `charts/` folder (`charts/x` is under the root chart's).
        let parent = match dir.rfind("/charts/") {
            Some(i) => Some(&dir[..i]),
            None => dir.starts_with("charts/").then_some(""),
        };
        let parent_has_chart = parent.is_some_and(|p| charts.iter().any(|(d, _, _)| d == p));
        if parent_has_chart || used.contains(dir) {
            chart.values_are_own = false;
        }
    }
    out
}

#[cfg(test)]
mod tests;
