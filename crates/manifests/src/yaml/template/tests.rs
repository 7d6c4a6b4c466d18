use super::*;

#[test]
fn control_lines_are_blanked_and_values_become_placeholders() {
    let text = "{{- if .Values.enabled }}\napiVersion: v1\nkind: Service\nmetadata:\n  name: {{ include \"x.fullname\" . }}-svc\n  labels:\n    {{- include \"x.labels\" . | nindent 4 }}\n{{- end }}\n";
    let m = mask(text);
    assert_eq!(
        m.text,
        "\napiVersion: v1\nkind: Service\nmetadata:\n  name: __portolan_tpl_1__-svc\n  labels:\n\n\n"
    );
    assert_eq!(m.text.lines().count(), text.lines().count());
    assert_eq!(
        m.actions,
        vec![
            "{{- if .Values.enabled }}",
            "{{ include \"x.fullname\" . }}",
            "{{- include \"x.labels\" . | nindent 4 }}",
            "{{- end }}",
        ]
    );
    assert_eq!(
        restore("__portolan_tpl_1__-svc", &m.actions),
        "{{ include \"x.fullname\" . }}-svc"
    );
}

#[test]
fn an_action_over_several_lines_keeps_the_line_count() {
    let text = "{{- include \"common.render\" (dict\n  \"base\" \"files/x.yaml\"\n  \"context\" .) -}}\n---\nkind: Service\nmetadata:\n  name: a\n  annotations: {{ toYaml .\n    | nindent 4 }}\n";
    let m = mask(text);
    assert_eq!(
        m.text,
        "\n\n\n---\nkind: Service\nmetadata:\n  name: a\n  annotations: __portolan_tpl_1__\n\n"
    );
}

#[test]
fn quoted_actions_and_unclosed_actions() {
    let m = mask("image: \"{{ .Values.image }}:{{ .Values.tag }}\"\nname: {{ oops\n");
    assert_eq!(
        m.text,
        "image: \"__portolan_tpl_0__:__portolan_tpl_1__\"\nname: __portolan_tpl_2__\n"
    );
    // Two placeholders side by side still restore one by one.
    assert_eq!(
        restore("__portolan_tpl_0____portolan_tpl_1__", &m.actions),
        "{{ .Values.image }}{{ .Values.tag }}"
    );
    assert_eq!(m.actions[2], "{{ oops\n");
}

#[test]
fn restore_leaves_foreign_text_alone() {
    assert_eq!(restore("__portolan_tpl_9__", &[]), "__portolan_tpl_9__");
    assert_eq!(restore("__portolan_tpl_x", &[]), "__portolan_tpl_x");
    assert_eq!(restore("plain", &[]), "plain");
}

#[test]
fn restore_value_reaches_keys_and_nested_strings() {
    let m = mask("a:\n  {{ .K }}: [{{ .V }}]\n");
    let mut v: Value = serde_json::json!({"a": {"__portolan_tpl_0__": ["__portolan_tpl_1__"]}});
    restore_value(&mut v, &m.actions);
    assert_eq!(v, serde_json::json!({"a": {"{{ .K }}": ["{{ .V }}"]}}));
}
