//! The data model: what the analyzers extract from one repository, as plain serde structs.
//!
//! Stage: leaf. Everything after `analyze` reads these values, never the source files.
//! **Invariant:** only these types are serialized; parser nodes never leak into the model.
//! Field names are the JSON contract of `site/data/P.json`; keep them stable.

use serde::{Deserialize, Serialize};

/// Bumped when a field of the JSON contract changes meaning or disappears.
pub const SCHEMA_VERSION: u32 = 1;

/// Where an item was found: a repository-relative path and a 1-based line.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SourceRef {
    pub file: String,
    pub line: u32,
}

impl SourceRef {
    pub fn new(file: &str, line: u32) -> Self {
        SourceRef {
            file: file.to_string(),
            line,
        }
    }
}

/// Whether a row belongs to the component itself or to its tests, docs, samples and tooling.
#[derive(
    Serialize, Deserialize, Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash,
)]
#[serde(rename_all = "lowercase")]
pub enum Area {
    #[default]
    Component,
    Samples,
}

impl Area {
    pub fn is_component(&self) -> bool {
        *self == Area::Component
    }
}

/// One analyzed repository: the content of `site/data/P.json`.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
pub struct Project {
    pub schema_version: u32,
    pub name: String,
    pub title: String,
    #[serde(default)]
    pub description: String,
    /// The commit analyzed; empty when a local path is not a git work tree.
    pub commit: String,
    /// Link template with `{commit}`, `{path}` and `{line}`; empty when unknown.
    pub source_url: String,
    #[serde(default)]
    pub controllers: Vec<Controller>,
    #[serde(default)]
    pub crds: Vec<Crd>,
    #[serde(default)]
    pub webhooks: Vec<Webhook>,
    #[serde(default)]
    pub http_endpoints: Vec<HttpEndpoint>,
    #[serde(default)]
    pub services: Vec<Service>,
    #[serde(default)]
    pub configmaps: Vec<ConfigMap>,
    #[serde(default)]
    pub helm_charts: Vec<HelmChart>,
    #[serde(default)]
    pub rbac: Vec<RbacRule>,
    #[serde(default)]
    pub diagnostics: Vec<Diagnostic>,
    /// Go API packages of this repository and the group/version each declares, so other
    /// projects importing them can be resolved when the portal is linked.
    #[serde(default)]
    pub api_packages: Vec<ApiPackage>,
    #[serde(default)]
    pub stats: Stats,
    /// Set when the project could not be fetched or analyzed; its pages show it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct ApiPackage {
    pub import_path: String,
    pub group: String,
    pub version: String,
}

/// What the walker saw: files analyzed and files skipped, with reasons.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub files_analyzed: u64,
    pub bytes_analyzed: u64,
    pub go_files: u64,
    pub yaml_files: u64,
    pub skipped_large: u64,
    pub skipped_binary: u64,
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct Controller {
    pub name: String,
    pub reconciler: String,
    #[serde(default, skip_serializing_if = "Area::is_component")]
    pub area: Area,
    pub sources: Vec<SourceRef>,
    pub watches: Vec<Watch>,
    #[serde(default)]
    pub operations: Vec<Operation>,
}

#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[serde(rename_all = "lowercase")]
pub enum Relation {
    For,
    Owns,
    Watches,
    Informer,
}

impl Relation {
    pub fn label(&self) -> &'static str {
        match self {
            Relation::For => "For",
            Relation::Owns => "Owns",
            Relation::Watches => "Watches",
            Relation::Informer => "Informer",
        }
    }
}

/// A Kubernetes kind named by API group, version and kind. `group` is "" for the core group.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Gvk {
    pub group: String,
    pub version: String,
    pub kind: String,
}

impl Gvk {
    /// `apps/v1 Deployment`, `v1 Pod` for the core group.
    pub fn display(&self) -> String {
        if self.group.is_empty() {
            format!("{} {}", self.version, self.kind)
        } else {
            format!("{}/{} {}", self.group, self.version, self.kind)
        }
    }
}

/// Marks a kind the analyzer could not map to an API group.
pub const UNRESOLVED: &str = "?";

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct Watch {
    pub relation: Relation,
    pub group: String,
    pub version: String,
    pub kind: String,
    /// True when the call only runs on some paths (inside an `if`, `switch` or loop).
    pub conditional: bool,
    /// For an unresolved kind (`group == "?"`): the Go import path it came from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub import_path: Option<String>,
    pub sources: Vec<SourceRef>,
}

impl Watch {
    pub fn gvk(&self) -> Gvk {
        Gvk {
            group: self.group.clone(),
            version: self.version.clone(),
            kind: self.kind.clone(),
        }
    }

