//! The site's own pages, repository markdown and themes, through the real binary: content
//! and overview pages as snapshots, hostile repository text rendered inert, theme
//! overrides of templates and static files, and template errors that name the file.

use std::path::{Path, PathBuf};
use std::process::Output;

mod common;
use common::portolan as bin;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

fn build(config: &Path, out: &Path) -> Output {
    let o = bin()
        .args(["build", "-q", "--config"])
        .arg(config)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap();
    eprintln!("stderr:\n{}", String::from_utf8_lossy(&o.stderr));
    o
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The `<main>` element of a page, so snapshots do not churn with the page chrome.
fn main_of(html: &str) -> &str {
    let start = html.find("<main>").expect("page has <main>");
    let end = html.find("</main>").expect("page has </main>");
    &html[start..end + "</main>".len()]
}

/// Every HTML file under `dir`, as (relative path, text), sorted.
fn html_files(dir: &Path) -> Vec<(String, String)> {
    common::all_files(dir)
        .into_iter()
        .filter(|(path, _)| path.ends_with(".html"))
        .map(|(path, bytes)| (path, String::from_utf8(bytes).unwrap()))
        .collect()
}

#[test]
fn content_pages_and_the_overview_with_readme_and_docs() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("site");
    assert!(
        build(&fixtures().join("portal.toml"), &out)
            .status
            .success()
    );
    insta::assert_snapshot!(
        "content-guide-setup-main",
        main_of(&read(&out.join("guide/setup/index.html")))
    );
    insta::assert_snapshot!(
        "widget-operator-overview-main",
        main_of(&read(&out.join("projects/widget-operator/index.html")))
    );
    insta::assert_snapshot!(
        "widget-operator-doc-main",
        main_of(&read(
            &out.join("projects/widget-operator/docs/docs/guide/index.html")
        ))
    );
    // The home page carries content/index.md; every page's sidebar lists the top pages,
    // sorted by weight (Guide 1, About 5), between the portal's pages and Search.
    let home = read(&out.join("index.html"));
    assert!(home.contains(
        "<p>This portal documents two synthetic projects. Start with the <a href=\"/atlas/guide/\">guide</a>\nor the <a href=\"/atlas/projects/widget-operator/\">Widget Operator</a>.</p>"
    ));
    assert!(home.contains(
        "<li><a href=\"/atlas/guide/\">Guide</a></li><li><a href=\"/atlas/about/\">About</a></li><li><a href=\"/atlas/search/\">Search</a></li>"
    ));
    // Content assets and the images docs reference are copied byte for byte.
    assert_eq!(
        std::fs::read(out.join("guide/shot.png")).unwrap(),
        std::fs::read(fixtures().join("atlas-content/guide/shot.png")).unwrap()
    );
    assert_eq!(
        std::fs::read(out.join("projects/widget-operator/files/docs/img/flow.png")).unwrap(),
        std::fs::read(fixtures().join("widget-operator/docs/img/flow.png")).unwrap()
    );
}

/// The attribute values of `name="…"` in `html`.
fn attribute_values<'a>(html: &'a str, name: &str) -> Vec<&'a str> {
    let needle = format!(" {name}=\"");
    html.match_indices(&needle)
        .filter_map(|(i, _)| {
            let rest = &html[i + needle.len()..];
            rest.find('"').map(|end| &rest[..end])
        })
        .collect()
}

