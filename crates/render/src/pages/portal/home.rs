//! The home page: the projects' cards and graph, under the site's `content/index.md`.

use crate::Error;
use crate::pages::{Output, PortalInputs, PortalLink, PortalPageType, WithHtml, always};
use crate::{graphs, svg, views};

pub const PAGE: PortalPageType = PortalPageType {
    link: Some(PortalLink::Page {
        path: "",
        title: "Home",
        rank: 0,
        platform: false,
        shown: always,
    }),
    render,
};

fn render(inputs: &PortalInputs, out: &mut Output) -> Result<(), Error> {
    let shared = inputs.shared;
    let mut home = views::home(shared.portal, shared.root);
    home.graph = graphs::projects(shared.portal, shared.root, &shared.kind_pages)
        .map(|g| svg::graph::render(&g))
        .unwrap_or_default();
    let view = WithHtml {
        view: &home,
        intro_html: &shared.content.home_html,
        project_docs: None,
    };
    out.page("index.html", "", &shared.site.title, &view)
}
