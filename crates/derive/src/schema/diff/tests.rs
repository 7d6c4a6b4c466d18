use super::*;
use model::minimal::{field, rule, schema};

fn rows(c: &SchemaChanges) -> Vec<String> {
    c.changes
        .iter()
        .map(|c| {
            let mark = if c.breaking() { "!" } else { " " };
            format!("{mark}{} {}: {}", c.change.label(), c.path, c.detail())
        })
        .collect()
}

fn texts(aspects: &[Aspect]) -> Vec<String> {
    aspects
        .iter()
        .map(|a| format!("{}{}", if a.breaking { "!" } else { " " }, a.text))
        .collect()
}

#[test]
fn added_removed_and_changed_fields_classified() {
    let mut size = field("spec.size", "integer");
    size.required = true;
    size.format = "int64".into();
    let mut mode = field("spec.mode", "string");
    mode.enum_values = vec!["\"Fast\"".into(), "\"Slow\"".into()];
    mode.default = Some("\"Fast\"".into());
    let old = schema(
        "v1",
        vec![
            field("spec", "object"),
            size.clone(),
            mode.clone(),
            field("spec.color", "string"),
        ],
    );
    size.required = false;
    size.format = String::new();
    mode.enum_values.push("\"Careful\"".into());
    let mut token = field("spec.token", "string");
    token.required = true;
    let new = schema(
        "v1",
        vec![
            field("spec", "object"),
            field("spec.note", "string"),
            token,
            size,
            mode,
        ],
    );
    assert_eq!(
        rows(&between(&old, &new, true)),
        [
            " added spec.note: string",
            "!added spec.token: string, required",
            " changed spec.size: now optional; format: int64 → none",
            " changed spec.mode: enum: added \"Careful\"",
            "!removed spec.color: string",
        ]
    );
    assert!(between(&new, &new, true).changes.is_empty());
}

#[test]
fn limits_tightened_and_loosened() {
    let mut a = field("x", "string");
    a.limits = vec!["minLength=1".into(), "maxLength=63".into()];
    let mut b = a.clone();
    b.limits = vec![
        "minimum=0".into(),
        "minLength=2".into(),
        "maxLength=253".into(),
    ];
    assert_eq!(
        texts(&differences(&a, &b, false)),
        [
            "!new limit minimum=0",
            "!minLength: 1 → 2",
            " maxLength: 63 → 253"
        ]
    );
    assert_eq!(
        texts(&differences(&b, &a, false)),
        [
            " minLength: 2 → 1",
            "!maxLength: 253 → 63",
            " limit minimum=0 dropped"
        ]
    );
    let mut unique = a.clone();
    unique.limits.push("uniqueItems=true".into());
    assert_eq!(
        texts(&differences(&a, &unique, false)),
        ["!new limit uniqueItems=true"]
    );
}

#[test]
fn enums_patterns_rules_markers_and_flags() {
    let a = field("x", "string");
    let mut b = field("x", "string");
    b.enum_values = vec!["\"A\"".into()];
    b.pattern = "^[a-z]+$".into();
    b.nullable = true;
    b.preserve_unknown_fields = true;
    b.validation = vec!["Minimum=1".into()];
    b.rules = vec![rule("self.size() < 8")];
    b.description = "new words".into();
    assert_eq!(
        texts(&differences(&a, &b, true)),
        [
            "!pattern: none → ^[a-z]+$",
            "!now one of: \"A\"",
            " now nullable",
            " now accepts any fields",
            "!new CEL rule `self.size() < 8`",
            "!new validation marker Minimum=1",
            " description changed",
        ]
    );
    assert_eq!(
        texts(&differences(&b, &a, false)),
        [
            " pattern: ^[a-z]+$ → none",
            " no longer limited to: \"A\"",
            "!no longer nullable",
            "!no longer accepts any fields",
            " CEL rule `self.size() < 8` dropped",
            " validation marker Minimum=1 dropped",
        ]
    );
    let mut c = b.clone();
    c.enum_values = vec!["\"B\"".into()];
    assert_eq!(
        texts(&differences(&b, &c, false)),
        ["!enum: added \"B\"; removed \"A\""]
    );
}

#[test]
fn markers_of_one_keyword_compare_their_values() {
    let mut a = field("x", "integer");
    a.validation = vec!["Minimum=1".into(), "MaxLength=63".into()];
    let mut b = a.clone();
    b.validation = vec![
        "Minimum=0".into(),
        "MaxLength=10".into(),
        "Pattern=^a$".into(),
    ];
    assert_eq!(
        texts(&differences(&a, &b, false)),
        [
            " validation marker Minimum: 1 → 0",
            "!validation marker MaxLength: 63 → 10",
            "!new validation marker Pattern=^a$",
        ]
    );
}

#[test]
fn root_rules_are_a_change_of_the_root() {
    let old = schema("v1", vec![field("spec", "object")]);
    let mut new = old.clone();
    new.rules = vec![rule("has(self.spec)")];
    assert_eq!(
        rows(&between(&old, &new, false)),
        ["!changed .: new CEL rule `has(self.spec)`"]
    );
}
