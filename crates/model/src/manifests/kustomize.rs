//! How manifests are assembled: kustomizations, their generators, vars and replacements, and
//! folders bundled from other projects.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::{Area, SourceRef, is_false};

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
