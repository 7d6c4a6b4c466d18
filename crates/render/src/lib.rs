//! Rendering: the linked model → the files of the static site.
//!
//! Stage: render. A pure function of the model, the portal and the theme: it returns the
//! site as a list of files and writes nothing (`output` does). Templates never see the
//! model itself, only the view structs of `views`, made for them.
//! **Invariant:** every string from a repository reaches HTML through tera's autoescaping.

pub mod api;
pub mod api_versions;
pub mod availability;
pub mod c4;
pub mod changes;
pub mod connections;
pub mod content;
pub mod counts;
pub mod dependencies;
pub mod docs;
mod error;
pub mod example_yaml;
pub mod extracted;
pub mod flow;
pub mod graphs;
pub mod images;
pub mod kinds;
pub mod main_first;
pub mod manifests;
pub mod memory;
pub mod mermaid;
pub mod nav;
pub mod pages;
pub mod platform;
pub mod rbac_code;
pub mod sequence;
pub mod subjects;
pub mod svg;
pub mod table;
pub mod theme;
pub mod toc;
pub mod version_diff;
pub mod views;
pub mod yaml_text;

use config::Site;
pub use error::{Error, SinkError};
use model::{Portal, Project};
use source::content::Content;
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
) -> Result<(Vec<OutputFile>, String), Error> {
    let site_pages = content::render(content, &site.base_path, site.mermaid_js);
    // Content pages show every project closed: names and titles are all they need.
    let projects: Vec<nav::ProjectEntries> = portal
        .projects
        .iter()
        .map(|p| nav::ProjectEntries {
            name: p.name.clone(),
            title: p.title.clone(),
            ..nav::ProjectEntries::default()
        })
        .collect();
    let navigation = nav::Navigation::new(
        &site.base_path,
        &pages::links(),
        &site_pages.nav,
        &projects,
        portal.projects.iter().any(|p| !p.compared.is_empty()),
    );
    let mut unused = Vec::new();
    let mut out = pages::Output::new(theme, views::Chrome::new(site), navigation, &mut unused);
    pages::portal::content::add(&site_pages, &mut out)?;
    Ok((out.take_files(), content_fingerprint(&site_pages)))
}

/// What pages other than the content's own take from the content.
fn content_fingerprint(site_pages: &content::Rendered) -> String {
    let pages = site_pages
        .pages
        .iter()
        .map(|p| format!("{}index.html", p.path));
    let assets = site_pages.assets.iter().map(|f| f.path.clone());
    let paths: Vec<String> = pages.chain(assets).collect();
    format!(
        "{:?}\n{:?}\n{paths:?}",
        site_pages.nav, site_pages.home_html
    )
}

/// Where [`render_site`] puts the files it makes: a list in memory (serve, check), or the
/// staging folder of the site being written, so a large portal's pages are never all in
/// memory at once.
pub trait Sink {
    fn put(&mut self, file: OutputFile) -> Result<(), SinkError>;
    /// A project's pages are all made and its model is dropped.
    fn project_done(&mut self) {}
}

impl Sink for Vec<OutputFile> {
    fn put(&mut self, file: OutputFile) -> Result<(), SinkError> {
        self.push(file);
        Ok(())
    }
}

/// Renders every page and data file of the site into `sink` (in no particular order of
/// paths), and returns the content fingerprint `render_content` would give. The page types
/// are those of `pages::PORTAL` and `pages::PROJECT`: the pages made from every project
/// (home, `/kinds/`, `/platform/`, shared kind pages) come first; then each project's
/// own, after which its model is dropped (`Sink::project_done`), so the models of a large
/// portal are not all held to the end.
pub fn render_site(
    site: &Site,
    portal: &Portal,
    projects: Vec<Project>,
    comparisons: &[changes::Comparison],
    content: &Content,
    theme: &Theme,
    sink: &mut dyn Sink,
) -> Result<String, Error> {
    if site.mermaid_js && !theme.has_static(MERMAID_SCRIPT) {
        return Err(Error::MermaidScript {
            theme: site.theme.clone(),
            script: MERMAID_SCRIPT.to_string(),
        });
    }
    let site_pages = content::render(content, &site.base_path, site.mermaid_js);
    let navigation = nav::Navigation::new(
        &site.base_path,
        &pages::links(),
        &site_pages.nav,
        &project_entries(portal, &projects),
        portal.projects.iter().any(|p| !p.compared.is_empty()),
    );
    let mut out = pages::Output::new(theme, views::Chrome::new(site), navigation, sink);
    let shared = pages::Shared::new(site, portal, &projects, comparisons, &site_pages);
    // What needs every project's model comes first: each model is dropped once its own
    // pages are made below.
    let every_project = pages::PortalInputs {
        shared: &shared,
        projects: &projects,
    };
    for page in pages::PORTAL {
        (page.render)(&every_project, &mut out)?;
    }
    out.flush()?;
    for project in projects {
        let mut inputs = pages::ProjectInputs::new(&shared, &project);
        for page in pages::PROJECT {
            (page.render)(&mut inputs, &mut out)?;
        }
        out.flush()?;
        drop(inputs);
        drop(project);
        out.project_done();
    }
    site_files(site, theme, &mut out)?;
    Ok(content_fingerprint(&site_pages))
}

/// Each project's part of the sidebar.
fn project_entries(portal: &Portal, projects: &[Project]) -> Vec<nav::ProjectEntries> {
    projects
        .iter()
        .map(|p| nav::ProjectEntries {
            name: p.name.clone(),
            title: p.title.clone(),
            controllers: views::controller_links(p)
                .into_iter()
                .map(|l| (l.label, l.path))
                .collect(),
            kinds: api::own_kinds(p),
            has_docs: docs::has_docs(p),
            has_changes: portal
                .projects
                .iter()
                .any(|s| s.name == p.name && !s.compared.is_empty()),
        })
        .collect()
}

/// What comes after every page: the sitemap of them all, and the theme's static files.
fn site_files(site: &Site, theme: &Theme, out: &mut pages::Output) -> Result<(), Error> {
    // The sitemap format needs absolute URLs: without an absolute base_url there is none.
    if let Some(base) = absolute_base(site) {
        let sitemap = sitemap(&base, out.page_folders());
        out.file("sitemap.xml", sitemap.into_bytes());
    }
    for (path, bytes) in theme.static_files() {
        out.file(format!("static/{path}"), bytes);
    }
    out.flush()
}

/// The script `mermaid_js = true` loads, supplied by the site's theme.
pub const MERMAID_SCRIPT: &str = "mermaid.min.js";

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
    use crate::Error;

    pub trait View {
        fn context(&self) -> Result<tera::Context, Error>;
    }
    impl<T: serde::Serialize> View for T {
        fn context(&self) -> Result<tera::Context, Error> {
            tera::Context::from_serialize(self).map_err(Error::Context)
        }
    }
}
