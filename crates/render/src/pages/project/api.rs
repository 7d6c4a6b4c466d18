//! The project's API reference: its index and one page per kind (with an all-fields
//! page), or a short page linking to the shared one for a bundled kind.

use crate::Error;
use crate::api;
use crate::pages::{Listed, Output, ProjectInputs, ProjectLink, ProjectPageType, always};

const LINK: ProjectLink = ProjectLink {
    folder: "api",
    title: "API reference",
    rank: 1,
    shown: always,
    lists: Some(Listed::Kinds),
};

pub const PAGE: ProjectPageType = ProjectPageType {
    link: Some(LINK),
    render,
};

fn render(inputs: &mut ProjectInputs, out: &mut Output) -> Result<(), Error> {
    let (project, shared) = (inputs.project, inputs.shared);
    let root = shared.root;
    let index = api::index(project, root, &shared.shared_kinds);
    out.page(
        "api_index.html",
        &inputs.folder(LINK.folder),
        LINK.title,
        &index,
    )?;
    for mut kind in api::kind_pages(project, root) {
        if let Some(folder) = shared
            .shared_kinds
            .folder(&project.name, &kind.group, &kind.kind)
        {
            // A bundled kind: the project's own facts here, the schema on the page
            // every project shipping the same content links to.
            kind.shared_url = format!("{root}{folder}");
            kind.shared_by = shared.shared_kinds.count(folder);
            for v in &mut kind.variants {
                v.versions.clear();
                v.changes.clear();
            }
        }
        kind_files(&kind, out)?;
    }
    Ok(())
}

/// A kind's reference page and, unless it is a bundled kind's short page, its all-fields
/// page: every field in one table, for readers without script and for the tree's script,
/// which opens deeper fields from it.
pub fn kind_files(kind: &api::KindPage, out: &mut Output) -> Result<(), Error> {
    let view = |all_fields| api::AllFields {
        page: kind,
        all_fields,
    };
    out.page("api_kind.html", &kind.path, &kind.kind, &view(false))?;
    if kind.shared_url.is_empty() {
        let all = format!("{}all-fields/", kind.path);
        out.page("api_kind.html", &all, "All fields", &view(true))?;
    }
    Ok(())
}
