use super::*;

fn chart(values: &str) -> Chart {
    Chart {
        name: "gizmo".into(),
        values: Some(serde_json::from_str(values).unwrap()),
        values_are_own: true,
        dependencies: vec![
            Dependency {
                key: "remote".into(),
                values: None,
            },
            Dependency {
                key: "lib".into(),
                values: Some(serde_json::json!({"port": 7000, "none": null})),
            },
        ],
        name_helpers: vec!["gizmo.name".into()],
        subcharts: Vec::new(),
    }
}

fn render(text: &str, c: &Chart) -> (String, Vec<(u32, Rendered)>) {
    let mut table = Vec::new();
    let marked = mark(text, c, &mut table);
    unmark(&marked, &table)
}

#[test]
fn values_defaults_and_the_chart_name_are_rendered_in_place() {
    let c = chart(
        r#"{"svc": {"port": 8080, "zero": 0, "big": 1000000, "name": "web"}, "nameOverride": ""}"#,
    );
    let text = "kind: Service\nmetadata:\n  name: {{ include \"gizmo.name\" . }}-svc\n  namespace: {{ .Release.Namespace }}\nspec:\n  ports:\n  - port: {{ .Values.svc.port | default 9002 }}\n    targetPort: {{ .Values.svc.missing | default 9003 }}\n    nodePort: {{ .Values.svc.zero | default 30000 }}\n    x: {{ .Values.svc.big }}\n    y: {{ .Values.svc.name | quote }}\n    z: {{ .Chart.Name }}\n";
    let (out, found) = render(text, &c);
    assert_eq!(
        out,
        "kind: Service\nmetadata:\n  name: gizmo-svc\n  namespace: {{ .Release.Namespace }}\nspec:\n  ports:\n  - port: 8080\n    targetPort: 9003\n    nodePort: 30000\n    x: {{ .Values.svc.big }}\n    y: \"web\"\n    z: gizmo\n"
    );
    let lines: Vec<(u32, &str, &str)> = found
        .iter()
        .map(|(l, r)| (*l, r.template.as_str(), r.value.as_str()))
        .collect();
    assert_eq!(
        lines,
        [
            (3, "{{ include \"gizmo.name\" . }}", "gizmo"),
            (7, "{{ .Values.svc.port | default 9002 }}", "8080"),
            (8, "{{ .Values.svc.missing | default 9003 }}", "9003"),
            (9, "{{ .Values.svc.zero | default 30000 }}", "30000"),
            (11, "{{ .Values.svc.name | quote }}", "\"web\""),
            (12, "{{ .Chart.Name }}", "gizmo"),
        ]
    );
}

