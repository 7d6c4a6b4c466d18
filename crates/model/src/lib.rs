//! The data model: what the analyzers extract from one repository, as plain serde structs.
//!
//! Stage: leaf. Everything after `analyze` reads these values, never the source files.
//! **Invariant:** only these types are serialized; parser nodes never leak into the model.
//! Field names are the JSON contract of `site/data/P.json`; keep them stable.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub mod minimal;

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

/// Where an item was found: a repository-relative path and a 1-based line.
#[derive(
    Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash,
)]
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
    Serialize,
    Deserialize,
    JsonSchema,
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
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

/// A Helm template action rendered with the chart's defaults: the rows of the object at
/// `source` (the line of its `kind:`, as in their sources; for an object a named template
/// holds, the include's line) show `value` where the template has `template`.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct HelmRendered {
    pub source: SourceRef,
    pub template: String,
    pub value: String,
}

/// The rows one registered extractor found in a project: shown as a table of their own on
/// the project's configuration page, so that a new extractor needs no model field or page.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, Default, PartialEq)]
pub struct Table {
    /// The extractor's name: lowercase words, unique among the extractors.
    pub extractor: String,
    pub title: String,
    /// What the rows are and how they were found, one or two sentences of plain text.
    pub about: String,
    pub columns: Vec<String>,
    pub rows: Vec<TableRow>,
    /// How many diagnostics the extractor gave (places it found and could not resolve, or
    /// resolved only in part): when not 0, the table may be incomplete and says so.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub diagnosed: u32,
}

/// One row of a [`Table`]: a cell per column, where it was found.
#[derive(
    Serialize, Deserialize, JsonSchema, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord,
)]
pub struct TableRow {
    pub cells: Vec<String>,
    #[serde(default)]
    pub area: Area,
    pub sources: Vec<SourceRef>,
}

/// One analyzed repository: the content of `site/data/P.json`.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, Default, PartialEq)]
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
    /// Status conditions set by code no controller's `Reconcile` reaches (helpers of the API
    /// types, other programs); those a controller reaches are in `Controller::conditions`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<StatusCondition>,
    /// Knative condition sets of the project's kinds.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub condition_sets: Vec<ConditionSet>,
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
    /// controller-runtime managers with their options.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub managers: Vec<Manager>,
    /// Memory risks of the managers, each with its evidence.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub memory_risks: Vec<MemoryRisk>,
    /// What the registered Go extractors found, one table each (`analyze::go::extractor`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tables: Vec<Table>,
    /// Deployments, StatefulSets, DaemonSets, ReplicaSets, Jobs, CronJobs and bare Pods.
    #[serde(default)]
    pub workloads: Vec<Workload>,
    /// PodDisruptionBudgets (policy/v1 and v1beta1).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub disruption_budgets: Vec<DisruptionBudget>,
    /// HorizontalPodAutoscalers (autoscaling/v1, v2, v2beta1, v2beta2).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub autoscalers: Vec<Autoscaler>,
    #[serde(default)]
    pub network_policies: Vec<NetworkPolicy>,
    /// Ingresses, OpenShift Routes and Gateway API Gateways and routes.
    #[serde(default)]
    pub ingresses: Vec<Ingress>,
    #[serde(default)]
    pub service_accounts: Vec<ServiceAccount>,
    /// Roles and ClusterRoles with their rules (the flat `rbac` rows list the same rules).
    #[serde(default)]
    pub roles: Vec<Role>,
    #[serde(default)]
    pub role_bindings: Vec<RoleBinding>,
    /// Secrets by name, where defined and where referenced; never their values.
    #[serde(default)]
    pub secrets: Vec<Secret>,
    /// cert-manager Certificates, Issuers and ClusterIssuers.
    #[serde(default)]
    pub certificates: Vec<Certificate>,
    #[serde(default)]
    pub kustomizations: Vec<Kustomization>,
    /// Manifest folders whose objects all belong to another project (see `Bundle`).
    #[serde(default)]
    pub bundled_manifests: Vec<Bundle>,
    /// Helm template actions rendered with their chart's defaults, by the object whose
    /// rows show the value (`analyze::yaml::helm_render`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub helm_rendered: Vec<HelmRendered>,
    /// Connections the code opens to services outside the cluster's API: databases,
    /// caches, queues, gRPC and HTTP endpoints, object stores (`analyze::go::connections`,
    /// `analyze::rust::connections`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub connections: Vec<ExternalConnection>,
    /// Feature gates registered with `k8s.io/component-base/featuregate`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub feature_gates: Vec<FeatureGate>,
    /// Code that asks the cluster what it is (discovery of an API group, an OpenShift
    /// helper, a no-kind-match check) and the branches that depend on the answer.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub platform_checks: Vec<PlatformCheck>,
    /// The go.mod and Cargo.toml files: the module each declares, its `go` and
    /// `toolchain` lines and `replace` directives.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub module_files: Vec<ModuleFile>,
    /// What the go.mod and Cargo.toml files require, one row per manifest entry.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dependencies: Vec<Dependency>,
    /// Container images the manifests, Helm values and kustomizations name.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub images: Vec<ImageRef>,
    /// Dockerfiles: stages, the final user, build settings and the binaries built.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dockerfiles: Vec<Dockerfile>,
    /// Objects of manifests and Helm templates whose API version the Kubernetes
    /// deprecation table lists (`deprecations`); code's uses are its watches and writes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub api_uses: Vec<ApiUse>,
    #[serde(default)]
    pub diagnostics: Vec<Diagnostic>,
    /// Go API packages of this repository and the group/version each declares, so other
    /// projects importing them can be resolved when the portal is linked.
    #[serde(default)]
    pub api_packages: Vec<ApiPackage>,
    #[serde(default)]
    pub stats: Stats,
    /// The repository's README (first, when there is one) and the markdown `docs = […]`
    /// selects, read in the source stage so that render never opens a repository file.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub docs: Vec<Doc>,
    /// Raster images the docs reference, copied into the site. Not part of the JSON model:
    /// a project loaded from `model = "P.json"` shows their alt text instead.
    #[serde(skip)]
    pub doc_images: Vec<DocImage>,
    /// Set when the project could not be fetched or analyzed; its pages show it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// A markdown file of the repository, published with the project.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct Doc {
    /// Repository-relative, `/`-separated.
    pub path: String,
    /// From front matter, else the first `#` heading, else the file name.
    pub title: String,
    /// The markdown without its front matter.
    pub markdown: String,
    /// True for the root README, shown on the project's overview page.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub readme: bool,
}

/// An image file a doc references, with its bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DocImage {
    /// Repository-relative, `/`-separated.
    pub path: String,
    pub bytes: Vec<u8>,
}

#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct ApiPackage {
    pub import_path: String,
    pub group: String,
    pub version: String,
}

/// What the walker saw: files analyzed and files skipped, with reasons.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, Default, PartialEq, Eq)]
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
    /// YAML files read with template actions (`{{ … }}`) masked.
    #[serde(default)]
    pub yaml_templated: u64,
    /// YAML files with a document (or the whole file) that could not be parsed.
    #[serde(default)]
    pub yaml_unparsed: u64,
}

#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct Controller {
    pub name: String,
    pub reconciler: String,
    #[serde(default, skip_serializing_if = "Area::is_component")]
    pub area: Area,
    pub sources: Vec<SourceRef>,
    pub watches: Vec<Watch>,
    /// Client writes this controller's `Reconcile` reaches (through calls across packages).
    #[serde(default)]
    pub operations: Vec<Operation>,
    /// Direct reads (`get`, `list`, `watch` through a client) its `Reconcile` reaches; the
    /// cache's reads for watched kinds are in `watches`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reads: Vec<Operation>,
    /// Status condition types its `Reconcile` sets (directly or through the calls it reaches).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<StatusCondition>,
}

