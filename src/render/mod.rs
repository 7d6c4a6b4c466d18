//! Rendering: the linked model → the files of the static site.
//!
//! Stage: render. A pure function of the model, the portal and the theme: it returns the
//! site as a list of files and writes nothing (`output` does). Templates never see the
//! model itself, only the view structs of `views`, made for them.
//! **Invariant:** every string from a repository reaches HTML through tera's autoescaping.

pub mod api;
pub mod content;
pub mod counts;
pub mod docs;
pub mod flow;
pub mod graphs;
pub mod kinds;
pub mod manifests;
pub mod mermaid;
pub mod platform;
pub mod rbac_code;
pub mod sequence;
pub mod subjects;
pub mod svg;
pub mod table;
pub mod theme;
pub mod views;

use serde::Serialize;

use crate::config::Site;
use crate::content::Content;
use crate::model::{Portal, Project};
pub use theme::Theme;

/// One file of the site, at a `/`-separated path relative to the output folder.
#[derive(Debug, Clone, PartialEq)]
pub struct OutputFile {
    pub path: String,
    pub bytes: Vec<u8>,
}

/// The site's own content pages and files, as `render_site` makes them, and a fingerprint
/// of what the other pages take from the content (the navigation, the home page's text,
/// the content's paths). While the fingerprint stays the same, a content edit changes
/// only these files, so serve can render just them.
pub fn render_content(
    site: &Site,
    portal: &Portal,
    content: &Content,
    theme: &Theme,
) -> Result<(Vec<OutputFile>, String), String> {
    let site_pages = content::render(content, &site.base_path, site.mermaid_js);
    let mut chrome = views::Chrome::new(site, portal);
    chrome.pages = site_pages.nav.clone();
    let files = content_files(&site_pages, &chrome, theme)?;
    let fingerprint = content_fingerprint(&site_pages, &files);
    Ok((files, fingerprint))
}

/// What pages other than the content's own take from the content.
fn content_fingerprint(site_pages: &content::Rendered, files: &[OutputFile]) -> String {
    let paths: Vec<&str> = files.iter().map(|f| f.path.as_str()).collect();
    format!(
        "{:?}\n{:?}\n{paths:?}",
        site_pages.nav, site_pages.home_html
    )
}

/// Every file of the site, and the content fingerprint `render_content` would give.
pub struct SiteFiles {
    pub files: Vec<OutputFile>,
    pub content_fingerprint: String,
}

fn content_files(
    site_pages: &content::Rendered,
    chrome: &views::Chrome,
    theme: &Theme,
) -> Result<Vec<OutputFile>, String> {
    let mut files = Vec::new();
    for content_page in &site_pages.pages {
        files.push(OutputFile {
            path: format!("{}index.html", content_page.path),
            bytes: theme
                .render("content.html", chrome, content_page)
                .map(String::into_bytes)?,
        });
    }
    files.extend(site_pages.assets.iter().cloned());
    Ok(files)
}

