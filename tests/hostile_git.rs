//! A hostile `projects.toml` against git sources: a revision or URL that git or ssh would
//! read as an option is a config error before any git command runs, a protocol the config
//! cannot name is refused by git even through a URL rewrite, and a changed `git =` URL is
//! cloned anew instead of reusing the old repository. Every repository is one the test
//! makes and clones over file://, so nothing reaches the network.

use std::path::{Path, PathBuf};
use std::process::Output;

mod common;
use common::portolan as bin;
use common::{git, run, stderr};

/// A repository with one commit holding `readme`; returns its file:// URL and the commit.
fn upstream(dir: &Path, readme: &str) -> (String, String) {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join("README.md"), readme).unwrap();
    git(dir, &["init", "-q", "-b", "main"]);
    git(dir, &["config", "uploadpack.allowFilter", "true"]);
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", "one"]);
    let commit = git(dir, &["rev-parse", "HEAD"]);
    (format!("file://{}", dir.display()), commit)
}

/// projects.toml with one git project: `git` on line 3, `rev` on line 4 (both at column 7).
fn config(dir: &Path, url: &str, rev: &str) -> PathBuf {
    let file = dir.join("projects.toml");
    let text = format!("[[project]]\nname = \"p\"\ngit = \"{url}\"\nrev = \"{rev}\"\n");
    std::fs::write(&file, text).unwrap();
    file
}

fn build(config: &Path) -> Output {
    let out = config.parent().unwrap().join("site");
    run(bin()
        .arg("build")
        .arg("--config")
        .arg(config)
        .arg("--out")
        .arg(out)
        // Keep ssh off the network whatever a URL says (it is never reached when the
        // config is refused, as it must be).
        .env("GIT_SSH_COMMAND", "false"))
}

/// Asserts a config error (exit 2) at `line:7` of `config` that says `what`, and that no git
/// command ran (git sources are cloned into .portolan, which does not exist).
fn assert_config_error(o: &Output, config: &Path, line: u32, what: &str) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    let at = format!("{}:{line}:7: ", config.display());
    assert!(err.contains(&at), "expected {at} in: {err}");
    assert!(err.contains(what), "expected {what:?} in: {err}");
    assert!(err.contains("help: "), "{err}");
    assert!(
        !config.parent().unwrap().join(".portolan").exists(),
        "git ran"
    );
}

#[test]
fn an_upload_pack_revision_runs_nothing_and_is_a_config_error() {
    let dir = tempfile::tempdir().unwrap();
    let (url, _) = upstream(&dir.path().join("up"), "# up\n");
    let marker = dir.path().join("PWNED");
    let rev = format!("--upload-pack=touch {};false", marker.display());
    let config = config(dir.path(), &url, &rev);
    let o = build(&config);
    assert!(!marker.exists(), "the revision ran a command");
    assert_config_error(
        &o,
        &config,
        4,
        "is not a branch, tag or commit id: it starts with `-`",
    );
}

#[test]
fn an_end_of_options_revision_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (url, _) = upstream(&dir.path().join("up"), "# up\n");
    let config = config(dir.path(), &url, "--end-of-options");
    let o = build(&config);
    assert_config_error(
        &o,
        &config,
        4,
        "`--end-of-options` is not a branch, tag or commit id",
    );
}

#[test]
fn option_like_urls_are_config_errors() {
    for (url, why) in [
        (
            "ssh://-oProxyCommand=false/r",
            "the host `-oProxyCommand=false` starts with `-`",
        ),
        (
            "git@-oProxyCommand=false:repo",
            "the host `-oProxyCommand=false` starts with `-`",
        ),
        (
            "file://-oProxyCommand=x/r",
            "the host `-oProxyCommand=x` starts with `-`",
        ),
        (
            "ssh://127.0.0.1:22-oProxyCommand=x/r",
            "the port `22-oProxyCommand=x` is not a number",
        ),
        (
            "ssh://127.0.0.1/--upload-pack=x",
            "the path part `--upload-pack=x` starts with `-`",
        ),
        // A control character, written as a TOML escape.
        (
            "https://127.0.0.1/a\\u0007b",
            "it contains the character U+0007",
        ),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let config = config(dir.path(), url, "main");
        let o = build(&config);
        assert_config_error(&o, &config, 3, why);
        assert!(stderr(&o).contains("is not a usable git URL"), "{url}");
    }
}

