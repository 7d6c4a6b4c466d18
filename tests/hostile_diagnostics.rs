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

/// What `analyze` sees: the README, the manifests, the kustomization and the Go code.
const FROM_ANALYZE: [&str; 9] = [
    "README.md:2: front matter `title` is not a string",
    "README.md:8: image docs/missing.png: file not found",
    "config/objects.yaml:7: `kind` is a number, not a string: the object is skipped",
    "config/objects.yaml:11: the document is a string, not a mapping: it is skipped",
    "config/listed.yaml:2: the document is a list of 2 entries, not one object",
    "config/kustomization.yaml:3: `resources` should be a list, not a string: it is ignored",
    "config/kustomization.yaml:4: `images` entry 1 should be a mapping, not a string",
    // A manifest in JSON style on one line is said not to parse, as a block one is.
    "config/oneline.yaml:1: ",
    "internal/controller/setup.go:26: `WatchesRawSource(source.Channel(r.Events, &handler.EnqueueRequestForObject{}))` watches a raw source",
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
    // Go 1.26's `new(in.Spec.Leader)` parses: the builder around it is read, and no
    // syntax error is reported.
    let got = diagnostics(&model);
    assert!(
        !got.iter().any(|d| d.contains("syntax error")),
        "{}",
        got.join("\n")
    );
    let controllers = model["controllers"].as_array().unwrap();
    assert_eq!(controllers.len(), 1, "{controllers:?}");
    let watches = controllers[0]["watches"].as_array().unwrap();
    assert_eq!(watches.len(), 2, "{watches:?}");
    assert_eq!(watches[1]["raw_source"], true);
}

/// Builds `config` into `site` and returns it, failing the test if the build fails.
fn build(config: &Path, site: &Path) -> std::path::PathBuf {
    let o = bin()
        .arg("build")
        .arg("--config")
        .arg(config)
        .arg("--out")
        .arg(site)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    site.to_path_buf()
}

/// projects.toml in `dir` listing the fixture as project `diag`.
fn diagnostics_portal(dir: &Path) -> std::path::PathBuf {
    let repo = fixtures().join("hostile/diagnostics");
    let config = dir.join("projects.toml");
    std::fs::write(
        &config,
        format!(
            "[[project]]\nname = \"diag\"\npath = \"{}\"\n",
            repo.display()
        ),
    )
    .unwrap();
    config
}

#[test]
fn check_notes_a_raw_source_instead_of_failing_on_it() {
    let dir = tempfile::tempdir().unwrap();
    let config = diagnostics_portal(dir.path());
    let o = bin()
        .arg("check")
        .arg("--config")
        .arg(&config)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains("note: dynamic kind: diag: internal/controller/setup.go:26: source.Channel("),
        "{err}"
    );
}

#[test]
fn kinds_whose_names_differ_only_in_punctuation_get_a_page_each() {
    let dir = tempfile::tempdir().unwrap();
    let config = diagnostics_portal(dir.path());
    let site = build(&config, &dir.path().join("site"));
    let api = site.join("projects/diag/api/odd.example.io");
    let spaced = std::fs::read_to_string(api.join("Odd_20Kind/index.html")).unwrap();
    let dashed = std::fs::read_to_string(api.join("Odd-Kind/index.html")).unwrap();
    assert!(
        spaced.contains("<title>Odd Kind (odd.example.io)"),
        "{spaced}"
    );
    assert!(
        dashed.contains("<title>Odd-Kind (odd.example.io)"),
        "{dashed}"
    );
    let kinds = site.join("kinds/odd.example.io");
    assert!(kinds.join("Odd_20Kind/index.html").is_file());
    assert!(kinds.join("Odd-Kind/index.html").is_file());
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
    let site = build(&config, &dir.path().join("site"));
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
