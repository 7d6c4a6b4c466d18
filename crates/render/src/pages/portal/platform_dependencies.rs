//! The platform dependencies page: modules and container images across projects.

use crate::Error;
use crate::pages::{Output, PortalInputs, PortalLink, PortalPageType, always};

pub const PAGE: PortalPageType = PortalPageType {
    link: Some(PortalLink::Page {
        path: "platform/dependencies/",
        title: "Dependencies and images",
        rank: 2,
        platform: true,
        shown: always,
    }),
    render,
};

fn render(inputs: &PortalInputs, out: &mut Output) -> Result<(), Error> {
    let (projects, root) = (inputs.projects, inputs.shared.root);
    let view = crate::dependencies::platform(projects, root, crate::platform::nav(root));
    out.page("portal_sections.html", &view.path, &view.page_title, &view)
}
