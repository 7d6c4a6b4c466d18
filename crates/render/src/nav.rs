//! The sidebar and breadcrumbs of every page.
//!
//! `Navigation` holds the whole tree once: the portal's pages, then each project with its
//! pages, its controllers under Dataflow and its own CRD kinds under API reference.
//! `Navigation::page` cuts it for one page: every project by name, only the current
//! project opened, the links leading to the page marked, and the breadcrumbs read off
//! that path. A page's sidebar so grows with the number of projects, not with their
//! size (and past `NAV_PROJECTS` names none: it links to the home page's cards). The
//! links are the page types' own (`pages::PORTAL`, `pages::PROJECT`).

use serde::Serialize;

use super::pages::{self, Listed, PortalLink, ProjectLink};

/// The most projects the sidebar of every page lists by name.
pub const NAV_PROJECTS: usize = 100;
/// The most controllers (or kinds) a project's sidebar lists, main ones first; past it the
/// list ends with a link to the page that lists them all, so a project of hundreds of
/// controllers does not repeat all of them on each of its pages.
pub const NAV_CHILDREN: usize = 40;

#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct NavLink {
    pub title: String,
    pub url: String,
    /// Site-relative folder of the page (`projects/p/dataflow/`; `` for the home page).
    #[serde(skip)]
    pub path: String,
    /// This is the page shown.
    pub current: bool,
    /// The page shown is this link's or under it.
    pub open: bool,
    /// How many items the page lists (its controllers, its kinds), shown beside it; 0 for
    /// a page without such a list.
    #[serde(skip_serializing_if = "is_zero")]
    pub count: usize,
    pub children: Vec<NavLink>,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl NavLink {
    fn new(root: &str, path: String, title: impl Into<String>) -> NavLink {
        NavLink {
            title: title.into(),
            url: format!("{root}{path}"),
            path,
            current: false,
            open: false,
            count: 0,
            children: Vec::new(),
        }
    }

    /// Marks the link and its children for the page at `path`; true when the page is
    /// this link's or under it.
    fn mark(&mut self, path: &str) -> bool {
        self.current = self.path == path;
        let mut open = self.current;
        for child in &mut self.children {
            open |= child.mark(path);
        }
        // The home page's folder is a prefix of every page: it is open only when shown.
        self.open = open || (!self.path.is_empty() && path.starts_with(&self.path));
        self.open
    }

    /// The chain of open links down to the deepest one.
    fn trail<'a>(&'a self, out: &mut Vec<&'a NavLink>) {
        if self.open {
            out.push(self);
            if let Some(child) = self.children.iter().find(|c| c.open) {
                child.trail(out);
            }
        }
    }
}

/// A project's part of the sidebar: its name and title, and what it lists beyond its
/// fixed pages (nothing, for pages that show every project closed).
#[derive(Default)]
pub struct ProjectEntries {
    pub name: String,
    pub title: String,
    /// Component controllers, main ones first: (name, site-relative page folder).
    pub controllers: Vec<(String, String)>,
    /// The project's own CRD kinds: (kind, site-relative API reference folder).
    pub kinds: Vec<(String, String)>,
    pub has_docs: bool,
    /// The project compares earlier revisions: it has a changes page.
    pub has_changes: bool,
}

/// What decides which portal links the sidebar shows.
pub struct PortalEntries {
    /// Some project compares earlier revisions: the site has a changes page.
    pub compared: bool,
}

pub struct Navigation {
    root: String,
    portal: Vec<NavLink>,
    projects: Vec<NavLink>,
    project_count: usize,
}

/// One page's sidebar and breadcrumbs.
#[derive(Serialize, Debug)]
pub struct PageNav {
    pub portal: Vec<NavLink>,
    /// Every project (empty past `NAV_PROJECTS`), the current one with its pages.
    pub projects: Vec<NavLink>,
    pub project_count: usize,
    /// From Home to the page's parent; the page's own title ends the trail in the template.
    pub breadcrumbs: Vec<NavLink>,
    /// The page's title as the last breadcrumb.
    pub title: String,
    /// The page is one of the sidebar's links (its table of contents goes under it).
    pub in_sidebar: bool,
}

