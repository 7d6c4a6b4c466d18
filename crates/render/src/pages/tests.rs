use super::*;
use crate::nav::{NAV_CHILDREN, Navigation, PortalEntries, ProjectEntries};

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

// The sidebar the registry's links make.

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
    Navigation::new("/r/", &links(), &[], &[entries("p"), entries("q")], false)
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
    let nav = Navigation::new("/", &links(), &[], &[entries], false);
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
