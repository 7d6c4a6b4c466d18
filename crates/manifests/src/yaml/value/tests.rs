use super::*;
use serde_json::json;

#[test]
fn readers_tolerate_wrong_shapes() {
    let v = json!({"a": {"b": 1, "c": ["x", 2, {"d": 1}]}, "s": "t"});
    assert_eq!(str_at(&v, &["a", "b"]), "");
    assert_eq!(str_at(&v, &["s"]), "t");
    assert_eq!(scalar(at(&v, &["a", "b"])), "1");
    assert_eq!(strings(at(&v, &["a", "c"])), vec!["x", "2", ""]);
    assert!(array_at(&v, &["s"]).is_empty());
}

#[test]
fn settings_flatten_nested_maps() {
    let v = json!({"runAsNonRoot": true, "capabilities": {"drop": ["ALL"]}, "seccompProfile": {"type": "RuntimeDefault"}});
    assert_eq!(
        settings(Some(&v)),
        vec![
            "capabilities.drop=ALL",
            "runAsNonRoot=true",
            "seccompProfile.type=RuntimeDefault"
        ]
    );
}

#[test]
fn names_are_found_on_their_lines() {
    let text = "kind: X\nwebhooks:\n- name: a.example.io\n  x: 1\n-   name: \"b.example.io\"\n";
    assert_eq!(line_of_name(text, 10, 10, "b.example.io"), Some(14));
    assert_eq!(line_of_name(text, 10, 13, "a.example.io"), None);
}