impl Navigation {
    /// `content` is the site's own top-level pages (title, URL under `root`); `compared`:
    /// some project compares earlier revisions.
    pub fn new(
        root: &str,
        content: &[super::content::NavEntry],
        projects: &[ProjectEntries],
        compared: bool,
    ) -> Navigation {
        Navigation {
            root: root.to_string(),
            portal: portal_links(root, content, &PortalEntries { compared }),
            projects: projects
                .iter()
                .take_while(|_| projects.len() <= NAV_PROJECTS)
                .map(|entries| project_tree(root, entries))
                .collect(),
            project_count: projects.len(),
        }
    }

    /// The sidebar and breadcrumbs of the page at `path` (site-relative folder), titled
    /// `title`.
    pub fn page(&self, path: &str, title: &str) -> PageNav {
        let mut portal = self.portal.clone();
        for link in &mut portal {
            link.mark(path);
        }
        let projects: Vec<NavLink> = self
            .projects
            .iter()
            .map(|tree| {
                if path.starts_with(&tree.path) {
                    let mut tree = tree.clone();
                    tree.mark(path);
                    tree
                } else {
                    // Closed projects are one link each.
                    NavLink {
                        children: Vec::new(),
                        ..tree.clone()
                    }
                }
            })
            .collect();
        let mut trail = Vec::new();
        for link in portal.iter().skip(1).chain(&projects) {
            link.trail(&mut trail);
        }
        let in_sidebar = trail.last().is_some_and(|l| l.current) || path.is_empty();
        let mut breadcrumbs = vec![NavLink::new(&self.root, String::new(), "Home")];
        breadcrumbs.extend(trail.iter().filter(|l| !l.current).map(|l| NavLink {
            children: Vec::new(),
            ..(*l).clone()
        }));
        PageNav {
            portal,
            projects,
            project_count: self.project_count,
            breadcrumbs: if path.is_empty() {
                Vec::new()
            } else {
                breadcrumbs
            },
            title: title.to_string(),
            in_sidebar,
        }
    }
}

/// The portal's links, from the portal page types' (`pages::PORTAL`) in rank order; the
/// platform pages go under one Platform entry, which shows the first of them.
fn portal_links(
    root: &str,
    content: &[super::content::NavEntry],
    site: &PortalEntries,
) -> Vec<NavLink> {
    let mut ranked: Vec<(u8, NavLink)> = Vec::new();
    let mut platform: Option<(u8, NavLink)> = None;
    for link in pages::PORTAL.iter().filter_map(|page| page.link.as_ref()) {
        match link {
            PortalLink::Page {
                path,
                title,
                rank,
                platform: under_platform,
                shown,
            } if shown(site) => {
                let link = NavLink::new(root, path.to_string(), *title);
                if !under_platform {
                    ranked.push((*rank, link));
                    continue;
                }
                let (_, entry) = platform.get_or_insert_with(|| {
                    let mut entry = NavLink::new(root, "platform/".into(), "Platform");
                    entry.url = link.url.clone();
                    (*rank, entry)
                });
                entry.children.push(link);
            }
            PortalLink::Page { .. } => {}
            PortalLink::Content { rank } => {
                for page in content {
                    let path = page.url.strip_prefix(root).unwrap_or(&page.url).to_string();
                    let link = NavLink {
                        url: page.url.clone(),
                        ..NavLink::new(root, path, page.title.clone())
                    };
                    ranked.push((*rank, link));
                }
            }
        }
    }
    ranked.extend(platform);
    // Stable: links of one rank keep the registry's order.
    ranked.sort_by_key(|(rank, _)| *rank);
    ranked.into_iter().map(|(_, link)| link).collect()
}

/// A project's links, from the project page types' (`pages::PROJECT`) in rank order.
fn project_tree(root: &str, entries: &ProjectEntries) -> NavLink {
    let base = format!("projects/{}/", entries.name);
    let mut links: Vec<&ProjectLink> = pages::PROJECT
        .iter()
        .filter_map(|page| page.link.as_ref())
        .filter(|link| (link.shown)(entries))
        .collect();
    links.sort_by_key(|link| link.rank);
    let mut tree = NavLink::new(root, base.clone(), entries.title.clone());
    tree.children = links
        .into_iter()
        .map(|link| {
            let mut page = NavLink::new(root, format!("{base}{}/", link.folder), link.title);
            if let Some(listed) = link.lists {
                let (items, what) = match listed {
                    Listed::Controllers => (&entries.controllers, "controllers"),
                    Listed::Kinds => (&entries.kinds, "kinds"),
                };
                page.children = listed_links(root, items, &page, what);
                page.count = items.len();
            }
            page
        })
        .collect();
    tree
}

