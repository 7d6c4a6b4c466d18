//! `portolan diff` and `compare = […]` on a repository the test builds with git: the
//! sprocket operator at tag v1 (`tests/fixtures/revisions/sprocket-v1`) and at tag v2
//! (`sprocket-v2`), with `cog-watcher` beside it in the portal using two of its kinds.
//! v2 exercises every change class: CRDs removed, added, re-scoped; versions removed, no
//! longer served, a new storage version; fields removed, retyped, newly required, an enum
//! value removed, a pattern changed, a limit tightened and one loosened, a new CEL rule, an
//! optional field added, a description changed; a renamed controller file, lines moved,
//! flags added, removed and with a new default, an environment variable, a route, a
//! watch, a write, RBAC verbs, a webhook's failure policy, a Service port, an image tag, a
//! dependency version.

mod common;

use std::path::Path;

use common::{copy_dir, fixtures, git, portolan, run, stderr};

/// The sprocket operator's repository at `dir`: v1, then v2 (tags `v1` and `v2`), with
/// the v2 files checked out.
fn sprocket_repo(dir: &Path) {
    let trees = fixtures().join("revisions");
    copy_dir(&trees.join("sprocket-v1"), dir);
    git(dir, &["init", "-q", "-b", "main"]);
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", "v1"]);
    git(dir, &["tag", "v1"]);
    git(dir, &["rm", "-r", "-q", "."]);
    copy_dir(&trees.join("sprocket-v2"), dir);
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", "v2"]);
    git(dir, &["tag", "v2"]);
}

/// A portal folder: the sprocket repository (as `path = "sprocket"`), the watcher, and
/// projects.toml with `extra` added to the sprocket project's table.
fn portal(extra: &str) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    sprocket_repo(&tmp.path().join("sprocket"));
    copy_dir(
        &fixtures().join("revisions/cog-watcher"),
        &tmp.path().join("cog-watcher"),
    );
    std::fs::write(
        tmp.path().join("projects.toml"),
        format!(
            "[site]\ntitle = \"Gears\"\n\n[[project]]\nname = \"sprocket-operator\"\npath = \"sprocket\"\n{extra}\n\n[[project]]\nname = \"cog-watcher\"\npath = \"cog-watcher\"\n"
        ),
    )
    .unwrap();
    tmp
}

fn diff(dir: &Path, args: &[&str]) -> std::process::Output {
    run(portolan().current_dir(dir).args(["diff", "-q"]).args(args))
}

fn stdout(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).to_string()
}

