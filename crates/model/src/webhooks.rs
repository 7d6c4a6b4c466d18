//! Admission and conversion webhooks, their rules and kustomize substitutions.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::{Area, Gvk, Origin, SourceRef, is_false};

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
