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

use std::collections::HashMap;

use serde::Serialize;

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
    let chrome = views::Chrome::new(site);
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
        &site_pages.nav,
        &projects,
        portal.projects.iter().any(|p| !p.compared.is_empty()),
    );
    let files = content_files(&site_pages, &chrome, &navigation, theme)?;
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

/// Hands files on to a sink, remembering the pages' folders (for the sitemap) and every
/// path, so that two pages that would land on one path fail the build instead of one
/// silently replacing the other.
struct Flushing<'a> {
    sink: &'a mut dyn Sink,
    pages: Vec<String>,
    paths: std::collections::HashSet<String>,
}

impl Flushing<'_> {
    fn flush(&mut self, files: &mut Vec<OutputFile>) -> Result<(), Error> {
        for file in files.drain(..) {
            if !self.paths.insert(file.path.clone()) {
                return Err(Error::DuplicatePath { path: file.path });
            }
            if let Some(folder) = file.path.strip_suffix("index.html") {
                self.pages.push(folder.to_string());
            }
            self.sink.put(file).map_err(Error::Sink)?;
        }
        Ok(())
    }
}

fn content_files(
    site_pages: &content::Rendered,
    chrome: &views::Chrome,
    navigation: &nav::Navigation,
    theme: &Theme,
) -> Result<Vec<OutputFile>, Error> {
    let mut files = Vec::new();
    for content_page in &site_pages.pages {
        files.push(OutputFile {
            path: format!("{}index.html", content_page.path),
            bytes: theme
                .render(
                    "content.html",
                    chrome,
                    &navigation.page(&content_page.path, &content_page.title),
                    content_page,
                )
                .map(String::into_bytes)?,
        });
    }
    files.extend(site_pages.assets.iter().cloned());
    Ok(files)
}

