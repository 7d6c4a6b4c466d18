//! The reference pages of kinds several projects bundle with the same content: one page
//! each, which every such project's own short page links to.

use crate::Error;
use crate::pages::{Output, PortalInputs, PortalPageType, project};

pub const PAGE: PortalPageType = PortalPageType { link: None, render };

fn render(inputs: &PortalInputs, out: &mut Output) -> Result<(), Error> {
    let shared = inputs.shared;
    for kind in shared.shared_kinds.pages(inputs.projects, shared.root) {
        project::api::kind_files(&kind, out)?;
        // A large portal bundles many kinds: hand each page on as it is made.
        out.flush()?;
    }
    Ok(())
}
