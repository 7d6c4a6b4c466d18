use super::*;

fn page(main: &str) -> String {
    format!("<aside>{PLACEHOLDER}</aside><main>{main}</main>")
}

#[test]
fn sections_and_subsections_nest() {
    let html = fill(page(
        "<h1>T</h1><h2 id=\"a\">Alpha <a class=\"permalink\" href=\"#a\">¶</a></h2>\
             <h3 id=\"a1\">one <small>reconciler <code>R</code></small></h3><h3 id=\"a2\">two &amp; <code>x</code></h3>\
             <h2 id=\"b\">Beta</h2><h4 id=\"deep\">no</h4><h3>no id</h3>",
    ));
    assert_eq!(
        html.split("<main>").next().unwrap(),
        "<aside><nav class=\"toc\" aria-label=\"On this page\"><p class=\"toc-title\">On this page</p><ul>\
             <li class=\"toc-h2\"><a href=\"#a\">Alpha</a><ul><li class=\"toc-h3\"><a href=\"#a1\">one</a></li>\
             <li class=\"toc-h3\"><a href=\"#a2\">two &amp; x</a></li></ul></li>\
             <li class=\"toc-h2\"><a href=\"#b\">Beta</a></li></ul></nav></aside>"
    );
}

#[test]
fn a_page_of_one_heading_has_no_table_and_broken_html_never_fails() {
    assert_eq!(
        fill(page("<h2 id=\"a\">A</h2>")),
        page("<h2 id=\"a\">A</h2>").replace(PLACEHOLDER, "")
    );
    for main in [
        "<h2 id=\"x\">open",
        "<h2",
        "<h3 id=\"",
        "<h2 id=\"a\"></h2>",
        "<h2 id=\"a>x</h2>",
    ] {
        let _ = fill(page(main));
    }
    assert_eq!(fill("no placeholder".into()), "no placeholder");
}

#[test]
fn subsections_past_the_limit_are_left_out() {
    let mut main = String::from("<h2 id=\"s\">S</h2><h2 id=\"t\">T</h2>");
    for i in 0..=MAX_SUBSECTIONS {
        main.push_str(&format!("<h3 id=\"r{i}\">R</h3>"));
    }
    let html = fill(page(&main));
    assert!(html.contains("href=\"#t\""));
    assert!(!html.split("<main>").next().unwrap().contains("toc-h3"));
}