/// One place where Go code sets a status condition of a type known as a constant
/// (`meta.SetStatusCondition`, a `metav1.Condition{Type: …}` literal handed to a setter with
/// the object, a Knative condition manager's `MarkTrue`/`MarkFalse`/`MarkUnknown`, a
/// project helper `x.Status.SetCondition(T, …)` with `T` declared as a `…ConditionType`).
#[derive(
    Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash,
)]
pub struct StatusCondition {
    /// The condition type (`Ready`).
    #[serde(rename = "type")]
    pub condition_type: String,
    /// The kind whose status holds the condition; `?` (`UNRESOLVED`) when not established.
    pub group: String,
    pub version: String,
    pub kind: String,
    /// The statuses set here (`True`, `False`, `Unknown`), when constant.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub status: Vec<String>,
    /// The reasons set here, when constant.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reasons: Vec<String>,
    #[serde(default, skip_serializing_if = "Area::is_component")]
    pub area: Area,
    pub sources: Vec<SourceRef>,
    /// The calls from the controller's `Reconcile` to the function that sets it (see
    /// `Operation::via`); empty for rows outside controllers.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub via: Vec<CallStep>,
    /// For a row no controller reaches: the package and function that sets it.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub function: String,
}

/// A Knative condition set declared for a kind (`apis.NewLivingConditionSet(A, B)`): the
/// happy condition (`Ready`, or `Succeeded` for a batch set) is true when every dependent is.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct ConditionSet {
    /// The package variable that holds it.
    pub name: String,
    /// The kind whose conditions it manages; `?` when not established.
    pub group: String,
    pub version: String,
    pub kind: String,
    pub happy: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dependents: Vec<String>,
    #[serde(default, skip_serializing_if = "Area::is_component")]
    pub area: Area,
    pub sources: Vec<SourceRef>,
}

#[derive(
    Serialize, Deserialize, JsonSchema, Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash,
)]
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
#[derive(
    Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash,
)]
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

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_zero<N: Default + PartialEq>(n: &N) -> bool {
    *n == N::default()
}

/// The API groups Kubernetes itself serves (`""` is the core group). Every controller
/// writes and watches its own objects of these kinds, so sharing one says nothing about
/// two projects touching each other: the cross-project graph leaves them out.
pub const KUBERNETES_GROUPS: &[&str] = &[
    "",
    "admissionregistration.k8s.io",
    "apiextensions.k8s.io",
    "apiregistration.k8s.io",
    "apps",
    "authentication.k8s.io",
    "authorization.k8s.io",
    "autoscaling",
    "batch",
    "certificates.k8s.io",
    "coordination.k8s.io",
    "discovery.k8s.io",
    "events.k8s.io",
    "extensions",
    "flowcontrol.apiserver.k8s.io",
    "imagepolicy.k8s.io",
    "internal.apiserver.k8s.io",
    "networking.k8s.io",
    "node.k8s.io",
    "policy",
    "rbac.authorization.k8s.io",
    "resource.k8s.io",
    "scheduling.k8s.io",
    "storage.k8s.io",
    "storagemigration.k8s.io",
];

/// Marks a kind the analyzer could not map to an API group.
pub const UNRESOLVED: &str = "?";

#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct Watch {
    pub relation: Relation,
    pub group: String,
    pub version: String,
    pub kind: String,
    /// True when the call only runs on some paths (inside an `if`, `switch` or loop).
    pub conditional: bool,
    /// The guarding condition's text, shortened, when `conditional`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub condition: String,
    /// For an unresolved kind (`group == "?"`): the Go import path it came from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub import_path: Option<String>,
    /// A raw event source other than a kind's (`WatchesRawSource(source.Channel(…))`, a
    /// cache's source of another cluster): what it delivers is decided by its code, so its
    /// "kind" is the source expression and it is never resolved.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub raw_source: bool,
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

    /// An unresolved watch whose kind is chosen at run time by design: an
    /// `unstructured.Unstructured` or `metav1.PartialObjectMetadata` object, or a raw
    /// source.
    pub fn is_dynamic(&self) -> bool {
        !self.is_resolved()
            && (self.raw_source
                || matches!(
                    (self.import_path.as_deref(), self.kind.as_str()),
                    (Some(DYNAMIC_PACKAGE), _) | (Some(METAV1_PACKAGE), "PartialObjectMetadata")
                ))
    }
}

/// The package of `unstructured.Unstructured`.
pub const DYNAMIC_PACKAGE: &str = "k8s.io/apimachinery/pkg/apis/meta/v1/unstructured";
/// The package of `metav1.PartialObjectMetadata`.
pub const METAV1_PACKAGE: &str = "k8s.io/apimachinery/pkg/apis/meta/v1";

#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct Operation {
    pub verb: String,
    pub group: String,
    pub version: String,
    pub kind: String,
    pub sources: Vec<SourceRef>,
    /// The calls from the controller's `Reconcile` to the function that makes this call,
    /// outermost first; empty when it is made in `Reconcile` itself or outside controllers.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub via: Vec<CallStep>,
    /// The guarding condition where the call is made (`if`/`switch`/loop text, shortened);
    /// empty when it runs unconditionally in its function.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub condition: String,
}

/// One call on the way from a controller's `Reconcile` to a write or read: the function
/// called (`pkg.Type.Method` or `pkg.Func`) and where the call is written.
#[derive(
    Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash,
)]
pub struct CallStep {
    pub function: String,
    pub file: String,
    pub line: u32,
}

/// An informer watch outside any controller: attributed to its package and function.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
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
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
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

#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, Default, PartialEq, Eq)]
pub struct Crd {
    pub group: String,
    pub kind: String,
    pub plural: String,
    pub scope: String,
    pub versions: Vec<CrdVersion>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub short_names: Vec<String>,
    /// The OpenAPI v3 schema of each version as a flat field list (see `SchemaField`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub schema: Vec<CrdSchema>,
    #[serde(default, skip_serializing_if = "is_false")]
    pub templated: bool,
    /// Set when no in-repo Go API package declares the CRD's group: it is shipped for
    /// installation, not defined by this project.
    #[serde(default, skip_serializing_if = "is_false")]
    pub bundled: bool,
    #[serde(default, skip_serializing_if = "Area::is_component")]
    pub area: Area,
    pub sources: Vec<SourceRef>,
}

#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct CrdVersion {
    pub name: String,
    pub served: bool,
    pub storage: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    pub deprecated: bool,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub printer_columns: Vec<CrdPrinterColumn>,
}

/// One `additionalPrinterColumns` entry: what `kubectl get` shows.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct CrdPrinterColumn {
    pub name: String,
    #[serde(rename = "type")]
    pub column_type: String,
    pub json_path: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub priority: i64,
}

/// The fields of one CRD version's OpenAPI v3 schema, in schema order (properties sorted).
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct CrdSchema {
    pub version: String,
    /// The description of the kind itself (the schema root).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    pub fields: Vec<SchemaField>,
    /// `x-kubernetes-validations` on the schema root (rules about the whole object).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rules: Vec<CelRule>,
    /// `x-kubernetes-preserve-unknown-fields` on the root: any content is accepted.
    #[serde(default, skip_serializing_if = "is_false")]
    pub preserve_unknown_fields: bool,
    /// Set when the field list was cut at the depth or size limit (a diagnostic says where).
    #[serde(default, skip_serializing_if = "is_false")]
    pub truncated: bool,
    /// The Go type this version is generated from, when the repository declares it: the
    /// fields are then in its order, and descriptions the CRD lacks are its doc comments.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub go_type: Option<GoTypeOrigin>,
}

/// A Go type a CRD version was matched with (see `analyze::go::api_docs`).
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct GoTypeOrigin {
    /// The import path of its package.
    pub package: String,
    pub name: String,
    pub source: SourceRef,
}

/// One field of a CRD schema. `path` joins property names with `.`; `[]` stands for the
/// items of an array and `{}` for the values of a map (`additionalProperties`). A subtree
/// identical to one listed earlier is not repeated: its root carries `same_as`, the path of
/// the earlier copy.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, Default, PartialEq, Eq)]
pub struct SchemaField {
    pub path: String,
    pub depth: u32,
    #[serde(rename = "type")]
    pub field_type: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    #[serde(default, skip_serializing_if = "is_false")]
    pub required: bool,
    /// The default as JSON text (`"Always"`, `1`, `{}`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<String>,
    #[serde(rename = "enum", default, skip_serializing_if = "Vec::is_empty")]
    pub enum_values: Vec<String>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub format: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub pattern: String,
    /// The field's numeric, length and size limits as `keyword=value`, in schema keyword
    /// order (`minimum=1`, `exclusiveMaximum=true`, `maxLength=63`, `minItems=1`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub limits: Vec<String>,
    /// For an array: the type of its items.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub items: String,
    /// For a map: the type of its values (`additionalProperties`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub additional_properties: String,
    #[serde(default, skip_serializing_if = "is_false")]
    pub nullable: bool,
    /// `x-kubernetes-preserve-unknown-fields`: any content is accepted below this field.
    #[serde(default, skip_serializing_if = "is_false")]
    pub preserve_unknown_fields: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub same_as: Option<String>,
    /// The description is the Go field's (or its type's) doc comment: the CRD had none.
    #[serde(default, skip_serializing_if = "is_false")]
    pub go_doc: bool,
    /// The Go field's `+kubebuilder:validation:` markers (without that prefix:
    /// `Minimum=1`, `XValidation:rule="…"`) whose rule the fields above do not show.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub validation: Vec<String>,
    /// The field's `x-kubernetes-validations` (CEL) rules, or, when the CRD has none, those of
    /// its Go field's `+kubebuilder:validation:XValidation` markers.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rules: Vec<CelRule>,
}

