//! The portal's data files for programs: the portal model, the model's JSON schema and
//! the Structurizr DSL of the whole platform.

use crate::Error;
use crate::c4;
use crate::pages::{Output, PortalInputs, PortalPageType, json};

pub const PAGE: PortalPageType = PortalPageType { link: None, render };

fn render(inputs: &PortalInputs, out: &mut Output) -> Result<(), Error> {
    let shared = inputs.shared;
    out.file("data/portal.json", json(shared.portal)?);
    out.file("data/schema.json", json(&model::json_schema())?);
    let dsl = c4::dsl(&shared.site.title, shared.portal, inputs.projects);
    out.file("data/c4.dsl", dsl.into_bytes());
    Ok(())
}
