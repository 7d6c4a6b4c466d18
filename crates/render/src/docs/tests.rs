use super::*;
use model::{Doc, DocImage};

fn project() -> Project {
    let doc = |path: &str, md: &str, readme: bool| Doc {
        path: path.into(),
        title: path.into(),
        markdown: md.into(),
        readme,
    };
    Project {
        name: "p".into(),
        title: "P".into(),
        commit: "abc".into(),
        source_url: "https://github.com/o/p/blob/{commit}/{path}#L{line}".into(),
        docs: vec![
            doc(
                "README.md",
                "# P\n\n## Counts\n\n[guide](docs/guide.md#setup) [main](cmd/main.go) [dir](config/) [out](../x) ![logo](docs/img/logo.png) ![gone](docs/img/none.png)",
                true,
            ),
            doc(
                "docs/guide.md",
                "[home](../README.md) [sub](sub/README.md) [readme](/README.md#counts)",
                false,
            ),
            doc(
                "docs/sub/README.md",
                "![l](../img/logo.png) <img src=\"../img/flow.svg\" alt=\"s\">",
                false,
            ),
        ],
        doc_images: vec![
            DocImage {
                path: "docs/img/logo.png".into(),
                bytes: vec![1, 2],
            },
            DocImage {
                path: "docs/img/flow.svg".into(),
                bytes: b"<svg/>".to_vec(),
            },
        ],
        ..Project::default()
    }
}

#[test]
fn links_point_at_portal_pages_sources_and_copies() {
    let d = project_docs(&project(), "/atlas/", false);
    assert_eq!(
        d.readme_html,
        "<h2 id=\"p\">P <a class=\"permalink\" href=\"#p\" aria-label=\"Link to this section\">¶</a></h2>\n\
             <h3 id=\"counts-1\">Counts <a class=\"permalink\" href=\"#counts-1\" aria-label=\"Link to this section\">¶</a></h3>\n\
             <p><a href=\"/atlas/projects/p/docs/docs/guide/#setup\">guide</a> \
             <a href=\"https://github.com/o/p/blob/abc/cmd/main.go\">main</a> \
             <a href=\"https://github.com/o/p/blob/abc/config\">dir</a> <a>out</a> \
             <img src=\"/atlas/projects/p/files/docs/img/logo.png\" alt=\"logo\"> <img alt=\"gone\"></p>\n"
    );
    let pages: Vec<(&str, &str)> = d
        .pages
        .iter()
        .map(|p| (p.path.as_str(), p.html.as_str()))
        .collect();
    assert_eq!(
        pages,
        [
            (
                "projects/p/docs/docs/guide/",
                "<p><a href=\"/atlas/projects/p/\">home</a> <a href=\"/atlas/projects/p/docs/docs/sub/\">sub</a> <a href=\"/atlas/projects/p/#counts\">readme</a></p>\n"
            ),
            (
                "projects/p/docs/docs/sub/",
                // The SVG inline (`<svg/>` in base64): no file of the site serves it.
                "<p><img src=\"/atlas/projects/p/files/docs/img/logo.png\" alt=\"l\"> <img src=\"data:image/svg+xml;base64,PHN2Zy8+\" alt=\"s\"></p>\n"
            ),
        ]
    );
    assert_eq!(
        d.pages[0].file_url,
        "https://github.com/o/p/blob/abc/docs/guide.md"
    );
    assert_eq!(
        d.images,
        [OutputFile {
            path: "projects/p/files/docs/img/logo.png".into(),
            bytes: vec![1, 2]
        }]
    );
    let nav: Vec<(&str, bool)> = d.pages[1]
        .docs
        .iter()
        .map(|n| (n.url.as_str(), n.current))
        .collect();
    assert_eq!(
        nav,
        [
            ("/atlas/projects/p/docs/docs/guide/", false),
            ("/atlas/projects/p/docs/docs/sub/", true)
        ]
    );
}

#[test]
fn without_a_source_template_other_files_are_not_linked() {
    let mut p = project();
    p.source_url.clear();
    let d = project_docs(&p, "/", false);
    assert!(d.readme_html.contains("<a>main</a>"), "{}", d.readme_html);
}

#[test]
fn doc_folders() {
    assert_eq!(
        doc_folder("projects/p/", "docs/Getting Started.md"),
        "projects/p/docs/docs/Getting-Started/"
    );
    assert_eq!(
        doc_folder("projects/p/", "docs/index.md"),
        "projects/p/docs/docs/"
    );
    let mut taken = Default::default();
    assert_eq!(unique(&mut taken, "a/".into()), "a/");
    assert_eq!(unique(&mut taken, "a/".into()), "a-2/");
}

#[test]
fn a_top_level_readme_or_index_that_is_not_the_readme_keeps_off_the_index_page() {
    // Found by the fuzzer: a model whose `README.md` is not marked as the README put a
    // doc page on the docs index page's path.
    let doc = |path: &str| Doc {
        path: path.into(),
        title: path.into(),
        markdown: "# x".into(),
        readme: false,
    };
    let p = Project {
        name: "p".into(),
        docs: vec![doc("README.md"), doc("index.md")],
        ..Default::default()
    };
    let d = project_docs(&p, "/", false);
    let paths: Vec<&str> = d.pages.iter().map(|page| page.path.as_str()).collect();
    assert_eq!(paths, ["projects/p/docs-2/", "projects/p/docs-3/"]);
}
