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
    /// Where the source comes from (git URL without credentials); empty when unknown.
    #[serde(default)]
    pub repository: String,
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
    /// Informers started outside any controller's reconciler, by package.
    #[serde(default)]
    pub informers: Vec<PackageInformer>,
    /// Client writes no controller's `Reconcile` reaches, by package.
    #[serde(default)]
    pub package_operations: Vec<PackageOperation>,
    #[serde(default)]
    pub services: Vec<Service>,
    #[serde(default)]
    pub configmaps: Vec<ConfigMap>,
    #[serde(default)]
    pub helm_charts: Vec<HelmChart>,
    #[serde(default)]
    pub rbac: Vec<RbacRule>,
    /// Go API types described by kubebuilder markers (`+kubebuilder:object:root`,
    /// `:resource`, `:printcolumn`, …), for the API pages.
    #[serde(default)]
    pub api_types: Vec<ApiType>,
    /// Programs built from `package main` folders, with their flags and environment
    /// variables; see [`Binary`] for the entries that hold a library package's flags.
    #[serde(default)]
    pub binaries: Vec<Binary>,
    #[serde(default)]
    pub metrics: Vec<Metric>,
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
    /// Symlinks pointing out of the repository (or dangling), never followed.
    #[serde(default)]
    pub skipped_symlinks: u64,
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

/// An informer watch outside any controller: attributed to its package and function.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct PackageInformer {
    pub package: String,
    pub function: String,
    pub group: String,
    pub version: String,
    pub kind: String,
    #[serde(default, skip_serializing_if = "Area::is_component")]
    pub area: Area,
    pub sources: Vec<SourceRef>,
}

/// A client write outside any controller's reach: attributed to its package and function.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct PackageOperation {
    pub package: String,
    pub function: String,
    pub verb: String,
    pub group: String,
    pub version: String,
    pub kind: String,
    #[serde(default, skip_serializing_if = "Area::is_component")]
    pub area: Area,
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
    /// Where the row was read: a manifest, a `+kubebuilder:webhook` marker, or Go code that
    /// registers the webhook (rows of older models, which had no origin, are manifests).
    #[serde(default)]
    pub origin: Origin,
    /// For a webhook built in Go code: the kind it serves (`For(&T{})`), its path derived from it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub object: Option<Gvk>,
    /// The requests the webhook is called for (from a marker or a manifest).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rules: Vec<WebhookRule>,
    #[serde(default, skip_serializing_if = "Area::is_component")]
    pub area: Area,
    pub sources: Vec<SourceRef>,
}

#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[serde(rename_all = "lowercase")]
pub enum WebhookType {
    Mutating,
    Validating,
    /// CRD version conversion, served by controller-runtime on `/convert`.
    Conversion,
}

impl WebhookType {
    pub fn label(&self) -> &'static str {
        match self {
            WebhookType::Mutating => "mutating",
            WebhookType::Validating => "validating",
            WebhookType::Conversion => "conversion",
        }
    }
}

/// One rule of a webhook: the API groups, versions, resources and operations it is called for.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct WebhookRule {
    pub groups: Vec<String>,
    pub versions: Vec<String>,
    pub resources: Vec<String>,
    pub operations: Vec<String>,
}

/// Where a row was read.
#[derive(
    Serialize, Deserialize, Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash,
)]
#[serde(rename_all = "lowercase")]
pub enum Origin {
    /// A Kubernetes manifest (YAML).
    #[default]
    Manifest,
    /// A kubebuilder marker in a Go comment, from which controller-gen generates manifests.
    Marker,
    /// Go code (a webhook registered by a controller-runtime builder).
    Code,
}

impl Origin {
    pub fn label(&self) -> &'static str {
        match self {
            Origin::Manifest => "manifest",
            Origin::Marker => "marker",
            Origin::Code => "code",
        }
    }
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct HttpEndpoint {
    pub method: String,
    pub path: String,
    pub handler: String,
    pub sources: Vec<SourceRef>,
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
    /// `ClusterRole/name` or `Role/namespace/name`. A marker rule that does not name its
    /// role (`roleName=`) is in whatever role controller-gen is told to write, which the
    /// analyzer cannot see: its role is `markers:<package folder>` (inside
    /// `Role/namespace/…` when the marker is namespaced).
    pub role: String,
    pub groups: Vec<String>,
    pub resources: Vec<String>,
    /// Object names the rule is limited to; empty for all.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub resource_names: Vec<String>,
    pub verbs: Vec<String>,
    /// A manifest's rule, or a `+kubebuilder:rbac` marker's (rows of older models are manifests).
    #[serde(default)]
    pub origin: Origin,
    #[serde(default, skip_serializing_if = "Area::is_component")]
    pub area: Area,
    pub sources: Vec<SourceRef>,
}

