//! API definitions: CRDs with their schemas and CEL rules, Go API types described by
//! kubebuilder markers, and objects of deprecated API versions.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::{Area, SourceRef, is_false, is_zero};

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

/// A Go type a CRD version was matched with (see `go::api_docs`).
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
