//! The site's own content pages (`content/*.md`) and their files.

use crate::Error;
use crate::content::Rendered;
use crate::pages::{Output, PortalInputs, PortalLink, PortalPageType};

pub const PAGE: PortalPageType = PortalPageType {
    link: Some(PortalLink::Content { rank: 4 }),
    render,
};

fn render(inputs: &PortalInputs, out: &mut Output) -> Result<(), Error> {
    add(inputs.shared.content, out)
}

/// The content's pages and files; `render_content` makes them alone this way.
pub fn add(content: &Rendered, out: &mut Output) -> Result<(), Error> {
    for page in &content.pages {
        out.page("content.html", &page.path, &page.title, page)?;
    }
    out.extend(content.assets.iter().cloned());
    Ok(())
}
