use super::*;

fn f(path: &str, html: &str) -> OutputFile {
    OutputFile {
        path: path.into(),
        bytes: html.as_bytes().to_vec(),
    }
}

#[test]
fn finds_missing_pages_and_anchors() {
    let files = vec![
        f(
            "index.html",
            r##"<a href="/x/a/">a</a><a href="/x/a/#row">r</a><a href="/x/b/">b</a><a href="#top">t</a><a href="https://e.com/">e</a>"##,
        ),
        f("a/index.html", r#"<tr id="row"></tr>"#),
    ];
    assert_eq!(
        broken_links(&files, "/x/"),
        vec![
            "index.html: #top".to_string(),
            "index.html: /x/b/".to_string()
        ]
    );
}