/// One CEL validation rule of a CRD schema (`x-kubernetes-validations`), or of a Go
/// `+kubebuilder:validation:XValidation` marker.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq, Hash)]
pub struct CelRule {
    pub rule: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub message: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub message_expression: String,
    /// `FieldValueInvalid`, `FieldValueForbidden`, …
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub reason: String,
    /// The path the error is reported at, relative to the field (`.spec.x`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub field_path: String,
    /// The rule is on the field's items (an array) or values (a map): it checks each one.
    #[serde(default, skip_serializing_if = "is_false")]
    pub each: bool,
    /// Read from a Go marker: the CRD in the repository does not have it.
    #[serde(default, skip_serializing_if = "is_false")]
    pub from_marker: bool,
}

#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
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
    /// `service` once kustomize `vars`/`replacements` are applied; empty when nothing
    /// replaces it or the replacement cannot be resolved.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub resolved_service: String,
    /// Where kustomize replaces parts of `service`, and with what.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub substitutions: Vec<Substitution>,
    #[serde(default, skip_serializing_if = "is_false")]
    pub templated: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    pub bundled: bool,
    #[serde(default, skip_serializing_if = "Area::is_component")]
    pub area: Area,
    pub sources: Vec<SourceRef>,
}

/// One entry of a webhook's `rules`.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct WebhookRule {
    pub operations: Vec<String>,
    pub groups: Vec<String>,
    pub versions: Vec<String>,
    pub resources: Vec<String>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub scope: String,
}

/// A value kustomize substitutes when it builds an overlay: a `$(VAR)` of `vars`, or a
/// field a `replacements` entry targets.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct Substitution {
    /// The field replaced, e.g. `clientConfig.service.name`.
    pub field: String,
    /// The text as written in the manifest.
    pub written: String,
    /// The value it becomes; empty when it cannot be established from the repository.
    pub value: String,
    /// Where the value comes from, e.g. `metadata.name of Service webhook-service`.
    pub origin: String,
    /// The kustomization entry (`vars` or `replacements`) that substitutes it.
    pub sources: Vec<SourceRef>,
}

#[derive(
    Serialize, Deserialize, JsonSchema, Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord,
)]
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

/// Where a row was read.
#[derive(
    Serialize,
    Deserialize,
    JsonSchema,
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
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

/// A route a Go program serves.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct HttpEndpoint {
    /// `GET`, `POST`, …, `ANY` for a route that matches every method, or `GRPC` for a
    /// gRPC method.
    pub method: String,
    /// The path with group prefixes applied. A prefix-matching route (gorilla's
    /// `PathPrefix`, chi's `Mount`) ends in `*`; unresolved parts are shown as `{expr}`.
    /// A gRPC method is `/package.Service/Method` (`/package.Service/*` when its methods
    /// are not known).
    pub path: String,
    /// The host of a `ServeMux` pattern such as `"example.com/x"`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub host: String,
    /// The handler as written, shortened (`s.handleChat`, `promhttp.Handler()`).
    pub handler: String,
    /// `net/http`, `gorilla/mux`, `gin`, `echo`, `chi`, `go-restful`, `controller-runtime`,
    /// `grpc`, `grpc-gateway`, `axum`, `actix-web` or `tonic`.
    #[serde(default)]
    pub framework: String,
    /// True for an endpoint served without a registration in the code: `/metrics`,
    /// `/healthz`, `/readyz` of a controller-runtime manager, or what a well-known library
    /// helper or import registers (`healthz.InstallLivezHandler`, `net/http/pprof`).
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

#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct Service {
    pub name: String,
    pub namespace: String,
    pub ports: Vec<ServicePort>,
    /// `spec.type` as written; empty means ClusterIP.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub service_type: String,
    /// `spec.selector` as `key=value` pairs.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub selector: Vec<String>,
    #[serde(default, skip_serializing_if = "is_false")]
    pub templated: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    pub bundled: bool,
    #[serde(default, skip_serializing_if = "Area::is_component")]
    pub area: Area,
    pub sources: Vec<SourceRef>,
}

#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct ServicePort {
    pub name: String,
    pub port: String,
    pub target_port: String,
    pub protocol: String,
}

#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct ConfigMap {
    pub name: String,
    pub namespace: String,
    /// `data` and `binaryData` keys; for a kustomize generator, its literal and file keys.
    pub keys: Vec<String>,
    /// For a kustomize `configMapGenerator` entry: the kustomization file.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub generated_by: String,
    /// Env files of a generator: their keys are in files portolan does not read.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub env_files: Vec<String>,
    #[serde(default, skip_serializing_if = "is_false")]
    pub templated: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    pub bundled: bool,
    #[serde(default, skip_serializing_if = "Area::is_component")]
    pub area: Area,
    pub sources: Vec<SourceRef>,
}

#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct HelmChart {
    pub name: String,
    /// Versions exactly as written in Chart.yaml (`1.10` stays `1.10`, `v0.18.0` keeps its v).
    pub version: String,
    pub app_version: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dependencies: Vec<ChartDependency>,
    /// `values.yaml` next to Chart.yaml, flattened to keys.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<HelmValue>,
    /// The chart's `values.schema.json`, when present.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub values_schema: String,
    #[serde(default, skip_serializing_if = "Area::is_component")]
    pub area: Area,
    pub sources: Vec<SourceRef>,
}

#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct ChartDependency {
    pub name: String,
    pub version: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub repository: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub condition: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub alias: String,
}

/// One key of a chart's values: a leaf, or a map with a description of its own.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct HelmValue {
    /// Dotted path, e.g. `controller.image.tag`.
    pub key: String,
    /// `string`, `int`, `float`, `bool`, `list`, `object` or `null`; from values.schema.json
    /// for a key only the schema names.
    #[serde(rename = "type")]
    pub value_type: String,
    /// The default as written in values.yaml (`[]`/`{}` for non-empty collections is
    /// shortened to `[…]`/`{…}`).
    pub default: String,
    /// From the comment above the key (`# -- text` helm-docs style, or plain comments),
    /// else from values.schema.json.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// The type values.schema.json gives, when it has the key.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub schema_type: String,
    #[serde(default, skip_serializing_if = "is_false")]
    pub required: bool,
    #[serde(rename = "enum", default, skip_serializing_if = "Vec::is_empty")]
    pub enum_values: Vec<String>,
    pub sources: Vec<SourceRef>,
}

#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
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
    #[serde(default, skip_serializing_if = "is_false")]
    pub templated: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    pub bundled: bool,
    #[serde(default, skip_serializing_if = "Area::is_component")]
    pub area: Area,
    pub sources: Vec<SourceRef>,
}

/// A Go API type described by kubebuilder markers: what controller-gen puts in its CRD.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
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

