//! Small readers over parsed YAML values: strings at a path, scalars as text, lists and
//! maps of strings. A missing or mistyped field reads as empty, never as a panic.

use serde_json::Value;

/// The string at `path`, or "" when absent or not a string.
pub fn str_at<'a>(v: &'a Value, path: &[&str]) -> &'a str {
    at(v, path).and_then(Value::as_str).unwrap_or("")
}

/// The value at `path`, if present.
pub fn at<'a>(v: &'a Value, path: &[&str]) -> Option<&'a Value> {
    let mut cur = v;
    for key in path {
        cur = cur.get(key)?;
    }
    Some(cur)
}

/// What a value is, for a message: "a string", "a list", "null", ….
pub fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "a mapping",
    }
}

/// The array at `path` (empty when absent or not an array).
pub fn array_at<'a>(v: &'a Value, path: &[&str]) -> &'a [Value] {
    at(v, path)
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or(&[])
}

/// A scalar as text: strings as written, numbers and booleans in their canonical form,
/// anything else (absent, null, a collection) as "".
pub fn scalar(v: Option<&Value>) -> String {
    match v {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Number(n)) => n.to_string(),
        Some(Value::Bool(b)) => b.to_string(),
        _ => String::new(),
    }
}

/// A list of scalars as text. Empty strings are kept: `apiGroups: [""]` is the core group.
pub fn strings(v: Option<&Value>) -> Vec<String> {
    v.and_then(Value::as_array)
        .map(|a| a.iter().map(|x| scalar(Some(x))).collect())
        .unwrap_or_default()
}

/// A map of scalars as (key, text) pairs, in key order.
pub fn string_map(v: Option<&Value>) -> Vec<(String, String)> {
    v.and_then(Value::as_object)
        .map(|m| {
            m.iter()
                .map(|(k, x)| (k.clone(), scalar(Some(x))))
                .collect()
        })
        .unwrap_or_default()
}

/// A map of scalars as `key=value` strings, in key order.
pub fn pairs(v: Option<&Value>) -> Vec<String> {
    string_map(v)
        .into_iter()
        .map(|(k, x)| format!("{k}={x}"))
        .collect()
}

/// The keys of a map, in key order.
pub fn keys(v: Option<&Value>) -> Vec<String> {
    v.and_then(Value::as_object)
        .map(|m| m.keys().cloned().collect())
        .unwrap_or_default()
}

/// A flat description of a settings map such as a `securityContext`: `key=value` for
/// scalars, `key=a,b` for lists of scalars, and nested maps as `outer.inner=value`.
/// Depth is bounded: nested maps below three levels are summarized as `key={…}`.
pub fn settings(v: Option<&Value>) -> Vec<String> {
    let mut out = Vec::new();
    let Some(map) = v.and_then(Value::as_object) else {
        return out;
    };
    let mut stack: Vec<(String, &Value, usize)> = map
        .iter()
        .rev()
        .map(|(k, x)| (k.clone(), x, 0usize))
        .collect();
    while let Some((key, value, depth)) = stack.pop() {
        match value {
            Value::Object(m) if depth < 3 => {
                for (k, x) in m.iter().rev() {
                    stack.push((format!("{key}.{k}"), x, depth + 1));
                }
            }
            Value::Object(_) => out.push(format!("{key}={{…}}")),
            Value::Array(items) => {
                let texts: Vec<String> = items.iter().map(|x| scalar(Some(x))).collect();
                out.push(format!("{key}={}", texts.join(",")));
            }
            Value::Null => {}
            other => out.push(format!("{key}={}", scalar(Some(other)))),
        }
    }
    out
}

/// The 1-based line of the first line at or after `from` (within `text`, whose first line
/// is `first_line`) that reads `name: <name>` (optionally as a list item `- name: …`).
/// Used to point each entry of a list (a webhook of a configuration) at its own line.
pub fn line_of_name(text: &str, first_line: u32, from: u32, name: &str) -> Option<u32> {
    if name.is_empty() {
        return None;
    }
    for (i, line) in text.lines().enumerate() {
        let n = first_line + i as u32;
        if n < from {
            continue;
        }
        let t = line.trim_start();
        let t = t.strip_prefix("- ").map(str::trim_start).unwrap_or(t);
        if let Some(rest) = t.strip_prefix("name:")
            && plain_value(rest) == name
        {
            return Some(n);
        }
    }
    None
}

/// A scalar as written after `key:` on one line, without quotes or a trailing comment.
pub fn plain_value(value: &str) -> String {
    let v = value.trim();
    for quote in ['"', '\''] {
        if let Some(rest) = v.strip_prefix(quote) {
            return rest.split(quote).next().unwrap_or("").to_string();
        }
    }
    let v = if v.contains("{{") {
        v
    } else {
        v.split(" #").next().unwrap_or("")
    };
    v.trim().to_string()
}

#[cfg(test)]
mod tests;
