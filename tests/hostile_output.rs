//! The output folder and the configuration as a hostile or careless user would set them
//! through the real binary.
//!
//! Every path here is a literal path under a fresh `tempfile::tempdir()`, and every child
//! process gets `HOME` set to a fresh temporary folder, so no test can reach the real home
//! folder or `/` even if portolan misbehaved.

use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};
use std::time::{Duration, Instant};

mod common;
use common::all_files;

const MARKER: &str = ".portolan-site";

/// A portal in `root/portal`: projects.toml (with `site` lines added to `[site]`) and one
/// small Go project, `root/portal/repo`. Returns the config file.
fn portal(root: &Path, site: &str) -> PathBuf {
    let dir = root.join("portal");
    std::fs::create_dir_all(dir.join("repo")).unwrap();
    std::fs::write(dir.join("repo/main.go"), "package main\n\nfunc main() {}\n").unwrap();
    let config = dir.join("projects.toml");
    std::fs::write(
        &config,
        format!("[site]\n{site}\n[[project]]\nname = \"repo\"\npath = \"repo\"\n"),
    )
    .unwrap();
    config
}

/// `portolan ARGS --config CONFIG [--out OUT]` with `HOME` set to `home`.
fn run(home: &Path, config: &Path, args: &[&str], out: Option<&Path>) -> Output {
    let mut cmd = common::portolan();
    cmd.env("HOME", home)
        .args(args)
        .arg("-q")
        .arg("--config")
        .arg(config);
    if let Some(out) = out {
        cmd.arg("--out").arg(out);
    }
    let o = cmd.output().unwrap();
    eprintln!("stderr:\n{}", String::from_utf8_lossy(&o.stderr));
    o
}

fn build(home: &Path, config: &Path, out: Option<&Path>) -> Output {
    run(home, config, &["build"], out)
}

/// `portolan serve` that is expected to exit at once: its exit code (None if it was still
/// running after 60 s and had to be killed) and its stderr.
fn serve_exit(home: &Path, config: &Path, out: Option<&Path>) -> (Option<i32>, String) {
    let mut cmd = common::portolan();
    cmd.env("HOME", home)
        .args(["serve", "-q", "--port", "0", "--config"])
        .arg(config)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    if let Some(out) = out {
        cmd.arg("--out").arg(out);
    }
    let mut child = cmd.spawn().unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    let exited = loop {
        if child.try_wait().unwrap().is_some() {
            break true;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            break false;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let o = child.wait_with_output().unwrap();
    let err = stderr(&o);
    eprintln!("serve stderr:\n{err}");
    (o.status.code().filter(|_| exited), err)
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).to_string()
}

/// A fresh root folder and a fresh `HOME` inside it for the children.
fn root() -> (tempfile::TempDir, PathBuf) {
    let root = tempfile::tempdir().unwrap();
    let home = root.path().join("home");
    std::fs::create_dir(&home).unwrap();
    (root, home)
}

/// Asserts a refusal: exit 2, a message naming `shown` and saying `why`, and not one file
/// under `root` changed.
fn assert_refused(o: &Output, shown: &Path, why: &str, root: &Path, before: &[(String, Vec<u8>)]) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains(&format!(
            "error: refusing to write the site to {}: ",
            shown.display()
        )),
        "{err}"
    );
    assert!(err.contains(why), "expected {why:?} in {err}");
    assert!(err.contains("help: "), "{err}");
    assert_eq!(all_files(root), before, "a refused build changed files");
}

#[test]
fn a_folder_holding_a_users_file_is_refused_and_kept() {
    let (root, home) = root();
    let config = portal(root.path(), "");
    let out = root.path().join("mine");
    std::fs::create_dir(&out).unwrap();
    std::fs::write(out.join("thesis.tex"), "years of work").unwrap();
    let before = all_files(root.path());
    let o = build(&home, &config, Some(&out));
    assert_refused(
        &o,
        &out,
        "a folder that portolan did not write",
        root.path(),
        &before,
    );
    assert!(stderr(&o).contains("remove it yourself"));
    assert_eq!(
        std::fs::read_to_string(out.join("thesis.tex")).unwrap(),
        "years of work"
    );
}

