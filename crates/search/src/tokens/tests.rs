use super::*;

fn texts(s: &str) -> Vec<String> {
    tokenize(s).into_iter().map(|t| t.text).collect()
}

#[test]
fn camel_case_and_dotted_names_split_into_parts() {
    assert_eq!(
        texts("InferencePool"),
        ["inferencepool", "inference", "pool"]
    );
    assert_eq!(texts("serving.kserve.io"), ["serving", "kserve", "io"]);
    assert_eq!(texts("HTTPRoute"), ["httproute", "http", "route"]);
    assert_eq!(texts("v1alpha2"), ["v1alpha2", "v", "1", "alpha", "2"]);
    assert_eq!(texts("  --  "), Vec::<String>::new());
}

#[test]
fn positions_count_parts_so_phrases_line_up() {
    let t = tokenize("ChatCompletions api");
    let pos: Vec<(String, usize)> = t.into_iter().map(|t| (t.text, t.position)).collect();
    assert_eq!(
        pos,
        [
            ("chatcompletions".to_string(), 0),
            ("chat".to_string(), 0),
            ("completions".to_string(), 1),
            ("api".to_string(), 2)
        ]
    );
}

#[test]
fn phrases_pair_the_finest_pieces() {
    assert_eq!(
        pairs(&leaves("/v1/chat/completions")),
        ["v 1", "1 chat", "chat completions"]
    );
    assert_eq!(pairs(&leaves("ChatCompletions")), ["chat completions"]);
}

#[test]
fn overlong_words_are_skipped_and_unicode_never_splits_a_char() {
    let long = "a".repeat(MAX_WORD_CHARS + 1);
    assert_eq!(texts(&format!("x {long} y")), ["x", "y"]);
    assert_eq!(
        texts("ÄrgerÜber straße"),
        ["ärgerüber", "ärger", "über", "straße"]
    );
}

/// The vectors the browser script is checked against too.
#[test]
fn shared_test_vectors() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/search-tokens.json"
    );
    let text = std::fs::read_to_string(path).expect("tests/search-tokens.json");
    let cases: Vec<(String, Vec<String>)> =
        serde_json::from_str(&text).expect("an array of [input, [tokens]]");
    assert!(cases.len() >= 10, "the vector file lost its cases");
    for (input, expected) in cases {
        assert_eq!(texts(&input), expected, "tokens of {input:?}");
    }
}
