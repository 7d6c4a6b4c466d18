//! `/api/search` for the preview server: a query string in, the answer as JSON out,
//! straight from tantivy. Framework-free so `serve` mounts it on whatever router it uses;
//! `search.js` calls it when the page says where it is (`window.PORTOLAN_SEARCH_API`)
//! and reads the static shards otherwise. The JSON has the shape the script's own
//! static search returns.

use serde_json::json;

use super::documents::category_label;
use super::{SearchIndex, run};

/// Results per request when `limit` is not given, and at most.
const DEFAULT_LIMIT: usize = 20;
const MAX_LIMIT: usize = 500;

/// An HTTP answer: status and a JSON body.
#[derive(Debug, PartialEq)]
pub struct Response {
    pub status: u16,
    pub body: String,
}

/// Answers `q=…&project=…&category=…&limit=…` (the part after `?`). `root` is the site's
/// base path, put in front of every result URL. Bad queries answer 200 with notes, as the
/// CLI does; only a failing index answers 500.
pub fn answer(index: &SearchIndex, query_string: &str, root: &str) -> Response {
    let mut q = String::new();
    let mut projects = Vec::new();
    let mut categories = Vec::new();
    let mut limit = DEFAULT_LIMIT;
    for pair in query_string.split('&').filter(|p| !p.is_empty()) {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        let value = decode(value);
        match decode(key).as_str() {
            "q" => q = value,
            "project" if !value.is_empty() => projects.push(value),
            "category" if !value.is_empty() => categories.push(value),
            "limit" => limit = value.parse().unwrap_or(DEFAULT_LIMIT).min(MAX_LIMIT),
            _ => {}
        }
    }
    match run(index, &q, &projects, &categories, limit) {
        Ok(a) => {
            let results: Vec<serde_json::Value> = a
                .hits
                .iter()
                .map(|h| {
                    json!({
                        "title": h.title,
                        "url": format!("{root}{}", h.url),
                        "project": h.project,
                        "category": h.category,
                        "score": h.score,
                        "page": h.page,
                        "context": h.context,
                        "snippet": h.snippet,
                    })
                })
                .collect();
            Response {
                status: 200,
                body: json!({
                    "results": results,
                    "total": a.total,
                    "anyWord": a.any_word,
                    "notes": a.notes,
                    "facets": { "project": a.projects, "category": a.categories },
                    "labels": a.categories.keys().map(|c| (c.clone(), json!(category_label(c)))).collect::<serde_json::Map<String, serde_json::Value>>(),
                })
                .to_string(),
            }
        }
        Err(e) => Response {
            status: 500,
            body: json!({ "error": e.to_string() }).to_string(),
        },
    }
}

/// `application/x-www-form-urlencoded` decoding: `+` is a space, `%XX` a byte; invalid
/// escapes stay as written and invalid UTF-8 is replaced.
fn decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                let hex = std::str::from_utf8(&bytes[i + 1..i + 3])
                    .ok()
                    .and_then(|h| u8::from_str_radix(h, 16).ok());
                match hex {
                    Some(b) => {
                        out.push(b);
                        i += 2;
                    }
                    None => out.push(b'%'),
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests;