#[test]
fn the_project_and_config_folders_are_refused_even_with_a_marker() {
    let (root, home) = root();
    let config = portal(root.path(), "");
    let portal = root.path().join("portal");
    // A marker copied into the repository must not make it replaceable.
    std::fs::write(portal.join("repo").join(MARKER), "portolan-site 1\n").unwrap();
    let before = all_files(root.path());
    for (out, why) in [
        (portal.join("repo"), "it is project `repo`'s folder"),
        (portal.clone(), "it is the folder of projects.toml"),
        (root.path().to_path_buf(), "it contains "),
        (portal.join("repo/.."), "it is the folder of projects.toml"),
    ] {
        let o = build(&home, &config, Some(&out));
        assert_refused(&o, &out, why, root.path(), &before);
    }
}

#[test]
fn a_folder_containing_the_project_is_refused() {
    let (root, home) = root();
    let config = root.path().join("portal/projects.toml");
    std::fs::create_dir_all(root.path().join("portal")).unwrap();
    std::fs::create_dir_all(root.path().join("work/repos/repo")).unwrap();
    std::fs::write(
        root.path().join("work/repos/repo/main.go"),
        "package main\n",
    )
    .unwrap();
    std::fs::write(
        &config,
        "[[project]]\nname = \"repo\"\npath = \"../work/repos/repo\"\n",
    )
    .unwrap();
    let before = all_files(root.path());
    let out = root.path().join("work");
    let o = build(&home, &config, Some(&out));
    assert_refused(
        &o,
        &out,
        "it contains project `repo`'s folder",
        root.path(),
        &before,
    );
}

#[test]
fn site_output_in_projects_toml_is_guarded_too() {
    let (root, home) = root();
    let config = portal(root.path(), "output = \".\"");
    let before = all_files(root.path());
    let o = build(&home, &config, None);
    assert_refused(
        &o,
        &root.path().join("portal/."),
        "it is the folder of projects.toml",
        root.path(),
        &before,
    );
}

#[test]
fn a_regular_file_stays_a_file() {
    let (root, home) = root();
    let config = portal(root.path(), "");
    let report = root.path().join("report.pdf");
    std::fs::write(&report, "%PDF-1.7 not a site").unwrap();
    let link = root.path().join("link.pdf");
    std::os::unix::fs::symlink(&report, &link).unwrap();
    let before = all_files(root.path());
    for out in [&report, &link] {
        let o = build(&home, &config, Some(out));
        assert_refused(&o, out, "it is a file", root.path(), &before);
    }
    assert!(std::fs::symlink_metadata(&report).unwrap().is_file());
    assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
}

#[test]
fn home_and_its_parents_are_refused() {
    let (root, home) = root();
    let config = portal(root.path(), "");
    std::fs::write(home.join(".bashrc"), "export PS1='$ '\n").unwrap();
    std::fs::write(home.join(MARKER), "portolan-site 1\n").unwrap();
    let before = all_files(root.path());
    let o = build(&home, &config, Some(&home));
    assert_refused(
        &o,
        &home,
        "it is your home folder ($HOME)",
        root.path(),
        &before,
    );
    // The folder above HOME (which also holds the portal) contains it.
    let o = build(&home, &config, Some(root.path()));
    assert_refused(&o, root.path(), "it contains ", root.path(), &before);
}

#[test]
fn content_theme_and_cache_folders_are_refused_even_with_a_marker() {
    let (root, home) = root();
    let config = portal(
        root.path(),
        "content = \"pages\"\ntheme = \"dark\"\ncache_dir = \"cache\"",
    );
    let portal = root.path().join("portal");
    for dir in ["pages", "themes/dark/static", "cache"] {
        std::fs::create_dir_all(portal.join(dir)).unwrap();
    }
    std::fs::write(portal.join("pages/index.md"), "# Welcome\n").unwrap();
    std::fs::write(portal.join("themes/dark/static/extra.css"), "b{}\n").unwrap();
    std::fs::write(portal.join("cache/keep"), "x").unwrap();
    for dir in ["pages", "themes/dark", "cache"] {
        std::fs::write(portal.join(dir).join(MARKER), "portolan-site 1\n").unwrap();
    }
    let before = all_files(root.path());
    for (dir, why) in [
        ("pages", "it is the content folder"),
        ("themes/dark", "it is the theme folder"),
        ("themes", "it contains the theme folder"),
        ("cache", "it is the cache folder (cache_dir)"),
    ] {
        let out = portal.join(dir);
        let o = build(&home, &config, Some(&out));
        assert_refused(&o, &out, why, root.path(), &before);
    }
}

