//! The platform secrets page: every Secret defined or referenced.

use crate::Error;
use crate::pages::{Output, PortalInputs, PortalLink, PortalPageType, always};

pub const PAGE: PortalPageType = PortalPageType {
    link: Some(PortalLink::Page {
        path: "platform/secrets/",
        title: "Secrets inventory",
        rank: 2,
        platform: true,
        shown: always,
    }),
    render,
};

fn render(inputs: &PortalInputs, out: &mut Output) -> Result<(), Error> {
    let (projects, root) = (inputs.projects, inputs.shared.root);
    let view = crate::platform::secrets(projects, root);
    out.page("portal_sections.html", &view.path, &view.page_title, &view)
}
