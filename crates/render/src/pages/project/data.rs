//! The project's model as JSON (`data/NAME.json`), for programs.

use crate::Error;
use crate::pages::{Output, ProjectInputs, ProjectPageType, json};

pub const PAGE: ProjectPageType = ProjectPageType { link: None, render };

fn render(inputs: &mut ProjectInputs, out: &mut Output) -> Result<(), Error> {
    let path = format!("data/{}.json", inputs.project.name);
    out.file(path, json(inputs.project)?);
    Ok(())
}
