//! End-to-end tests of the `portolan` binary on the fixture repositories and on git
//! repositories the tests create (cloned over file://, so no network is needed).

use std::path::{Path, PathBuf};

mod common;
use common::portolan as bin;
use common::{all_files, copy_dir, diagnostics, fixtures, git, run, stderr};

/// A fresh copy of the fixtures with a file over 4 MiB added (too big to commit).
fn fixture_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&fixtures(), dir.path());
    let mut huge =
        String::from("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: huge-leak\ndata:\n");
    while huge.len() < 5 * 1024 * 1024 {
        huge.push_str("  # padding padding padding padding padding padding padding padding\n");
    }
    std::fs::write(dir.path().join("widget-operator/config/huge.yaml"), huge).unwrap();
    // A symlink pointing out of the repository must not be followed.
    let outside = dir.path().join("outside.yaml");
    std::fs::write(
        &outside,
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: symlink-leak\n",
    )
    .unwrap();
    std::os::unix::fs::symlink(
        &outside,
        dir.path().join("widget-operator/config/outside.yaml"),
    )
    .unwrap();
    // A symlink loop must not hang the walk.
    std::os::unix::fs::symlink("loop-b", dir.path().join("widget-operator/config/loop-a")).unwrap();
    std::os::unix::fs::symlink("loop-a", dir.path().join("widget-operator/config/loop-b")).unwrap();
    dir
}

