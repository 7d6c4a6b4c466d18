use super::*;

fn p(m: &str, h: &str, path: &str) -> Option<Pattern> {
    Some(Pattern {
        method: m.into(),
        host: h.into(),
        path: path.into(),
    })
}

#[test]
fn go_1_22_patterns() {
    assert_eq!(split_pattern("GET /health"), p("GET", "", "/health"));
    assert_eq!(split_pattern("/x"), p(ANY, "", "/x"));
    assert_eq!(split_pattern("example.com/x"), p(ANY, "example.com", "/x"));
    assert_eq!(
        split_pattern("POST\t api.example.com/v1/{id}"),
        p("POST", "api.example.com", "/v1/{id}")
    );
    assert_eq!(split_pattern("/"), p(ANY, "", "/"));
    assert_eq!(split_pattern("gateway.networking.k8s.io"), None);
    assert_eq!(split_pattern("GET"), None);
    assert_eq!(split_pattern("a/b /c"), None);
    assert_eq!(split_pattern(""), None);
}

#[test]
fn prefixes_join_with_one_slash() {
    assert_eq!(join("", "/x"), "/x");
    assert_eq!(join("/api", "/x"), "/api/x");
    assert_eq!(join("/api/", "/x"), "/api/x");
    assert_eq!(join("/api", "x"), "/api/x");
    assert_eq!(join("/api", ""), "/api");
    assert_eq!(prefix_match("/static/"), "/static/*");
    assert_eq!(prefix_match("/api"), "/api*");
    assert_eq!(prefix_match(""), "/*");
}
