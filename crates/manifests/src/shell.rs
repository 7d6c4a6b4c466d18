//! Shell text as build files write it: logical lines (`\` continuations joined), the
//! words of a command (simple quotes removed), and `$VAR`-style substitution with bounds.
//! Shared by the build-file reader (`build`) and the Dockerfile reader (`dockerfile`).

use std::collections::HashMap;

/// Longest logical line kept after joining continuations; longer ones are skipped.
const MAX_LOGICAL: usize = 64 * 1024;
/// Variable substitutions per value, so `A = $(A)` cannot loop.
const MAX_SUBSTITUTIONS: usize = 16;

/// (first line number, text) of each line with `\` continuations joined.
pub fn logical_lines(text: &str) -> Vec<(u32, String)> {
    let mut out = Vec::new();
    let mut current: Option<(u32, String)> = None;
    for (i, raw) in text.lines().enumerate() {
        let n = u32::try_from(i + 1).unwrap_or(u32::MAX);
        let (start, mut acc) = current.take().unwrap_or((n, String::new()));
        let (part, continued) = match raw.strip_suffix('\\') {
            Some(p) => (p, true),
            None => (raw, false),
        };
        if acc.len() + part.len() <= MAX_LOGICAL {
            acc.push_str(part);
            acc.push(' ');
        }
        if continued {
            current = Some((start, acc));
        } else {
            out.push((start, acc));
        }
    }
    out.extend(current);
    out
}

/// The longest text a substitution makes. A value is stored substituted, so a chain of
/// `ARG B=${A}${A}` lines doubles at each line: without a cap, 30 lines need gigabytes.
pub const MAX_EXPANDED: usize = 4096;

/// What substituting a text's variables gave.
#[derive(Debug, PartialEq, Eq)]
pub enum Expansion {
    Text(String),
    /// A variable without a value or default, or a reference that does not close.
    Unknown,
    /// Longer than `MAX_EXPANDED` once substituted.
    TooLong,
    /// Still holding a variable after `MAX_SUBSTITUTIONS` substitutions.
    TooDeep,
}

impl Expansion {
    /// Why a text was kept as written, for a diagnostic; None when it was substituted or
    /// names a variable without a value (which its caller words itself).
    pub fn limit(&self) -> Option<String> {
        match self {
            Expansion::TooLong => Some(format!(
                "is longer than {MAX_EXPANDED} characters once its variables are substituted"
            )),
            Expansion::TooDeep => Some(format!(
                "still names a variable after {MAX_SUBSTITUTIONS} substitutions"
            )),
            Expansion::Text(_) | Expansion::Unknown => None,
        }
    }
}

/// `s` with `$(VAR)`, `${VAR}`, `${VAR:-default}` and `$VAR` replaced from `vars`; None
/// when one is not known or the result is too long (`expand` says which).
pub fn substitute(s: &str, vars: &HashMap<String, String>) -> Option<String> {
    match expand(s, vars) {
        Expansion::Text(t) => Some(t),
        Expansion::Unknown | Expansion::TooLong | Expansion::TooDeep => None,
    }
}

/// `s` with its variables replaced from `vars` (see `substitute`).
pub fn expand(s: &str, vars: &HashMap<String, String>) -> Expansion {
    if s.len() > MAX_EXPANDED {
        return Expansion::TooLong;
    }
    let mut out = s.to_string();
    for _ in 0..MAX_SUBSTITUTIONS {
        let Some(at) = out.find('$') else {
            return Expansion::Text(out);
        };
        let rest = &out[at + 1..];
        let (name, fallback, len) = match rest.chars().next() {
            Some(open @ ('(' | '{')) => {
                let close = if open == '(' { ')' } else { '}' };
                let Some(end) = rest.find(close) else {
                    return Expansion::Unknown;
                };
                let inner = &rest[1..end];
                match inner.split_once(":-") {
                    Some((n, d)) if open == '{' => (n, Some(d), end + 1),
                    _ => (inner, None, end + 1),
                }
            }
            _ => {
                let end = rest
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .unwrap_or(rest.len());
                (&rest[..end], None, end)
            }
        };
        if name.is_empty() {
            return Expansion::Unknown;
        }
        let Some(value) = vars.get(name).map(String::as_str).or(fallback) else {
            return Expansion::Unknown;
        };
        if out.len() - (len + 1) + value.len() > MAX_EXPANDED {
            return Expansion::TooLong;
        }
        out = format!("{}{}{}", &out[..at], value, &rest[len..]);
    }
    if out.contains('$') {
        Expansion::TooDeep
    } else {
        Expansion::Text(out)
    }
}

/// Words of a shell command, with simple single and double quotes removed.
pub fn shell_words(cmd: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    for c in cmd.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => cur.push(c),
            (None, '"' | '\'') => quote = Some(c),
            (None, c) if c.is_whitespace() => {
                if !cur.is_empty() {
                    words.push(std::mem::take(&mut cur));
                }
            }
            (None, c) => cur.push(c),
        }
    }
    if !cur.is_empty() {
        words.push(cur);
    }
    words
}
