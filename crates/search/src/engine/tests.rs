use super::*;
use crate::documents::Document;
use crate::query;

fn doc(title: &str, body: &str, category: &str, url: &str, kinds: &[&str]) -> Document {
    Document {
        title: title.into(),
        body: body.into(),
        project: String::new(),
        category: category.into(),
        url: url.into(),
        page: title.into(),
        context: String::new(),
        snippet: String::new(),
        kinds: kinds.iter().map(|k| k.to_string()).collect(),
    }
}

fn urls(index: &SearchIndex, text: &str) -> Vec<String> {
    search(index, &query::parse(text), 10)
        .unwrap()
        .hits
        .into_iter()
        .map(|h| h.url)
        .collect()
}

#[test]
fn a_query_naming_a_kind_finds_its_page_first() {
    // A controller named after its kind: a short title, and rows repeating the name.
    let index = SearchIndex::build(&[
        doc(
            "Home",
            "InferencePool and much else besides",
            "page",
            "",
            &["InferencePool"],
        ),
        doc(
            "inferencepool",
            "For InferencePool · Owns InferencePool · Watches InferencePool",
            "controller",
            "p/#c",
            &["InferencePool"],
        ),
        doc(
            "InferencePool (inference.networking.k8s.io)",
            "InferencePool defined by another project; by project: kserve, llm-d; \
                 watches, writes and admission webhooks of every project listed here",
            "kind",
            "kinds/x/InferencePool/",
            &["InferencePool"],
        ),
        doc("Unrelated", "nothing", "kind", "kinds/x/Other/", &["Other"]),
    ])
    .unwrap();
    for q in [
        "InferencePool",
        "inferencepool ",
        "inference pool",
        "kind:InferencePool",
    ] {
        assert_eq!(urls(&index, q)[0], "kinds/x/InferencePool/", "{q}");
    }
    // The factor is what puts the page first: a query that does not name the kind
    // (a prefix of it) ranks the controller first, by its title.
    assert_eq!(urls(&index, "inferencepoo")[0], "p/#c");
    // Filters alone: every match scores 1 × its category's weight.
    let a = search(&index, &query::parse("kind:InferencePool"), 10).unwrap();
    let scores: Vec<(String, f32)> = a.hits.iter().map(|h| (h.url.clone(), h.score)).collect();
    assert_eq!(
        scores,
        [
            ("kinds/x/InferencePool/".to_string(), 4.0 * KIND_NAME_FACTOR),
            ("p/#c".to_string(), 3.0),
            (String::new(), 2.0),
        ]
    );
}

#[test]
fn one_edit_apart() {
    assert!(within_one_edit("inference", "inferrence"));
    assert!(within_one_edit("inference", "inferance"));
    assert!(within_one_edit("pool", "pools"));
    assert!(within_one_edit("same", "same"));
    assert!(!within_one_edit("inference", "interfaces"));
    assert!(within_one_edit("widgte", "widget"));
    assert!(within_one_edit("ab", "ba"));
    assert!(!within_one_edit("abc", "cba"));
}
