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
mod tests {
    use super::*;
    use crate::documents::Document;

    fn doc(title: &str, project: &str, category: &str, url: &str) -> Document {
        Document {
            title: title.into(),
            body: String::new(),
            project: project.into(),
            category: category.into(),
            url: url.into(),
            page: title.into(),
            context: String::new(),
            snippet: title.into(),
            kinds: Vec::new(),
        }
    }

    #[test]
    fn answers_json_with_facets_and_root_prefixed_urls() {
        let index = SearchIndex::build(&[
            doc("InferencePool", "", "kind", "kinds/x.io/InferencePool/"),
            doc(
                "Owns InferencePool",
                "kserve",
                "watch",
                "projects/kserve/dataflow/#w",
            ),
            doc("Unrelated", "kserve", "flag", "projects/kserve/#f"),
        ])
        .unwrap();
        let r = answer(&index, "q=inference+pool&limit=1", "/atlas/");
        assert_eq!(r.status, 200);
        let v: serde_json::Value = serde_json::from_str(&r.body).unwrap();
        assert_eq!(v["total"], 2);
        assert_eq!(v["results"].as_array().unwrap().len(), 1);
        assert_eq!(v["results"][0]["url"], "/atlas/kinds/x.io/InferencePool/");
        assert_eq!(v["facets"]["category"]["watch"], 1);
        assert_eq!(v["labels"]["watch"], "Watches");
        assert_eq!(v["results"][0]["page"], "InferencePool");
        let r = answer(&index, "q=pool&project=kserve", "/");
        let v: serde_json::Value = serde_json::from_str(&r.body).unwrap();
        assert_eq!(v["total"], 1);
        assert_eq!(v["results"][0]["url"], "/projects/kserve/dataflow/#w");
    }

    #[test]
    fn bad_requests_answer_with_notes() {
        let index = SearchIndex::build(&[doc("x", "", "page", "")]).unwrap();
        for qs in [
            "",
            "q=",
            "q=%",
            "q=%zz%4",
            "q=kind%3A",
            "limit=abc&q=x",
            "&&==&",
            "q=%FF%FE",
        ] {
            let r = answer(&index, qs, "/");
            assert_eq!(r.status, 200, "{qs}");
            let v: serde_json::Value = serde_json::from_str(&r.body).unwrap();
            assert!(v["results"].is_array(), "{qs}");
        }
        assert_eq!(decode("a+b%20c%2"), "a b c%2");
        assert_eq!(decode("%e2%80%a6"), "…");
    }
}
