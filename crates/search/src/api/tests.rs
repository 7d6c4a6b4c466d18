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