/// Renders every page and data file of the site.
pub fn render_site(
    site: &Site,
    portal: &Portal,
    projects: &[Project],
    content: &Content,
    theme: &Theme,
) -> Result<SiteFiles, String> {
    let mut files = Vec::new();
    if site.mermaid_js && !theme.has_static(MERMAID_SCRIPT) {
        return Err(format!(
            "mermaid_js = true needs the script at themes/{}/static/{MERMAID_SCRIPT} (copy dist/mermaid.min.js of the npm package `mermaid`); portolan loads nothing from other sites",
            site.theme
        ));
    }
    let site_pages = content::render(content, &site.base_path, site.mermaid_js);
    let mut chrome = views::Chrome::new(site, portal);
    chrome.pages = site_pages.nav.clone();
    let page = |template: &str, view: &dyn erased::View| -> Result<Vec<u8>, String> {
        theme
            .render(template, &chrome, view)
            .map(String::into_bytes)
    };

    let kind_pages = table::KindPages::of(&site.base_path, portal);
    let mut home = views::home(portal, &site.base_path);
    home.graph = graphs::projects(portal, &site.base_path, &kind_pages)
        .map(|g| svg::graph::render(&g))
        .unwrap_or_default();
    files.push(OutputFile {
        path: "index.html".into(),
        bytes: page(
            "index.html",
            &WithHtml {
                view: &home,
                intro_html: &site_pages.home_html,
                project_docs: None,
            },
        )?,
    });
    let own_files = content_files(&site_pages, &chrome, theme)?;
    let content_fingerprint = content_fingerprint(&site_pages, &own_files);
    files.extend(own_files);
    let kind_links = table::KindLinks::new(&site.base_path, projects, portal);
    let names = crate::resources::ResourceNames::new(projects);
    let diagram_links = sequence::Links {
        root: &site.base_path,
        kinds: &kind_pages,
    };
    for project in projects {
        let mut view = views::dataflow(project, &site.base_path, &kind_links);
        let (flows, flow_files) = flow::project(project, &diagram_links);
        view.flows = flows;
        files.extend(flow_files);
        let base = format!("projects/{}/", project.name);
        let project_docs = docs::project_docs(project, &site.base_path, site.mermaid_js);
        for doc in &project_docs.pages {
            files.push(OutputFile {
                path: format!("{}index.html", doc.path),
                bytes: page("doc.html", doc)?,
            });
        }
        if !project_docs.index.docs.is_empty() {
            files.push(OutputFile {
                path: format!("{base}docs/index.html"),
                bytes: page("docs_index.html", &project_docs.index)?,
            });
        }
        files.extend(project_docs.images);
        files.push(OutputFile {
            path: format!("{base}api/index.html"),
            bytes: page("api_index.html", &api::index(project, &site.base_path))?,
        });
        for kind in api::kind_pages(project) {
            files.push(OutputFile {
                path: format!("{}index.html", kind.path),
                bytes: page("api_kind.html", &kind)?,
            });
        }
        let drawn =
            |g: Option<svg::graph::Graph>| g.map(|g| svg::graph::render(&g)).unwrap_or_default();
        let mut network = manifests::network(project);
        network.diagram = drawn(graphs::service_map(project, &site.base_path));
        let mut security = security(project, portal, &kind_links, &names, &site.base_path);
        security.diagram = drawn(graphs::rbac(project, &site.base_path));
        for (folder, view) in [
            ("configuration", manifests::configuration(project)),
            ("network", network),
            ("security", security),
        ] {
            files.push(OutputFile {
                path: format!("{base}{folder}/index.html"),
                bytes: page("sections.html", &view)?,
            });
        }
        files.push(OutputFile {
            path: format!("{base}dataflow/index.html"),
            bytes: page("dataflow.html", &view)?,
        });
        files.push(OutputFile {
            path: format!("{base}index.html"),
            bytes: page(
                "project.html",
                &WithHtml {
                    view: &view,
                    intro_html: &project_docs.readme_html,
                    project_docs: Some(&project_docs.index.docs),
                },
            )?,
        });
        files.push(OutputFile {
            path: format!("data/{}.json", project.name),
            bytes: json(project)?,
        });
    }
    let root = &site.base_path;
    let mut portal_pages = vec![
        kinds::index(portal, projects, root),
        platform::architecture(portal, projects, root),
        platform::network(portal, projects, root),
        platform::rbac(projects, root),
        platform::secrets(projects, root),
    ];
    portal_pages.extend(kinds::pages(portal, projects, root));
    for view in &portal_pages {
        files.push(OutputFile {
            path: format!("{}index.html", view.path),
            bytes: page("portal_sections.html", view)?,
        });
    }
    files.push(OutputFile {
        path: "search/index.html".into(),
        bytes: page("search.html", &views::Empty {})?,
    });
    files.push(OutputFile {
        path: "data/portal.json".into(),
        bytes: json(portal)?,
    });
    files.push(OutputFile {
        path: "404.html".into(),
        bytes: page("404.html", &views::Empty {})?,
    });
    files.push(OutputFile {
        path: ".nojekyll".into(),
        bytes: Vec::new(),
    });
    files.push(OutputFile {
        path: "robots.txt".into(),
        bytes: robots(site).into_bytes(),
    });
    let pages: Vec<String> = files
        .iter()
        .filter(|f| f.path.ends_with("index.html"))
        .map(|f| f.path.trim_end_matches("index.html").to_string())
        .collect();
    // The sitemap format needs absolute URLs: without an absolute base_url there is none.
    if let Some(base) = absolute_base(site) {
        files.push(OutputFile {
            path: "sitemap.xml".into(),
            bytes: sitemap(&base, &pages).into_bytes(),
        });
    }
    for (path, bytes) in theme.static_files() {
        files.push(OutputFile {
            path: format!("static/{path}"),
            bytes,
        });
    }
    files.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(SiteFiles {
        files,
        content_fingerprint,
    })
}

