//! Protocol buffer files: the services a `.proto` declares, their rpc methods and the
//! `google.api.http` rules grpc-gateway serves them under.
//!
//! Only what the route analysis needs is read: `package`, `option go_package`, `service`
//! blocks, `rpc` declarations and `option (google.api.http) = { … }` (with `custom` and
//! `additional_bindings`). Everything else is skipped by counting braces. The reader is a
//! flat token loop: nesting is a counter, never recursion, so a hostile file of a million
//! `{` costs one pass.

use model::Diagnostic;

/// At most this many tokens are read from one file; the rest is ignored with a diagnostic.
const MAX_TOKENS: usize = 2_000_000;

/// What one `.proto` file declares.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ProtoFile {
    pub path: String,
    /// `package a.b;`, empty when none.
    pub package: String,
    /// The import path of `option go_package = "path;name"`, without the `;name`.
    pub go_package: String,
    pub services: Vec<ProtoService>,
    pub diagnostics: Vec<Diagnostic>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ProtoService {
    pub name: String,
    pub line: u32,
    pub rpcs: Vec<ProtoRpc>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ProtoRpc {
    pub name: String,
    pub line: u32,
    /// `(method, path)` of each HTTP rule, the main binding first.
    pub http: Vec<(String, String)>,
}

impl ProtoFile {
    /// The service's full name, `package.Service`.
    pub fn full_name(&self, service: &ProtoService) -> String {
        if self.package.is_empty() {
            service.name.clone()
        } else {
            format!("{}.{}", self.package, service.name)
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Ident(String),
    Str(String),
    Punct(char),
}

/// Splits a file into identifiers (dotted names and numbers included), strings and
/// punctuation, with the line of each; comments are dropped.
fn tokens(text: &str) -> (Vec<(Tok, u32)>, bool) {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut line = 1u32;
    let mut i = 0;
    while i < b.len() {
        if out.len() >= MAX_TOKENS {
            return (out, true);
        }
        let c = b[i];
        match c {
            b'\n' => {
                line += 1;
                i += 1;
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i < b.len() && !(b[i] == b'*' && b.get(i + 1) == Some(&b'/')) {
                    if b[i] == b'\n' {
                        line += 1;
                    }
                    i += 1;
                }
                i += 2;
            }
            b'"' | b'\'' => {
                let start_line = line;
                let mut s = Vec::new();
                i += 1;
                while i < b.len() && b[i] != c && b[i] != b'\n' {
                    if b[i] == b'\\' && i + 1 < b.len() {
                        i += 1;
                    }
                    s.push(b[i]);
                    i += 1;
                }
                i += 1;
                out.push((
                    Tok::Str(String::from_utf8_lossy(&s).into_owned()),
                    start_line,
                ));
            }
            _ if c.is_ascii_alphanumeric() || c == b'_' || c == b'.' => {
                let start = i;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'.')
                {
                    i += 1;
                }
                out.push((Tok::Ident(text[start..i].to_string()), line));
            }
            _ if c.is_ascii_whitespace() => i += 1,
            _ if c.is_ascii() => {
                out.push((Tok::Punct(c as char), line));
                i += 1;
            }
            _ => i += 1,
        }
    }
    (out, false)
}

/// The HTTP methods a `google.api.http` rule names as fields.
const RULE_METHODS: &[&str] = &["get", "put", "post", "delete", "patch"];

/// Reads one `.proto` file. Never fails: what is not understood is skipped.
pub fn parse(path: &str, text: &str) -> ProtoFile {
    let mut file = ProtoFile {
        path: path.to_string(),
        ..ProtoFile::default()
    };
    let (toks, cut) = tokens(text);
    if cut {
        file.diagnostics.push(Diagnostic::new(
            path,
            0,
            format!("the file has more than {MAX_TOKENS} tokens; the rest is not read"),
        ));
    }
    let ident = |i: usize| match toks.get(i) {
        Some((Tok::Ident(s), _)) => Some(s.as_str()),
        _ => None,
    };
    let punct = |i: usize, p: char| matches!(toks.get(i), Some((Tok::Punct(c), _)) if *c == p);
    let line = |i: usize| toks.get(i).map(|t| t.1).unwrap_or(0);
    // Brace depth, and the depth at which the open service and rpc bodies started.
    let mut depth = 0usize;
    let mut service: Option<usize> = None;
    let mut rpc: Option<usize> = None;
    let mut i = 0;
    while i < toks.len() {
        match &toks[i].0 {
            Tok::Punct('{') => depth += 1,
            Tok::Punct('}') => {
                depth = depth.saturating_sub(1);
                if rpc.is_some_and(|d| depth < d) {
                    rpc = None;
                }
                if service.is_some_and(|d| depth < d) {
                    service = None;
                }
            }
            Tok::Ident(w) if depth == 0 && w == "package" => {
                if let Some(name) = ident(i + 1) {
                    file.package = name.to_string();
                    i += 1;
                }
            }
            Tok::Ident(w) if depth == 0 && w == "option" && ident(i + 1) == Some("go_package") => {
                if punct(i + 2, '=')
                    && let Some((Tok::Str(s), _)) = toks.get(i + 3)
                {
                    file.go_package = s.split(';').next().unwrap_or_default().to_string();
                    i += 3;
                }
            }
            Tok::Ident(w) if depth == 0 && w == "service" => {
                if let Some(name) = ident(i + 1)
                    && punct(i + 2, '{')
                {
                    file.services.push(ProtoService {
                        name: name.to_string(),
                        line: line(i + 1),
                        rpcs: Vec::new(),
                    });
                    depth += 1;
                    service = Some(depth);
                    i += 3;
                    continue;
                }
            }
            Tok::Ident(w) if w == "rpc" && service == Some(depth) && rpc.is_none() => {
                if let (Some(name), Some(s)) = (ident(i + 1), file.services.last_mut()) {
                    s.rpcs.push(ProtoRpc {
                        name: name.to_string(),
                        line: line(i + 1),
                        http: Vec::new(),
                    });
                    // The body, if any, opens after `returns (…)`; find it or the `;`.
                    let mut j = i + 2;
                    while j < toks.len() && !punct(j, '{') && !punct(j, ';') && !punct(j, '}') {
                        j += 1;
                    }
                    if punct(j, '{') {
                        depth += 1;
                        rpc = Some(depth);
                        i = j + 1;
                    } else {
                        i = j;
                    }
                    continue;
                }
            }
            Tok::Ident(w)
                if w == "option"
                    && rpc == Some(depth)
                    && punct(i + 1, '(')
                    && ident(i + 2) == Some("google.api.http")
                    && punct(i + 3, ')') =>
            {
                let rules = &mut file
                    .services
                    .last_mut()
                    .and_then(|s| s.rpcs.last_mut())
                    .map(|r| &mut r.http);
                // `option (google.api.http).get = "/p";`
                if let Some(m) = ident(i + 4).and_then(|f| f.strip_prefix('.'))
                    && punct(i + 5, '=')
                    && let Some((Tok::Str(p), _)) = toks.get(i + 6)
                {
                    if RULE_METHODS.contains(&m)
                        && let Some(rules) = rules
                    {
                        rules.push((m.to_ascii_uppercase(), p.clone()));
                    }
                    i += 7;
                    continue;
                }
                if punct(i + 4, '=') && punct(i + 5, '{') {
                    let end = rule_block(&toks, i + 5, rules.as_deref_mut());
                    i = end;
                    continue;
                }
            }
            _ => {}
        }
        i += 1;
    }
    file
}

/// Reads the `{ … }` value of a `google.api.http` option starting at `open`, appending its
/// bindings; returns the index after the closing brace. Nested blocks (`custom`,
/// `additional_bindings`) are tracked with a counter.
fn rule_block(
    toks: &[(Tok, u32)],
    open: usize,
    mut rules: Option<&mut Vec<(String, String)>>,
) -> usize {
    let mut depth = 0usize;
    let mut i = open;
    // A `custom { kind: "K" path: "/p" }` being read: (kind, path, depth).
    let mut custom: Option<(Option<String>, Option<String>, usize)> = None;
    while i < toks.len() {
        match &toks[i].0 {
            Tok::Punct('{') => depth += 1,
            Tok::Punct('}') => {
                if let Some((kind, path, d)) = &custom
                    && *d == depth
                {
                    if let (Some(k), Some(p), Some(rules)) = (kind, path, rules.as_deref_mut()) {
                        rules.push((k.clone(), p.clone()));
                    }
                    custom = None;
                }
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return i + 1;
                }
            }
            Tok::Ident(field) => {
                let colon = matches!(toks.get(i + 1), Some((Tok::Punct(':'), _)));
                let value_at = if colon { i + 2 } else { i + 1 };
                if field == "custom" && matches!(toks.get(value_at), Some((Tok::Punct('{'), _))) {
                    custom = Some((None, None, depth + 1));
                } else if let Some((Tok::Str(v), _)) = toks.get(value_at) {
                    // Adjacent string literals are one string.
                    let mut value = v.clone();
                    let mut j = value_at + 1;
                    while let Some((Tok::Str(more), _)) = toks.get(j) {
                        value.push_str(more);
                        j += 1;
                    }
                    match (&mut custom, field.as_str()) {
                        (Some((kind, _, d)), "kind") if *d == depth => *kind = Some(value),
                        (Some((_, path, d)), "path") if *d == depth => *path = Some(value),
                        (None, m) if RULE_METHODS.contains(&m) => {
                            if let Some(rules) = rules.as_deref_mut() {
                                rules.push((m.to_ascii_uppercase(), value));
                            }
                        }
                        _ => {}
                    }
                    i = j;
                    continue;
                }
            }
            _ => {}
        }
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests;
