use super::*;

fn words(q: &Query) -> Vec<(&str, bool)> {
    q.words
        .iter()
        .map(|w| (w.text.as_str(), w.prefix))
        .collect()
}

#[test]
fn words_phrases_and_fields() {
    let q = parse(r#"kind:InferencePool "chat completions" project:kserve crea"#);
    assert_eq!(
        words(&q),
        [("chat", false), ("completions", false), ("crea", true)]
    );
    assert_eq!(q.pairs, ["chat completions"]);
    assert_eq!(q.kinds, ["inferencepool"]);
    assert_eq!(q.projects, ["kserve"]);
    assert!(q.notes.is_empty());
}

#[test]
fn the_last_word_is_a_prefix_only_while_typing() {
    assert_eq!(
        words(&parse("inference pool")),
        [("inference", false), ("pool", true)]
    );
    assert_eq!(
        words(&parse("inference pool ")),
        [("inference", false), ("pool", false)]
    );
    assert_eq!(words(&parse("/v1/chat")), [("v1", false), ("chat", true)]);
    assert_eq!(words(&parse("x")), [("x", false)]);
}

#[test]
fn bad_queries_give_notes_not_errors() {
    assert!(parse("").is_empty());
    assert!(parse("").notes.is_empty());
    let q = parse("?!. ,,");
    assert!(q.is_empty());
    assert_eq!(
        q.notes,
        ["the query has no letters or digits to search for"]
    );
    let q = parse("kind:");
    assert!(q.is_empty());
    assert_eq!(q.notes.len(), 1);
    assert!(q.notes[0].starts_with("`kind:` needs a value"));
    let q = parse("\"unbalanced quote");
    assert_eq!(words(&q), [("unbalanced", false), ("quote", false)]);
    let long = "word ".repeat(2000);
    let q = parse(&long);
    assert_eq!(q.words.len(), 1, "repeated words are one word");
    let many: String = (0..2000).map(|i| format!("w{i} ")).collect();
    let q = parse(&many);
    assert_eq!(q.words.len(), MAX_WORDS);
    assert_eq!(q.notes, ["only the first 16 of 2000 words were used"]);
}