    pub fn is_resolved(&self) -> bool {
        self.group != UNRESOLVED
    }
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct Operation {
    pub verb: String,
    pub group: String,
    pub version: String,
    pub kind: String,
    pub sources: Vec<SourceRef>,
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct Crd {
    pub group: String,
    pub kind: String,
    pub plural: String,
    pub scope: String,
    pub versions: Vec<CrdVersion>,
    #[serde(default, skip_serializing_if = "Area::is_component")]
    pub area: Area,
    pub sources: Vec<SourceRef>,
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct CrdVersion {
    pub name: String,
    pub served: bool,
    pub storage: bool,
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct Webhook {
    pub name: String,
    #[serde(rename = "type")]
    pub kind: WebhookType,
    pub path: String,
    pub failure_policy: String,
    /// `namespace/name` of the Service behind the webhook, or a URL.
    pub service: String,
    /// The webhook configuration object that declares it.
    #[serde(default)]
    pub configuration: String,
    #[serde(default, skip_serializing_if = "Area::is_component")]
    pub area: Area,
    pub sources: Vec<SourceRef>,
}

#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[serde(rename_all = "lowercase")]
pub enum WebhookType {
    Mutating,
    Validating,
}

/// A route a Go program serves.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct HttpEndpoint {
    /// `GET`, `POST`, …, or `ANY` for a route that matches every method.
    pub method: String,
    /// The path with group prefixes applied. A prefix-matching route (gorilla's
    /// `PathPrefix`, chi's `Mount`) ends in `*`; unresolved parts are shown as `{expr}`.
    pub path: String,
    /// The host of a `ServeMux` pattern such as `"example.com/x"`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub host: String,
    /// The handler as written, shortened (`s.handleChat`, `promhttp.Handler()`).
    pub handler: String,
    /// `net/http`, `gorilla/mux`, `gin`, `echo`, `chi` or `controller-runtime`.
    #[serde(default)]
    pub framework: String,
    /// True for an endpoint controller-runtime serves without a registration in the code
    /// (`/metrics`, `/healthz`, `/readyz` of a manager).
    #[serde(default, skip_serializing_if = "is_false")]
    pub implicit: bool,
    /// True when part of the method or path is not a string constant (shown as `{expr}`),
    /// or the router's prefix is unknown; a diagnostic says which.
    #[serde(default, skip_serializing_if = "is_false")]
    pub unresolved: bool,
    #[serde(default, skip_serializing_if = "Area::is_component")]
    pub area: Area,
    pub sources: Vec<SourceRef>,
}

fn is_false(b: &bool) -> bool {
    !*b
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct Service {
    pub name: String,
    pub namespace: String,
    pub ports: Vec<ServicePort>,
    #[serde(default, skip_serializing_if = "Area::is_component")]
    pub area: Area,
    pub sources: Vec<SourceRef>,
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct ServicePort {
    pub name: String,
    pub port: String,
    pub target_port: String,
    pub protocol: String,
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct ConfigMap {
    pub name: String,
    pub namespace: String,
    pub keys: Vec<String>,
    #[serde(default, skip_serializing_if = "Area::is_component")]
    pub area: Area,
    pub sources: Vec<SourceRef>,
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct HelmChart {
    pub name: String,
    pub version: String,
    pub app_version: String,
    #[serde(default, skip_serializing_if = "Area::is_component")]
    pub area: Area,
    pub sources: Vec<SourceRef>,
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct RbacRule {
    /// `ClusterRole/name` or `Role/namespace/name`.
    pub role: String,
    pub groups: Vec<String>,
    pub resources: Vec<String>,
    pub verbs: Vec<String>,
    #[serde(default, skip_serializing_if = "Area::is_component")]
    pub area: Area,
    pub sources: Vec<SourceRef>,
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Diagnostic {
    pub file: String,
    pub line: u32,
    pub message: String,
}

impl Diagnostic {
    pub fn new(file: &str, line: u32, message: impl Into<String>) -> Self {
        Diagnostic {
            file: file.to_string(),
            line,
            message: message.into(),
        }
    }
}

/// The whole portal: the content of `site/data/portal.json`.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Portal {
    pub schema_version: u32,
    pub title: String,
    pub projects: Vec<ProjectSummary>,
    pub kinds: Vec<KindEntry>,
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct ProjectSummary {
    pub name: String,
    pub title: String,
    pub description: String,
    pub commit: String,
    pub counts: Counts,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
pub struct Counts {
    pub controllers: usize,
    pub watches: usize,
    pub crds: usize,
    pub webhooks: usize,
    pub http_endpoints: usize,
    pub services: usize,
    pub configmaps: usize,
    pub helm_charts: usize,
    pub rbac: usize,
    pub diagnostics: usize,
}

impl Counts {
    pub fn of(p: &Project) -> Counts {
        Counts {
            controllers: p.controllers.len(),
            watches: p.controllers.iter().map(|c| c.watches.len()).sum(),
            crds: p.crds.len(),
            webhooks: p.webhooks.len(),
            http_endpoints: p.http_endpoints.len(),
            services: p.services.len(),
            configmaps: p.configmaps.len(),
            helm_charts: p.helm_charts.len(),
            rbac: p.rbac.len(),
            diagnostics: p.diagnostics.len(),
        }
    }
}

/// One kind across all projects: who defines it and who watches it.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct KindEntry {
    pub group: String,
    pub kind: String,
    pub defined_by: Vec<String>,
    pub watched_by: Vec<KindWatcher>,
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct KindWatcher {
    pub project: String,
    pub controller: String,
    pub relation: Relation,
}
