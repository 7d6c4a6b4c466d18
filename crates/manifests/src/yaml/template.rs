//! Template masking: makes a Helm (or Jinja-style) template parse as YAML without rendering
//! it, so the kind and name of the objects it renders can still be read.
//!
//! Every `{{ … }}` action is found first. A line that holds nothing but actions and
//! whitespace (`{{- if .Values.x }}`, `{{- end }}`, `{{- include … | nindent 4 }}`) is
//! blanked; any other action is replaced by a placeholder scalar. Lines are never added or
//! removed, so line numbers stay those of the file. After parsing, `restore` puts the
//! original action text back in place of each placeholder, so a name keeps its template
//! text (`{{ include "chart.fullname" . }}-webhook`).
//!
//! Masking keeps both branches of an `if`/`else` and one copy of a `range` body: the result
//! is a superset of what any rendering yields, which is what a reader of the template sees.

use serde_json::Value;

use kubernetes::helm::action_spans;

/// The prefix of every placeholder; followed by the action's index and `__`.
const MARK: &str = "__portolan_tpl_";

/// A masked text and the original text of each action, by placeholder index.
#[derive(Debug, PartialEq)]
pub struct Masked {
    pub text: String,
    pub actions: Vec<String>,
}

/// Whether `text` has template actions.
pub fn has_actions(text: &str) -> bool {
    text.contains("{{")
}

/// Masks every action of `text` (see the module documentation).
pub fn mask(text: &str) -> Masked {
    let spans = action_spans(text);
    let mut actions = Vec::with_capacity(spans.len());
    let mut out = String::with_capacity(text.len());
    let mut next = 0usize; // index of the first span that may touch the current line
    let mut line_start = 0usize;
    for line in text.split_inclusive('\n') {
        let line_end = line_start + line.len();
        let body_end = line_start + line.trim_end_matches(['\n', '\r']).len();
        // The spans touching this line, in order.
        let mut touching = Vec::new();
        let mut i = next;
        while let Some(&(s, e)) = spans.get(i) {
            if s >= body_end {
                break;
            }
            if e > line_start {
                touching.push((i, s, e));
            }
            i += 1;
        }
        // Spans that end on this line are done with; a span running past it stays.
        while let Some(&(_, e)) = spans.get(next) {
            if e <= line_end {
                next += 1;
            } else {
                break;
            }
        }
        let pure = !touching.is_empty() && {
            let mut rest = String::new();
            let mut at = line_start;
            for &(_, s, e) in &touching {
                if s > at {
                    rest.push_str(&text[at..s.min(body_end)]);
                }
                at = at.max(e);
            }
            if at < body_end {
                rest.push_str(&text[at..body_end]);
            }
            rest.trim().is_empty()
        };
        if pure {
            out.push_str(&line[body_end - line_start..]);
        } else {
            let mut at = line_start;
            for &(i, s, e) in &touching {
                if s > at {
                    out.push_str(&text[at..s]);
                }
                if s >= line_start {
                    // The action starts here: it becomes one placeholder.
                    out.push_str(MARK);
                    out.push_str(&actions.len().to_string());
                    out.push_str("__");
                    actions.push(text[s..e].to_string());
                    debug_assert_eq!(actions.len(), i + 1);
                }
                at = at.max(e.min(body_end));
            }
            if at < body_end {
                out.push_str(&text[at..body_end]);
            }
            out.push_str(&line[body_end - line_start..]);
        }
        // Actions starting on a blanked line still get their index, so indices match spans.
        if pure {
            for &(_, s, e) in &touching {
                if s >= line_start {
                    actions.push(text[s..e].to_string());
                }
            }
        }
        line_start = line_end;
    }
    Masked { text: out, actions }
}

/// `s` with every placeholder replaced by the action it stands for.
pub fn restore(s: &str, actions: &[String]) -> String {
    if !s.contains(MARK) {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(at) = rest.find(MARK) {
        out.push_str(&rest[..at]);
        let after = &rest[at + MARK.len()..];
        let digits = after.bytes().take_while(u8::is_ascii_digit).count();
        let original = after[..digits]
            .parse::<usize>()
            .ok()
            .and_then(|i| actions.get(i))
            .filter(|_| after[digits..].starts_with("__"));
        match original {
            Some(text) => {
                out.push_str(text);
                rest = &after[digits + 2..];
            }
            None => {
                out.push_str(MARK);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// Restores placeholders in every string (keys included) of a parsed value, without
/// recursion: the value's depth is bounded by the parser, but the walk does not rely on it.
pub fn restore_value(value: &mut Value, actions: &[String]) {
    let mut stack: Vec<&mut Value> = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::String(s) if s.contains(MARK) => *s = restore(s, actions),
            Value::Array(items) => stack.extend(items.iter_mut()),
            Value::Object(map) => {
                if map.keys().any(|k| k.contains(MARK)) {
                    let entries = std::mem::take(map);
                    for (k, val) in entries {
                        map.insert(restore(&k, actions), val);
                    }
                }
                stack.extend(map.values_mut());
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests;
