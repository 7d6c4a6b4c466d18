//! Helm charts: their dependencies, values, and template actions rendered with the defaults.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::{Area, SourceRef, is_false};

/// A Helm template action rendered with the chart's defaults: the rows of the object at
/// `source` (the line of its `kind:`, as in their sources; for an object a named template
/// holds, the include's line) show `value` where the template has `template`.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct HelmRendered {
    pub source: SourceRef,
    pub template: String,
    pub value: String,
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
