use super::*;

fn library(text: &str) -> Library {
    let all = vec![("templates/_helpers.tpl".to_string(), defines(text))];
    Library::new(&visible("", &all))
}

#[test]
fn defines_are_read_with_helm_trimming_and_nested_blocks() {
    let text = "{{/* comment */}}\n{{- define \"x.rules\" -}}\n- apiGroups: [\"\"]\n  resources: [\"pods\"]\n  verbs: [\"get\"]\n{{- end }}\n\n{{ define \"x.labels\" }}\napp: x\n{{- if .Values.extra }}\nextra: \"yes\"\n{{- end }}\n{{ end }}\n{{- define \"open\" }}\nnever closed\n";
    let d = defines(text);
    assert_eq!(
        d,
        vec![
            Define {
                name: "x.rules".into(),
                body: "- apiGroups: [\"\"]\n  resources: [\"pods\"]\n  verbs: [\"get\"]".into(),
                line: 2
            },
            Define {
                name: "x.labels".into(),
                body: "\napp: x\n{{- if .Values.extra }}\nextra: \"yes\"\n{{- end }}\n".into(),
                line: 8
            },
        ]
    );
}

#[test]
fn includes_alone_on_their_line_are_expanded_with_indentation_and_lines() {
    // `x.both` includes `x.rules` without indentation: Helm renders the inner include
    // first, then applies the outer `nindent 2` to the whole.
    let lib = library(
        "{{- define \"x.rules\" -}}\n- apiGroups: [\"\"]\n  resources: [\"pods\"]\n{{- end }}\n{{- define \"x.both\" -}}\n{{ include \"x.rules\" . }}\n- nonResourceURLs: [\"/metrics\"]\n  verbs: [\"get\"]\n{{- end }}\n",
    );
    let text = "kind: Role\nmetadata:\n  name: {{ include \"x.fullname\" . }}\nrules:\n  {{- include \"x.both\" . | nindent 2 }}\nother:\n{{ include \"x.rules\" . | indent 4 }}\n{{ template \"x.rules\" . }}\n";
    let e = lib.expand(text).unwrap();
    assert_eq!(
        e.text,
        "kind: Role\nmetadata:\n  name: {{ include \"x.fullname\" . }}\nrules:\n  - apiGroups: [\"\"]\n    resources: [\"pods\"]\n  - nonResourceURLs: [\"/metrics\"]\n    verbs: [\"get\"]\nother:\n    - apiGroups: [\"\"]\n      resources: [\"pods\"]\n- apiGroups: [\"\"]\n  resources: [\"pods\"]\n"
    );
    assert_eq!(e.lines, vec![1, 2, 3, 4, 5, 5, 5, 5, 6, 7, 7, 8, 8, 9]);
    assert_eq!(e.original_line(6), 5);
    assert!(e.diagnostics.is_empty());
    // An include inside a value, or of a name the chart does not define: unchanged.
    assert_eq!(
        lib.expand("a: {{ include \"x.rules\" . }}\n{{ include \"y\" . }}\n"),
        None
    );
}

#[test]
fn silent_actions_of_a_body_are_dropped_with_helm_trimming() {
    // Helm renders this body as "\n- --gates=…": the assignment, range and with print
    // nothing and their markers eat the line breaks around them.
    let body = "{{- $g := \"\" }}\n{{- range .Values.gates }}\n{{- $g = print $g .name }}\n{{- end }}\n{{- with .Values.gates }}\n- --gates={{ $g | trimSuffix \",\" }}\n{{- end }}";
    assert_eq!(
        without_silent_actions(body),
        "\n- --gates={{ $g | trimSuffix \",\" }}"
    );
    // Two branches keep a line each; an inline if/else joins its values.
    let body = "{{- if .A -}}\na: {{ .X }}\n{{- else -}}\n{{- /* other */ -}}\nb: {{ .Y }}\n{{- end }}\nc: {{ if .B }}1{{ else }}2{{ end }}\n{{/* note */}}\nd: 1";
    assert_eq!(
        without_silent_actions(body),
        "a: {{ .X }}\nb: {{ .Y }}\nc: 12\n\nd: 1"
    );
    // A printing action keeps its markers and the text around it.
    let body = "annotations:\n{{- with .Values.a }}\n  {{- toYaml . | nindent 2 }}\n{{- end }}";
    assert_eq!(
        without_silent_actions(body),
        "annotations:\n  {{- toYaml . | nindent 2 }}"
    );
    let lib = library(
        "{{- define \"x.gates\" -}}\n{{- $g := \"\" }}\n{{- with .Values.gates }}\n- --gates={{ $g }}\n{{- end }}\n{{- end }}\n",
    );
    let e = lib
        .expand("args:\n  - --level=1\n  {{- include \"x.gates\" . | indent 2 }}\ncommand: [a]\n")
        .unwrap();
    assert_eq!(
        e.text,
        "args:\n  - --level=1  \n  - --gates={{ $g }}\ncommand: [a]\n"
    );
    assert_eq!(e.lines, vec![1, 2, 3, 4, 5]);
}