#[test]
fn serve_refuses_before_serving() {
    let (root, home) = root();
    let config = portal(root.path(), "");
    let out = root.path().join("mine");
    std::fs::create_dir(&out).unwrap();
    std::fs::write(out.join("notes.txt"), "keep me").unwrap();
    let before = all_files(root.path());
    let (code, err) = serve_exit(&home, &config, Some(&out));
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("refusing to write the site to"), "{err}");
    assert_eq!(all_files(root.path()), before);
}

#[test]
fn rebuilds_over_a_marked_site_and_an_empty_folder() {
    let (root, home) = root();
    let config = portal(root.path(), "");
    let out = root.path().join("empty");
    std::fs::create_dir(&out).unwrap();
    let o = build(&home, &config, Some(&out));
    assert!(o.status.success(), "{}", stderr(&o));
    let marker = std::fs::read_to_string(out.join(MARKER)).unwrap();
    assert_eq!(marker, "portolan-site 1\n");
    assert!(out.join("index.html").is_file());
    // Over the marked site, with something changed so it is written again.
    std::fs::write(
        root.path().join("portal/repo/other.go"),
        "package main\n\nfunc other() {}\n",
    )
    .unwrap();
    std::fs::write(out.join("stale.txt"), "from an older site").unwrap();
    let o = build(&home, &config, Some(&out));
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(out.join(MARKER).is_file());
    assert!(!out.join("stale.txt").exists(), "the old site was replaced");
    // Nothing else was left beside it.
    let mut beside: Vec<String> = std::fs::read_dir(root.path())
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().to_string())
        .collect();
    beside.sort();
    assert_eq!(beside, ["empty", "home", "portal"]);
}

#[test]
fn an_interrupted_builds_leftovers_are_cleaned_and_only_those() {
    let (root, home) = root();
    let config = portal(root.path(), "");
    let site = root.path().join("portal/site");
    let o = build(&home, &config, None);
    assert!(o.status.success(), "{}", stderr(&o));
    let portal = root.path().join("portal");
    // What a build killed while writing, and one killed after the swap, leave behind.
    let new = portal.join(".site.new-Xa12Bc");
    std::fs::create_dir_all(new.join("projects")).unwrap();
    std::fs::write(new.join(MARKER), "portolan-site 1\n").unwrap();
    std::fs::write(new.join("projects/half.html"), "<p>half").unwrap();
    let old = portal.join(".site.old-Yd34Ef/site");
    std::fs::create_dir_all(&old).unwrap();
    std::fs::write(old.join(MARKER), "portolan-site 1\n").unwrap();
    std::fs::write(old.join("index.html"), "previous").unwrap();
    // The user's own files with similar names.
    std::fs::write(portal.join(".site.notes"), "my notes").unwrap();
    std::fs::create_dir(portal.join(".site.new-mine00")).unwrap();
    std::fs::write(portal.join(".site.new-mine00/draft.md"), "draft").unwrap();

    let o = build(&home, &config, None);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!new.exists(), "a staging folder of ours was left");
    assert!(
        !portal.join(".site.old-Yd34Ef").exists(),
        "an old site of ours was left"
    );
    assert_eq!(
        std::fs::read_to_string(portal.join(".site.notes")).unwrap(),
        "my notes"
    );
    assert_eq!(
        std::fs::read_to_string(portal.join(".site.new-mine00/draft.md")).unwrap(),
        "draft"
    );
    assert!(site.join("index.html").is_file());
}

