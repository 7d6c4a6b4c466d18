//! The project's configuration page: the sections of `manifests::configuration`, with the
//! Kubernetes API versions it uses and the Go extractors' tables before the trailing
//! bundled and samples sections.

use crate::Error;
use crate::pages::{Output, ProjectInputs, ProjectLink, ProjectPageType, always};
use crate::{api_versions, extracted, manifests};

const LINK: ProjectLink = ProjectLink {
    folder: "configuration",
    title: "Configuration",
    rank: 2,
    shown: always,
    lists: None,
};

pub const PAGE: ProjectPageType = ProjectPageType {
    link: Some(LINK),
    render,
};

fn render(inputs: &mut ProjectInputs, out: &mut Output) -> Result<(), Error> {
    let project = inputs.project;
    let mut view = manifests::configuration(project);
    // Before the trailing bundled and samples sections (its rows say their place).
    let at = view
        .sections
        .iter()
        .position(|s| s.id == "bundled")
        .unwrap_or(view.sections.len());
    let target = inputs.shared.site.target_kubernetes;
    view.sections
        .insert(at, api_versions::project_section(project, target));
    view.sections
        .splice(at + 1..at + 1, extracted::sections(project));
    out.page(
        "sections.html",
        &inputs.folder(LINK.folder),
        LINK.title,
        &view,
    )
}
