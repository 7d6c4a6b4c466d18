//! Deprecated and removed Kubernetes API versions (`site.target_kubernetes`): the
//! `legacy-apis` fixture uses removed ones in manifests, a Helm template, Go code (a watch
//! and a write) and Rust code (a kube-rs controller's watch), plus v1 Endpoints
//! (deprecated, not removed) and a current API that must not be reported.

mod common;

use common::{fixtures, portolan, run, stderr};

/// Builds the fixture with `target` and returns the platform page and the project's
/// configuration page.
fn build(target: Option<&str>) -> (String, String) {
    let tmp = tempfile::tempdir().unwrap();
    let site = match target {
        Some(t) => format!("[site]\ntarget_kubernetes = \"{t}\"\n\n"),
        None => String::new(),
    };
    std::fs::write(
        tmp.path().join("projects.toml"),
        format!(
            "{site}[[project]]\nname = \"legacy\"\npath = \"{}\"\n",
            fixtures().join("legacy-apis").display()
        ),
    )
    .unwrap();
    let out = run(portolan()
        .current_dir(tmp.path())
        .args(["build", "-q", "--out"])
        .arg(tmp.path().join("site")));
    assert!(out.status.success(), "{}", stderr(&out));
    let read = |p: &str| std::fs::read_to_string(tmp.path().join("site").join(p)).unwrap();
    (
        read("platform/kubernetes-apis/index.html"),
        read("projects/legacy/configuration/index.html"),
    )
}

/// The table rows as `API | status | use`, in page order.
fn rows(page: &str) -> Vec<String> {
    let table = page.split("id=\"kubernetes-apis\"").nth(1).unwrap();
    table
        .split("<tr id=")
        .skip(1)
        .map(|row| {
            let cells: Vec<String> = row
                .split("<td")
                .skip(1)
                .map(|c| {
                    let text = c.split_once('>').unwrap().1;
                    let mut plain = String::new();
                    let mut tag = false;
                    for ch in text.split("</td>").next().unwrap().chars() {
                        match ch {
                            '<' => tag = true,
                            '>' => tag = false,
                            c if !tag => plain.push(c),
                            _ => {}
                        }
                    }
                    plain.split_whitespace().collect::<Vec<_>>().join(" ")
                })
                .collect();
            cells.join(" | ")
        })
        .collect()
}

#[test]
fn uses_are_judged_against_the_target() {
    let (platform, configuration) = build(Some("1.33"));
    let found = rows(&platform);
    // Removed ones first, then the deprecated Endpoints watch; policy/v1 is not listed.
    insta::assert_debug_snapshot!("api-versions-1.33", found);
    assert!(!platform.contains("policy/v1 PodDisruptionBudget"));
    assert!(configuration.contains("Deprecated and removed Kubernetes APIs"));
    assert_eq!(rows(&configuration).len(), found.len());
}

#[test]
fn an_older_target_and_no_target() {
    let (platform, _) = build(Some("1.28"));
    let at_128 = rows(&platform);
    let flow = at_128.iter().find(|r| r.contains("FlowSchema")).unwrap();
    assert!(flow.contains("| removed in 1.29 |"), "{flow}");
    let endpoints = at_128.iter().find(|r| r.contains("Endpoints")).unwrap();
    assert!(endpoints.contains("| deprecated in 1.33 |"), "{endpoints}");
    let (platform, _) = build(None);
    assert!(platform.contains("No site.target_kubernetes is set"));
    assert!(!platform.contains("at the target"));
}

#[test]
fn a_bad_target_is_a_config_error() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(
        tmp.path().join("projects.toml"),
        "[site]\ntarget_kubernetes = \"latest\"\n\n[[project]]\nname = \"p\"\npath = \".\"\n",
    )
    .unwrap();
    let out = run(portolan().current_dir(tmp.path()).arg("check"));
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("projects.toml:2:21: `latest` is not a Kubernetes version"),
        "{}",
        stderr(&out)
    );
}
