//! One page per component controller: what it watches and writes, its flow, its access.

use std::collections::HashMap;

use derive::access::AccessRow;
use derive::least_privilege::Privileges;

use crate::Error;
use crate::pages::{Output, ProjectInputs, ProjectPageType};
use crate::{rbac_code, views};

/// Listed under Dataflow in the sidebar, not linked on their own.
pub const PAGE: ProjectPageType = ProjectPageType { link: None, render };

fn render(inputs: &mut ProjectInputs, out: &mut Output) -> Result<(), Error> {
    let (project, shared) = (inputs.project, inputs.shared);
    // Each controller's access rows and rules, gathered once for all its pages.
    let mut rows_of: HashMap<usize, Vec<&AccessRow>> = HashMap::new();
    for row in &inputs.access.rows {
        if let Some(index) = row.controller {
            rows_of.entry(index).or_default().push(row);
        }
    }
    let privileges_of: HashMap<usize, &Privileges> =
        inputs.privileges.iter().map(|c| (c.index, c)).collect();
    let controller_rbac = |index: usize| {
        let rows = rows_of.get(&index).map_or(&[][..], Vec::as_slice);
        let mine = privileges_of.get(&index).copied();
        rbac_code::controller_sections(project, rows, mine, shared.portal, shared.root, index)
    };
    let pages = views::controller_pages(
        project,
        &shared.kind_links,
        shared.root,
        &inputs.flows,
        &controller_rbac,
    );
    for page in pages {
        out.page("controller.html", &page.path, &page.controller.name, &page)?;
    }
    Ok(())
}