#[test]
fn what_cannot_be_known_keeps_its_template() {
    let c = chart(r#"{"list": [1], "remote": {"x": 1}, "s": "a b", "n": null}"#);
    for action in [
        "{{ .Release.Name }}",
        "{{ .Values.missing }}",                 // prints <no value>
        "{{ .Values.n }}",                       // null
        "{{ .Values.list.x | default 1 }}",      // a step through a list
        "{{ .Values.remote.port | default 1 }}", // a remote subchart's values may supply it
        "{{ .Values.lib.none | default 1 }}",    // null in the subchart's values
        "{{ .Values.s }}",                       // not a plain name
        "{{ include \"other.name\" . }}",        // not the standard helper
        "{{ include \"gizmo.name\" .Values }}",
        "{{ printf \"%s-x\" .Chart.Name }}",
        "{{ .Values.x | default 9002 | int }}",
        "{{ .Values.x | default 1000000 }}",
    ] {
        let text = format!("  name: {action}\n");
        assert_eq!(render(&text, &c).0, text, "{action}");
    }
}

#[test]
fn a_dependency_key_comes_from_the_chart_then_from_an_in_repo_subchart() {
    let c = chart(r#"{"remote": {"port": 1}, "lib": {"port": 2}}"#);
    // The chart's own values override its subcharts'.
    assert_eq!(render("  p: {{ .Values.remote.port }}\n", &c).0, "  p: 1\n");
    assert_eq!(render("  p: {{ .Values.lib.port }}\n", &c).0, "  p: 2\n");
    let c = chart(r#"{"lib": {"other": 2}}"#);
    assert_eq!(render("  p: {{ .Values.lib.port }}\n", &c).0, "  p: 7000\n");
    assert_eq!(
        render("  p: {{ .Values.lib.missing | default 5 }}\n", &c).0,
        "  p: 5\n"
    );
}

#[test]
fn only_where_dot_is_the_root_and_only_inside_a_line() {
    let c = chart(r#"{"port": 1}"#);
    let text = "{{ .Values.port }}\n{{- with .Values.x }}\n  a: {{ .Values.port }}\n{{- end }}\n{{- range .Values.y }}\n  b: {{ .Values.port }}\n{{- end }}\n{{- if .Values.z }}\n  c: {{ .Values.port }}\n{{- end }}\n  d: {{ $.Values.port }}\n";
    let (out, found) = render(text, &c);
    assert_eq!(
        out,
        "{{ .Values.port }}\n{{- with .Values.x }}\n  a: {{ .Values.port }}\n{{- end }}\n{{- range .Values.y }}\n  b: {{ .Values.port }}\n{{- end }}\n{{- if .Values.z }}\n  c: 1\n{{- end }}\n  d: 1\n"
    );
    assert_eq!(found.len(), 2);
}

#[test]
fn a_subchart_is_not_rendered_with_its_own_values() {
    let own = chart(r#"{"port": 1}"#);
    let c = Chart {
        values_are_own: false,
        ..own
    };
    assert_eq!(
        render("  p: {{ .Values.port }}\n", &c).0,
        "  p: {{ .Values.port }}\n"
    );
    assert_eq!(render("  p: {{ .Chart.Name }}\n", &c).0, "  p: gizmo\n");
    let values = BTreeMap::new();
    let charts = charts(
        &[
            (
                "deploy/app".into(),
                "app".into(),
                vec![("lib".into(), "libAlias".into(), "file://../lib".into())],
            ),
            ("deploy/lib".into(), "lib".into(), vec![]),
            ("deploy/app/charts/inner".into(), "inner".into(), vec![]),
            ("other".into(), "other".into(), vec![]),
        ],
        &values,
    );
    let own: Vec<(&str, bool)> = charts
        .iter()
        .map(|(d, c)| (d.as_str(), c.values_are_own))
        .collect();
    assert_eq!(
        own,
        [
            ("deploy/app", true),
            ("deploy/app/charts/inner", false),
            ("deploy/lib", false),
            ("other", true)
        ]
    );
    let dependency = &charts["deploy/app"].dependencies[0];
    assert_eq!(dependency.key, "libAlias");
    // In the repository without a values.yaml: its values are known to be empty.
    assert_eq!(dependency.values, Some(serde_json::json!({})));
    assert_eq!(charts["deploy/app"].subcharts, ["deploy/lib"]);
}

#[test]
fn the_standard_name_helper_is_recognized_and_nothing_else() {
    assert!(is_name_helper(
        "{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix \"-\" }}"
    ));
    assert!(!is_name_helper(
        "{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix \"-\" }}-x"
    ));
    assert!(!is_name_helper("{{ .Release.Name }}-epp"));
    let c = chart(r#"{"nameOverride": "renamed-"}"#);
    assert_eq!(
        render("  n: {{ include \"gizmo.name\" . }}\n", &c).0,
        "  n: renamed\n"
    );
}

#[test]
fn text_with_marks_of_its_own_is_left_alone() {
    assert!(has_marks("a\u{E000}0\u{E001}x\u{E002}"));
    // A stray mark in the text is kept, never taken for a value.
    let (out, found) = unmark("a\u{E000}9\u{E001}x\u{E002}b", &[]);
    assert_eq!(out, "a\u{E000}9\u{E001}x\u{E002}b");
    assert!(found.is_empty());
}