fn read_json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Every model the build wrote validates against the `data/schema.json` it wrote: each
/// project's model at the schema's root, the portal's against `$defs/Portal`. A model made
/// invalid on purpose does not, so the check is not vacuous.
fn assert_models_match_schema(out: &Path) {
    let schema = read_json(&out.join("data/schema.json"));
    let project = jsonschema::validator_for(&schema).unwrap();
    let portal_schema = serde_json::json!({
        "$ref": "#/$defs/Portal",
        "$defs": schema["$defs"].clone(),
    });
    let portal = jsonschema::validator_for(&portal_schema).unwrap();
    let mut checked = 0;
    for entry in std::fs::read_dir(out.join("data")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        if !name.ends_with(".json") || name == "schema.json" {
            continue;
        }
        let model = read_json(&path);
        let validator = if name == "portal.json" {
            &portal
        } else {
            &project
        };
        let errors: Vec<String> = validator
            .iter_errors(&model)
            .map(|e| format!("{}: {e}", e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{name}: {errors:#?}");
        checked += 1;
    }
    assert!(checked >= 4, "the portal and its projects' models");
    let mut broken = read_json(&out.join("data/widget-operator.json"));
    broken["controllers"] = serde_json::json!("not a list");
    assert!(!project.is_valid(&broken));
}

/// Every file under `dir`, as (relative path, contents).
/// The `<main>` element of a page, so snapshots do not churn with the page chrome.
fn main_of(html: &str) -> &str {
    let start = html.find("<main>").expect("page has <main>");
    let end = html.find("</main>").expect("page has </main>");
    &html[start..end + "</main>".len()]
}

#[test]
fn fixture_portal_builds_with_pages_models_and_nothing_excluded() {
    let fx = fixture_copy();
    let out = fx.path().join("out");
    let o = run(bin()
        .arg("build")
        .arg("--config")
        .arg(fx.path().join("portal.toml"))
        .arg("--out")
        .arg(&out));
    assert!(o.status.success());

    for p in ["widget-operator", "gadget-scheduler"] {
        assert!(
            out.join(format!("projects/{p}/dataflow/index.html"))
                .is_file(),
            "{p} dataflow page"
        );
        assert!(
            out.join(format!("projects/{p}/index.html")).is_file(),
            "{p} overview page"
        );
        assert!(out.join(format!("data/{p}.json")).is_file(), "{p} model");
    }
    for f in [
        "index.html",
        "404.html",
        ".nojekyll",
        "robots.txt",
        "sitemap.xml",
        "static/style.css",
        "data/portal.json",
    ] {
        assert!(out.join(f).is_file(), "{f}");
    }

    // Nothing from module caches, vendor/, binary files or oversized files reaches the site.
    for (path, bytes) in all_files(&out) {
        let text = String::from_utf8_lossy(&bytes).to_lowercase();
        for needle in [
            "decoy",
            "gomod-cache",
            "vendored",
            "binary-leak",
            "huge-leak",
        ] {
            assert!(!text.contains(needle), "{path} contains {needle}");
        }
    }

    let model = read_json(&out.join("data/widget-operator.json"));
    assert_eq!(model["stats"]["skipped_large"], 1);
    assert_eq!(model["stats"]["skipped_binary"], 1);

    // A CRD's reference page names the Go type (with kubebuilder markers) that declares it.
    let widget_api = std::fs::read_to_string(
        out.join("projects/widget-operator/api/widgets.example.io/Widget/index.html"),
    )
    .unwrap();
    assert!(
        widget_api.contains(r#"Go types</dt><dd><code>v1alpha1</code> <code class="src">api/<wbr>v1alpha1/<wbr>widget_types.go:32</code>"#),
        "the Widget page links its Go type"
    );

    // A CRD without descriptions is read with its Go type: Go order, doc comments, markers.
    let gadget_dir = out.join("projects/gadget-scheduler/api/gadgets.example.io/Gadget");
    let gadget_api = std::fs::read_to_string(gadget_dir.join("index.html")).unwrap();
    assert!(gadget_api.contains(r#"Fields in the order of the Go type <code>Gadget</code> (<code class="src">api/<wbr>v1/<wbr>gadget_types.go:29</code>); 18 descriptions here are doc comments of its Go fields"#), "the Gadget page names its Go type");
    // Every field is on the all-fields page (the tree's script reads it too): a row per
    // field with its depth, path and constraints.
    let gadget_all = std::fs::read_to_string(gadget_dir.join("all-fields/index.html")).unwrap();
    let between = |text: &'static str, start: &str, end: &str| -> Option<&'static str> {
        let from = text.find(start)? + start.len();
        Some(&text[from..from + text[from..].find(end)?])
    };
    let gadget_all: &'static str = Box::leak(gadget_all.into_boxed_str());
    let spec: Vec<(&str, &str)> = gadget_all
        .split("<tr ")
        .filter(|row| row.contains(r#"class="d1""#))
        .filter_map(|row| {
            let row: &'static str = row.split("</tr>").next()?;
            let path = between(row, "<small>", "</small>")?;
            path.starts_with("spec.").then(|| {
                (
                    path.rsplit('.').next().unwrap(),
                    between(row, r#"<small class="constraints">"#, "</small>").unwrap_or(""),
                )
            })
        })
        .collect();
    assert_eq!(
        spec,
        vec![
            ("widgetRef", ""),
            ("priority", "format: int32"),
            ("placement", ""),
            ("fallback", ""),
            // The schema's limits; of the Go markers, only what the CRD does not state.
            ("slots[]", "maxItems: 8"),
            (
                "retries",
                "format: int32; minimum: 0; maximum: 10; Go marker: MultipleOf=1"
            ),
            ("selector", ""),
            ("resources", ""),
            ("legacyMode", ""),
        ]
    );

    let sitemap = std::fs::read_to_string(out.join("sitemap.xml")).unwrap();
    assert!(
        sitemap.contains(
            "<loc>https://example.github.io/atlas/projects/widget-operator/dataflow/</loc>"
        )
    );

    // Links honour the base path.
    let home = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(home.contains(r#"href="/atlas/projects/widget-operator/""#));
    assert!(home.contains(r#"href="/atlas/static/style.css""#));
}

#[test]
fn fixture_models_match_snapshots() {
    // Run on the committed fixtures in place: the model must not depend on where they are.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("site");
    let o = run(bin()
        .arg("build")
        .arg("-q")
        .arg("--config")
        .arg(fixtures().join("portal.toml"))
        .arg("--out")
        .arg(&out));
    assert!(o.status.success());
    insta::assert_json_snapshot!(
        "widget-operator-model",
        read_json(&out.join("data/widget-operator.json"))
    );
    insta::assert_json_snapshot!(
        "gadget-scheduler-model",
        read_json(&out.join("data/gadget-scheduler.json"))
    );
    insta::assert_json_snapshot!("portal-model", read_json(&out.join("data/portal.json")));
    assert_models_match_schema(&out);
    insta::assert_snapshot!(
        "portal-c4-dsl",
        std::fs::read_to_string(out.join("data/c4.dsl")).unwrap()
    );
    // The kube-rs operator: the same model and pages as the Go projects.
    insta::assert_json_snapshot!(
        "kube-operator-model",
        read_json(&out.join("data/kube-operator.json"))
    );
    let page =
        std::fs::read_to_string(out.join("projects/kube-operator/dataflow/index.html")).unwrap();
    insta::assert_snapshot!("kube-operator-dataflow-main", main_of(&page));
    let page =
        std::fs::read_to_string(out.join("projects/widget-operator/dataflow/index.html")).unwrap();
    insta::assert_snapshot!("widget-operator-dataflow-main", main_of(&page));
    // Each component controller has its page, with its rows and its diagram.
    let controller =
        std::fs::read_to_string(out.join("projects/widget-operator/controllers/widget/index.html"))
            .unwrap();
    insta::assert_snapshot!(
        "widget-operator-controller-widget-main",
        main_of(&controller)
    );
    assert!(controller.contains(r#"href="/atlas/projects/widget-operator/dataflow/widget.mmd""#));
    // A controller with a call of unknown kind: its line counts and lists it, and its
    // least-privilege rules say they are a lower bound and what is missing.
    let gadget = std::fs::read_to_string(
        out.join("projects/gadget-scheduler/controllers/gadget/index.html"),
    )
    .unwrap();
    assert!(gadget.contains(
        r#"<dt>Client calls</dt><dd><span class="calls calls-incomplete">4 of 5 client calls resolved to a kind; 1 unresolved.</span>"#
    ));
    assert!(gadget.contains("<summary>The 1 unresolved call</summary>"));
    assert!(gadget.contains(
        r#"<li><code>delete</code> <code class="src">pkg/<wbr>controller/<wbr>lifecycle.go:51</code>, <code class="src">pkg/<wbr>controller/<wbr>gadget.go:43</code>: cannot tell the kind of the object this delete writes (the result of leftover is not a known API type)</li>"#
    ));
    assert!(gadget.contains(
        r#"<p class="completeness lower-bound">Lower bound: 1 client call in this controller&#39;s reach was not resolved to a kind (delete): rules for it are missing.</p>"#
    ));
    assert!(gadget.contains(
        "# Lower bound: 1 client call in this controller&#39;s reach was not resolved to a kind (delete): rules for it are missing."
    ));
    // The project's line on its overview: the unresolved delete (a read no controller
    // reaches is listed under its package, so it is resolved).
    let overview =
        std::fs::read_to_string(out.join("projects/gadget-scheduler/index.html")).unwrap();
    assert!(overview.contains("6 of 7 client calls resolved to a kind and listed; 1 unresolved."));
    assert!(page.contains(r#"href="/atlas/projects/widget-operator/controllers/widget/""#));
    // The cross-project graph: widget-operator defines and writes Widget, which
    // gadget-scheduler watches.
    let home = std::fs::read_to_string(out.join("index.html")).unwrap();
    insta::assert_snapshot!("home-project-graph-svg", svg_of(&home));
    let mmd =
        std::fs::read_to_string(out.join("projects/widget-operator/dataflow/widget.mmd")).unwrap();
    assert!(mmd.starts_with("sequenceDiagram\n"), "{mmd}");
    let page =
        std::fs::read_to_string(out.join("kinds/widgets.example.io/Widget/index.html")).unwrap();
    // Cross-language: the Rust controller's watch shows beside the Go projects.
    assert!(
        page.contains("kube-operator"),
        "the Widget kind page lists the Rust project"
    );
    insta::assert_snapshot!("kind-widget-main", main_of(&page));
    let page = std::fs::read_to_string(out.join("platform/rbac/index.html")).unwrap();
    insta::assert_snapshot!("platform-rbac-main", main_of(&page));
    let page =
        std::fs::read_to_string(out.join("projects/widget-operator/security/index.html")).unwrap();
    let start = page.find(r#"<h2 id="rbac-versus-code">"#).unwrap();
    let end = page.find(r#"<h2 id="bundled">"#).unwrap();
    insta::assert_snapshot!("widget-operator-rbac-versus-code", &page[start..end]);
    for page in [
        "kinds/index.html",
        "kinds/core/Pod/index.html",
        "platform/architecture/index.html",
        "platform/network/index.html",
        "platform/secrets/index.html",
        "search/index.html",
    ] {
        assert!(out.join(page).is_file(), "{page}");
    }
}

/// The first diagram of a page (the chrome's icons are SVG too).
fn svg_of(html: &str) -> &str {
    let start = html
        .find("<svg xmlns")
        .expect("no diagram <svg> on the page");
    let end = html[start..].find("</svg>").expect("unclosed <svg>") + start + "</svg>".len();
    &html[start..end]
}

#[test]
fn the_same_input_gives_a_byte_identical_site() {
    let dir = tempfile::tempdir().unwrap();
    let config = fixtures().join("portal.toml");
    for name in ["a", "b"] {
        let o = run(bin()
            .args(["build", "-q", "--jobs", if name == "a" { "1" } else { "2" }])
            .arg("--config")
            .arg(&config)
            .arg("--out")
            .arg(dir.path().join(name)));
        assert!(o.status.success());
    }
    assert_eq!(
        all_files(&dir.path().join("a")),
        all_files(&dir.path().join("b"))
    );
}

#[test]
fn configuration_errors_exit_2_with_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "[[project]]\nname = \"a\"\npath = \".\"\nexlude = []\n",
            "projects.toml:4:1: unknown field `exlude`",
        ),
        (
            "[[project]]\nname = \"a\"\npath = 42\n",
            "projects.toml:3:8: invalid type: integer `42`, expected a string",
        ),
        (
            "[[project]]\nname = \"a\"\npath = \".\"\n\n[[project]]\nname = \"a\"\npath = \".\"\n",
            "projects.toml:6:8: duplicate project name `a`",
        ),
    ];
    for (text, expected) in cases {
        let file = dir.path().join("projects.toml");
        std::fs::write(&file, text).unwrap();
        let o = run(bin().arg("build").arg("--config").arg(&file));
        assert_eq!(o.status.code(), Some(2), "{text}");
        let err = stderr(&o);
        assert!(err.contains(expected), "expected {expected:?} in {err:?}");
    }
}

fn write_config_with_missing_project(dir: &Path) -> PathBuf {
    let file = dir.join("projects.toml");
    let text = format!(
        "[[project]]\nname = \"widget\"\npath = \"{}\"\n\n[[project]]\nname = \"ghost\"\npath = \"does/not/exist\"\n",
        fixtures().join("widget-operator").display()
    );
    std::fs::write(&file, text).unwrap();
    file
}

#[test]
fn a_missing_project_fails_alone() {
    let dir = tempfile::tempdir().unwrap();
    let config = write_config_with_missing_project(dir.path());
    let out = dir.path().join("site");

    // A good previous site (portolan's: it has the marker) must survive a failed build.
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(out.join(".portolan-site"), "portolan-site 1\n").unwrap();
    std::fs::write(out.join("previous.txt"), "previous").unwrap();
    let o = run(bin()
        .arg("build")
        .arg("--config")
        .arg(&config)
        .arg("--out")
        .arg(&out));
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains("project `ghost`: path"), "{err}");
    assert!(err.contains("does not exist"), "{err}");
    assert!(
        err.contains("portolan: widget: 2 controllers"),
        "the other project is analyzed: {err}"
    );
    assert!(out.join("previous.txt").is_file(), "previous site kept");

    let o = run(bin()
        .arg("build")
        .arg("--keep-going")
        .arg("--config")
        .arg(&config)
        .arg("--out")
        .arg(&out));
    assert_eq!(o.status.code(), Some(0));
    assert!(!out.join("previous.txt").exists());
    let page = std::fs::read_to_string(out.join("projects/ghost/dataflow/index.html")).unwrap();
    assert!(page.contains(
        r#"<div class="error banner" role="alert"><strong>This project failed:</strong> project `ghost`: path"#
    ));
    let model = read_json(&out.join("data/ghost.json"));
    assert!(model["error"].as_str().unwrap().contains("does not exist"));
    assert!(out.join("projects/widget/dataflow/index.html").is_file());
}

#[test]
fn check_reports_unresolved_kinds_without_writing() {
    let fx = fixture_copy();
    // `check` takes no --out: it writes nothing, not even the default output folder.
    let out = fx.path().join("site");
    let o = run(bin()
        .arg("check")
        .arg("--config")
        .arg(fx.path().join("portal.toml")));
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains("unresolved kind: gadget-scheduler: pkg/controller/relay.go:37: Thing"),
        "{err}"
    );
    assert!(!err.contains("broken link"), "{err}");
    assert!(!out.exists());
}

/// A projects.toml beside nothing, naming fixture folders by absolute path.
fn fixture_config(dir: &std::path::Path, projects: &[(&str, &str, &str)]) -> std::path::PathBuf {
    let mut text = String::new();
    for (name, folder, extra) in projects {
        text.push_str(&format!(
            "[[project]]\nname = \"{name}\"\npath = \"{}\"\n{extra}\n\n",
            fixtures().join(folder).display()
        ));
    }
    let file = dir.join("projects.toml");
    std::fs::write(&file, text).unwrap();
    file
}

#[test]
fn check_notes_dynamic_kinds_and_accepted_ones_without_failing() {
    let dir = tempfile::tempdir().unwrap();
    let check = |accept: &str| {
        let config = fixture_config(
            dir.path(),
            &[
                ("widget-operator", "widget-operator", ""),
                ("gadget-scheduler", "gadget-scheduler", accept),
                ("cog-watcher", "revisions/cog-watcher", ""),
                // The watcher's kinds are this project's.
                ("sprocket-operator", "revisions/sprocket-v2", ""),
            ],
        );
        run(bin().arg("check").arg("--config").arg(config))
    };
    let strict = check("");
    assert_eq!(strict.status.code(), Some(1));
    let err = stderr(&strict);
    assert!(
        err.contains("unresolved kind: gadget-scheduler: pkg/controller/relay.go:37: Thing"),
        "{err}"
    );
    // An unstructured object's kind is chosen at run time: a note, never a failure.
    assert!(
        err.contains("note: dynamic kind: cog-watcher: internal/controller/any_controller.go:25: Unstructured"),
        "{err}"
    );
    assert!(err.contains("check: 1 problem(s)"), "{err}");
    for accept in [
        "accept_unresolved = [\"pkg/controller/relay.go:37\"]",
        "accept_unresolved = [\"pkg/controller/relay.go\"]",
    ] {
        let accepted = check(accept);
        let err = stderr(&accepted);
        assert_eq!(accepted.status.code(), Some(0), "{err}");
        assert!(err.contains("note: accepted unresolved kind: gadget-scheduler: pkg/controller/relay.go:37: Thing"), "{err}");
        assert!(err.contains("check: ok"), "{err}");
    }
    // Another line of the file is not accepted by a line entry.
    let other = check("accept_unresolved = [\"pkg/controller/relay.go:38\"]");
    assert_eq!(other.status.code(), Some(1));
    let bad = check("accept_unresolved = [\"../outside.go\"]");
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        stderr(&bad).contains("is not a source file or file:line"),
        "{}",
        stderr(&bad)
    );
}

#[test]
fn analyze_writes_a_model_that_build_accepts() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("widget.json");
    let o = run(bin()
        .arg("analyze")
        .arg(fixtures().join("widget-operator"))
        .arg("--out")
        .arg(&model));
    assert!(o.status.success());
    let stdout = run(bin().arg("analyze").arg(fixtures().join("widget-operator")));
    assert_eq!(
        std::fs::read(&model).unwrap(),
        stdout.stdout,
        "--out writes what stdout prints"
    );

    let config = dir.path().join("projects.toml");
    std::fs::write(
        &config,
        "[[project]]\nname = \"widget\"\ntitle = \"Widget (from CI)\"\nmodel = \"widget.json\"\n",
    )
    .unwrap();
    let out = dir.path().join("site");
    let o = run(bin()
        .arg("build")
        .arg("--config")
        .arg(&config)
        .arg("--out")
        .arg(&out));
    assert!(o.status.success());
    let written = read_json(&out.join("data/widget.json"));
    assert_eq!(written["title"], "Widget (from CI)");
    assert_eq!(written["controllers"].as_array().unwrap().len(), 3);

    std::fs::write(&model, "{\"schema_version\": 99}").unwrap();
    let o = run(bin()
        .arg("build")
        .arg("--config")
        .arg(&config)
        .arg("--out")
        .arg(&out));
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("is not a portolan model"));
}

// ---- manifests: the kennel-operator fixture ----------------------------------------

/// The kennel-operator fixture built into a fresh site.
fn kennel_site() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("site");
    let o = run(bin()
        .arg("build")
        .arg("-q")
        .arg("--config")
        .arg(fixtures().join("kennel.toml"))
        .arg("--out")
        .arg(&out));
    assert!(o.status.success());
    (dir, out)
}

#[test]
fn kennel_model_matches_its_snapshot() {
    let (_dir, out) = kennel_site();
    insta::assert_json_snapshot!(
        "kennel-operator-model",
        read_json(&out.join("data/kennel-operator.json"))
    );
}

#[test]
fn kennel_api_reference_pages_with_field_anchors() {
    let (_dir, out) = kennel_site();
    let index =
        std::fs::read_to_string(out.join("projects/kennel-operator/api/index.html")).unwrap();
    assert!(
        index.contains(r#"href="/kennel/projects/kennel-operator/api/kennel.example.io/Kennel/""#)
    );
    // A bundled kind links to the reference its content shares across the portal, under
    // its kind page; the project keeps a short page of its own that links there too.
    let shared = index
        .split(r#"href="/kennel/kinds/gateway.networking.k8s.io/Gateway/"#)
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("the bundled Gateway links to its shared reference");
    assert_eq!(
        shared.len(),
        13,
        "a 12-digit content key and a slash: {shared}"
    );
    let shared_page = std::fs::read_to_string(
        out.join("kinds/gateway.networking.k8s.io/Gateway")
            .join(shared)
            .join("index.html"),
    )
    .unwrap();
    assert!(shared_page.contains("is shipped for installation by <a href=\"/kennel/projects/kennel-operator/api/gateway.networking.k8s.io/Gateway/\">"));
    assert!(shared_page.contains(&format!(
        r#"data-fields="/kennel/kinds/gateway.networking.k8s.io/Gateway/{shared}all-fields/""#
    )));
    let own = std::fs::read_to_string(
        out.join("projects/kennel-operator/api/gateway.networking.k8s.io/Gateway/index.html"),
    )
    .unwrap();
    assert!(own.contains(&format!(
        r#"<a href="/kennel/kinds/gateway.networking.k8s.io/Gateway/{shared}">shared reference of this content</a>"#
    )));
    assert!(
        !out.join("projects/kennel-operator/api/gateway.networking.k8s.io/Gateway/all-fields")
            .exists()
    );
    let page = std::fs::read_to_string(
        out.join("projects/kennel-operator/api/kennel.example.io/Kennel/index.html"),
    )
    .unwrap();
    // The page holds the tree's first two levels; deeper fields are on the all-fields page,
    // with the same anchors.
    for id in [
        r#"id="field-spec-capacity""#,
        r#"id="field-v1alpha1-spec""#,
        r#"id="variant-2-v1""#,
    ] {
        assert!(page.contains(id), "{id}");
    }
    assert!(!page.contains(r#"id="field-spec-runs-name""#));
    let all = std::fs::read_to_string(
        out.join("projects/kennel-operator/api/kennel.example.io/Kennel/all-fields/index.html"),
    )
    .unwrap();
    assert!(all.contains(r#"id="field-spec-runs-name""#));
    // The tree's script reads deeper fields from that page's rows: anchor, depth, path.
    assert!(all.contains(r#"<tr id="field-spec-runs-name" class="d2">"#));
    assert!(all.contains("<small>spec.runs[].name</small>"));
    // A repeated subtree refers to its first copy.
    assert!(all.contains(r##"Same fields as <a href="#field-spec-day">spec.day</a>"##));
    // Repository text is escaped, never markup.
    for html in [&page, &all] {
        assert!(html.contains("Must be positive: &lt;b&gt;never&lt;/b&gt; zero."));
        assert!(!html.contains("<b>never</b>"));
    }
    // The dataflow page links the kind to its reference and keeps bundled rows apart.
    let dataflow =
        std::fs::read_to_string(out.join("projects/kennel-operator/dataflow/index.html")).unwrap();
    let main = main_of(&dataflow);
    let (own, rest) = main.split_once(r#"<h2 id="bundled">"#).unwrap();
    assert!(own.contains(
        r#"<a href="/kennel/projects/kennel-operator/api/kennel.example.io/Kennel/">Kennel</a>"#
    ));
    assert!(!own.contains("sidecar-injector.istio.io"));
    assert!(rest.contains("sidecar-injector.istio.io"));
    assert!(own.contains("kennel-system/<wbr>kennel-webhook-service"));
}

/// The Leash kind (a synthetic CRD serving v1 and v1beta1 with one schema, and a v1alpha1
/// of its own): v1beta1 links v1 instead of listing its fields again, and the changes from
/// v1alpha1 link the fields where v1 lists them.
#[test]
fn a_version_that_reads_like_one_shown_before_links_it() {
    let (_dir, out) = kennel_site();
    let page = kennel_page(&out, "api/kennel.example.io/Leash");
    let main = main_of(&page);
    let pointer = r##"The same fields, types, descriptions and validations as <a href="#version-v1">version v1</a>."##;
    assert_eq!(main.matches(pointer).count(), 1, "{main}");
    let all = kennel_page(&out, "api/kennel.example.io/Leash/all-fields");
    // v1's fields once, v1alpha1's own; none of v1beta1's.
    assert!(all.contains(r#"<tr id="field-spec-lengthcm""#));
    assert!(all.contains(r#"<tr id="field-v1alpha1-spec-length""#));
    assert!(!all.contains("field-v1beta1-"), "v1beta1 lists its fields");
    // The change that adds lengthCm on the way to v1beta1 links v1's row.
    let changes = &main[main
        .find("Changes between versions")
        .expect("a changes section")..];
    assert!(
        changes.contains(r##"href="#field-spec-lengthcm""##),
        "{changes}"
    );
    assert!(!changes.contains("#field-v1beta1-"), "{changes}");
}

/// The Feeder kind (a synthetic CRD served as v1alpha1, v1beta1 and v1, listed out of
/// order): an example manifest per version and the changes from each version to the next.
#[test]
fn a_kind_page_shows_example_manifests_and_the_changes_between_versions() {
    let (_dir, out) = kennel_site();
    let page = kennel_page(&out, "api/kennel.example.io/Feeder");
    let main = main_of(&page);
    // The storage version's example: the fields a manifest must set, defaults, enums'
    // first members; not `spec.refill` (optional, though its field has a default), not
    // `status`.
    assert!(main.contains(
        r#"<pre><code class="language-yaml">apiVersion: kennel.example.io/v1
kind: Feeder
metadata:
  name: example
  namespace: default
spec:
  kennelRef:
    name: &quot;&quot;
  portions:
    - food: Kibble  # one of: Kibble, Stew, Biscuit
      grams: 0
  schedule: Daily  # one of: Daily, Weekdays, Weekends
  water: true</code></pre>"#
    ));
    assert_eq!(main.matches(r#"class="language-yaml""#).count(), 3);
    // Oldest to newest, whatever the CRD's order.
    let alpha = main.find(r#"<h4 id="changes-v1alpha1-v1beta1">"#).unwrap();
    let beta = main.find(r#"<h4 id="changes-v1beta1-v1">"#).unwrap();
    assert!(alpha < beta);
    let row = |path: &str, change: &str, detail: &str| {
        format!(
            r#">{path}</a></code></td><td class="change {change}">{change}</td><td>{detail}</td></tr>"#
        )
    };
    for (at, path, change, detail) in [
        (
            alpha,
            "spec.meals[]",
            "removed",
            "[]object, 2 fields under it",
        ),
        (
            alpha,
            "spec.portions[]",
            "added",
            "[]object, required, 3 fields under it",
        ),
        (
            alpha,
            "spec.schedule",
            "added",
            "string, default &quot;Daily&quot;",
        ),
        (beta, "spec.kennelRef", "changed", "type: string → object"),
        (
            beta,
            "spec.portions[].grams",
            "changed",
            "now required; format: int64 → int32",
        ),
        (
            beta,
            "spec.portions[].food",
            "changed",
            "enum: added &quot;Biscuit&quot;",
        ),
        (beta, "spec.refill.threshold", "changed", "default: 5 → 10"),
        (beta, "spec.bowlSize", "removed", "integer"),
        (beta, "status", "added", "object, 1 field under it"),
    ] {
        let section = &main[at..];
        let section = &section[..section[4..].find("<h4").map_or(section.len(), |e| e + 4)];
        assert!(
            section.contains(&row(path, change, detail)),
            "{path} {change}"
        );
    }
    // A field the page draws links to its row; a deeper one to the all-fields page, which
    // the tree's script opens in place.
    assert!(main.contains(r##"<a href="#field-v1beta1-spec-bowlsize">spec.bowlSize</a>"##));
    assert!(main.contains(
        r#"<a class="in-tree" href="/kennel/projects/kennel-operator/api/kennel.example.io/Feeder/all-fields/#field-spec-refill-threshold">"#
    ));
    insta::assert_snapshot!("kennel-feeder-main", main);
    // The all-fields page is the field table alone.
    let all = kennel_page(&out, "api/kennel.example.io/Feeder/all-fields");
    assert!(!all.contains("language-yaml") && !all.contains("Changes between versions"));
}

#[test]
fn kennel_site_checks_clean_and_never_shows_secret_values() {
    let (_dir, out) = kennel_site();
    for (path, bytes) in all_files(&out) {
        let text = String::from_utf8_lossy(&bytes);
        for value in [
            "woof-woof-secret",
            "kibble-1234",
            "c2VjcmV0LWRvZy1yZWdpc3RyeQ==",
        ] {
            assert!(!text.contains(value), "{path} shows {value}");
        }
    }
    for page in ["api", "configuration", "network", "security"] {
        assert!(
            out.join(format!("projects/kennel-operator/{page}/index.html"))
                .is_file(),
            "{page}"
        );
    }
    // The service map and the RBAC graph, drawn from the kennel's manifests.
    for page in ["network", "security"] {
        let html = std::fs::read_to_string(
            out.join(format!("projects/kennel-operator/{page}/index.html")),
        )
        .unwrap();
        insta::assert_snapshot!(format!("kennel-{page}-graph-svg"), svg_of(&html));
    }
    let o = run(bin()
        .arg("check")
        .arg("--config")
        .arg(fixtures().join("kennel.toml")));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

/// One page of the kennel site.
fn kennel_page(out: &Path, page: &str) -> String {
    std::fs::read_to_string(out.join(format!("projects/kennel-operator/{page}/index.html")))
        .unwrap()
}

/// The rows (`<tr id=…>`) of one section of a page, by the section's heading id, up to
/// the next heading.
fn section_rows(html: &str, id: &str) -> Vec<String> {
    let Some(at) = html.find(&format!(r#"<h2 id="{id}""#)) else {
        return Vec::new();
    };
    let rest = &html[at + 4..];
    let section = &rest[..rest.find("<h2").unwrap_or(rest.len())];
    section
        .split(r#"<tr id=""#)
        .skip(1)
        .map(|r| r[..r.find("</tr>").unwrap_or(r.len())].to_string())
        .collect()
}

#[test]
fn kennel_counts_are_the_rows_its_pages_list() {
    let (_dir, out) = kennel_site();
    let portal = read_json(&out.join("data/portal.json"));
    let counts = &portal["projects"][0]["counts"];
    let count = |k: &str| counts[k].as_u64().unwrap() as usize;
    let (network, configuration, security, dataflow) = (
        kennel_page(&out, "network"),
        kennel_page(&out, "configuration"),
        kennel_page(&out, "security"),
        kennel_page(&out, "dataflow"),
    );
    // Own rows: exactly the rows of the project's own tables.
    assert_eq!(count("services"), section_rows(&network, "services").len());
    assert_eq!(
        count("configmaps"),
        section_rows(&configuration, "configmaps").len()
    );
    assert_eq!(count("webhooks"), section_rows(&security, "webhooks").len());
    assert_eq!(count("webhooks"), section_rows(&dataflow, "webhooks").len());
    // Apart: as many as the trailing sections list of that kind.
    let apart = |html: &str, section: &str, what: &str| {
        section_rows(html, section)
            .iter()
            .filter(|r| r.contains(&format!("<td>{what}</td>")))
            .count()
    };
    for (key, html, what) in [
        ("services", &network, "Service"),
        ("configmaps", &configuration, "ConfigMap"),
        ("webhooks", &security, "Webhook"),
    ] {
        assert_eq!(
            counts["samples"][key].as_u64().unwrap() as usize,
            apart(html, "samples", what),
            "{key} in samples"
        );
        assert_eq!(
            counts["bundled"][key].as_u64().unwrap() as usize,
            apart(html, "bundled", what),
            "{key} bundled"
        );
    }
    assert!(counts["bundled"]["webhooks"].as_u64().unwrap() > 0);
    // The home page says the same, with what is listed apart after the count.
    let home = std::fs::read_to_string(out.join("index.html")).unwrap();
    let n = count("webhooks");
    let noun = if n == 1 { "webhook" } else { "webhooks" };
    let webhooks = format!("<li>{n} {noun} <span class=\"apart\"");
    assert!(home.contains(&webhooks), "{webhooks}");
    let bundled = format!("(+{} bundled)</span>", counts["bundled"]["webhooks"]);
    assert!(home.contains(&bundled), "{bundled}");
}

/// A table row as text: tags become `|`, `<wbr>` goes, entities are decoded.
fn row_text(row: &str) -> String {
    let row = row.replace("<wbr>", "");
    let mut out = String::new();
    let mut in_tag = false;
    for c in row.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => {
                in_tag = false;
                if !out.ends_with('|') {
                    out.push('|');
                }
            }
            _ if !in_tag => out.push(c),
            _ => {}
        }
    }
    out.replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

#[test]
fn kennel_availability_rows_flags_budgets_and_autoscalers() {
    let (_dir, out) = kennel_site();
    let configuration = kennel_page(&out, "configuration");
    let rows: Vec<String> = section_rows(&configuration, "availability")
        .iter()
        .map(|r| row_text(r))
        .collect();
    assert_eq!(
        rows,
        [
            // The chart's Deployment: templated resources and a template line writing YAML
            // leave the checks open (?), never flagged as missing.
            "availability-deployment-release-namespace-include-kennel-fullname\">|Deployment (templated)|{{ .Release.Namespace }}|/|{{ include \"kennel.fullname\" . }}|1|manager:\n  resources: templated\n  liveness: none\n  readiness: http /readyz :|{{ .Values.probePort }}|\n  startup: none|? no requests: templated: manager\n? no memory limit: templated: manager\n? no liveness probe: manager: a template line writes YAML that was not rendered|charts/kennel/templates/deployment.yaml:3|Rendered with the chart's default values: {{ .Values.image.repository }} → registry.example.io/kennel-operator; {{ .Values.replicaCount }} → 1|",
            // Nothing set: every flag but the drain one.
            "availability-deployment-kennel-system-kennel-bare\">|Deployment|kennel-system/kennel-bare|2|bare:\n  requests: none\n  limits: none\n  liveness: none\n  readiness: none\n  startup: none|⚠ no requests: bare\n⚠ no memory limit: bare\n⚠ no readiness probe: bare\n⚠ no liveness probe: bare\n⚠ replicas without anti-affinity or spread: 2 replicas\n⚠ no PodDisruptionBudget: 2 replicas|config/availability/bare.yaml:3|",
            // Everything set: no flag.
            "availability-deployment-kennel-system-kennel-api\">|Deployment|kennel-system/kennel-api|3\nHPA kennel-api: 3–6 on resource cpu utilization 70%\nPDB kennel-api: minAvailable 2|api:\n  requests: cpu=250m, memory=128Mi\n  limits: ephemeral-storage=1Gi, memory=256Mi\n  liveness: http /livez :8080 (initialDelaySeconds=10, periodSeconds=15)\n  readiness: tcp :8080\n  startup: grpc :9090 (failureThreshold=30)|anti-affinity preferred weight=100 topologyKey=kubernetes.io/hostname (app=kennel-api)\nspread topologyKey=topology.kubernetes.io/zone maxSkew=1 whenUnsatisfiable=ScheduleAnyway\npriorityClassName kennel-critical|config/availability/full.yaml:3|",
            // One replica by default and minAvailable 1 (a v1beta1 selector expression).
            "availability-deployment-kennel-system-kennel-single\">|Deployment|kennel-system/kennel-single|1 (not written: the default)\nPDB kennel-single: minAvailable 1|single:\n  requests: cpu=50m\n  limits: memory=64Mi\n  liveness: exec cat /tmp/alive\n  readiness: http https /ready :http\n  startup: none|⚠ budget blocks drains: kennel-single (minAvailable 1 with 1 replica)|config/availability/single.yaml:4|",
            // The memory limit comes from the kustomize patch; the JSON 6902 patch of a
            // Service does not make it uncertain.
            "availability-deployment-system-controller-manager\">|Deployment|system/controller-manager\nwith patches config/default/manager_patch.yaml:2|1|manager:\n  requests: none\n  limits: memory=256Mi\n  liveness: none\n  readiness: none\n  startup: none|⚠ no requests: manager\n⚠ no readiness probe: manager\n⚠ no liveness probe: manager|config/manager/manager.yaml:7|config/default/manager_patch.yaml:2|",
        ]
    );
    let budgets: Vec<String> = section_rows(&configuration, "disruption-budgets")
        .iter()
        .map(|r| row_text(r))
        .collect();
    assert_eq!(
        budgets,
        [
            "pdb-kennel-system-kennel-api\">|kennel-system/kennel-api|policy/v1|minAvailable 2|app=kennel-api|Deployment kennel-system/kennel-api|config/availability/full.yaml:57|",
            "pdb-kennel-system-kennel-single\">|kennel-system/kennel-single|policy/v1beta1|minAvailable 1|app In kennel-single|Deployment kennel-system/kennel-single|config/availability/single.yaml:32|",
        ]
    );
    let autoscalers: Vec<String> = section_rows(&configuration, "autoscalers")
        .iter()
        .map(|r| row_text(r))
        .collect();
    assert_eq!(
        autoscalers,
        [
            "hpa-kennel-system-kennel-gone\">|kennel-system/kennel-gone|autoscaling/v1|Deployment kennel-gone|1–4|resource cpu utilization 80%|no workload of the repository|config/availability/bare.yaml:20|",
            "hpa-kennel-system-kennel-api\">|kennel-system/kennel-api|autoscaling/v2|Deployment kennel-api|3–6|resource cpu utilization 70%|Deployment kennel-system/kennel-api|config/availability/full.yaml:68|",
        ]
    );
    // The bundled Istio Deployment is listed apart, not in the project's own table.
    assert!(
        section_rows(&configuration, "bundled")
            .iter()
            .any(|r| r.starts_with("availability-deployment-kennel-istio-system-istiod"))
    );
    // The platform chart counts the flagged own workloads, with the numbers in a table.
    let architecture =
        std::fs::read_to_string(out.join("platform/architecture/index.html")).unwrap();
    let flags: Vec<String> = section_rows(&architecture, "availability-flags")
        .iter()
        .map(|r| row_text(r))
        .map(|r| {
            r.split('|')
                .skip(1)
                .filter(|c| !c.is_empty())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    assert_eq!(
        flags,
        [
            "kennel-operator no requests 2",
            "kennel-operator no memory limit 1",
            "kennel-operator no readiness probe 2",
            "kennel-operator no liveness probe 2",
            "kennel-operator replicas without anti-affinity or spread 1",
            "kennel-operator no PodDisruptionBudget 1",
            "kennel-operator budget blocks drains 1",
        ]
    );
    let at = architecture
        .find(r#"<svg xmlns="http://www.w3.org/2000/svg" class="chart""#)
        .unwrap();
    let chart = &architecture[at..at + architecture[at..].find("</svg>").unwrap() + 6];
    insta::assert_snapshot!("kennel-availability-chart-svg", chart);
}

#[test]
fn kennel_helm_values_rendered_with_the_chart_defaults_and_marked() {
    let (_dir, out) = kennel_site();
    let network = kennel_page(&out, "network");
    let services = section_rows(&network, "services");
    let pup = services
        .iter()
        .find(|r| r.contains("pup-api"))
        .expect("the pup's Service, named through the chart's name helper");
    // values.yaml's port, the template's default for an empty value, the value when the
    // documentation claims another default; not inside `with`, where `.` is not the root.
    for port in [
        "8080/<wbr>TCP (api)",
        "9090/<wbr>TCP (metrics)",
        "8081/<wbr>TCP (admin)",
    ] {
        assert!(pup.contains(port), "{port} in {pup}");
    }
    assert!(pup.contains(
        r#"<code class="template" title="Template text, not rendered">{{ .Values.service.port }}</code>/<wbr>TCP (extra)"#
    ));
    // The namespace depends on the release: shown as a template, never as a name.
    assert!(pup.contains(
        r#"<code class="template" title="Template text, not rendered">{{ .Release.Namespace }}</code>"#
    ));
    // Marked as rendered, with what each value came from.
    assert!(
        pup.contains(
            r#"<span class="rendered-note">Rendered with the chart&#39;s default values: "#
        )
    );
    assert!(pup.contains("{{ .Values.service.port | default 9000 }} → 8080"));
    // A named template of a `file://` dependency, with the value the subchart's values
    // give under the dependency's key (the chart's own values have none).
    let treats = services.iter().find(|r| r.contains(">treats<")).unwrap();
    assert!(treats.contains("7171/<wbr>TCP (http)"), "{treats}");
    assert!(treats.contains("{{ .Values.treats.port | default 7070 }} → 7171"));
    // A release-specific helper is not rendered: the Role keeps its template.
    let security = kennel_page(&out, "security");
    assert!(security.contains(
        r#"<code class="template" title="Template text, not rendered">{{ include &quot;pup.fullname&quot; . }}</code>-reader"#
    ));
}

#[test]
fn kennel_one_row_per_service_account_merged_only_through_kustomize() {
    let (_dir, out) = kennel_site();
    let security = kennel_page(&out, "security");
    let accounts = section_rows(&security, "service-accounts");
    let probers: Vec<&String> = accounts.iter().filter(|r| r.contains("prober")).collect();
    assert_eq!(probers.len(), 1, "{probers:?}");
    let prober = probers[0];
    assert!(prober.starts_with(r#"serviceaccount-kennel-monitoring-prober""#));
    assert!(prober.contains("kennel-monitoring/<wbr>prober\n(written without a namespace; namespace kennel-monitoring from the kustomization config/<wbr>monitoring)"));
    // Both bindings, the one written without a namespace and the one with it, grant it;
    // the one naming another namespace does not.
    assert!(prober.contains("prober-metrics → ClusterRole/<wbr>manager-role"));
    assert!(prober.contains("prober-view → ClusterRole/<wbr>view"));
    assert!(!prober.contains("prober-elsewhere"));
    let bindings = section_rows(&security, "role-bindings");
    let elsewhere = bindings
        .iter()
        .find(|r| r.contains("prober-elsewhere"))
        .unwrap();
    assert!(elsewhere.contains("ServiceAccount elsewhere/<wbr>prober"));
    // The RBAC graph has one node for the account.
    let svg = svg_of(&security);
    assert_eq!(
        svg.matches(">kennel-monitoring/prober<").count(),
        1,
        "{svg}"
    );
    assert!(!svg.contains(">prober<"));
}

// ---- git sources -------------------------------------------------------------------

/// An upstream repository with the widget operator at tag v1 and one more commit after it.
fn upstream(dir: &Path) -> (PathBuf, String, String) {
    let repo = dir.join("upstream");
    copy_dir(&fixtures().join("widget-operator"), &repo);
    git(&repo, &["init", "-q", "-b", "main"]);
    git(&repo, &["config", "uploadpack.allowFilter", "true"]);
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-q", "-m", "v1"]);
    git(&repo, &["tag", "v1"]);
    let v1 = git(&repo, &["rev-parse", "HEAD"]);
    std::fs::remove_file(repo.join("internal/controller/gizmo_controller.go")).unwrap();
    git(&repo, &["commit", "-q", "-am", "drop gizmo"]);
    let head = git(&repo, &["rev-parse", "HEAD"]);
    (repo, v1, head)
}

fn git_config(dir: &Path, url: &str, rev: &str) -> PathBuf {
    let file = dir.join("projects.toml");
    std::fs::write(
        &file,
        format!("[[project]]\nname = \"widget\"\ngit = \"{url}\"\nrev = \"{rev}\"\n"),
    )
    .unwrap();
    file
}

#[test]
fn git_sources_clone_pin_and_work_offline() {
    let dir = tempfile::tempdir().unwrap();
    let (repo, v1, head) = upstream(dir.path());
    let url = format!("file://{}", repo.display());
    let out = dir.path().join("site");

    // A tag pins the older commit: two controllers' files present.
    let config = git_config(dir.path(), &url, "v1");
    let o = run(bin()
        .arg("build")
        .arg("--config")
        .arg(&config)
        .arg("--out")
        .arg(&out));
    assert!(o.status.success());
    let model = read_json(&out.join("data/widget.json"));
    assert_eq!(model["commit"], v1.as_str());
    assert_eq!(model["controllers"].as_array().unwrap().len(), 3);
    assert!(
        dir.path().join(".portolan/repos/widget/.git").is_dir(),
        "clone in cache_dir"
    );

    // A commit id already in the clone: works offline, no fetch needed.
    let config = git_config(dir.path(), &url, &head);
    let o = run(bin()
        .arg("build")
        .arg("--offline")
        .arg("--config")
        .arg(&config)
        .arg("--out")
        .arg(&out));
    assert!(o.status.success());
    let model = read_json(&out.join("data/widget.json"));
    assert_eq!(model["commit"], head.as_str());
    assert_eq!(model["controllers"].as_array().unwrap().len(), 2);

    // A revision that exists nowhere: one clear line naming the project.
    let config = git_config(dir.path(), &url, "no-such-rev");
    let o = run(bin()
        .arg("build")
        .arg("--config")
        .arg(&config)
        .arg("--out")
        .arg(&out));
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("project `widget`: unknown revision `no-such-rev`"),
        "{}",
        stderr(&o)
    );

    // Offline and a revision the cache lacks: fails without touching the network.
    let o = run(bin()
        .arg("build")
        .arg("--offline")
        .arg("--config")
        .arg(&config)
        .arg("--out")
        .arg(&out));
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains(
        "project `widget`: --offline and revision `no-such-rev` is not in the cached clone"
    ));
}

#[test]
fn git_sources_fetch_a_revision_missing_from_the_cache() {
    let dir = tempfile::tempdir().unwrap();
    let (repo, _, _) = upstream(dir.path());
    let url = format!("file://{}", repo.display());
    let out = dir.path().join("site");
    let o = run(bin()
        .arg("build")
        .arg("--config")
        .arg(git_config(dir.path(), &url, "main"))
        .arg("--out")
        .arg(&out));
    assert!(o.status.success());

    // Upstream moves on; a pinned commit the cache has never seen is fetched.
    std::fs::write(repo.join("NEW.md"), "new\n").unwrap();
    git(&repo, &["add", "NEW.md"]);
    git(&repo, &["commit", "-q", "-m", "new"]);
    let newest = git(&repo, &["rev-parse", "HEAD"]);
    let o = run(bin()
        .arg("build")
        .arg("--config")
        .arg(git_config(dir.path(), &url, &newest))
        .arg("--out")
        .arg(&out));
    assert!(o.status.success());
    assert_eq!(
        read_json(&out.join("data/widget.json"))["commit"],
        newest.as_str()
    );
}

#[test]
fn offline_without_a_clone_and_a_failed_clone_fail_clearly() {
    let dir = tempfile::tempdir().unwrap();
    let config = git_config(
        dir.path(),
        &format!("file://{}/nothing-here", dir.path().display()),
        "main",
    );
    let o = run(bin()
        .arg("build")
        .arg("--offline")
        .arg("--config")
        .arg(&config));
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("project `widget`: --offline and no clone in the cache"),
        "{}",
        stderr(&o)
    );
    // It says how to work without the network: a clone made elsewhere, as `path =`.
    assert!(stderr(&o).contains("`path = \"DIR\"`"), "{}", stderr(&o));

    let o = run(bin().arg("build").arg("--config").arg(&config));
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains("project `widget`: cannot clone file://"),
        "{err}"
    );
    assert!(
        err.contains("help: git runs with your configuration"),
        "{err}"
    );
    assert!(err.contains("`path = \"../checkout\"`"), "{err}");
    // With every source failed there is nothing to analyze or render: no stage says so.
    for stage in ["analyzing", "rendering", "indexing"] {
        assert!(!err.contains(&format!("portolan: {stage}")), "{err}");
    }
}

#[test]
fn a_missing_git_binary_is_one_clear_line() {
    let dir = tempfile::tempdir().unwrap();
    let config = git_config(dir.path(), "https://github.com/example/widget", "main");
    let empty_path = dir.path().join("no-tools");
    std::fs::create_dir_all(&empty_path).unwrap();
    let o = run(bin()
        .arg("build")
        .arg("--config")
        .arg(&config)
        .env("PATH", &empty_path));
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("project `widget`: cannot clone https://github.com/example/widget: the `git` command is not installed or not on PATH"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn malformed_and_deeply_nested_rust_give_diagnostics() {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("broken-rust");
    std::fs::create_dir_all(repo.join("src")).unwrap();
    std::fs::write(repo.join("src/half.rs"), "fn cut() {\n    let x = (1,\n").unwrap();
    std::fs::write(repo.join("src/syntax.rs"), "fn f() {\n    let = ;\n}\n").unwrap();
    let deep = format!(
        "fn f() {{ let x = {}1{}; }}\n",
        "(".repeat(20_000),
        ")".repeat(20_000)
    );
    std::fs::write(repo.join("src/deep.rs"), deep).unwrap();
    let bangs = format!("fn f() -> bool {{ {}true }}\n", "!".repeat(20_000));
    std::fs::write(repo.join("src/bangs.rs"), bangs).unwrap();
    let o = run(bin().arg("analyze").arg(&repo));
    assert!(o.status.success(), "{}", stderr(&o));
    let model: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let diagnostics = diagnostics(&model);
    assert_eq!(
        diagnostics,
        [
            "src/bangs.rs:1: Rust file not analyzed: more than 96 operators in a row; the parser would recurse once per level",
            "src/deep.rs:1: Rust file not analyzed: brackets nested deeper than 96; the parser would recurse once per level",
            "src/half.rs:2: Rust file not analyzed: cannot parse string into token stream",
            "src/syntax.rs:2: Rust syntax error: expected one of: identifier, `::`, `<`, `_`, literal, `const`, `ref`, `mut`, `&`, parentheses, square brackets, `..`, `const`",
        ]
    );
}

#[test]
fn malformed_go_is_analyzed_with_diagnostics() {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("broken-go");
    copy_dir(&fixtures().join("broken-go"), &repo);
    let mut deep = String::from("package pkg\n\nvar Deep = ");
    deep.push_str(&"(".repeat(20_000));
    deep.push('1');
    deep.push_str(&")".repeat(20_000));
    deep.push('\n');
    std::fs::write(repo.join("pkg/deep.go"), deep).unwrap();
    // Deep nesting inside a function body, where every feature looks at calls.
    let mut nested = String::from("package pkg\n\nfunc nested() {\n\t_ = ");
    nested.push_str(&"f(".repeat(20_000));
    nested.push_str(&")".repeat(20_000));
    nested.push_str("\n}\n");
    std::fs::write(repo.join("pkg/nested.go"), nested).unwrap();
    let mut big = String::from("// Code generated by a test. DO NOT EDIT.\n\npackage pkg\n\n");
    let mut i: u32 = 0;
    while big.len() < 3 * 1024 * 1024 {
        big.push_str(&format!(
            "const Generated{i} = \"value-{i}\" + Generated{prev}\n",
            prev = i.saturating_sub(1)
        ));
        i += 1;
    }
    std::fs::write(repo.join("pkg/zz_generated.go"), big).unwrap();

    let o = run(bin().arg("analyze").arg(&repo));
    assert!(o.status.success());
    let model: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let diagnostics: Vec<String> = model["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| format!("{}:{}", d["file"].as_str().unwrap(), d["line"]))
        .collect();
    for file in ["pkg/syntax.go", "pkg/unterminated.go", "pkg/notgo.go"] {
        assert!(
            diagnostics.iter().any(|d| d.starts_with(file)),
            "{file} has a diagnostic: {diagnostics:?}"
        );
    }
    assert!(
        !diagnostics
            .iter()
            .any(|d| d.starts_with("pkg/zz_generated.go")),
        "{diagnostics:?}"
    );
    assert_eq!(model["stats"]["go_files"], 6);
    // The recovered part of the cut-off builder is still reported.
    let watches = &model["controllers"][0]["watches"];
    assert_eq!(watches[0]["kind"], "Pod");
}

#[test]
fn init_writes_a_starter_that_builds_and_never_overwrites() {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("widget-operator");
    copy_dir(&fixtures().join("widget-operator"), &repo);
    let portal = dir.path().join("portal");
    std::fs::create_dir(&portal).unwrap();
    let config = portal.join("projects.toml");
    let o = run(bin().arg("init").arg("--config").arg(&config).arg(&repo));
    assert!(o.status.success(), "{}", stderr(&o));
    let toml = std::fs::read_to_string(&config).unwrap();
    assert!(toml.contains("name = \"widget-operator\"\n"), "{toml}");
    assert!(toml.contains("path = \"../widget-operator\"\n"), "{toml}");
    let index = std::fs::read_to_string(portal.join("content/index.md")).unwrap();
    assert!(index.contains("(/projects/widget-operator/)"), "{index}");
    // What init wrote builds, and the home page links the project.
    let o = run(bin().arg("build").arg("-q").arg("--config").arg(&config));
    assert!(o.status.success(), "{}", stderr(&o));
    let home = std::fs::read_to_string(portal.join("site/index.html")).unwrap();
    assert!(home.contains("/projects/widget-operator/"));
    // A second init refuses (exit 2) and leaves both files as they were.
    std::fs::write(&config, "# edited\n".to_string() + &toml).unwrap();
    let o = run(bin().arg("init").arg("--config").arg(&config));
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("already exists"), "{}", stderr(&o));
    assert!(
        std::fs::read_to_string(&config)
            .unwrap()
            .starts_with("# edited\n")
    );
}

/// The kennel's managers, options and memory risks exactly as EXPECTED.md lists them, and
/// the pages that show them.
#[test]
fn kennel_manager_rows() {
    let (_dir, out) = kennel_site();
    let model = read_json(&out.join("data/kennel-operator.json"));
    let at = |v: &serde_json::Value| {
        format!(
            "{}:{}",
            v["file"].as_str().unwrap(),
            v["line"].as_u64().unwrap()
        )
    };
    let managers = model["managers"].as_array().unwrap();
    let summary: Vec<String> = managers
        .iter()
        .map(|m| {
            format!(
                "{} {} {:?} {}",
                at(&m["sources"][0]),
                m["cache_unknown"].as_str().unwrap_or(""),
                m["controllers"],
                m["deployment"].as_str().unwrap_or("")
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            "cmd/manager/main.go:48  Array [String(\"kennel\")] Deployment controller-manager, container manager: its command runs the program's binary",
            "cmd/sweeper/main.go:14  Array [String(\"sweeper\")] not matched: no container's command runs `sweeper`, and the project has several managers or workload containers",
        ]
    );
    let options: Vec<String> = managers[0]["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| {
            let kind = o["object"]["kind"].as_str().unwrap_or("");
            format!(
                "{} {} ns={} = {} flag={} when={} @{}",
                o["name"].as_str().unwrap(),
                kind,
                o["namespace"].as_str().unwrap_or("-"),
                o["value"].as_str().unwrap(),
                o["flag"]["name"].as_str().unwrap_or("-"),
                o["condition"].as_str().unwrap_or(""),
                at(&o["sources"][0])
            )
        })
        .collect();
    assert_eq!(
        options,
        [
            "Metrics.BindAddress  ns=- = :8443 flag=metrics-bind-address when= @cmd/manager/main.go:32",
            "HealthProbeBindAddress  ns=- = :8081 flag=health-probe-bind-address when= @cmd/manager/main.go:33",
            "LeaderElection  ns=- = false flag=leader-elect when= @cmd/manager/main.go:34",
            "LeaderElectionID  ns=- = kennel.kennel.example.io flag=leader-election-id when= @cmd/manager/main.go:35",
            "LeaseDuration  ns=- = 30s flag=- when= @cmd/manager/main.go:36",
            "WebhookServer.Port  ns=- = 9443 flag=- when= @cmd/manager/main.go:37",
            "Client.Cache.DisableFor ConfigMap ns=- =  flag=- when= @cmd/manager/main.go:39",
            "Cache.SyncPeriod  ns=- = 10h0m0s flag=- when= @internal/setup/cache.go:23",
            "Cache.DefaultTransform  ns=- = cache.TransformStripManagedFields() (strips managedFields) flag=- when= @internal/setup/cache.go:24",
            "Cache.ByObject.Label Secret ns=- = app.kubernetes.io/part-of=kennel flag=- when= @internal/setup/cache.go:26",
            "Cache.DefaultNamespaces  ns=kennels =  flag=watch-namespace when= @cmd/manager/main.go:43",
            "PprofBindAddress  ns=- =  flag=pprof-bind-address when=if pprofAddr != \"\" @cmd/manager/main.go:45",
        ]
    );
    let risks: Vec<String> = model["memory_risks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let evidence: Vec<String> = r["evidence"].as_array().unwrap().iter().map(at).collect();
            format!(
                "{} {} {} {}",
                r["type"].as_str().unwrap(),
                r["manager"]["file"].as_str().unwrap_or("-"),
                r["kind"]["kind"].as_str().unwrap_or("-"),
                evidence.join(",")
            )
        })
        .collect();
    assert_eq!(
        risks,
        [
            // config/default's manager_patch.yaml sets the memory limit; the risk names
            // the patch with the Deployment.
            "no_go_mem_limit cmd/manager/main.go - config/default/manager_patch.yaml:2,config/manager/manager.yaml:7,cmd/manager/main.go:48",
            "cluster_wide_kind cmd/sweeper/main.go ConfigMap internal/sweeper/sweeper_controller.go:30,cmd/sweeper/main.go:14",
            "cluster_wide_kind cmd/sweeper/main.go Node internal/sweeper/sweeper_controller.go:31,cmd/sweeper/main.go:14",
            "no_transform cmd/sweeper/main.go - cmd/sweeper/main.go:14",
            "informer_outside_cache - Event internal/sweeper/sweeper_controller.go:38",
        ]
    );
    // The configuration page, the sweeper's page and the platform page show them.
    let configuration = kennel_page(&out, "configuration");
    assert_eq!(section_rows(&configuration, "managers").len(), 2);
    assert_eq!(section_rows(&configuration, "manager-options").len(), 14);
    assert_eq!(section_rows(&configuration, "memory-risks").len(), 5);
    let sweeper = std::fs::read_to_string(
        out.join("projects/kennel-operator/controllers/sweeper/index.html"),
    )
    .unwrap();
    assert_eq!(section_rows(&sweeper, "cache-manager").len(), 1);
    // Its two kinds, and its manager's missing transform; not the other manager's risks.
    assert_eq!(section_rows(&sweeper, "cache-risks").len(), 3);
    let platform = std::fs::read_to_string(out.join("platform/cache/index.html")).unwrap();
    assert_eq!(section_rows(&platform, "memory-risks").len(), 5);
}

#[test]
fn each_command_lists_only_its_own_flags_with_an_example() {
    let help = |command: &str| {
        let o = run(bin().args([command, "--help"]));
        assert!(o.status.success());
        String::from_utf8_lossy(&o.stdout).to_string()
    };
    for command in [
        "init", "build", "check", "serve", "search", "diff", "analyze",
    ] {
        assert!(
            help(command).contains("Example"),
            "{command} --help has no example"
        );
    }
    let search = help("search");
    assert!(
        !search.contains("--keep-going") && !search.contains("--out"),
        "{search}"
    );
    let analyze = help("analyze");
    assert!(
        !analyze.contains("--config") && !analyze.contains("--offline"),
        "{analyze}"
    );
    assert!(
        !analyze.contains("parse-only"),
        "a benchmark flag, hidden: {analyze}"
    );
    let check = help("check");
    assert!(
        !check.contains("--out") && !check.contains("--keep-going"),
        "{check}"
    );
    assert!(help("build").contains("Write the site even if a project failed"));
    assert!(help("serve").contains("Serve the site even if a project failed"));
    // A flag another command takes is a usage error, named.
    let o = run(bin().args(["search", "x", "--keep-going"]));
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--keep-going"), "{}", stderr(&o));
}
