//! The platform network page: Services, ingress objects and NetworkPolicies of every
//! project.

use crate::Error;
use crate::pages::{Output, PortalInputs, PortalLink, PortalPageType, always};

pub const PAGE: PortalPageType = PortalPageType {
    link: Some(PortalLink::Page {
        path: "platform/network/",
        title: "Network topology",
        rank: 2,
        platform: true,
        shown: always,
    }),
    render,
};

fn render(inputs: &PortalInputs, out: &mut Output) -> Result<(), Error> {
    let (projects, root) = (inputs.projects, inputs.shared.root);
    let view = crate::platform::network(inputs.shared.portal, projects, root);
    out.page("portal_sections.html", &view.path, &view.page_title, &view)
}
