//! The site's own markdown pages (from `content::Content`) and the navigation built from
//! them: top-level pages in the header, sorted by weight then title; a section's pages
//! beside each page of that section.
//!
//! Relative links are resolved from the markdown file's place in `content/`: `setup.md`
//! is that page's URL, `shot.png` the copied file, `../projects/p/` a path on the site;
//! a link starting with `/` is a path from the site's root. Every result starts with the
//! base path.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::Serialize;

use super::OutputFile;
use super::docs::NavLink;
use markdown::{self, Links, Settings, Use};
use source::content::{Content, Page};

/// Ids the chrome and the home page use; headings of content pages never take them.
const CHROME_IDS: [&str; 9] = [
    "top",
    "sidebar",
    "menu-button",
    "to-top",
    "main-content",
    "projects",
    "project-graph",
    "shared-kinds",
    "totals",
];

#[derive(Serialize)]
pub struct ContentPage {
    #[serde(skip)]
    pub path: String,
    pub title: String,
    pub description: String,
    /// Sanitized by `markdown::render`.
    pub html: String,
    /// Whether the markdown has its own `#` heading; otherwise the page shows the title.
    pub has_h1: bool,
    /// The other pages of this page's top-level section, with this one marked.
    pub section: Vec<NavLink>,
}

/// A top-level entry of the header navigation.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct NavEntry {
    pub title: String,
    pub url: String,
}

/// What the content folder adds to the site.
pub struct Rendered {
    /// The HTML of `content/index.md`, shown on the home page; empty without one.
    pub home_html: String,
    pub pages: Vec<ContentPage>,
    pub nav: Vec<NavEntry>,
    pub assets: Vec<OutputFile>,
}

struct ContentLinks {
    root: String,
    /// Markdown file → page folder, and every asset path.
    pages: Arc<BTreeMap<String, String>>,
    from: String,
}

impl Links for ContentLinks {
    fn resolve(&self, usage: Use, path: &str, fragment: Option<&str>) -> Option<String> {
        let target = markdown::join(&self.from, path)?;
        let fragment = fragment.map(|f| format!("#{f}")).unwrap_or_default();
        let root = &self.root;
        if let Some(page) = self.pages.get(&target) {
            return Some(format!("{root}{page}{fragment}"));
        }
        if usage == Use::Link && target.ends_with(".md") {
            // Not a page: left pointing where it would be, so `check` reports it.
            let folder = target.trim_end_matches(".md");
            return Some(format!("{root}{folder}/{fragment}"));
        }
        let slash = if path.ends_with('/') && !target.is_empty() {
            "/"
        } else {
            ""
        };
        Some(format!("{root}{target}{slash}{fragment}"))
    }
}

pub fn render(content: &Content, root: &str, mermaid: bool) -> Rendered {
    let mut routes: BTreeMap<String, String> = content
        .pages
        .iter()
        .map(|p| (p.file.clone(), p.path.clone()))
        .collect();
    for asset in &content.assets {
        routes.insert(asset.path.clone(), asset.path.clone());
    }
    let routes = Arc::new(routes);
    let mut sorted: Vec<&Page> = content.pages.iter().collect();
    sorted.sort_by(|a, b| (a.weight, &a.title, &a.path).cmp(&(b.weight, &b.title, &b.path)));
    let section_of = |path: &str| path.split('/').next().unwrap_or("").to_string();
    let nav = sorted
        .iter()
        .filter(|p| !p.path.is_empty() && p.path.matches('/').count() == 1)
        .map(|p| NavEntry {
            title: p.title.clone(),
            url: format!("{root}{}", p.path),
        })
        .collect();
    let mut home_html = String::new();
    let mut pages = Vec::new();
    for page in &content.pages {
        let links = Arc::new(ContentLinks {
            root: root.to_string(),
            pages: routes.clone(),
            from: page.file.clone(),
        });
        // The home page has its own h1 (the site title) above content/index.md.
        let settings = Settings {
            mermaid,
            reserved_ids: &CHROME_IDS,
            heading_offset: u8::from(page.path.is_empty()),
        };
        let rendered = markdown::render(&page.markdown, links, settings);
        let html = rendered.html;
        if page.path.is_empty() {
            home_html = html;
            continue;
        }
        let section = section_of(&page.path);
        let head = format!("{section}/");
        // The section's own page first, then its pages by weight and title.
        let members: Vec<NavLink> = sorted
            .iter()
            .filter(|p| p.path == head)
            .chain(
                sorted
                    .iter()
                    .filter(|p| p.path != head && section_of(&p.path) == section),
            )
            .filter(|p| !p.path.is_empty())
            .map(|p| NavLink {
                title: p.title.clone(),
                url: format!("{root}{}", p.path),
                current: p.path == page.path,
            })
            .collect();
        pages.push(ContentPage {
            path: page.path.clone(),
            title: page.title.clone(),
            description: page.description.clone(),
            html,
            has_h1: rendered.title.is_some(),
            section: if members.len() > 1 {
                members
            } else {
                Vec::new()
            },
        });
    }
    let assets = content
        .assets
        .iter()
        .map(|a| OutputFile {
            path: a.path.clone(),
            bytes: a.bytes.clone(),
        })
        .collect();
    Rendered {
        home_html,
        pages,
        nav,
        assets,
    }
}

#[cfg(test)]
mod tests;
