//! The changes page (`/changes/`): every comparison of the portal, when projects compare
//! earlier revisions.

use crate::Error;
use crate::changes;
use crate::nav::PortalEntries;
use crate::pages::{Output, PortalInputs, PortalLink, PortalPageType};

pub const PAGE: PortalPageType = PortalPageType {
    link: Some(PortalLink::Page {
        path: "changes/",
        title: "Changes",
        rank: 3,
        platform: false,
        shown: |site: &PortalEntries| site.compared,
    }),
    render,
};

fn render(inputs: &PortalInputs, out: &mut Output) -> Result<(), Error> {
    let shared = inputs.shared;
    if let Some(view) = changes::portal(inputs.projects, shared.comparisons, shared.root) {
        out.page("portal_sections.html", &view.path, &view.page_title, &view)?;
    }
    Ok(())
}
