//! The page types of the site, registered in one place.
//!
//! A page type is one module: `portal/` for the pages made from every project (home,
//! kinds, platform, …), `project/` for each project's own pages (overview, API reference,
//! configuration, …). Its module says which files it makes (path, template, title, view)
//! and, through its sidebar link, where the sidebar shows it. `render_site` goes through
//! [`PORTAL`] once, then through [`PROJECT`] for each project, and `nav` builds the sidebar
//! from the links of the same two lists: adding a page type is one module and one line
//! here.

mod inputs;
mod output;
pub mod portal;
pub mod project;

pub use inputs::{PortalInputs, ProjectInputs, Shared};
pub use output::Output;

use serde::Serialize;

use super::nav::{PortalEntries, ProjectEntries};

/// The pages made from every project, in the order they are made. The order is part of
/// the output: the search index numbers documents in the order pages reach the sink.
pub const PORTAL: &[PortalPageType] = &[
    portal::home::PAGE,
    portal::content::PAGE,
    portal::shared_kinds::PAGE,
    portal::kinds::PAGE,
    portal::platform_architecture::PAGE,
    portal::platform_network::PAGE,
    portal::platform_rbac::PAGE,
    portal::platform_secrets::PAGE,
    portal::platform_dependencies::PAGE,
    portal::platform_cache::PAGE,
    portal::platform_kubernetes_apis::PAGE,
    portal::kind_usage::PAGE,
    portal::changes::PAGE,
    portal::search::PAGE,
    portal::data::PAGE,
    portal::not_found::PAGE,
    portal::hosting::PAGE,
];

/// Each project's pages, in the order they are made (see [`PORTAL`] on why it matters).
pub const PROJECT: &[ProjectPageType] = &[
    project::diagrams::PAGE,
    project::docs::PAGE,
    project::api::PAGE,
    project::controllers::PAGE,
    project::configuration::PAGE,
    project::network::PAGE,
    project::security::PAGE,
    project::dataflow::PAGE,
    project::overview::PAGE,
    project::changes::PAGE,
    project::data::PAGE,
];

/// A page type made once from every project.
pub struct PortalPageType {
    /// Its sidebar link, if the sidebar shows it.
    pub link: Option<PortalLink>,
    /// Makes its files (none, one, or one per kind, …) into `out`.
    pub render: fn(&PortalInputs, &mut Output) -> Result<(), String>,
}

/// A page type made for each project.
pub struct ProjectPageType {
    /// Its link in the project's part of the sidebar, if the sidebar shows it.
    pub link: Option<ProjectLink>,
    /// Makes its files into `out`. The inputs are `mut` so a page can hand its files on
    /// (doc images, diagram sources) instead of copying them.
    pub render: fn(&mut ProjectInputs, &mut Output) -> Result<(), String>,
}

/// Where the sidebar shows a portal page.
pub enum PortalLink {
    /// One link to the page at `path` (site-relative folder).
    Page {
        path: &'static str,
        title: &'static str,
        /// Top-level links are sorted by rank (the sidebar's order is not the order pages
        /// are made in); the Platform entry takes its first page's.
        rank: u8,
        /// Under the Platform entry instead of at the top level.
        platform: bool,
        /// Whether the site has the page.
        shown: fn(&PortalEntries) -> bool,
    },
    /// One link per page of the site's own content (`content/*.md`), in their order.
    Content { rank: u8 },
}

/// A page's link in a project's part of the sidebar.
pub struct ProjectLink {
    /// The page's folder under `projects/NAME/`.
    pub folder: &'static str,
    pub title: &'static str,
    /// Links are sorted by rank (see [`PortalLink::Page`]).
    pub rank: u8,
    /// Whether the project has the page.
    pub shown: fn(&ProjectEntries) -> bool,
    /// What the sidebar lists under the link, if anything.
    pub lists: Option<Listed>,
}

/// The entries a project's sidebar link lists under it.
#[derive(Clone, Copy)]
pub enum Listed {
    Controllers,
    Kinds,
}

/// For links every site or project has.
pub fn always<T>(_: &T) -> bool {
    true
}

/// The platform pages' links, in sidebar order: (site-relative folder, title).
pub fn platform_links() -> impl Iterator<Item = (&'static str, &'static str)> {
    PORTAL.iter().filter_map(|page| match page.link {
        Some(PortalLink::Page {
            path,
            title,
            platform: true,
            ..
        }) => Some((path, title)),
        _ => None,
    })
}

/// A page view plus sanitized markdown HTML (the home page's `content/index.md`, a project's
/// README) and a project's doc pages.
#[derive(Serialize)]
struct WithHtml<'a, T: Serialize> {
    #[serde(flatten)]
    view: &'a T,
    /// Sanitized by `markdown::render`; the one kind of value templates print with `safe`.
    intro_html: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    project_docs: Option<&'a [super::docs::NavLink]>,
}

/// Compact JSON: the data files are for programs, and indentation was a third of their
/// bytes.
fn json<T: Serialize>(value: &T) -> Result<Vec<u8>, String> {
    let mut bytes =
        serde_json::to_vec(value).map_err(|e| format!("cannot serialize the model: {e}"))?;
    bytes.push(b'\n');
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An empty portal's site, rendered.
    fn empty_site() -> Vec<crate::OutputFile> {
        let site = config::Site {
            title: "T".into(),
            base_url: "/".into(),
            base_path: "/".into(),
            output: Default::default(),
            content: Default::default(),
            theme: "default".into(),
            cache_dir: Default::default(),
            mermaid_js: false,
            target_kubernetes: None,
        };
        let portal = derive::link::link(&site.title, &[]);
        let theme = crate::Theme::load(None).unwrap();
        let mut files = Vec::new();
        let content = Default::default();
        crate::render_site(
            &site,
            &portal,
            Vec::new(),
            &[],
            &content,
            &theme,
            &mut files,
        )
        .unwrap();
        files
    }

    #[test]
    fn every_portal_link_leads_to_a_page_the_site_has() {
        let files = empty_site();
        let has = |path: &str| files.iter().any(|f| f.path == format!("{path}index.html"));
        let shown = PortalEntries { compared: false };
        for link in PORTAL.iter().filter_map(|page| page.link.as_ref()) {
            if let PortalLink::Page { path, shown: s, .. } = link
                && s(&shown)
            {
                assert!(has(path), "no page at {path}");
            }
        }
        assert_eq!(platform_links().count(), 7);
    }

    #[test]
    fn no_two_page_types_link_one_folder() {
        let mut portal: Vec<&str> = PORTAL
            .iter()
            .filter_map(|page| match page.link {
                Some(PortalLink::Page { path, .. }) => Some(path),
                _ => None,
            })
            .collect();
        let mut project: Vec<&str> = PROJECT
            .iter()
            .filter_map(|page| page.link.as_ref().map(|l| l.folder))
            .collect();
        for list in [&mut portal, &mut project] {
            let all = list.len();
            list.sort_unstable();
            list.dedup();
            assert_eq!(list.len(), all, "{list:?}");
        }
    }
}
