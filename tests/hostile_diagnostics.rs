//! Nothing is dropped silently: front matter that cannot be used, images that are not
//! published, YAML documents that are no object and kustomization fields of the wrong type
//! in tests/fixtures/hostile/diagnostics each give a diagnostic naming the file and its line.

use std::path::Path;

mod common;
use common::portolan as bin;
use common::{diagnostics, fixtures};

/// Asserts one diagnostic starts with each of `expected`.
fn assert_reported(got: &[String], expected: &[&str]) {
    for e in expected {
        assert!(
            got.iter().any(|d| d.starts_with(e)),
            "no diagnostic `{e}…` in:\n{}",
            got.join("\n")
        );
    }
}

/// What `analyze` sees: the README, the manifests and the kustomization.
const FROM_ANALYZE: [&str; 7] = [
    "README.md:2: front matter `title` is not a string",
    "README.md:8: image docs/missing.png: file not found",
    "config/objects.yaml:7: `kind` is a number, not a string: the object is skipped",
    "config/objects.yaml:11: the document is a string, not a mapping: it is skipped",
    "config/listed.yaml:2: the document is a list of 2 entries, not one object",
    "config/kustomization.yaml:3: `resources` should be a list, not a string: it is ignored",
    "config/kustomization.yaml:4: `images` entry 1 should be a mapping, not a string",
];

#[test]
fn analyze_reports_each_problem_at_its_file_and_line() {
    let repo = fixtures().join("hostile/diagnostics");
    let o = bin().arg("analyze").arg(&repo).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    let model: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_reported(&diagnostics(&model), &FROM_ANALYZE);
    // The object that is fine is still read.
    let names: Vec<&str> = model["configmaps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["good"]);
}

#[test]
fn docs_a_build_selects_report_their_lines() {
    let dir = tempfile::tempdir().unwrap();
    let repo = fixtures().join("hostile/diagnostics");
    let config = dir.path().join("projects.toml");
    std::fs::write(
        &config,
        format!(
            "[[project]]\nname = \"diag\"\npath = \"{}\"\ndocs = [\"docs\"]\n",
            repo.display()
        ),
    )
    .unwrap();
    let site = dir.path().join("site");
    let o = bin()
        .arg("build")
        .arg("--config")
        .arg(&config)
        .arg("--out")
        .arg(&site)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let model: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(site.join("data/diag.json")).unwrap())
            .unwrap();
    let got = diagnostics(&model);
    assert_reported(&got, &FROM_ANALYZE);
    assert_reported(
        &got,
        &[
            "docs/broken.md:2: front matter not read: ",
            "docs/extra.md:3: front matter key `weight` is not used",
            "docs/picture.md:5: image docs/diagram.bmp is not published",
        ],
    );
    assert!(
        !got.iter().any(|d| d.contains(":0: ")),
        "a diagnostic without a line:\n{}",
        got.join("\n")
    );
    assert!(Path::new(&site).join("projects/diag/index.html").exists());
}
