use super::*;

#[test]
fn escaping_keeps_markup_inert() {
    assert_eq!(
        escape("<script>alert('x')</script> & \"q\""),
        "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;q&quot;"
    );
    assert_eq!(escape("a\u{0}b\nc"), "a b c");
}

#[test]
fn only_site_paths_anchors_and_http_links() {
    assert_eq!(
        safe_href("/atlas/kinds/core/Pod/"),
        Some("/atlas/kinds/core/Pod/")
    );
    assert_eq!(safe_href("#row"), Some("#row"));
    assert_eq!(
        safe_href("https://github.com/a/b"),
        Some("https://github.com/a/b")
    );
    assert_eq!(safe_href("javascript:alert(1)"), None);
    assert_eq!(safe_href("//evil.example/"), None);
    assert_eq!(safe_href(""), None);
    let mut out = String::new();
    assert!(!open_link(&mut out, "JavaScript:alert(1)"));
    assert_eq!(out, "");
}

#[test]
fn long_text_is_cut_with_an_ellipsis() {
    assert_eq!(fit("abcdef", 6), ("abcdef".to_string(), false));
    assert_eq!(fit("abcdefg", 6), ("abcde…".to_string(), true));
    let mut out = String::new();
    text(&mut out, 1, 2, "start", "t", "a<b>cdefgh", 5);
    assert_eq!(
        out,
        "<text x=\"1\" y=\"2\" text-anchor=\"start\" class=\"t\"><title>a&lt;b&gt;cdefgh</title>a&lt;b&gt;…</text>"
    );
}
