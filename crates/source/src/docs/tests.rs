use super::*;

fn repo(files: &[(&str, &[u8])]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (path, bytes) in files {
        let p = dir.path().join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, bytes).unwrap();
    }
    dir
}

#[test]
fn readme_first_then_selected_docs_with_titles() {
    let dir = repo(&[
        (
            "ReadMe.md",
            b"# The Project\n![logo](docs/logo.png) ![d](docs/d.svg) ![b](docs/b.bmp)",
        ),
        (
            "docs/guide.md",
            b"---\ntitle: Guide\nweight: 3\n---\n# Other\n",
        ),
        ("docs/sub/plain.md", b"no heading"),
        ("docs/notes.txt", b"not markdown"),
        ("docs/logo.png", b"\x89PNG"),
        ("docs/d.svg", b"<svg/>"),
        ("docs/b.bmp", b"BM"),
        ("vendor/x/README.md", b"# vendored"),
        ("other.md", b"# not selected"),
    ]);
    let c = collect(dir.path(), &["docs".to_string()]);
    let got: Vec<(&str, &str, bool)> = c
        .docs
        .iter()
        .map(|d| (d.path.as_str(), d.title.as_str(), d.readme))
        .collect();
    assert_eq!(
        got,
        [
            ("ReadMe.md", "The Project", true),
            ("docs/guide.md", "Guide", false),
            ("docs/sub/plain.md", "plain", false),
        ]
    );
    assert_eq!(c.docs[1].markdown, "# Other\n");
    assert_eq!(
        c.images,
        [
            DocImage {
                path: "docs/d.svg".into(),
                bytes: b"<svg/>".to_vec()
            },
            DocImage {
                path: "docs/logo.png".into(),
                bytes: b"\x89PNG".to_vec()
            }
        ]
    );
    assert_eq!(
        c.diagnostics,
        [
            Diagnostic::new(
                "docs/guide.md",
                3,
                "front matter key `weight` is not used: portolan reads only `title` from a repository's docs"
            ),
            Diagnostic::new(
                "ReadMe.md",
                2,
                "image docs/b.bmp is not published: only PNG, JPEG, GIF, WebP and SVG files are"
            )
        ]
    );
}

/// The (file, line, message) of each diagnostic.
fn diagnostics(c: &Collected) -> Vec<(&str, u32, &str)> {
    c.diagnostics
        .iter()
        .map(|d| (d.file.as_str(), d.line, d.message.as_str()))
        .collect()
}

#[test]
fn front_matter_that_cannot_be_used_is_a_diagnostic_at_its_line() {
    let dir = repo(&[
        (
            "docs/toml.md",
            b"+++\ntitle = \"T\"\nweight = @\n+++\n# Heading\n",
        ),
        ("docs/yaml.md", b"---\ntitle: a: b\n---\n# Yaml\n"),
        ("docs/type.md", b"+++\n\ntitle = 5\n+++\n# Typed\n"),
        ("docs/list.md", b"---\n- a\n- b\n---\n# Listed\n"),
        (
            "docs/keys.md",
            b"---\ntitle: Keys\nweight: 2\n\"date\": x\n---\n",
        ),
        ("docs/empty.md", b"---\n---\n# Empty\n"),
    ]);
    let c = collect(dir.path(), &["docs".to_string()]);
    let titles: Vec<&str> = c.docs.iter().map(|d| d.title.as_str()).collect();
    assert_eq!(
        titles,
        ["Empty", "Keys", "Listed", "Heading", "Typed", "Yaml"]
    );
    let got = diagnostics(&c);
    assert_eq!(got.len(), 5, "{got:?}");
    assert_eq!(
        got[0],
        (
            "docs/keys.md",
            3,
            "front matter keys `date`, `weight` are not used: portolan reads only `title` from a repository's docs"
        )
    );
    assert_eq!(
        got[1],
        (
            "docs/list.md",
            2,
            "front matter is not a table of keys: it is ignored"
        )
    );
    assert_eq!((got[2].0, got[2].1), ("docs/toml.md", 3));
    assert!(got[2].2.starts_with("front matter not read: "), "{got:?}");
    assert!(
        got[2]
            .2
            .ends_with("; the title comes from the first heading")
    );
    assert_eq!(
        got[3],
        (
            "docs/type.md",
            3,
            "front matter `title` is not a string: the title comes from the first heading"
        )
    );
    assert_eq!((got[4].0, got[4].1), ("docs/yaml.md", 2));
    assert!(got[4].2.starts_with("front matter not read: "), "{got:?}");
}

#[test]
fn image_and_encoding_diagnostics_carry_their_lines() {
    let dir = repo(&[(
            "README.md",
            b"---\ntitle: R\n---\n# R\n\n![a](missing.png)\ntext\n<img src=\"img/my%20pic.bmp\">\n\xff bad\n",
        )]);
    let c = collect(dir.path(), &[]);
    assert_eq!(
        diagnostics(&c),
        [
            (
                "README.md",
                9,
                "not valid UTF-8: invalid bytes were replaced with U+FFFD"
            ),
            (
                "README.md",
                8,
                "image img/my pic.bmp is not published: only PNG, JPEG, GIF, WebP and SVG files are"
            ),
            ("README.md", 6, "image missing.png: file not found"),
        ]
    );
}

#[test]
fn images_outside_the_repository_are_not_read() {
    let outside = repo(&[("secret.png", b"x")]);
    let dir = repo(&[(
        "README.md",
        b"![a](../secret.png) ![b](missing.png)".as_slice(),
    )]);
    std::os::unix::fs::symlink(
        outside.path().join("secret.png"),
        dir.path().join("link.png"),
    )
    .unwrap();
    let readme = "![a](link.png) ![b](missing.png)".to_string();
    std::fs::write(dir.path().join("README.md"), readme).unwrap();
    let c = collect(dir.path(), &[]);
    assert!(c.images.is_empty());
    let messages: Vec<&str> = c.diagnostics.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            "image link.png: not a file inside the repository",
            "image missing.png: file not found"
        ]
    );
}

#[cfg(unix)]
#[test]
fn a_pipe_named_like_a_doc_is_reported_not_read() {
    let dir = repo(&[("docs/a.md", b"# A\n".as_slice())]);
    for name in ["README.md", "docs/b.md"] {
        let made = std::process::Command::new("mkfifo")
            .env("HOME", dir.path())
            .arg(dir.path().join(name))
            .status();
        assert!(made.unwrap().success());
    }
    let c = collect(dir.path(), &["docs".into()]);
    let docs: Vec<&str> = c.docs.iter().map(|d| d.path.as_str()).collect();
    assert_eq!(docs, ["docs/a.md"]);
    let messages: Vec<String> = c
        .diagnostics
        .iter()
        .map(|d| format!("{}: {}", d.file, d.message))
        .collect();
    assert_eq!(
        messages,
        [
            "README.md: not a regular file but a named pipe (FIFO), skipped",
            "docs/b.md: not a regular file but a named pipe (FIFO), skipped"
        ]
    );
}
