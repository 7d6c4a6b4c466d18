use super::kind_of;

#[test]
fn value_methods_name_types() {
    let kinds: Vec<String> = [
        "String",
        "StringVar",
        "Bool",
        "Duration",
        "Float64",
        "Strings",
        "URL",
        "URLList",
        "IP",
        "ExistingFile",
        "Enum",
        "SetValue",
        "Counter",
    ]
    .iter()
    .map(|m| kind_of(m))
    .collect();
    assert_eq!(
        kinds,
        [
            "string",
            "string",
            "bool",
            "duration",
            "float64",
            "strings",
            "url",
            "urlList",
            "ip",
            "existingFile",
            "enum",
            "value",
            "counter"
        ]
    );
}