/// The links to a page's items (a project's controllers, its kinds), the first
/// `NAV_CHILDREN` of them, then one to the page listing them all.
fn listed_links(root: &str, items: &[(String, String)], all: &NavLink, what: &str) -> Vec<NavLink> {
    let mut links: Vec<NavLink> = items
        .iter()
        .take(NAV_CHILDREN)
        .map(|(name, path)| NavLink::new(root, path.clone(), name.clone()))
        .collect();
    if items.len() > NAV_CHILDREN {
        let mut more = all.clone();
        more.title = format!("All {} {what}", items.len());
        // Not the page itself: the entry above stays the one marked for it.
        more.path = format!("{}#all", all.path);
        links.push(more);
    }
    links
}

#[cfg(test)]
mod tests {
    use super::*;

    fn navigation() -> Navigation {
        let entries = |name: &str| ProjectEntries {
            name: name.into(),
            title: name.to_uppercase(),
            controllers: vec![(
                "widget".into(),
                format!("projects/{name}/controllers/widget/"),
            )],
            kinds: vec![("Widget".into(), format!("projects/{name}/api/x.io/Widget/"))],
            has_docs: false,
            has_changes: false,
        };
        Navigation::new("/r/", &[], &[entries("p"), entries("q")], false)
    }

    #[test]
    fn a_controller_page_opens_its_project_and_names_its_trail() {
        let page = navigation().page("projects/p/controllers/widget/", "widget");
        // Only the current project lists its pages.
        assert_eq!(page.projects[0].children.len(), 5);
        assert!(page.projects[1].children.is_empty());
        let dataflow = &page.projects[0].children[0];
        assert!(dataflow.open && !dataflow.current);
        assert!(dataflow.children[0].current);
        let crumbs: Vec<&str> = page.breadcrumbs.iter().map(|c| c.title.as_str()).collect();
        assert_eq!(crumbs, ["Home", "P", "Dataflow"]);
        assert_eq!(page.breadcrumbs[2].url, "/r/projects/p/dataflow/");
        assert!(page.in_sidebar);
    }

    #[test]
    fn a_page_outside_the_tree_is_under_its_nearest_folder() {
        let page = navigation().page("projects/p/api/x.io/Gadget/", "Gadget");
        let crumbs: Vec<&str> = page.breadcrumbs.iter().map(|c| c.title.as_str()).collect();
        assert_eq!(crumbs, ["Home", "P", "API reference"]);
        assert!(!page.in_sidebar);
        let home = navigation().page("", "Home");
        assert!(home.portal[0].current);
        assert!(home.breadcrumbs.is_empty());
        assert!(!home.portal[1].open, "only the home page opens Home");
    }

    #[test]
    fn a_project_of_many_controllers_lists_the_first_and_links_the_rest() {
        let controllers: Vec<(String, String)> = (0..300)
            .map(|i| (format!("c{i}"), format!("projects/p/controllers/c{i}/")))
            .collect();
        let entries = ProjectEntries {
            name: "p".into(),
            title: "P".into(),
            controllers,
            kinds: Vec::new(),
            has_docs: false,
            has_changes: false,
        };
        let nav = Navigation::new("/", &[], &[entries], false);
        let page = nav.page("projects/p/dataflow/", "Dataflow");
        let dataflow = &page.projects[0].children[0];
        assert!(dataflow.current);
        assert_eq!(dataflow.children.len(), NAV_CHILDREN + 1);
        let all = dataflow.children.last().unwrap();
        assert_eq!(all.title, "All 300 controllers");
        assert_eq!(dataflow.count, 300);
        assert_eq!(all.url, "/projects/p/dataflow/");
        assert!(!all.current);
    }

    #[test]
    fn platform_pages_open_the_platform_entry() {
        let page = navigation().page("platform/rbac/", "RBAC surface");
        let platform = &page.portal[2];
        assert!(platform.open && !platform.current);
        assert!(platform.children[2].current);
        let crumbs: Vec<&str> = page.breadcrumbs.iter().map(|c| c.title.as_str()).collect();
        assert_eq!(crumbs, ["Home", "Platform"]);
    }
}
