use super::*;

fn err(text: &str) -> String {
    parse(Path::new("projects.toml"), text)
        .unwrap_err()
        .to_string()
}

#[test]
fn valid_config_resolves_paths_and_defaults() {
    let cfg = parse(
        Path::new("/x/projects.toml"),
        r#"
[site]
title = "Atlas"
base_url = "https://example.github.io/atlas"

[[project]]
name = "kserve"
git = "https://github.com/kserve/kserve"
rev = "v0.18.0"
exclude = ["install/**"]

[[project]]
name = "local"
path = "../local"

[groups]
"github.com/example/api/v1" = "example.io/v1"
"#,
    )
    .unwrap();
    assert_eq!(cfg.site.base_path, "/atlas/");
    assert_eq!(cfg.site.output, PathBuf::from("/x/site"));
    assert_eq!(cfg.projects.len(), 2);
    assert_eq!(
        cfg.projects[0].source,
        SourceSpec::Git {
            url: "https://github.com/kserve/kserve".into(),
            rev: Some("v0.18.0".into())
        }
    );
    assert_eq!(cfg.projects[0].exclude, vec!["install/**".to_string()]);
    assert_eq!(
        cfg.projects[1].source,
        SourceSpec::Path(PathBuf::from("/x/../local"))
    );
    assert_eq!(cfg.projects[1].title, "local");
    assert_eq!(cfg.groups["github.com/example/api/v1"], "example.io/v1");
}

#[test]
fn unknown_key_names_line_column_and_valid_keys() {
    let e = err("[[project]]\nname = \"a\"\ngti = \"https://x/y\"\n");
    assert!(
        e.starts_with("projects.toml:3:1: unknown field `gti`, expected one of"),
        "{e}"
    );
    assert!(e.contains("`git`"), "{e}");
    assert!(e.contains("help: remove or rename the key"), "{e}");
}

#[test]
fn unknown_site_key() {
    let e = err("[site]\ntitel = \"x\"\n");
    assert!(
        e.starts_with("projects.toml:2:1: unknown field `titel`"),
        "{e}"
    );
}

#[test]
fn wrong_type_names_line_column() {
    let e = err("[[project]]\nname = \"a\"\npath = \"p\"\nexclude = \"install/**\"\n");
    assert!(
        e.starts_with(
            "projects.toml:4:11: invalid type: string \"install/**\", expected a sequence"
        ),
        "{e}"
    );
}

#[test]
fn duplicate_project_name_points_at_second() {
    let e =
        err("[[project]]\nname = \"a\"\npath = \"p\"\n\n[[project]]\nname = \"a\"\npath = \"q\"\n");
    assert_eq!(
        e,
        "projects.toml:6:8: duplicate project name `a`\n  help: each [[project]] needs its own `name`: it is the URL slug of its pages"
    );
}

#[test]
fn both_git_and_path() {
    let e = err("[[project]]\nname = \"a\"\ngit = \"https://x/y\"\npath = \"p\"\n");
    assert!(
        e.starts_with(
            "projects.toml:4:8: project `a` has more than one of `git`, `path` and `model`"
        ),
        "{e}"
    );
}

#[test]
fn neither_git_nor_path() {
    let e = err("[[project]]\nname = \"a\"\n");
    assert!(
        e.starts_with("projects.toml:1:1: project `a` has no source"),
        "{e}"
    );
    assert!(e.contains("help: add `git = "), "{e}");
}

#[test]
fn bad_glob() {
    let e = err("[[project]]\nname = \"a\"\npath = \"p\"\nexclude = [\"ok/**\", \"bad[\"]\n");
    assert!(e.starts_with("projects.toml:4:21: bad glob `bad[`"), "{e}");
}

