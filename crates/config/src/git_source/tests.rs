use super::*;

#[test]
fn ordinary_urls_pass() {
    for url in [
        "https://github.com/a/b",
        "https://github.com/a/b.git",
        "http://git.example:8080/a/b",
        "https://x:tok@github.com/a/b",
        "ssh://git@github.com/a/b.git",
        "ssh://git@host:22/a/b",
        "ssh://git@[::1]:22/a/b",
        "git://git.example/a/b",
        "file:///tmp/repo",
        "file://localhost/tmp/repo",
        "git@github.com:a/b.git",
    ] {
        assert_eq!(url_problem(url), None, "{url}");
    }
}

#[test]
fn option_like_urls_are_refused() {
    for (url, why) in [
        (
            "ssh://-oProxyCommand=touch/x/r",
            "the host `-oProxyCommand=touch` starts with `-`",
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
            "ssh://host:22-oProxyCommand=x/r",
            "the port `22-oProxyCommand=x` is not a number",
        ),
        ("ssh://-l@host/r", "the user `-l` starts with `-`"),
        ("-oProxyCommand=x@host:r", "the user `-oProxyCommand=x`"),
        ("git@host:-r", "the path part `-r` starts with `-`"),
        (
            "https://host/a/--upload-pack=x",
            "the path part `--upload-pack=x`",
        ),
        ("file:///tmp/-r", "the path part `-r`"),
        ("ssh://host:/r", "the port `` is not a number"),
        ("https://host/a b", "the character U+0020"),
        ("https://host/a\u{1}b", "the character U+0001"),
        ("https://host/a\u{a0}b", "the character U+00A0"),
        ("ext::sh -c x", "the character U+0020"),
        (
            "ext::true",
            "neither a URL with a scheme nor user@host:path",
        ),
        ("github.com/a/b", "neither a URL"),
        ("https://", "it has no host"),
        ("file://", "it names no repository"),
        ("git@host", "needs a `:`"),
        ("a@b/c:d", "the host has a `/`"),
        ("ssh://[::1/r", "no closing `]`"),
    ] {
        let got = url_problem(url).unwrap_or_else(|| panic!("{url} accepted"));
        assert!(got.contains(why), "{url}: {got}");
    }
}

#[test]
fn branch_tag_and_commit_names_pass() {
    for rev in [
        "main",
        "v0.18.0",
        "release-1.2",
        "feature/x.y",
        "refs/tags/v1",
        "HEAD",
        "0123456789abcdef0123456789abcdef01234567",
        "été",
        "a@b",
    ] {
        assert_eq!(rev_problem(rev), None, "{rev}");
    }
}

#[test]
fn check_ref_format_rules() {
    for (rev, why) in [
        ("", "empty"),
        ("--upload-pack=touch /tmp/x;false", "starts with `-`"),
        ("--end-of-options", "starts with `-`"),
        ("-b", "starts with `-`"),
        ("a b", "U+0020"),
        ("a\tb", "U+0009"),
        ("a\u{7f}", "U+007F"),
        ("a~1", "`~`"),
        ("a^", "`^`"),
        ("a:b", "`:`"),
        ("a?", "`?`"),
        ("a*", "`*`"),
        ("a[b", "`[`"),
        ("a\\b", "`\\`"),
        ("a..b", "`..`"),
        ("a@{1}", "`@{`"),
        ("a//b", "`//`"),
        ("@", "`@` alone"),
        ("/a", "starts or ends with `/`"),
        ("a/", "starts or ends with `/`"),
        ("a.", "ends with `.`"),
        ("a/.b", "the part `.b` starts with `.`"),
        (".a", "the part `.a` starts with `.`"),
        ("a.lock", "ends with `.lock`"),
        ("a.lock/b", "the part `a.lock` ends with `.lock`"),
    ] {
        let got = rev_problem(rev).unwrap_or_else(|| panic!("{rev:?} accepted"));
        assert!(got.contains(why), "{rev:?}: {got}");
    }
}
