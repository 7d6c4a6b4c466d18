//! The kinds index (`/kinds/`): every kind of the portal and who uses it.

use crate::Error;
use crate::kinds;
use crate::pages::{Output, PortalInputs, PortalLink, PortalPageType, always};

pub const PAGE: PortalPageType = PortalPageType {
    link: Some(PortalLink::Page {
        path: "kinds/",
        title: "Kinds",
        rank: 1,
        platform: false,
        shown: always,
    }),
    render,
};

fn render(inputs: &PortalInputs, out: &mut Output) -> Result<(), Error> {
    let shared = inputs.shared;
    let view = kinds::index(shared.portal, inputs.projects, shared.root);
    out.page("portal_sections.html", &view.path, &view.page_title, &view)
}
