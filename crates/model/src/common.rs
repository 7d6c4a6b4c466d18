//! Shared pieces of every row: where it was found (`SourceRef`), whether it belongs to the
//! component or its samples (`Area`), how it was read (`Origin`), kind names (`Gvk`) and
//! diagnostics.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

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

pub(crate) fn is_false(b: &bool) -> bool {
    !*b
}

pub(crate) fn is_zero<N: Default + PartialEq>(n: &N) -> bool {
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
