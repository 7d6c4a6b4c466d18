use super::*;

#[test]
fn documents_keep_their_kind_lines() {
    let text = "---\napiVersion: v1\nkind: ConfigMap\n---\n# only a comment\n---\napiVersion: v1\nmetadata:\n  kind: nested\nkind: Service\n";
    let docs = split_documents(text);
    assert_eq!(docs.len(), 2);
    assert_eq!(docs[0].first_line, 2);
    assert_eq!(docs[0].kind_line, Some(3));
    assert_eq!(docs[1].kind_line, Some(10));
}

fn read_one(text: &str, helm: bool) -> Read {
    let docs = split_documents(text);
    read(&docs[0], helm)
}

#[test]
fn a_template_is_read_masked_with_its_name_as_written() {
    let text = "{{- if .Values.svc }}\napiVersion: v1\nkind: Service\nmetadata:\n  name: {{ .Release.Name }}-svc\n{{- end }}\n";
    let Read::Object(o) = read_one(text, true) else {
        panic!("not read")
    };
    assert!(o.templated);
    assert_eq!(
        (o.kind.as_str(), o.name.as_str(), o.line),
        ("Service", "{{ .Release.Name }}-svc", 3)
    );
}

#[test]
fn braces_in_a_plain_file_that_parses_are_data() {
    let text = "kind: ConfigMap\nmetadata:\n  name: x\ndata:\n  t: \"{{ .X }}\"\n";
    let Read::Object(o) = read_one(text, false) else {
        panic!("not read")
    };
    assert!(!o.templated);
    assert_eq!(str_at(&o.value, &["data", "t"]), "{{ .X }}");
}

#[test]
fn a_template_that_does_not_parse_masked_falls_back_to_its_lines() {
    let text = "apiVersion: v1\nkind: Secret\nmetadata:\n  name: \"{{ .Values.n }}\"\n  namespace: ns # here\ndata: {{ if .X }}a: b{{ end }}: c\n";
    match read_one(text, true) {
        Read::TemplateFallback { object, .. } => {
            assert_eq!(object.kind, "Secret");
            assert_eq!(object.name, "{{ .Values.n }}");
            assert_eq!(object.namespace, "ns");
            assert_eq!(object.group, "");
        }
        _ => panic!("expected a fallback"),
    }
}

#[test]
fn deep_and_tabbed_and_broken_yaml_are_errors() {
    let deep = format!("kind: X\na: {}{}\n", "[".repeat(10_000), "]".repeat(10_000));
    assert!(matches!(read_one(&deep, false), Read::Failed { .. }));
    let deep_block = format!("kind: X\na: {}x\n", "- ".repeat(10_000));
    assert!(matches!(read_one(&deep_block, false), Read::Failed { .. }));
    let tabs = "---\nkind: X\nmetadata:\n\tname: a\n";
    match read_one(tabs, false) {
        Read::Failed { line, message } => {
            assert_eq!(line, 4);
            assert_eq!(
                message,
                "tabs disallowed within this context (block indentation) (column 2)"
            );
        }
        _ => panic!("tabs parsed"),
    }
    assert_eq!(locate_error("odd", 7), (7, "odd".to_string()));
}

#[test]
fn a_one_line_json_manifest_that_does_not_parse_is_an_error() {
    let docs = split_documents(
        "{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\", \"metadata\": {\"name\": \"a\"},, }\n",
    );
    assert!(matches!(
        read_unkinded(&docs[0], false),
        Read::Failed { line: 1, .. }
    ));
    // Text that only mentions a kind is still not read as an object.
    let docs = split_documents("note: [the kind of thing\n");
    assert!(matches!(read_unkinded(&docs[0], false), Read::NotAnObject));
}