/// A Deployment, StatefulSet, DaemonSet, ReplicaSet, Job, CronJob or Pod.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, Default, PartialEq, Eq)]
pub struct Workload {
    pub kind: String,
    pub name: String,
    pub namespace: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub replicas: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub service_account: String,
    /// The pod template's labels as `key=value`, which Service selectors match.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pod_labels: Vec<String>,
    pub containers: Vec<Container>,
    /// The pod's `securityContext` as `key=value` settings.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub security_context: Vec<String>,
    /// ConfigMaps the pod mounts or reads through `envFrom`/`valueFrom`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub config_maps: Vec<String>,
    /// Secrets the pod mounts, reads or pulls images with (names only).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub secrets: Vec<String>,
    /// `spec.template.spec.priorityClassName`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub priority_class: String,
    /// Pod anti-affinity terms: `required topologyKey=K (app=x)` or
    /// `preferred weight=W topologyKey=K (app=x)`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub anti_affinity: Vec<String>,
    /// `topologySpreadConstraints`: `topologyKey=K maxSkew=N whenUnsatisfiable=W`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub topology_spread: Vec<String>,
    /// A line of the template writes YAML that was not rendered (`toYaml`, `include` of an
    /// unknown template): a field the object lacks may come from it.
    #[serde(default, skip_serializing_if = "is_false")]
    pub unrendered_yaml: bool,
    /// Strategic-merge patches of a kustomization that builds this object, as parsed from
    /// the patch files (each with its own source), in the order listed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub patches: Vec<Workload>,
    /// Kustomizations building this object that patch it in a way portolan does not read
    /// (inline or JSON 6902 patches), by folder, and the chart whose templates read it
    /// through `.Files` (a manifest under a chart's `files/`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unread_patches: Vec<String>,
    /// Patch files a kustomization building this object lists but the repository does not
    /// have (that overlay does not build as committed): named, not applied.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub missing_patches: Vec<String>,
    #[serde(default, skip_serializing_if = "is_false")]
    pub templated: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    pub bundled: bool,
    #[serde(default, skip_serializing_if = "Area::is_component")]
    pub area: Area,
    pub sources: Vec<SourceRef>,
}

/// A PodDisruptionBudget: how many pods of its selector may be evicted at once.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct DisruptionBudget {
    pub name: String,
    pub namespace: String,
    /// `policy/v1` or `policy/v1beta1` (an empty selector selects every pod in v1, none in
    /// v1beta1).
    pub api_version: String,
    /// As written (`1`, `50%`); empty when not set.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub min_available: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub max_unavailable: String,
    /// `matchLabels` as `key=value`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub selector: Vec<String>,
    /// `matchExpressions` as `key Operator v1,v2`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub selector_expressions: Vec<String>,
    #[serde(default, skip_serializing_if = "is_false")]
    pub templated: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    pub bundled: bool,
    #[serde(default, skip_serializing_if = "Area::is_component")]
    pub area: Area,
    pub sources: Vec<SourceRef>,
}

/// A HorizontalPodAutoscaler and the object it scales.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct Autoscaler {
    pub name: String,
    pub namespace: String,
    /// `autoscaling/v1`, `autoscaling/v2`, …
    pub api_version: String,
    /// `scaleTargetRef`: kind and name (and its apiVersion as written).
    pub target_kind: String,
    pub target_name: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub target_api_version: String,
    /// As written; empty when not set (Kubernetes' default minimum is 1).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub min_replicas: String,
    pub max_replicas: String,
    /// One line per metric: `cpu utilization 80%`, `pods requests_per_second average 10`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub metrics: Vec<String>,
    #[serde(default, skip_serializing_if = "is_false")]
    pub templated: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    pub bundled: bool,
    #[serde(default, skip_serializing_if = "Area::is_component")]
    pub area: Area,
    pub sources: Vec<SourceRef>,
}

/// A container probe: `http GET /healthz :8081`, `tcp :8080`, `grpc :9090`, `exec cat …`,
/// with its delays as `initialDelaySeconds=…` settings.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct Probe {
    /// `http`, `tcp`, `grpc`, `exec`, or empty when the probe names none of them.
    #[serde(rename = "type")]
    pub kind: String,
    /// The path and port (http), port (tcp, grpc) or command (exec).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub target: String,
    /// `initialDelaySeconds`, `periodSeconds`, `timeoutSeconds`, `failureThreshold`,
    /// `successThreshold` as `key=value`, as written.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub timing: Vec<String>,
    /// The probe is written as a template action portolan did not render.
    #[serde(default, skip_serializing_if = "is_false")]
    pub templated: bool,
}

/// A `+kubebuilder:printcolumn` marker: an extra column of `kubectl get`.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
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
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
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
    /// Where `name` comes from when it is not the folder's: the build file line that
    /// names the binary (`go build -o bin/manager ./cmd`), or the cobra root command's
    /// `Use`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub name_from: Vec<SourceRef>,
    /// The cobra commands of the program, root first, each with its own flags.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub commands: Vec<Command>,
}

/// A cobra command (`&cobra.Command{Use: "serve", …}`) with the flags registered on it.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct Command {
    /// The first word of `Use`.
    pub name: String,
    /// The command line that runs it: the root's name, then each parent's (`op serve`).
    pub path: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub short: String,
    /// Flags registered on this command's `Flags()` or `PersistentFlags()`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub flags: Vec<String>,
    pub sources: Vec<SourceRef>,
}

impl Binary {
    /// True for the entry holding a library package's flags and environment reads.
    pub fn is_package(&self) -> bool {
        self.name.is_empty()
    }
}

/// One command-line flag, registered with `flag`, `pflag` or cobra's `Flags()`.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
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
    /// True when the default is an environment variable's value (`os.Getenv("X")`),
    /// shown as `$X` in `default`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub default_env: bool,
    pub help: String,
    /// True when `help` is source text that is not a string constant.
    #[serde(default, skip_serializing_if = "is_false")]
    pub help_expr: bool,
    /// The library that registers this flag (`zap`, `klog`, `controller-runtime`) when the
    /// program's own code only asks for it (`opts.BindFlags(flag.CommandLine)`); empty for
    /// the program's own flags.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub library: String,
    pub sources: Vec<SourceRef>,
}

/// An environment variable a program reads (`os.Getenv`, `os.LookupEnv`, directly or
/// through a helper function that passes its parameter on to them).
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct EnvVar {
    pub name: String,
    pub sources: Vec<SourceRef>,
}

/// A connection the code opens to a service: one constructor or dial call
/// (`sql.Open`, `redis.NewClient`, `grpc.NewClient`, `http.Get`, `s3.NewFromConfig`,
/// `reqwest::get`, tonic's `Channel::from_static`, …), matched by the import path of the
/// package it calls, never by the function's name alone.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct ExternalConnection {
    /// `sql`, `redis`, `kafka`, `nats`, `grpc`, `http` or `object-store`.
    pub kind: String,
    /// The library called, by import path or crate (`github.com/redis/go-redis/v9`,
    /// `database/sql`, `reqwest`), with the driver name for `database/sql` (`postgres`).
    pub library: String,
    /// The call as written (`redis.NewClient`, `grpc.NewClient`).
    pub call: String,
    pub target: ConnectionTarget,
    /// The `package main` folders (`Binary::package`) of the programs shown to reach the
    /// call; empty when no program is shown to reach it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub programs: Vec<String>,
    #[serde(default, skip_serializing_if = "Area::is_component")]
    pub area: Area,
    pub sources: Vec<SourceRef>,
}

/// Where a connection goes, as far as the code establishes it.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
#[serde(tag = "from", rename_all = "snake_case")]
pub enum ConnectionTarget {
    /// A constant, evaluated (`postgres://db:5432/app`, `https://api.example.com/v1/`
    /// for a constant prefix, with `prefix` set).
    Constant {
        value: String,
        /// True when only the start of the target is constant (`base + path`).
        #[serde(default, skip_serializing_if = "is_false")]
        prefix: bool,
    },
    /// A command-line flag's value: its name and default as the binaries table shows them.
    Flag { name: String, default: String },
    /// An environment variable's value.
    Env { name: String },
    /// Nothing the analyzer can establish; the expression as written.
    Unresolved { expression: String },
    /// The library's own default: no target argument and no option that could set one
    /// (`storage.NewClient(ctx)` and `s3.NewFromConfig(cfg)` take the endpoint from the
    /// environment or the cloud configuration).
    LibraryDefault,
}

/// A feature gate registered with `featuregate` (`DefaultMutableFeatureGate.Add(map[…]
/// featuregate.FeatureSpec{X: {Default: true, PreRelease: featuregate.Beta}})`).
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct FeatureGate {
    /// The gate's name (the `featuregate.Feature` constant's value).
    pub name: String,
    /// `true`, `false`, or the Go expression as written when it is not a literal.
    pub default: String,
    /// `Alpha`, `Beta`, `GA` or `Deprecated` (empty when not given: Alpha by default in
    /// featuregate, but not assumed here).
    pub stage: String,
    /// `LockToDefault: true`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub locked: bool,
    /// For a versioned spec (`AddVersioned`), the version of the spec shown (the last).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub version: String,
    #[serde(default, skip_serializing_if = "Area::is_component")]
    pub area: Area,
    pub sources: Vec<SourceRef>,
}