#[test]
fn bad_git_url() {
    let e = err("[[project]]\nname = \"a\"\ngit = \"not a url\"\n");
    assert!(
            e.starts_with(
                "projects.toml:3:7: `not a url` is not a usable git URL: it contains the character U+0020"
            ),
            "{e}"
        );
    let e = err("[[project]]\nname = \"a\"\ngit = \"ssh://-oProxyCommand=x/r\"\n");
    assert!(
            e.starts_with("projects.toml:3:7: `ssh://-oProxyCommand=x/r` is not a usable git URL: the host `-oProxyCommand=x` starts with `-`"),
            "{e}"
        );
    assert!(e.contains("\n  help: write an https://"), "{e}");
}

#[test]
fn option_like_rev() {
    let e = err(
        "[[project]]\nname = \"a\"\ngit = \"https://x/y\"\nrev = \"--upload-pack=touch /tmp/x;false\"\n",
    );
    assert!(
            e.starts_with("projects.toml:4:7: `--upload-pack=touch /tmp/x;false` is not a branch, tag or commit id: it starts with `-`"),
            "{e}"
        );
    assert!(e.contains("\n  help: write a branch"), "{e}");
    let e = err("[[project]]\nname = \"a\"\ngit = \"https://x/y\"\nrev = \"v1\\u0000\"\n");
    assert!(
            e.starts_with("projects.toml:4:7: `v1\\0` is not a branch, tag or commit id: it contains the character U+0000"),
            "{e}"
        );
}

#[test]
fn bad_base_url() {
    let e = err("[site]\nbase_url = \"atlas\"\n");
    assert!(
        e.starts_with("projects.toml:2:12: `atlas` is not a usable base_url"),
        "{e}"
    );
}

#[test]
fn bad_project_name() {
    let e = err("[[project]]\nname = \"My Project\"\npath = \"p\"\n");
    assert!(
        e.starts_with("projects.toml:2:8: project name `My Project` is not a URL slug"),
        "{e}"
    );
}

#[test]
fn rev_without_git() {
    let e = err("[[project]]\nname = \"a\"\npath = \"p\"\nrev = \"main\"\n");
    assert!(
        e.starts_with("projects.toml:4:7: `rev` only applies to `git` sources"),
        "{e}"
    );
}

#[test]
fn missing_theme_folder() {
    let e = err("[site]\ntheme = \"fancy\"\n");
    assert!(
        e.starts_with(
            "projects.toml:2:9: theme `fancy` not found: there is no folder ./themes/fancy"
        ),
        "{e}"
    );
}

#[test]
fn unreadable_file_has_no_position() {
    let e = load(Path::new("/nonexistent/projects.toml"))
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("/nonexistent/projects.toml: cannot read the configuration"),
        "{e}"
    );
}

#[test]
fn base_paths() {
    assert_eq!(
        base_path_of("https://a.github.io/atlas").as_deref(),
        Ok("/atlas/")
    );
    assert_eq!(base_path_of("https://a.github.io").as_deref(), Ok("/"));
    assert_eq!(base_path_of("/").as_deref(), Ok("/"));
    assert_eq!(base_path_of("/x/y/").as_deref(), Ok("/x/y/"));
    assert_eq!(base_path_of("/x/..y/").as_deref(), Ok("/x/..y/"));
    assert!(base_path_of("x").is_err());
}

#[test]
fn base_urls_that_leave_the_site_are_refused() {
    for (url, why) in [
        ("//evil.example/", "an empty path segment"),
        ("/\\\\evil.example/", "a backslash"),
        ("/../../", "a `.` or `..` path segment"),
        ("/atlas/%2E%2e/", "a `.` or `..` path segment"),
        ("/./", "a `.` or `..` path segment"),
        (
            "https://example.com//evil.example/",
            "an empty path segment",
        ),
        ("https://example.com/a/../", "a `.` or `..` path segment"),
        ("https:///atlas/", "no host after the scheme"),
        ("/at las/", "a space or control character"),
        (
            "javascript:alert(1)",
            "neither an http(s):// scheme nor a leading `/`",
        ),
    ] {
        let e = err(&format!("[site]\nbase_url = \"{url}\"\n"));
        assert!(
            e.starts_with("projects.toml:2:12: `") && e.contains("is not a usable base_url"),
            "{url}: {e}"
        );
        assert!(e.contains(why), "{url}: {e}");
        assert!(e.contains("help: write an absolute URL"), "{url}: {e}");
    }
}

