//! The search page; its index is made from the rendered pages (crate `search`).

use crate::Error;
use crate::pages::{Output, PortalInputs, PortalLink, PortalPageType, always};
use crate::views;

pub const PAGE: PortalPageType = PortalPageType {
    link: Some(PortalLink::Page {
        path: "search/",
        title: "Search",
        rank: 5,
        platform: false,
        shown: always,
    }),
    render,
};

fn render(_: &PortalInputs, out: &mut Output) -> Result<(), Error> {
    out.page("search.html", "search/", "Search", &views::Empty {})
}
