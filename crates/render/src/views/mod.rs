//! View structs: what templates see. Built from the model with every display string,
//! link and anchor computed here, so templates hold no logic beyond loops and ifs.
//!
//! The views with a layout of their own live here (`home`, `project` for the overview and
//! dataflow pages, `controllers` for the per-controller pages, `binaries` for the
//! overview's programs and metrics); this module holds what they share. Which pages the
//! site has, at which paths and with which templates, is the page types' (`pages`).

mod binaries;
pub mod client_calls;
mod controllers;
mod home;
mod project;

pub use binaries::BinaryView;
pub use controllers::{
    ControllerLink, controller_links, controller_pages, page_of as controller_page,
    url_by_name as controller_url_by_name, url_of as controller_url,
};
pub use home::home;
pub use project::{ProjectPage, project_page};

use serde::Serialize;

use super::table::{Cell, KindLinks, TableRow};
pub use super::table::{Link, anchor};
use config::Site;
use model::SourceRef;

/// What every page's frame shows: the site's title, where it lives, and the scripts it
/// loads. The sidebar and breadcrumbs are per page (`render::nav`).
#[derive(Serialize)]
pub struct Chrome {
    pub title: String,
    /// The base path, e.g. `/atlas/`: every link starts with it.
    pub root: String,
    /// Load the theme's `static/mermaid.min.js` to draw mermaid blocks of markdown.
    pub mermaid_js: bool,
}

impl Chrome {
    pub fn new(site: &Site) -> Chrome {
        Chrome {
            title: site.title.clone(),
            root: site.base_path.clone(),
            mermaid_js: site.mermaid_js,
        }
    }
}

#[derive(Serialize)]
pub struct Empty {}

/// A table row: an anchor, its cells (already display text) and its source links.
#[derive(Serialize)]
pub struct Row {
    pub anchor: String,
    pub cells: Vec<String>,
    pub sources: Vec<Link>,
}

#[derive(Serialize)]
pub struct SampleRow {
    pub what: String,
    pub row: Row,
}

/// `apps/v1 Deployment`, `v1 Pod`, or `? (unresolved)`.
fn kind_label(group: &str, version: &str, kind: &str) -> String {
    if group == model::UNRESOLVED {
        return "? (kind unknown: see diagnostics)".into();
    }
    model::Gvk {
        group: group.into(),
        version: version.into(),
        kind: kind.into(),
    }
    .display()
}

/// A kind's label, linked to its kind page when the portal has one.
fn kind_cell(kind_links: &KindLinks, group: &str, kind: &str, label: String) -> Cell {
    match kind_links.kind(group, kind) {
        Some(url) => Cell::link(label, url),
        None => Cell::text(label),
    }
}

/// The first source's line, to keep anchors of rows that differ only by line apart.
fn line_of(sources: &[SourceRef]) -> String {
    sources
        .first()
        .map(|s| format!("{}-{}", s.file, s.line))
        .unwrap_or_default()
}

/// A row with plain cells, for the samples and bundled lists.
fn plain(row: &TableRow) -> Row {
    Row {
        anchor: row.anchor.clone(),
        cells: row.cells.iter().map(|c| c.text.clone()).collect(),
        sources: row.sources.clone(),
    }
}

#[cfg(test)]
mod tests;
