//! Route pattern syntax: Go 1.22 `ServeMux` patterns (`"[METHOD ][HOST]/[PATH]"`) and how
//! each router library joins a group's prefix with a route's path.

/// The method shown for a route that matches every method.
pub const ANY: &str = "ANY";

/// A `ServeMux` pattern split into its parts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pattern {
    pub method: String,
    pub host: String,
    pub path: String,
}

/// Splits a Go 1.22 `ServeMux` pattern: `"GET /health"` → GET, "", `/health`;
/// `"example.com/x"` → ANY, `example.com`, `/x`; `"/x"` → ANY, "", `/x`. Returns None for a
/// string that is not a pattern (no `/`, or a method token containing one), which
/// `ServeMux` would reject at run time.
pub fn split_pattern(pattern: &str) -> Option<Pattern> {
    let pattern = pattern.trim();
    let (method, rest) = match pattern.find([' ', '\t']) {
        Some(i) => (&pattern[..i], pattern[i..].trim_start()),
        None => ("", pattern),
    };
    if method.contains('/') {
        return None;
    }
    let slash = rest.find('/')?;
    Some(Pattern {
        method: if method.is_empty() {
            ANY.to_string()
        } else {
            method.to_string()
        },
        host: rest[..slash].to_string(),
        path: rest[slash..].to_string(),
    })
}

/// A group prefix joined with a route path the way gin, echo and chi do for paths that
/// start with `/`: one slash between them, and the prefix alone for an empty path.
pub fn join(prefix: &str, path: &str) -> String {
    if prefix.is_empty() {
        return path.to_string();
    }
    if path.is_empty() {
        return prefix.to_string();
    }
    let path = path.strip_prefix('/').unwrap_or(path);
    format!("{}/{path}", prefix.trim_end_matches('/'))
}

/// The path a prefix-matching route (gorilla's `PathPrefix`, chi's `Mount`) serves, shown
/// with a trailing `*`.
pub fn prefix_match(path: &str) -> String {
    if path.is_empty() {
        "/*".to_string()
    } else {
        format!("{path}*")
    }
}

#[cfg(test)]
mod tests;
