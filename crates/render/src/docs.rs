//! A project's own markdown as portal pages: the README on the overview, the files of
//! `docs = […]` under `projects/P/docs/…`, and the images they reference, copied in.
//!
//! Links between published docs point at their portal pages; links to other repository
//! files point at the source at the pinned commit (or are dropped when the project has no
//! source link template); relative images point at the copies, or for SVGs at a `data:`
//! URL (never a file on the portal's origin). HTML is sanitized by `markdown::render`.

use std::collections::BTreeMap;
use std::sync::Arc;

use base64::Engine;
use serde::Serialize;

use super::OutputFile;
use super::table::{UniqueNames, path_segment};
use markdown::{self, Links, Settings, Use};
use model::{Doc, Project};
use source::file_url;

/// Ids the overview page uses for its own sections; README headings never take them.
pub const OVERVIEW_IDS: [&str; 7] = [
    "main-content",
    "counts",
    "binaries",
    "metrics",
    "diagnostics",
    "readme",
    "docs",
];

/// A link in a list of pages.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct NavLink {
    pub title: String,
    /// Full URL path, starting with the base path.
    pub url: String,
    pub current: bool,
}

/// One doc page of a project.
#[derive(Serialize)]
pub struct DocPage {
    /// Site-relative folder, e.g. `projects/p/docs/docs/guide/`.
    #[serde(skip)]
    pub path: String,
    pub name: String,
    pub project_title: String,
    pub title: String,
    /// The repository path, and its source link when there is one.
    pub file: String,
    pub file_url: String,
    /// Sanitized by `markdown::render`.
    pub html: String,
    /// Whether the markdown has its own `#` heading; otherwise the page shows the title.
    pub has_h1: bool,
    /// The docs listed beside this one: all of them when there are few, else the ones
    /// nearest it in its folder (so a project's doc pages grow linearly with its docs).
    pub docs: Vec<NavLink>,
    /// How many docs the project has, when `docs` lists only some of them.
    pub docs_total: Option<usize>,
    /// The docs index page, which lists them all.
    pub docs_index: String,
}

/// The docs index page, `projects/P/docs/`.
#[derive(Serialize)]
pub struct DocsIndex {
    pub name: String,
    pub project_title: String,
    pub docs: Vec<NavLink>,
}

/// Everything the docs of one project add to the site.
pub struct ProjectDocs {
    /// The README's HTML for the overview, sanitized; empty without a README.
    pub readme_html: String,
    pub pages: Vec<DocPage>,
    /// The list of doc pages (README excluded) for the overview and the index.
    pub index: DocsIndex,
    pub images: Vec<OutputFile>,
}

/// Where a project's docs and images live on the site.
struct Routes {
    root: String,
    /// Repository path → site-relative folder.
    docs: BTreeMap<String, String>,
    /// Repository path → the URL an image is shown from.
    images: BTreeMap<String, String>,
    source_url: String,
    commit: String,
}

struct DocLinks {
    routes: Arc<Routes>,
    from: String,
}

impl Links for DocLinks {
    fn resolve(&self, usage: Use, path: &str, fragment: Option<&str>) -> Option<String> {
        if path.is_empty() {
            return None;
        }
        let target = markdown::join(&self.from, path)?;
        let r = &self.routes;
        let fragment = fragment.map(|f| format!("#{f}")).unwrap_or_default();
        match usage {
            Use::Image => r.images.get(&target).cloned(),
            Use::Link => match r.docs.get(&target) {
                Some(page) => Some(format!("{}{page}{fragment}", r.root)),
                None => {
                    file_url(&r.source_url, &r.commit, &target).map(|u| format!("{u}{fragment}"))
                }
            },
        }
    }
}

/// A project with at most this many doc pages lists them all on each of them.
const NAV_ALL_UP_TO: usize = 60;
/// Past that, how many docs of its folder a doc page lists on each side of it.
const NAV_NEAR: usize = 10;

/// Whether the project has doc pages besides its README (the sidebar's Docs entry):
/// what `project_docs(…).index.docs` is not empty for.
pub fn has_docs(project: &Project) -> bool {
    project.docs.iter().any(|d| !d.readme)
}

/// The README, doc pages and images of one project.
pub fn project_docs(project: &Project, root: &str, mermaid: bool) -> ProjectDocs {
    let base = format!("projects/{}/", project.name);
    let mut taken = UniqueNames::default();
    let docs = doc_routes(project, &base, &mut taken);
    let (images, files) = image_routes(project, root, &base, &mut taken);
    let routes = Arc::new(Routes {
        root: root.to_string(),
        docs,
        images,
        source_url: project.source_url.clone(),
        commit: project.commit.clone(),
    });
    let nav = DocsNav::new(project, &routes, root);
    let mut readme_html = String::new();
    let mut pages = Vec::new();
    for doc in &project.docs {
        let links = Arc::new(DocLinks {
            routes: routes.clone(),
            from: doc.path.clone(),
        });
        let reserved: &[&str] = if doc.readme {
            &OVERVIEW_IDS
        } else {
            &["main-content"]
        };
        // The overview has its own h1: the README's headings go one level down.
        let settings = Settings {
            mermaid,
            reserved_ids: reserved,
            heading_offset: u8::from(doc.readme),
        };
        let rendered = markdown::render(&doc.markdown, links, settings);
        let html = rendered.html;
        if doc.readme {
            readme_html = html;
            continue;
        }
        let Some(path) = routes.docs.get(&doc.path) else {
            continue;
        };
        let (docs, docs_total) = nav.around(&doc.path);
        pages.push(DocPage {
            path: path.clone(),
            name: project.name.clone(),
            project_title: project.title.clone(),
            title: doc.title.clone(),
            file: doc.path.clone(),
            file_url: file_url(&project.source_url, &project.commit, &doc.path).unwrap_or_default(),
            html,
            has_h1: rendered.title.is_some(),
            docs,
            docs_total,
            docs_index: format!("{root}{base}docs/"),
        });
    }
    ProjectDocs {
        readme_html,
        pages,
        index: DocsIndex {
            name: project.name.clone(),
            project_title: project.title.clone(),
            docs: nav
                .listed
                .iter()
                .filter_map(|d| nav.link(d, false))
                .collect(),
        },
        images: files,
    }
}

