//! The project's security page: its RBAC graph over the sections of `manifests::security`,
//! with RBAC against what the code does and least privilege before the trailing bundled
//! and samples sections.

use crate::Error;
use crate::pages::{Output, ProjectInputs, ProjectLink, ProjectPageType, always};
use crate::{graphs, manifests, rbac_code, svg};

const LINK: ProjectLink = ProjectLink {
    folder: "security",
    title: "Security",
    rank: 4,
    shown: always,
    lists: None,
};

pub const PAGE: ProjectPageType = ProjectPageType {
    link: Some(LINK),
    render,
};

fn render(inputs: &mut ProjectInputs, out: &mut Output) -> Result<(), Error> {
    let (project, shared) = (inputs.project, inputs.shared);
    let mut view = manifests::security(project, &shared.kind_links);
    // The RBAC-versus-code and least-privilege sections go before the trailing bundled
    // and samples sections.
    let at = view.sections.len().saturating_sub(2);
    let mut added = rbac_code::sections(project, &inputs.access, shared.portal, shared.root);
    added.push(rbac_code::least_privilege_index(
        project,
        &inputs.privileges,
        shared.root,
    ));
    view.sections.splice(at..at, added);
    view.diagram = graphs::rbac(project, shared.root)
        .map(|g| svg::graph::render(&g))
        .unwrap_or_default();
    out.page(
        "sections.html",
        &inputs.folder(LINK.folder),
        LINK.title,
        &view,
    )
}
