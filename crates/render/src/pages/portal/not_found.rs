//! The page static hosts show for a path the site does not have (`404.html`).

use crate::Error;
use crate::pages::{Output, PortalInputs, PortalPageType};
use crate::views;

pub const PAGE: PortalPageType = PortalPageType { link: None, render };

fn render(_: &PortalInputs, out: &mut Output) -> Result<(), Error> {
    let bytes = out.render("404.html", "404.html", "Page not found", &views::Empty {})?;
    out.file("404.html", bytes);
    Ok(())
}
