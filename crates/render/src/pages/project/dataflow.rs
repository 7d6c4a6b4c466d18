//! The project's dataflow page: the project summary's flow and what each controller
//! watches and writes; the sidebar lists the controllers' pages under it.

use crate::Error;
use crate::pages::{Listed, Output, ProjectInputs, ProjectLink, ProjectPageType, always};

const LINK: ProjectLink = ProjectLink {
    folder: "dataflow",
    title: "Dataflow",
    rank: 0,
    shown: always,
    lists: Some(Listed::Controllers),
};

pub const PAGE: ProjectPageType = ProjectPageType {
    link: Some(LINK),
    render,
};

fn render(inputs: &mut ProjectInputs, out: &mut Output) -> Result<(), Error> {
    let folder = inputs.folder(LINK.folder);
    out.page("dataflow.html", &folder, LINK.title, &inputs.overview)
}
