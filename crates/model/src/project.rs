//! One analyzed repository (`Project`, the root of the JSON model) with its docs, stats,
//! API packages and extractor tables.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::{
    ApiType, ApiUse, Area, Autoscaler, Binary, Bundle, Certificate, ClientCalls, ConditionSet,
    ConfigMap, Controller, Crd, Dependency, Diagnostic, DisruptionBudget, Dockerfile,
    ExternalConnection, FeatureGate, HelmChart, HelmRendered, HttpEndpoint, ImageRef, Ingress,
    Kustomization, Manager, MemoryRisk, Metric, ModuleFile, NetworkPolicy, PackageInformer,
    PackageOperation, PlatformCheck, RbacRule, Role, RoleBinding, Secret, Service, ServiceAccount,
    SourceRef, StatusCondition, Webhook, Workload, is_zero,
};

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
    /// What the analyzers found; its fields sit inline in the JSON, between `source_url`
    /// and `stats`.
    #[serde(flatten)]
    pub findings: Findings,
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

/// What the analyzers found in one repository: every file analyzed and cross-file
/// references resolved (`analyze::assemble`), before any other project is known.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, Default, PartialEq)]
pub struct Findings {
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
    /// Client reads (get, list, watch) no controller's `Reconcile` reaches, by package:
    /// those of CLIs, webhooks, handlers and start-up code.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub package_reads: Vec<PackageOperation>,
    /// How complete the dataflow is: the Go code's client calls (outside tests, docs,
    /// samples and tooling) against those resolved to a kind and listed, with a
    /// controller or a package. None when the project has no Go code (Rust's calls are
    /// not counted) or the model predates the count.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_calls: Option<ClientCalls>,
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
    /// What the registered Go extractors found, one table each (`go::extractor`).
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
    /// rows show the value (`manifests::yaml::helm_render`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub helm_rendered: Vec<HelmRendered>,
    /// Connections the code opens to services outside the cluster's API: databases,
    /// caches, queues, gRPC and HTTP endpoints, object stores (`go::connections`,
    /// `rust::connections`).
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