/// Code that adapts to the platform: a discovery check of an API group or kind, an
/// `IsOpenShift`-style helper, or a no-kind-match error check, at one call site.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct PlatformCheck {
    /// What is checked: `route.openshift.io/v1`, `serving.knative.dev/v1 Service`,
    /// `OpenShift`, or `unresolved: <expression>`.
    pub checks: String,
    /// How: `discovery` (a call of the discovery API), `helper` (a call of a repository
    /// function that does one, named in `helper`), `no-kind-match`.
    pub method: String,
    /// The repository function called, `pkg.Func`, for a helper call.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub helper: String,
    /// The function the check is made in (`pkg.Func` or `pkg.Type.Method`).
    pub function: String,
    /// The `if` whose branch depends on the answer, when the code shows one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub branch: Option<SourceRef>,
    /// What the branch does that the code shows: controller watches and client writes
    /// written inside that `if` statement, either branch, or made through a call written
    /// there (`Owns HTTPRoute.gateway.networking.k8s.io (controller)`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub switches: Vec<String>,
    #[serde(default, skip_serializing_if = "Area::is_component")]
    pub area: Area,
    pub sources: Vec<SourceRef>,
}

/// A controller-runtime manager: a `ctrl.NewManager(cfg, opts)` or `manager.New(cfg, opts)`
/// call, with the options it is given (a literal, a variable assigned field by field, or
/// what a function of the repository returns), one row per setting.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct Manager {
    /// The import path of the package whose function creates the manager.
    pub package: String,
    /// That function (`main`, `NewDefaultManager`, `Runner.Run`).
    pub function: String,
    /// The main packages (import paths) whose programs are shown to reach the call; empty
    /// when no program is (see `Binary`: reachability is established, never assumed).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub binaries: Vec<String>,
    /// The settings, in the order the code makes them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<ManagerOption>,
    /// Why the cache's scope is not known (its options come from an expression portolan
    /// does not follow, or the options value is handed to a function that may change it);
    /// empty when every setting of the options was read. Memory risks that depend on the
    /// scope are not reported for a manager whose scope is unknown.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub cache_unknown: String,
    /// The controllers set up by the one program that creates this manager and no other
    /// (names, as in `Controller::name`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub controllers: Vec<String>,
    /// The workload containers it runs in and how they were matched to its program
    /// (`Deployment controller-manager, container manager (…)`), or why none was.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub deployment: String,
    #[serde(default, skip_serializing_if = "Area::is_component")]
    pub area: Area,
    /// The `NewManager` call.
    pub sources: Vec<SourceRef>,
}

/// One setting of a manager's options.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct ManagerOption {
    /// The option's path in `manager.Options` with controller-runtime's field names
    /// (`LeaderElectionID`, `Metrics.BindAddress`, `Cache.ByObject.Label`,
    /// `Client.Cache.DisableFor`); the older top-level fields keep their own names
    /// (`MetricsBindAddress`, `Port`, `CertDir`, `Namespace`).
    pub name: String,
    /// The object a `Cache.ByObject` entry or a `DisableFor` item is for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub object: Option<Gvk>,
    /// The namespace a `DefaultNamespaces` or `ByObject.Namespaces` entry is for (empty
    /// for `cache.AllNamespaces`); evaluated like `value`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    /// The value: a constant evaluated (`:8080`, `true`, `10h0m0s`), a label or field
    /// selector built from constants (`app=web`), a kind, or, when `expr`, the Go
    /// expression as written.
    pub value: String,
    /// True when `value` (or `namespace`) is Go source text portolan could not evaluate.
    #[serde(default, skip_serializing_if = "is_false")]
    pub expr: bool,
    /// The command-line flag the value is read from, when it is a variable or field a
    /// flag is bound to; `value` is then the flag's default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flag: Option<OptionFlag>,
    /// The condition the setting is made under (`if cfg.leaderElect {…}`); empty when
    /// it is always made.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub condition: String,
    pub sources: Vec<SourceRef>,
}

/// The flag a manager setting comes from: its name and default as `--help` shows them.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct OptionFlag {
    pub name: String,
    pub default: String,
    pub sources: Vec<SourceRef>,
}

/// What a memory risk is about.
#[derive(
    Serialize, Deserialize, JsonSchema, Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord,
)]
#[serde(rename_all = "snake_case")]
pub enum MemoryRiskType {
    /// A kind that is large in real clusters is watched cluster-wide: the manager's cache
    /// restricts it by no namespace, label or field.
    ClusterWideKind,
    /// No cache transform strips `managedFields` from cached objects.
    NoTransform,
    /// The manager's container has no memory limit.
    NoMemoryLimit,
    /// The manager's container sets no `GOMEMLIMIT`.
    NoGoMemLimit,
    /// An informer started outside the manager's cache.
    InformerOutsideCache,
}

impl MemoryRiskType {
    pub fn label(&self) -> &'static str {
        match self {
            MemoryRiskType::ClusterWideKind => "Cluster-wide cache of a large kind",
            MemoryRiskType::NoTransform => "managedFields kept in the cache",
            MemoryRiskType::NoMemoryLimit => "No memory limit",
            MemoryRiskType::NoGoMemLimit => "No GOMEMLIMIT",
            MemoryRiskType::InformerOutsideCache => "Informer outside the manager's cache",
        }
    }
}

/// A finding about a manager's memory use, with the rows that show it.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct MemoryRisk {
    #[serde(rename = "type")]
    pub risk: MemoryRiskType,
    /// The manager it concerns (its `NewManager` call); none for an informer no manager's
    /// program is shown to run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub manager: Option<SourceRef>,
    /// The kind cached or informed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<Gvk>,
    /// The controllers whose watches make the cache hold the kind.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub controllers: Vec<String>,
    /// What was found, in a sentence.
    pub message: String,
    /// The rows that show it: watches, the options, the Deployment's container, the
    /// informer.
    pub evidence: Vec<SourceRef>,
}

/// A Prometheus metric: a collector created with client_golang (`prometheus.New*`,
/// `promauto.New*`, `NewDesc`), or registered in Rust (prometheus_client, prometheus).
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct Metric {
    /// The exposed name, `namespace_subsystem_name` as client_golang's `BuildFQName`
    /// joins it (for prometheus_client: prefix, name, unit and a counter's `_total`); a
    /// part that could not be resolved is shown as `?`.
    pub name: String,
    /// `counter`, `gauge`, `histogram`, `summary`, `untyped`, `info`; `?` when unknown.
    #[serde(rename = "type")]
    pub kind: String,
    pub help: String,
    /// True when `help` is source text that is not a string constant.
    #[serde(default, skip_serializing_if = "is_false")]
    pub help_expr: bool,
    /// Label names of a vector (`…Vec`) collector, in order.
    pub labels: Vec<String>,
    #[serde(default, skip_serializing_if = "Area::is_component")]
    pub area: Area,
    pub sources: Vec<SourceRef>,
}

#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, Default, PartialEq, Eq)]
pub struct Container {
    pub name: String,
    pub image: String,
    #[serde(default, skip_serializing_if = "is_false")]
    pub init: bool,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub command: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ports: Vec<ContainerPort>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub env: Vec<ContainerEnv>,
    /// `envFrom` sources: `ConfigMap NAME` or `Secret NAME`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub env_from: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub security_context: Vec<String>,
    /// `resources.requests` as `name=quantity` (`cpu=100m`, `memory=64Mi`), as written.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub requests: Vec<String>,
    /// `resources.limits` as `name=quantity`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub limits: Vec<String>,
    /// `resources` is written as a template action (or a key whose value a template writes)
    /// that was not rendered.
    #[serde(default, skip_serializing_if = "is_false")]
    pub resources_templated: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub liveness_probe: Option<Probe>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub readiness_probe: Option<Probe>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub startup_probe: Option<Probe>,
}