#[test]
fn hostile_repository_text_is_inert_on_every_page() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("site");
    assert!(build(&fixtures().join("inert.toml"), &out).status.success());
    let pages = html_files(&out);
    // The Evil CRD is bundled (no Go API package declares its group): the project's short
    // page of it, and its shared reference with that reference's all-fields page.
    assert_eq!(
        pages.len(),
        23,
        "{:?}",
        pages.iter().map(|p| &p.0).collect::<Vec<_>>()
    );
    let theme_scripts = [
        "<script>try{var t=localStorage.getItem(\"portolan-theme\");",
        "<script src=\"/inert/static/theme.js\" defer>",
        "<script src=\"/inert/static/diagrams.js\" defer>",
        "<script src=\"/inert/static/nav.js\" defer>",
        "<script src=\"/inert/static/schema.js\" defer>",
        "<script src=\"/inert/static/search.js\" defer>",
    ];
    for (path, html) in &pages {
        // The only scripts are the theme's own.
        let scripts: Vec<&str> = html
            .match_indices("<script")
            .map(|(i, _)| &html[i..])
            .collect();
        assert!(scripts.len() >= 2, "{path}: {scripts:?}");
        for script in &scripts {
            assert!(
                theme_scripts.iter().any(|t| script.starts_with(t)),
                "{path}: {script:.80}"
            );
        }
        let lower = html.to_ascii_lowercase();
        // No event handler attribute on any tag, no style attribute, no frames or forms.
        for tag in lower.match_indices('<').map(|(i, _)| &lower[i..]) {
            let tag = &tag[..tag.find('>').unwrap_or(tag.len())];
            assert!(
                !tag.contains(" onerror") && !tag.contains(" onload") && !tag.contains(" onclick"),
                "{path}: {tag}"
            );
            assert!(!tag.contains(" style="), "{path}: {tag}");
            assert!(!tag.starts_with("<iframe"), "{path}: {tag}");
            // The only forms are the theme's search forms (header box and search page).
            if tag.starts_with("<form") {
                assert!(
                    tag.starts_with("<form class=\"search\" action=\"/inert/search/\"")
                        || tag.starts_with("<form class=\"site-search\" action=\"/inert/search/\""),
                    "{path}: {tag}"
                );
            }
            // The only SVG is the diagrams portolan draws itself and the theme's icons.
            if tag.starts_with("<svg") {
                assert!(
                    tag.contains(" class=\"diagram ") || tag.starts_with("<svg class=\"icon"),
                    "{path}: {tag}"
                );
            }
        }
        // Diagram links are plain SVG 2 `href` attributes, checked below with every other
        // URL: no namespaced `xlink:href` (or any `…:href`) can slip past that check.
        assert!(!lower.contains(":href"), "{path}: a namespaced href");
        // Every URL is the site's own, an anchor, or the theme's empty icon.
        for url in attribute_values(html, "href")
            .into_iter()
            .chain(attribute_values(html, "src"))
            .chain(attribute_values(html, "action"))
        {
            assert!(
                url.starts_with("/inert/") || url.starts_with('#') || url == "data:,",
                "{path}: {url}"
            );
        }
    }
    let page = |p: &str| {
        pages
            .iter()
            .find(|(path, _)| path == p)
            .map(|(_, html)| html.as_str())
            .unwrap_or_else(|| panic!("no page {p}"))
    };
    // Plain text (names, descriptions, CRD fields, ConfigMap keys) is escaped, and template
    // syntax is shown as written, never evaluated.
    let overview = page("projects/inert-operator/index.html");
    // go.mod and Dockerfile text is shown as written, escaped.
    assert!(
        overview.contains("example.com/<wbr>&quot;&gt;&lt;script&gt;alert(2)&lt;/<wbr>script&gt;")
    );
    let configuration = page("projects/inert-operator/configuration/index.html");
    assert!(configuration.contains("USER &lt;img src=x onerror=alert(5)&gt;"));
    assert!(overview.contains("<h1>&lt;script&gt;alert(1)&lt;/script&gt;</h1>"));
    assert!(overview.contains(
        "<p class=\"lead\">&lt;img src=x onerror=alert(1)&gt; {{ config }} {% raw %}</p>"
    ));
    // In the README, markup is removed by the sanitizer, text and code stay.
    assert!(overview.contains(
        "<p>Template syntax: {{ config }}, {% raw %}, {% include \"base.html\" %}, {# comment #}.</p>"
    ));
    assert!(overview.contains("<p><a>click me</a> and <a>again</a> and <a>raw</a></p>"));
    assert!(
        overview.contains("<code>&lt;script&gt;alert(1)&lt;/script&gt;</code> in code stays code.")
    );
    // Bundled, so its schema is on its shared reference (`kinds/GROUP/KIND/CONTENT/`).
    let shared = pages
        .iter()
        .map(|(path, _)| path.as_str())
        .find(|p| {
            p.starts_with("kinds/inert.example.io/Evil/")
                && p.matches('/').count() == 4
                && !p.contains("all-fields")
        })
        .expect("the bundled Evil kind's shared reference");
    let kind = page(shared);
    assert!(kind.contains(
        "<p class=\"desc\">&lt;script&gt;alert(1)&lt;/script&gt; {{ config }} {% raw %}</p>"
    ));
    assert!(kind.contains("&lt;img src=x onerror=alert(1)&gt; [x](javascript:alert(1))"));
    assert!(kind.contains("<code>&quot;{{ config }}&quot;</code>"));
    let configuration = page("projects/inert-operator/configuration/index.html");
    // Template text in a value is set apart as such, still escaped and never evaluated.
    assert!(configuration.contains(
        r#"inert-<code class="template" title="Template text, not rendered">{{ config }}</code>"#
    ));
    assert!(configuration.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    let doc = page("projects/inert-operator/docs/docs/evil/index.html");
    assert!(doc.contains("<title>&lt;script&gt;alert(1)&lt;/script&gt; {{ config }} · "));
    assert!(doc.contains("<p>{% raw %}{{ config }}{% endraw %}</p>"));
    assert!(
        doc.contains("<img alt=\"x\">"),
        "an SVG data URL is dropped"
    );
    let home = page("index.html");
    assert!(home.contains("Site content is sanitized too:  {{ config }} {% raw %}\n<a>x</a>"));
    // Built twice, the hostile site is byte-identical too.
    let again = dir.path().join("again");
    assert!(
        build(&fixtures().join("inert.toml"), &again)
            .status
            .success()
    );
    assert_eq!(pages, html_files(&again));
}

