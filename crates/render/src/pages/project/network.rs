//! The project's network page: its service map over the sections of `manifests::network`
//! (Services, container ports, ingress objects, NetworkPolicies).

use crate::Error;
use crate::pages::{Output, ProjectInputs, ProjectLink, ProjectPageType, always};
use crate::{graphs, manifests, svg};

const LINK: ProjectLink = ProjectLink {
    folder: "network",
    title: "Network",
    rank: 3,
    shown: always,
    lists: None,
};

pub const PAGE: ProjectPageType = ProjectPageType {
    link: Some(LINK),
    render,
};

fn render(inputs: &mut ProjectInputs, out: &mut Output) -> Result<(), Error> {
    let mut view = manifests::network(inputs.project);
    view.diagram = graphs::service_map(inputs.project, inputs.shared.root)
        .map(|g| svg::graph::render(&g))
        .unwrap_or_default();
    out.page(
        "sections.html",
        &inputs.folder(LINK.folder),
        LINK.title,
        &view,
    )
}
