//! The sidebar and breadcrumbs of every page.
//!
//! `Navigation` holds the whole tree once: the portal's pages, then each project with its
//! pages, its controllers under Dataflow and its own CRD kinds under API reference.
//! `Navigation::page` cuts it for one page: every project by name, only the current
//! project opened, the links leading to the page marked, and the breadcrumbs read off
//! that path. A page's sidebar so grows with the number of projects, not with their
//! size (and past `NAV_PROJECTS` names none: it links to the home page's cards). The
//! links are the page types' own, handed in by the registry (`pages::links`).

use serde::Serialize;

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

/// The page types' sidebar links (`pages::links`).
pub struct Links {
    pub portal: Vec<&'static PortalLink>,
    pub project: Vec<&'static ProjectLink>,
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
        links: &Links,
        content: &[super::content::NavEntry],
        projects: &[ProjectEntries],
        compared: bool,
    ) -> Navigation {
        Navigation {
            root: root.to_string(),
            portal: portal_links(root, &links.portal, content, &PortalEntries { compared }),
            projects: projects
                .iter()
                .take_while(|_| projects.len() <= NAV_PROJECTS)
                .map(|entries| project_tree(root, &links.project, entries))
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

/// The portal's links, from the portal page types' in rank order; the
/// platform pages go under one Platform entry, which shows the first of them.
fn portal_links(
    root: &str,
    links: &[&PortalLink],
    content: &[super::content::NavEntry],
    site: &PortalEntries,
) -> Vec<NavLink> {
    let mut ranked: Vec<(u8, NavLink)> = Vec::new();
    let mut platform: Option<(u8, NavLink)> = None;
    for &link in links {
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

/// A project's links, from the project page types' in rank order.
fn project_tree(root: &str, links: &[&ProjectLink], entries: &ProjectEntries) -> NavLink {
    let base = format!("projects/{}/", entries.name);
    let mut links: Vec<&ProjectLink> = links
        .iter()
        .copied()
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
