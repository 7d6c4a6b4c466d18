//! The files static hosts and crawlers read: `.nojekyll` (GitHub Pages serves folders
//! starting with `_` as they are) and `robots.txt`.

use config::Site;

use crate::Error;
use crate::pages::{Output, PortalInputs, PortalPageType};

pub const PAGE: PortalPageType = PortalPageType { link: None, render };

fn render(inputs: &PortalInputs, out: &mut Output) -> Result<(), Error> {
    out.file(".nojekyll", Vec::new());
    out.file("robots.txt", robots(inputs.shared.site).into_bytes());
    Ok(())
}

fn robots(site: &Site) -> String {
    let mut s = String::from("User-agent: *\nAllow: /\n");
    if let Some(base) = crate::absolute_base(site) {
        s.push_str(&format!("Sitemap: {base}sitemap.xml\n"));
    }
    s
}
