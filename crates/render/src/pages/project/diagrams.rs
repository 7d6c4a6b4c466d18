//! The mermaid sources of the project's reconciliation flows
//! (`projects/NAME/dataflow/*.mmd`), linked from the dataflow and controller pages.

use crate::Error;
use crate::pages::{Output, ProjectInputs, ProjectPageType};

pub const PAGE: ProjectPageType = ProjectPageType { link: None, render };

fn render(inputs: &mut ProjectInputs, out: &mut Output) -> Result<(), Error> {
    out.extend(std::mem::take(&mut inputs.flow_files));
    Ok(())
}