/// A copy of the widget-operator fixture with a site theme folder `themes/default/`.
fn themed(files: &[(&str, &str)]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("repo");
    std::fs::create_dir_all(repo.join("api")).unwrap();
    std::fs::write(repo.join("README.md"), "# Repo\n").unwrap();
    for (path, text) in files {
        let p = dir.path().join("themes/default").join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    let config = dir.path().join("projects.toml");
    std::fs::write(
        &config,
        "[site]\nbase_url = \"/x/\"\n\n[[project]]\nname = \"repo\"\npath = \"repo\"\n",
    )
    .unwrap();
    (dir, config)
}

#[test]
fn a_site_theme_overrides_templates_and_static_files_by_path() {
    let (dir, config) = themed(&[
        (
            "templates/project.html",
            "{% extends \"base.html\" %}{% block main %}<p>custom overview of {{ title }}</p>{% endblock main %}",
        ),
        ("static/style.css", "body { color: red }\n"),
        ("static/extra.txt", "added\n"),
    ]);
    let out = dir.path().join("site");
    assert!(build(&config, &out).status.success());
    assert_eq!(
        main_of(&read(&out.join("projects/repo/index.html"))),
        "<main>\n<p>custom overview of repo</p>\n</main>"
    );
    assert_eq!(read(&out.join("static/style.css")), "body { color: red }\n");
    assert_eq!(read(&out.join("static/extra.txt")), "added\n");
    // Files not overridden come from the built-in theme.
    assert!(read(&out.join("static/theme.js")).contains("portolan-theme"));
    assert!(
        read(&out.join("projects/repo/dataflow/index.html")).contains("<h2 id=\"controllers\"")
    );
}

#[test]
fn template_errors_name_the_file_line_and_variable() {
    let (dir, config) = themed(&[(
        "templates/project.html",
        "{% extends \"base.html\" %}\n{% block main %}\n<p>{{ no_such_thing.name }}</p>\n{% endblock main %}\n",
    )]);
    let o = build(&config, &dir.path().join("site"));
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    let file = dir.path().join("themes/default/templates/project.html");
    assert!(
        err.contains(
            "error: rendering project.html: error: Variable `no_such_thing` is not defined."
        ),
        "{err}"
    );
    assert!(err.contains(" --> project.html:3:7"), "{err}");
    assert!(
        err.contains(&format!("note: project.html is {}", file.display())),
        "{err}"
    );

    let (dir, config) = themed(&[("templates/doc.html", "<h1>{{ title }</h1>\n")]);
    let o = build(&config, &dir.path().join("site"));
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("error: theme templates: error: Found `}` but expected }}."),
        "{err}"
    );
    assert!(err.contains(" --> doc.html:1:14"), "{err}");
}

#[test]
fn front_matter_errors_name_the_file_and_line() {
    let (dir, config) = themed(&[]);
    let content = dir.path().join("content");
    std::fs::create_dir_all(&content).unwrap();
    std::fs::write(
        content.join("about.md"),
        "---\ntitle: About\nauthor: me\n---\n",
    )
    .unwrap();
    let o = build(&config, &dir.path().join("site"));
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    let expected = format!(
        "error: {}:3: front matter: unknown field `author`, expected one of title, weight, description",
        content.join("about.md").display()
    );
    assert!(err.contains(&expected), "{err}");
}

