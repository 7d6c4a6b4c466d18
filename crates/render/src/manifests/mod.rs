//! The manifest pages of a project, built as generic sections of tables: one module per
//! page (`configuration`, `network`, `security`), one function per section; this module
//! holds what they share.
//!
//! Rows of tests, docs and samples and rows of bundled dependency manifests are moved to
//! the two trailing sections of each page (`table::Router`), never mixed with the
//! project's own.

mod configuration;
mod network;
mod security;

pub use configuration::configuration;
pub use network::{network, network_policy_cells};
pub use security::{security, webhook_rules, webhook_service};

use serde::Serialize;

use super::api::Header;
use super::table::Section;
use super::views::anchor;

#[derive(Serialize)]
pub struct SectionsPage {
    #[serde(flatten)]
    pub header: Header,
    pub page_title: String,
    pub lead: String,
    pub sections: Vec<Section>,
    /// A graph of the page (service map, RBAC) as SVG from `render::svg` (every text
    /// escaped), filled by `render::graphs`; empty when there is none.
    pub diagram: String,
}

const BUNDLED_INTRO: &str = "Objects in manifest folders that belong to another project (see the Bundled dependency manifests section of the dataflow page for the evidence), and CRDs whose API group no in-repo Go API package declares.";

/// One policy rule as `verbs: group/resource … (names …)`.
pub fn rule_line(rule: &model::PolicyRule) -> String {
    let mut what: Vec<String> = rule
        .groups
        .iter()
        .flat_map(|g| {
            rule.resources.iter().map(move |res| {
                if g.is_empty() {
                    res.clone()
                } else {
                    format!("{g}/{res}")
                }
            })
        })
        .collect();
    what.extend(rule.non_resource_urls.iter().cloned());
    format!(
        "{}: {}{}",
        rule.verbs.join(","),
        what.join(" "),
        if rule.resource_names.is_empty() {
            String::new()
        } else {
            format!(" (names {})", rule.resource_names.join(","))
        }
    )
}

/// The role row anchor used on the security page, so bindings can link to their role.
fn role_anchor(role: &str) -> String {
    anchor(&["role", role])
}
