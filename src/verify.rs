//! Verification of a rendered site for `portolan check`: every internal link resolves to a
//! page (and anchor) that exists. Runs after rendering, when every page and anchor exists.

use std::collections::{HashMap, HashSet};

use render::OutputFile;

/// Broken internal links, as `page: href` lines.
pub fn broken_links(files: &[OutputFile], base_path: &str) -> Vec<String> {
    let pages: HashMap<&str, &str> = files
        .iter()
        .filter(|f| f.path.ends_with(".html"))
        .map(|f| (f.path.as_str(), std::str::from_utf8(&f.bytes).unwrap_or("")))
        .collect();
    let all: HashSet<&str> = files.iter().map(|f| f.path.as_str()).collect();
    let ids: HashMap<&str, HashSet<&str>> = pages
        .iter()
        .map(|(p, html)| (*p, attribute_values(html, "id=\"")))
        .collect();
    let mut broken = Vec::new();
    for (page, html) in &pages {
        for href in attribute_values(html, "href=\"") {
            let (target_path, anchor) = href.split_once('#').unwrap_or((href, ""));
            let target = if target_path.is_empty() {
                Some(page.to_string())
            } else {
                target_path.strip_prefix(base_path).map(|rel| {
                    if rel.is_empty() || rel.ends_with('/') {
                        format!("{rel}index.html")
                    } else {
                        rel.to_string()
                    }
                })
            };
            let Some(target) = target else { continue };
            let ok = all.contains(target.as_str())
                && (anchor.is_empty()
                    || ids
                        .get(target.as_str())
                        .is_some_and(|set| set.contains(anchor)));
            if !ok {
                broken.push(format!("{page}: {href}"));
            }
        }
    }
    broken.sort();
    broken
}

fn attribute_values<'a>(html: &'a str, prefix: &str) -> HashSet<&'a str> {
    let mut out = HashSet::new();
    let mut rest = html;
    while let Some(at) = rest.find(prefix) {
        rest = &rest[at + prefix.len()..];
        if let Some(end) = rest.find('"') {
            out.insert(&rest[..end]);
            rest = &rest[end..];
        }
    }
    out
}

#[cfg(test)]
mod tests;