#[test]
fn cycles_depth_and_unknown_pipelines_are_bounded() {
    let lib = library(
        "{{- define \"a\" -}}\n{{ include \"b\" . }}\n{{- end }}\n{{- define \"b\" -}}\nb: 1\n{{ include \"a\" . }}\n{{- end }}\n{{- define \"c\" -}}\nc: 1\n{{- end }}\n",
    );
    let text = "x:\n{{ include \"a\" . }}\ny: {{ 1 }}\n{{ include \"c\" . | toYaml }}\n";
    let e = lib.expand(text).unwrap();
    assert_eq!(e.text, text);
    assert_eq!(e.lines, vec![1, 2, 3, 4, 5]);
    assert_eq!(
        e.diagnostics,
        vec![(
            2,
            "named template `a` includes itself or nests deeper than 8 levels: not expanded"
                .to_string()
        )]
    );
    // A chain of ten defines: the last one's include names nothing the chart defines,
    // the chain is cut at eight levels.
    let mut chain = String::new();
    for i in 0..10 {
        chain.push_str(&format!(
            "{{{{- define \"d{i}\" -}}}}\n{{{{ include \"d{}\" . }}}}\n{{{{- end }}}}\n",
            i + 1
        ));
    }
    let lib = library(&chain);
    let e = lib.expand("{{ include \"d1\" . }}\n").unwrap();
    assert_eq!(e.text, "{{ include \"d10\" . }}\n");
    let e = lib.expand("{{ include \"d0\" . }}\n").unwrap();
    assert_eq!(e.text, "{{ include \"d0\" . }}\n");
    assert_eq!(
        e.diagnostics,
        vec![(
            1,
            "named template `d0` includes itself or nests deeper than 8 levels: not expanded"
                .to_string()
        )]
    );
}

#[test]
fn expansion_stops_at_the_size_caps() {
    // Each level is eight copies of the one below: l5 is about 2 MB, l6 would be 16.
    let mut t = format!(
        "{{{{- define \"l0\" -}}}}\n{}\n{{{{- end }}}}\n",
        "x".repeat(62)
    );
    for i in 1..8 {
        t.push_str(&format!(
            "{{{{- define \"l{i}\" -}}}}\n{}{{{{- end }}}}\n",
            format!("{{{{ include \"l{}\" . }}}}\n", i - 1).repeat(8)
        ));
    }
    let lib = library(&t);
    let e = lib.expand("{{ include \"l7\" . }}\n").unwrap();
    assert_eq!(e.text, "{{ include \"l7\" . }}\n");
    assert_eq!(
            e.diagnostics,
            vec![(
                1,
                "named template `l7` not expanded: named template `l6` expands past 2048 KiB: not expanded"
                    .to_string()
            )]
        );
    let e = lib
        .expand("{{ include \"l5\" . }}\n{{ include \"l5\" . }}\n")
        .unwrap();
    assert!(e.text.len() <= MAX_EXPANDED, "{}", e.text.len());
    assert!(e.text.ends_with("x\n{{ include \"l5\" . }}\n"));
    assert_eq!(e.lines.len(), e.text.split('\n').count());
    assert_eq!(e.lines[e.lines.len() - 2], 2);
    assert_eq!(
        e.diagnostics,
        vec![(
            2,
            "named templates expand past 2048 KiB in this file: later includes are not expanded"
                .to_string()
        )]
    );
}

#[test]
fn charts_share_defines_with_their_subcharts_only() {
    assert_eq!(chart_root("charts/a/templates/x.yaml"), Some("charts/a"));
    assert_eq!(chart_root("templates/_helpers.tpl"), Some(""));
    assert_eq!(chart_root("charts/a/values.yaml"), None);
    assert!(shares_defines("charts/a", "charts/a/charts/b"));
    assert!(shares_defines("", "charts/b"));
    assert!(!shares_defines("charts/a", "charts/ab"));
    assert!(!shares_defines("charts/a", "charts/b"));
    let all = vec![
        (
            "charts/a/templates/_h.tpl".to_string(),
            defines("{{ define \"n\" }}1{{ end }}{{ define \"m\" }}1{{ end }}"),
        ),
        (
            "charts/a/charts/b/templates/_h.tpl".to_string(),
            defines("{{ define \"n\" }}2{{ end }}{{ define \"m\" }}1{{ end }}"),
        ),
        (
            "charts/c/templates/_h.tpl".to_string(),
            defines("{{ define \"k\" }}3{{ end }}"),
        ),
    ];
    let v = visible("charts/a", &all);
    assert_eq!(v.keys().copied().collect::<Vec<_>>(), vec!["m", "n"]);
    assert!(v["m"].is_ok());
    assert!(v["n"].is_err());
    // A `file://` dependency in the repository is a subchart too.
    let v = visible_with("charts/d", &["charts/c".to_string()], &all);
    assert_eq!(v.keys().copied().collect::<Vec<_>>(), vec!["k"]);
    assert!(visible("charts/d", &all).is_empty());
}
