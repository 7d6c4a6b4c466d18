//! The project's docs: one page per markdown file, their index and their images.

use crate::Error;
use crate::docs;
use crate::nav::ProjectEntries;
use crate::pages::{Output, ProjectInputs, ProjectLink, ProjectPageType};

const LINK: ProjectLink = ProjectLink {
    folder: "docs",
    title: "Docs",
    rank: 6,
    shown: |project: &ProjectEntries| project.has_docs,
    lists: None,
};

pub const PAGE: ProjectPageType = ProjectPageType {
    link: Some(LINK),
    render,
};

fn render(inputs: &mut ProjectInputs, out: &mut Output) -> Result<(), Error> {
    let project_docs: &mut docs::ProjectDocs = &mut inputs.docs;
    for doc in &project_docs.pages {
        out.page("doc.html", &doc.path, &doc.title, doc)?;
    }
    if !project_docs.index.docs.is_empty() {
        let folder = format!("{}{}/", inputs.base, LINK.folder);
        out.page("docs_index.html", &folder, LINK.title, &project_docs.index)?;
    }
    out.extend(std::mem::take(&mut project_docs.images));
    Ok(())
}
