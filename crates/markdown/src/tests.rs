use super::*;

/// Links for tests: relative paths become `/site/PATH/`, images `/img/PATH`.
struct Plain;
impl Links for Plain {
    fn resolve(&self, usage: Use, path: &str, fragment: Option<&str>) -> Option<String> {
        let f = fragment.map(|f| format!("#{f}")).unwrap_or_default();
        match usage {
            Use::Link if path.ends_with(".md") => {
                Some(format!("/site/{}/{f}", path.trim_end_matches(".md")))
            }
            Use::Link => None,
            Use::Image => Some(format!("/img/{path}")),
        }
    }
}

fn html(md: &str) -> String {
    render(md, Arc::new(Plain), Settings::default()).html
}

#[test]
fn headings_get_ids_and_permalinks() {
    let r = render(
        "# Hello *World*\n\n## Usage\n\n## Usage\n\n## main-content\n",
        Arc::new(Plain),
        Settings {
            mermaid: false,
            reserved_ids: &["main-content"],
            heading_offset: 0,
        },
    );
    assert_eq!(
        r.html,
        "<h1 id=\"hello-world\">Hello <em>World</em> <a class=\"permalink\" href=\"#hello-world\" aria-label=\"Link to this section\">¶</a></h1>\n\
             <h2 id=\"usage\">Usage <a class=\"permalink\" href=\"#usage\" aria-label=\"Link to this section\">¶</a></h2>\n\
             <h2 id=\"usage-1\">Usage <a class=\"permalink\" href=\"#usage-1\" aria-label=\"Link to this section\">¶</a></h2>\n\
             <h2 id=\"main-content-1\">main-content <a class=\"permalink\" href=\"#main-content-1\" aria-label=\"Link to this section\">¶</a></h2>\n"
    );
    assert_eq!(r.title.as_deref(), Some("Hello World"));
    assert_eq!(r.headings.len(), 4);
    assert_eq!(r.headings[2].id, "usage-1");
}

fn ids_of(md: &str, reserved: &[&str]) -> Vec<String> {
    let settings = Settings {
        reserved_ids: reserved,
        ..Settings::default()
    };
    render(md, Arc::new(Plain), settings)
        .headings
        .into_iter()
        .map(|h| h.id)
        .collect()
}

#[test]
fn repeated_headings_are_numbered_around_literal_suffixes() {
    // GitHub's rule: a literal `x-1` keeps its id and a later `x` skips it; a heading
    // `x-1` that comes after the second `x` becomes `x-1-1`.
    assert_eq!(
        ids_of("# x\n# x-1\n# x\n# x\n# x-1\n# x-3\n", &[]),
        ["x", "x-1", "x-2", "x-3", "x-1-1", "x-3-1"]
    );
    // Reserved ids are skipped like literal ones.
    assert_eq!(
        ids_of("# top\n# top\n# top\n", &["top", "top-2"]),
        ["top-1", "top-3", "top-4"]
    );
}

#[test]
fn many_equal_headings_get_consecutive_unique_ids() {
    let n = 3000;
    let ids = ids_of(&"# same heading\n\n".repeat(n), &[]);
    let expected: Vec<String> = std::iter::once("same-heading".to_string())
        .chain((1..n).map(|k| format!("same-heading-{k}")))
        .collect();
    assert_eq!(ids, expected);
}

#[test]
fn headings_can_be_shifted_below_the_page_title() {
    let r = render(
        "# Title\n\n###### Deep\n",
        Arc::new(Plain),
        Settings {
            heading_offset: 1,
            ..Settings::default()
        },
    );
    assert_eq!(
        r.html,
        "<h2 id=\"title\">Title <a class=\"permalink\" href=\"#title\" aria-label=\"Link to this section\">¶</a></h2>\n\
             <h6 id=\"deep\">Deep <a class=\"permalink\" href=\"#deep\" aria-label=\"Link to this section\">¶</a></h6>\n"
    );
    assert_eq!(r.title.as_deref(), Some("Title"));
    assert_eq!(r.headings[0].level, 1);
}

#[test]
fn github_alerts_are_titled_boxes_and_plain_quotes_stay() {
    assert_eq!(
        html("> [!IMPORTANT]\n> Read **this**.\n\n> [!WARNING]\n> Careful.\n\n> Just a quote.\n"),
        "<div class=\"alert alert-important\"><p class=\"alert-title\">Important</p>\n<p>Read <strong>this</strong>.</p>\n</div>\n\
             <div class=\"alert alert-warning\"><p class=\"alert-title\">Warning</p>\n<p>Careful.</p>\n</div>\n\
             <blockquote>\n<p>Just a quote.</p>\n</blockquote>\n"
    );
    // Raw HTML keeps only the listed classes, and no handler.
    assert_eq!(
        html("<div class=\"alert alert-note evil\" onclick=\"x()\">x</div>"),
        "<div class=\"alert alert-note\">x</div>"
    );
}

