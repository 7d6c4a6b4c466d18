use super::*;
use source::content::{Asset, parse_page};

#[test]
fn pages_links_and_navigation() {
    let page = |file: &str, text: &str| parse_page(file, file, text).unwrap();
    let content = Content {
        pages: vec![
            page("about.md", "+++\nweight = 2\n+++\n# About\n"),
            page(
                "guide/_index.md",
                "+++\nweight = 1\n+++\n# Guide\n[setup](setup.md#run) [missing](nope.md) [about](../about.md) [w](/projects/w/) [r](../projects/w/) ![s](shot.png) [t](#x)",
            ),
            page("guide/setup.md", "# Setup\n"),
            page("index.md", "Welcome, see [the guide](guide/_index.md)."),
        ],
        assets: vec![Asset {
            path: "guide/shot.png".into(),
            bytes: vec![],
        }],
    };
    let r = render(&content, "/atlas/", false);
    assert_eq!(
        r.nav,
        [
            NavEntry {
                title: "Guide".into(),
                url: "/atlas/guide/".into()
            },
            NavEntry {
                title: "About".into(),
                url: "/atlas/about/".into()
            },
        ]
    );
    assert_eq!(
        r.home_html,
        "<p>Welcome, see <a href=\"/atlas/guide/\">the guide</a>.</p>\n"
    );
    let guide = &r.pages[1];
    assert_eq!(guide.path, "guide/");
    assert_eq!(
        guide.html,
        "<h1 id=\"guide\">Guide <a class=\"permalink\" href=\"#guide\" aria-label=\"Link to this section\">¶</a></h1>\n\
             <p><a href=\"/atlas/guide/setup/#run\">setup</a> <a href=\"/atlas/guide/nope/\">missing</a> \
             <a href=\"/atlas/about/\">about</a> <a href=\"/atlas/projects/w/\">w</a> <a href=\"/atlas/projects/w/\">r</a> \
             <img src=\"/atlas/guide/shot.png\" alt=\"s\"> <a href=\"#x\">t</a></p>\n"
    );
    let section: Vec<(&str, bool)> = guide
        .section
        .iter()
        .map(|n| (n.title.as_str(), n.current))
        .collect();
    assert_eq!(section, [("Guide", true), ("Setup", false)]);
    assert!(r.pages[0].section.is_empty());
}