/// Each doc's page folder: the project's overview for its README.
fn doc_routes(project: &Project, base: &str, taken: &mut UniqueNames) -> BTreeMap<String, String> {
    let mut docs = BTreeMap::new();
    // The docs index page: a doc at the top named `README.md` or `index.md` (not the
    // project's README) would otherwise get its folder.
    taken.take(&format!("{base}docs"));
    for doc in &project.docs {
        let page = if doc.readme {
            base.to_string()
        } else {
            unique(taken, doc_folder(base, &doc.path))
        };
        docs.insert(doc.path.clone(), page);
    }
    docs
}

/// Where each doc image is shown from, and the image files of the site.
fn image_routes(
    project: &Project,
    root: &str,
    base: &str,
    taken: &mut UniqueNames,
) -> (BTreeMap<String, String>, Vec<OutputFile>) {
    let mut images = BTreeMap::new();
    let mut files = Vec::new();
    for image in &project.doc_images {
        // An SVG is shown from a data: URL, never a file of the site: see `source::docs`.
        if image.path.to_ascii_lowercase().ends_with(".svg") {
            let encoded = base64::engine::general_purpose::STANDARD.encode(&image.bytes);
            images.insert(
                image.path.clone(),
                format!("data:image/svg+xml;base64,{encoded}"),
            );
            continue;
        }
        let segments: Vec<String> = image.path.split('/').map(path_segment).collect();
        let path = format!("{base}files/{}", segments.join("/"));
        if taken.take(&path) {
            images.insert(image.path.clone(), format!("{root}{path}"));
            files.push(OutputFile {
                path,
                bytes: image.bytes.clone(),
            });
        }
    }
    (images, files)
}

/// The list of other docs on each doc page. Past `NAV_ALL_UP_TO` docs, a page lists the
/// `NAV_NEAR` docs of its folder on each side of it: each page's list is bounded, so the
/// pages grow linearly in all.
struct DocsNav<'a> {
    root: &'a str,
    routes: &'a Routes,
    /// The docs besides the README.
    listed: Vec<&'a Doc>,
    /// Each folder's docs, as places in `listed`.
    folders: BTreeMap<&'a str, Vec<usize>>,
    /// A doc's folder and its position among the folder's docs.
    place: BTreeMap<&'a str, (&'a str, usize)>,
}

impl<'a> DocsNav<'a> {
    fn new(project: &'a Project, routes: &'a Routes, root: &'a str) -> DocsNav<'a> {
        let listed: Vec<&Doc> = project.docs.iter().filter(|d| !d.readme).collect();
        let mut folders: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
        let mut place: BTreeMap<&str, (&str, usize)> = BTreeMap::new();
        for (i, d) in listed.iter().enumerate() {
            let folder = d.path.rsplit_once('/').map_or("", |(f, _)| f);
            let mates = folders.entry(folder).or_default();
            place.insert(d.path.as_str(), (folder, mates.len()));
            mates.push(i);
        }
        DocsNav {
            root,
            routes,
            listed,
            folders,
            place,
        }
    }

    fn link(&self, d: &Doc, current: bool) -> Option<NavLink> {
        let page = self.routes.docs.get(&d.path)?;
        Some(NavLink {
            title: d.title.clone(),
            url: format!("{}{page}", self.root),
            current,
        })
    }

    /// The docs listed on the page of the doc at `current`, and how many there are in all
    /// when that is not all of them.
    fn around(&self, current: &str) -> (Vec<NavLink>, Option<usize>) {
        let listed = &self.listed;
        if listed.len() <= NAV_ALL_UP_TO {
            let all = listed
                .iter()
                .filter_map(|d| self.link(d, d.path == current));
            return (all.collect(), None);
        }
        let Some(&(folder, at)) = self.place.get(current) else {
            return (Vec::new(), Some(listed.len()));
        };
        let mates = self
            .folders
            .get(folder)
            .map(Vec::as_slice)
            .unwrap_or_default();
        let near = &mates[at.saturating_sub(NAV_NEAR)..mates.len().min(at + NAV_NEAR + 1)];
        let links = near
            .iter()
            .filter_map(|&i| self.link(listed[i], listed[i].path == current));
        (links.collect(), Some(listed.len()))
    }
}

/// `docs/guide/setup.md` → `projects/P/docs/docs/guide/setup/`; a `README.md` or
/// `index.md` is its folder's page.
fn doc_folder(base: &str, path: &str) -> String {
    let mut segments: Vec<&str> = path.split('/').collect();
    let name = segments.pop().unwrap_or("");
    let stem = name.rsplit_once('.').map_or(name, |(s, _)| s);
    let mut out: Vec<String> = segments.into_iter().map(path_segment).collect();
    if !(stem.eq_ignore_ascii_case("readme") || stem.eq_ignore_ascii_case("index")) {
        out.push(path_segment(stem));
    }
    let mut folder = format!("{base}docs/");
    for s in out {
        folder.push_str(&s);
        folder.push('/');
    }
    folder
}

/// The folder itself, or with `-2`, `-3`… when two docs would share one page.
fn unique(taken: &mut UniqueNames, folder: String) -> String {
    let stem = folder.trim_end_matches('/');
    format!("{}/", taken.name(stem))
}

#[cfg(test)]
mod tests;