#[test]
fn a_site_left_moved_aside_is_put_back_even_if_the_build_then_fails() {
    let (root, home) = root();
    let config = portal(root.path(), "");
    let portal = root.path().join("portal");
    let site = portal.join("site");
    let o = build(&home, &config, None);
    assert!(o.status.success(), "{}", stderr(&o));
    let written = all_files(&site);
    // A build killed between its two renames: the site moved aside, the new one not in place.
    let aside = portal.join(".site.old-Zz99Aa");
    std::fs::create_dir(&aside).unwrap();
    std::fs::rename(&site, aside.join("site")).unwrap();
    // The next build fails (a project is missing), so it writes nothing itself.
    let text = std::fs::read_to_string(&config).unwrap();
    std::fs::write(
        &config,
        format!("{text}\n[[project]]\nname = \"gone\"\npath = \"gone\"\n"),
    )
    .unwrap();
    let o = build(&home, &config, None);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(all_files(&site), written, "the previous site is back");
    assert!(!aside.exists());
}

#[test]
fn base_urls_that_load_from_another_host_are_refused() {
    let (root, home) = root();
    for url in ["//evil.example/", "/\\\\evil.example/", "/../../"] {
        let config = portal(root.path(), &format!("base_url = \"{url}\""));
        let o = build(&home, &config, None);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{url}: {err}");
        assert!(
            err.contains("projects.toml:2:12: `") && err.contains("is not a usable base_url"),
            "{url}: {err}"
        );
        assert!(err.contains("help: write an absolute URL"), "{err}");
        assert!(!root.path().join("portal/site").exists());
    }
}

#[test]
fn no_project_is_exit_2_and_the_site_stays() {
    let (root, home) = root();
    let config = portal(root.path(), "");
    let o = build(&home, &config, None);
    assert!(o.status.success(), "{}", stderr(&o));
    let site = root.path().join("portal/site");
    let written = all_files(&site);
    std::fs::write(&config, "[site]\ntitle = \"Empty\"\n").unwrap();
    let o = build(&home, &config, None);
    let (code, serve_err) = serve_exit(&home, &config, None);
    for (code, err) in [(o.status.code(), stderr(&o)), (code, serve_err)] {
        assert_eq!(code, Some(2), "{err}");
        assert!(err.contains("there is no [[project]]"), "{err}");
        assert!(err.contains("help: add a project"), "{err}");
        assert_eq!(all_files(&site), written);
    }
}

#[test]
fn serve_keeps_its_pages_when_projects_toml_loses_every_project() {
    let (root, home) = root();
    let config = portal(root.path(), "");
    let server = common::serve_config(&config, Some(&home));
    let site = root.path().join("portal/site");
    let served = all_files(&site);
    assert!(served.iter().any(|(p, _)| p == "index.html"));
    std::fs::write(&config, "[site]\n").unwrap();
    server.wait_for_line("error: rebuild failed");
    assert_eq!(all_files(&site), served);
}

/// A folder outside the portal, as `content = "/etc"` would name: a page, a `shadow`
/// file and a hidden one.
fn outside_content(root: &Path) -> PathBuf {
    let outside = root.join("etc");
    std::fs::create_dir_all(outside.join(".ssh")).unwrap();
    std::fs::write(outside.join("shadow"), "root:$6$hash").unwrap();
    std::fs::write(outside.join(".hidden"), "secret").unwrap();
    std::fs::write(outside.join(".ssh/id_ed25519"), "key").unwrap();
    std::fs::write(outside.join("page.md"), "# Page\n").unwrap();
    outside
}

