use super::*;

fn project(binaries: &[(&str, &str)], commands: &[&str]) -> Project {
    let binaries = binaries
        .iter()
        .map(|(name, package)| {
            serde_json::from_value(serde_json::json!({
                "name": name, "package": package, "flags": [], "env": [],
                "sources": [{"file": format!("{package}/main.go"), "line": 1}],
            }))
            .unwrap()
        })
        .collect();
    let workloads = commands
        .iter()
        .enumerate()
        .map(|(i, command)| {
            serde_json::from_value(serde_json::json!({
                "kind": "Deployment", "name": format!("w{i}"), "namespace": "ns",
                "containers": [{"name": "c", "image": "img:1", "command": [command]}],
                "sources": [],
            }))
            .unwrap()
        })
        .collect();
    Project {
        name: "p".into(),
        title: "P \"quoted\"".into(),
        findings: model::Findings {
            binaries,
            workloads,
            ..Default::default()
        },
        ..Default::default()
    }
}

#[test]
fn a_workload_runs_a_program_its_command_names_unless_two_share_the_name() {
    let p = project(
        &[
            ("manager", "cmd/manager"),
            ("manager", "cmd/other"),
            ("agent", "cmd/agent"),
        ],
        &["/manager", "/usr/bin/agent"],
    );
    let portal: Portal = serde_json::from_value(serde_json::json!({
        "schema_version": 1, "title": "Atlas", "projects": [], "kinds": [],
    }))
    .unwrap();
    let dsl = dsl("Atlas", &portal, std::slice::from_ref(&p));
    assert!(
        dsl.contains("s1 = softwareSystem \"P \\\"quoted\\\"\" \"\" {\n"),
        "{dsl}"
    );
    assert!(dsl.contains("s1b1 = container \"manager\" \"Program cmd/manager\" \"Go\"\n"));
    assert!(dsl.contains("s1b2 = container \"manager\" \"Program cmd/other\" \"Go\"\n"));
    assert!(dsl.contains(
        "s1w1 = container \"Deployment ns/w0\" \"Image img:1\" \"Kubernetes workload\"\n"
    ));
    // `/manager` names two programs: no relationship; `agent` names one.
    let runs: Vec<&str> = dsl.lines().filter(|l| l.contains("\"Runs\"")).collect();
    assert_eq!(
        runs,
        ["        s1w2 -> s1b3 \"Runs\" \"container command\""]
    );
}

#[test]
fn strings_are_quoted_and_cannot_break_out() {
    assert_eq!(quote("a \"b\" \\ c\nd"), "\"a \\\"b\\\" \\ c d\"");
    assert_eq!(quote("} model {"), "\"} model {\"");
    assert_eq!(quote("web-${HOME}"), "\"web-$\u{200B}{HOME}\"");
    assert_eq!(quote("ends in \\"), "\"ends in \\\u{200B}\"");
}

#[test]
fn hostile_names_stay_one_token_each_and_substitute_nothing() {
    let hostile = [
        "web-${AWS_SECRET_ACCESS_KEY}",
        "trailing\\",
        "two\\\\",
        "quote\\\"",
        "\" kubernetes -> s1 \"x",
        "$${HOME}}",
        "a\nb ${X} \\",
        "} model {",
        "",
    ];
    for name in hostile {
        let line = format!("s1b1 = container {} {} \"Go\"", quote(name), quote(name));
        let tokens = structurizr_tokens(&line);
        assert_eq!(tokens.len(), 6, "{name:?} → {line} → {tokens:?}");
        assert_eq!(tokens[5], "Go");
        assert!(
            !tokens.iter().any(|t| substitutes(t)),
            "{name:?} → {tokens:?}"
        );
    }
    let mut p = project(&[("${AWS_SECRET_ACCESS_KEY}\\", "cmd/x")], &[]);
    p.title = "t\\".into();
    p.description = "${HOME}".into();
    let portal: Portal = serde_json::from_value(serde_json::json!({
        "schema_version": 1, "title": "Atlas", "projects": [], "kinds": [],
    }))
    .unwrap();
    let dsl = dsl("${USER}\\", &portal, std::slice::from_ref(&p));
    for line in dsl.lines() {
        let tokens = structurizr_tokens(line);
        assert!(!tokens.iter().any(|t| substitutes(t)), "{line}");
        if line.contains("= container") {
            assert_eq!(tokens.len(), 6, "{line} → {tokens:?}");
        }
        if line.contains("= softwareSystem \"t") {
            assert_eq!(tokens.len(), 6, "{line} → {tokens:?}");
            assert_eq!(tokens[5], "{");
        }
        if line.starts_with("workspace") {
            assert_eq!(tokens.len(), 4, "{line} → {tokens:?}");
        }
    }
}
