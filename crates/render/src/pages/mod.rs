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

use super::nav::Links;
pub use super::nav::{Listed, PortalLink, ProjectLink, always};
use crate::Error;

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
    pub render: fn(&PortalInputs, &mut Output) -> Result<(), Error>,
}

/// A page type made for each project.
pub struct ProjectPageType {
    /// Its link in the project's part of the sidebar, if the sidebar shows it.
    pub link: Option<ProjectLink>,
    /// Makes its files into `out`. The inputs are `mut` so a page can hand its files on
    /// (doc images, diagram sources) instead of copying them.
    pub render: fn(&mut ProjectInputs, &mut Output) -> Result<(), Error>,
}

/// The page types' sidebar links, in registry order, for `nav::Navigation`.
pub fn links() -> Links {
    Links {
        portal: PORTAL
            .iter()
            .filter_map(|page| page.link.as_ref())
            .collect(),
        project: PROJECT
            .iter()
            .filter_map(|page| page.link.as_ref())
            .collect(),
    }
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
fn json<T: Serialize>(value: &T) -> Result<Vec<u8>, Error> {
    let mut bytes = serde_json::to_vec(value).map_err(Error::Json)?;
    bytes.push(b'\n');
    Ok(bytes)
}

#[cfg(test)]
mod tests;
