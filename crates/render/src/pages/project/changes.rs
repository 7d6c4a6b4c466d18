//! The project's changes page: what changed since each earlier revision it compares.

use crate::Error;
use crate::changes::{self, Comparison};
use crate::nav::ProjectEntries;
use crate::pages::{Output, ProjectInputs, ProjectLink, ProjectPageType};

pub const PAGE: ProjectPageType = ProjectPageType {
    link: Some(ProjectLink {
        folder: "changes",
        title: "Changes",
        rank: 5,
        shown: |project: &ProjectEntries| project.has_changes,
        lists: None,
    }),
    render,
};

fn render(inputs: &mut ProjectInputs, out: &mut Output) -> Result<(), Error> {
    let project = inputs.project;
    let compared: Vec<&Comparison> = inputs
        .shared
        .comparisons
        .iter()
        .filter(|c| compared_project(c) == project.name)
        .collect();
    if let Some(view) = changes::project(project, &compared, inputs.shared.root) {
        out.page("portal_sections.html", &view.path, &view.page_title, &view)?;
    }
    Ok(())
}

/// The project a comparison is of.
fn compared_project(c: &Comparison) -> &str {
    match c {
        Ok(d) => &d.project,
        Err((project, _, _)) => project,
    }
}