/// Renders every page and data file of the site into `sink` (in no particular order of
/// paths), and returns the content fingerprint `render_content` would give. The pages
/// made from every project (home, `/kinds/`, `/platform/`, shared kind pages) come first;
/// then each project's own, after which its model is dropped (`Sink::project_done`), so
/// the models of a large portal are not all held to the end.
pub fn render_site(
    site: &Site,
    portal: &Portal,
    projects: Vec<Project>,
    comparisons: &[changes::Comparison],
    content: &Content,
    theme: &Theme,
    sink: &mut dyn Sink,
) -> Result<String, Error> {
    let mut out = Flushing {
        sink,
        pages: Vec::new(),
        paths: Default::default(),
    };
    let mut files = Vec::new();
    if site.mermaid_js && !theme.has_static(MERMAID_SCRIPT) {
        return Err(Error::MermaidScript {
            theme: site.theme.clone(),
            script: MERMAID_SCRIPT.to_string(),
        });
    }
    let root = &site.base_path;
    let site_pages = content::render(content, root, site.mermaid_js);
    let chrome = views::Chrome::new(site);
    let entries: Vec<nav::ProjectEntries> = projects
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
        .collect();
    let navigation = nav::Navigation::new(
        root,
        &site_pages.nav,
        &entries,
        portal.projects.iter().any(|p| !p.compared.is_empty()),
    );
    // A page at `path` (site-relative folder) titled `title`, with its sidebar.
    let page = |template: &str, path: &str, title: &str, view: &dyn erased::View| {
        theme
            .render(template, &chrome, &navigation.page(path, title), view)
            .map(String::into_bytes)
    };

    let kind_pages = table::KindPages::of(root, portal);
    let mut home = views::home(portal, root);
    home.graph = graphs::projects(portal, root, &kind_pages)
        .map(|g| svg::graph::render(&g))
        .unwrap_or_default();
    files.push(OutputFile {
        path: "index.html".into(),
        bytes: page(
            "index.html",
            "",
            &site.title,
            &WithHtml {
                view: &home,
                intro_html: &site_pages.home_html,
                project_docs: None,
            },
        )?,
    });
    let own_files = content_files(&site_pages, &chrome, &navigation, theme)?;
    let content_fingerprint = content_fingerprint(&site_pages, &own_files);
    files.extend(own_files);
    let kind_links = table::KindLinks::new(root, &projects, portal);
    let names = kubernetes::resources::ResourceNames::new(&projects);
    let diagram_links = sequence::Links {
        root,
        kinds: &kind_pages,
    };
    let portal_modules = dependencies::portal_modules(&projects);
    let shared_kinds = api::SharedKinds::of(&projects);
    // A kind's reference page and, unless it is a bundled kind's short page, its all-fields
    // page: every field in one table, for readers without script and for the tree's script,
    // which opens deeper fields from it.
    let kind_files = |kind: &api::KindPage, files: &mut Vec<OutputFile>| {
        let view = |all_fields| api::AllFields {
            page: kind,
            all_fields,
        };
        files.push(OutputFile {
            path: format!("{}index.html", kind.path),
            bytes: page("api_kind.html", &kind.path, &kind.kind, &view(false))?,
        });
        if kind.shared_url.is_empty() {
            let all = format!("{}all-fields/", kind.path);
            files.push(OutputFile {
                path: format!("{all}index.html"),
                bytes: page("api_kind.html", &all, "All fields", &view(true))?,
            });
        }
        Ok::<(), Error>(())
    };
    // What needs every project's model comes first: each model is dropped once its own
    // pages are made below.
    for kind in shared_kinds.pages(&projects, root) {
        kind_files(&kind, &mut files)?;
        out.flush(&mut files)?;
    }
    let mut portal_pages = vec![
        kinds::index(portal, &projects, root),
        platform::architecture(portal, &projects, root),
        platform::network(portal, &projects, root),
        platform::rbac(&projects, root),
        platform::secrets(&projects, root),
        dependencies::platform(&projects, root, platform::nav(root)),
        memory::platform(&projects, root, platform::nav(root)),
        api_versions::platform(&projects, site.target_kubernetes, root, platform::nav(root)),
    ];
    portal_pages.extend(kinds::pages(portal, &projects, root));
    portal_pages.extend(changes::portal(&projects, comparisons, root));
    for view in portal_pages {
        files.push(OutputFile {
            path: format!("{}index.html", view.path),
            bytes: page("portal_sections.html", &view.path, &view.page_title, &view)?,
        });
    }
    files.push(OutputFile {
        path: "search/index.html".into(),
        bytes: page("search.html", "search/", "Search", &views::Empty {})?,
    });
    files.push(OutputFile {
        path: "data/portal.json".into(),
        bytes: json(portal)?,
    });
    files.push(OutputFile {
        path: "data/schema.json".into(),
        bytes: json(&model::json_schema())?,
    });
    files.push(OutputFile {
        path: "data/c4.dsl".into(),
        bytes: c4::dsl(&site.title, portal, &projects).into_bytes(),
    });
    files.push(OutputFile {
        path: "404.html".into(),
        bytes: page("404.html", "404.html", "Page not found", &views::Empty {})?,
    });
    files.push(OutputFile {
        path: ".nojekyll".into(),
        bytes: Vec::new(),
    });
    files.push(OutputFile {
        path: "robots.txt".into(),
        bytes: robots(site).into_bytes(),
    });
    out.flush(&mut files)?;
    for owned in projects {
        let project = &owned;
        let mut project_docs = docs::project_docs(project, root, site.mermaid_js);
        let mut view = views::project_page(project, root, &kind_links);
        view.dependencies = dependencies::project(project, &portal_modules);
        let (flows, flow_files) = flow::project(project, &diagram_links);
        files.extend(flow_files);
        let base = format!("projects/{}/", project.name);
        for doc in &project_docs.pages {
            files.push(OutputFile {
                path: format!("{}index.html", doc.path),
                bytes: page("doc.html", &doc.path, &doc.title, doc)?,
            });
        }
        if !project_docs.index.docs.is_empty() {
            files.push(OutputFile {
                path: format!("{base}docs/index.html"),
                bytes: page(
                    "docs_index.html",
                    &format!("{base}docs/"),
                    "Docs",
                    &project_docs.index,
                )?,
            });
        }
        files.append(&mut project_docs.images);
        files.push(OutputFile {
            path: format!("{base}api/index.html"),
            bytes: page(
                "api_index.html",
                &format!("{base}api/"),
                "API reference",
                &api::index(project, root, &shared_kinds),
            )?,
        });
        for mut kind in api::kind_pages(project, root) {
            if let Some(folder) = shared_kinds.folder(&project.name, &kind.group, &kind.kind) {
                // A bundled kind: the project's own facts here, the schema on the page
                // every project shipping the same content links to.
                kind.shared_url = format!("{root}{folder}");
                kind.shared_by = shared_kinds.count(folder);
                for v in &mut kind.variants {
                    v.versions.clear();
                    v.changes.clear();
                }
            }
            kind_files(&kind, &mut files)?;
        }
        let drawn =
            |g: Option<svg::graph::Graph>| g.map(|g| svg::graph::render(&g)).unwrap_or_default();
        let mut network = manifests::network(project);
        network.diagram = drawn(graphs::service_map(project, root));
        let report = derive::access::check(project, &names);
        let privileges = derive::least_privilege::derive(project, &names);
        let mut security = security(project, portal, &kind_links, &report, &privileges, root);
        security.diagram = drawn(graphs::rbac(project, root));
        // Each controller's access rows and rules, gathered once for all its pages.
        let mut rows_of: HashMap<usize, Vec<&derive::access::AccessRow>> = HashMap::new();
        for row in &report.rows {
            if let Some(index) = row.controller {
                rows_of.entry(index).or_default().push(row);
            }
        }
        let privileges_of: HashMap<usize, &derive::least_privilege::Privileges> =
            privileges.iter().map(|c| (c.index, c)).collect();
        let controller_rbac = |index: usize| {
            let rows = rows_of.get(&index).map_or(&[][..], Vec::as_slice);
            let mine = privileges_of.get(&index).copied();
            rbac_code::controller_sections(project, rows, mine, portal, root, index)
        };
        for controller in
            views::controller_pages(project, &kind_links, root, &flows, &controller_rbac)
        {
            files.push(OutputFile {
                path: format!("{}index.html", controller.path),
                bytes: page(
                    "controller.html",
                    &controller.path,
                    &controller.controller.name,
                    &controller,
                )?,
            });
        }
        let mut configuration = manifests::configuration(project);
        // Before the trailing bundled and samples sections (its rows say their place).
        let at = configuration
            .sections
            .iter()
            .position(|s| s.id == "bundled")
            .unwrap_or(configuration.sections.len());
        configuration.sections.insert(
            at,
            api_versions::project_section(project, site.target_kubernetes),
        );
        let tables = extracted::sections(project);
        configuration.sections.splice(at + 1..at + 1, tables);
        for (folder, title, view) in [
            ("configuration", "Configuration", configuration),
            ("network", "Network", network),
            ("security", "Security", security),
        ] {
            files.push(OutputFile {
                path: format!("{base}{folder}/index.html"),
                bytes: page("sections.html", &format!("{base}{folder}/"), title, &view)?,
            });
        }
        // The dataflow page shows the project summary; each controller's diagram is on
        // its own page.
        view.flows = flows.into_iter().take(1).collect();
        files.push(OutputFile {
            path: format!("{base}dataflow/index.html"),
            bytes: page(
                "dataflow.html",
                &format!("{base}dataflow/"),
                "Dataflow",
                &view,
            )?,
        });
        files.push(OutputFile {
            path: format!("{base}index.html"),
            bytes: page(
                "project.html",
                &base,
                &project.title,
                &WithHtml {
                    view: &view,
                    intro_html: &project_docs.readme_html,
                    project_docs: Some(&project_docs.index.docs),
                },
            )?,
        });
        let compared: Vec<&changes::Comparison> = comparisons
            .iter()
            .filter(|c| compared_project(c) == project.name)
            .collect();
        if let Some(view) = changes::project(project, &compared, root) {
            files.push(OutputFile {
                path: format!("{}index.html", view.path),
                bytes: page("portal_sections.html", &view.path, &view.page_title, &view)?,
            });
        }
        files.push(OutputFile {
            path: format!("data/{}.json", project.name),
            bytes: json(project)?,
        });
        out.flush(&mut files)?;
        drop(project_docs);
        drop(owned);
        out.sink.project_done();
    }
    out.flush(&mut files)?;
    // The sitemap format needs absolute URLs: without an absolute base_url there is none.
    if let Some(base) = absolute_base(site) {
        out.pages.sort();
        files.push(OutputFile {
            path: "sitemap.xml".into(),
            bytes: sitemap(&base, &out.pages).into_bytes(),
        });
    }
    for (path, bytes) in theme.static_files() {
        files.push(OutputFile {
            path: format!("static/{path}"),
            bytes,
        });
    }
    out.flush(&mut files)?;
    Ok(content_fingerprint)
}

/// The security page with the RBAC-versus-code and least-privilege sections before the
/// trailing bundled and samples sections.
fn security(
    project: &Project,
    portal: &Portal,
    kind_links: &table::KindLinks,
    report: &derive::access::AccessReport,
    privileges: &[derive::least_privilege::Privileges],
    root: &str,
) -> manifests::SectionsPage {
    let mut view = manifests::security(project, kind_links);
    let at = view.sections.len().saturating_sub(2);
    let mut added = rbac_code::sections(project, report, portal, root);
    added.push(rbac_code::least_privilege_index(project, privileges, root));
    view.sections.splice(at..at, added);
    view
}

/// The project a comparison is of.
fn compared_project(c: &changes::Comparison) -> &str {
    match c {
        Ok(d) => &d.project,
        Err((project, _, _)) => project,
    }
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

/// Compact JSON: the data files are for programs, and indentation was a third of their
/// bytes.
fn json<T: Serialize>(value: &T) -> Result<Vec<u8>, Error> {
    let mut bytes = serde_json::to_vec(value).map_err(Error::Json)?;
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