#[test]
fn content_outside_the_portal_needs_an_opt_in_and_hidden_files_never_go() {
    let (root, home) = root();
    let outside = outside_content(root.path());
    let content = format!("content = \"{}\"", outside.display());
    let config = portal(root.path(), &content);
    let o = build(&home, &config, None);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("projects.toml:2:11: the content folder "),
        "{err}"
    );
    assert!(err.contains("allow_outside = [\"content\"]"), "{err}");
    assert!(!root.path().join("portal/site").exists());

    let config = portal(
        root.path(),
        &format!("{content}\nallow_outside = [\"content\"]"),
    );
    let o = build(&home, &config, None);
    assert!(o.status.success(), "{}", stderr(&o));
    let site = root.path().join("portal/site");
    assert!(site.join("page/index.html").is_file());
    assert!(
        site.join("shadow").is_file(),
        "opted in: its files are published"
    );
    for hidden in [".hidden", ".ssh/id_ed25519", ".ssh"] {
        assert!(!site.join(hidden).exists(), "{hidden} was published");
    }
}

#[test]
fn a_theme_folder_outside_needs_an_opt_in_and_its_hidden_files_never_go() {
    let (root, home) = root();
    let config = portal(root.path(), "theme = \"dark\"");
    let portal = root.path().join("portal");
    let far = root.path().join("far-theme");
    std::fs::create_dir_all(far.join("static/.git")).unwrap();
    std::fs::write(far.join("static/extra.css"), "b{}\n").unwrap();
    std::fs::write(far.join("static/.env"), "TOKEN=secret\n").unwrap();
    std::fs::write(far.join("static/.git/config"), "[core]\n").unwrap();
    std::fs::create_dir(portal.join("themes")).unwrap();
    std::os::unix::fs::symlink(&far, portal.join("themes/dark")).unwrap();
    let o = build(&home, &config, None);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("projects.toml:2:9: the theme folder "),
        "{err}"
    );

    // Inside the portal, hidden theme files are still never published.
    std::fs::remove_file(portal.join("themes/dark")).unwrap();
    common::copy_dir(&far, &portal.join("themes/dark"));
    let o = build(&home, &config, None);
    assert!(o.status.success(), "{}", stderr(&o));
    let site = portal.join("site");
    assert!(site.join("static/extra.css").is_file());
    assert!(
        !site.join("static/.env").exists(),
        "a hidden theme file was published"
    );
    assert!(
        !site.join("static/.git").exists(),
        "a hidden theme folder was published"
    );
}

#[test]
fn analyze_out_replaces_only_a_model_it_wrote_and_never_through_a_link() {
    // Before: `analyze --out` overwrote any file, through links, even the analyzed
    // repository's own go.mod.
    let (root, home) = root();
    let repo = root.path().join("repo");
    std::fs::create_dir_all(&repo).unwrap();
    std::fs::write(repo.join("go.mod"), "module example.com/repo\n\ngo 1.22\n").unwrap();
    std::fs::write(repo.join("main.go"), "package main\n\nfunc main() {}\n").unwrap();
    let notes = root.path().join("notes.txt");
    std::fs::write(&notes, "mine").unwrap();
    let link = root.path().join("model-link.json");
    std::os::unix::fs::symlink(&notes, &link).unwrap();
    let analyze = |out: &Path| {
        let o = common::portolan()
            .env("HOME", &home)
            .arg("analyze")
            .arg(&repo)
            .arg("-q")
            .arg("--out")
            .arg(out)
            .output()
            .unwrap();
        (o.status.code(), stderr(&o))
    };
    let before = all_files(root.path());
    for (out, why) in [
        (repo.join("go.mod"), "is not a model portolan wrote"),
        (notes.clone(), "is not a model portolan wrote"),
        (link.clone(), "symbolic link"),
        (repo.clone(), "a folder"),
    ] {
        let (code, err) = analyze(&out);
        assert_eq!(code, Some(1), "{err}");
        assert!(
            err.contains(&format!(
                "refusing to write the model to {}: ",
                out.display()
            )),
            "{err}"
        );
        assert!(err.contains(why), "{why} in {err}");
        assert_eq!(
            all_files(root.path()),
            before,
            "a refused analyze changed files"
        );
    }
    // A new file, then the same file again: a model replaces a model.
    let model = root.path().join("repo.json");
    for _ in 0..2 {
        let (code, err) = analyze(&model);
        assert_eq!(code, Some(0), "{err}");
        let text = std::fs::read_to_string(&model).unwrap();
        assert!(text.starts_with("{\n  \"schema_version\""), "{text}");
    }
}