impl Workload {
    /// The containers with the workload's kustomize patches applied, in order, matched by
    /// name (a patch's container with no match is added): its requests, limits and
    /// environment variables replace the same keys, its probes the same probes.
    pub fn patched_containers(&self) -> Vec<Container> {
        let mut containers = self.containers.clone();
        for patch in &self.patches {
            for pc in &patch.containers {
                match containers
                    .iter_mut()
                    .find(|c| c.name == pc.name && c.init == pc.init)
                {
                    Some(c) => {
                        merge_pairs(&mut c.requests, &pc.requests);
                        merge_pairs(&mut c.limits, &pc.limits);
                        c.resources_templated |= pc.resources_templated;
                        for (mine, theirs) in [
                            (&mut c.liveness_probe, &pc.liveness_probe),
                            (&mut c.readiness_probe, &pc.readiness_probe),
                            (&mut c.startup_probe, &pc.startup_probe),
                        ] {
                            if theirs.is_some() {
                                *mine = theirs.clone();
                            }
                        }
                        for e in &pc.env {
                            c.env.retain(|mine| mine.name != e.name);
                            c.env.push(e.clone());
                        }
                    }
                    None => containers.push(pc.clone()),
                }
            }
        }
        containers
    }
}

/// `key=value` pairs of `patch` replacing those of `base` with the same key.
fn merge_pairs(base: &mut Vec<String>, patch: &[String]) {
    for x in patch {
        let key = x.split('=').next().unwrap_or(x);
        base.retain(|b| b.split('=').next() != Some(key));
        base.push(x.clone());
    }
    base.sort();
}

impl Container {
    /// `resources.limits.memory` as written, if the container sets it.
    pub fn memory_limit(&self) -> Option<&str> {
        self.limits.iter().find_map(|l| l.strip_prefix("memory="))
    }
}

#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct ContainerPort {
    pub name: String,
    pub port: String,
    pub protocol: String,
}

/// An environment variable. `value` is set only for a literal value whose name does not
/// suggest a secret; `from` says where any other value comes from (never a secret's value).
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct ContainerEnv {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub from: String,
}

#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct NetworkPolicy {
    pub name: String,
    pub namespace: String,
    /// `key=value` pairs, or empty for every pod of the namespace.
    pub pod_selector: Vec<String>,
    pub policy_types: Vec<String>,
    /// One line per rule: peers and ports.
    pub ingress: Vec<String>,
    pub egress: Vec<String>,
    #[serde(default, skip_serializing_if = "is_false")]
    pub templated: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    pub bundled: bool,
    #[serde(default, skip_serializing_if = "Area::is_component")]
    pub area: Area,
    pub sources: Vec<SourceRef>,
}

/// An Ingress, OpenShift Route, Gateway API Gateway, or Gateway API route.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct Ingress {
    /// `Ingress`, `Route`, `Gateway`, `HTTPRoute`, `GRPCRoute`, `TLSRoute`, `TCPRoute`, `UDPRoute`.
    pub kind: String,
    pub group: String,
    pub name: String,
    pub namespace: String,
    /// `ingressClassName` or `gatewayClassName`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub class: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hosts: Vec<String>,
    /// Gateway listeners as `name protocol/port`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub listeners: Vec<String>,
    /// Routes' parent Gateways as `Kind namespace/name`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub parents: Vec<String>,
    /// One line per rule: match → backend.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rules: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tls_secrets: Vec<String>,
    /// The objects the rules send traffic to, as `Kind name` (`Service web`,
    /// `InferencePool pool`), once each, for the service map.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub backends: Vec<String>,
    #[serde(default, skip_serializing_if = "is_false")]
    pub templated: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    pub bundled: bool,
    #[serde(default, skip_serializing_if = "Area::is_component")]
    pub area: Area,
    pub sources: Vec<SourceRef>,
}

#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct ServiceAccount {
    pub name: String,
    pub namespace: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub secrets: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub image_pull_secrets: Vec<String>,
    #[serde(default, skip_serializing_if = "is_false")]
    pub templated: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    pub bundled: bool,
    #[serde(default, skip_serializing_if = "Area::is_component")]
    pub area: Area,
    pub sources: Vec<SourceRef>,
}

#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct Role {
    /// `Role` or `ClusterRole`.
    pub kind: String,
    pub name: String,
    pub namespace: String,
    pub rules: Vec<PolicyRule>,
    /// `aggregationRule` label selectors of an aggregated ClusterRole, as `key=value`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub aggregation: Vec<String>,
    #[serde(default, skip_serializing_if = "is_false")]
    pub templated: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    pub bundled: bool,
    #[serde(default, skip_serializing_if = "Area::is_component")]
    pub area: Area,
    pub sources: Vec<SourceRef>,
}

#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct PolicyRule {
    pub groups: Vec<String>,
    pub resources: Vec<String>,
    pub verbs: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub resource_names: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub non_resource_urls: Vec<String>,
}

/// A RoleBinding or ClusterRoleBinding: subjects → role.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct RoleBinding {
    pub kind: String,
    pub name: String,
    pub namespace: String,
    /// The role bound, in the form of `RbacRule::role`: `ClusterRole/name` or
    /// `Role/namespace/name`.
    pub role: String,
    /// `ServiceAccount namespace/name`, `User name` or `Group name`.
    pub subjects: Vec<String>,
    #[serde(default, skip_serializing_if = "is_false")]
    pub templated: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    pub bundled: bool,
    #[serde(default, skip_serializing_if = "Area::is_component")]
    pub area: Area,
    pub sources: Vec<SourceRef>,
}

/// A Secret by name: where it is defined (a manifest, a kustomize generator, a
/// cert-manager Certificate) and where it is referenced. Values are never read.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct Secret {
    pub name: String,
    pub namespace: String,
    /// `type` of a Secret manifest, e.g. `kubernetes.io/tls`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub secret_type: String,
    /// Key names of a manifest's `data`/`stringData`, or of a generator.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub keys: Vec<String>,
    /// Where it is created: `Secret manifest`, `secretGenerator`, `Certificate NAME`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub defined_by: Vec<String>,
    /// Who uses it, e.g. `Deployment ns/name (env DB_PASSWORD)`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub referenced_by: Vec<String>,
    #[serde(default, skip_serializing_if = "is_false")]
    pub templated: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    pub bundled: bool,
    #[serde(default, skip_serializing_if = "Area::is_component")]
    pub area: Area,
    pub sources: Vec<SourceRef>,
}

/// A cert-manager Certificate, Issuer or ClusterIssuer.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct Certificate {
    pub kind: String,
    pub name: String,
    pub namespace: String,
    /// Certificate: the Secret it writes.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub secret_name: String,
    /// Certificate: `Kind/name` of its issuer. Issuer: its type (`selfSigned`, `ca`, `acme`…).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub issuer: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dns_names: Vec<String>,
    #[serde(default, skip_serializing_if = "is_false")]
    pub templated: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    pub bundled: bool,
    #[serde(default, skip_serializing_if = "Area::is_component")]
    pub area: Area,
    pub sources: Vec<SourceRef>,
}

/// A `kustomization.yaml`: what it includes and how it transforms it.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct Kustomization {
    /// The folder of the kustomization (the overlay or base).
    pub dir: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub namespace: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name_prefix: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name_suffix: String,
    /// `resources` (and the older `bases`) as written: files, folders or remote URLs.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub resources: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub components: Vec<String>,
    /// Patch files (`patches`, `patchesStrategicMerge`, `patchesJson6902`); `(inline)` for
    /// patches written in the kustomization itself.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub patches: Vec<String>,
    /// `images` overrides as `name → newName:newTag` (or `@digest`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub images: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub config_map_generators: Vec<Generator>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub secret_generators: Vec<Generator>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub vars: Vec<KustomizeVar>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub replacements: Vec<Replacement>,
    /// Labels kustomize adds to every object it builds and to their selectors and pod
    /// templates (`commonLabels`, `labels` with `includeSelectors: true`), as `key=value`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub selector_labels: Vec<String>,
    /// Labels it adds to pod templates but not to selectors (`labels` with
    /// `includeTemplates: true` and without `includeSelectors`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub template_labels: Vec<String>,
    /// The objects this kustomization builds from in-repo files (directly or through the
    /// folders it includes), as `Kind namespace/name` as written before transformation.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub objects: Vec<String>,
    #[serde(default, skip_serializing_if = "is_false")]
    pub bundled: bool,
    #[serde(default, skip_serializing_if = "Area::is_component")]
    pub area: Area,
    pub sources: Vec<SourceRef>,
}

/// A `configMapGenerator` or `secretGenerator` entry (for secrets: key names only).
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct Generator {
    pub name: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub namespace: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub behavior: String,
    /// Keys from `literals` and `files`.
    pub keys: Vec<String>,
    /// `envs` files (their keys are in files portolan does not read).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub env_files: Vec<String>,
    pub sources: Vec<SourceRef>,
}