/// The security page with the RBAC-versus-code and least-privilege sections before the
/// trailing bundled and samples sections.
fn security(
    project: &Project,
    portal: &Portal,
    kind_links: &table::KindLinks,
    names: &crate::resources::ResourceNames,
    root: &str,
) -> manifests::SectionsPage {
    let mut view = manifests::security(project, kind_links);
    let report = crate::access::check(project, names);
    let privileges = crate::least_privilege::derive(project, names);
    let at = view.sections.len().saturating_sub(2);
    let mut added = rbac_code::sections(project, &report, portal, root);
    added.extend(rbac_code::least_privilege_sections(
        project,
        &privileges,
        portal,
        root,
    ));
    view.sections.splice(at..at, added);
    view
}

/// The script `mermaid_js = true` loads, supplied by the site's theme.
pub const MERMAID_SCRIPT: &str = "mermaid.min.js";

/// A page view plus sanitized markdown HTML (the home page's `content/index.md`, a project's
/// README) and a project's doc pages.
#[derive(Serialize)]
struct WithHtml<'a, T: Serialize> {
    #[serde(flatten)]
    view: &'a T,
    /// Sanitized by `markdown::render`; the one kind of value templates print with `safe`.
    intro_html: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    project_docs: Option<&'a [docs::NavLink]>,
}

fn json<T: Serialize>(value: &T) -> Result<Vec<u8>, String> {
    let mut bytes =
        serde_json::to_vec_pretty(value).map_err(|e| format!("cannot serialize the model: {e}"))?;
    bytes.push(b'\n');
    Ok(bytes)
}

fn robots(site: &Site) -> String {
    let mut s = String::from("User-agent: *\nAllow: /\n");
    if let Some(base) = absolute_base(site) {
        s.push_str(&format!("Sitemap: {base}sitemap.xml\n"));
    }
    s
}

/// `base_url` with a trailing slash, when it is an absolute http(s) URL.
fn absolute_base(site: &Site) -> Option<String> {
    let url = &site.base_url;
    if !url.starts_with("https://") && !url.starts_with("http://") {
        return None;
    }
    Some(if url.ends_with('/') {
        url.clone()
    } else {
        format!("{url}/")
    })
}

fn sitemap(base: &str, pages: &[String]) -> String {
    let mut s = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
    );
    for page in pages {
        s.push_str(&format!(
            "  <url><loc>{}</loc></url>\n",
            xml_escape(&format!("{base}{page}"))
        ));
    }
    s.push_str("</urlset>\n");
    s
}

fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Lets pages take any serializable view without generic closures.
pub mod erased {
    pub trait View {
        fn context(&self) -> Result<tera::Context, String>;
    }
    impl<T: serde::Serialize> View for T {
        fn context(&self) -> Result<tera::Context, String> {
            tera::Context::from_serialize(self).map_err(|e| format!("cannot prepare a page: {e}"))
        }
    }
}
