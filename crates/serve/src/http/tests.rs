use super::*;

fn path(segments: &[&str], trailing_slash: bool) -> Target {
    Target::Path {
        segments: segments.iter().map(|s| s.to_string()).collect(),
        trailing_slash,
    }
}

#[test]
fn request_paths_map_to_checked_segments() {
    let cases: &[(&str, &str, Target)] = &[
        ("/", "/", path(&[], true)),
        ("/projects/a/", "/", path(&["projects", "a"], true)),
        (
            "/static/style.css",
            "/",
            path(&["static", "style.css"], false),
        ),
        (
            "/atlas/static/x.js",
            "/atlas/",
            path(&["static", "x.js"], false),
        ),
        ("/atlas", "/atlas/", path(&[], false)),
        ("/static/x.js", "/atlas/", path(&["static", "x.js"], false)),
        ("/atlasx/y", "/atlas/", path(&["atlasx", "y"], false)),
        ("/a%20b.html", "/", path(&["a b.html"], false)),
        // Decoded once: %252e stays the literal text %2e, a harmless name.
        ("/%252e%252e/x", "/", path(&["%2e%2e", "x"], false)),
        ("/../etc/passwd", "/", Target::BadRequest),
        ("/%2e%2e/etc/passwd", "/", Target::BadRequest),
        ("/..%2fetc%2fpasswd", "/", Target::BadRequest),
        ("/%2e%2e%2fetc%2fpasswd", "/", Target::BadRequest),
        ("/atlas/../x", "/atlas/", Target::BadRequest),
        ("/a/./b", "/", Target::BadRequest),
        ("//etc/passwd", "/", Target::BadRequest),
        ("/a//b", "/", Target::BadRequest),
        ("/a%5c..%5cb", "/", Target::BadRequest),
        ("/a\\b", "/", Target::BadRequest),
        ("/a%00b", "/", Target::BadRequest),
        ("/%ff", "/", Target::BadRequest),
        ("/c:/x", "/", Target::BadRequest),
        ("relative", "/", Target::BadRequest),
    ];
    for (raw, base, expected) in cases {
        assert_eq!(&target(raw, base), expected, "{raw} under {base}");
    }
}

#[test]
fn content_types_come_from_a_table() {
    let cases = [
        ("a.html", "text/html; charset=utf-8"),
        ("a.CSS", "text/css; charset=utf-8"),
        ("a.js", "text/javascript; charset=utf-8"),
        ("a.svg", "image/svg+xml"),
        ("a.json", "application/json"),
        ("a.mmd", "text/plain; charset=utf-8"),
        ("a.png", "image/png"),
        ("a.jpeg", "image/jpeg"),
        ("a.gif", "image/gif"),
        ("a.webp", "image/webp"),
        ("sitemap.xml", "application/xml"),
        ("robots.txt", "text/plain; charset=utf-8"),
        ("f.woff2", "font/woff2"),
        (".nojekyll", "application/octet-stream"),
    ];
    for (name, kind) in cases {
        assert_eq!(content_type(Path::new(name)), kind, "{name}");
    }
}

#[test]
fn lookups_stay_under_the_root() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("site");
    std::fs::create_dir_all(root.join("docs")).unwrap();
    std::fs::write(root.join("docs/index.html"), "d").unwrap();
    std::fs::write(root.join("a.css"), "a").unwrap();
    std::fs::write(dir.path().join("secret.txt"), "s").unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(dir.path().join("secret.txt"), root.join("out.txt")).unwrap();
    let root = std::fs::canonicalize(&root).unwrap();
    let s = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert_eq!(
        find(&root, &s(&["docs"]), true),
        Found::File(root.join("docs/index.html"))
    );
    assert_eq!(find(&root, &s(&["docs"]), false), Found::Folder);
    assert_eq!(
        find(&root, &s(&["a.css"]), false),
        Found::File(root.join("a.css"))
    );
    assert_eq!(find(&root, &s(&["a.css"]), true), Found::Missing);
    assert_eq!(find(&root, &s(&["missing"]), false), Found::Missing);
    #[cfg(unix)]
    assert_eq!(find(&root, &s(&["out.txt"]), false), Found::Missing);
}

#[test]
fn validators_answer_not_modified() {
    let t = UNIX_EPOCH + std::time::Duration::from_secs(1_000_000);
    let mut h = HeaderMap::new();
    h.insert(
        header::IF_NONE_MATCH,
        HeaderValue::from_static("\"x\", \"e\""),
    );
    assert!(not_modified(&h, "\"e\"", t));
    assert!(!not_modified(&h, "\"f\"", t));
    let mut h = HeaderMap::new();
    let date = httpdate::fmt_http_date(t);
    h.insert(
        header::IF_MODIFIED_SINCE,
        HeaderValue::from_str(&date).unwrap(),
    );
    assert!(not_modified(&h, "\"e\"", t));
    assert!(!not_modified(
        &h,
        "\"e\"",
        t + std::time::Duration::from_secs(1)
    ));
}
