//! One page per kind of the portal: which projects define, watch and write it.

use crate::Error;
use crate::kinds;
use crate::pages::{Output, PortalInputs, PortalPageType};

pub const PAGE: PortalPageType = PortalPageType { link: None, render };

fn render(inputs: &PortalInputs, out: &mut Output) -> Result<(), Error> {
    let shared = inputs.shared;
    for view in kinds::pages(shared.portal, inputs.projects, shared.root) {
        out.page("portal_sections.html", &view.path, &view.page_title, &view)?;
    }
    Ok(())
}
