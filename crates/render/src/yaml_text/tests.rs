use super::*;

fn map(entries: Vec<(&str, Node)>) -> Node {
    Node::map(entries.into_iter().map(|(k, v)| (k.into(), v)).collect())
}

#[test]
fn maps_lists_and_comments() {
    let doc = vec![
        ("kind".to_string(), Node::scalar("Kennel")),
        (
            "spec".to_string(),
            map(vec![
                (
                    "policy",
                    Node::scalar("Morning").with_comment("one of: Evening"),
                ),
                (
                    "runs",
                    Node::list(vec![map(vec![
                        ("name", Node::scalar("\"\"")),
                        ("length", Node::scalar("0")),
                    ])]),
                ),
                ("args", Node::list(vec![Node::scalar("\"\"")])),
                ("labels", map(vec![])),
                ("grid", Node::list(vec![Node::list(vec![])])),
            ]),
        ),
    ];
    assert_eq!(
        write(&doc).join("\n"),
        "kind: Kennel
spec:
  policy: Morning  # one of: Evening
  runs:
    - name: \"\"
      length: 0
  args:
    - \"\"
  labels: {}
  grid:
    - []"
    );
}

#[test]
fn repository_text_stays_valid_yaml() {
    assert_eq!(
        scalar("serving.kserve.io/v1beta1"),
        "serving.kserve.io/v1beta1"
    );
    for quoted in ["", "yes", "No", "1.0", "a: b", "# x", "-x", "a\nb", "x y"] {
        let text = scalar(quoted);
        assert!(text.starts_with('"'), "{quoted:?} written {text}");
        let back: String = serde_json::from_str(&text).unwrap();
        assert_eq!(back, quoted);
    }
    assert_eq!(
        Node::scalar("0").with_comment("a\nb\r\tc").comment,
        "a b  c"
    );
}

#[test]
fn json_defaults_in_flow_style() {
    assert_eq!(from_json("\"Always\""), "Always");
    assert_eq!(from_json("\"true\""), "\"true\"");
    assert_eq!(from_json("4"), "4");
    assert_eq!(from_json("{}"), "{}");
    assert_eq!(from_json("{\"a\":[1,\"b c\"]}"), "{a: [1, \"b c\"]}");
    assert_eq!(from_json("not json: x"), "\"not json: x\"");
}