#[test]
fn no_project_is_refused_with_a_hint() {
    for text in ["", "[site]\ntitle = \"Empty\"\n"] {
        let e = err(text);
        assert!(
            e.starts_with("projects.toml: there is no [[project]]"),
            "{e}"
        );
        assert!(
            e.contains("help: add a project: a [[project]] table"),
            "{e}"
        );
    }
}

/// A config file in a fresh folder, and a folder outside it holding a page.
fn config_beside_outside() -> (tempfile::TempDir, tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("page.md"), "# Page\n").unwrap();
    let file = dir.path().join("projects.toml");
    (dir, outside, file)
}

const PROJECT: &str = "[[project]]\nname = \"a\"\npath = \"a\"\n";

#[test]
fn content_outside_the_config_folder_needs_an_opt_in() {
    let (_dir, outside, file) = config_beside_outside();
    let text = format!(
        "[site]\ncontent = \"{}\"\n{PROJECT}",
        outside.path().display()
    );
    let e = parse(&file, &text).unwrap_err().to_string();
    assert!(e.contains("projects.toml:2:11: the content folder "), "{e}");
    assert!(e.contains("is outside the folder of projects.toml"), "{e}");
    assert!(e.contains("allow_outside = [\"content\"]"), "{e}");

    let allowed = text.replace("[site]\n", "[site]\nallow_outside = [\"content\"]\n");
    let cfg = parse(&file, &allowed).unwrap();
    assert_eq!(cfg.site.content, outside.path());

    // `..` out of the folder is outside too; a folder inside is fine.
    let e = parse(&file, &format!("[site]\ncontent = \"../x\"\n{PROJECT}"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("is outside the folder of projects.toml"), "{e}");
    parse(
        &file,
        &format!("[site]\ncontent = \"docs/site\"\n{PROJECT}"),
    )
    .unwrap();
}

#[test]
fn a_default_content_folder_linked_outside_needs_an_opt_in() {
    let (dir, outside, file) = config_beside_outside();
    std::os::unix::fs::symlink(outside.path(), dir.path().join("content")).unwrap();
    let e = parse(&file, PROJECT).unwrap_err().to_string();
    assert!(e.contains("projects.toml: the content folder "), "{e}");
    let allowed = format!("[site]\nallow_outside = [\"content\"]\n{PROJECT}");
    parse(&file, &allowed).unwrap();
}

#[test]
fn a_theme_is_a_folder_name_under_themes_and_stays_inside() {
    let (dir, outside, file) = config_beside_outside();
    for name in ["../../etc", "a/b", ".hidden", ""] {
        let e = parse(&file, &format!("[site]\ntheme = \"{name}\"\n{PROJECT}"))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains(&format!(
                "projects.toml:2:9: theme `{name}` is not a folder name"
            )),
            "{e}"
        );
    }
    std::fs::create_dir(dir.path().join("themes")).unwrap();
    std::os::unix::fs::symlink(outside.path(), dir.path().join("themes/far")).unwrap();
    let text = format!("[site]\ntheme = \"far\"\n{PROJECT}");
    let e = parse(&file, &text).unwrap_err().to_string();
    assert!(e.contains("projects.toml:2:9: the theme folder "), "{e}");
    let allowed = text.replace("[site]\n", "[site]\nallow_outside = [\"theme\"]\n");
    assert_eq!(parse(&file, &allowed).unwrap().site.theme, "far");
}

#[test]
fn allow_outside_names_content_or_theme() {
    let e = err(&format!(
        "[site]\nallow_outside = [\"content\", \"output\"]\n{PROJECT}"
    ));
    assert!(
        e.starts_with("projects.toml:2:29: `output` cannot be allowed outside"),
        "{e}"
    );
}