#[test]
fn tables_scroll_in_a_wrapper() {
    assert_eq!(
        html("| a | b |\n|---|---|\n| 1 | 2 |\n"),
        "<div class=\"table-wrap\"><table><thead><tr><th>a</th><th>b</th></tr></thead><tbody>\n<tr><td>1</td><td>2</td></tr>\n</tbody></table>\n</div>\n"
    );
}

#[test]
fn task_lists_strikethrough_and_footnotes() {
    assert_eq!(
        html("- [x] done\n- [ ] ~~todo~~\n"),
        "<ul>\n<li><input disabled=\"\" type=\"checkbox\" checked=\"\">\ndone</li>\n<li><input disabled=\"\" type=\"checkbox\">\n<del>todo</del></li>\n</ul>\n"
    );
    assert_eq!(
        html("Text[^n].\n\n[^n]: The note.\n"),
        "<p>Text<sup class=\"footnote-reference\"><a href=\"#n\">1</a></sup>.</p>\n<div class=\"footnote-definition\" id=\"n\"><sup class=\"footnote-definition-label\">1</sup>\n<p>The note.</p>\n</div>\n"
    );
}

#[test]
fn mermaid_blocks_are_source_unless_enabled() {
    let md = "```mermaid\ngraph TD; A-->B<script>\n```\n";
    assert_eq!(
        html(md),
        "<pre><code>graph TD; A--&gt;B&lt;script&gt;\n</code></pre>\n"
    );
    let on = render(
        md,
        Arc::new(Plain),
        Settings {
            mermaid: true,
            reserved_ids: &[],
            heading_offset: 0,
        },
    );
    assert_eq!(
        on.html,
        "<pre class=\"mermaid\">graph TD; A--&gt;B&lt;script&gt;\n</pre>\n"
    );
}

#[test]
fn links_and_images_are_resolved() {
    assert_eq!(
        html("[a](guide.md#x) [b](other.go) [c](#top) [d](https://e.org/x) ![i](img/a%20b.png)"),
        "<p><a href=\"/site/guide/#x\">a</a> <a>b</a> <a href=\"#top\">c</a> <a href=\"https://e.org/x\">d</a> <img src=\"/img/img/a b.png\" alt=\"i\"></p>\n"
    );
}

#[test]
fn dangerous_markup_is_inert() {
    assert_eq!(
        html(
            "<script>alert(1)</script>\n\n<img src=x onerror=alert(1)>\n\n[x](javascript:alert(1)) [y](JaVaScRiPt:alert(1)) <a href=\"data:text/html,hi\">z</a>\n\n<p style=\"position:fixed\" onclick=\"x()\">s</p>"
        ),
        "\n<img src=\"/img/x\">\n<p><a>x</a> <a>y</a> <a>z</a></p>\n<p>s</p>"
    );
    // Template syntax is text like any other.
    assert_eq!(
        html("{{ config }} {% raw %}"),
        "<p>{{ config }} {% raw %}</p>\n"
    );
}

#[test]
fn only_safe_images_from_outside() {
    assert_eq!(
        html(
            "![a](http://e.org/a.png) ![b](https://e.org/b.png) ![c](data:image/svg+xml;base64,PHN2Zz4=) ![d](data:image/png;base64,iVBO)"
        ),
        "<p><img alt=\"a\"> <img src=\"https://e.org/b.png\" alt=\"b\"> <img alt=\"c\"> <img src=\"data:image/png;base64,iVBO\" alt=\"d\"></p>\n"
    );
}

#[test]
fn joins() {
    assert_eq!(join("docs/a/b.md", "../c.md").as_deref(), Some("docs/c.md"));
    assert_eq!(
        join("docs/a.md", "./img/x.png").as_deref(),
        Some("docs/img/x.png")
    );
    assert_eq!(
        join("docs/a.md", "/README.md").as_deref(),
        Some("README.md")
    );
    assert_eq!(join("README.md", "../x"), None);
    assert_eq!(join("README.md", "docs/"), Some("docs".into()));
}

#[test]
fn front_matter_is_split() {
    let s = split_front_matter("+++\ntitle = \"A\"\n+++\n# Body\n");
    assert_eq!(s.front, Some((FrontMatterFormat::Toml, "title = \"A\"\n")));
    assert_eq!(s.body, "# Body\n");
    assert_eq!(s.front_line, 2);
    let s = split_front_matter("---\ntitle: A\n---\nBody");
    assert_eq!(s.front, Some((FrontMatterFormat::Yaml, "title: A\n")));
    assert_eq!(s.body, "Body");
    let s = split_front_matter("---\nno end\n");
    assert_eq!(s.front, None);
    assert_eq!(split_front_matter("Plain").body, "Plain");
    // A horizontal rule later on is not front matter.
    assert_eq!(split_front_matter("x\n---\n").front, None);
}