#[test]
fn a_protocol_the_config_cannot_name_is_refused_even_through_a_url_rewrite() {
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("PWNED");
    // A user's git config that rewrites an https URL to the `ext` transport, which runs a
    // command (and allows it): git must still refuse it under portolan.
    let gitconfig = dir.path().join("gitconfig");
    std::fs::write(
        &gitconfig,
        format!(
            "[protocol \"ext\"]\n\tallow = always\n[url \"ext::sh -c touch% {}% #\"]\n\tinsteadOf = https://rewritten.invalid/\n",
            marker.display()
        ),
    )
    .unwrap();
    let config = config(dir.path(), "https://rewritten.invalid/r", "main");
    let o = run(bin()
        .arg("build")
        .arg("--config")
        .arg(&config)
        .arg("--out")
        .arg(dir.path().join("site"))
        .env("GIT_CONFIG_GLOBAL", &gitconfig)
        .env("GIT_CONFIG_NOSYSTEM", "1"));
    assert!(!marker.exists(), "the ext transport ran a command");
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("project `p`: cannot clone https://rewritten.invalid/r"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn changing_the_git_url_clones_the_new_repository() {
    let dir = tempfile::tempdir().unwrap();
    let (first, _) = upstream(&dir.path().join("first"), "# first\n");
    let (second, second_commit) = upstream(&dir.path().join("second"), "# second\n");
    let site = dir.path().join("site");

    let o = build(&config(dir.path(), &first, "main"));
    assert!(o.status.success(), "{}", stderr(&o));

    let o = build(&config(dir.path(), &second, "main"));
    assert!(o.status.success(), "{}", stderr(&o));
    let model: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(site.join("data/p.json")).unwrap()).unwrap();
    assert_eq!(model["commit"], second_commit.as_str());
    assert_eq!(model["repository"], second.as_str());
    let clone = dir.path().join(".portolan/repos/p");
    assert_eq!(
        std::fs::read_to_string(clone.join("README.md")).unwrap(),
        "# second\n"
    );
    // Only the project's clone is left in the cache: the old one went with the swap.
    let entries: Vec<_> = std::fs::read_dir(dir.path().join(".portolan/repos"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(entries, ["p"]);

    // Offline, a clone of another URL is an error, not a build from the wrong repository.
    let o = run(bin()
        .arg("build")
        .arg("--offline")
        .arg("--config")
        .arg(config(dir.path(), &first, "main"))
        .arg("--out")
        .arg(&site));
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("project `p`: --offline and the cached clone is of another URL"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_cache_folder_portolan_did_not_make_is_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let (url, _) = upstream(&dir.path().join("up"), "# up\n");
    let mine = dir.path().join(".portolan/repos/p");
    std::fs::create_dir_all(&mine).unwrap();
    std::fs::write(mine.join("notes.txt"), "mine\n").unwrap();
    let o = build(&config(dir.path(), &url, "main"));
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("portolan replaces only clones it made"),
        "{}",
        stderr(&o)
    );
    assert_eq!(
        std::fs::read_to_string(mine.join("notes.txt")).unwrap(),
        "mine\n"
    );
}

/// A `path =` work tree with two commits whose own configuration names programs git would
/// run: an fsmonitor hook and a smudge filter for every file, each of which leaves a mark.
fn repository_with_programs(dir: &Path, marks: &Path) -> PathBuf {
    let repo = dir.join("repo");
    std::fs::create_dir_all(repo.join("config")).unwrap();
    std::fs::create_dir_all(marks).unwrap();
    git(&repo, &["init", "-q", "-b", "main"]);
    std::fs::write(repo.join("README.md"), "# One\n").unwrap();
    std::fs::write(
        repo.join("config/cm.yaml"),
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: one\n",
    )
    .unwrap();
    std::fs::write(repo.join(".gitattributes"), "* filter=mark\n").unwrap();
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-q", "-m", "one"]);
    git(&repo, &["tag", "v1"]);
    std::fs::write(
        repo.join("config/cm.yaml"),
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: two\n",
    )
    .unwrap();
    git(&repo, &["commit", "-q", "-am", "two"]);
    // Set after the commits, so the test's own git commands never run them.
    let hook = dir.join("fsmonitor.sh");
    std::fs::write(
        &hook,
        format!("#!/bin/sh\ntouch '{}/fsmonitor'\nexit 1\n", marks.display()),
    )
    .unwrap();
    common::tool("chmod")
        .arg("755")
        .arg(&hook)
        .status()
        .unwrap();
    git(&repo, &["config", "core.fsmonitor", hook.to_str().unwrap()]);
    let smudge = format!("touch '{}/smudge'; cat", marks.display());
    git(&repo, &["config", "filter.mark.smudge", &smudge]);
    git(&repo, &["config", "filter.mark.clean", "cat"]);
    git(&repo, &["config", "filter.mark.required", "true"]);
    repo
}

#[test]
fn a_repository_s_own_fsmonitor_and_filters_never_run() {
    // Before: `diff` on a `path =` project checked out the older revision with the
    // repository's configuration, which ran both.
    let dir = tempfile::tempdir().unwrap();
    let marks = dir.path().join("marks");
    let repo = repository_with_programs(dir.path(), &marks);
    let config = dir.path().join("projects.toml");
    std::fs::write(
        &config,
        format!(
            "[[project]]\nname = \"p\"\npath = \"{}\"\ncompare = [\"v1\"]\n",
            repo.display()
        ),
    )
    .unwrap();
    let o = run(bin()
        .arg("diff")
        .arg("p")
        .arg("--from")
        .arg("v1")
        .arg("--config")
        .arg(&config));
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("one"),
        "the older revision was read"
    );
    let o = build(&config);
    assert!(o.status.success(), "{}", stderr(&o));
    let left: Vec<_> = std::fs::read_dir(&marks)
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert!(left.is_empty(), "the repository's programs ran: {left:?}");
}