/// A kustomize `vars` entry: `$(name)` becomes a field of an object.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct KustomizeVar {
    pub name: String,
    /// `Kind name` of the object read.
    pub object: String,
    pub field_path: String,
    pub sources: Vec<SourceRef>,
}

/// A kustomize `replacements` entry: a field of one object copied into fields of others.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct Replacement {
    /// `Kind name` of the source object.
    pub object: String,
    pub field_path: String,
    /// `Kind name: fieldPath, …` per target.
    pub targets: Vec<String>,
    pub sources: Vec<SourceRef>,
}

/// A manifest folder whose objects all belong to another project (Istio, Knative, …):
/// dependency manifests shipped for installation. Its objects carry `bundled: true`.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct Bundle {
    pub dir: String,
    /// The project the objects belong to, from the built-in table of well-known projects.
    pub project: String,
    pub objects: usize,
    /// The evidence, e.g. `label app.kubernetes.io/part-of=istio`, `namespace istio-system`.
    pub evidence: Vec<String>,
}

#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
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
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq)]
pub struct Portal {
    pub schema_version: u32,
    pub title: String,
    pub projects: Vec<ProjectSummary>,
    pub kinds: Vec<KindEntry>,
    /// Kind mentions that could not be resolved to a group and kind, never guessed.
    #[serde(default)]
    pub unresolved_kinds: Vec<UnresolvedKind>,
    /// The cross-project graph, as boxes of kinds: A → box → B when A writes or defines the
    /// box's kinds and B watches them. Its size grows with the projects' own rows, never
    /// with pairs of projects: a kind every project shares is one box, not N² edges.
    #[serde(default)]
    pub connections: Vec<Connection>,
}

/// Kinds that the same projects write or define and the same other projects watch: one
/// box of the cross-project graph.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct Connection {
    pub kinds: Vec<ConnectionKind>,
    /// The projects that write, own or define (a CRD of their own, not a bundled copy)
    /// every kind of the box, each watched by another project of `to`.
    pub from: Vec<ConnectionEnd>,
    /// The projects that watch every kind of the box, each written or defined by another
    /// project of `from`.
    pub to: Vec<ConnectionEnd>,
}

#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct ConnectionKind {
    pub group: String,
    pub kind: String,
}

/// One project at one side of a box, with how it touches each of the box's kinds (the
/// same order as `Connection::kinds`), e.g. `defines; writes (create)` or `for, owns`.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct ConnectionEnd {
    pub project: String,
    pub how: Vec<String>,
}

#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq)]
pub struct ProjectSummary {
    pub name: String,
    pub title: String,
    pub description: String,
    pub repository: String,
    pub commit: String,
    pub counts: Counts,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The earlier revisions the project was compared with (`compare`), or tried to be:
    /// the project has a changes page.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub compared: Vec<String>,
}

/// Where a row is listed on the project's pages: among the project's own rows, under
/// "Samples and tooling", or under "Bundled" (another project's manifests shipped with
/// this one). Bundled takes precedence: a dependency's manifest is not the project's
/// sample either. `render::table::Router` and the dataflow page sort rows by this.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    Own,
    Samples,
    Bundled,
}

impl Place {
    pub fn of(area: Area, bundled: bool) -> Place {
        if bundled {
            Place::Bundled
        } else if area.is_component() {
            Place::Own
        } else {
            Place::Samples
        }
    }
}

/// How many rows a project's pages list. `own` (flattened into the JSON) counts the
/// project's own rows only (component, not bundled), exactly the rows of its own tables;
/// `samples` and `bundled` count the rows the pages list apart, in their trailing sections.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, Default, PartialEq)]
pub struct Counts {
    #[serde(flatten)]
    pub own: Rows,
    /// Watches of the own controllers.
    pub watches: usize,
    /// Flag rows, summed over the own binaries and library flag sets.
    #[serde(default)]
    pub flags: usize,
    /// Distinct environment variable names the own binaries and packages read.
    #[serde(default)]
    pub env_vars: usize,
    pub diagnostics: usize,
    /// Rows from tests, docs, samples and tooling, listed apart ("Samples and tooling").
    #[serde(default)]
    pub samples: Rows,
    /// Rows of bundled dependency manifests, listed apart ("Bundled"). Only manifest rows
    /// can be bundled; controllers, endpoints, binaries and metrics can only be samples.
    #[serde(default)]
    pub bundled: Rows,
}

/// Rows of one place (`Place`) by what they are.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, Default, PartialEq, Eq)]
#[serde(default)]
pub struct Rows {
    pub controllers: usize,
    /// Distinct kinds: a CRD shipped with different contents (full and minimal schema)
    /// counts once.
    pub crds: usize,
    pub webhooks: usize,
    pub http_endpoints: usize,
    pub services: usize,
    pub configmaps: usize,
    pub helm_charts: usize,
    pub rbac: usize,
    pub binaries: usize,
    pub metrics: usize,
}

impl Rows {
    pub fn add(&mut self, o: &Rows) {
        self.controllers += o.controllers;
        self.crds += o.crds;
        self.webhooks += o.webhooks;
        self.http_endpoints += o.http_endpoints;
        self.services += o.services;
        self.configmaps += o.configmaps;
        self.helm_charts += o.helm_charts;
        self.rbac += o.rbac;
        self.binaries += o.binaries;
        self.metrics += o.metrics;
    }
}

impl Counts {
    /// Adds another project's counts (the home page's totals).
    pub fn add(&mut self, c: &Counts) {
        self.own.add(&c.own);
        self.watches += c.watches;
        self.flags += c.flags;
        self.env_vars += c.env_vars;
        self.diagnostics += c.diagnostics;
        self.samples.add(&c.samples);
        self.bundled.add(&c.bundled);
    }

    pub fn of(p: &Project) -> Counts {
        use std::collections::BTreeSet;
        // Rows per place: `[own, samples, bundled]`.
        fn tally<T>(rows: &[T], place: impl Fn(&T) -> Place) -> [usize; 3] {
            let mut n = [0; 3];
            for r in rows {
                n[place(r) as usize] += 1;
            }
            n
        }
        let mut crd_kinds: [BTreeSet<(&str, &str)>; 3] = Default::default();
        for c in &p.crds {
            crd_kinds[Place::of(c.area, c.bundled) as usize].insert((&c.group, &c.kind));
        }
        let crds = crd_kinds.map(|k| k.len());
        let controllers = tally(&p.controllers, |c| Place::of(c.area, false));
        let webhooks = tally(&p.webhooks, |w| Place::of(w.area, w.bundled));
        let endpoints = tally(&p.http_endpoints, |e| Place::of(e.area, false));
        let services = tally(&p.services, |s| Place::of(s.area, s.bundled));
        let configmaps = tally(&p.configmaps, |c| Place::of(c.area, c.bundled));
        let charts = tally(&p.helm_charts, |h| Place::of(h.area, false));
        let rbac = tally(&p.rbac, |r| Place::of(r.area, r.bundled));
        let programs: Vec<&Binary> = p.binaries.iter().filter(|b| !b.is_package()).collect();
        let binaries = tally(&programs, |b| Place::of(b.area, false));
        let metrics = tally(&p.metrics, |m| Place::of(m.area, false));
        let own_binaries = || p.binaries.iter().filter(|b| b.area.is_component());
        let place = |i: usize| Rows {
            controllers: controllers[i],
            crds: crds[i],
            webhooks: webhooks[i],
            http_endpoints: endpoints[i],
            services: services[i],
            configmaps: configmaps[i],
            helm_charts: charts[i],
            rbac: rbac[i],
            binaries: binaries[i],
            metrics: metrics[i],
        };
        Counts {
            own: place(Place::Own as usize),
            watches: p
                .controllers
                .iter()
                .filter(|c| c.area.is_component())
                .map(|c| c.watches.len())
                .sum(),
            flags: own_binaries().map(|b| b.flags.len()).sum(),
            env_vars: own_binaries()
                .flat_map(|b| b.env.iter().map(|e| e.name.as_str()))
                .collect::<BTreeSet<_>>()
                .len(),
            diagnostics: p.diagnostics.len(),
            samples: place(Place::Samples as usize),
            bundled: place(Place::Bundled as usize),
        }
    }
}

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
    /// As in `Operation::verb`: `create`, `update`, `patch`, `apply`, `delete`, ….
    pub verb: String,
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

