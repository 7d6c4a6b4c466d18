//! The project's overview page (`projects/NAME/`): its README, docs and summary tables.
//! The sidebar's project link itself leads here.

use crate::Error;
use crate::pages::{Output, ProjectInputs, ProjectPageType, WithHtml};

pub const PAGE: ProjectPageType = ProjectPageType { link: None, render };

fn render(inputs: &mut ProjectInputs, out: &mut Output) -> Result<(), Error> {
    let view = WithHtml {
        view: &inputs.overview,
        intro_html: &inputs.docs.readme_html,
        project_docs: Some(&inputs.docs.index.docs),
    };
    out.page("project.html", &inputs.base, &inputs.project.title, &view)
}