#[test]
fn diff_in_three_formats_with_exit_codes() {
    let tmp = portal("");
    let dir = tmp.path();
    let head_before = git(&dir.join("sprocket"), &["rev-parse", "HEAD"]);

    let text = diff(dir, &["sprocket-operator", "--from", "v1"]);
    assert_eq!(text.status.code(), Some(0));
    insta::assert_snapshot!("diff-text", stdout(&text));

    let markdown = diff(
        dir,
        &["sprocket-operator", "--from", "v1", "--format", "markdown"],
    );
    assert_eq!(markdown.status.code(), Some(0));
    insta::assert_snapshot!("diff-markdown", stdout(&markdown));

    let json = diff(dir, &["sprocket-operator", "--from", "v1", "--json"]);
    assert_eq!(json.status.code(), Some(0));
    let value: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    insta::assert_json_snapshot!("diff-json", value);
    assert_eq!(value["breaking"], 12, "every breaking class of the fixture");

    // The gate: breaking changes fail it; the same revision has none.
    let gate = diff(
        dir,
        &["sprocket-operator", "--from", "v1", "--fail-on", "breaking"],
    );
    assert_eq!(gate.status.code(), Some(1));
    let same = diff(
        dir,
        &[
            "sprocket-operator",
            "--from",
            "v2",
            "--to",
            "v2",
            "--fail-on",
            "any",
        ],
    );
    assert_eq!(same.status.code(), Some(0));
    assert!(stdout(&same).contains("no changes"), "{}", stdout(&same));
    let backwards = diff(
        dir,
        &[
            "sprocket-operator",
            "--from",
            "v2",
            "--to",
            "v1",
            "--fail-on",
            "any",
        ],
    );
    assert_eq!(backwards.status.code(), Some(1));

    // Mistakes are usage errors (2), named.
    let unknown = diff(dir, &["sprocket-operator", "--from", "no-such-tag"]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(stderr(&unknown).contains("unknown revision `no-such-tag`"));
    let nobody = diff(dir, &["nobody", "--from", "v1"]);
    assert_eq!(nobody.status.code(), Some(2));
    assert!(stderr(&nobody).contains("there is no project `nobody`"));
    let option = diff(
        dir,
        &["sprocket-operator", "--from", "--upload-pack=touch x"],
    );
    assert_ne!(option.status.code(), Some(0));
    assert!(!dir.join("sprocket/x").exists() && !dir.join("x").exists());

    // The repository is as it was: same HEAD, nothing staged or changed, no worktree, and
    // no temporary tree left in the cache.
    let repo = dir.join("sprocket");
    assert_eq!(git(&repo, &["rev-parse", "HEAD"]), head_before);
    assert_eq!(git(&repo, &["status", "--porcelain"]), "");
    assert_eq!(git(&repo, &["worktree", "list"]).lines().count(), 1);
    let left: Vec<_> = std::fs::read_dir(dir.join(".portolan/revisions"))
        .unwrap()
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn two_model_files_compare_like_two_revisions() {
    let tmp = portal("");
    let dir = tmp.path();
    for (name, tree) in [("old", "sprocket-v1"), ("new", "sprocket-v2")] {
        let out = run(portolan()
            .arg("analyze")
            .arg(fixtures().join("revisions").join(tree))
            .arg("--out")
            .arg(dir.join(format!("{name}.json"))));
        assert!(out.status.success());
    }
    let models = diff(
        dir,
        &[
            "sprocket-operator",
            "--from-model",
            "old.json",
            "--to-model",
            "new.json",
            "--json",
        ],
    );
    assert_eq!(models.status.code(), Some(0), "{}", stderr(&models));
    let revisions = diff(dir, &["sprocket-operator", "--from", "v1", "--json"]);
    let changes = |o: &std::process::Output| {
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        v["changes"].clone()
    };
    // The same rows, consumers included (the watcher is looked up in projects.toml).
    assert_eq!(changes(&models), changes(&revisions));
}

#[test]
fn compare_gives_changes_pages_cached_by_commit() {
    let tmp = tempfile::tempdir().unwrap();
    let upstream = tmp.path().join("upstream");
    sprocket_repo(&upstream);
    let dir = tmp.path().join("portal");
    copy_dir(
        &fixtures().join("revisions/cog-watcher"),
        &dir.join("cog-watcher"),
    );
    std::fs::write(
        dir.join("projects.toml"),
        format!(
            "[site]\ntitle = \"Gears\"\n\n[[project]]\nname = \"sprocket-operator\"\ngit = \"file://{}\"\nrev = \"v2\"\ncompare = [\"v1\"]\n\n[[project]]\nname = \"cog-watcher\"\npath = \"cog-watcher\"\n",
            upstream.display()
        ),
    )
    .unwrap();
    let build = || {
        run(portolan()
            .current_dir(&dir)
            .args(["build", "--out"])
            .arg(dir.join("site")))
    };
    let first = build();
    assert!(first.status.success(), "{}", stderr(&first));
    let page =
        std::fs::read_to_string(dir.join("site/projects/sprocket-operator/changes/index.html"))
            .unwrap();
    for expected in [
        "v1 (",
        "12 breaking",
        "storage version: v1beta1 → v1",
        "cog-watcher: controller audit watches (for)",
        "maxLength: 63 → 32",
        "--sync-period",
    ] {
        assert!(page.contains(expected), "{expected} missing");
    }
    // Rows link to their page and to both commits.
    let v1 = git(&upstream, &["rev-parse", "v1"]);
    assert!(
        page.contains("href=\"/projects/sprocket-operator/api/sprockets.example.io/Sprocket/\"")
    );
    let across = std::fs::read_to_string(dir.join("site/changes/index.html")).unwrap();
    assert!(across.contains("Comparisons") && across.contains("sprocket-operator"));
    let index = std::fs::read_to_string(dir.join("site/index.html")).unwrap();
    assert!(
        index.contains("href=\"/changes/\""),
        "the sidebar links the changes page"
    );
    // The earlier revision's analysis is cached by commit: the next build does nothing.
    let cached: Vec<String> = std::fs::read_dir(dir.join(".portolan/analysis"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .collect();
    assert!(
        cached
            .iter()
            .any(|n| n.starts_with(&format!("sprocket-operator.{v1}-"))),
        "{cached:?}"
    );
    let second = build();
    assert!(second.status.success());
    assert!(
        stderr(&second).contains("nothing changed"),
        "{}",
        stderr(&second)
    );
    // Every link and anchor of the changes pages resolves (`check` verifies them all).
    let check = run(portolan().current_dir(&dir).arg("check"));
    assert!(stderr(&check).contains("check: ok"), "{}", stderr(&check));
}

#[test]
fn compare_is_refused_for_a_model_and_for_a_bad_revision() {
    let tmp = tempfile::tempdir().unwrap();
    for (extra, message) in [
        (
            "model = \"m.json\"\ncompare = [\"v1\"]",
            "`compare` needs a `git` or `path` source",
        ),
        (
            "path = \".\"\ncompare = [\"--orphan\"]",
            "is not a branch, tag or commit id",
        ),
        (
            "path = \".\"\ncompare = [\"v1\", \"v1\"]",
            "`v1` is listed twice",
        ),
    ] {
        std::fs::write(
            tmp.path().join("projects.toml"),
            format!("[[project]]\nname = \"p\"\n{extra}\n"),
        )
        .unwrap();
        let out = run(portolan().current_dir(tmp.path()).arg("check"));
        assert_eq!(out.status.code(), Some(2));
        assert!(stderr(&out).contains(message), "{}", stderr(&out));
    }
}

#[test]
fn a_revision_that_cannot_be_compared_is_a_warning_for_build_and_a_problem_for_check() {
    let tmp = portal("compare = [\"v1\", \"no-such-tag\"]");
    let dir = tmp.path();
    let check = run(portolan().current_dir(dir).arg("check"));
    assert_eq!(check.status.code(), Some(1));
    assert!(
        stderr(&check).contains("not compared: sprocket-operator at no-such-tag: project `sprocket-operator` at `no-such-tag`: unknown revision"),
        "{}",
        stderr(&check)
    );
    let build = run(portolan()
        .current_dir(dir)
        .args(["build", "--out"])
        .arg(dir.join("site")));
    assert!(build.status.success(), "{}", stderr(&build));
    assert!(stderr(&build).contains("warning: not compared: sprocket-operator at no-such-tag"));
    let page =
        std::fs::read_to_string(dir.join("site/projects/sprocket-operator/changes/index.html"))
            .unwrap();
    assert!(page.contains("Not compared with no-such-tag"));
    assert!(
        page.contains("Breaking changes since v1"),
        "the other revision is there"
    );
}