/// A Go API type described by kubebuilder markers: what controller-gen puts in its CRD.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct ApiType {
    /// Group and version of the Go package the type is declared in.
    pub group: String,
    pub version: String,
    /// The Go type name, which is the kind.
    pub kind: String,
    /// `+kubebuilder:object:root=true`.
    pub root: bool,
    /// `Namespaced` (controller-gen's default) or `Cluster`.
    pub scope: String,
    /// From `+kubebuilder:resource:path=`; empty when not written (controller-gen then
    /// derives it, which portolan does not imitate).
    #[serde(default)]
    pub plural: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub singular: String,
    #[serde(default)]
    pub short_names: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub categories: Vec<String>,
    #[serde(default)]
    pub printer_columns: Vec<PrinterColumn>,
    /// `status` and `scale`, from `+kubebuilder:subresource:…`.
    #[serde(default)]
    pub subresources: Vec<String>,
    /// `+kubebuilder:storageversion`.
    #[serde(default)]
    pub storage_version: bool,
    #[serde(default, skip_serializing_if = "Area::is_component")]
    pub area: Area,
    pub sources: Vec<SourceRef>,
}

/// A `+kubebuilder:printcolumn` marker: an extra column of `kubectl get`.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct PrinterColumn {
    pub name: String,
    #[serde(rename = "type")]
    pub kind: String,
    pub json_path: String,
    #[serde(default)]
    pub description: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub format: String,
    #[serde(default)]
    pub priority: i32,
}

/// A program of the repository: one `package main` folder, with the command-line flags it
/// registers and the environment variables it reads.
///
/// A flag or environment read belongs to a binary when it is in the binary's main package,
/// or in a function the main package is shown to reach through calls within the
/// repository (or in a package-level declaration or `init` of a package the binary
/// imports). Flags and reads that no binary is shown to reach are not guessed onto one:
/// they are kept in an entry with an empty `name` whose `package` is the import path of
/// the library package that holds them (its "flag set").
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct Binary {
    /// The main package folder's last element (the module's last element for a main
    /// package at a module root); empty for a library package's flag set.
    pub name: String,
    /// The Go import path of the main package, or of the library package.
    pub package: String,
    pub flags: Vec<Flag>,
    pub env: Vec<EnvVar>,
    #[serde(default, skip_serializing_if = "Area::is_component")]
    pub area: Area,
    /// Where `func main` is; for a library package's flag set, empty.
    #[serde(default)]
    pub sources: Vec<SourceRef>,
}

impl Binary {
    /// True for the entry holding a library package's flags and environment reads.
    pub fn is_package(&self) -> bool {
        self.name.is_empty()
    }
}

/// One command-line flag, registered with `flag`, `pflag` or cobra's `Flags()`.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct Flag {
    pub name: String,
    /// The one-letter pflag shorthand (`-n`), if any.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub shorthand: String,
    /// pflag's type names: `string`, `bool`, `int`, `duration`, `float64`, `stringSlice`, ….
    #[serde(rename = "type")]
    pub kind: String,
    /// The default: a string flag's value with constants resolved (`:8080`), or the Go
    /// source text of any other default (`8080`, `true`, `5 * time.Second`) with a lone
    /// constant replaced by its value. See `default_expr`.
    pub default: String,
    /// True when `default` is Go source text portolan could not evaluate (a variable, a
    /// field, a function call): the flag defaults to whatever it evaluates to at run time.
    #[serde(default, skip_serializing_if = "is_false")]
    pub default_expr: bool,
    pub help: String,
    /// True when `help` is Go source text that is not a string constant.
    #[serde(default, skip_serializing_if = "is_false")]
    pub help_expr: bool,
    pub sources: Vec<SourceRef>,
}

/// An environment variable a program reads (`os.Getenv`, `os.LookupEnv`, directly or
/// through a helper function that passes its parameter on to them).
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct EnvVar {
    pub name: String,
    pub sources: Vec<SourceRef>,
}

/// A Prometheus collector created with client_golang (`prometheus.New*`, `promauto.New*`).
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct Metric {
    /// The exposed name, `namespace_subsystem_name` as client_golang's `BuildFQName`
    /// joins it; a part that could not be resolved is shown as `?`.
    pub name: String,
    /// `counter`, `gauge`, `histogram`, `summary`; `?` when unknown.
    #[serde(rename = "type")]
    pub kind: String,
    pub help: String,
    /// True when `help` is Go source text that is not a string constant.
    #[serde(default, skip_serializing_if = "is_false")]
    pub help_expr: bool,
    /// Label names of a vector (`…Vec`) collector, in order.
    pub labels: Vec<String>,
    #[serde(default, skip_serializing_if = "Area::is_component")]
    pub area: Area,
    pub sources: Vec<SourceRef>,
}

fn is_false(b: &bool) -> bool {
    !*b
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
    pub repository: String,
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
    #[serde(default)]
    pub binaries: usize,
    /// Flag rows, summed over binaries and library flag sets.
    #[serde(default)]
    pub flags: usize,
    /// Distinct environment variable names read anywhere in the project.
    #[serde(default)]
    pub env_vars: usize,
    #[serde(default)]
    pub metrics: usize,
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
            binaries: p.binaries.iter().filter(|b| !b.is_package()).count(),
            flags: p.binaries.iter().map(|b| b.flags.len()).sum(),
            env_vars: p
                .binaries
                .iter()
                .flat_map(|b| b.env.iter().map(|e| e.name.as_str()))
                .collect::<std::collections::BTreeSet<_>>()
                .len(),
            metrics: p.metrics.len(),
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
