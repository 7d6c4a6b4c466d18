//! The data model: what the analyzers extract from one repository, as plain serde structs.
//!
//! Stage: leaf. Everything after `analyze` reads these values, never the source files.
//! **Invariant:** only these types are serialized; parser nodes never leak into the model.
//! Field names are the JSON contract of `site/data/P.json`; keep them stable.
//!
//! The types live in modules by domain (the project, controllers, APIs, manifests, the
//! portal, …), all re-exported here: `model::Type` is the one path to each.

mod apis;
mod binaries;
mod common;
mod controllers;
mod dependencies;
mod endpoints;
mod features;
mod images;
mod kinds;
mod managers;
mod manifests;
mod metrics;
pub mod minimal;
mod portal;
mod project;
mod rbac;
mod webhooks;

pub use apis::*;
pub use binaries::*;
pub use common::*;
pub use controllers::*;
pub use dependencies::*;
pub use endpoints::*;
pub use features::*;
pub use images::*;
pub use kinds::*;
pub use managers::*;
pub use manifests::*;
pub use metrics::*;
pub use portal::*;
pub use project::*;
pub use rbac::*;
pub use webhooks::*;

/// Bumped when a field of the JSON contract changes meaning or disappears.
pub const SCHEMA_VERSION: u32 = 1;

/// The JSON Schema of the model files (`data/schema.json`): a project's model at the root
/// (`data/P.json`, what `portolan analyze` prints and `model = "P.json"` reads), the
/// portal's (`data/portal.json`) as `$defs/Portal`. Derived from these types (schemars
/// follows the serde attributes), so it cannot drift from what is written.
pub fn json_schema() -> serde_json::Value {
    let mut generator = schemars::SchemaGenerator::default();
    generator.subschema_for::<Portal>();
    generator.into_root_schema_for::<Project>().to_value()
}

/// The largest model file portolan reads (`model = …`, the analysis cache): far above what
/// `portolan analyze` writes for a real repository (a few MiB), far below what would
/// exhaust memory.
pub const MAX_MODEL_BYTES: u64 = 256 * 1024 * 1024;
