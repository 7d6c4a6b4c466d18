use super::*;

#[test]
fn github_urls() {
    let t = "https://github.com/kserve/kserve/blob/{commit}/{path}#L{line}";
    assert_eq!(
        github_source_url("https://github.com/kserve/kserve").as_deref(),
        Some(t)
    );
    assert_eq!(
        github_source_url("https://github.com/kserve/kserve.git").as_deref(),
        Some(t)
    );
    assert_eq!(
        github_source_url("git@github.com:kserve/kserve.git").as_deref(),
        Some(t)
    );
    assert_eq!(github_source_url("https://gitlab.com/a/b"), None);
    assert_eq!(github_source_url("https://github.com/a"), None);
}

#[test]
fn credentials_are_removed() {
    assert_eq!(
        without_credentials("https://x:tok@github.com/a/b"),
        "https://github.com/a/b"
    );
    assert_eq!(
        without_credentials("https://github.com/a/b@c"),
        "https://github.com/a/b@c"
    );
    assert_eq!(
        without_credentials("git@github.com:a/b.git"),
        "git@github.com:a/b.git"
    );
}

#[test]
fn line_urls() {
    let t = "https://github.com/a/b/blob/{commit}/{path}#L{line}";
    assert_eq!(
        line_url(t, "abc", "x/y.go", 7).as_deref(),
        Some("https://github.com/a/b/blob/abc/x/y.go#L7")
    );
    assert_eq!(line_url(t, "", "x/y.go", 7), None);
    assert_eq!(line_url("", "abc", "x", 1), None);
    assert_eq!(line_url("javascript:alert(1)//{path}", "abc", "x", 1), None);
}

#[test]
fn file_urls() {
    let t = "https://github.com/a/b/blob/{commit}/{path}#L{line}";
    assert_eq!(
        file_url(t, "abc", "docs/x.md").as_deref(),
        Some("https://github.com/a/b/blob/abc/docs/x.md")
    );
    assert_eq!(
        file_url(
            "https://git.example/{path}?at={commit}&line={line}",
            "c",
            "x"
        )
        .as_deref(),
        Some("https://git.example/x?at=c&line=1")
    );
    assert_eq!(file_url("", "abc", "x"), None);
}
