//! The platform RBAC page: ServiceAccounts, bindings and roles, with wildcard and
//! dangerous grants flagged.

use crate::Error;
use crate::pages::{Output, PortalInputs, PortalLink, PortalPageType, always};

pub const PAGE: PortalPageType = PortalPageType {
    link: Some(PortalLink::Page {
        path: "platform/rbac/",
        title: "RBAC surface",
        rank: 2,
        platform: true,
        shown: always,
    }),
    render,
};

fn render(inputs: &PortalInputs, out: &mut Output) -> Result<(), Error> {
    let (projects, root) = (inputs.projects, inputs.shared.root);
    let view = crate::platform::rbac(projects, root);
    out.page("portal_sections.html", &view.path, &view.page_title, &view)
}
