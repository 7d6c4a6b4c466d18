//! Manifest objects that hold configuration and credentials: ConfigMaps, Secrets and
//! cert-manager objects.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::{Area, SourceRef, is_false};

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