#[test]
fn mermaid_js_needs_the_script_in_the_theme() {
    let (dir, config) = themed(&[]);
    let text = read(&config).replace("[site]\n", "[site]\nmermaid_js = true\n");
    std::fs::write(&config, text).unwrap();
    let o = build(&config, &dir.path().join("site"));
    assert_eq!(o.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&o.stderr)
            .contains("mermaid_js = true needs the script at themes/default/static/mermaid.min.js")
    );
    let (dir, config) = themed(&[("static/mermaid.min.js", "window.mermaid = {};\n")]);
    let text = read(&config).replace("[site]\n", "[site]\nmermaid_js = true\n");
    std::fs::write(&config, text).unwrap();
    std::fs::write(
        dir.path().join("repo/README.md"),
        "```mermaid\ngraph TD; A-->B\n```\n",
    )
    .unwrap();
    let out = dir.path().join("site");
    assert!(build(&config, &out).status.success());
    let page = read(&out.join("projects/repo/index.html"));
    assert!(page.contains("<pre class=\"mermaid\">graph TD; A--&gt;B\n</pre>"));
    assert!(page.contains("<script src=\"/x/static/mermaid.min.js\" defer></script>"));
}

/// The guide's pages table (`## Every page, by path` in `content/guide/pages.md`) names
/// every kind of page folder the fixture portal writes: a page added without its row fails
/// here.
#[test]
fn every_page_folder_is_named_in_the_guide() {
    let guide = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("content/guide/pages.md"),
    )
    .unwrap();
    let table = guide
        .split("\n## Every page, by path")
        .nth(1)
        .and_then(|rest| rest.split("\n## ").next())
        .expect("content/guide/pages.md has a `## Every page, by path` section");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("site");
    assert!(
        build(&fixtures().join("portal.toml"), &out)
            .status
            .success()
    );
    let mut folders = std::collections::BTreeSet::new();
    for (page, _) in html_files(&out) {
        let Some(folder) = page.strip_suffix("index.html") else {
            continue;
        };
        folders.insert(pattern(folder));
    }
    if out.join("projects/widget-operator/files").is_dir() {
        folders.insert("/projects/P/files/".to_string());
    }
    let missing: Vec<&String> = folders
        .iter()
        .filter(|f| !table.contains(&format!("`{f}`")) && !table.contains(&format!("`{f}` and")))
        .collect();
    assert!(
        missing.is_empty(),
        "pages the guide's table (content/guide/pages.md) does not name: {missing:?}"
    );
    // The fixture portal writes every kind the table lists for it, or this test would
    // pass on a portal that lost a page.
    for expected in [
        "/kinds/GROUP/KIND/",
        "/platform/kubernetes-apis/",
        "/projects/P/api/GROUP/KIND/all-fields/",
    ] {
        assert!(
            folders.contains(expected),
            "{expected} not written: {folders:?}"
        );
    }
}

/// A page folder as the guide's table writes it: `projects/widget-operator/api/g/K/` is
/// `/projects/P/api/GROUP/KIND/`; a content page is `/PATH/`.
fn pattern(folder: &str) -> String {
    let parts: Vec<&str> = folder
        .trim_end_matches('/')
        .split('/')
        .filter(|p| !p.is_empty())
        .collect();
    let named: Vec<String> = match parts.as_slice() {
        [] => Vec::new(),
        ["projects", _, rest @ ..] => {
            let mut out = vec!["projects".to_string(), "P".into()];
            match rest {
                ["api", _, _, tail @ ..] => {
                    out.extend(["api".into(), "GROUP".into(), "KIND".into()]);
                    out.extend(tail.iter().map(|t| t.to_string()));
                }
                ["controllers", _] => out.extend(["controllers".into(), "NAME".into()]),
                ["docs", _, ..] => out.extend(["docs".into(), "PATH".into()]),
                other => out.extend(other.iter().map(|t| t.to_string())),
            }
            out
        }
        ["kinds", _, _] => vec!["kinds".into(), "GROUP".into(), "KIND".into()],
        ["kinds", _, _, _, tail @ ..] => {
            let mut out = vec![
                "kinds".into(),
                "GROUP".into(),
                "KIND".into(),
                "CONTENT".into(),
            ];
            out.extend(tail.iter().map(|t| t.to_string()));
            out
        }
        [first, ..] if ["kinds", "platform", "search", "changes"].contains(first) => {
            parts.iter().map(|p| p.to_string()).collect()
        }
        _ => vec!["PATH".into()],
    };
    if named.is_empty() {
        "/".into()
    } else {
        format!("/{}/", named.join("/"))
    }
}
