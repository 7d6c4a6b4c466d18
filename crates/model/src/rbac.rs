//! RBAC: rules (flat, from manifests and markers), service accounts, roles and bindings.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::{Area, Origin, SourceRef, is_false};

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
