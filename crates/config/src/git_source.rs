//! The checks on a `git = …` source's URL and `rev`. Both reach the `git` command line, so
//! anything git or ssh could read as an option, or a transport that runs a command, is
//! refused here, before any git command runs. (`source::git` also puts every such value
//! after `--end-of-options` and limits the protocols; these checks are the first line.)

/// The URL schemes a git source may use. `GIT_ALLOW_PROTOCOL` in `source::git` allows the
/// same protocols (scp-like `user@host:path` URLs are ssh).
pub const SCHEMES: [&str; 5] = ["https", "http", "ssh", "git", "file"];

/// Why `url` is not an acceptable git URL, or None when it is one.
pub fn url_problem(url: &str) -> Option<String> {
    if let Some(c) = url.chars().find(|c| c.is_whitespace() || c.is_control()) {
        return Some(format!("it contains {}", describe(c)));
    }
    let scheme = SCHEMES
        .iter()
        .find_map(|s| Some((*s, url.strip_prefix(s)?.strip_prefix("://")?)));
    let Some((scheme, rest)) = scheme else {
        // scp-like syntax: user@host:path (git reads `host:path` without a user, and a path
        // with a slash before the colon, as a local path; neither is accepted here).
        let Some((user, rest)) = url.split_once('@') else {
            return Some("it is neither a URL with a scheme nor user@host:path".into());
        };
        let Some((host, path)) = rest.split_once(':') else {
            return Some("user@host:path needs a `:` between the host and the path".into());
        };
        if user.is_empty() || host.is_empty() || path.is_empty() || user.contains('/') {
            return Some("user@host:path needs a user, a host and a path".into());
        }
        if host.contains('/') {
            return Some("the host has a `/`".into());
        }
        return option_like(&[("user", user), ("host", host)], path);
    };
    let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    let (user, host_port) = match authority.rsplit_once('@') {
        Some((user, host)) => (user, host),
        None => ("", authority),
    };
    // `[v6]:port` or `host:port`.
    let (host, port) = match host_port.strip_prefix('[') {
        Some(v6) => match v6.split_once(']') {
            Some((addr, after)) => match after {
                "" => (addr, None),
                _ => match after.strip_prefix(':') {
                    Some(port) => (addr, Some(port)),
                    None => return Some("text follows the bracketed IPv6 host".into()),
                },
            },
            None => return Some("the IPv6 host has no closing `]`".into()),
        },
        None => match host_port.split_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (host_port, None),
        },
    };
    if let Some(port) = port
        && (port.is_empty() || !port.bytes().all(|b| b.is_ascii_digit()))
    {
        return Some(format!("the port `{port}` is not a number"));
    }
    if host.is_empty() && scheme != "file" {
        return Some("it has no host".into());
    }
    if path.trim_matches('/').is_empty() && host.is_empty() {
        return Some("it names no repository".into());
    }
    option_like(&[("user", user), ("host", host)], path)
}

/// Whether a user, host, or a `/`-separated part of the path starts with `-`: git hands the
/// host to ssh (and a local path to git itself) as a command-line argument, where it would
/// read as an option (`-oProxyCommand=…`).
fn option_like(parts: &[(&str, &str)], path: &str) -> Option<String> {
    for (what, text) in parts {
        if text.starts_with('-') {
            return Some(format!(
                "the {what} `{text}` starts with `-`, which git or ssh would read as an option"
            ));
        }
    }
    path.split('/').find(|c| c.starts_with('-')).map(|c| {
        format!("the path part `{c}` starts with `-`, which git or ssh would read as an option")
    })
}

/// Why `rev` is not a branch, tag or commit id, or None when it is one. The rules are git's
/// for ref names (`git help check-ref-format`), with one-level names allowed (`main`, `v1`)
/// and a leading `-` refused (it would read as an option).
pub fn rev_problem(rev: &str) -> Option<String> {
    if rev.is_empty() {
        return Some("it is empty".into());
    }
    if rev.starts_with('-') {
        return Some("it starts with `-`, which git would read as an option".into());
    }
    if let Some(c) = rev.chars().find(|c| c.is_whitespace() || c.is_control()) {
        return Some(format!("it contains {}", describe(c)));
    }
    if let Some(c) = rev.chars().find(|c| "~^:?*[\\".contains(*c)) {
        return Some(format!("it contains `{c}`"));
    }
    for (text, why) in [("..", "`..`"), ("@{", "`@{`"), ("//", "`//`")] {
        if rev.contains(text) {
            return Some(format!("it contains {why}"));
        }
    }
    if rev == "@" {
        return Some("`@` alone is not a name".into());
    }
    if rev.starts_with('/') || rev.ends_with('/') {
        return Some("it starts or ends with `/`".into());
    }
    if rev.ends_with('.') {
        return Some("it ends with `.`".into());
    }
    for part in rev.split('/') {
        if part.starts_with('.') {
            return Some(format!("the part `{part}` starts with `.`"));
        }
        if part.ends_with(".lock") {
            return Some(format!("the part `{part}` ends with `.lock`"));
        }
    }
    None
}

/// A character for a message: printable ones quoted, others by code point.
fn describe(c: char) -> String {
    if c.is_control() || c.is_whitespace() {
        format!("the character U+{:04X}", c as u32)
    } else {
        format!("`{c}`")
    }
}

#[cfg(test)]
mod tests;
