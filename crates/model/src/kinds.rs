//! The portal's kind index: who defines, watches, writes, admits and grants each kind, and
//! the kind mentions it cannot place.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::{Origin, Relation, SourceRef, Verb, WebhookType, is_false};

/// One kind across all projects: who defines, watches, writes, admits and grants it.
/// Only kinds resolved to an API group are entries; see `Portal::unresolved_kinds`.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq)]
pub struct KindEntry {
    pub group: String,
    pub kind: String,
    /// Projects that define the kind with a CRD of their own component (not bundled, not
    /// from samples); `definitions` has every CRD, with its sources.
    pub defined_by: Vec<String>,
    /// Who defines it outside the portal, as far as portolan's tables know: `Kubernetes`,
    /// or a well-known API module (`sigs.k8s.io/gateway-api`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub defined_outside: Option<String>,
    pub watched_by: Vec<KindWatcher>,
    /// Every CRD of the kind in any project, own, bundled or from samples.
    #[serde(default)]
    pub definitions: Vec<KindDefinition>,
    #[serde(default)]
    pub written_by: Vec<KindWriter>,
    /// Admission webhooks called for the kind (their rules, or the kind they serve in code).
    #[serde(default)]
    pub webhooks: Vec<KindWebhook>,
    /// RBAC rules that name the kind's resource (or a wildcard of its group).
    #[serde(default)]
    pub grants: Vec<KindGrant>,
}

/// A watch of a kind: by a controller (`for`, `owns`, `watches`, `informer`), or by an
/// informer outside controllers, then `controller` is its function and `package` is set.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct KindWatcher {
    pub project: String,
    pub controller: String,
    pub relation: Relation,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub package: String,
    #[serde(default)]
    pub sources: Vec<SourceRef>,
}

/// A CRD of the kind in one project.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct KindDefinition {
    pub project: String,
    /// `component` (the project's own definition), `bundled` (another project's CRD
    /// shipped for installation) or `samples` (from tests, docs or examples).
    pub how: String,
    pub sources: Vec<SourceRef>,
}

/// Client writes of a kind with one verb, by a controller or, outside every controller's
/// reach, by a package's function (`controller` empty).
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct KindWriter {
    pub project: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub controller: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub package: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub function: String,
    pub verb: Verb,
    pub sources: Vec<SourceRef>,
}

/// An admission webhook that is called for the kind.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct KindWebhook {
    pub project: String,
    /// The webhook's name; for one built in code without a name, its path.
    pub webhook: String,
    #[serde(rename = "type")]
    pub webhook_type: WebhookType,
    /// `CREATE`, `UPDATE`, …; empty for a webhook built in code (its configuration decides).
    pub operations: Vec<String>,
    pub origin: Origin,
    pub sources: Vec<SourceRef>,
}

/// An RBAC rule granting verbs on the kind's resource or one of its subresources.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct KindGrant {
    pub project: String,
    /// As in `RbacRule::role`.
    pub role: String,
    /// The resource as the rule names it: `inferencepools`, `inferencepools/status`, `*`.
    pub resource: String,
    pub verbs: Vec<String>,
    /// True when the rule names the resource or group only through `*`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub wildcard: bool,
    pub origin: Origin,
    pub sources: Vec<SourceRef>,
}

/// A kind mention the portal cannot place in the kind index: an unresolved watch or write
/// (`group` is `?`), or a webhook or RBAC resource no known kind has as its plural.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct UnresolvedKind {
    pub project: String,
    /// `watch`, `write`, `webhook` or `rbac`.
    pub usage: String,
    /// What was written: `import/path.Kind`, or `group/resource`.
    pub what: String,
    /// Who: the controller, package, webhook or role.
    pub by: String,
    pub sources: Vec<SourceRef>,
}
