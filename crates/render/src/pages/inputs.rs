//! What page types are made from: the build's shared lookups, the portal's projects, and
//! one project's model with what several of its pages need.

use std::collections::BTreeMap;

use config::Site;
use model::{Portal, Project};

use crate::OutputFile;
use crate::{api, changes, content, dependencies, docs, flow, sequence, table, views};

/// What every page type may read, made once for the whole site before any page.
pub struct Shared<'a> {
    pub site: &'a Site,
    pub portal: &'a Portal,
    pub comparisons: &'a [changes::Comparison],
    /// The site's own content, rendered.
    pub content: &'a content::Rendered,
    /// The base path every link starts with.
    pub root: &'a str,
    pub kind_pages: table::KindPages,
    pub kind_links: table::KindLinks,
    pub names: kubernetes::resources::ResourceNames,
    pub portal_modules: BTreeMap<String, String>,
    pub shared_kinds: api::SharedKinds,
}

impl<'a> Shared<'a> {
    pub fn new(
        site: &'a Site,
        portal: &'a Portal,
        projects: &[Project],
        comparisons: &'a [changes::Comparison],
        content: &'a content::Rendered,
    ) -> Shared<'a> {
        let root = site.base_path.as_str();
        Shared {
            site,
            portal,
            comparisons,
            content,
            root,
            kind_pages: table::KindPages::of(root, portal),
            kind_links: table::KindLinks::new(root, projects, portal),
            names: kubernetes::resources::ResourceNames::new(projects),
            portal_modules: dependencies::portal_modules(projects),
            shared_kinds: api::SharedKinds::of(projects),
        }
    }

    /// Links from diagrams to kind pages.
    pub fn diagram_links(&self) -> sequence::Links<'_> {
        sequence::Links {
            root: self.root,
            kinds: &self.kind_pages,
        }
    }
}

/// The inputs of a portal page: the shared lookups and every project's model.
pub struct PortalInputs<'a> {
    pub shared: &'a Shared<'a>,
    pub projects: &'a [Project],
}

/// The inputs of one project's pages: its model, and what several of its pages show,
/// made once. Dropped once the project's pages are made.
pub struct ProjectInputs<'a> {
    pub shared: &'a Shared<'a>,
    pub project: &'a Project,
    /// The project's folder, `projects/NAME/`.
    pub base: String,
    /// Its docs: pages, index, images (the docs page hands the images on) and README.
    pub docs: docs::ProjectDocs,
    /// Its reconciliation flows: the summary, then one per component controller.
    pub flows: Vec<flow::FlowView>,
    /// The flows' mermaid sources, handed on by the `diagrams` page type.
    pub flow_files: Vec<OutputFile>,
    /// What its controllers' code does against what RBAC grants them.
    pub access: derive::access::AccessReport,
    pub privileges: Vec<derive::least_privilege::Privileges>,
    /// The view of the overview and dataflow pages.
    pub overview: views::ProjectPage,
}

impl<'a> ProjectInputs<'a> {
    pub fn new(shared: &'a Shared<'a>, project: &'a Project) -> ProjectInputs<'a> {
        let root = shared.root;
        let (flows, flow_files) = flow::project(project, &shared.diagram_links());
        let mut overview = views::project_page(project, root, &shared.kind_links);
        overview.dependencies = dependencies::project(project, &shared.portal_modules);
        // The overview shows the project summary; each controller's diagram is on its
        // own page.
        overview.flows = flows.iter().take(1).cloned().collect();
        ProjectInputs {
            shared,
            project,
            base: format!("projects/{}/", project.name),
            docs: docs::project_docs(project, root, shared.site.mermaid_js),
            flows,
            flow_files,
            access: derive::access::check(project, &shared.names),
            privileges: derive::least_privilege::derive(project, &shared.names),
            overview,
        }
    }

    /// The site-relative folder of the project's page in `folder`.
    pub fn folder(&self, folder: &str) -> String {
        format!("{}{folder}/", self.base)
    }
}
