//! The platform API versions page: the Kubernetes API versions projects use, against
//! the target release.

use crate::Error;
use crate::pages::{Output, PortalInputs, PortalLink, PortalPageType, always};

pub const PAGE: PortalPageType = PortalPageType {
    link: Some(PortalLink::Page {
        path: "platform/kubernetes-apis/",
        title: "Kubernetes API versions",
        rank: 2,
        platform: true,
        shown: always,
    }),
    render,
};

fn render(inputs: &PortalInputs, out: &mut Output) -> Result<(), Error> {
    let (projects, root) = (inputs.projects, inputs.shared.root);
    let view = crate::api_versions::platform(
        projects,
        inputs.shared.site.target_kubernetes,
        root,
        crate::platform::nav(root),
    );
    out.page("portal_sections.html", &view.path, &view.page_title, &view)
}