/// The manifest format a dependency comes from.
#[derive(
    Serialize,
    Deserialize,
    JsonSchema,
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
)]
#[serde(rename_all = "lowercase")]
pub enum Ecosystem {
    /// A go.mod `require`.
    #[default]
    Go,
    /// A Cargo.toml dependency table.
    Cargo,
}

impl Ecosystem {
    pub fn label(&self) -> &'static str {
        match self {
            Ecosystem::Go => "Go",
            Ecosystem::Cargo => "Cargo",
        }
    }
}

/// A go.mod or Cargo.toml of the project and what it says about itself.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct ModuleFile {
    pub ecosystem: Ecosystem,
    /// The module path (go.mod) or package name (Cargo.toml); empty for a workspace-only
    /// Cargo.toml.
    pub module: String,
    /// go.mod's `go` directive.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub go: String,
    /// go.mod's `toolchain` directive.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub toolchain: String,
    /// go.mod's `replace` directives, each at its line.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub replaces: Vec<Replace>,
    #[serde(default, skip_serializing_if = "Area::is_component")]
    pub area: Area,
    /// The `module` line (go.mod) or the `[package]` header (Cargo.toml), else line 1.
    pub source: SourceRef,
}

/// A go.mod `replace` directive: `module [version] => path` or `=> module version`.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct Replace {
    pub module: String,
    /// Empty when every version is replaced.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub version: String,
    /// A local path or a module path.
    pub to: String,
    /// Empty for a local path.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub to_version: String,
    pub source: SourceRef,
}

impl Replace {
    /// `../x` or `example.com/fork v1.2.3`.
    pub fn target(&self) -> String {
        if self.to_version.is_empty() {
            self.to.clone()
        } else {
            format!("{} {}", self.to, self.to_version)
        }
    }
}

/// One module or crate a manifest requires.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct Dependency {
    pub ecosystem: Ecosystem,
    /// The module path, or the crate's package name (its `package = …` when renamed).
    pub module: String,
    /// As written (`v0.19.1`, `"1.0"`, `^0.98`); empty when only a path or git source is
    /// given.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub version: String,
    /// Cargo's table: `dev`, `build`, or `workspace` for `[workspace.dependencies]`;
    /// empty for `[dependencies]` and every go.mod entry.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// Cargo: the `cfg(…)` or triple of a `[target.….dependencies]` table.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub target: String,
    /// go.mod's `// indirect` mark.
    #[serde(default, skip_serializing_if = "is_false")]
    pub indirect: bool,
    /// What a go.mod `replace` puts in its place (`../x`, `example.com/fork v1.2.3`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub replaced_by: String,
    /// Cargo: a `path = …` source.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub path: String,
    /// Cargo: a `git = …` source, with `branch`, `tag` or `rev` after `#`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub git: String,
    /// Cargo: `features = […]` (with the workspace entry's for `workspace = true`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub features: Vec<String>,
    /// Cargo: `workspace = true`, with the `[workspace.dependencies]` entry it takes its
    /// version and source from (None when the workspace root has no such entry).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workspace: Option<SourceRef>,
    #[serde(default, skip_serializing_if = "Area::is_component")]
    pub area: Area,
    /// The manifest line that requires it.
    pub source: SourceRef,
}

impl Dependency {
    /// A component row of `module` at `source`, every other field empty.
    pub fn new(ecosystem: Ecosystem, module: &str, source: SourceRef) -> Dependency {
        Dependency {
            ecosystem,
            module: module.to_string(),
            version: String::new(),
            kind: String::new(),
            target: String::new(),
            indirect: false,
            replaced_by: String::new(),
            path: String::new(),
            git: String::new(),
            features: Vec::new(),
            workspace: None,
            area: Area::Component,
            source,
        }
    }
}

/// How a container image reference is set.
#[derive(
    Serialize,
    Deserialize,
    JsonSchema,
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
)]
#[serde(rename_all = "snake_case")]
pub enum ImageOrigin {
    /// A container's `image:` in a workload manifest.
    #[default]
    Manifest,
    /// A chart's values.yaml default (`image: {registry, repository, tag}` or a string).
    HelmValue,
    /// A kustomization's `images:` override.
    Kustomize,
    /// A container environment variable whose name says it holds an image.
    Env,
}

impl ImageOrigin {
    pub fn label(&self) -> &'static str {
        match self {
            ImageOrigin::Manifest => "manifest",
            ImageOrigin::HelmValue => "Helm value",
            ImageOrigin::Kustomize => "kustomize override",
            ImageOrigin::Env => "environment variable",
        }
    }
}

/// A container image reference, split as the OCI distribution reference grammar reads it.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct ImageRef {
    /// The reference as written, or as put together from a values block's parts.
    pub reference: String,
    /// Empty when the reference names none (a runtime then pulls from Docker Hub).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub registry: String,
    pub repository: String,
    /// Empty when not set.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub tag: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub digest: String,
    pub origin: ImageOrigin,
    /// What sets it: `Deployment system/manager, container manager`, `values
    /// controller.image`, `kustomization config/default, images: controller`.
    pub context: String,
    #[serde(default, skip_serializing_if = "is_false")]
    pub bundled: bool,
    #[serde(default, skip_serializing_if = "Area::is_component")]
    pub area: Area,
    pub sources: Vec<SourceRef>,
}

/// An object of a deprecated or removed API version in a manifest or Helm template.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct ApiUse {
    pub group: String,
    pub version: String,
    pub kind: String,
    /// `manifest` or `Helm template`.
    pub how: String,
    /// `Kind namespace/name` of the object.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub object: String,
    #[serde(default, skip_serializing_if = "is_false")]
    pub bundled: bool,
    #[serde(default, skip_serializing_if = "Area::is_component")]
    pub area: Area,
    pub sources: Vec<SourceRef>,
}

/// A Dockerfile: its stages, who the final stage runs as, and what it builds.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct Dockerfile {
    pub file: String,
    pub stages: Vec<DockerStage>,
    /// The user the final stage's image runs as, with the evidence.
    pub user: DockerUser,
    /// `CGO_ENABLED=…` settings (`ENV`, `ARG` default or a `RUN` prefix), each at its line.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cgo: Vec<BuildSetting>,
    /// FIPS-style settings: `GOEXPERIMENT=boringcrypto`, `GOFIPS140=…`,
    /// `GODEBUG=fips140=…`, a build tag `fips` or `goexperiment.boringcrypto`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fips: Vec<BuildSetting>,
    /// The `go build` commands of its `RUN` lines.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub builds: Vec<DockerBuild>,
    #[serde(default, skip_serializing_if = "Area::is_component")]
    pub area: Area,
}

/// One `FROM` of a Dockerfile.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct DockerStage {
    /// The `AS` name; empty when unnamed.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// The base as written.
    pub from: String,
    /// The base with `ARG` defaults substituted, when it had variables that all resolve.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub resolved: String,
    /// Set when the base is an earlier stage of the same file (its name).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub from_stage: String,
    /// `--platform=…`, as written.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub platform: String,
    /// The stage's last `USER`, as written, with its line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user: Option<BuildSetting>,
    pub source: SourceRef,
}

/// Who a Dockerfile's final stage runs as.
#[derive(
    Serialize,
    Deserialize,
    JsonSchema,
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
)]
#[serde(rename_all = "snake_case")]
pub enum RunsAs {
    /// `USER 0`, `USER root` (with or without a group), or no `USER` over `scratch`.
    Root,
    /// A `USER` naming another user or a non-zero id.
    NonRoot,
    /// No `USER` in the final stage (or the stages it is built from): the base image's
    /// user, which the Dockerfile does not show.
    #[default]
    NotSet,
    /// A `USER` whose variable has no default.
    Unknown,
}

/// The final stage's user and the evidence for it.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, Default, PartialEq, Eq)]
pub struct DockerUser {
    pub runs_as: RunsAs,
    /// The literal evidence: `USER 65532:65532`, `no USER; base gcr.io/distroless/static:nonroot`.
    pub evidence: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<SourceRef>,
}

/// A setting as written in a build file, at its line.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct BuildSetting {
    pub value: String,
    pub source: SourceRef,
}

/// A `go build` in a Dockerfile's `RUN`, and the project binary it is.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct DockerBuild {
    /// The output's name (`-o`), or the package folder's when there is no `-o`.
    pub output: String,
    /// The package built, repository-relative (or an import path).
    pub package: String,
    /// The project binary whose `main` package this is; empty when none matches.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub binary: String,
    pub source: SourceRef,
}
