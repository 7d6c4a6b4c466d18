//! The analysis cache through the real binary: a second build loads unchanged projects
//! from `cache_dir` and renders the same bytes; a build with nothing changed writes
//! nothing; an edited file, a changed output folder or a newer cache entry are noticed.

use std::path::Path;
use std::process::Output;

mod common;
use common::{all_files, portal_copy};

fn build(dir: &Path, out: &str) -> Output {
    let o = common::portolan()
        .args(["build", "--config"])
        .arg(dir.join("portal.toml"))
        .arg("--out")
        .arg(dir.join(out))
        .output()
        .unwrap();
    eprintln!("{}", String::from_utf8_lossy(&o.stderr));
    assert!(o.status.success());
    o
}

fn analyzed(o: &Output) -> String {
    let text = String::from_utf8_lossy(&o.stderr).to_string();
    text.lines()
        .find_map(|l| l.strip_prefix("portolan: analyzing "))
        .unwrap_or("no files")
        .to_string()
}

fn unchanged(o: &Output) -> bool {
    String::from_utf8_lossy(&o.stderr).contains("nothing changed;")
}

#[test]
fn cached_projects_render_the_same_site() {
    let dir = portal_copy();

    let cold = build(dir.path(), "a");
    // 41, six images-and-builds files of widget-operator (two Dockerfiles, a
    // kustomization, a Job, a chart's Chart.yaml and values.yaml), gadget-scheduler's
    // Dockerfile and two status-condition Go files, and kube-operator's upstream.rs.
    assert_eq!(analyzed(&cold), "51 files");
    assert!(!unchanged(&cold));
    assert!(dir.path().join(".portolan/analysis").is_dir());

    // Nothing changed: nothing analyzed, rendered or written.
    let noop = build(dir.path(), "a");
    assert_eq!(analyzed(&noop), "0 files");
    assert!(unchanged(&noop));

    // Another output folder: rendered from the cached projects, byte for byte the same.
    let other = build(dir.path(), "b");
    assert_eq!(analyzed(&other), "0 files");
    assert!(!unchanged(&other));
    assert_eq!(
        all_files(&dir.path().join("a")),
        all_files(&dir.path().join("b"))
    );

    // A file of the written site changed: written again.
    std::fs::write(dir.path().join("a/index.html"), "tampered").unwrap();
    assert!(!unchanged(&build(dir.path(), "a")));
    assert_eq!(
        all_files(&dir.path().join("a")),
        all_files(&dir.path().join("b"))
    );

    // A Go file edited: only its project is analyzed again, and the page shows it.
    let go = dir
        .path()
        .join("widget-operator/internal/controller/gizmo_controller.go");
    let text = std::fs::read_to_string(&go).unwrap();
    std::fs::write(
        &go,
        text.replace("Named(\"gizmo\")", "Named(\"gizmo-cached\")"),
    )
    .unwrap();
    let edited = build(dir.path(), "a");
    assert_eq!(
        analyzed(&edited),
        "29 files",
        "widget-operator's files only (23 and the six above)"
    );
    let page = std::fs::read_to_string(
        dir.path()
            .join("a/projects/widget-operator/dataflow/index.html"),
    )
    .unwrap();
    assert!(page.contains("gizmo-cached"));

    // A content page edited: rendered again, nothing analyzed.
    let about = dir.path().join("atlas-content/about.md");
    let text = std::fs::read_to_string(&about).unwrap();
    std::fs::write(&about, text + "\nAdded after the cache.\n").unwrap();
    let content = build(dir.path(), "a");
    assert_eq!(analyzed(&content), "0 files");
    assert!(!unchanged(&content));
    assert!(
        std::fs::read_to_string(dir.path().join("a/about/index.html"))
            .unwrap()
            .contains("Added after the cache.")
    );
}
